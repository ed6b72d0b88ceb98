//! # dxso-hlsl
//!
//! An HLSL compiler for Direct3D 9 shader models 2 and 3 and vs_1_1: `compile(&Source, &Options)` preprocesses
//! ([`preprocess`]), parses ([`parser`]) and checks and lowers the entry point into an IR of
//! vector values in an arena ([`ir`]: functions inlined, constants folded, common values shared,
//! dead lanes and values dropped), then generates a [`dxso::Shader`] for the profile
//! ([`codegen`]) with its constant table, which `dxso::validate` accepts.
//!
//! ```
//! use dxso_hlsl::{compile, Options, Profile, Source};
//! let src = Source::new("t.hlsl", "float4 c; float4 main() : COLOR { return c * 2; }");
//! let out = compile(&src, &Options::new("main", Profile::Ps20)).unwrap();
//! assert_eq!(out.shader.version.to_string(), "ps_2_0");
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod ast;
pub mod codegen;
mod consteval;
pub mod diag;
pub mod effect;
#[cfg(feature = "equivalence")]
pub mod equivalence;
pub mod ir;
mod legalize;
pub mod lexer;
pub mod lower;
pub mod parser;
pub mod preprocess;
mod profile;
#[cfg(feature = "equivalence")]
pub mod shader_test;

pub use diag::{Code, Diagnostic, Diagnostics, Loc, Severity};
pub use profile::{Profile, UnknownProfile};

// The README's examples run as doctests, so the crate's front page stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A source text and the name diagnostics give it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The file name (as fxc prints it in diagnostics).
    pub name: String,
    /// The text.
    pub text: String,
}

impl Source {
    /// A source named `name`.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        Source {
            name: name.into(),
            text: text.into(),
        }
    }
}

/// Opens the files `#include` names.
pub trait IncludeHandler {
    /// Opens `name`, included from the file named `from` (`None` for the root source), with
    /// `system` set for `<name>`; returns the name diagnostics should use and the text, or why
    /// it cannot.
    fn open(
        &self,
        name: &str,
        from: Option<&str>,
        system: bool,
    ) -> Result<(String, String), String>;
}

/// An include handler that opens nothing (every `#include` fails).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoIncludes;

impl IncludeHandler for NoIncludes {
    fn open(&self, _: &str, _: Option<&str>, _: bool) -> Result<(String, String), String> {
        Err("no include handler".into())
    }
}

/// Opens includes from the file system: relative to the including file's folder, then each
/// `-I` folder in order (`<name>`: the folders only), as fxc does.
#[derive(Clone, Debug, Default)]
pub struct FileIncludes {
    /// `-I` folders.
    pub dirs: Vec<PathBuf>,
}

impl IncludeHandler for FileIncludes {
    fn open(
        &self,
        name: &str,
        from: Option<&str>,
        system: bool,
    ) -> Result<(String, String), String> {
        let mut candidates = Vec::new();
        if !system {
            let base = from
                .and_then(|f| Path::new(f).parent())
                .map(Path::to_path_buf)
                .unwrap_or_default();
            candidates.push(base.join(name));
        }
        candidates.extend(self.dirs.iter().map(|d| d.join(name)));
        for c in &candidates {
            if let Ok(text) = std::fs::read_to_string(c) {
                return Ok((c.to_string_lossy().into_owned(), text));
            }
        }
        Err("not found".into())
    }
}

/// How matrices are packed into registers when a declaration does not say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MatrixPacking {
    /// One register per column (fxc's default, `/Zpc`).
    #[default]
    ColumnMajor,
    /// One register per row (`/Zpr`).
    RowMajor,
}

