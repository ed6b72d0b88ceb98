//! What goes into a run and what comes out: inputs by register, constants, outputs by register.
//!
//! These are plain data a renderer, a GPU runner or a command line fills; the same values feed
//! any engine (this interpreter, a JIT, a Vulkan device).

use std::fmt;

/// An input register of a shader invocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum InputRegister {
    /// `v#`: a vertex attribute, a ps < 3 colour, a ps_3_0 input.
    V(u8),
    /// `t#`: a pixel shader's texture coordinate set (ps < 3).
    T(u8),
    /// `vPos` (ps_3_0).
    Pos,
    /// `vFace` (ps_3_0).
    Face,
}

impl fmt::Display for InputRegister {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputRegister::V(n) => write!(f, "v{n}"),
            InputRegister::T(n) => write!(f, "t{n}"),
            InputRegister::Pos => f.write_str("vPos"),
            InputRegister::Face => f.write_str("vFace"),
        }
    }
}

impl InputRegister {
    /// Parses `v0`, `t3`, `vPos`, `vFace` (case-insensitive).
    pub fn parse(s: &str) -> Option<Self> {
        let l = s.to_ascii_lowercase();
        match l.as_str() {
            "vpos" => return Some(InputRegister::Pos),
            "vface" => return Some(InputRegister::Face),
            _ => {}
        }
        let (prefix, num) = l.split_at(1.min(l.len()));
        let n: u8 = num.parse().ok()?;
        match prefix {
            "v" if n < 16 => Some(InputRegister::V(n)),
            "t" if n < 8 => Some(InputRegister::T(n)),
            _ => None,
        }
    }
}

/// An output register of a shader invocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OutputRegister {
    /// `oPos`.
    Pos,
    /// `oFog` (a scalar in `.x`).
    Fog,
    /// `oPts` (a scalar in `.x`).
    PointSize,
    /// `oD#`.
    Color(u8),
    /// `oT#`.
    TexCoord(u8),
    /// `o#` (vs_3_0).
    O(u8),
    /// `oC#` (ps_1_x: `r0` at the end).
    Target(u8),
    /// `oDepth` (a scalar in `.x`; also `texdepth` and `texm3x2depth`).
    Depth,
}

impl fmt::Display for OutputRegister {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputRegister::Pos => f.write_str("oPos"),
            OutputRegister::Fog => f.write_str("oFog"),
            OutputRegister::PointSize => f.write_str("oPts"),
            OutputRegister::Color(n) => write!(f, "oD{n}"),
            OutputRegister::TexCoord(n) => write!(f, "oT{n}"),
            OutputRegister::O(n) => write!(f, "o{n}"),
            OutputRegister::Target(n) => write!(f, "oC{n}"),
            OutputRegister::Depth => f.write_str("oDepth"),
        }
    }
}

/// One input register's value for every invocation of a batch.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    /// The register.
    pub register: InputRegister,
    /// One value per invocation (per pixel for quads, four per quad).
    pub values: Vec<[f32; 4]>,
}

/// The constants of a run: the application's `SetVertexShaderConstantF/I/B` (or pixel) values.
/// Registers past the end of a vector read zero / false; the shader's `def*` override them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Constants {
    /// `c#`.
    pub float: Vec<[f32; 4]>,
    /// `i#`.
    pub int: Vec<[i32; 4]>,
    /// `b#`.
    pub bool: Vec<bool>,
}

/// A batch of vertex invocations.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VertexBatch {
    /// How many vertices.
    pub count: usize,
    /// Input registers; each holds `count` values. Registers not listed read (0, 0, 0, 0).
    pub inputs: Vec<Attribute>,
}

impl VertexBatch {
    /// A batch of `count` vertices with no inputs yet.
    pub fn new(count: usize) -> Self {
        VertexBatch {
            count,
            inputs: Vec::new(),
        }
    }

    /// Adds (or replaces) an input register.
    pub fn set(&mut self, register: InputRegister, values: Vec<[f32; 4]>) -> &mut Self {
        self.inputs.retain(|a| a.register != register);
        self.inputs.push(Attribute { register, values });
        self
    }
}

/// A batch of 2x2 pixel quads: pixel `4q + 0` is the quad's top left, `+ 1` top right, `+ 2`
/// bottom left, `+ 3` bottom right.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QuadBatch {
    /// How many quads (pixels: four times as many).
    pub quads: usize,
    /// Interpolated input registers, one value per pixel.
    pub inputs: Vec<Attribute>,
    /// Per pixel: inside the primitive. Empty means every pixel is covered. Uncovered pixels
    /// run (their neighbours' derivatives need them) and are reported discarded.
    pub coverage: Vec<bool>,
}

impl QuadBatch {
    /// A batch of `quads` quads, all covered, with no inputs yet.
    pub fn new(quads: usize) -> Self {
        QuadBatch {
            quads,
            inputs: Vec::new(),
            coverage: Vec::new(),
        }
    }

    /// Adds (or replaces) an input register (one value per pixel).
    pub fn set(&mut self, register: InputRegister, values: Vec<[f32; 4]>) -> &mut Self {
        self.inputs.retain(|a| a.register != register);
        self.inputs.push(Attribute { register, values });
        self
    }

    /// Pixels in the batch.
    pub fn pixels(&self) -> usize {
        self.quads * 4
    }
}

/// The outputs of a run: every register the shader writes, one value per invocation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outputs {
    /// Invocations.
    pub count: usize,
    /// The registers the shader writes, in register order, each with `count` values. Components
    /// a shader does not write are 0.
    pub registers: Vec<(OutputRegister, Vec<[f32; 4]>)>,
    /// Pixel shaders: per pixel, `texkill` discarded it or it is not covered. Empty for vertex
    /// shaders.
    pub discarded: Vec<bool>,
}

impl Outputs {
    /// The values of one output register, if the shader writes it.
    pub fn get(&self, register: OutputRegister) -> Option<&[[f32; 4]]> {
        self.registers
            .iter()
            .find(|(r, _)| *r == register)
            .map(|(_, v)| v.as_slice())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_names() {
        for r in [
            InputRegister::V(3),
            InputRegister::T(7),
            InputRegister::Pos,
            InputRegister::Face,
        ] {
            assert_eq!(InputRegister::parse(&r.to_string()), Some(r));
        }
        assert_eq!(InputRegister::parse("v16"), None);
        assert_eq!(InputRegister::parse("x1"), None);
        assert_eq!(InputRegister::parse(""), None);
        assert_eq!(OutputRegister::Target(2).to_string(), "oC2");
        assert_eq!(OutputRegister::PointSize.to_string(), "oPts");
    }
}
