//! Runs vkd3d-style `.shader_test` files for shader models 2 and 3 (see
//! `dxso_hlsl::shader_test`) and prints the pass counts and the failures grouped by cause.
//!
//! ```sh
//! cargo run --release -p dxso-hlsl --example shader_test -- DIR_OR_FILE... [-v]
//! ```

use dxso_hlsl::shader_test::{run_file, Status};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn collect(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        entries.sort();
        for e in entries {
            collect(&e, out);
        }
    } else if p.extension().is_some_and(|e| e == "shader_test") {
        out.push(p.to_path_buf());
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "-v");
    let mut files = Vec::new();
    for a in args.iter().filter(|a| *a != "-v") {
        collect(Path::new(a), &mut files);
    }
    if files.is_empty() {
        eprintln!("usage: shader_test DIR_OR_FILE... [-v]");
        std::process::exit(2);
    }
    let (mut tests, mut passed, mut compiles, mut compiled, mut skipped) = (0, 0, 0, 0, 0);
    let mut files_with_tests = 0;
    let mut causes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut compile_causes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in &files {
        let name = f
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{name}: {e}");
                continue;
            }
        };
        let report = match run_file(&text) {
            Ok(r) => r,
            Err(e) => {
                causes
                    .entry("format: file not read".into())
                    .or_default()
                    .push(format!("{name}: {e}"));
                continue;
            }
        };
        skipped += report.skipped;
        if !report.tests.is_empty() {
            files_with_tests += 1;
        }
        for c in &report.tests {
            tests += 1;
            match &c.status {
                Status::Pass => passed += 1,
                Status::Fail { cause, detail } => causes
                    .entry(cause.clone())
                    .or_default()
                    .push(format!("{name}:{} (sm {}) {detail}", c.line, c.model)),
            }
        }
        for c in &report.compiles {
            compiles += 1;
            match &c.status {
                Status::Pass => compiled += 1,
                Status::Fail { cause, detail } => compile_causes
                    .entry(cause.clone())
                    .or_default()
                    .push(format!("{name}:{} (sm {}) {detail}", c.line, c.model)),
            }
        }
    }
    let pct = |a: usize, b: usize| {
        if b == 0 {
            0.0
        } else {
            100.0 * a as f64 / b as f64
        }
    };
    println!(
        "files {}; [test] sections applicable to SM2/3: {tests} in {files_with_tests} files, passed {passed} ({:.1}%), not applicable {skipped}",
        files.len(),
        pct(passed, tests)
    );
    println!(
        "compile checks (each HLSL shader section at SM 2.0/3.0 its requirements allow): {compiles}, as expected {compiled} ({:.1}%)",
        pct(compiled, compiles)
    );
    for (title, map) in [
        ("test failures", &causes),
        ("compile-check failures", &compile_causes),
    ] {
        let mut v: Vec<_> = map.iter().collect();
        v.sort_by_key(|(c, l)| (std::cmp::Reverse(l.len()), (*c).clone()));
        println!("\n{title} by cause:");
        for (cause, list) in v {
            println!("{:5}  {cause}", list.len());
            let shown = if verbose { list.len() } else { 3 };
            for l in list.iter().take(shown) {
                println!("         {l}");
            }
        }
    }
}
