//! Round trips of the model: every corpus effect survives a fresh layout, and random edits
//! (names, values, states) survive encoding and parsing (proptest).

use dxso_fx::{Effect, Name, Value};
use proptest::prelude::*;

fn corpus() -> Vec<(String, Effect)> {
    let Some(dir) = dxso_corpus::corpus_dir() else {
        return Vec::new();
    };
    dxso_corpus::effects(&dir)
        .into_iter()
        .map(|e| {
            let effect = Effect::parse(&e.bytes()).unwrap();
            (e.name, effect)
        })
        .collect()
}

#[test]
fn corpus_effects_survive_a_fresh_layout() {
    let Some(_) = dxso_corpus::corpus_or_skip("corpus_effects_survive_a_fresh_layout") else {
        return;
    };
    let effects = corpus();
    let mut same_size = 0;
    for (name, effect) in &effects {
        let fresh = effect.encode_fresh();
        let again = Effect::parse(&fresh).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            &again, effect,
            "{name}: the fresh layout parses to another effect"
        );
        assert_eq!(
            again.encode(),
            fresh,
            "{name}: the fresh layout does not re-encode"
        );
        same_size += (fresh.len() <= effect.encode().len()) as usize;
    }
    println!(
        "fresh layouts: {}/{} parse back to the same effect ({same_size} no larger than the original)",
        effects.len(),
        effects.len()
    );
}

#[derive(Clone, Debug)]
enum Edit {
    RenameParameter(usize, String),
    SetWord(usize, usize, u32),
    RenamePass(usize, String),
    DropState(usize, usize),
    AddAnnotation(usize, String, f32),
}

fn edit() -> impl Strategy<Value = Edit> {
    let name = "[A-Za-z_][A-Za-z0-9_]{0,24}";
    prop_oneof![
        (any::<usize>(), name).prop_map(|(i, n)| Edit::RenameParameter(i, n)),
        (any::<usize>(), any::<usize>(), any::<u32>()).prop_map(|(i, w, v)| Edit::SetWord(i, w, v)),
        (any::<usize>(), name).prop_map(|(i, n)| Edit::RenamePass(i, n)),
        (any::<usize>(), any::<usize>()).prop_map(|(i, s)| Edit::DropState(i, s)),
        (any::<usize>(), name, any::<f32>()).prop_map(|(i, n, v)| Edit::AddAnnotation(i, n, v)),
    ]
}

fn apply(effect: &mut Effect, edit: &Edit) {
    match edit {
        Edit::RenameParameter(i, n) if !effect.parameters.is_empty() => {
            let k = i % effect.parameters.len();
            effect.parameters[k].ty.name = Some(Name::new(n));
        }
        Edit::SetWord(i, w, v) if !effect.parameters.is_empty() => {
            let k = i % effect.parameters.len();
            if let Value::Data(words) = &mut effect.parameters[k].value {
                if !words.is_empty() {
                    let n = words.len();
                    words[w % n] = *v;
                }
            }
        }
        Edit::RenamePass(i, n) => {
            let passes: Vec<_> = effect
                .techniques
                .iter_mut()
                .flat_map(|t| t.passes.iter_mut())
                .collect();
            if !passes.is_empty() {
                let n2 = passes.len();
                passes.into_iter().nth(i % n2).unwrap().name = Some(Name::new(n));
            }
        }
        Edit::DropState(i, s) => {
            // Only states no large object names, so the object table stays consistent.
            let targets: Vec<_> = effect.resources.iter().map(|r| r.target).collect();
            for (ti, t) in effect.techniques.iter_mut().enumerate() {
                for (pi, p) in t.passes.iter_mut().enumerate() {
                    if (ti * 31 + pi) % 7 != i % 7 || p.states.is_empty() {
                        continue;
                    }
                    let k = s % p.states.len();
                    let named = targets.iter().any(|t| matches!(t, dxso_fx::Target::Pass { technique, pass, state, .. }
                        if (*technique as usize, *pass as usize) == (ti, pi) && *state as usize >= k));
                    if !named {
                        p.states.remove(k);
                    }
                }
            }
        }
        Edit::AddAnnotation(i, n, v) if !effect.parameters.is_empty() => {
            let k = i % effect.parameters.len();
            effect.parameters[k].annotations.push(dxso_fx::Annotation {
                ty: dxso_fx::TypeDesc {
                    type_raw: 3,
                    class_raw: 0,
                    name: Some(Name::new(n)),
                    semantic: None,
                    elements: 0,
                    shape: dxso_fx::Shape::Numeric {
                        rows: 1,
                        columns: 1,
                    },
                },
                value: Value::Data(vec![v.to_bits()]),
            });
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn edits_survive_encoding(index in any::<usize>(), edits in prop::collection::vec(edit(), 1..6)) {
        let effects = corpus();
        prop_assume!(!effects.is_empty());
        let (name, original) = &effects[index % effects.len()];
        let mut effect = original.clone();
        for e in &edits {
            apply(&mut effect, e);
        }
        let bytes = effect.encode();
        let again = Effect::parse(&bytes).map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
        prop_assert_eq!(&again, &effect, "{}: edits {:?}", name, edits);
        prop_assert_eq!(again.encode(), bytes);
    }
}
