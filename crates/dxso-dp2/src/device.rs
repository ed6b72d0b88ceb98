//! The device state machine: consumes commands, keeps render states, streams, declarations,
//! shaders, constants and the patch-handle cache, and tessellates every draw.
//!
//! The cache follows seed 004 to the letter (see [`CacheAction`]): handle 0 is dynamic; an
//! unknown non-zero handle with HASINFO captures a copy of its control points; without
//! HASINFO it is ignored and nothing is allocated; a known handle with HASINFO re-captures;
//! a known handle without HASINFO draws from the cache and ignores the streams, HASSEGS still
//! overriding the segments. DELETERTPATCH frees a handle. Rect and tri patches share one
//! namespace of DWORD handles.

use crate::capture::Capture;
use crate::command::{
    Command, CommandKind, Commands, DrawIndexedPrimitive, DrawPrimitive, Op, ParseError, RectPatch,
    RectPatchInfo, TriPatch, TriPatchInfo,
};
use crate::decl::{DeclMethod, DeclType, DeclUsage, VertexElement};
use crate::domain::{self, Domain, EdgeStyle};
use crate::limits::{Limits, MAX_STREAMS};
use crate::mesh::{Attribute, Mesh};
use crate::surface::{
    evaluate_rect_into, normal_at, unit_normal, Axis, Basis, Evaluated, GridWeights, Need,
    SurfaceError,
};
use crate::tri::{self, cross, normalize, PnTriangle};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use thiserror::Error;

/// Render state numbers (`D3DRENDERSTATETYPE`) the device interprets.
pub mod rs {
    /// `D3DRS_PATCHEDGESTYLE`: 0 discrete, 1 continuous.
    pub const PATCHEDGESTYLE: u32 = 163;
    /// `D3DRS_PATCHSEGMENTS`: float bits, default 1.0.
    pub const PATCHSEGMENTS: u32 = 164;
    /// `D3DRS_DELETERTPATCH`: the handle to free.
    pub const DELETERTPATCH: u32 = 169;
    /// `D3DRS_POSITIONDEGREE`: N-patch position degree (default cubic).
    pub const POSITIONDEGREE: u32 = 172;
    /// `D3DRS_NORMALDEGREE`: N-patch normal degree (default linear).
    pub const NORMALDEGREE: u32 = 173;
}

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

/// A command the device cannot execute.
#[derive(Debug, Error, Clone, PartialEq)]
#[error("command at byte {offset} ({}), record {record}: {kind}", op.name())]
pub struct ExecError {
    /// Byte offset of the command.
    pub offset: usize,
    /// Its op.
    pub op: Op,
    /// The record within the command.
    pub record: usize,
    /// The rule broken.
    pub kind: ExecErrorKind,
}

fn first_error(report: &dxso::Report) -> String {
    let errors = report.errors().count();
    match report.errors().next() {
        Some(d) if errors > 1 => format!("{d} (and {} more)", errors - 1),
        Some(d) => d.to_string(),
        None => String::from("no errors"),
    }
}

/// Why a command cannot be executed.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ExecErrorKind {
    /// A CREATEVERTEXSHADERFUNC / CREATEPIXELSHADER whose bytecode `dxso::validate` rejects; the
    /// report says which rules it breaks (a driver refuses such a shader).
    #[error("shader {handle} is invalid: {}", first_error(report))]
    InvalidShader {
        /// The shader handle.
        handle: u32,
        /// The validator's findings.
        report: dxso::Report,
    },
    /// A stream number >= 16.
    #[error("stream {0} does not exist (16 streams)")]
    NoSuchStream(u32),
    /// A buffer handle the capture does not hold.
    #[error("buffer handle {0} is not in the capture")]
    NoSuchBuffer(u32),
    /// A declaration handle never created.
    #[error("vertex declaration {0} was never created")]
    NoSuchDecl(u32),
    /// A draw with no declaration set.
    #[error("no vertex declaration is set")]
    NoDecl,
    /// The declaration has no POSITION0 read from a stream.
    #[error("the vertex declaration has no POSITION0 element with method DEFAULT")]
    NoPosition,
    /// A declaration element type or method this crate does not know or support.
    #[error("vertex element {index}: {what}")]
    BadElement {
        /// Element index in the declaration.
        index: usize,
        /// The problem.
        what: String,
    },
    /// A draw reads a stream nothing is bound to.
    #[error("stream {0} is not bound")]
    StreamUnbound(u32),
    /// A stream's stride is smaller than its elements need.
    #[error(
        "stream {stream} stride {stride} is smaller than the {needed} bytes its elements need"
    )]
    StrideTooSmall {
        /// The stream.
        stream: u32,
        /// Its stride.
        stride: u32,
        /// Bytes the declaration reads per vertex.
        needed: u32,
    },
    /// A vertex read falls outside its buffer.
    #[error(
        "vertex {vertex} of stream {stream} reads bytes {start}..{end} of a {len}-byte buffer"
    )]
    OutOfBounds {
        /// The stream.
        stream: u32,
        /// The vertex index.
        vertex: u64,
        /// First byte read.
        start: u64,
        /// One past the last byte read.
        end: u64,
        /// The buffer length.
        len: usize,
    },
    /// A basis value other than 0, 1, 2.
    #[error("basis {0} is not Bezier (0), B-spline (1) or Catmull-Rom (2)")]
    BadBasis(u32),
    /// A forbidden basis/degree/size combination.
    #[error(transparent)]
    Surface(#[from] SurfaceError),
    /// Tri patches are Bezier only, degree 1, 3 or 5 with 3, 10 or 21 points.
    #[error("tri patch basis {basis} degree {degree} with {vertices} vertices: only Bezier degree 1, 3, 5 with 3, 10, 21 vertices")]
    BadTriPatch {
        /// Basis.
        basis: u32,
        /// Degree.
        degree: u32,
        /// NumVertices.
        vertices: u32,
    },
    /// A control grid side above the cap.
    #[error("control grid {width} x {height} exceeds the cap of {max} per side")]
    GridTooLarge {
        /// Width.
        width: u32,
        /// Height.
        height: u32,
        /// The cap.
        max: u32,
    },
    /// A NaN segment count.
    #[error("segment count is NaN")]
    NanSegments,
    /// A PATCHEDGESTYLE value other than 0 or 1.
    #[error("PATCHEDGESTYLE {0} is neither discrete (0) nor continuous (1)")]
    BadEdgeStyle(u32),
    /// A draw would exceed the per-draw output cap.
    #[error("the draw would make up to {needed} vertices, over the cap of {max}")]
    TooManyVertices {
        /// Bound on the output.
        needed: usize,
        /// The cap.
        max: usize,
    },
    /// The run would exceed its total output cap.
    #[error("the run would hold {needed} vertices, over the cap of {max}")]
    TotalTooLarge {
        /// Total after this draw.
        needed: usize,
        /// The cap.
        max: usize,
    },
    /// Shader constants past the register cap.
    #[error("constants {register}..{register}+{count} exceed the {max} registers")]
    ConstantOutOfRange {
        /// First register.
        register: u32,
        /// Count.
        count: usize,
        /// The cap.
        max: u32,
    },
    /// An index stride other than 2 or 4.
    #[error("index stride {0} is neither 2 nor 4")]
    BadIndexStride(u32),
    /// An indexed draw with no index buffer.
    #[error("no index buffer is set")]
    NoIndices,
    /// A primitive type outside 1..=6.
    #[error("primitive type {0} is not 1..6")]
    BadPrimitiveType(u32),
    /// A primitive count above the cap.
    #[error("{count} primitives exceed the cap of {max}")]
    TooManyPrimitives {
        /// Count.
        count: u32,
        /// The cap.
        max: u32,
    },
    /// A byte offset that is not a whole number of vertices or indices.
    #[error("byte offset {offset} is not a multiple of the stride {stride}")]
    Misaligned {
        /// The offset.
        offset: i64,
        /// The stride.
        stride: u32,
    },
    /// A cached handle drawn with the other patch op.
    #[error("handle {handle} holds a {held} patch, drawn as a {drawn} patch without HASINFO")]
    KindMismatch {
        /// The handle.
        handle: u32,
        /// What the cache holds.
        held: &'static str,
        /// What the draw asked for.
        drawn: &'static str,
    },
}

