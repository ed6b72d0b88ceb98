//! Instructions, declarations, immediates, comments and whole shaders.

use crate::opcode::{Opcode, Operands};
use crate::param::{DstParam, SrcParam};
use crate::version::Version;
use std::fmt;
use std::ops::{Deref, DerefMut};

/// A comparison of `ifc`, `breakc` and `setp` (bits 16-18 of the instruction token).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Comparison {
    /// `_gt`.
    Gt = 1,
    /// `_eq`.
    Eq = 2,
    /// `_ge`.
    Ge = 3,
    /// `_lt`.
    Lt = 4,
    /// `_ne`.
    Ne = 5,
    /// `_le`.
    Le = 6,
}

impl Comparison {
    /// Decodes the 3-bit field; 0 and 7 are reserved.
    pub const fn from_raw(raw: u8) -> Option<Self> {
        Some(match raw {
            1 => Comparison::Gt,
            2 => Comparison::Eq,
            3 => Comparison::Ge,
            4 => Comparison::Lt,
            5 => Comparison::Ne,
            6 => Comparison::Le,
            _ => return None,
        })
    }

    /// The suffix Microsoft prints (`gt`, `eq`, ...), without the underscore.
    pub const fn suffix(self) -> &'static str {
        match self {
            Comparison::Gt => "gt",
            Comparison::Eq => "eq",
            Comparison::Ge => "ge",
            Comparison::Lt => "lt",
            Comparison::Ne => "ne",
            Comparison::Le => "le",
        }
    }

    /// Evaluates the comparison.
    pub fn test(self, a: f32, b: f32) -> bool {
        match self {
            Comparison::Gt => a > b,
            Comparison::Eq => a == b,
            Comparison::Ge => a >= b,
            Comparison::Lt => a < b,
            Comparison::Ne => a != b,
            Comparison::Le => a <= b,
        }
    }
}

/// The sampling mode of `texld` (bits 16-17 of the instruction token).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexldMode {
    /// `texld`.
    Plain,
    /// `texldp`: divide the coordinate by w.
    Project,
    /// `texldb`: add w to the level-of-detail bias.
    Bias,
}

impl TexldMode {
    /// The control-field value of this mode.
    pub const fn control(self) -> u8 {
        match self {
            TexldMode::Plain => 0,
            TexldMode::Project => 1,
            TexldMode::Bias => 2,
        }
    }
}

/// `D3DDECLUSAGE`: the meaning of a declared input or output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum DeclUsage {
    #[default]
    Position = 0,
    BlendWeight = 1,
    BlendIndices = 2,
    Normal = 3,
    PSize = 4,
    TexCoord = 5,
    Tangent = 6,
    Binormal = 7,
    TessFactor = 8,
    PositionT = 9,
    Color = 10,
    Fog = 11,
    Depth = 12,
    Sample = 13,
}

impl DeclUsage {
    /// Every usage, by value.
    pub const ALL: [DeclUsage; 14] = [
        DeclUsage::Position,
        DeclUsage::BlendWeight,
        DeclUsage::BlendIndices,
        DeclUsage::Normal,
        DeclUsage::PSize,
        DeclUsage::TexCoord,
        DeclUsage::Tangent,
        DeclUsage::Binormal,
        DeclUsage::TessFactor,
        DeclUsage::PositionT,
        DeclUsage::Color,
        DeclUsage::Fog,
        DeclUsage::Depth,
        DeclUsage::Sample,
    ];

    /// Decodes a raw usage value.
    pub const fn from_raw(raw: u8) -> Option<Self> {
        if (raw as usize) < Self::ALL.len() {
            Some(Self::ALL[raw as usize])
        } else {
            None
        }
    }

    /// The usage from its name, case-insensitive, with or without the SDK prefix
    /// (`texcoord`, `TEXCOORD`, `D3DDECLUSAGE_TEXCOORD`).
    pub fn from_name(name: &str) -> Option<Self> {
        let short = name
            .get(..13)
            .filter(|p| p.eq_ignore_ascii_case("D3DDECLUSAGE_"))
            .map_or(name, |_| &name[13..]);
        Self::ALL
            .into_iter()
            .find(|u| u.name().eq_ignore_ascii_case(short))
    }

