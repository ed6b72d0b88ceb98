//! The `dxso-bench` program: each benchmark's JSON carries its ratio, bad corpora are refused.

use std::process::{Command, Output};

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dxso-bench"))
        .args(args)
        .output()
        .expect("run dxso-bench")
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = bench(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON value")
}

#[test]
fn exec_prints_a_ratio() {
    let v = json(&[
        "exec",
        "--seconds",
        "0.05",
        "--vertices",
        "2048",
        "--quads",
        "256",
        "--json",
    ]);
    let ratio = v["ratio"].as_f64().expect("a ratio");
    assert!(ratio > 0.0);
    assert_eq!(v["workloads"].as_array().unwrap().len(), 2);
}

#[test]
fn an_empty_corpus_is_refused() {
    let dir = std::env::temp_dir().join(format!("dxso-bench-{}-empty", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("empty-source")).unwrap();
    for what in ["decode", "text"] {
        let out = bench(&[what, "--corpus", dir.to_str().unwrap(), "--seconds", "0.01"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{what}: {err}");
        assert!(err.contains("no shaders under"), "{err}");
    }
}

#[test]
fn render_measures_the_jit_frame_too() {
    let j = json(&["--json", "render", "--seconds", "0.01", "--size", "64x64"]);
    assert!(j["ratio"].as_f64().unwrap() > 0.0, "{j}");
    assert!(j["jit_ratio"].as_f64().unwrap() > 0.0, "{j}");
    let engines: Vec<&str> = (j["engines"].as_array().unwrap().iter())
        .map(|e| e["engine"].as_str().unwrap())
        .collect();
    assert_eq!(engines, ["interpreter", "jit"]);
}

#[test]
fn the_decode_json_has_a_top_level_ratio_field() {
    let v = json(&["decode", "--seconds", "0.01", "--json"]);
    // Null without the MojoShader peer, a number with it: the field is always there.
    assert!(v.get("ratio").is_some(), "{v}");
    assert!(v["dxso"]["mb_per_s"].as_f64().unwrap() > 0.0, "{v}");
}

#[test]
fn compile_needs_a_dxso_binary_and_says_so() {
    let out = bench(&[
        "compile",
        "--dxso",
        "/nonexistent/dxso",
        "--seconds",
        "0.01",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("does not run"), "{err}");
}
