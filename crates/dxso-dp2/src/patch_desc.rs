//! One rect patch described as JSON (`dxso tessellate PATCH.json`), tessellated by running a
//! dynamic DRAWRECTPATCH through the device.

use crate::capture::{Capture, CaptureBuilder};
use crate::command::RectPatchInfo;
use crate::decl::{DeclMethod, DeclType, DeclUsage, VertexElement};
use crate::device::{self, rs, RunError};
use crate::domain::EdgeStyle;
use crate::limits::Limits;
use crate::mesh::Mesh;
use crate::surface::Basis;
use serde::{Deserialize, Serialize};

/// `{"basis", "degree", "width", "height", "segments", "edge_style", "control_points"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PatchDescription {
    /// The basis.
    pub basis: Basis,
    /// 1, 2, 3 or 5.
    pub degree: u32,
    /// Control points per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Per-edge segments [v=0, u=1, v=1, u=0].
    pub segments: [f32; 4],
    /// Discrete or continuous.
    #[serde(default)]
    pub edge_style: EdgeStyle,
    /// Row-major, `width * height` points.
    pub control_points: Vec<[f32; 3]>,
}

/// The tessellated patch as `dxso tessellate` prints it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TessellatedPatch {
    /// Positions.
    pub vertices: Vec<[f32; 3]>,
    /// CROSSUV normals.
    pub normals: Vec<[f32; 3]>,
    /// (u, v) per vertex.
    pub uvs: Vec<[f32; 2]>,
    /// Triangle list.
    pub indices: Vec<u32>,
}

impl From<Mesh> for TessellatedPatch {
    fn from(m: Mesh) -> Self {
        TessellatedPatch {
            vertices: m.positions,
            normals: m.normals,
            uvs: m.uvs,
            indices: m.indices,
        }
    }
}

impl PatchDescription {
    /// The DP2 capture that draws this patch (dynamic handle, HASSEGS and HASINFO).
    pub fn capture(&self) -> Capture {
        let mut b = CaptureBuilder::new();
        let floats: Vec<f32> = self.control_points.iter().flatten().copied().collect();
        b.float_buffer(1, &floats);
        let e = |ty: DeclType, method: DeclMethod, usage: DeclUsage| VertexElement {
            stream: 0,
            offset: 0,
            ty: ty as u8,
            method: method as u8,
            usage: usage as u8,
            usage_index: 0,
        };
        b.create_vertex_decl(
            1,
            &[
                e(DeclType::Float3, DeclMethod::Default, DeclUsage::Position),
                e(DeclType::Float3, DeclMethod::CrossUv, DeclUsage::Normal),
                e(DeclType::Float2, DeclMethod::Uv, DeclUsage::TexCoord),
            ],
        );
        b.set_vertex_decl(1);
        b.render_state(
            rs::PATCHEDGESTYLE,
            (self.edge_style == EdgeStyle::Continuous) as u32,
        );
        b.set_stream_source(0, 1, 12);
        let info = RectPatchInfo {
            start_vertex_offset_width: 0,
            start_vertex_offset_height: 0,
            width: self.width,
            height: self.height,
            stride: self.width,
            basis: self.basis.to_u32(),
            degree: self.degree,
        };
        b.draw_rect_patch(0, Some(self.segments), Some(info));
        b.finish()
    }

    /// Tessellates the patch with the default limits.
    pub fn tessellate(&self) -> Result<Mesh, RunError> {
        let mut draws = device::run(&self.capture(), Limits::default())?;
        Ok(draws
            .pop()
            .map(|d| std::sync::Arc::unwrap_or_clone(d.mesh))
            .unwrap_or_default())
    }
}
