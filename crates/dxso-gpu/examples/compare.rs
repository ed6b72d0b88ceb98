//! Runs a small vertex shader and a small pixel shader on the Vulkan device and on the CPU
//! executor, and prints both results.
//!
//! ```sh
//! cargo run -p dxso-gpu --example compare
//! ```

use dxso_exec::{InputRegister, PixelShader, QuadBatch, Resources, VertexBatch, VertexShader};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = dxso_gpu::Gpu::new()?;
    println!("device: {}", gpu.adapter_name());
    let options = dxso_exec::Options::default();
    let mut resources = Resources::default();
    resources.constants.float = vec![[0.5, 2.0, -1.0, 1.0], [0.25, 0.25, 0.25, 0.25]];

    let vs = dxso_text::parse::parse(
        "vs_2_0\ndcl_position v0\nmul r0, v0, c0\nrcp r1.x, v0.w\nmad oPos, r0, r1.x, c1\nmov oT0, v0\n",
    )?;
    let mut batch = VertexBatch::new(3);
    batch.set(
        InputRegister::V(0),
        vec![
            [1.0, 2.0, 3.0, 1.0],
            [-1.0, 0.5, 0.0, 2.0],
            [4.0, 4.0, 4.0, 4.0],
        ],
    );
    let cpu = VertexShader::with_options(&vs, &options)?.run(&batch, &resources)?;
    let gpu_out = gpu.run_vertex(&vs, &batch, &resources, &options)?;
    println!(
        "vertex cpu: {:?}\nvertex gpu: {:?}",
        cpu.registers, gpu_out.registers
    );

    let ps = dxso_text::parse::parse(
        "ps_3_0\ndcl_texcoord0 v0\ndsx r0, v0\ndsy r1, v0\nadd r0, r0, r1\ntexkill v0\nmul oC0, r0, c0\n",
    )?;
    let mut quads = QuadBatch::new(1);
    quads.set(
        InputRegister::V(0),
        vec![
            [0.0, 0.0, 0.0, 1.0],
            [1.0, 0.0, 0.0, 1.0],
            [0.0, 2.0, -1.0, 1.0],
            [1.0, 2.0, 0.0, 1.0],
        ],
    );
    let cpu = PixelShader::with_options(&ps, &options)?.run(&quads, &resources)?;
    let gpu_out = gpu.run_pixel(&ps, &quads, &resources, &options)?;
    println!(
        "pixel cpu: {:?} discarded {:?}",
        cpu.registers, cpu.discarded
    );
    println!(
        "pixel gpu: {:?} discarded {:?}",
        gpu_out.registers, gpu_out.discarded
    );
    Ok(())
}
