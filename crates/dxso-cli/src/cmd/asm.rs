use anyhow::{Context, Result};
use std::fmt::Write as _;
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

/// Assemble Microsoft shader assembly (what D3DXAssembleShader and fxc accept) to bytecode.
///
/// The text may use the C preprocessor (#define, #if, #include relative to the file, #line).
/// Errors are reported with the file, line, column and the rule broken; every bad line is
/// reported, not only the first.
///
/// Examples:
///   dxso asm shader.asm -o shader.dxso
///   dxso asm shader.asm --format header --name g_ps_main -o shader.h
///   dxso asm shader.asm -D USE_FOG=1 -o shader.dxso
///   dxso disasm shader.dxso | dxso asm - -o copy.dxso
///
/// Exit status: 0 on success, 1 when the text does not assemble, 2 on usage errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    /// The assembly text, or `-` for standard input.
    file: PathBuf,
    /// Where to write the result (`-` for standard output).
    #[arg(short, long)]
    output: PathBuf,
    /// `bin`: raw bytecode; `header`: a C array with the listing above it, as fxc /Fh writes.
    #[arg(long, value_enum, default_value_t = Format::Bin)]
    format: Format,
    /// The array name for `--format header`.
    #[arg(long, default_value = "g_main")]
    name: String,
    /// Define a macro before the first line (`NAME` or `NAME=VALUE`).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    define: Vec<String>,
    /// Reject instructions the shader version does not have.
    #[arg(long)]
    strict: bool,
}

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Raw little-endian bytecode.
    Bin,
    /// A C header: `const BYTE name[] = { ... };` after the listing in `#if 0`.
    Header,
}

impl Opts {
    pub fn run(self) -> Result<ExitCode> {
        let stdin = self.file.as_os_str() == "-";
        let text = if stdin {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .context("reading standard input")?;
            s
        } else {
            std::fs::read_to_string(&self.file)
                .with_context(|| format!("reading {}", self.file.display()))?
        };
        let options = dxso_text::ParseOptions {
            path: (!stdin).then(|| self.file.clone()),
            defines: self
                .define
                .iter()
                .map(|d| match d.split_once('=') {
                    Some((n, v)) => (n.to_string(), v.to_string()),
                    None => (d.clone(), "1".to_string()),
                })
                .collect(),
            strict: self.strict,
            ..Default::default()
        };
        let shader = match dxso_text::parse_with(&text, &options) {
            Ok(s) => s,
            Err(diagnostics) => {
                let handler = miette::GraphicalReportHandler::new()
                    .with_theme(miette::GraphicalTheme::unicode_nocolor());
                for d in &diagnostics.errors {
                    let mut rendered = String::new();
                    if handler.render_report(&mut rendered, d).is_err() {
                        rendered = d.to_string();
                    }
                    eprint!("{rendered}");
                }
                eprintln!(
                    "error: {} error(s); nothing written",
                    diagnostics.errors.len()
                );
                return Ok(ExitCode::from(1));
            }
        };
        let bytes = dxso::encode(&shader);
        let out = match self.format {
            Format::Bin => bytes,
            Format::Header => c_header(&shader, &bytes, &self.name).into_bytes(),
        };
        super::reencode::write_output(&self.output, &out)?;
        Ok(ExitCode::SUCCESS)
    }
}

/// The fxc `/Fh` layout: the listing in `#if 0`, then the bytes six to a line.
fn c_header(shader: &dxso::Shader, bytes: &[u8], name: &str) -> String {
    let mut out = String::from("#if 0\n");
    out.push_str(&dxso_text::print(shader));
    out.push_str("#endif\n\nconst BYTE ");
    out.push_str(name);
    out.push_str("[] =\n{\n");
    for (i, chunk) in bytes.chunks(6).enumerate() {
        out.push_str("   ");
        for (j, b) in chunk.iter().enumerate() {
            let _ = write!(out, " {b:>3}");
            let last = (i * 6 + j + 1) == bytes.len();
            if !last {
                out.push(',');
            }
        }
        out.push('\n');
    }
    out.push_str("};\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lists_every_byte() {
        let shader = dxso_text::parse("vs_1_1\nnop\n").unwrap();
        let bytes = dxso::encode(&shader);
        let h = c_header(&shader, &bytes, "g_vs");
        assert!(h.starts_with("#if 0\n    vs_1_1\n    nop\n"));
        assert!(h.contains("const BYTE g_vs[] =\n{\n      1,   1, 254, 255,   0,   0,\n      0,   0, 255, 255,   0,   0\n};\n"));
        assert_eq!(crate::input::header_array(&h, Some("g_vs")).unwrap(), bytes);
    }
}
