//! Shared by the differential tests: deterministic inputs and resources, the tolerance per
//! operation class, and the comparison that records the largest differences.

#![allow(dead_code)]

use dxso::{Opcode, TextureType};
use dxso_exec::{
    AddressMode, Attribute, Dimension, Filter, Format, InputRegister, MipLevel, Outputs, QuadBatch,
    Resources, Sampler, Texture, VertexBatch,
};
use dxso_smith::SplitMix64;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The device, or `None` with a loud notice (a failure when `CI=true`).
pub fn gpu_or_skip(test: &str) -> Option<dxso_gpu::Gpu> {
    match dxso_gpu::Gpu::new() {
        Ok(g) => {
            eprintln!("{test}: running on {}", g.adapter_name());
            Some(g)
        }
        Err(e) => {
            let msg = format!(
                "{test}: NO VULKAN ADAPTER ({e}); the differential test against the GPU did not run. \
                 Install mesa-vulkan-drivers (lavapipe)."
            );
            if std::env::var("CI").as_deref() == Ok("true") {
                panic!("{msg}");
            }
            eprintln!("\n!!!!!!!! {msg}\n");
            None
        }
    }
}

/// SplitMix64: deterministic test data.
pub struct Rng(pub SplitMix64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// A value in [-bound, bound], off the coarse binary grid so that texture coordinates do
    /// not land exactly on texel edges (where devices round either way).
    pub fn value(&mut self, bound: f32) -> f32 {
        let unit = (self.below(1 << 20) as f32 + 0.37) / (1 << 20) as f32;
        (unit * 2.0 - 1.0) * bound
    }
    pub fn vec4(&mut self, bound: f32) -> [f32; 4] {
        [
            self.value(bound),
            self.value(bound),
            self.value(bound),
            self.value(bound),
        ]
    }
}

/// A texture whose neighbouring texels differ little (1/32 per step), so that the device's
/// own subtexel precision or a coordinate on a texel edge changes a lookup by little.
pub fn smooth_texture(rng: &mut Rng, ty: TextureType, eight: bool, faces_differ: bool) -> Texture {
    let (dim, w, h, d) = match ty {
        TextureType::Cube => (Dimension::Cube, 4, 4, 6),
        TextureType::Volume => (Dimension::Volume, 4, 4, 4),
        _ => (Dimension::D2, 4, 4, 1),
    };
    let base: [f32; 4] = [0.25, 0.5, 0.375, 0.75].map(|b| b + rng.value(0.125));
    // Cube faces are one colour each (all one colour unless `faces_differ`): lavapipe
    // computes face coordinates with less precision than the executor, so a point lookup near
    // a texel edge of a face may pick its neighbour.
    let cube = ty == TextureType::Cube;
    let texel = |x: u32, y: u32, z: u32, c: usize| {
        let step = match (cube, faces_differ) {
            (true, true) => 4 * z,
            (true, false) => 0,
            _ => x + 2 * y + 3 * z,
        };
        base[c] + step as f32 / 32.0 * [1.0, -0.5, 0.25, -0.25][c]
    };
    let mut data = Vec::new();
    for z in 0..d {
        for y in 0..h {
            for x in 0..w {
                for c in 0..4 {
                    let v = texel(x, y, z, c);
                    if eight {
                        data.push((v.clamp(0.0, 1.0) * 255.0).round() as u8);
                    } else {
                        data.extend_from_slice(&v.to_le_bytes());
                    }
                }
            }
        }
    }
    let format = if eight {
        Format::Rgba8Unorm
    } else {
        Format::Rgba32Float
    };
    Texture::new(
        dim,
        format,
        vec![MipLevel {
            width: w,
            height: h,
            depth: d,
            data,
        }],
    )
    .unwrap()
}

