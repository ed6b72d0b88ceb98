//! What a generated program needs from whoever runs it, and what it gives back: the inputs it
//! reads, the constants, samplers and texture stages it uses, the outputs it writes.

use dxso::{DeclUsage, Register, TextureType, Version, WriteMask};

/// An input register the program reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputUse {
    /// The register (`v#`, ps_2_x `t#`, ps_3_0 `vPos`/`vFace`, ps_1_x `v0`/`v1` and the `t#`
    /// texture coordinates that texture instructions read).
    pub register: Register,
    /// The components the program reads (a subset of [`InputUse::declared`]).
    pub read: WriteMask,
    /// The components the `dcl` declares (everything for shader model 1 inputs, which have none).
    pub declared: WriteMask,
    /// The declared usage and usage index (vertex shaders and ps_3_0 `v#`).
    pub usage: Option<(DeclUsage, u8)>,
    /// ps_2_0+: declared `_centroid`.
    pub centroid: bool,
}

/// A float constant register the program reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FloatConstantUse {
    /// The register number (`c#`).
    pub index: u32,
    /// The value `def` gives it (bit patterns; `def` overrides what the application sets), or
    /// `None` when the application must set it.
    pub defined: Option<[u32; 4]>,
}

/// An integer constant register the program reads (`loop`, `rep`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntConstantUse {
    /// The register number (`i#`).
    pub index: u16,
    /// The value `defi` gives it: every integer constant the generator uses is defined, so loop
    /// trip counts are known.
    pub defined: [i32; 4],
}

/// A boolean constant register the program reads (`if b#`, `callnz l#, b#`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoolConstantUse {
    /// The register number (`b#`).
    pub index: u16,
    /// The value `defb` gives it, or `None` when the application must set it.
    pub defined: Option<bool>,
}

/// A sampler (shader model 2+) or texture stage (ps_1_x) the program samples.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SamplerUse {
    /// The sampler number `s#`, or in ps_1_x the texture stage (the `t#` or ps_1_4 `r#` the
    /// texture instruction writes).
    pub index: u16,
    /// The declared texture type; for ps_1_x, which declares none, the type the instruction
    /// samples naturally (2D for 2D coordinates, cube for the `texm3x3` lookups, volume for
    /// `texreg2rgb`).
    pub texture_type: TextureType,
    /// `true` when a `dcl` declares it (shader model 2+).
    pub declared: bool,
    /// ps_1_x: the stage's bump-environment matrix is read (`texbem`, `texbeml`, `bem`).
    pub bump_matrix: bool,
    /// ps_1_x: the stage's bump luminance scale and offset are read (`texbeml`).
    pub bump_luminance: bool,
}

/// An output register the program writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputUse {
    /// The register: `oPos`, `oD#`, `oT#`, `oFog`, `oPts`, vs_3_0 `o#`, `oC#`, `oDepth`. A ps_1_x
    /// program's colour result is `r0` (Microsoft's tools print it as `oC0`); its depth, when
    /// `texdepth`/`texm3x2depth` writes one, is reported as `oDepth`.
    pub register: Register,
    /// The components written. Every component listed is written on every path through the
    /// program, so its value is defined whenever the program runs to its end.
    pub mask: WriteMask,
    /// vs_3_0: the declared usage and usage index.
    pub usage: Option<(DeclUsage, u8)>,
}

/// Everything a test needs to run a generated program: see [`crate::Shader::interface`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Interface {
    /// Inputs read, sorted by register.
    pub inputs: Vec<InputUse>,
    /// Float constants read (directly, through relative addressing, or as matrix rows), sorted by
    /// index.
    pub float_constants: Vec<FloatConstantUse>,
    /// Integer constants read, sorted by index.
    pub int_constants: Vec<IntConstantUse>,
    /// Boolean constants read, sorted by index.
    pub bool_constants: Vec<BoolConstantUse>,
    /// Samplers or texture stages sampled, sorted by index.
    pub samplers: Vec<SamplerUse>,
    /// Outputs written, sorted by register.
    pub outputs: Vec<OutputUse>,
    /// The program may discard the pixel (`texkill`).
    pub may_discard: bool,
    /// An upper bound on the instruction slots one invocation executes (loop trip counts and
    /// calls multiplied out): an executor's instruction budget at least this large never trips.
    pub max_executed_slots: u64,
    /// With [`crate::Config::finite_values`]: the bound assumed for inputs, application-set
    /// constants and texels (`None` when values were not kept finite).
    pub assumed_input_bound: Option<f32>,
}

impl Interface {
    /// The input use of `register`, if the program reads it.
    pub fn input(&self, register: Register) -> Option<&InputUse> {
        self.inputs.iter().find(|i| i.register == register)
    }

    /// The output use of `register`, if the program writes it.
    pub fn output(&self, register: Register) -> Option<&OutputUse> {
        self.outputs.iter().find(|o| o.register == register)
    }

    /// The float constants the application must set (read and not defined by `def`).
    pub fn float_constants_to_set(&self) -> impl Iterator<Item = u32> + '_ {
        self.float_constants
            .iter()
            .filter(|c| c.defined.is_none())
            .map(|c| c.index)
    }

    /// A one-line summary (`vs_3_0: 3 inputs, 5 float constants, 1 sampler, 2 outputs`).
    pub fn summary(&self, version: Version) -> String {
        format!(
            "{version}: {} inputs, {} float / {} int / {} bool constants, {} samplers, {} outputs{}",
            self.inputs.len(),
            self.float_constants.len(),
            self.int_constants.len(),
            self.bool_constants.len(),
            self.samplers.len(),
            self.outputs.len(),
            if self.may_discard { ", may discard" } else { "" }
        )
    }
}
