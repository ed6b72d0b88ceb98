//! The constant registers of the generated shaders, filled from a state's values (the key only
//! decides the code; everything else arrives here).

use crate::d3d::{light, rs, ts};
use crate::key::ShaderKey;
use crate::layout::*;
use crate::state::{d3dcolor, FfpState, Matrix};

/// The viewport the vertices of a draw land in (for pre-transformed vertices and point scale).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    /// Left column.
    pub x: f32,
    /// Top row.
    pub y: f32,
    /// Width in pixels.
    pub width: f32,
    /// Height in pixels.
    pub height: f32,
    /// Depth at NDC z = 0.
    pub min_z: f32,
    /// Depth at NDC z = 1.
    pub max_z: f32,
}

/// `a * b` for row-major matrices.
pub fn multiply(a: &Matrix, b: &Matrix) -> Matrix {
    let mut out = [0.0; 16];
    for i in 0..4 {
        for j in 0..4 {
            out[4 * i + j] = (0..4).map(|k| a[4 * i + k] * b[4 * k + j]).sum();
        }
    }
    out
}

/// The inverse of the upper 3x3 of `m`, transposed, as a row-major 3x3 in a 4x4; the upper
/// 3x3 itself when singular (Direct3D 9 still lights such a draw: Wine's `lighting_test`).
fn inverse_transpose3(m: &Matrix) -> Matrix {
    let e = |r: usize, c: usize| m[4 * r + c] as f64;
    let cof = |r: usize, c: usize| {
        let (r1, r2) = ((r + 1) % 3, (r + 2) % 3);
        let (c1, c2) = ((c + 1) % 3, (c + 2) % 3);
        e(r1, c1) * e(r2, c2) - e(r1, c2) * e(r2, c1)
    };
    let det = e(0, 0) * cof(0, 0) + e(0, 1) * cof(0, 1) + e(0, 2) * cof(0, 2);
    let mut out = [0.0; 16];
    if det == 0.0 || !det.is_finite() {
        for r in 0..3 {
            for c in 0..3 {
                out[4 * r + c] = m[4 * r + c];
            }
        }
    } else {
        for r in 0..3 {
            for c in 0..3 {
                // inverse[c][r] = cof(r, c) / det; its transpose is cof(r, c) / det at [r][c].
                out[4 * r + c] = (cof(r, c) / det) as f32;
            }
        }
    }
    out
}

/// Writes `m` transposed (one column per register) at `at`.
fn put_matrix(out: &mut [[f32; 4]], at: u16, m: &Matrix) {
    for j in 0..4 {
        out[at as usize + j] = [m[j], m[4 + j], m[8 + j], m[12 + j]];
    }
}

fn transform_point(p: [f32; 3], m: &Matrix) -> [f32; 3] {
    let mut o = [0.0; 3];
    for (j, v) in o.iter_mut().enumerate() {
        *v = p[0] * m[j] + p[1] * m[4 + j] + p[2] * m[8 + j] + m[12 + j];
    }
    o
}

fn transform_dir(d: [f32; 3], m: &Matrix) -> [f32; 3] {
    let mut o = [0.0; 3];
    for (j, v) in o.iter_mut().enumerate() {
        *v = d[0] * m[j] + d[1] * m[4 + j] + d[2] * m[8 + j];
    }
    o
}

fn normalize(v: [f32; 3]) -> [f32; 3] {
    let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if l > 0.0 {
        v.map(|x| x / l)
    } else {
        v
    }
}

