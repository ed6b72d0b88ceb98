//! The pipeline's only view of shaders: a vertex stage and a pixel stage, each bound once per
//! draw to that draw's constants and textures ([`DrawResources`]) and then run on batches.
//!
//! The engine behind them is a choice of the caller: [`crate::exec`] runs `dxso-exec`, and
//! tests drive the pipeline with plain Rust ([`FnVertex`], [`FnPixel`]). Batches are laid out
//! structure-of-arrays: one slice per input or output, one entry per vertex or pixel lane.
//! Pixel lanes come in 2x2 quads: lane `4q` is the pixel at (x, y), `4q + 1` at (x + 1, y),
//! `4q + 2` at (x, y + 1), `4q + 3` at (x + 1, y + 1); every lane of a quad is shaded, covered
//! or not, so derivatives (`dsx`, `dsy`, texture LOD) see all four.

use dxso::DeclUsage;
use dxso_dp2::device::ConstantFile;
use dxso_dp2::texture::Texture;
use std::sync::Arc;
use thiserror::Error;

/// What a varying means, as Direct3D 9 declares it: a usage and its index (`COLOR0`,
/// `TEXCOORD3`, `FOG0`). Shaders of model 1 and 2 have fixed meanings per register (`oD1` is
/// COLOR1, `t2` is TEXCOORD2); model 3 declares them with `dcl_*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Semantic {
    /// The usage.
    pub usage: DeclUsage,
    /// The usage index.
    pub index: u8,
}

impl Semantic {
    /// `usage` with `index`.
    pub const fn new(usage: DeclUsage, index: u8) -> Semantic {
        Semantic { usage, index }
    }

    /// POSITION0.
    pub const POSITION: Semantic = Semantic::new(DeclUsage::Position, 0);
}

impl std::fmt::Display for Semantic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}{}",
            self.usage.name().to_ascii_uppercase(),
            self.index
        )
    }
}

/// A shader failed while running (an executor error: a runaway loop, a missing texture).
#[derive(Debug, Error, Clone, PartialEq)]
#[error("{stage} shader: {message}")]
pub struct ShadeError {
    /// `vertex` or `pixel`.
    pub stage: &'static str,
    /// What went wrong.
    pub message: String,
}

/// A texture and its sampler states, as a draw binds it to one sampler.
#[derive(Clone, Debug)]
pub struct SamplerBinding {
    /// The texture.
    pub texture: Arc<Texture>,
    /// The `D3DTSS_*` sampler states of the stage, by number (`dxso_dp2::device::tss`), with
    /// defaults filled in: ADDRESSU, ADDRESSV, ADDRESSW, BORDERCOLOR, MAGFILTER, MINFILTER,
    /// MIPFILTER, MIPMAPLODBIAS, MAXMIPLEVEL, MAXANISOTROPY.
    pub states: Vec<(u32, u32)>,
}

/// What one draw binds to a stage: constants and samplers.
#[derive(Clone, Debug, Default)]
pub struct DrawResources {
    /// Float, integer and boolean constants as the stream set them.
    pub constants: ConstantFile,
    /// Sampler `i` of the stage (pixel `s0..s15`; vertex `s0..s3`), when a texture is bound.
    pub samplers: Vec<Option<SamplerBinding>>,
}

/// The interface of a vertex shader: what it reads and writes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VertexSignature {
    /// The vertex elements it reads, in the order of [`VertexInputs::inputs`].
    pub inputs: Vec<Semantic>,
    /// The varyings it writes besides the position, in the order of
    /// [`VertexOutputs::varyings`].
    pub outputs: Vec<Semantic>,
    /// Whether it writes a point size (`oPts`, or a PSIZE output).
    pub point_size: bool,
}

/// The interface of a pixel shader.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PixelSignature {
    /// The varyings it reads, in the order of [`PixelInputs::inputs`].
    pub inputs: Vec<Semantic>,
    /// Whether colour inputs are saturated to 0..1 before it reads them (shader models 1
    /// and 2, whose colour registers hold values in that range).
    pub clamps_colors: bool,
    /// Whether it writes `oDepth`.
    pub writes_depth: bool,
    /// Whether it can discard pixels (`texkill`).
    pub may_discard: bool,
}

/// A batch of vertices.
pub struct VertexInputs<'a> {
    /// Vertices in the batch.
    pub count: usize,
    /// One slice per [`VertexSignature::inputs`] entry, `count` values each.
    pub inputs: &'a [&'a [[f32; 4]]],
}

