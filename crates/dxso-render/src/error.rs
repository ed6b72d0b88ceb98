//! What can stop a render.

use crate::shading::ShadeError;
use dxso_dp2::RunError;
use thiserror::Error;

/// A render that cannot go on. Device errors name the command's byte offset, op and record;
/// the others name the state, size or shader at fault.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum RenderError {
    /// The stream cannot be read or executed.
    #[error(transparent)]
    Device(#[from] RunError),
    /// A shader failed while running.
    #[error(transparent)]
    Shade(#[from] ShadeError),
    /// A target side of 0 or above the cap.
    #[error("target size {width} x {height}: each side must be 1..={max}")]
    BadTargetSize {
        /// Width asked for.
        width: u32,
        /// Height asked for.
        height: u32,
        /// The cap.
        max: u32,
    },
    /// A viewport that is empty or not inside the target.
    #[error("viewport {viewport:?} (x, y, width, height) is empty or not inside the {width} x {height} target")]
    BadViewport {
        /// {X, Y, Width, Height}.
        viewport: [u32; 4],
        /// Target width.
        width: u32,
        /// Target height.
        height: u32,
    },
    /// A depth range outside 0..1 (or NaN).
    #[error("z range {0:?} is not inside 0..1")]
    BadZRange([f32; 2]),
    /// A render state whose value is not a member of its enumeration (or not finite).
    #[error("render state {state} has the value {value:#x}, which it does not take")]
    BadState {
        /// The state's name.
        state: &'static str,
        /// The value.
        value: u32,
    },
    /// A state the pipeline does not implement.
    #[error("not supported by dxso-render: {0}")]
    Unsupported(&'static str),
    /// A draw with no vertex or pixel shader from the stream or the caller, and no engine to
    /// run the fixed-function pipeline's generated shaders.
    #[error("draw at byte {offset}: no {stage} shader is bound, none was given and there is no engine for the fixed-function pipeline")]
    NoShader {
        /// The draw command's byte offset.
        offset: usize,
        /// `vertex` or `pixel`.
        stage: &'static str,
    },
    /// A draw without shaders whose fixed-function state the generator refuses.
    #[error("draw at byte {offset}: fixed-function state: {error}")]
    FixedFunction {
        /// The draw command's byte offset.
        offset: usize,
        /// The generator's error, naming the state.
        error: dxso_ffp::FfpError,
    },
    /// A shader the pipeline cannot run (the executor refused it).
    #[error("{stage} shader cannot be run: {message}")]
    BadShader {
        /// `vertex` or `pixel`.
        stage: &'static str,
        /// Why.
        message: String,
    },
    /// The run would rasterise more than its cap of pixels.
    #[error("the stream covers at least {needed} pixels, over the cap of {max}")]
    TooManyPixels {
        /// Pixels (primitive areas, clipped to the viewport) counted so far.
        needed: u64,
        /// The cap.
        max: u64,
    },
    /// The PNG encoder failed.
    #[error("PNG: {0}")]
    Png(String),
}