/// The vertex shader's 256 float constants for `state` (whose key is `key`) drawn into
/// `viewport`.
pub fn vertex_constants(state: &FfpState, key: &ShaderKey, viewport: &Viewport) -> Vec<[f32; 4]> {
    let mut out = vec![[0.0; 4]; 256];
    put_matrix(&mut out, VS_PROJECTION, &state.transform(ts::PROJECTION));
    let depth = viewport.max_z - viewport.min_z;
    let inv_depth = if depth != 0.0 { 1.0 / depth } else { 1.0 };
    let (w, h) = (viewport.width.max(1.0), viewport.height.max(1.0));
    out[VS_VIEWPORT_SCALE as usize] = [2.0 / w, -2.0 / h, inv_depth, 0.0];
    out[VS_VIEWPORT_OFFSET as usize] = [
        -2.0 * viewport.x / w - 1.0,
        2.0 * viewport.y / h + 1.0,
        -viewport.min_z * inv_depth,
        0.0,
    ];
    out[VS_AMBIENT as usize] = d3dcolor(state.rs(rs::AMBIENT));
    let m = &state.material;
    out[VS_MATERIAL as usize] = m.diffuse;
    out[VS_MATERIAL as usize + 1] = m.ambient;
    out[VS_MATERIAL as usize + 2] = m.specular;
    out[VS_MATERIAL as usize + 3] = m.emissive;
    out[VS_POWER as usize] = [m.power, 0.0, 0.0, 0.0];
    out[VS_FOG as usize] = fog_params(state);
    out[VS_POINT as usize] = [
        state.rs_f32(rs::POINTSIZE),
        state.rs_f32(rs::POINTSIZE_MIN),
        state.rs_f32(rs::POINTSIZE_MAX),
        viewport.height,
    ];
    out[VS_POINT_SCALE as usize] = [
        state.rs_f32(rs::POINTSCALE_A),
        state.rs_f32(rs::POINTSCALE_B),
        state.rs_f32(rs::POINTSCALE_C),
        0.0,
    ];
    let view = state.transform(ts::VIEW);
    if key.vs.lighting {
        for (i, l) in state.active_lights().enumerate().take(8) {
            let base = (VS_LIGHTS + VS_LIGHT_SIZE * i as u16) as usize;
            out[base] = l.diffuse;
            out[base + 1] = l.specular;
            out[base + 2] = l.ambient;
            let p = transform_point(l.position, &view);
            out[base + 3] = [p[0], p[1], p[2], 1.0];
            let d = normalize(transform_dir(l.direction, &view));
            // Directional lights store the direction to the light; spots their own direction.
            out[base + 4] = if l.ty == light::DIRECTIONAL {
                [-d[0], -d[1], -d[2], 0.0]
            } else {
                [d[0], d[1], d[2], 0.0]
            };
            let cos_theta = (l.theta / 2.0).cos();
            let cos_phi = (l.phi / 2.0).cos();
            let spread = cos_theta - cos_phi;
            let inv_spread = if spread > 0.0 { 1.0 / spread } else { 1.0e30 };
            out[base + 5] = [l.range, l.falloff, cos_theta, inv_spread];
            out[base + 6] = [l.attenuation0, l.attenuation1, l.attenuation2, cos_phi];
        }
    }
    for stage in 0..8u16 {
        put_matrix(
            &mut out,
            VS_TEXTURE_MATRICES + 4 * stage,
            &state.transform(ts::TEXTURE0 + stage as u32),
        );
    }
    let blend_count = if key.vs.indexed {
        crate::state::MAX_BLEND_INDEX as u16 + 1
    } else {
        key.vs.blend_matrices as u16
    };
    for i in 0..blend_count {
        let wv = multiply(&state.transform(ts::WORLD + i as u32), &view);
        let at = VS_BLEND_MATRICES + VS_BLEND_SIZE * i;
        put_matrix(&mut out, at, &wv);
        let it = inverse_transpose3(&wv);
        for j in 0..3 {
            // N' = N * (WV^-1)^T: component j is N . column j of (WV^-1)^T.
            out[at as usize + 4 + j] = [it[j], it[4 + j], it[8 + j], 0.0];
        }
    }
    out
}

fn fog_params(state: &FfpState) -> [f32; 4] {
    let start = state.rs_f32(rs::FOGSTART);
    let end = state.rs_f32(rs::FOGEND);
    let span = end - start;
    let inv = if span != 0.0 { 1.0 / span } else { 0.0 };
    [start, end, state.rs_f32(rs::FOGDENSITY), inv]
}

/// The pixel shader's float constants for `state`.
pub fn pixel_constants(state: &FfpState) -> Vec<[f32; 4]> {
    let mut out = vec![[0.0; 4]; PS_LITERALS as usize];
    for (i, s) in state.stages.iter().enumerate() {
        out[PS_STAGE_CONSTANT as usize + i] = d3dcolor(s.constant);
        out[PS_BUMP_MATRIX as usize + i] = s.bump_matrix;
        out[PS_BUMP_LUMINANCE as usize + i] = [s.bump_lscale, s.bump_loffset, 0.0, 0.0];
    }
    out[PS_TFACTOR as usize] = d3dcolor(state.rs(rs::TEXTUREFACTOR));
    out[PS_FOG_COLOR as usize] = d3dcolor(state.rs(rs::FOGCOLOR));
    out[PS_FOG as usize] = fog_params(state);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_transpose_of_a_scale() {
        let mut m = crate::state::IDENTITY;
        m[0] = 2.0;
        m[5] = 4.0;
        let it = inverse_transpose3(&m);
        assert_eq!([it[0], it[5], it[10]], [0.5, 0.25, 1.0]);
    }
}
