//! The `.dp2` capture file and a builder for command buffers.
//!
//! Layout (little-endian): magic `DP2F`, u32 version = 1, u32 buffer_count, then per buffer
//! u32 handle, u32 byte_len and the bytes padded with zeros to a multiple of 4; then u32
//! command_len and the command buffer. The buffer with handle 0, if any, is the user-memory
//! vertex buffer that SETSTREAMSOURCEUM streams read.

use crate::command::{Clear, Op, RectPatchInfo, TriPatchInfo, HASINFO, HASSEGS};
use crate::decl::VertexElement;
use crate::limits::MAX_BUFFERS;
use crate::texture::{Texture, TextureFormat};
use thiserror::Error;

/// The file magic.
pub const MAGIC: [u8; 4] = *b"DP2F";
/// The only version.
pub const VERSION: u32 = 1;

/// A vertex or index buffer stored in a capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    /// The handle SETSTREAMSOURCE / SETINDICES name it by.
    pub handle: u32,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// A parsed `.dp2` file: buffers and one command buffer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Capture {
    /// The buffers, in file order, handles unique.
    pub buffers: Vec<Buffer>,
    /// The raw command buffer (parse it with [`crate::command::parse`]).
    pub commands: Vec<u8>,
}

/// A `.dp2` file that cannot be read.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("dp2 file byte {offset}: {kind}")]
pub struct CaptureError {
    /// Byte offset in the file.
    pub offset: usize,
    /// The rule broken.
    pub kind: CaptureErrorKind,
}

/// What is wrong with a `.dp2` file.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CaptureErrorKind {
    /// The first four bytes are not `DP2F`.
    #[error("magic is not DP2F")]
    BadMagic,
    /// A version other than 1.
    #[error("version {0} is not supported (only 1)")]
    BadVersion(u32),
    /// The file ends early.
    #[error("truncated: {needed} bytes needed, {available} left")]
    Truncated {
        /// Bytes needed.
        needed: u64,
        /// Bytes left.
        available: usize,
    },
    /// More buffers than the cap.
    #[error("{0} buffers exceed the limit of {MAX_BUFFERS}")]
    TooManyBuffers(u32),
    /// Two buffers with one handle.
    #[error("buffer handle {0} appears twice")]
    DuplicateHandle(u32),
    /// A command with more records than a header's 16-bit count holds.
    #[error("{0} records do not fit one command (at most 65535)")]
    TooManyRecords(usize),
    /// Bytes after the command buffer.
    #[error("{0} trailing bytes after the command buffer")]
    TrailingBytes(usize),
}

impl Capture {
    /// Reads a `.dp2` file.
    pub fn parse(bytes: &[u8]) -> Result<Capture, CaptureError> {
        let mut pos = 0usize;
        let err = |offset, kind| CaptureError { offset, kind };
        let take = |pos: &mut usize, n: u64| -> Result<&[u8], CaptureError> {
            let available = bytes.len() - *pos;
            if n > available as u64 {
                return Err(err(
                    *pos,
                    CaptureErrorKind::Truncated {
                        needed: n,
                        available,
                    },
                ));
            }
            let s = &bytes[*pos..*pos + n as usize];
            *pos += n as usize;
            Ok(s)
        };
        let u32_at = |pos: &mut usize| -> Result<u32, CaptureError> {
            let b = take(pos, 4)?;
            Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        if take(&mut pos, 4)? != MAGIC {
            return Err(err(0, CaptureErrorKind::BadMagic));
        }
        let version = u32_at(&mut pos)?;
        if version != VERSION {
            return Err(err(4, CaptureErrorKind::BadVersion(version)));
        }
        let count_at = pos;
        let count = u32_at(&mut pos)?;
        if count > MAX_BUFFERS {
            return Err(err(count_at, CaptureErrorKind::TooManyBuffers(count)));
        }
        let mut buffers: Vec<Buffer> = Vec::new();
        for _ in 0..count {
            let at = pos;
            let handle = u32_at(&mut pos)?;
            let len = u32_at(&mut pos)? as u64;
            if buffers.iter().any(|b| b.handle == handle) {
                return Err(err(at, CaptureErrorKind::DuplicateHandle(handle)));
            }
            let padded = len.div_ceil(4) * 4;
            let data = take(&mut pos, padded)?;
            buffers.push(Buffer {
                handle,
                bytes: data[..len as usize].to_vec(),
            });
        }
        let len = u32_at(&mut pos)? as u64;
        let commands = take(&mut pos, len)?.to_vec();
        if pos != bytes.len() {
            return Err(err(pos, CaptureErrorKind::TrailingBytes(bytes.len() - pos)));
        }
        Ok(Capture { buffers, commands })
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.buffers.len() as u32).to_le_bytes());
        for b in &self.buffers {
            out.extend_from_slice(&b.handle.to_le_bytes());
            out.extend_from_slice(&(b.bytes.len() as u32).to_le_bytes());
            out.extend_from_slice(&b.bytes);
            out.resize(out.len().next_multiple_of(4), 0);
        }
        out.extend_from_slice(&(self.commands.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.commands);
        out
    }

