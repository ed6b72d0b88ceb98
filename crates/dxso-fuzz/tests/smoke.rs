//! Every fuzz target over its seeds (`fuzz/corpus/<target>/`) and the inputs that once failed
//! (`fuzz/regressions/<target>/`): no panic, and each input done in well under a second. This is
//! what CI runs instead of libFuzzer; `scripts/fuzz.sh` runs the same targets for hours.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The `fuzz/` folder of the repository.
fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = entries
        .map(|e| e.expect("a readable folder entry").path())
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    v
}

/// The slowest an input may take in a test build (the targets' crates are optimised there).
const PER_INPUT: Duration = Duration::from_secs(2);

fn replay(target: &dxso_fuzz::Target, kind: &str) -> usize {
    let dir = fuzz_dir().join(kind).join(target.name);
    let inputs = files(&dir);
    for path in &inputs {
        let data = std::fs::read(path).expect("a readable input");
        let started = Instant::now();
        let outcome = std::panic::catch_unwind(|| (target.run)(&data));
        let took = started.elapsed();
        assert!(
            outcome.is_ok(),
            "{}: {} panicked (replay with `cargo fuzz run {} {}`)",
            target.name,
            path.display(),
            target.name,
            path.display()
        );
        assert!(
            took < PER_INPUT,
            "{}: {} took {took:?}",
            target.name,
            path.display()
        );
    }
    inputs.len()
}

#[test]
fn every_target_has_seeds_and_a_dictionary() {
    for t in dxso_fuzz::TARGETS {
        assert!(
            !files(&fuzz_dir().join("corpus").join(t.name)).is_empty(),
            "{}: no seeds",
            t.name
        );
        let dict = fuzz_dir().join("dict").join(format!("{}.dict", t.name));
        assert!(dict.is_file(), "{}: no dictionary", t.name);
        let target = fuzz_dir()
            .join("fuzz_targets")
            .join(format!("{}.rs", t.name));
        assert!(target.is_file(), "{}: no cargo-fuzz binary", t.name);
    }
}

#[test]
fn regressions_replay_cleanly() {
    let total: usize = dxso_fuzz::TARGETS
        .iter()
        .map(|t| replay(t, "regressions"))
        .sum();
    assert!(total > 0, "no regression inputs found");
}

/// One test per target, so that the harness runs them in parallel and names a slow one.
macro_rules! seeds {
    ($($name:ident),*) => {$(
        #[test]
        fn $name() {
            let t = dxso_fuzz::TARGETS
                .iter()
                .find(|t| t.name == stringify!($name))
                .expect("a target of that name");
            assert!(replay(t, "corpus") > 0, "no seeds");
        }
    )*};
}

mod seeds {
    seeds!(
        asm, dbug, decode, dp2, exec, fx, fx_params, hlsl, jit, plan, render, smith, translate,
        validate
    );

    use super::replay;
}
