//! Draw records: rect and tri patches through the cache, DRAWPRIMITIVE and
//! DRAWINDEXEDPRIMITIVE (plain or as N-patches), each to a [`DrawReport`].

use super::assemble::{assemble_plain, tessellate_npatches, tessellate_rect, tessellate_tri};
use super::cache::DomainKey;
use super::error::{ExecError, ExecErrorKind};
use super::records::{CacheAction, DrawReport, PatchShape};
use super::rs;
use super::state::Stream;
use super::{Ctx, Device};
use crate::command::{DrawIndexedPrimitive, DrawPrimitive, Op, RectPatch, TriPatch};
use crate::domain;
use crate::enums::PrimitiveType;
use crate::mesh::Mesh;
use std::sync::Arc;

impl Device {
    pub(super) fn segments<const N: usize>(
        &self,
        ctx: &Ctx,
        given: Option<[f32; N]>,
    ) -> Result<[f32; N], ExecError> {
        let s = match given {
            Some(s) => s,
            None => [self.patch_segments(ctx)?; N],
        };
        if s.iter().any(|x| x.is_nan()) {
            return Err(ctx.err(ExecErrorKind::NanSegments));
        }
        Ok(s)
    }

    pub(super) fn draw_rect_patch(
        &mut self,
        ctx: &Ctx,
        p: &RectPatch,
    ) -> Result<DrawReport, ExecError> {
        let segs = self.segments(ctx, p.segments)?;
        let style = self.edge_style(ctx)?;
        let (data, action, shared) = self.resolve(
            ctx,
            p.handle,
            p.info.is_some(),
            |d| d.capture_rect(ctx, p.info.as_ref().expect("has info")),
            "rect",
        )?;
        let max = self.limits.max_segments;
        let counts = segs.map(|s| domain::segment_count(s, style, max));
        // The report is built once the mesh is known (an empty `Arc<Mesh>` is an
        // allocation too, and a tessellated draw would only replace it).
        let (segments, mesh) = match data {
            Some(data) => {
                self.check_output(ctx, domain::rect_vertex_bound(counts))?;
                let key = DomainKey::rect(segs, style, max);
                let d = self.domain(key, || domain::rect(segs, style, max));
                let mesh = self.mesh_for(p.handle, key, shared, |dev| {
                    // Only a draw that tessellates needs the grid weights.
                    let w = match data.shape {
                        PatchShape::Rect { u, v, .. } if d.grid.is_some() => {
                            Some(dev.grid_weights(key, u, v, &d))
                        }
                        _ => None,
                    };
                    let (mut mesh, holds_domain) = dev.spare_mesh(key);
                    let m = Arc::get_mut(&mut mesh).expect("spare meshes are unshared");
                    let holds_domain = tessellate_rect(
                        ctx,
                        &data,
                        &d,
                        w.as_deref(),
                        (&mut dev.scratch, &mut dev.rows),
                        (m, holds_domain),
                    )?;
                    Ok((mesh, holds_domain))
                })?;
                (self.segment_list(&d.edge_segments), mesh)
            }
            None => (self.segment_list(&counts), Arc::default()),
        };
        Ok(patch_report(
            ctx,
            p.handle,
            action,
            segments,
            segs.iter().any(|&s| domain::is_clamped(s, style, max)),
            mesh,
        ))
    }

    /// A report's segment list: a recycled report's vector if one is kept (no allocation).
    fn segment_list(&mut self, segments: &[u32]) -> Vec<u32> {
        let mut list = self.spare_segments.pop().unwrap_or_default();
        list.extend_from_slice(segments);
        list
    }

    pub(super) fn draw_tri_patch(
        &mut self,
        ctx: &Ctx,
        p: &TriPatch,
    ) -> Result<DrawReport, ExecError> {
        let segs = self.segments(ctx, p.segments)?;
        let style = self.edge_style(ctx)?;
        let (data, action, shared) = self.resolve(
            ctx,
            p.handle,
            p.info.is_some(),
            |d| d.capture_tri(ctx, p.info.as_ref().expect("has info")),
            "tri",
        )?;
        let max = self.limits.max_segments;
        let counts = segs.map(|s| domain::segment_count(s, style, max));
        let (segments, mesh) = match data {
            Some(data) => {
                self.check_output(ctx, domain::tri_vertex_bound(counts))?;
                let key = DomainKey::tri(segs, style, max);
                let d = self.domain(key, || domain::tri(segs, style, max));
                let mesh = self.mesh_for(p.handle, key, shared, |_| {
                    Ok((Arc::new(tessellate_tri(&data, &d)), false))
                })?;
                (self.segment_list(&d.edge_segments), mesh)
            }
            None => (self.segment_list(&counts), Arc::default()),
        };
        Ok(patch_report(
            ctx,
            p.handle,
            action,
            segments,
            segs.iter().any(|&s| domain::is_clamped(s, style, max)),
            mesh,
        ))
    }

