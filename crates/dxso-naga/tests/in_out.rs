//! Snapshot tests in naga's layout: each shader under `tests/in/` (assembly text) is translated
//! with the default options and written for every target; the result must equal
//! `tests/out/<target>/<name>.<ext>`. After reviewing a deliberate change, `DXSO_BLESS=1 cargo
//! test -p dxso-naga --test in_out` rewrites the outputs.

use dxso_naga::{Options, Target, WriteOptions};
use std::path::{Path, PathBuf};

/// Each target's folder under `tests/out/` and its file extension.
fn folder_and_extension(target: Target) -> (&'static str, &'static str) {
    match target {
        Target::Wgsl => ("wgsl", "wgsl"),
        Target::SpirV => ("spv", "spvasm"),
        Target::Glsl => ("glsl", "glsl"),
        Target::GlslEs => ("glsl-es", "glsl"),
        Target::Msl => ("msl", "msl"),
        Target::Hlsl => ("hlsl", "hlsl"),
    }
}

fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "asm"))
        .collect();
    files.sort();
    files
}

/// The text a target's output is compared as: SPIR-V is disassembled.
fn as_text(output: dxso_naga::Output) -> String {
    match output {
        dxso_naga::Output::Text(t) => t,
        dxso_naga::Output::Words(words) => {
            let module = rspirv::dr::load_words(&words).expect("SPIR-V the writer produced loads");
            let mut text = rspirv::binary::Disassemble::disassemble(&module);
            text.push('\n');
            text
        }
    }
}

#[test]
fn every_input_for_every_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let bless = std::env::var_os("DXSO_BLESS").is_some();
    let files = inputs(&root.join("in"));
    assert!(files.len() >= 13, "tests/in holds {} shaders", files.len());
    let mut mismatches = Vec::new();
    for file in &files {
        let name = file.file_stem().unwrap().to_str().unwrap();
        let text = std::fs::read_to_string(file).unwrap();
        let assembled = dxso_text::parse(&text)
            .unwrap_or_else(|e| panic!("{name}: the input does not assemble: {e:?}"));
        let report = dxso::validate(&assembled);
        assert!(report.is_valid(), "{name}: the input is not valid");
        let translation = dxso_naga::translate(&assembled, &Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for target in Target::ALL {
            let (folder, extension) = folder_and_extension(target);
            let output = translation
                .write(target, &WriteOptions::default())
                .unwrap_or_else(|e| panic!("{name} to {folder}: {e}"));
            let actual = as_text(output);
            let path = root
                .join("out")
                .join(folder)
                .join(format!("{name}.{extension}"));
            if bless {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &actual).unwrap();
                continue;
            }
            match std::fs::read_to_string(&path) {
                Ok(expected) if expected == actual => {}
                Ok(_) => mismatches.push(format!("{} differs", path.display())),
                Err(e) => mismatches.push(format!("{}: {e}", path.display())),
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} outputs differ from tests/out (DXSO_BLESS=1 rewrites them after review):\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}
