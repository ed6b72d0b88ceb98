//! One device running many captures (`Device::run_capture` + `Device::recycle`): the same
//! output as a fresh device per run, the cache protocol still followed, mesh memory reused,
//! and the per-run vertex budget starting afresh.
use dxso_dp2::{device, teapot, CacheAction, Device, Limits};
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
