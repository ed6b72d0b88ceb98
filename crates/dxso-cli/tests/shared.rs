//! The behaviour every subcommand shares, run against the built binary: closed pipes, `-` and
//! a missing FILE, `-o -`, binary refused on a terminal, several inputs with a summary, colour
//! only on a terminal, `--json` errors, input-kind messages, completions and man pages.

mod common;

use common::{assemble, bin, run, scratch, text};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

const PS: &str = "ps_2_0\ndcl t0.xy\nmov oC0, t0\n";
/// Reads c40, which ps_2_0 does not have.
const PS_BAD: &str = "ps_2_0\nmov oC0, c40\n";

/// Runs `args` with standard output read one line at a time and then closed; returns the
/// status and standard error.
fn close_after_first_line(args: &[&str]) -> (Option<i32>, String) {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(!first.is_empty(), "{args:?} printed nothing");
    // The reader is dropped here: the pipe is closed while dxso still writes.
    let out = child.wait_with_output().unwrap();
    (out.status.code(), text(&out.stderr))
}

#[test]
fn closed_pipe_ends_quietly_with_status_141() {
    let dir = scratch("pipe");
    // A dump much longer than a pipe buffer.
    let big = format!("vs_2_0\n{}", "nop\n".repeat(40_000));
    let shader = dir.join("big.dxso");
    std::fs::write(&shader, assemble(&big)).unwrap();
    for args in [
        vec!["dump", shader.to_str().unwrap()],
        vec!["disasm", shader.to_str().unwrap()],
        vec!["tessellate", "--teapot", "--segments", "32", "-o", "-"],
    ] {
        let (status, stderr) = close_after_first_line(&args);
        assert_eq!(status, Some(141), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?} said: {stderr}");
    }
}

#[test]
fn dash_and_missing_file_read_standard_input() {
    let ps = assemble(PS);
    for args in [
        vec!["info", "-"],
        vec!["info"],
        vec!["dump"],
        vec!["disasm"],
    ] {
        let out = run(&args, Some(&ps));
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        assert!(text(&out.stdout).contains("ps_2_0"), "{args:?}");
    }
    let desc =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cache_cases.json"))
            .unwrap();
    let out = run(&["dp2", "build", "-", "-o", "-"], Some(&desc));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stdout.starts_with(b"DP2F"));
    let patch =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bspline_patch.json"))
            .unwrap();
    let out = run(&["tessellate", "-"], Some(&patch));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("triangles"));
    // No FILE and nothing piped in: a usage error.
    let out = run(&["info"], None);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("standard input is empty"));
}

#[test]
fn dash_o_means_standard_output_everywhere() {
    let dir = scratch("dash-o");
    let desc = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cache_cases.json");
    let ps = dir.join("ps.dxso");
    std::fs::write(&ps, assemble(PS)).unwrap();
    let asm = dir.join("ps.asm");
    std::fs::write(&asm, PS).unwrap();
    let cases: Vec<(Vec<&str>, &[u8])> = vec![
        (
            vec!["dp2", "build", desc.to_str().unwrap(), "-o", "-"],
            b"DP2F",
        ),
        (vec!["tessellate", "--teapot", "-o", "-"], b"# "),
        (
            vec!["reencode", ps.to_str().unwrap(), "-o", "-"],
            &[0, 2, 0xFF, 0xFF],
        ),
        (
            vec!["asm", asm.to_str().unwrap(), "-o", "-"],
            &[0, 2, 0xFF, 0xFF],
        ),
        (
            vec!["disasm", ps.to_str().unwrap(), "-o", "-"],
            b"    ps_2_0",
        ),
    ];
    for (args, start) in cases {
        let out = bin().args(&args).current_dir(&dir).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        assert!(
            out.stdout.starts_with(start),
            "{args:?}: {:?}",
            &out.stdout[..out.stdout.len().min(16)]
        );
        assert!(!dir.join("-").exists(), "{args:?} wrote a file named -");
    }
    // Binary output with no -o goes to a pipe as it is.
    let out = run(&["reencode", ps.to_str().unwrap()], None);
    assert_eq!(out.stdout, std::fs::read(&ps).unwrap());
}

