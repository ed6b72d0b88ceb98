//! Direct3D DDI DP2 command buffers and the patches they draw.
//!
//! - [`command`]: `D3DHAL_DP2COMMAND` headers and typed payloads; [`command::parse`].
//! - [`capture`]: the `.dp2` file (buffers + command buffer) and [`capture::CaptureBuilder`].
//! - [`describe`]: a JSON description of a capture.
//! - [`device`]: the state machine and the patch-handle cache of Microsoft's `D3DHAL_DP2DRAWRECTPATCH` page; [`device::run`].
//! - [`domain`], [`surface`], [`tri`]: tessellation of rect patches (Bezier, B-spline,
//!   Catmull-Rom), tri patches and N-patches, discrete and continuous, watertight.
//! - [`mesh`]: the output and Wavefront OBJ. [`teapot`]: the Utah teapot as a DP2 stream.
//! - [`texture`]: texture buffers in a capture (this crate's extension), bound by
//!   TEXTURESTAGESTATE. [`enums`]: the Direct3D 9 enumerations state values carry.
//!
//! Nothing here panics on input or allocates from an input count without a cap ([`limits`]).
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod capture;
pub mod command;
pub mod decl;
pub mod describe;
pub mod device;
pub mod domain;
pub mod enums;
pub mod limits;
pub mod mesh;
mod named;
pub mod patch_desc;
pub mod surface;
pub mod teapot;
mod teapot_data;
pub mod texture;
pub mod tri;

pub use capture::{Capture, CaptureBuilder};
pub use command::{parse, Command, CommandKind, Op, ParseError};
pub use device::{run, CacheAction, Device, DrawReport, ExecError, RunError};
pub use limits::Limits;
pub use mesh::{write_obj, Mesh};

// The README's examples run as doctests, so the crate's front page stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
