//! The device state machine: consumes commands, keeps render states, streams, declarations,
//! shaders, constants and the patch-handle cache, and tessellates every draw.
//!
//! The cache follows Microsoft's `D3DHAL_DP2DRAWRECTPATCH` page to the letter (see [`CacheAction`]): handle 0 is dynamic; an
//! unknown non-zero handle with HASINFO captures a copy of its control points; without
//! HASINFO it is ignored and nothing is allocated; a known handle with HASINFO re-captures;
//! a known handle without HASINFO draws from the cache and ignores the streams, HASSEGS still
//! overriding the segments. DELETERTPATCH frees a handle. Rect and tri patches share one
//! namespace of DWORD handles.
//!
//! A consumer that turns draws into pixels runs a capture with [`Device::run_capture_with`]: it
//! sees every CLEAR and every draw in stream order, with the device's state (render states,
//! viewport, shaders, constants, textures, sampler states) as of that command.
//!
//! The code is split by idea: [`rs`] and [`tss`] (the state tables), `error` (what can fail),
//! `state` (streams, constants, textures, sampler states, handle ops), `fetch` (vertex reads by declaration), `cache` (the patch-handle
//! cache and the tessellation caches), `draw` (draw records to [`DrawReport`]s), `assemble`
//! (evaluated channels to meshes). Everything public is re-exported here.

mod assemble;
mod cache;
mod draw;
mod error;
mod fetch;
mod handles;
mod records;
pub mod rs;
mod state;
pub mod tss;

pub use error::{ExecError, ExecErrorKind, RunError};
pub use records::{CacheAction, DrawReport, PatchData, PatchShape};
pub use state::ConstantFile;

use crate::capture::Capture;
use crate::command::{Clear, Command, CommandKind, Commands, LightData, Op};
use crate::decl::VertexElement;
use crate::domain::Domain;
use crate::limits::{Limits, MAX_STREAMS};
use crate::mesh::Mesh;
use crate::surface::{Axis, Evaluated, GridWeights, RectScratch};
use crate::texture::Texture;
use cache::{CachedPatch, DomainKey};
use handles::HandleMap;
use state::{store, Stream};
use std::collections::HashMap;
use std::sync::Arc;

/// The device.
#[derive(Clone, Debug)]
pub struct Device {
    limits: Limits,
    buffers: HandleMap<Vec<u8>>,
    render_states: HandleMap<u32>,
    streams: [Option<Stream>; MAX_STREAMS as usize],
    indices: Option<(u32, u32)>,
    /// Declarations by handle, each with whether it passed `fetch::decl_problem` (checked
    /// once when created, not at every capture).
    decls: HandleMap<(Vec<VertexElement>, bool)>,
    decl: Option<u32>,
    vertex_shaders: HashMap<u32, Arc<dxso::Shader>>,
    vertex_shader: Option<u32>,
    pixel_shaders: HashMap<u32, Arc<dxso::Shader>>,
    pixel_shader: Option<u32>,
    /// Vertex shader constants.
    pub vs_constants: ConstantFile,
    /// Pixel shader constants.
    pub ps_constants: ConstantFile,
    viewport: Option<[u32; 4]>,
    scissor: Option<[i32; 4]>,
    zrange: Option<[f32; 2]>,
    /// Texture bindings per stage: the buffer handle and the texture read from it.
    textures: HashMap<u32, (u32, Arc<Texture>)>,
    /// Texture-stage and sampler states set, by (stage, state).
    stage_values: HashMap<(u32, u32), u32>,
    /// The patch cache: per handle, the captured patch and the mesh last drawn from it.
    patches: HandleMap<CachedPatch>,
    total_vertices: usize,
    domains: HashMap<DomainKey, Arc<Domain>>,
    weights: HashMap<(DomainKey, Axis, Axis), Arc<GridWeights>>,
    /// Meshes no one refers to any more, kept for their capacity (at most [`SPARE_MESHES`]),
    /// each emptied or, with the key of a domain, still holding that domain's triangle list
    /// and points as uvs (all else emptied when it is refilled).
    spare: Vec<(Arc<Mesh>, Option<DomainKey>)>,
    /// Recycled reports' segment lists, emptied (at most [`SPARE_MESHES`]).
    spare_segments: Vec<Vec<u32>>,
    /// Captured patches a replaced cache entry left, kept for their arrays (captures read the
    /// device through `&self`, hence the cell).
    spare_patches: std::cell::RefCell<Vec<Arc<PatchData>>>,
    /// Rect-patch evaluation results and row buffers, reused from draw to draw.
    scratch: Vec<Evaluated>,
    rows: RectScratch,
    /// The domain and grid weights of the last draw: consecutive draws usually share them,
    /// and comparing keys is cheaper than hashing them.
    last_domain: Option<(DomainKey, Arc<Domain>)>,
    last_weights: Option<((DomainKey, Axis, Axis), Arc<GridWeights>)>,
    /// How many draws the last [`Device::run_capture`] returned.
    last_draw_count: usize,
    /// The fixed-function state: transforms, material, lights, clip planes, the FVF code and
    /// the render and texture-stage states the fixed-function pipeline reads.
    ffp: dxso_ffp::FfpState,
    /// The FVF set by SETVERTEXSHADER and its declaration (`None` when a declaration handle
    /// is current, or nothing is).
    fvf: Option<(u32, Vec<VertexElement>)>,
}

