//! Property: random valid programs (`dxso-smith`, every feature, derivatives included) give the
//! same results on the JIT (vector and scalar code) as on the interpreter, for every batch
//! width, and the same errors under tight instruction budgets (the same invocation named).
#![cfg(feature = "jit")]

mod jit_common;

use dxso_exec::*;
use dxso_smith::SplitMix64;
use jit_common::{compare, Program, Rng};
use proptest::prelude::*;

/// Runs one generated program on every engine; `Err` describes the first difference.
fn check(
    program_seed: u64,
    data_seed: u64,
    config: &dxso_smith::Config,
) -> Result<(usize, usize), String> {
    let program = dxso_smith::Shader::from_seed(program_seed, config);
    let shader = program.shader();
    let mut rng = Rng(SplitMix64(data_seed));
    let lanes = [8, 16, 32, 64][rng.below(4) as usize];
    let n = 1 + rng.below(3 * lanes as u64) as usize;
    // The default budget, then tight ones (most of them trip somewhere in the batch).
    let budgets = [
        Options::DEFAULT_BUDGET,
        rng.below(8),
        rng.below(40),
        rng.below(400),
    ];
    let (mut values, mut trips) = (0, 0);
    for budget in budgets {
        let options = |engine| Options {
            lanes,
            budget,
            engine,
            ..Options::default()
        };
        let interp = Program::new(shader, &options(Engine::Interpreter))
            .map_err(|e| format!("lowering: {e}"))?;
        let want = interp.run(data_seed, n);
        for engine in [Engine::Jit, Engine::JitScalar] {
            let jit = Program::new(shader, &options(engine)).map_err(|e| e.to_string())?;
            if let Some(why) = jit.compiled().and_then(|c| c.fallback_reason()) {
                return Err(format!("{engine:?} falls back: {why}"));
            }
            let got = jit.run(data_seed, n);
            match (&want, &got) {
                (Ok(a), Ok(b)) => {
                    let t = compare(a, b);
                    if let Some(d) = t.first {
                        return Err(format!(
                            "{engine:?}, {lanes} lanes, {n} invocations, budget {budget}: {d}\n{}",
                            dxso_text::print::print(shader)
                        ));
                    }
                    values += t.values;
                }
                (Err(a), Err(b)) if a == b => trips += 1,
                (a, b) => {
                    return Err(format!(
                    "{engine:?}, {lanes} lanes, budget {budget}: interpreter {:?}, jit {:?}\n{}",
                    a.as_ref().err(),
                    b.as_ref().err(),
                    dxso_text::print::print(shader)
                ))
                }
            }
        }
    }
    Ok((values, trips))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    /// Every feature of the generator (NaN and infinities included).
    #[test]
    fn jit_equals_interpreter(program in any::<u64>(), data in any::<u64>()) {
        if let Err(e) = check(program, data, &dxso_smith::Config::default()) {
            panic!("program seed {program}, data seed {data}: {e}");
        }
    }

    /// The differential preset: finite values.
    #[test]
    fn jit_equals_interpreter_finite(program in any::<u64>(), data in any::<u64>()) {
        if let Err(e) = check(program, data, &dxso_smith::Config::differential()) {
            panic!("program seed {program}, data seed {data}: {e}");
        }
    }
}

/// Every version, a fixed set of seeds each (so a failure names the version at once).
#[test]
fn every_version_agrees_on_the_jit() {
    let (mut n, mut values, mut trips) = (0, 0, 0);
    for v in dxso_smith::ALL_VERSIONS {
        let config = dxso_smith::Config::default().with_version(v);
        for seed in 0..40u64 {
            match check(seed, seed ^ 0x1717, &config) {
                Ok((k, t)) => {
                    values += k;
                    trips += t;
                }
                Err(e) => panic!("{v}, seed {seed}: {e}"),
            }
            n += 1;
        }
    }
    println!(
        "jit == interpreter: {n}/{n} programs, {values} values compared, {trips} budget errors identical"
    );
    assert!(trips > 0, "tight budgets trip in some program");
}
