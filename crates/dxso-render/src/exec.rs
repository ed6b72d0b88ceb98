//! The shading interface over `dxso-exec`: a [`StageEngine`] that lowers the stream's shaders
//! once and runs their batches with the executor.
//!
//! The adapter only translates: registers to meanings (`dcl` declarations in shader model 3,
//! fixed meanings before it: `v#`/`oD#` are COLOR, `t#`/`oT#` TEXCOORD, `oFog` FOG0, `oPts`
//! PSIZE0), the pipeline's batches to the executor's, and the capture's textures and sampler
//! states to the executor's samplers. The executor's own engines (its interpreter, its JIT with
//! this crate's `jit` feature) are chosen through [`Options::engine`] and give the same
//! pictures bit for bit; another engine plugs in by implementing the same
//! [`VertexStage`]/[`PixelStage`] traits.

use crate::error::RenderError;
use crate::shading::StageEngine;
use crate::shading::{
    DrawResources, PixelInputs, PixelOutputs, PixelProgram, PixelSignature, PixelStage, Semantic,
    ShadeError, VertexInputs, VertexOutputs, VertexProgram, VertexSignature, VertexStage,
};
use crate::trace::Trace;
use dxso::{DeclUsage, Opcode, RegisterType, Shader};
use dxso_dp2::device::tss;
use dxso_dp2::texture::{Texture as CaptureTexture, TextureFormat};
use dxso_exec::{
    Dimension, Format, InputRegister, MipLevel, Options, OutputRegister, PixelShader, QuadBatch,
    Sampler, SamplerState, StageState, Texture, VertexShader,
};
use std::sync::{Arc, Mutex};

/// Textures converted for the executor, by the capture texture they came from.
type TextureCache = Arc<Mutex<Vec<(Arc<CaptureTexture>, Arc<Texture>)>>>;
/// How many converted textures are kept.
const CACHED_TEXTURES: usize = 64;

/// Runs shaders with `dxso-exec`: its interpreter or its JIT, as [`Options::engine`] says.
#[derive(Clone, Debug)]
pub struct ExecEngine {
    options: Options,
    textures: TextureCache,
    /// Compiled code shared by the shaders this engine (and its clones) builds (a stream that
    /// creates the same shader under several handles compiles it once), and the background
    /// compiles of the tiered start.
    #[cfg(feature = "jit")]
    jit: Arc<dxso_exec::jit::Tiering>,
    /// With the JIT: build a shader only once its code is compiled, instead of running it on
    /// the interpreter until then (the tiered start, the default).
    #[cfg(feature = "jit")]
    wait_for_compiles: bool,
    /// Where the stages it builds record their runs, if anywhere.
    trace: Option<Arc<Trace>>,
}

impl Default for ExecEngine {
    /// The executor's default options on the fastest engine of this build
    /// ([`dxso_exec::Engine::best_available`]: the JIT with this crate's `jit` feature).
    fn default() -> ExecEngine {
        ExecEngine::with_engine(dxso_exec::Engine::best_available())
    }
}

impl ExecEngine {
    /// An engine with the executor's `options`.
    pub fn new(options: Options) -> ExecEngine {
        ExecEngine {
            options,
            textures: TextureCache::default(),
            #[cfg(feature = "jit")]
            jit: Arc::default(),
            #[cfg(feature = "jit")]
            wait_for_compiles: false,
            trace: None,
        }
    }

    /// The same engine recording into `trace` what every stage it builds from now on runs on:
    /// the shader, each binding's constants and samplers, and the invocations' inputs
    /// ([`crate::trace`]).
    pub fn traced(mut self, trace: Arc<Trace>) -> ExecEngine {
        self.trace = Some(trace);
        self
    }

    /// The same engine building each JIT shader only once its code is compiled (`true`), or
    /// with the tiered start (`false`, the default): a new shader runs on the interpreter at
    /// once while a background thread compiles it, and on the compiled code from then on, so
    /// no draw waits for Cranelift. The pictures are the same bytes either way; waiting suits
    /// benchmarks of the compiled code.
    #[cfg(feature = "jit")]
    pub fn waiting_for_compiles(mut self, wait: bool) -> ExecEngine {
        self.wait_for_compiles = wait;
        self
    }

