//! Criterion: dxso's decoder against MojoShader's parser (profile `d3d`) on the corpus.
//!
//! ```sh
//! cargo bench -p dxso-peer --features peer-mojoshader
//! ```

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let Some(dir) = dxso_corpus::corpus_or_skip("peer_decode bench") else {
        return;
    };
    let blobs: Vec<Vec<u8>> = dxso_corpus::entries(&dir)
        .iter()
        .map(|e| e.bytes())
        .collect();
    let bytes: usize = blobs.iter().map(Vec::len).sum();
    let mut group = c.benchmark_group("decode_vs_mojoshader");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("dxso", |b| {
        b.iter(|| {
            for blob in &blobs {
                let _ = black_box(dxso::decode(black_box(blob)));
            }
        })
    });
    group.bench_function("mojoshader_d3d", |b| {
        b.iter(|| {
            for blob in &blobs {
                black_box(dxso_peer::mojoshader::parse("d3d", black_box(blob)));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
