use crate::input::InputArg;
use anyhow::Result;
use dxso::{ConstantTable, Item};
use serde::Serialize;
use std::process::ExitCode;

/// Summarise a shader: version, sizes, instruction count, comment blocks and its constant table.
///
/// Examples:
///   dxso info shader.dxso
///   dxso info shader.h --name g_ps20_main --json
///   cat shader.dxso | dxso info -
///
/// Exit status: 0 on success, 1 when the shader cannot be decoded, 2 on usage errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    input: InputArg,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Info {
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

impl Opts {
    pub fn run(self) -> Result<ExitCode> {
        let bytes = self.input.read_shader()?;
        let words = dxso::decode::words_of(&bytes)
            .map_err(|e| anyhow::anyhow!("{}: {e}", self.input.display()))?;
        let mut reader = dxso::Reader::new(&words)
            .map_err(|e| anyhow::anyhow!("{}: {e}", self.input.display()))?;
        let mut instructions = 0;
        let mut comments = Vec::new();
        let mut ctab = None;
        while let Some((offset, item)) = reader
            .next_item()
            .map_err(|e| anyhow::anyhow!("{}: {e}", self.input.display()))?
        {
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
        let info = Info {
            version: reader.version().to_string(),
            bytes: bytes.len(),
            dwords: words.len(),
            instructions,
            comments,
            ctab,
        };
        if self.json {
            println!("{}", serde_json::to_string_pretty(&info)?);
        } else {
            print_text(&info);
        }
        Ok(ExitCode::SUCCESS)
    }
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

fn print_text(info: &Info) {
    println!("version:      {}", info.version);
    println!(
        "size:         {} bytes ({} DWORDs)",
        info.bytes, info.dwords
    );
    println!("instructions: {}", info.instructions);
    println!("comments:     {}", info.comments.len());
    for c in &info.comments {
        println!(
            "  at DWORD {:>5}: {:>5} DWORDs {}",
            c.dword_offset,
            c.dwords,
            c.fourcc.as_deref().unwrap_or("")
        );
    }
    match &info.ctab {
        None => println!("ctab:         none"),
        Some(t) if t.error.is_some() => {
            println!(
                "ctab:         unreadable: {}",
                t.error.as_deref().unwrap_or("")
            )
        }
        Some(t) => {
            println!(
                "ctab:         {} constants, target {}, creator \"{}\"",
                t.constants.len(),
                t.target,
                t.creator
            );
            for c in &t.constants {
                println!(
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
