use crate::input::FileArg;
use crate::output::{OutputArg, Target};
use crate::report::CliError;
use crate::session::Session;
use anyhow::Result;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// Assemble Microsoft shader assembly (what D3DXAssembleShader and fxc accept) to bytecode.
///
/// The text may use the C preprocessor (#define, #if, #include relative to the file, then the
/// -I folders, #line); a UTF-8 byte-order mark and CRLF line ends are accepted. Errors are
/// reported with the file, line, column and the rule broken; every bad line is reported, not
/// only the first. The result is validated as D3DXAssembleShader validates it: findings are
/// printed, and an invalid shader is not written (--no-validate skips this, as
/// D3DXSHADER_SKIPVALIDATION does; with raw output and no --listing, the text then goes
/// straight to bytes, the same bytes, without building the shader). When the text carries
/// the `// Parameters:` and `// Registers:` header that `dxso disasm` and fxc print, the
/// constant table (CTAB) is rebuilt from it, so `dxso disasm x.dxso | dxso asm` gives back a
/// shader D3DX can read the constants of. A header that holds more than Microsoft's table (a
/// note after the register table, annotations, prose) is left out with a warning naming its
/// line, and the shader assembles without a CTAB.
///
/// Examples:
///   dxso asm shader.asm -o shader.dxso
///   dxso asm shader.asm --format header --name g_ps_main -o shader.h
///   dxso asm shader.asm --format header-dwords -o shader.h       (DWORD array)
///   dxso asm shader.asm -D USE_FOG=1 -I include/ -o shader.dxso
///   dxso asm shader.asm -o shader.dxso --listing shader.lst       (fxc /Fo with /Fc)
///   dxso disasm shader.dxso | dxso asm -o copy.dxso
///
/// Exit status: 0 on success, 1 when the text does not assemble or the shader is invalid, 2 on
/// usage errors (binary output to a terminal without `-o -`).
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    input: FileArg,
    #[command(flatten)]
    output: OutputArg,
    /// `bin`: raw bytecode; `header`: a C BYTE array with the listing above it, as fxc /Fh
    /// writes; `header-dwords`: the same with a DWORD array.
    #[arg(long, value_enum, default_value_t = Format::Bin)]
    format: Format,
    /// The array name for `--format header` and `header-dwords`.
    #[arg(long, default_value = "g_main", value_name = "ARRAY")]
    name: String,
    /// Define a macro before the first line (`NAME` or `NAME=VALUE`).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    define: Vec<String>,
    /// A folder `#include` searches after the including file's own folder (repeatable).
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Also write Microsoft's listing of the result to this file (as fxc /Fc beside /Fo).
    #[arg(long, value_name = "FILE")]
    listing: Option<PathBuf>,
    /// Do not validate the result (D3DXSHADER_SKIPVALIDATION).
    #[arg(long)]
    no_validate: bool,
    /// Reject instructions the shader version does not have while assembling.
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    limits: super::validate::LimitArgs,
}