    /// The buffer with `handle`.
    pub fn buffer(&self, handle: u32) -> Option<&[u8]> {
        self.buffers
            .iter()
            .find(|b| b.handle == handle)
            .map(|b| b.bytes.as_slice())
    }
}

/// Builds a capture: buffers plus commands, one record per command.
#[derive(Clone, Debug, Default)]
pub struct CaptureBuilder {
    capture: Capture,
}

impl CaptureBuilder {
    /// An empty capture.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) a buffer.
    pub fn buffer(&mut self, handle: u32, bytes: Vec<u8>) -> &mut Self {
        self.capture.buffers.retain(|b| b.handle != handle);
        self.capture.buffers.push(Buffer { handle, bytes });
        self
    }

    /// Adds a buffer of floats.
    pub fn float_buffer(&mut self, handle: u32, floats: &[f32]) -> &mut Self {
        self.buffer(
            handle,
            floats.iter().flat_map(|f| f.to_le_bytes()).collect(),
        )
    }

    /// Appends a raw command: header with `count` and the payload bytes as given.
    pub fn command(&mut self, op: Op, count: u16, payload: &[u8]) -> &mut Self {
        let c = &mut self.capture.commands;
        c.push(op as u8);
        c.push(0);
        c.extend_from_slice(&count.to_le_bytes());
        c.extend_from_slice(payload);
        self
    }

    fn dwords(&mut self, op: Op, words: &[u32]) -> &mut Self {
        let payload: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.command(op, 1, &payload)
    }

    /// RENDERSTATE with a DWORD value.
    pub fn render_state(&mut self, state: u32, value: u32) -> &mut Self {
        self.dwords(Op::RenderState, &[state, value])
    }

    /// RENDERSTATE with a float value (stored as its bits).
    pub fn render_state_f32(&mut self, state: u32, value: f32) -> &mut Self {
        self.render_state(state, value.to_bits())
    }

    /// TEXTURESTAGESTATE: one `D3DTSS_*` value of a stage (`device::tss`).
    pub fn texture_stage_state(&mut self, stage: u16, state: u16, value: u32) -> &mut Self {
        self.dwords(
            Op::TextureStageState,
            &[stage as u32 | (state as u32) << 16, value],
        )
    }

    /// A texture buffer (`crate::texture`) under `handle`: `levels` mip levels of raw texels,
    /// largest first.
    pub fn texture(
        &mut self,
        handle: u32,
        format: TextureFormat,
        size: [u32; 2],
        levels: u32,
        texels: &[u8],
    ) -> &mut Self {
        self.buffer(
            handle,
            Texture::buffer(format, size[0], size[1], levels, texels),
        )
    }

    /// VIEWPORTINFO {X, Y, Width, Height}.
    pub fn viewport(&mut self, viewport: [u32; 4]) -> &mut Self {
        self.dwords(Op::ViewportInfo, &viewport)
    }

    /// SETSCISSORRECT {left, top, right, bottom}.
    pub fn scissor_rect(&mut self, rect: [i32; 4]) -> &mut Self {
        self.dwords(Op::SetScissorRect, &rect.map(|v| v as u32))
    }

    /// ZRANGE {MinZ, MaxZ}.
    pub fn zrange(&mut self, min: f32, max: f32) -> &mut Self {
        self.dwords(Op::ZRange, &[min.to_bits(), max.to_bits()])
    }

    /// CLEAR with its rectangles {left, top, right, bottom} (none: the whole viewport).
    pub fn clear(&mut self, clear: &Clear) -> Result<&mut Self, CaptureError> {
        let count = u16::try_from(clear.rects.len()).map_err(|_| CaptureError {
            offset: self.capture.commands.len(),
            kind: CaptureErrorKind::TooManyRecords(clear.rects.len()),
        })?;
        let mut w = vec![
            clear.flags,
            clear.color,
            clear.depth.to_bits(),
            clear.stencil,
        ];
        w.extend(clear.rects.iter().flatten().map(|&v| v as u32));
        let payload: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
        Ok(self.command(Op::Clear, count, &payload))
    }

    /// SETSTREAMSOURCE.
    pub fn set_stream_source(&mut self, stream: u32, buffer: u32, stride: u32) -> &mut Self {
        self.dwords(Op::SetStreamSource, &[stream, buffer, stride])
    }

    /// SETSTREAMSOURCE2 (with a byte offset).
    pub fn set_stream_source2(
        &mut self,
        stream: u32,
        buffer: u32,
        offset: u32,
        stride: u32,
    ) -> &mut Self {
        self.dwords(Op::SetStreamSource2, &[stream, buffer, offset, stride])
    }

    /// SETINDICES.
    pub fn set_indices(&mut self, buffer: u32, stride: u32) -> &mut Self {
        self.dwords(Op::SetIndices, &[buffer, stride])
    }

    /// CREATEVERTEXSHADERDECL (the END marker is appended).
    pub fn create_vertex_decl(&mut self, handle: u32, elements: &[VertexElement]) -> &mut Self {
        let mut payload = Vec::new();
        payload.extend_from_slice(&handle.to_le_bytes());
        payload.extend_from_slice(&(elements.len() as u32 + 1).to_le_bytes());
        for e in elements.iter().chain([&VertexElement::END]) {
            payload.extend_from_slice(&e.to_bytes());
        }
        self.command(Op::CreateVertexShaderDecl, 1, &payload)
    }

