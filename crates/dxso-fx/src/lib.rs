//! # dxso-fx
//!
//! Direct3D 9 effects: the fx_2_0 binaries that `D3DXCreateEffect` loads and that XNA, FNA and
//! MonoGame games ship as `.fxb`.
//!
//! * [`Effect::parse`] reads a whole effect: parameters (types, rows and columns as native
//!   d3dx9 reports them, elements, struct members, semantics, flags, annotations, default
//!   values), techniques, passes, state assignments, `sampler_state` blocks, the small and
//!   large object tables, and every embedded shader through [`dxso::decode()`]. Errors are typed
//!   ([`FxError`]) and name the byte offset and the rule; nothing panics and allocation is
//!   bounded by the input size. [`Effect::encode`] writes the bytes back exactly.
//! * [`program`] and [`eval`]: one evaluator for FX programs, both the expressions that
//!   compute state values and array indices and the preshaders that compute shader constants
//!   on the CPU (`PRES` with `CLIT` literals, `FXLC` code and `PRSI` register information).
//! * [`runtime`]: the view of a device: set parameters by name or semantic, pick a technique
//!   and a pass, and get every state's value, the shaders chosen and their constant
//!   registers.
//! * [`describe`]: the JSON shape of `dxso fx info` and `dxso fx eval`.
//!
//! ```no_run
//! let bytes = std::fs::read("BasicEffect.fxb")?;
//! let effect = dxso_fx::Effect::parse(&bytes)?;
//! assert_eq!(effect.encode(), bytes);
//! for p in &effect.parameters {
//!     println!("{} {} {}", p.name(), p.ty.class_name(), p.ty.type_name());
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod bytes;
pub mod describe;
pub mod effect;
pub mod error;
pub mod eval;
mod layout;
pub mod opcode;
mod parse;
pub mod program;
pub mod runtime;
pub mod state_values;
pub mod states;
pub mod types;
pub mod upload;
pub mod value;
mod write;

pub use effect::{
    Annotation, Effect, EmbeddedShader, Object, ObjectData, Parameter, Pass, Payload, Resource,
    ShaderSource, Target, Technique,
};
pub use error::{FxError, FxErrorKind, ProgramErrorKind};
pub use eval::{Precision, Registers};
pub use opcode::Opcode;
pub use program::Program;
pub use runtime::{PassView, Runtime, RuntimeError, ShaderView, StateValue, StateView};
pub use states::{State, StateClass, StateInfo};
pub use types::{Name, Shape, TypeDesc};
pub use value::Value;

/// Words to little-endian bytes (the bytes of [`Program::to_words`]).
pub fn bytes_of(words: &[u32]) -> Vec<u8> {
    bytes::to_bytes(words)
}

/// Deepest nesting of struct members, and of sampler states inside sampler-typed values.
pub const MAX_DEPTH: usize = 32;
/// Records and copied words an effect may expand to per byte of file: a record is read once per
/// reference, so without a cap a small hostile file could name one large record from many
/// places.
pub const MAX_NODES_PER_BYTE: usize = 4;

// The README's examples run as doctests, so the crate's front page stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
