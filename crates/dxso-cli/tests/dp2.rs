//! `dxso dp2` and `dxso tessellate` end to end, against golden output.
use std::path::{Path, PathBuf};
use std::process::Command;

fn dxso(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dxso"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn here(p: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(p)
        .display()
        .to_string()
}

/// Compares with a golden file; `DXSO_BLESS=1` rewrites it.
fn golden(name: &str, actual: &str) {
    let path = PathBuf::from(here(&format!("golden/{name}")));
    if std::env::var_os("DXSO_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(actual, expected, "{name} differs (DXSO_BLESS=1 to accept)");
}

fn built_capture(dir: &Path) -> String {
    let out = dir.join("cache_cases.dp2").display().to_string();
    let (code, _, err) = dxso(&["dp2", "build", &here("data/cache_cases.json"), "-o", &out]);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn build_dump_run_golden() {
    let dir = std::env::temp_dir().join(format!("dxso-dp2-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let capture = built_capture(&dir);
    let (code, dump, _) = dxso(&["dp2", "dump", &capture]);
    assert_eq!(code, 0);
    golden("cache_cases.dump.txt", &dump);
    let (code, text, _) = dxso(&["dp2", "run", &capture]);
    assert_eq!(code, 0);
    golden("cache_cases.run.txt", &text);
    let obj = dir.join("all.obj").display().to_string();
    let (code, json, _) = dxso(&["dp2", "run", &capture, "--json", "--obj", &obj]);
    assert_eq!(code, 0);
    golden("cache_cases.run.json", &json);
    let obj = std::fs::read_to_string(&obj).unwrap();
    assert_eq!(
        obj.lines().filter(|l| l.starts_with("f ")).count(),
        32 + 32 + 12
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn tessellate_patch_json() {
    let (code, json, err) = dxso(&["tessellate", &here("data/bspline_patch.json"), "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let n = v["vertices"].as_array().unwrap().len();
    assert_eq!(v["normals"].as_array().unwrap().len(), n);
    assert_eq!(v["uvs"].as_array().unwrap().len(), n);
    assert_eq!(v["indices"].as_array().unwrap().len() % 3, 0);
}

#[test]
fn teapot_writes_obj_and_reports_the_cache() {
    let obj = std::env::temp_dir().join(format!("dxso-teapot-{}.obj", std::process::id()));
    let (code, text, err) = dxso(&[
        "tessellate",
        "--teapot",
        "--segments",
        "4",
        "-o",
        &obj.display().to_string(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(text.ends_with(&format!("teapot: 32 patches created, 32 drawn from the cache; 800 vertices per pass at 4 segments; wrote {}\n", obj.display())), "{text}");
    let s = std::fs::read_to_string(&obj).unwrap();
    assert_eq!(s.lines().filter(|l| l.starts_with("v ")).count(), 800);
    std::fs::remove_file(&obj).ok();
}

#[test]
fn bad_input_exits_1_and_usage_errors_exit_2() {
    let dir = std::env::temp_dir();
    let bad = dir.join(format!("dxso-bad-{}.json", std::process::id()));
    let text = std::fs::read_to_string(here("data/bspline_patch.json"))
        .unwrap()
        .replace("\"degree\": 3", "\"degree\": 4");
    std::fs::write(&bad, text).unwrap();
    let (code, _, err) = dxso(&["tessellate", &bad.display().to_string()]);
    assert_eq!(code, 1);
    // The error speaks of the patch the user wrote, not of the DP2 stream made from it.
    assert!(
        err.contains("the patch cannot be tessellated: Bspline has no degree 4"),
        "{err}"
    );
    assert!(!err.contains("byte"), "{err}");
    std::fs::remove_file(&bad).ok();
    let trunc = dir.join(format!("dxso-trunc-{}.dp2", std::process::id()));
    std::fs::write(
        &trunc,
        b"DP2F\x01\0\0\0\0\0\0\0\x08\0\0\0\x3d\0\x01\0\x07\0\0\0",
    )
    .unwrap();
    let (code, _, err) = dxso(&["dp2", "run", &trunc.display().to_string()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("command buffer byte 4 (DRAWRECTPATCH): truncated: 8 bytes needed, 4 left"),
        "{err}"
    );
    std::fs::remove_file(&trunc).ok();
    assert_eq!(dxso(&["tessellate"]).0, 2);
}

#[test]
fn ffp_prints_valid_generated_shaders() {
    let state = here("data/ffp_state.json");
    let (code, out, err) = dxso(&["ffp", &state, "--texture", "0"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("vs_3_0") && out.contains("ps_3_0"), "{out}");
    assert!(out.contains("texld"), "stage 0 samples: {out}");
    let (code, json, err) = dxso(&["ffp", &state, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    for stage in ["vs", "ps"] {
        let words: Vec<u32> = v[stage]["tokens"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_u64().unwrap() as u32)
            .collect();
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let shader = dxso::decode(&bytes).unwrap();
        assert!(dxso::validate(&shader).is_valid(), "{stage}");
    }
    // A refused state is an error naming it.
    let dir = std::env::temp_dir().join(format!("dxso-ffp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        r#"{"commands": [{"op": "SETVERTEXSHADER", "fvf": ["XYZB1"]},
        {"op": "RENDERSTATE", "state": "VERTEXBLEND", "value": 255}]}"#,
    )
    .unwrap();
    let (code, _, err) = dxso(&["ffp", &bad.display().to_string()]);
    assert_eq!(code, 1);
    assert!(err.contains("TWEENING"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
