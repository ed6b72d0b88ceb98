use super::dp2::draw_line;
use crate::input::{FileArg, Kind};
use crate::output::OutputArg;
use crate::report::CliError;
use crate::session::Session;
use anyhow::{bail, Result};
use dxso_dp2::patch_desc::{PatchDescription, TessellatedPatch};
use dxso_dp2::RunError;
use std::io::Write;
use std::process::ExitCode;

/// Tessellate one rect patch described as JSON, or the Utah teapot.
///
/// PATCH.json: {"basis": "bezier|bspline|catmull_rom", "degree": 3, "width": 4, "height": 4,
///              "segments": [s0, s1, s2, s3], "edge_style": "discrete|continuous",
///              "control_points": [[x, y, z], ...]}   (row-major, width x height)
/// Segments are per edge: s0 along v=0, s1 along u=1, s2 along v=1, s3 along u=0; counts
/// below 1 tessellate as 1, as in Direct3D.
///
/// The report (vertex and triangle counts, or the teapot's draws) goes to standard output, or
/// to standard error when the OBJ does (`-o -`).
///
/// Examples:
///   dxso tessellate patch.json --json
///   dxso tessellate patch.json --segments 16 -o patch.obj     (16 on every edge)
///   dxso tessellate --teapot -o teapot.obj
///   dxso tessellate --teapot --segments 16 -o - | head
///
/// Exit status: 0 on success, 1 when the patch is bad (forbidden basis/degree/size, NaN
/// segments, too few control points), 2 on usage and I/O errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    /// The patch description (not with --teapot); `-` or absent: standard input.
    #[arg(conflicts_with = "teapot", value_name = "PATCH.json")]
    patch: Option<std::path::PathBuf>,
    /// Run the embedded Utah teapot DP2 stream instead (32 patches, each drawn twice).
    #[arg(long)]
    teapot: bool,
    /// Segments on every edge: replaces the patch's `segments`; for --teapot the default is 8.
    #[arg(long, allow_negative_numbers = true, value_name = "N")]
    segments: Option<f32>,
    #[command(flatten)]
    output: OutputArg,
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        if s.json && self.output.is_stdout() && self.output.output.is_some() {
            return Err(CliError::Usage("--json and -o - both want standard output".into()).into());
        }
        let inputs: Vec<&std::path::Path> = self.patch.iter().map(|p| p.as_path()).collect();
        self.output.check(&inputs, &[])?;
        if self.teapot {
            return self.teapot(s);
        }
        let source = FileArg {
            file: self.patch.clone(),
        }
        .read(s)?;
        source.expect(&[Kind::PatchJson])?;
        let name = &source.name;
        let mut desc: PatchDescription = serde_json::from_str(source.text()?).map_err(|e| {
            anyhow::anyhow!(
                "{name}: not a patch description: {}",
                crate::input::json_message(&e)
            )
        })?;
        if let Some(n) = self.segments {
            desc.segments = [n; 4];
        }
        let expected = desc.width as u64 * desc.height as u64;
        if desc.control_points.len() as u64 != expected {
            bail!(
                "{name}: {} control points given, width x height = {} x {} = {expected}",
                desc.control_points.len(),
                desc.width,
                desc.height
            );
        }
        let max = dxso_dp2::limits::MAX_SEGMENTS;
        if desc
            .segments
            .iter()
            .any(|&n| dxso_dp2::domain::is_clamped(n, desc.edge_style, max))
        {
            s.warn(&format!(
                "{name}: segment counts {:?} are clamped to [1, {max}] as the device clamps them",
                desc.segments
            ));
        }
        let mesh = desc.tessellate().map_err(|e| patch_error(name, e))?;
        let report = format!(
            "{} vertices, {} triangles\n",
            mesh.vertex_count(),
            mesh.triangle_count()
        );
        // The OBJ goes to -o; without -o the report (or the JSON) is the output.
        if self.output.output.is_some() {
            let mut w = self.output.open_text(s)?;
            dxso_dp2::write_obj(&mut w, [("patch".to_string(), &mesh)])?;
            w.finish(s)?;
        }
        if s.json {
            s.print_json(&TessellatedPatch::from(mesh))?;
        } else {
            self.report(s, &report)?;
        }
        Ok(ExitCode::SUCCESS)
    }

    /// The report goes to standard output, or to standard error when the OBJ took it.
    fn report(&self, s: &Session, text: &str) -> Result<()> {
        if self.output.output.is_some() && self.output.is_stdout() {
            if !s.quiet {
                s.stderr(text);
            }
            return Ok(());
        }
        let mut out = s.out();
        out.write_all(text.as_bytes())?;
        out.finish()
    }

    fn teapot(&self, s: &Session) -> Result<ExitCode> {
        let segments = self.segments.unwrap_or(8.0);
        let draws = dxso_dp2::teapot::run(segments)?;
        super::dp2::draw_warnings(s, &draws);
        if self.output.output.is_some() {
            let mut w = self.output.open_text(s)?;
            dxso_dp2::teapot::write_teapot_obj(&mut w, &draws)?;
            w.finish(s)?;
        }
        if s.json {
            s.print_json(&super::dp2::DrawsJson::new(&draws))?;
            return Ok(ExitCode::SUCCESS);
        }
        let mut text = String::new();
        for d in &draws {
            text.push_str(&draw_line(d));
            text.push('\n');
        }
        let count = |a| draws.iter().filter(|d| d.cache == Some(a)).count();
        let cached: usize = dxso_dp2::teapot::cached_meshes(&draws)
            .map(|m| m.vertex_count())
            .sum();
        text.push_str(&format!(
            "teapot: {} patches created, {} drawn from the cache; {} vertices per pass at {segments} segments{}\n",
            count(dxso_dp2::CacheAction::Created),
            count(dxso_dp2::CacheAction::Cached),
            cached,
            match &self.output.output {
                Some(p) if !self.output.is_stdout() => format!("; wrote {}", p.display()),
                _ => String::new(),
            }
        ));
        self.report(s, &text)?;
        Ok(ExitCode::SUCCESS)
    }
}

/// A tessellation failure in the terms of the patch the user wrote: the DRAWRECTPATCH the
/// description became, and its byte offset, are an implementation detail.
fn patch_error(name: &str, e: RunError) -> anyhow::Error {
    match e {
        RunError::Exec(e) => anyhow::anyhow!("{name}: the patch cannot be tessellated: {}", e.kind),
        other => {
            anyhow::Error::new(other).context(format!("{name}: the patch cannot be tessellated"))
        }
    }
}
