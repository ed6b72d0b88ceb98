//! `dxso disasm` and `dxso asm` as a user runs them: files, stdin/stdout, exit status.

mod common;

fn run_with_stdin(args: &[&str], stdin: &[u8]) -> std::process::Output {
    common::run(args, Some(stdin))
}

#[test]
fn asm_then_disasm_through_pipes() {
    let asm = run_with_stdin(
        &["asm", "-", "-o", "-"],
        b"vs_1_1\ndcl_position v0\nmov oPos, v0\n",
    );
    assert!(
        asm.status.success(),
        "{}",
        String::from_utf8_lossy(&asm.stderr)
    );
    let disasm = run_with_stdin(&["disasm", "-"], &asm.stdout);
    assert!(disasm.status.success());
    let text = String::from_utf8(disasm.stdout).unwrap();
    assert_eq!(
        text,
        "    vs_1_1\n    dcl_position v0\n    mov oPos, v0\n\n// approximately 1 instruction slot used\n"
    );
}

#[test]
fn disasm_options_show_offsets_and_hex() {
    let asm = run_with_stdin(&["asm", "-", "-o", "-"], b"ps_2_0\nmov oC0, c0\n");
    let out = run_with_stdin(
        &[
            "disasm",
            "-",
            "--no-header",
            "--no-footer",
            "--offsets",
            "--hex",
        ],
        &asm.stdout,
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("mov oC0, c0"), "{text}");
    assert!(
        text.contains("// 0001: 02000001 800f0800 a0e40000"),
        "{text}"
    );
}

#[test]
fn bad_assembly_exits_1_with_every_diagnostic() {
    let out = run_with_stdin(
        &["asm", "-", "-o", "-"],
        b"vs_2_0\nmvo r0, r1\nmov r0, t0\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("dxso::asm::unknown_mnemonic"), "{err}");
    assert!(err.contains("dxso::asm::register_not_in_version"), "{err}");
    assert!(err.contains("2 error(s)"), "{err}");
}

#[test]
fn header_format_is_a_c_array() {
    let out = run_with_stdin(
        &[
            "asm", "-", "-o", "-", "--format", "header", "--name", "g_ps",
        ],
        b"ps_2_0\nmov oC0, c0\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("#if 0\n    ps_2_0\n"), "{text}");
    assert!(
        text.contains("const BYTE g_ps[] =\n{\n      0,   2, 255, 255,"),
        "{text}"
    );
}

#[test]
fn undecodable_input_exits_1() {
    let out = run_with_stdin(&["disasm", "-"], &[0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(out.status.code(), Some(1));
}
