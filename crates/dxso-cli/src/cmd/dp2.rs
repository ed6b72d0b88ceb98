use crate::input::{FileArg, Kind, Source};
use crate::output::{offset, OutputArg, Target};
use crate::session::Session;
use anyhow::{Context, Result};
use dxso_dp2::command::{Command, CommandKind, Commands};
use dxso_dp2::{Capture, DrawReport, Limits};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Inspect, run and build DP2 captures (`.dp2`: buffers plus a D3D DDI command buffer).
///
/// Examples:
///   dxso dp2 dump capture.dp2
///   dxso dp2 run capture.dp2 --json
///   dxso dp2 run capture.dp2 --obj out.obj
///   dxso dp2 build capture.json -o capture.dp2
///
/// Exit status: 0 on success, 1 when the file or a command is bad (the message names the
/// byte offset, the op and the rule), 2 on usage errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    Dump(DumpOpts),
    Run(RunOpts),
    Build(BuildOpts),
}

/// Decode every command of a capture, with its byte offset in the command buffer.
///
/// Example:
///   dxso dp2 dump capture.dp2
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
struct DumpOpts {
    #[command(flatten)]
    input: FileArg,
}

/// Execute a capture: per draw, the command, handle, what the patch cache did (dynamic,
/// created, updated, cached, ignored), segments, vertices and triangles.
///
/// Examples:
///   dxso dp2 run capture.dp2
///   dxso dp2 run capture.dp2 --json --obj all.obj
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
struct RunOpts {
    #[command(flatten)]
    input: FileArg,
    /// Write all tessellated geometry as Wavefront OBJ (`-`: standard output, the draws then
    /// go to standard error).
    #[arg(long, value_name = "OUT.obj")]
    obj: Option<PathBuf>,
}

/// Build a `.dp2` capture from its JSON description (docs/DP2.md).
///
/// Example:
///   dxso dp2 build capture.json -o capture.dp2
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
struct BuildOpts {
    #[command(flatten)]
    input: FileArg,
    #[command(flatten)]
    output: OutputArg,
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        match self.what {
            What::Dump(o) => dump(s, o),
            What::Run(o) => run(s, o),
            What::Build(o) => build(s, o),
        }
    }
}

/// A capture from a `.dp2` file, or built from its JSON description first.
fn read_capture(s: &Session, input: &FileArg) -> Result<Capture> {
    let source = input.read(s)?;
    source.expect(&[Kind::Dp2Capture, Kind::Dp2Json])?;
    if source.kind == Kind::Dp2Json {
        return build_capture(&source);
    }
    Capture::parse(&source.bytes).with_context(|| source.name.clone())
}

/// Builds the capture a JSON description describes, checking that its command buffer parses.
fn build_capture(source: &Source) -> Result<Capture> {
    let capture = dxso_dp2::describe::build(source.text()?).with_context(|| source.name.clone())?;
    // Check the result parses, so a description that builds a broken stream fails here.
    dxso_dp2::parse(&capture.commands)
        .with_context(|| format!("{} builds an unreadable command buffer", source.name))?;
    Ok(capture)
}

