//! One device running many captures (`Device::run_capture` + `Device::recycle`): the same
//! output as a fresh device per run, the cache protocol still followed, mesh memory reused,
//! and the per-run vertex budget starting afresh.
use dxso_dp2::decl::{DeclMethod, VertexElement};
use dxso_dp2::{device, teapot, CacheAction, CaptureBuilder, Device, Limits};
use std::collections::HashSet;

#[test]
fn a_reused_device_draws_what_a_fresh_one_draws() {
    for segments in [1.0f32, 3.0, 8.0, 5.5] {
        let capture = teapot::capture(segments);
        let fresh = device::run(&capture, Limits::default()).unwrap();
        let mut reused = Device::new(Limits::default());
        for run in 0..3 {
            let draws = reused.run_capture(&capture).unwrap();
            assert_eq!(draws.len(), fresh.len());
            for (i, (r, f)) in draws.iter().zip(&fresh).enumerate() {
                assert_eq!(r.mesh, f.mesh, "segments {segments} run {run} draw {i}");
                assert_eq!(r.segments, f.segments);
                assert_eq!(r.offset, f.offset);
                // The handles are known from the previous run, so HASINFO updates them.
                let expected = match f.cache {
                    Some(CacheAction::Created) if run > 0 => Some(CacheAction::Updated),
                    other => other,
                };
                assert_eq!(r.cache, expected, "run {run} draw {i}");
            }
            reused.recycle(draws);
        }
    }
}

#[test]
fn recycled_meshes_are_filled_again() {
    let capture = teapot::capture(8.0);
    let mut reused = Device::new(Limits::default());
    let draws = reused.run_capture(&capture).unwrap();
    // Addresses only, to recognise the arrays later.
    let before: HashSet<usize> = draws
        .iter()
        .map(|d| d.mesh.positions.as_ptr() as usize)
        .collect();
    reused.recycle(draws);
    let draws = reused.run_capture(&capture).unwrap();
    let again = draws
        .iter()
        .filter(|d| before.contains(&(d.mesh.positions.as_ptr() as usize)))
        .count();
    assert_eq!(
        again,
        draws.len(),
        "every mesh reuses an earlier run's arrays"
    );
}

#[test]
fn the_vertex_budget_is_per_run() {
    let capture = teapot::capture(8.0);
    let total: usize = device::run(&capture, Limits::default())
        .unwrap()
        .iter()
        .map(|d| d.vertices())
        .sum();
    let limits = Limits {
        max_total_vertices: total + 100,
        ..Limits::default()
    };
    let mut reused = Device::new(limits);
    for _ in 0..3 {
        let draws = reused.run_capture(&capture).unwrap();
        reused.recycle(draws);
    }
    // A run that needs more than the budget still fails.
    let tight = Limits {
        max_total_vertices: total - 100,
        ..Limits::default()
    };
    assert!(Device::new(tight).run_capture(&capture).is_err());
}

/// The teapot's handles drawn once with `decl` (the teapot's control points in stream 0,
/// FLOAT3 positions at offset 0), then from the cache.
fn teapot_with(decl: &[VertexElement], segments: f32) -> dxso_dp2::Capture {
    let mut b = CaptureBuilder::new();
    teapot::add_setup(&mut b, segments);
    b.create_vertex_decl(2, decl).set_vertex_decl(2);
    teapot::add_created_pass(&mut b);
    teapot::add_cached_pass(&mut b);
    b.finish()
}

#[test]
fn a_refilled_mesh_takes_its_uvs_from_the_new_declaration() {
    // Retired meshes keep their domain's triangle list and uv points for a refill over the
    // same domain: a declaration whose uvs come from the stream, or that has none, must not
    // see the points a previous capture left.
    let [position, normal, uv_points] = teapot::declaration();
    let uv_stream = VertexElement {
        method: DeclMethod::Default as u8,
        ..uv_points
    };
    let decls: [&[VertexElement]; 4] = [
        &[position, normal, uv_points],
        &[position, normal, uv_stream],
        &[position, normal],
        &[position, uv_points],
    ];
    let mut reused = Device::new(Limits::default());
    for round in 0..2 {
        for (k, decl) in decls.iter().enumerate() {
            for segments in [8.0, 8.0, 3.0] {
                let capture = teapot_with(decl, segments);
                let fresh = device::run(&capture, Limits::default()).unwrap();
                let draws = reused.run_capture(&capture).unwrap();
                assert_eq!(draws.len(), fresh.len());
                for (i, (r, f)) in draws.iter().zip(&fresh).enumerate() {
                    assert_eq!(
                        r.mesh, f.mesh,
                        "round {round} declaration {k} segments {segments} draw {i}"
                    );
                }
                reused.recycle(draws);
            }
        }
    }
}

#[test]
fn a_cloned_device_draws_what_the_original_draws() {
    let mut original = Device::new(Limits::default());
    let first = original.run_capture(&teapot::capture(8.0)).unwrap();
    let second = original.run_capture(&teapot::capture(16.0)).unwrap();
    // The first run's meshes are no longer cached: recycled now, the device keeps them for
    // reuse, and a clone shares those it keeps.
    original.recycle(first);
    let mut clone = original.clone();
    let capture = teapot::capture(8.0);
    let fresh = device::run(&capture, Limits::default()).unwrap();
    for (which, d) in [("original", &mut original), ("clone", &mut clone)] {
        for run in 0..2 {
            let draws = d.run_capture(&capture).unwrap();
            for (i, (r, f)) in draws.iter().zip(&fresh).enumerate() {
                assert_eq!(r.mesh, f.mesh, "{which} run {run} draw {i}");
            }
            d.recycle(draws);
        }
    }
    drop(second);
}
