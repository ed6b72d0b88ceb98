//! The choices `docs/SEMANTICS.md` makes where Direct3D 9 leaves room, in one place.
//!
//! The executor (`dxso-exec`) and this translation follow the same document (the section
//! numbers below are its); each item names the rule it encodes.

use crate::options::Ps1Range;
use dxso::Version;

/// 3: scalar instructions read component `.x` of their swizzled source (a replicate swizzle,
/// so every component is the same in a valid shader).
pub(crate) const SCALAR_SOURCE_LANE: u8 = 0;

/// 5.5: `lit` clamps the specular power to +-127.9961 (the SDK's MAXPOWER).
pub(crate) const LIT_POWER_LIMIT: f32 = 127.9961;

/// 4.2: the range ps_1_x arithmetic clamps results to (MaxPixelShaderValue): none by default
/// (current drivers), the early hardware's 1 or 8 or a chosen value when the options say so;
/// `None` outside ps_1_x.
pub(crate) fn ps1_range(version: Version, range: Ps1Range) -> Option<f32> {
    if !(version.is_pixel() && version.major < 2) {
        return None;
    }
    range.limit(version.minor >= 4)
}

/// 3.1: ps_1_x float constants are clamped to [-1, 1] when read.
pub(crate) fn ps1_constant_range(version: Version) -> Option<f32> {
    (version.is_pixel() && version.major < 2).then_some(1.0)
}

/// 8: `texkill` tests x, y, z in ps_1_x and all four components from ps_2_0 on.
pub(crate) fn texkill_components(version: Version) -> usize {
    if version.major < 2 {
        3
    } else {
        4
    }
}

/// 5.4: `expp` has its four-component form only in vs_1_1.
pub(crate) fn expp_is_vector(version: Version) -> bool {
    version.is_vertex() && version.major < 2
}

/// 9.2: `loop` and `rep` run at most 255 times whatever the constant says.
pub(crate) const MAX_LOOP_COUNT: i32 = 255;

/// 10: `dsx`/`dsy` are fine derivatives (per row / column of the 2x2 quad).
pub(crate) const DERIVATIVE_CONTROL: naga::DerivativeControl = naga::DerivativeControl::Fine;
