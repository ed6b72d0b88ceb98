use super::dp2::draw_line;
use anyhow::{bail, Context, Result};
use dxso_dp2::patch_desc::{PatchDescription, TessellatedPatch};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Tessellate one rect patch described as JSON, or the Utah teapot.
///
/// PATCH.json: {"basis": "bezier|bspline|catmull_rom", "degree": 3, "width": 4, "height": 4,
///              "segments": [s0, s1, s2, s3], "edge_style": "discrete|continuous",
///              "control_points": [[x, y, z], ...]}   (row-major, width x height)
/// Segments are per edge: [0] v=0, [1] u=1, [2] v=1, [3] u=0.
///
/// Examples:
///   dxso tessellate patch.json --json
///   dxso tessellate patch.json -o patch.obj
///   dxso tessellate --teapot -o teapot.obj
///   dxso tessellate --teapot --segments 16 -o teapot.obj
///
/// Exit status: 0 on success, 1 when the patch is bad (forbidden basis/degree/size, NaN
/// segments, too few control points), 2 on usage errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    /// The patch description (not with --teapot).
    #[arg(required_unless_present = "teapot", conflicts_with = "teapot")]
    patch: Option<PathBuf>,
    /// Run the embedded Utah teapot DP2 stream instead (32 patches, each drawn twice).
    #[arg(long)]
    teapot: bool,
    /// Segments per edge for --teapot.
    #[arg(long, default_value_t = 8.0, requires = "teapot")]
    segments: f32,
    /// Print `{"vertices", "normals", "uvs", "indices"}` (patch) or the draws (teapot).
    #[arg(long)]
    json: bool,
    /// Write Wavefront OBJ.
    #[arg(short, long, value_name = "OUT.obj")]
    output: Option<PathBuf>,
}

impl Opts {
    pub fn run(self) -> Result<ExitCode> {
        if self.teapot {
            return self.teapot();
        }
        let path = self.patch.as_ref().expect("clap requires it");
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let desc: PatchDescription = serde_json::from_str(&text)
            .with_context(|| format!("{}: not a patch description", path.display()))?;
        let expected = desc.width as u64 * desc.height as u64;
        if desc.control_points.len() as u64 != expected {
            bail!(
                "{}: {} control points given, width x height = {expected}",
                path.display(),
                desc.control_points.len()
            );
        }
        let mesh = desc
            .tessellate()
            .with_context(|| path.display().to_string())?;
        if let Some(out) = &self.output {
            write(out, |w| {
                dxso_dp2::write_obj(w, [("patch".to_string(), &mesh)])
            })?;
        }
        if self.json {
            println!("{}", serde_json::to_string(&TessellatedPatch::from(mesh))?);
        } else {
            println!(
                "{} vertices, {} triangles",
                mesh.vertex_count(),
                mesh.triangle_count()
            );
        }
        Ok(ExitCode::SUCCESS)
    }

    fn teapot(&self) -> Result<ExitCode> {
        let draws = dxso_dp2::teapot::run(self.segments)?;
        if let Some(out) = &self.output {
            write(out, |w| dxso_dp2::teapot::write_teapot_obj(w, &draws))?;
        }
        if self.json {
            println!(
                "{}",
                serde_json::to_string(&super::dp2::DrawsJson::new(&draws))?
            );
        } else {
            for d in &draws {
                println!("{}", draw_line(d));
            }
            let count = |a| draws.iter().filter(|d| d.cache == Some(a)).count();
            let cached: usize = dxso_dp2::teapot::cached_meshes(&draws)
                .map(|m| m.vertex_count())
                .sum();
            println!(
                "teapot: {} patches created, {} drawn from the cache; {} vertices per pass{}",
                count(dxso_dp2::CacheAction::Created),
                count(dxso_dp2::CacheAction::Cached),
                cached,
                self.output
                    .as_ref()
                    .map_or(String::new(), |p| format!("; wrote {}", p.display()))
            );
        }
        Ok(ExitCode::SUCCESS)
    }
}

fn write(
    path: &PathBuf,
    f: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> Result<()> {
    let file =
        std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
    let mut w = std::io::BufWriter::new(file);
    f(&mut w)?;
    w.flush()?;
    Ok(())
}
