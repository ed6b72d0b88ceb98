use crate::session::Session;
use anyhow::{ensure, Result};
use dxso_exec::Engine;
use dxso_render::parse_size;
use dxso_render::teapot::{self, Scene};
use dxso_render::Stats;
use serde_json::json;
use std::fmt::Write as _;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Rendering throughput: the demo frame (the Utah teapot DP2 stream, 32 patches created in a
/// depth-only pass and drawn again from the patch cache with the demo's vs_3_0 and ps_3_0 run
/// by dxso-exec) at 1024 x 1024, with the shaders on the interpreter and (built with the `jit`
/// feature) on the JIT.
///
/// Each pass renders the whole frame: device (parsing, tessellation), vertex shading, setup,
/// rasterisation, pixel shading and output merging. Its figure is pixels shaded per second
/// (covered pixels the pixel shader ran on, divided by the frame's time). The baseline,
/// measured in the same run with the passes alternating (interpreter frame, JIT frame, fill),
/// is plain Rust filling the same pixels (every pixel the frame's teapot covers, row by row)
/// of an RGBA8 buffer of the same size with one constant colour: the fill limit. `ratio` is
/// the interpreter frame's pixels shaded per second divided by that fill rate; `jit_ratio` the
/// same for the JIT frame, and `jit_speedup` the interpreter frame's time over the JIT's. The
/// JIT's first frame must equal the interpreter's byte for byte, with the tiered start and
/// waiting for compiles. The timed frames wait for their compiles (the compile is in the
/// frame's time). The time per stage is the fastest frame's.
///
/// `first_frame_tiered_ms` and `first_frame_waiting_ms` are a fresh JIT engine's first frame
/// (the fastest of five) with the tiered start (draws run on the interpreter while their
/// shaders compile in the background) and waiting for the compiles;
/// `first_frame_interpreted_runs` counts the shader runs of that tiered frame that went to the
/// interpreter, `first_frame_compiles_pending_at_end` the compiles not finished when it ended.
/// `first_draw_shader_start_tiered_ms` and `first_draw_shader_start_waiting_ms` time building
/// the frame's vertex and pixel stages on a fresh engine (the fastest of five): what the first
/// draw waits for before its shaders can run.
///
/// Example:
///   cargo run --release -p dxso-bench -- render --json
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

/// One stage's time in a frame's statistics.
type StageTime = fn(&Stats) -> Duration;

/// The frames one engine rendered.
struct Side {
    engine: Engine,
    frames: Vec<(f64, Stats)>,
}

/// What one side's frames measure.
struct Figures {
    engine: Engine,
    frames: usize,
    frame_time: f64,
    stages: Stats,
    shaded_per_s: f64,
}

/// An engine whose shaders are built once compiled: the timed frames measure the compiled code
/// (and its compile), not a mix of interpreted and compiled draws.
fn waiting(engine: Engine) -> dxso_render::ExecEngine {
    let e = dxso_render::ExecEngine::with_engine(engine);
    #[cfg(feature = "jit")]
    let e = e.waiting_for_compiles(true);
    e
}

/// A fresh JIT engine's first frame, with the tiered start and waiting for compiles (each the
/// fastest of `repeats`): milliseconds each, and with tiering the runs that went to the
/// interpreter while compiles were pending and the compiles still pending when the frame ended.
#[cfg(feature = "jit")]
fn first_frames(scene: &Scene, vs: &[u8], ps: &[u8], repeats: usize) -> Result<FirstFrames> {
    let mut f = FirstFrames {
        tiered_ms: f64::INFINITY,
        waiting_ms: f64::INFINITY,
        interpreted_runs: 0,
        pending_at_end: 0,
        start_tiered_ms: f64::INFINITY,
        start_waiting_ms: f64::INFINITY,
    };
    let (vs_shader, ps_shader) = (dxso::decode(vs)?, dxso::decode(ps)?);
    for _ in 0..repeats.max(1) {
        // What the first draw waits for before its shaders can run: building both stages.
        for wait in [false, true] {
            let engine =
                dxso_render::ExecEngine::with_engine(Engine::Jit).waiting_for_compiles(wait);
            let t = Instant::now();
            black_box((engine.vertex(&vs_shader)?, engine.pixel(&ps_shader)?));
            let ms = t.elapsed().as_secs_f64() * 1e3;
            let best = if wait {
                &mut f.start_waiting_ms
            } else {
                &mut f.start_tiered_ms
            };
            *best = best.min(ms);
            engine.tiering().wait_idle();
        }
        let engine = dxso_render::ExecEngine::with_engine(Engine::Jit);
        let t = Instant::now();
        black_box(teapot::render_with(scene, vs, ps, &engine)?);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let tiering = engine.tiering();
        if ms < f.tiered_ms {
            f.tiered_ms = ms;
            f.interpreted_runs = tiering.interpreted_runs();
            f.pending_at_end = tiering.pending();
        }
        // Let the background compiles end before the next frame's clock starts.
        tiering.wait_idle();
        let t = Instant::now();
        black_box(teapot::render_with(scene, vs, ps, &waiting(Engine::Jit))?);
        f.waiting_ms = f.waiting_ms.min(t.elapsed().as_secs_f64() * 1e3);
    }
    Ok(f)
}

/// What [`first_frames`] measured.
#[cfg(feature = "jit")]
struct FirstFrames {
    tiered_ms: f64,
    waiting_ms: f64,
    interpreted_runs: u64,
    pending_at_end: u64,
    start_tiered_ms: f64,
    start_waiting_ms: f64,
}

fn fastest_third(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let best = &v[..v.len().div_ceil(3)];
    best.iter().sum::<f64>() / best.len() as f64
}

impl Side {
    fn figures(mut self, shaded: f64) -> Figures {
        self.frames.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut times: Vec<f64> = self.frames.iter().map(|f| f.0).collect();
        let frame_time = fastest_third(&mut times).max(1e-12);
        Figures {
            engine: self.engine,
            frames: self.frames.len(),
            frame_time,
            stages: self.frames[0].1,
            shaded_per_s: shaded / frame_time,
        }
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

impl Figures {
    fn json(&self, fill_per_s: f64) -> serde_json::Value {
        json!({
            "engine": self.engine.name(),
            "frames": self.frames,
            "frame_ms": self.frame_time * 1e3,
            "stages_ms": {
                "tessellate": ms(self.stages.tessellate),
                "vertex": ms(self.stages.vertex),
                "setup": ms(self.stages.setup),
                "raster_and_pixel": ms(self.stages.raster),
            },
            "pixels_shaded_per_s": self.shaded_per_s,
            "ratio": self.shaded_per_s / fill_per_s,
        })
    }
}

/// The teapot scene's shader text as bytecode.
fn assemble(text: &str) -> Result<Vec<u8>> {
    let shader = dxso_text::parse(text).map_err(|d| anyhow::anyhow!("the teapot shader: {d}"))?;
    Ok(dxso::encode(&shader))
}

/// The engines measured: the interpreter, then the JIT when this build has it.
fn engines() -> Vec<Engine> {
    let mut engines = vec![Engine::Interpreter];
    if Engine::best_available() != Engine::Interpreter {
        engines.push(Engine::best_available());
    }
    engines
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        let budget = Duration::from_secs_f64(self.seconds.clamp(0.01, 600.0));
        let (vs, ps) = (
            assemble(teapot::VERTEX_SHADER)?,
            assemble(teapot::PIXEL_SHADER)?,
        );
        let scene = Scene {
            size: self.size,
            ..Scene::default()
        };
        let mut sides: Vec<Side> = engines()
            .into_iter()
            .map(|engine| Side {
                engine,
                frames: Vec::new(),
            })
            .collect();
        let (image, first) = teapot::render(&scene, &vs, &ps, Engine::Interpreter)?;
        for side in &sides[1..] {
            // Tiered (draws on the interpreter while compiles are pending) and waiting.
            let (tiered, _) = teapot::render(&scene, &vs, &ps, side.engine)?;
            let (other, _) = teapot::render_with(&scene, &vs, &ps, &waiting(side.engine))?;
            ensure!(
                other.pixels == image.pixels && tiered.pixels == image.pixels,
                "the {} frame differs from the interpreter's",
                side.engine.name()
            );
        }
        #[cfg(feature = "jit")]
        let first_frame = first_frames(&scene, &vs, &ps, 5)?;
        let background = image.get(0, 0);
        let covered: Vec<bool> = image.pixels.iter().map(|p| *p != background).collect();
        let coverage = covered.iter().filter(|&&c| c).count();
        let mut target = vec![[0u8; 4]; covered.len()];
        let mut fills: Vec<f64> = Vec::new();
        let start = Instant::now();
        let total = budget * (sides.len() as u32 + 1);
        while fills.len() < 3 || start.elapsed() < total {
            for side in &mut sides {
                let t = Instant::now();
                let (image, stats) =
                    teapot::render_with(black_box(&scene), &vs, &ps, &waiting(side.engine))?;
                black_box(image);
                side.frames.push((t.elapsed().as_secs_f64(), stats));
            }
            let t = Instant::now();
            for (pixel, &c) in target.iter_mut().zip(black_box(&covered)) {
                if c {
                    *pixel = [200, 120, 40, 255];
                }
            }
            black_box(&mut target);
            fills.push(t.elapsed().as_secs_f64());
            if fills.len() >= 10_000 {
                break;
            }
        }
        let shaded = first.pixels_shaded as f64;
        let figures: Vec<Figures> = sides.into_iter().map(|side| side.figures(shaded)).collect();
        let fill_time = fastest_third(&mut fills).max(1e-12);
        let fill_per_s = coverage as f64 / fill_time;
        let interpreter = &figures[0];
        let jit = figures.get(1);
        let ratio = interpreter.shaded_per_s / fill_per_s;
        if s.json {
            let mut v = json!({
                "bench": "render",
                "input": "demo frame: Utah teapot DP2 stream, 32 created (depth-only) + 32 cached (shaded) patches, vs_3_0 + ps_3_0 on dxso-exec",
                "size": self.size,
                "frames": interpreter.frames,
                "frame_ms": interpreter.frame_time * 1e3,
                "stages_ms": interpreter.json(fill_per_s)["stages_ms"],
                "vertices": first.vertices,
                "primitives": first.primitives,
                "pixels_shaded": first.pixels_shaded,
                "quads_shaded": first.quads_shaded,
                "pixels_shaded_per_s": interpreter.shaded_per_s,
                "fill_pixels": coverage,
                "fill_pixels_per_s": fill_per_s,
                "engines": figures.iter().map(|f| f.json(fill_per_s)).collect::<Vec<_>>(),
                "ratio": ratio,
            });
            if let Some(jit) = jit {
                v["jit_ratio"] = json!(jit.shaded_per_s / fill_per_s);
                v["jit_speedup"] = json!(interpreter.frame_time / jit.frame_time);
            }
            #[cfg(feature = "jit")]
            {
                v["first_frame_tiered_ms"] = json!(first_frame.tiered_ms);
                v["first_frame_waiting_ms"] = json!(first_frame.waiting_ms);
                v["first_frame_interpreted_runs"] = json!(first_frame.interpreted_runs);
                v["first_frame_compiles_pending_at_end"] = json!(first_frame.pending_at_end);
                v["first_draw_shader_start_tiered_ms"] = json!(first_frame.start_tiered_ms);
                v["first_draw_shader_start_waiting_ms"] = json!(first_frame.start_waiting_ms);
            }
            s.print_json(&v)?;
        } else {
            let mut out = String::new();
            writeln!(
                out,
                "render: demo frame {} x {} (teapot, 32 created + 32 cached patches, vs_3_0 + ps_3_0 on dxso-exec), {} frames per engine",
                self.size[0],
                self.size[1],
                interpreter.frames
            )?;
            write!(out, "{:<28}", "ms (fastest frame)")?;
            for f in &figures {
                write!(out, " {:>12}", f.engine.name())?;
            }
            writeln!(out)?;
            let stages: [(&str, StageTime); 4] = [
                ("tessellation (device)", |s| s.tessellate),
                ("vertex shading", |s| s.vertex),
                ("setup and binning", |s| s.setup),
                ("raster + pixel shading", |s| s.raster),
            ];
            for (name, stage) in stages {
                write!(out, "{name:<28}")?;
                for f in &figures {
                    write!(out, " {:>12.2}", ms(stage(&f.stages)))?;
                }
                writeln!(out)?;
            }
            write!(out, "{:<28}", "frame (fastest third)")?;
            for f in &figures {
                write!(out, " {:>12.2}", f.frame_time * 1e3)?;
            }
            writeln!(out)?;
            write!(out, "{:<28}", "pixels shaded/s")?;
            for f in &figures {
                write!(out, " {:>12.3e}", f.shaded_per_s)?;
            }
            writeln!(out)?;
            writeln!(
                out,
                "pixels shaded: {} ({} quads); constant-colour fill of the same {coverage} pixels: {fill_per_s:.3e} pixels/s",
                first.pixels_shaded, first.quads_shaded
            )?;
            writeln!(
                out,
                "ratio (interpreter shaded / fill): {:.4}%",
                100.0 * ratio
            )?;
            if let Some(jit) = jit {
                writeln!(
                    out,
                    "jit_ratio (JIT shaded / fill): {:.4}%; the JIT frame is {:.2}x faster (same picture, byte for byte)",
                    100.0 * jit.shaded_per_s / fill_per_s,
                    interpreter.frame_time / jit.frame_time
                )?;
            }
            #[cfg(feature = "jit")]
            writeln!(
                out,
                "first JIT frame of a fresh engine (fastest of 5): {:.2} ms tiered ({} shader runs on the interpreter while compiling, {} compiles still pending at its end), {:.2} ms waiting for compiles",
                first_frame.tiered_ms,
                first_frame.interpreted_runs,
                first_frame.pending_at_end,
                first_frame.waiting_ms
            )?;
            #[cfg(feature = "jit")]
            writeln!(
                out,
                "building the frame's two shader stages (what the first draw waits for): {:.3} ms tiered, {:.3} ms waiting for compiles",
                first_frame.start_tiered_ms, first_frame.start_waiting_ms
            )?;
            s.print(&out)?;
        }
        Ok(ExitCode::SUCCESS)
    }
}