    /// The name as printed after `dcl_` (`position`, `texcoord`, `positiont`).
    pub const fn name(self) -> &'static str {
        match self {
            DeclUsage::Position => "position",
            DeclUsage::BlendWeight => "blendweight",
            DeclUsage::BlendIndices => "blendindices",
            DeclUsage::Normal => "normal",
            DeclUsage::PSize => "psize",
            DeclUsage::TexCoord => "texcoord",
            DeclUsage::Tangent => "tangent",
            DeclUsage::Binormal => "binormal",
            DeclUsage::TessFactor => "tessfactor",
            DeclUsage::PositionT => "positiont",
            DeclUsage::Color => "color",
            DeclUsage::Fog => "fog",
            DeclUsage::Depth => "depth",
            DeclUsage::Sample => "sample",
        }
    }
}

/// `D3DSAMPLER_TEXTURE_TYPE` of a sampler declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum TextureType {
    /// No type (0): not a legal sampler declaration, seen only in hand-made shaders.
    Unknown = 0,
    /// `dcl_1d` (value 1, not accepted by Direct3D 9 runtimes).
    Texture1D = 1,
    /// `dcl_2d`.
    Texture2D = 2,
    /// `dcl_cube`.
    Cube = 3,
    /// `dcl_volume`.
    Volume = 4,
}

impl TextureType {
    /// Decodes a raw value.
    pub const fn from_raw(raw: u8) -> Option<Self> {
        Some(match raw {
            0 => TextureType::Unknown,
            1 => TextureType::Texture1D,
            2 => TextureType::Texture2D,
            3 => TextureType::Cube,
            4 => TextureType::Volume,
            _ => return None,
        })
    }

    /// The name as printed after `dcl_`.
    pub const fn name(self) -> &'static str {
        match self {
            TextureType::Unknown => "unknown",
            TextureType::Texture1D => "1d",
            TextureType::Texture2D => "2d",
            TextureType::Cube => "cube",
            TextureType::Volume => "volume",
        }
    }
}

/// The usage token of `dcl` (Microsoft's declaration-token documentation): which fields mean something depends on the register
/// declared and the shader version, so every field is kept, reserved bits included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct DclToken {
    /// Bits 0-4: `D3DDECLUSAGE` (inputs and outputs).
    pub usage_raw: u8,
    /// Bits 16-19: usage index.
    pub usage_index: u8,
    /// Bits 27-30: `D3DSAMPLER_TEXTURE_TYPE` (samplers).
    pub texture_type_raw: u8,
    /// Bits 5-15 and 20-26, which must be zero.
    pub reserved: u32,
}

impl DclToken {
    /// Bits of the token that belong to no field.
    pub const RESERVED_MASK: u32 = 0x07F0_FFE0;

    /// A declaration of an input or output with a usage.
    pub const fn usage(usage: DeclUsage, index: u8) -> Self {
        DclToken {
            usage_raw: usage as u8,
            usage_index: index,
            texture_type_raw: 0,
            reserved: 0,
        }
    }

    /// A sampler declaration.
    pub const fn sampler(ty: TextureType) -> Self {
        DclToken {
            usage_raw: 0,
            usage_index: 0,
            texture_type_raw: ty as u8,
            reserved: 0,
        }
    }

    /// Decodes the token (bit 31 is checked by the caller).
    pub const fn from_token(token: u32) -> Self {
        DclToken {
            usage_raw: (token & 0x1F) as u8,
            usage_index: ((token >> 16) & 0xF) as u8,
            texture_type_raw: ((token >> 27) & 0xF) as u8,
            reserved: token & Self::RESERVED_MASK,
        }
    }

    /// Encodes the token.
    #[inline(always)]
    pub const fn to_token(self) -> u32 {
        (self.usage_raw as u32 & 0x1F)
            | (self.usage_index as u32 & 0xF) << 16
            | (self.texture_type_raw as u32 & 0xF) << 27
            | (self.reserved & Self::RESERVED_MASK)
            | 1 << 31
    }

    /// The usage, when the raw value is one.
    pub const fn decl_usage(self) -> Option<DeclUsage> {
        DeclUsage::from_raw(self.usage_raw)
    }

    /// The sampler texture type, when the raw value is one.
    pub const fn texture_type(self) -> Option<TextureType> {
        TextureType::from_raw(self.texture_type_raw)
    }
}

