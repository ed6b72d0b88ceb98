//! Parameter tokens: destination and source operands, their swizzles, masks and modifiers.
//!
//! Every field of the 32-bit parameter token has a typed home here, including the bits the
//! format reserves, so that a parameter re-encodes to exactly the token it came from.

use crate::register::{Register, RegisterType};
use std::fmt;

const REG_NUM_MASK: u32 = 0x7FF;
const REG_TYPE_LOW_SHIFT: u32 = 28;
const REG_TYPE_HIGH_SHIFT: u32 = 8;
const RELATIVE_BIT: u32 = 1 << 13;
const RESERVED_SHIFT: u32 = 14;
/// Bit 31 is set in every parameter token.
pub const PARAM_BIT: u32 = 1 << 31;

/// A four-component source swizzle: two bits per output component, x in the low bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Swizzle(pub u8);

impl Swizzle {
    /// `.xyzw`, the swizzle that changes nothing.
    pub const IDENTITY: Swizzle = Swizzle(0xE4);
    /// `.x` replicated.
    pub const X: Swizzle = Swizzle::replicate(0);
    /// `.y` replicated.
    pub const Y: Swizzle = Swizzle::replicate(1);
    /// `.z` replicated.
    pub const Z: Swizzle = Swizzle::replicate(2);
    /// `.w` replicated.
    pub const W: Swizzle = Swizzle::replicate(3);

    /// Builds a swizzle from four component selectors (0 = x .. 3 = w).
    pub const fn new(x: u8, y: u8, z: u8, w: u8) -> Self {
        Swizzle((x & 3) | (y & 3) << 2 | (z & 3) << 4 | (w & 3) << 6)
    }

    /// The swizzle that reads one component into all four.
    pub const fn replicate(c: u8) -> Self {
        Swizzle::new(c, c, c, c)
    }

    /// Which source component lands in output component `i` (0..4).
    pub const fn get(self, i: usize) -> u8 {
        (self.0 >> (2 * (i & 3))) & 3
    }

    /// The four selectors.
    pub const fn components(self) -> [u8; 4] {
        [self.get(0), self.get(1), self.get(2), self.get(3)]
    }

    /// `Some(c)` when all four selectors are `c`.
    pub const fn replicated(self) -> Option<u8> {
        let c = self.get(0);
        if self.0 == Swizzle::replicate(c).0 {
            Some(c)
        } else {
            None
        }
    }

    /// `true` for `.xyzw`.
    pub const fn is_identity(self) -> bool {
        self.0 == Swizzle::IDENTITY.0
    }
}

impl Default for Swizzle {
    fn default() -> Self {
        Swizzle::IDENTITY
    }
}

/// The component letters, in order.
pub const COMPONENT_LETTERS: [char; 4] = ['x', 'y', 'z', 'w'];

impl fmt::Debug for Swizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Swizzle(.")?;
        for c in self.components() {
            write!(f, "{}", COMPONENT_LETTERS[c as usize])?;
        }
        f.write_str(")")
    }
}

/// A destination write mask: bit 0 = x .. bit 3 = w.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct WriteMask(pub u8);

impl WriteMask {
    /// All four components.
    pub const ALL: WriteMask = WriteMask(0xF);
    /// No component (legal in some DCLs).
    pub const NONE: WriteMask = WriteMask(0);
    /// `.x`.
    pub const X: WriteMask = WriteMask(1);
    /// `.y`.
    pub const Y: WriteMask = WriteMask(2);
    /// `.z`.
    pub const Z: WriteMask = WriteMask(4);
    /// `.w`.
    pub const W: WriteMask = WriteMask(8);
    /// `.xy`.
    pub const XY: WriteMask = WriteMask(3);
    /// `.xyz`.
    pub const XYZ: WriteMask = WriteMask(7);

    /// `true` when component `i` (0..4) is written.
    pub const fn contains(self, i: usize) -> bool {
        self.0 & (1 << (i & 3)) != 0
    }

