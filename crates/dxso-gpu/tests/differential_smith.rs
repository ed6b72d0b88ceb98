//! Differential execution on the Vulkan device over random valid programs (`dxso-smith`, the
//! generator of dxso-exec's property tests): `dxso-gpu` and `dxso-exec` agree within the
//! tolerance of each program's operation class, discard masks exactly.

mod common;

use common::*;
use dxso_exec::{InputRegister, Resources};
use dxso_smith::SplitMix64;

/// Programs per version and configuration (`DXSO_SMITH_PROGRAMS` overrides).
fn programs() -> u64 {
    std::env::var("DXSO_SMITH_PROGRAMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40)
}

fn input_register(r: dxso::Register) -> InputRegister {
    match r.ty {
        dxso::RegisterType::Addr => InputRegister::T(r.num as u8),
        dxso::RegisterType::MiscType if r.num == 0 => InputRegister::Pos,
        dxso::RegisterType::MiscType => InputRegister::Face,
        _ => InputRegister::V(r.num as u8),
    }
}

fn run(
    config: &dxso_smith::Config,
    what: &str,
    seed_base: u64,
    (mode, options): (&str, dxso_exec::Options),
) {
    let what = &format!("{what} ({mode})");
    let Some(gpu) = gpu_or_skip(what) else {
        return;
    };
    let mut stats = Stats::default();
    let n = programs();
    let mut total = 0;
    for version in dxso_smith::ALL_VERSIONS {
        let config = config.clone().with_version(version);
        for i in 0..n {
            let seed = seed_base + (version.to_token() as u64) * 1000 + i;
            let program = dxso_smith::Shader::from_seed(seed, &config);
            let shader = program.shader();
            let iface = program.interface();
            total += 1;
            let mut rng = Rng(SplitMix64(seed ^ 0xD1FF));
            let bound = iface.assumed_input_bound.unwrap_or(2.0);
            let mut resources = Resources::default();
            for c in &iface.float_constants {
                let i = c.index as usize;
                if resources.constants.float.len() <= i {
                    resources.constants.float.resize(i + 1, [0.0; 4]);
                }
                resources.constants.float[i] = rng.vec4(bound);
            }
            if options.zero_times_anything {
                zeros_and_infinities(&mut rng, &mut resources, class_of(shader) != Class::Texture);
            }
            resources.constants.bool = (0..16).map(|_| rng.below(2) == 0).collect();
            for s in &iface.samplers {
                let i = s.index as usize;
                if resources.samplers.len() <= i {
                    resources
                        .samplers
                        .resize(i + 1, dxso_exec::Sampler::default());
                }
                let linear = rng.below(2) == 0;
                resources.samplers[i] = sampler(&mut rng, s.texture_type, linear, false);
            }
            let count = 8;
            let registers: Vec<InputRegister> = iface
                .inputs
                .iter()
                .map(|i| input_register(i.register))
                .collect();
            let inputs = attributes(&mut rng, &registers, count, bound);
            let name = format!("{version} seed {seed}");
            match run_both(
                &gpu, shader, inputs, count, &resources, &options, &mut stats,
            ) {
                Ok(Some((cpu, g))) => {
                    let before = stats.failures.len();
                    stats.compare(&name, class_of(shader), &cpu, &g);
                    if stats.failures.len() > before && std::env::var("DXSO_DIFF_SHOW").is_ok() {
                        eprintln!("{name}\n{}", dxso_text::print(shader));
                        for s in &resources.samplers {
                            eprintln!(
                                "sampler {:?} {:?} {:?}",
                                s.dimension,
                                s.state,
                                s.texture.as_ref().map(|t| (t.dimension(), t.format()))
                            );
                        }
                        for ((r, c), (_, v)) in cpu.registers.iter().zip(&g.registers) {
                            eprintln!("{r} cpu {c:?}\n{r} gpu {v:?}");
                        }
                    }
                }
                Ok(None) => {}
                Err(e) => stats.failures.push(format!("{name}: {e}")),
            }
        }
    }
    stats.report(&format!("{what} on {}", gpu.adapter_name()));
    let skipped: usize = stats.skipped.values().sum();
    assert!(
        skipped * 10 <= total,
        "expected at most a tenth of the {total} programs skipped, {skipped} were"
    );
    assert!(
        stats.failures.is_empty(),
        "{} of {total} programs disagree (first: {})",
        stats.failures.len(),
        stats.failures[0]
    );
}

#[test]
fn random_programs_agree_with_the_executor_on_the_device() {
    run(
        &dxso_smith::Config::differential(),
        "random programs (differential preset)",
        1 << 32,
        float_modes()[0],
    );
}

#[test]
fn random_programs_agree_with_the_executor_with_zero_times_anything() {
    run(
        &dxso_smith::Config::differential(),
        "random programs (differential preset)",
        3 << 32,
        float_modes()[1],
    );
}

#[test]
fn random_programs_with_transcendentals_agree_within_their_tolerance() {
    let config = dxso_smith::Config {
        transcendentals: true,
        ..dxso_smith::Config::differential()
    };
    run(
        &config,
        "random programs with transcendentals",
        2 << 32,
        float_modes()[0],
    );
}
