//! `dxso compile -T fx_2_0`: an FNA effect compiled from source, written with `-o` and with
//! fxc's `/Fo`/`/Fc`, read back by `dxso fx info` and evaluated by `dxso fx eval`.

use std::path::PathBuf;
use std::process::{Command, Output};

fn dxso(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dxso"))
        .args(args)
        .output()
        .expect("run dxso")
}

fn source() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/hlsl/fna/src/90043ae/src/Graphics/Effect/StockEffects/HLSL/AlphaTestEffect.fx")
        .display()
        .to_string()
}

#[test]
fn compile_effect_and_read_it_back() {
    let dir = std::env::temp_dir().join(format!("dxso-compile-fx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = dir.join("a.fxb").display().to_string();
    let b = dir.join("b.fxb").display().to_string();
    let listing = dir.join("b.json").display().to_string();
    let src = source();
    let o = dxso(&["compile", &src, "-T", "fx_2_0", "-o", &a]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = dxso(&["compile", "/T", "fx_2_0", "/Fo", &b, "/Fc", &listing, &src]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let described: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&listing).unwrap()).unwrap();
    assert_eq!(described["parameters"].as_array().unwrap().len(), 12);
    let info = dxso(&["fx", "info", &a]);
    assert!(info.status.success());
    let text = String::from_utf8_lossy(&info.stdout);
    assert!(
        text.contains("12 parameters, 1 technique, 1 pass, 8 shaders"),
        "{text}"
    );
    let eval = dxso(&["fx", "eval", &a, "--set", "ShaderIndex=5"]);
    assert!(eval.status.success());
    let text = String::from_utf8_lossy(&eval.stdout);
    assert!(text.contains("(selected VSArray[1])"), "{text}");
    assert!(text.contains("(selected PSArray[3])"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_unknown_state_fails_with_fxc_form() {
    let dir = std::env::temp_dir().join(format!("dxso-compile-fx-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("bad.fx");
    std::fs::write(&src, "technique T { pass { Bogus = 1; } }").unwrap();
    let o = dxso(&["compile", &src.display().to_string(), "-T", "fx_2_0"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.fx(1,22-26): error X3004: unknown state 'Bogus'"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
