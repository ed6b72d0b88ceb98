//! Render states (`D3DRENDERSTATETYPE`): every Direct3D 9 state and the two DDI-only patch
//! states, with their numbers, names, value kinds and Direct3D 9 defaults ([`TABLE`]).
//!
//! The device starts with every default in place (`D3DRS_ZENABLE` is TRUE, as on a device
//! created with an automatic depth buffer, which a software target always has).

use crate::enums::{
    Blend, BlendOp, CmpFunc, Cull, Degree, FillMode, FogMode, MaterialSource, ShadeMode, StencilOp,
    ZBuffer,
};

/// What a state's DWORD holds.
#[derive(Clone, Copy, Debug)]
pub enum ValueKind {
    /// A plain DWORD (counts, masks, colours, handles).
    Dword,
    /// FALSE (0) or TRUE (1).
    Bool,
    /// The bits of an IEEE float.
    Float,
    /// A member of a named enumeration: its names and numbers.
    Enum(fn(&str) -> Option<u32>, fn(u32) -> Option<&'static str>),
}

impl ValueKind {
    /// The value from a name of this kind (`TRUE`, `LESSEQUAL`, `D3DBLEND_ONE`), if it has one.
    pub fn value_from_name(self, name: &str) -> Option<u32> {
        match self {
            ValueKind::Bool => match name.to_ascii_uppercase().as_str() {
                "FALSE" => Some(0),
                "TRUE" => Some(1),
                _ => None,
            },
            ValueKind::Enum(from_name, _) => from_name(name),
            ValueKind::Dword | ValueKind::Float => None,
        }
    }

