//! The output merger: alpha test, stencil test, depth test, stencil operations, blending and
//! the colour write mask, on an RGBA8
//! target whose values are unsigned normalised (a shader's colour is saturated before it is
//! blended or written; NaN counts as 0).
//!
//! The alpha test compares the colour's alpha as the 8-bit value the target would store
//! (`round(saturate(a) * 255)`) with ALPHAREF, as fixed-function hardware does.
//!
//! The stencil test compares `(STENCILREF & STENCILMASK)` with `(stencil & STENCILMASK)`; a
//! failing test applies the face's fail operation and drops the pixel, a failing depth test
//! its z-fail operation (depth untouched), and a pixel passing both (or with the depth test
//! off) its pass operation. Counter-clockwise triangles use the CCW_ states when two-sided
//! stencil is on; lines and points are clockwise.

pub use crate::color::saturate;
use crate::state::{BlendEquation, DrawState};
use crate::target::Tile;
use dxso_dp2::enums::{Blend, BlendOp};

/// One pixel's result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Merge {
    /// Its colour (`None`: a depth-only draw with every colour channel masked).
    pub color: Option<[f32; 4]>,
    /// Its depth.
    pub depth: f32,
    /// Whether it belongs to a counter-clockwise triangle (two-sided stencil's back face).
    pub ccw: bool,
}

/// The sRGB encoding of a linear value in 0..1.
pub fn linear_to_srgb(v: f32) -> f32 {
    let v = saturate(v);
    if v <= 0.003_130_8 {
        v * 12.92
    } else {
        1.055 * v.powf(1.0 / 2.4) - 0.055
    }
}

/// A unorm value as the target's byte.
pub fn to_byte(v: f32) -> u8 {
    (saturate(v) * 255.0).round() as u8
}

fn factor(f: Blend, c: usize, src: &[f32; 4], dst: &[f32; 4], k: &[f32; 4]) -> f32 {
    match f {
        Blend::Zero => 0.0,
        Blend::One => 1.0,
        Blend::SrcColor => src[c],
        Blend::InvSrcColor => 1.0 - src[c],
        Blend::SrcAlpha | Blend::BothSrcAlpha => src[3],
        Blend::InvSrcAlpha | Blend::BothInvSrcAlpha => 1.0 - src[3],
        Blend::DestAlpha => dst[3],
        Blend::InvDestAlpha => 1.0 - dst[3],
        Blend::DestColor => dst[c],
        Blend::InvDestColor => 1.0 - dst[c],
        Blend::SrcAlphaSat if c < 3 => src[3].min(1.0 - dst[3]),
        Blend::SrcAlphaSat => 1.0,
        Blend::BlendFactor => k[c],
        Blend::InvBlendFactor => 1.0 - k[c],
        // Refused when the state is read (dual-source blending).
        Blend::SrcColor2 | Blend::InvSrcColor2 => 0.0,
    }
}

fn blend_channel(
    eq: &BlendEquation,
    c: usize,
    src: &[f32; 4],
    dst: &[f32; 4],
    k: &[f32; 4],
) -> f32 {
    let (s, d) = (src[c], dst[c]);
    match eq.op {
        BlendOp::Add => s * factor(eq.src, c, src, dst, k) + d * factor(eq.dst, c, src, dst, k),
        BlendOp::Subtract => {
            s * factor(eq.src, c, src, dst, k) - d * factor(eq.dst, c, src, dst, k)
        }
        BlendOp::RevSubtract => {
            d * factor(eq.dst, c, src, dst, k) - s * factor(eq.src, c, src, dst, k)
        }
        BlendOp::Min => s.min(d),
        BlendOp::Max => s.max(d),
    }
}

/// Merges one pixel into `tile` at index `pixel`; true when anything was written.
pub fn merge(tile: &mut Tile, pixel: usize, state: &DrawState, m: Merge) -> bool {
    let src = m.color.map(|c| c.map(saturate));
    if let (Some((func, reference)), Some(c)) = (state.alpha_test, src) {
        if !func.passes(to_byte(c[3]), reference) {
            return false;
        }
    }
    let stencil = state
        .stencil
        .as_ref()
        .map(|s| (s, if m.ccw { &s.back } else { &s.front }));
    if let Some((s, face)) = stencil {
        let value = tile.stencil[pixel];
        if !s.test(face, value) {
            tile.stencil[pixel] = s.apply(face.fail, value);
            return false;
        }
    }
    if let Some(func) = state.depth_test {
        if !func.passes(m.depth, tile.depth[pixel]) {
            if let Some((s, face)) = stencil {
                tile.stencil[pixel] = s.apply(face.zfail, tile.stencil[pixel]);
            }
            return false;
        }
        if state.depth_write {
            tile.depth[pixel] = m.depth;
        }
    }
    if let Some((s, face)) = stencil {
        tile.stencil[pixel] = s.apply(face.pass, tile.stencil[pixel]);
    }
    let wrote_other = (state.depth_test.is_some() && state.depth_write) || stencil.is_some();
    let Some(src) = src else {
        return wrote_other;
    };
    if state.color_write == 0 {
        return wrote_other;
    }
    let old = tile.color[pixel];
    let out = match &state.blend {
        None => src,
        Some(b) => {
            let dst = old.map(|v| v as f32 / 255.0);
            std::array::from_fn(|c| {
                let eq = if c < 3 { &b.color } else { &b.alpha };
                blend_channel(eq, c, &src, &dst, &b.factor)
            })
        }
    };
    let mut new = old;
    for c in 0..4 {
        if state.color_write & (1 << c) != 0 {
            new[c] = if state.srgb_write && c < 3 {
                to_byte(linear_to_srgb(out[c]))
            } else {
                to_byte(out[c])
            };
        }
    }
    tile.color[pixel] = new;
    true
}
