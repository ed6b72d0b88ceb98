//! Every example command of the README, of `docs/*.md` and of each subcommand's `--help` runs,
//! in a fresh copy of `tests/examples/` (the sample inputs, named as the examples name them),
//! and succeeds. An example that stops working is a failing test, not a stale document.
//!
//! The examples run through `sh -c` (they use pipes and redirections) with the tested `dxso`
//! first on `PATH`. `dxso bench` examples are left to CI's benchmark step, which runs them in
//! release builds; Vulkan examples count as run only where a Vulkan device exists.

use std::path::{Path, PathBuf};
use std::process::Command;

const DXSO: &str = env!("CARGO_BIN_EXE_dxso");

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxso-examples-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Runs a shell command line in `dir` with the tested `dxso` first on `PATH`.
fn sh(line: &str, dir: &Path) -> std::process::Output {
    let bin = Path::new(DXSO).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("sh")
        .arg("-c")
        .arg(line)
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env("HOME", dir)
        .output()
        .unwrap()
}

fn must(line: &str, dir: &Path) {
    let out = sh(line, dir);
    assert!(
        out.status.success(),
        "setting up the samples: `{line}` failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The sample folder with the bytecode the examples read, assembled from its texts.
fn samples() -> PathBuf {
    let root = scratch("samples");
    let dir = root.join("samples");
    copy_dir(&crate_dir().join("tests/examples"), &dir);
    // The vs_1_1 of the header's third array is the one the trycmd cases use.
    std::fs::copy(
        crate_dir().join("tests/cmd/data/vs11.asm"),
        root.join("vs11.asm"),
    )
    .unwrap();
    // Inputs other tests keep, under the names the examples give them.
    for (from, to) in [
        ("../dxso-render/tests/scenes/colour.vs.asm", "transform.asm"),
        ("../dxso-render/tests/scenes/colour.ps.asm", "colour.asm"),
        ("../dxso-render/tests/scenes/depth.json", "scene.json"),
        ("tests/data/bspline_patch.json", "patch.json"),
        ("tests/data/ffp_state.json", "state.json"),
        ("tests/cmd/data/cache_cases.dp2", "capture.dp2"),
    ] {
        std::fs::copy(crate_dir().join(from), dir.join(to)).unwrap();
    }
    for line in [
        "dxso asm shader.asm -o shader.dxso",
        "cp shader.dxso ps.dxso && cp shader.dxso x.dxso",
        "dxso asm vs.asm -o vs.dxso",
        "dxso asm skin.asm -o skin.vso",
        // Direct3D 8 bytecode has no dcl; the Direct3D 9 validator would refuse it.
        "dxso asm vs8.asm --no-validate -o vs8.dxso",
        "dxso asm shader.asm --format header --name g_ps20_main -o a.h",
        "dxso asm vs.asm --format header --name g_vs20_main -o b.h",
        "dxso asm ../vs11.asm --format header --name g_vs11_main -o c.h",
        "cat a.h b.h c.h > shader.h && rm a.h b.h c.h",
        "mkdir shaders shaders8 && cp shader.dxso vs.dxso shaders/ && cp vs8.dxso shaders8/",
        "dxso dp2 dump capture.dp2 --json > capture.json",
        "dxso dp2 build scene.json -o scene.dp2",
    ] {
        must(line, &dir);
    }
    std::fs::remove_file(root.join("vs11.asm")).unwrap();
    dir
}

/// The example lines of a Markdown text: lines of its code blocks that start with `dxso `.
fn markdown_examples(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        let line = line.trim_start().trim_start_matches("$ ");
        if in_code && line.starts_with("dxso ") {
            out.push(strip_comment(line));
        }
    }
    out
}

/// The example lines of a help text: the lines under `Examples:` that start with `dxso `.
fn help_examples(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_examples = false;
    for line in text.lines() {
        if line.trim() == "Examples:" {
            in_examples = true;
            continue;
        }
        if in_examples && line.trim().is_empty() {
            in_examples = false;
        }
        let trimmed = line.trim_start();
        if in_examples && trimmed.starts_with("dxso ") {
            out.push(strip_comment(trimmed));
        }
    }
    out
}

/// The command of an example line without its trailing explanation (`   (...)` or `  # ...`).
fn strip_comment(line: &str) -> String {
    let mut end = line.len();
    for marker in ["  #", "   ("] {
        if let Some(i) = line.find(marker) {
            end = end.min(i);
        }
    }
    line[..end].trim_end().to_string()
}

/// Every subcommand path (`["fx", "eval"]`), from `dxso completions`' view of the tree: the
/// help of each lists its examples.
fn subcommands() -> Vec<Vec<String>> {
    let out = Command::new(DXSO).arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut paths = Vec::new();
    let mut in_list = false;
    for line in text.lines() {
        if line.starts_with("Commands:") {
            in_list = true;
            continue;
        }
        if in_list && line.trim().is_empty() {
            break;
        }
        if in_list && line.starts_with("  ") && !line.starts_with("   ") {
            let name = line.split_whitespace().next().unwrap().to_string();
            if name != "help" {
                paths.push(vec![name]);
            }
        }
    }
    let mut nested = Vec::new();
    for p in &paths {
        let out = Command::new(DXSO).args(p).arg("--help").output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        if let Some(list) = text.split("Commands:\n").nth(1) {
            for line in list.lines().take_while(|l| !l.trim().is_empty()) {
                let name = line.split_whitespace().next().unwrap_or("").to_string();
                if !name.is_empty() && name != "help" {
                    let mut q = p.clone();
                    q.push(name);
                    nested.push(q);
                }
            }
        }
    }
    paths.extend(nested);
    paths
}

fn all_examples() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let root = crate_dir().join("../..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    out.extend(
        markdown_examples(&readme)
            .into_iter()
            .map(|e| ("README.md".to_string(), e)),
    );
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    for doc in docs {
        let text = std::fs::read_to_string(&doc).unwrap();
        let name = format!("docs/{}", doc.file_name().unwrap().to_string_lossy());
        out.extend(
            markdown_examples(&text)
                .into_iter()
                .map(|e| (name.clone(), e)),
        );
    }
    for path in subcommands() {
        let help = Command::new(DXSO)
            .args(&path)
            .arg("--help")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&help.stdout).into_owned();
        let name = format!("dxso {} --help", path.join(" "));
        out.extend(help_examples(&text).into_iter().map(|e| (name.clone(), e)));
    }
    out
}

