//! A fixed decoding workload for profilers: every `*.dxso` of a corpus folder, decoded N times.
//!
//! ```text
//! cargo run --release -p dxso --example decode_loop -- ../shared/corpus 20
//! valgrind --tool=callgrind target/release/examples/decode_loop ../shared/corpus 20
//! ```

use std::hint::black_box;
use std::path::Path;

fn blobs(dir: &Path) -> std::io::Result<Vec<Vec<u8>>> {
    let mut paths = Vec::new();
    for source in std::fs::read_dir(dir)? {
        let source = source?.path();
        if source.is_dir() {
            for f in std::fs::read_dir(&source)? {
                let p = f?.path();
                if p.extension().is_some_and(|e| e == "dxso") {
                    paths.push(p);
                }
            }
        }
    }
    paths.sort();
    paths.iter().map(std::fs::read).collect()
}

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().unwrap_or_else(|| "../shared/corpus".into());
    let runs: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(20);
    let blobs = blobs(Path::new(&dir))?;
    let mut items = 0usize;
    let mut fastest = f64::INFINITY;
    for _ in 0..runs {
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
    Ok(())
}
