//! Standard output, and what a closed pipe means for the run.
//!
//! A closed pipe (`dxso dump x | head -1`) ends the run quietly with status
//! [`BROKEN_PIPE_STATUS`]: every write returns its `io::Error`, and `main` recognises it with
//! [`is_broken_pipe`]. A leaf module: the session, the output layer and the error report all
//! build on it.

use anyhow::{Context, Result};
use std::io::{BufWriter, StdoutLock, Write};

/// The status a program killed by SIGPIPE reports in the shell (128 + 13).
pub const BROKEN_PIPE_STATUS: u8 = 141;

/// `true` when `err` comes from writing to a closed pipe.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        let io = e.downcast_ref::<std::io::Error>().map(std::io::Error::kind);
        let json = e
            .downcast_ref::<serde_json::Error>()
            .and_then(serde_json::Error::io_error_kind);
        io.or(json) == Some(std::io::ErrorKind::BrokenPipe)
    })
}

/// Standard output, locked and buffered. Call [`Stdout::finish`] to see the last write's
/// error (dropping it flushes too, but cannot report).
pub struct Stdout(BufWriter<StdoutLock<'static>>);

impl Stdout {
    /// Locks standard output.
    pub fn new() -> Self {
        Stdout(BufWriter::with_capacity(
            64 * 1024,
            std::io::stdout().lock(),
        ))
    }

    /// Flushes, returning the error of the last write (a closed pipe, a full disk).
    pub fn finish(mut self) -> Result<()> {
        self.0.flush().context("writing standard output")
    }
}

impl Default for Stdout {
    fn default() -> Self {
        Self::new()
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.0.write_all(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}
