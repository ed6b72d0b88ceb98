//! One pass of the corpus through translate + GLSL, for profiling with callgrind:
//!
//! ```sh
//! cargo build --release -p dxso-naga --example profile_corpus
//! valgrind --tool=callgrind target/release/examples/profile_corpus
//! ```

fn main() {
    let Some(dir) = dxso_corpus::corpus_dir() else {
        eprintln!("the corpus folder was not found (set DXSO_CORPUS)");
        return;
    };
    let shaders: Vec<dxso::Shader> = dxso_corpus::entries(&dir)
        .iter()
        .filter_map(|e| dxso::decode(&e.bytes()).ok())
        .filter(|s| dxso::validate(s).is_valid())
        .collect();
    let mut bytes = 0;
    let mut expressions = 0;
    for s in &shaders {
        let t = dxso_naga::translate(s, &dxso_naga::Options::default()).expect("translates");
        expressions += t.module.entry_points[0].function.expressions.len();
        let glsl = t
            .write(dxso_naga::Target::Glsl, &Default::default())
            .expect("writes");
        bytes += glsl.text().map_or(0, str::len);
    }
    println!(
        "{} shaders, {bytes} bytes of GLSL, {:.1} expressions per entry point",
        shaders.len(),
        expressions as f64 / shaders.len() as f64
    );
}
