//! Inputs and messages: every command tells the kind of its input from the bytes and names the
//! command that reads it; header errors name the line and the value; the assembler takes text
//! as editors save it, `-I`, validates by default and writes headers and listings as fxc does.

mod common;

use common::{run, scratch, text};
use std::path::Path;

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
        .display()
        .to_string()
}

const PS: &str = "ps_2_0\ndcl t0.xy\nmov oC0, t0\n";

fn bytes_of(asm: &str) -> Vec<u8> {
    let out = run(
        &["asm", "-", "-o", "-", "--no-validate"],
        Some(asm.as_bytes()),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    out.stdout
}

/// Runs `args` expecting exit 1 and an error that contains every one of `want`.
fn fails_with(args: &[&str], stdin: Option<&[u8]>, want: &[&str]) {
    let out = run(args, stdin);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    for w in want {
        assert!(err.contains(w), "{args:?}: expected `{w}` in: {err}");
    }
}

#[test]
fn a_command_given_the_wrong_kind_names_the_one_that_reads_it() {
    let dir = scratch("kinds");
    let asm = dir.join("x.asm");
    std::fs::write(&asm, PS).unwrap();
    let dxso = dir.join("x.dxso");
    std::fs::write(&dxso, bytes_of(PS)).unwrap();
    let effect = dir.join("x.fxo");
    std::fs::write(&effect, [0x01, 0x09, 0xFF, 0xFE, 0, 0, 0, 0]).unwrap();
    let dp2 = dir.join("x.dp2");
    let out = run(
        &[
            "dp2",
            "build",
            &data("cache_cases.json"),
            "-o",
            dp2.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (asm, dxso, effect, dp2) = (
        asm.to_str().unwrap(),
        dxso.to_str().unwrap(),
        effect.to_str().unwrap(),
        dp2.to_str().unwrap(),
    );
    fails_with(
        &["dump", asm],
        None,
        &["x.asm is assembly text; use `dxso asm`"],
    );
    fails_with(&["info", asm], None, &["is assembly text; use `dxso asm`"]);
    fails_with(
        &["asm", dxso],
        None,
        &["x.dxso is shader bytecode; use `dxso disasm`"],
    );
    for cmd in ["disasm", "validate", "info", "dump"] {
        fails_with(
            &[cmd, effect],
            None,
            &["x.fxo is an fx_2_0 effect; use `dxso fx info`"],
        );
    }
    fails_with(
        &["disasm", dp2],
        None,
        &["is a .dp2 capture; use `dxso dp2 dump`"],
    );
    fails_with(&["dp2", "build", dp2], None, &["is a .dp2 capture"]);
    fails_with(
        &["tessellate", dp2],
        None,
        &["use `dxso dp2 dump` or `dxso dp2 run`"],
    );
    fails_with(
        &["tessellate", &data("cache_cases.json")],
        None,
        &["is a DP2 JSON description; use `dxso dp2 build`"],
    );
    fails_with(
        &["dp2", "run", &data("bspline_patch.json")],
        None,
        &["is a patch JSON description; use `dxso tessellate`"],
    );
    // disasm and validate read assembly text (assembled first).
    let out = run(&["disasm", asm], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("    mov oC0, t0"));
    let out = run(&["validate", asm], None);
    assert!(
        text(&out.stdout).contains("ps_2_0: valid"),
        "{}",
        text(&out.stdout)
    );
    // The JSON error says what the input is.
    let out = run(&["dump", "--json", asm], None);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["kind"], "wrong_input_kind");
    assert_eq!(v["error"]["input_kind"], "assembly");
}

#[test]
fn header_errors_name_the_line_the_value_and_the_arrays() {
    let ps: Vec<String> = bytes_of(PS).iter().map(|b| b.to_string()).collect();
    let header = format!(
        "#if 0\n    ps_2_0\n#endif\n\nconst BYTE g_ps20_main[] =\n{{\n    {}\n}};\n\nconst BYTE g_bad[] = {{\n  0, 2,\n  999 }};\n",
        ps.join(", ")
    );
    let dir = scratch("header");
    let h = dir.join("x.h");
    std::fs::write(&h, header).unwrap();
    let h = h.to_str().unwrap();
    fails_with(
        &["info", h, "--name", "g_bad"],
        None,
        &["x.h: line 12: array `g_bad`, element 2: 999 is not a byte (0-255)"],
    );
    fails_with(
        &["disasm", h, "--name", "g_vs"],
        None,
        &[
            "no array named `g_vs`; the header has `g_ps20_main (BYTE, line 5)`, \
             `g_bad (BYTE, line 10)`",
        ],
    );
    // --name is shared by every command that reads headers, validate and disasm --validate too.
    let out = run(&["validate", h, "--name", "g_ps20_main"], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = run(
        &[
            "disasm",
            "--validate",
            h,
            "--name",
            "g_ps20_main",
            "--max-vertex-constants",
            "512",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // --name on raw bytecode is a usage error.
    let out = run(&["info", "-", "--name", "g"], Some(&bytes_of(PS)));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

#[test]
fn assembly_with_a_byte_order_mark_and_crlf_assembles() {
    let want = bytes_of(PS);
    let crlf = format!("\u{feff}{}", PS.replace('\n', "\r\n"));
    let dir = scratch("bom");
    let file = dir.join("win.asm");
    std::fs::write(&file, &crlf).unwrap();
    let out = run(&["asm", file.to_str().unwrap(), "-o", "-"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(out.stdout, want);
    let out = run(&["asm", "-o", "-"], Some(crlf.as_bytes()));
    assert_eq!(out.stdout, want, "{}", text(&out.stderr));
}

#[test]
fn include_folders_are_searched() {
    let dir = scratch("include");
    std::fs::create_dir_all(dir.join("inc")).unwrap();
    std::fs::write(dir.join("inc/body.inc"), "mov oC0, t0\n").unwrap();
    let main = dir.join("main.asm");
    std::fs::write(&main, "ps_2_0\ndcl t0.xy\n#include \"body.inc\"\n").unwrap();
    let main = main.to_str().unwrap();
    let out = run(&["asm", main, "-o", "-"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("include_not_found"),
        "{}",
        text(&out.stderr)
    );
    let inc = dir.join("inc");
    let out = run(&["asm", main, "-I", inc.to_str().unwrap(), "-o", "-"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(out.stdout, bytes_of(PS));
}

#[test]
fn asm_validates_by_default() {
    let dir = scratch("validate");
    let out_file = dir.join("bad.dxso");
    let out = run(
        &["asm", "-", "-o", out_file.to_str().unwrap()],
        Some(b"ps_2_0\nmov oC0, c40\n"),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("error[V0204]") && err.contains("nothing written"),
        "{err}"
    );
    assert!(!out_file.exists());
    let out = run(
        &[
            "asm",
            "-",
            "-o",
            out_file.to_str().unwrap(),
            "--no-validate",
        ],
        Some(b"ps_2_0\nmov oC0, c40\n"),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out_file.is_file());
    // Warnings are printed and the shader is written.
    let out = run(&["asm", "-", "-o", "-"], Some(b"ps_2_0\nmov oC0, r0\n"));
    assert!(out.status.success());
    assert!(
        text(&out.stderr).contains("warning[V0603]"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn headers_in_dwords_and_a_listing_in_one_run() {
    let dir = scratch("formats");
    let h = dir.join("ps.h");
    let lst = dir.join("ps.lst");
    let bin = dir.join("ps.dxso");
    let out = run(
        &[
            "asm",
            "-",
            "--format",
            "header-dwords",
            "--name",
            "g_ps",
            "-o",
            h.to_str().unwrap(),
        ],
        Some(PS.as_bytes()),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let header = std::fs::read_to_string(&h).unwrap();
    assert!(
        header.contains("const DWORD g_ps[] =\n{\n    0xffff0200,"),
        "{header}"
    );
    // The header reads back.
    let out = run(&["reencode", h.to_str().unwrap(), "-o", "-"], None);
    assert_eq!(out.stdout, bytes_of(PS));
    let out = run(
        &[
            "asm",
            "-",
            "-o",
            bin.to_str().unwrap(),
            "--listing",
            lst.to_str().unwrap(),
        ],
        Some(PS.as_bytes()),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&bin).unwrap(), bytes_of(PS));
    let listing = std::fs::read_to_string(&lst).unwrap();
    assert!(
        listing.starts_with("    ps_2_0\n    dcl t0.xy\n"),
        "{listing}"
    );
}

#[test]
fn tessellate_segments_apply_and_negative_numbers_parse() {
    let patch = data("bspline_patch.json");
    let count = |args: &[&str]| {
        let out = run(args, None);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        text(&out.stdout)
    };
    let default = count(&["tessellate", &patch]);
    let sixteen = count(&["tessellate", &patch, "--segments", "16"]);
    let vertices = |s: &str| -> u32 { s.split_whitespace().next().unwrap().parse().unwrap() };
    assert!(
        vertices(&sixteen) > vertices(&default),
        "--segments 16 was ignored: {default} vs {sixteen}"
    );
    // Below 1 tessellates as 1, as in Direct3D; a negative number is a value, not a flag.
    let one = count(&["tessellate", &patch, "--segments", "1"]);
    assert_eq!(count(&["tessellate", &patch, "--segments", "-3"]), one);
}

#[test]
fn dp2_dump_speaks_the_words_dp2_build_reads() {
    let out = run(&["dp2", "dump", &data("cache_cases.json")], None);
    let dump = text(&out.stdout);
    assert!(dump.contains("state PATCHSEGMENTS float 4"), "{dump}");
    assert!(
        dump.contains("type FLOAT3 method CROSSUV usage NORMAL"),
        "{dump}"
    );
    assert!(
        !dump.contains("Some(") && !dump.contains("RectPatchInfo"),
        "{dump}"
    );
    // --json is a description dp2 build reads back to the same capture.
    let dir = scratch("dp2");
    let (a, b) = (dir.join("a.dp2"), dir.join("b.dp2"));
    run(
        &[
            "dp2",
            "build",
            &data("cache_cases.json"),
            "-o",
            a.to_str().unwrap(),
        ],
        None,
    );
    let json = run(&["dp2", "dump", "--json", a.to_str().unwrap()], None).stdout;
    let out = run(
        &["dp2", "build", "-", "-o", b.to_str().unwrap()],
        Some(&json),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

#[test]
fn disasm_then_asm_gives_back_the_constant_table() {
    let header = "//\n// Generated by Microsoft (R) HLSL Shader Compiler 9.29.952.3111\n//\n// Parameters:\n//\n//   sampler2D tex;\n//   float4 tint;\n//\n//\n// Registers:\n//\n//   Name         Reg   Size\n//   ------------ ----- ----\n//   tint         c0       1\n//   tex          s0       1\n//\n\n";
    let source = format!("{header}    ps_2_0\n    dcl t0.xy\n    dcl_2d s0\n    texld r0, t0, s0\n    mul r0, r0, c0\n    mov oC0, r0\n");
    let first = run(&["asm", "-", "-o", "-"], Some(source.as_bytes()));
    assert!(first.status.success(), "{}", text(&first.stderr));
    let out = run(&["info", "--json"], Some(&first.stdout));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ctab = &v["files"][0]["ctab"];
    assert_eq!(
        ctab["creator"], "Microsoft (R) HLSL Shader Compiler 9.29.952.3111",
        "{v}"
    );
    assert_eq!(ctab["constants"][0]["name"], "tex", "{v}");
    assert_eq!(ctab["constants"][0]["register"], "s0", "{v}");
    assert_eq!(ctab["constants"][1]["register"], "c0", "{v}");
    // disasm | asm gives back the same bytes, CTAB included.
    let listing = run(&["disasm", "-"], Some(&first.stdout)).stdout;
    assert!(text(&listing).starts_with(header), "{}", text(&listing));
    let again = run(&["asm", "-", "-o", "-"], Some(&listing));
    assert_eq!(again.stdout, first.stdout);
}

#[test]
fn asm_never_overwrites_its_own_text_and_speaks_json() {
    let dir = scratch("overwrite");
    let src = dir.join("x.asm");
    std::fs::write(&src, PS).unwrap();
    let src = src.to_str().unwrap();
    // With validation, and without (where the text goes straight to bytes).
    for extra in [None, Some("--no-validate")] {
        let mut args = vec!["asm", src, "-o", src];
        args.extend(extra);
        let out = run(&args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains("never writes over its input"),
            "{}",
            text(&out.stderr)
        );
        assert_eq!(std::fs::read_to_string(src).unwrap(), PS);
    }
    // Under --json the validator's findings are in the run's one document on standard output,
    // beside the bytecode (as hex: the document holds what standard output would have),
    // with the line and column of the instruction.
    let out = run(
        &["asm", "--json", "-", "-o", "-"],
        Some(b"ps_2_0\nmov oC0, r0\n"),
    );
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["command"], "asm", "{v}");
    let finding = &v["validation"]["diagnostics"][0];
    assert_eq!(finding["rule"], "V0603", "{v}");
    assert_eq!(
        (finding["line"].as_u64(), finding["column"].as_u64()),
        (Some(2), Some(1))
    );
    assert!(
        v["output_hex"].as_str().unwrap().starts_with("0002ffff"),
        "{v}"
    );
}

/// `--no-validate` with raw output assembles straight to bytes (`dxso_text::assemble`): the
/// same bytes as the validating run and the same errors (and the same refusal to overwrite the
/// input: `asm_never_overwrites_its_own_text_and_speaks_json`).
#[test]
fn asm_without_validation_gives_the_same_bytes_and_errors() {
    let listing = "//\n// Generated by X\n//\n// Parameters:\n//\n//   float4 tint;\n//\n//\n\
                   // Registers:\n//\n//   Name Reg Size\n//   ---- --- ----\n//   tint c0     1\n//\n\
                   \n    ps_2_0\n    dcl t0.xy\n    mul r0, t0, c0\n    mov oC0, r0\n";
    let validated = run(&["asm", "-", "-o", "-"], Some(listing.as_bytes()));
    assert!(validated.status.success(), "{}", text(&validated.stderr));
    assert_eq!(bytes_of(listing), validated.stdout);
    for bad in ["ps_2_0\nmov oC0, q0\n", "ps_2_0\n#if\n"] {
        let a = run(&["asm", "-", "-o", "-"], Some(bad.as_bytes()));
        let b = run(
            &["asm", "-", "-o", "-", "--no-validate"],
            Some(bad.as_bytes()),
        );
        assert_eq!(a.status.code(), Some(1), "{bad}");
        assert_eq!(b.status.code(), Some(1), "{bad}");
        assert_eq!(text(&a.stderr), text(&b.stderr), "{bad}");
    }
}
