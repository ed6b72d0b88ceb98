//! Criterion: decode and encode throughput over the shared corpus (skipped without it).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn corpus() -> Vec<Vec<u8>> {
    let Some(dir) = dxso_corpus::corpus_or_skip("decode bench") else {
        return Vec::new();
    };
    dxso_corpus::entries(&dir)
        .iter()
        .map(|e| e.bytes())
        .collect()
}

fn bench(c: &mut Criterion) {
    let blobs = corpus();
    if blobs.is_empty() {
        return;
    }
    let bytes: usize = blobs.iter().map(Vec::len).sum();
    let shaders: Vec<_> = blobs.iter().map(|b| dxso::decode(b).unwrap()).collect();
    let mut group = c.benchmark_group("corpus");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("decode", |b| {
        b.iter(|| {
            for blob in &blobs {
                let _ = black_box(dxso::decode(black_box(blob)));
            }
        })
    });
    group.bench_function("encode", |b| {
        b.iter(|| {
            for s in &shaders {
                black_box(dxso::encode(black_box(s)));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
