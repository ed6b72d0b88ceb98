//! `dxso fx info|extract|eval|decompile` on the corpus effects, and the effect hints of `info`/`disasm`.

use std::path::PathBuf;
use std::process::{Command, Output};

fn dxso(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dxso"))
        .args(args)
        .output()
        .expect("run dxso")
}

fn effect(name: &str) -> Option<String> {
    let dir = dxso_corpus::corpus_or_skip(name)?;
    Some(dir.join("effects").join(name).display().to_string())
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

#[test]
fn info_text_and_json() {
    let Some(f) = effect("fna_BasicEffect.fxb") else {
        return;
    };
    let o = dxso(&["fx", "info", &f]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    assert!(
        text.contains("26 parameters, 1 technique, 1 pass, 30 shaders"),
        "{text}"
    );
    assert!(text.contains("float4x4 WorldViewProj"), "{text}");
    assert!(
        text.contains("VSArray[expression of ShaderIndex, VSIndices]"),
        "{text}"
    );

    let o = dxso(&["fx", "info", &f, "--json"]);
    assert!(o.status.success());
    let v = json(&o);
    let params = v["parameters"].as_array().unwrap();
    assert_eq!(params.len(), 26);
    for p in params {
        for key in [
            "name",
            "semantic",
            "class",
            "type",
            "rows",
            "columns",
            "elements",
            "flags",
            "annotations",
            "members",
        ] {
            assert!(p.get(key).is_some(), "parameter without `{key}`: {p}");
        }
    }
    let wvp = params
        .iter()
        .find(|p| p["name"] == "WorldViewProj")
        .unwrap();
    assert_eq!(wvp["class"], "matrix_rows");
    assert_eq!(wvp["type"], "float");
    assert_eq!(
        (wvp["rows"].as_u64(), wvp["columns"].as_u64()),
        (Some(4), Some(4))
    );
    let sampler = params
        .iter()
        .find(|p| p["name"] == "TextureSampler")
        .unwrap();
    assert_eq!(sampler["type"], "sampler");
    let vs = params.iter().find(|p| p["name"] == "VSArray").unwrap();
    assert_eq!(
        (vs["type"].as_str(), vs["elements"].as_u64()),
        (Some("vertexshader"), Some(20))
    );
    let states = &v["techniques"][0]["passes"][0]["states"];
    assert_eq!(states[0]["state"], "VertexShader");
    assert_eq!(states[0]["value"]["selector"], "VSArray");
    let shaders = v["shaders"].as_array().unwrap();
    assert_eq!(shaders.len(), 30);
    assert!(shaders.iter().all(|s| s["version"].is_string()
        && s["bytes"].as_u64() > Some(0)
        && s.get("preshader").is_some()));
}

#[test]
fn extract_writes_every_shader() {
    let Some(f) = effect("fna_BasicEffect.fxb") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("dxso-fx-extract-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = dxso(&["fx", "extract", &f, "-o", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let count = |ext: &str| {
        files
            .iter()
            .filter(|p| p.to_str().unwrap().ends_with(ext))
            .count()
    };
    assert_eq!((count(".dxso"), count(".asm")), (30, 30));
    // The bytecode decodes and its listing is Microsoft's.
    let vs = dir.join("10_VSArray_0.vs_2_0.dxso");
    let bytes = std::fs::read(&vs).unwrap();
    assert!(dxso::decode(&bytes).is_ok());
    let asm = std::fs::read_to_string(dir.join("10_VSArray_0.vs_2_0.asm")).unwrap();
    assert!(
        asm.contains("vs_2_0") && asm.contains("// Parameters:"),
        "{asm}"
    );
    let o = dxso(&["fx", "extract", &f]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "extract without -o is a usage error"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn decompile_writes_the_effect_as_fx_source() {
    let Some(f) = effect("fna_BasicEffect.fxb") else {
        return;
    };
    let o = dxso(&["fx", "decompile", &f]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let fx = stdout(&o);
    // Parameters, the shader arrays of compiled functions, and the selector as FNA writes it.
    assert!(fx.contains("float4 DiffuseColor"), "{fx}");
    assert!(
        fx.contains("VertexShader VSArray[20] = { compile vs_2_0 VS"),
        "{fx}"
    );
    assert!(
        fx.contains("VertexShader = (VSArray[VSIndices[ShaderIndex]]);"),
        "{fx}"
    );
    let out = std::env::temp_dir().join(format!("dxso-fx-decompile-{}.fx", std::process::id()));
    let o = dxso(&["fx", "decompile", &f, "-o", out.to_str().unwrap()]);
    assert!(o.status.success());
    assert_eq!(std::fs::read_to_string(&out).unwrap(), fx);
    std::fs::remove_file(&out).unwrap();
}

#[test]
fn eval_sets_parameters_and_fills_registers() {
    let Some(f) = effect("fna_BasicEffect.fxb") else {
        return;
    };
    let o = dxso(&[
        "fx",
        "eval",
        &f,
        "--json",
        "--set",
        "ShaderIndex=1",
        "--set",
        "WorldViewProj=2,0,0,0,0,3,0,0,0,0,4,0,0,0,0,1",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = json(&o);
    assert_eq!(v["technique"], "BasicEffect");
    // ShaderIndex 1 picks VSIndices[1] = 1.
    assert_eq!(v["states"][0]["element"], 1);
    let vs = &v["vertex_shader"];
    assert_eq!(vs["name"], "VSArray[1]");
    let consts = vs["float_constants"].as_array().unwrap();
    assert!(!consts.is_empty());
    // The matrix lands in four consecutive registers, one per column (column-major constant).
    let find = |r: u64| {
        consts
            .iter()
            .find(|c| c["register"] == r)
            .map(|c| c["value"].clone())
    };
    let first = consts
        .iter()
        .find(|c| c["value"][0] == 2.0)
        .expect("a register holding 2");
    let r = first["register"].as_u64().unwrap();
    assert_eq!(
        find(r + 1).unwrap(),
        serde_json::json!([0.0, 3.0, 0.0, 0.0])
    );

    let text = stdout(&dxso(&[
        "fx",
        "eval",
        &f,
        "--pass",
        "0",
        "--technique",
        "BasicEffect",
    ]));
    assert!(
        text.contains("vertex shader #10 vs_2_0 (VSArray[0])"),
        "{text}"
    );

    let bad = dxso(&["fx", "eval", &f, "--set", "ShaderIndex"]);
    assert_eq!(
        bad.status.code(),
        Some(2),
        "a --set without = is a usage error"
    );
    let bad = dxso(&["fx", "eval", &f, "--set", "ShaderIndex=x"]);
    assert_eq!(bad.status.code(), Some(2));
    let bad = dxso(&["fx", "eval", &f, "--set", "NoSuchThing=1"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("NoSuchThing"));
    let bad = dxso(&["fx", "eval", &f, "--technique", "Nope"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("there are: \"BasicEffect\""));
}

#[test]
fn effects_given_to_shader_commands_point_to_fx() {
    let Some(f) = effect("fna_BasicEffect.fxb") else {
        return;
    };
    for cmd in ["info", "disasm"] {
        let o = dxso(&[cmd, &f]);
        assert_eq!(o.status.code(), Some(1));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("dxso fx info") && err.contains("dxso fx extract"),
            "{cmd}: {err}"
        );
    }
    // And shader bytecode given to `dxso fx` says what it is.
    let shader =
        std::env::temp_dir().join(format!("dxso-fx-not-an-effect-{}.dxso", std::process::id()));
    std::fs::write(&shader, [0x00, 0x02, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0]).unwrap();
    let o = dxso(&["fx", "info", shader.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("shader bytecode"));
    std::fs::remove_file(&shader).unwrap();
}

#[test]
fn bad_effects_name_the_offset_and_rule() {
    let bad = std::env::temp_dir().join(format!("dxso-fx-bad-{}.fxb", std::process::id()));
    let words: [u32; 7] = [0xFEFF_0901, 4, 0, 1_000_000, 0, 0, 0];
    std::fs::write(
        &bad,
        words
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let o = dxso(&["fx", "info", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("at byte 0xc") && err.contains("parameters"),
        "{err}"
    );
    std::fs::remove_file(&bad).unwrap();
}
