//! Direct3D 9's fixed-function pipeline as generated shaders.
//!
//! A draw's fixed-function state ([`FfpState`]: transforms, material, lights, render states,
//! texture-stage states, the FVF code) reduces to a [`ShaderKey`] holding only what changes
//! the code; [`generate`] turns a key into a vs_3_0 and a ps_3_0 [`dxso::Shader`] that pass
//! [`dxso::validate()`], and [`constants`] fills their constant registers from the state's
//! values. [`ShaderCache`] keeps generated shaders by key. What the shaders compute is
//! written down in the fixed-function chapter of `docs/SEMANTICS.md`.
//!
//! ```
//! use dxso_ffp::{generate, FfpState, ShaderKey};
//! let state = FfpState::default(); // XYZ | DIFFUSE, lighting on, stage 0 MODULATE
//! let key = ShaderKey::from_state(&state)?;
//! let shaders = generate(&key)?;
//! assert!(dxso::validate(&shaders.vs).is_valid());
//! assert!(dxso::validate(&shaders.ps).is_valid());
//! # Ok::<(), dxso_ffp::FfpError>(())
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod asm;
pub mod cache;
pub mod constants;
pub mod d3d;
pub mod error;
pub mod fvf;
pub mod key;
pub mod layout;
mod ps;
pub mod samples;
pub mod state;
mod vs;

pub use cache::ShaderCache;
pub use constants::{pixel_constants, vertex_constants, Viewport};
pub use error::FfpError;
pub use fvf::Fvf;
pub use key::ShaderKey;
pub use state::{FfpState, Light, Material, Stage, TextureKind};

/// The two shaders of a key.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    /// The vs_3_0.
    pub vs: dxso::Shader,
    /// The ps_3_0.
    pub ps: dxso::Shader,
}

/// The shaders of `key`.
pub fn generate(key: &ShaderKey) -> Result<Generated, FfpError> {
    let inputs = 2
        + usize::from(matches!(key.ps.fog, key::PixelFog::Table { .. }))
        + key.ps.stages.iter().filter(|s| s.texture.is_some()).count();
    if inputs > 10 {
        return Err(FfpError::TooManyInputs(inputs));
    }
    let outputs = vs::output_count(&key.vs);
    if outputs > 12 {
        return Err(FfpError::TooManyOutputs(outputs));
    }
    Ok(Generated {
        vs: vs::generate(&key.vs),
        ps: ps::generate(&key.ps),
    })
}

// The README's examples run as doctests, so the crate's front page stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
