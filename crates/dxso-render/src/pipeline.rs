//! The renderer: a [`Consumer`] of the DP2 device. Each draw is fetched by semantics from its
//! tessellated mesh, vertex-shaded in parallel batches, assembled, clipped and set up; each
//! CLEAR and draw becomes a job binned to the screen tiles it touches. Jobs are flushed (at the
//! end of a capture, or when enough are pending) by rendering every tile in parallel, each tile
//! running its jobs in stream order, so the picture is the same whatever the thread count.

use crate::clip::{self, ClipVertex};
use crate::error::RenderError;
use crate::raster::{render_tile, DrawJob, Job, TileStats};
use crate::setup::{self, Prim, ScreenVertex};
use crate::shading::{
    DrawResources, PixelProgram, PixelStage, SamplerBinding, Semantic, StageEngine, VertexInputs,
    VertexOutputs, VertexStage,
};
use crate::state::DrawState;
use crate::target::{ClearJob, Image, Target, TILE};
use dxso::DeclUsage;
use dxso_dp2::command::Clear;
use dxso_dp2::device::{rs, tss, Consumer};
use dxso_dp2::enums::{FillMode, PrimitiveType};
use dxso_dp2::mesh::Mesh;
use dxso_dp2::{CacheAction, Capture, Device, DrawReport, Limits};
use rayon::prelude::*;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Bounds on the work one render may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderLimits {
    /// The most pixels the rasteriser may consider (the sum of every primitive's bounding box
    /// clipped to the viewport); more is [`RenderError::TooManyPixels`].
    pub max_pixel_tests: u64,
    /// The device's limits (tessellation, draw sizes).
    pub device: Limits,
}

impl Default for RenderLimits {
    fn default() -> Self {
        RenderLimits {
            max_pixel_tests: 1 << 32,
            device: Limits::default(),
        }
    }
}

impl RenderLimits {
    /// Small bounds for fuzzing and hostile tests.
    pub fn small() -> Self {
        RenderLimits {
            max_pixel_tests: 1 << 22,
            device: Limits::small(),
        }
    }
}

/// Vertices per vertex-shader batch.
pub const VERTEX_BATCH: usize = 256;
/// Pending primitives that trigger a flush of the tiles (bounds the memory a stream can hold).
const FLUSH_PRIMS: usize = 1 << 16;

/// Counts and times of a render.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Draw records.
    pub draws: u64,
    /// Patch draws (rect and tri patches).
    pub patches: u64,
    /// Patch draws served from the patch cache.
    pub cache_hits: u64,
    /// Vertices the vertex shader ran on.
    pub vertices: u64,
    /// Primitives (triangles, lines, points) that reached setup.
    pub primitives: u64,
    /// Draws with triangles of which none was drawn because each faced away from the viewer
    /// and `CULLMODE` culled it (a draw a user likely meant to see).
    pub draws_culled: u64,
    /// Primitives left after culling and clipping.
    pub primitives_drawn: u64,
    /// Covered pixels the pixel shader ran on.
    pub pixels_shaded: u64,
    /// Quads the pixel shader ran on (four lanes each).
    pub quads_shaded: u64,
    /// Pixels written to the target.
    pub pixels_written: u64,
    /// Wall time in the device: parsing and tessellation.
    pub tessellate: Duration,
    /// Wall time fetching and vertex shading.
    pub vertex: Duration,
    /// Wall time in assembly, clipping, setup and binning.
    pub setup: Duration,
    /// Wall time rendering tiles (rasterisation, pixel shading, output merging).
    pub raster: Duration,
}

struct Pending {
    job: Job,
    stage: Option<Arc<dyn PixelStage>>,
    resources: DrawResources,
}

