mod ctab;

use crate::input::InputArg;
use crate::session::Session;
use anyhow::Result;
use dxso::{Extra, Instruction, Item, Relative, SrcParam, TokenRole, Version};
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

/// Print every DWORD of a shader on its own line: byte offset, hex value and what it means.
///
/// Reads raw bytecode and fxc /Fh C headers. Offsets are printed as `dxso dp2 dump` prints
/// them: bytes, in hex.
///
/// In the spirit of `wasm-tools dump`: when the stream is malformed, everything before the bad
/// token is printed, then the error with its offset.
///
/// Examples:
///   dxso dump shader.dxso
///   dxso dump shader.h --name g_vs11_main
///   dxso dump shader.dxso | head -20
///
/// Exit status: 0 on success, 1 when the shader cannot be decoded, 2 on usage and I/O errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    input: InputArg,
    #[command(flatten)]
    printed: crate::output::PrintedArg,
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        self.printed.apply(s, &self.input.file.iter().map(|p| p.as_path()).collect::<Vec<_>>())?;
        let source = self.input.read(s)?;
        let bytes = source.shader_bytes(self.input.name.as_deref())?;
        let mut text = String::new();
        let result = dump(&bytes, &mut text);
        let mut out = s.out();
        out.write_all(text.as_bytes())?;
        out.finish()?;
        match result {
            Ok(()) => Ok(ExitCode::SUCCESS),
            Err(e) => Err(anyhow::anyhow!("{}: {e}", source.name)),
        }
    }
}

fn line(out: &mut String, dword: usize, token: u32, what: &str) {
    let _ = writeln!(
        out,
        "{} | {token:08x} | {what}",
        crate::output::offset(dword * 4)
    );
}

/// Writes the dump of `bytes` to `out`; stops at the first decoding error.
pub fn dump(bytes: &[u8], out: &mut String) -> Result<(), dxso::DecodeError> {
    let words = dxso::decode::words_of(bytes)?;
    let mut reader = dxso::Reader::new(&words)?;
    let version = reader.version();
    line(out, 0, words[0], &format!("version {version}"));
    loop {
        let at = reader.position();
        let Some((offset, item)) = reader.next_item()? else {
            line(out, at, words[at], "end");
            return Ok(());
        };
        match item {
            Item::Comment(c) => {
                let tag = c
                    .fourcc()
                    .map(|f| format!(" {}", String::from_utf8_lossy(&f)))
                    .unwrap_or_default();
                line(
                    out,
                    offset,
                    words[offset],
                    &format!("comment, {} DWORDs{tag}", c.data.len()),
                );
                let labels = match c.fourcc() {
                    Some(tag) if &tag == b"CTAB" => ctab::labels(&c.data),
                    _ => vec![None; c.data.len()],
                };
                for (i, d) in c.data.iter().enumerate() {
                    if let Some(label) = &labels[i] {
                        line(out, offset + 1 + i, *d, &format!("  {label}"));
                        continue;
                    }
                    let ascii: String = d
                        .to_le_bytes()
                        .iter()
                        .map(|&b| {
                            if b.is_ascii_graphic() || b == b' ' {
                                b as char
                            } else {
                                '.'
                            }
                        })
                        .collect();
                    line(out, offset + 1 + i, *d, &format!("  data \"{ascii}\""));
                }
            }
            Item::Instruction(inst) => {
                let mut dword = offset;
                inst.for_each_token(version, |role, token| {
                    line(out, dword, token, &describe(&inst, version, role, token));
                    dword += 1;
                });
            }
        }
    }
}

fn describe(inst: &Instruction, version: Version, role: TokenRole, token: u32) -> String {
    let info = inst.opcode.info();
    match role {
        TokenRole::Instruction => {
            let mut s = info.mnemonic_for(version).to_string();
            if let Some(c) = inst.comparison() {
                let _ = write!(s, "_{}", c.suffix());
            }
            if let Some(m) = inst.texld_mode() {
                s.push_str(match m {
                    dxso::TexldMode::Project => " (project)",
                    dxso::TexldMode::Bias => " (bias)",
                    dxso::TexldMode::Plain => "",
                });
            }
            if !version.is_sm1() {
                let _ = write!(s, ", {} operand DWORDs", (token >> 24) & 0xF);
            }
            if inst.coissue {
                s.push_str(", co-issued");
            }
            if inst.is_predicated() {
                s.push_str(", predicated");
            }
            s
        }
        TokenRole::DclUsage => match inst.dcl() {
            Some(d) => format!(
                "  dcl usage {} index {} texture type {}",
                d.decl_usage().map_or("?", |u| u.name()),
                d.usage_index,
                d.texture_type().map_or("?", |t| t.name())
            ),
            None => String::new(),
        },
        TokenRole::Dst => {
            let d = inst.dst.unwrap_or_default();
            let mut s = format!("  dst {}", d.register.name(version));
            if !d.mask.is_full() {
                s.push('.');
                for (i, l) in dxso::param::COMPONENT_LETTERS.iter().enumerate() {
                    if d.mask.contains(i) {
                        s.push(*l);
                    }
                }
            }
            if d.modifiers.saturate() {
                s.push_str(" _sat");
            }
            if d.modifiers.partial_precision() {
                s.push_str(" _pp");
            }
            if d.modifiers.centroid() {
                s.push_str(" _centroid");
            }
            s.push_str(d.shift.suffix());
            if d.relative.is_some() {
                s.push_str(" (relative)");
            }
            s
        }
        TokenRole::RelativeAddress => {
            let t = dxso::RelativeToken::from_token(token).ok();
            match t {
                Some(t) => format!(
                    "    address {}.{}",
                    t.register.name(version),
                    dxso::param::COMPONENT_LETTERS[t.component() as usize]
                ),
                None => "    address".into(),
            }
        }
        TokenRole::Predicate => format!(
            "  predicate {}",
            src_text(&inst.predicate.unwrap_or_default(), version)
        ),
        TokenRole::Src(i) => format!("  src{i} {}", src_text(&inst.srcs[i as usize], version)),
        TokenRole::Immediate(i) => match inst.extra {
            Extra::Def(_) => format!("  value {i} = {}", f32::from_bits(token)),
            Extra::DefB(_) => format!("  value = {}", token != 0),
            _ => format!("  value {i} = {}", token as i32),
        },
        TokenRole::Version | TokenRole::Comment | TokenRole::CommentData | TokenRole::End => {
            String::new()
        }
    }
}

fn src_text(s: &SrcParam, version: Version) -> String {
    let mut out = format!(
        "{}{}{}",
        s.modifier.prefix(),
        s.register.name(version),
        s.modifier.suffix()
    );
    match s.relative {
        Some(Relative::Implicit) => out.push_str("[a0.x]"),
        Some(Relative::Token(_)) => out.push_str("[rel]"),
        None => {}
    }
    if !s.swizzle.is_identity() {
        out.push('.');
        for c in s.swizzle.components() {
            out.push(dxso::param::COMPONENT_LETTERS[c as usize]);
        }
    }
    out
}
