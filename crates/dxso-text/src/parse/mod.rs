//! Microsoft assembly text to [`dxso::Shader`] ([`parse()`]) or to its bytecode
//! ([`assemble()`]): [`preprocess`] turns the text (and its `#include`s) into tokens of active
//! lines, [`mod@assemble`] turns each line into an instruction; text that needs no
//! preprocessor takes a single pass over its bytes instead, which gives the same result.
//! Errors are collected as [`Diagnostics`]; a run reports every line it could not assemble.
//! An [`Assembler`] keeps what the single pass learnt of the words of one text for the next.

pub mod assemble;
mod assembler;
mod cache;
pub mod diag;
mod fast;
#[cfg(test)]
mod fast_tests;
pub mod lexer;
pub mod preprocess;
mod sink;
mod source_map;
mod words;

pub use assembler::Assembler;
pub use diag::{Diagnostic, Diagnostics, Rule};
pub(crate) use fast::newline;
pub use source_map::{Place, SourceMap};

use dxso::{Comment, Item, Shader};
use lexer::Site;
use miette::NamedSource;
use preprocess::{Preprocessor, Sources};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Most diagnostics one run reports (the rest are dropped).
const MAX_DIAGNOSTICS: usize = 64;

/// How to read the text.
#[derive(Default)]
pub struct ParseOptions<'a> {
    /// The file the text came from: names it in diagnostics and anchors its `#include`s.
    pub path: Option<PathBuf>,
    /// Where `#include`s of text without a path resolve (default: the current directory).
    pub include_dir: Option<PathBuf>,
    /// Folders `#include` also searches (fxc `/I`): after the including file's folder for
    /// `"file"`, before it for `<file>`.
    pub include_dirs: Vec<PathBuf>,
    /// Macros defined before the first line (`NAME`, `value`).
    pub defines: Vec<(String, String)>,
    /// Do not rebuild the constant table from a listing's `// Parameters:` / `// Registers:`
    /// header ([`crate::ctab`]); by default a text with that header assembles to a shader with
    /// a CTAB comment.
    pub skip_constant_table: bool,
    /// Reject instructions the shader version does not have (as D3DX's validation does).
    /// Off by default: the assembler encodes what it is given, and `dxso::validate` judges.
    pub strict: bool,
    /// Reads included files (default: the file system).
    #[allow(clippy::type_complexity)]
    pub include_reader: Option<Box<dyn Fn(&Path) -> std::io::Result<String> + 'a>>,
}

/// Assembles Microsoft assembly text with default [`ParseOptions`].
///
/// Each call starts with an empty memory of the words it reads; an [`Assembler`] keeps it
/// from text to text, which is faster for many texts.
pub fn parse(text: &str) -> Result<Shader, Diagnostics> {
    Assembler::for_one_text().parse(text)
}

/// Assembles Microsoft assembly text (see [`Assembler::parse_with`]).
pub fn parse_with(text: &str, options: &ParseOptions<'_>) -> Result<Shader, Diagnostics> {
    Assembler::for_one_text().parse_with(text, options)
}

/// [`parse_with`], with the warnings of a run that assembled: a `//` header that looks like
/// Microsoft's constant table but is not one (a note after the `// Registers:` table,
/// annotated lines, prose), which leaves the shader without a CTAB ([`Rule::ConstantTable`]).
pub fn parse_with_warnings(
    text: &str,
    options: &ParseOptions<'_>,
) -> Result<(Shader, Vec<Diagnostic>), Diagnostics> {
    Assembler::for_one_text().parse_with_warnings(text, options)
}

/// Assembles Microsoft assembly text to bytecode with default [`ParseOptions`]: the bytes of
/// [`dxso::encode()`] of what [`parse()`] gives, and the same [`Diagnostics`] when it fails.
///
/// Text that needs no preprocessor is assembled straight to its DWORDs in one pass, without
/// building a [`Shader`]; use this rather than `parse` then `encode` when only the bytes are
/// wanted, and an [`Assembler`] for many texts.
///
/// ```
/// let text = "ps_2_0\nmov oC0, c0\n";
/// let bytes = dxso_text::assemble(text)?;
/// assert_eq!(bytes, dxso::encode(&dxso_text::parse(text)?));
/// # Ok::<(), dxso_text::Diagnostics>(())
/// ```
pub fn assemble(text: &str) -> Result<Vec<u8>, Diagnostics> {
    Assembler::for_one_text().assemble(text)
}

