//! The DP2 command buffer: `D3DHAL_DP2COMMAND` headers and their typed payloads.
//!
//! A header is 4 bytes: `bCommand` (u8), `bReserved` (u8), and a u16 count of the records
//! that follow. [`parse`] reads a whole buffer into [`Command`]s; every error names the byte
//! offset and the op it was reading.

use crate::decl::VertexElement;
use crate::limits::MAX_DECL_ELEMENTS;
use thiserror::Error;

/// RTPATCHFLAG_HASSEGS: four (rect) or three (tri) float segment counts follow the record.
pub const HASSEGS: u32 = 0x1;
/// RTPATCHFLAG_HASINFO: a `D3DRECTPATCH_INFO` / `D3DTRIPATCH_INFO` follows.
pub const HASINFO: u32 = 0x2;

macro_rules! ops {
    ($($(#[$m:meta])* $v:ident = $n:expr, $s:expr;)*) => {
        /// A `D3DDP2OP_*` command code this crate reads.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum Op { $($(#[$m])* $v = $n,)* }
        impl Op {
            /// The op from its code.
            pub fn from_u8(v: u8) -> Option<Op> {
                match v { $($n => Some(Op::$v),)* _ => None }
            }
            /// The SDK name without the `D3DDP2OP_` prefix.
            pub fn name(self) -> &'static str {
                match self { $(Op::$v => $s,)* }
            }
            /// The op from its name (case-insensitive, prefix optional).
            pub fn from_name(s: &str) -> Option<Op> {
                let up = s.to_ascii_uppercase();
                let short = up.strip_prefix("D3DDP2OP_").unwrap_or(&up);
                Op::ALL.iter().copied().find(|o| o.name() == short)
            }
            /// Every op.
            pub const ALL: &'static [Op] = &[$(Op::$v,)*];
        }
    };
}

ops! {
    /// Render-state records {State, Value}.
    RenderState = 8, "RENDERSTATE";
    /// Texture-stage state records {WORD Stage, WORD State, Value}: texture bindings
    /// (`D3DTSS_TEXTUREMAP`) and sampler states.
    TextureStageState = 25, "TEXTURESTAGESTATE";
    /// Viewport records {X, Y, Width, Height}.
    ViewportInfo = 28, "VIEWPORTINFO";
    /// Depth range records {MinZ, MaxZ}.
    ZRange = 32, "ZRANGE";
    /// Scissor rectangle records (`RECT` {left, top, right, bottom}).
    SetScissorRect = 79, "SETSCISSORRECT";
    /// `D3DHAL_DP2SETMATERIAL` (a `D3DMATERIAL7`): diffuse, ambient, specular, emissive
    /// (RGBA floats), power; 68 bytes.
    SetMaterial = 33, "SETMATERIAL";
    /// `D3DHAL_DP2SETLIGHT` {Index, DataType}, followed by a `D3DLIGHT7` (104 bytes) when
    /// DataType is `D3DHAL_SETLIGHT_DATA` (2); 0 enables, 1 disables.
    SetLight = 34, "SETLIGHT";
    /// `D3DHAL_DP2CREATELIGHT` {Index}.
    CreateLight = 35, "CREATELIGHT";
    /// `D3DHAL_DP2SETTRANSFORM` {D3DTRANSFORMSTATETYPE, D3DMATRIX}; 68 bytes.
    SetTransform = 36, "SETTRANSFORM";
    /// `D3DHAL_DP2SETCLIPPLANE` {Index, plane\[4\]}; 20 bytes.
    SetClipPlane = 44, "SETCLIPPLANE";
    /// `D3DHAL_DP2VERTEXSHADER` {Handle}: for the fixed-function pipeline the handle is an FVF
    /// code (0 unbinds).
    SetVertexShader = 47, "SETVERTEXSHADER";
    /// A clear: {Flags, FillColor, FillDepth, FillStencil} then count RECTs.
    Clear = 42, "CLEAR";
    /// Vertex shader float constants.
    SetVertexShaderConst = 48, "SETVERTEXSHADERCONST";
    /// Stream binding {Stream, VBHandle, Stride}.
    SetStreamSource = 49, "SETSTREAMSOURCE";
    /// User-memory stream binding {Stream, Stride}.
    SetStreamSourceUm = 50, "SETSTREAMSOURCEUM";
    /// Index buffer {VBHandle, Stride}.
    SetIndices = 51, "SETINDICES";
    /// {PrimType, VStart, PrimitiveCount}.
    DrawPrimitive = 52, "DRAWPRIMITIVE";
    /// {PrimType, BaseVertexIndex, MinIndex, NumVertices, StartIndex, PrimitiveCount}.
    DrawIndexedPrimitive = 53, "DRAWINDEXEDPRIMITIVE";
    /// {Handle, CodeSize} then the shader tokens.
    CreatePixelShader = 54, "CREATEPIXELSHADER";
    /// {Handle}.
    DeletePixelShader = 55, "DELETEPIXELSHADER";
    /// {Handle}.
    SetPixelShader = 56, "SETPIXELSHADER";
    /// Pixel shader float constants.
    SetPixelShaderConst = 57, "SETPIXELSHADERCONST";
    /// {PrimType, FirstVertexOffset (bytes), PrimitiveCount}.
    DrawPrimitive2 = 59, "DRAWPRIMITIVE2";
    /// {PrimType, BaseVertexOffset, MinIndex, NumVertices, StartIndexOffset, PrimitiveCount}.
    DrawIndexedPrimitive2 = 60, "DRAWINDEXEDPRIMITIVE2";
    /// A rectangular patch (as Microsoft's `D3DHAL_DP2DRAWRECTPATCH` page defines it).
    DrawRectPatch = 61, "DRAWRECTPATCH";
    /// A triangular patch.
    DrawTriPatch = 62, "DRAWTRIPATCH";
    /// {Handle, NumVertexElements} then the elements.
    CreateVertexShaderDecl = 71, "CREATEVERTEXSHADERDECL";
    /// {Handle}.
    DeleteVertexShaderDecl = 72, "DELETEVERTEXSHADERDECL";
    /// {Handle}.
    SetVertexShaderDecl = 73, "SETVERTEXSHADERDECL";
    /// {Handle, Size} then the shader tokens.
    CreateVertexShaderFunc = 74, "CREATEVERTEXSHADERFUNC";
    /// {Handle}.
    DeleteVertexShaderFunc = 75, "DELETEVERTEXSHADERFUNC";
    /// {Handle}.
    SetVertexShaderFunc = 76, "SETVERTEXSHADERFUNC";
    /// Vertex shader integer constants.
    SetVertexShaderConstI = 77, "SETVERTEXSHADERCONSTI";
    /// `D3DHAL_DP2MULTIPLYTRANSFORM` {D3DTRANSFORMSTATETYPE, D3DMATRIX}: the transform becomes
    /// the matrix times the transform.
    MultiplyTransform = 65, "MULTIPLYTRANSFORM";
    /// Stream binding with a byte offset {Stream, VBHandle, Offset, Stride}.
    SetStreamSource2 = 80, "SETSTREAMSOURCE2";
    /// Vertex shader boolean constants.
    SetVertexShaderConstB = 83, "SETVERTEXSHADERCONSTB";
    /// Pixel shader integer constants.
    SetPixelShaderConstI = 93, "SETPIXELSHADERCONSTI";
    /// Pixel shader boolean constants.
    SetPixelShaderConstB = 94, "SETPIXELSHADERCONSTB";
}

/// `D3DRECTPATCH_INFO` (28 bytes). Basis and degree stay raw: checking them is the device's job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RectPatchInfo {
    /// First control column, in vertices.
    pub start_vertex_offset_width: u32,
    /// First control row, in vertices.
    pub start_vertex_offset_height: u32,
    /// Control points per row.
    pub width: u32,
    /// Control rows.
    pub height: u32,
    /// Vertices from one row to the next.
    pub stride: u32,
    /// `D3DBASISTYPE`: 0 Bezier, 1 B-spline, 2 Catmull-Rom.
    pub basis: u32,
    /// `D3DDEGREETYPE`: 1, 2, 3 or 5.
    pub degree: u32,
}