    /// The JIT's cache and the counters of the tiered start (compiles pending, runs that went
    /// to the interpreter while their shader compiled).
    #[cfg(feature = "jit")]
    pub fn tiering(&self) -> &Arc<dxso_exec::jit::Tiering> {
        &self.jit
    }

    /// The trace this engine records into, if any.
    pub fn trace(&self) -> Option<&Arc<Trace>> {
        self.trace.as_ref()
    }

    fn traced_shader(&self, shader: &Shader) -> Option<(Arc<Trace>, usize)> {
        self.trace
            .as_ref()
            .map(|t| (Arc::clone(t), t.shader(shader)))
    }

    /// An engine with the executor's default options, run by `engine`.
    pub fn with_engine(engine: dxso_exec::Engine) -> ExecEngine {
        ExecEngine::new(Options {
            engine,
            ..Options::default()
        })
    }

    /// The executor's options this engine builds shaders with.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// A vertex stage for `shader`.
    pub fn vertex(&self, shader: &Shader) -> Result<ExecVertex, RenderError> {
        // With the JIT, code comes from the engine's cache: equal shaders compile once.
        #[cfg(feature = "jit")]
        let exec = if self.wait_for_compiles {
            VertexShader::with_cache(shader, &self.options, self.jit.cache())
        } else {
            VertexShader::tiered(shader, &self.options, &self.jit)
        };
        #[cfg(not(feature = "jit"))]
        let exec = VertexShader::with_options(shader, &self.options);
        let exec = exec.map_err(|e| RenderError::BadShader {
            stage: "vertex",
            message: e.to_string(),
        })?;
        let declared = declarations(shader);
        let mut signature = VertexSignature::default();
        let mut inputs = Vec::new();
        for r in exec.inputs() {
            if let InputRegister::V(n) = r {
                if let Some(s) = declared_as(&declared, RegisterType::Input, n) {
                    signature.inputs.push(s);
                    inputs.push(r);
                }
            }
        }
        let mut position = None;
        let mut point_size = None;
        let mut outputs = Vec::new();
        for r in exec.outputs() {
            let meaning = match r {
                OutputRegister::Pos => Some(Semantic::POSITION),
                OutputRegister::Fog => Some(Semantic::new(DeclUsage::Fog, 0)),
                OutputRegister::PointSize => Some(Semantic::new(DeclUsage::PSize, 0)),
                OutputRegister::Color(n) => Some(Semantic::new(DeclUsage::Color, n)),
                OutputRegister::TexCoord(n) => Some(Semantic::new(DeclUsage::TexCoord, n)),
                OutputRegister::O(n) => declared_as(&declared, RegisterType::Output, n),
                _ => None,
            };
            match meaning {
                Some(Semantic::POSITION) => position = Some(r),
                Some(s) if s.usage == DeclUsage::PSize && s.index == 0 => point_size = Some(r),
                Some(s) => {
                    signature.outputs.push(s);
                    outputs.push(r);
                }
                None => {}
            }
        }
        let position = position.ok_or_else(|| RenderError::BadShader {
            stage: "vertex",
            message: "it writes no position (oPos, or an o# declared dcl_position)".into(),
        })?;
        signature.point_size = point_size.is_some();
        Ok(ExecVertex {
            exec,
            signature,
            inputs,
            position,
            point_size,
            outputs,
            textures: Arc::clone(&self.textures),
            trace: self.traced_shader(shader),
        })
    }