/// Assembles Microsoft assembly text to bytecode: [`parse_with`] then [`dxso::encode()`], in
/// one pass for text that needs no preprocessor (see [`assemble()`]).
pub fn assemble_with(text: &str, options: &ParseOptions<'_>) -> Result<Vec<u8>, Diagnostics> {
    Assembler::for_one_text().assemble_with(text, options)
}

/// [`assemble_with`], with the warnings of a run that assembled (see
/// [`parse_with_warnings`]).
pub fn assemble_with_warnings(
    text: &str,
    options: &ParseOptions<'_>,
) -> Result<(Vec<u8>, Vec<Diagnostic>), Diagnostics> {
    Assembler::for_one_text().assemble_with_warnings(text, options)
}

/// The single-pass assembler with what the full path does around its assembler: the byte
/// order mark dropped, the constant table rebuilt from the header, into `out`, with the words
/// `seen` before. `None` when either part gives up or fails (the full path then runs and
/// reports).
fn fast_path<O: sink::Sink>(
    text: &str,
    options: &ParseOptions<'_>,
    seen: &mut fast::Kept<O>,
    out: &mut O,
) -> Option<()> {
    let text = without_bom(text);
    // The header is only `//` comments and blank lines, which the assembler would skip; it
    // starts after them. The table needs only the version to be whole, which the sink gives
    // it.
    let (table, body) = match options.skip_constant_table {
        true => (None, 0),
        false => {
            let (table, body) = crate::ctab::from_header(text);
            (table.ok()?, body)
        }
    };
    fast::assemble(text, body, options.strict, table, seen, out)
}

/// [`fast_path`] to a [`Shader`].
fn fast_shader(
    text: &str,
    options: &ParseOptions<'_>,
    seen: &mut fast::Kept<sink::Items>,
) -> Option<Shader> {
    let mut out = sink::Items::new();
    fast_path(text, options, seen, &mut out)?;
    Some(out.shader)
}

/// The full path: preprocessor, tokens, line parser.
///
/// `map`, when given, receives the place of each item of the shader.
fn parse_full(
    text: &str,
    options: &ParseOptions<'_>,
    map: Option<&mut SourceMap>,
) -> Result<(Shader, Vec<Diagnostic>), Diagnostics> {
    let fs_reader = |p: &Path| std::fs::read_to_string(p);
    let reader: &preprocess::IncludeReader<'_> = match &options.include_reader {
        Some(r) => r.as_ref(),
        None => &fs_reader,
    };
    let mut pre = Preprocessor::new(&options.defines, reader, options.include_dir.clone())
        .with_include_dirs(options.include_dirs.clone());
    let name = options
        .path
        .as_ref()
        .map_or_else(|| "<input>".to_string(), |p| p.display().to_string());
    let root = pre
        .sources
        .add(name, options.path.clone(), without_bom(text).into());
    if let Some(p) = &options.path {
        pre.enter_root(p);
    }
    let mut sink = Sink::default();
    let mut tokens = Vec::with_capacity(text.len() / 3 + 16);
    pre.run(root, &mut tokens, &mut sink);
    let sources = pre.sources;
    let mut sites = map.is_some().then(Vec::new);
    let mut shader =
        assemble::assemble(&tokens, &sources, options.strict, &mut sink, sites.as_mut());
    let mut places: Vec<Option<Place>> = sites
        .unwrap_or_default()
        .into_iter()
        .map(|site| locate(&sources, site).map(|(place, _)| place))
        .collect();
    if let (Some(s), false) = (shader.as_mut(), options.skip_constant_table) {
        // Comment blocks given as `// dxso:` lines are the shader's own, CTAB included.
        let lossless = s.items.iter().any(|i| matches!(i, Item::Comment(_)));
        if sink.errors.is_empty() && !lossless {
            let before = s.items.len();
            add_constant_table(s, &sources, root, &mut sink);
            // The table comes from the header, not from one line.
            if s.items.len() > before {
                places.insert(0, None);
            }
        }
    }
    if let Some(map) = map {
        map.places = places;
    }
    match shader {
        Some(s) if sink.errors.is_empty() => Ok((s, sink.warnings)),
        _ => {
            if sink.errors.is_empty() {
                sink.error(
                    &sources,
                    Rule::MissingVersion,
                    Site {
                        file: root,
                        start: 0,
                        end: 0,
                    },
                    "the text has no version statement (vs_2_0, ps_3_0, ...)".into(),
                );
            }
            // The preprocessor and the assembler report in separate passes; show text order.
            sink.errors.sort_by_key(|d| (d.file_index, d.span.start));
            Err(Diagnostics {
                errors: sink.errors,
            })
        }
    }
}

