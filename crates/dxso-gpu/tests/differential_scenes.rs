//! Differential execution of what dxso-render's fixed-function scenes ran: every scene test of
//! `ffp_scenes.rs` and of the Wine ports (`ffp_wine.rs`), included from dxso-render's tests,
//! renders with a trace (`dxso_render::trace`); each recorded shader run (a shader, one
//! binding's constants and samplers, and the inputs the renderer fed it) then runs again on
//! the interpreter, the JIT and the Vulkan device. The interpreter and the JIT agree to the
//! bit; the device agrees with the interpreter within the tolerance of the shader's operation
//! class (as in the other differential tests).
//!
//! No test harness: the included scene tests are plain functions here, and `main` runs them.

mod common;
#[path = "../../dxso-render/tests/ffp_scenes.rs"]
mod ffp_scenes;
// Each scene file brings its own copy of the harness module (`wine`), as in dxso-render where
// they are two crates: two thread-local traces, each set by `tracing` of its own copy.
#[allow(clippy::duplicate_mod)]
#[path = "../../dxso-render/tests/ffp_wine.rs"]
mod ffp_wine;

use common::*;
use dxso_exec::{
    Engine, Filter, Format, MipLevel, Options, Outputs, QuadBatch, Resources, Texture,
};
use dxso_render::trace::{RunInputs, ShaderRun, Trace, TraceLimits};
use std::sync::Arc;

/// Quads per run on the device (runs split between quads: derivatives stay within a quad).
const QUADS_PER_RUN: usize = 1024;

