use super::render::summary;
use crate::session::Session;
use anyhow::{ensure, Result};
use dxso::ctab::{Constant, ConstantTable, TypeInfo};
use dxso::{Comment, Item, Shader};
use dxso_render::teapot::{self, Scene};
use dxso_render::Stats;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Run dxso end to end on shaders built into the binary and draw the Utah teapot.
///
/// Assembles each embedded shader from its text, checks the bytes against a hand-encoded copy,
/// decodes and summarises it as `dxso info` does, validates it, re-encodes it bit for bit and
/// prints Microsoft's listing of it; then shows the error a damaged copy gives. Finally it
/// renders the Utah teapot DP2 stream (32 patches created under handles, then drawn again from
/// the patch cache) with a vs_3_0 and a ps_3_0 written in assembly in the repository
/// (assembled, validated and run by dxso: per-pixel lighting, a procedural texture) through
/// dxso's software pipeline, writes `teapot.png` and prints what each stage did and took;
/// then draws the same teapot without shaders, through the fixed-function pipeline's generated
/// shaders (two lights, a two-stage texture cascade, specular, vertex fog), into
/// `teapot-ffp.png`.
///
/// Examples:
///   cargo run --release -- demo
///   dxso demo -o pot.png --size 640x480
///   dxso demo --frames 36 -o turn.png        (turn-000.png .. turn-035.png)
///   dxso demo --engine interpreter           (the same picture, shaders interpreted)
///
/// Exit status: 0 when every step behaved as expected, 1 otherwise, 2 on usage and I/O errors (with
/// --frames, an image that exists, without --force; `-o -`), before anything is written.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    /// The image to write (with --frames: numbered after it).
    #[arg(short, long, default_value = "teapot.png", value_name = "FILE.png")]
    output: PathBuf,
    /// Image size.
    #[arg(long, default_value = "1024x1024", value_parser = dxso_render::parse_size, value_name = "WxH")]
    size: [u32; 2],
    /// Render N frames of the teapot turning once about its axis, with a progress bar.
    #[arg(long, default_value_t = 0, value_name = "N")]
    frames: u32,
    /// Segments per patch edge.
    #[arg(long, default_value_t = 16.0, value_name = "N")]
    segments: f32,
    #[command(flatten)]
    force: crate::output::ForceArg,
    #[command(flatten)]
    engine: crate::engine::RenderEngineArg,
}

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

/// The same shaders encoded by hand (the token layout of Microsoft's shader-code docs): the
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

/// The demo's vs_3_0 and ps_3_0, assembled from the repository's text and validated.
fn teapot_shaders(out: &mut impl Write) -> Result<(Vec<u8>, Vec<u8>)> {
    let mut assembled = Vec::new();
    for (name, text) in [
        ("teapot vertex shader", teapot::VERTEX_SHADER),
        ("teapot pixel shader", teapot::PIXEL_SHADER),
    ] {
        let shader = dxso_text::parse(text).map_err(|d| anyhow::anyhow!("{name}: {d}"))?;
        let report = dxso::validate(&shader);
        ensure!(report.is_valid(), "{name}: invalid: {:?}", report.rules());
        let bytes = dxso::encode(&shader);
        writeln!(
            out,
            "  {name}: {}, {} instructions, {} bytes, assembled and validated",
            shader.version,
            shader.instructions().count(),
            bytes.len()
        )?;
        assembled.push(bytes);
    }
    let ps = assembled.pop().expect("two shaders");
    let vs = assembled.pop().expect("two shaders");
    Ok((vs, ps))
}

/// `teapot.png` -> `teapot-007.png`.
/// `teapot.png` -> `teapot-ffp.png`.
fn fixed_function_path(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or("frame".into(), |s| s.to_string_lossy().into_owned());
    let ext = path
        .extension()
        .map_or("png".into(), |e| e.to_string_lossy().into_owned());
    path.with_file_name(format!("{stem}-ffp.{ext}"))
}

fn numbered(path: &Path, frame: u32) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or("frame".into(), |s| s.to_string_lossy().into_owned());
    let ext = path
        .extension()
        .map_or("png".into(), |e| e.to_string_lossy().into_owned());
    path.with_file_name(format!("{stem}-{frame:03}.{ext}"))
}

