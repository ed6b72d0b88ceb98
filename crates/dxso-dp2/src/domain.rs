//! Domain tessellation: where the vertices go in (u, v) and how they are joined, before any
//! surface is evaluated.
//!
//! An edge with count `f` becomes a [`partition`] of [0, 1]. The interior of a patch uses the
//! average of opposite edges. When every edge agrees with the interior the result is a regular
//! grid; otherwise the outer ring of edge vertices is stitched ("zipped") to the inner grid, so
//! a vertex on an edge depends only on that edge's count: two patches that agree on a shared
//! edge's count produce the same vertices along it, whatever their interiors.

/// `D3DPATCHEDGESTYLE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeStyle {
    /// Counts are truncated to whole segments of equal length.
    #[default]
    Discrete,
    /// Fractional counts: the odd-count scheme of `docs/DP2.md` (like D3D11 fractional_odd).
    Continuous,
}

impl EdgeStyle {
    /// From the render-state value (0 discrete, 1 continuous).
    pub fn from_u32(v: u32) -> Option<EdgeStyle> {
        match v {
            0 => Some(EdgeStyle::Discrete),
            1 => Some(EdgeStyle::Continuous),
            _ => None,
        }
    }
}

/// The segments an edge with count `count` gets: `count` is clamped to `[1, max]` (continuous:
/// to the largest odd number <= `max`); NaN must be rejected before.
pub fn segment_count(count: f32, style: EdgeStyle, max: u32) -> u32 {
    let max = max.max(1);
    match style {
        EdgeStyle::Discrete => (count.clamp(1.0, max as f32) as u32).max(1),
        EdgeStyle::Continuous => {
            let max_odd = if max % 2 == 1 { max } else { max - 1 };
            let f = count.clamp(1.0, max_odd as f32);
            let n = f.ceil() as u32;
            if n % 2 == 1 {
                n
            } else {
                n + 1
            }
        }
    }
}

/// Whether [`segment_count`] clamps `count` (below 1, or above the largest count `style`
/// allows under `max`).
pub fn is_clamped(count: f32, style: EdgeStyle, max: u32) -> bool {
    let max = max.max(1);
    let top = match style {
        EdgeStyle::Discrete => max,
        EdgeStyle::Continuous if max % 2 == 1 => max,
        EdgeStyle::Continuous => max - 1,
    };
    !(1.0..=top as f32).contains(&count)
}

/// Splits [0, 1] for an edge with count `count`, writing the parameters (first 0, last 1) to
/// `out`.
///
/// Discrete: `n = trunc(count)` equal segments. Continuous: `f = count` clamped, `n` the odd
/// number with `n - 2 < f <= n`; `n - 2` segments of length `1/f` and two shorter ones of
/// length `(f - n + 2) / (2f)` on either side of the middle one, so the points move smoothly
/// as `f` changes and the partition is symmetric about 1/2.
pub fn partition(count: f32, style: EdgeStyle, max: u32, out: &mut Vec<f32>) {
    out.clear();
    let n = segment_count(count, style, max);
    out.push(0.0);
    match style {
        EdgeStyle::Discrete => {
            for i in 1..n {
                out.push(i as f32 / n as f32);
            }
        }
        EdgeStyle::Continuous if n >= 3 => {
            let max_odd = if max.max(1) % 2 == 1 {
                max.max(1)
            } else {
                max.max(1) - 1
            };
            let f = count.clamp(1.0, max_odd as f32);
            let full = 1.0 / f;
            let short = (f - (n - 2) as f32) * 0.5 * full;
            let middle = (n - 1) / 2;
            // Build the first half, then mirror it so the partition is exactly symmetric.
            let mut at = 0.0f32;
            let half: Vec<f32> = (0..middle)
                .map(|i| {
                    at += if i + 1 == middle { short } else { full };
                    at
                })
                .collect();
            out.extend_from_slice(&half);
            out.extend(half.iter().rev().map(|p| 1.0 - p));
        }
        EdgeStyle::Continuous => {}
    }
    out.push(1.0);
}

