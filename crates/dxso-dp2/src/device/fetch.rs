//! Vertex fetch: the current declaration, checked, and its DEFAULT elements read from the
//! bound streams with every offset computed in 64 (or 128) bits and bounds-checked.

use super::error::{ExecError, ExecErrorKind};
use super::state::Stream;
use super::{Ctx, Device};
use crate::decl::{DeclMethod, DeclType, DeclUsage, VertexElement};
use crate::limits::MAX_STREAMS;

impl Device {
    pub(super) fn current_decl(&self, ctx: &Ctx) -> Result<Vec<VertexElement>, ExecError> {
        let mut decl = Vec::new();
        self.current_decl_into(ctx, &mut decl)?;
        Ok(decl)
    }

    /// The current declaration, checked, copied into `decl` (its capacity kept).
    pub(super) fn current_decl_into(
        &self,
        ctx: &Ctx,
        decl: &mut Vec<VertexElement>,
    ) -> Result<(), ExecError> {
        if let (None, Some((_, elements))) = (self.decl, &self.fvf) {
            decl.clear();
            decl.extend_from_slice(elements);
            return Ok(());
        }
        let h = self.decl.ok_or_else(|| ctx.err(ExecErrorKind::NoDecl))?;
        let (d, valid) = self
            .decls
            .get(&h)
            .ok_or_else(|| ctx.err(ExecErrorKind::NoSuchDecl(h)))?;
        if !valid {
            check_decl(ctx, d)?;
        }
        decl.clear();
        decl.extend_from_slice(d);
        Ok(())
    }

    /// Reads `count` vertices (by index function) of every DEFAULT element.
    pub(super) fn fetch(
        &self,
        ctx: &Ctx,
        decl: &[VertexElement],
        count: usize,
        vertex: impl Fn(usize) -> u64,
    ) -> Result<Vec<Vec<[f32; 4]>>, ExecError> {
        let mut channels = Vec::new();
        let runs = (0..count).map(|i| (vertex(i), 1));
        self.fetch_into(ctx, decl, count, runs, &mut channels)?;
        Ok(channels)
    }

    /// Reads the `count` vertices that `runs` yields (each `(first, length)`: that many
    /// consecutive vertex indices; the same runs for every element) of every DEFAULT element
    /// into `channels`, one per element (others empty), reusing the arrays it holds. `count`
    /// is the sum of the run lengths, bounded by the caller (a capped grid side, or a vertex
    /// list already allocated).
    pub(super) fn fetch_into(
        &self,
        ctx: &Ctx,
        decl: &[VertexElement],
        count: usize,
        runs: impl Iterator<Item = (u64, u64)> + Clone,
        channels: &mut Vec<Vec<[f32; 4]>>,
    ) -> Result<(), ExecError> {
        channels.resize_with(decl.len(), Vec::new);
        for (e, values) in decl.iter().zip(channels.iter_mut()) {
            if e.method() != Some(DeclMethod::Default) {
                values.clear();
                continue;
            }
            let ty = e.decl_type().expect("checked by check_decl");
            let stream = e.stream as u32;
            let (bytes, base, stride) = self.stream_bytes(ctx, decl, stream)?;
            // Every slot is written below (an error drops the whole capture), so an array
            // already `count` long is not cleared first, and no push checks capacity.
            values.resize(count, [0.0; 4]);
            let mut slots = values.iter_mut();
            for (first, len) in runs.clone() {
                let run = (&mut slots).take(len as usize);
                // 128-bit: index, stride and offsets all come from the stream.
                let start = base as u128 + first as u128 * stride as u128 + e.offset as u128;
                let end = start + (len.max(1) - 1) as u128 * stride as u128 + ty.size() as u128;
                if end <= bytes.len() as u128 {
                    // The whole run is in the buffer: one check, then every vertex in place
                    // (the stride is at least the element's size and so never 0).
                    let within = &bytes[start as usize..end as usize];
                    read_run(ty, within.chunks(stride.max(1) as usize), run);
                } else {
                    self.read_checked(ctx, e, ty, bytes, (base, stride), first, run)?;
                }
            }
        }
        Ok(())
    }