/// Reports the assembler's warnings (a header that is not Microsoft's constant table) on
/// standard error, each with its file, line and column.
fn warn_all(s: &Session, warnings: &[dxso_text::Diagnostic]) {
    for w in warnings {
        s.warn(&w.to_string());
    }
}

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Raw little-endian bytecode.
    Bin,
    /// A C header: `const BYTE name[] = { ... };` after the listing in `#if 0`.
    Header,
    /// A C header: `const DWORD name[] = { ... };` after the listing in `#if 0`.
    HeaderDwords,
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        if let Some(path) = &self.listing {
            if self.output.target() == Target::File(path.clone()) {
                return Err(CliError::Usage(format!(
                    "--listing and -o both name {}",
                    path.display()
                ))
                .into());
            }
        }
        let inputs: Vec<&std::path::Path> = self.input.file.iter().map(|p| p.as_path()).collect();
        let listing: Vec<&std::path::Path> = self.listing.iter().map(|p| p.as_path()).collect();
        self.output.check(&inputs, &listing)?;
        let source = self.input.read(s)?;
        let options = dxso_text::ParseOptions {
            defines: self
                .define
                .iter()
                .map(|d| match d.split_once('=') {
                    Some((n, v)) => (n.to_string(), v.to_string()),
                    None => (d.clone(), "1".to_string()),
                })
                .collect(),
            include_dirs: self.include.clone(),
            strict: self.strict,
            ..Default::default()
        };
        if self.format == Format::Bin {
            self.output.check_binary(s)?;
        }
        if self.no_validate && self.format == Format::Bin && self.listing.is_none() {
            // Only the bytes are wanted: text to bytecode without building the shader.
            let (bytes, warnings) = source.assemble_bytes(options)?;
            warn_all(s, &warnings);
            self.output.write_binary(s, &bytes)?;
            return Ok(ExitCode::SUCCESS);
        }
        let (shader, warnings, map) = source.assemble_mapped(options)?;
        warn_all(s, &warnings);
        if !self.no_validate {
            let report = crate::session::timed("validating", || {
                dxso::validate_with(&shader, &self.limits.options())
            });
            s.record_field(
                "validation",
                serde_json::json!({
                    "file": source.name,
                    "valid": report.is_valid(),
                    "diagnostics": report
                        .diagnostics
                        .iter()
                        .map(|d| super::validate::diagnostic_json(d, Some(&map)))
                        .collect::<Vec<_>>(),
                }),
            );
            s.stderr(&super::validate::findings(
                s,
                &source.name,
                &report,
                Some(&map),
            ));
            if !report.is_valid() {
                return Err(CliError::Invalid {
                    file: source.name.clone(),
                    errors: report.errors().count(),
                }
                .into());
            }
        }
        let bytes = dxso::encode(&shader);
        let out = match self.format {
            Format::Bin => bytes,
            Format::Header => c_header(&shader, &bytes, &self.name, Element::Byte).into_bytes(),
            Format::HeaderDwords => {
                c_header(&shader, &bytes, &self.name, Element::Dword).into_bytes()
            }
        };
        if let Some(path) = &self.listing {
            crate::output::write_file(s, path, dxso_text::print(&shader).as_bytes())?;
        }
        match self.format {
            Format::Bin => self.output.write_binary(s, &out)?,
            _ => self.output.write_text(s, &out)?,
        }
        Ok(ExitCode::SUCCESS)
    }
}

/// The element type of the header's array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Element {
    Byte,
    Dword,
}

/// The fxc `/Fh` layout: the listing in `#if 0`, then the bytes six to a line (or the DWORDs
/// four to a line, as fxc writes `/Fh` of DWORD arrays).
pub(crate) fn c_header(
    shader: &dxso::Shader,
    bytes: &[u8],
    name: &str,
    element: Element,
) -> String {
    let mut out = String::from("#if 0\n");
    out.push_str(&dxso_text::print(shader));
    out.push_str("#endif\n\nconst ");
    out.push_str(match element {
        Element::Byte => "BYTE ",
        Element::Dword => "DWORD ",
    });
    out.push_str(name);
    out.push_str("[] =\n{\n");
    let items: Vec<String> = match element {
        Element::Byte => bytes.iter().map(|b| format!("{b:>3}")).collect(),
        Element::Dword => bytes
            .chunks(4)
            .map(|c| {
                let mut w = [0u8; 4];
                w[..c.len()].copy_from_slice(c);
                format!("0x{:08x}", u32::from_le_bytes(w))
            })
            .collect(),
    };
    let per_line = match element {
        Element::Byte => 6,
        Element::Dword => 4,
    };
    for (i, chunk) in items.chunks(per_line).enumerate() {
        out.push_str("   ");
        for (j, item) in chunk.iter().enumerate() {
            out.push(' ');
            out.push_str(item);
            if i * per_line + j + 1 != items.len() {
                out.push(',');
            }
        }
        out.push('\n');
    }
    let _ = writeln!(out, "}};");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lists_every_byte() {
        let shader = dxso_text::parse("vs_1_1\nnop\n").unwrap();
        let bytes = dxso::encode(&shader);
        let h = c_header(&shader, &bytes, "g_vs", Element::Byte);
        assert!(h.starts_with("#if 0\n    vs_1_1\n    nop\n"));
        assert!(h.contains("const BYTE g_vs[] =\n{\n      1,   1, 254, 255,   0,   0,\n      0,   0, 255, 255,   0,   0\n};\n"));
        assert_eq!(
            crate::input::header::header_array(&h, Some("g_vs")).unwrap(),
            bytes
        );
    }

    #[test]
    fn dword_header_reads_back() {
        let shader = dxso_text::parse("ps_2_0\nmov oC0, c0\n").unwrap();
        let bytes = dxso::encode(&shader);
        let h = c_header(&shader, &bytes, "g_ps", Element::Dword);
        assert!(
            h.contains("const DWORD g_ps[] =\n{\n    0xffff0200, 0x02000001, 0x800f0800, 0xa0e40000,\n    0x0000ffff\n};\n"),
            "{h}"
        );
        assert_eq!(
            crate::input::header::header_array(&h, Some("g_ps")).unwrap(),
            bytes
        );
    }
}
