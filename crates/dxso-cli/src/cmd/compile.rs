use crate::cmd::asm::{c_header, Element};
use crate::report::CliError;
use crate::session::Session;
use anyhow::Result;
use clap::Parser;
use dxso_hlsl::{compile, FileIncludes, MatrixPacking, Options, Profile, Source};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// Compile HLSL to shader bytecode for vs_1_1 and shader models 2 and 3, as fxc does.
///
/// Takes dxso's own options and fxc's spellings alike, so build scripts written for fxc run
/// unchanged: `/T ps_2_0`, `/Tps_2_0`, `-Tps_2_0` and `-T ps_2_0` are the same; so are `/E`,
/// `/D`, `/I`, `/Fo` (the bytecode), `/Fc` (the listing, as `dxso disasm` prints it), `/Fh`
/// (a C header as fxc writes it, `/Vn` naming its array), `/nologo`, `/Od`, `/O0`-`/O3`,
/// `/Zpr`, `/Zpc`, `/Gec`, `/Op` (no preshaders in effects). `/Gpp /Gfa /Gfp /Ges /LD /Zi /Vd
/// /WX` are accepted; they change
/// nothing in dxso (`-v` says so). Diagnostics use fxc's form:
/// `file(line,col-col): error X3004: undeclared identifier 'foo'`.
///
/// `-T fx_2_0` compiles the whole file as an effect (techniques, passes, parameters with
/// annotations, sampler states, each `compile` target): `/Fo` writes the fx_2_0 binary, `/Fc`
/// and the default output its description as `dxso fx info --json` gives it.
///
/// Examples:
///   dxso compile shader.hlsl -T ps_2_0 -E main -o shader.dxso
///   dxso compile /T vs_2_0 /E vs_main /DFOG=1 /Fo shader.vso shader.hlsl
///   dxso compile /nologo /Tps_3_0 /Fh shader.h /Vn g_ps shader.hlsl
///   dxso compile BasicEffect.fx -T fx_2_0 -o BasicEffect.fxb
///   dxso decompile shader.dxso | dxso compile - -T ps_2_0 -E main   (the source from stdin)
///
/// Exit status: 0 on success, 1 when the source does not compile, 2 on usage and I/O errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment, disable_help_flag = true)]
pub struct Opts {
    /// The source file and options, in dxso's or fxc's spelling (`dxso compile --help` lists
    /// them).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0.., value_name = "ARGS")]
    args: Vec<String>,
}

/// The options after fxc's spellings are rewritten into these.
#[derive(clap::Parser, Debug)]
#[command(
    name = "dxso compile",
    no_binary_name = true,
    disable_version_flag = true,
    disable_help_flag = true
)]
struct Args {
    /// The HLSL source.
    file: PathBuf,
    /// The profile: vs_2_0, vs_2_x, vs_3_0, ps_2_0, ps_2_x, ps_3_0, or fx_2_0 for an effect
    /// (fxc `/T`).
    #[arg(short = 'T', value_name = "PROFILE")]
    profile: String,
    /// The entry-point function (fxc `/E`).
    #[arg(short = 'E', default_value = "main", value_name = "NAME")]
    entry: String,
    /// Define a macro (`NAME` or `NAME=VALUE`; fxc `/D`).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    define: Vec<String>,
    /// A folder `#include` searches after the including file's folder (fxc `/I`).
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Write the bytecode here (fxc `/Fo`).
    #[arg(short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Write the listing here (fxc `/Fc`).
    #[arg(long = "Fc", value_name = "FILE")]
    listing: Option<PathBuf>,
    /// Write a C header with the listing and a BYTE array here (fxc `/Fh`).
    #[arg(long = "Fh", value_name = "FILE")]
    header: Option<PathBuf>,
    /// The header's array name (fxc `/Vn`; default `g_<profile>_<entry>` as fxc names it).
    #[arg(long = "Vn", value_name = "NAME")]
    variable: Option<String>,
    /// Optimisation level 0-3 (fxc `/O0`-`/O3`).
    #[arg(short = 'O', value_parser = clap::value_parser!(u8).range(0..=3))]
    optimization: Option<u8>,
    /// Skip optimisation (fxc `/Od`).
    #[arg(long = "Od")]
    skip_optimization: bool,
    /// Pack matrices in rows (fxc `/Zpr`).
    #[arg(long = "Zpr")]
    row_major: bool,
    /// Pack matrices in columns, the default (fxc `/Zpc`).
    #[arg(long = "Zpc")]
    column_major: bool,
    /// Accept old syntax (fxc `/Gec`).
    #[arg(long = "Gec")]
    compatibility: bool,
    /// Keep an effect's parameter-only computations in its shaders instead of a preshader
    /// (fxc `/Op`).
    #[arg(long = "Op")]
    no_preshaders: bool,
    /// fxc options that change nothing in dxso.
    #[arg(long = "no-effect", value_name = "OPTION", hide = true)]
    no_effect: Vec<String>,
    /// Print this help.
    #[arg(short = 'h', long = "help", action = clap::ArgAction::Help)]
    help: Option<bool>,
}