/// Any failure running a capture.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum RunError {
    /// The file.
    #[error(transparent)]
    Capture(#[from] crate::capture::CaptureError),
    /// The command buffer.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// Execution.
    #[error(transparent)]
    Exec(#[from] ExecError),
}

/// What a tessellated domain depends on: shape, segment counts (as bits), style, cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct DomainKey {
    tri: bool,
    segments: [u32; 4],
    continuous: bool,
    max: u32,
}

impl DomainKey {
    fn rect(segs: [f32; 4], style: EdgeStyle, max: u32) -> Self {
        DomainKey {
            tri: false,
            segments: segs.map(f32::to_bits),
            continuous: style == EdgeStyle::Continuous,
            max,
        }
    }

    fn tri(segs: [f32; 3], style: EdgeStyle, max: u32) -> Self {
        let s = segs.map(f32::to_bits);
        DomainKey {
            tri: true,
            segments: [s[0], s[1], s[2], 0],
            continuous: style == EdgeStyle::Continuous,
            max,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stream {
    Buffer {
        handle: u32,
        offset: u32,
        stride: u32,
    },
    UserMemory {
        stride: u32,
    },
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
    fn name(&self) -> &'static str {
        match self {
            PatchShape::Rect { .. } => "rect",
            PatchShape::Tri { .. } => "tri",
        }
    }
}

/// Shader constant registers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConstantFile {
    /// Float registers.
    pub float: Vec<[f32; 4]>,
    /// Integer registers.
    pub int: Vec<[i32; 4]>,
    /// Boolean registers.
    pub bool: Vec<u32>,
}

/// The device.
#[derive(Clone, Debug)]
pub struct Device {
    limits: Limits,
    buffers: HashMap<u32, Vec<u8>>,
    render_states: BTreeMap<u32, u32>,
    streams: [Option<Stream>; MAX_STREAMS as usize],
    indices: Option<(u32, u32)>,
    decls: HashMap<u32, Vec<VertexElement>>,
    decl: Option<u32>,
    vertex_shaders: HashMap<u32, dxso::Shader>,
    vertex_shader: Option<u32>,
    pixel_shaders: HashMap<u32, dxso::Shader>,
    pixel_shader: Option<u32>,
    /// Vertex shader constants.
    pub vs_constants: ConstantFile,
    /// Pixel shader constants.
    pub ps_constants: ConstantFile,
    viewport: Option<[u32; 4]>,
    zrange: Option<[f32; 2]>,
    patches: HashMap<u32, Arc<PatchData>>,
    total_vertices: usize,
    domains: HashMap<DomainKey, Arc<Domain>>,
    meshes: HashMap<u32, (DomainKey, Arc<Mesh>)>,
    weights: HashMap<(DomainKey, Axis, Axis), Arc<GridWeights>>,
    /// Meshes no one refers to any more, emptied, kept for their capacity (at most
    /// [`SPARE_MESHES`]).
    spare: Vec<Mesh>,
    /// Rect-patch evaluation results, reused from draw to draw.
    scratch: Vec<Evaluated>,
    /// The domain and grid weights of the last draw: consecutive draws usually share them,
    /// and comparing keys is cheaper than hashing them.
    last_domain: Option<(DomainKey, Arc<Domain>)>,
    last_weights: Option<((DomainKey, Axis, Axis), Arc<GridWeights>)>,
}

/// How many retired meshes a device keeps for reuse.
const SPARE_MESHES: usize = 256;

struct Ctx {
    offset: usize,
    op: Op,
    record: usize,
}

impl Ctx {
    fn err(&self, kind: ExecErrorKind) -> ExecError {
        ExecError {
            offset: self.offset,
            op: self.op,
            record: self.record,
            kind,
        }
    }
}

/// Parses and runs a whole capture with `limits` on a fresh device, returning every draw.
pub fn run(capture: &Capture, limits: Limits) -> Result<Vec<DrawReport>, RunError> {
    Device::new(limits).run_capture(capture)
}

impl Device {
    /// A device with default states and no buffers.
    pub fn new(limits: Limits) -> Device {
        let mut render_states = BTreeMap::new();
        render_states.insert(rs::PATCHSEGMENTS, 1.0f32.to_bits());
        render_states.insert(rs::PATCHEDGESTYLE, 0);
        render_states.insert(rs::POSITIONDEGREE, 3);
        render_states.insert(rs::NORMALDEGREE, 1);
        Device {
            limits,
            buffers: HashMap::new(),
            render_states,
            streams: [None; MAX_STREAMS as usize],
            indices: None,
            decls: HashMap::new(),
            decl: None,
            vertex_shaders: HashMap::new(),
            vertex_shader: None,
            pixel_shaders: HashMap::new(),
            pixel_shader: None,
            vs_constants: ConstantFile::default(),
            ps_constants: ConstantFile::default(),
            viewport: None,
            zrange: None,
            patches: HashMap::new(),
            total_vertices: 0,
            domains: HashMap::new(),
            meshes: HashMap::new(),
            weights: HashMap::new(),
            spare: Vec::new(),
            scratch: Vec::new(),
            last_domain: None,
            last_weights: None,
        }
    }

