//! The teapot stream: every patch created then drawn from the cache, and the result looks
//! like a closed teapot.
mod common;

use common::*;
use dxso_dp2::teapot;
use dxso_dp2::CacheAction;

#[test]
fn teapot_creates_then_draws_from_the_cache() {
    let draws = teapot::run(8.0).unwrap();
    assert_eq!(draws.len(), 64);
    for (i, d) in draws.iter().enumerate() {
        let expected = if i < 32 {
            CacheAction::Created
        } else {
            CacheAction::Cached
        };
        assert_eq!(d.cache, Some(expected));
        assert_eq!(d.handle, Some(teapot::FIRST_HANDLE + (i % 32) as u32));
        assert_eq!((d.vertices(), d.triangles()), (81, 128));
    }
    // The cached pass ran with the stream pointed at zeros: identical geometry proves the
    // streams were ignored.
    for i in 0..32 {
        assert_eq!(draws[i].mesh, draws[i + 32].mesh);
    }
}

#[test]
fn teapot_looks_closed() {
    let draws = teapot::run(16.0).unwrap();
    let meshes: Vec<_> = teapot::cached_meshes(&draws).collect();
    // 1. Bounding box of Newell's teapot (z up): x -3..3.43, y -2..2, z 0..3.15.
    let mut lo = [f32::MAX; 3];
    let mut hi = [f32::MIN; 3];
    for m in &meshes {
        for p in &m.positions {
            for k in 0..3 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
    }
    assert!(close(lo, [-3.0, -2.0, 0.0], 2e-3), "{lo:?}");
    assert!(close(hi, [3.434, 2.0, 3.15], 2e-3), "{hi:?}");
    // 2. Welded across patches, almost every edge is shared by two triangles. The open edges
    // that remain are the ones Newell's data has: the spout's mouth, where handle and spout
    // meet the body, and the gap between the lid and the rim.
    let (positions, indices) = weld(&meshes);
    let (undirected, _) = edge_use(&indices);
    let open: Vec<_> = undirected
        .iter()
        .filter(|(_, &n)| n == 1)
        .map(|(e, _)| *e)
        .collect();
    let over = undirected.values().filter(|&&n| n > 2).count();
    assert_eq!(over, 0, "no edge is shared by more than two triangles");
    let expected_place = |p: [f32; 3]| {
        let r = (p[0] * p[0] + p[1] * p[1]).sqrt();
        let spout_mouth = p[0] > 2.75 && (p[2] - 2.4).abs() < 1e-3;
        let lid_rim = (p[2] - 2.4).abs() < 1e-3 && (1.29..=1.41).contains(&r);
        let handle_ends = p[0] < -1.45 && p[0] > -2.05 && p[1].abs() <= 0.31;
        let spout_base = (1.65..=1.75).contains(&p[0]) && p[1].abs() <= 0.67;
        spout_mouth || lid_rim || handle_ends || spout_base
    };
    let unexpected: Vec<_> = open
        .iter()
        .map(|(a, b)| (positions[*a as usize], positions[*b as usize]))
        .filter(|(pa, pb)| !(expected_place(*pa) && expected_place(*pb)))
        .collect();
    assert!(
        unexpected.is_empty(),
        "{} unexpected open edges: {:?}",
        unexpected.len(),
        &unexpected[..unexpected.len().min(20)]
    );
    println!("teapot at 16 segments: {} welded vertices, {} triangles, {} open edges (spout mouth, lid gap, handle/spout joints), 0 edges shared by more than two", positions.len(), indices.len() / 3, open.len());
    // 3. Normals point outwards on the body of revolution (radius > 1, away from handle and
    // spout), and are unit length everywhere (poles included).
    let mut body = 0;
    for m in &meshes {
        for (p, n) in m.positions.iter().zip(&m.normals) {
            let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            assert!((len - 1.0).abs() < 1e-4, "normal {n:?} at {p:?}");
            let r = (p[0] * p[0] + p[1] * p[1]).sqrt();
            if r > 1.6 && p[0].abs() < 1.6 && (0.3..2.2).contains(&p[2]) {
                assert!(
                    n[0] * p[0] + n[1] * p[1] > 0.0,
                    "inward normal {n:?} at {p:?}"
                );
                body += 1;
            }
        }
    }
    assert!(body > 500);
}

#[test]
fn teapot_obj_has_every_vertex_normal_and_uv() {
    let draws = teapot::run(4.0).unwrap();
    let mut out = Vec::new();
    teapot::write_teapot_obj(&mut out, &draws).unwrap();
    let s = String::from_utf8(out).unwrap();
    let count = |prefix: &str| s.lines().filter(|l| l.starts_with(prefix)).count();
    assert_eq!(count("v "), 32 * 25);
    assert_eq!(count("vn "), 32 * 25);
    assert_eq!(count("vt "), 32 * 25);
    assert_eq!(count("f "), 32 * 32);
    assert_eq!(count("o "), 32);
}
