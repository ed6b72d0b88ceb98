//! Decompiles every valid corpus shader, compiles the HLSL back with dxso-hlsl for the shader's
//! profile (ps_1_x for ps_2_0) and checks the result is equivalent to the original on
//! dxso-exec; prints the counts, the failures by cause and the readability measure. The floors
//! may only go up.
//!
//! `DXSO_DECOMPILE_SHOW=substring` prints the HLSL of the matching shaders.

mod support;

use std::collections::BTreeMap;
use support::Outcome;

const FLOOR_DECOMPILED: usize = 1177;
const FLOOR_COMPILED: usize = 1131;
const FLOOR_EQUIVALENT: usize = 1096;

#[test]
fn corpus_decompiles_compiles_and_round_trips() {
    let Some(dir) = dxso_corpus::corpus_or_skip("corpus_decompiles") else {
        return;
    };
    let show = std::env::var("DXSO_DECOMPILE_SHOW").ok();
    let (mut valid, mut decompiled, mut compiled, mut equivalent) = (0, 0, 0, 0);
    let mut causes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for e in dxso_corpus::entries(&dir) {
        let Ok(shader) = dxso::decode(&e.bytes()) else {
            continue;
        };
        if !dxso::validate(&shader).is_valid() {
            continue;
        }
        valid += 1;
        let outcome = support::round_trip(&shader);
        let (stage, why, hlsl) = match outcome {
            Outcome::Decompile(w) => ("decompile", w, None),
            Outcome::Compile(h, w) => {
                decompiled += 1;
                ("compile", w, Some(h))
            }
            Outcome::Equivalence(h, w) => {
                decompiled += 1;
                compiled += 1;
                ("equivalence", w, Some(h))
            }
            Outcome::Equivalent(h) => {
                decompiled += 1;
                compiled += 1;
                equivalent += 1;
                ("", String::new(), Some(h))
            }
        };
        if show.as_deref().is_some_and(|s| e.rel.contains(s)) {
            println!(
                "==== {}\n{}\n{stage} {why}",
                e.rel,
                hlsl.unwrap_or_default()
            );
        }
        if !stage.is_empty() {
            let cause: String = why
                .chars()
                .map(|c| if c.is_ascii_digit() { '#' } else { c })
                .take(90)
                .collect();
            causes
                .entry(format!("{stage}: {cause}"))
                .or_default()
                .push(e.rel.clone());
        }
    }
    println!(
        "valid {valid}, decompiled {decompiled}, compiled {compiled}, equivalent {equivalent}"
    );
    let mut sorted: Vec<_> = causes.into_iter().collect();
    sorted.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
    for (cause, files) in sorted {
        println!("{:5} {cause}  (e.g. {})", files.len(), files[0]);
    }
    assert!(decompiled >= FLOOR_DECOMPILED);
    assert!(compiled >= FLOOR_COMPILED);
    assert!(equivalent >= FLOOR_EQUIVALENT);
}
