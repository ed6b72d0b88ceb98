//! Clipping in homogeneous clip space, before the divide: against the near (z >= 0) and far
//! (z <= w) planes of Direct3D, and against a guard band for x and y (|x|, |y| <= GUARD * w),
//! which only primitives reaching far outside the viewport ever touch. Everything inside the
//! guard band is left to the rasteriser, which tests only pixels inside the viewport; the band
//! keeps screen coordinates small enough for exact fixed-point edge functions.
//!
//! Vertices carry their varyings, interpolated linearly in clip space along clipped edges (which
//! is what perspective-correct interpolation needs).

/// The guard band, in viewports: NDC x and y are kept within -GUARD..GUARD.
pub const GUARD: f32 = 256.0;

/// A vertex being clipped: clip-space position and `n` varyings.
pub type ClipVertex = ([f32; 4], Vec<[f32; 4]>);

/// The six planes' signed distances (inside when >= 0).
fn distances(p: &[f32; 4]) -> [f32; 6] {
    let [x, y, z, w] = *p;
    [
        z,
        w - z,
        GUARD * w - x,
        x + GUARD * w,
        GUARD * w - y,
        y + GUARD * w,
    ]
}

/// Whether every coordinate is finite.
pub fn finite(p: &[f32; 4]) -> bool {
    p.iter().all(|c| c.is_finite())
}

/// Bit `i` set when the point is outside plane `i`.
pub fn outcode(p: &[f32; 4]) -> u8 {
    distances(p)
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
pub fn clip_polygon(mut poly: Vec<ClipVertex>, planes: u8) -> Vec<ClipVertex> {
    for plane in 0..6 {
        if planes & (1 << plane) == 0 || poly.is_empty() {
            continue;
        }
        let mut out = Vec::with_capacity(poly.len() + 1);
        for i in 0..poly.len() {
            let a = &poly[i];
            let b = &poly[(i + 1) % poly.len()];
            let (da, db) = (distances(&a.0)[plane], distances(&b.0)[plane]);
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
pub fn clip_line(a: ClipVertex, b: ClipVertex, planes: u8) -> Option<(ClipVertex, ClipVertex)> {
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    let (da, db) = (distances(&a.0), distances(&b.0));
    for plane in 0..6 {
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
        let codes: u8 = tri.iter().map(|v| outcode(&v.0)).fold(0, |a, c| a | c);
        assert_eq!(codes, 1);
        let out = clip_polygon(tri, codes);
        assert_eq!(out.len(), 4);
        assert!(out.iter().all(|v| v.0[2] >= -1e-6));
        // Varyings follow the position.
        assert!(out.iter().all(|v| v.1[0][0] == v.0[0]));
    }

    #[test]
    fn lines_clip_to_the_far_plane() {
        let (a, b) = clip_line(v([0.0, 0.0, 0.5, 1.0]), v([0.0, 0.0, 3.0, 1.0]), 2).unwrap();
        assert_eq!(a.0[2], 0.5);
        assert!((b.0[2] - 1.0).abs() < 1e-6);
        assert!(clip_line(v([0.0, 0.0, 2.0, 1.0]), v([0.0, 0.0, 3.0, 1.0]), 2).is_none());
    }
}