/// fxc options with a value, longest first so `/Fo` is not read as `/F` + `o`.
const VALUED: [(&str, &str); 8] = [
    ("Fo", "-o"),
    ("Fc", "--Fc"),
    ("Fh", "--Fh"),
    ("Vn", "--Vn"),
    ("T", "-T"),
    ("E", "-E"),
    ("D", "-D"),
    ("I", "-I"),
];

/// fxc flags dxso takes as they are.
const FLAGS: [&str; 6] = ["Od", "Zpr", "Zpc", "Gec", "nologo", "Op"];

/// fxc flags that change nothing in dxso.
const NO_EFFECT: [&str; 10] = ["Gpp", "Gfa", "Gfp", "Ges", "LD", "Zi", "Vd", "WX", "Gis", "Vi"];

/// Rewrites fxc's spellings (`/Tps_2_0`, `-Tps_2_0`, `/Fo x`, `/O3`) into [`Args`]' own.
fn normalise(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = args.iter().peekable();
    while let Some(a) = it.next() {
        // dxso's global `--json` after `compile` lands here; `main` has read it already.
        if a == "--json" {
            continue;
        }
        // A path that exists is a path, even when it starts with `/`.
        let body = match a
            .strip_prefix('/')
            .or_else(|| a.strip_prefix('-').filter(|b| !b.starts_with('-')))
        {
            Some(b) if !(b.is_empty() || a.starts_with('/') && Path::new(a).exists()) => b,
            _ => {
                out.push(a.clone());
                continue;
            }
        };
        if body == "?" || body == "help" || body == "h" {
            out.push("--help".into());
            continue;
        }
        if FLAGS.contains(&body) {
            if body != "nologo" {
                out.push(format!("--{body}"));
            }
            continue;
        }
        if NO_EFFECT.contains(&body) {
            out.push("--no-effect".into());
            out.push(body.to_string());
            continue;
        }
        if let Some(level) = body.strip_prefix('O').filter(|l| l.len() == 1) {
            out.push(format!("-O{level}"));
            continue;
        }
        if body == "o" {
            out.push("-o".into());
            continue;
        }
        match VALUED.iter().find(|(name, _)| body.starts_with(name)) {
            Some((name, flag)) => {
                out.push(flag.to_string());
                let glued = &body[name.len()..];
                if !glued.is_empty() {
                    out.push(glued.to_string());
                } else if let Some(v) = it.next() {
                    out.push(v.clone());
                }
            }
            None => out.push(a.clone()),
        }
    }
    out
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        let args = match Args::try_parse_from(normalise(&self.args)) {
            Ok(a) => a,
            Err(e) if matches!(e.kind(), clap::error::ErrorKind::DisplayHelp) => {
                s.print(&e.to_string())?;
                return Ok(ExitCode::SUCCESS);
            }
            Err(e) => return Err(CliError::Usage(e.to_string().trim_end().to_string()).into()),
        };
        for option in &args.no_effect {
            log::info!("/{option} changes nothing in dxso");
        }
        if args.compatibility {
            log::info!("/Gec: dxso accepts the old syntax always");
        }
        let effect = args.profile.eq_ignore_ascii_case("fx_2_0");
        let profile: Profile = if effect {
            Profile::Vs20
        } else {
            args.profile.parse()
            .map_err(|e: dxso_hlsl::UnknownProfile| CliError::Usage(e.to_string()))?
        };
        // `-` reads the source from standard input (`dxso decompile x | dxso compile - ...`).
        let source = crate::input::Source::read(&args.file)?;
        // Any text: an effect's `asm {}` blocks make it look like assembly too.
        source.expect(&[
            crate::input::Kind::Hlsl,
            crate::input::Kind::Text,
            crate::input::Kind::Assembly,
            crate::input::Kind::Empty,
        ])?;
        let text = source.text()?.to_string();
        let mut options = Options::new(&args.entry, profile);
        options.defines = args
            .define
            .iter()
            .map(|d| match d.split_once('=') {
                Some((n, v)) => (n.to_string(), v.to_string()),
                None => (d.clone(), "1".to_string()),
            })
            .collect();
        options.includes = Arc::new(FileIncludes {
            dirs: args.include.clone(),
        });
        options.packing = if args.row_major && !args.column_major {
            MatrixPacking::RowMajor
        } else {
            MatrixPacking::ColumnMajor
        };
        options.optimization = if args.skip_optimization {
            0
        } else {
            args.optimization.unwrap_or(1)
        };
        options.backwards_compatibility = args.compatibility;
        options.preshaders = !args.no_preshaders;
        let name = args.file.to_string_lossy().into_owned();
        if effect {
            return compile_effect_file(s, &args, &Source::new(&name, text), &options);
        }
        let compiled = match compile(&Source::new(&name, text), &options) {
            Ok(c) => c,
            Err(diagnostics) => return failed(s, &diagnostics.0),
        };
        warnings(s, &compiled.warnings);
        let bytes = compiled.bytes();
        let mut wrote = false;
        if let Some(path) = &args.output {
            to(path).write_binary(s, &bytes)?;
            wrote = true;
        }
        if let Some(path) = &args.listing {
            to(path).write_text(s, dxso_text::print(&compiled.shader).as_bytes())?;
            wrote = true;
        }
        if let Some(path) = &args.header {
            let variable = args.variable.clone().unwrap_or_else(|| {
                let p = profile.to_string().replace('_', "");
                format!("g_{}_{}", p, args.entry)
            });
            let text = c_header(&compiled.shader, &bytes, &variable, Element::Byte);
            to(path).write_text(s, text.as_bytes())?;
            wrote = true;
        }
        if !wrote {
            // fxc prints the listing when no output file is named.
            s.print(&dxso_text::print(&compiled.shader))?;
        }
        Ok(ExitCode::SUCCESS)
    }
}

