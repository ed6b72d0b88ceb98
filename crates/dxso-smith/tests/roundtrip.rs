//! Generated programs through the whole toolchain: `encode` then `decode` gives the same model
//! and `encode` of that the same bytes; `dxso_text::print` then `dxso_text::parse` gives the same
//! model back. Over fixed seeds for every version and configuration, and as a proptest over
//! arbitrary generator input.

use dxso_smith::{Config, ConfiguredShader, Shader, ALL_VERSIONS};
use proptest::prelude::*;

/// Checks both round trips; `Err` says which failed and how.
fn round_trip(shader: &dxso::Shader) -> Result<(), String> {
    let bytes = dxso::encode(shader);
    let decoded = dxso::decode(&bytes).map_err(|e| format!("decode: {e}"))?;
    if &decoded != shader {
        return Err(first_difference("decode(encode(s))", shader, &decoded));
    }
    if dxso::encode(&decoded) != bytes {
        return Err("encode(decode(b)) differs from b".into());
    }
    let listing = dxso_text::print(shader);
    let parsed = dxso_text::parse(&listing).map_err(|e| format!("parse: {e}\n{listing}"))?;
    if without_nan_payloads(&parsed) != without_nan_payloads(shader) {
        return Err(format!(
            "{}\n{listing}",
            first_difference("parse(print(s))", shader, &parsed)
        ));
    }
    Ok(())
}

/// The listing prints a NaN as Microsoft does (`1.#QNAN`, `-1.#QNAN`), which keeps its sign and
/// not its payload; text round trips compare `def` NaNs by sign.
fn without_nan_payloads(shader: &dxso::Shader) -> dxso::Shader {
    let mut s = shader.clone();
    for item in &mut s.items {
        if let dxso::Item::Instruction(i) = item {
            if let dxso::Extra::Def(bits) = &mut i.extra {
                for b in bits.iter_mut() {
                    if f32::from_bits(*b).is_nan() {
                        *b = (*b & 0x8000_0000) | 0x7FC0_0000;
                    }
                }
            }
        }
    }
    s
}

fn first_difference(what: &str, want: &dxso::Shader, got: &dxso::Shader) -> String {
    let at = want.items.iter().zip(&got.items).position(|(a, b)| a != b);
    match at {
        Some(i) => format!(
            "{what}: item {i} differs\n  want {:?}\n  got  {:?}",
            want.items[i], got.items[i]
        ),
        None => format!(
            "{what}: {} items, expected {}",
            got.items.len(),
            want.items.len()
        ),
    }
}

#[test]
fn seeded_programs_round_trip() {
    let configs = [
        Config::default(),
        Config::differential(),
        Config {
            max_instructions: 160,
            max_nesting: 5,
            ..Config::default()
        },
    ];
    let mut n = 0;
    let mut failures = Vec::new();
    for config in &configs {
        for v in ALL_VERSIONS {
            let config = config.clone().with_version(v);
            for seed in 0..150u64 {
                let program = Shader::from_seed(seed, &config);
                n += 1;
                if let Err(e) = round_trip(program.shader()) {
                    if failures.len() < 5 {
                        failures.push(format!("{v} seed {seed}: {e}"));
                    }
                }
            }
        }
    }
    println!(
        "round-tripped {} of {n} seeded programs",
        n - failures.len()
    );
    for f in &failures {
        println!("{f}");
    }
    assert!(
        failures.is_empty(),
        "expected {n} round trips, {} failed",
        failures.len()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_programs_round_trip(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        let mut u = arbitrary::Unstructured::new(&bytes);
        let program: ConfiguredShader = u.arbitrary().expect("generation never fails");
        let shader = program.shader.shader();
        prop_assert!(dxso::validate(shader).is_valid(), "invalid:\n{}", dxso_text::print(shader));
        if let Err(e) = round_trip(shader) {
            return Err(TestCaseError::fail(e));
        }
    }

    #[test]
    fn same_bytes_same_program(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let a = Shader::new(&Config::default(), &mut arbitrary::Unstructured::new(&bytes));
        let b = Shader::new(&Config::default(), &mut arbitrary::Unstructured::new(&bytes));
        prop_assert_eq!(a.ok(), b.ok());
    }
}
