//! The patch-handle cache of Microsoft's `D3DHAL_DP2DRAWRECTPATCH` page (what it did is a
//! [`CacheAction`]), and the caches of tessellated domains, grid weights and meshes.

use super::error::{ExecError, ExecErrorKind};
use super::records::{CacheAction, DrawReport, PatchData, PatchShape};
use super::{Ctx, Device};
use crate::command::{RectPatchInfo, TriPatchInfo};
use crate::domain::{Domain, EdgeStyle};
use crate::mesh::Mesh;
use crate::surface::{Axis, Basis, GridWeights};
use crate::tri;
use std::sync::Arc;

/// What a tessellated domain depends on: shape, segment counts (as bits), style, cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct DomainKey {
    tri: bool,
    segments: [u32; 4],
    continuous: bool,
    max: u32,
}

impl DomainKey {
    pub(super) fn rect(segs: [f32; 4], style: EdgeStyle, max: u32) -> Self {
        DomainKey {
            tri: false,
            segments: segs.map(f32::to_bits),
            continuous: style == EdgeStyle::Continuous,
            max,
        }
    }

    pub(super) fn tri(segs: [f32; 3], style: EdgeStyle, max: u32) -> Self {
        let s = segs.map(f32::to_bits);
        DomainKey {
            tri: true,
            segments: [s[0], s[1], s[2], 0],
            continuous: style == EdgeStyle::Continuous,
            max,
        }
    }
}

/// A cached handle: its captured patch and the mesh it was last drawn with, if any.
#[derive(Clone, Debug)]
pub(super) struct CachedPatch {
    pub(super) data: Arc<PatchData>,
    pub(super) mesh: Option<Drawn>,
}

/// A mesh a handle was drawn with, and the domain it was tessellated over.
#[derive(Clone, Debug)]
pub(super) struct Drawn {
    pub(super) key: DomainKey,
    pub(super) mesh: Arc<Mesh>,
    /// Whether the mesh's triangle list and uvs are the domain's indices and points, so that
    /// when it is retired and refilled over the same domain they need not be written again.
    /// Only the device sets this, and a mesh the cache holds cannot be changed by anyone
    /// (it is shared), so it stays true until the mesh is refilled.
    pub(super) holds_domain: bool,
}

/// What [`Device::resolve`] found: the patch to draw, what the cache did, and a cached
/// draw's previous mesh.
pub(super) type Resolved = (Option<Arc<PatchData>>, CacheAction, Option<Drawn>);

/// How many retired meshes a device keeps for reuse.
pub(super) const SPARE_MESHES: usize = 256;

impl Device {
    /// Takes back draws the caller is done with: meshes no longer shared (with other reports
    /// or the patch cache) are kept, emptied, to be filled by later draws, and so are the
    /// reports' segment lists.
    pub fn recycle(&mut self, draws: Vec<DrawReport>) {
        for d in draws {
            self.retire(d.mesh);
            let mut segments = d.segments;
            if self.spare_segments.len() < SPARE_MESHES && segments.capacity() > 0 {
                segments.clear();
                self.spare_segments.push(segments);
            }
        }
    }

    /// Keeps a mesh for reuse if this was its last reference: emptied (but for the lengths
    /// of its positions and normals), in its `Arc`, so that
    /// neither the arrays nor the `Arc` are allocated again. (A mesh handed back by a caller
    /// may have been changed, so nothing in it is trusted.)
    pub(super) fn retire(&mut self, mesh: Arc<Mesh>) {
        self.retire_holding(mesh, None);
    }

    /// Keeps a mesh the cache let go of for reuse: as [`Device::retire`], except that one
    /// still holding its domain's triangle list and uvs keeps them, for a refill over the
    /// same domain.
    pub(super) fn retire_drawn(&mut self, drawn: Drawn) {
        let holds = drawn.holds_domain.then_some(drawn.key);
        self.retire_holding(drawn.mesh, holds);
    }

    fn retire_holding(&mut self, mut mesh: Arc<Mesh>, holds: Option<DomainKey>) {
        if self.spare.len() < SPARE_MESHES {
            if let Some(m) = Arc::get_mut(&mut mesh) {
                if holds.is_none() {
                    // The positions and normals keep their length: a refill replaces them
                    // whole (or empties them), and a grid's evaluation overwrites an array
                    // of its size without filling it first.
                    m.uvs.clear();
                    m.attributes.clear();
                    m.indices.clear();
                }
                self.spare.push((mesh, holds));
            }
        }
    }