    /// A pixel stage for `shader`.
    pub fn pixel(&self, shader: &Shader) -> Result<ExecPixel, RenderError> {
        // With the JIT, code comes from the engine's cache: equal shaders compile once.
        #[cfg(feature = "jit")]
        let exec = if self.wait_for_compiles {
            PixelShader::with_cache(shader, &self.options, self.jit.cache())
        } else {
            PixelShader::tiered(shader, &self.options, &self.jit)
        };
        #[cfg(not(feature = "jit"))]
        let exec = PixelShader::with_options(shader, &self.options);
        let exec = exec.map_err(|e| RenderError::BadShader {
            stage: "pixel",
            message: e.to_string(),
        })?;
        let declared = declarations(shader);
        let model3 = shader.version.major >= 3;
        let mut signature = PixelSignature {
            clamps_colors: !model3,
            ..PixelSignature::default()
        };
        let mut inputs = Vec::new();
        let (mut position, mut face) = (false, false);
        for r in exec.inputs() {
            let meaning = match r {
                InputRegister::V(n) if model3 => declared_as(&declared, RegisterType::Input, n),
                InputRegister::V(n) => Some(Semantic::new(DeclUsage::Color, n)),
                InputRegister::T(n) => Some(Semantic::new(DeclUsage::TexCoord, n)),
                InputRegister::Pos => {
                    position = true;
                    None
                }
                InputRegister::Face => {
                    face = true;
                    None
                }
            };
            if let Some(s) = meaning {
                signature.inputs.push(s);
                inputs.push(r);
            }
        }
        let outputs = exec.outputs();
        signature.writes_depth = outputs.contains(&OutputRegister::Depth);
        signature.may_discard = shader.instructions().any(|i| i.opcode == Opcode::TexKill);
        Ok(ExecPixel {
            exec,
            signature,
            inputs,
            position,
            face,
            textures: Arc::clone(&self.textures),
            trace: self.traced_shader(shader),
        })
    }
}

impl StageEngine for ExecEngine {
    fn vertex_stage(&self, shader: &Shader) -> Result<Arc<dyn VertexStage>, RenderError> {
        Ok(Arc::new(self.vertex(shader)?))
    }

    fn pixel_stage(&self, shader: &Shader) -> Result<Arc<dyn PixelStage>, RenderError> {
        Ok(Arc::new(self.pixel(shader)?))
    }
}

/// What `dcl` gives each input and output register: (file, number, meaning).
fn declarations(shader: &Shader) -> Vec<(RegisterType, u16, Semantic)> {
    shader
        .instructions()
        .filter(|i| i.opcode == Opcode::Dcl)
        .filter_map(|i| {
            let dst = i.dst?;
            let usage = i.dcl()?.decl_usage()?;
            Some((
                dst.register.ty,
                dst.register.num,
                Semantic::new(usage, i.dcl()?.usage_index),
            ))
        })
        .collect()
}

fn declared_as(
    declared: &[(RegisterType, u16, Semantic)],
    ty: RegisterType,
    n: u8,
) -> Option<Semantic> {
    declared
        .iter()
        .find(|(t, num, _)| *t == ty && *num == n as u16)
        .map(|(_, _, s)| *s)
}

fn shade_error(stage: &'static str, e: impl std::fmt::Display) -> ShadeError {
    ShadeError {
        stage,
        message: e.to_string(),
    }
}

/// A texture of the capture as the executor's: 8-bit unorm formats as RGBA8, the rest as
/// 32-bit floats (every value each format reads is kept exactly).
fn convert_texture(t: &CaptureTexture) -> Result<Texture, String> {
    let unorm8 = matches!(
        t.format,
        TextureFormat::A8R8G8B8
            | TextureFormat::X8R8G8B8
            | TextureFormat::A8B8G8R8
            | TextureFormat::X8B8G8R8
            | TextureFormat::A8
            | TextureFormat::L8
            | TextureFormat::A8L8
    );
    let format = if unorm8 {
        Format::Rgba8Unorm
    } else {
        Format::Rgba32Float
    };
    let levels = t
        .levels
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let texels = t.decode_level(i);
            let mut data = vec![0u8; texels.len() * format.texel_size()];
            for (texel, out) in texels
                .iter()
                .zip(data.chunks_exact_mut(format.texel_size()))
            {
                format.encode(*texel, out);
            }
            MipLevel {
                width: l.width,
                height: l.height,
                depth: 1,
                data,
            }
        })
        .collect();
    Texture::new(Dimension::D2, format, levels).map_err(|e| e.to_string())
}

