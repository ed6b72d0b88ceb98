use crate::session::Session;
use anyhow::{ensure, Result};
use dxso::ctab::{Constant, ConstantTable, TypeInfo};
use dxso::{Comment, Item, Shader};
use std::io::Write;
use std::process::ExitCode;

/// Run dxso end to end on shaders built into the binary and say what it found.
///
/// Assembles each embedded shader from its text, checks the bytes against a hand-encoded copy,
/// decodes and summarises it as `dxso info` does, validates it, re-encodes it bit for bit and
/// prints Microsoft's listing of it; then shows the error a damaged copy gives. Finally it runs
/// the Utah teapot as a DP2 stream (patches created, then drawn from the patch cache) and writes
/// `teapot.obj` in the current directory.
///
/// Example:
///   cargo run --release -- demo
///
/// Exit status: 0 when every step behaved as expected, 1 otherwise.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {}

/// The embedded shaders as assembly text (this project's own), assembled at run time.
const VS_1_1_TRANSFORM_ASM: &str = "vs_1_1
dcl_position v0
dcl_texcoord v1
dp4 oPos.x, v0, c0
dp4 oPos.y, v0, c1
dp4 oPos.z, v0, c2
dp4 oPos.w, v0, c3
mov oT0.xy, v1
";

const PS_2_0_TEXTURE_ASM: &str = "ps_2_0
dcl t0.xy
dcl_2d s0
texld r0, t0, s0
mul r0, r0, c0
mov oC0, r0
";

const VS_3_0_LOOP_ASM: &str = "vs_3_0
dcl_position v0
dcl_position o0
defi i0, 4, 0, 1, 0
mov r0, v0
loop aL, i0
  add r0, r0, c4[aL]
endloop
mov o0, r0
";

/// The same shaders encoded by hand (the token layout is in DESIGN.md section 2): the
/// assembler's output must equal them.
const VS_1_1_TRANSFORM: &[u32] = &[
    0xFFFE_0101, // vs_1_1
    0x0000_001F,
    0x8000_0000,
    0x900F_0000, // dcl_position v0
    0x0000_001F,
    0x8000_0005,
    0x900F_0001, // dcl_texcoord v1
    0x0000_0009,
    0xC001_0000,
    0x90E4_0000,
    0xA0E4_0000, // dp4 oPos.x, v0, c0
    0x0000_0009,
    0xC002_0000,
    0x90E4_0000,
    0xA0E4_0001, // dp4 oPos.y, v0, c1
    0x0000_0009,
    0xC004_0000,
    0x90E4_0000,
    0xA0E4_0002, // dp4 oPos.z, v0, c2
    0x0000_0009,
    0xC008_0000,
    0x90E4_0000,
    0xA0E4_0003, // dp4 oPos.w, v0, c3
    0x0000_0001,
    0xE003_0000,
    0x90E4_0001, // mov oT0.xy, v1
    0x0000_FFFF,
];

const PS_2_0_TEXTURE: &[u32] = &[
    0xFFFF_0200, // ps_2_0
    0x0200_001F,
    0x8000_0000,
    0xB003_0000, // dcl t0.xy
    0x0200_001F,
    0x9000_0000,
    0xA00F_0800, // dcl_2d s0
    0x0300_0042,
    0x800F_0000,
    0xB0E4_0000,
    0xA0E4_0800, // texld r0, t0, s0
    0x0300_0005,
    0x800F_0000,
    0x80E4_0000,
    0xA0E4_0000, // mul r0, r0, c0
    0x0200_0001,
    0x800F_0800,
    0x80E4_0000, // mov oC0, r0
    0x0000_FFFF,
];

