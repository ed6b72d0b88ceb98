//! Running the built `dxso` binary from integration tests.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The binary, with the environment that changes its output (`NO_COLOR`, `DXSO_LOG`) removed.
pub fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_dxso"));
    c.env_remove("NO_COLOR").env_remove("DXSO_LOG");
    c
}

/// Runs `dxso args` with `stdin` piped in (or an empty, closed standard input).
pub fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run dxso");
    if let Some(input) = stdin {
        // A command that rejects its arguments exits without reading its input, so the
        // pipe may close under the write: that is the command's answer, not the test's error.
        match child.stdin.take().unwrap().write_all(input) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            written => written.unwrap(),
        }
    }
    drop(child.stdin.take());
    child.wait_with_output().unwrap()
}

/// Output bytes as text (lossy).
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh folder for one test.
pub fn scratch(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dxso-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Assembly text to bytecode through `dxso asm` (unvalidated).
pub fn assemble(text: &str) -> Vec<u8> {
    let out = run(
        &["asm", "-", "-o", "-", "--no-validate"],
        Some(text.as_bytes()),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}
