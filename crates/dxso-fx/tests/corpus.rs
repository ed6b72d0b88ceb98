//! Every corpus effect parses, re-encodes bit-exact, and has the counts the corpus README
//! records; every embedded shader decodes.

use dxso_fx::Effect;

#[test]
fn corpus_effects_parse_and_reencode() {
    let Some(dir) = dxso_corpus::corpus_or_skip("corpus_effects_parse_and_reencode") else {
        return;
    };
    let effects = dxso_corpus::effects(&dir);
    assert_eq!(
        effects.len(),
        37,
        "the README lists 37 effects, found {}",
        effects.len()
    );
    let mut ok = 0;
    let mut failures = Vec::new();
    for e in &effects {
        let bytes = e.bytes();
        let effect = match Effect::parse(&bytes) {
            Ok(effect) => effect,
            Err(err) => {
                failures.push(format!("{}: {err}", e.name));
                continue;
            }
        };
        let counts = (
            effect.parameters.len(),
            effect.techniques.len(),
            effect.pass_count(),
            effect.shaders().count(),
        );
        let expected = (e.parameters, e.techniques, e.passes, e.shaders);
        if counts != expected {
            failures.push(format!(
                "{}: (parameters, techniques, passes, shaders) expected {expected:?}, found {counts:?}",
                e.name
            ));
            continue;
        }
        if effect.encode() != bytes {
            failures.push(format!("{}: re-encoding differs", e.name));
            continue;
        }
        ok += 1;
    }
    println!(
        "corpus effects: {ok}/{} parse, match the README counts and re-encode bit-exact",
        effects.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