/// What to compile and how.
#[derive(Clone)]
pub struct Options {
    /// The entry-point function (`/E`).
    pub entry: String,
    /// The target profile (`/T`).
    pub profile: Profile,
    /// `/D NAME=VALUE` macros.
    pub defines: Vec<(String, String)>,
    /// Opens `#include`d files; [`NoIncludes`] by default.
    pub includes: Arc<dyn IncludeHandler + Send + Sync>,
    /// The default matrix packing (`/Zpr`, `/Zpc`).
    pub packing: MatrixPacking,
    /// Optimisation level 0-3 (`/Od` is 0); dxso applies the same optimisations at every level
    /// above 0 and at 0 still folds constants (fxc's `/Od` keeps more instructions).
    pub optimization: u8,
    /// `/Gec`: accept old syntax (dxso accepts it always).
    pub backwards_compatibility: bool,
    /// Shaders of effects (`fx_2_0`) hand what they compute from parameters alone to a
    /// preshader, as fxc does unless `/Op` is given. Shader profiles are not affected.
    pub preshaders: bool,
}

impl Options {
    /// Options for `entry` and `profile`, everything else at fxc's defaults.
    pub fn new(entry: &str, profile: Profile) -> Self {
        Options {
            entry: entry.to_string(),
            profile,
            defines: Vec::new(),
            includes: Arc::new(NoIncludes),
            packing: MatrixPacking::ColumnMajor,
            optimization: 1,
            backwards_compatibility: false,
            preshaders: true,
        }
    }
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("entry", &self.entry)
            .field("profile", &self.profile)
            .field("defines", &self.defines)
            .field("packing", &self.packing)
            .field("optimization", &self.optimization)
            .field("backwards_compatibility", &self.backwards_compatibility)
            .field("preshaders", &self.preshaders)
            .finish_non_exhaustive()
    }
}

/// A compiled shader.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The shader, with its constant table as the first comment.
    pub shader: dxso::Shader,
    /// Warnings (X3206 and others).
    pub warnings: Vec<Diagnostic>,
}

impl Compiled {
    /// The shader's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        dxso::encode(&self.shader)
    }
}

/// The stack the compiler runs on: parsing and lowering recurse once per nesting level (bounded
/// by [`parser::MAX_DEPTH`] and [`lower::MAX_CALL_DEPTH`]), which a small thread stack (2 MiB for
/// spawned threads, less in unoptimised builds' large frames) would not hold.
pub const STACK_SIZE: usize = 64 << 20;

/// Compiles `source` as `options` say.
///
/// The work runs on a thread of its own with a [`STACK_SIZE`] stack, as rustc runs its own, so
/// the nesting limits hold whatever thread calls; where no thread can be started it runs on the
/// caller's.
pub fn compile(source: &Source, options: &Options) -> Result<Compiled, Diagnostics> {
    std::thread::scope(|scope| {
        match std::thread::Builder::new()
            .name("dxso-hlsl".into())
            .stack_size(STACK_SIZE)
            .spawn_scoped(scope, || compile_here(source, options))
        {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => compile_here(source, options),
        }
    })
}

fn compile_here(source: &Source, options: &Options) -> Result<Compiled, Diagnostics> {
    let pre = preprocess::preprocess(
        &source.name,
        &source.text,
        &options.defines,
        options.includes.as_ref(),
    )?;
    let program = parser::parse(
        &pre.tokens,
        &pre.files,
        options.packing == MatrixPacking::RowMajor,
    )?;
    let mut warnings = Vec::new();
    let module = lower::lower(&program, options, &mut warnings).map_err(|e| with(e, &warnings))?;
    let shader = codegen::generate(&module, options).map_err(|e| with(e, &warnings))?;
    Ok(Compiled { shader, warnings })
}

fn with(e: Diagnostic, warnings: &[Diagnostic]) -> Diagnostics {
    let mut all = warnings.to_vec();
    all.push(e);
    Diagnostics(all)
}

/// Compiles arbitrary bytes as a pixel and a vertex shader source: the fuzz target's entry.
/// Never panics; every failure is a [`Diagnostics`].
pub fn fuzz_compile(data: &[u8]) -> usize {
    let text = String::from_utf8_lossy(data);
    let src = Source::new("fuzz.hlsl", text.into_owned());
    let mut ok = 0;
    for profile in [Profile::Ps20, Profile::Vs30, Profile::Vs11] {
        if let Ok(c) = compile(&src, &Options::new("main", profile)) {
            ok += 1;
            let _ = c.bytes();
        }
    }
    ok
}
