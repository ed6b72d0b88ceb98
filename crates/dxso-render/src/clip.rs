//! Clipping in homogeneous clip space, before the divide: against the near (z >= 0) and far
//! (z <= w) planes of Direct3D, and against a guard band for x and y (|x|, |y| <= GUARD * w),
//! which only primitives reaching far outside the viewport ever touch. Everything inside the
//! guard band is left to the rasteriser, which tests only pixels inside the viewport; the band
//! keeps screen coordinates small enough for exact fixed-point edge functions.
//!
//! User clip planes (CLIPPLANEENABLE, SETCLIPPLANE) are further planes in clip space: a point
//! is kept where `plane . (x, y, z, w) >= 0`. Shaders' planes are given in clip space; the
//! fixed-function pipeline's are in world space and reach clip space through the inverse of
//! View x Projection ([`world_planes_to_clip`]).
//!
//! Vertices carry their varyings, interpolated linearly in clip space along clipped edges (which
//! is what perspective-correct interpolation needs).

/// The guard band, in viewports: NDC x and y are kept within -GUARD..GUARD.
pub const GUARD: f32 = 256.0;

/// A vertex being clipped: clip-space position and `n` varyings.
pub type ClipVertex = ([f32; 4], Vec<[f32; 4]>);

/// The most user clip planes (Direct3D 9's `MaxUserClipPlanes`).
pub const MAX_USER_PLANES: usize = 6;

/// The six frustum planes' and the user planes' signed distances (inside when >= 0).
fn distances(p: &[f32; 4], user: &[[f32; 4]]) -> [f32; 6 + MAX_USER_PLANES] {
    let [x, y, z, w] = *p;
    let mut d = [0.0; 6 + MAX_USER_PLANES];
    d[..6].copy_from_slice(&[
        z,
        w - z,
        GUARD * w - x,
        x + GUARD * w,
        GUARD * w - y,
        y + GUARD * w,
    ]);
    for (k, u) in user.iter().take(MAX_USER_PLANES).enumerate() {
        d[6 + k] = u[0] * x + u[1] * y + u[2] * z + u[3] * w;
    }
    d
}

/// The enabled planes (bit `i` of `enable` is plane `i`) of the device's `planes`, in clip
/// space: given as they are (shaders), or from world space through `world_to_clip` (the
/// fixed-function pipeline's View x Projection). `None` when that matrix has no inverse.
pub fn user_planes(
    enable: u32,
    planes: &[[f32; 4]],
    world_to_clip: Option<&[f32; 16]>,
) -> Option<Vec<[f32; 4]>> {
    let chosen = planes
        .iter()
        .take(MAX_USER_PLANES)
        .enumerate()
        .filter(|(i, _)| enable & (1 << i) != 0)
        .map(|(_, p)| *p);
    match world_to_clip {
        None => Some(chosen.collect()),
        Some(m) => {
            let inv = inverse(m)?;
            Some(chosen.map(|p| world_planes_to_clip(&inv, &p)).collect())
        }
    }
}

/// A world-space plane in clip space, given the inverse of the world-to-clip matrix (row
/// vectors: `clip = world * M`, so `plane . world = (M^-1 plane) . clip`).
pub fn world_planes_to_clip(inv: &[f64; 16], p: &[f32; 4]) -> [f32; 4] {
    std::array::from_fn(|i| (0..4).map(|j| inv[4 * i + j] * p[j] as f64).sum::<f64>() as f32)
}

/// The inverse of a row-major 4x4 matrix in double precision (Gauss-Jordan with partial
/// pivoting); `None` when it is singular or not finite.
pub fn inverse(m: &[f32; 16]) -> Option<[f64; 16]> {
    let mut a: [[f64; 8]; 4] = std::array::from_fn(|r| {
        std::array::from_fn(|c| {
            if c < 4 {
                m[4 * r + c] as f64
            } else if c - 4 == r {
                1.0
            } else {
                0.0
            }
        })
    });
    for col in 0..4 {
        let pivot = (col..4).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        let p = a[pivot][col];
        if !p.is_finite() || p.abs() < 1e-30 {
            return None;
        }
        a.swap(col, pivot);
        a[col].iter_mut().for_each(|v| *v /= p);
        let row = a[col];
        for (r, other) in a.iter_mut().enumerate() {
            if r != col {
                let f = other[col];
                other.iter_mut().zip(&row).for_each(|(v, &x)| *v -= f * x);
            }
        }
    }
    let out: [f64; 16] = std::array::from_fn(|i| a[i / 4][4 + i % 4]);
    out.iter().all(|v| v.is_finite()).then_some(out)
}

/// Whether every coordinate is finite.
pub fn finite(p: &[f32; 4]) -> bool {
    p.iter().all(|c| c.is_finite())
}

/// Bit `i` set when the point is outside plane `i` (0-5 the frustum, 6.. the user planes).
pub fn outcode(p: &[f32; 4], user: &[[f32; 4]]) -> u16 {
    distances(p, user)
        .iter()
        .enumerate()
        .fold(0, |m, (i, &d)| if d >= 0.0 { m } else { m | 1 << i })
}

