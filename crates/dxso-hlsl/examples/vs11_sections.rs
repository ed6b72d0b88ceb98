//! Compiles every `[vertex shader]` section of vkd3d-style `.shader_test` files for vs_1_1 and
//! for vs_2_0, and checks each vs_1_1 shader validates and runs as the vs_2_0 one does (the
//! equivalence checker on dxso-exec). Prints the counts and every difference.
//!
//! ```sh
//! cargo run -p dxso-hlsl --example vs11_sections -- DIR
//! ```

use dxso_hlsl::equivalence::{check, Tolerance};
use dxso_hlsl::{compile, Options, Profile, Source};

/// The text of each `[vertex shader ...]` section.
fn vertex_sections(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.starts_with('[') {
            out.extend(current.take());
            if line.starts_with("[vertex shader") {
                current = Some(String::new());
            }
        } else if let Some(c) = current.as_mut() {
            c.push_str(line);
            c.push('\n');
        }
    }
    out.extend(current);
    out
}

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: vs11_sections DIR");
        std::process::exit(2);
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|e| e == "shader_test"));
    files.sort();
    let (mut sections, mut vs20, mut vs11, mut valid, mut equivalent) = (0, 0, 0, 0, 0);
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        for section in vertex_sections(&text) {
            sections += 1;
            let src = Source::new(path.to_string_lossy(), section);
            let reference = compile(&src, &Options::new("main", Profile::Vs20));
            let ours = compile(&src, &Options::new("main", Profile::Vs11));
            let Ok(reference) = reference else { continue };
            vs20 += 1;
            let ours = match ours {
                Ok(o) => o,
                Err(e) => {
                    println!("{}: vs_1_1: {e}", path.display());
                    continue;
                }
            };
            vs11 += 1;
            if !dxso::validate(&ours.shader).is_valid() {
                println!("{}: the vs_1_1 shader does not validate", path.display());
                continue;
            }
            valid += 1;
            match check(&reference.shader, &ours.shader, 64, 1, Tolerance::default()) {
                Ok(_) => equivalent += 1,
                Err(m) => println!("{}: {m}", path.display()),
            }
        }
    }
    println!(
        "vertex sections {sections}: {vs20} compile for vs_2_0; of those {vs11} compile for \
         vs_1_1, {valid} validate, {equivalent} run as the vs_2_0 build"
    );
}