/// A compilation that failed: fxc's lines, then its closing line, on standard error; under
/// `--json` the diagnostics are also the run's document. Nothing is written.
fn failed(s: &Session, diagnostics: &[dxso_hlsl::Diagnostic]) -> Result<ExitCode> {
    for d in diagnostics {
        s.stderr(&format!("{d}\n"));
    }
    s.stderr("compilation failed; no code produced\n");
    let error = serde_json::json!({
        "kind": "compile",
        "message": "compilation failed; no code produced",
        "diagnostics": diagnostics.iter().map(diagnostic_json).collect::<Vec<_>>(),
        "exit_status": 1,
    });
    s.finish_json(Some(("error", error)))?;
    Ok(ExitCode::from(1))
}

/// The compiler's warnings on standard error.
fn warnings(s: &Session, warnings: &[dxso_hlsl::Diagnostic]) {
    for w in warnings {
        s.stderr(&format!("{w}\n"));
    }
}

/// One compiler diagnostic as JSON: fxc's code, severity, place and message.
fn diagnostic_json(d: &dxso_hlsl::Diagnostic) -> serde_json::Value {
    serde_json::json!({
        "code": d.code.name(),
        "severity": match d.severity {
            dxso_hlsl::Severity::Error => "error",
            dxso_hlsl::Severity::Warning => "warning",
        },
        "file": d.loc.file,
        "line": d.loc.line,
        "column": d.loc.col,
        "column_end": d.loc.col_end,
        "message": d.message,
    })
}

/// A file named with `/Fo`, `/Fc` or `/Fh` (`-` is standard output), through the CLI's output
/// layer.
fn to(path: &std::path::Path) -> crate::output::OutputArg {
    crate::output::OutputArg {
        output: Some(path.to_path_buf()),
    }
}

/// `-T fx_2_0`: the whole file as an effect; `/Fo` writes the effect, `/Fc` its description
/// (as `dxso fx info --json` gives it).
fn compile_effect_file(
    s: &Session,
    args: &Args,
    source: &Source,
    options: &Options,
) -> Result<ExitCode> {
    let compiled = match dxso_hlsl::effect::compile_effect(source, options) {
        Ok(c) => c,
        Err(diagnostics) => return failed(s, &diagnostics.0),
    };
    warnings(s, &compiled.warnings);
    let bytes = compiled.bytes();
    let describe = || dxso_fx::describe::info(&compiled.effect, &source.name, bytes.len());
    let mut wrote = false;
    if let Some(path) = &args.output {
        to(path).write_binary(s, &bytes)?;
        wrote = true;
    }
    if let Some(path) = &args.listing {
        to(path).write_text(s, (serde_json::to_string_pretty(&describe())? + "\n").as_bytes())?;
        wrote = true;
    }
    if args.header.is_some() {
        return Err(CliError::Usage("/Fh writes shaders; an effect is written with /Fo".into()).into());
    }
    if !wrote {
        s.print_json(&describe())?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(args: &[&str]) -> Vec<String> {
        normalise(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn fxc_spellings() {
        assert_eq!(
            n(&["/Tps_2_0", "/E", "main", "x.hlsl"]),
            ["-T", "ps_2_0", "-E", "main", "x.hlsl"]
        );
        assert_eq!(
            n(&["-Tvs_3_0", "/DFOO=1", "/Fo", "a.vso"]),
            ["-T", "vs_3_0", "-D", "FOO=1", "-o", "a.vso"]
        );
        assert_eq!(
            n(&["/nologo", "/O3", "/Zpr", "/Gfp"]),
            ["-O3", "--Zpr", "--no-effect", "Gfp"]
        );
        assert_eq!(n(&["/Fhx.h", "/Vn", "g_x"]), ["--Fh", "x.h", "--Vn", "g_x"]);
        let a = Args::try_parse_from(n(&["/T", "ps_2_0", "/Fc", "x.lst", "s.hlsl"])).unwrap();
        assert_eq!(a.profile, "ps_2_0");
        assert_eq!(a.listing, Some(PathBuf::from("x.lst")));
        assert_eq!(a.file, PathBuf::from("s.hlsl"));
    }
}
