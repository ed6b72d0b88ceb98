//! A fixed validation workload for profilers: every decodable `*.dxso` of a corpus folder
//! validated N times (decoding is done once, before).
//!
//! ```text
//! cargo run --release -p dxso --example validate_loop -- corpus 20
//! valgrind --tool=callgrind target/release/examples/validate_loop corpus 5
//! cargo run --release -p dxso --example validate_loop -- corpus dump   # every finding, once
//! ```

use std::hint::black_box;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = dxso_corpus::corpus_dir_from_arg(args.next());
    let runs = args.next().unwrap_or_default();
    let entries = dxso_corpus::entries(&dir);
    if runs == "dump" {
        for e in &entries {
            if let Ok(s) = dxso::decode(&e.bytes()) {
                for d in &dxso::validate(&s).diagnostics {
                    println!("{}: {d}", e.rel);
                }
            }
        }
        return;
    }
    let runs: usize = runs.parse().unwrap_or(20);
    let shaders: Vec<dxso::Shader> = entries
        .iter()
        .filter_map(|e| dxso::decode(&e.bytes()).ok())
        .collect();
    let mut fastest = f64::INFINITY;
    let mut valid = 0;
    for _ in 0..runs {
        let start = Instant::now();
        valid = 0;
        for s in &shaders {
            valid += black_box(dxso::validate(black_box(s))).is_valid() as usize;
        }
        fastest = fastest.min(start.elapsed().as_secs_f64());
    }
    println!(
        "validate: {} shaders ({valid} valid), fastest pass {:.2} ms, {:.2} us per shader",
        shaders.len(),
        fastest * 1e3,
        fastest * 1e6 / shaders.len().max(1) as f64
    );
}