/// The executor's samplers for a draw's bindings.
fn samplers(
    resources: &DrawResources,
    cache: &TextureCache,
    stage: &'static str,
) -> Result<Vec<Sampler>, ShadeError> {
    let mut out = Vec::with_capacity(resources.samplers.len());
    for binding in &resources.samplers {
        let Some(b) = binding else {
            out.push(Sampler::default());
            continue;
        };
        let texture = {
            let mut cache = cache
                .lock()
                .map_err(|_| shade_error(stage, "texture cache poisoned"))?;
            match cache.iter().find(|(k, _)| Arc::ptr_eq(k, &b.texture)) {
                Some((_, t)) => Arc::clone(t),
                None => {
                    let t =
                        Arc::new(convert_texture(&b.texture).map_err(|e| shade_error(stage, e))?);
                    if cache.len() >= CACHED_TEXTURES {
                        cache.remove(0);
                    }
                    cache.push((Arc::clone(&b.texture), Arc::clone(&t)));
                    t
                }
            }
        };
        let mut state = SamplerState::default();
        let mut stage_state = StageState::default();
        for &(s, v) in &b.states {
            let name = match s {
                tss::ADDRESSU => "addressu",
                tss::ADDRESSV => "addressv",
                tss::ADDRESSW => "addressw",
                tss::MAGFILTER => "magfilter",
                tss::MINFILTER => "minfilter",
                tss::MIPFILTER => "mipfilter",
                tss::MAXMIPLEVEL => "maxmiplevel",
                tss::BORDERCOLOR => "bordercolor",
                tss::MIPMAPLODBIAS => {
                    state.mip_lod_bias = f32::from_bits(v);
                    continue;
                }
                tss::BUMPENVMAT00..=tss::BUMPENVMAT11 => {
                    stage_state.bump_env_mat[(s - tss::BUMPENVMAT00) as usize] = f32::from_bits(v);
                    continue;
                }
                tss::BUMPENVLSCALE => {
                    stage_state.bump_env_lscale = f32::from_bits(v);
                    continue;
                }
                tss::BUMPENVLOFFSET => {
                    stage_state.bump_env_loffset = f32::from_bits(v);
                    continue;
                }
                tss::TEXTURETRANSFORMFLAGS => {
                    stage_state.texture_transform_flags = v;
                    continue;
                }
                _ => continue,
            };
            state
                .set(name, &v.to_string())
                .map_err(|e| shade_error(stage, e))?;
        }
        if !state.mip_lod_bias.is_finite() {
            return Err(shade_error(stage, "MIPMAPLODBIAS is not a finite number"));
        }
        out.push(Sampler {
            texture: Some(texture),
            state,
            stage: stage_state,
            dimension: None,
        });
    }
    Ok(out)
}

fn exec_resources(
    r: &DrawResources,
    cache: &TextureCache,
    stage: &'static str,
) -> Result<dxso_exec::Resources, ShadeError> {
    Ok(dxso_exec::Resources {
        constants: dxso_exec::Constants {
            float: r.constants.float.clone(),
            int: r.constants.int.clone(),
            bool: r.constants.bool.iter().map(|&b| b != 0).collect(),
        },
        samplers: samplers(r, cache, stage)?,
    })
}

/// A vertex shader run by `dxso-exec`.
pub struct ExecVertex {
    exec: VertexShader,
    signature: VertexSignature,
    inputs: Vec<InputRegister>,
    position: OutputRegister,
    point_size: Option<OutputRegister>,
    outputs: Vec<OutputRegister>,
    textures: TextureCache,
    trace: Option<(Arc<Trace>, usize)>,
}

struct BoundVertex<'a> {
    stage: &'a ExecVertex,
    resources: dxso_exec::Resources,
    /// The trace and this binding's run in it.
    run: Option<(&'a Trace, usize)>,
}

impl VertexStage for ExecVertex {
    fn signature(&self) -> &VertexSignature {
        &self.signature
    }

    fn bind<'a>(
        &'a self,
        resources: &'a DrawResources,
    ) -> Result<Box<dyn VertexProgram + 'a>, ShadeError> {
        let resources = exec_resources(resources, &self.textures, "vertex")?;
        let run = self
            .trace
            .as_ref()
            .map(|(t, shader)| (&**t, t.bind(*shader, &resources, false)));
        Ok(Box::new(BoundVertex {
            stage: self,
            resources,
            run,
        }))
    }
}