/// A sampler the device can express exactly: wrap, mirror or clamp, equal magnification and
/// minification filters (so the level of detail cannot change a lookup), one level. Linear
/// filtering only of float textures: lavapipe filters 8-bit textures to 8 bits, an error of
/// 1/255 that shaders such as RGBE decoding (`exp(255 a - 128)`) amplify without bound.
///
/// `faces_differ: false` gives a cube map one colour: random programs often look up the zero
/// vector (a saturated value replicated), whose face Direct3D and Vulkan leave undefined and
/// SEMANTICS fixes only by accident of its formulas (+Z, NaN coordinates).
pub fn sampler(rng: &mut Rng, ty: TextureType, linear: bool, faces_differ: bool) -> Sampler {
    let modes = [AddressMode::Wrap, AddressMode::Mirror, AddressMode::Clamp];
    let eight = !linear && rng.below(2) == 0;
    let mut s = Sampler::new(Arc::new(smooth_texture(rng, ty, eight, faces_differ)));
    s.state.address_u = modes[rng.below(3) as usize];
    s.state.address_v = modes[rng.below(3) as usize];
    s.state.address_w = modes[rng.below(3) as usize];
    // Cube maps sample points: devices filter across cube faces (Vulkan's seamless cube
    // maps), Direct3D 9 and the executor clamp at each face's edge.
    let f = if linear && ty != TextureType::Cube {
        Filter::Linear
    } else {
        Filter::Point
    };
    s.state.mag_filter = f;
    s.state.min_filter = f;
    s.stage.bump_env_mat = [
        rng.value(0.5),
        rng.value(0.5),
        rng.value(0.5),
        rng.value(0.5),
    ];
    s.stage.bump_env_lscale = rng.value(1.0);
    s.stage.bump_env_loffset = rng.value(1.0);
    s.dimension = Dimension::from_declared(ty);
    s
}

/// How closely the device must follow the executor for a shader, by the loosest kind of
/// operation it contains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Add, multiply, compare, select, dot products (the device may fuse and reassociate).
    Arithmetic,
    /// Division and square roots: `rcp`, `rsq`, `nrm` (a few ulp on the device).
    Division,
    /// `exp`, `log`, `pow`, `sincos`, `lit`: the device's approximations.
    Transcendental,
    /// Texture lookups (subtexel precision of the device's filtering).
    Texture,
}

impl Class {
    /// Absolute and relative tolerance: `|gpu - cpu| <= abs + rel * max(1, |cpu|, |gpu|)`.
    pub fn tolerance(self) -> (f32, f32) {
        match self {
            Class::Arithmetic => (1e-6, 1e-6),
            Class::Division => (1e-5, 1e-5),
            Class::Transcendental => (1e-4, 1e-4),
            Class::Texture => (1e-3, 1e-3),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Class::Arithmetic => "arithmetic",
            Class::Division => "division/sqrt",
            Class::Transcendental => "transcendental",
            Class::Texture => "texture",
        }
    }
}

/// The class of a shader.
pub fn class_of(shader: &dxso::Shader) -> Class {
    use Opcode::*;
    let mut c = Class::Arithmetic;
    for i in shader.instructions() {
        let k = match i.opcode {
            Rcp | Rsq | Nrm => Class::Division,
            Exp | Log | ExpP | LogP | Pow | SinCos | Lit => Class::Transcendental,
            Tex | TexLdl | TexLdd | TexBem | TexBemL | TexReg2Ar | TexReg2Gb | TexReg2Rgb
            | TexM3x2Tex | TexM3x3Tex | TexM3x3Spec | TexM3x3VSpec | TexDp3Tex => Class::Texture,
            _ if i
                .srcs
                .iter()
                .any(|s| matches!(s.modifier, dxso::SrcModifier::Dz | dxso::SrcModifier::Dw)) =>
            {
                Class::Division
            }
            _ => Class::Arithmetic,
        };
        c = c.max(k);
    }
    c
}

/// Beyond this magnitude an executor value is not compared (see [`Stats::out_of_range`]).
pub const OUT_OF_RANGE: f32 = 1e20;

/// Totals over a test: what was compared and the largest differences.
#[derive(Default)]
pub struct Stats {
    pub shaders: usize,
    pub skipped: BTreeMap<String, usize>,
    pub values: usize,
    pub pixels: usize,
    pub discards: usize,
    pub largest: BTreeMap<Class, (f32, String)>,
    /// Values the executor computed as NaN, infinite or beyond 1e20 (overflowed ranges,
    /// where devices differ in denormal flushing and overflow): counted, not compared.
    pub out_of_range: usize,
    pub failures: Vec<String>,
}

impl Stats {
    pub fn skip(&mut self, why: &str) {
        *self.skipped.entry(why.to_string()).or_default() += 1;
    }

