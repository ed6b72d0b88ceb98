//! Property: running random valid programs (`dxso-smith`) batched, with divergent per-lane
//! masks, gives bit for bit what the one-invocation-at-a-time reference gives, for every batch
//! width, and the instruction budget trips exactly when some invocation goes over it.

mod reference;

use dxso::{RegisterType as R, TextureType};
use dxso_exec::io::{InputRegister, OutputRegister};
use dxso_exec::*;
use dxso_smith::SplitMix64;
use proptest::prelude::*;
use reference::Reference;
use std::collections::HashMap;
use std::sync::Arc;

/// A small deterministic generator for the test data (SplitMix64).
struct Rng(SplitMix64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Values that exercise the float rules: zeros of both signs, halves, negatives, big ones.
    fn value(&mut self) -> f32 {
        const POOL: [f32; 12] = [
            0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 0.25, 2.0, -3.0, 0.75, 8.0, -0.125,
        ];
        if self.below(3) == 0 {
            POOL[self.below(POOL.len() as u64) as usize]
        } else {
            (self.below(2001) as f32 - 1000.0) / 256.0
        }
    }
    fn vec4(&mut self) -> [f32; 4] {
        [self.value(), self.value(), self.value(), self.value()]
    }
}

fn input_register(r: dxso::Register) -> InputRegister {
    match r.ty {
        R::Addr => InputRegister::T(r.num as u8),
        R::MiscType if r.num == 0 => InputRegister::Pos,
        R::MiscType => InputRegister::Face,
        _ => InputRegister::V(r.num as u8),
    }
}

fn texture(rng: &mut Rng, ty: TextureType) -> Texture {
    let (dim, w, h, d) = match ty {
        TextureType::Cube => (Dimension::Cube, 2, 2, 6),
        TextureType::Volume => (Dimension::Volume, 2, 2, 2),
        _ => (Dimension::D2, 3, 2, 1),
    };
    if rng.below(2) == 0 {
        let data = (0..w * h * d * 4).map(|_| rng.below(256) as u8).collect();
        Texture::new(
            dim,
            Format::Rgba8Unorm,
            vec![MipLevel {
                width: w,
                height: h,
                depth: d,
                data,
            }],
        )
        .unwrap()
    } else {
        let data = (0..w * h * d * 4)
            .flat_map(|_| rng.value().to_le_bytes())
            .collect();
        Texture::new(
            dim,
            Format::Rgba32Float,
            vec![MipLevel {
                width: w,
                height: h,
                depth: d,
                data,
            }],
        )
        .unwrap()
    }
}

