//! Effect parameters through what `dxso fx info` and `dxso fx eval` do with them: the input is
//! an effect prefixed by its length, then bytes that choose parameters (a name, an element, a
//! member), values to set as floats, ints or bools, and passes to evaluate. Describing every
//! parameter (its type, value and word types), setting and reading values, and evaluating and
//! describing passes return values or typed errors, never panic, and take work proportional to
//! the input whatever counts it claims.

use arbitrary::Unstructured;
use dxso_fx::{describe, Effect, Runtime};

/// A path into parameter `p` chosen by the fuzzer: the name, perhaps an element, perhaps a
/// member.
fn path(effect: &Effect, u: &mut Unstructured<'_>) -> Option<String> {
    let i = u.choose_index(effect.parameters.len()).ok()?;
    let p = &effect.parameters[i];
    let mut path = p.name().into_owned();
    if u.arbitrary().unwrap_or(false) {
        let k: u32 = u
            .int_in_range(0..=p.ty.elements.saturating_add(1))
            .unwrap_or(0);
        path.push_str(&format!("[{k}]"));
    }
    let members = p.ty.members();
    if !members.is_empty() && u.arbitrary().unwrap_or(false) {
        let m = &members[u.choose_index(members.len()).unwrap_or(0)];
        path.push('.');
        path.push_str(&dxso_fx::types::name_str(&m.name));
    }
    Some(path)
}

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let (bytes, rest) = crate::input::length_prefixed(data);
    let Ok(effect) = Effect::parse(bytes) else {
        return;
    };
    let _ = describe::info(&effect, "fuzz", bytes.len()).to_text();
    for p in &effect.parameters {
        let _ = describe::value_json(&effect, &p.ty, &p.value).to_text();
        let _ = describe::type_text(&p.ty);
        if let Some(words) = p.ty.data_words() {
            assert_eq!(
                p.ty.word_types().len() as u64,
                words,
                "word types and data words disagree"
            );
        }
    }
    let mut rt = Runtime::new(&effect);
    let mut u = Unstructured::new(rest);
    for _ in 0..u.int_in_range(0..=4u8).unwrap_or(0) {
        let Some(path) = path(&effect, &mut u) else {
            break;
        };
        let n = u.int_in_range(0..=20usize).unwrap_or(0);
        let _ = match u.int_in_range(0..=2u8).unwrap_or(0) {
            0 => rt.set_floats(
                &path,
                &(0..n)
                    .map(|_| crate::exec_inputs::value(&mut u))
                    .collect::<Vec<_>>(),
            ),
            1 => rt.set_ints(
                &path,
                &(0..n)
                    .map(|_| u.arbitrary().unwrap_or(0))
                    .collect::<Vec<_>>(),
            ),
            _ => rt.set_bools(
                &path,
                &(0..n)
                    .map(|_| u.arbitrary().unwrap_or(false))
                    .collect::<Vec<_>>(),
            ),
        };
        if let Some((ty, value)) = rt.get(&path) {
            let _ = describe::value_json(&effect, &ty, &value).to_text();
        }
    }
    for (t, tech) in effect.techniques.iter().enumerate() {
        for p in 0..tech.passes.len() {
            if let Ok(view) = rt.pass(t, p) {
                let _ = describe::pass_json(&effect, &view).to_text();
            }
        }
    }
}
