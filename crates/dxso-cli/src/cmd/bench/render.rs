use super::super::demo::{render_teapot, teapot_shaders};
use super::super::render::parse_size;
use crate::session::Session;
use anyhow::Result;
use dxso_render::teapot::Scene;
use dxso_render::Stats;
use serde_json::json;
use std::fmt::Write as _;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Rendering throughput: the demo frame (the Utah teapot DP2 stream, 32 patches created in a
/// depth-only pass and drawn again from the patch cache with the demo's vs_3_0 and ps_3_0 run
/// by dxso-exec) at 1024 x 1024.
///
/// Each pass renders the whole frame: device (parsing, tessellation), vertex shading, setup,
/// rasterisation, pixel shading and output merging. Its figure is pixels shaded per second
/// (covered pixels the pixel shader ran on, divided by the frame's time). The baseline,
/// measured in the same run with the passes alternating, is plain Rust filling the same
/// pixels (every pixel the frame's teapot covers, row by row) of an RGBA8 buffer of the same
/// size with one constant colour: the fill limit. `ratio` is pixels shaded per second divided
/// by that fill rate. The time per stage is the fastest frame's.
///
/// Example:
///   cargo run --release -- bench render --json
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    /// Seconds to spend on each measured side.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Frame size.
    #[arg(long, default_value = "1024x1024", value_parser = parse_size, value_name = "WxH")]
    size: [u32; 2],
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        let budget = Duration::from_secs_f64(self.seconds.clamp(0.01, 600.0));
        let (vs, ps) = teapot_shaders(&mut std::io::sink())?;
        let scene = Scene {
            size: self.size,
            ..Scene::default()
        };
        let (image, first) = render_teapot(&scene, &vs, &ps)?;
        let background = image.get(0, 0);
        let covered: Vec<bool> = image.pixels.iter().map(|p| *p != background).collect();
        let coverage = covered.iter().filter(|&&c| c).count();
        let mut target = vec![[0u8; 4]; covered.len()];
        let mut frames: Vec<(f64, Stats)> = Vec::new();
        let mut fills: Vec<f64> = Vec::new();
        let start = Instant::now();
        let mut failure = None;
        while frames.len() < 3 || start.elapsed() < budget * 2 {
            let t = Instant::now();
            match render_teapot(black_box(&scene), &vs, &ps) {
                Ok((image, stats)) => {
                    black_box(image);
                    frames.push((t.elapsed().as_secs_f64(), stats));
                }
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
            let t = Instant::now();
            for (pixel, &c) in target.iter_mut().zip(black_box(&covered)) {
                if c {
                    *pixel = [200, 120, 40, 255];
                }
            }
            black_box(&mut target);
            fills.push(t.elapsed().as_secs_f64());
            if frames.len() >= 10_000 {
                break;
            }
        }
        if let Some(e) = failure {
            return Err(e);
        }
        let fastest_third = |v: &mut Vec<f64>| {
            v.sort_by(|a, b| a.total_cmp(b));
            let best = &v[..v.len().div_ceil(3)];
            best.iter().sum::<f64>() / best.len() as f64
        };
        frames.sort_by(|a, b| a.0.total_cmp(&b.0));
        let stages = frames[0].1;
        let mut frame_times: Vec<f64> = frames.iter().map(|f| f.0).collect();
        let frame_time = fastest_third(&mut frame_times);
        let fill_time = fastest_third(&mut fills).max(1e-12);
        let shaded = first.pixels_shaded as f64;
        let shaded_per_s = shaded / frame_time;
        let fill_per_s = coverage as f64 / fill_time;
        let ratio = shaded_per_s / fill_per_s;
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        if s.json {
            s.print_json(&json!({
                "bench": "render",
                "input": "demo frame: Utah teapot DP2 stream, 32 created (depth-only) + 32 cached (shaded) patches, vs_3_0 + ps_3_0 on dxso-exec",
                "size": self.size,
                "frames": frames.len(),
                "frame_ms": frame_time * 1e3,
                "stages_ms": {
                    "tessellate": ms(stages.tessellate),
                    "vertex": ms(stages.vertex),
                    "setup": ms(stages.setup),
                    "raster_and_pixel": ms(stages.raster),
                },
                "vertices": first.vertices,
                "primitives": first.primitives,
                "pixels_shaded": first.pixels_shaded,
                "quads_shaded": first.quads_shaded,
                "pixels_shaded_per_s": shaded_per_s,
                "fill_pixels": coverage,
                "fill_pixels_per_s": fill_per_s,
                "ratio": ratio,
            }))?;
        } else {
            let mut out = String::new();
            writeln!(
                out,
                "render: demo frame {} x {} (teapot, 32 created + 32 cached patches, vs_3_0 + ps_3_0 on dxso-exec), {} frames",
                self.size[0],
                self.size[1],
                frames.len()
            )?;
            writeln!(out, "{:<28} {:>12}", "stage (fastest frame)", "ms")?;
            for (name, d) in [
                ("tessellation (device)", stages.tessellate),
                ("vertex shading", stages.vertex),
                ("setup and binning", stages.setup),
                ("raster + pixel shading", stages.raster),
            ] {
                writeln!(out, "{name:<28} {:>12.2}", ms(d))?;
            }
            writeln!(
                out,
                "{:<28} {:>12.2}",
                "frame (fastest third)",
                frame_time * 1e3
            )?;
            writeln!(
                out,
                "pixels shaded: {} ({} quads); {:.3e} pixels shaded/s",
                first.pixels_shaded, first.quads_shaded, shaded_per_s
            )?;
            writeln!(
                out,
                "constant-colour fill of the same {coverage} pixels: {fill_per_s:.3e} pixels/s"
            )?;
            writeln!(out, "ratio (shaded / fill): {:.4}%", 100.0 * ratio)?;
            s.print(&out)?;
        }
        Ok(ExitCode::SUCCESS)
    }
}
