//! Texture-stage states as the DDI carries them (`D3DHAL_DP2TEXTURESTAGESTATE`): the texture
//! binding (`D3DTSS_TEXTUREMAP`, DDI only) and the sampler states the runtime maps
//! `D3DSAMP_*` onto, with their numbers, value kinds and Direct3D 9 defaults ([`TABLE`]).
//!
//! Stages: 0..=15 are the pixel-shader samplers `s0`..`s15`; 256 is the displacement-map
//! sampler and 257..=260 the vertex-shader samplers `s0`..`s3` (`D3DVERTEXTEXTURESAMPLER0`..).

use super::rs::{enum_kind, find, find_name, state_table, StateInfo, ValueKind};
use crate::enums::{TextureAddress, TextureArg, TextureFilter, TextureOp};

const D: ValueKind = ValueKind::Dword;
const F: ValueKind = ValueKind::Float;
const ADDRESS_KIND: ValueKind = enum_kind!(TextureAddress);
const FILTER: ValueKind = enum_kind!(TextureFilter);
const OP: ValueKind = enum_kind!(TextureOp);
const ARG: ValueKind = enum_kind!(TextureArg);

state_table! {
    "D3DTSS_",
    TEXTUREMAP = 0, D, Some(0);
    COLOROP = 1, OP, None;
    COLORARG1 = 2, ARG, None;
    COLORARG2 = 3, ARG, None;
    ALPHAOP = 4, OP, None;
    ALPHAARG1 = 5, ARG, None;
    ALPHAARG2 = 6, ARG, None;
    BUMPENVMAT00 = 7, F, Some(0);
    BUMPENVMAT01 = 8, F, Some(0);
    BUMPENVMAT10 = 9, F, Some(0);
    BUMPENVMAT11 = 10, F, Some(0);
    TEXCOORDINDEX = 11, D, None;
    ADDRESS = 12, ADDRESS_KIND, None;
    ADDRESSU = 13, ADDRESS_KIND, Some(1);
    ADDRESSV = 14, ADDRESS_KIND, Some(1);
    BORDERCOLOR = 15, D, Some(0);
    MAGFILTER = 16, FILTER, Some(1);
    MINFILTER = 17, FILTER, Some(1);
    MIPFILTER = 18, FILTER, Some(0);
    MIPMAPLODBIAS = 19, F, Some(0);
    MAXMIPLEVEL = 20, D, Some(0);
    MAXANISOTROPY = 21, D, Some(1);
    BUMPENVLSCALE = 22, F, Some(0);
    BUMPENVLOFFSET = 23, F, Some(0);
    TEXTURETRANSFORMFLAGS = 24, D, Some(0);
    ADDRESSW = 25, ADDRESS_KIND, Some(1);
    COLORARG0 = 26, ARG, None;
    ALPHAARG0 = 27, ARG, None;
    RESULTARG = 28, ARG, None;
    CONSTANT = 32, D, None;
}

/// The displacement-map sampler's stage.
pub const DMAP_STAGE: u32 = 256;
/// The stage of vertex-shader sampler `s0` (`s1`..`s3` follow).
pub const VERTEX_STAGE0: u32 = 257;

/// Whether a stage number names a sampler (0..=15, 256..=260).
pub fn is_stage(stage: u32) -> bool {
    stage < 16 || (DMAP_STAGE..=VERTEX_STAGE0 + 3).contains(&stage)
}

/// The state with this number.
pub fn info(number: u32) -> Option<&'static StateInfo> {
    find(TABLE, number)
}

/// The state with this name (case-insensitive; `D3DTSS_` or `D3DSAMP_` optional).
pub fn from_name(name: &str) -> Option<&'static StateInfo> {
    find_name(TABLE, name, &["D3DTSS_", "D3DSAMP_"])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampler_states_by_name() {
        assert_eq!(from_name("D3DSAMP_MINFILTER").map(|s| s.number), Some(17));
        assert_eq!(
            info(ADDRESSU).unwrap().kind.value_from_name("CLAMP"),
            Some(3)
        );
        assert!(is_stage(15) && is_stage(260) && !is_stage(16) && !is_stage(261));
    }
}