/// Whoever turns a device's draws into something (pixels, files, counts), called in stream
/// order by [`Device::run_capture_with`].
pub trait Consumer {
    /// The consumer's error; the device's own errors convert into it.
    type Error: From<RunError>;

    /// A CLEAR command at byte `offset` of the command buffer.
    fn clear(&mut self, device: &Device, offset: usize, clear: &Clear) -> Result<(), Self::Error>;

    /// One draw record, tessellated or assembled.
    fn draw(&mut self, device: &Device, draw: DrawReport) -> Result<(), Self::Error>;
}

/// The consumer behind [`Device::run_capture`]: keeps every draw.
struct Collect(Vec<DrawReport>);

impl Consumer for Collect {
    type Error = RunError;

    fn clear(&mut self, _: &Device, _: usize, _: &Clear) -> Result<(), RunError> {
        Ok(())
    }

    fn draw(&mut self, _: &Device, draw: DrawReport) -> Result<(), RunError> {
        self.0.push(draw);
        Ok(())
    }
}

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

fn light_index(ctx: &Ctx, index: u32) -> Result<(), ExecError> {
    if index >= crate::limits::MAX_LIGHT_INDEX {
        return Err(ctx.err(ExecErrorKind::LightIndex {
            index,
            max: crate::limits::MAX_LIGHT_INDEX,
        }));
    }
    Ok(())
}

/// Parses and runs a whole capture with `limits` on a fresh device, returning every draw.
pub fn run(capture: &Capture, limits: Limits) -> Result<Vec<DrawReport>, RunError> {
    Device::new(limits).run_capture(capture)
}

impl Device {
    /// A device with default states and no buffers.
    pub fn new(limits: Limits) -> Device {
        let mut render_states = HandleMap::default();
        for s in rs::TABLE {
            if let Some(default) = s.default {
                render_states.insert(s.number, default);
            }
        }
        Device {
            limits,
            buffers: HandleMap::default(),
            render_states,
            streams: [None; MAX_STREAMS as usize],
            indices: None,
            decls: HandleMap::default(),
            decl: None,
            vertex_shaders: HashMap::new(),
            vertex_shader: None,
            pixel_shaders: HashMap::new(),
            pixel_shader: None,
            vs_constants: ConstantFile::default(),
            ps_constants: ConstantFile::default(),
            viewport: None,
            scissor: None,
            zrange: None,
            textures: HashMap::new(),
            stage_values: HashMap::new(),
            patches: HandleMap::default(),
            total_vertices: 0,
            domains: HashMap::new(),
            weights: HashMap::new(),
            spare: Vec::new(),
            spare_segments: Vec::new(),
            spare_patches: Default::default(),
            scratch: Vec::new(),
            rows: RectScratch::default(),
            last_domain: None,
            last_weights: None,
            last_draw_count: 0,
            ffp: dxso_ffp::FfpState {
                fvf: 0,
                ..dxso_ffp::FfpState::default()
            },
            fvf: None,
        }
    }

    /// The fixed-function state as of the last command, borrowed (stages' textures unset; see
    /// [`Device::ffp_state`]).
    pub fn fixed_function(&self) -> &dxso_ffp::FfpState {
        &self.ffp
    }

