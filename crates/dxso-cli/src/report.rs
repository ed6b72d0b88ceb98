//! Errors and how they are shown: the typed errors every subcommand can return, their exit
//! status, and their rendering on standard error (text with `error:` labels and miette's
//! source snippets, or one JSON line under `--json`).
//!
//! Exit status, the same for the same cause in every command: 0 success, 1 the input is bad or
//! a check failed, 2 a usage error ([`CliError::Usage`]) or an I/O error (a file that cannot
//! be read or written), 141 when standard output was closed
//! ([`crate::stdout::BROKEN_PIPE_STATUS`]).

use crate::input::kind::Kind;
use crate::session::{Level, Session};
use miette::{GraphicalReportHandler, GraphicalTheme, ThemeCharacters, ThemeStyles};
use serde_json::{json, Value};
use std::process::ExitCode;

/// Errors with a meaning beyond their message (exit status, JSON fields, rendering).
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The command line asks for something impossible (exit 2).
    #[error("{0}")]
    Usage(String),
    /// The input is not what the command reads; `hint` names the command that reads it.
    #[error("{file} is {kind}; {hint}")]
    WrongKind {
        /// The input's name.
        file: String,
        /// What it is.
        kind: Kind,
        /// What to run instead.
        hint: String,
    },
    /// Assembly text that does not assemble: every diagnostic, rendered by miette.
    #[error("{file}: {} error(s) in the assembly text", .diagnostics.errors.len())]
    Assembly {
        /// The input's name.
        file: String,
        /// Every error of the run.
        diagnostics: dxso_text::Diagnostics,
    },
    /// The inputs named hold nothing the command reads (an empty folder) (exit 1).
    #[error("{0}")]
    NothingToRead(String),
    /// A shader the validator rejects where the command needs a valid one (`dxso asm`).
    #[error("{file}: the shader is invalid ({errors} error(s), listed above); nothing written (--no-validate writes it anyway)")]
    Invalid {
        /// The input's name.
        file: String,
        /// How many errors the validator found.
        errors: usize,
    },
}

impl CliError {
    /// The `kind` field of the JSON error.
    fn kind_name(&self) -> &'static str {
        match self {
            CliError::Usage(_) => "usage",
            CliError::WrongKind { .. } => "wrong_input_kind",
            CliError::Assembly { .. } => "assembly",
            CliError::Invalid { .. } => "invalid",
            CliError::NothingToRead(_) => "no_input",
        }
    }
}

/// Whether `err` is an I/O error: a file that cannot be read, written or created (a closed
/// pipe is not one; see [`crate::stdout::is_broken_pipe`]).
pub fn is_io(err: &anyhow::Error) -> bool {
    !crate::stdout::is_broken_pipe(err)
        && err
            .chain()
            .any(|e| e.downcast_ref::<std::io::Error>().is_some())
}

/// The status an error ends the run with, as a number.
pub fn status_of(err: &anyhow::Error) -> u8 {
    if crate::stdout::is_broken_pipe(err) {
        return crate::stdout::BROKEN_PIPE_STATUS;
    }
    match err.chain().find_map(|e| e.downcast_ref::<CliError>()) {
        Some(CliError::Usage(_)) => 2,
        _ if is_io(err) => 2,
        _ => 1,
    }
}

/// The status an error ends the run with.
pub fn exit_status(err: &anyhow::Error) -> ExitCode {
    ExitCode::from(status_of(err))
}

/// Shows `err` on standard error (nothing for a closed pipe) and gives the exit status; under
/// `--json` the error is also the run's JSON document on standard output (with what the run
/// printed and wrote before it failed), unless the command printed its own.
pub fn report(s: &Session, err: &anyhow::Error) -> ExitCode {
    let status = exit_status(err);
    if crate::stdout::is_broken_pipe(err) {
        log::debug!("standard output was closed: {err:#}");
        return status;
    }
    if s.json {
        let error = error_json(err)["error"].take();
        if let Err(e) = s.finish_json(Some(("error", error))) {
            log::debug!("the JSON document could not be written: {e:#}");
        }
    }
    s.stderr(&render(s, err));
    status
}

/// The text form: miette snippets for assembly errors, then `error: message`.
pub fn render(s: &Session, err: &anyhow::Error) -> String {
    let mut out = String::new();
    let cli = err.chain().find_map(|e| e.downcast_ref::<CliError>());
    if let Some(CliError::Assembly { diagnostics, .. }) = cli {
        let handler = miette_handler(s);
        for d in &diagnostics.errors {
            let mut rendered = String::new();
            if handler.render_report(&mut rendered, d).is_err() {
                rendered = format!("{d}\n");
            }
            out.push_str(&rendered);
        }
        out.push_str(&s.label(Level::Error, &format!("{err:#}; nothing written")));
        return out;
    }
    out.push_str(&s.label(Level::Error, &format!("{err:#}")));
    out
}

/// miette's graphical renderer as this session wants it: Unicode art on a terminal, plain
/// ASCII otherwise; colour only when the session colours.
pub fn miette_handler(s: &Session) -> GraphicalReportHandler {
    let characters = if s.stderr_is_terminal() {
        ThemeCharacters::unicode()
    } else {
        ThemeCharacters::ascii()
    };
    let styles = if s.color() {
        ThemeStyles::ansi()
    } else {
        ThemeStyles::none()
    };
    GraphicalReportHandler::new_themed(GraphicalTheme { characters, styles }).with_links(false)
}

/// `{"error": {"kind", "message", "causes", ...}}`: one line, the same for every command.
pub fn error_json(err: &anyhow::Error) -> Value {
    let cli = err.chain().find_map(|e| e.downcast_ref::<CliError>());
    let mut e = json!({
        "kind": cli.map_or("input", CliError::kind_name),
        "message": format!("{err:#}"),
        "causes": err.chain().map(|c| c.to_string()).collect::<Vec<_>>(),
        "exit_status": status_of(err),
    });
    if e["kind"] == "input" && is_io(err) {
        e["kind"] = json!("io");
    }
    match cli {
        Some(CliError::Assembly { diagnostics, file }) => {
            e["file"] = json!(file);
            e["diagnostics"] = diagnostics.errors.iter().map(assembly_json).collect();
        }
        Some(CliError::WrongKind { file, kind, hint }) => {
            e["file"] = json!(file);
            e["input_kind"] = json!(kind.id());
            e["hint"] = json!(hint);
        }
        _ => {}
    }
    json!({ "error": e })
}

/// One assembler diagnostic as JSON.
pub fn assembly_json(d: &dxso_text::Diagnostic) -> Value {
    json!({
        "code": d.rule.code(),
        "message": d.message,
        "file": d.file,
        "line": d.line,
        "column": d.column,
    })
}