const VS_3_0_LOOP: &[u32] = &[
    0xFFFE_0300, // vs_3_0
    0x0200_001F,
    0x8000_0000,
    0x900F_0000, // dcl_position v0
    0x0200_001F,
    0x8000_0000,
    0xE00F_0000, // dcl_position o0
    0x0500_0030,
    0xF00F_0000,
    4,
    0,
    1,
    0, // defi i0, 4, 0, 1, 0
    0x0200_0001,
    0x800F_0000,
    0x90E4_0000, // mov r0, v0
    0x0200_001B,
    0xF0E4_0800,
    0xF0E4_0000, // loop aL, i0
    0x0400_0002,
    0x800F_0000,
    0x80E4_0000,
    0xA0E4_2004,
    0xF0E4_0800, // add r0, r0, c4[aL]
    0x0000_001D, // endloop
    0x0200_0001,
    0xE00F_0000,
    0x80E4_0000, // mov o0, r0
    0x0000_FFFF,
];

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A constant table for the loop shader, laid out the way fxc lays tables out.
fn offsets_table() -> ConstantTable {
    ConstantTable {
        creator: "dxso demo".into(),
        version: 0xFFFE_0300,
        flags: 0,
        target: "vs_3_0".into(),
        header_size: 28,
        constants: vec![Constant {
            name: "offsets".into(),
            register_set_raw: 2,
            register_index: 4,
            register_count: 4,
            reserved: 0,
            ty: TypeInfo {
                class_raw: 1,
                type_raw: 3,
                rows: 1,
                columns: 4,
                elements: 4,
                members: vec![],
            },
            default_value: None,
        }],
        layout: None,
    }
}

/// Assembles `text` and checks it against the hand-encoded `words`.
fn assemble(name: &str, text: &str, words: &[u32]) -> Result<Vec<u8>> {
    let shader = dxso_text::parse(text).map_err(|d| anyhow::anyhow!("{name}: {d}"))?;
    let bytes = dxso::encode(&shader);
    ensure!(
        bytes == bytes_of(words),
        "{name}: the assembler's bytes differ from the hand-encoded ones"
    );
    Ok(bytes)
}

/// The embedded shaders, by name, assembled from their text.
pub fn embedded_shaders() -> Result<Vec<(&'static str, Vec<u8>)>> {
    let loop_bytes = assemble("vs_3_0 loop", VS_3_0_LOOP_ASM, VS_3_0_LOOP)?;
    let mut with_ctab = dxso::decode(&loop_bytes)?;
    with_ctab.items.insert(
        0,
        Item::Comment(Comment {
            data: offsets_table().to_words(),
        }),
    );
    Ok(vec![
        (
            "vs_1_1 transform",
            assemble("vs_1_1 transform", VS_1_1_TRANSFORM_ASM, VS_1_1_TRANSFORM)?,
        ),
        (
            "ps_2_0 texture",
            assemble("ps_2_0 texture", PS_2_0_TEXTURE_ASM, PS_2_0_TEXTURE)?,
        ),
        ("vs_3_0 loop with CTAB", dxso::encode(&with_ctab)),
    ])
}

fn summarize(out: &mut impl Write, name: &str, bytes: &[u8]) -> Result<Shader> {
    let shader = dxso::decode(bytes)?;
    let instructions = shader.instructions().count();
    let comments = shader.comments().count();
    writeln!(
        out,
        "  {name}: {}, {} bytes, {instructions} instructions, {comments} comment block(s)",
        shader.version,
        bytes.len()
    )?;
    if let Some(table) = shader.constant_table() {
        let table = table?;
        for c in &table.constants {
            writeln!(
                out,
                "    constant {} in {}{} ({} registers), from \"{}\"",
                c.name.as_str(),
                c.register_set().map_or("?", |s| s.prefix()),
                c.register_index,
                c.register_count,
                table.creator.as_str()
            )?;
        }
    }
    let report = dxso::validate(&shader);
    ensure!(report.is_valid(), "{name}: invalid: {:?}", report.rules());
    writeln!(
        out,
        "    validated: no errors, {} warning(s)",
        report.warnings().count()
    )?;
    let again = dxso::encode(&shader);
    ensure!(again == bytes, "{name}: re-encoding differs");
    writeln!(out, "    re-encoded: {} bytes, identical", again.len())?;
    let listing = dxso_text::print(&shader);
    let back = dxso_text::parse(&listing).map_err(|d| anyhow::anyhow!("{name}: {d}"))?;
    ensure!(
        dxso::encode(&without_comments(&back)) == dxso::encode(&without_comments(&shader)),
        "{name}: the listing does not assemble back to the same instructions"
    );
    // The constant table comes back from the listing's header.
    let constants = |s: &Shader| {
        s.constant_table()
            .and_then(Result::ok)
            .map(|t| (t.creator, t.constants))
    };
    ensure!(
        constants(&back) == constants(&shader),
        "{name}: the listing does not give back the constant table"
    );
    let what = if shader.constant_table().is_some() {
        "the same instructions and constant table"
    } else {
        "the same instructions"
    };
    writeln!(out, "    listing (assembles back to {what}):")?;
    for line in listing.lines() {
        writeln!(out, "      | {line}")?;
    }
    Ok(shader)
}

