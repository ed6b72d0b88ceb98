//! Caps that bound the work and memory a hostile stream can demand.
//!
//! Every count read from input is checked against one of these before anything is allocated
//! from it. `docs/DP2.md` documents the defaults.

/// Light indices a stream may use (SETLIGHT, CREATELIGHT): 0..this.
pub const MAX_LIGHT_INDEX: u32 = 4096;

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

impl Limits {
    /// The default caps, with the output vertices of a run (and of a draw) also bounded by the
    /// size of the capture: [`BASE_VERTICES`] plus [`VERTICES_PER_BYTE`] per input byte. A
    /// tessellated patch turns a few bytes into up to 66,049 vertices, so this is what keeps a
    /// run's work proportional to its input (`dxso dp2 run` uses it).
    pub fn for_input(bytes: usize) -> Self {
        let d = Limits::default();
        let total = bytes
            .saturating_mul(VERTICES_PER_BYTE)
            .saturating_add(BASE_VERTICES)
            .min(d.max_total_vertices);
        Limits {
            max_total_vertices: total,
            max_draw_vertices: d.max_draw_vertices.min(total),
            ..d
        }
    }
}

/// Output vertices [`Limits::for_input`] allows whatever the input's size.
pub const BASE_VERTICES: usize = 1 << 16;
/// Output vertices [`Limits::for_input`] allows per byte of input.
pub const VERTICES_PER_BYTE: usize = 8;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_sized_limits_grow_with_the_input_up_to_the_defaults() {
        let d = Limits::default();
        assert_eq!(Limits::for_input(0).max_total_vertices, BASE_VERTICES);
        assert_eq!(
            Limits::for_input(1000).max_total_vertices,
            BASE_VERTICES + 8000
        );
        let huge = Limits::for_input(usize::MAX);
        assert_eq!(huge, d);
        let small = Limits::for_input(10);
        assert!(small.max_draw_vertices <= small.max_total_vertices);
        assert_eq!(small.max_segments, d.max_segments);
    }
}