/// Runs a shell command line under a pseudo-terminal (`script`), returning what the terminal
/// showed; `None` when `script` is not installed.
fn on_terminal(command: &str, env: &[(&str, &str)]) -> Option<(String, i32)> {
    let mut c = Command::new("script");
    c.args(["-qec", command, "/dev/null"])
        .env_remove("NO_COLOR")
        .stdin(Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    match c.output() {
        Ok(out) => {
            let code = out.status.code().unwrap_or(-1);
            Some((text(&out.stdout), code))
        }
        Err(_) => {
            eprintln!("`script` (util-linux) is not installed: terminal checks skipped");
            None
        }
    }
}

#[test]
fn binary_output_is_refused_on_a_terminal_unless_dash_o_dash() {
    let dir = scratch("terminal");
    let ps = dir.join("ps.dxso");
    std::fs::write(&ps, assemble(PS)).unwrap();
    let exe = env!("CARGO_BIN_EXE_dxso");
    let Some((screen, code)) = on_terminal(&format!("{exe} reencode {}", ps.display()), &[]) else {
        return;
    };
    assert_eq!(code, 2, "{screen}");
    assert!(
        screen.contains("refusing to write binary output to a terminal") && screen.contains("-o -"),
        "{screen}"
    );
    let (screen, code) =
        on_terminal(&format!("{exe} reencode {} -o -", ps.display()), &[]).unwrap();
    assert_eq!(code, 0, "{screen}");
}

#[test]
fn colour_only_on_a_terminal_and_never_with_no_color() {
    let dir = scratch("colour");
    let bad = dir.join("bad.dxso");
    std::fs::write(&bad, assemble(PS_BAD)).unwrap();
    let bad = bad.to_str().unwrap();
    // Piped: plain text.
    let out = run(&["validate", bad], None);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("error[V0204]") && !err.contains('\x1b'),
        "{err:?}"
    );
    // Asked for: colour even when piped.
    let out = run(&["validate", "--color", "always", bad], None);
    assert!(
        text(&out.stderr).contains("\x1b["),
        "{:?}",
        text(&out.stderr)
    );
    // miette's report: ASCII art when piped, no escapes.
    let out = run(&["asm", "-", "-o", "-"], Some(b"ps_2_0\nmvo r0, r1\n"));
    let err = text(&out.stderr);
    assert!(err.contains("unknown_mnemonic") && err.is_ascii(), "{err}");
    // On a terminal: colour, unless NO_COLOR is set or --color never.
    let exe = env!("CARGO_BIN_EXE_dxso");
    let Some((screen, _)) = on_terminal(&format!("{exe} validate {bad}"), &[]) else {
        return;
    };
    assert!(screen.contains("\x1b["), "{screen:?}");
    let (screen, _) = on_terminal(&format!("{exe} validate {bad}"), &[("NO_COLOR", "1")]).unwrap();
    assert!(!screen.contains("\x1b["), "{screen:?}");
    let (screen, _) = on_terminal(&format!("{exe} validate --color never {bad}"), &[]).unwrap();
    assert!(!screen.contains("\x1b["), "{screen:?}");
}

#[test]
fn several_inputs_folders_and_a_summary() {
    let dir = scratch("several");
    let shaders = dir.join("shaders");
    std::fs::create_dir_all(shaders.join("sub")).unwrap();
    std::fs::write(shaders.join("a.dxso"), assemble(PS)).unwrap();
    std::fs::write(shaders.join("sub/b.dxso"), assemble(PS_BAD)).unwrap();
    std::fs::write(shaders.join("c.asm"), PS).unwrap();
    std::fs::write(shaders.join("notes.txt"), "not a shader").unwrap();
    let folder = shaders.to_str().unwrap();

    let out = run(&["validate", folder], None);
    assert_eq!(out.status.code(), Some(1));
    let report = text(&out.stdout);
    assert_eq!(report.lines().count(), 3, "{report}");
    assert!(
        text(&out.stderr).ends_with("2 valid, 1 invalid (3 files)\n"),
        "{}",
        text(&out.stderr)
    );
    // --quiet: only what failed.
    let out = run(&["validate", "--quiet", folder], None);
    assert_eq!(
        text(&out.stdout).lines().count(),
        1,
        "{}",
        text(&out.stdout)
    );
    assert!(!text(&out.stderr).contains("files)"));

    // disasm and reencode write one file per input under -o DIR, mirroring the folder.
    let listings = dir.join("listings");
    let out = run(&["disasm", folder, "-o", listings.to_str().unwrap()], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for f in ["a.asm", "sub/b.asm", "c.asm"] {
        assert!(listings.join(f).is_file(), "{f} missing");
    }
    let copies = dir.join("copies");
    let out = run(&["reencode", folder, "-o", copies.to_str().unwrap()], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read(copies.join("sub/b.dxso")).unwrap(),
        std::fs::read(shaders.join("sub/b.dxso")).unwrap()
    );
    assert!(
        text(&out.stderr).contains("2 re-encoded, 0 failed (2 files)"),
        "{}",
        text(&out.stderr)
    );
    // Several binaries cannot share standard output.
    let out = run(&["reencode", folder, "-o", "-"], None);
    assert_eq!(out.status.code(), Some(2));
    // info over several files: one JSON value.
    let out = run(&["info", "--json", folder], None);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["files"].as_array().unwrap().len(), 2, "{v}");
    assert_eq!(v["summary"]["read"], 2, "{v}");
}

