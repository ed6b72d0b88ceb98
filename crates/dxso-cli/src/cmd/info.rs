use crate::batch;
use crate::input::{InputsArg, Kind, Source};
use crate::session::Session;
use anyhow::Result;
use dxso::ctab::TypeInfo;
use dxso::dbug::{DebugInfo, VariableWrite};
use dxso::{ConstantTable, Item};
use serde::Serialize;
use serde_json::json;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::process::ExitCode;

/// Summarise shaders: version, sizes, instruction count, comment blocks, the constant table and
/// the debug information (the DBUG block of fxc /Zi builds: source files, lines covered,
/// variables; --json has every instruction record and every variable write).
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
/// Exit status: 0 when every input was read, 1 when any could not be decoded, 2 on
/// usage errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    inputs: InputsArg,
    #[command(flatten)]
    printed: crate::output::PrintedArg,
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
    dbug: Option<DbugInfo>,
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

#[derive(Serialize, Default)]
struct DbugInfo {
    creator: Option<String>,
    entry_point: Option<String>,
    /// Bytes of embedded source code (none in any known build).
    source_code_bytes: Option<usize>,
    header_size: u32,
    files: Vec<DbugFile>,
    /// Instruction records with a source file and line.
    instructions_with_source: usize,
    instructions: Vec<DbugInstruction>,
    variables: Vec<DbugVariable>,
    /// Where the table disagrees with the code (`null` when it describes it exactly).
    mismatch: Option<String>,
    error: Option<String>,
}

#[derive(Serialize)]
struct DbugFile {
    name: String,
    /// The distinct source lines instructions come from, ascending.
    lines: Vec<u16>,
    instructions: usize,
}

#[derive(Serialize)]
struct DbugInstruction {
    /// Byte offset of the instruction in the shader.
    offset: u32,
    /// Index into `files`; `null` for an instruction without a source (fxc's own dcl/def).
    file: Option<u16>,
    line: u16,
}

#[derive(Serialize)]
struct DbugVariable {
    /// The name as the listing prints it (`pin`, `ApplyFog::color`, `::PSBasic`).
    listing_name: String,
    scope: Option<String>,
    name: String,
    #[serde(rename = "type")]
    ty: String,
    type_info: TypeJson,
    writes: Vec<DbugWrite>,
}

#[derive(Serialize)]
struct DbugWrite {
    instruction: u32,
    /// The variable component held by the destination's x, y, z, w (`null`: none).
    components: [Option<u16>; 4],
}