/// Renders DP2 streams into a target.
pub struct Renderer<'e> {
    target: Target,
    engine: Option<&'e dyn StageEngine>,
    vertex_override: Option<Arc<dyn VertexStage>>,
    pixel_override: Option<Arc<dyn PixelStage>>,
    vertex_cache: Vec<(Arc<dxso::Shader>, Arc<dyn VertexStage>)>,
    pixel_cache: Vec<(Arc<dxso::Shader>, Arc<dyn PixelStage>)>,
    pending: Vec<Pending>,
    pending_prims: usize,
    pixel_tests: u64,
    limits: RenderLimits,
    stats: Stats,
    in_consumer: Duration,
    ffp: crate::ffp::Ffp,
}

impl<'e> Renderer<'e> {
    /// A renderer into a new `width` x `height` target. `engine` compiles the shaders the
    /// stream creates; without one, every draw uses the stages given by
    /// [`Renderer::with_shaders`].
    pub fn new(
        width: u32,
        height: u32,
        engine: Option<&'e dyn StageEngine>,
        limits: RenderLimits,
    ) -> Result<Renderer<'e>, RenderError> {
        Ok(Renderer {
            target: Target::new(width, height)?,
            engine,
            vertex_override: None,
            pixel_override: None,
            vertex_cache: Vec::new(),
            pixel_cache: Vec::new(),
            pending: Vec::new(),
            pending_prims: 0,
            pixel_tests: 0,
            limits,
            stats: Stats::default(),
            in_consumer: Duration::ZERO,
            ffp: crate::ffp::Ffp::default(),
        })
    }

    /// Stages for draws whose stream binds no shader of that kind.
    pub fn with_shaders(
        mut self,
        vertex: Option<Arc<dyn VertexStage>>,
        pixel: Option<Arc<dyn PixelStage>>,
    ) -> Self {
        self.vertex_override = vertex;
        self.pixel_override = pixel;
        self
    }

    /// Runs a whole capture on `device` and renders it.
    pub fn render(&mut self, device: &mut Device, capture: &Capture) -> Result<(), RenderError> {
        let start = Instant::now();
        let consumed = self.in_consumer;
        device.run_capture_with(capture, self)?;
        let flush = Instant::now();
        self.flush()?;
        self.stats.raster += flush.elapsed();
        let device_time = (flush - start).saturating_sub(self.in_consumer - consumed);
        self.stats.tessellate += device_time;
        Ok(())
    }

    /// Renders a capture on a fresh device with this renderer's limits.
    pub fn render_capture(&mut self, capture: &Capture) -> Result<(), RenderError> {
        let mut device = Device::new(self.limits.device);
        self.render(&mut device, capture)
    }

    /// The target.
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// The colour target as an image.
    pub fn image(&self) -> Image {
        self.target.image()
    }

    /// Counts and times so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The bound (or given) vertex stage; `None` when there is none but an engine, so the
    /// fixed-function pipeline runs.
    fn vertex_stage(
        &mut self,
        device: &Device,
        offset: usize,
    ) -> Result<Option<Arc<dyn VertexStage>>, RenderError> {
        let (bound, _) = device.bound_shaders();
        match (bound, self.engine) {
            (Some(shader), Some(engine)) => {
                if let Some((_, s)) = self
                    .vertex_cache
                    .iter()
                    .find(|(k, _)| Arc::ptr_eq(k, shader))
                {
                    return Ok(Some(Arc::clone(s)));
                }
                let stage = engine.vertex_stage(shader)?;
                self.vertex_cache
                    .push((Arc::clone(shader), Arc::clone(&stage)));
                Ok(Some(stage))
            }
            _ => match (&self.vertex_override, self.engine) {
                (Some(s), _) => Ok(Some(Arc::clone(s))),
                (None, Some(_)) => Ok(None),
                (None, None) => Err(RenderError::NoShader {
                    offset,
                    stage: "vertex",
                }),
            },
        }
    }

    /// The bound (or given) pixel stage; `None` for the fixed-function pipeline.
    fn pixel_stage(
        &mut self,
        device: &Device,
        offset: usize,
    ) -> Result<Option<Arc<dyn PixelStage>>, RenderError> {
        let (_, bound) = device.bound_shaders();
        match (bound, self.engine) {
            (Some(shader), Some(engine)) => {
                if let Some((_, s)) = self
                    .pixel_cache
                    .iter()
                    .find(|(k, _)| Arc::ptr_eq(k, shader))
                {
                    return Ok(Some(Arc::clone(s)));
                }
                let stage = engine.pixel_stage(shader)?;
                self.pixel_cache
                    .push((Arc::clone(shader), Arc::clone(&stage)));
                Ok(Some(stage))
            }
            _ => match (&self.pixel_override, self.engine) {
                (Some(s), _) => Ok(Some(Arc::clone(s))),
                (None, Some(_)) => Ok(None),
                (None, None) => Err(RenderError::NoShader {
                    offset,
                    stage: "pixel",
                }),
            },
        }
    }

    fn draw(&mut self, device: &Device, draw: DrawReport) -> Result<(), RenderError> {
        self.stats.draws += 1;
        if draw.handle.is_some() {
            self.stats.patches += 1;
            if draw.cache == Some(CacheAction::Cached) {
                self.stats.cache_hits += 1;
            }
        }
        let mesh = &draw.mesh;
        if mesh.vertex_count() == 0 {
            return Ok(());
        }
        let vs = self.vertex_stage(device, draw.offset)?;
        let ps = self.pixel_stage(device, draw.offset)?;
        // Whatever the stream and the caller leave unshaded runs the fixed-function pipeline.
        let ffp = match (&vs, &ps, self.engine) {
            (Some(_), Some(_), _) | (_, _, None) => None,
            (_, _, Some(engine)) => {
                let vp = crate::state::viewport(device, self.target.width(), self.target.height())?;
                let decl = device.vertex_declaration().unwrap_or(&[]);
                Some(self.ffp.draw(engine, device, decl, &vp, draw.offset)?)
            }
        };
        // Fixed-function fog after a pixel shader: the generated one blends it itself, a
        // ps_3_0 from the stream does its own (Direct3D 9 applies none after it).
        let fog = match (&ps, device.bound_shaders().1) {
            (None, _) => crate::state::FogBy::Pipeline,
            (Some(_), Some(shader)) if shader.version.major >= 3 => crate::state::FogBy::Shader,
            (Some(_), _) => crate::state::FogBy::Blend,
        };
        let state = DrawState::read_for(device, self.target.width(), self.target.height(), fog)?;
        let t = Instant::now();
        let mut vertex_resources = resources(device, false);
        let mut pixel_constants = None;
        // The generated vertex stage's planes are in world space (none for pre-transformed
        // vertices); a shader's in clip space.
        let mut plane_space = PlaneSpace::Clip;
        // The coordinate set behind each TEXCOORDn input (the generated shaders put stage n's
        // coordinates, from set TEXCOORDINDEX, in TEXCOORDn).
        let mut tex_sets: [u8; 16] = std::array::from_fn(|i| i as u8);
        let (vs, ps) = match (ffp, vs, ps) {
            (None, Some(vs), Some(ps)) => (vs, ps),
            (None, vs, _) => {
                return Err(RenderError::NoShader {
                    offset: draw.offset,
                    stage: if vs.is_none() { "vertex" } else { "pixel" },
                })
            }
            (Some(f), vs, ps) => {
                if vs.is_none() {
                    tex_sets = f.tex_sets;
                }
                let vs = match vs {
                    Some(vs) => vs,
                    None => {
                        vertex_resources.constants.float = f.vs_constants;
                        plane_space = if f.pretransformed {
                            PlaneSpace::None
                        } else {
                            PlaneSpace::World
                        };
                        f.vs
                    }
                };
                let ps = match ps {
                    Some(ps) => ps,
                    None => {
                        pixel_constants = Some(f.ps_constants);
                        f.ps
                    }
                };
                (vs, ps)
            }
        };
        let user = user_planes(device, plane_space)?;
        let user = &user[..];
        let shaded = shade_vertices(vs.as_ref(), mesh, &vertex_resources)?;
        self.stats.vertices += mesh.vertex_count() as u64;
        self.stats.vertex += t.elapsed();

        let t = Instant::now();
        let psig = ps.signature().clone();
        let mut link: Vec<Option<usize>> = psig
            .inputs
            .iter()
            .map(|s| vs.signature().outputs.iter().position(|o| o == s))
            .collect();
        // Vertex fog blended after a pixel shader before ps_3_0 rides as one more input.
        let fog_input = match &state.post_fog {
            Some(fog) if fog.table.is_none() => {
                let fog_out = Semantic::new(DeclUsage::Fog, 0);
                let Some(o) = vs.signature().outputs.iter().position(|&s| s == fog_out) else {
                    return Err(RenderError::Unsupported(
                        "FOGENABLE with vertex fog after a pixel shader before ps_3_0, but the vertex shader writes no oFog",
                    ));
                };
                link.push(Some(o));
                Some(link.len() - 1)
            }
            _ => None,
        };
        let is_color: Vec<bool> = psig
            .inputs
            .iter()
            .map(|s| s.usage == DeclUsage::Color)
            .chain(fog_input.map(|_| false))
            .collect();
        let clamp: Vec<bool> = is_color.iter().map(|&c| c && psig.clamps_colors).collect();
        let flat: Vec<bool> = is_color.iter().map(|&c| c && state.flat).collect();
        let sprite: Vec<bool> = psig
            .inputs
            .iter()
            .map(|s| state.point_sprite && s.usage == DeclUsage::TexCoord)
            .chain(fog_input.map(|_| false))
            .collect();
        // WRAPn of each input that is texture coordinate set n.
        let wrap: Vec<u8> = psig
            .inputs
            .iter()
            .map(|s| match s.usage {
                DeclUsage::TexCoord => tex_sets
                    .get(s.index as usize)
                    .and_then(|&set| state.wrap.get(set as usize))
                    .copied()
                    .unwrap_or(0),
                _ => 0,
            })
            .chain(fog_input.map(|_| 0))
            .collect();
        let wraps = wrap.iter().any(|&w| w != 0);
        let varyings = |v: usize| -> Vec<[f32; 4]> {
            link.iter()
                .zip(&clamp)
                .map(|(l, &c)| {
                    let x = l.map_or([0.0; 4], |o| shaded.varyings[o][v]);
                    if c {
                        x.map(crate::output::saturate)
                    } else {
                        x
                    }
                })
                .collect()
        };
        let mut prims = Vec::new();
        let mut assembled = 0u64;
        let vp = state.viewport;
        let to_screen = |cv: ClipVertex| setup::to_screen(cv.0, cv.1, &vp);
        match draw.primitive {
            PrimitiveType::PointList => {
                for v in 0..mesh.vertex_count() {
                    assembled += 1;
                    let p = shaded.positions[v];
                    if !clip::finite(&p) || clip::outcode(&p, user) != 0 {
                        continue;
                    }
                    let size = shaded
                        .point_sizes
                        .get(v)
                        .copied()
                        .unwrap_or(state.point_size);
                    let sv = to_screen((p, varyings(v)));
                    prims.extend(setup::point(&sv, size, &state, &sprite));
                }
            }
            PrimitiveType::LineList | PrimitiveType::LineStrip => {
                let n = mesh.vertex_count();
                let pairs: Vec<(usize, usize)> = if draw.primitive == PrimitiveType::LineList {
                    (0..n / 2).map(|i| (2 * i, 2 * i + 1)).collect()
                } else {
                    (0..n.saturating_sub(1)).map(|i| (i, i + 1)).collect()
                };
                for (a, b) in pairs {
                    assembled += 1;
                    let (pa, pb) = (shaded.positions[a], shaded.positions[b]);
                    if !clip::finite(&pa) || !clip::finite(&pb) {
                        continue;
                    }
                    let (ca, cb) = (clip::outcode(&pa, user), clip::outcode(&pb, user));
                    if ca & cb != 0 {
                        continue;
                    }
                    let mut ends = [(pa, varyings(a)), (pb, varyings(b))];
                    if wraps {
                        wrap_coordinates(&mut ends, &wrap);
                    }
                    let [ea, eb] = ends;
                    let Some((a, b)) = clip::clip_line(ea, eb, ca | cb, user) else {
                        continue;
                    };
                    if a.0[3] <= 0.0 || b.0[3] <= 0.0 {
                        continue;
                    }
                    prims.extend(setup::line(&to_screen(a), &to_screen(b), &state, &flat));
                }
            }
            _ => {
                let drawn_before = prims.len();
                let mut culled = 0u64;
                for t in mesh.indices.chunks_exact(3) {
                    assembled += 1;
                    let idx = [t[0] as usize, t[1] as usize, t[2] as usize];
                    if idx.iter().any(|&i| i >= shaded.positions.len()) {
                        continue;
                    }
                    let p = idx.map(|i| shaded.positions[i]);
                    if !p.iter().all(clip::finite) {
                        continue;
                    }
                    let codes = p.map(|p| clip::outcode(&p, user));
                    if codes[0] & codes[1] & codes[2] != 0 {
                        continue;
                    }
                    let planes = codes[0] | codes[1] | codes[2];
                    let mut poly: Vec<ClipVertex> = idx
                        .iter()
                        .map(|&i| (shaded.positions[i], varyings(i)))
                        .collect();
                    if wraps {
                        wrap_coordinates(&mut poly, &wrap);
                    }
                    let poly = if planes == 0 {
                        poly
                    } else {
                        clip::clip_polygon(poly, planes, user)
                    };
                    if poly.len() < 3 || poly.iter().any(|v| v.0[3].is_nan() || v.0[3] <= 0.0) {
                        continue;
                    }
                    let screen: Vec<ScreenVertex> = poly.into_iter().map(to_screen).collect();
                    match state.fill {
                        FillMode::Solid => {
                            // A clipped polygon keeps the first vertex's flat colour: fan from
                            // it.
                            let before = prims.len();
                            for k in 1..screen.len() - 1 {
                                prims.extend(setup::triangle(
                                    [&screen[0], &screen[k], &screen[k + 1]],
                                    &state,
                                    &flat,
                                ));
                            }
                            if prims.len() == before && setup::culled(&screen, state.cull) {
                                culled += 1;
                            }
                        }
                        // Culled by the winding as a solid triangle would be, then drawn as
                        // its (clipped) edges or its vertices.
                        _ if setup::culled(&screen, state.cull) => culled += 1,
                        FillMode::Wireframe => {
                            for k in 0..screen.len() {
                                let next = &screen[(k + 1) % screen.len()];
                                prims.extend(setup::line(&screen[k], next, &state, &flat));
                            }
                        }
                        FillMode::Point => {
                            for (k, v) in screen.iter().enumerate() {
                                let size = match (planes, shaded.point_sizes.is_empty()) {
                                    (0, false) => shaded.point_sizes[idx[k]],
                                    _ => state.point_size,
                                };
                                prims.extend(setup::point(v, size, &state, &sprite));
                            }
                        }
                    }
                }
                if culled > 0 && prims.len() == drawn_before {
                    self.stats.draws_culled += 1;
                }
            }
        }
        self.stats.primitives += assembled;
        self.stats.primitives_drawn += prims.len() as u64;
        self.pixel_tests += prims.iter().map(Prim::area).sum::<u64>();
        if self.pixel_tests > self.limits.max_pixel_tests {
            return Err(RenderError::TooManyPixels {
                needed: self.pixel_tests,
                max: self.limits.max_pixel_tests,
            });
        }
        let shade = state.writes_color()
            || state.alpha_test.is_some()
            || psig.writes_depth
            || psig.may_discard;
        self.pending_prims += prims.len();
        self.pending.push(Pending {
            job: Job::Draw(Box::new(DrawJob {
                state,
                prims,
                inputs: link.len(),
                clamp,
                writes_depth: psig.writes_depth,
                shade,
                fog_input,
            })),
            stage: shade.then_some(ps),
            resources: if shade {
                let mut r = resources(device, true);
                if let Some(c) = pixel_constants {
                    r.constants.float = c;
                }
                r
            } else {
                DrawResources::default()
            },
        });
        self.stats.setup += t.elapsed();
        if self.pending_prims >= FLUSH_PRIMS {
            let t = Instant::now();
            self.flush()?;
            self.stats.raster += t.elapsed();
        }
        Ok(())
    }

    /// Renders every pending job into the tiles.
    fn flush(&mut self) -> Result<(), RenderError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let pending = std::mem::take(&mut self.pending);
        self.pending_prims = 0;
        let bins = bin(&self.target, &pending);
        let programs: Vec<Option<Box<dyn PixelProgram + '_>>> = pending
            .iter()
            .map(|p| p.stage.as_ref().map(|s| s.bind(&p.resources)).transpose())
            .collect::<Result<_, _>>()?;
        let jobs: Vec<&Job> = pending.iter().map(|p| &p.job).collect();
        let jobs_owned: &[&Job] = &jobs;
        let results: Vec<Result<TileStats, _>> = self
            .target
            .tiles_mut()
            .par_iter_mut()
            .zip(bins.par_iter())
            .map(|(tile, entries)| render_tile(tile, jobs_owned, &programs, entries))
            .collect();
        for r in results {
            let s = r?;
            self.stats.pixels_shaded += s.pixels_shaded;
            self.stats.quads_shaded += s.quads_shaded;
            self.stats.pixels_written += s.pixels_written;
        }
        Ok(())
    }
}