    /// How many components are written.
    pub const fn count(self) -> u32 {
        (self.0 & 0xF).count_ones()
    }

    /// `true` when every component is written.
    pub const fn is_full(self) -> bool {
        self.0 & 0xF == 0xF
    }
}

impl Default for WriteMask {
    fn default() -> Self {
        WriteMask::ALL
    }
}

impl fmt::Debug for WriteMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("WriteMask(.")?;
        for (i, letter) in COMPONENT_LETTERS.iter().enumerate() {
            if self.contains(i) {
                write!(f, "{letter}")?;
            }
        }
        f.write_str(")")
    }
}

/// A source modifier (`D3DSHADER_PARAM_SRCMOD_TYPE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum SrcModifier {
    /// No modifier.
    #[default]
    None = 0,
    /// `-r`.
    Neg = 1,
    /// `r_bias` (r - 0.5).
    Bias = 2,
    /// `-r_bias`.
    BiasNeg = 3,
    /// `r_bx2` (2r - 1).
    Sign = 4,
    /// `-r_bx2`.
    SignNeg = 5,
    /// `1-r`.
    Comp = 6,
    /// `r_x2`.
    X2 = 7,
    /// `-r_x2`.
    X2Neg = 8,
    /// `r_dz` (divide by z).
    Dz = 9,
    /// `r_dw` (divide by w).
    Dw = 10,
    /// `r_abs`.
    Abs = 11,
    /// `-r_abs`.
    AbsNeg = 12,
    /// `!p0`: logical not, predicates only.
    Not = 13,
}

impl SrcModifier {
    /// Decodes the 4-bit modifier field; 14 and 15 are undefined.
    pub const fn from_raw(raw: u8) -> Option<Self> {
        use SrcModifier::*;
        Some(match raw {
            0 => None,
            1 => Neg,
            2 => Bias,
            3 => BiasNeg,
            4 => Sign,
            5 => SignNeg,
            6 => Comp,
            7 => X2,
            8 => X2Neg,
            9 => Dz,
            10 => Dw,
            11 => Abs,
            12 => AbsNeg,
            13 => Not,
            _ => return Option::None,
        })
    }

    /// The raw 4-bit value.
    pub const fn raw(self) -> u8 {
        self as u8
    }

    /// The text printed before the register (`-`, `1-`, `!`).
    pub const fn prefix(self) -> &'static str {
        use SrcModifier::*;
        match self {
            Neg | BiasNeg | SignNeg | X2Neg | AbsNeg => "-",
            Comp => "1-",
            Not => "!",
            _ => "",
        }
    }

    /// The text printed after the register (`_bias`, `_bx2`, `_x2`, `_dz`, `_dw`, `_abs`).
    pub const fn suffix(self) -> &'static str {
        use SrcModifier::*;
        match self {
            Bias | BiasNeg => "_bias",
            Sign | SignNeg => "_bx2",
            X2 | X2Neg => "_x2",
            Dz => "_dz",
            Dw => "_dw",
            Abs | AbsNeg => "_abs",
            _ => "",
        }
    }
}

/// Result modifier flags of a destination (`_sat`, `_pp`, `_centroid`), bits 20-23.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ResultModifiers(pub u8);

impl ResultModifiers {
    /// No modifier.
    pub const NONE: ResultModifiers = ResultModifiers(0);
    /// `_sat`: clamp to [0, 1].
    pub const SATURATE: ResultModifiers = ResultModifiers(1);
    /// `_pp`: partial precision is enough.
    pub const PARTIAL_PRECISION: ResultModifiers = ResultModifiers(2);
    /// `_centroid`: sample at the centroid (DCL of inputs).
    pub const CENTROID: ResultModifiers = ResultModifiers(4);

    /// `true` when every flag of `other` is set.
    pub const fn contains(self, other: ResultModifiers) -> bool {
        self.0 & other.0 == other.0
    }

    /// Both sets of flags.
    pub const fn union(self, other: ResultModifiers) -> ResultModifiers {
        ResultModifiers(self.0 | other.0)
    }