    /// Compares one run; a difference beyond the class's tolerance, a different discard mask
    /// or a different output set is a failure.
    pub fn compare(&mut self, name: &str, class: Class, cpu: &Outputs, gpu: &Outputs) {
        self.shaders += 1;
        if cpu.discarded != gpu.discarded {
            self.failures.push(format!(
                "{name}: discard masks differ: cpu {:?} gpu {:?}",
                cpu.discarded, gpu.discarded
            ));
        }
        self.pixels += cpu.discarded.len();
        self.discards += cpu.discarded.iter().filter(|d| **d).count();
        let (abs, rel) = class.tolerance();
        let regs_c: Vec<_> = cpu.registers.iter().map(|r| r.0).collect();
        let regs_g: Vec<_> = gpu.registers.iter().map(|r| r.0).collect();
        if regs_c != regs_g {
            self.failures.push(format!(
                "{name}: outputs differ: cpu {regs_c:?} gpu {regs_g:?}"
            ));
            return;
        }
        let mut worst = 0f32;
        let mut first_bad = None;
        for ((reg, c), (_, g)) in cpu.registers.iter().zip(&gpu.registers) {
            for (i, (cv, gv)) in c.iter().zip(g).enumerate() {
                for k in 0..4 {
                    let (a, b) = (cv[k], gv[k]);
                    self.values += 1;
                    if a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()) || a == b {
                        continue;
                    }
                    if !a.is_finite() || a.abs() > OUT_OF_RANGE {
                        self.out_of_range += 1;
                        continue;
                    }
                    let d = (a - b).abs();
                    let d = if d.is_nan() { f32::INFINITY } else { d };
                    let scale = 1f32.max(a.abs()).max(b.abs());
                    let normalized = d / scale;
                    worst = worst.max(normalized);
                    if d > abs + rel * scale && first_bad.is_none() {
                        first_bad = Some(format!(
                            "{reg}[{i}].{} cpu {a:e} gpu {b:e}",
                            ["x", "y", "z", "w"][k]
                        ));
                    }
                }
            }
        }
        let entry = self.largest.entry(class).or_insert((0.0, String::new()));
        if worst > entry.0 {
            *entry = (worst, name.to_string());
        }
        if let Some(bad) = first_bad {
            self.failures
                .push(format!("{name} ({}): {bad}", class.name()));
        }
    }

    pub fn report(&self, what: &str) {
        eprintln!(
            "{what}: {} shaders and {} output values compared, {} pixels ({} discarded, masks compared exactly)",
            self.shaders, self.values, self.pixels, self.discards
        );
        eprintln!(
            "  {} values differed where the executor's value is NaN, infinite or beyond {OUT_OF_RANGE:e}: not compared",
            self.out_of_range
        );
        for (class, (d, name)) in &self.largest {
            let (abs, rel) = class.tolerance();
            eprintln!(
                "  {:<15} largest difference {d:.3e} (relative to max(1, |value|); tolerance {abs:e} + {rel:e} x that) in {name}",
                class.name()
            );
        }
        for (why, n) in &self.skipped {
            eprintln!("  skipped {n}: {why}");
        }
        for f in self.failures.iter().take(200) {
            eprintln!("  FAIL {f}");
        }
    }
}

/// Deterministic constants: floats in (0, 2] (exponents, scales and colours as applications
/// set them: a negative exponent of a clamped-to-zero base makes `0 * inf` NaN, whose later
/// course through `log`/`exp` devices do not define), short loops, random booleans.
pub fn constants(rng: &mut Rng, resources: &mut Resources, floats: usize) {
    resources.constants.float = (0..floats)
        .map(|_| rng.vec4(2.0).map(|v| v.abs().max(1.0 / 64.0)))
        .collect();
    resources.constants.int = (0..16)
        .map(|_| {
            [
                rng.below(4) as i32,
                rng.below(4) as i32,
                rng.below(3) as i32 - 1,
                0,
            ]
        })
        .collect();
    resources.constants.bool = (0..16).map(|_| rng.below(2) == 0).collect();
}