/// `D3DTRIPATCH_INFO` (16 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TriPatchInfo {
    /// First control point, in vertices.
    pub start_vertex_offset: u32,
    /// Control points (3, 10 or 21).
    pub num_vertices: u32,
    /// `D3DBASISTYPE`: only Bezier is valid.
    pub basis: u32,
    /// `D3DDEGREETYPE`: 1, 3 or 5.
    pub degree: u32,
}

/// One `D3DHAL_DP2DRAWRECTPATCH` record with what its flags say follows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RectPatch {
    /// The patch handle: 0 dynamic, anything else cacheable.
    pub handle: u32,
    /// The raw flags (bits other than HASSEGS and HASINFO are kept and ignored).
    pub flags: u32,
    /// Per-edge segments when HASSEGS is set.
    pub segments: Option<[f32; 4]>,
    /// The patch description when HASINFO is set.
    pub info: Option<RectPatchInfo>,
}

/// One `D3DHAL_DP2DRAWTRIPATCH` record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TriPatch {
    /// The patch handle.
    pub handle: u32,
    /// The raw flags.
    pub flags: u32,
    /// Per-edge segments when HASSEGS is set.
    pub segments: Option<[f32; 3]>,
    /// The patch description when HASINFO is set.
    pub info: Option<TriPatchInfo>,
}

