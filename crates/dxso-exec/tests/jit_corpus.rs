//! Differential: every corpus shader that validates gives bit-identical outputs and discard
//! masks from the JIT (vector and scalar code) and from the interpreter (a NaN only has to be a
//! NaN: Rust and LLVM leave the sign and payload of a computed NaN unspecified, so not even the
//! interpreter fixes them), on deterministic
//! pseudo-random inputs (special values included: signed zeros, infinities, NaN, subnormals),
//! constants, textures of every type and format, sampler states and coverage, over every batch
//! width. Also: nothing in the corpus falls back to the interpreter.
#![cfg(feature = "jit")]

use dxso_exec::*;
use std::time::Duration;

mod jit_common;

use jit_common::{compare, Program};

fn seed_of(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

#[test]
fn jit_equals_interpreter_on_the_corpus() {
    let Some(dir) = dxso_corpus::corpus_or_skip("jit_equals_interpreter_on_the_corpus") else {
        return;
    };
    let mut valid = 0usize;
    let mut equal = [0usize; 2];
    let mut values = [0usize; 2];
    let mut nan_bits = [0usize; 2];
    let mut slowest = (Duration::ZERO, String::new());
    let mut failures = Vec::new();
    let mut fallbacks = Vec::new();
    let mut times = Vec::new();
    let mut counting = 0;
    for e in dxso_corpus::entries(&dir) {
        let Ok(shader) = dxso::decode(&e.bytes()) else {
            continue;
        };
        if !dxso::validate(&shader).is_valid() {
            continue;
        }
        valid += 1;
        let seed = seed_of(&e.rel);
        let lanes = [8, 16, 32, 64][(seed % 4) as usize];
        let options = |engine| Options {
            lanes,
            engine,
            ..Options::default()
        };
        let interp = match Program::new(&shader, &options(Engine::Interpreter)) {
            Ok(p) => p,
            Err(err) => {
                failures.push(format!("{}: lowering: {err}", e.rel));
                continue;
            }
        };
        // Enough invocations for several batches and a partial one.
        let n = 3 * lanes + 5;
        let want = interp.run(seed, n);
        for (m, engine) in [Engine::Jit, Engine::JitScalar].into_iter().enumerate() {
            let jit = Program::new(&shader, &options(engine)).expect("lowered once already");
            let compiled = jit.compiled().expect("the JIT was asked for");
            if let Some(why) = compiled.fallback_reason() {
                fallbacks.push(format!("{} ({engine:?}): {why}", e.rel));
                continue;
            }
            if m == 0 {
                times.push(compiled.compile_time());
                if compiled.compile_time() > slowest.0 {
                    slowest = (compiled.compile_time(), e.rel.clone());
                }
                counting += compiled.counts_instructions() as usize;
            }
            let got = jit.run(seed, n);
            match (&want, &got) {
                (Ok(a), Ok(b)) => {
                    let t = compare(a, b);
                    values[m] += t.values;
                    nan_bits[m] += t.nan_bits;
                    match t.first {
                        None => equal[m] += 1,
                        Some(d) => failures.push(format!("{} ({engine:?}): {d}", e.rel)),
                    }
                }
                (Err(a), Err(b)) if a == b => equal[m] += 1,
                (a, b) => failures.push(format!(
                    "{} ({engine:?}): interpreter {:?}, jit {:?}",
                    e.rel,
                    a.as_ref().err(),
                    b.as_ref().err()
                )),
            }
        }
    }
    println!(
        "jit == interpreter: vector {}/{valid} shaders, {} values compared ({} NaN in both with other sign or payload bits); scalar {}/{valid}, {} values ({} NaN bits)",
        equal[0], values[0], nan_bits[0], equal[1], values[1], nan_bits[1]
    );
    println!(
        "fallbacks: {}; compile time (vector) median {:?}, max {:?} ({}); {counting} plans count instructions",
        fallbacks.len(),
        median(times),
        slowest.0,
        slowest.1
    );
    assert!(
        failures.is_empty(),
        "expected every valid shader to agree bit for bit, {} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        fallbacks.is_empty(),
        "expected no fallback, found {}:\n{}",
        fallbacks.len(),
        fallbacks.join("\n")
    );
    assert_eq!(
        equal,
        [valid, valid],
        "every valid shader is compared both ways"
    );
    assert!(
        valid > 800,
        "expected more than 800 valid corpus shaders, found {valid}"
    );
}