/// The immediate values that follow the destination of `def`, `defi`, `defb` and the usage
/// token of `dcl`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Extra {
    /// Nothing.
    #[default]
    None,
    /// `dcl`'s usage token.
    Dcl(DclToken),
    /// `def`: four floats, kept as bit patterns so NaN payloads and `-0` survive.
    Def([u32; 4]),
    /// `defi`: four integers.
    DefI([i32; 4]),
    /// `defb`: the boolean DWORD (any non-zero is true; kept as written).
    DefB(u32),
}

impl Extra {
    /// The `def` values as floats.
    pub fn def_floats(&self) -> Option<[f32; 4]> {
        match self {
            Extra::Def(bits) => Some(bits.map(f32::from_bits)),
            _ => None,
        }
    }
}

/// Up to four source operands, stored inline so decoding allocates nothing per instruction.
///
/// Equality and hashing look only at the sources present, not at the unused slots.
#[derive(Clone, Copy, Default)]
pub struct Sources {
    pub(crate) len: u8,
    pub(crate) items: [SrcParam; Sources::CAPACITY],
}

impl Sources {
    /// The most sources any instruction has (`texldd`).
    pub const CAPACITY: usize = 4;

    /// No sources.
    pub const fn new() -> Self {
        Sources {
            len: 0,
            items: [SrcParam::new(
                crate::register::Register::new(crate::register::RegisterType::Temp, 0),
                crate::param::Swizzle::IDENTITY,
            ); Sources::CAPACITY],
        }
    }

    /// Sources from a slice; `None` when it holds more than [`Sources::CAPACITY`].
    pub fn from_slice(srcs: &[SrcParam]) -> Option<Self> {
        let mut out = Sources::new();
        for s in srcs {
            out.push(*s).ok()?;
        }
        Some(out)
    }

    /// Appends a source; gives it back when full.
    pub fn push(&mut self, src: SrcParam) -> Result<(), SrcParam> {
        if (self.len as usize) < Self::CAPACITY {
            self.items[self.len as usize] = src;
            self.len += 1;
            Ok(())
        } else {
            Err(src)
        }
    }
}

impl PartialEq for Sources {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for Sources {}

impl std::hash::Hash for Sources {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (**self).hash(state)
    }
}

impl Deref for Sources {
    type Target = [SrcParam];
    #[inline]
    fn deref(&self) -> &[SrcParam] {
        &self.items[..self.len as usize]
    }
}

impl DerefMut for Sources {
    #[inline]
    fn deref_mut(&mut self) -> &mut [SrcParam] {
        &mut self.items[..self.len as usize]
    }
}

impl fmt::Debug for Sources {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a Sources {
    type Item = &'a SrcParam;
    type IntoIter = std::slice::Iter<'a, SrcParam>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// One instruction with all its operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Instruction {
    /// The opcode.
    pub opcode: Opcode,
    /// Bits 16-23: the comparison of `ifc`/`breakc`/`setp`, the `texld` mode, else zero.
    pub control: u8,
    /// Bit 30: ps_1_x co-issue (printed as a `+` prefix).
    pub coissue: bool,
    /// Bit 29, reserved. Clear in real shaders; kept so re-encoding is exact.
    pub reserved: bool,
    /// Bits 24-27 in shader model 1, where the length field is unused (zero in real shaders).
    /// Shader model 2 and later compute the length on encoding instead.
    pub sm1_length: u8,
    /// The destination, if the opcode has one.
    pub dst: Option<DstParam>,
    /// The predicate source (`(p0.x)`, `(!p0)`) when bit 28 is set.
    pub predicate: Option<SrcParam>,
    /// The sources.
    pub srcs: Sources,
    /// `dcl`'s usage token or `def*` immediates.
    pub extra: Extra,
}

impl Instruction {
    /// An instruction with the given opcode and no operands.
    pub const fn new(opcode: Opcode) -> Self {
        Instruction {
            opcode,
            control: 0,
            coissue: false,
            reserved: false,
            sm1_length: 0,
            dst: None,
            predicate: None,
            srcs: Sources::new(),
            extra: Extra::None,
        }
    }

    /// The comparison, for `ifc`, `breakc` and `setp`.
    pub fn comparison(&self) -> Option<Comparison> {
        if self.opcode.has_comparison() {
            Comparison::from_raw(self.control & 7)
        } else {
            None
        }
    }

