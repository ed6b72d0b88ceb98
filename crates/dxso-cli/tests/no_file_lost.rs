//! No file is lost: every command decides the files it writes before writing one, and refuses
//! (exit 2, nothing written) two inputs that map to one output, an output that is one of its
//! inputs, and existing files without `--force`; `-o -` is standard output everywhere.

mod common;

use common::{run, scratch, text};
use std::path::Path;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/");
const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cmd/data/");

fn copy(from: &str, to: &Path) {
    std::fs::copy(from, to).unwrap_or_else(|e| panic!("{from}: {e}"));
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Every file under `dir` with its bytes, in order.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((p.display().to_string(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_batch_over_existing_outputs_changes_nothing_without_force() {
    let dir = scratch("existing-outputs");
    let (inputs, out) = (dir.join("in"), dir.join("out"));
    std::fs::create_dir_all(&inputs).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    copy(
        &format!("{CORPUS}fna/AlphaTestEffect_04_vs.dxso"),
        &inputs.join("a.dxso"),
    );
    copy(
        &format!("{CORPUS}fna/AlphaTestEffect_00_ps.dxso"),
        &inputs.join("b.dxso"),
    );
    // One output exists (a user's edit), one does not: neither may be written.
    std::fs::write(out.join("a.asm"), "my edits\n").unwrap();
    std::fs::write(out.join("a.dxso"), "my bytes\n").unwrap();
    let before = contents(&dir);
    for args in [
        vec!["disasm", s(&inputs), "-o", s(&out)],
        vec!["reencode", s(&inputs), "-o", s(&out)],
    ] {
        let o = run(&args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        let err = text(&o.stderr);
        assert!(err.contains("already") && err.contains("--force"), "{err}");
        assert!(
            err.contains(&format!("{}", out.join("a.").display())),
            "{err}"
        );
        assert_eq!(contents(&dir), before, "{args:?} changed a file");
    }
    let o = run(&["disasm", s(&inputs), "-o", s(&out), "--force"], None);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let listing = std::fs::read_to_string(out.join("a.asm")).unwrap();
    assert!(listing.contains("vs_2_0"), "{listing}");
    assert!(out.join("b.asm").is_file());
}

#[test]
fn two_inputs_that_map_to_one_output_are_refused() {
    let dir = scratch("one-output");
    let (inputs, out) = (dir.join("in"), dir.join("out"));
    std::fs::create_dir_all(&inputs).unwrap();
    copy(
        &format!("{CORPUS}fna/AlphaTestEffect_04_vs.dxso"),
        &inputs.join("x.dxso"),
    );
    copy(
        &format!("{CORPUS}fna/AlphaTestEffect_00_ps.dxso"),
        &inputs.join("x.pso"),
    );
    for (cmd, ext) in [("disasm", "asm"), ("reencode", "dxso")] {
        let o = run(&[cmd, s(&inputs), "-o", s(&out)], None);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {}", text(&o.stderr));
        let err = text(&o.stderr);
        assert!(
            err.contains("x.dxso") && err.contains("x.pso") && err.contains(&format!("x.{ext}")),
            "{err}"
        );
        assert!(!out.exists(), "{cmd} wrote before refusing");
    }
}

#[test]
fn no_command_writes_over_its_own_input() {
    let dir = scratch("own-input");
    let shader = dir.join("z.dxso");
    copy(&format!("{CORPUS}fna/AlphaTestEffect_04_vs.dxso"), &shader);
    let text_in = dir.join("z.asm");
    std::fs::write(&text_in, "vs_2_0\nmov oPos, v0\n").unwrap();
    let json = dir.join("g.json");
    copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/cache_cases.json"),
        &json,
    );
    let patch = dir.join("p.json");
    copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/bspline_patch.json"),
        &patch,
    );
    let mut cases = vec![
        vec!["asm", s(&text_in), "-o", s(&text_in)],
        vec!["disasm", s(&text_in), "-o", s(&text_in)],
        vec!["reencode", s(&shader), "-o", s(&shader)],
        vec!["dp2", "build", s(&json), "-o", s(&json)],
        vec!["tessellate", s(&patch), "-o", s(&patch)],
    ];
    let capture = format!("{DATA}cache_cases.dp2");
    cases.push(vec![
        "render",
        &capture,
        "--vs",
        s(&text_in),
        "-o",
        s(&text_in),
    ]);
    if cfg!(feature = "translate") {
        cases.push(vec!["translate", s(&shader), "-o", s(&shader)]);
    }
    let before = contents(&dir);
    for mut args in cases {
        // Batch commands refuse it even with --force (single-file commands have no --force).
        if matches!(args[0], "disasm" | "reencode") {
            args.push("--force");
        }
        let o = run(&args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains("never writes over its input"),
            "{args:?}: {}",
            text(&o.stderr)
        );
        assert_eq!(contents(&dir), before, "{args:?} changed a file");
    }
}

#[test]
fn a_single_named_output_is_replaced_and_numbered_frames_need_force() {
    let dir = scratch("single-exists");
    let text_in = dir.join("x.asm");
    std::fs::write(&text_in, "ps_2_0\nmov oC0, c0\n").unwrap();
    let out = dir.join("x.dxso");
    std::fs::write(&out, "old").unwrap();
    // A file named with -o is replaced, as compilers replace theirs.
    let o = run(&["asm", s(&text_in), "-o", s(&out)], None);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        &std::fs::read(&out).unwrap()[..4],
        &[0x00, 0x02, 0xff, 0xff]
    );
    // The demo's numbered frames are a batch: refused before anything is rendered or written.
    let frame = dir.join("turn-000.png");
    std::fs::write(&frame, "keep me").unwrap();
    let o = run(
        &[
            "demo",
            "--size",
            "8x8",
            "--frames",
            "2",
            "-o",
            s(&dir.join("turn.png")),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("--force"), "{}", text(&o.stderr));
    assert!(o.stdout.is_empty(), "{}", text(&o.stdout));
    assert_eq!(std::fs::read(&frame).unwrap(), b"keep me");
}

#[test]
fn dash_is_standard_output_everywhere() {
    let dir = scratch("dash");
    let inputs = dir.join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    copy(
        &format!("{CORPUS}fna/AlphaTestEffect_04_vs.dxso"),
        &inputs.join("a.dxso"),
    );
    copy(
        &format!("{CORPUS}fna/AlphaTestEffect_00_ps.dxso"),
        &inputs.join("b.dxso"),
    );
    let old = std::env::current_dir().unwrap();
    // Relative `-` would be a folder here if it were taken as a path.
    let o = common::bin()
        .current_dir(&dir)
        .args(["disasm", "in", "-o", "-"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("// file: "), "{}", text(&o.stdout));
    let o = common::bin()
        .current_dir(&dir)
        .args(["reencode", "in/a.dxso", "-o", "-"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(o.stdout, std::fs::read(inputs.join("a.dxso")).unwrap());
    // Several files: standard output cannot hold them, and the command says so.
    let effect = format!("{CORPUS}effects/fna_AlphaTestEffect.fxb");
    for args in [
        vec!["reencode", "in", "-o", "-"],
        vec!["fx", "extract", &effect, "-o", "-"],
    ] {
        let o = common::bin()
            .current_dir(&dir)
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains("standard output"),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
    assert!(
        !dir.join("-").exists(),
        "a file or folder named - was written"
    );
    assert_eq!(std::env::current_dir().unwrap(), old);
}

#[test]
fn fx_extract_refuses_existing_files_before_writing_any() {
    let dir = scratch("fx-existing");
    let effect = format!("{CORPUS}effects/fna_AlphaTestEffect.fxb");
    let o = run(&["fx", "extract", &effect, "-o", s(&dir)], None);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let first = contents(&dir);
    // Remove one file and damage another: the refusal must write neither back.
    std::fs::remove_file(&first[0].0).unwrap();
    std::fs::write(&first[1].0, "edited").unwrap();
    let before = contents(&dir);
    let o = run(&["fx", "extract", &effect, "-o", s(&dir)], None);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("--force"), "{}", text(&o.stderr));
    assert_eq!(contents(&dir), before);
    let o = run(&["fx", "extract", &effect, "-o", s(&dir), "--force"], None);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(contents(&dir), first);
}
