//! What the device reports and keeps, as plain data: a draw's [`DrawReport`], what the patch
//! cache did ([`CacheAction`]) and a captured patch ([`PatchData`]). A leaf module: the cache,
//! the draws and the assembly of meshes all use these types.

use crate::command::Op;
use crate::decl::VertexElement;
use crate::enums::PrimitiveType;
use crate::mesh::Mesh;
use crate::surface::Axis;
use std::sync::Arc;

/// What the patch cache did for one draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheAction {
    /// Handle 0: drawn from the streams, nothing cached.
    Dynamic,
    /// A new handle with HASINFO: captured and cached.
    Created,
    /// A known handle with HASINFO: re-captured.
    Updated,
    /// A known handle without HASINFO: drawn from the cache, streams ignored.
    Cached,
    /// No HASINFO and nothing cached: the record is ignored, nothing allocated.
    Ignored,
}

impl CacheAction {
    /// The lowercase name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            CacheAction::Dynamic => "dynamic",
            CacheAction::Created => "created",
            CacheAction::Updated => "updated",
            CacheAction::Cached => "cached",
            CacheAction::Ignored => "ignored",
        }
    }
}

/// The geometry a cached (or dynamic) patch keeps: a copy of its control points, decoded.
#[derive(Clone, Debug, PartialEq)]
pub struct PatchData {
    /// Rect or tri, with the validated shape.
    pub shape: PatchShape,
    /// The declaration at capture time.
    pub decl: Vec<VertexElement>,
    /// Control values per DEFAULT element, in declaration order (others: empty).
    pub channels: Vec<Vec<[f32; 4]>>,
}

/// The validated shape of a patch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PatchShape {
    /// A rect patch.
    Rect {
        /// Along u (width).
        u: Axis,
        /// Along v (height).
        v: Axis,
        /// Control points per row.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// A tri patch of this degree.
    Tri {
        /// 1, 3 or 5.
        degree: u32,
    },
}

impl PatchShape {
    pub(crate) fn name(&self) -> &'static str {
        match self {
            PatchShape::Rect { .. } => "rect",
            PatchShape::Tri { .. } => "tri",
        }
    }
}

/// What one draw record produced.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawReport {
    /// Byte offset of the command in the command buffer.
    pub offset: usize,
    /// The op.
    pub op: Op,
    /// The patch handle (patch draws only).
    pub handle: Option<u32>,
    /// What the cache did (patch draws only).
    pub cache: Option<CacheAction>,
    /// Segments per edge as tessellated (N-patches: one count; plain draws: empty).
    pub segments: Vec<u32>,
    /// A patch draw whose segment counts (given or from `PATCHSEGMENTS`) lay outside what the
    /// device tessellates, `[1, max_segments]`, and were clamped into it.
    pub clamped: bool,
    /// What the draw record asked for (patches: TRIANGLELIST). For every triangle type the
    /// mesh's `indices` are a triangle list (strips and fans converted, each triangle keeping
    /// the orientation Direct3D gives it); for points and lines the mesh's vertices are in
    /// draw order and `indices` is empty.
    pub primitive: PrimitiveType,
    /// The tessellated geometry (empty when ignored). A cached handle redrawn with the same
    /// segments shares the mesh of its previous draw instead of tessellating again.
    pub mesh: Arc<Mesh>,
}

impl DrawReport {
    /// Output vertices.
    pub fn vertices(&self) -> usize {
        self.mesh.vertex_count()
    }

    /// Output triangles.
    pub fn triangles(&self) -> usize {
        self.mesh.triangle_count()
    }
}