fn sampler(rng: &mut Rng, ty: TextureType) -> Sampler {
    let modes = [
        AddressMode::Wrap,
        AddressMode::Mirror,
        AddressMode::Clamp,
        AddressMode::Border,
        AddressMode::MirrorOnce,
    ];
    let filter = if rng.below(2) == 0 {
        Filter::Point
    } else {
        Filter::Linear
    };
    let mut s = Sampler::new(Arc::new(texture(rng, ty)));
    s.state.address_u = modes[rng.below(5) as usize];
    s.state.address_v = modes[rng.below(5) as usize];
    s.state.address_w = modes[rng.below(5) as usize];
    s.state.border_color = rng.next() as u32;
    // One level and equal filters: the level of detail cannot change a lookup.
    s.state.mag_filter = filter;
    s.state.min_filter = filter;
    s.stage.bump_env_mat = [rng.value(), rng.value(), rng.value(), rng.value()];
    s.stage.bump_env_lscale = rng.value();
    s.stage.bump_env_loffset = rng.value();
    s.stage.texture_transform_flags = *[0u32, 0, 3 | 256, 4 | 256]
        .get(rng.below(4) as usize)
        .unwrap();
    s.dimension = Dimension::from_declared(ty);
    s
}

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// Runs one generated program both ways; `Err` describes the first difference.
fn check(program_seed: u64, data_seed: u64, config: &dxso_smith::Config) -> Result<(), String> {
    let program = dxso_smith::Shader::from_seed(program_seed, config);
    let shader = program.shader();
    let iface = program.interface();
    let mut rng = Rng(SplitMix64(data_seed));
    let lanes = [8, 16, 32, 64][rng.below(4) as usize];
    let options = Options {
        lanes,
        ..Options::default()
    };
    let mut resources = Resources::default();
    for c in &iface.float_constants {
        let i = c.index as usize;
        if resources.constants.float.len() <= i {
            resources.constants.float.resize(i + 1, [0.0; 4]);
        }
        resources.constants.float[i] = rng.vec4();
    }
    resources.constants.bool = (0..16).map(|_| rng.below(2) == 0).collect();
    for s in &iface.samplers {
        let i = s.index as usize;
        if resources.samplers.len() <= i {
            resources.samplers.resize(i + 1, Sampler::default());
        }
        resources.samplers[i] = sampler(&mut rng, s.texture_type);
    }
    let pixel = shader.version.is_pixel();
    let count = if pixel {
        4 * (1 + rng.below(12) as usize)
    } else {
        1 + rng.below(150) as usize
    };
    let mut per_invocation: Vec<HashMap<InputRegister, [f32; 4]>> = vec![HashMap::new(); count];
    for input in &iface.inputs {
        let r = input_register(input.register);
        for inv in per_invocation.iter_mut() {
            inv.insert(r, rng.vec4());
        }
    }
    let attributes: Vec<Attribute> = iface
        .inputs
        .iter()
        .map(|i| {
            let r = input_register(i.register);
            Attribute {
                register: r,
                values: per_invocation.iter().map(|m| m[&r]).collect(),
            }
        })
        .collect();
    let run = |options: &Options| -> Result<Outputs, String> {
        if pixel {
            let ps = PixelShader::with_options(shader, options).map_err(|e| e.to_string())?;
            let batch = QuadBatch {
                quads: count / 4,
                inputs: attributes.clone(),
                coverage: Vec::new(),
            };
            ps.run(&batch, &resources).map_err(|e| e.to_string())
        } else {
            let vs = VertexShader::with_options(shader, options).map_err(|e| e.to_string())?;
            let batch = VertexBatch {
                count,
                inputs: attributes.clone(),
            };
            vs.run(&batch, &resources).map_err(|e| e.to_string())
        }
    };
    let out = run(&options)?;
    // The JIT (vector and scalar code) gives what the interpreter gives.
    #[cfg(feature = "jit")]
    for engine in [Engine::Jit, Engine::JitScalar] {
        let jit = run(&Options { engine, ..options })?;
        let agree = jit.discarded == out.discarded
            && jit.registers.len() == out.registers.len()
            && jit
                .registers
                .iter()
                .zip(&out.registers)
                .all(|((ra, va), (rb, vb))| {
                    ra == rb
                        && va
                            .iter()
                            .flatten()
                            .zip(vb.iter().flatten())
                            .all(|(x, y)| same(*x, *y))
                });
        if !agree {
            return Err(format!(
                "{engine:?} differs from the interpreter ({lanes} lanes)\n{}",
                dxso_text::print::print(shader)
            ));
        }
    }
    let reference = Reference::new(shader, &resources, &options);
    let mut max_count = 0;
    for (i, inputs) in per_invocation.iter().enumerate() {
        let r = reference
            .run(inputs)
            .map_err(|_| format!("reference over budget at {i}"))?;
        max_count = max_count.max(r.count);
        for (reg, values) in &out.registers {
            let want = r.outputs.get(reg).copied().unwrap_or([0.0; 4]);
            let got = values[i];
            if !(0..4).all(|c| same(got[c], want[c])) {
                return Err(format!(
                    "invocation {i} of {count} ({lanes} lanes): {reg} = {got:?}, reference {want:?}\n{}",
                    dxso_text::print::print(shader)
                ));
            }
        }
        if pixel && out.discarded[i] != r.killed {
            return Err(format!(
                "invocation {i}: discarded {} but the reference says {}",
                out.discarded[i], r.killed
            ));
        }
        for o in &iface.outputs {
            if o.register.ty == R::ColorOut
                && o.register.num == 0
                && !out
                    .registers
                    .iter()
                    .any(|(r, _)| *r == OutputRegister::Target(0))
            {
                return Err("oC0 is not reported".into());
            }
        }
    }
    // The budget trips exactly when the busiest invocation goes over it.
    let tight = Options {
        budget: max_count,
        ..options
    };
    run(&tight)
        .map_err(|e| format!("budget {max_count} (the busiest invocation's count) fails: {e}"))?;
    if max_count > 0 {
        let over = Options {
            budget: max_count - 1,
            ..options
        };
        match run(&over) {
            Err(e) if e.contains("budget") => {}
            other => {
                return Err(format!(
                    "budget {} should trip, got {other:?}",
                    max_count - 1
                ))
            }
        }
    }
    Ok(())
}

fn no_derivatives(mut c: dxso_smith::Config) -> dxso_smith::Config {
    c.derivatives = false;
    c.gradients_in_dynamic_flow = false;
    c
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, .. ProptestConfig::default() })]

    /// Every feature of the generator (NaN and infinities included).
    #[test]
    fn batched_equals_reference(program in any::<u64>(), data in any::<u64>()) {
        let config = no_derivatives(dxso_smith::Config::default());
        if let Err(e) = check(program, data, &config) {
            panic!("program seed {program}, data seed {data}: {e}");
        }
    }

    /// The differential preset: finite values, so the comparison is about arithmetic, not NaNs.
    #[test]
    fn batched_equals_reference_finite(program in any::<u64>(), data in any::<u64>()) {
        let config = no_derivatives(dxso_smith::Config::differential());
        if let Err(e) = check(program, data, &config) {
            panic!("program seed {program}, data seed {data}: {e}");
        }
    }
}

