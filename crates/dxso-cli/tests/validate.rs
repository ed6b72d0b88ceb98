//! `dxso validate`: exit status, human and JSON output.

use dxso::{
    DstParam, Instruction, Item, Opcode, Register, RegisterType, Shader, SrcParam, Swizzle,
};
use dxso::{Version, WriteMask};
use std::path::PathBuf;
use std::process::{Command, Output};

fn dxso(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dxso"))
        .args(args)
        .output()
        .expect("run dxso")
}

/// Writes a ps_2_0 shader `mov oC0, c<n>` to a temp file.
fn ps20_reading_constant(name: &str, n: u16) -> PathBuf {
    let mut shader = Shader::new(Version::ps(2, 0));
    let mut mov = Instruction::new(Opcode::Mov);
    mov.dst = Some(DstParam::new(
        Register::new(RegisterType::ColorOut, 0),
        WriteMask::ALL,
    ));
    mov.srcs
        .push(SrcParam::new(
            Register::new(RegisterType::Const, n),
            Swizzle::IDENTITY,
        ))
        .unwrap();
    shader.items.push(Item::Instruction(mov));
    let path =
        std::env::temp_dir().join(format!("dxso-validate-{}-{name}.dxso", std::process::id()));
    std::fs::write(&path, dxso::encode(&shader)).unwrap();
    path
}

#[test]
fn valid_file_exits_0() {
    let ok = ps20_reading_constant("ok", 31);
    let out = dxso(&["validate", ok.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("ps_2_0: valid (0 errors, 0 warnings)"),
        "{text}"
    );
}

#[test]
fn invalid_file_exits_1_with_rule_offset_and_register() {
    let ok = ps20_reading_constant("ok2", 0);
    let bad = ps20_reading_constant("bad", 32);
    let out = dxso(&["validate", ok.to_str().unwrap(), bad.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    let diagnostics = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{text}");
    // Findings are diagnostics: standard error. Version, mov token, dst: the source is DWORD 3
    // (byte 0xc).
    assert!(
        diagnostics.contains(":dword 3 [0xc]: error[V0204]: ps_2_0 has 32 float constant registers (0-31) (instruction 0, src0 c32)"),
        "{diagnostics}"
    );
    assert!(!text.contains("error[V0204]"), "{text}");
    assert!(text.contains("INVALID (1 error, 0 warnings)"), "{text}");
    // Two inputs: a summary line ends the run.
    assert!(
        diagnostics.ends_with("1 valid, 1 invalid (2 files)\n"),
        "{diagnostics}"
    );
}

#[test]
fn json_output() {
    let bad = ps20_reading_constant("json", 40);
    let out = dxso(&["validate", "--json", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["valid"], false);
    let d = &v["files"][0]["diagnostics"][0];
    assert_eq!(d["rule"], "V0204");
    assert_eq!(d["dword_offset"], 3);
    assert_eq!(d["instruction"], 0);
    assert_eq!(d["operand"], "src0");
    assert_eq!(d["register"], "c40");
}

#[test]
fn usage_errors_exit_2_and_bad_input_exits_1() {
    assert_eq!(dxso(&["validate"]).status.code(), Some(2));
    let junk = std::env::temp_dir().join(format!("dxso-validate-{}-junk.dxso", std::process::id()));
    std::fs::write(&junk, [0x00, 0x02, 0xFF, 0xFF, 1, 2, 3]).unwrap();
    let out = dxso(&["validate", junk.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn rules_table_is_the_documented_one() {
    let out = dxso(&["validate", "--rules"]);
    assert_eq!(out.status.code(), Some(0));
    let doc = include_str!("../../../docs/VALIDATION.md");
    assert!(doc.contains(&*String::from_utf8_lossy(&out.stdout)));
}

#[test]
fn corpus_invalid_shader_is_rejected() {
    let Some(dir) = dxso_corpus::corpus_or_skip("corpus_invalid_shader_is_rejected") else {
        return;
    };
    let bad = dir.join("wine/d3d9_device__test_unsupported_shaders__ps_3_224.invalid.dxso");
    let good = dir.join("bgfx/fs_update.dxso");
    let out = dxso(&["validate", good.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let out = dxso(&["validate", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("error[V0204]"));
}

#[test]
fn disasm_validate_shows_findings_under_their_instruction() {
    let bad = ps20_reading_constant("disasm-bad", 40);
    let out = dxso(&["disasm", "--validate", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    let mov = lines
        .iter()
        .position(|l| l.trim_start().starts_with("mov oC0, c40"))
        .expect("the instruction line");
    assert!(
        lines[mov + 1].contains("// error[V0204]") && lines[mov + 1].contains("c40"),
        "{text}"
    );
    let good = ps20_reading_constant("disasm-good", 3);
    let out = dxso(&["disasm", "--validate", good.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("error["));
}
