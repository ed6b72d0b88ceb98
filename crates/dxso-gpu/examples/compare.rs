//! Runs a shader on the Vulkan device and on the CPU executor with the same deterministic
//! inputs and constants, and prints both results.
//!
//! ```sh
//! cargo run -p dxso-gpu --example compare                 # two built-in shaders
//! cargo run -p dxso-gpu --example compare -- shader.asm   # assembly text or bytecode
//! ```

use dxso_exec::{InputRegister, PixelShader, QuadBatch, Resources, VertexBatch, VertexShader};

/// Deterministic values in [-2, 2] (SplitMix64).
fn values(seed: &mut u64, n: usize) -> Vec<[f32; 4]> {
    let mut rng = dxso_smith::SplitMix64(*seed);
    let mut next = || (rng.next_u64() % 4096) as f32 / 1024.0 - 2.0;
    let values = (0..n).map(|_| [next(), next(), next(), next()]).collect();
    *seed = rng.0;
    values
}

fn run(gpu: &dxso_gpu::Gpu, shader: &dxso::Shader) -> Result<(), Box<dyn std::error::Error>> {
    let options = dxso_exec::Options::default();
    let mut seed = 1;
    let mut resources = Resources::default();
    resources.constants.float = values(&mut seed, 256);
    resources.constants.int = vec![[2, 0, 1, 0]; 16];
    let (cpu, g) = if shader.version.is_pixel() {
        let ps = PixelShader::with_options(shader, &options)?;
        let mut batch = QuadBatch::new(1);
        for r in ps.inputs() {
            let v = match r {
                InputRegister::Face => vec![[1.0; 4]; 4],
                _ => values(&mut seed, 4),
            };
            batch.set(r, v);
        }
        (
            ps.run(&batch, &resources)?,
            gpu.run_pixel(shader, &batch, &resources, &options)?,
        )
    } else {
        let vs = VertexShader::with_options(shader, &options)?;
        let mut batch = VertexBatch::new(4);
        for r in vs.inputs() {
            batch.set(r, values(&mut seed, 4));
        }
        (
            vs.run(&batch, &resources)?,
            gpu.run_vertex(shader, &batch, &resources, &options)?,
        )
    };
    for ((r, c), (_, v)) in cpu.registers.iter().zip(&g.registers) {
        println!("{r} cpu {c:?}\n{r} gpu {v:?}");
    }
    if !cpu.discarded.is_empty() {
        println!(
            "discarded cpu {:?}\ndiscarded gpu {:?}",
            cpu.discarded, g.discarded
        );
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = dxso_gpu::Gpu::new()?;
    println!("device: {}", gpu.adapter_name());
    match std::env::args().nth(1) {
        Some(path) => {
            let bytes = std::fs::read(&path)?;
            let shader = match dxso::decode(&bytes) {
                Ok(s) => s,
                Err(_) => dxso_text::parse::parse(&String::from_utf8_lossy(&bytes))?,
            };
            run(&gpu, &shader)
        }
        None => {
            for text in [
                "vs_2_0\ndcl_position v0\nmul r0, v0, c0\nrcp r1.x, v0.w\nmad oPos, r0, r1.x, c1\nmov oT0, v0\n",
                "ps_3_0\ndcl_texcoord0 v0\ndsx r0, v0\ndsy r1, v0\nadd r0, r0, r1\ntexkill v0\nmul oC0, r0, c0\n",
            ] {
                run(&gpu, &dxso_text::parse::parse(text)?)?;
            }
            Ok(())
        }
    }
}
