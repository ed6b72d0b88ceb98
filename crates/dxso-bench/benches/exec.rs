//! CPU execution throughput: the two workloads (`dxso_exec::workloads`) on the interpreter and
//! as hand-written SoA Rust, on one thread (as `dxso bench exec` measures them), for each batch
//! width.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dxso_bench::workloads::*;
use dxso_exec::{Options, Outputs, PixelShader, VertexShader};
use std::hint::black_box;

fn workloads(c: &mut Criterion) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let vs_shader = dxso_text::parse(SKINNING_VS).expect("assembles");
    let ps_shader = dxso_text::parse(LIGHTING_PS).expect("assembles");
    let (vbatch, vres) = skinning_inputs(16384);
    let (pbatch, pres) = lighting_inputs(4096);
    let mut out = Outputs::default();

    let mut g = c.benchmark_group("skinning");
    g.throughput(Throughput::Elements(vbatch.count as u64));
    g.bench_function("hand-written", |b| {
        b.iter(|| pool.install(|| skinning_baseline(black_box(&vbatch), &vres, &mut out)))
    });
    for lanes in [8, 16, 32, 64] {
        let vs = VertexShader::with_options(
            &vs_shader,
            &Options {
                lanes,
                ..Options::default()
            },
        )
        .unwrap();
        g.bench_function(format!("interpreter/{lanes}"), |b| {
            b.iter(|| pool.install(|| vs.run_into(black_box(&vbatch), &vres, &mut out).unwrap()))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("lighting");
    g.throughput(Throughput::Elements(pbatch.pixels() as u64));
    g.bench_function("hand-written", |b| {
        b.iter(|| pool.install(|| lighting_baseline(black_box(&pbatch), &pres, &mut out)))
    });
    for lanes in [8, 16, 32, 64] {
        let ps = PixelShader::with_options(
            &ps_shader,
            &Options {
                lanes,
                ..Options::default()
            },
        )
        .unwrap();
        g.bench_function(format!("interpreter/{lanes}"), |b| {
            b.iter(|| pool.install(|| ps.run_into(black_box(&pbatch), &pres, &mut out).unwrap()))
        });
    }
    g.finish();
}

criterion_group!(benches, workloads);
criterion_main!(benches);