    /// The fixed-function state as of the last command, with the stages' bound textures
    /// (capture textures are 2D).
    pub fn ffp_state(&self) -> dxso_ffp::FfpState {
        let mut s = self.ffp.clone();
        for (n, stage) in s.stages.iter_mut().enumerate() {
            stage.texture = self
                .textures
                .contains_key(&(n as u32))
                .then_some(dxso_ffp::TextureKind::Flat);
        }
        s
    }

    /// The current vertex declaration: the FVF's when SETVERTEXSHADER set one last, else the
    /// declaration handle's (`None` when neither is set or the handle is unknown).
    pub fn vertex_declaration(&self) -> Option<&[VertexElement]> {
        match (&self.fvf, self.decl) {
            (Some((_, elements)), None) => Some(elements),
            (_, Some(h)) => self.decls.get(&h).map(|(d, _)| &d[..]),
            _ => None,
        }
    }

    /// The FVF code set by SETVERTEXSHADER, when it (not a declaration) is current.
    pub fn fvf(&self) -> Option<u32> {
        self.fvf.as_ref().map(|(code, _)| *code)
    }

    /// Loads the capture's buffers and runs all its commands on this device, returning every
    /// draw. The capture is one run: its output-vertex budget
    /// ([`Limits::max_total_vertices`]) starts afresh. States, the patch cache and the
    /// tessellation caches carry over from earlier runs, as on a real device; a caller that
    /// runs many captures hands each run's draws back with [`Device::recycle`] so their
    /// meshes' memory is reused instead of allocated again.
    pub fn run_capture(&mut self, capture: &Capture) -> Result<Vec<DrawReport>, RunError> {
        // Room for as many draws as the last run had (capped), so that a stream run again
        // and again does not grow its report list step by step each time.
        let mut draws = Collect(Vec::with_capacity(self.last_draw_count.min(4096)));
        self.run_capture_with(capture, &mut draws)?;
        self.last_draw_count = draws.0.len();
        Ok(draws.0)
    }

    /// Runs a capture as [`Device::run_capture`] does, handing every CLEAR and every draw to
    /// `consumer` as it happens, with this device (and so its state as of that command).
    pub fn run_capture_with<C: Consumer>(
        &mut self,
        capture: &Capture,
        consumer: &mut C,
    ) -> Result<(), C::Error> {
        self.total_vertices = 0;
        self.load_buffers(capture);
        let mut commands = Commands::new(&capture.commands);
        // One report vector for the whole run: draws are handed on as they happen.
        let mut draws = Vec::new();
        // The last command run: the next one may reuse its record list.
        let mut done = None;
        while let Some(c) = commands
            .next_command_reusing(done.take())
            .map_err(RunError::from)?
        {
            if let CommandKind::Clear(clear) = &c.kind {
                consumer.clear(self, c.offset, clear)?;
                continue;
            }
            self.execute_into(&c, &mut draws).map_err(RunError::from)?;
            for draw in draws.drain(..) {
                consumer.draw(self, draw)?;
            }
            done = Some(c);
        }
        Ok(())
    }

