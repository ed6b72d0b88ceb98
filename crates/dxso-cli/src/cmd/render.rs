use crate::input::{FileArg, Kind, ShaderRead, Source};
use crate::output::OutputArg;
use crate::report::CliError;
use crate::session::Session;
use anyhow::{Context, Result};
use dxso_dp2::Capture;
use dxso_render::{ExecEngine, PixelStage, RenderLimits, Renderer, Stats, VertexStage};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Render a DP2 capture to a PNG with dxso's software pipeline.
///
/// The stream runs on the DP2 device (patches tessellated, the patch cache honoured); every
/// draw goes through the vertex shader, clipping, Direct3D 9's rasterisation rules, the pixel
/// shader (both run by dxso-exec: its JIT by default, its interpreter with --engine
/// interpreter; the pictures are the same), depth and alpha tests and blending, into an RGBA8
/// target.
/// Shaders come from the stream when it creates and sets them; a draw whose stream binds
/// none uses --vs / --ps (bytecode, an fxc header, or assembly text), else the shaders the
/// fixed-function pipeline generates from the stream's state (`dxso ffp` prints them; a
/// state it does not implement is an error naming it). Without VIEWPORTINFO the
/// viewport is the whole target. A summary goes to standard output (the PNG to a file, or to
/// standard output with `-o -`, the summary then to standard error); --json prints it as JSON.
///
/// Examples:
///   dxso dp2 build scene.json -o scene.dp2 && dxso render scene.dp2 -o scene.png
///   dxso render scene.dp2 --vs transform.asm --ps colour.asm --size 640x480 -o out.png
///   dxso render scene.dp2 --engine interpreter -o scene.png   (the same picture)
///
/// Exit status: 0 on success, 1 when the capture, a shader or a state is bad (the message
/// names the command's byte offset and the rule), 2 on usage and I/O errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    input: FileArg,
    /// Vertex shader for draws whose stream sets none.
    #[arg(long, value_name = "FILE")]
    vs: Option<PathBuf>,
    /// Pixel shader for draws whose stream sets none.
    #[arg(long, value_name = "FILE")]
    ps: Option<PathBuf>,
    /// Target size, WIDTHxHEIGHT.
    #[arg(long, default_value = "512x512", value_parser = dxso_render::parse_size, value_name = "WxH")]
    size: [u32; 2],
    #[command(flatten)]
    engine: crate::engine::RenderEngineArg,
    #[command(flatten)]
    output: OutputArg,
}

fn shader(path: &std::path::Path) -> Result<dxso::Shader> {
    let source = Source::read(path)?;
    let (_, shader) = source.shader(&ShaderRead {
        name: None,
        assemble: true,
    })?;
    let report = dxso::validate(&shader);
    if !report.is_valid() {
        let first = report
            .errors()
            .next()
            .map(|d| d.to_string())
            .unwrap_or_default();
        anyhow::bail!("{}: the shader is invalid: {first}", source.name);
    }
    Ok(shader)
}

/// The summary lines of a render.
pub fn summary(stats: &Stats) -> Vec<String> {
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    vec![
        format!(
            "draws: {} ({} patch draws, {} from the patch cache)",
            stats.draws, stats.patches, stats.cache_hits
        ),
        format!(
            "geometry: {} vertices shaded, {} primitives, {} after culling and clipping",
            stats.vertices, stats.primitives, stats.primitives_drawn
        ),
        format!(
            "pixels: {} shaded ({} quads), {} written",
            stats.pixels_shaded, stats.quads_shaded, stats.pixels_written
        ),
        format!(
            "time: tessellation {:.1} ms, vertex shading {:.1} ms, setup {:.1} ms, raster + pixel shading {:.1} ms",
            ms(stats.tessellate),
            ms(stats.vertex),
            ms(stats.setup),
            ms(stats.raster)
        ),
    ]
}

/// The summary as JSON.
pub fn summary_json(stats: &Stats) -> serde_json::Value {
    json!({
        "draws": stats.draws,
        "patch_draws": stats.patches,
        "cache_hits": stats.cache_hits,
        "vertices": stats.vertices,
        "primitives": stats.primitives,
        "primitives_drawn": stats.primitives_drawn,
        "draws_culled": stats.draws_culled,
        "pixels_shaded": stats.pixels_shaded,
        "quads_shaded": stats.quads_shaded,
        "pixels_written": stats.pixels_written,
        "ms": {
            "tessellate": stats.tessellate.as_secs_f64() * 1e3,
            "vertex": stats.vertex.as_secs_f64() * 1e3,
            "setup": stats.setup.as_secs_f64() * 1e3,
            "raster": stats.raster.as_secs_f64() * 1e3,
        },
    })
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        if s.json && self.output.is_stdout() {
            return Err(CliError::Usage(
                "--json and the PNG both want standard output: give -o FILE".into(),
            )
            .into());
        }
        self.output.check_binary(s)?;
        let inputs: Vec<&std::path::Path> = [&self.input.file, &self.vs, &self.ps]
            .into_iter()
            .flatten()
            .map(|p| p.as_path())
            .collect();
        self.output.check(&inputs, &[])?;
        let source = self.input.read(s)?;
        source.expect(&[Kind::Dp2Capture])?;
        let capture = Capture::parse(&source.bytes).with_context(|| source.name.clone())?;
        let engine = ExecEngine::with_engine(self.engine.cpu()?);
        let vs: Option<Arc<dyn VertexStage>> = match &self.vs {
            Some(p) => Some(Arc::new(
                engine
                    .vertex(&shader(p)?)
                    .with_context(|| p.display().to_string())?,
            )),
            None => None,
        };
        let ps: Option<Arc<dyn PixelStage>> = match &self.ps {
            Some(p) => Some(Arc::new(
                engine
                    .pixel(&shader(p)?)
                    .with_context(|| p.display().to_string())?,
            )),
            None => None,
        };
        let [w, h] = self.size;
        let mut renderer =
            Renderer::new(w, h, Some(&engine), RenderLimits::default())?.with_shaders(vs, ps);
        renderer
            .render_capture(&capture)
            .with_context(|| source.name.clone())?;
        let png = renderer.image().to_png()?;
        self.output.write_binary(s, &png)?;
        let stats = renderer.stats();
        if stats.draws_culled > 0 {
            s.warn(&format!(
                "{}: {} draw(s) drew nothing: every triangle faced away and CULLMODE culled \
                 it (CULLMODE NONE draws both windings)",
                source.name, stats.draws_culled
            ));
        }
        if s.json {
            let mut j = summary_json(&stats);
            j["size"] = json!([w, h]);
            s.print_json(&j)?;
        } else if !s.quiet {
            let text = summary(&stats).join("\n") + "\n";
            if self.output.is_stdout() {
                s.stderr(&text);
            } else {
                s.print(&text)?;
            }
        }
        Ok(ExitCode::SUCCESS)
    }
}