/// A non-indexed draw (DRAWPRIMITIVE: `start` is a vertex index; DRAWPRIMITIVE2: a byte offset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawPrimitive {
    /// `D3DPRIMITIVETYPE`.
    pub primitive_type: u32,
    /// First vertex (index or byte offset by op).
    pub start: u32,
    /// Primitives to draw.
    pub primitive_count: u32,
}

/// An indexed draw (DRAWINDEXEDPRIMITIVE: vertex/index numbers; ...2: byte offsets).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawIndexedPrimitive {
    /// `D3DPRIMITIVETYPE`.
    pub primitive_type: u32,
    /// Added to every index (vertices, or bytes for the `2` op).
    pub base_vertex: i32,
    /// The smallest index used.
    pub min_index: u32,
    /// The vertex range used.
    pub num_vertices: u32,
    /// First index (index number, or bytes for the `2` op).
    pub start_index: u32,
    /// Primitives to draw.
    pub primitive_count: u32,
}

/// A stream binding; `offset` is 0 except for SETSTREAMSOURCE2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamSource {
    /// Stream number.
    pub stream: u32,
    /// Vertex buffer handle (0 unbinds).
    pub buffer: u32,
    /// Byte offset of vertex 0 in the buffer.
    pub offset: u32,
    /// Bytes per vertex.
    pub stride: u32,
}

/// Shader bytecode carried by CREATEVERTEXSHADERFUNC / CREATEPIXELSHADER, decoded by `dxso`.
#[derive(Clone, Debug, PartialEq)]
pub struct ShaderCreate {
    /// The handle it is created under.
    pub handle: u32,
    /// The decoded shader.
    pub shader: dxso::Shader,
    /// Its size in bytes.
    pub size: u32,
}

/// Constants for registers `register..register + values.len()`.
#[derive(Clone, Debug, PartialEq)]
pub struct Constants<T> {
    /// First register.
    pub register: u32,
    /// One entry per register.
    pub values: Vec<T>,
}

/// One `D3DHAL_DP2TEXTURESTAGESTATE` record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StageState {
    /// The texture stage (sampler): 0..=15 pixel, 257..=260 vertex.
    pub stage: u16,
    /// `D3DTSS_*` (the DDI numbering; see [`crate::device::tss`]).
    pub state: u16,
    /// The value (a texture buffer handle for `D3DTSS_TEXTUREMAP`).
    pub value: u32,
}

/// What a SETLIGHT record does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LightData {
    /// `D3DHAL_SETLIGHT_ENABLE`.
    Enable,
    /// `D3DHAL_SETLIGHT_DISABLE`.
    Disable,
    /// `D3DHAL_SETLIGHT_DATA`: the light's `D3DLIGHT7` (the same layout as `D3DLIGHT9`).
    Data(dxso_ffp::Light),
}

/// One SETLIGHT record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SetLight {
    /// The light index.
    pub index: u32,
    /// What it does.
    pub data: LightData,
}

/// A CLEAR command.
#[derive(Clone, Debug, PartialEq)]
pub struct Clear {
    /// `D3DCLEAR_*` flags.
    pub flags: u32,
    /// Fill colour (ARGB).
    pub color: u32,
    /// Fill depth.
    pub depth: f32,
    /// Fill stencil.
    pub stencil: u32,
    /// Rectangles {left, top, right, bottom}.
    pub rects: Vec<[i32; 4]>,
}

