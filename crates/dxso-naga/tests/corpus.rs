//! Every corpus shader that validates translates to every target.

use dxso_naga::{translate, Options, Target, WriteOptions};

#[test]
fn corpus_translates_to_every_target() {
    let Some(dir) = dxso_corpus::corpus_or_skip("corpus_translates_to_every_target") else {
        return;
    };
    let mut total = 0;
    let mut failures = Vec::new();
    for e in dxso_corpus::entries(&dir) {
        let Ok(shader) = dxso::decode(&e.bytes()) else { continue };
        if !dxso::validate(&shader).is_valid() {
            continue;
        }
        total += 1;
        let t = match translate(&shader, &Options::default()) {
            Ok(t) => t,
            Err(err) => {
                failures.push(format!("{}: {err}", e.rel));
                continue;
            }
        };
        for target in Target::ALL {
            if let Err(err) = t.write(target, &WriteOptions::default()) {
                failures.push(format!("{} -> {}: {err}", e.rel, target.name()));
            }
        }
    }
    for f in &failures {
        eprintln!("{f}");
    }
    eprintln!("translated {} of {total}", total - failures.len());
    assert!(failures.is_empty(), "{} failures", failures.len());
}