fn main() {
    let what = "differential_scenes";
    let Some(gpu) = gpu_or_skip(what) else {
        return;
    };
    // One quad in 4 (by position; every quad gives the same agreement, in twice the time),
    // none dropped: the scenes draw about 90,000 quads with the flat-coloured shaders of one
    // binding.
    let trace = Arc::new(Trace::with_limits(TraceLimits {
        quad_stride: 4,
        max_vertices: 1 << 18,
        max_quads: 1 << 18,
    }));
    // Scene tests that rendered (the list checks render nothing), and their renders.
    let (mut tests, mut renders) = (0, 0);
    for (name, test) in ffp_scenes::TESTS {
        eprintln!("  ffp_scenes::{name}");
        let n = ffp_scenes::wine::tracing(&trace, test);
        renders += n;
        tests += usize::from(n > 0);
    }
    for (name, test) in ffp_wine::TESTS {
        eprintln!("  ffp_wine::{name}");
        let n = ffp_wine::wine::tracing(&trace, test);
        renders += n;
        tests += usize::from(n > 0);
    }
    // The demo's fixed-function teapot: lit, textured through the stage cascade, fogged, with
    // tessellated patches.
    let teapot = dxso_render::teapot::Scene {
        size: [256, 256],
        ..Default::default()
    };
    let engine = dxso_render::ExecEngine::default().traced(Arc::clone(&trace));
    let mut r =
        dxso_render::Renderer::new(256, 256, Some(&engine), Default::default()).expect("a target");
    r.render_capture(&teapot.capture_fixed_function())
        .expect("the fixed-function teapot renders");
    renders += 1;
    let shaders = trace.shaders();
    let runs = trace.runs();
    let vertex_shaders = shaders.iter().filter(|s| s.version.is_vertex()).count();
    eprintln!(
        "{what}: {tests} scene tests and the demo's teapot, {renders} renders; {} distinct shaders ({vertex_shaders} vertex, {} pixel), {} runs",
        shaders.len(),
        shaders.len() - vertex_shaders,
        runs.len()
    );
    let mut stats = Stats::default();
    let mut invocations = 0usize;
    let mut jit_fallbacks = Vec::new();
    // Runs filtering 8-bit textures, and the largest difference of the device's own filtering.
    let mut eight_bit = (0usize, 0f32);
    for (n, run) in runs.iter().enumerate() {
        let index = shaders
            .iter()
            .position(|s| Arc::ptr_eq(s, &run.shader))
            .unwrap_or(usize::MAX);
        let label = format!(
            "run {n} ({} {index})",
            if run.shader.version.is_pixel() {
                "pixel shader"
            } else {
                "vertex shader"
            }
        );
        assert_eq!(run.dropped, 0, "{label}: the trace dropped invocations");
        for (part, inputs) in split(run).into_iter().enumerate() {
            let label = format!("{label} part {part}");
            invocations += match &inputs {
                RunInputs::Vertices(v) => v.count,
                RunInputs::Quads(q) => q.pixels(),
            };
            let interpreter = execute(run, &inputs, Engine::Interpreter, &mut jit_fallbacks)
                .unwrap_or_else(|e| panic!("{label}: interpreter: {e}"));
            let jit = execute(run, &inputs, Engine::Jit, &mut jit_fallbacks)
                .unwrap_or_else(|e| panic!("{label}: JIT: {e}"));
            if let Some(d) = bit_difference(&interpreter, &jit) {
                stats
                    .failures
                    .push(format!("{label}: interpreter and JIT differ: {d}"));
            }
            let options = Options::default();
            let on_device = |resources: &Resources| match &inputs {
                RunInputs::Vertices(v) => gpu.run_vertex(&run.shader, v, resources, &options),
                RunInputs::Quads(q) => gpu.run_pixel(&run.shader, q, resources, &options),
            };
            let device = match float_filtered(&run.resources) {
                None => on_device(&run.resources),
                Some(floats) => {
                    // The same texel values in floats: the executor's results do not change...
                    let mut same = run.clone();
                    same.resources = floats.clone();
                    let again = execute(&same, &inputs, Engine::Interpreter, &mut jit_fallbacks)
                        .unwrap_or_else(|e| panic!("{label}: interpreter: {e}"));
                    if let Some(d) = bit_difference(&interpreter, &again) {
                        stats
                            .failures
                            .push(format!("{label}: float textures change the results: {d}"));
                    }
                    // ...and the device's own 8-bit filtering stays within a byte's step.
                    if let Ok(g) = on_device(&run.resources) {
                        let d = largest_difference(&interpreter, &g);
                        eight_bit.0 += 1;
                        eight_bit.1 = eight_bit.1.max(d);
                    }
                    on_device(&floats)
                }
            };
            match device {
                Ok(g) => stats.compare(&label, class_of(&run.shader), &interpreter, &g),
                Err(dxso_gpu::GpuError::Unsupported(why)) => stats.skip(&why),
                Err(e) => stats.failures.push(format!("{label}: device: {e}")),
            }
        }
    }
    stats.report(&format!(
        "scene shader runs on the interpreter, the JIT and {}",
        gpu.adapter_name()
    ));
    eprintln!("  {invocations} invocations (vertices and pixels) ran on all three engines");
    eprintln!(
        "  {} parts filter 8-bit textures: compared with the same texels as floats; with 8-bit textures the device differs by up to {:.3e} (one step of 8 bits: {:.3e})",
        eight_bit.0,
        eight_bit.1,
        1.0 / 255.0
    );
    for f in stats.failures.iter().filter(|f| f.contains("run ")).take(3) {
        if let Some(n) = f
            .strip_prefix("run ")
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse::<usize>().ok())
        {
            eprintln!("--- {f}\n{}", dxso_text::print::print(&runs[n].shader));
        }
    }
    assert!(
        jit_fallbacks.is_empty(),
        "the JIT fell back to the interpreter: {jit_fallbacks:?}"
    );
    assert!(stats.skipped.is_empty(), "skipped: {:?}", stats.skipped);
    assert!(
        eight_bit.1 <= 1.0 / 255.0,
        "the device's 8-bit filtering differs by more than a step"
    );
    assert!(
        stats.failures.is_empty(),
        "{} failures",
        stats.failures.len()
    );
    assert!(
        tests >= 40 && renders >= 100 && shaders.len() >= 40,
        "the scenes ran their shaders"
    );
}

/// A run's inputs in parts the device takes in one draw.
fn split(run: &ShaderRun) -> Vec<RunInputs> {
    match &run.inputs {
        RunInputs::Vertices(v) => vec![RunInputs::Vertices(v.clone())],
        RunInputs::Quads(q) => (0..q.quads)
            .step_by(QUADS_PER_RUN)
            .map(|start| {
                let end = (start + QUADS_PER_RUN).min(q.quads);
                let lanes = 4 * start..4 * end;
                let mut part = QuadBatch::new(end - start);
                for a in &q.inputs {
                    part.set(a.register, a.values[lanes.clone()].to_vec());
                }
                if !q.coverage.is_empty() {
                    part.coverage = q.coverage[lanes].to_vec();
                }
                RunInputs::Quads(part)
            })
            .collect(),
    }
}