    /// `_sat` is set.
    pub const fn saturate(self) -> bool {
        self.contains(Self::SATURATE)
    }

    /// `_pp` is set.
    pub const fn partial_precision(self) -> bool {
        self.contains(Self::PARTIAL_PRECISION)
    }

    /// `_centroid` is set.
    pub const fn centroid(self) -> bool {
        self.contains(Self::CENTROID)
    }
}

impl fmt::Debug for ResultModifiers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ResultModifiers({:#x})", self.0)
    }
}

/// The signed result shift of ps_1_x destinations: the value is multiplied by `2^shift`.
///
/// Encoded in 4 bits as two's complement: 1 `_x2`, 2 `_x4`, 3 `_x8`, 15 `_d2`, 14 `_d4`, 13 `_d8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Shift(pub i8);

impl Shift {
    /// Decodes the 4-bit field.
    pub const fn from_raw(raw: u8) -> Self {
        Shift((((raw & 0xF) << 4) as i8) >> 4)
    }

    /// The 4-bit field.
    pub const fn raw(self) -> u8 {
        (self.0 as u8) & 0xF
    }

    /// The suffix Microsoft prints (`_x2`, `_d4`), empty for no shift.
    pub const fn suffix(self) -> &'static str {
        match self.0 {
            1 => "_x2",
            2 => "_x4",
            3 => "_x8",
            -1 => "_d2",
            -2 => "_d4",
            -3 => "_d8",
            4 => "_x16",
            -4 => "_d16",
            5 => "_x32",
            -5 => "_d32",
            6 => "_x64",
            -6 => "_d64",
            7 => "_x128",
            -7 => "_d128",
            -8 => "_d256",
            _ => "",
        }
    }
}

/// How a parameter is relatively addressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relative {
    /// Shader model 1: the relative bit alone, the address is always `a0.x`.
    Implicit,
    /// Shader model 2 and later: an extra token names the address register and component.
    Token(RelativeToken),
}

/// The extra relative-address token of shader model 2 and later (a source-style token naming
/// `a0` or `aL` with a replicate swizzle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RelativeToken {
    /// The address register (`a0` or `aL`).
    pub register: Register,
    /// The swizzle; its first selector picks the component.
    pub swizzle: Swizzle,
    /// The modifier field (zero in real shaders).
    pub modifier: u8,
    /// Bits 13-15 (zero in real shaders).
    pub reserved: u8,
}

impl RelativeToken {
    /// An address token reading `register.component`.
    pub const fn new(register: Register, component: u8) -> Self {
        RelativeToken {
            register,
            swizzle: Swizzle::replicate(component),
            modifier: 0,
            reserved: 0,
        }
    }

    /// The component the address is read from (0 = x).
    pub const fn component(self) -> u8 {
        self.swizzle.get(0)
    }

    /// Decodes a relative-address token. Bit 31 is checked by the caller.
    pub fn from_token(token: u32) -> Result<Self, u8> {
        let (register, reserved) = register_fields(token)?;
        Ok(RelativeToken {
            register,
            swizzle: Swizzle((token >> 16) as u8),
            modifier: ((token >> 24) & 0xF) as u8,
            reserved: reserved | (((token & RELATIVE_BIT) >> 13) as u8) << 2,
        })
    }

    /// Encodes the token.
    pub const fn to_token(self) -> u32 {
        register_bits(self.register)
            | ((self.reserved as u32 & 3) << RESERVED_SHIFT)
            | ((self.reserved as u32 >> 2 & 1) << 13)
            | (self.swizzle.0 as u32) << 16
            | (self.modifier as u32 & 0xF) << 24
            | PARAM_BIT
    }
}

/// A destination operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct DstParam {
    /// The register written.
    pub register: Register,
    /// Relative addressing (vs_3_0 `o[aL]` style outputs).
    pub relative: Option<Relative>,
    /// The components written.
    pub mask: WriteMask,
    /// `_sat`, `_pp`, `_centroid` and any other flag bits of the field.
    pub modifiers: ResultModifiers,
    /// ps_1_x result shift.
    pub shift: Shift,
    /// Bits 14-15 (zero in real shaders).
    pub reserved: u8,
}

