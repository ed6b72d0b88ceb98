//! No cracks: inside a stitched patch, and between neighbours that agree on a shared edge.
mod common;

use common::*;
use dxso_dp2::domain::{self, EdgeStyle};
use dxso_dp2::patch_desc::PatchDescription;
use dxso_dp2::surface::Basis;

fn area(p: &[[f32; 2]], t: &[u32]) -> f32 {
    let (a, b, c) = (p[t[0] as usize], p[t[1] as usize], p[t[2] as usize]);
    0.5 * ((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]))
}

fn on_boundary(p: [f32; 2]) -> bool {
    p[0] == 0.0 || p[0] == 1.0 || p[1] == 0.0 || p[1] == 1.0
}

const CASES: [[f32; 4]; 7] = [
    [4.0, 4.0, 4.0, 4.0],
    [1.0, 2.0, 3.0, 4.0],
    [8.0, 1.0, 1.0, 1.0],
    [2.0, 9.0, 5.0, 3.0],
    [16.0, 3.0, 2.0, 7.0],
    [3.5, 6.25, 1.5, 10.0],
    [1.0, 1.0, 1.0, 2.0],
];

#[test]
fn stitched_rect_domains_have_no_cracks() {
    let mut checked = 0;
    for style in [EdgeStyle::Discrete, EdgeStyle::Continuous] {
        for segs in CASES {
            let d = domain::rect(segs, style, 64);
            let (undirected, directed) = edge_use(&d.indices);
            // Consistent orientation: no directed edge twice.
            assert!(
                directed.values().all(|&n| n == 1),
                "{style:?} {segs:?}: a directed edge repeats"
            );
            let mut boundary = 0;
            for (&(a, b), &n) in &undirected {
                let (pa, pb) = (d.points[a as usize], d.points[b as usize]);
                let outer = on_boundary(pa)
                    && on_boundary(pb)
                    && (pa[0] == pb[0] || pa[1] == pb[1])
                    && (pa[0] == pb[0] && (pa[0] == 0.0 || pa[0] == 1.0)
                        || pa[1] == pb[1] && (pa[1] == 0.0 || pa[1] == 1.0));
                if outer {
                    assert_eq!(n, 1, "{segs:?}: outer edge used {n} times");
                    boundary += 1;
                } else {
                    assert_eq!(
                        n, 2,
                        "{style:?} {segs:?}: inner edge {pa:?}-{pb:?} used {n} times"
                    );
                }
            }
            let expected: u32 = d.edge_segments.iter().sum();
            assert_eq!(
                boundary, expected as usize,
                "{segs:?}: boundary edges are the edge segments"
            );
            // Every triangle counter-clockwise and the triangles tile the square exactly.
            let total: f32 = d
                .indices
                .chunks_exact(3)
                .map(|t| {
                    let a = area(&d.points, t);
                    assert!(a > 0.0, "{segs:?}: a triangle is degenerate or flipped");
                    a
                })
                .sum();
            assert!((total - 1.0).abs() < 1e-4, "{segs:?}: area {total}");
            checked += 1;
        }
    }
    println!("{checked} rect domains watertight");
}

#[test]
fn stitched_tri_domains_have_no_cracks() {
    for style in [EdgeStyle::Discrete, EdgeStyle::Continuous] {
        for segs in [
            [4.0f32, 4.0, 4.0],
            [1.0, 2.0, 6.0],
            [7.0, 3.0, 3.0],
            [2.5, 9.25, 4.0],
            [1.0, 1.0, 2.0],
        ] {
            let d = domain::tri(segs, style, 64);
            let (undirected, directed) = edge_use(&d.indices);
            assert!(directed.values().all(|&n| n == 1));
            let boundary = undirected.values().filter(|&&n| n == 1).count();
            assert!(undirected.values().all(|&n| n == 1 || n == 2), "{segs:?}");
            assert_eq!(
                boundary as u32,
                d.edge_segments.iter().sum::<u32>(),
                "{style:?} {segs:?}"
            );
            let total: f32 = d.indices.chunks_exact(3).map(|t| area(&d.points, t)).sum();
            assert!((total - 0.5).abs() < 1e-4, "{segs:?}: area {total}");
        }
    }
}

#[test]
fn neighbours_agree_on_a_shared_edge() {
    // Two bicubic patches side by side: A covers x in [0, 3], B x in [3, 6]; A's column 3 is
    // B's column 0. Their interiors differ; the shared edge (A: u = 1, B: u = 0) has 5.5 (or
    // 5) segments on both sides.
    let height = |x: f32, y: f32| (x * 0.7).sin() + (y * 1.3).cos() * 0.5;
    let patch = |x0: u32, segs: [f32; 4], style| PatchDescription {
        basis: Basis::Bezier,
        degree: 3,
        width: 4,
        height: 4,
        segments: segs,
        edge_style: style,
        control_points: (0..4u32)
            .flat_map(|r| (0..4u32).map(move |c| (r, c)))
            .map(|(r, c)| {
                let (x, y) = ((x0 + c) as f32, r as f32);
                [x, y, height(x, y)]
            })
            .collect(),
    };
    for style in [EdgeStyle::Discrete, EdgeStyle::Continuous] {
        let a = patch(0, [2.0, 5.5, 9.0, 3.0], style).tessellate().unwrap();
        let b = patch(3, [12.0, 1.0, 7.0, 5.5], style).tessellate().unwrap();
        let right: Vec<[f32; 3]> = a
            .positions
            .iter()
            .zip(&a.uvs)
            .filter(|(_, uv)| uv[0] == 1.0)
            .map(|(p, _)| *p)
            .collect();
        let left: Vec<[f32; 3]> = b
            .positions
            .iter()
            .zip(&b.uvs)
            .filter(|(_, uv)| uv[0] == 0.0)
            .map(|(p, _)| *p)
            .collect();
        let sort = |mut v: Vec<[f32; 3]>| {
            v.sort_by(|p, q| p[1].total_cmp(&q[1]));
            v
        };
        let (right, left) = (sort(right), sort(left));
        let expected = if style == EdgeStyle::Discrete { 6 } else { 8 };
        assert_eq!(right.len(), expected, "{style:?}");
        assert_eq!(
            right, left,
            "{style:?}: vertices along the shared edge must be identical"
        );
        // And the two sides' interiors really differ.
        assert_ne!(a.vertex_count(), b.vertex_count());
    }
}
