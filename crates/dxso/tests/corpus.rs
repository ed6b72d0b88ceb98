//! Every corpus shader decodes and re-encodes bit-exact; every CTAB parses and re-encodes
//! bit-exact.

use dxso::{decode, encode, ConstantTable, Item};

#[test]
fn corpus_round_trips_bit_exact() {
    let Some(dir) = dxso_corpus::corpus_or_skip("corpus_round_trips_bit_exact") else {
        return;
    };
    let entries = dxso_corpus::entries(&dir);
    let mut failures = Vec::new();
    let (mut shaders, mut ctabs, mut ctab_fresh_exact, mut invalid, mut ctab_rejected) =
        (0, 0, 0, 0, 0);
    for e in &entries {
        let bytes = e.bytes();
        let shader = match decode(&bytes) {
            Ok(s) => s,
            Err(err) => {
                failures.push(format!("{}: decode: {err}", e.rel));
                continue;
            }
        };
        if encode(&shader) != bytes {
            failures.push(format!("{}: re-encoding differs", e.rel));
            continue;
        }
        shaders += 1;
        invalid += e.is_invalid() as usize;
        for item in &shader.items {
            let Item::Comment(c) = item else { continue };
            if !dxso::ctab::is_ctab(&c.data) {
                continue;
            }
            match ConstantTable::parse(&c.data) {
                Ok(table) => {
                    let words = table.to_words();
                    if words != c.data {
                        failures.push(format!("{}: CTAB re-encoding differs", e.rel));
                        continue;
                    }
                    ctabs += 1;
                    let mut fresh = table.clone();
                    fresh.layout = None;
                    if ConstantTable::parse_without_layout(&c.data).as_ref() != Ok(&fresh) {
                        failures.push(format!("{}: CTAB read without layout differs", e.rel));
                        continue;
                    }
                    if fresh.to_words() == c.data {
                        ctab_fresh_exact += 1;
                    }
                }
                // Hand-written Wine tables (negative tests, and a 2010 array whose 20-byte table
                // stops inside the 28-byte header) are reported; a compiler's table must parse.
                Err(err) if e.is_hand_written() => {
                    ctab_rejected += 1;
                    println!("{}: hand-written CTAB rejected: {err}", e.rel);
                }
                Err(err) => failures.push(format!("{}: CTAB: {err}", e.rel)),
            }
        }
    }
    println!(
        "corpus: {shaders}/{} shaders decode and re-encode bit-exact ({invalid} of them *.invalid.dxso); \
         {ctabs} CTABs parse and re-encode bit-exact ({ctab_fresh_exact} also with a fresh fxc-style layout); \
         {ctab_rejected} hand-written CTABs rejected",
        entries.len()
    );
    assert!(
        failures.is_empty(),
        "expected all {} corpus shaders (and their CTABs) to round-trip bit-exact; found {} \
         failures:\n{}",
        entries.len(),
        failures.len(),
        failures.join("\n")
    );
    assert!(
        entries.len() > 1000,
        "expected the corpus to hold more than 1000 shaders (README: 1272); found {}",
        entries.len()
    );
}