    /// The value as it is best read: a name, a float, or a number.
    pub fn display(self, value: u32) -> String {
        match self {
            ValueKind::Dword => format!("{value:#x}"),
            ValueKind::Bool => match value {
                0 => "FALSE".into(),
                1 => "TRUE".into(),
                v => format!("{v:#x}"),
            },
            ValueKind::Float => format!("{}", f32::from_bits(value)),
            ValueKind::Enum(_, name) => name(value).map_or_else(|| format!("{value}"), Into::into),
        }
    }
}

/// One render state (or texture-stage state: [`super::tss`] uses the same record).
#[derive(Clone, Copy, Debug)]
pub struct StateInfo {
    /// Its number.
    pub number: u32,
    /// Its name without `D3DRS_`.
    pub name: &'static str,
    /// What its value holds.
    pub kind: ValueKind,
    /// Its Direct3D 9 default (`None`: an action, such as DELETERTPATCH, or no default).
    pub default: Option<u32>,
}

/// The [`ValueKind::Enum`] of a [`crate::enums`] type.
macro_rules! enum_kind {
    ($t:ty) => {
        ValueKind::Enum(
            |s| <$t>::from_name(s).map(|v| v as u32),
            |v| <$t>::from_u32(v).map(|v| v.name()),
        )
    };
}

pub(super) use enum_kind;

const ONE: u32 = 0x3F80_0000;
const ALL: u32 = 0xFFFF_FFFF;
const D: ValueKind = ValueKind::Dword;
const FOG: ValueKind = enum_kind!(FogMode);
const MCS: ValueKind = enum_kind!(MaterialSource);
const B: ValueKind = ValueKind::Bool;
const F: ValueKind = ValueKind::Float;
const BLEND: ValueKind = enum_kind!(Blend);
const BLEND_OP: ValueKind = enum_kind!(BlendOp);
const CMP: ValueKind = enum_kind!(CmpFunc);
const STENCILOP: ValueKind = enum_kind!(StencilOp);
const DEGREE: ValueKind = enum_kind!(Degree);

/// Declares one `pub const` per state (documented with its SDK name) and the `TABLE` of them.
macro_rules! state_table {
    ($prefix:literal, $($name:ident = $n:literal, $kind:expr, $default:expr;)*) => {
        $(
            #[doc = concat!("`", $prefix, stringify!($name), "` (", stringify!($n), ").")]
            pub const $name: u32 = $n;
        )*
        /// Every state of this table, by number.
        pub const TABLE: &[StateInfo] = &[$(StateInfo {
            number: $n,
            name: stringify!($name),
            kind: $kind,
            default: $default,
        },)*];
    };
}

pub(super) use state_table;

state_table! {
    "D3DRS_",
    ZENABLE = 7, enum_kind!(ZBuffer), Some(1);
    FILLMODE = 8, enum_kind!(FillMode), Some(3);
    SHADEMODE = 9, enum_kind!(ShadeMode), Some(2);
    ZWRITEENABLE = 14, B, Some(1);
    ALPHATESTENABLE = 15, B, Some(0);
    LASTPIXEL = 16, B, Some(1);
    SRCBLEND = 19, BLEND, Some(2);
    DESTBLEND = 20, BLEND, Some(1);
    CULLMODE = 22, enum_kind!(Cull), Some(3);
    ZFUNC = 23, CMP, Some(4);
    ALPHAREF = 24, D, Some(0);
    ALPHAFUNC = 25, CMP, Some(8);
    DITHERENABLE = 26, B, Some(0);
    ALPHABLENDENABLE = 27, B, Some(0);
    FOGENABLE = 28, B, Some(0);
    SPECULARENABLE = 29, B, Some(0);
    FOGCOLOR = 34, D, Some(0);
    FOGTABLEMODE = 35, FOG, Some(0);
    FOGSTART = 36, F, Some(0);
    FOGEND = 37, F, Some(ONE);
    FOGDENSITY = 38, F, Some(ONE);
    RANGEFOGENABLE = 48, B, Some(0);
    STENCILENABLE = 52, B, Some(0);
    STENCILFAIL = 53, STENCILOP, Some(1);
    STENCILZFAIL = 54, STENCILOP, Some(1);
    STENCILPASS = 55, STENCILOP, Some(1);
    STENCILFUNC = 56, CMP, Some(8);
    STENCILREF = 57, D, Some(0);
    STENCILMASK = 58, D, Some(ALL);
    STENCILWRITEMASK = 59, D, Some(ALL);
    TEXTUREFACTOR = 60, D, Some(ALL);
    WRAP0 = 128, D, Some(0);
    WRAP1 = 129, D, Some(0);
    WRAP2 = 130, D, Some(0);
    WRAP3 = 131, D, Some(0);
    WRAP4 = 132, D, Some(0);
    WRAP5 = 133, D, Some(0);
    WRAP6 = 134, D, Some(0);
    WRAP7 = 135, D, Some(0);
    CLIPPING = 136, B, Some(1);
    LIGHTING = 137, B, Some(1);
    AMBIENT = 139, D, Some(0);
    FOGVERTEXMODE = 140, FOG, Some(0);
    COLORVERTEX = 141, B, Some(1);
    LOCALVIEWER = 142, B, Some(1);
    NORMALIZENORMALS = 143, B, Some(0);
    DIFFUSEMATERIALSOURCE = 145, MCS, Some(1);
    SPECULARMATERIALSOURCE = 146, MCS, Some(2);
    AMBIENTMATERIALSOURCE = 147, MCS, Some(0);
    EMISSIVEMATERIALSOURCE = 148, MCS, Some(0);
    VERTEXBLEND = 151, D, Some(0);
    CLIPPLANEENABLE = 152, D, Some(0);
    POINTSIZE = 154, F, Some(ONE);
    POINTSIZE_MIN = 155, F, Some(ONE);
    POINTSPRITEENABLE = 156, B, Some(0);
    POINTSCALEENABLE = 157, B, Some(0);
    POINTSCALE_A = 158, F, Some(ONE);
    POINTSCALE_B = 159, F, Some(0);
    POINTSCALE_C = 160, F, Some(0);
    MULTISAMPLEANTIALIAS = 161, B, Some(1);
    MULTISAMPLEMASK = 162, D, Some(ALL);
    PATCHEDGESTYLE = 163, D, Some(0);
    PATCHSEGMENTS = 164, F, Some(ONE);
    DEBUGMONITORTOKEN = 165, D, None;
    POINTSIZE_MAX = 166, F, Some(0x4280_0000);
    INDEXEDVERTEXBLENDENABLE = 167, B, Some(0);
    COLORWRITEENABLE = 168, D, Some(0xF);
    DELETERTPATCH = 169, D, None;
    TWEENFACTOR = 170, F, Some(0);
    BLENDOP = 171, BLEND_OP, Some(1);
    POSITIONDEGREE = 172, DEGREE, Some(3);
    NORMALDEGREE = 173, DEGREE, Some(1);
    SCISSORTESTENABLE = 174, B, Some(0);
    SLOPESCALEDEPTHBIAS = 175, F, Some(0);
    ANTIALIASEDLINEENABLE = 176, B, Some(0);
    MINTESSELLATIONLEVEL = 178, F, Some(ONE);
    MAXTESSELLATIONLEVEL = 179, F, Some(ONE);
    ADAPTIVETESS_X = 180, F, Some(0);
    ADAPTIVETESS_Y = 181, F, Some(0);
    ADAPTIVETESS_Z = 182, F, Some(ONE);
    ADAPTIVETESS_W = 183, F, Some(0);
    ENABLEADAPTIVETESSELLATION = 184, B, Some(0);
    TWOSIDEDSTENCILMODE = 185, B, Some(0);
    CCW_STENCILFAIL = 186, STENCILOP, Some(1);
    CCW_STENCILZFAIL = 187, STENCILOP, Some(1);
    CCW_STENCILPASS = 188, STENCILOP, Some(1);
    CCW_STENCILFUNC = 189, CMP, Some(8);
    COLORWRITEENABLE1 = 190, D, Some(0xF);
    COLORWRITEENABLE2 = 191, D, Some(0xF);
    COLORWRITEENABLE3 = 192, D, Some(0xF);
    BLENDFACTOR = 193, D, Some(ALL);
    SRGBWRITEENABLE = 194, B, Some(0);
    DEPTHBIAS = 195, F, Some(0);
    WRAP8 = 198, D, Some(0);
    WRAP9 = 199, D, Some(0);
    WRAP10 = 200, D, Some(0);
    WRAP11 = 201, D, Some(0);
    WRAP12 = 202, D, Some(0);
    WRAP13 = 203, D, Some(0);
    WRAP14 = 204, D, Some(0);
    WRAP15 = 205, D, Some(0);
    SEPARATEALPHABLENDENABLE = 206, B, Some(0);
    SRCBLENDALPHA = 207, BLEND, Some(2);
    DESTBLENDALPHA = 208, BLEND, Some(1);
    BLENDOPALPHA = 209, BLEND_OP, Some(1);
}

/// The state with this number.
pub fn info(number: u32) -> Option<&'static StateInfo> {
    find(TABLE, number)
}

