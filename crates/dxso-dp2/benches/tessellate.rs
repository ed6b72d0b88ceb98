//! Tessellation throughput: the teapot stream (32 created + 32 cached patches) per segment
//! count, on a fresh device per run (`device::run`) and on one device reused across runs with
//! its draws recycled (`Device::run_capture` + `Device::recycle`, as `dxso bench tessellate`).
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dxso_dp2::{device, teapot, Device, Limits};
use std::hint::black_box;

fn teapot(c: &mut Criterion) {
    let mut g = c.benchmark_group("teapot");
    for segments in [8.0f32, 16.0, 64.0] {
        let capture = teapot::capture(segments);
        let vertices: usize = device::run(&capture, Limits::default())
            .expect("teapot runs")
            .iter()
            .map(|d| d.vertices())
            .sum();
        g.throughput(Throughput::Elements(vertices as u64));
        g.bench_function(format!("fresh/{segments}"), |b| {
            b.iter(|| device::run(black_box(&capture), Limits::default()).expect("runs"))
        });
        let mut reused = Device::new(Limits::default());
        g.bench_function(format!("reused/{segments}"), |b| {
            b.iter(|| {
                let draws = reused.run_capture(black_box(&capture)).expect("runs");
                reused.recycle(black_box(draws));
            })
        });
    }
    g.finish();
}

criterion_group!(benches, teapot);
criterion_main!(benches);
