//! Every corpus shader that validates translates to every target: naga's validator accepts
//! each module, every SPIR-V passes `spirv-val`, every GLSL passes `glslangValidator`, and
//! every WGSL parses back with naga's front end and validates again.

use dxso_naga::{Options, Output, Stage, Target, Translation, Translator, WriteOptions};
use std::path::{Path, PathBuf};
use std::process::Command;

struct Case {
    rel: String,
    shader: dxso::Shader,
}

fn valid_corpus(test: &str) -> Option<Vec<Case>> {
    let dir = dxso_corpus::corpus_or_skip(test)?;
    let mut out = Vec::new();
    for e in dxso_corpus::entries(&dir) {
        let Ok(shader) = dxso::decode(&e.bytes()) else {
            continue;
        };
        if dxso::validate(&shader).is_valid() {
            out.push(Case { rel: e.rel, shader });
        }
    }
    Some(out)
}

/// `true` when `tool` runs; in CI a missing tool fails the test.
fn tool_present(tool: &str) -> bool {
    let ok = Command::new(tool).arg("--version").output().is_ok();
    if !ok {
        let msg = format!("{tool} not found: install spirv-tools and glslang-tools");
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("{msg}");
        }
        eprintln!("NOTICE: {msg}; skipping its checks");
    }
    ok
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxso-naga-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn file_name(rel: &str) -> String {
    rel.replace(['/', '.'], "_")
}

fn extension(stage: Stage) -> &'static str {
    match stage {
        Stage::Vertex => "vert",
        Stage::Fragment => "frag",
        Stage::Compute => "comp",
    }
}

/// Runs `glslangValidator` over `files` in batches; returns the failing files' messages.
fn glslang(files: &[PathBuf]) -> Vec<String> {
    let mut failures = Vec::new();
    for chunk in files.chunks(200) {
        let out = Command::new("glslangValidator")
            .args(chunk)
            .output()
            .unwrap();
        if !out.status.success() {
            let text = String::from_utf8_lossy(&out.stdout);
            // Each file's messages start with its path; keep the lines that report errors.
            for line in text.lines().filter(|l| l.contains("ERROR")) {
                failures.push(line.to_string());
            }
            if failures.is_empty() {
                failures.push(text.into_owned());
            }
        }
    }
    failures
}

fn spirv_val(path: &Path) -> Option<String> {
    let out = Command::new("spirv-val")
        .args(["--target-env", "vulkan1.0"])
        .arg(path)
        .output()
        .unwrap();
    (!out.status.success()).then(|| String::from_utf8_lossy(&out.stderr).into_owned())
}

fn wgsl_round_trip(text: &str) -> Result<(), String> {
    let module = naga::front::wgsl::parse_str(text).map_err(|e| e.emit_to_string(text))?;
    dxso_naga::validator()
        .validate(&module)
        .map(|_| ())
        .map_err(|e| e.emit_to_string(text))
}

fn write(t: &Translation, target: Target) -> Result<Output, String> {
    t.write(target, &WriteOptions::default())
        .map_err(|e| e.to_string())
}

/// Translates every case with `options` and checks every target; returns N translated and
/// the failures.
fn check_all(
    cases: &[Case],
    options: &Options,
    name: &str,
    targets: &[Target],
) -> (usize, Vec<String>) {
    let dir = scratch(name);
    let have_spirv_val = tool_present("spirv-val");
    let have_glslang = tool_present("glslangValidator");
    let mut failures = Vec::new();
    let mut glsl_files = Vec::new();
    let mut translated = 0;
    let mut translator = Translator::new();
    for case in cases {
        let t = match translator.translate(&case.shader, options) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{}: {e}", case.rel));
                continue;
            }
        };
        translated += 1;
        let stem = file_name(&case.rel);
        let ext = extension(t.reflection.stage);
        for &target in targets {
            let out = match write(&t, target) {
                Ok(o) => o,
                Err(e) => {
                    failures.push(format!("{} -> {}: {e}", case.rel, target.name()));
                    continue;
                }
            };
            match target {
                Target::Wgsl => {
                    if let Err(e) = wgsl_round_trip(out.text().unwrap()) {
                        failures.push(format!("{} -> wgsl parse-back: {e}", case.rel));
                    }
                }
                Target::SpirV if have_spirv_val => {
                    let p = dir.join(format!("{stem}.spv"));
                    std::fs::write(&p, out.into_bytes()).unwrap();
                    if let Some(e) = spirv_val(&p) {
                        failures.push(format!("{} -> spirv-val: {e}", case.rel));
                    }
                }
                Target::Glsl | Target::GlslEs if have_glslang => {
                    let tag = if target == Target::Glsl { "gl" } else { "es" };
                    let p = dir.join(format!("{stem}_{tag}.{ext}"));
                    std::fs::write(&p, out.into_bytes()).unwrap();
                    glsl_files.push(p);
                }
                _ => {}
            }
        }
    }
    failures.extend(glslang(&glsl_files));
    let _ = std::fs::remove_dir_all(&dir);
    (translated, failures)
}

fn report(what: &str, total: usize, translated: usize, failures: &[String]) {
    for f in failures.iter().take(40) {
        eprintln!("{f}");
    }
    eprintln!(
        "{what}: {translated}/{total} translated, {} failures",
        failures.len()
    );
    assert_eq!(
        translated, total,
        "{what}: expected all {total} valid shaders to translate, {translated} did"
    );
    assert!(
        failures.is_empty(),
        "{what}: {} failures (first: {})",
        failures.len(),
        failures[0]
    );
}

#[test]
fn corpus_translates_to_every_target_and_validates() {
    let Some(cases) = valid_corpus("corpus_translates_to_every_target_and_validates") else {
        return;
    };
    let (n, failures) = check_all(&cases, &Options::default(), "all", &Target::ALL);
    eprintln!(
        "targets checked: naga validation, wgsl parse-back, spirv-val (vulkan1.0), glslangValidator (GLSL 450, GLSL ES 310), msl and hlsl written"
    );
    report("corpus, every target", cases.len(), n, &failures);
}

#[test]
fn corpus_runs_as_the_gpu_runner_translates_it() {
    // The variants dxso-gpu uses: vertex shaders as compute, pixel inputs from a buffer.
    let Some(cases) = valid_corpus("corpus_runs_as_the_gpu_runner_translates_it") else {
        return;
    };
    let options = Options {
        vertex_as_compute: true,
        pixel_inputs_from_buffer: true,
        ..Options::default()
    };
    let (n, failures) = check_all(&cases, &options, "gpu", &[Target::SpirV, Target::Wgsl]);
    report("corpus, compute/buffer variants", cases.len(), n, &failures);
}
