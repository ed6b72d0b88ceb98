//! Which engine runs a shader: the CPU executor (`dxso-exec`: its interpreter or its JIT) or a
//! Vulkan device through the naga translation (`dxso-gpu`). Both take the same batches and resources and give the same
//! [`Outputs`], so a subcommand picks one with `--engine` and prints either alike.

use anyhow::Result;
use dxso_exec::{Options, Outputs, PixelShader, QuadBatch, Resources, VertexBatch, VertexShader};

/// `--engine`: one vocabulary for every subcommand that runs shaders.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// The CPU executor's batched interpreter (docs/SEMANTICS.md, bit for bit).
    #[cfg_attr(not(feature = "jit"), default, value(alias = "cpu"))]
    #[value(alias = "interp")]
    Interpreter,
    /// The CPU executor's plans compiled to native vector code with Cranelift (the same bits
    /// as the interpreter; the default CPU engine, `cpu`, when built with the `jit` feature).
    #[cfg_attr(feature = "jit", default, value(alias = "cpu"))]
    Jit,
    /// The JIT's scalar code (what machines without its vector instructions run).
    JitScalar,
    /// The shader translated by dxso-naga, run on a Vulkan device (lavapipe without a GPU).
    Vulkan,
}

impl Engine {
    /// The engine's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Interpreter => "interpreter",
            Engine::Jit => "jit",
            Engine::JitScalar => "jit-scalar",
            Engine::Vulkan => "vulkan",
        }
    }

    /// Whether the engine runs on the CPU (the executor: bit for bit the same results).
    pub fn is_cpu(self) -> bool {
        self != Engine::Vulkan
    }

    /// `Err` with the reason when the engine cannot run here (no Vulkan adapter, or a build
    /// without the `vulkan` feature); CPU engines always can.
    pub fn available(self) -> Result<(), String> {
        match self {
            #[cfg(feature = "vulkan")]
            Engine::Vulkan => dxso_gpu::Gpu::new().map(|_| ()).map_err(|e| e.to_string()),
            #[cfg(not(feature = "vulkan"))]
            Engine::Vulkan => Err(without_vulkan().to_string()),
            _ => Ok(()),
        }
    }

    /// The CPU engine that builds the executor's plan (Vulkan runs the translation, but the
    /// plan still validates the shader and names its inputs and outputs).
    pub fn cpu(self) -> dxso_exec::Engine {
        match self {
            Engine::Interpreter | Engine::Vulkan => dxso_exec::Engine::Interpreter,
            Engine::Jit => dxso_exec::Engine::Jit,
            Engine::JitScalar => dxso_exec::Engine::JitScalar,
        }
    }
}

/// `--engine` of the subcommands that render: the CPU engines (the software pipeline runs
/// there); `vulkan` is a usage error.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct RenderEngineArg {
    /// What runs the shaders: `jit` (native code; `cpu` is the default CPU engine, the JIT when
    /// built with it), `jit-scalar` or `interpreter`. The pictures are the same, bit for bit.
    #[arg(long = "engine", value_enum, default_value_t, value_name = "ENGINE")]
    pub engine: Engine,
}

impl RenderEngineArg {
    /// The executor's engine, or a usage error for `vulkan`.
    pub fn cpu(self) -> Result<dxso_exec::Engine> {
        match self.engine {
            Engine::Vulkan => Err(crate::report::CliError::Usage(
                "--engine vulkan runs single shaders (dxso run); the software renderer runs shaders on the CPU (interpreter, jit or jit-scalar)".into(),
            )
            .into()),
            e => Ok(e.cpu()),
        }
    }
}

#[cfg(feature = "vulkan")]
fn device() -> Result<dxso_gpu::Gpu> {
    use anyhow::Context;
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
        Engine::Interpreter | Engine::Jit | Engine::JitScalar => vs.run(batch, res)?,
        #[cfg(feature = "vulkan")]
        Engine::Vulkan => device()?.run_vertex(shader, batch, res, options)?,
        #[cfg(not(feature = "vulkan"))]
        Engine::Vulkan => {
            let _ = (shader, options);
            return Err(without_vulkan());
        }
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
        Engine::Interpreter | Engine::Jit | Engine::JitScalar => ps.run(batch, res)?,
        #[cfg(feature = "vulkan")]
        Engine::Vulkan => device()?.run_pixel(shader, batch, res, options)?,
        #[cfg(not(feature = "vulkan"))]
        Engine::Vulkan => {
            let _ = (shader, options);
            return Err(without_vulkan());
        }
    })
}

/// `--engine vulkan` in a build without the `vulkan` feature: a usage error that says so.
#[cfg(not(feature = "vulkan"))]
fn without_vulkan() -> anyhow::Error {
    crate::report::CliError::Usage(
        "this dxso was built without the `vulkan` feature; --engine vulkan needs it".into(),
    )
    .into()
}
