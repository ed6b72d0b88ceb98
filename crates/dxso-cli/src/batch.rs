//! Commands over several inputs (`dxso validate shaders/`, `dxso disasm *.dxso -o out/`): each
//! input is handled on the rayon pool, the results are printed in input order as they come (in
//! chunks, so a closed pipe stops the run early), an input that fails does not stop the others,
//! and a summary line ends the run.
//!
//! A command gives [`run`] a closure from one [`InputPath`] to an [`Outcome`]; an `Err` from
//! it is that input's error (shown as `error: ...`, or as `{"file", "error"}` under `--json`).

use crate::input::InputPath;
use crate::report;
use crate::session::Session;
use anyhow::Result;
use rayon::prelude::*;
use serde_json::{json, Value};
use std::io::Write;

/// What handling one input produced.
#[derive(Debug, Default)]
pub struct Outcome {
    /// `false` when the input is counted as failed (an invalid shader).
    pub passed: bool,
    /// Text for standard output (the report or the data), printed in input order.
    pub stdout: Vec<u8>,
    /// Diagnostics for standard error, printed just before `stdout`.
    pub stderr: String,
    /// The input's JSON object under `--json` (gathered into the run's `files` array).
    pub json: Option<Value>,
}

impl Outcome {
    /// A passing input with this standard output.
    pub fn passed(stdout: impl Into<Vec<u8>>) -> Self {
        Outcome {
            passed: true,
            stdout: stdout.into(),
            ..Outcome::default()
        }
    }
}

/// How many inputs passed, failed, or could not be handled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Inputs that passed.
    pub passed: usize,
    /// Inputs handled that did not pass.
    pub failed: usize,
    /// Inputs that could not be read, decoded or written.
    pub errors: usize,
    /// Of `errors`, the files that could not be read or written (I/O errors).
    pub io_errors: usize,
}

impl Tally {
    /// Every input.
    pub fn total(&self) -> usize {
        self.passed + self.failed + self.errors
    }

    /// `true` when every input passed.
    pub fn all_passed(&self) -> bool {
        self.failed == 0 && self.errors == 0
    }

    /// The run's exit status, as for one input: 0 when every input passed, 2 when a file
    /// could not be read or written, else 1 (an input is bad or failed its check).
    pub fn status(&self) -> std::process::ExitCode {
        std::process::ExitCode::from(match () {
            _ if self.all_passed() => 0,
            _ if self.io_errors > 0 => 2,
            _ => 1,
        })
    }

    /// `{"files": N, "passed": N, "failed": N, "errors": N}` with the command's words.
    pub fn json(&self, passed: &str, failed: &str) -> Value {
        json!({
            "files": self.total(),
            passed: self.passed,
            failed: self.failed,
            "errors": self.errors,
        })
    }
}

/// Inputs handled per printed chunk: enough to keep the pool busy, few enough that output
/// starts at once and a closed pipe stops the run soon.
const CHUNK: usize = 64;

/// Runs `each` over `inputs` and prints the outcomes in order; returns the tally and, under
/// `--json`, every input's object.
pub fn run<F>(s: &Session, inputs: &[InputPath], each: F) -> Result<(Tally, Vec<Value>)>
where
    F: Fn(&InputPath) -> Result<Outcome> + Sync,
{
    let mut tally = Tally::default();
    let mut objects = Vec::new();
    for chunk in inputs.chunks(CHUNK) {
        let outcomes: Vec<Result<Outcome>> = chunk.par_iter().map(&each).collect();
        let mut out = s.out();
        for (input, outcome) in chunk.iter().zip(outcomes) {
            match outcome {
                Ok(o) => {
                    if o.passed {
                        tally.passed += 1;
                    } else {
                        tally.failed += 1;
                    }
                    if !o.stderr.is_empty() {
                        out.flush()?;
                        s.stderr(&o.stderr);
                    }
                    out.write_all(&o.stdout)?;
                    objects.extend(o.json);
                }
                // A closed pipe or a usage error ends the whole run.
                Err(e)
                    if crate::stdout::is_broken_pipe(&e)
                        || matches!(e.downcast_ref(), Some(report::CliError::Usage(_))) =>
                {
                    return Err(e)
                }
                Err(e) => {
                    tally.errors += 1;
                    tally.io_errors += usize::from(report::is_io(&e));
                    if s.json {
                        let mut obj = report::error_json(&e);
                        obj["file"] = json!(input.path.display().to_string());
                        objects.push(obj);
                    } else {
                        out.flush()?;
                        s.stderr(&report::render(s, &e));
                    }
                }
            }
        }
        out.finish()?;
    }
    Ok((tally, objects))
}

/// For commands whose results are not JSON objects (listings, bytecode): under `--json`, the
/// inputs that could not be read go into the `errors` of the run's document (without it,
/// [`run`] has already printed them).
pub fn errors_to_document(s: &Session, objects: Vec<Value>) {
    for object in objects {
        s.record_error(object);
    }
}

/// Prints the summary line (`1188 valid, 84 invalid`) on standard error for a run over several
/// inputs, unless `--quiet` or `--json`.
pub fn summary(s: &Session, several: bool, tally: &Tally, passed: &str, failed: &str) {
    if !several || s.quiet || s.json {
        return;
    }
    let mut line = format!("{} {passed}, {} {failed}", tally.passed, tally.failed);
    if tally.errors > 0 {
        line.push_str(&format!(", {} unreadable", tally.errors));
    }
    line.push_str(&format!(" ({} files)\n", tally.total()));
    s.stderr(&line);
}