impl VertexProgram for BoundVertex<'_> {
    fn run(&self, batch: &VertexInputs<'_>, out: &mut VertexOutputs) -> Result<(), ShadeError> {
        let s = self.stage;
        let mut exec_batch = dxso_exec::VertexBatch::new(batch.count);
        for (r, values) in s.inputs.iter().zip(batch.inputs) {
            exec_batch.set(*r, values.to_vec());
        }
        if let Some((trace, run)) = self.run {
            trace.vertices(run, &exec_batch);
        }
        let result = s
            .exec
            .run(&exec_batch, &self.resources)
            .map_err(|e| shade_error("vertex", e))?;
        let copy = |r: OutputRegister, to: &mut [[f32; 4]]| {
            if let Some(v) = result.get(r) {
                to.copy_from_slice(v);
            }
        };
        copy(s.position, &mut out.positions);
        for (r, to) in s.outputs.iter().zip(out.varyings.iter_mut()) {
            copy(*r, to);
        }
        if let (Some(r), Some(v)) = (s.point_size, s.point_size.and_then(|r| result.get(r))) {
            let _ = r;
            out.point_sizes
                .iter_mut()
                .zip(v)
                .for_each(|(p, v)| *p = v[0]);
        }
        Ok(())
    }
}

/// A pixel shader run by `dxso-exec`.
pub struct ExecPixel {
    exec: PixelShader,
    signature: PixelSignature,
    inputs: Vec<InputRegister>,
    position: bool,
    face: bool,
    textures: TextureCache,
    trace: Option<(Arc<Trace>, usize)>,
}

struct BoundPixel<'a> {
    stage: &'a ExecPixel,
    resources: dxso_exec::Resources,
    /// The trace and this binding's run in it.
    run: Option<(&'a Trace, usize)>,
}

impl PixelStage for ExecPixel {
    fn signature(&self) -> &PixelSignature {
        &self.signature
    }

    fn bind<'a>(
        &'a self,
        resources: &'a DrawResources,
    ) -> Result<Box<dyn PixelProgram + 'a>, ShadeError> {
        let resources = exec_resources(resources, &self.textures, "pixel")?;
        let run = self
            .trace
            .as_ref()
            .map(|(t, shader)| (&**t, t.bind(*shader, &resources, true)));
        Ok(Box::new(BoundPixel {
            stage: self,
            resources,
            run,
        }))
    }
}

impl PixelProgram for BoundPixel<'_> {
    fn run(&self, batch: &PixelInputs<'_>, out: &mut PixelOutputs) -> Result<(), ShadeError> {
        let s = self.stage;
        let mut q = QuadBatch::new(batch.lanes / 4);
        for (r, values) in s.inputs.iter().zip(batch.inputs) {
            q.set(*r, values.to_vec());
        }
        if s.position {
            q.set(
                InputRegister::Pos,
                batch
                    .positions
                    .iter()
                    .map(|p| [p[0], p[1], 0.0, 0.0])
                    .collect(),
            );
        }
        if s.face {
            q.set(
                InputRegister::Face,
                batch.faces.iter().map(|&f| [f, f, f, f]).collect(),
            );
        }
        q.coverage = batch.covered.to_vec();
        if let Some((trace, run)) = self.run {
            trace.quads(run, &q, batch.positions);
        }
        let result = s
            .exec
            .run(&q, &self.resources)
            .map_err(|e| shade_error("pixel", e))?;
        if let Some(c) = result.get(OutputRegister::Target(0)) {
            out.colors.copy_from_slice(c);
        }
        if let Some(d) = result.get(OutputRegister::Depth) {
            out.depths.iter_mut().zip(d).for_each(|(o, d)| *o = d[0]);
        }
        // The executor flags uncovered lanes as discarded too; the pipeline skips those anyway.
        out.discarded.copy_from_slice(&result.discarded);
        Ok(())
    }
}