/// A tessellated domain: parameter points and triangles (counter-clockwise in (u, v)).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Domain {
    /// Vertex parameters. Rect: (u, v). Tri: barycentric weights of corners 1 and 2.
    pub points: Vec<[f32; 2]>,
    /// Triangle list.
    pub indices: Vec<u32>,
    /// For a regular rect grid, its parameters along u and v (points are then row-major).
    pub grid: Option<(Vec<f32>, Vec<f32>)>,
    /// Segments on each edge, as tessellated.
    pub edge_segments: Vec<u32>,
}

/// An upper bound on the vertices [`rect`] makes for these edge segment counts, computed
/// before anything is allocated.
pub fn rect_vertex_bound(segs: [u32; 4]) -> usize {
    let nu = segs[0].max(segs[2]) as usize + 2;
    let nv = segs[1].max(segs[3]) as usize + 2;
    nu.saturating_mul(nv)
        .saturating_add(segs.iter().map(|&s| s as usize).sum::<usize>())
}

/// Tessellates the unit square. `counts` are per edge: `[0]` v=0, `[1]` u=1, `[2]` v=1, `[3]` u=0.
pub fn rect(counts: [f32; 4], style: EdgeStyle, max: u32) -> Domain {
    let max = max.max(1);
    let mut edges: [Vec<f32>; 4] = Default::default();
    for (e, &c) in edges.iter_mut().zip(&counts) {
        partition(c, style, max, e);
    }
    let interior = |a: f32, b: f32| match style {
        EdgeStyle::Discrete => {
            ((segment_count(a, style, max) + segment_count(b, style, max)) as f32 * 0.5).round()
        }
        EdgeStyle::Continuous => (a.clamp(1.0, max as f32) + b.clamp(1.0, max as f32)) * 0.5,
    };
    let (iu, iv) = (
        interior(counts[0], counts[2]),
        interior(counts[1], counts[3]),
    );
    let mut pu = Vec::new();
    let mut pv = Vec::new();
    partition(iu, style, max, &mut pu);
    partition(iv, style, max, &mut pv);
    let edge_segments = edges.iter().map(|e| e.len() as u32 - 1).collect();
    if edges[0] == pu && edges[2] == pu && edges[1] == pv && edges[3] == pv {
        let mut d = grid(&pu, &pv);
        d.edge_segments = edge_segments;
        return d;
    }
    // Stitching needs an inner grid with at least one interior row and column.
    if pu.len() < 3 {
        partition(iu.max(2.0), style, max.max(2), &mut pu);
    }
    if pv.len() < 3 {
        partition(iv.max(2.0), style, max.max(2), &mut pv);
    }
    let mut d = Domain {
        edge_segments,
        ..Domain::default()
    };
    // Outer ring, counter-clockwise from (0, 0); corners appear once.
    let mut ring: [Vec<u32>; 4] = Default::default();
    let corner = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
    for (i, c) in corner.iter().enumerate() {
        d.points.push(*c);
        ring[i].push(i as u32);
    }
    let at = |e: usize, t: f32| match e {
        0 => [t, 0.0],
        1 => [1.0, t],
        2 => [t, 1.0],
        _ => [0.0, t],
    };
    for e in 0..4 {
        let p = &edges[e];
        let mut ids: Vec<u32> = Vec::with_capacity(p.len());
        for &t in &p[1..p.len() - 1] {
            ids.push(d.points.len() as u32);
            d.points.push(at(e, t));
        }
        // Walk each side counter-clockwise: bottom and right ascend, top and left descend.
        let (start, end) = match e {
            0 => (0, 1),
            1 => (1, 2),
            2 => (3, 2),
            _ => (0, 3),
        };
        let mut side = vec![start];
        side.extend(ids);
        side.push(end);
        if e >= 2 {
            side.reverse();
        }
        ring[e] = side;
    }
    // Inner grid over the interior parameters, excluding the border.
    let (iu, iv) = (&pu[1..pu.len() - 1], &pv[1..pv.len() - 1]);
    let base = d.points.len() as u32;
    for &v in iv {
        for &u in iu {
            d.points.push([u, v]);
        }
    }
    let w = iu.len() as u32;
    let h = iv.len() as u32;
    let inner = |i: u32, j: u32| base + j * w + i;
    for j in 0..h - 1 {
        for i in 0..w - 1 {
            quad(
                &mut d.indices,
                inner(i, j),
                inner(i + 1, j),
                inner(i + 1, j + 1),
                inner(i, j + 1),
            );
        }
    }
    // Inner ring sides, in the same counter-clockwise directions as the outer sides.
    let bottom: Vec<u32> = (0..w).map(|i| inner(i, 0)).collect();
    let right: Vec<u32> = (0..h).map(|j| inner(w - 1, j)).collect();
    let top: Vec<u32> = (0..w).rev().map(|i| inner(i, h - 1)).collect();
    let left: Vec<u32> = (0..h).rev().map(|j| inner(0, j)).collect();
    let sides = [bottom, right, top, left];
    for (e, inner_side) in sides.iter().enumerate() {
        let key = |p: [f32; 2]| match e {
            0 => p[0],
            1 => p[1],
            2 => 1.0 - p[0],
            _ => 1.0 - p[1],
        };
        zip(&mut d.indices, &d.points, &ring[e], inner_side, key);
    }
    d
}