impl Consumer for Renderer<'_> {
    type Error = RenderError;

    fn clear(&mut self, device: &Device, _offset: usize, clear: &Clear) -> Result<(), RenderError> {
        let t = Instant::now();
        let viewport = crate::state::viewport(device, self.target.width(), self.target.height())?;
        self.pending.push(Pending {
            job: Job::Clear(ClearJob::new(
                clear,
                &viewport,
                crate::state::scissor(device),
            )),
            stage: None,
            resources: DrawResources::default(),
        });
        self.in_consumer += t.elapsed();
        Ok(())
    }

    fn draw(&mut self, device: &Device, draw: DrawReport) -> Result<(), RenderError> {
        let t = Instant::now();
        let r = Renderer::draw(self, device, draw);
        self.in_consumer += t.elapsed();
        r
    }
}

/// D3DRS_WRAPn: on a coordinate whose bit is set (u 1, v 2, w 4, the fourth 8) the
/// primitive interpolates the shorter way round a cylinder of circumference 1: each vertex after
/// the first moves by whole units until it is within 0.5 of the first's.
fn wrap_coordinates(vertices: &mut [ClipVertex], wrap: &[u8]) {
    let Some((first, rest)) = vertices.split_first_mut() else {
        return;
    };
    for (k, &mask) in wrap.iter().enumerate() {
        for c in 0..4 {
            if mask & (1 << c) == 0 {
                continue;
            }
            let base = first.1[k][c];
            for v in rest.iter_mut() {
                let d = v.1[k][c] - base;
                if d.is_finite() && d.abs() > 0.5 {
                    v.1[k][c] -= d.round();
                }
            }
        }
    }
}

