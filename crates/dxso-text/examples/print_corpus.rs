//! Prints every shader of the corpus (the repository's `corpus/`, or `$DXSO_CORPUS`): a fixed
//! workload for profilers (`valgrind --tool=callgrind`, `perf record`) and a small tour of the
//! printer's options.
//!
//! ```text
//! cargo run --release -p dxso-text --example print_corpus -- [ROUNDS] [all|debug|plain]
//! valgrind --tool=callgrind --toggle-collect='dxso_text::print::print_with*' \
//!     target/release/examples/print_corpus 1 plain
//! ```
//!
//! `debug` prints only the shaders that carry a DBUG debug-information block, `plain` only the
//! others; the default is `all`. Decoding happens once, before the printing rounds.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let which = args.next().unwrap_or_else(|| "all".into());
    let Some(dir) = dxso_corpus::corpus_or_skip("print_corpus") else {
        return ExitCode::FAILURE;
    };
    let has_debug = |s: &dxso::Shader| s.comments().any(|c| c.fourcc() == Some(*b"DBUG"));
    let shaders: Vec<dxso::Shader> = dxso_corpus::entries(&dir)
        .iter()
        .filter_map(|e| dxso::decode(&e.bytes()).ok())
        .filter(|s| match which.as_str() {
            "debug" => has_debug(s),
            "plain" => !has_debug(s),
            _ => true,
        })
        .collect();
    let options = dxso_text::PrintOptions::default();
    let mut bytes = 0usize;
    for _ in 0..rounds {
        for shader in &shaders {
            bytes += std::hint::black_box(dxso_text::print_with(shader, &options)).len();
        }
    }
    println!(
        "printed {} shaders x {rounds} rounds: {bytes} bytes of listing",
        shaders.len()
    );
    ExitCode::SUCCESS
}