/// Puts the table rebuilt from the root text's header first, where fxc puts its CTAB. A header
/// that is not Microsoft's table leaves the shader without one, with a warning at its line.
fn add_constant_table(shader: &mut Shader, sources: &Sources, root: u32, sink: &mut Sink) {
    let text = &sources.files[root as usize].text;
    match crate::ctab::from_listing(text, shader.version) {
        Ok(Some(table)) => shader.items.insert(
            0,
            Item::Comment(Comment {
                data: table.to_words(),
            }),
        ),
        Ok(None) => {}
        Err(e) => {
            let site = Site {
                file: root,
                start: e.span.start as u32,
                end: e.span.end as u32,
            };
            let message = format!(
                "the `//` header is not Microsoft's constant table ({}); assembled without a CTAB",
                e.message
            );
            sink.warn(sources, Rule::ConstantTable, site, message);
        }
    }
}

/// `text` without a leading UTF-8 byte-order mark (editors on Windows save one; D3DX accepts it).
/// Lines and columns count from the character after it.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The line and column of `site` (as `#line` renames and renumbers them) and its byte range,
/// clamped to its source's text.
fn locate(sources: &Sources, site: Site) -> Option<(Place, std::ops::Range<usize>)> {
    let src = sources.files.get(site.file as usize)?;
    let text = &src.text;
    let start = (site.start as usize).min(text.len());
    let end = (site.end as usize).clamp(start, text.len());
    let before = &text[..start];
    let mut line = before.bytes().filter(|&b| b == b'\n').count() as u32 + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() as u32 + 1;
    let mut file = src.name.clone();
    if let Some((_, physical, number, name)) =
        src.line_map.iter().rev().find(|m| m.0 as usize <= start)
    {
        line = number + (line - physical);
        if let Some(n) = name {
            file = n.clone();
        }
    }
    Some((Place { file, line, column }, start..end))
}

/// Collects diagnostics, turning byte sites into lines and columns.
#[derive(Default)]
pub struct Sink {
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    named: Vec<Option<Arc<NamedSource<Arc<str>>>>>,
}

impl Sink {
    /// Records an error at `site`.
    pub fn error(&mut self, sources: &Sources, rule: Rule, site: Site, message: String) {
        if self.errors.len() >= MAX_DIAGNOSTICS {
            return;
        }
        if let Some(d) = self.diagnostic(sources, rule, site, message) {
            self.errors.push(d);
        }
    }

    /// Records a warning at `site`: the run still assembles.
    pub fn warn(&mut self, sources: &Sources, rule: Rule, site: Site, message: String) {
        if self.warnings.len() >= MAX_DIAGNOSTICS {
            return;
        }
        if let Some(d) = self.diagnostic(sources, rule, site, message) {
            self.warnings.push(d);
        }
    }

    fn diagnostic(
        &mut self,
        sources: &Sources,
        rule: Rule,
        site: Site,
        message: String,
    ) -> Option<Diagnostic> {
        let src = sources.files.get(site.file as usize)?;
        let (place, span) = locate(sources, site)?;
        let (start, end, text) = (span.start, span.end, &src.text);
        let (file, line, column) = (place.file, place.line, place.column);
        if self.named.len() <= site.file as usize {
            self.named.resize(site.file as usize + 1, None);
        }
        let named = self.named[site.file as usize]
            .get_or_insert_with(|| Arc::new(NamedSource::new(src.name.clone(), text.clone())))
            .clone();
        Some(Diagnostic::new(
            rule,
            message,
            file,
            line,
            column,
            start..end,
            named,
            site.file,
        ))
    }
}