/// What a vertex batch produced; the pipeline sizes it before the call.
#[derive(Clone, Debug, Default)]
pub struct VertexOutputs {
    /// Clip-space positions.
    pub positions: Vec<[f32; 4]>,
    /// One array per [`VertexSignature::outputs`] entry.
    pub varyings: Vec<Vec<[f32; 4]>>,
    /// Point sizes (when the signature says it writes them).
    pub point_sizes: Vec<f32>,
}

/// A batch of 2x2 quads.
pub struct PixelInputs<'a> {
    /// Lanes: four per quad.
    pub lanes: usize,
    /// One slice per [`PixelSignature::inputs`] entry, `lanes` values each.
    pub inputs: &'a [&'a [[f32; 4]]],
    /// `vPos` per lane: the pixel's integer screen coordinates.
    pub positions: &'a [[f32; 2]],
    /// `vFace` per lane: +1 front-facing (clockwise on screen), -1 back-facing.
    pub faces: &'a [f32],
    /// Whether each lane is a pixel of the primitive (helper lanes are not).
    pub covered: &'a [bool],
}

/// What a pixel batch produced; the pipeline sizes it before the call.
#[derive(Clone, Debug, Default)]
pub struct PixelOutputs {
    /// `oC0` per lane.
    pub colors: Vec<[f32; 4]>,
    /// `oDepth` per lane (when the signature says it writes depth).
    pub depths: Vec<f32>,
    /// Lanes the shader discarded.
    pub discarded: Vec<bool>,
}

/// A vertex shader bound to one draw's resources.
pub trait VertexProgram: Sync {
    /// Runs one batch into `out` (sized by the caller to `batch.count`).
    fn run(&self, batch: &VertexInputs<'_>, out: &mut VertexOutputs) -> Result<(), ShadeError>;
}

/// A pixel shader bound to one draw's resources.
pub trait PixelProgram: Sync {
    /// Runs one batch of quads into `out` (sized by the caller to `batch.lanes`).
    fn run(&self, batch: &PixelInputs<'_>, out: &mut PixelOutputs) -> Result<(), ShadeError>;
}

/// A vertex shader as the pipeline sees it.
pub trait VertexStage: Send + Sync {
    /// Its interface.
    fn signature(&self) -> &VertexSignature;
    /// Binds it to a draw's constants and samplers.
    fn bind<'a>(
        &'a self,
        resources: &'a DrawResources,
    ) -> Result<Box<dyn VertexProgram + 'a>, ShadeError>;
}

/// A pixel shader as the pipeline sees it.
pub trait PixelStage: Send + Sync {
    /// Its interface.
    fn signature(&self) -> &PixelSignature;
    /// Binds it to a draw's constants and samplers.
    fn bind<'a>(
        &'a self,
        resources: &'a DrawResources,
    ) -> Result<Box<dyn PixelProgram + 'a>, ShadeError>;
}

/// A vertex shader written in Rust: `f(inputs, resources)` gives the clip position and the
/// outputs of one vertex.
pub struct FnVertex<F> {
    signature: VertexSignature,
    f: F,
}

impl<F> FnVertex<F>
where
    F: Fn(&[[f32; 4]], &DrawResources) -> ([f32; 4], Vec<[f32; 4]>) + Send + Sync,
{
    /// A stage reading `inputs` and writing `outputs` through `f`.
    pub fn new(inputs: Vec<Semantic>, outputs: Vec<Semantic>, f: F) -> Self {
        FnVertex {
            signature: VertexSignature {
                inputs,
                outputs,
                point_size: false,
            },
            f,
        }
    }
}

struct BoundFnVertex<'a, F> {
    stage: &'a FnVertex<F>,
    resources: &'a DrawResources,
}

impl<F> VertexStage for FnVertex<F>
where
    F: Fn(&[[f32; 4]], &DrawResources) -> ([f32; 4], Vec<[f32; 4]>) + Send + Sync,
{
    fn signature(&self) -> &VertexSignature {
        &self.signature
    }

    fn bind<'a>(
        &'a self,
        resources: &'a DrawResources,
    ) -> Result<Box<dyn VertexProgram + 'a>, ShadeError> {
        Ok(Box::new(BoundFnVertex {
            stage: self,
            resources,
        }))
    }
}

