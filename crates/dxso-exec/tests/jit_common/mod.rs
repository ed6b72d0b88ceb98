//! Test data shared by the JIT's differential tests: deterministic pseudo-random inputs,
//! constants, textures and sampler states for a plan, a program of either kind, and the
//! comparison of two runs.
#![allow(dead_code)]

use dxso_exec::*;
use dxso_smith::SplitMix64;
use std::sync::Arc;

pub struct Rng(pub SplitMix64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Mostly ordinary values, sometimes the ones the float rules single out.
    pub fn value(&mut self) -> f32 {
        const SPECIAL: [f32; 14] = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            1e-40,
            -1e-40,
            3e38,
            2.5,
            -1.5,
        ];
        match self.below(16) {
            0 => SPECIAL[self.below(SPECIAL.len() as u64) as usize],
            1 => (self.below(17) as f32 - 8.0) * 0.25,
            _ => ((self.next() >> 40) as f32 / (1u64 << 24) as f32) * 6.0 - 3.0,
        }
    }
    pub fn vec4(&mut self) -> [f32; 4] {
        [self.value(), self.value(), self.value(), self.value()]
    }
}

pub fn texture(rng: &mut Rng, dim: Dimension) -> Texture {
    let (w, h, d) = match dim {
        Dimension::D2 => (8, 4, 1),
        Dimension::Cube => (4, 4, 6),
        Dimension::Volume => (4, 2, 4),
    };
    let texels = (w * h * d) as usize;
    let (format, data): (Format, Vec<u8>) = match rng.below(3) {
        0 => (
            Format::Rgba32Float,
            (0..texels * 4)
                .flat_map(|_| rng.value().to_le_bytes())
                .collect(),
        ),
        1 => (
            Format::R16Float,
            (0..texels)
                .flat_map(|_| half::f16::from_f32(rng.value()).to_le_bytes())
                .collect(),
        ),
        _ => (
            Format::Rgba8Unorm,
            (0..texels * 4).map(|_| rng.below(256) as u8).collect(),
        ),
    };
    let t = Texture::new(
        dim,
        format,
        vec![MipLevel {
            width: w,
            height: h,
            depth: d,
            data,
        }],
    )
    .unwrap();
    if rng.below(2) == 0 {
        t.with_mip_chain()
    } else {
        t
    }
}

pub fn resources(rng: &mut Rng, plan: &plan::Plan) -> Resources {
    let mut r = Resources::default();
    r.constants.float = (0..256).map(|_| rng.vec4()).collect();
    r.constants.int = (0..16)
        .map(|_| {
            [
                rng.below(7) as i32 - 1,
                rng.below(9) as i32 - 2,
                rng.below(5) as i32 - 2,
                0,
            ]
        })
        .collect();
    r.constants.bool = (0..16).map(|_| rng.below(2) == 0).collect();
    let filters = [Filter::Point, Filter::Linear, Filter::Anisotropic];
    let modes = [
        AddressMode::Wrap,
        AddressMode::Mirror,
        AddressMode::Clamp,
        AddressMode::Border,
        AddressMode::MirrorOnce,
    ];
    for s in &plan.samplers {
        let dim = s.declared.unwrap_or(Dimension::D2);
        let i = s.index as usize;
        if r.samplers.len() <= i {
            r.samplers.resize(i + 1, Sampler::default());
        }
        // Now and then a sampler is left unbound.
        if rng.below(10) == 0 {
            continue;
        }
        let mut b = Sampler::new(Arc::new(texture(rng, dim)));
        b.state.mag_filter = filters[rng.below(3) as usize];
        b.state.min_filter = filters[rng.below(3) as usize];
        b.state.mip_filter = [Filter::None, Filter::Point, Filter::Linear][rng.below(3) as usize];
        b.state.address_u = modes[rng.below(5) as usize];
        b.state.address_v = modes[rng.below(5) as usize];
        b.state.address_w = modes[rng.below(5) as usize];
        b.state.border_color = rng.next() as u32;
        b.state.mip_lod_bias = rng.below(5) as f32 * 0.5 - 1.0;
        b.state.max_mip_level = rng.below(3) as u32;
        b.state.srgb_texture = rng.below(4) == 0;
        b.stage.bump_env_mat = [rng.value(), rng.value(), rng.value(), rng.value()];
        b.stage.bump_env_lscale = rng.value();
        b.stage.bump_env_loffset = rng.value();
        b.stage.texture_transform_flags =
            [0u32, 2 | 256, 3 | 256, 4 | 256, 256][rng.below(5) as usize];
        r.samplers[i] = b;
    }
    r
}

