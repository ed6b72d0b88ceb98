//! `dxso run --compare interp,jit,vulkan` over the corpus: every corpus shader that validates
//! runs on the interpreter, the JIT and the Vulkan device with the inputs the differential test
//! uses (both float-rule modes) and with the all-zero inputs `dxso run` gives by default, and
//! the outputs are compared under `dxso_exec::compare`'s rules (CPU engines bit for bit, the
//! device within its tolerance, NaN and infinity only with themselves). The number of shaders
//! that differ is held at a floor; every class of difference left is explained in
//! docs/SEMANTICS.md section 16. `--nocapture` prints the count, the classes and the shaders.

mod common;

use common::*;
use dxso_exec::compare::{compare, Tolerance};
use dxso_exec::{Engine, Options, Outputs, QuadBatch, Resources, VertexBatch};
use std::collections::BTreeMap;

/// Shaders allowed to differ, per mode (the figures reached; lower them when a cause is fixed).
const FLOOR_IEEE: usize = 0;
const FLOOR_ZERO_TIMES_ANYTHING: usize = 0;
const FLOOR_ZERO_INPUTS: usize = 0;

#[test]
fn corpus_engines_agree_on_the_differential_inputs() {
    let [ieee, _] = float_modes();
    run(
        "differential inputs, IEEE products",
        ieee.1,
        false,
        FLOOR_IEEE,
    );
}

#[test]
fn corpus_engines_agree_on_the_differential_inputs_with_zero_times_anything() {
    let [_, zero] = float_modes();
    run(
        "differential inputs, zero_times_anything",
        zero.1,
        false,
        FLOOR_ZERO_TIMES_ANYTHING,
    );
}

#[test]
fn corpus_engines_agree_on_zero_inputs() {
    run(
        "zero inputs (dxso run's defaults)",
        Options::default(),
        true,
        FLOOR_ZERO_INPUTS,
    );
}

