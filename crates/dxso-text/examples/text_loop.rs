//! A fixed text workload for profilers: every `*.dxso` of a corpus folder disassembled
//! (`disasm`: `decode` + `print`) or its listing assembled (`asm`: `assemble`, text to bytes;
//! `parse`: `parse` + `encode`), N times. `asm` and `parse` go through one
//! `dxso_text::Assembler` for every listing, as a caller with many texts does; `asm-each` and
//! `parse-each` call the free functions, which start each text afresh.
//!
//! `line LINE N` assembles (`assemble`) one vs_2_0 text of N copies of LINE instead, once: the
//! cost of one line is the difference between two counts over N.
//!
//! ```text
//! cargo run --release -p dxso-text --example text_loop -- disasm corpus 20
//! valgrind --tool=callgrind target/release/examples/text_loop asm corpus 5
//! valgrind --tool=callgrind target/release/examples/text_loop line "    mov oPos, r0" 1000
//! ```

use std::hint::black_box;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "disasm".into());
    if mode == "line" {
        let line = args.next().unwrap_or_else(|| "    mov oPos, r0".into());
        let copies: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(1000);
        let mut text = String::from("    vs_2_0\n");
        for _ in 0..copies {
            text.push_str(&line);
            text.push('\n');
        }
        match dxso_text::assemble(black_box(&text)) {
            Ok(bytes) => println!("line: {copies} copies, {} bytes", black_box(bytes).len()),
            Err(e) => println!("line: does not assemble: {e}"),
        }
        return;
    }
    let dir = dxso_corpus::corpus_dir_from_arg(args.next());
    let runs: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(20);
    let blobs: Vec<Vec<u8>> = dxso_corpus::entries(&dir)
        .iter()
        .map(|e| e.bytes())
        .filter(|b| dxso::decode(b).is_ok())
        .collect();
    let listings: Vec<String> = blobs
        .iter()
        .filter_map(|b| dxso::decode(b).ok())
        .map(|s| dxso_text::print(&s))
        .collect();
    let (bytes, what) = match mode.as_str() {
        "asm" | "parse" | "asm-each" | "parse-each" => {
            (listings.iter().map(String::len).sum::<usize>(), "text")
        }
        _ => (blobs.iter().map(Vec::len).sum::<usize>(), "bytecode"),
    };
    let mut fastest = f64::INFINITY;
    let mut assembler = dxso_text::Assembler::new();
    for _ in 0..runs {
        let start = Instant::now();
        if mode == "asm" {
            for t in &listings {
                black_box(assembler.assemble(black_box(t)).ok());
            }
        } else if mode == "asm-each" {
            for t in &listings {
                black_box(dxso_text::assemble(black_box(t)).ok());
            }
        } else if mode == "parse" {
            for t in &listings {
                if let Ok(s) = assembler.parse(black_box(t)) {
                    black_box(dxso::encode(&s));
                }
            }
        } else if mode == "parse-each" {
            for t in &listings {
                if let Ok(s) = dxso_text::parse(black_box(t)) {
                    black_box(dxso::encode(&s));
                }
            }
        } else {
            for b in &blobs {
                if let Ok(s) = dxso::decode(black_box(b)) {
                    black_box(dxso_text::print(&s));
                }
            }
        }
        fastest = fastest.min(start.elapsed().as_secs_f64());
    }
    println!(
        "{mode}: {} shaders, {bytes} bytes of {what}, {runs} runs, fastest {:.1} MB/s",
        blobs.len(),
        bytes as f64 / 1e6 / fastest
    );
}