impl<F> VertexProgram for BoundFnVertex<'_, F>
where
    F: Fn(&[[f32; 4]], &DrawResources) -> ([f32; 4], Vec<[f32; 4]>) + Send + Sync,
{
    fn run(&self, batch: &VertexInputs<'_>, out: &mut VertexOutputs) -> Result<(), ShadeError> {
        let mut inputs = vec![[0.0; 4]; batch.inputs.len()];
        for v in 0..batch.count {
            for (i, input) in batch.inputs.iter().enumerate() {
                inputs[i] = input[v];
            }
            let (position, varyings) = (self.stage.f)(&inputs, self.resources);
            out.positions[v] = position;
            for (o, value) in out.varyings.iter_mut().zip(varyings) {
                o[v] = value;
            }
        }
        Ok(())
    }
}

/// One quad handed to a [`FnPixel`]: per lane, the inputs, `vPos`, `vFace` and coverage.
pub struct Quad<'a> {
    /// `inputs[i][lane]`, in signature order.
    pub inputs: Vec<[[f32; 4]; 4]>,
    /// `vPos` of the four lanes.
    pub positions: [[f32; 2]; 4],
    /// `vFace` of the four lanes.
    pub faces: [f32; 4],
    /// Coverage of the four lanes.
    pub covered: [bool; 4],
    /// The draw's resources.
    pub resources: &'a DrawResources,
}

/// A pixel shader written in Rust: `f(quad)` gives each lane's colour, or `None` to discard it.
pub struct FnPixel<F> {
    signature: PixelSignature,
    f: F,
}

impl<F> FnPixel<F>
where
    F: Fn(&Quad<'_>) -> [Option<[f32; 4]>; 4] + Send + Sync,
{
    /// A stage reading `inputs` through `f` (no colour clamp, no depth output).
    pub fn new(inputs: Vec<Semantic>, f: F) -> Self {
        FnPixel {
            signature: PixelSignature {
                inputs,
                clamps_colors: false,
                writes_depth: false,
                may_discard: true,
            },
            f,
        }
    }

    /// The same stage with colour inputs saturated, as shader models 1 and 2 have them.
    pub fn clamping_colors(mut self) -> Self {
        self.signature.clamps_colors = true;
        self
    }
}

struct BoundFnPixel<'a, F> {
    stage: &'a FnPixel<F>,
    resources: &'a DrawResources,
}

impl<F> PixelStage for FnPixel<F>
where
    F: Fn(&Quad<'_>) -> [Option<[f32; 4]>; 4] + Send + Sync,
{
    fn signature(&self) -> &PixelSignature {
        &self.signature
    }

    fn bind<'a>(
        &'a self,
        resources: &'a DrawResources,
    ) -> Result<Box<dyn PixelProgram + 'a>, ShadeError> {
        Ok(Box::new(BoundFnPixel {
            stage: self,
            resources,
        }))
    }
}

impl<F> PixelProgram for BoundFnPixel<'_, F>
where
    F: Fn(&Quad<'_>) -> [Option<[f32; 4]>; 4] + Send + Sync,
{
    fn run(&self, batch: &PixelInputs<'_>, out: &mut PixelOutputs) -> Result<(), ShadeError> {
        for q in 0..batch.lanes / 4 {
            let lanes = 4 * q..4 * q + 4;
            let quad = Quad {
                inputs: batch
                    .inputs
                    .iter()
                    .map(|input| std::array::from_fn(|l| input[4 * q + l]))
                    .collect(),
                positions: std::array::from_fn(|l| batch.positions[4 * q + l]),
                faces: std::array::from_fn(|l| batch.faces[4 * q + l]),
                covered: std::array::from_fn(|l| batch.covered[4 * q + l]),
                resources: self.resources,
            };
            for (lane, result) in lanes.zip((self.stage.f)(&quad)) {
                match result {
                    Some(c) => out.colors[lane] = c,
                    None => out.discarded[lane] = true,
                }
            }
        }
        Ok(())
    }
}

/// Compiles the shaders a stream creates into stages (for example with `dxso-exec`).
pub trait StageEngine: Sync {
    /// A vertex stage for `shader`.
    fn vertex_stage(
        &self,
        shader: &dxso::Shader,
    ) -> Result<std::sync::Arc<dyn VertexStage>, crate::RenderError>;
    /// A pixel stage for `shader`.
    fn pixel_stage(
        &self,
        shader: &dxso::Shader,
    ) -> Result<std::sync::Arc<dyn PixelStage>, crate::RenderError>;
}
