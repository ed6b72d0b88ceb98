//! Hostile input: every corpus effect cut at every word boundary, and with bits flipped across
//! the whole file, parses to `Ok` or `Err` without panicking; what parses re-encodes to the
//! same bytes and evaluates every pass; what the parser allocates is bounded by the input.

use dxso_fx::{Effect, Runtime};
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};
use std::alloc::System;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Bytes the parser may allocate per input byte: the unstructured copy kept for re-encoding,
/// values (at most [`dxso_fx::MAX_NODES_PER_BYTE`] copied words per byte), the layout records,
/// and embedded shaders decoded through `dxso::decode` (which allows 80).
const BYTES_PER_INPUT_BYTE: usize = 48;
const SLACK: usize = 8192;

fn check(input: &[u8], what: &str, worst: &mut f64) -> bool {
    let region = Region::new(GLOBAL);
    let parsed = std::panic::catch_unwind(|| Effect::parse(input));
    let allocated = region.change().bytes_allocated;
    let Ok(parsed) = parsed else {
        panic!("{what}: parse panicked");
    };
    let ratio = allocated as f64 / input.len().max(1) as f64;
    *worst = worst.max(ratio);
    assert!(
        allocated <= BYTES_PER_INPUT_BYTE * input.len() + SLACK,
        "{what}: {allocated} bytes allocated for {} input bytes",
        input.len()
    );
    let Ok(effect) = parsed else {
        return false;
    };
    assert_eq!(effect.encode(), input, "{what}: re-encoding differs");
    let rt = Runtime::new(&effect);
    for (t, tech) in effect.techniques.iter().enumerate() {
        for p in 0..tech.passes.len() {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                rt.pass(t, p).map(|v| v.states.len())
            }));
            assert!(
                r.is_ok(),
                "{what}: evaluating technique {t} pass {p} panicked"
            );
        }
    }
    true
}

#[test]
fn truncated_and_bit_flipped_effects() {
    let Some(dir) = dxso_corpus::corpus_or_skip("truncated_and_bit_flipped_effects") else {
        return;
    };
    let (mut cuts, mut flips, mut parsed) = (0usize, 0usize, 0usize);
    let mut worst = 0.0f64;
    for e in dxso_corpus::effects(&dir) {
        let bytes = e.bytes();
        for cut in (0..bytes.len()).step_by(4) {
            assert!(
                !check(&bytes[..cut], &e.name, &mut worst),
                "{}: a {cut}-byte prefix parsed",
                e.name
            );
            cuts += 1;
        }
        // One bit of every word (the bit moves with the word index), and every bit of the
        // first 16 words of the structured part.
        let structured = 8 + u32::from_le_bytes(bytes[4..8].try_into().unwrap()) as usize;
        let mut bits: Vec<usize> = (0..bytes.len() / 4).map(|w| w * 32 + w % 32).collect();
        bits.extend((structured * 8..(structured + 64) * 8).take_while(|&b| b < bytes.len() * 8));
        let mut flipped = bytes.clone();
        for bit in bits {
            let (byte, mask) = (bit / 8, 1u8 << (bit % 8));
            flipped[byte] ^= mask;
            if check(&flipped, &format!("{} bit {bit}", e.name), &mut worst) {
                parsed += 1;
            }
            flipped[byte] ^= mask;
            flips += 1;
        }
    }
    println!(
        "hostile effects: {cuts} truncations rejected, {flips} bit flips ({parsed} still parse, re-encode and evaluate), worst allocation {worst:.1} bytes per input byte"
    );
}
