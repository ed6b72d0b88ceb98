//! Surface invariants: bilinear reproduction, interpolation, constants, counts, elements.
mod common;

use common::*;
use dxso_dp2::decl::{DeclMethod, DeclType, DeclUsage};
use dxso_dp2::device::{rs, run};
use dxso_dp2::domain::EdgeStyle;
use dxso_dp2::patch_desc::PatchDescription;
use dxso_dp2::surface::Basis;
use dxso_dp2::{CaptureBuilder, Limits};

fn bilinear(s: f32, t: f32) -> [f32; 3] {
    // A twisted (hyperbolic-paraboloid) surface: exercises the tensor product, not just planes.
    [
        1.0 + 2.0 * s - 0.5 * t,
        -1.0 + 0.25 * s + 3.0 * t,
        0.5 + s * t * 4.0 - s,
    ]
}

fn describe(
    basis: Basis,
    degree: u32,
    w: u32,
    h: u32,
    segs: [f32; 4],
    style: EdgeStyle,
    f: impl Fn(u32, u32) -> [f32; 3],
) -> PatchDescription {
    let control_points = (0..h)
        .flat_map(|r| (0..w).map(move |c| (r, c)))
        .map(|(r, c)| f(r, c))
        .collect();
    PatchDescription {
        basis,
        degree,
        width: w,
        height: h,
        segments: segs,
        edge_style: style,
        control_points,
    }
}

const SEGMENT_CASES: [[f32; 4]; 4] = [
    [4.0; 4],
    [1.0, 3.0, 6.0, 2.0],
    [5.5, 5.5, 2.25, 7.0],
    [8.0, 8.0, 8.0, 8.0],
];

