//! Golden listings: each `tests/in/<name>.<profile>.hlsl` compiles (entry point `main`) to a
//! shader that validates, whose listing (what `dxso disasm` and `dxso compile /Fc` print) must
//! equal `tests/out/<name>.<profile>.asm`. After reviewing a deliberate change,
//! `DXSO_BLESS=1 cargo test -p dxso-hlsl --test in_out` rewrites the listings.

use dxso_hlsl::{compile, Options, Profile, Source};
use std::path::Path;

#[test]
fn every_input_matches_its_listing() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let bless = std::env::var_os("DXSO_BLESS").is_some();
    let mut files: Vec<_> = std::fs::read_dir(root.join("in"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "hlsl"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "tests/in holds {} programs", files.len());
    let mut mismatches = Vec::new();
    for file in &files {
        let stem = file.file_stem().unwrap().to_str().unwrap();
        let profile: Profile = stem
            .rsplit('.')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("{stem}: name it <name>.<profile>.hlsl"));
        let text = std::fs::read_to_string(file).unwrap();
        let out = compile(
            &Source::new(format!("{stem}.hlsl"), text),
            &Options::new("main", profile),
        )
        .unwrap_or_else(|e| panic!("{stem}: {e:?}"));
        let report = dxso::validate(&out.shader);
        assert!(
            report.is_valid(),
            "{stem}: {:?}",
            report.errors().collect::<Vec<_>>()
        );
        let actual = dxso_text::print(&out.shader);
        let path = root.join("out").join(format!("{stem}.asm"));
        if bless {
            std::fs::write(&path, &actual).unwrap();
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == actual => {}
            Ok(_) => mismatches.push(format!("{} differs", path.display())),
            Err(e) => mismatches.push(format!("{}: {e}", path.display())),
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} listings differ from tests/out (DXSO_BLESS=1 rewrites them after review):\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}