/// The state with this name (case-insensitive, `D3DRS_` optional).
pub fn from_name(name: &str) -> Option<&'static StateInfo> {
    find_name(TABLE, name, &["D3DRS_"])
}

/// The entry of `table` with this number.
pub(super) fn find(table: &'static [StateInfo], number: u32) -> Option<&'static StateInfo> {
    table.iter().find(|s| s.number == number)
}

/// The entry of `table` with this name, case-insensitive, after dropping one of `prefixes`.
pub(super) fn find_name(
    table: &'static [StateInfo],
    name: &str,
    prefixes: &[&str],
) -> Option<&'static StateInfo> {
    let up = name.to_ascii_uppercase();
    let short = prefixes
        .iter()
        .find_map(|p| up.strip_prefix(p))
        .unwrap_or(&up);
    table.iter().find(|s| s.name == short)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_names_are_unique() {
        for (i, a) in TABLE.iter().enumerate() {
            for b in &TABLE[i + 1..] {
                assert_ne!(a.number, b.number, "{} and {}", a.name, b.name);
                assert_ne!(a.name, b.name);
            }
            assert_eq!(info(a.number).map(|s| s.name), Some(a.name));
            assert_eq!(
                from_name(&format!("d3drs_{}", a.name)).map(|s| s.number),
                Some(a.number)
            );
        }
    }

    #[test]
    fn values_by_name() {
        let z = from_name("ZFUNC").unwrap();
        assert_eq!(z.kind.value_from_name("D3DCMP_GREATER"), Some(5));
        assert_eq!(z.kind.display(4), "LESSEQUAL");
        assert_eq!(info(ZENABLE).unwrap().kind.value_from_name("true"), Some(1));
        assert_eq!(info(PATCHSEGMENTS).unwrap().kind.display(ONE), "1");
        assert_eq!(info(CULLMODE).unwrap().default, Some(3));
    }
}
