//! The validator over the corpus: every compiled shader is valid, every `*.invalid.dxso` is
//! rejected, and the hand-written Wine shaders are reported without a crash.

use dxso::{decode, validate};
use std::collections::BTreeMap;

#[test]
fn corpus_validates() {
    let Some(dir) = dxso_corpus::corpus_or_skip("corpus_validates") else {
        return;
    };
    let entries = dxso_corpus::entries(&dir);
    let (mut compiled, mut compiled_ok) = (0, 0);
    let (mut invalid, mut invalid_rejected) = (0, 0);
    let (mut hand, mut hand_ok) = (0, 0);
    let mut hand_rules: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut warnings = 0;
    for e in &entries {
        let Ok(shader) = decode(&e.bytes()) else {
            failures.push(format!("{}: does not decode", e.rel));
            continue;
        };
        let report = validate(&shader);
        warnings += report.warnings().count();
        if e.is_invalid() {
            invalid += 1;
            if report.is_valid() {
                failures.push(format!("{}: invalid shader accepted", e.rel));
            } else {
                invalid_rejected += 1;
                let ids: Vec<&str> = report.rules().iter().map(|r| r.id()).collect();
                println!("{}: rejected: {}", e.rel, ids.join(" "));
                for d in report.errors() {
                    println!("    {d}");
                }
            }
        } else if e.is_hand_written() {
            hand += 1;
            if report.is_valid() {
                hand_ok += 1;
            } else {
                for r in report.rules() {
                    if r.severity() == dxso::Severity::Error {
                        *hand_rules.entry(r.id()).or_default() += 1;
                    }
                }
            }
        } else {
            compiled += 1;
            if report.is_valid() {
                compiled_ok += 1;
            } else {
                for d in report.errors() {
                    failures.push(format!("{} ({}): {d}", e.rel, shader.version));
                }
            }
        }
    }
    println!("compiled shaders valid: {compiled_ok}/{compiled}");
    println!("*.invalid.dxso rejected: {invalid_rejected}/{invalid}");
    println!("hand-written (wine, wine-asm) valid: {hand_ok}/{hand}");
    println!("hand-written shaders failing, per rule: {hand_rules:?}");
    println!("warnings over the corpus: {warnings}");
    for f in &failures {
        println!("FAIL {f}");
    }
    assert!(
        failures.is_empty(),
        "expected every compiled shader valid and every *.invalid.dxso rejected; found {} \
         failures (compiled valid {compiled_ok}/{compiled}, invalid rejected \
         {invalid_rejected}/{invalid}); the FAIL lines above name them",
        failures.len()
    );
    assert!(
        invalid > 0 && compiled > 0,
        "expected the corpus to hold compiled shaders and *.invalid.dxso files; found \
         {compiled} compiled and {invalid} invalid"
    );
}

/// fxc's listing footer counts slots; ours must agree wherever a listing exists.
#[test]
fn slot_counts_match_the_listings() {
    let Some(dir) = dxso_corpus::corpus_or_skip("slot_counts_match_the_listings") else {
        return;
    };
    let (mut compared, mut same) = (0, 0);
    let mut diffs = Vec::new();
    for e in dxso_corpus::entries(&dir) {
        let Some(listing) = e.sibling("ms.asm") else {
            continue;
        };
        let text = std::fs::read_to_string(&listing).unwrap_or_default();
        let Some(line) = text.lines().find(|l| l.contains("instruction slots used")) else {
            continue;
        };
        let numbers: Vec<u32> = line
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|t| t.parse().ok())
            .collect();
        let shader = decode(&e.bytes()).expect("decodes");
        let slots = dxso::slots::count(&shader);
        compared += 1;
        let ours = if numbers.len() == 3 {
            vec![slots.total(), slots.texture, slots.arithmetic]
        } else {
            vec![slots.total()]
        };
        if ours == numbers {
            same += 1;
        } else {
            diffs.push(format!(
                "{} ({}): fxc {numbers:?}, ours {ours:?}",
                e.rel, shader.version
            ));
        }
    }
    println!("slot counts equal to the listing: {same}/{compared}");
    for d in &diffs {
        println!("  {d}");
    }
    assert!(
        diffs.is_empty(),
        "expected every listing's slot count ({compared}) to match ours; found {} that disagree \
         (listed above)",
        diffs.len()
    );
    assert!(
        compared > 200,
        "expected more than 200 corpus listings with a slot footer; found {compared}"
    );
}
