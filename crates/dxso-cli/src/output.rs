//! Where results go: standard output or files (`-o FILE`, `-o -`, `-o DIR`).
//!
//! - Text goes to standard output when `-o` is absent.
//! - Binary output goes to standard output when `-o -` is given, or when `-o` is absent and
//!   standard output is not a terminal; to a terminal it is refused with a hint (as wasm-tools
//!   does), because bytecode would garble the screen.
//! - A closed pipe (`dxso dump x | head -1`) ends the run quietly: see [`crate::stdout`].

use crate::report::CliError;
use crate::session::Session;
use anyhow::{Context, Result};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// A byte offset as every dump prints it (`dxso dump`, `dxso dp2 dump`, `dxso dp2 run`).
pub fn offset(byte: usize) -> String {
    format!("{byte:#08x}")
}

/// `-o FILE` as every subcommand that writes one result takes it.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct OutputArg {
    /// Where to write: a file, or `-` for standard output. Absent: standard output (binary
    /// output only when standard output is not a terminal).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Where one result goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Standard output; `explicit` when the user wrote `-o -`.
    Stdout {
        /// `-o -` was given.
        explicit: bool,
    },
    /// A file.
    File(PathBuf),
}

impl OutputArg {
    /// Where the result goes.
    pub fn target(&self) -> Target {
        match &self.output {
            None => Target::Stdout { explicit: false },
            Some(p) if p.as_os_str() == "-" => Target::Stdout { explicit: true },
            Some(p) => Target::File(p.clone()),
        }
    }

    /// `true` when the result goes to standard output (then reports go to standard error).
    pub fn is_stdout(&self) -> bool {
        matches!(self.target(), Target::Stdout { .. })
    }

    /// Writes text.
    pub fn write_text(&self, s: &Session, text: &[u8]) -> Result<()> {
        write_to(&self.target(), s, text)
    }

    /// Writes binary data, refusing a terminal unless `-o -` was explicit.
    pub fn write_binary(&self, s: &Session, bytes: &[u8]) -> Result<()> {
        let target = self.target();
        refuse_binary_terminal(&target, s)?;
        write_to(&target, s, bytes)
    }

    /// Fails (usage) when binary output would go to a terminal without `-o -`.
    pub fn check_binary(&self, s: &Session) -> Result<()> {
        refuse_binary_terminal(&self.target(), s)
    }

    /// Opens the target for streamed text (a Wavefront OBJ, a long listing).
    pub fn open_text(&self, s: &Session) -> Result<Sink> {
        Sink::open(&self.target(), s)
    }
}

fn refuse_binary_terminal(target: &Target, s: &Session) -> Result<()> {
    if *target == (Target::Stdout { explicit: false }) && s.stdout_is_terminal() {
        return Err(CliError::Usage(
            "refusing to write binary output to a terminal; give `-o FILE`, pipe the output \
             (`| xxd`), or write `-o -` to send it to the terminal anyway"
                .into(),
        )
        .into());
    }
    Ok(())
}

/// Writes `bytes` to `target` in one go.
pub fn write_to(target: &Target, s: &Session, bytes: &[u8]) -> Result<()> {
    let mut sink = Sink::open(target, s)?;
    sink.write_all(bytes).context(sink.describe())?;
    sink.finish()
}

/// An open output: standard output or a file, buffered.
pub enum Sink {
    /// Standard output.
    Stdout(crate::stdout::Stdout),
    /// A file being written.
    File(BufWriter<std::fs::File>, PathBuf),
}

impl Sink {
    /// Opens `target` (creating the file).
    pub fn open(target: &Target, _s: &Session) -> Result<Sink> {
        Ok(match target {
            Target::Stdout { .. } => Sink::Stdout(crate::stdout::Stdout::new()),
            Target::File(p) => {
                let f = std::fs::File::create(p)
                    .with_context(|| format!("creating {}", p.display()))?;
                Sink::File(BufWriter::new(f), p.clone())
            }
        })
    }

    fn describe(&self) -> String {
        match self {
            Sink::Stdout(_) => "writing standard output".into(),
            Sink::File(_, p) => format!("writing {}", p.display()),
        }
    }

    /// Flushes and reports the last write's error; logs what was written at `-v`.
    pub fn finish(self) -> Result<()> {
        match self {
            Sink::Stdout(out) => out.finish(),
            Sink::File(mut w, p) => {
                w.flush()
                    .with_context(|| format!("writing {}", p.display()))?;
                log::info!("wrote {}", p.display());
                Ok(())
            }
        }
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Sink::Stdout(o) => o.write(buf),
            Sink::File(f, _) => f.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match self {
            Sink::Stdout(o) => o.write_all(buf),
            Sink::File(f, _) => f.write_all(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Sink::Stdout(o) => o.flush(),
            Sink::File(f, _) => f.flush(),
        }
    }
}

/// Where a command over several inputs writes one result per input (`-o DIR`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PerInput {
    /// Everything to standard output, one after the other.
    Stdout {
        /// `-o -` was given.
        explicit: bool,
    },
    /// One input, one named file.
    File(PathBuf),
    /// One file per input under this folder, named after the input with `extension`.
    Dir(PathBuf),
}

impl PerInput {
    /// Decides from `-o` and the inputs: several inputs (or a folder among them) need `-o DIR`
    /// or standard output; an existing folder is always a `DIR`.
    pub fn decide(output: &OutputArg, several: bool) -> PerInput {
        match output.target() {
            Target::Stdout { explicit } => PerInput::Stdout { explicit },
            Target::File(p) if several || p.is_dir() => PerInput::Dir(p),
            Target::File(p) => PerInput::File(p),
        }
    }

    /// The file an input's result goes to, creating its folder.
    pub fn path_for(&self, rel: &Path, extension: &str) -> Result<Option<PathBuf>> {
        match self {
            PerInput::Stdout { .. } => Ok(None),
            PerInput::File(p) => Ok(Some(p.clone())),
            PerInput::Dir(dir) => {
                let path = dir.join(rel).with_extension(extension);
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)
                        .with_context(|| format!("creating {}", parent.display()))?;
                }
                Ok(Some(path))
            }
        }
    }
}
