//! # dxso-gpu
//!
//! Runs a Direct3D 9 shader, translated by `dxso-naga`, on a Vulkan device through wgpu, with
//! the inputs, constants, textures and sampler states the CPU executor (`dxso-exec`) takes,
//! and returns its [`dxso_exec::Outputs`]: the differential oracle of the executor, and the
//! engine behind `dxso run --engine vulkan`. Without a GPU, Mesa's lavapipe is a Vulkan device.
//!
//! - Vertex shaders run as compute (`dxso_naga::Options::vertex_as_compute`): one invocation
//!   per vertex, inputs and outputs in storage buffers.
//! - Pixel shaders draw into `Rgba32Float` targets four pixels wide: quad `q` is columns 0-1
//!   of rows `2q` and `2q + 1`, so pixel `(x, y)` is lane `4q + 2 (y mod 2) + x` of the
//!   executor's [`dxso_exec::QuadBatch`]. One triangle, inside the target so that no clipping
//!   splits it, covers every quad: all four pixels of each quad are real invocations (lavapipe
//!   runs helper invocations with storage reads of zero, which would break derivatives).
//!   Inputs come from a storage buffer indexed by pixel (`pixel_inputs_from_buffer`), so each
//!   pixel gets exactly its values and derivatives see the real neighbours; a status target
//!   (`pixel_status_location`) tells which pixels were discarded and their depth unclamped.
//!
//! What Vulkan or wgpu cannot express is a [`GpuError::Unsupported`], never a silent
//! difference: the `mirroronce` address mode, border colours other than transparent black,
//! opaque black and opaque white, a mip LOD bias, the executor's `zero_times_anything` option
//! and a non-default float constant file size. The executor's instruction budget has no
//! counterpart (translated loops always end: counts are clamped to 255).
//!
//! ```no_run
//! use dxso_exec::{InputRegister, OutputRegister, Resources, VertexBatch};
//! let shader = dxso_text::parse::parse("vs_2_0\ndcl_position v0\nmul oPos, v0, c0\n")?;
//! let gpu = dxso_gpu::Gpu::new()?;
//! let mut batch = VertexBatch::new(1);
//! batch.set(InputRegister::V(0), vec![[1.0, 2.0, 3.0, 1.0]]);
//! let mut resources = Resources::default();
//! resources.constants.float = vec![[2.0, 2.0, 2.0, 1.0]];
//! let out = gpu.run_vertex(&shader, &batch, &resources, &dxso_exec::Options::default())?;
//! assert_eq!(out.get(OutputRegister::Pos).unwrap()[0], [2.0, 4.0, 6.0, 1.0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod device;
mod pixel;
mod resources;
mod vertex;

pub use device::Gpu;

/// Why a run on the device failed.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No Vulkan adapter (install `mesa-vulkan-drivers` for lavapipe).
    #[error("no Vulkan adapter found ({0}); install mesa-vulkan-drivers for lavapipe")]
    NoAdapter(String),
    /// The device could not be created.
    #[error("Vulkan device: {0}")]
    Device(String),
    /// The executor rejected the shader (the same check `dxso run` makes).
    #[error(transparent)]
    Plan(#[from] dxso_exec::PlanError),
    /// The translation failed.
    #[error(transparent)]
    Translate(#[from] dxso_naga::Error),
    /// Something the executor supports that this device or wgpu cannot express.
    #[error("not supported on the GPU engine: {0}")]
    Unsupported(String),
    /// The inputs do not fit the shader or the batch.
    #[error("{0}")]
    Input(String),
    /// wgpu reported an error (validation, out of memory, device lost).
    #[error("wgpu: {0}")]
    Wgpu(String),
}

// The README's examples run as doctests, so the crate's front page stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
