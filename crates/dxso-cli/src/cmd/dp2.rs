use crate::input::{FileArg, Kind, Source};
use crate::output::{offset, OutputArg, Target};
use crate::session::Session;
use anyhow::{Context, Result};
use dxso_dp2::command::{Command, Commands};
use dxso_dp2::{Capture, DrawReport, Limits};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Inspect, run and build DP2 captures (`.dp2`: buffers plus a D3D DDI command buffer).
///
/// `dump` and `run` read a `.dp2` capture or its JSON description; `build` turns the JSON
/// description into a `.dp2` capture.
///
/// Examples:
///   dxso dp2 dump capture.dp2
///   dxso dp2 run capture.dp2 --json
///   dxso dp2 run capture.dp2 --obj out.obj
///   dxso dp2 build capture.json -o capture.dp2
///
/// Exit status: 0 on success, 1 when the file or a command is bad (the message names the
/// byte offset, the op and the rule), 2 on usage and I/O errors.
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

/// Print every command of a capture: its byte offset in the command buffer, its op, and each
/// record in the words of a `dxso dp2 build` description (state names, element types).
///
/// Reads a `.dp2` capture, or a DP2 JSON description (built first). With --json it prints the
/// capture as a description that `dxso dp2 build` reads back (one command per record).
///
/// Examples:
///   dxso dp2 dump capture.dp2
///   dxso dp2 dump capture.dp2 --json > capture.json && dxso dp2 build capture.json -o copy.dp2
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
struct DumpOpts {
    #[command(flatten)]
    input: FileArg,
    #[command(flatten)]
    printed: crate::output::PrintedArg,
}

/// Execute a capture and print, per draw, its byte offset, op, handle, what the patch cache
/// did (dynamic, created, updated, cached, ignored), segments, vertices and triangles.
///
/// Reads a `.dp2` capture, or a DP2 JSON description (built first). --json prints
/// `{"draws": [{"command", "handle", "cache", "segments", "vertices", "triangles"}]}`.
///
/// Examples:
///   dxso dp2 run capture.dp2
///   dxso dp2 run capture.json --json --obj all.obj
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
struct RunOpts {
    #[command(flatten)]
    input: FileArg,
    /// Write all tessellated geometry as Wavefront OBJ (`-`: standard output, the draws then
    /// go to standard error).
    #[arg(long, value_name = "OUT.obj")]
    obj: Option<PathBuf>,
    #[command(flatten)]
    printed: crate::output::PrintedArg,
}

/// Build a `.dp2` capture from its JSON description (docs/DP2.md).
///
/// The output is binary: give `-o FILE`, pipe it, or write `-o -` to force it onto a terminal.
///
/// Examples:
///   dxso dp2 build capture.json -o capture.dp2
///   dxso dp2 build capture.json | dxso dp2 dump
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
/// The input file as a list for [`OutputArg::check`].
fn inputs(input: &FileArg) -> Vec<&std::path::Path> {
    input.file.iter().map(PathBuf::as_path).collect()
}

pub(super) fn read_capture(s: &Session, input: &FileArg) -> Result<Capture> {
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
    o.printed.apply(s, &inputs(&o.input))?;
    let capture = read_capture(s, &o.input)?;
    if s.json {
        let description =
            dxso_dp2::describe::describe(&capture).context("the capture's command buffer")?;
        s.print_json(&description)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = s.out();
    writeln!(
        out,
        "; {} buffer{}, command buffer {} bytes",
        capture.buffers.len(),
        if capture.buffers.len() == 1 { "" } else { "s" },
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

/// One command: its offset, op and record count, then each record in the words of a
/// `dxso dp2 build` description (`state PATCHSEGMENTS float 4`).
fn print_command(out: &mut impl Write, c: &Command) -> std::io::Result<()> {
    let records = c.record_count();
    writeln!(
        out,
        "{}  {} ({records} record{})",
        offset(c.offset),
        c.op.name(),
        if records == 1 { "" } else { "s" }
    )?;
    for record in dxso_dp2::describe::describe_command(c) {
        let serde_json::Value::Object(fields) = record else {
            continue;
        };
        let mut line = String::new();
        let mut elements = Vec::new();
        for (key, value) in &fields {
            match (key.as_str(), value) {
                ("op", _) => {}
                ("elements", serde_json::Value::Array(list)) => elements = list.clone(),
                _ => {
                    if !line.is_empty() {
                        line.push(' ');
                    }
                    line.push_str(key);
                    line.push(' ');
                    words(&mut line, value);
                }
            }
        }
        writeln!(out, "          {line}")?;
        for e in &elements {
            let mut text = String::new();
            words(&mut text, e);
            writeln!(out, "            element {}", text.trim_matches(['{', '}']))?;
        }
    }
    Ok(())
}

/// A description value as words: strings bare, objects `{key value, ...}`, long arrays cut.
fn words(out: &mut String, v: &serde_json::Value) {
    use serde_json::Value;
    match v {
        Value::String(s) => out.push_str(s),
        Value::Array(items) => {
            out.push('[');
            let shown = if items.len() > 16 { 4 } else { items.len() };
            for (i, item) in items[..shown].iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                words(out, item);
            }
            if shown < items.len() {
                out.push_str(&format!(", ... ({} values)", items.len()));
            }
            out.push(']');
        }
        Value::Object(fields) => {
            out.push('{');
            for (i, (k, v)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(k);
                out.push(' ');
                words(out, v);
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
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

/// Warns of what a run did not draw as written: patch draws whose handle is neither cached nor
/// given with its info (the driver ignores them), and segment counts clamped to the device's
/// range.
pub fn draw_warnings(s: &Session, draws: &[DrawReport]) {
    for d in draws {
        let at = format!(
            "{} at {} (handle {})",
            d.op.name(),
            crate::output::offset(d.offset),
            d.handle.unwrap_or(0)
        );
        if d.cache == Some(dxso_dp2::CacheAction::Ignored) {
            s.warn(&format!(
                "{at}: the handle is not cached and the draw gives no patch info; ignored, as \
                 drivers ignore it"
            ));
        }
        if d.clamped {
            s.warn(&format!(
                "{at}: segment counts outside [1, {}] were clamped to [{}]",
                dxso_dp2::limits::MAX_SEGMENTS,
                d.segments
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
}

fn run(s: &Session, o: RunOpts) -> Result<ExitCode> {
    o.printed.apply(s, &inputs(&o.input))?;
    if let Some(obj) = &o.obj {
        crate::output::OutputArg {
            output: Some(obj.clone()),
        }
        .check(&inputs(&o.input), &[])?;
    }
    let capture = read_capture(s, &o.input)?;
    // The vertices a run may produce grow with the capture, so hostile files cost time in
    // proportion to their size.
    let limits = Limits::for_input(capture.to_bytes().len());
    let draws = dxso_dp2::run(&capture, limits).context("running the capture")?;
    draw_warnings(s, &draws);
    let obj = o.obj.map(|p| OutputArg {
        output: Some(p),
    });
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
        w.finish(s)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn build(s: &Session, o: BuildOpts) -> Result<ExitCode> {
    o.output.check(&inputs(&o.input), &[])?;
    let source = o.input.read(s)?;
    source.expect(&[Kind::Dp2Json])?;
    o.output.check_binary(s)?;
    let capture = build_capture(&source)?;
    o.output.write_binary(s, &capture.to_bytes())?;
    Ok(ExitCode::SUCCESS)
}
