//! Where results go: standard output or files (`-o FILE`, `-o -`, `-o DIR`).
//!
//! - Text goes to standard output when `-o` is absent.
//! - Binary output goes to standard output when `-o -` is given, or when `-o` is absent and
//!   standard output is not a terminal; to a terminal it is refused with a hint (as wasm-tools
//!   does), because bytecode would garble the screen.
//! - A closed pipe (`dxso dump x | head -1`) ends the run quietly: see [`crate::stdout`].
//! - No file is lost: a run decides every file it will write before it writes one, and refuses
//!   (usage, exit 2, nothing written) when two inputs would write the same file, when a file
//!   it would write is one of its inputs, or, in a batch without `--force`, when one already
//!   exists ([`check_plan`]): a single file named with `-o` is replaced. `-o -` is always standard output, never a file or folder named `-`.

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

/// `-o FILE` of a command whose output is what it prints (`info`, `validate`, `run`...): the
/// printed text (or the JSON document) goes to the file instead of standard output.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct PrintedArg {
    /// Write what the command prints to this file instead of standard output (`-`: standard
    /// output). Diagnostics stay on standard error.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

impl PrintedArg {
    /// Checks the file against the run's `inputs` (never written over) and sends the run's
    /// printed output there.
    pub fn apply(&self, s: &Session, inputs: &[&Path]) -> Result<()> {
        let arg = OutputArg {
            output: self.output.clone(),
        };
        arg.check(inputs, &[])?;
        if let Target::File(p) = arg.target() {
            s.redirect_to(&p);
        }
        Ok(())
    }
}

/// `--force` for commands that name their output option their own way.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct ForceArg {
    /// Replace output files that already exist (without it the run refuses, naming them, and
    /// writes nothing).
    #[arg(long)]
    pub force: bool,
}

/// One file a run will write, and the input it is made from.
#[derive(Clone, Debug)]
pub struct Planned {
    /// The file.
    pub path: PathBuf,
    /// The input it comes from, as the user named it (for a refusal that names both inputs).
    pub from: Option<PathBuf>,
}

/// How many names a refusal lists before it says how many more there are.
const NAMES_SHOWN: usize = 8;

/// Checks every file a run will write, before it writes any: two inputs that would write the
/// same file, a file that is one of the run's `inputs`, and (without `force`) files that
/// already exist are refused as usage errors that name them.
pub fn check_plan(planned: &[Planned], inputs: &[&Path], force: bool) -> Result<()> {
    let mut sorted: Vec<&Planned> = planned.iter().collect();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    for pair in sorted.windows(2) {
        if pair[0].path == pair[1].path {
            let from = |p: &Planned| {
                p.from
                    .as_ref()
                    .map_or_else(|| "one output".into(), |f| f.display().to_string())
            };
            return Err(CliError::Usage(format!(
                "{} and {} would both be written to {}; nothing was written (rename one, or \
                 give them separate runs)",
                from(pair[0]),
                from(pair[1]),
                pair[0].path.display()
            ))
            .into());
        }
    }
    let inputs: Vec<PathBuf> = inputs
        .iter()
        .filter(|p| p.as_os_str() != "-")
        .filter_map(|p| p.canonicalize().ok())
        .collect();
    let mut existing = Vec::new();
    for p in &sorted {
        let Ok(meta) = std::fs::metadata(&p.path) else {
            continue;
        };
        if meta.is_dir() {
            return Err(CliError::Usage(format!(
                "{} is a folder; this output is one file",
                p.path.display()
            ))
            .into());
        }
        if p.path.canonicalize().is_ok_and(|c| inputs.contains(&c)) {
            return Err(CliError::Usage(format!(
                "{} is an input of this run, and dxso never writes over its input; choose \
                 another -o",
                p.path.display()
            ))
            .into());
        }
        existing.push(p.path.display().to_string());
    }
    if !existing.is_empty() && !force {
        let n = existing.len();
        let mut names = existing[..n.min(NAMES_SHOWN)].join(", ");
        if n > NAMES_SHOWN {
            names.push_str(&format!(" and {} more", n - NAMES_SHOWN));
        }
        let what = if n == 1 { "file exists" } else { "files exist" };
        return Err(CliError::Usage(format!(
            "{n} output {what} already: {names}; nothing was written (give --force to \
             replace them)"
        ))
        .into());
    }
    Ok(())
}