    /// A mesh to fill over the domain `key`, unshared (a retired one, else a new one), and
    /// whether it already holds that domain's triangle list and points as its uvs. A
    /// retired mesh a clone of this device also holds is left to the clone.
    pub(super) fn spare_mesh(&mut self, key: DomainKey) -> (Arc<Mesh>, bool) {
        if let Some((mut mesh, holds)) = self.spare.pop() {
            if Arc::get_mut(&mut mesh).is_some() {
                return (mesh, holds == Some(key));
            }
        }
        (Arc::default(), false)
    }

    /// Keeps a replaced cache entry (its `Arc` and arrays) for the next capture, if this was
    /// its last reference.
    pub(super) fn retire_patch(&mut self, mut patch: Arc<PatchData>) {
        let mut spare = self.spare_patches.borrow_mut();
        if spare.len() < SPARE_MESHES && Arc::get_mut(&mut patch).is_some() {
            spare.push(patch);
        }
    }

    pub(super) fn capture_rect(
        &self,
        ctx: &Ctx,
        info: &RectPatchInfo,
    ) -> Result<Arc<PatchData>, ExecError> {
        let basis = Basis::from_u32(info.basis)
            .ok_or_else(|| ctx.err(ExecErrorKind::BadBasis(info.basis)))?;
        let max = self.limits.max_grid_side;
        if info.width > max || info.height > max {
            return Err(ctx.err(ExecErrorKind::GridTooLarge {
                width: info.width,
                height: info.height,
                max,
            }));
        }
        let u =
            Axis::new(basis, info.degree, info.width, "width").map_err(|e| ctx.err(e.into()))?;
        let v =
            Axis::new(basis, info.degree, info.height, "height").map_err(|e| ctx.err(e.into()))?;
        let mut patch = self.spare_patch();
        let data = Arc::get_mut(&mut patch).expect("spare patches are unshared");
        self.current_decl_into(ctx, &mut data.decl)?;
        // Row by row (no division per vertex), as (row + r) * stride + column + c.
        let (w, h) = (info.width as u64, info.height as u64);
        let (row, column, stride) = (
            info.start_vertex_offset_height as u64,
            info.start_vertex_offset_width as u64,
            info.stride as u64,
        );
        let rows =
            (0..h).map(move |r| ((row + r).saturating_mul(stride).saturating_add(column), w));
        let count = (w * h) as usize;
        self.fetch_into(ctx, &data.decl, count, rows, &mut data.channels)?;
        data.shape = PatchShape::Rect {
            u,
            v,
            width: info.width,
            height: info.height,
        };
        Ok(patch)
    }

    /// A captured patch to fill, unshared: one a replaced cache entry left (its arrays keep
    /// their capacity), else a new one.
    fn spare_patch(&self) -> Arc<PatchData> {
        // A spare patch a clone of this device also holds is left to the clone.
        if let Some(mut patch) = self.spare_patches.borrow_mut().pop() {
            if Arc::get_mut(&mut patch).is_some() {
                return patch;
            }
        }
        Arc::new(PatchData {
            shape: PatchShape::Tri { degree: 1 },
            decl: Vec::new(),
            channels: Vec::new(),
        })
    }

    pub(super) fn capture_tri(
        &self,
        ctx: &Ctx,
        info: &TriPatchInfo,
    ) -> Result<Arc<PatchData>, ExecError> {
        let bad = || {
            ctx.err(ExecErrorKind::BadTriPatch {
                basis: info.basis,
                degree: info.degree,
                vertices: info.num_vertices,
            })
        };
        if info.basis != 0 || ![1, 3, 5].contains(&info.degree) {
            return Err(bad());
        }
        if info.num_vertices as usize != tri::control_count(info.degree as usize) {
            return Err(bad());
        }
        let mut patch = self.spare_patch();
        let data = Arc::get_mut(&mut patch).expect("spare patches are unshared");
        self.current_decl_into(ctx, &mut data.decl)?;
        let start = info.start_vertex_offset as u64;
        let count = info.num_vertices as usize;
        let run = std::iter::once((start, count as u64));
        self.fetch_into(ctx, &data.decl, count, run, &mut data.channels)?;
        data.shape = PatchShape::Tri {
            degree: info.degree,
        };
        Ok(patch)
    }

