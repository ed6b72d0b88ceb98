//! # dxso-exec
//!
//! CPU execution of Direct3D 9 vertex and pixel shaders, every opcode of every version
//! (vs_1_1..vs_3_0, ps_1_1..ps_3_0), as `docs/SEMANTICS.md` defines them.
//!
//! A validated [`dxso::Shader`] is lowered once to a [`plan::Plan`] (swizzles, modifiers, masks,
//! register addresses and constant sources resolved; nothing is decoded at run time), then run
//! over batches of invocations in structure-of-arrays form with per-lane execution masks, so
//! divergent `if`/`loop`/`break`/`call`/`ret`/`texkill` and predication are exact per lane and
//! `dsx`/`dsy` see 2x2 quads in lockstep. Batches run on every core (rayon) with results
//! identical whatever the thread count. An instruction budget per invocation turns a runaway
//! loop into [`ExecError::Budget`].
//!
//! ```
//! use dxso_exec::{InputRegister, OutputRegister, Resources, VertexBatch, VertexShader};
//! let shader = dxso_text::parse::parse("vs_2_0\ndcl_position v0\nmul oPos, v0, c0\n")?;
//! let vs = VertexShader::new(&shader)?;
//! let mut batch = VertexBatch::new(2);
//! batch.set(InputRegister::V(0), vec![[1.0, 2.0, 3.0, 1.0], [4.0, 5.0, 6.0, 1.0]]);
//! let mut resources = Resources::default();
//! resources.constants.float = vec![[2.0, 2.0, 2.0, 1.0]];
//! let out = vs.run(&batch, &resources)?;
//! assert_eq!(out.get(OutputRegister::Pos).unwrap()[1], [8.0, 10.0, 12.0, 1.0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
// Unsafe code is forbidden; with the `jit` feature it is denied everywhere but in `jit`, which
// runs the code it generates.
#![cfg_attr(not(feature = "jit"), forbid(unsafe_code))]
#![cfg_attr(feature = "jit", deny(unsafe_code))]
#![warn(missing_docs)]

pub mod compare;
pub mod dds;
pub mod error;
mod exec;
pub mod io;
#[cfg(feature = "jit")]
#[allow(unsafe_code)]
pub mod jit;
pub mod math;
pub mod options;
pub mod plan;
pub mod sampler;
mod shader;
pub mod texture;

pub use error::{ExecError, PlanError, PlanPlace, PlanRule};
pub use io::{
    Attribute, Constants, InputRegister, OutputRegister, Outputs, QuadBatch, VertexBatch,
};
pub use options::{Engine, Options, Ps1Range};
pub use sampler::{AddressMode, Filter, Sampler, SamplerState, StageState};
pub use shader::{PixelShader, Resources, VertexShader};
pub use texture::{Dimension, Format, MipLevel, Texture, TextureError};

// The README's examples run as doctests, so the crate's front page stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