#[test]
fn json_puts_one_document_on_standard_output_errors_included() {
    let dir = scratch("json");
    let missing = dir.join("missing.dxso");
    // A file that cannot be read: an I/O error (exit 2), the error in the document.
    let out = run(&["dump", "--json", missing.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["command"], "dump");
    assert_eq!(v["error"]["kind"], "io");
    assert_eq!(v["error"]["exit_status"], 2);
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("missing.dxso"));
    // The human message stays on standard error.
    assert!(
        text(&out.stderr).starts_with("error: reading"),
        "{}",
        text(&out.stderr)
    );

    let out = run(
        &["asm", "--json", "-", "-o", "-"],
        Some(b"vs_2_0\nmvo r0, r1\n"),
    );
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["kind"], "assembly");
    let d = &v["error"]["diagnostics"][0];
    assert_eq!(d["code"], "dxso::asm::unknown_mnemonic");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(2), Some(1))
    );

    // Commands that print listings or bytecode over several inputs list the unreadable ones in
    // the document's `errors`, and the batch ends as one input would (exit 2 for I/O).
    for command in ["disasm", "reencode"] {
        let out = run(&[command, "--json", missing.to_str().unwrap()], None);
        assert_eq!(out.status.code(), Some(2), "{command}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["errors"][0]["error"]["kind"], "io", "{command}: {v}");
        assert_eq!(
            v["errors"][0]["file"],
            missing.to_str().unwrap(),
            "{command}"
        );
    }
    // A listing is the document's `output`.
    let ps = dir.join("listed.dxso");
    std::fs::write(&ps, assemble(PS)).unwrap();
    let out = run(&["disasm", "--json", ps.to_str().unwrap()], None);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["output"].as_str().unwrap().contains("ps_2_0"), "{v}");

    let out = run(&["info", "--json", "--no-such-flag"], None);
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["kind"], "usage");

    // Reports are one JSON value on standard output; one line when piped.
    let ps = dir.join("ps.dxso");
    std::fs::write(&ps, assemble(PS)).unwrap();
    let out = run(&["validate", "--json", ps.to_str().unwrap()], None);
    assert_eq!(text(&out.stdout).lines().count(), 1);
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let out = run(&["validate", "--rules", "--json"], None);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["rules"][0]["id"], "V0101");
}

#[test]
fn offsets_print_the_same_in_dump_and_dp2_dump() {
    let out = run(&["dump"], Some(&assemble(PS)));
    let first = text(&out.stdout);
    assert!(
        first.starts_with("0x000000 | ffff0200 | version ps_2_0"),
        "{first}"
    );
    let desc = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cache_cases.json");
    let out = run(&["dp2", "dump", desc.to_str().unwrap()], None);
    assert!(
        text(&out.stdout).contains("\n0x000024  SETVERTEXSHADERDECL"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn verbose_says_what_was_read() {
    let out = run(&["info", "-v"], Some(&assemble(PS)));
    let err = text(&out.stderr);
    assert!(
        err.contains("read <stdin>: 32 bytes, shader bytecode"),
        "{err}"
    );
    let out = run(&["info"], Some(&assemble(PS)));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

#[test]
fn completions_and_man_pages_come_from_the_binary() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let out = run(&["completions", shell], None);
        assert!(out.status.success(), "{shell}");
        assert!(text(&out.stdout).contains("disasm"), "{shell}");
    }
    let out = run(&["manpage"], None);
    assert!(
        text(&out.stdout).starts_with(".ie"),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stdout).contains("validate"));
    let dir = scratch("man");
    let out = run(&["manpage", "--dir", dir.to_str().unwrap()], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for page in ["dxso.1", "dxso-info.1", "dxso-dp2-run.1"] {
        assert!(dir.join(page).is_file(), "{page} missing");
    }
}