    /// Makes the capture's buffers available by handle.
    pub fn load_buffers(&mut self, capture: &Capture) {
        for b in &capture.buffers {
            // A buffer this device already has is overwritten in place (no new allocation).
            let bytes = self.buffers.get_or_insert_with(b.handle, Vec::new);
            bytes.clear();
            bytes.extend_from_slice(&b.bytes);
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
        self.patches.get(&handle).map(|p| p.data.as_ref())
    }

    /// How many handles the cache holds.
    pub fn cached_patch_count(&self) -> usize {
        self.patches.len()
    }

    /// The vertex shader created under `handle`.
    pub fn vertex_shader(&self, handle: u32) -> Option<&dxso::Shader> {
        self.vertex_shaders.get(&handle).map(|s| s.as_ref())
    }

    /// The pixel shader created under `handle`.
    pub fn pixel_shader(&self, handle: u32) -> Option<&dxso::Shader> {
        self.pixel_shaders.get(&handle).map(|s| s.as_ref())
    }

    /// The bound vertex and pixel shaders. Each is shared until its handle is created again,
    /// so a consumer can keep work derived from one keyed by [`Arc::ptr_eq`].
    pub fn bound_shaders(&self) -> (Option<&Arc<dxso::Shader>>, Option<&Arc<dxso::Shader>>) {
        let vs = self.vertex_shader.and_then(|h| self.vertex_shaders.get(&h));
        let ps = self.pixel_shader.and_then(|h| self.pixel_shaders.get(&h));
        (vs, ps)
    }

    /// The texture bound to `stage` (0..=15 pixel samplers, 257..=260 vertex samplers) and the
    /// handle of its buffer.
    pub fn texture(&self, stage: u32) -> Option<(u32, &Arc<Texture>)> {
        self.textures.get(&stage).map(|(h, t)| (*h, t))
    }

    /// A texture-stage or sampler state of `stage` ([`tss`]): the value set, else its
    /// Direct3D 9 default, else `None`.
    pub fn texture_stage_state(&self, stage: u32, state: u32) -> Option<u32> {
        self.stage_values
            .get(&(stage, state))
            .copied()
            .or_else(|| tss::info(state).and_then(|s| s.default))
    }

    /// The handles of the current vertex declaration, vertex shader and pixel shader.
    pub fn bound_handles(&self) -> (Option<u32>, Option<u32>, Option<u32>) {
        (self.decl, self.vertex_shader, self.pixel_shader)
    }

    /// The last scissor rectangle set {left, top, right, bottom} (`None`: none was set, the
    /// whole target).
    pub fn scissor_rect(&self) -> Option<[i32; 4]> {
        self.scissor
    }

    /// The last viewport and depth range set.
    pub fn viewport(&self) -> (Option<[u32; 4]>, Option<[f32; 2]>) {
        (self.viewport, self.zrange)
    }

    /// Executes one command; returns a report per draw record.
    pub fn execute(&mut self, command: &Command) -> Result<Vec<DrawReport>, ExecError> {
        let mut draws = Vec::new();
        self.execute_into(command, &mut draws)?;
        Ok(draws)
    }

    /// [`Device::execute`], appending the reports to `draws`.
    fn execute_into(
        &mut self,
        command: &Command,
        draws: &mut Vec<DrawReport>,
    ) -> Result<(), ExecError> {
        let mut ctx = Ctx {
            offset: command.offset,
            op: command.op,
            record: 0,
        };
        match &command.kind {
            CommandKind::RenderState(v) => {
                for &(state, value) in v {
                    if state == rs::DELETERTPATCH {
                        self.patches.remove(&value);
                    } else {
                        self.render_states.insert(state, value);
                        self.ffp.set_render_state(state, value);
                    }
                }
            }
            CommandKind::ViewportInfo(v) => self.viewport = v.last().copied().or(self.viewport),
            CommandKind::ZRange(v) => self.zrange = v.last().copied().or(self.zrange),
            CommandKind::ScissorRect(v) => self.scissor = v.last().copied().or(self.scissor),
            CommandKind::Clear(_) => {}
            CommandKind::TextureStageState(v) => self.stage_states(&mut ctx, v)?,
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
                    let valid = fetch::decl_problem(elements).is_none();
                    self.decls.insert(*handle, (elements.clone(), valid));
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
                    table.insert(s.handle, Arc::new(s.shader.clone()));
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
            CommandKind::SetMaterial(v) => {
                if let Some(m) = v.last() {
                    self.ffp.material = *m;
                }
            }
            CommandKind::SetLight(v) => {
                for (i, l) in v.iter().enumerate() {
                    ctx.record = i;
                    light_index(&ctx, l.index)?;
                    match l.data {
                        LightData::Enable => self.ffp.enable_light(l.index, true),
                        LightData::Disable => self.ffp.enable_light(l.index, false),
                        LightData::Data(light) => self.ffp.set_light(l.index, light),
                    }
                }
            }
            CommandKind::Transforms(v) => {
                for (i, &(ty, m)) in v.iter().enumerate() {
                    ctx.record = i;
                    let m = if command.op == Op::MultiplyTransform {
                        dxso_ffp::constants::multiply(&m, &self.ffp.transform(ty))
                    } else {
                        m
                    };
                    if !self.ffp.set_transform(ty, m) {
                        return Err(ctx.err(ExecErrorKind::BadTransformType(ty)));
                    }
                }
            }
            CommandKind::ClipPlanes(v) => {
                for (i, &(index, plane)) in v.iter().enumerate() {
                    ctx.record = i;
                    let slot = self
                        .ffp
                        .clip_planes
                        .get_mut(index as usize)
                        .ok_or_else(|| ctx.err(ExecErrorKind::BadClipPlane(index)))?;
                    *slot = plane;
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
        Ok(())
    }
}