    /// The cache protocol shared by rect and tri draws: returns the patch to draw (if any),
    /// what the cache did, and for a cached draw the mesh its handle was last drawn with.
    pub(super) fn resolve(
        &mut self,
        ctx: &Ctx,
        handle: u32,
        has_info: bool,
        capture: impl FnOnce(&Self) -> Result<Arc<PatchData>, ExecError>,
        kind: &'static str,
    ) -> Result<Resolved, ExecError> {
        if !has_info {
            return match self.patches.get(&handle) {
                Some(p) if handle != 0 => {
                    if p.data.shape.name() != kind {
                        return Err(ctx.err(ExecErrorKind::KindMismatch {
                            handle,
                            held: p.data.shape.name(),
                            drawn: kind,
                        }));
                    }
                    Ok((
                        Some(Arc::clone(&p.data)),
                        CacheAction::Cached,
                        p.mesh.clone(),
                    ))
                }
                _ => Ok((None, CacheAction::Ignored, None)),
            };
        }
        let data = capture(self)?;
        if handle == 0 {
            return Ok((Some(data), CacheAction::Dynamic, None));
        }
        // The new capture forgets the handle's mesh (one lookup for both).
        let entry = CachedPatch {
            data: Arc::clone(&data),
            mesh: None,
        };
        let action = match self.patches.insert(handle, entry) {
            Some(old) => {
                self.retire_patch(old.data);
                if let Some(drawn) = old.mesh {
                    self.retire_drawn(drawn);
                }
                CacheAction::Updated
            }
            None => CacheAction::Created,
        };
        Ok((Some(data), action, None))
    }

    /// The mesh of a patch draw: a cached handle redrawn with the same domain shares the mesh
    /// of its previous draw (`shared`, from [`Device::resolve`]); otherwise `tessellate`
    /// builds it (and says whether it holds the domain's triangle list and points as uvs)
    /// and the handle remembers it.
    pub(super) fn mesh_for(
        &mut self,
        handle: u32,
        key: DomainKey,
        shared: Option<Drawn>,
        tessellate: impl FnOnce(&mut Self) -> Result<(Arc<Mesh>, bool), ExecError>,
    ) -> Result<Arc<Mesh>, ExecError> {
        let mesh = match shared {
            Some(drawn) if drawn.key == key => drawn.mesh,
            stale => {
                // Let go of a mesh for other segments first, so that when the handle
                // replaces it, it is the last reference and can be kept for reuse.
                drop(stale);
                let (m, holds_domain) = tessellate(self)?;
                self.remember(handle, key, &m, holds_domain);
                m
            }
        };
        self.total_vertices += mesh.vertex_count();
        Ok(mesh)
    }

    /// Keeps the mesh a cacheable handle was last drawn with (handle 0 is never cached).
    pub(super) fn remember(
        &mut self,
        handle: u32,
        key: DomainKey,
        mesh: &Arc<Mesh>,
        holds_domain: bool,
    ) {
        if handle == 0 {
            return;
        }
        let drawn = Drawn {
            key,
            mesh: Arc::clone(mesh),
            holds_domain,
        };
        let old = self
            .patches
            .get_mut(&handle)
            .and_then(|p| p.mesh.replace(drawn));
        if let Some(old) = old {
            self.retire_drawn(old);
        }
    }

    /// The tessellated domain for these counts, built once and reused: patches drawn with the
    /// same segments share it (at most 256 are kept).
    pub(super) fn domain(&mut self, key: DomainKey, build: impl FnOnce() -> Domain) -> Arc<Domain> {
        if let Some((k, d)) = &self.last_domain {
            if *k == key {
                return Arc::clone(d);
            }
        }
        let d = match self.domains.get(&key) {
            Some(d) => Arc::clone(d),
            None => {
                if self.domains.len() >= 256 {
                    self.domains.clear();
                }
                let d = Arc::new(build());
                self.domains.insert(key, Arc::clone(&d));
                d
            }
        };
        self.last_domain = Some((key, Arc::clone(&d)));
        d
    }

    /// The grid weights for these axes over this domain, computed once per shape and
    /// segment setting (at most 256 kept).
    pub(super) fn grid_weights(
        &mut self,
        key: DomainKey,
        u: Axis,
        v: Axis,
        d: &Domain,
    ) -> Arc<GridWeights> {
        let full = (key, u, v);
        if let Some((k, w)) = &self.last_weights {
            if *k == full {
                return Arc::clone(w);
            }
        }
        let w = match self.weights.get(&full) {
            Some(w) => Arc::clone(w),
            None => {
                if self.weights.len() >= 256 {
                    self.weights.clear();
                }
                let w = Arc::new(GridWeights::new(&u, &v, d));
                self.weights.insert(full, Arc::clone(&w));
                w
            }
        };
        self.last_weights = Some((full, Arc::clone(&w)));
        w
    }
}