    /// Loads the capture's buffers and runs all its commands on this device, returning every
    /// draw. The capture is one run: its output-vertex budget
    /// ([`Limits::max_total_vertices`]) starts afresh. States, the patch cache and the
    /// tessellation caches carry over from earlier runs, as on a real device; a caller that
    /// runs many captures hands each run's draws back with [`Device::recycle`] so their
    /// meshes' memory is reused instead of allocated again.
    pub fn run_capture(&mut self, capture: &Capture) -> Result<Vec<DrawReport>, RunError> {
        self.total_vertices = 0;
        self.load_buffers(capture);
        let mut commands = Commands::new(&capture.commands);
        let mut draws = Vec::new();
        while let Some(c) = commands.next_command()? {
            draws.extend(self.execute(&c)?);
        }
        Ok(draws)
    }

    /// Takes back draws the caller is done with: meshes no longer shared (with other reports
    /// or the patch cache) are kept, emptied, to be filled by later draws.
    pub fn recycle(&mut self, draws: Vec<DrawReport>) {
        for d in draws {
            self.retire(d.mesh);
        }
    }

    /// Keeps a mesh for reuse if this was its last reference.
    fn retire(&mut self, mesh: Arc<Mesh>) {
        if let Ok(mut m) = Arc::try_unwrap(mesh) {
            if self.spare.len() < SPARE_MESHES {
                m.clear();
                self.spare.push(m);
            }
        }
    }

    /// Makes the capture's buffers available by handle.
    pub fn load_buffers(&mut self, capture: &Capture) {
        for b in &capture.buffers {
            self.buffers.insert(b.handle, b.bytes.clone());
        }
    }

    /// Replaces (or adds) one buffer: later draws see the new bytes, cached patches do not.
    pub fn set_buffer(&mut self, handle: u32, bytes: Vec<u8>) {
        self.buffers.insert(handle, bytes);
    }

    /// A render state's value (defaults included).
    pub fn render_state(&self, state: u32) -> Option<u32> {
        self.render_states.get(&state).copied()
    }

    /// The cached patch under `handle`.
    pub fn cached_patch(&self, handle: u32) -> Option<&PatchData> {
        self.patches.get(&handle).map(|p| p.as_ref())
    }

    /// How many handles the cache holds.
    pub fn cached_patch_count(&self) -> usize {
        self.patches.len()
    }

    /// The vertex shader created under `handle`.
    pub fn vertex_shader(&self, handle: u32) -> Option<&dxso::Shader> {
        self.vertex_shaders.get(&handle)
    }

    /// The pixel shader created under `handle`.
    pub fn pixel_shader(&self, handle: u32) -> Option<&dxso::Shader> {
        self.pixel_shaders.get(&handle)
    }

    /// The handles of the current vertex declaration, vertex shader and pixel shader.
    pub fn bound_handles(&self) -> (Option<u32>, Option<u32>, Option<u32>) {
        (self.decl, self.vertex_shader, self.pixel_shader)
    }

    /// The last viewport and depth range set.
    pub fn viewport(&self) -> (Option<[u32; 4]>, Option<[f32; 2]>) {
        (self.viewport, self.zrange)
    }