/// A regular grid over `us` x `vs`, row-major.
pub fn grid(us: &[f32], vs: &[f32]) -> Domain {
    let mut d = Domain::default();
    d.points.reserve(us.len() * vs.len());
    for &v in vs {
        for &u in us {
            d.points.push([u, v]);
        }
    }
    grid_indices(us.len() as u32, vs.len() as u32, &mut d.indices);
    d.grid = Some((us.to_vec(), vs.to_vec()));
    d
}

/// Triangles of a `w` x `h`-vertex row-major grid.
pub fn grid_indices(w: u32, h: u32, out: &mut Vec<u32>) {
    out.reserve(6 * (w.saturating_sub(1) * h.saturating_sub(1)) as usize);
    for j in 0..h.saturating_sub(1) {
        for i in 0..w - 1 {
            let a = j * w + i;
            quad(out, a, a + 1, a + 1 + w, a + w);
        }
    }
}

fn quad(out: &mut Vec<u32>, a: u32, b: u32, c: u32, d: u32) {
    out.extend_from_slice(&[a, b, c, a, c, d]);
}

/// Joins an outer polyline to an inner one running the same way (interior on the left),
/// always advancing the side whose next point comes first along `key`.
fn zip(
    out: &mut Vec<u32>,
    points: &[[f32; 2]],
    outer: &[u32],
    inner: &[u32],
    key: impl Fn([f32; 2]) -> f32,
) {
    let (mut a, mut b) = (0, 0);
    let k = |i: u32| key(points[i as usize]);
    while a + 1 < outer.len() || b + 1 < inner.len() {
        let advance_outer = if a + 1 == outer.len() {
            false
        } else if b + 1 == inner.len() {
            true
        } else {
            k(outer[a + 1]) <= k(inner[b + 1])
        };
        if advance_outer {
            out.extend_from_slice(&[outer[a], outer[a + 1], inner[b]]);
            a += 1;
        } else {
            out.extend_from_slice(&[outer[a], inner[b + 1], inner[b]]);
            b += 1;
        }
    }
}

/// An upper bound on the vertices [`tri`] makes, computed before anything is allocated.
pub fn tri_vertex_bound(segs: [u32; 3]) -> usize {
    let n = *segs.iter().max().unwrap_or(&1) as usize + 3;
    ((n + 1).saturating_mul(n + 2) / 2)
        .saturating_add(segs.iter().map(|&s| s as usize).sum::<usize>())
}