/// Programs with `dsx`/`dsy` and implicit-LOD lookups (which the reference cannot run alone):
/// every batch width gives the same bits, quads staying whole.
fn widths_agree(seed: u64) -> Result<(), String> {
    let config = dxso_smith::Config {
        versions: vec![dxso::Version::ps(2, 1), dxso::Version::ps(3, 0)],
        ..dxso_smith::Config::default()
    };
    let program = dxso_smith::Shader::from_seed(seed, &config);
    let shader = program.shader();
    let mut rng = Rng(SplitMix64(seed ^ 0xd5));
    let mut resources = Resources::default();
    resources.constants.float = (0..224).map(|_| rng.vec4()).collect();
    resources.constants.bool = (0..16).map(|_| rng.below(2) == 0).collect();
    for s in &program.interface().samplers {
        let i = s.index as usize;
        if resources.samplers.len() <= i {
            resources.samplers.resize(i + 1, Sampler::default());
        }
        let mut b = sampler(&mut rng, s.texture_type);
        // Mip levels and distinct filters: here the LOD matters.
        if let Some(t) = b.texture.take() {
            b.texture = Some(Arc::new(Texture::clone(&t).with_mip_chain()));
        }
        b.state.mip_filter = Filter::Linear;
        b.state.min_filter = Filter::Point;
        resources.samplers[i] = b;
    }
    let quads = 1 + rng.below(20) as usize;
    let mut batch = QuadBatch::new(quads);
    for input in &program.interface().inputs {
        let values = (0..quads * 4).map(|_| rng.vec4()).collect();
        batch.set(input_register(input.register), values);
    }
    let mut first: Option<Vec<u32>> = None;
    for lanes in [8, 16, 32, 64] {
        let ps = PixelShader::with_options(
            shader,
            &Options {
                lanes,
                ..Options::default()
            },
        )
        .map_err(|e| e.to_string())?;
        let out = ps.run(&batch, &resources).map_err(|e| e.to_string())?;
        let bits: Vec<u32> = out
            .registers
            .iter()
            // Any NaN is the same NaN (SEMANTICS.md: sign and payload are not defined, and
            // widths compile to different operand orders).
            .flat_map(|(_, v)| v.iter().flatten().map(|&x| canonical_bits(x)))
            .chain(out.discarded.iter().map(|&d| d as u32))
            .collect();
        match &first {
            None => first = Some(bits),
            Some(f) if *f != bits => {
                return Err(format!(
                    "{lanes} lanes differ from 8\n{}",
                    dxso_text::print::print(shader)
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, .. ProptestConfig::default() })]

    #[test]
    fn derivatives_agree_across_batch_widths(seed in any::<u64>()) {
        if let Err(e) = widths_agree(seed) {
            panic!("program seed {seed}: {e}");
        }
    }
}

/// The bits of `x`, with every NaN as `f32::NAN`.
fn canonical_bits(x: f32) -> u32 {
    if x.is_nan() {
        f32::NAN.to_bits()
    } else {
        x.to_bits()
    }
}

/// A program whose `oC0.w` is a NaN made from infinities: 8 lanes gave `0x7fc00000`, 32 lanes
/// `0xffc00000` (found by `derivatives_agree_across_batch_widths`); both are the NaN the rules
/// define.
#[test]
fn widths_agree_on_a_program_that_makes_nan() {
    widths_agree(2776945393117133510).unwrap();
}

/// Every version, a fixed set of seeds each (so a failure names the version at once).
#[test]
fn every_version_agrees() {
    let mut n = 0;
    for v in dxso_smith::ALL_VERSIONS {
        let config = no_derivatives(dxso_smith::Config::default()).with_version(v);
        for seed in 0..40u64 {
            if let Err(e) = check(seed, seed ^ 0x5eed, &config) {
                panic!("{v}, seed {seed}: {e}");
            }
            n += 1;
        }
    }
    println!("batched == reference: {n}/{n} programs");
}

/// A vs_2_x whose subroutine read `c14[a0.w]` after the main program had (later in the stream)
/// gathered it: lowering reused the main program's copy, which the subroutine ran before. The
/// subroutine read a slot not yet written (zero, or the previous batch row's value): the JIT and
/// the interpreter disagreed with the reference and with each other (tests/relative.rs has the
/// small case).
#[test]
fn a_subroutine_does_not_reuse_relative_reads_the_main_program_gathered() {
    let config = no_derivatives(dxso_smith::Config::differential());
    check(3518544405184661814, 1145403334591720875, &config).unwrap();
}
