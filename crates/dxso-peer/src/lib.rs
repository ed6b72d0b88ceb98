//! Peers that dxso measures itself against. Each sits behind a cargo feature so the workspace
//! builds on a machine without them.
//!
//! - `peer-mojoshader`: MojoShader (Debian's `libmojoshader-dev`), called through the `mojoshader` module
//!   (built only with that feature).
#![warn(missing_docs)]

#[cfg(feature = "peer-mojoshader")]
pub mod mojoshader;

/// `true` when this build links MojoShader.
pub const fn mojoshader_available() -> bool {
    cfg!(feature = "peer-mojoshader")
}
