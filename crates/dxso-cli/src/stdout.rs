//! Standard output, and what a closed pipe means for the run.
//!
//! A closed pipe (`dxso dump x | head -1`) ends the run quietly with status
//! [`BROKEN_PIPE_STATUS`]: every write returns its `io::Error`, and `main` recognises it with
//! [`is_broken_pipe`]. A leaf module: the session, the output layer and the error report all
//! build on it.

use anyhow::{Context, Result};
use std::io::{BufWriter, StdoutLock, Write};
use std::sync::{Arc, Mutex};

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

/// Standard output, locked and buffered; or, under `--json`, a buffer the run's one JSON
/// document takes in ([`Stdout::held`]), so that text a command prints (a listing, a dump)
/// never stands beside that document. Call [`Stdout::finish`] to see the last write's error
/// (dropping it flushes too, but cannot report).
pub enum Stdout {
    /// The real standard output.
    Real(BufWriter<StdoutLock<'static>>),
    /// Text held for the JSON document: this writer's bytes, appended to the shared buffer
    /// when it is finished or dropped.
    Held(Vec<u8>, Arc<Mutex<Vec<u8>>>),
}

impl Stdout {
    /// Locks standard output.
    pub fn new() -> Self {
        Stdout::Real(BufWriter::with_capacity(
            64 * 1024,
            std::io::stdout().lock(),
        ))
    }

    /// A writer whose bytes go to `buffer` instead of standard output.
    pub fn held(buffer: Arc<Mutex<Vec<u8>>>) -> Self {
        Stdout::Held(Vec::new(), buffer)
    }

    /// Flushes, returning the error of the last write (a closed pipe, a full disk).
    pub fn finish(mut self) -> Result<()> {
        self.flush().context("writing standard output")
    }
}

impl Default for Stdout {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Stdout {
    fn drop(&mut self) {
        if let Stdout::Held(..) = self {
            let _ = self.flush();
        }
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Stdout::Real(w) => w.write(buf),
            Stdout::Held(mine, _) => mine.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match self {
            Stdout::Real(w) => w.write_all(buf),
            Stdout::Held(mine, _) => mine.write_all(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Stdout::Real(w) => w.flush(),
            Stdout::Held(mine, shared) => {
                // A poisoned lock means another thread panicked; the run is ending anyway.
                if let Ok(mut shared) = shared.lock() {
                    shared.append(mine);
                }
                Ok(())
            }
        }
    }
}
