//! A fixed decoding workload for profilers: every `*.dxso` of a corpus folder, decoded N times.
//!
//! ```text
//! cargo run --release -p dxso --example decode_loop -- corpus 20
//! cargo run --release -p dxso --example decode_loop -- corpus 20 cold
//! (the folder defaults to `$DXSO_CORPUS`, else the repository's `corpus/`; `cold` sweeps 8 MiB between
//! passes, so that each pass starts with the corpus and the allocator's memory out of the
//! nearer caches; `churn` formats every DWORD of the corpus into its own string between passes,
//! as `dxso bench decode`'s MojoShader passes between dxso's do to the heap and the caches)
//! valgrind --tool=callgrind target/release/examples/decode_loop corpus 20
//! ```

use std::hint::black_box;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = dxso_corpus::corpus_dir_from_arg(args.next());
    let runs: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(20);
    let mode = args.next().unwrap_or_default();
    let cold = mode == "cold";
    let churn = mode == "churn";
    let mut sweep = if cold {
        vec![0u64; 1 << 20]
    } else {
        Vec::new()
    };
    let blobs: Vec<Vec<u8>> = dxso_corpus::entries(&dir)
        .iter()
        .map(|e| e.bytes())
        .collect();
    let mut items = 0usize;
    let mut fastest = f64::INFINITY;
    for run in 0..runs {
        for (i, x) in sweep.iter_mut().enumerate() {
            *x = x.wrapping_add((i ^ run) as u64);
        }
        black_box(&sweep);
        if churn {
            // What a parser that formats as it goes does to the heap and the caches between
            // passes (`dxso bench decode` alternates with MojoShader's, which does this).
            for b in &blobs {
                let words: Vec<String> = b.chunks(4).map(|c| format!("{c:02x?}")).collect();
                black_box(words);
            }
        }
        let start = std::time::Instant::now();
        for b in &blobs {
            if let Ok(s) = dxso::decode(black_box(b)) {
                items += s.items.len();
                black_box(s);
            }
        }
        fastest = fastest.min(start.elapsed().as_secs_f64());
    }
    let bytes: usize = blobs.iter().map(Vec::len).sum();
    println!(
        "{} shaders, {bytes} bytes, {runs} runs, {items} items decoded, fastest run {:.1} MB/s",
        blobs.len(),
        bytes as f64 / 1e6 / fastest
    );
    println!(
        "sizes: Item {} Instruction {} SrcParam {} DstParam {} Sources {} Comment {} Extra {}",
        std::mem::size_of::<dxso::Item>(),
        std::mem::size_of::<dxso::Instruction>(),
        std::mem::size_of::<dxso::SrcParam>(),
        std::mem::size_of::<dxso::DstParam>(),
        std::mem::size_of::<dxso::Sources>(),
        std::mem::size_of::<dxso::Comment>(),
        std::mem::size_of::<dxso::Extra>(),
    );
}
