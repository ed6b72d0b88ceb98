//! The Utah teapot as a DP2 stream: 32 bicubic Bezier patches, each created under its own
//! handle and then drawn a second time from the patch cache.

use crate::capture::{Capture, CaptureBuilder};
use crate::command::RectPatchInfo;
use crate::decl::{DeclMethod, DeclType, DeclUsage, VertexElement};
use crate::device::{self, rs, DrawReport, RunError};
use crate::limits::Limits;
use crate::mesh::{write_obj, Mesh};
use crate::teapot_data::{PATCHES, POINTS};
use std::io::{self, Write};

/// Vertex buffer handle holding the control points, 16 per patch.
pub const CONTROL_BUFFER: u32 = 1;
/// A buffer of zeros the stream is switched to before the cached pass: cached draws must not
/// read it.
pub const DECOY_BUFFER: u32 = 2;
/// The handle of patch `i` is `FIRST_HANDLE + i`.
pub const FIRST_HANDLE: u32 = 100;

/// The declaration: POSITION0 from the stream, NORMAL0 by CROSSUV, TEXCOORD0 by UV.
pub fn declaration() -> [VertexElement; 3] {
    let e = |ty: DeclType, method: DeclMethod, usage: DeclUsage| VertexElement {
        stream: 0,
        offset: 0,
        ty: ty as u8,
        method: method as u8,
        usage: usage as u8,
        usage_index: 0,
    };
    [
        e(DeclType::Float3, DeclMethod::Default, DeclUsage::Position),
        e(DeclType::Float3, DeclMethod::CrossUv, DeclUsage::Normal),
        e(DeclType::Float2, DeclMethod::Uv, DeclUsage::TexCoord),
    ]
}

/// The 32 x 16 control points laid out patch after patch (row = v, column = u).
pub fn control_points() -> Vec<[f32; 3]> {
    PATCHES
        .iter()
        .flat_map(|p| p.iter().map(|&i| POINTS[i as usize - 1]))
        .collect()
}

/// The capture: states, declaration, 32 created patches, a stream switch, 32 cached draws.
pub fn capture(segments: f32) -> Capture {
    let mut b = CaptureBuilder::new();
    add_setup(&mut b, segments);
    add_created_pass(&mut b);
    add_cached_pass(&mut b);
    b.finish()
}

/// The buffers, the declaration (set), PATCHSEGMENTS and stream 0 on the control points.
pub fn add_setup(b: &mut CaptureBuilder, segments: f32) {
    let floats: Vec<f32> = control_points().into_iter().flatten().collect();
    b.float_buffer(CONTROL_BUFFER, &floats);
    b.float_buffer(DECOY_BUFFER, &vec![0.0; floats.len()]);
    b.create_vertex_decl(1, &declaration()).set_vertex_decl(1);
    b.render_state_f32(rs::PATCHSEGMENTS, segments);
    b.set_stream_source(0, CONTROL_BUFFER, 12);
}

/// The 32 patches drawn with HASINFO, creating handles `FIRST_HANDLE..`.
pub fn add_created_pass(b: &mut CaptureBuilder) {
    for p in 0..PATCHES.len() as u32 {
        let info = RectPatchInfo {
            start_vertex_offset_width: 0,
            start_vertex_offset_height: 4 * p,
            width: 4,
            height: 4,
            stride: 4,
            basis: 0,
            degree: 3,
        };
        b.draw_rect_patch(FIRST_HANDLE + p, None, Some(info));
    }
}

/// Stream 0 switched to the decoy buffer, then the 32 handles drawn from the cache.
pub fn add_cached_pass(b: &mut CaptureBuilder) {
    b.set_stream_source(0, DECOY_BUFFER, 12);
    for p in 0..PATCHES.len() as u32 {
        b.draw_rect_patch(FIRST_HANDLE + p, None, None);
    }
}

/// Runs the teapot stream at `segments` per edge; 64 draw reports, the last 32 from the cache.
pub fn run(segments: f32) -> Result<Vec<DrawReport>, RunError> {
    device::run(&capture(segments), Limits::default())
}

/// The second (cached) pass of a teapot run: one mesh per patch.
pub fn cached_meshes(draws: &[DrawReport]) -> impl Iterator<Item = &Mesh> {
    draws.iter().skip(PATCHES.len()).map(|d| &*d.mesh)
}

/// Writes the teapot (the cached pass) as OBJ.
pub fn write_teapot_obj(out: &mut impl Write, draws: &[DrawReport]) -> io::Result<()> {
    write_obj(
        out,
        cached_meshes(draws)
            .enumerate()
            .map(|(i, m)| (format!("patch{i}"), m)),
    )
}
