//! Translation of the corpus to GLSL (build, validate, write), the work `dxso bench translate`
//! measures.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn translate(c: &mut Criterion) {
    let Some(dir) = dxso_corpus::corpus_dir() else {
        eprintln!("translate bench: the corpus folder was not found, nothing measured");
        return;
    };
    let shaders: Vec<dxso::Shader> = dxso_corpus::entries(&dir)
        .iter()
        .filter_map(|e| dxso::decode(&e.bytes()).ok())
        .filter(|s| dxso::validate(s).is_valid())
        .collect();
    c.bench_function("corpus to glsl", |b| {
        b.iter(|| {
            for s in &shaders {
                let t = dxso_naga::translate(black_box(s), &dxso_naga::Options::default())
                    .expect("translates");
                black_box(
                    t.write(dxso_naga::Target::Glsl, &Default::default())
                        .expect("writes"),
                );
            }
        })
    });
}

criterion_group!(benches, translate);
criterion_main!(benches);