/// The interior count of a tri domain: the average of the edges, rounded (continuous: up to odd).
pub fn tri_interior(counts: [f32; 3], style: EdgeStyle, max: u32) -> u32 {
    let max = max.max(1);
    let segs = counts.map(|c| segment_count(c, style, max));
    let avg = match style {
        EdgeStyle::Discrete => ((segs[0] + segs[1] + segs[2]) as f32 / 3.0).round(),
        EdgeStyle::Continuous => counts.iter().map(|c| c.clamp(1.0, max as f32)).sum::<f32>() / 3.0,
    };
    segment_count(avg, style, max)
}

/// Tessellates the triangle with corners C0 (0,0), C1 (1,0), C2 (0,1) in (b1, b2). Edges:
/// `[0]` C0→C1, `[1]` C1→C2, `[2]` C2→C0. The interior is a uniform barycentric grid.
pub fn tri(counts: [f32; 3], style: EdgeStyle, max: u32) -> Domain {
    let max = max.max(1);
    let mut edges: [Vec<f32>; 3] = Default::default();
    for (e, &c) in edges.iter_mut().zip(&counts) {
        partition(c, style, max, e);
    }
    let n = tri_interior(counts, style, max);
    let uniform: Vec<f32> = (0..=n).map(|i| i as f32 / n as f32).collect();
    let edge_segments = edges.iter().map(|e| e.len() as u32 - 1).collect();
    if edges.iter().all(|e| *e == uniform) {
        let mut d = tri_grid(n);
        d.edge_segments = edge_segments;
        return d;
    }
    let n = n.max(3);
    let mut d = Domain {
        edge_segments,
        ..Domain::default()
    };
    let corner = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];
    d.points.extend_from_slice(&corner);
    let at = |e: usize, t: f32| match e {
        0 => [t, 0.0],
        1 => [1.0 - t, t],
        _ => [0.0, 1.0 - t],
    };
    let mut ring: [Vec<u32>; 3] = Default::default();
    for e in 0..3 {
        let p = &edges[e];
        let mut side = vec![e as u32];
        for &t in &p[1..p.len() - 1] {
            side.push(d.points.len() as u32);
            d.points.push(at(e, t));
        }
        side.push(((e + 1) % 3) as u32);
        ring[e] = side;
    }
    // Inner points: barycentric (i, j, k) / n with all of i, j, k >= 1, rows of constant k.
    let base = d.points.len() as u32;
    let m = n - 3; // the inner triangle's size in steps
    let row_start = |k: u32| (0..k).map(|r| m + 1 - r).sum::<u32>();
    let inner = |k: u32, j: u32| base + row_start(k) + j;
    for k in 0..=m {
        for j in 0..=m - k {
            d.points
                .push([(j + 1) as f32 / n as f32, (k + 1) as f32 / n as f32]);
        }
    }
    tri_grid_indices(m, &mut d.indices, inner);
    // Inner sides parallel to each edge, in the edge's direction.
    let side0: Vec<u32> = (0..=m).map(|j| inner(0, j)).collect();
    let side1: Vec<u32> = (0..=m).map(|k| inner(k, m - k)).collect();
    let side2: Vec<u32> = (0..=m).rev().map(|k| inner(k, 0)).collect();
    let sides = [side0, side1, side2];
    for (e, inner_side) in sides.iter().enumerate() {
        // Position along the edge direction, from the barycentric weights.
        let key = |p: [f32; 2]| {
            let (b1, b2) = (p[0], p[1]);
            let b0 = 1.0 - b1 - b2;
            match e {
                0 => b1 / (b0 + b1).max(1e-12),
                1 => b2 / (b1 + b2).max(1e-12),
                _ => b0 / (b2 + b0).max(1e-12),
            }
        };
        zip(&mut d.indices, &d.points, &ring[e], inner_side, key);
    }
    d
}