/// The typed payload of one command.
#[derive(Clone, Debug, PartialEq)]
pub enum CommandKind {
    /// {State, Value} pairs.
    RenderState(Vec<(u32, u32)>),
    /// {X, Y, Width, Height}.
    ViewportInfo(Vec<[u32; 4]>),
    /// {MinZ, MaxZ}.
    ZRange(Vec<[f32; 2]>),
    /// {left, top, right, bottom} (right and bottom exclusive).
    ScissorRect(Vec<[i32; 4]>),
    /// Texture-stage states.
    TextureStageState(Vec<StageState>),
    /// A clear.
    Clear(Clear),
    /// Stream bindings (SETSTREAMSOURCE, SETSTREAMSOURCE2).
    SetStreamSource(Vec<StreamSource>),
    /// User-memory stream bindings {Stream, Stride}.
    SetStreamSourceUm(Vec<(u32, u32)>),
    /// Index buffer bindings {Handle, Stride}.
    SetIndices(Vec<(u32, u32)>),
    /// Non-indexed draws.
    DrawPrimitive(Vec<DrawPrimitive>),
    /// Indexed draws.
    DrawIndexedPrimitive(Vec<DrawIndexedPrimitive>),
    /// Rect patches.
    DrawRectPatch(Vec<RectPatch>),
    /// Tri patches.
    DrawTriPatch(Vec<TriPatch>),
    /// Declarations {Handle, elements} (a trailing D3DDECL_END is dropped).
    CreateVertexShaderDecl(Vec<(u32, Vec<VertexElement>)>),
    /// Shader creation (vertex or pixel by op).
    CreateShader(Vec<ShaderCreate>),
    /// Set/delete ops that take only handles.
    Handles(Vec<u32>),
    /// Float constants (vertex or pixel by op).
    FloatConstants(Vec<Constants<[f32; 4]>>),
    /// Integer constants.
    IntConstants(Vec<Constants<[i32; 4]>>),
    /// Boolean constants.
    BoolConstants(Vec<Constants<u32>>),
    /// Materials (SETMATERIAL).
    SetMaterial(Vec<dxso_ffp::Material>),
    /// Light records (SETLIGHT).
    SetLight(Vec<SetLight>),
    /// {D3DTRANSFORMSTATETYPE, matrix} (SETTRANSFORM, MULTIPLYTRANSFORM).
    Transforms(Vec<(u32, [f32; 16])>),
    /// {Index, plane} (SETCLIPPLANE).
    ClipPlanes(Vec<(u32, [f32; 4])>),
}

/// One command: where it starts, its op, and its records.
#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    /// Byte offset of the header in the command buffer.
    pub offset: usize,
    /// The op.
    pub op: Op,
    /// The records.
    pub kind: CommandKind,
}

impl Command {
    /// How many records the header announced.
    pub fn record_count(&self) -> usize {
        match &self.kind {
            CommandKind::RenderState(v) => v.len(),
            CommandKind::ViewportInfo(v) => v.len(),
            CommandKind::ZRange(v) => v.len(),
            CommandKind::ScissorRect(v) => v.len(),
            CommandKind::TextureStageState(v) => v.len(),
            CommandKind::Clear(c) => c.rects.len(),
            CommandKind::SetStreamSource(v) => v.len(),
            CommandKind::SetStreamSourceUm(v) => v.len(),
            CommandKind::SetIndices(v) => v.len(),
            CommandKind::DrawPrimitive(v) => v.len(),
            CommandKind::DrawIndexedPrimitive(v) => v.len(),
            CommandKind::DrawRectPatch(v) => v.len(),
            CommandKind::DrawTriPatch(v) => v.len(),
            CommandKind::CreateVertexShaderDecl(v) => v.len(),
            CommandKind::CreateShader(v) => v.len(),
            CommandKind::Handles(v) => v.len(),
            CommandKind::FloatConstants(v) => v.len(),
            CommandKind::IntConstants(v) => v.len(),
            CommandKind::BoolConstants(v) => v.len(),
            CommandKind::SetMaterial(v) => v.len(),
            CommandKind::SetLight(v) => v.len(),
            CommandKind::Transforms(v) => v.len(),
            CommandKind::ClipPlanes(v) => v.len(),
        }
    }
}

/// A command buffer that cannot be read.
#[derive(Debug, Error, Clone, PartialEq)]
#[error("command buffer byte {offset}{}: {kind}", op.map(|o| format!(" ({})", o.name())).unwrap_or_default())]
pub struct ParseError {
    /// Byte offset where reading failed.
    pub offset: usize,
    /// The op being read, when the header was understood.
    pub op: Option<Op>,
    /// The rule broken.
    pub kind: ParseErrorKind,
}