/// The space a draw's user clip planes are given in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PlaneSpace {
    /// Clip space (a vertex shader's output).
    Clip,
    /// World space (the fixed-function pipeline).
    World,
    /// None apply (pre-transformed vertices).
    None,
}

/// The draw's enabled user clip planes in clip space.
fn user_planes(device: &Device, space: PlaneSpace) -> Result<Vec<[f32; 4]>, RenderError> {
    let enable = device.render_state(rs::CLIPPLANEENABLE).unwrap_or(0) & 0x3F;
    if enable == 0 || space == PlaneSpace::None {
        return Ok(Vec::new());
    }
    let ff = device.fixed_function();
    let world_to_clip = (space == PlaneSpace::World).then(|| {
        dxso_ffp::constants::multiply(
            &ff.transform(dxso_ffp::d3d::ts::VIEW),
            &ff.transform(dxso_ffp::d3d::ts::PROJECTION),
        )
    });
    clip::user_planes(enable, &ff.clip_planes, world_to_clip.as_ref()).ok_or(
        RenderError::Unsupported(
            "CLIPPLANEENABLE with a View x Projection that has no inverse (world-space planes cannot reach clip space)",
        ),
    )
}

/// Per tile, the (job, primitive) pairs that may touch it, in stream order.
fn bin(target: &Target, pending: &[Pending]) -> Vec<Vec<(u32, u32)>> {
    let across = target.tiles_across() as i32;
    let down = target.height().div_ceil(TILE) as i32;
    let mut bins = vec![Vec::new(); (across * down) as usize];
    let tile_rect = |tx: i32, ty: i32| {
        let (x, y) = (tx * TILE as i32, ty * TILE as i32);
        [
            x,
            y,
            (x + TILE as i32).min(target.width() as i32),
            (y + TILE as i32).min(target.height() as i32),
        ]
    };
    let tiles_of = |r: [i64; 4]| {
        let tx0 = (r[0].max(0) / TILE as i64) as i32;
        let ty0 = (r[1].max(0) / TILE as i64) as i32;
        let tx1 = ((r[2].min(target.width() as i64) + TILE as i64 - 1) / TILE as i64) as i32;
        let ty1 = ((r[3].min(target.height() as i64) + TILE as i64 - 1) / TILE as i64) as i32;
        (tx0, ty0, tx1, ty1)
    };
    for (j, p) in pending.iter().enumerate() {
        match &p.job {
            Job::Clear(c) => {
                let mut touched = vec![false; bins.len()];
                for r in &c.rects {
                    let (tx0, ty0, tx1, ty1) = tiles_of(*r);
                    for ty in ty0..ty1 {
                        for tx in tx0..tx1 {
                            touched[(ty * across + tx) as usize] = true;
                        }
                    }
                }
                for (t, hit) in touched.into_iter().enumerate() {
                    if hit {
                        bins[t].push((j as u32, u32::MAX));
                    }
                }
            }
            Job::Draw(d) => {
                for (k, prim) in d.prims.iter().enumerate() {
                    let (tx0, ty0, tx1, ty1) = tiles_of(prim.bounds.map(i64::from));
                    for ty in ty0..ty1 {
                        for tx in tx0..tx1 {
                            if prim.may_touch(tile_rect(tx, ty)) {
                                bins[(ty * across + tx) as usize].push((j as u32, k as u32));
                            }
                        }
                    }
                }
            }
        }
    }
    bins
}