    /// Executes one command; returns a report per draw record.
    pub fn execute(&mut self, command: &Command) -> Result<Vec<DrawReport>, ExecError> {
        let mut ctx = Ctx {
            offset: command.offset,
            op: command.op,
            record: 0,
        };
        let mut draws = Vec::new();
        match &command.kind {
            CommandKind::RenderState(v) => {
                for &(state, value) in v {
                    if state == rs::DELETERTPATCH {
                        self.patches.remove(&value);
                        self.meshes.remove(&value);
                    } else {
                        self.render_states.insert(state, value);
                    }
                }
            }
            CommandKind::ViewportInfo(v) => self.viewport = v.last().copied().or(self.viewport),
            CommandKind::ZRange(v) => self.zrange = v.last().copied().or(self.zrange),
            CommandKind::Clear(_) => {}
            CommandKind::SetStreamSource(v) => {
                for (i, s) in v.iter().enumerate() {
                    ctx.record = i;
                    let slot = self.stream_slot(&ctx, s.stream)?;
                    *slot = (s.buffer != 0).then_some(Stream::Buffer {
                        handle: s.buffer,
                        offset: s.offset,
                        stride: s.stride,
                    });
                }
            }
            CommandKind::SetStreamSourceUm(v) => {
                for (i, &(stream, stride)) in v.iter().enumerate() {
                    ctx.record = i;
                    *self.stream_slot(&ctx, stream)? = Some(Stream::UserMemory { stride });
                }
            }
            CommandKind::SetIndices(v) => {
                for (i, &(handle, stride)) in v.iter().enumerate() {
                    ctx.record = i;
                    if handle == 0 {
                        self.indices = None;
                    } else if stride != 2 && stride != 4 {
                        return Err(ctx.err(ExecErrorKind::BadIndexStride(stride)));
                    } else {
                        self.indices = Some((handle, stride));
                    }
                }
            }
            CommandKind::CreateVertexShaderDecl(v) => {
                for (handle, elements) in v {
                    self.decls.insert(*handle, elements.clone());
                }
            }
            CommandKind::CreateShader(v) => {
                let table = if command.op == Op::CreatePixelShader {
                    &mut self.pixel_shaders
                } else {
                    &mut self.vertex_shaders
                };
                for (i, s) in v.iter().enumerate() {
                    ctx.record = i;
                    let report = dxso::validate(&s.shader);
                    if !report.is_valid() {
                        return Err(ctx.err(ExecErrorKind::InvalidShader {
                            handle: s.handle,
                            report,
                        }));
                    }
                    table.insert(s.handle, s.shader.clone());
                }
            }
            CommandKind::Handles(v) => {
                for (i, &h) in v.iter().enumerate() {
                    ctx.record = i;
                    self.handle_op(&ctx, command.op, h)?;
                }
            }
            CommandKind::FloatConstants(v) => {
                let max = self.limits.max_float_constants;
                let file = self.constants_for(command.op);
                for (i, c) in v.iter().enumerate() {
                    ctx.record = i;
                    store(&ctx, &mut file.float, c.register, &c.values, max)?;
                }
            }
            CommandKind::IntConstants(v) => {
                let max = self.limits.max_float_constants / 4;
                let file = self.constants_for(command.op);
                for (i, c) in v.iter().enumerate() {
                    ctx.record = i;
                    store(&ctx, &mut file.int, c.register, &c.values, max)?;
                }
            }
            CommandKind::BoolConstants(v) => {
                let max = self.limits.max_float_constants / 4;
                let file = self.constants_for(command.op);
                for (i, c) in v.iter().enumerate() {
                    ctx.record = i;
                    store(&ctx, &mut file.bool, c.register, &c.values, max)?;
                }
            }
            CommandKind::DrawRectPatch(v) => {
                for (i, p) in v.iter().enumerate() {
                    ctx.record = i;
                    draws.push(self.draw_rect_patch(&ctx, p)?);
                }
            }
            CommandKind::DrawTriPatch(v) => {
                for (i, p) in v.iter().enumerate() {
                    ctx.record = i;
                    draws.push(self.draw_tri_patch(&ctx, p)?);
                }
            }
            CommandKind::DrawPrimitive(v) => {
                for (i, d) in v.iter().enumerate() {
                    ctx.record = i;
                    draws.push(self.draw_primitive(&ctx, d)?);
                }
            }
            CommandKind::DrawIndexedPrimitive(v) => {
                for (i, d) in v.iter().enumerate() {
                    ctx.record = i;
                    draws.push(self.draw_indexed_primitive(&ctx, d)?);
                }
            }
        }
        Ok(draws)
    }

    fn constants_for(&mut self, op: Op) -> &mut ConstantFile {
        match op {
            Op::SetPixelShaderConst | Op::SetPixelShaderConstI | Op::SetPixelShaderConstB => {
                &mut self.ps_constants
            }
            _ => &mut self.vs_constants,
        }
    }

    fn stream_slot(&mut self, ctx: &Ctx, stream: u32) -> Result<&mut Option<Stream>, ExecError> {
        self.streams
            .get_mut(stream as usize)
            .ok_or_else(|| ctx.err(ExecErrorKind::NoSuchStream(stream)))
    }

    fn handle_op(&mut self, ctx: &Ctx, op: Op, h: u32) -> Result<(), ExecError> {
        match op {
            Op::SetVertexShaderDecl => {
                if h != 0 && !self.decls.contains_key(&h) {
                    return Err(ctx.err(ExecErrorKind::NoSuchDecl(h)));
                }
                self.decl = (h != 0).then_some(h);
            }
            Op::DeleteVertexShaderDecl => {
                self.decls.remove(&h);
                if self.decl == Some(h) {
                    self.decl = None;
                }
            }
            Op::SetVertexShaderFunc => self.vertex_shader = (h != 0).then_some(h),
            Op::DeleteVertexShaderFunc => {
                self.vertex_shaders.remove(&h);
            }
            Op::SetPixelShader => self.pixel_shader = (h != 0).then_some(h),
            Op::DeletePixelShader => {
                self.pixel_shaders.remove(&h);
            }
            _ => {}
        }
        Ok(())
    }

    fn edge_style(&self, ctx: &Ctx) -> Result<EdgeStyle, ExecError> {
        let v = self.render_state(rs::PATCHEDGESTYLE).unwrap_or(0);
        EdgeStyle::from_u32(v).ok_or_else(|| ctx.err(ExecErrorKind::BadEdgeStyle(v)))
    }

    fn patch_segments(&self, ctx: &Ctx) -> Result<f32, ExecError> {
        let s = f32::from_bits(self.render_state(rs::PATCHSEGMENTS).unwrap_or(0x3F80_0000));
        if s.is_nan() {
            return Err(ctx.err(ExecErrorKind::NanSegments));
        }
        Ok(s)
    }