/// Refuses `-o -` for a run that writes several files, which standard output cannot hold.
pub fn refuse_stdout_for_several(command: &str, output: Option<&Path>) -> Result<()> {
    if output.is_some_and(|p| p.as_os_str() == "-") {
        return Err(CliError::Usage(format!(
            "{command} writes several files, which standard output cannot hold; give a folder \
             with -o DIR"
        ))
        .into());
    }
    Ok(())
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

    /// Checks, before anything is written, the file the result goes to (with the other files
    /// the command writes beside it, `also`) against [`check_plan`]'s rules. A file the user
    /// named is replaced when it exists, as compilers replace their `-o` file; only a batch,
    /// whose files the user did not name one by one, needs `--force` for that.
    pub fn check(&self, inputs: &[&Path], also: &[&Path]) -> Result<()> {
        let mut planned: Vec<Planned> = also
            .iter()
            .filter(|p| p.as_os_str() != "-")
            .map(|p| Planned {
                path: p.to_path_buf(),
                from: None,
            })
            .collect();
        if let Target::File(p) = self.target() {
            planned.push(Planned {
                path: p,
                from: None,
            });
        }
        check_plan(&planned, inputs, true)
    }

    /// `true` when the result goes to standard output (then reports go to standard error).
    pub fn is_stdout(&self) -> bool {
        matches!(self.target(), Target::Stdout { .. })
    }

    /// Writes text.
    pub fn write_text(&self, s: &Session, text: &[u8]) -> Result<()> {
        self.check(&[], &[])?;
        write_to(&self.target(), s, text)
    }

    /// Writes binary data, refusing a terminal unless `-o -` was explicit.
    pub fn write_binary(&self, s: &Session, bytes: &[u8]) -> Result<()> {
        self.check(&[], &[])?;
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
        self.check(&[], &[])?;
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
    sink.finish(s)
}

/// An open output: standard output or a file, buffered.
pub enum Sink {
    /// Standard output.
    Stdout(crate::stdout::Stdout),
    /// A file being written, and how many bytes went into it.
    File(BufWriter<std::fs::File>, PathBuf, u64),
}

/// Writes `bytes` to the file `path` (deciding it is the caller's: [`check_plan`] first) and
/// notes it for the `--json` document.
pub fn write_file(s: &Session, path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("writing {}", path.display()))?;
    log::info!("wrote {}", path.display());
    s.record_written(path, bytes.len() as u64);
    Ok(())
}

impl Sink {
    /// Opens `target` (creating the file).
    pub fn open(target: &Target, s: &Session) -> Result<Sink> {
        Ok(match target {
            Target::Stdout { .. } => Sink::Stdout(s.out()),
            Target::File(p) => {
                let f = std::fs::File::create(p)
                    .with_context(|| format!("creating {}", p.display()))?;
                Sink::File(BufWriter::new(f), p.clone(), 0)
            }
        })
    }

    fn describe(&self) -> String {
        match self {
            Sink::Stdout(_) => "writing standard output".into(),
            Sink::File(_, p, _) => format!("writing {}", p.display()),
        }
    }

    /// Flushes and reports the last write's error; logs what was written at `-v` and notes
    /// the file for the `--json` document.
    pub fn finish(self, s: &Session) -> Result<()> {
        match self {
            Sink::Stdout(out) => out.finish(),
            Sink::File(mut w, p, bytes) => {
                w.flush()
                    .with_context(|| format!("writing {}", p.display()))?;
                log::info!("wrote {}", p.display());
                s.record_written(&p, bytes);
                Ok(())
            }
        }
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Sink::Stdout(o) => o.write(buf),
            Sink::File(f, _, bytes) => {
                let n = f.write(buf)?;
                *bytes += n as u64;
                Ok(n)
            }
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match self {
            Sink::Stdout(o) => o.write_all(buf),
            Sink::File(f, _, bytes) => {
                f.write_all(buf)?;
                *bytes += buf.len() as u64;
                Ok(())
            }
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Sink::Stdout(o) => o.flush(),
            Sink::File(f, _, _) => f.flush(),
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

    /// The file an input's result goes to, without creating anything.
    pub fn path_of(&self, rel: &Path, extension: &str) -> Option<PathBuf> {
        match self {
            PerInput::Stdout { .. } => None,
            PerInput::File(p) => Some(p.clone()),
            PerInput::Dir(dir) => Some(dir.join(rel).with_extension(extension)),
        }
    }

    /// Decides every input's file before anything is written and checks them
    /// ([`check_plan`]): one file for several inputs, an input written over, existing files
    /// without `force`.
    pub fn check(
        &self,
        inputs: &[crate::input::InputPath],
        extension: &str,
        force: bool,
    ) -> Result<()> {
        let planned: Vec<Planned> = inputs
            .iter()
            .filter_map(|i| {
                self.path_of(&i.rel, extension).map(|path| Planned {
                    path,
                    from: Some(i.path.clone()),
                })
            })
            .collect();
        let paths: Vec<&Path> = inputs.iter().map(|i| i.path.as_path()).collect();
        // One file named with `-o` is replaced, as [`OutputArg::check`] replaces it.
        let force = force || matches!(self, PerInput::File(_));
        check_plan(&planned, &paths, force)
    }

    /// The file an input's result goes to, creating its folder.
    pub fn path_for(&self, rel: &Path, extension: &str) -> Result<Option<PathBuf>> {
        match self {
            PerInput::Stdout { .. } => Ok(None),
            PerInput::File(p) => Ok(Some(p.clone())),
            PerInput::Dir(dir) => {
                let path = dir.join(rel).with_extension(extension);
                // Decided before the run by `check`; a folder is made only to write into it.
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)
                        .with_context(|| format!("creating {}", parent.display()))?;
                }
                Ok(Some(path))
            }
        }
    }
}