/// The constants and samplers a draw binds to its pixel (`pixel`) or vertex stage.
fn resources(device: &Device, pixel: bool) -> DrawResources {
    let constants = if pixel {
        device.ps_constants.clone()
    } else {
        device.vs_constants.clone()
    };
    let stages: Vec<u32> = if pixel {
        (0..16).collect()
    } else {
        (tss::VERTEX_STAGE0..tss::VERTEX_STAGE0 + 4).collect()
    };
    let samplers = stages
        .iter()
        .map(|&stage| {
            device.texture(stage).map(|(_, texture)| SamplerBinding {
                texture: Arc::clone(texture),
                states: SAMPLER_STATES
                    .iter()
                    .map(|&s| (s, device.texture_stage_state(stage, s).unwrap_or(0)))
                    .collect(),
            })
        })
        .collect();
    DrawResources {
        constants,
        samplers,
    }
}

/// The sampler and texture-stage states a binding carries.
const SAMPLER_STATES: [u32; 17] = [
    tss::BUMPENVMAT00,
    tss::BUMPENVMAT01,
    tss::BUMPENVMAT10,
    tss::BUMPENVMAT11,
    tss::BUMPENVLSCALE,
    tss::BUMPENVLOFFSET,
    tss::TEXTURETRANSFORMFLAGS,
    tss::ADDRESSU,
    tss::ADDRESSV,
    tss::ADDRESSW,
    tss::BORDERCOLOR,
    tss::MAGFILTER,
    tss::MINFILTER,
    tss::MIPFILTER,
    tss::MIPMAPLODBIAS,
    tss::MAXMIPLEVEL,
    tss::MAXANISOTROPY,
];

