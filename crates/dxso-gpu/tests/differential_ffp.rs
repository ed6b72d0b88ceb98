//! Differential execution on the Vulkan device of the fixed-function pipeline's generated
//! shaders (`dxso_ffp::samples::states`, every area of the generator): each state's vs_3_0 and
//! ps_3_0 run through `dxso-gpu` and `dxso-exec` with the constants the state gives them and
//! deterministic inputs and textures; outputs agree within the tolerance of the shader's
//! operation class. (The interpreter and the JIT agree on them to the bit in dxso-render's
//! scene tests.)

mod common;

use common::*;
use dxso_exec::{InputRegister, Resources};
use dxso_smith::SplitMix64;

#[test]
fn generated_fixed_function_shaders_agree_with_the_executor_on_the_device() {
    let what = "generated_fixed_function_shaders_agree_with_the_executor_on_the_device";
    let Some(gpu) = gpu_or_skip(what) else {
        return;
    };
    let options = dxso_exec::Options::default();
    let viewport = dxso_ffp::Viewport {
        x: 0.0,
        y: 0.0,
        width: 64.0,
        height: 48.0,
        min_z: 0.0,
        max_z: 1.0,
    };
    let mut stats = Stats::default();
    let states = dxso_ffp::samples::states();
    for (n, (name, state)) in states.iter().enumerate() {
        let key = dxso_ffp::ShaderKey::from_state(state).unwrap_or_else(|e| panic!("{name}: {e}"));
        let generated = dxso_ffp::generate(&key).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (stage, shader) in [("vs", &generated.vs), ("ps", &generated.ps)] {
            let label = format!("{name} {stage}");
            let mut rng = Rng(SplitMix64(
                0xFF9_0000 + 2 * n as u64 + (stage == "ps") as u64,
            ));
            let pixel = shader.version.is_pixel();
            let registers = if pixel {
                dxso_exec::PixelShader::new(shader).map(|p| p.inputs())
            } else {
                dxso_exec::VertexShader::new(shader).map(|v| v.inputs())
            }
            .unwrap_or_else(|e| panic!("{label}: executor: {e}"));
            let translation = dxso_naga::translate(shader, &dxso_naga::Options::default())
                .unwrap_or_else(|e| panic!("{label}: translate: {e}"));
            let mut resources = Resources::default();
            resources.constants.float = if pixel {
                dxso_ffp::pixel_constants(state)
            } else {
                dxso_ffp::vertex_constants(state, &key, &viewport)
            };
            for s in &translation.reflection.samplers {
                let i = s.sampler as usize;
                if resources.samplers.len() <= i {
                    resources
                        .samplers
                        .resize(i + 1, dxso_exec::Sampler::default());
                }
                let linear = rng.below(2) == 0;
                resources.samplers[i] = sampler(&mut rng, s.texture_type, linear, false);
            }
            let count = 16;
            // Vertex data as applications give it: positions, normals, colours, weights and
            // blend indices in 0..1 (indices then address the blend matrices' registers).
            let mut inputs = attributes(&mut rng, &registers, count, 1.0);
            for a in &mut inputs {
                if !matches!(a.register, InputRegister::Face | InputRegister::Pos) {
                    for v in &mut a.values {
                        *v = v.map(f32::abs);
                    }
                }
            }
            match run_both(
                &gpu, shader, inputs, count, &resources, &options, &mut stats,
            ) {
                Ok(Some((cpu, g))) => stats.compare(&label, class_of(shader), &cpu, &g),
                Ok(None) => {}
                Err(e) => stats.failures.push(format!("{label}: {e}")),
            }
        }
    }
    stats.report(&format!("fixed-function shaders on {}", gpu.adapter_name()));
    assert!(stats.skipped.is_empty(), "skipped: {:?}", stats.skipped);
    assert!(
        stats.failures.is_empty(),
        "{} failures",
        stats.failures.len()
    );
    assert_eq!(stats.shaders, 2 * states.len());
}