#[test]
fn the_example_parser_reads_what_the_docs_write() {
    let md = "text\n```sh\ndxso info a.dxso     # what it says\nnot dxso\n```\ndxso outside\n";
    assert_eq!(markdown_examples(md), ["dxso info a.dxso"]);
    let help = "Examples:\n  dxso run x.asm   (a note)\n  dxso a | dxso b\n\nExit status: dxso x\n";
    assert_eq!(help_examples(help), ["dxso run x.asm", "dxso a | dxso b"]);
}

#[test]
fn every_documented_example_runs() {
    let samples = samples();
    let examples = all_examples();
    // The README, the docs and the subcommands together document well over a hundred.
    assert!(examples.len() >= 100, "{} examples found", examples.len());
    let mut ran = 0;
    let mut failures = Vec::new();
    let mut without_vulkan = Vec::new();
    for (k, (place, line)) in examples.iter().enumerate() {
        if line.starts_with("dxso bench") {
            continue;
        }
        let dir = scratch(&format!("run{k}"));
        copy_dir(&samples, &dir);
        let out = sh(line, &dir);
        let _ = std::fs::remove_dir_all(&dir);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        if !out.status.success() && line.contains("vulkan") && stderr.contains("Vulkan") {
            without_vulkan.push(line.clone());
            continue;
        }
        ran += 1;
        if !out.status.success() {
            failures.push(format!("{place}: `{line}`: {}\n{stderr}", out.status));
        }
    }
    let _ = std::fs::remove_dir_all(samples.parent().unwrap());
    eprintln!(
        "{ran} examples ran; {} skipped for want of a Vulkan device",
        without_vulkan.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
