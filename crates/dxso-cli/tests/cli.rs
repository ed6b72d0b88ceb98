//! The `dxso` binary on raw files, fxc headers and stdin, and its exit codes.

mod common;

use std::process::{Command, Output};

fn dxso(args: &[&str], stdin: Option<&[u8]>) -> Output {
    common::run(args, stdin)
}

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dxso-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// ps_2_0: dcl t0.xy / mov oC0, t0
const PS: [u32; 8] = [
    0xFFFF_0200,
    0x0200_001F,
    0x8000_0000,
    0xB003_0000,
    0x0200_0001,
    0x800F_0800,
    0xB0E4_0000,
    0x0000_FFFF,
];

fn ps_bytes() -> Vec<u8> {
    PS.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn info_on_raw_header_and_stdin() {
    let raw = tmp("ps.dxso");
    std::fs::write(&raw, ps_bytes()).unwrap();
    let out = dxso(&["info", raw.to_str().unwrap()], None);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("ps_2_0") && text.contains("instructions: 2"),
        "{text}"
    );

    let bytes_list: Vec<String> = ps_bytes().iter().map(|b| b.to_string()).collect();
    let header = format!(
        "#if 0\n//\n//   ps_2_0\n#endif\n\nconst BYTE g_other[] = {{ 1, 2 }};\nconst BYTE g_ps20_main[] =\n{{\n    {}\n}};\n",
        bytes_list.join(", ")
    );
    let h = tmp("ps.h");
    std::fs::write(&h, header).unwrap();
    let out = dxso(
        &[
            "info",
            "--json",
            h.to_str().unwrap(),
            "--name",
            "g_ps20_main",
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["files"][0]["version"], "ps_2_0", "{j}");
    assert_eq!(j["files"][0]["instructions"], 2, "{j}");
    assert_eq!(j["summary"]["files"], 1, "{j}");

    let out = dxso(&["info", "-"], Some(&ps_bytes()));
    assert!(out.status.success());
}

#[test]
fn dump_labels_every_dword() {
    let out = dxso(&["dump", "-"], Some(&ps_bytes()));
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().count(), PS.len(), "{text}");
    assert!(text.contains("dcl usage position"), "{text}");
    assert!(text.lines().last().unwrap().contains("end"));
}

#[test]
fn reencode_to_file_and_stdout() {
    let out_path = tmp("copy.dxso");
    let out = dxso(
        &["reencode", "-", "-o", out_path.to_str().unwrap(), "--check"],
        Some(&ps_bytes()),
    );
    assert!(out.status.success());
    assert_eq!(std::fs::read(&out_path).unwrap(), ps_bytes());
    let out = dxso(&["reencode", "-", "-o", "-"], Some(&ps_bytes()));
    assert_eq!(out.stdout, ps_bytes());
}

#[test]
fn bad_input_exits_1_with_offset_and_rule() {
    let mut bytes = ps_bytes();
    bytes.truncate(bytes.len() - 8);
    for cmd in ["info", "dump", "reencode"] {
        let mut args = vec![cmd, "-"];
        if cmd == "reencode" {
            args.extend(["-o", "-"]);
        }
        let out = dxso(&args, Some(&bytes));
        assert_eq!(out.status.code(), Some(1), "{cmd}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("DWORD") && err.contains("truncated"),
            "{cmd}: {err}"
        );
    }
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(dxso(&["info"], None).status.code(), Some(2));
    assert_eq!(dxso(&["no-such-command"], None).status.code(), Some(2));
}

#[test]
fn demo_runs() {
    let dir = tmp("demo");
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_dxso"))
        .arg("demo")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("bit-exact") && text.contains("texld r0, t0, s0"),
        "{text}"
    );
    assert!(text.contains("32 from the patch cache"), "{text}");
    let png = std::fs::read(dir.join("teapot.png")).unwrap();
    let img = dxso_render::Image::from_png(&png).unwrap();
    assert_eq!((img.width, img.height), (1024, 1024));
}

#[test]
fn reencode_whole_corpus() {
    let Some(dir) = dxso_corpus::corpus_or_skip("reencode_whole_corpus") else {
        return;
    };
    let entries = dxso_corpus::entries(&dir);
    let out_path = tmp("corpus-copy.dxso");
    let mut same = 0;
    for e in &entries {
        let out = dxso(
            &[
                "reencode",
                e.path.to_str().unwrap(),
                "-o",
                out_path.to_str().unwrap(),
                // One file, written again for each shader.
                "--force",
            ],
            None,
        );
        assert!(
            out.status.success(),
            "{}: {}",
            e.rel,
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(std::fs::read(&out_path).unwrap(), e.bytes(), "{}", e.rel);
        same += 1;
    }
    println!(
        "dxso reencode: {same}/{} corpus shaders bit-exact",
        entries.len()
    );
}
