//! `dxso info` and `dxso disasm` on a shader with a DBUG block (a DirectXTK /Zi build from the
//! corpus; skipped without the corpus).

use std::process::Command;

const SHADER: &str = "directxtk-level9/AlphaTestEffect_PSAlphaTestEqNe.dxso";

fn dxso(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dxso"))
        .args(args)
        .output()
        .expect("run dxso");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
    )
}

fn shader_path(test: &str) -> Option<String> {
    let dir = dxso_corpus::corpus_or_skip(test)?;
    Some(dir.join(SHADER).to_str().unwrap().to_string())
}

#[test]
fn info_summarises_the_debug_table() {
    let Some(path) = shader_path("info_summarises_the_debug_table") else {
        return;
    };
    let (code, text) = dxso(&["info", &path]);
    assert_eq!(code, 0);
    for want in [
        "dbug:         2 file(s), 10 of 14 instructions with a source line, 4 variable(s), entry PSAlphaTestEqNe, creator \"Microsoft (R) HLSL Shader Compiler 10.1\"",
        "  D:\\Microsoft\\DirectXTK\\Src\\Shaders\\AlphaTestEffect.fx: lines 111-113 (2 distinct, 7 instruction(s))",
        "  D:\\Microsoft\\DirectXTK\\Src\\Shaders\\Common.fxh: line 18 (1 distinct, 3 instruction(s))",
        "  ApplyFog::color                  float4                   1 write(s)",
        "  pin                              struct { float4 Diffuse; float4 Specular; float2 TexCoord; } 3 write(s)",
    ] {
        assert!(text.lines().any(|l| l == want), "missing {want:?} in\n{text}");
    }
    assert!(!text.contains("does not match"), "{text}");
}

#[test]
fn info_json_has_every_record() {
    let Some(path) = shader_path("info_json_has_every_record") else {
        return;
    };
    let (code, text) = dxso(&["info", &path, "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let d = &v["files"][0]["dbug"];
    assert_eq!(d["entry_point"], "PSAlphaTestEqNe");
    assert_eq!(d["instructions"].as_array().unwrap().len(), 14);
    assert_eq!(d["instructions"][4]["line"], 111);
    assert_eq!(d["instructions"][4]["file"], 0);
    assert_eq!(d["instructions"][0]["file"], serde_json::Value::Null);
    assert_eq!(d["files"][0]["lines"], serde_json::json!([111, 113]));
    assert_eq!(d["mismatch"], serde_json::Value::Null);
    let pin = &d["variables"][3];
    assert_eq!(pin["listing_name"], "pin");
    assert_eq!(pin["scope"], "PSAlphaTestEqNe");
    assert_eq!(pin["type_info"]["members"][2][0], "TexCoord");
    assert_eq!(
        pin["writes"][2],
        serde_json::json!({"instruction": 2, "components": [8, 9, null, null]})
    );
}

#[test]
fn disasm_prints_debug_lines_unless_told_not_to() {
    let Some(path) = shader_path("disasm_prints_debug_lines_unless_told_not_to") else {
        return;
    };
    let (code, text) = dxso(&["disasm", &path]);
    assert_eq!(code, 0);
    assert!(
        text.contains(
            "    dcl_2d s0\n\n#line 111 \"D:\\Microsoft\\DirectXTK\\Src\\Shaders\\AlphaTestEffect.fx\"\n    texld r0, t2, s0\n"
        ),
        "{text}"
    );
    assert!(text.contains("    dcl t2.xy  // pin<8,9>\n"), "{text}");
    let (code, plain) = dxso(&["disasm", &path, "--no-debug"]);
    assert_eq!(code, 0);
    assert!(
        !plain.contains("#line") && !plain.contains("pin<"),
        "{plain}"
    );
    assert!(plain.contains("    dcl t2.xy\n"), "{plain}");
}