/// A uniform barycentric grid with `n` segments per edge.
pub fn tri_grid(n: u32) -> Domain {
    let mut d = Domain::default();
    for k in 0..=n {
        for j in 0..=n - k {
            d.points.push([j as f32 / n as f32, k as f32 / n as f32]);
        }
    }
    let row_start = |k: u32| (0..k).map(|r| n + 1 - r).sum::<u32>();
    tri_grid_indices(n, &mut d.indices, |k, j| row_start(k) + j);
    d
}

fn tri_grid_indices(n: u32, out: &mut Vec<u32>, id: impl Fn(u32, u32) -> u32) {
    for k in 0..n {
        for j in 0..n - k {
            out.extend_from_slice(&[id(k, j), id(k, j + 1), id(k + 1, j)]);
            if j + 1 < n - k {
                out.extend_from_slice(&[id(k, j + 1), id(k + 1, j + 1), id(k + 1, j)]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discrete_partition_truncates() {
        let mut p = Vec::new();
        partition(3.9, EdgeStyle::Discrete, 64, &mut p);
        assert_eq!(p, vec![0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0]);
    }

    #[test]
    fn continuous_partition_is_symmetric_and_smooth() {
        let mut p = Vec::new();
        partition(4.0, EdgeStyle::Continuous, 64, &mut p);
        assert_eq!(p.len(), 6); // n = 5
        for (a, b) in p.iter().zip(p.iter().rev()) {
            assert!((a + b - 1.0).abs() < 1e-6);
        }
        // Exactly odd counts give equal segments.
        partition(5.0, EdgeStyle::Continuous, 64, &mut p);
        for w in p.windows(2) {
            assert!((w[1] - w[0] - 0.2).abs() < 1e-6);
        }
        // Just above 3 the two short segments are almost empty.
        partition(3.001, EdgeStyle::Continuous, 64, &mut p);
        assert!((p[2] - p[1]) < 1e-3);
    }

    #[test]
    fn a_zero_cap_means_one_segment() {
        assert_eq!(rect([4.0; 4], EdgeStyle::Continuous, 0).points.len(), 4);
        assert_eq!(tri([4.0; 3], EdgeStyle::Continuous, 0).points.len(), 3);
    }

    #[test]
    fn regular_rect_counts() {
        let d = rect([4.0; 4], EdgeStyle::Discrete, 64);
        assert_eq!(d.points.len(), 25);
        assert_eq!(d.indices.len() / 3, 32);
    }

    #[test]
    fn stitched_rect_counts_match_prediction() {
        for segs in [
            [1.0, 2.0, 3.0, 4.0],
            [8.0, 1.0, 1.0, 1.0],
            [2.0, 2.0, 5.0, 2.0],
        ] {
            let d = rect(segs, EdgeStyle::Discrete, 64);
            let s = segs.map(|c| c as u32);
            let (nu, nv) = (
                ((s[0] + s[2]) as f32 / 2.0).round() as usize,
                ((s[1] + s[3]) as f32 / 2.0).round() as usize,
            );
            let exact = s.iter().sum::<u32>() as usize + (nu.max(2) - 1) * (nv.max(2) - 1);
            assert_eq!(d.points.len(), exact, "{segs:?}");
            assert!(d.points.len() <= rect_vertex_bound(s));
        }
    }

    #[test]
    fn tri_counts() {
        let d = tri([4.0; 3], EdgeStyle::Discrete, 64);
        assert_eq!(d.points.len(), 15);
        assert_eq!(d.indices.len() / 3, 16);
        let d = tri([1.0, 2.0, 6.0], EdgeStyle::Discrete, 64);
        // Interior 3: a single inner point.
        assert_eq!(d.points.len(), 1 + 2 + 6 + 1);
        assert!(d.points.len() <= tri_vertex_bound([1, 2, 6]));
    }
}