#[test]
fn bezier_reproduces_bilinear_grids() {
    let mut checked = 0;
    for degree in [1, 2, 3, 5] {
        for patches in [1, 2] {
            let w = patches * degree + 1;
            let h = degree + 1;
            for segs in SEGMENT_CASES {
                for style in [EdgeStyle::Discrete, EdgeStyle::Continuous] {
                    let d = describe(Basis::Bezier, degree, w, h, segs, style, |r, c| {
                        bilinear(c as f32 / (w - 1) as f32, r as f32 / (h - 1) as f32)
                    });
                    let m = d.tessellate().unwrap();
                    for (p, uv) in m.positions.iter().zip(&m.uvs) {
                        assert!(
                            close(*p, bilinear(uv[0], uv[1]), 1e-4),
                            "degree {degree} w {w} {segs:?}: {p:?} at {uv:?}"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    println!("bezier bilinear: {checked} vertices checked");
}

#[test]
fn bspline_reproduces_bilinear_grids() {
    let mut checked = 0;
    for degree in [1u32, 2, 3, 5] {
        let (w, h) = (degree + 3, degree + 2);
        for segs in SEGMENT_CASES {
            for style in [EdgeStyle::Discrete, EdgeStyle::Continuous] {
                let d = describe(Basis::Bspline, degree, w, h, segs, style, |r, c| {
                    bilinear(c as f32, r as f32)
                });
                let m = d.tessellate().unwrap();
                // A uniform B-spline reproduces linear functions at the Greville abscissae:
                // index coordinate = t * spans + (degree - 1) / 2.
                let shift = (degree as f32 - 1.0) / 2.0;
                for (p, uv) in m.positions.iter().zip(&m.uvs) {
                    let s = uv[0] * (w - degree) as f32 + shift;
                    let t = uv[1] * (h - degree) as f32 + shift;
                    assert!(
                        close(*p, bilinear(s, t), 1e-4),
                        "degree {degree} {segs:?}: {p:?} vs {:?}",
                        bilinear(s, t)
                    );
                    checked += 1;
                }
            }
        }
    }
    println!("b-spline bilinear: {checked} vertices checked");
}

#[test]
fn catmull_rom_interpolates_interior_points_at_span_boundaries() {
    let (w, h) = (6u32, 5u32);
    let f = |r: u32, c: u32| {
        [
            c as f32 * 1.3,
            r as f32 * 0.7 + (c * r) as f32 * 0.1,
            ((r * 7 + c * 3) % 5) as f32,
        ]
    };
    // Spans: 3 along u, 2 along v; segments that are multiples put vertices on the boundaries.
    let d = describe(
        Basis::CatmullRom,
        3,
        w,
        h,
        [6.0, 4.0, 6.0, 4.0],
        EdgeStyle::Discrete,
        f,
    );
    let m = d.tessellate().unwrap();
    let mut hits = 0;
    for (p, uv) in m.positions.iter().zip(&m.uvs) {
        let (su, sv) = (uv[0] * 3.0, uv[1] * 2.0);
        if (su - su.round()).abs() < 1e-6 && (sv - sv.round()).abs() < 1e-6 {
            let expected = f(sv.round() as u32 + 1, su.round() as u32 + 1);
            assert!(close(*p, expected, 1e-5), "{p:?} vs {expected:?} at {uv:?}");
            hits += 1;
        }
    }
    assert_eq!(hits, 4 * 3, "every interior control point is hit once");
}

#[test]
fn constant_control_points_give_the_constant() {
    let k = [0.25, -7.5, 3.0];
    for (basis, degree, w, h) in [
        (Basis::Bezier, 3, 7, 4),
        (Basis::Bezier, 5, 6, 6),
        (Basis::Bspline, 2, 5, 6),
        (Basis::Bspline, 5, 8, 7),
        (Basis::CatmullRom, 3, 5, 4),
    ] {
        for segs in SEGMENT_CASES {
            let m = describe(basis, degree, w, h, segs, EdgeStyle::Continuous, |_, _| k)
                .tessellate()
                .unwrap();
            assert!(
                m.positions.iter().all(|p| close(*p, k, 1e-6)),
                "{basis:?} {degree}"
            );
        }
    }
}

#[test]
fn vertex_and_triangle_counts() {
    let flat = |r: u32, c: u32| [c as f32, r as f32, 0.0];
    for n in [1u32, 2, 4, 7, 16] {
        let s = n as f32;
        let m = describe(Basis::Bezier, 3, 4, 4, [s; 4], EdgeStyle::Discrete, flat)
            .tessellate()
            .unwrap();
        assert_eq!(
            (m.vertex_count(), m.triangle_count()),
            (((n + 1) * (n + 1)) as usize, (2 * n * n) as usize)
        );
    }
    // Truncation in the discrete style.
    let m = describe(Basis::Bezier, 3, 4, 4, [4.9; 4], EdgeStyle::Discrete, flat)
        .tessellate()
        .unwrap();
    assert_eq!((m.vertex_count(), m.triangle_count()), (25, 32));
    // Stitched: ring vertices plus the inner grid; triangles: sum of edges + 2 * (nu-2 + nv-2)
    // + 2 * (nu-2) * (nv-2).
    for (segs, nu, nv) in [
        ([2u32, 4, 6, 4], 4usize, 4usize),
        ([1, 1, 5, 3], 3, 2),
        ([8, 2, 8, 6], 8, 4),
    ] {
        let m = describe(
            Basis::Bezier,
            3,
            4,
            4,
            segs.map(|s| s as f32),
            EdgeStyle::Discrete,
            flat,
        )
        .tessellate()
        .unwrap();
        let (nu, nv) = (nu.max(2), nv.max(2));
        let ring: usize = segs.iter().map(|&s| s as usize).sum();
        assert_eq!(m.vertex_count(), ring + (nu - 1) * (nv - 1), "{segs:?}");
        assert_eq!(
            m.triangle_count(),
            ring + 2 * (nu - 2 + nv - 2) + 2 * (nu - 2) * (nv - 2),
            "{segs:?}"
        );
    }
    // Continuous: a count of 4 becomes 5 segments (odd), 5 stays 5.
    let m = describe(
        Basis::Bezier,
        3,
        4,
        4,
        [4.0; 4],
        EdgeStyle::Continuous,
        flat,
    )
    .tessellate()
    .unwrap();
    assert_eq!(m.vertex_count(), 36);
}

#[test]
fn tri_patch_counts_and_corners() {
    for degree in [1u32, 3, 5] {
        let n = ((degree + 1) * (degree + 2) / 2) as usize;
        let pts: Vec<[f32; 3]> = (0..n).map(|i| [i as f32, (i * i) as f32, 1.0]).collect();
        for segs in [1.0f32, 3.0, 6.0] {
            let mut b = CaptureBuilder::new();
            b.float_buffer(1, &floats(&pts));
            b.create_vertex_decl(1, &position_decl()).set_vertex_decl(1);
            b.set_stream_source(0, 1, 12);
            b.render_state_f32(rs::PATCHSEGMENTS, segs);
            b.draw_tri_patch(
                9,
                None,
                Some(dxso_dp2::command::TriPatchInfo {
                    start_vertex_offset: 0,
                    num_vertices: n as u32,
                    basis: 0,
                    degree,
                }),
            );
            let d = run(&b.finish(), Limits::default()).unwrap();
            let m = &d[0].mesh;
            let s = segs as usize;
            assert_eq!(m.vertex_count(), (s + 1) * (s + 2) / 2);
            assert_eq!(m.triangle_count(), s * s);
            // Corners: b(n,0,0) is control 0, b(0,n,0) starts the last row, b(0,0,n) ends it.
            assert_eq!(m.positions[0], pts[0]);
            assert_eq!(m.positions[s], pts[n - 1 - degree as usize]);
            assert_eq!(*m.positions.last().unwrap(), pts[n - 1]);
        }
    }
}

#[test]
fn every_declared_element_is_evaluated() {
    use dxso_dp2::decl::VertexElement;
    // Vertex: FLOAT3 position, D3DCOLOR, FLOAT2 texcoord = 24 bytes.
    let decl: Vec<VertexElement> = vec![
        element(
            0,
            DeclType::Float3,
            DeclMethod::Default,
            DeclUsage::Position,
            0,
        ),
        element(
            12,
            DeclType::D3dColor,
            DeclMethod::Default,
            DeclUsage::Color,
            0,
        ),
        element(
            16,
            DeclType::Float2,
            DeclMethod::Default,
            DeclUsage::TexCoord,
            0,
        ),
        element(
            0,
            DeclType::Float3,
            DeclMethod::CrossUv,
            DeclUsage::Normal,
            0,
        ),
        element(
            0,
            DeclType::Float3,
            DeclMethod::PartialU,
            DeclUsage::Tangent,
            0,
        ),
        element(
            0,
            DeclType::Float3,
            DeclMethod::PartialV,
            DeclUsage::Binormal,
            0,
        ),
        element(0, DeclType::Float2, DeclMethod::Uv, DeclUsage::TexCoord, 1),
    ];
    let mut bytes = Vec::new();
    for r in 0..2u32 {
        for c in 0..2u32 {
            for x in [c as f32 * 2.0, r as f32 * 3.0, 0.0] {
                bytes.extend(x.to_le_bytes());
            }
            bytes.extend([0, (255 * c) as u8, (255 * r) as u8, 255]); // B, G, R, A
            for x in [c as f32 * 10.0, r as f32 * 20.0] {
                bytes.extend(x.to_le_bytes());
            }
        }
    }
    let mut b = CaptureBuilder::new();
    b.buffer(1, bytes);
    b.create_vertex_decl(1, &decl).set_vertex_decl(1);
    b.set_stream_source(0, 1, 24);
    b.draw_rect_patch(0, Some([2.0; 4]), Some(rect_info(2, 2, 0, 1)));
    let m = run(&b.finish(), Limits::default()).unwrap().remove(0).mesh;
    assert_eq!(m.vertex_count(), 9);
    let uv1 = m.attribute(DeclUsage::TexCoord as u8, 1).unwrap();
    let colour = m.attribute(DeclUsage::Color as u8, 0).unwrap();
    let tangent = m.attribute(DeclUsage::Tangent as u8, 0).unwrap();
    let binormal = m.attribute(DeclUsage::Binormal as u8, 0).unwrap();
    for i in 0..9 {
        let [u, v, _, _] = uv1.values[i];
        assert_eq!(m.positions[i], [2.0 * u, 3.0 * v, 0.0]);
        assert_eq!(m.uvs[i], [10.0 * u, 20.0 * v]);
        assert_eq!(colour.values[i], [v, u, 0.0, 1.0]);
        assert_eq!(m.normals[i], [0.0, 0.0, 1.0]);
        assert_eq!(tangent.values[i][..3], [2.0, 0.0, 0.0]);
        assert_eq!(binormal.values[i][..3], [0.0, 3.0, 0.0]);
    }
}

#[test]
fn npatches_bulge_and_respect_normal_degree() {
    // One triangle whose corner normals lean outwards: the PN surface bulges off the plane.
    let pts = [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    let normals = [[-0.5f32, -0.5, 1.0], [0.7, -0.2, 1.0], [-0.2, 0.7, 1.0]];
    let mut bytes = Vec::new();
    for (p, n) in pts.iter().zip(&normals) {
        for x in p.iter().chain(n) {
            bytes.extend(x.to_le_bytes());
        }
    }
    let decl = vec![
        element(
            0,
            DeclType::Float3,
            DeclMethod::Default,
            DeclUsage::Position,
            0,
        ),
        element(
            12,
            DeclType::Float3,
            DeclMethod::Default,
            DeclUsage::Normal,
            0,
        ),
    ];
    let draw = |segments: f32, normal_degree: u32, position_degree: u32| {
        let mut b = CaptureBuilder::new();
        b.buffer(1, bytes.clone());
        b.create_vertex_decl(1, &decl).set_vertex_decl(1);
        b.set_stream_source(0, 1, 24);
        b.render_state_f32(rs::PATCHSEGMENTS, segments);
        b.render_state(rs::NORMALDEGREE, normal_degree);
        b.render_state(rs::POSITIONDEGREE, position_degree);
        b.draw_primitive(dxso_dp2::Op::DrawPrimitive, 4, 0, 1);
        run(&b.finish(), Limits::default()).unwrap().remove(0)
    };
    let plain = draw(1.0, 1, 3);
    assert_eq!((plain.vertices(), plain.triangles()), (3, 1));
    let linear = draw(4.0, 1, 3);
    assert_eq!(
        (
            linear.vertices(),
            linear.triangles(),
            linear.segments.clone()
        ),
        (15, 16, vec![4])
    );
    assert!(
        linear.mesh.positions.iter().any(|p| p[2] > 0.01),
        "cubic positions leave the plane"
    );
    let flat = draw(4.0, 1, 1);
    assert!(
        flat.mesh.positions.iter().all(|p| p[2].abs() < 1e-6),
        "linear positions stay flat"
    );
    let quadratic = draw(4.0, 2, 3);
    assert_eq!(quadratic.mesh.positions, linear.mesh.positions);
    assert_ne!(quadratic.mesh.normals, linear.mesh.normals);
    for n in &quadratic.mesh.normals {
        assert!(((n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt() - 1.0).abs() < 1e-5);
    }
    // Corners stay where they were.
    assert!(close(linear.mesh.positions[0], pts[0], 1e-6));
}
