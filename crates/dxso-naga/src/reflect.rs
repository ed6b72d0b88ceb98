//! What a translated module expects from its caller: which location holds which usage, which
//! constants it reads, which samplers it samples with which texture type.

use dxso::{DeclUsage, Register, TextureType};

/// The stage of the entry point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// A vertex entry point.
    Vertex,
    /// A fragment entry point.
    Fragment,
    /// A vertex shader as a compute entry point (`vertex_as_compute`).
    Compute,
}

/// Where an input or output is bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    /// A `@location`.
    Location(u32),
    /// The built-in position (vertex output), or the fragment coordinate (`vPos`).
    Position,
    /// The front-facing flag (`vFace`, as +1.0 / -1.0).
    FrontFacing,
    /// The fragment depth (`oDepth`).
    FragDepth,
}

/// One input or output of the shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Varying {
    /// The register that holds it in the shader (`v3`, `oT0`, `o2`, `oC0`, `vPos`).
    pub register: Register,
    /// Its usage.
    pub usage: DeclUsage,
    /// Its usage index.
    pub usage_index: u8,
    /// Where it is bound.
    pub slot: Slot,
}

/// One sampler the shader samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SamplerBinding {
    /// The sampler register number (`s<n>`, or the texture stage in ps_1_x).
    pub sampler: u32,
    /// The texture type it samples.
    pub texture_type: TextureType,
    /// The binding of the texture.
    pub texture_binding: u32,
    /// The binding of the sampler state.
    pub sampler_binding: u32,
}

/// Everything a caller needs to bind a translated shader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reflection {
    /// The entry point's stage.
    pub stage: Stage,
    /// The entry point's name.
    pub entry_point: String,
    /// The bind group of every resource.
    pub bind_group: u32,
    /// Inputs, sorted by slot (locations ascending, then built-ins).
    pub inputs: Vec<Varying>,
    /// Outputs: the position first (vertex shaders), then locations ascending, then the depth.
    pub outputs: Vec<Varying>,
    /// Float constant registers read by index, ascending (`def`-defined ones excluded).
    pub float_constants: Vec<u32>,
    /// `true` when some float constant is read with relative addressing (any may be read).
    pub float_constants_relative: bool,
    /// Integer constant registers read, ascending.
    pub int_constants: Vec<u32>,
    /// Boolean constant registers read, ascending.
    pub bool_constants: Vec<u32>,
    /// Texture stages whose bump-environment matrix is read (`texbem`, `texbeml`, `bem`).
    pub bump_stages: Vec<u32>,
    /// Samplers, ascending.
    pub samplers: Vec<SamplerBinding>,
    /// `true` when the shader may discard (`texkill`).
    pub discards: bool,
    /// `true` when the shader uses derivatives (`dsx`, `dsy`, implicit-level sampling).
    pub derivatives: bool,
}