/// Runs one engine; `Ok(None)` when the device cannot express the shader.
fn execute(
    gpu: Option<&dxso_gpu::Gpu>,
    engine: Engine,
    shader: &dxso::Shader,
    inputs: &[dxso_exec::Attribute],
    count: usize,
    resources: &Resources,
    options: &Options,
) -> Result<Option<Outputs>, String> {
    let options = Options { engine, ..*options };
    let out = if shader.version.is_pixel() {
        let batch = QuadBatch {
            quads: count.div_ceil(4),
            inputs: inputs.to_vec(),
            coverage: Vec::new(),
        };
        match gpu {
            Some(g) => g.run_pixel(shader, &batch, resources, &options),
            None => {
                let ps = dxso_exec::PixelShader::with_options(shader, &options)
                    .map_err(|e| e.to_string())?;
                return ps
                    .run(&batch, resources)
                    .map(Some)
                    .map_err(|e| e.to_string());
            }
        }
    } else {
        let batch = VertexBatch {
            count,
            inputs: inputs.to_vec(),
        };
        match gpu {
            Some(g) => g.run_vertex(shader, &batch, resources, &options),
            None => {
                let vs = dxso_exec::VertexShader::with_options(shader, &options)
                    .map_err(|e| e.to_string())?;
                return vs
                    .run(&batch, resources)
                    .map(Some)
                    .map_err(|e| e.to_string());
            }
        }
    };
    match out {
        Ok(o) => Ok(Some(o)),
        Err(dxso_gpu::GpuError::Unsupported(_)) => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

fn run(mode: &str, options: Options, zero_inputs: bool, floor: usize) {
    let what = format!("corpus_engines_agree ({mode})");
    let Some(dir) = dxso_corpus::corpus_or_skip(&what) else {
        return;
    };
    let Some(gpu) = gpu_or_skip(&what) else {
        return;
    };
    let mut compared = 0;
    let mut unsupported = 0;
    let mut failures = Vec::new();
    // Class (engines, kind, output register kind) -> shaders.
    let mut classes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut differing = Vec::new();
    for (n, e) in dxso_corpus::entries(&dir).iter().enumerate() {
        let Ok(shader) = dxso::decode(&e.bytes()) else {
            continue;
        };
        if !dxso::validate(&shader).is_valid() {
            continue;
        }
        let (inputs, count, resources, tolerance) = if zero_inputs {
            (Vec::new(), 4, Resources::default(), Tolerance::of(&shader))
        } else {
            match corpus_case(n, &shader, &options) {
                Ok(c) => (c.inputs, c.count, c.resources, Tolerance::of(&shader)),
                Err(err) => {
                    failures.push(format!("{}: {err}", e.rel));
                    continue;
                }
            }
        };
        let mut runs = Vec::new();
        for (engine, device) in [
            (Engine::Interpreter, None),
            (Engine::Jit, None),
            (Engine::Interpreter, Some(&gpu)),
        ] {
            match execute(
                device, engine, &shader, &inputs, count, &resources, &options,
            ) {
                Ok(o) => runs.push(o),
                Err(err) => failures.push(format!("{}: {engine:?}: {err}", e.rel)),
            }
        }
        let [Some(interp), Some(jit), vulkan] =
            <[Option<Outputs>; 3]>::try_from(runs).unwrap_or([None, None, None])
        else {
            continue;
        };
        let Some(vulkan) = vulkan else {
            unsupported += 1;
            continue;
        };
        compared += 1;
        let mut shader_classes = Vec::new();
        for (pair, t, other) in [
            ("interp/jit", Tolerance::Exact, &jit),
            ("interp/vulkan", tolerance, &vulkan),
        ] {
            let c = compare(&interp, other, t);
            for d in &c.differences {
                let reg = d.register.to_string();
                let reg = reg.trim_end_matches(|c: char| c.is_ascii_digit());
                let (cpu_side, other_side) = (kind_of(d.left), kind_of(d.right));
                shader_classes.push(format!(
                    "{pair} {} (cpu {cpu_side}, other {other_side}) in {reg}#",
                    d.kind.name()
                ));
            }
            if !c.discards.is_empty() {
                shader_classes.push(format!("{pair} discard masks"));
            }
            if !c.registers.is_empty() {
                shader_classes.push(format!("{pair} output sets"));
            }
        }
        shader_classes.sort();
        shader_classes.dedup();
        if !shader_classes.is_empty() {
            differing.push(format!("{}: {}", e.rel, shader_classes.join("; ")));
            for c in shader_classes {
                classes.entry(c).or_default().push(e.rel.clone());
            }
        }
    }
    eprintln!(
        "{what} on {}: {compared} shaders compared on interp, jit and vulkan ({unsupported} the device cannot express); {} differ",
        gpu.adapter_name(),
        differing.len()
    );
    for (class, shaders) in &classes {
        eprintln!(
            "  {:>4} {class} (e.g. {})",
            shaders.len(),
            shaders[..shaders.len().min(3)].join(", ")
        );
    }
    for d in &differing {
        eprintln!("  DIFF {d}");
    }
    for f in &failures {
        eprintln!("  FAIL {f}");
    }
    assert!(
        failures.is_empty(),
        "{} shaders failed to run: {}",
        failures.len(),
        failures[0]
    );
    assert!(compared > 1000, "only {compared} shaders compared");
    assert!(
        differing.len() <= floor,
        "{} shaders differ, more than the floor of {floor} (first: {})",
        differing.len(),
        differing[0]
    );
}

fn kind_of(x: f32) -> &'static str {
    if x.is_nan() {
        "nan"
    } else if x.is_infinite() {
        if x > 0.0 {
            "+inf"
        } else {
            "-inf"
        }
    } else if x.abs() > dxso_exec::compare::OVERFLOW {
        "huge"
    } else {
        "finite"
    }
}
