//! What can go wrong executing commands: [`ExecError`] (with the byte offset, op and record)
//! and [`RunError`] for a whole capture.

use crate::command::{Op, ParseError};
use crate::surface::SurfaceError;
use thiserror::Error;

/// A command the device cannot execute.
#[derive(Debug, Error, Clone, PartialEq)]
#[error("command at byte {offset} ({}), record {record}: {kind}", op.name())]
pub struct ExecError {
    /// Byte offset of the command.
    pub offset: usize,
    /// Its op.
    pub op: Op,
    /// The record within the command.
    pub record: usize,
    /// The rule broken.
    pub kind: ExecErrorKind,
}

fn first_error(report: &dxso::Report) -> String {
    let errors = report.errors().count();
    match report.errors().next() {
        Some(d) if errors > 1 => format!("{d} (and {} more)", errors - 1),
        Some(d) => d.to_string(),
        None => String::from("no errors"),
    }
}

/// Why a command cannot be executed.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ExecErrorKind {
    /// A CREATEVERTEXSHADERFUNC / CREATEPIXELSHADER whose bytecode `dxso::validate` rejects; the
    /// report says which rules it breaks (a driver refuses such a shader).
    #[error("shader {handle} is invalid: {}", first_error(report))]
    InvalidShader {
        /// The shader handle.
        handle: u32,
        /// The validator's findings.
        report: dxso::Report,
    },
    /// SETVERTEXSHADER with a handle that is not an FVF code.
    #[error("{0}")]
    BadFvf(dxso_ffp::FfpError),
    /// SETTRANSFORM or MULTIPLYTRANSFORM of a type that names no transform.
    #[error("transform type {0} is not VIEW (2), PROJECTION (3), TEXTURE0-7 (16-23) or WORLDMATRIX(0-255) (256-511)")]
    BadTransformType(u32),
    /// SETCLIPPLANE of an index outside 0..=5.
    #[error("clip plane {0} does not exist (0..=5)")]
    BadClipPlane(u32),
    /// A light index at or above the device's cap.
    #[error("light index {index} is not below the cap of {max}")]
    LightIndex {
        /// The index.
        index: u32,
        /// The cap.
        max: u32,
    },
    /// A stream number >= 16.
    #[error("stream {0} does not exist (16 streams)")]
    NoSuchStream(u32),
    /// A texture stage outside 0..=15 and 256..=260.
    #[error("texture stage {0} does not exist (0..=15 pixel, 256..=260 vertex)")]
    NoSuchStage(u32),
    /// TEXTUREMAP names a buffer that is not a texture buffer.
    #[error("buffer {handle} is not a texture: {error}")]
    BadTexture {
        /// The buffer handle.
        handle: u32,
        /// What is wrong with it.
        error: crate::texture::TextureError,
    },
    /// A buffer handle the capture does not hold.
    #[error("buffer handle {0} is not in the capture")]
    NoSuchBuffer(u32),
    /// A declaration handle never created.
    #[error("vertex declaration {0} was never created")]
    NoSuchDecl(u32),
    /// A draw with no declaration set.
    #[error("no vertex declaration is set")]
    NoDecl,
    /// The declaration has no POSITION0 read from a stream.
    #[error("the vertex declaration has no POSITION0 element with method DEFAULT")]
    NoPosition,
    /// A declaration element type or method this crate does not know or support.
    #[error("vertex element {index}: {what}")]
    BadElement {
        /// Element index in the declaration.
        index: usize,
        /// The problem.
        what: String,
    },
    /// A draw reads a stream nothing is bound to.
    #[error("stream {0} is not bound")]
    StreamUnbound(u32),
    /// A stream's stride is smaller than its elements need.
    #[error(
        "stream {stream} stride {stride} is smaller than the {needed} bytes its elements need"
    )]
    StrideTooSmall {
        /// The stream.
        stream: u32,
        /// Its stride.
        stride: u32,
        /// Bytes the declaration reads per vertex.
        needed: u32,
    },
    /// A vertex read falls outside its buffer.
    #[error(
        "vertex {vertex} of stream {stream} reads bytes {start}..{end} of a {len}-byte buffer"
    )]
    OutOfBounds {
        /// The stream.
        stream: u32,
        /// The vertex index.
        vertex: u64,
        /// First byte read.
        start: u64,
        /// One past the last byte read.
        end: u64,
        /// The buffer length.
        len: usize,
    },
    /// A basis value other than 0, 1, 2.
    #[error("basis {0} is not Bezier (0), B-spline (1) or Catmull-Rom (2)")]
    BadBasis(u32),
    /// A forbidden basis/degree/size combination.
    #[error(transparent)]
    Surface(#[from] SurfaceError),
    /// Tri patches are Bezier only, degree 1, 3 or 5 with 3, 10 or 21 points.
    #[error("tri patch basis {basis} degree {degree} with {vertices} vertices: only Bezier degree 1, 3, 5 with 3, 10, 21 vertices")]
    BadTriPatch {
        /// Basis.
        basis: u32,
        /// Degree.
        degree: u32,
        /// NumVertices.
        vertices: u32,
    },
    /// A control grid side above the cap.
    #[error("control grid {width} x {height} exceeds the cap of {max} per side")]
    GridTooLarge {
        /// Width.
        width: u32,
        /// Height.
        height: u32,
        /// The cap.
        max: u32,
    },
    /// A NaN segment count.
    #[error("segment count is NaN")]
    NanSegments,
    /// A PATCHEDGESTYLE value other than 0 or 1.
    #[error("PATCHEDGESTYLE {0} is neither discrete (0) nor continuous (1)")]
    BadEdgeStyle(u32),
    /// A draw would exceed the per-draw output cap.
    #[error("the draw would make up to {needed} vertices, over the cap of {max}")]
    TooManyVertices {
        /// Bound on the output.
        needed: usize,
        /// The cap.
        max: usize,
    },
    /// The run would exceed its total output cap.
    #[error("the run would hold {needed} vertices, over the cap of {max}")]
    TotalTooLarge {
        /// Total after this draw.
        needed: usize,
        /// The cap.
        max: usize,
    },
    /// Shader constants past the register cap.
    #[error("constants {register}..{register}+{count} exceed the {max} registers")]
    ConstantOutOfRange {
        /// First register.
        register: u32,
        /// Count.
        count: usize,
        /// The cap.
        max: u32,
    },
    /// An index stride other than 2 or 4.
    #[error("index stride {0} is neither 2 nor 4")]
    BadIndexStride(u32),
    /// An indexed draw with no index buffer.
    #[error("no index buffer is set")]
    NoIndices,
    /// A primitive type outside 1..=6.
    #[error("primitive type {0} is not 1..6")]
    BadPrimitiveType(u32),
    /// A primitive count above the cap.
    #[error("{count} primitives exceed the cap of {max}")]
    TooManyPrimitives {
        /// Count.
        count: u32,
        /// The cap.
        max: u32,
    },
    /// A byte offset that is not a whole number of vertices or indices.
    #[error("byte offset {offset} is not a multiple of the stride {stride}")]
    Misaligned {
        /// The offset.
        offset: i64,
        /// The stride.
        stride: u32,
    },
    /// A cached handle drawn with the other patch op.
    #[error("handle {handle} holds a {held} patch, drawn as a {drawn} patch without HASINFO")]
    KindMismatch {
        /// The handle.
        handle: u32,
        /// What the cache holds.
        held: &'static str,
        /// What the draw asked for.
        drawn: &'static str,
    },
}

/// Any failure running a capture.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum RunError {
    /// The file.
    #[error(transparent)]
    Capture(#[from] crate::capture::CaptureError),
    /// The command buffer.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// Execution.
    #[error(transparent)]
    Exec(#[from] ExecError),
}