    /// Reads one run vertex by vertex, each bounds-checked: the error names the first vertex
    /// that is not in the buffer.
    #[allow(clippy::too_many_arguments)] // one run of `fetch_into`, its stream and element
    #[cold]
    fn read_checked<'s>(
        &self,
        ctx: &Ctx,
        e: &VertexElement,
        ty: DeclType,
        bytes: &[u8],
        (base, stride): (u64, u32),
        first: u64,
        slots: impl Iterator<Item = &'s mut [f32; 4]>,
    ) -> Result<(), ExecError> {
        let size = ty.size() as u64;
        for (i, slot) in slots.enumerate() {
            let v = first.saturating_add(i as u64);
            let start128 = base as u128 + v as u128 * stride as u128 + e.offset as u128;
            let start = u64::try_from(start128).unwrap_or(u64::MAX);
            let end = start.saturating_add(size);
            if end > bytes.len() as u64 {
                return Err(ctx.err(ExecErrorKind::OutOfBounds {
                    stream: e.stream as u32,
                    vertex: v,
                    start,
                    end,
                    len: bytes.len(),
                }));
            }
            *slot = ty.read(&bytes[start as usize..end as usize]);
        }
        Ok(())
    }

    /// The bytes, base offset and stride of a stream, with the stride checked against the
    /// declaration.
    pub(super) fn stream_bytes(
        &self,
        ctx: &Ctx,
        decl: &[VertexElement],
        stream: u32,
    ) -> Result<(&[u8], u64, u32), ExecError> {
        let binding = self
            .streams
            .get(stream as usize)
            .copied()
            .flatten()
            .ok_or_else(|| ctx.err(ExecErrorKind::StreamUnbound(stream)))?;
        let (handle, offset, stride) = match binding {
            Stream::Buffer {
                handle,
                offset,
                stride,
            } => (handle, offset, stride),
            Stream::UserMemory { stride } => (0, 0, stride),
        };
        let needed = decl
            .iter()
            .filter(|e| e.stream as u32 == stream && e.method() == Some(DeclMethod::Default))
            .map(|e| e.offset as u32 + e.decl_type().map_or(0, |t| t.size() as u32))
            .max()
            .unwrap_or(0);
        if stride < needed {
            return Err(ctx.err(ExecErrorKind::StrideTooSmall {
                stream,
                stride,
                needed,
            }));
        }
        let bytes = self
            .buffers
            .get(&handle)
            .ok_or_else(|| ctx.err(ExecErrorKind::NoSuchBuffer(handle)))?;
        Ok((bytes, offset as u64, stride))
    }
}

/// Reads one run of vertices, each chunk starting with the element's bytes. FLOAT3
/// (positions, normals) is read in place, and `DeclType::read` is always inlined: called, a
/// reader returns the value through the stack in pieces that are read back whole, a
/// store-forwarding stall per vertex (and the compiler, seeing this arm compute what `read`
/// does, calls it for both).
#[inline(always)]
fn read_run<'s, 'b>(
    ty: DeclType,
    chunks: impl Iterator<Item = &'b [u8]>,
    slots: impl Iterator<Item = &'s mut [f32; 4]>,
) {
    let size = ty.size();
    for (slot, b) in slots.zip(chunks) {
        *slot = match (ty, b.first_chunk::<12>()) {
            (DeclType::Float3, Some(&[x0, x1, x2, x3, y0, y1, y2, y3, z0, z1, z2, z3])) => [
                f32::from_le_bytes([x0, x1, x2, x3]),
                f32::from_le_bytes([y0, y1, y2, y3]),
                f32::from_le_bytes([z0, z1, z2, z3]),
                1.0,
            ],
            _ => ty.read(&b[..size]),
        };
    }
}

/// Checks a declaration for a draw: the error of [`decl_problem`] at `ctx`.
pub(super) fn check_decl(ctx: &Ctx, decl: &[VertexElement]) -> Result<(), ExecError> {
    decl_problem(decl).map_or(Ok(()), |kind| Err(ctx.err(kind)))
}

/// What makes a declaration unusable for drawing, if anything: a type or method that is not
/// one, UNUSED before the end, a displacement-map lookup, a stream past the last, or no
/// POSITION0.
pub(super) fn decl_problem(decl: &[VertexElement]) -> Option<ExecErrorKind> {
    let bad = |index: usize, what: String| Some(ExecErrorKind::BadElement { index, what });
    for (i, e) in decl.iter().enumerate() {
        match e.decl_type() {
            None => return bad(i, format!("type {} is not a D3DDECLTYPE", e.ty)),
            Some(DeclType::Unused) => return bad(i, "type UNUSED before the end".into()),
            Some(_) => {}
        }
        match e.method() {
            None => return bad(i, format!("method {} is not a D3DDECLMETHOD", e.method)),
            Some(m @ (DeclMethod::Lookup | DeclMethod::LookupPresampled)) => {
                return bad(
                    i,
                    format!(
                        "method {} needs displacement-map sampling, which dxso-dp2 does not do",
                        m.name()
                    ),
                )
            }
            Some(_) => {}
        }
        if e.stream as u32 >= MAX_STREAMS {
            return Some(ExecErrorKind::NoSuchStream(e.stream as u32));
        }
    }
    if position_channel(decl).is_none() {
        return Some(ExecErrorKind::NoPosition);
    }
    None
}

pub(super) fn position_channel(decl: &[VertexElement]) -> Option<usize> {
    decl.iter().position(|e| {
        e.usage == DeclUsage::Position as u8
            && e.usage_index == 0
            && e.method() == Some(DeclMethod::Default)
    })
}

/// The DEFAULT element a generated element derives from: same stream and offset, else
/// POSITION0.
pub(super) fn input_channel(decl: &[VertexElement], e: &VertexElement) -> usize {
    decl.iter()
        .position(|d| {
            d.method() == Some(DeclMethod::Default) && d.stream == e.stream && d.offset == e.offset
        })
        .or_else(|| position_channel(decl))
        .expect("declarations are checked to have POSITION0")
}