    fn current_decl(&self, ctx: &Ctx) -> Result<Vec<VertexElement>, ExecError> {
        let h = self.decl.ok_or_else(|| ctx.err(ExecErrorKind::NoDecl))?;
        let d = self
            .decls
            .get(&h)
            .ok_or_else(|| ctx.err(ExecErrorKind::NoSuchDecl(h)))?;
        check_decl(ctx, d)?;
        Ok(d.clone())
    }

    /// Reads `count` vertices (by index function) of every DEFAULT element.
    fn fetch(
        &self,
        ctx: &Ctx,
        decl: &[VertexElement],
        count: usize,
        vertex: impl Fn(usize) -> u64,
    ) -> Result<Vec<Vec<[f32; 4]>>, ExecError> {
        let mut channels = Vec::with_capacity(decl.len());
        for e in decl {
            if e.method() != Some(DeclMethod::Default) {
                channels.push(Vec::new());
                continue;
            }
            let ty = e.decl_type().expect("checked by check_decl");
            let stream = e.stream as u32;
            let (bytes, base, stride) = self.stream_bytes(ctx, decl, stream)?;
            let size = ty.size() as u64;
            let mut values = Vec::with_capacity(count);
            for i in 0..count {
                let v = vertex(i);
                // 128-bit: index, stride and offsets all come from the stream.
                let start128 = base as u128 + v as u128 * stride as u128 + e.offset as u128;
                let start = u64::try_from(start128).unwrap_or(u64::MAX);
                let end = start.saturating_add(size);
                if end > bytes.len() as u64 {
                    return Err(ctx.err(ExecErrorKind::OutOfBounds {
                        stream,
                        vertex: v,
                        start,
                        end,
                        len: bytes.len(),
                    }));
                }
                values.push(ty.read(&bytes[start as usize..end as usize]));
            }
            channels.push(values);
        }
        Ok(channels)
    }