    pub(super) fn check_output(&self, ctx: &Ctx, bound: usize) -> Result<(), ExecError> {
        if bound > self.limits.max_draw_vertices {
            return Err(ctx.err(ExecErrorKind::TooManyVertices {
                needed: bound,
                max: self.limits.max_draw_vertices,
            }));
        }
        let total = self.total_vertices + bound;
        if total > self.limits.max_total_vertices {
            return Err(ctx.err(ExecErrorKind::TotalTooLarge {
                needed: total,
                max: self.limits.max_total_vertices,
            }));
        }
        Ok(())
    }

    pub(super) fn stream0_stride(&self, ctx: &Ctx) -> Result<u32, ExecError> {
        match self.streams[0] {
            Some(Stream::Buffer { stride, .. }) | Some(Stream::UserMemory { stride })
                if stride > 0 =>
            {
                Ok(stride)
            }
            Some(_) => Err(ctx.err(ExecErrorKind::StrideTooSmall {
                stream: 0,
                stride: 0,
                needed: 1,
            })),
            None => Err(ctx.err(ExecErrorKind::StreamUnbound(0))),
        }
    }

    pub(super) fn draw_primitive(
        &mut self,
        ctx: &Ctx,
        d: &DrawPrimitive,
    ) -> Result<DrawReport, ExecError> {
        let start = if ctx.op == Op::DrawPrimitive2 {
            let stride = self.stream0_stride(ctx)?;
            if d.start % stride != 0 {
                return Err(ctx.err(ExecErrorKind::Misaligned {
                    offset: d.start as i64,
                    stride,
                }));
            }
            d.start / stride
        } else {
            d.start
        };
        let n = vertices_for(
            ctx,
            d.primitive_type,
            d.primitive_count,
            self.limits.max_primitives,
        )?;
        let indices: Vec<u64> = (0..n as u64).map(|i| start as u64 + i).collect();
        self.draw_vertices(ctx, d.primitive_type, &indices)
    }

    pub(super) fn draw_indexed_primitive(
        &mut self,
        ctx: &Ctx,
        d: &DrawIndexedPrimitive,
    ) -> Result<DrawReport, ExecError> {
        let (handle, istride) = self
            .indices
            .ok_or_else(|| ctx.err(ExecErrorKind::NoIndices))?;
        let (base, start) = if ctx.op == Op::DrawIndexedPrimitive2 {
            let stride = self.stream0_stride(ctx)?;
            if d.base_vertex as i64 % stride as i64 != 0 {
                return Err(ctx.err(ExecErrorKind::Misaligned {
                    offset: d.base_vertex as i64,
                    stride,
                }));
            }
            if d.start_index % istride != 0 {
                return Err(ctx.err(ExecErrorKind::Misaligned {
                    offset: d.start_index as i64,
                    stride: istride,
                }));
            }
            (
                d.base_vertex as i64 / stride as i64,
                d.start_index / istride,
            )
        } else {
            (d.base_vertex as i64, d.start_index)
        };
        let n = vertices_for(
            ctx,
            d.primitive_type,
            d.primitive_count,
            self.limits.max_primitives,
        )?;
        let bytes = self
            .buffers
            .get(&handle)
            .ok_or_else(|| ctx.err(ExecErrorKind::NoSuchBuffer(handle)))?;
        let mut indices = Vec::with_capacity(n);
        for i in 0..n as u64 {
            let at = (start as u64 + i) * istride as u64;
            let end = at + istride as u64;
            if end > bytes.len() as u64 {
                return Err(ctx.err(ExecErrorKind::OutOfBounds {
                    stream: u32::MAX,
                    vertex: start as u64 + i,
                    start: at,
                    end,
                    len: bytes.len(),
                }));
            }
            let b = &bytes[at as usize..end as usize];
            let index = if istride == 2 {
                u16::from_le_bytes([b[0], b[1]]) as i64
            } else {
                u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as i64
            };
            let v = index + base;
            if v < 0 {
                return Err(ctx.err(ExecErrorKind::OutOfBounds {
                    stream: 0,
                    vertex: 0,
                    start: 0,
                    end: 0,
                    len: 0,
                }));
            }
            indices.push(v as u64);
        }
        self.draw_vertices(ctx, d.primitive_type, &indices)
    }