/// One vertex element of a mesh by meaning, as four components (missing ones as Direct3D
/// expands them: position and normal w = 1, texture coordinate z = 0, w = 1; an element the
/// mesh lacks reads (0, 0, 0, 0)).
pub fn fetch(mesh: &Mesh, s: Semantic) -> Vec<[f32; 4]> {
    if let Some(a) = mesh.attribute(s.usage as u8, s.index) {
        return a.values.clone();
    }
    let n = mesh.vertex_count();
    match (s.usage, s.index) {
        (DeclUsage::Position, 0) => mesh
            .positions
            .iter()
            .map(|p| [p[0], p[1], p[2], 1.0])
            .collect(),
        (DeclUsage::Normal, 0) if !mesh.normals.is_empty() => mesh
            .normals
            .iter()
            .map(|p| [p[0], p[1], p[2], 1.0])
            .collect(),
        (DeclUsage::TexCoord, 0) if !mesh.uvs.is_empty() => {
            mesh.uvs.iter().map(|t| [t[0], t[1], 0.0, 1.0]).collect()
        }
        _ => vec![[0.0; 4]; n],
    }
}

/// Runs the vertex shader over every vertex of `mesh`, in parallel batches.
fn shade_vertices(
    vs: &dyn VertexStage,
    mesh: &Mesh,
    resources: &DrawResources,
) -> Result<VertexOutputs, RenderError> {
    let sig = vs.signature();
    let inputs: Vec<Vec<[f32; 4]>> = sig.inputs.iter().map(|&s| fetch(mesh, s)).collect();
    let n = mesh.vertex_count();
    let program = vs.bind(resources)?;
    let chunks: Vec<(usize, usize)> = (0..n)
        .step_by(VERTEX_BATCH)
        .map(|s| (s, (s + VERTEX_BATCH).min(n)))
        .collect();
    let results: Vec<Result<VertexOutputs, _>> = chunks
        .par_iter()
        .map(|&(s, e)| {
            let slices: Vec<&[[f32; 4]]> = inputs.iter().map(|v| &v[s..e]).collect();
            let mut out = VertexOutputs {
                positions: vec![[0.0; 4]; e - s],
                varyings: vec![vec![[0.0; 4]; e - s]; sig.outputs.len()],
                point_sizes: if sig.point_size {
                    vec![0.0; e - s]
                } else {
                    Vec::new()
                },
            };
            program.run(
                &VertexInputs {
                    count: e - s,
                    inputs: &slices,
                },
                &mut out,
            )?;
            Ok(out)
        })
        .collect();
    let mut all = VertexOutputs {
        positions: Vec::with_capacity(n),
        varyings: vec![Vec::with_capacity(n); sig.outputs.len()],
        point_sizes: Vec::new(),
    };
    for r in results {
        let r = r.map_err(RenderError::Shade)?;
        all.positions.extend(r.positions);
        for (a, v) in all.varyings.iter_mut().zip(r.varyings) {
            a.extend(v);
        }
        all.point_sizes.extend(r.point_sizes);
    }
    Ok(all)
}