    /// The bytes, base offset and stride of a stream, with the stride checked against the
    /// declaration.
    fn stream_bytes(
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

    fn capture_rect(&self, ctx: &Ctx, info: &RectPatchInfo) -> Result<PatchData, ExecError> {
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
        let decl = self.current_decl(ctx)?;
        let w = info.width as u64;
        let channels = self.fetch(ctx, &decl, (info.width * info.height) as usize, |i| {
            let (r, c) = (i as u64 / w, i as u64 % w);
            (info.start_vertex_offset_height as u64 + r)
                .saturating_mul(info.stride as u64)
                .saturating_add(info.start_vertex_offset_width as u64 + c)
        })?;
        Ok(PatchData {
            shape: PatchShape::Rect {
                u,
                v,
                width: info.width,
                height: info.height,
            },
            decl,
            channels,
        })
    }

    fn capture_tri(&self, ctx: &Ctx, info: &TriPatchInfo) -> Result<PatchData, ExecError> {
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
        let decl = self.current_decl(ctx)?;
        let channels = self.fetch(ctx, &decl, info.num_vertices as usize, |i| {
            info.start_vertex_offset as u64 + i as u64
        })?;
        Ok(PatchData {
            shape: PatchShape::Tri {
                degree: info.degree,
            },
            decl,
            channels,
        })
    }

    /// The cache protocol shared by rect and tri draws: returns the patch to draw (if any)
    /// and what the cache did.
    fn resolve(
        &mut self,
        ctx: &Ctx,
        handle: u32,
        has_info: bool,
        capture: impl FnOnce(&Self) -> Result<PatchData, ExecError>,
        kind: &'static str,
    ) -> Result<(Option<Arc<PatchData>>, CacheAction), ExecError> {
        if !has_info {
            return match self.patches.get(&handle) {
                Some(p) if handle != 0 => {
                    if p.shape.name() != kind {
                        return Err(ctx.err(ExecErrorKind::KindMismatch {
                            handle,
                            held: p.shape.name(),
                            drawn: kind,
                        }));
                    }
                    Ok((Some(Arc::clone(p)), CacheAction::Cached))
                }
                _ => Ok((None, CacheAction::Ignored)),
            };
        }
        let data = Arc::new(capture(self)?);
        if handle == 0 {
            return Ok((Some(data), CacheAction::Dynamic));
        }
        let action = if self.patches.contains_key(&handle) {
            CacheAction::Updated
        } else {
            CacheAction::Created
        };
        self.patches.insert(handle, Arc::clone(&data));
        if let Some((_, old)) = self.meshes.remove(&handle) {
            self.retire(old);
        }
        Ok((Some(data), action))
    }

    fn segments<const N: usize>(
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

    fn draw_rect_patch(&mut self, ctx: &Ctx, p: &RectPatch) -> Result<DrawReport, ExecError> {
        let segs = self.segments(ctx, p.segments)?;
        let style = self.edge_style(ctx)?;
        let (data, action) = self.resolve(
            ctx,
            p.handle,
            p.info.is_some(),
            |d| d.capture_rect(ctx, p.info.as_ref().expect("has info")),
            "rect",
        )?;
        let max = self.limits.max_segments;
        let counts = segs.map(|s| domain::segment_count(s, style, max));
        let mut report = DrawReport {
            offset: ctx.offset,
            op: ctx.op,
            handle: Some(p.handle),
            cache: Some(action),
            segments: counts.to_vec(),
            mesh: Arc::default(),
        };
        if let Some(data) = data {
            self.check_output(ctx, domain::rect_vertex_bound(counts))?;
            let key = DomainKey::rect(segs, style, max);
            let d = self.domain(key, || domain::rect(segs, style, max));
            let w = match data.shape {
                PatchShape::Rect { u, v, .. } if d.grid.is_some() => {
                    Some(self.grid_weights(key, u, v, &d))
                }
                _ => None,
            };
            report.segments = d.edge_segments.clone();
            report.mesh = self.mesh_for(p.handle, key, action, |dev| {
                let mut mesh = dev.spare.pop().unwrap_or_default();
                tessellate_rect(ctx, &data, &d, w.as_deref(), &mut dev.scratch, &mut mesh)?;
                Ok(mesh)
            })?;
        }
        Ok(report)
    }

    fn draw_tri_patch(&mut self, ctx: &Ctx, p: &TriPatch) -> Result<DrawReport, ExecError> {
        let segs = self.segments(ctx, p.segments)?;
        let style = self.edge_style(ctx)?;
        let (data, action) = self.resolve(
            ctx,
            p.handle,
            p.info.is_some(),
            |d| d.capture_tri(ctx, p.info.as_ref().expect("has info")),
            "tri",
        )?;
        let max = self.limits.max_segments;
        let counts = segs.map(|s| domain::segment_count(s, style, max));
        let mut report = DrawReport {
            offset: ctx.offset,
            op: ctx.op,
            handle: Some(p.handle),
            cache: Some(action),
            segments: counts.to_vec(),
            mesh: Arc::default(),
        };
        if let Some(data) = data {
            self.check_output(ctx, domain::tri_vertex_bound(counts))?;
            let key = DomainKey::tri(segs, style, max);
            let d = self.domain(key, || domain::tri(segs, style, max));
            report.segments = d.edge_segments.clone();
            report.mesh =
                self.mesh_for(p.handle, key, action, |_| Ok(tessellate_tri(&data, &d)))?;
        }
        Ok(report)
    }

    /// The mesh of a patch draw: a cached handle redrawn with the same domain shares the mesh of
    /// its previous draw; otherwise `tessellate` builds it and the handle remembers it.
    fn mesh_for(
        &mut self,
        handle: u32,
        key: DomainKey,
        action: CacheAction,
        tessellate: impl FnOnce(&mut Self) -> Result<Mesh, ExecError>,
    ) -> Result<Arc<Mesh>, ExecError> {
        let mesh = match self.meshes.get(&handle) {
            Some((k, m)) if action == CacheAction::Cached && *k == key => Arc::clone(m),
            _ => {
                let m = Arc::new(tessellate(self)?);
                self.remember(handle, key, &m);
                m
            }
        };
        self.total_vertices += mesh.vertex_count();
        Ok(mesh)
    }

    /// Keeps the mesh a cacheable handle was last drawn with (handle 0 is never cached).
    fn remember(&mut self, handle: u32, key: DomainKey, mesh: &Arc<Mesh>) {
        if handle != 0 {
            if let Some((_, old)) = self.meshes.insert(handle, (key, Arc::clone(mesh))) {
                self.retire(old);
            }
        }
    }

    /// The tessellated domain for these counts, built once and reused: patches drawn with the
    /// same segments share it (at most 256 are kept).
    fn domain(&mut self, key: DomainKey, build: impl FnOnce() -> Domain) -> Arc<Domain> {
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
    fn grid_weights(&mut self, key: DomainKey, u: Axis, v: Axis, d: &Domain) -> Arc<GridWeights> {
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

    fn check_output(&self, ctx: &Ctx, bound: usize) -> Result<(), ExecError> {
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

    fn stream0_stride(&self, ctx: &Ctx) -> Result<u32, ExecError> {
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

    fn draw_primitive(&mut self, ctx: &Ctx, d: &DrawPrimitive) -> Result<DrawReport, ExecError> {
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

    fn draw_indexed_primitive(
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
    fn draw_vertices(
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

fn store<T: Clone + Default>(
    ctx: &Ctx,
    file: &mut Vec<T>,
    register: u32,
    values: &[T],
    max: u32,
) -> Result<(), ExecError> {
    let end = register as u64 + values.len() as u64;
    if end > max as u64 {
        return Err(ctx.err(ExecErrorKind::ConstantOutOfRange {
            register,
            count: values.len(),
            max,
        }));
    }
    if file.len() < end as usize {
        file.resize(end as usize, T::default());
    }
    file[register as usize..end as usize].clone_from_slice(values);
    Ok(())
}

fn vertices_for(ctx: &Ctx, ty: u32, count: u32, max: u32) -> Result<usize, ExecError> {
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

fn check_decl(ctx: &Ctx, decl: &[VertexElement]) -> Result<(), ExecError> {
    let bad = |index: usize, what: String| ctx.err(ExecErrorKind::BadElement { index, what });
    for (i, e) in decl.iter().enumerate() {
        match e.decl_type() {
            None => return Err(bad(i, format!("type {} is not a D3DDECLTYPE", e.ty))),
            Some(DeclType::Unused) => return Err(bad(i, "type UNUSED before the end".into())),
            Some(_) => {}
        }
        match e.method() {
            None => {
                return Err(bad(
                    i,
                    format!("method {} is not a D3DDECLMETHOD", e.method),
                ))
            }
            Some(m @ (DeclMethod::Lookup | DeclMethod::LookupPresampled)) => {
                return Err(bad(
                    i,
                    format!(
                        "method {} needs displacement-map sampling, which dxso-dp2 does not do",
                        m.name()
                    ),
                ))
            }
            Some(_) => {}
        }
        if e.stream as u32 >= MAX_STREAMS {
            return Err(ctx.err(ExecErrorKind::NoSuchStream(e.stream as u32)));
        }
    }
    if position_channel(decl).is_none() {
        return Err(ctx.err(ExecErrorKind::NoPosition));
    }
    Ok(())
}

fn position_channel(decl: &[VertexElement]) -> Option<usize> {
    decl.iter().position(|e| {
        e.usage == DeclUsage::Position as u8
            && e.usage_index == 0
            && e.method() == Some(DeclMethod::Default)
    })
}

/// The DEFAULT element a generated element derives from: same stream and offset, else
/// POSITION0.
fn input_channel(decl: &[VertexElement], e: &VertexElement) -> usize {
    decl.iter()
        .position(|d| {
            d.method() == Some(DeclMethod::Default) && d.stream == e.stream && d.offset == e.offset
        })
        .or_else(|| position_channel(decl))
        .expect("declarations are checked to have POSITION0")
}

fn xyz(v: [f32; 4]) -> [f32; 3] {
    [v[0], v[1], v[2]]
}

/// Where an output element goes in the mesh.
enum Slot {
    Position,
    Normal,
    Uv,
    Attribute,
}

fn slot(e: &VertexElement) -> Slot {
    match (e.decl_usage(), e.usage_index, e.method()) {
        (Some(DeclUsage::Position), 0, Some(DeclMethod::Default)) => Slot::Position,
        (Some(DeclUsage::Normal), 0, Some(DeclMethod::Default | DeclMethod::CrossUv)) => {
            Slot::Normal
        }
        (Some(DeclUsage::TexCoord), 0, Some(DeclMethod::Default | DeclMethod::Uv)) => Slot::Uv,
        _ => Slot::Attribute,
    }
}

/// Builds a new mesh from evaluated channels (see [`assemble_into`]).
fn assemble(
    decl: &[VertexElement],
    mut evaluated: Vec<Evaluated>,
    points: &[[f32; 2]],
    fix_normal: impl Fn(usize, usize) -> [f32; 3],
) -> Mesh {
    let mut mesh = Mesh::default();
    assemble_into(decl, &mut evaluated, points, fix_normal, &mut mesh);
    mesh
}

/// Fills `mesh` (emptied first, its capacity kept) from evaluated channels, copying so the
/// evaluation buffers and the mesh can both be reused. `fix_normal(c, i)` recomputes a
/// degenerate CROSSUV normal of channel `c` at vertex `i`; the fix is written back into the
/// channel, so several CROSSUV elements reading one channel see the same normals.
fn assemble_into(
    decl: &[VertexElement],
    evaluated: &mut [Evaluated],
    points: &[[f32; 2]],
    fix_normal: impl Fn(usize, usize) -> [f32; 3],
    mesh: &mut Mesh,
) {
    mesh.clear();
    // Whether the mesh's own arrays are taken (the first element of each slot fills them).
    let (mut positions, mut normals, mut uvs) = (false, false, false);
    for (index, e) in decl.iter().enumerate() {
        let method = e.method().unwrap_or(DeclMethod::Default);
        let slot = slot(e);
        let values: Vec<[f32; 4]> = match method {
            DeclMethod::Default => {
                let v = &evaluated[index].value;
                match slot {
                    Slot::Position if !positions => {
                        positions = true;
                        mesh.positions.extend(v.iter().map(|&p| xyz(p)));
                        continue;
                    }
                    Slot::Normal if !normals => {
                        normals = true;
                        mesh.normals.extend(v.iter().map(|&n| xyz(n)));
                        continue;
                    }
                    Slot::Uv if !uvs => {
                        uvs = true;
                        mesh.uvs.extend(v.iter().map(|x| [x[0], x[1]]));
                        continue;
                    }
                    _ => v.clone(),
                }
            }
            DeclMethod::CrossUv => {
                let c = input_channel(decl, e);
                for i in 0..evaluated[c].normal.len() {
                    if evaluated[c].normal[i][0].is_nan() {
                        evaluated[c].normal[i] = fix_normal(c, i);
                    }
                }
                if matches!(slot, Slot::Normal) && !normals {
                    normals = true;
                    // The last CROSSUV reading this channel trades arrays with the mesh
                    // (which is empty) instead of copying; both keep their capacity.
                    let later = decl[index + 1..].iter().any(|l| {
                        l.method() == Some(DeclMethod::CrossUv) && input_channel(decl, l) == c
                    });
                    if later {
                        mesh.normals.extend_from_slice(&evaluated[c].normal);
                    } else {
                        std::mem::swap(&mut mesh.normals, &mut evaluated[c].normal);
                    }
                    continue;
                }
                let n = &evaluated[c].normal;
                n.iter().map(|n| [n[0], n[1], n[2], 0.0]).collect()
            }
            DeclMethod::PartialU => evaluated[input_channel(decl, e)].du.clone(),
            DeclMethod::PartialV => evaluated[input_channel(decl, e)].dv.clone(),
            DeclMethod::Uv => {
                if matches!(slot, Slot::Uv) && !uvs {
                    uvs = true;
                    mesh.uvs.extend_from_slice(points);
                    continue;
                }
                points.iter().map(|p| [p[0], p[1], 0.0, 1.0]).collect()
            }
            DeclMethod::Lookup | DeclMethod::LookupPresampled => continue,
        };
        mesh.attributes.push(Attribute {
            usage: e.usage,
            usage_index: e.usage_index,
            method: e.method,
            values,
        });
    }
}

/// Per channel: which derived quantities the generated elements of `decl` need.
fn needs(decl: &[VertexElement]) -> Vec<Need> {
    let mut need = vec![Need::default(); decl.len()];
    for e in decl {
        match e.method() {
            Some(DeclMethod::CrossUv) => need[input_channel(decl, e)].normal = true,
            Some(DeclMethod::PartialU | DeclMethod::PartialV) => {
                need[input_channel(decl, e)].partials = true
            }
            _ => {}
        }
    }
    need
}

/// Tessellates a rect patch over a domain into `mesh`, evaluating into `scratch`; both keep
/// their capacity from earlier draws.
fn tessellate_rect(
    ctx: &Ctx,
    data: &PatchData,
    d: &Domain,
    weights: Option<&GridWeights>,
    scratch: &mut Vec<Evaluated>,
    mesh: &mut Mesh,
) -> Result<(), ExecError> {
    let PatchShape::Rect { u, v, width, .. } = data.shape else {
        return Err(ctx.err(ExecErrorKind::KindMismatch {
            handle: 0,
            held: "tri",
            drawn: "rect",
        }));
    };
    let chans: Vec<&[[f32; 4]]> = data.channels.iter().map(|c| c.as_slice()).collect();
    evaluate_rect_into(
        &u,
        &v,
        width as usize,
        &chans,
        &needs(&data.decl),
        d,
        weights,
        scratch,
    );
    let fix = |c: usize, i: usize| {
        // At a degenerate point (a pole where a whole edge collapses), take the normal a
        // little way towards the patch centre.
        let p = d.points[i];
        let (pu, pv) = (p[0] + (0.5 - p[0]) * 1e-3, p[1] + (0.5 - p[1]) * 1e-3);
        let n = normal_at(&u, &v, width as usize, chans[c], pu, pv);
        if n[0].is_nan() {
            [0.0; 3]
        } else {
            n
        }
    };
    assemble_into(&data.decl, scratch, &d.points, fix, mesh);
    mesh.indices.extend_from_slice(&d.indices);
    Ok(())
}

fn eval_tri_channels(
    degree: usize,
    data: &PatchData,
    needs: &[Need],
    points: &[[f32; 2]],
) -> Vec<Evaluated> {
    data.channels
        .iter()
        .zip(needs)
        .map(|(ch, &need)| {
            let mut e = Evaluated::default();
            if ch.is_empty() {
                return e;
            }
            for p in points {
                let (val, du, dv) = tri::evaluate(degree, ch, [1.0 - p[0] - p[1], p[0], p[1]]);
                e.value.push(val);
                if need.partials {
                    e.du.push(du);
                    e.dv.push(dv);
                }
                if need.normal {
                    e.normal.push(unit_normal(&du, &dv));
                }
            }
            e
        })
        .collect()
}

/// Tessellates a tri patch over a domain.
fn tessellate_tri(data: &PatchData, d: &Domain) -> Mesh {
    let PatchShape::Tri { degree } = data.shape else {
        return Mesh::default();
    };
    let evaluated = eval_tri_channels(degree as usize, data, &needs(&data.decl), &d.points);
    let fix = |c: usize, i: usize| {
        let p = d.points[i];
        let q = [
            p[0] + (1.0 / 3.0 - p[0]) * 1e-3,
            p[1] + (1.0 / 3.0 - p[1]) * 1e-3,
        ];
        let (_, du, dv) = tri::evaluate(
            degree as usize,
            &data.channels[c],
            [1.0 - q[0] - q[1], q[0], q[1]],
        );
        normalize(cross(xyz(du), xyz(dv))).unwrap_or([0.0; 3])
    };
    let mut mesh = assemble(&data.decl, evaluated, &d.points, fix);
    mesh.indices = d.indices.clone();
    mesh
}

/// Copies the DEFAULT elements of the vertices in `order` into a mesh (no tessellation).
fn assemble_plain(decl: &[VertexElement], channels: &[Vec<[f32; 4]>], order: &[usize]) -> Mesh {
    let evaluated: Vec<Evaluated> = channels
        .iter()
        .map(|c| Evaluated {
            value: if c.is_empty() {
                Vec::new()
            } else {
                order.iter().map(|&i| c[i]).collect()
            },
            ..Evaluated::default()
        })
        .collect();
    let only_default: Vec<VertexElement> = decl
        .iter()
        .copied()
        .filter(|e| e.method() == Some(DeclMethod::Default))
        .collect();
    let evaluated: Vec<Evaluated> = decl
        .iter()
        .zip(evaluated)
        .filter(|(e, _)| e.method() == Some(DeclMethod::Default))
        .map(|(_, v)| v)
        .collect();
    assemble(&only_default, evaluated, &[], |_, _| [0.0; 3])
}

/// N-patches: every input triangle becomes a PN triangle tessellated over `d`. Positions are
/// cubic (or linear), NORMAL0 linear or quadratic, every other DEFAULT element linear.
fn tessellate_npatches(
    decl: &[VertexElement],
    channels: &[Vec<[f32; 4]>],
    triangles: &[[usize; 3]],
    d: &Domain,
    cubic: bool,
    quadratic: bool,
) -> Mesh {
    let pos = position_channel(decl).expect("checked");
    let normal = decl.iter().position(|e| {
        e.usage == DeclUsage::Normal as u8
            && e.usage_index == 0
            && e.method() == Some(DeclMethod::Default)
    });
    let mut mesh = Mesh::default();
    let others: Vec<usize> = (0..decl.len())
        .filter(|&i| i != pos && Some(i) != normal && decl[i].method() == Some(DeclMethod::Default))
        .collect();
    let mut other_values: Vec<Vec<[f32; 4]>> = vec![Vec::new(); others.len()];
    for t in triangles {
        let p = t.map(|i| xyz(channels[pos][i]));
        let n = t.map(|i| normal.map_or([0.0; 3], |c| xyz(channels[c][i])));
        let pn = PnTriangle::new(p, n);
        let base = mesh.positions.len() as u32;
        for q in &d.points {
            let b = [1.0 - q[0] - q[1], q[0], q[1]];
            mesh.positions.push(pn.position(b, cubic));
            if normal.is_some() {
                mesh.normals.push(pn.normal(b, quadratic));
            }
            for (k, &c) in others.iter().enumerate() {
                let v = t.map(|i| channels[c][i]);
                let mut x = [0.0; 4];
                for m in 0..4 {
                    x[m] = b[0] * v[0][m] + b[1] * v[1][m] + b[2] * v[2][m];
                }
                other_values[k].push(x);
            }
        }
        mesh.indices.extend(d.indices.iter().map(|i| base + i));
    }
    for (k, &c) in others.iter().enumerate() {
        let e = &decl[c];
        let values = std::mem::take(&mut other_values[k]);
        if e.usage == DeclUsage::TexCoord as u8 && e.usage_index == 0 && mesh.uvs.is_empty() {
            mesh.uvs = values.iter().map(|v| [v[0], v[1]]).collect();
        } else {
            mesh.attributes.push(Attribute {
                usage: e.usage,
                usage_index: e.usage_index,
                method: e.method,
                values,
            });
        }
    }
    mesh
}