    /// Plain and N-patch drawing of a vertex sequence (already resolved through indices).
    pub(super) fn draw_vertices(
        &mut self,
        ctx: &Ctx,
        ty: u32,
        vertices: &[u64],
    ) -> Result<DrawReport, ExecError> {
        let decl = self.current_decl(ctx)?;
        let channels = self.fetch(ctx, &decl, vertices.len(), |i| vertices[i])?;
        let triangles: Vec<[usize; 3]> = match ty {
            4 => (0..vertices.len() / 3)
                .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
                .collect(),
            // Strips alternate winding so every triangle keeps the first one's orientation.
            5 => (0..vertices.len().saturating_sub(2))
                .map(|t| {
                    if t % 2 == 0 {
                        [t, t + 1, t + 2]
                    } else {
                        [t + 1, t, t + 2]
                    }
                })
                .collect(),
            6 => (1..vertices.len().saturating_sub(1))
                .map(|t| [0, t, t + 1])
                .collect(),
            _ => Vec::new(),
        };
        let segments = self.patch_segments(ctx)?;
        let npatch = segments > 1.0 && !triangles.is_empty();
        let mut report = DrawReport {
            offset: ctx.offset,
            op: ctx.op,
            handle: None,
            cache: None,
            segments: Vec::new(),
            clamped: false,
            primitive: PrimitiveType::from_u32(ty)
                .ok_or_else(|| ctx.err(ExecErrorKind::BadPrimitiveType(ty)))?,
            mesh: Arc::default(),
        };
        if triangles.is_empty() {
            // Points and lines: nothing to tessellate; the positions are the output.
            self.check_output(ctx, vertices.len())?;
            report.mesh = Arc::new(assemble_plain(
                &decl,
                &channels,
                &(0..vertices.len()).collect::<Vec<_>>(),
            ));
            self.total_vertices += vertices.len();
            return Ok(report);
        }
        if !npatch {
            self.check_output(ctx, triangles.len() * 3)?;
            let order: Vec<usize> = triangles.iter().flatten().copied().collect();
            let mut mesh = assemble_plain(&decl, &channels, &order);
            mesh.indices = (0..order.len() as u32).collect();
            report.mesh = Arc::new(mesh);
            self.total_vertices += order.len();
            return Ok(report);
        }
        let style = self.edge_style(ctx)?;
        let max = self.limits.max_segments;
        let count = domain::segment_count(segments, style, max);
        let per = domain::tri_vertex_bound([count; 3]);
        self.check_output(ctx, per.saturating_mul(triangles.len()))?;
        let d = domain::tri([segments; 3], style, max);
        report.segments = vec![count];
        let cubic = self.render_state(rs::POSITIONDEGREE) != Some(1);
        let quadratic = self.render_state(rs::NORMALDEGREE) == Some(2);
        report.mesh = Arc::new(tessellate_npatches(
            &decl, &channels, &triangles, &d, cubic, quadratic,
        ));
        self.total_vertices += report.mesh.vertex_count();
        Ok(report)
    }
}

/// The report of a rect or tri patch draw.
fn patch_report(
    ctx: &Ctx,
    handle: u32,
    action: CacheAction,
    segments: Vec<u32>,
    clamped: bool,
    mesh: Arc<Mesh>,
) -> DrawReport {
    DrawReport {
        offset: ctx.offset,
        op: ctx.op,
        handle: Some(handle),
        cache: Some(action),
        segments,
        clamped,
        primitive: PrimitiveType::TriangleList,
        mesh,
    }
}

pub(super) fn vertices_for(ctx: &Ctx, ty: u32, count: u32, max: u32) -> Result<usize, ExecError> {
    if count > max {
        return Err(ctx.err(ExecErrorKind::TooManyPrimitives { count, max }));
    }
    let c = count as usize;
    Ok(match ty {
        1 => c,
        2 => 2 * c,
        3 => c + 1,
        4 => 3 * c,
        5 | 6 => c + 2,
        _ => return Err(ctx.err(ExecErrorKind::BadPrimitiveType(ty))),
    })
}