fn dump(s: &Session, o: DumpOpts) -> Result<ExitCode> {
    let capture = read_capture(s, &o.input)?;
    let mut out = s.out();
    writeln!(
        out,
        "; {} buffers, command buffer {} bytes",
        capture.buffers.len(),
        capture.commands.len()
    )?;
    for b in &capture.buffers {
        writeln!(out, "; buffer {} ({} bytes)", b.handle, b.bytes.len())?;
    }
    let mut reader = Commands::new(&capture.commands);
    loop {
        match reader.next_command() {
            Ok(Some(c)) => print_command(&mut out, &c)?,
            Ok(None) => break,
            Err(e) => {
                out.finish()?;
                return Err(anyhow::Error::new(e).context("the capture's command buffer"));
            }
        }
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

fn print_command(out: &mut impl Write, c: &Command) -> std::io::Result<()> {
    writeln!(
        out,
        "{}  {} ({} records)",
        offset(c.offset),
        c.op.name(),
        c.record_count()
    )?;
    let line = |out: &mut dyn Write, s: String| writeln!(out, "          {s}");
    match &c.kind {
        CommandKind::RenderState(v) => {
            for (s, val) in v {
                // PATCHSEGMENTS and the other float states: show the float too.
                let float = matches!(s, 154 | 164 | 170 | 174) || (36..=38).contains(s);
                let shown = if float {
                    format!(" ({})", f32::from_bits(*val))
                } else {
                    String::new()
                };
                line(out, format!("state {s} = {val:#010x}{shown}"))?;
            }
        }
        CommandKind::ViewportInfo(v) => v
            .iter()
            .try_for_each(|x| line(out, format!("viewport {x:?}")))?,
        CommandKind::ZRange(v) => v
            .iter()
            .try_for_each(|x| line(out, format!("z range {x:?}")))?,
        CommandKind::Clear(x) => line(
            out,
            format!(
                "flags {:#x} colour {:#010x} depth {} stencil {} rects {:?}",
                x.flags, x.color, x.depth, x.stencil, x.rects
            ),
        )?,
        CommandKind::SetStreamSource(v) => v.iter().try_for_each(|s| {
            line(
                out,
                format!(
                    "stream {} <- buffer {} offset {} stride {}",
                    s.stream, s.buffer, s.offset, s.stride
                ),
            )
        })?,
        CommandKind::SetStreamSourceUm(v) => v
            .iter()
            .try_for_each(|(s, st)| line(out, format!("stream {s} <- user memory stride {st}")))?,
        CommandKind::SetIndices(v) => v
            .iter()
            .try_for_each(|(h, s)| line(out, format!("indices <- buffer {h} stride {s}")))?,
        CommandKind::DrawPrimitive(v) => v.iter().try_for_each(|d| {
            line(
                out,
                format!(
                    "type {} start {} count {}",
                    d.primitive_type, d.start, d.primitive_count
                ),
            )
        })?,
        CommandKind::DrawIndexedPrimitive(v) => v.iter().try_for_each(|d| {
            line(
                out,
                format!(
                    "type {} base {} min {} vertices {} start {} count {}",
                    d.primitive_type,
                    d.base_vertex,
                    d.min_index,
                    d.num_vertices,
                    d.start_index,
                    d.primitive_count
                ),
            )
        })?,
        CommandKind::DrawRectPatch(v) => v.iter().try_for_each(|p| {
            line(
                out,
                format!(
                    "handle {} flags {:#x} segments {:?} info {:?}",
                    p.handle, p.flags, p.segments, p.info
                ),
            )
        })?,
        CommandKind::DrawTriPatch(v) => v.iter().try_for_each(|p| {
            line(
                out,
                format!(
                    "handle {} flags {:#x} segments {:?} info {:?}",
                    p.handle, p.flags, p.segments, p.info
                ),
            )
        })?,
        CommandKind::CreateVertexShaderDecl(v) => {
            for (h, elements) in v {
                line(out, format!("decl {h}: {} elements", elements.len()))?;
                for e in elements {
                    let name = |n: Option<&'static str>, raw: u8| {
                        n.map_or(raw.to_string(), str::to_string)
                    };
                    line(
                        out,
                        format!(
                            "  stream {} offset {} {} {} {}{}",
                            e.stream,
                            e.offset,
                            name(e.decl_type().map(|t| t.name()), e.ty),
                            name(e.method().map(|m| m.name()), e.method),
                            e.decl_usage()
                                .map_or(e.usage.to_string(), |u| u.name().to_ascii_uppercase()),
                            e.usage_index
                        ),
                    )?;
                }
            }
        }
        CommandKind::CreateShader(v) => v.iter().try_for_each(|s| {
            line(
                out,
                format!(
                    "handle {}: {} bytes, {} with {} items",
                    s.handle,
                    s.size,
                    s.shader.version,
                    s.shader.items.len()
                ),
            )
        })?,
        CommandKind::Handles(v) => v
            .iter()
            .try_for_each(|h| line(out, format!("handle {h}")))?,
        CommandKind::FloatConstants(v) => v
            .iter()
            .try_for_each(|c| line(out, format!("c{}: {:?}", c.register, c.values)))?,
        CommandKind::IntConstants(v) => v
            .iter()
            .try_for_each(|c| line(out, format!("i{}: {:?}", c.register, c.values)))?,
        CommandKind::BoolConstants(v) => v
            .iter()
            .try_for_each(|c| line(out, format!("b{}: {:?}", c.register, c.values)))?,
    }
    Ok(())
}

/// One draw as `dxso dp2 run --json` prints it (fields in this order).
#[derive(serde::Serialize)]
pub struct DrawJson {
    command: &'static str,
    handle: Option<u32>,
    cache: Option<&'static str>,
    segments: Vec<u32>,
    vertices: usize,
    triangles: usize,
}

/// `{"draws": [...]}`.
#[derive(serde::Serialize)]
pub struct DrawsJson {
    draws: Vec<DrawJson>,
}

impl DrawsJson {
    /// The JSON form of a run.
    pub fn new(draws: &[DrawReport]) -> Self {
        DrawsJson {
            draws: draws.iter().map(draw_json).collect(),
        }
    }
}

/// The JSON form of a draw report.
pub fn draw_json(d: &DrawReport) -> DrawJson {
    DrawJson {
        command: d.op.name(),
        handle: d.handle,
        cache: d.cache.map(|c| c.name()),
        segments: d.segments.clone(),
        vertices: d.vertices(),
        triangles: d.triangles(),
    }
}

/// One draw as a text line.
pub fn draw_line(d: &DrawReport) -> String {
    let handle = d.handle.map_or("-".to_string(), |h| h.to_string());
    let cache = d.cache.map_or("-", |c| c.name());
    format!(
        "{}  {:<22} handle {:<10} cache {:<8} segments {:?} vertices {} triangles {}",
        offset(d.offset),
        d.op.name(),
        handle,
        cache,
        d.segments,
        d.vertices(),
        d.triangles()
    )
}

fn run(s: &Session, o: RunOpts) -> Result<ExitCode> {
    let capture = read_capture(s, &o.input)?;
    let draws = dxso_dp2::run(&capture, Limits::default()).context("running the capture")?;
    let obj = o.obj.map(|p| OutputArg { output: Some(p) });
    let obj_on_stdout = obj.as_ref().is_some_and(OutputArg::is_stdout);
    if s.json {
        if obj_on_stdout {
            return Err(crate::report::CliError::Usage(
                "--json and --obj - both want standard output".into(),
            )
            .into());
        }
        s.print_json(&DrawsJson::new(&draws))?;
    } else {
        let mut text = String::new();
        for d in &draws {
            text.push_str(&draw_line(d));
            text.push('\n');
        }
        if obj_on_stdout {
            s.stderr(&text);
        } else {
            let target = Target::Stdout { explicit: false };
            crate::output::write_to(&target, s, text.as_bytes())?;
        }
    }
    if let Some(obj) = &obj {
        let mut w = obj.open_text(s)?;
        let meshes = draws
            .iter()
            .enumerate()
            .filter(|(_, d)| d.triangles() > 0)
            .map(|(i, d)| {
                (
                    format!("draw{i}_{}", d.op.name().to_ascii_lowercase()),
                    &*d.mesh,
                )
            });
        dxso_dp2::write_obj(&mut w, meshes)?;
        w.finish()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn build(s: &Session, o: BuildOpts) -> Result<ExitCode> {
    let source = o.input.read(s)?;
    source.expect(&[Kind::Dp2Json])?;
    o.output.check_binary(s)?;
    let capture = build_capture(&source)?;
    o.output.write_binary(s, &capture.to_bytes())?;
    Ok(ExitCode::SUCCESS)
}
