//! Every corpus shader that validates runs on deterministic pseudo-random inputs, constants and
//! textures without error, twice with identical results, and with identical results on one
//! thread and on several.

use dxso_exec::*;
use dxso_smith::SplitMix64;
use std::sync::Arc;

struct Rng(SplitMix64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
    fn value(&mut self) -> f32 {
        self.unit() * 4.0 - 2.0
    }
    fn vec4(&mut self) -> [f32; 4] {
        [self.value(), self.value(), self.value(), self.value()]
    }
}

fn seed_of(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

fn texture(rng: &mut Rng, dim: Dimension) -> Texture {
    let (w, h, d) = match dim {
        Dimension::D2 => (8, 8, 1),
        Dimension::Cube => (4, 4, 6),
        Dimension::Volume => (4, 4, 4),
    };
    let data = (0..w * h * d * 4)
        .map(|_| (rng.next() & 0xFF) as u8)
        .collect();
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
    .with_mip_chain()
}

fn resources(rng: &mut Rng, samplers: &[dxso_exec::plan::SamplerUse]) -> Resources {
    let mut r = Resources::default();
    r.constants.float = (0..256).map(|_| rng.vec4()).collect();
    r.constants.int = (0..16)
        .map(|_| {
            [
                (rng.next() % 6) as i32,
                (rng.next() % 8) as i32,
                (rng.next() % 3) as i32,
                0,
            ]
        })
        .collect();
    r.constants.bool = (0..16).map(|_| rng.next() & 1 == 1).collect();
    let filters = [Filter::Point, Filter::Linear];
    let modes = [
        AddressMode::Wrap,
        AddressMode::Mirror,
        AddressMode::Clamp,
        AddressMode::Border,
        AddressMode::MirrorOnce,
    ];
    for s in samplers {
        let dim = s.declared.unwrap_or(Dimension::D2);
        let i = s.index as usize;
        if r.samplers.len() <= i {
            r.samplers.resize(i + 1, Sampler::default());
        }
        let mut b = Sampler::new(Arc::new(texture(rng, dim)));
        b.state.mag_filter = filters[(rng.next() % 2) as usize];
        b.state.min_filter = filters[(rng.next() % 2) as usize];
        b.state.mip_filter =
            [Filter::None, Filter::Point, Filter::Linear][(rng.next() % 3) as usize];
        b.state.address_u = modes[(rng.next() % 5) as usize];
        b.state.address_v = modes[(rng.next() % 5) as usize];
        b.state.address_w = modes[(rng.next() % 5) as usize];
        b.state.border_color = rng.next() as u32;
        b.stage.bump_env_mat = [rng.value(), rng.value(), rng.value(), rng.value()];
        b.stage.bump_env_lscale = rng.value();
        b.stage.bump_env_loffset = rng.value();
        r.samplers[i] = b;
    }
    r
}

enum Program {
    Vertex(VertexShader),
    Pixel(PixelShader),
}

impl Program {
    fn plan(&self) -> &plan::Plan {
        match self {
            Program::Vertex(v) => v.plan(),
            Program::Pixel(p) => p.plan(),
        }
    }

    /// Runs `n` invocations (rounded up to quads for pixel shaders).
    fn run(&self, rng_seed: u64, n: usize) -> Result<Outputs, String> {
        let mut rng = Rng(SplitMix64(rng_seed));
        let res = resources(&mut rng, &self.plan().samplers);
        let inputs: Vec<Attribute> = self
            .plan()
            .inputs
            .iter()
            .map(|i| Attribute {
                register: i.register,
                values: (0..n.div_ceil(4) * 4).map(|_| rng.vec4()).collect(),
            })
            .collect();
        match self {
            Program::Vertex(vs) => {
                let mut inputs = inputs;
                inputs.iter_mut().for_each(|a| a.values.truncate(n));
                vs.run(&VertexBatch { count: n, inputs }, &res)
            }
            Program::Pixel(ps) => ps.run(
                &QuadBatch {
                    quads: n.div_ceil(4),
                    inputs,
                    coverage: Vec::new(),
                },
                &res,
            ),
        }
        .map_err(|e| e.to_string())
    }
}

fn bits(o: &Outputs) -> Vec<u32> {
    o.registers
        .iter()
        .flat_map(|(_, v)| v.iter().flatten().map(|f| f.to_bits()))
        .chain(o.discarded.iter().map(|&d| d as u32))
        .collect()
}

#[test]
fn corpus_shaders_run() {
    let Some(dir) = dxso_corpus::corpus_or_skip("corpus_shaders_run") else {
        return;
    };
    let entries = dxso_corpus::entries(&dir);
    let (mut valid, mut ran, mut threaded) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let three = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    for (k, e) in entries.iter().enumerate() {
        let Ok(shader) = dxso::decode(&e.bytes()) else {
            continue;
        };
        if !dxso::validate(&shader).is_valid() {
            continue;
        }
        valid += 1;
        let program = if shader.version.is_vertex() {
            VertexShader::new(&shader).map(Program::Vertex)
        } else {
            PixelShader::new(&shader).map(Program::Pixel)
        };
        let program = match program {
            Ok(p) => p,
            Err(err) => {
                failures.push(format!("{}: lowering: {err}", e.rel));
                continue;
            }
        };
        let seed = seed_of(&e.rel);
        match (program.run(seed, 96), program.run(seed, 96)) {
            (Ok(a), Ok(b)) if bits(&a) == bits(&b) => ran += 1,
            (Ok(_), Ok(_)) => failures.push(format!("{}: two runs differ", e.rel)),
            (Err(err), _) | (_, Err(err)) => failures.push(format!("{}: {err}", e.rel)),
        }
        // Thread-count independence: enough invocations for several rayon jobs.
        if k % 12 == 0 {
            let a = one.install(|| program.run(seed, 5000));
            let b = three.install(|| program.run(seed, 5000));
            match (a, b) {
                (Ok(a), Ok(b)) if bits(&a) == bits(&b) => threaded += 1,
                (Ok(_), Ok(_)) => failures.push(format!("{}: 1 and 3 threads differ", e.rel)),
                (Err(err), _) | (_, Err(err)) => failures.push(format!("{}: {err}", e.rel)),
            }
        }
    }
    println!(
        "corpus shaders run: {ran}/{valid} (valid shaders), thread-independent: {threaded} checked"
    );
    assert!(
        failures.is_empty(),
        "expected all {valid} valid corpus shaders to run twice identically, {} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        valid > 800,
        "expected more than 800 valid corpus shaders, found {valid}"
    );
}