    /// SETVERTEXSHADERDECL.
    pub fn set_vertex_decl(&mut self, handle: u32) -> &mut Self {
        self.dwords(Op::SetVertexShaderDecl, &[handle])
    }

    /// CREATEVERTEXSHADERFUNC or CREATEPIXELSHADER (by `op`) with the bytecode.
    pub fn create_shader(&mut self, op: Op, handle: u32, bytecode: &[u8]) -> &mut Self {
        let mut payload = Vec::new();
        payload.extend_from_slice(&handle.to_le_bytes());
        payload.extend_from_slice(&(bytecode.len() as u32).to_le_bytes());
        payload.extend_from_slice(bytecode);
        self.command(op, 1, &payload)
    }

    /// A single-handle op (SET/DELETE decl, func, pixel shader).
    pub fn handle_op(&mut self, op: Op, handle: u32) -> &mut Self {
        self.dwords(op, &[handle])
    }

    /// SETVERTEXSHADERCONST / SETPIXELSHADERCONST (by `op`).
    pub fn float_constants(&mut self, op: Op, register: u32, values: &[[f32; 4]]) -> &mut Self {
        let mut w = vec![register, values.len() as u32];
        w.extend(values.iter().flatten().map(|f| f.to_bits()));
        self.dwords(op, &w)
    }

    /// DRAWPRIMITIVE (or DRAWPRIMITIVE2 by `op`).
    pub fn draw_primitive(&mut self, op: Op, ty: u32, start: u32, count: u32) -> &mut Self {
        self.dwords(op, &[ty, start, count])
    }

    /// DRAWINDEXEDPRIMITIVE (or ...2 by `op`).
    #[allow(clippy::too_many_arguments)]
    pub fn draw_indexed_primitive(
        &mut self,
        op: Op,
        ty: u32,
        base_vertex: i32,
        min_index: u32,
        num_vertices: u32,
        start_index: u32,
        count: u32,
    ) -> &mut Self {
        self.dwords(
            op,
            &[
                ty,
                base_vertex as u32,
                min_index,
                num_vertices,
                start_index,
                count,
            ],
        )
    }

    /// DRAWRECTPATCH; the flags follow from which parts are given.
    pub fn draw_rect_patch(
        &mut self,
        handle: u32,
        segments: Option<[f32; 4]>,
        info: Option<RectPatchInfo>,
    ) -> &mut Self {
        let flags = segments.map_or(0, |_| HASSEGS) | info.map_or(0, |_| HASINFO);
        let mut w = vec![handle, flags];
        if let Some(s) = segments {
            w.extend(s.map(f32::to_bits));
        }
        if let Some(i) = info {
            w.extend([
                i.start_vertex_offset_width,
                i.start_vertex_offset_height,
                i.width,
                i.height,
                i.stride,
                i.basis,
                i.degree,
            ]);
        }
        self.dwords(Op::DrawRectPatch, &w)
    }

    /// DRAWTRIPATCH; the flags follow from which parts are given.
    pub fn draw_tri_patch(
        &mut self,
        handle: u32,
        segments: Option<[f32; 3]>,
        info: Option<TriPatchInfo>,
    ) -> &mut Self {
        let flags = segments.map_or(0, |_| HASSEGS) | info.map_or(0, |_| HASINFO);
        let mut w = vec![handle, flags];
        if let Some(s) = segments {
            w.extend(s.map(f32::to_bits));
        }
        if let Some(i) = info {
            w.extend([i.start_vertex_offset, i.num_vertices, i.basis, i.degree]);
        }
        self.dwords(Op::DrawTriPatch, &w)
    }

    /// The capture built so far.
    pub fn finish(&self) -> Capture {
        self.capture.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_padding() {
        let mut b = CaptureBuilder::new();
        b.buffer(3, vec![1, 2, 3])
            .render_state(164, 4.0f32.to_bits());
        let c = b.finish();
        let bytes = c.to_bytes();
        assert_eq!(bytes.len(), 12 + 8 + 4 + 4 + 12);
        assert_eq!(Capture::parse(&bytes).unwrap(), c);
    }

    #[test]
    fn hostile_headers() {
        let kind = |b: &[u8]| Capture::parse(b).unwrap_err().kind;
        assert_eq!(kind(b"XXXX"), CaptureErrorKind::BadMagic);
        assert_eq!(kind(b"DP2F\x02\0\0\0"), CaptureErrorKind::BadVersion(2));
        assert_eq!(
            kind(b"DP2F\x01\0\0\0\xff\xff\xff\xff"),
            CaptureErrorKind::TooManyBuffers(u32::MAX)
        );
        assert!(matches!(
            kind(b"DP2F\x01\0\0\0\x01\0\0\0\x01\0\0\0\xff\xff\xff\xff"),
            CaptureErrorKind::Truncated {
                needed: 4294967296,
                ..
            }
        ));
    }
}