/// `D3DXSHADER_TYPEINFO` as numbers (`type` beside it spells it in HLSL).
#[derive(Serialize)]
struct TypeJson {
    class: u16,
    ty: u16,
    rows: u16,
    columns: u16,
    elements: u16,
    members: Vec<(String, TypeJson)>,
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
        self.printed.apply(s, &inputs.iter().map(|i| i.path.as_path()).collect::<Vec<_>>())?;
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
        Ok(tally.status())
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
    let mut dbug = None;
    while let Some((offset, item)) = reader.next_item().map_err(at)? {
        match item {
            Item::Instruction(_) => instructions += 1,
            Item::Comment(c) => {
                if ctab.is_none() && dxso::ctab::is_ctab(&c.data) {
                    ctab = Some(ctab_info(&c.data));
                }
                if dbug.is_none() && dxso::dbug::is_dbug(&c.data) {
                    dbug = Some(c.data.clone());
                }
                comments.push(CommentInfo {
                    dword_offset: offset,
                    dwords: c.data.len(),
                    fourcc: c.fourcc().map(|f| String::from_utf8_lossy(&f).into_owned()),
                });
            }
        }
    }
    let dbug = match dbug {
        // The check against the code needs the whole model, not just the items walked above.
        Some(data) => Some(dbug_info(&data, &dxso::decode(&bytes).map_err(at)?)),
        None => None,
    };
    Ok(Info {
        file: source.name.clone(),
        version: reader.version().to_string(),
        bytes: bytes.len(),
        dwords: words.len(),
        instructions,
        comments,
        ctab,
        dbug,
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

fn dbug_info(data: &[u32], shader: &dxso::Shader) -> DbugInfo {
    let t = match DebugInfo::parse(data) {
        Ok(t) => t,
        Err(e) => {
            return DbugInfo {
                error: Some(e.to_string()),
                ..Default::default()
            }
        }
    };
    let text = |s: &dxso::ctab::CtabString| s.as_str().into_owned();
    let mut lines: BTreeMap<u16, (Vec<u16>, usize)> = BTreeMap::new();
    for r in &t.instructions {
        if let Some((file, line)) = r.source() {
            let entry = lines.entry(file).or_default();
            entry.0.push(line);
            entry.1 += 1;
        }
    }
    let files = t
        .files
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let (mut lines, instructions) = lines.remove(&(i as u16)).unwrap_or_default();
            lines.sort_unstable();
            lines.dedup();
            DbugFile {
                name: text(name),
                lines,
                instructions,
            }
        })
        .collect();
    let variables = t
        .variables
        .iter()
        .map(|v| {
            let mut listing_name = String::new();
            dxso_text::print::debug::write_variable_name(&mut listing_name, &t, v);
            DbugVariable {
                listing_name,
                scope: v.scope.as_ref().map(text),
                name: text(&v.name),
                ty: type_name(&v.ty),
                type_info: type_json(&v.ty),
                writes: v
                    .writes
                    .iter()
                    .map(|w| DbugWrite {
                        instruction: w.instruction,
                        components: w
                            .components
                            .map(|c| (c != VariableWrite::NONE).then_some(c)),
                    })
                    .collect(),
            }
        })
        .collect();
    DbugInfo {
        creator: t.creator.as_ref().map(text),
        entry_point: t.entry_point.as_ref().map(text),
        source_code_bytes: t.source_code.as_ref().map(|s| s.0.len()),
        header_size: t.header_size,
        files,
        instructions_with_source: t
            .instructions
            .iter()
            .filter(|r| r.source().is_some())
            .count(),
        instructions: t
            .instructions
            .iter()
            .map(|r| DbugInstruction {
                offset: r.offset,
                file: r.source().map(|(file, _)| file),
                line: r.line,
            })
            .collect(),
        variables,
        mismatch: t.check(shader).err().map(|m| m.to_string()),
        error: None,
    }
}

/// `float4`, `float3x3`, `struct { float4 Diffuse; float2 TexCoord; }`, with `[n]` for arrays.
fn type_name(ty: &TypeInfo) -> String {
    let mut out = String::new();
    if ty.class() == Some(dxso::ctab::ParameterClass::Struct) {
        out.push_str("struct {");
        for m in &ty.members {
            let _ = write!(out, " {} {};", type_name(&m.ty), m.name.as_str());
        }
        out.push_str(" }");
    } else {
        dxso_text::print::header::write_type_name(&mut out, ty);
    }
    if ty.elements > 1 {
        let _ = write!(out, "[{}]", ty.elements);
    }
    out
}

fn type_json(ty: &TypeInfo) -> TypeJson {
    TypeJson {
        class: ty.class_raw,
        ty: ty.type_raw,
        rows: ty.rows,
        columns: ty.columns,
        elements: ty.elements,
        members: ty
            .members
            .iter()
            .map(|m| (m.name.as_str().into_owned(), type_json(&m.ty)))
            .collect(),
    }
}

fn write_dbug(out: &mut String, d: &DbugInfo) {
    if let Some(e) = &d.error {
        let _ = writeln!(out, "dbug:         unreadable: {e}");
        return;
    }
    let _ = writeln!(
        out,
        "dbug:         {} file(s), {} of {} instructions with a source line, {} variable(s), entry {}, creator \"{}\"",
        d.files.len(),
        d.instructions_with_source,
        d.instructions.len(),
        d.variables.len(),
        d.entry_point.as_deref().unwrap_or("(none)"),
        d.creator.as_deref().unwrap_or("")
    );
    for f in &d.files {
        let span = match (f.lines.first(), f.lines.last()) {
            (Some(a), Some(b)) if a == b => format!("line {a}"),
            (Some(a), Some(b)) => format!("lines {a}-{b}"),
            _ => "no lines".into(),
        };
        let _ = writeln!(
            out,
            "  {}: {span} ({} distinct, {} instruction(s))",
            f.name,
            f.lines.len(),
            f.instructions
        );
    }
    for v in &d.variables {
        let _ = writeln!(
            out,
            "  {:<32} {:<24} {} write(s)",
            v.listing_name,
            v.ty,
            v.writes.len()
        );
    }
    if let Some(m) = &d.mismatch {
        let _ = writeln!(out, "  does not match the code: {m}");
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
    match &info.dbug {
        None => {
            let _ = writeln!(out, "dbug:         none");
        }
        Some(d) => write_dbug(out, d),
    }
}
