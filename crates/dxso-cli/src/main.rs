//! `dxso`: one command line over the dxso crates, in the manner of `wasm-tools`.
//!
//! The layers every subcommand shares live beside `main`: [`session`] (global options, colour,
//! JSON, logging), [`input`] (reading and telling kinds apart), [`output`] (`-o`, pipes),
//! [`batch`] (several inputs on the rayon pool) and [`report`] (errors, exit status).
//! `docs/ARCHITECTURE.md` says how to add a subcommand.
#![forbid(unsafe_code)]
// Output goes through `Session::out` so a closed pipe ends the run quietly; diagnostics through
// the session so they are coloured (or not) the same everywhere.
#![deny(clippy::print_stdout, clippy::print_stderr)]

use clap::{CommandFactory, FromArgMatches, Parser};
use std::ffi::OsString;
use std::process::ExitCode;

mod batch;
mod cmd;
mod engine;
mod input;
mod output;
mod report;
mod session;

/// Direct3D 9 shader bytecode and DP2 patch-stream toolkit.
///
/// dxso reads Direct3D 9 shaders (vs_1_1..vs_3_0, ps_1_0..ps_3_0) as raw bytecode, as fxc /Fh C
/// headers (BYTE or DWORD arrays) or as Microsoft assembly text, and tells them apart by their
/// bytes. It summarises them (info), labels every DWORD (dump), re-encodes them bit for bit
/// (reencode), checks them against every Direct3D 9 rule of their version (validate), prints
/// Microsoft's listing (disasm) and assembles Microsoft's syntax back into the same bytes, constant
/// table included (asm). It also inspects, builds and runs DP2 command streams with their patch
/// cache (dp2), tessellates rect patches and the Utah teapot (tessellate), measures itself against
/// baselines (bench), and writes its own shell completions and man pages.
///
/// Every command: `-` or a missing FILE reads standard input (when it is not a terminal); `-o -`
/// writes standard output; diagnostics go to standard error; `--json` prints one JSON value on
/// standard output (pretty on a terminal, one line otherwise) and errors as one JSON line on
/// standard error.
///
/// Exit status: 0 success, 1 bad input (the message names the offset and the rule), 2 usage
/// error, 141 when standard output was closed early (as a program killed by SIGPIPE).
#[derive(Parser)]
#[command(name = "dxso", version, propagate_version = true, max_term_width = 100)]
pub struct Cli {
    #[command(flatten)]
    global: session::GlobalArgs,
    #[command(subcommand)]
    command: cmd::Command,
}

/// The clap command tree (for completions and man pages).
pub fn cli_command() -> clap::Command {
    Cli::command()
}

/// What `--color` and `--json` say, read before clap so that clap's own errors follow them.
fn prescan(args: &[OsString]) -> (clap::ColorChoice, bool) {
    let mut color = clap::ColorChoice::Auto;
    let mut json = false;
    let mut iter = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(a) = iter.next() {
        let value = if a == "--color" {
            iter.next().map(|v| v.into_owned())
        } else {
            a.strip_prefix("--color=").map(str::to_string)
        };
        match value.as_deref() {
            Some("never") => color = clap::ColorChoice::Never,
            Some("always") => color = clap::ColorChoice::Always,
            _ => {}
        }
        if a == "--json" {
            json = true;
        }
        if a == "--" {
            break;
        }
    }
    (color, json)
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    let (color, json) = prescan(&args);
    let matches = match Cli::command().color(color).try_get_matches_from(&args) {
        Ok(m) => m,
        Err(e) => return clap_error(e, json),
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => return clap_error(e, json),
    };
    let s = session::Session::new(&cli.global);
    s.init_logging(cli.global.color);
    match cli.command.run(&s) {
        Ok(code) => code,
        Err(err) => report::report(&s, &err),
    }
}

/// Usage errors (and `--help`, `--version`) as clap prints them, or as JSON under `--json`.
fn clap_error(e: clap::Error, json: bool) -> ExitCode {
    if json && e.use_stderr() {
        let text = e.to_string();
        let first = text.lines().next().unwrap_or_default();
        let message = first.strip_prefix("error: ").unwrap_or(first).to_string();
        let line = serde_json::json!({"error": {
            "kind": "usage",
            "message": message,
            "causes": [],
            "exit_status": 2,
        }});
        let _ = std::io::Write::write_all(&mut std::io::stderr(), format!("{line}\n").as_bytes());
        return ExitCode::from(2);
    }
    // A closed pipe while printing help is not worth a message.
    let _ = e.print();
    ExitCode::from(e.exit_code().clamp(0, 255) as u8)
}