/// The float-rule modes a differential runs in: IEEE products, and "0 * anything = 0"
/// (`docs/SEMANTICS.md` 5.1) in the executor and the translation alike.
pub fn float_modes() -> [(&'static str, dxso_exec::Options); 2] {
    [
        ("IEEE products", dxso_exec::Options::default()),
        (
            "zero_times_anything",
            dxso_exec::Options {
                zero_times_anything: true,
                ..dxso_exec::Options::default()
            },
        ),
    ]
}

/// For the "0 * anything = 0" mode: float constants with zeros (one component in eight) and,
/// with `infinities`, infinities (one in sixteen), so that products of zero and infinity occur
/// and the two engines must both give 0 where IEEE gives NaN. Shaders that sample get no
/// infinities: an infinite or NaN coordinate samples differently on the device and in the
/// executor (neither defined by the rule under test).
pub fn zeros_and_infinities(rng: &mut Rng, resources: &mut Resources, infinities: bool) {
    for c in &mut resources.constants.float {
        for v in c.iter_mut() {
            if rng.below(8) == 0 {
                *v = 0.0;
            } else if infinities && rng.below(16) == 0 {
                *v = f32::INFINITY;
            }
        }
    }
}

/// Inputs for every register the executor says the shader reads.
pub fn attributes(
    rng: &mut Rng,
    registers: &[InputRegister],
    count: usize,
    bound: f32,
) -> Vec<Attribute> {
    registers
        .iter()
        .map(|&r| Attribute {
            register: r,
            values: (0..count)
                .map(|_| match r {
                    InputRegister::Face => [if rng.below(2) == 0 { 1.0 } else { -1.0 }; 4],
                    InputRegister::Pos => [rng.below(64) as f32, rng.below(64) as f32, 0.0, 0.0],
                    _ => rng.vec4(bound),
                })
                .collect(),
        })
        .collect()
}

/// Runs `shader` on both engines; `None` (and a recorded skip) when the device cannot express
/// it, `Err` when an engine fails.
pub fn run_both(
    gpu: &dxso_gpu::Gpu,
    shader: &dxso::Shader,
    inputs: Vec<Attribute>,
    count: usize,
    resources: &Resources,
    options: &dxso_exec::Options,
    stats: &mut Stats,
) -> Result<Option<(Outputs, Outputs)>, String> {
    let (cpu, g) = if shader.version.is_pixel() {
        let batch = QuadBatch {
            quads: count / 4,
            inputs,
            coverage: Vec::new(),
        };
        let ps =
            dxso_exec::PixelShader::with_options(shader, options).map_err(|e| e.to_string())?;
        let cpu = ps.run(&batch, resources).map_err(|e| format!("cpu: {e}"))?;
        (cpu, gpu.run_pixel(shader, &batch, resources, options))
    } else {
        let batch = VertexBatch { count, inputs };
        let vs =
            dxso_exec::VertexShader::with_options(shader, options).map_err(|e| e.to_string())?;
        let cpu = vs.run(&batch, resources).map_err(|e| format!("cpu: {e}"))?;
        (cpu, gpu.run_vertex(shader, &batch, resources, options))
    };
    match g {
        Ok(g) => Ok(Some((cpu, g))),
        Err(dxso_gpu::GpuError::Unsupported(why)) => {
            stats.skip(&why);
            Ok(None)
        }
        Err(e) => Err(format!("gpu: {e}")),
    }
}

/// One corpus shader's run as the corpus differential tests drive it: the shader's operation
/// class, its deterministic inputs and its resources.
pub struct Case {
    pub class: Class,
    pub inputs: Vec<Attribute>,
    pub count: usize,
    pub resources: Resources,
}

/// The deterministic case of the `n`th corpus shader under `options` (the same inputs,
/// constants and textures for every test that runs the corpus); `Err` names the engine that
/// refused the shader (`executor: ...`, `translate: ...`).
pub fn corpus_case(
    n: usize,
    shader: &dxso::Shader,
    options: &dxso_exec::Options,
) -> Result<Case, String> {
    let mut rng = Rng(SplitMix64(0x5EED_0000 + n as u64));
    let pixel = shader.version.is_pixel();
    let registers = if pixel {
        dxso_exec::PixelShader::new(shader).map(|p| p.inputs())
    } else {
        dxso_exec::VertexShader::new(shader).map(|v| v.inputs())
    };
    let registers = registers.map_err(|e| format!("executor: {e}"))?;
    let naga_options = dxso_naga::Options {
        zero_times_anything: options.zero_times_anything,
        ..dxso_naga::Options::default()
    };
    let translation =
        dxso_naga::translate(shader, &naga_options).map_err(|e| format!("translate: {e}"))?;
    let mut resources = Resources::default();
    constants(&mut rng, &mut resources, if pixel { 224 } else { 256 });
    let class = class_of(shader);
    if options.zero_times_anything {
        zeros_and_infinities(&mut rng, &mut resources, class != Class::Texture);
    }
    for s in &translation.reflection.samplers {
        let i = s.sampler as usize;
        if resources.samplers.len() <= i {
            resources.samplers.resize(i + 1, Sampler::default());
        }
        let l = rng.below(2) == 0;
        resources.samplers[i] = sampler(&mut rng, s.texture_type, l, true);
    }
    let count = 8;
    let inputs = attributes(&mut rng, &registers, count, 2.0);
    Ok(Case {
        class,
        inputs,
        count,
        resources,
    })
}