pub enum Program {
    Vertex(VertexShader),
    Pixel(PixelShader),
}

impl Program {
    pub fn new(shader: &dxso::Shader, options: &Options) -> Result<Self, PlanError> {
        Ok(if shader.version.is_vertex() {
            Program::Vertex(VertexShader::with_options(shader, options)?)
        } else {
            Program::Pixel(PixelShader::with_options(shader, options)?)
        })
    }

    pub fn plan(&self) -> &plan::Plan {
        match self {
            Program::Vertex(v) => v.plan(),
            Program::Pixel(p) => p.plan(),
        }
    }

    pub fn compiled(&self) -> Option<&jit::Compiled> {
        match self {
            Program::Vertex(v) => v.compiled(),
            Program::Pixel(p) => p.compiled(),
        }
    }

    /// Runs `n` invocations (rounded up to quads for pixel shaders).
    pub fn run(&self, seed: u64, n: usize) -> Result<Outputs, ExecError> {
        let mut rng = Rng(SplitMix64(seed));
        let res = resources(&mut rng, self.plan());
        let count = n.div_ceil(4) * 4;
        let inputs: Vec<Attribute> = self
            .plan()
            .inputs
            .iter()
            .map(|i| Attribute {
                register: i.register,
                values: (0..count).map(|_| rng.vec4()).collect(),
            })
            .collect();
        let coverage = if rng.below(2) == 0 {
            Vec::new()
        } else {
            (0..count).map(|_| rng.below(5) != 0).collect()
        };
        match self {
            Program::Vertex(vs) => {
                let mut inputs = inputs;
                inputs.iter_mut().for_each(|a| a.values.truncate(n));
                vs.run(&VertexBatch { count: n, inputs }, &res)
            }
            Program::Pixel(ps) => ps.run(
                &QuadBatch {
                    quads: count / 4,
                    inputs,
                    coverage,
                },
                &res,
            ),
        }
    }
}

/// What comparing two runs found.
#[derive(Default)]
pub struct Tally {
    /// Values compared (components and discard flags).
    pub values: usize,
    /// NaN in both, with different sign or payload bits (which Rust leaves unspecified).
    pub nan_bits: usize,
    /// The first real difference.
    pub first: Option<String>,
}

/// Compares two runs: every value bit for bit, except that a NaN only has to be a NaN.
pub fn compare(a: &Outputs, b: &Outputs) -> Tally {
    let mut t = Tally::default();
    if a.registers.len() != b.registers.len() || a.discarded != b.discarded {
        t.first = Some("different registers or discard masks".into());
        return t;
    }
    t.values += a.discarded.len();
    for ((ra, va), (rb, vb)) in a.registers.iter().zip(&b.registers) {
        if ra != rb || va.len() != vb.len() {
            t.first = Some(format!("{ra} vs {rb}"));
            return t;
        }
        for (i, (x, y)) in va.iter().zip(vb).enumerate() {
            for c in 0..4 {
                t.values += 1;
                let (x, y) = (x[c], y[c]);
                if x.to_bits() == y.to_bits() {
                    continue;
                }
                if x.is_nan() && y.is_nan() {
                    t.nan_bits += 1;
                } else if t.first.is_none() {
                    t.first = Some(format!(
                        "{ra}[{i}].{c}: interpreter {x:?} ({:#010x}), jit {y:?} ({:#010x})",
                        x.to_bits(),
                        y.to_bits()
                    ));
                }
            }
        }
    }
    t
}