/// What went wrong reading a command buffer.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ParseErrorKind {
    /// The op byte is not one this crate knows.
    #[error("unknown op {0}")]
    UnknownOp(u8),
    /// The buffer ends inside a header or record.
    #[error("truncated: {needed} bytes needed, {available} left")]
    Truncated {
        /// Bytes the record needs.
        needed: usize,
        /// Bytes left in the buffer.
        available: usize,
    },
    /// A vertex declaration longer than D3D9 allows.
    #[error("{0} vertex elements exceed the limit of {MAX_DECL_ELEMENTS}")]
    TooManyElements(u32),
    /// A SETLIGHT data type other than ENABLE (0), DISABLE (1) and DATA (2): the size of what
    /// follows is unknown.
    #[error("SETLIGHT data type {0} is not ENABLE (0), DISABLE (1) or DATA (2)")]
    BadLightDataType(u32),
    /// Shader bytecode `dxso` cannot decode.
    #[error("shader bytecode at byte {bytecode_offset}: {error}")]
    Shader {
        /// Byte offset of the bytecode in the command buffer.
        bytecode_offset: usize,
        /// The decoder's error.
        error: dxso::DecodeError,
    },
}

struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    op: Option<Op>,
}

impl<'a> Cursor<'a> {
    fn err(&self, kind: ParseErrorKind) -> ParseError {
        ParseError {
            offset: self.pos,
            op: self.op,
            kind,
        }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], ParseError> {
        let available = self.bytes.len() - self.pos;
        if n > available {
            return Err(self.err(ParseErrorKind::Truncated {
                needed: n,
                available,
            }));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, ParseError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn f32(&mut self) -> Result<f32, ParseError> {
        self.u32().map(f32::from_bits)
    }

    fn i32(&mut self) -> Result<i32, ParseError> {
        self.u32().map(|v| v as i32)
    }

    fn u32s<const N: usize>(&mut self) -> Result<[u32; N], ParseError> {
        let mut out = [0; N];
        match self.bytes.get(self.pos..self.pos + 4 * N) {
            // All present: one check for the N values.
            Some(b) => {
                for (o, v) in out.iter_mut().zip(b.chunks_exact(4)) {
                    *o = u32::from_le_bytes([v[0], v[1], v[2], v[3]]);
                }
                self.pos += 4 * N;
            }
            // Cut short: one at a time, so the error names the value that is.
            None => {
                for o in &mut out {
                    *o = self.u32()?;
                }
            }
        }
        Ok(out)
    }

    /// Reads `count` records of `size` bytes each, checking the whole run is present first so
    /// that a huge count costs nothing.
    fn records<T>(
        &mut self,
        count: usize,
        size: usize,
        read: impl FnMut(&mut Self) -> Result<T, ParseError>,
    ) -> Result<Vec<T>, ParseError> {
        let mut out = Vec::new();
        self.records_into(count, size, &mut out, read)?;
        Ok(out)
    }

    /// [`Cursor::records`] into `out` (emptied first, its capacity kept).
    fn records_into<T>(
        &mut self,
        count: usize,
        size: usize,
        out: &mut Vec<T>,
        mut read: impl FnMut(&mut Self) -> Result<T, ParseError>,
    ) -> Result<(), ParseError> {
        let available = self.bytes.len() - self.pos;
        if count.saturating_mul(size) > available {
            return Err(self.err(ParseErrorKind::Truncated {
                needed: count.saturating_mul(size),
                available,
            }));
        }
        // The count is bounded by the bytes present (checked above), so reserving it whole
        // is safe, and saves the regrowth of collecting through a `Result`.
        out.clear();
        out.reserve(count);
        for _ in 0..count {
            out.push(read(self)?);
        }
        Ok(())
    }

    fn constants<T>(
        &mut self,
        count: usize,
        per_register: usize,
        mut read: impl FnMut(&mut Self) -> Result<T, ParseError>,
    ) -> Result<Vec<Constants<T>>, ParseError> {
        let mut out = Vec::new();
        for _ in 0..count {
            let [register, n] = self.u32s::<2>()?;
            let values = self.records(n as usize, per_register, &mut read)?;
            out.push(Constants { register, values });
        }
        Ok(out)
    }
}

/// Parses a whole command buffer.
pub fn parse(bytes: &[u8]) -> Result<Vec<Command>, ParseError> {
    let mut commands = Vec::new();
    let mut reader = Commands::new(bytes);
    while let Some(c) = reader.next_command()? {
        commands.push(c);
    }
    Ok(commands)
}

/// A reader yielding one command at a time (stops at the first error).
pub struct Commands<'a> {
    cursor: Cursor<'a>,
}

impl<'a> Commands<'a> {
    /// A reader over `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Commands {
            cursor: Cursor {
                bytes,
                pos: 0,
                op: None,
            },
        }
    }

    /// The next command, `None` at the end of the buffer.
    pub fn next_command(&mut self) -> Result<Option<Command>, ParseError> {
        self.next_command_reusing(None)
    }

    /// [`Commands::next_command`], reusing the record list of `done` (a command the caller
    /// has finished with) when the next command is a rect-patch draw and so was `done`: a
    /// stream of patch draws then allocates no record list per command. The result is the
    /// same command either way.
    pub(crate) fn next_command_reusing(
        &mut self,
        done: Option<Command>,
    ) -> Result<Option<Command>, ParseError> {
        let c = &mut self.cursor;
        if c.pos == c.bytes.len() {
            return Ok(None);
        }
        c.op = None;
        let offset = c.pos;
        let header = c.take(4)?;
        let code = header[0];
        let count = u16::from_le_bytes([header[2], header[3]]) as usize;
        let Some(op) = Op::from_u8(code) else {
            c.pos = offset;
            return Err(c.err(ParseErrorKind::UnknownOp(code)));
        };
        c.op = Some(op);
        let kind = match (op, done) {
            (
                Op::DrawRectPatch,
                Some(Command {
                    kind: CommandKind::DrawRectPatch(mut records),
                    ..
                }),
            ) => {
                c.records_into(count, 8, &mut records, rect_patch)?;
                CommandKind::DrawRectPatch(records)
            }
            _ => read_payload(c, op, count)?,
        };
        Ok(Some(Command { offset, op, kind }))
    }
}

