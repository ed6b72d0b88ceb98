//! Where a benchmark's figures go: a table on standard output, or one JSON value with `--json`.

use anyhow::Result;
use std::io::{IsTerminal, Write};

/// The options every benchmark's report follows.
pub struct Session {
    /// Print one JSON value instead of a table.
    pub json: bool,
}

impl Session {
    /// Writes `text` to standard output; a closed pipe ends the output quietly.
    pub fn print(&self, text: &str) -> Result<()> {
        let mut out = std::io::stdout().lock();
        match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            other => Ok(other?),
        }
    }

    /// Prints `value` as the run's JSON: pretty on a terminal, one line otherwise.
    pub fn print_json(&self, value: &impl serde::Serialize) -> Result<()> {
        let text = if std::io::stdout().is_terminal() {
            serde_json::to_string_pretty(value)?
        } else {
            serde_json::to_string(value)?
        };
        self.print(&format!("{text}\n"))
    }
}
