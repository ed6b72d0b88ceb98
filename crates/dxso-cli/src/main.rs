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
mod float_rules;
mod input;
mod output;
mod report;
mod session;
mod stdout;

/// Direct3D 9 shader bytecode and DP2 patch-stream toolkit.
///
/// dxso reads Direct3D 9 shaders (vs_1_1..vs_3_0, ps_1_0..ps_3_0) as raw bytecode, fxc /Fh C
/// headers (BYTE or DWORD arrays) or Microsoft assembly text, telling them apart by their bytes.
/// Its subcommands:
///
/// Every command: `-` or a missing FILE reads standard input (unless it is a terminal);
/// `-o -` writes standard output (binary output is refused on a terminal without it);
/// commands over FILE... take folders (searched for the extensions of what they read, or
/// --ext) and print a summary line; diagnostics go to standard error, coloured only on a
/// terminal (--color, NO_COLOR); `--json` puts exactly one JSON document on standard output
/// (the results, or the text printed, files written and errors; a failed run's error too);
/// -v says what was read and how long each stage took.
///
/// Exit status, the same for the same cause in every command: 0 success, 1 the input is bad or
/// a check failed (the message names the offset and the rule), 2 a usage error or an I/O error
/// (a file that cannot be read or written), 141 when standard output was closed early (as a
/// program killed by SIGPIPE).
#[derive(Parser)]
#[command(
    name = "dxso",
    version,
    propagate_version = true,
    max_term_width = 100,
    verbatim_doc_comment
)]
pub struct Cli {
    #[command(flatten)]
    global: session::GlobalArgs,
    #[command(subcommand)]
    command: cmd::Command,
}

/// The clap command tree (for completions, man pages and `main`): the derived tree with the
/// subcommand summary from `cmd::SUMMARY` in the long help.
pub fn cli_command() -> clap::Command {
    let command = Cli::command();
    let about = command
        .get_long_about()
        .map(ToString::to_string)
        .unwrap_or_default();
    // After the paragraph that says the subcommands follow (the second).
    let mut paragraphs: Vec<String> = about.split("\n\n").map(str::to_string).collect();
    let at = paragraphs.len().min(2);
    paragraphs.insert(at, cmd::summary_text(96).trim_end().to_string());
    command.long_about(paragraphs.join("\n\n"))
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
    quiet_vulkan_layers();
    let args: Vec<OsString> = std::env::args_os().collect();
    let (color, json) = prescan(&args);
    let matches = match cli_command().color(color).try_get_matches_from(&args) {
        Ok(m) => m,
        Err(e) => return clap_error(e, json),
    };
    let mut cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => return clap_error(e, json),
    };
    // Commands that take their own argument syntax (`compile`'s fxc spellings) see `--json`
    // among their arguments; the scan before clap saw it.
    cli.global.json |= json;
    let mut s = session::Session::new(&cli.global);
    s.command = command_name(&matches);
    s.init_logging(cli.global.color);
    let code = match cli.command.run(&s) {
        Ok(code) => match s.finish_json(None) {
            Ok(()) => code,
            Err(err) => report::report(&s, &err),
        },
        Err(err) => report::report(&s, &err),
    };
    match s.finish_redirect() {
        Ok(()) => code,
        Err(err) => report::report(&s, &err),
    }
}

/// The subcommand's name as typed, nested ones joined (`fx extract`).
fn command_name(matches: &clap::ArgMatches) -> String {
    let mut names = Vec::new();
    let mut at = matches;
    while let Some((name, sub)) = at.subcommand() {
        names.push(name);
        at = sub;
    }
    names.join(" ")
}

/// Mesa's device-select Vulkan layer connects to a Wayland display to order adapters and prints
/// `XDG_RUNTIME_DIR is invalid or not set` on headless machines (CI, servers) for every instance.
/// dxso chooses its adapter through wgpu, so the layer is switched off for this process when
/// there is no session directory and the user has not asked for it. Done first in `main`,
/// before any thread exists, so setting the variable races with nothing.
fn quiet_vulkan_layers() {
    if std::env::var_os("XDG_RUNTIME_DIR").is_none()
        && std::env::var_os("NODEVICE_SELECT").is_none()
    {
        std::env::set_var("NODEVICE_SELECT", "1");
    }
}

/// Usage errors (and `--help`, `--version`) as clap prints them; under `--json` a usage error is
/// also the run's JSON document.
fn clap_error(e: clap::Error, json: bool) -> ExitCode {
    if json && e.use_stderr() {
        let text = e.to_string();
        let first = text.lines().next().unwrap_or_default();
        let message = first.strip_prefix("error: ").unwrap_or(first).to_string();
        let document = serde_json::json!({"error": {
            "kind": "usage",
            "message": message,
            "causes": [],
            "exit_status": 2,
        }});
        // The one JSON document on standard output; clap's own text on standard error.
        let _ =
            std::io::Write::write_all(&mut std::io::stdout(), format!("{document}\n").as_bytes());
        let _ = std::io::Write::write_all(&mut std::io::stderr(), text.as_bytes());
        return ExitCode::from(2);
    }
    // A closed pipe while printing help is not worth a message.
    let _ = e.print();
    ExitCode::from(e.exit_code().clamp(0, 255) as u8)
}