/// One `D3DHAL_DP2DRAWRECTPATCH` record with what its flags say follows.
fn rect_patch(c: &mut Cursor<'_>) -> Result<RectPatch, ParseError> {
    let [handle, flags] = c.u32s::<2>()?;
    let segments = if flags & HASSEGS != 0 {
        Some(c.u32s::<4>()?.map(f32::from_bits))
    } else {
        None
    };
    let info = if flags & HASINFO != 0 {
        let [w0, h0, width, height, stride, basis, degree] = c.u32s::<7>()?;
        Some(RectPatchInfo {
            start_vertex_offset_width: w0,
            start_vertex_offset_height: h0,
            width,
            height,
            stride,
            basis,
            degree,
        })
    } else {
        None
    };
    Ok(RectPatch {
        handle,
        flags,
        segments,
        info,
    })
}

/// A `D3DLIGHT7`: type, diffuse, specular, ambient, position, direction, range, falloff,
/// attenuation 0-2, theta, phi (104 bytes).
fn light(c: &mut Cursor<'_>) -> Result<dxso_ffp::Light, ParseError> {
    let ty = c.u32()?;
    let f = c.u32s::<25>()?.map(f32::from_bits);
    let v4 = |i: usize| [f[i], f[i + 1], f[i + 2], f[i + 3]];
    let v3 = |i: usize| [f[i], f[i + 1], f[i + 2]];
    Ok(dxso_ffp::Light {
        ty,
        diffuse: v4(0),
        specular: v4(4),
        ambient: v4(8),
        position: v3(12),
        direction: v3(15),
        range: f[18],
        falloff: f[19],
        attenuation0: f[20],
        attenuation1: f[21],
        attenuation2: f[22],
        theta: f[23],
        phi: f[24],
    })
}