    /// The `texld` mode, for `tex`/`texld` in ps_1_4 and later (`texldp`, `texldb`).
    pub fn texld_mode(&self) -> Option<TexldMode> {
        if self.opcode != Opcode::Tex {
            return None;
        }
        Some(match self.control & 3 {
            1 => TexldMode::Project,
            2 => TexldMode::Bias,
            _ => TexldMode::Plain,
        })
    }

    /// The usage token of a `dcl`.
    pub fn dcl(&self) -> Option<DclToken> {
        match self.extra {
            Extra::Dcl(d) => Some(d),
            _ => None,
        }
    }

    /// `true` when the instruction is predicated (bit 28).
    pub fn is_predicated(&self) -> bool {
        self.predicate.is_some()
    }

    /// The operand shape this instruction has, for checks against the opcode table.
    pub fn operands(&self) -> Operands {
        match self.extra {
            Extra::Dcl(_) => Operands::Dcl,
            Extra::Def(_) => Operands::Def,
            Extra::DefI(_) => Operands::DefI,
            Extra::DefB(_) => Operands::DefB,
            Extra::None if self.dst.is_some() => Operands::DstSrc(self.srcs.len() as u8),
            Extra::None if self.srcs.is_empty() => Operands::None,
            Extra::None => Operands::Src(self.srcs.len() as u8),
        }
    }

    /// The number of DWORDs after the instruction token, as the shader model 2 length field
    /// counts them (relative-address and predicate tokens included).
    pub fn operand_token_count(&self) -> u32 {
        let rel = |r: Option<crate::param::Relative>| match r {
            Some(crate::param::Relative::Token(_)) => 1,
            _ => 0,
        };
        let mut n = self.operands().token_count();
        if let Some(d) = &self.dst {
            n += rel(d.relative);
        }
        if let Some(p) = &self.predicate {
            n += 1 + rel(p.relative);
        }
        n + self.srcs.iter().map(|s| rel(s.relative)).sum::<u32>()
    }
}

/// A comment block: opaque DWORDs (CTAB, DBUG, PRES, TEXT, ...).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Comment {
    /// The payload DWORDs after the comment token.
    pub data: Vec<u32>,
}

impl Comment {
    /// The first DWORD as a FOURCC (`CTAB`), when it is printable ASCII.
    pub fn fourcc(&self) -> Option<[u8; 4]> {
        let first = (*self.data.first()?).to_le_bytes();
        first
            .iter()
            .all(|b| b.is_ascii_graphic() || *b == b' ')
            .then_some(first)
    }

    /// The payload as bytes.
    pub fn bytes(&self) -> Vec<u8> {
        self.data.iter().flat_map(|d| d.to_le_bytes()).collect()
    }
}

/// One element of a shader body.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    /// An instruction.
    Instruction(Instruction),
    /// A comment block.
    Comment(Comment),
}

/// A whole shader: the version token, the body, and (implicitly) the end token.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shader {
    /// The version token.
    pub version: Version,
    /// Instructions and comments in stream order.
    pub items: Vec<Item>,
}

impl Shader {
    /// An empty shader of `version`.
    pub const fn new(version: Version) -> Self {
        Shader {
            version,
            items: Vec::new(),
        }
    }

    /// The instructions, skipping comments.
    pub fn instructions(&self) -> impl Iterator<Item = &Instruction> + '_ {
        self.items.iter().filter_map(|i| match i {
            Item::Instruction(inst) => Some(inst),
            Item::Comment(_) => None,
        })
    }

    /// The comment blocks.
    pub fn comments(&self) -> impl Iterator<Item = &Comment> + '_ {
        self.items.iter().filter_map(|i| match i {
            Item::Comment(c) => Some(c),
            Item::Instruction(_) => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_names_round_trip() {
        for u in DeclUsage::ALL {
            assert_eq!(DeclUsage::from_name(u.name()), Some(u));
            assert_eq!(
                DeclUsage::from_name(&u.name().to_ascii_uppercase()),
                Some(u)
            );
        }
        assert_eq!(
            DeclUsage::from_name("D3DDECLUSAGE_TEXCOORD"),
            Some(DeclUsage::TexCoord)
        );
        assert_eq!(
            DeclUsage::from_name("d3ddeclusage_fog"),
            Some(DeclUsage::Fog)
        );
        assert_eq!(DeclUsage::from_name("texcoords"), None);
        assert_eq!(DeclUsage::from_name(""), None);
    }
}