impl DstParam {
    /// A plain destination writing `mask` of `register`.
    pub const fn new(register: Register, mask: WriteMask) -> Self {
        DstParam {
            register,
            relative: None,
            mask,
            modifiers: ResultModifiers::NONE,
            shift: Shift(0),
            reserved: 0,
        }
    }

    /// Decodes a destination token (bit 31 is checked by the caller). Relative addressing is
    /// recorded as [`Relative::Implicit`]; the stream decoder replaces it with the extra token
    /// for shader model 2 and later. `Err` carries the unknown register type.
    #[inline]
    pub fn from_token(token: u32) -> Result<Self, u8> {
        let class = DST_CLASSES[class_index(token | PARAM_BIT)];
        if class & CLASS_BAD != 0 {
            return Err(raw_register_type(token));
        }
        Ok(Self::from_class(class, token))
    }

    /// The destination of `token` whose [`DST_CLASSES`] entry `class` is not [`CLASS_BAD`].
    #[inline(always)]
    pub(crate) fn from_class(class: u8, token: u32) -> Self {
        DstParam {
            register: class_register(class, token),
            relative: (class & CLASS_RELATIVE != 0).then_some(Relative::Implicit),
            mask: WriteMask(((token >> 16) & 0xF) as u8),
            modifiers: ResultModifiers(((token >> 20) & 0xF) as u8),
            shift: Shift::from_raw((token >> 24) as u8),
            reserved: ((token >> RESERVED_SHIFT) & 3) as u8,
        }
    }

    /// Encodes the token (not the relative-address token that may follow it).
    #[inline(always)]
    pub const fn to_token(&self) -> u32 {
        register_bits(self.register)
            | relative_bit(self.relative.is_some())
            | ((self.reserved as u32 & 3) << RESERVED_SHIFT)
            | (self.mask.0 as u32 & 0xF) << 16
            | (self.modifiers.0 as u32 & 0xF) << 20
            | (self.shift.raw() as u32) << 24
            | PARAM_BIT
    }
}

/// A source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SrcParam {
    /// The register read.
    pub register: Register,
    /// Relative addressing (`c[a0.x + 4]`, `v[aL]`).
    pub relative: Option<Relative>,
    /// Which components are read, per output component.
    pub swizzle: Swizzle,
    /// Negate, bias, abs and friends.
    pub modifier: SrcModifier,
    /// Bits 14-15 (zero in real shaders).
    pub reserved: u8,
}

impl SrcParam {
    /// A plain source reading `register` with `swizzle`.
    pub const fn new(register: Register, swizzle: Swizzle) -> Self {
        SrcParam {
            register,
            relative: None,
            swizzle,
            modifier: SrcModifier::None,
            reserved: 0,
        }
    }

    /// Decodes a source token (bit 31 is checked by the caller); see [`DstParam::from_token`].
    #[inline]
    pub fn from_token(token: u32) -> Result<Self, SrcTokenError> {
        let class = SRC_CLASSES[class_index(token | PARAM_BIT)];
        if class & CLASS_BAD != 0 {
            let raw = raw_register_type(token);
            return Err(if raw > RegisterType::MAX_RAW {
                SrcTokenError::RegisterType(raw)
            } else {
                SrcTokenError::Modifier(((token >> 24) & 0xF) as u8)
            });
        }
        Ok(Self::from_class(class, token))
    }

    /// The source of `token` whose [`SRC_CLASSES`] entry `class` is not [`CLASS_BAD`].
    #[inline(always)]
    pub(crate) fn from_class(class: u8, token: u32) -> Self {
        SrcParam {
            register: class_register(class, token),
            relative: (class & CLASS_RELATIVE != 0).then_some(Relative::Implicit),
            swizzle: Swizzle((token >> 16) as u8),
            modifier: SRC_MODIFIERS[((token >> 24) & 0xF) as usize],
            reserved: ((token >> RESERVED_SHIFT) & 3) as u8,
        }
    }