fn lerp(a: &ClipVertex, b: &ClipVertex, t: f32) -> ClipVertex {
    let mix = |x: &[f32; 4], y: &[f32; 4]| std::array::from_fn(|c| x[c] + (y[c] - x[c]) * t);
    (
        mix(&a.0, &b.0),
        a.1.iter().zip(&b.1).map(|(x, y)| mix(x, y)).collect(),
    )
}

/// Clips a convex polygon against every plane its outcodes name (Sutherland-Hodgman). The
/// result is empty when nothing is left.
pub fn clip_polygon(mut poly: Vec<ClipVertex>, planes: u16, user: &[[f32; 4]]) -> Vec<ClipVertex> {
    for plane in 0..6 + MAX_USER_PLANES {
        if planes & (1 << plane) == 0 || poly.is_empty() {
            continue;
        }
        let mut out = Vec::with_capacity(poly.len() + 1);
        for i in 0..poly.len() {
            let a = &poly[i];
            let b = &poly[(i + 1) % poly.len()];
            let (da, db) = (distances(&a.0, user)[plane], distances(&b.0, user)[plane]);
            if da >= 0.0 {
                out.push(a.clone());
            }
            if (da >= 0.0) != (db >= 0.0) {
                out.push(lerp(a, b, da / (da - db)));
            }
        }
        poly = out;
    }
    poly
}

/// Clips a segment; `None` when nothing is left.
pub fn clip_line(
    a: ClipVertex,
    b: ClipVertex,
    planes: u16,
    user: &[[f32; 4]],
) -> Option<(ClipVertex, ClipVertex)> {
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    let (da, db) = (distances(&a.0, user), distances(&b.0, user));
    for plane in 0..6 + MAX_USER_PLANES {
        if planes & (1 << plane) == 0 {
            continue;
        }
        let (p, q) = (da[plane], db[plane]);
        if p < 0.0 && q < 0.0 {
            return None;
        }
        let t = p / (p - q);
        if p < 0.0 {
            t0 = t0.max(t);
        } else if q < 0.0 {
            t1 = t1.min(t);
        }
    }
    if t0 > t1 {
        return None;
    }
    Some((lerp(&a, &b, t0), lerp(&a, &b, t1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(p: [f32; 4]) -> ClipVertex {
        (p, vec![[p[0], 0.0, 0.0, 0.0]])
    }

    #[test]
    fn a_triangle_through_the_near_plane_loses_its_front() {
        let tri = vec![
            v([0.0, 0.0, -1.0, 1.0]),
            v([1.0, 0.0, 1.0, 2.0]),
            v([0.0, 1.0, 1.0, 2.0]),
        ];
        let codes: u16 = tri.iter().map(|v| outcode(&v.0, &[])).fold(0, |a, c| a | c);
        assert_eq!(codes, 1);
        let out = clip_polygon(tri, codes, &[]);
        assert_eq!(out.len(), 4);
        assert!(out.iter().all(|v| v.0[2] >= -1e-6));
        // Varyings follow the position.
        assert!(out.iter().all(|v| v.1[0][0] == v.0[0]));
    }

    #[test]
    fn lines_clip_to_the_far_plane() {
        let (a, b) = clip_line(v([0.0, 0.0, 0.5, 1.0]), v([0.0, 0.0, 3.0, 1.0]), 2, &[]).unwrap();
        assert_eq!(a.0[2], 0.5);
        assert!((b.0[2] - 1.0).abs() < 1e-6);
        assert!(clip_line(v([0.0, 0.0, 2.0, 1.0]), v([0.0, 0.0, 3.0, 1.0]), 2, &[]).is_none());
    }

    #[test]
    fn a_user_plane_cuts_a_triangle_and_world_planes_follow_the_matrix() {
        // x >= 0.25 in clip space.
        let user = [[1.0, 0.0, 0.0, -0.25]];
        let tri = vec![
            v([0.0, 0.0, 0.5, 1.0]),
            v([1.0, 0.0, 0.5, 1.0]),
            v([0.0, 1.0, 0.5, 1.0]),
        ];
        let codes: u16 = tri
            .iter()
            .map(|v| outcode(&v.0, &user))
            .fold(0, |a, c| a | c);
        assert_eq!(codes, 1 << 6);
        let out = clip_polygon(tri, codes, &user);
        assert!(out.iter().all(|v| v.0[0] >= 0.25 - 1e-6));
        // A scale by 2 in x: the world plane x >= 0.25 is clip x >= 0.5.
        let mut m = [0.0f32; 16];
        for i in 0..4 {
            m[5 * i] = 1.0;
        }
        m[0] = 2.0;
        let p = user_planes(1, &user, Some(&m)).unwrap()[0];
        assert_eq!(p, [0.5, 0.0, 0.0, -0.25]);
        assert!(user_planes(1, &user, Some(&[0.0; 16])).is_none());
        assert!(user_planes(2, &user, None).unwrap().is_empty());
    }
}
