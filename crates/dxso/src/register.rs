//! Register types and register references.

use crate::version::Version;

/// A register file, as encoded in the 5-bit register type field of a parameter token
/// (`D3DSHADER_PARAM_REGISTER_TYPE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(u8)]
pub enum RegisterType {
    /// `r#`: temporary.
    #[default]
    Temp = 0,
    /// `v#`: input (vertex attributes, or pixel-shader colour inputs).
    Input = 1,
    /// `c#`: float constant.
    Const = 2,
    /// `a0` in vertex shaders, `t#` in pixel shaders.
    Addr = 3,
    /// `oPos`, `oFog`, `oPts` (vertex shaders before 3_0).
    RastOut = 4,
    /// `oD#`: vertex colour outputs before 3_0.
    AttrOut = 5,
    /// `oT#` before vs_3_0, `o#` in vs_3_0.
    Output = 6,
    /// `i#`: integer constant.
    ConstInt = 7,
    /// `oC#`: pixel colour output.
    ColorOut = 8,
    /// `oDepth`.
    DepthOut = 9,
    /// `s#`: sampler.
    Sampler = 10,
    /// `c#` with index + 2048.
    Const2 = 11,
    /// `c#` with index + 4096.
    Const3 = 12,
    /// `c#` with index + 6144.
    Const4 = 13,
    /// `b#`: boolean constant.
    ConstBool = 14,
    /// `aL`: loop counter.
    Loop = 15,
    /// Reserved half-precision temporary; no assembly spelling.
    TempFloat16 = 16,
    /// `vPos` (0) and `vFace` (1).
    MiscType = 17,
    /// `l#`: label.
    Label = 18,
    /// `p0`: predicate.
    Predicate = 19,
}

impl RegisterType {
    /// The largest raw register type value with a meaning.
    pub const MAX_RAW: u8 = 19;

    /// Decodes a raw 5-bit register type.
    pub const fn from_raw(raw: u8) -> Option<Self> {
        use RegisterType::*;
        Some(match raw {
            0 => Temp,
            1 => Input,
            2 => Const,
            3 => Addr,
            4 => RastOut,
            5 => AttrOut,
            6 => Output,
            7 => ConstInt,
            8 => ColorOut,
            9 => DepthOut,
            10 => Sampler,
            11 => Const2,
            12 => Const3,
            13 => Const4,
            14 => ConstBool,
            15 => Loop,
            16 => TempFloat16,
            17 => MiscType,
            18 => Label,
            19 => Predicate,
            _ => return None,
        })
    }

    /// The raw 5-bit value.
    pub const fn raw(self) -> u8 {
        self as u8
    }

    /// `true` for the float constant files (`c#` with all four encodings).
    pub const fn is_float_const(self) -> bool {
        matches!(
            self,
            RegisterType::Const
                | RegisterType::Const2
                | RegisterType::Const3
                | RegisterType::Const4
        )
    }

    /// The assembly prefix of this register type in `version` (`r`, `v`, `c`, `a` or `t`, `oPos`
    /// and friends are handled by [`Register::name`]).
    pub fn prefix(self, version: Version) -> &'static str {
        use RegisterType::*;
        match self {
            Temp => "r",
            Input => "v",
            Const | Const2 | Const3 | Const4 => "c",
            Addr if version.is_pixel() => "t",
            Addr => "a",
            RastOut => "o",
            AttrOut => "oD",
            Output if version.is_vertex() && version.major >= 3 => "o",
            Output => "oT",
            ConstInt => "i",
            ColorOut => "oC",
            DepthOut => "oDepth",
            Sampler => "s",
            ConstBool => "b",
            Loop => "aL",
            TempFloat16 => "half",
            MiscType => "vMisc",
            Label => "l",
            Predicate => "p",
        }
    }
}

/// A register reference: a register file and an index into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Register {
    /// The register file.
    pub ty: RegisterType,
    /// The 11-bit register number as encoded.
    pub num: u16,
}

impl Register {
    /// The largest encodable register number.
    pub const MAX_NUM: u16 = 0x7FF;

    /// Creates a register reference.
    pub const fn new(ty: RegisterType, num: u16) -> Self {
        Register { ty, num }
    }

    /// The index a shader sees: for `c#` the `CONST2`..`CONST4` files add 2048, 4096, 6144.
    pub const fn index(self) -> u32 {
        let base = match self.ty {
            RegisterType::Const2 => 2048,
            RegisterType::Const3 => 4096,
            RegisterType::Const4 => 6144,
            _ => 0,
        };
        base + self.num as u32
    }

    /// The spelling of registers that have a name of their own in `version` (`oPos`, `oFog`,
    /// `oPts`, `vPos`, `vFace`, `aL`, `oDepth`); `None` for those spelled prefix + index.
    pub fn fixed_name(self, version: Version) -> Option<&'static str> {
        use RegisterType::*;
        match (self.ty, self.num) {
            (RastOut, 0) => Some("oPos"),
            (RastOut, 1) => Some("oFog"),
            (RastOut, 2) => Some("oPts"),
            (MiscType, 0) => Some("vPos"),
            (MiscType, 1) => Some("vFace"),
            (Loop, _) | (DepthOut, _) => Some(self.ty.prefix(version)),
            _ => None,
        }
    }

    /// The register as Microsoft's disassembler spells it in `version`, without modifiers or
    /// swizzle (`r3`, `c12`, `oPos`, `vFace`, `aL`, `oDepth`).
    pub fn name(self, version: Version) -> String {
        match self.fixed_name(version) {
            Some(name) => name.into(),
            None => format!("{}{}", self.ty.prefix(version), self.index()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_values_round_trip() {
        for raw in 0..=RegisterType::MAX_RAW {
            assert_eq!(RegisterType::from_raw(raw).unwrap().raw(), raw);
        }
        assert_eq!(RegisterType::from_raw(20), None);
        assert_eq!(RegisterType::from_raw(31), None);
    }

    #[test]
    fn names_depend_on_version() {
        let vs11 = Version::vs(1, 1);
        let vs30 = Version::vs(3, 0);
        let ps14 = Version::ps(1, 4);
        assert_eq!(Register::new(RegisterType::Addr, 0).name(vs11), "a0");
        assert_eq!(Register::new(RegisterType::Addr, 2).name(ps14), "t2");
        assert_eq!(Register::new(RegisterType::Output, 3).name(vs11), "oT3");
        assert_eq!(Register::new(RegisterType::Output, 3).name(vs30), "o3");
        assert_eq!(Register::new(RegisterType::RastOut, 1).name(vs11), "oFog");
        assert_eq!(Register::new(RegisterType::MiscType, 1).name(vs30), "vFace");
        assert_eq!(Register::new(RegisterType::Const2, 5).name(vs30), "c2053");
        assert_eq!(Register::new(RegisterType::Loop, 0).name(vs30), "aL");
    }
}
