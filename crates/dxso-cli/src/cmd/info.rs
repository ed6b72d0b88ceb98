use crate::batch;
use crate::input::{InputsArg, Kind, Source};
use crate::session::Session;
use anyhow::Result;
use dxso::{ConstantTable, Item};
use serde::Serialize;
use serde_json::json;
use std::fmt::Write as _;
use std::process::ExitCode;

/// Summarise shaders: version, sizes, instruction count, comment blocks and the constant table.
///
/// Reads raw bytecode and fxc /Fh C headers; folders are searched for *.dxso, *.vso, *.pso and
/// *.h. With several inputs each report is headed by its file name and a summary line ends the
/// run; under --json the run prints `{"files": [{"file", "version", ...}], "summary": {...}}`.
///
/// Examples:
///   dxso info shader.dxso
///   dxso info shader.h --name g_ps20_main --json
///   dxso info shaders/
///   cat shader.dxso | dxso info
///
/// Exit status: 0 when every input was read, 1 when any could not be read or decoded, 2 on
/// usage errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    inputs: InputsArg,
}

#[derive(Serialize)]
struct Info {
    file: String,
    version: String,
    bytes: usize,
    dwords: usize,
    instructions: usize,
    comments: Vec<CommentInfo>,
    ctab: Option<CtabInfo>,
}

#[derive(Serialize)]
struct CommentInfo {
    dword_offset: usize,
    dwords: usize,
    fourcc: Option<String>,
}

#[derive(Serialize)]
struct CtabInfo {
    creator: String,
    target: String,
    version: String,
    constants: Vec<ConstantInfo>,
    error: Option<String>,
}

#[derive(Serialize)]
struct ConstantInfo {
    name: String,
    register: String,
    count: u16,
    has_default: bool,
}

const KINDS: &[Kind] = &[Kind::Bytecode, Kind::Header];

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        let (inputs, several) = self.inputs.expand(s, KINDS)?;
        let name = self.inputs.name.as_deref();
        let (tally, files) = batch::run(s, &inputs, |input| {
            let source = input.read()?;
            let info = info(&source, name)?;
            let mut text = String::new();
            if several {
                let _ = writeln!(text, "{}:", source.name);
            }
            write_text(&mut text, &info);
            if several {
                text.push('\n');
            }
            Ok(batch::Outcome {
                passed: true,
                json: s.json.then(|| serde_json::to_value(&info)).transpose()?,
                stdout: if s.json {
                    Vec::new()
                } else {
                    text.into_bytes()
                },
                stderr: String::new(),
            })
        })?;
        if s.json {
            s.print_json(&json!({"files": files, "summary": tally.json("read", "failed")}))?;
        }
        batch::summary(s, several, &tally, "read", "failed");
        Ok(if tally.all_passed() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        })
    }
}

fn info(source: &Source, name: Option<&str>) -> Result<Info> {
    let bytes = source.shader_bytes(name)?;
    let at = |e: dxso::DecodeError| anyhow::anyhow!("{}: {e}", source.name);
    let words = dxso::decode::words_of(&bytes).map_err(at)?;
    let mut reader = dxso::Reader::new(&words).map_err(at)?;
    let mut instructions = 0;
    let mut comments = Vec::new();
    let mut ctab = None;
    while let Some((offset, item)) = reader.next_item().map_err(at)? {
        match item {
            Item::Instruction(_) => instructions += 1,
            Item::Comment(c) => {
                if ctab.is_none() && dxso::ctab::is_ctab(&c.data) {
                    ctab = Some(ctab_info(&c.data));
                }
                comments.push(CommentInfo {
                    dword_offset: offset,
                    dwords: c.data.len(),
                    fourcc: c.fourcc().map(|f| String::from_utf8_lossy(&f).into_owned()),
                });
            }
        }
    }
    Ok(Info {
        file: source.name.clone(),
        version: reader.version().to_string(),
        bytes: bytes.len(),
        dwords: words.len(),
        instructions,
        comments,
        ctab,
    })
}

fn ctab_info(data: &[u32]) -> CtabInfo {
    match ConstantTable::parse(data) {
        Ok(t) => CtabInfo {
            creator: t.creator.as_str().into_owned(),
            target: t.target.as_str().into_owned(),
            version: dxso::Version::from_token(t.version)
                .map_or_else(|| format!("{:#010x}", t.version), |v| v.to_string()),
            constants: t
                .constants
                .iter()
                .map(|c| ConstantInfo {
                    name: c.name.as_str().into_owned(),
                    register: format!(
                        "{}{}",
                        c.register_set().map_or("?", |s| s.prefix()),
                        c.register_index
                    ),
                    count: c.register_count,
                    has_default: c.default_value.is_some(),
                })
                .collect(),
            error: None,
        },
        Err(e) => CtabInfo {
            creator: String::new(),
            target: String::new(),
            version: String::new(),
            constants: Vec::new(),
            error: Some(e.to_string()),
        },
    }
}

fn write_text(out: &mut String, info: &Info) {
    let _ = writeln!(out, "version:      {}", info.version);
    let _ = writeln!(
        out,
        "size:         {} bytes ({} DWORDs)",
        info.bytes, info.dwords
    );
    let _ = writeln!(out, "instructions: {}", info.instructions);
    let _ = writeln!(out, "comments:     {}", info.comments.len());
    for c in &info.comments {
        let _ = writeln!(
            out,
            "  at DWORD {:>5}: {:>5} DWORDs {}",
            c.dword_offset,
            c.dwords,
            c.fourcc.as_deref().unwrap_or("")
        );
    }
    match &info.ctab {
        None => {
            let _ = writeln!(out, "ctab:         none");
        }
        Some(t) if t.error.is_some() => {
            let _ = writeln!(
                out,
                "ctab:         unreadable: {}",
                t.error.as_deref().unwrap_or("")
            );
        }
        Some(t) => {
            let _ = writeln!(
                out,
                "ctab:         {} constants, target {}, creator \"{}\"",
                t.constants.len(),
                t.target,
                t.creator
            );
            for c in &t.constants {
                let _ = writeln!(
                    out,
                    "  {:<24} {:<6} {:>3} register(s){}",
                    c.name,
                    c.register,
                    c.count,
                    if c.has_default { ", default value" } else { "" }
                );
            }
        }
    }
}
