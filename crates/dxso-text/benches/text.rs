//! Criterion benchmarks of the printer and the assembler over the corpus (skipped without it).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn corpus() -> Vec<(Vec<u8>, dxso::Shader)> {
    let Some(dir) = dxso_corpus::corpus_dir() else {
        return Vec::new();
    };
    dxso_corpus::entries(&dir)
        .iter()
        .filter_map(|e| {
            let b = e.bytes();
            dxso::decode(&b).ok().map(|s| (b, s))
        })
        .collect()
}

fn text(c: &mut Criterion) {
    let shaders = corpus();
    if shaders.is_empty() {
        eprintln!("corpus not found; nothing to measure");
        return;
    }
    let bytecode: usize = shaders.iter().map(|(b, _)| b.len()).sum();
    let listings: Vec<String> = shaders.iter().map(|(_, s)| dxso_text::print(s)).collect();
    let text_bytes: usize = listings.iter().map(String::len).sum();
    let no_header = dxso_text::PrintOptions {
        header: false,
        ..Default::default()
    };

    let mut g = c.benchmark_group("disassemble");
    g.throughput(Throughput::Bytes(bytecode as u64));
    g.bench_function("decode+print", |b| {
        b.iter(|| {
            for (bytes, _) in &shaders {
                if let Ok(s) = dxso::decode(black_box(bytes)) {
                    black_box(dxso_text::print(&s));
                }
            }
        })
    });
    g.bench_function("print", |b| {
        b.iter(|| {
            for (_, s) in &shaders {
                black_box(dxso_text::print(black_box(s)));
            }
        })
    });
    g.bench_function("print without header", |b| {
        b.iter(|| {
            for (_, s) in &shaders {
                black_box(dxso_text::print_with(black_box(s), &no_header));
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("assemble");
    g.throughput(Throughput::Bytes(text_bytes as u64));
    // One assembler for every listing, as a caller with many texts keeps one.
    let mut assembler = dxso_text::Assembler::new();
    g.bench_function("parse+encode", |b| {
        b.iter(|| {
            for t in &listings {
                if let Ok(s) = assembler.parse(black_box(t)) {
                    black_box(dxso::encode(&s));
                }
            }
        })
    });
    g.bench_function("assemble", |b| {
        b.iter(|| {
            for t in &listings {
                black_box(assembler.assemble(black_box(t)).ok());
            }
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = text
}
criterion_main!(benches);
