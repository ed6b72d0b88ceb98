//! The `.shader_test` runner over the small files in `tests/shader_test/`: every test and
//! every compile check holds, and a probe that cannot hold fails.

use dxso_hlsl::shader_test::{run_file, Status};
use std::path::Path;

fn run(name: &str) -> dxso_hlsl::shader_test::FileReport {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/shader_test")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("a readable test file");
    run_file(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn own_files_pass() {
    let mut tests = 0;
    for name in [
        "arithmetic.shader_test",
        "control.shader_test",
        "interpolation.shader_test",
        "intrinsics.shader_test",
        "texture.shader_test",
    ] {
        let r = run(name);
        for c in r.tests.iter().chain(&r.compiles) {
            assert_eq!(c.status, Status::Pass, "{name}:{} (sm {})", c.line, c.model);
        }
        assert!(!r.tests.is_empty(), "{name}: no test ran");
        tests += r.tests.len();
    }
    assert!(tests >= 7, "{tests} tests");
}

#[test]
fn expected_failures_and_requirements() {
    let r = run("control.shader_test");
    // Five sections that compile at 2.0 and 3.0, one that fails at both, one that fails at 2.0.
    assert_eq!(r.compiles.len(), 14);
    let r = run("interpolation.shader_test");
    // The vpos test runs at 3.0 only.
    assert_eq!(r.tests.last().map(|c| c.model), Some("3.0"));
}

#[test]
fn a_wrong_probe_fails() {
    let text = "[pixel shader]\nfloat4 main() : sv_target { return float4(1, 2, 3, 4); }\n\n\
                [test]\ndraw quad\nprobe (0, 0) rgba (1.0, 2.0, 3.0, 5.0)\n";
    let r = run_file(text).unwrap();
    assert!(
        matches!(&r.tests[0].status, Status::Fail { cause, .. } if cause == "probe: wrong value")
    );
    let text = "[require]\nshader model >= 4.0\n\n[pixel shader]\nfloat4 main() : sv_target { return 1; }\n\n[test]\ndraw quad\n";
    let r = run_file(text).unwrap();
    assert!(r.tests.is_empty());
    assert_eq!(r.skipped, 1);
}

#[test]
fn unmodelled_state_is_a_failure_not_a_pass() {
    let text = "[pixel shader]\nfloat4 main() : sv_target { return 1; }\n\n[test]\nalpha test greater 0.5\ndraw quad\n";
    let r = run_file(text).unwrap();
    assert!(
        matches!(&r.tests[0].status, Status::Fail { cause, .. } if cause.starts_with("runner:"))
    );
}
