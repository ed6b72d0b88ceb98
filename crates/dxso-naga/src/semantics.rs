//! The choices `docs/SEMANTICS.md` makes where Direct3D 9 leaves room, in one place.
//!
//! The executor (`dxso-exec`) and this translation follow the same document; each constant
//! here names the rule it encodes so a change there is a change in one line here.

use dxso::Version;

/// Scalar instructions (`rcp`, `rsq`, `exp`, `log`, `expp`, `logp`, `pow`, the replicated
/// source of `dp2add`, `sincos`) read the component their source swizzle selects for x.
/// Direct3D requires a replicate swizzle there, so every real shader agrees.
pub(crate) const SCALAR_SOURCE_LANE: u8 = 0;

/// `log`/`logp` of 0 give -FLT_MAX (not -inf).
pub(crate) const LOG_ZERO: f32 = -f32::MAX;

/// `lit` clamps the specular power to +-127.9961.
pub(crate) const LIT_POWER_LIMIT: f32 = 127.9961;

/// The range ps_1_x arithmetic clamps register values to: none (values are IEEE floats, as
/// on every Direct3D 9 driver that runs ps_1_x on ps_2_0+ hardware); `_sat` and `texcoord`
/// still clamp to [0, 1].
pub(crate) fn ps1_range(_version: Version) -> Option<f32> {
    None
}

/// `texkill` discards when any of x, y, z is negative (every version).
pub(crate) const TEXKILL_COMPONENTS: usize = 3;

/// `mova` (vs_2_0 and later) rounds to nearest as `floor(x + 0.5)` (halves up); vs_1_1
/// `mov a0` floors.
pub(crate) const ADDRESS_ROUND_BIAS: f32 = 0.5;

/// `texbeml` luminance is `t.b * scale + offset`, saturated.
pub(crate) const BEML_SATURATE: bool = true;

/// `loop` and `rep` run at most 255 times (the largest count `i#.x` may hold), whatever the
/// constant says: a translated loop always ends.
pub(crate) const MAX_LOOP_COUNT: i32 = 255;

/// `dsx`/`dsy` take the difference within the 2x2 quad; which row or column is left to the
/// device (naga's default control).
pub(crate) const DERIVATIVE_CONTROL: naga::DerivativeControl = naga::DerivativeControl::None;