/// Runs the teapot DP2 stream (32 bicubic Bezier patches created under handles, then drawn again
/// from the patch cache with the vertex stream pointed elsewhere) and writes `teapot.obj`.
fn teapot(out: &mut impl Write) -> Result<()> {
    const SEGMENTS: f32 = 8.0;
    writeln!(
        out,
        "teapot: DP2 stream of DRAWRECTPATCH commands, {SEGMENTS} segments per edge"
    )?;
    let draws = dxso_dp2::teapot::run(SEGMENTS)?;
    let mut actions = std::collections::BTreeMap::<&str, usize>::new();
    for d in &draws {
        if let Some(a) = d.cache {
            *actions.entry(a.name()).or_default() += 1;
        }
    }
    let (vertices, triangles) = draws
        .iter()
        .fold((0, 0), |(v, t), d| (v + d.vertices(), t + d.triangles()));
    let summary: Vec<String> = actions.iter().map(|(a, n)| format!("{n} {a}")).collect();
    writeln!(
        out,
        "  {} draws: patch cache {}; {vertices} vertices, {triangles} triangles tessellated",
        draws.len(),
        summary.join(", ")
    )?;
    let half = draws.len() / 2;
    let same = draws[..half]
        .iter()
        .zip(&draws[half..])
        .all(|(created, cached)| created.mesh == cached.mesh);
    ensure!(same, "a cached draw differs from the draw that created it");
    writeln!(
        out,
        "  every cached draw matches the draw that created it (its streams were moved)"
    )?;
    let mut file = std::io::BufWriter::new(std::fs::File::create("teapot.obj")?);
    dxso_dp2::teapot::write_teapot_obj(&mut file, &draws)?;
    file.flush()?;
    writeln!(out, "  wrote teapot.obj")?;
    Ok(())
}

fn without_comments(shader: &Shader) -> Shader {
    Shader {
        version: shader.version,
        items: shader
            .items
            .iter()
            .filter(|i| matches!(i, Item::Instruction(_)))
            .cloned()
            .collect(),
    }
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        let mut out = s.out();
        let out = &mut out;
        writeln!(out, "dxso demo: assemble, decode, inspect, validate, re-encode and disassemble embedded shaders")?;
        let shaders = embedded_shaders()?;
        for (name, bytes) in &shaders {
            summarize(out, name, bytes)?;
        }
        let (name, bytes) = &shaders[1];
        let damaged = &bytes[..bytes.len() - 8];
        match dxso::decode(damaged) {
            Ok(_) => anyhow::bail!("a truncated shader decoded"),
            Err(e) => writeln!(out, "  {name} cut short by 8 bytes: {e}")?,
        }
        writeln!(
            out,
            "shaders: {} assembled from text, decoded, validated and re-encoded bit-exact",
            shaders.len()
        )?;
        teapot(out)?;
        out.flush()?;
        Ok(ExitCode::SUCCESS)
    }
}
