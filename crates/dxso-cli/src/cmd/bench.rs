//! `dxso bench <what>`: runs the `dxso-bench` program installed beside `dxso`.
//!
//! The benchmarks link MojoShader and read the repository's corpus, so they live in their own,
//! unpublished program; this subcommand keeps `dxso bench` working wherever both are built.

use crate::report::CliError;
use crate::session::Session;
use anyhow::{Context, Result};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

/// Measure dxso against its baselines, measured in the same run (runs `dxso-bench`).
///
/// Every argument goes to the `dxso-bench` program beside this binary (or on PATH): compile,
/// decode, exec, text, tessellate, render, translate; `dxso bench help` lists them. Build it with
/// `cargo build --release -p dxso-bench` (add `--features peer-mojoshader` to measure
/// MojoShader), or run it straight from a clone: `cargo run --release -p dxso-bench -- decode`.
///
/// Examples:
///   dxso bench decode --json
///   dxso bench text --seconds 0.3
///
/// Exit status: that of dxso-bench; 2 when it is not installed.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    /// The benchmark and its options, passed on as they are.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    args: Vec<OsString>,
}

const PROGRAM: &str = "dxso-bench";

/// `dxso-bench` beside the running binary, else the first on PATH.
fn find_program() -> Option<PathBuf> {
    let name = format!("{PROGRAM}{}", std::env::consts::EXE_SUFFIX);
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(&name)));
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join(&name));
    beside.into_iter().chain(on_path).find(|p| p.is_file())
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        let program = find_program().ok_or_else(|| {
            CliError::Usage(format!(
                "`dxso bench` runs the {PROGRAM} program, which is neither beside dxso nor on \
                 PATH: build it with `cargo build --release -p {PROGRAM}` (add `--features \
                 peer-mojoshader` to measure MojoShader)"
            ))
        })?;
        let mut command = std::process::Command::new(&program);
        // `--json` given after `bench` is among the arguments too; the program gets it once.
        command.args(self.args.iter().filter(|a| *a != "--json"));
        let status = if s.json {
            // The program's JSON becomes this run's one document.
            command.arg("--json").stdout(std::process::Stdio::piped());
            let out = command
                .spawn()
                .and_then(|child| child.wait_with_output())
                .with_context(|| format!("running {}", program.display()))?;
            match serde_json::from_slice::<serde_json::Value>(&out.stdout) {
                Ok(v) => s.print_json(&v)?,
                Err(_) => {
                    let mut held = s.out();
                    std::io::Write::write_all(&mut held, &out.stdout)?;
                    held.finish()?;
                }
            }
            out.status
        } else {
            command
                .status()
                .with_context(|| format!("running {}", program.display()))?
        };
        Ok(match status.code() {
            Some(code) => ExitCode::from(code.clamp(0, 255) as u8),
            None => ExitCode::from(1),
        })
    }
}