    /// Encodes the token (not the relative-address token that may follow it).
    #[inline(always)]
    pub const fn to_token(&self) -> u32 {
        register_bits(self.register)
            | relative_bit(self.relative.is_some())
            | ((self.reserved as u32 & 3) << RESERVED_SHIFT)
            | (self.swizzle.0 as u32) << 16
            | (self.modifier.raw() as u32) << 24
            | PARAM_BIT
    }
}

/// Why a source token could not be typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SrcTokenError {
    /// The register type is not one of `D3DSHADER_PARAM_REGISTER_TYPE`.
    RegisterType(u8),
    /// The modifier field holds 14 or 15.
    Modifier(u8),
}

/// The raw register type spread over bits 28-30 and 11-12.
pub const fn raw_register_type(token: u32) -> u8 {
    (((token >> REG_TYPE_LOW_SHIFT) & 7) | ((token >> REG_TYPE_HIGH_SHIFT) & 0x18)) as u8
}

/// Set in a token class when the token is no parameter of its kind: bit 31 clear, a register
/// type with no meaning, or (sources) the modifier 14 or 15.
pub(crate) const CLASS_BAD: u8 = 0x80;
/// Set in a token class when the relative-addressing bit (13) is set.
pub(crate) const CLASS_RELATIVE: u8 = 0x40;

/// The class of a parameter token: its raw register type in the low five bits, with
/// [`CLASS_BAD`] and [`CLASS_RELATIVE`]. One index and one load check a token whole, so the
/// decoder tests each operand once.
const fn classes(source: bool) -> [u8; 2048] {
    let mut table = [0u8; 2048];
    let mut i = 0;
    while i < table.len() {
        // The index holds the top byte (bit 31, register type bits 28-30, modifier or shift
        // bits 24-27) and bits 11-13 (register type bits 11-12, the relative bit).
        let (top, low) = (i >> 3, i & 7);
        let raw_type = (top >> 4) & 7 | (low & 3) << 3;
        let bad = top & 0x80 == 0
            || raw_type > RegisterType::MAX_RAW as usize
            || (source && top & 0xF >= 14);
        table[i] = if bad {
            CLASS_BAD
        } else if low & 4 != 0 {
            raw_type as u8 | CLASS_RELATIVE
        } else {
            raw_type as u8
        };
        i += 1;
    }
    table
}

/// Token classes of destinations (and of the registers of `dcl` and `def*`).
pub(crate) const DST_CLASSES: [u8; 2048] = classes(false);
/// Token classes of sources.
pub(crate) const SRC_CLASSES: [u8; 2048] = classes(true);

/// The index of `token` in [`DST_CLASSES`] and [`SRC_CLASSES`].
#[inline(always)]
pub(crate) const fn class_index(token: u32) -> usize {
    ((token >> 21) & 0x7F8 | (token >> 11) & 7) as usize
}

/// Register types by raw value; the entries past [`RegisterType::MAX_RAW`] are never read (a
/// class with such a type is [`CLASS_BAD`]) and only fill the table to a power of two.
const REGISTER_TYPES: [RegisterType; 32] = {
    let mut table = [RegisterType::Temp; 32];
    let mut raw = 0;
    while raw <= RegisterType::MAX_RAW {
        table[raw as usize] = match RegisterType::from_raw(raw) {
            Some(ty) => ty,
            None => panic!("every raw value up to MAX_RAW is a register type"),
        };
        raw += 1;
    }
    table
};

/// Source modifiers by raw value; 14 and 15 make a source class [`CLASS_BAD`] and are never read.
const SRC_MODIFIERS: [SrcModifier; 16] = {
    let mut table = [SrcModifier::None; 16];
    let mut raw = 0;
    while raw <= 13 {
        table[raw as usize] = match SrcModifier::from_raw(raw) {
            Some(m) => m,
            None => panic!("0..=13 are source modifiers"),
        };
        raw += 1;
    }
    table
};