/// Runs `inputs` on the executor's `engine`; records a JIT that fell back to the interpreter.
fn execute(
    run: &ShaderRun,
    inputs: &RunInputs,
    engine: Engine,
    fallbacks: &mut Vec<String>,
) -> Result<Outputs, String> {
    let options = Options {
        engine,
        ..Options::default()
    };
    match inputs {
        RunInputs::Vertices(v) => {
            let vs = dxso_exec::VertexShader::with_options(&run.shader, &options)
                .map_err(|e| e.to_string())?;
            if let Some(why) = vs.compiled().and_then(|c| c.fallback_reason()) {
                fallbacks.push(format!("{why:?}"));
            }
            vs.run(v, &run.resources).map_err(|e| e.to_string())
        }
        RunInputs::Quads(q) => {
            let ps = dxso_exec::PixelShader::with_options(&run.shader, &options)
                .map_err(|e| e.to_string())?;
            if let Some(why) = ps.compiled().and_then(|c| c.fallback_reason()) {
                fallbacks.push(format!("{why:?}"));
            }
            ps.run(q, &run.resources).map_err(|e| e.to_string())
        }
    }
}

/// The first value the two outputs do not hold bit for bit (NaNs of any payload are equal).
fn bit_difference(a: &Outputs, b: &Outputs) -> Option<String> {
    if a.discarded != b.discarded {
        return Some("discard masks".into());
    }
    if a.registers.len() != b.registers.len() {
        return Some("output registers".into());
    }
    for ((ra, va), (rb, vb)) in a.registers.iter().zip(&b.registers) {
        if ra != rb {
            return Some(format!("{ra} against {rb}"));
        }
        for (i, (x, y)) in va.iter().zip(vb).enumerate() {
            for k in 0..4 {
                let same = x[k].to_bits() == y[k].to_bits() || (x[k].is_nan() && y[k].is_nan());
                if !same {
                    return Some(format!("{ra}[{i}].{k}: {:e} against {:e}", x[k], y[k]));
                }
            }
        }
    }
    None
}

/// `resources` with every 8-bit texture that a sampler blends texels of (linear, anisotropic or
/// between levels) stored as 32-bit floats of the same values, or `None` when no sampler does:
/// lavapipe filters 8-bit textures with 8-bit weights (errors up to a step, 1/255, beyond the
/// texture tolerance); the executor decodes the texels to floats and then filters, so its
/// results are the same for both textures (checked).
fn float_filtered(resources: &Resources) -> Option<Resources> {
    let blends = |f: Filter| !matches!(f, Filter::None | Filter::Point);
    let mut out = resources.clone();
    let mut changed = false;
    for s in &mut out.samplers {
        let Some(t) = &s.texture else {
            continue;
        };
        let st = &s.state;
        if t.format() != Format::Rgba8Unorm
            || st.srgb_texture
            || !(blends(st.mag_filter) || blends(st.min_filter) || blends(st.mip_filter))
        {
            continue;
        }
        let levels = t
            .levels()
            .iter()
            .map(|l| MipLevel {
                width: l.width,
                height: l.height,
                depth: l.depth,
                data: l
                    .data
                    .chunks_exact(4)
                    .flat_map(|b| Format::Rgba8Unorm.decode(b))
                    .flat_map(f32::to_le_bytes)
                    .collect(),
            })
            .collect();
        let floats = Texture::new(t.dimension(), Format::Rgba32Float, levels)
            .expect("the same texture in floats");
        s.texture = Some(Arc::new(floats));
        changed = true;
    }
    changed.then_some(out)
}

/// The largest absolute difference between two runs' outputs.
fn largest_difference(a: &Outputs, b: &Outputs) -> f32 {
    a.registers
        .iter()
        .zip(&b.registers)
        .flat_map(|((_, x), (_, y))| x.iter().zip(y))
        .flat_map(|(x, y)| (0..4).map(move |k| (x[k] - y[k]).abs()))
        .filter(|d| !d.is_nan())
        .fold(0.0, f32::max)
}