fn read_payload(c: &mut Cursor<'_>, op: Op, count: usize) -> Result<CommandKind, ParseError> {
    use CommandKind as K;
    Ok(match op {
        Op::RenderState => K::RenderState(c.records(count, 8, |c| Ok((c.u32()?, c.u32()?)))?),
        Op::ViewportInfo => K::ViewportInfo(c.records(count, 16, |c| c.u32s::<4>())?),
        Op::ZRange => K::ZRange(c.records(count, 8, |c| Ok([c.f32()?, c.f32()?]))?),
        Op::SetScissorRect => {
            K::ScissorRect(c.records(count, 16, |c| Ok(c.u32s::<4>()?.map(|v| v as i32)))?)
        }
        Op::TextureStageState => K::TextureStageState(c.records(count, 8, |c| {
            let [stage_state, value] = c.u32s::<2>()?;
            Ok(StageState {
                stage: stage_state as u16,
                state: (stage_state >> 16) as u16,
                value,
            })
        })?),
        Op::Clear => {
            let [flags, color, depth, stencil] = c.u32s::<4>()?;
            let rects = c.records(count, 16, |c| Ok([c.i32()?, c.i32()?, c.i32()?, c.i32()?]))?;
            K::Clear(Clear {
                flags,
                color,
                depth: f32::from_bits(depth),
                stencil,
                rects,
            })
        }
        Op::SetStreamSource => K::SetStreamSource(c.records(count, 12, |c| {
            let [stream, buffer, stride] = c.u32s::<3>()?;
            Ok(StreamSource {
                stream,
                buffer,
                offset: 0,
                stride,
            })
        })?),
        Op::SetStreamSource2 => K::SetStreamSource(c.records(count, 16, |c| {
            let [stream, buffer, offset, stride] = c.u32s::<4>()?;
            Ok(StreamSource {
                stream,
                buffer,
                offset,
                stride,
            })
        })?),
        Op::SetStreamSourceUm => {
            K::SetStreamSourceUm(c.records(count, 8, |c| Ok((c.u32()?, c.u32()?)))?)
        }
        Op::SetIndices => K::SetIndices(c.records(count, 8, |c| Ok((c.u32()?, c.u32()?)))?),
        Op::DrawPrimitive | Op::DrawPrimitive2 => K::DrawPrimitive(c.records(count, 12, |c| {
            let [primitive_type, start, primitive_count] = c.u32s::<3>()?;
            Ok(DrawPrimitive {
                primitive_type,
                start,
                primitive_count,
            })
        })?),
        Op::DrawIndexedPrimitive | Op::DrawIndexedPrimitive2 => {
            K::DrawIndexedPrimitive(c.records(count, 24, |c| {
                let [primitive_type, base, min_index, num_vertices, start_index, primitive_count] =
                    c.u32s::<6>()?;
                Ok(DrawIndexedPrimitive {
                    primitive_type,
                    base_vertex: base as i32,
                    min_index,
                    num_vertices,
                    start_index,
                    primitive_count,
                })
            })?)
        }
        Op::DrawRectPatch => K::DrawRectPatch(c.records(count, 8, rect_patch)?),
        Op::DrawTriPatch => K::DrawTriPatch(c.records(count, 8, |c| {
            let [handle, flags] = c.u32s::<2>()?;
            let segments = if flags & HASSEGS != 0 {
                Some(c.u32s::<3>()?.map(f32::from_bits))
            } else {
                None
            };
            let info = if flags & HASINFO != 0 {
                let [start_vertex_offset, num_vertices, basis, degree] = c.u32s::<4>()?;
                Some(TriPatchInfo {
                    start_vertex_offset,
                    num_vertices,
                    basis,
                    degree,
                })
            } else {
                None
            };
            Ok(TriPatch {
                handle,
                flags,
                segments,
                info,
            })
        })?),
        Op::CreateVertexShaderDecl => K::CreateVertexShaderDecl(c.records(count, 8, |c| {
            let [handle, n] = c.u32s::<2>()?;
            if n > MAX_DECL_ELEMENTS + 1 {
                c.pos -= 4;
                return Err(c.err(ParseErrorKind::TooManyElements(n)));
            }
            let mut elements = c.records(n as usize, 8, |c| {
                let b = c.take(8)?;
                Ok(VertexElement::from_bytes(b.try_into().expect("8 bytes")))
            })?;
            if let Some(end) = elements.iter().position(VertexElement::is_end) {
                elements.truncate(end);
            }
            Ok((handle, elements))
        })?),
        Op::CreateVertexShaderFunc | Op::CreatePixelShader => {
            K::CreateShader(c.records(count, 8, |c| {
                let [handle, size] = c.u32s::<2>()?;
                let at = c.pos;
                let code = c.take(size as usize)?;
                let shader = dxso::decode(code).map_err(|error| ParseError {
                    offset: at,
                    op: c.op,
                    kind: ParseErrorKind::Shader {
                        bytecode_offset: at + error.dword * 4,
                        error,
                    },
                })?;
                Ok(ShaderCreate {
                    handle,
                    shader,
                    size,
                })
            })?)
        }
        Op::SetVertexShaderDecl
        | Op::DeleteVertexShaderDecl
        | Op::SetVertexShaderFunc
        | Op::DeleteVertexShaderFunc
        | Op::SetPixelShader
        | Op::DeletePixelShader
        | Op::CreateLight
        | Op::SetVertexShader => K::Handles(c.records(count, 4, |c| c.u32())?),
        Op::SetMaterial => K::SetMaterial(c.records(count, 68, |c| {
            let f = c.u32s::<17>()?.map(f32::from_bits);
            let v4 = |i: usize| [f[i], f[i + 1], f[i + 2], f[i + 3]];
            Ok(dxso_ffp::Material {
                diffuse: v4(0),
                ambient: v4(4),
                specular: v4(8),
                emissive: v4(12),
                power: f[16],
            })
        })?),
        Op::SetLight => K::SetLight(c.records(count, 8, |c| {
            let [index, ty] = c.u32s::<2>()?;
            let data = match ty {
                0 => LightData::Enable,
                1 => LightData::Disable,
                2 => LightData::Data(light(c)?),
                t => {
                    c.pos -= 4;
                    return Err(c.err(ParseErrorKind::BadLightDataType(t)));
                }
            };
            Ok(SetLight { index, data })
        })?),
        Op::SetTransform | Op::MultiplyTransform => K::Transforms(c.records(count, 68, |c| {
            let ty = c.u32()?;
            Ok((ty, c.u32s::<16>()?.map(f32::from_bits)))
        })?),
        Op::SetClipPlane => K::ClipPlanes(c.records(count, 20, |c| {
            let index = c.u32()?;
            Ok((index, c.u32s::<4>()?.map(f32::from_bits)))
        })?),
        Op::SetVertexShaderConst | Op::SetPixelShaderConst => {
            K::FloatConstants(
                c.constants(count, 16, |c| Ok([c.f32()?, c.f32()?, c.f32()?, c.f32()?]))?,
            )
        }
        Op::SetVertexShaderConstI | Op::SetPixelShaderConstI => {
            K::IntConstants(
                c.constants(count, 16, |c| Ok([c.i32()?, c.i32()?, c.i32()?, c.i32()?]))?,
            )
        }
        Op::SetVertexShaderConstB | Op::SetPixelShaderConstB => {
            K::BoolConstants(c.constants(count, 4, |c| c.u32())?)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command of `bytes` read with and without reusing the last one's records, and
    /// the error both stop at.
    fn read_both_ways(bytes: &[u8]) -> [(Vec<Command>, Option<ParseError>); 2] {
        [false, true].map(|reuse| {
            let mut reader = Commands::new(bytes);
            let (mut seen, mut done) = (Vec::new(), None);
            loop {
                let next = if reuse {
                    reader.next_command_reusing(done.take())
                } else {
                    reader.next_command()
                };
                match next {
                    Ok(Some(c)) => {
                        seen.push(c.clone());
                        done = Some(c);
                    }
                    Ok(None) => return (seen, None),
                    Err(e) => return (seen, Some(e)),
                }
            }
        })
    }

    #[test]
    fn reusing_a_commands_records_reads_the_same_commands() {
        let capture = crate::teapot::capture(8.0);
        let [plain, reused] = read_both_ways(&capture.commands);
        assert_eq!(plain, reused);
        let patch_draws = plain
            .0
            .iter()
            .filter(|c| matches!(c.kind, CommandKind::DrawRectPatch(_)))
            .count();
        assert_eq!(patch_draws, 64, "the teapot draws 64 patches");
        // Cut inside a command (every command is whole DWORDs): the same commands, then the
        // same error.
        let len = capture.commands.len();
        for cut in [len - 2, len / 8 * 4 + 2] {
            let [plain, reused] = read_both_ways(&capture.commands[..cut]);
            assert!(plain.1.is_some(), "cut at {cut} reads to the end");
            assert_eq!(plain, reused, "cut at {cut}");
        }
    }

    #[test]
    fn op_names_round_trip() {
        for &op in Op::ALL {
            assert_eq!(Op::from_u8(op as u8), Some(op));
            assert_eq!(Op::from_name(op.name()), Some(op));
        }
        assert_eq!(
            Op::from_name("D3DDP2OP_DRAWRECTPATCH"),
            Some(Op::DrawRectPatch)
        );
    }

    #[test]
    fn unknown_op_names_offset() {
        let e = parse(&[8, 0, 0, 0, 200, 0, 0, 0]).unwrap_err();
        assert_eq!(e.offset, 4);
        assert_eq!(e.kind, ParseErrorKind::UnknownOp(200));
    }

    #[test]
    fn huge_count_is_truncation_not_allocation() {
        let e = parse(&[8, 0, 0xFF, 0xFF]).unwrap_err();
        assert_eq!(e.op, Some(Op::RenderState));
        assert!(matches!(
            e.kind,
            ParseErrorKind::Truncated {
                needed: 524280,
                available: 0
            }
        ));
    }
}