#[inline(always)]
fn class_register(class: u8, token: u32) -> Register {
    Register::new(
        REGISTER_TYPES[class as usize & 31],
        (token & REG_NUM_MASK) as u16,
    )
}

#[inline]
fn register_fields(token: u32) -> Result<(Register, u8), u8> {
    let raw = raw_register_type(token);
    let ty = RegisterType::from_raw(raw).ok_or(raw)?;
    Ok((
        Register::new(ty, (token & REG_NUM_MASK) as u16),
        ((token >> RESERVED_SHIFT) & 3) as u8,
    ))
}

const fn register_bits(register: Register) -> u32 {
    let raw = register.ty.raw() as u32;
    (register.num as u32 & REG_NUM_MASK)
        | (raw & 7) << REG_TYPE_LOW_SHIFT
        | (raw & 0x18) << REG_TYPE_HIGH_SHIFT
}

const fn relative_bit(relative: bool) -> u32 {
    if relative {
        RELATIVE_BIT
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_type_is_split_over_two_fields() {
        // c2 read as .xyzw: type 2 lives in bits 28-30.
        assert_eq!(
            SrcParam::from_token(0xA0E4_0002).unwrap().register,
            Register::new(RegisterType::Const, 2)
        );
        // s0 (type 10 = 0b01010): low bits 2 in 28-30, high bit 8 as 0x800.
        let s0 = SrcParam::from_token(0xA0E4_0800).unwrap();
        assert_eq!(s0.register.ty, RegisterType::Sampler);
        assert_eq!(s0.to_token(), 0xA0E4_0800);
        // p0 (19 = 0b10011): low 3 and high 0x10 -> bit 12.
        let p0 = DstParam::from_token(0xB00F_1000).unwrap();
        assert_eq!(p0.register.ty, RegisterType::Predicate);
        assert_eq!(p0.to_token(), 0xB00F_1000);
    }

    #[test]
    fn destination_fields() {
        // mov_sat_x2 r0.xy : mask 3, sat, shift 1.
        let token = 0x8000_0000 | 0x3 << 16 | 0x1 << 20 | 0x1 << 24;
        let d = DstParam::from_token(token).unwrap();
        assert_eq!(d.mask, WriteMask::XY);
        assert!(d.modifiers.saturate());
        assert_eq!(d.shift, Shift(1));
        assert_eq!(d.shift.suffix(), "_x2");
        assert_eq!(d.to_token(), token);
        assert_eq!(Shift::from_raw(15).suffix(), "_d2");
        assert_eq!(Shift::from_raw(13), Shift(-3));
    }

    #[test]
    fn source_modifiers_and_errors() {
        for raw in 0..=13 {
            let token = 0x8000_0000 | (raw as u32) << 24 | 0xE4 << 16;
            let s = SrcParam::from_token(token).unwrap();
            assert_eq!(s.modifier.raw(), raw);
            assert_eq!(s.to_token(), token);
        }
        assert_eq!(
            SrcParam::from_token(0x8E00_0000),
            Err(SrcTokenError::Modifier(14))
        );
        assert_eq!(
            SrcParam::from_token(0x8000_1800),
            Err(SrcTokenError::RegisterType(24))
        );
    }

    #[test]
    fn swizzle_helpers() {
        assert!(Swizzle::IDENTITY.is_identity());
        assert_eq!(Swizzle::W.replicated(), Some(3));
        assert_eq!(Swizzle::new(0, 1, 0, 1).replicated(), None);
        assert_eq!(Swizzle::new(3, 2, 1, 0).components(), [3, 2, 1, 0]);
        assert_eq!(WriteMask(0b1010).count(), 2);
    }

    #[test]
    fn reserved_bits_survive() {
        let token = 0x8000_C000 | 0xE4 << 16;
        assert_eq!(SrcParam::from_token(token).unwrap().to_token(), token);
        let rel = 0xB000_E000;
        assert_eq!(RelativeToken::from_token(rel).unwrap().to_token(), rel);
    }
}
