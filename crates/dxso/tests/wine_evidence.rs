//! What the Direct3D 9 runtime accepts, as Wine's d3d9 tests record it on Windows, checked
//! against the validator.
//!
//! The corpus keeps every DWORD array of Wine's `dlls/d3d9/tests/{visual,device}.c` (Wine 8.5;
//! `MANIFEST.tsv` names the file and the line of each array). Those tests create each shader and
//! assert the result: `ok(SUCCEEDED(hr))` for the shaders they draw with, and
//! `ok(hr == D3DERR_INVALIDCALL)` for the ones `test_unsupported_shaders` expects refused (the
//! corpus marks those `*.invalid.dxso`). Older versions of an array (a `__<date>_<commit>` suffix)
//! are not evidence: Wine replaced them, some because Windows refused them.
//!
//! Every case is listed with its Wine file, test and line; the test fails on any disagreement
//! and prints the counts.

use dxso::validate::Options as ValidateOptions;
use dxso::{decode, validate_with};
use std::collections::HashMap;

/// What the runtime did with a shader, and on which device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Runtime {
    /// Created: `ok(SUCCEEDED(hr))`.
    Accepts,
    /// Refused: `ok(hr == D3DERR_INVALIDCALL)`.
    Refuses,
    /// Accepted when the device reports `MaxVertexShaderConst` >= 256 (the shader-model-3
    /// branch of `test_unsupported_shaders`), refused below (its vs_1_1 branch).
    AcceptsWith256Constants,
}

struct Case {
    rel: String,
    wine: String,
    expect: Runtime,
}

fn is_older_version(rel: &str) -> bool {
    // `name__20090922_6fa09d1.dxso`
    rel.trim_end_matches(".dxso")
        .rsplit("__")
        .next()
        .is_some_and(|tail| {
            let b = tail.as_bytes();
            b.len() == 16 && b[8] == b'_' && b[..8].iter().all(u8::is_ascii_digit)
        })
}

fn cases(dir: &std::path::Path) -> Vec<Case> {
    let manifest = dxso_corpus::manifest(dir);
    let mut out = Vec::new();
    for e in dxso_corpus::entries(dir) {
        let name = e.rel.trim_start_matches("wine/");
        if e.source != "wine" || !name.starts_with("d3d9_") || is_older_version(&e.rel) {
            continue;
        }
        let row: &HashMap<String, String> = &manifest[&e.rel];
        let line = row["notes"]
            .split(';')
            .find_map(|n| n.trim().strip_prefix("array at line "))
            .unwrap_or("?")
            .to_string();
        let test = name.split("__").nth(1).unwrap_or("?");
        let wine = format!("{}:{line} ({test})", row["path_in_repo"]);
        let expect = if !e.is_invalid() {
            Runtime::Accepts
        } else if name.contains("__vs_1_255") {
            Runtime::AcceptsWith256Constants
        } else {
            Runtime::Refuses
        };
        out.push(Case {
            rel: e.rel.clone(),
            wine,
            expect,
        });
    }
    out
}

#[test]
fn the_validator_agrees_with_what_wines_tests_record_of_the_runtime() {
    let Some(dir) = dxso_corpus::corpus_or_skip("wine_evidence") else {
        return;
    };
    let cases = cases(&dir);
    let (mut accepted, mut accept_total, mut refused, mut refuse_total) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for case in &cases {
        let bytes = std::fs::read(dir.join(&case.rel)).unwrap();
        let shader = decode(&bytes).unwrap_or_else(|e| panic!("{}: {e}", case.rel));
        let minimum = validate_with(&shader, &ValidateOptions::default());
        let with_256 = validate_with(
            &shader,
            &ValidateOptions {
                max_vertex_constants: Some(256),
                ..ValidateOptions::default()
            },
        );
        let (ok_accept, ok_refuse) = match case.expect {
            Runtime::Accepts => (Some(minimum.is_valid()), None),
            Runtime::Refuses => (None, Some(!minimum.is_valid())),
            Runtime::AcceptsWith256Constants => {
                (Some(with_256.is_valid()), Some(!minimum.is_valid()))
            }
        };
        if let Some(ok) = ok_accept {
            accept_total += 1;
            if ok {
                accepted += 1;
            } else {
                let why: Vec<String> = minimum.errors().map(|d| d.to_string()).collect();
                failures.push(format!(
                    "{} ({}): Windows creates it, the validator refuses: {}",
                    case.rel,
                    case.wine,
                    why.join("; ")
                ));
            }
        }
        if let Some(ok) = ok_refuse {
            refuse_total += 1;
            if ok {
                refused += 1;
            } else {
                failures.push(format!(
                    "{} ({}): Windows refuses it, the validator accepts it",
                    case.rel, case.wine
                ));
            }
        }
        println!("{:?}\t{}\t{}", case.expect, case.wine, case.rel);
    }
    println!("accepted {accepted}/{accept_total}, refused {refused}/{refuse_total}");
    assert!(
        accept_total >= 130 && refuse_total >= 9,
        "expected the corpus to hold Wine's d3d9 test shaders; found {accept_total} created and \
         {refuse_total} refused"
    );
    assert!(
        failures.is_empty(),
        "accepted {accepted}/{accept_total}, refused {refused}/{refuse_total}:\n{}",
        failures.join("\n")
    );
}
