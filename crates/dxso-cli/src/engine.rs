//! Which engine runs a shader: the CPU executor (`dxso-exec`) or a Vulkan device through the
//! naga translation (`dxso-gpu`). Both take the same batches and resources and give the same
//! [`Outputs`], so a subcommand picks one with `--engine` and prints either alike.

use anyhow::{Context, Result};
use dxso_exec::{Options, Outputs, PixelShader, QuadBatch, Resources, VertexBatch, VertexShader};

/// `--engine`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// The CPU executor (docs/SEMANTICS.md, bit for bit).
    #[default]
    Cpu,
    /// The shader translated by dxso-naga, run on a Vulkan device (lavapipe without a GPU).
    Vulkan,
}

fn device() -> Result<dxso_gpu::Gpu> {
    let gpu = dxso_gpu::Gpu::new().context("--engine vulkan needs a Vulkan device")?;
    log::info!("vulkan device: {}", gpu.adapter_name());
    Ok(gpu)
}

/// Runs a vertex batch on `engine` (`vs` is the executor's plan of `shader`).
pub fn run_vertex(
    engine: Engine,
    vs: &VertexShader,
    shader: &dxso::Shader,
    batch: &VertexBatch,
    res: &Resources,
    options: &Options,
) -> Result<Outputs> {
    Ok(match engine {
        Engine::Cpu => vs.run(batch, res)?,
        Engine::Vulkan => device()?.run_vertex(shader, batch, res, options)?,
    })
}

/// Runs a quad batch on `engine` (`ps` is the executor's plan of `shader`).
pub fn run_pixel(
    engine: Engine,
    ps: &PixelShader,
    shader: &dxso::Shader,
    batch: &QuadBatch,
    res: &Resources,
    options: &Options,
) -> Result<Outputs> {
    Ok(match engine {
        Engine::Cpu => ps.run(batch, res)?,
        Engine::Vulkan => device()?.run_pixel(shader, batch, res, options)?,
    })
}
