//! Caps that bound the work and memory a hostile stream can demand.
//!
//! Every count read from input is checked against one of these before anything is allocated
//! from it. `docs/DP2.md` documents the defaults.

/// The bounds a [`crate::Device`] enforces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Segment counts above this are clamped to it (per edge).
    pub max_segments: u32,
    /// The largest control grid side (`Width`, `Height` of a rect patch).
    pub max_grid_side: u32,
    /// The most output vertices one draw may produce; more is an error.
    pub max_draw_vertices: usize,
    /// The most output vertices one run may accumulate in its mesh; more is an error.
    pub max_total_vertices: usize,
    /// The most float shader-constant registers (int and bool registers: a quarter of it).
    pub max_float_constants: u32,
    /// The most primitives one DRAWPRIMITIVE record may name.
    pub max_primitives: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_segments: MAX_SEGMENTS,
            max_grid_side: MAX_GRID_SIDE,
            max_draw_vertices: 1 << 20,
            max_total_vertices: 1 << 22,
            max_float_constants: 8192,
            max_primitives: 1 << 20,
        }
    }
}

impl Limits {
    /// Small bounds for fuzzing: every run stays within a few megabytes.
    pub fn small() -> Self {
        Limits {
            max_segments: 32,
            max_grid_side: 64,
            max_draw_vertices: 1 << 14,
            max_total_vertices: 1 << 16,
            max_float_constants: 256,
            max_primitives: 1 << 12,
        }
    }
}

/// The default cap on segments per edge.
pub const MAX_SEGMENTS: u32 = 256;
/// The default cap on a control grid side.
pub const MAX_GRID_SIDE: u32 = 256;
/// Vertex streams a device has (D3D9 `MaxStreams`).
pub const MAX_STREAMS: u32 = 16;
/// Elements in one vertex declaration (D3D9 `MAXD3DDECLLENGTH`).
pub const MAX_DECL_ELEMENTS: u32 = 64;
/// Buffers in one `.dp2` capture.
pub const MAX_BUFFERS: u32 = 4096;
