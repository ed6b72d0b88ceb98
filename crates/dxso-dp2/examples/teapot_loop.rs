//! A fixed teapot workload for profilers (`perf record`, `valgrind --tool=callgrind`): runs the
//! teapot DP2 stream a given number of times at a given segment count, on one device reused
//! across runs (as `dxso bench tessellate` measures) or, with `fresh`, on a new device per run.
//!
//! `cargo run --release -p dxso-dp2 --example teapot_loop -- 16 200 [fresh]`
use dxso_dp2::{device, teapot, Device, Limits};
use std::hint::black_box;

fn main() {
    let mut args = std::env::args().skip(1);
    let segments: f32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(16.0);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let fresh = args.next().as_deref() == Some("fresh");
    let capture = teapot::capture(segments);
    let mut reused = Device::new(Limits::default());
    let mut vertices = 0usize;
    let mut fastest = f64::INFINITY;
    for _ in 0..runs {
        let start = std::time::Instant::now();
        let draws = if fresh {
            device::run(black_box(&capture), Limits::default())
        } else {
            reused.run_capture(black_box(&capture))
        }
        .expect("teapot runs");
        vertices += draws.iter().map(|d| d.vertices()).sum::<usize>();
        reused.recycle(draws);
        fastest = fastest.min(start.elapsed().as_secs_f64());
    }
    let how = if fresh {
        "fresh device"
    } else {
        "reused device"
    };
    println!(
        "{segments} segments, {runs} runs, {how}: {vertices} vertices, fastest run {:.1} us",
        fastest * 1e6
    );
}