impl Opts {
    /// Renders the teapot stream (32 patches created under handles, then drawn again from the
    /// patch cache) with the demo shaders, to one PNG or to `--frames` numbered ones.
    fn teapot(&self, s: &Session, out: &mut impl Write) -> Result<()> {
        let engine = self.engine.cpu()?;
        writeln!(
            out,
            "teapot: the Utah teapot as a DP2 stream, rendered by dxso-render ({} x {}, shaders on the {})",
            self.size[0],
            self.size[1],
            engine.name()
        )?;
        let (vs, ps) = teapot_shaders(out)?;
        let scene = Scene {
            size: self.size,
            segments: self.segments,
            angle: 0.0,
        };
        if self.frames == 0 {
            let start = Instant::now();
            let (image, stats) = teapot::render(&scene, &vs, &ps, engine)?;
            let elapsed = start.elapsed();
            crate::output::write_file(s, &self.output, &image.to_png()?)?;
            writeln!(
                out,
                "  patches: 32 created under handles {}..{} (a depth-only pass), then drawn again from the patch cache (shaded)",
                dxso_dp2::teapot::FIRST_HANDLE,
                dxso_dp2::teapot::FIRST_HANDLE + 31
            )?;
            for line in summary(&stats) {
                writeln!(out, "  {line}")?;
            }
            writeln!(
                out,
                "  wrote {} in {:.2} s",
                self.output.display(),
                elapsed.as_secs_f64()
            )?;
            let start = Instant::now();
            let (image, stats) = teapot::render_fixed_function(&scene, engine)?;
            let elapsed = start.elapsed();
            let path = fixed_function_path(&self.output);
            crate::output::write_file(s, &path, &image.to_png()?)?;
            writeln!(
                out,
                "teapot without shaders: the fixed-function pipeline's generated vs_3_0 and ps_3_0 (two lights, a two-stage texture cascade, specular, vertex fog)"
            )?;
            writeln!(
                out,
                "  {} pixels shaded; wrote {} in {:.2} s",
                stats.pixels_shaded,
                path.display(),
                elapsed.as_secs_f64()
            )?;
            return Ok(());
        }
        let bar = ProgressBar::new(self.frames as u64).with_style(
            ProgressStyle::with_template("  {bar:40} {pos}/{len} frames, {elapsed} (eta {eta})")
                .expect("a valid template"),
        );
        let mut total = Stats::default();
        let start = Instant::now();
        for frame in 0..self.frames {
            let turned = Scene {
                angle: std::f32::consts::TAU * frame as f32 / self.frames as f32,
                ..scene
            };
            let (image, stats) = teapot::render(&turned, &vs, &ps, engine)?;
            let path = numbered(&self.output, frame);
            crate::output::write_file(s, &path, &image.to_png()?)?;
            total.pixels_shaded += stats.pixels_shaded;
            total.vertices += stats.vertices;
            total.cache_hits += stats.cache_hits;
            bar.inc(1);
        }
        bar.finish_and_clear();
        writeln!(
            out,
            "  wrote {} frames ({} .. {}) in {:.2} s: {} pixels shaded, {} vertices, {} cache hits",
            self.frames,
            numbered(&self.output, 0).display(),
            numbered(&self.output, self.frames - 1).display(),
            start.elapsed().as_secs_f64(),
            total.pixels_shaded,
            total.vertices,
            total.cache_hits
        )?;
        Ok(())
    }
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
        // A usage error comes before any output, and so does the check of the images' files.
        self.engine.cpu()?;
        if self.output.as_os_str() == "-" {
            return Err(crate::report::CliError::Usage(
                "dxso demo prints its report on standard output; give the image a file name"
                    .into(),
            )
            .into());
        }
        let images: Vec<crate::output::Planned> = match self.frames {
            0 => vec![self.output.clone()],
            n => (0..n).map(|f| numbered(&self.output, f)).collect(),
        }
        .into_iter()
        .map(|path| crate::output::Planned { path, from: None })
        .collect();
        // One image named with `-o` (or the default) is replaced; numbered frames, a batch, need
        // --force to replace what is there.
        crate::output::check_plan(&images, &[], self.force.force || self.frames == 0)?;
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
        self.teapot(s, out)?;
        out.flush()?;
        Ok(ExitCode::SUCCESS)
    }
}
