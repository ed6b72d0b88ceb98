//! What every subcommand shares about one run: the global options (`--color`, `--json`,
//! `--quiet`, `-v`), the streams and whether they are terminals, colours, JSON printing and the
//! `log` setup.
//!
//! A subcommand gets a [`Session`] in `run(self, s: &Session)` and writes its results through
//! [`Session::out`] (never `println!`: a closed pipe must end the run quietly, see
//! [`crate::output`]) and its diagnostics through [`Session::warn`] / [`Session::note`] (always
//! standard error).

use anstyle::{AnsiColor, Style};
use anyhow::Result;
use serde_json::{json, Value};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour only when the stream is a terminal and `NO_COLOR` is not set.
    Auto,
    /// Always colour (also when piped).
    Always,
    /// Never colour.
    Never,
}

/// The options every subcommand takes (`dxso <command> --json`, `dxso --json <command>`).
#[derive(clap::Args, Clone, Debug)]
pub struct GlobalArgs {
    /// Colour diagnostics: `auto` (only on a terminal, never when NO_COLOR is set), `always`,
    /// `never`.
    #[arg(
        long,
        value_enum,
        value_name = "WHEN",
        default_value_t = ColorChoice::Auto,
        global = true,
        hide_possible_values = true
    )]
    pub color: ColorChoice,
    /// Machine-readable output: exactly one JSON document on standard output (pretty on a
    /// terminal, one line otherwise), the run's error included; human text on standard error.
    #[arg(long, global = true)]
    pub json: bool,
    /// Print only what failed: no summary line or notes, no verdict for inputs that pass
    /// (`validate`); the data a command exists to print is still printed.
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// Say on standard error what was read and how long each stage took (-vv: more detail).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
}

/// One run's shared state.
#[derive(Debug)]
pub struct Session {
    /// `--json`.
    pub json: bool,
    /// `--quiet`.
    pub quiet: bool,
    /// `-v` count.
    pub verbose: u8,
    color_stderr: bool,
    stderr_terminal: bool,
    stdout_terminal: bool,
    stdin_terminal: bool,
    started: Instant,
    /// Under `--json`: what the run's one document gathers.
    document: Option<Document>,
    /// The subcommand's name (`disasm`, `fx extract`), for the `--json` document.
    pub command: String,
    /// `-o FILE` of a command whose output is what it prints: the file, and what would have
    /// gone to standard output, written there when the run ends ([`Session::finish_redirect`]).
    redirect: std::sync::OnceLock<(std::path::PathBuf, Arc<Mutex<Vec<u8>>>)>,
}

/// What a `--json` run gathers for its one JSON document on standard output, besides the
/// document a command prints itself: the text it printed (a listing), the files it wrote, the
/// inputs of a batch that failed. Printed by [`Session::finish_json`] or, with the error, by
/// the report.
#[derive(Debug, Default)]
struct Document {
    held: Arc<Mutex<Vec<u8>>>,
    written: Mutex<Vec<Value>>,
    errors: Mutex<Vec<Value>>,
    fields: Mutex<serde_json::Map<String, Value>>,
    printed: AtomicBool,
}

/// Whether `choice` colours a stream that is (or is not) a terminal.
pub fn wants_color(choice: ColorChoice, terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            terminal && !matches!(std::env::var_os("NO_COLOR"), Some(v) if !v.is_empty())
        }
    }
}

impl Session {
    /// The session for `args`, looking at the real streams.
    pub fn new(args: &GlobalArgs) -> Self {
        Session {
            json: args.json,
            quiet: args.quiet,
            verbose: args.verbose,
            color_stderr: wants_color(args.color, std::io::stderr().is_terminal()),
            stderr_terminal: std::io::stderr().is_terminal(),
            stdout_terminal: std::io::stdout().is_terminal(),
            stdin_terminal: std::io::stdin().is_terminal(),
            started: Instant::now(),
            document: args.json.then(Document::default),
            command: String::new(),
            redirect: std::sync::OnceLock::new(),
        }
    }

    /// Sets up `log` (through `env_logger`, on standard error): `-v` shows info, `-vv` debug,
    /// `-vvv` trace; `DXSO_LOG` (env_logger syntax) overrides.
    pub fn init_logging(&self, choice: ColorChoice) {
        let level = match self.verbose {
            0 => log::LevelFilter::Warn,
            1 => log::LevelFilter::Info,
            2 => log::LevelFilter::Debug,
            _ => log::LevelFilter::Trace,
        };
        let style = match choice {
            ColorChoice::Auto if self.color_stderr => env_logger::WriteStyle::Always,
            ColorChoice::Auto => env_logger::WriteStyle::Never,
            ColorChoice::Always => env_logger::WriteStyle::Always,
            ColorChoice::Never => env_logger::WriteStyle::Never,
        };
        let started = self.started;
        let _ = env_logger::Builder::new()
            .filter_level(level)
            .parse_env("DXSO_LOG")
            .write_style(style)
            .format(move |buf, record| {
                let level = buf.default_level_style(record.level());
                writeln!(
                    buf,
                    "{:>9.3} ms {level}{}{level:#} {}",
                    started.elapsed().as_secs_f64() * 1e3,
                    record.level().as_str().to_ascii_lowercase(),
                    record.args()
                )
            })
            .try_init();
    }

    /// Whether diagnostics on standard error are coloured.
    pub fn color(&self) -> bool {
        self.color_stderr
    }

    /// Whether standard error is a terminal (then miette draws with Unicode, else ASCII).
    pub fn stderr_is_terminal(&self) -> bool {
        self.stderr_terminal
    }

    /// Whether standard output is a terminal.
    pub fn stdout_is_terminal(&self) -> bool {
        self.stdout_terminal
    }

    /// Whether standard input is a terminal (then a missing FILE is a usage error).
    pub fn stdin_is_terminal(&self) -> bool {
        self.stdin_terminal
    }

    /// Standard output, buffered; under `--json`, text held for the run's document (see
    /// [`crate::stdout::Stdout`]).
    pub fn out(&self) -> crate::stdout::Stdout {
        match &self.document {
            Some(d) => crate::stdout::Stdout::held(d.held.clone()),
            None => self.raw_out(),
        }
    }

    /// Standard output, or the file of `-o` ([`Session::redirect_to`]): where the JSON
    /// document goes.
    fn raw_out(&self) -> crate::stdout::Stdout {
        match self.redirect.get() {
            Some((_, buffer)) => crate::stdout::Stdout::held(buffer.clone()),
            None => crate::stdout::Stdout::new(),
        }
    }

    /// Sends what the run prints to `path` instead of standard output (the `-o FILE` of
    /// commands whose output is what they print); the file is written when the run ends.
    pub fn redirect_to(&self, path: &Path) {
        let _ = self
            .redirect
            .set((path.to_path_buf(), Arc::new(Mutex::new(Vec::new()))));
    }

    /// Writes what a redirected run printed to its file (nothing without `-o FILE`).
    pub fn finish_redirect(&self) -> Result<()> {
        let Some((path, buffer)) = self.redirect.get() else {
            return Ok(());
        };
        let bytes = buffer.lock().map(|b| b.clone()).unwrap_or_default();
        std::fs::write(path, &bytes)
            .map_err(|e| anyhow::Error::new(e).context(format!("writing {}", path.display())))?;
        log::info!("wrote {}", path.display());
        Ok(())
    }

    /// Notes a file the run wrote, for the `--json` document's `files_written`.
    pub fn record_written(&self, path: &Path, bytes: u64) {
        if let Some(d) = &self.document {
            if let Ok(mut w) = d.written.lock() {
                w.push(json!({"path": path.display().to_string(), "bytes": bytes}));
            }
        }
    }

    /// Notes an input of a batch that failed (its error object), for the `--json` document's
    /// `errors`.
    pub fn record_error(&self, object: Value) {
        if let Some(d) = &self.document {
            if let Ok(mut e) = d.errors.lock() {
                e.push(object);
            }
        }
    }

    /// Puts `key: value` into the `--json` document (a command's findings beside its output:
    /// `asm`'s validation).
    pub fn record_field(&self, key: &str, value: Value) {
        if let Some(d) = &self.document {
            if let Ok(mut f) = d.fields.lock() {
                f.insert(key.to_string(), value);
            }
        }
    }

    /// Under `--json`, when the command printed no document of its own: prints the run's
    /// document, `{"command", "output", "files_written", "errors"}` (`output` is the text the
    /// command printed; bytes that are not UTF-8 come as `output_hex`), with `extra` fields.
    pub fn finish_json(&self, extra: Option<(&str, Value)>) -> Result<()> {
        let Some(d) = &self.document else {
            return Ok(());
        };
        if d.printed.load(Ordering::Relaxed) {
            return Ok(());
        }
        let held = d.held.lock().map(|h| h.clone()).unwrap_or_default();
        let mut doc = json!({"command": self.command});
        match String::from_utf8(held) {
            Ok(text) => doc["output"] = json!(text),
            Err(e) => {
                let hex: String = e.as_bytes().iter().map(|b| format!("{b:02x}")).collect();
                doc["output_hex"] = json!(hex);
            }
        }
        doc["files_written"] = json!(d.written.lock().map(|w| w.clone()).unwrap_or_default());
        doc["errors"] = json!(d.errors.lock().map(|e| e.clone()).unwrap_or_default());
        if let Ok(fields) = d.fields.lock() {
            for (key, value) in fields.iter() {
                doc[key.as_str()] = value.clone();
            }
        }
        if let Some((key, value)) = extra {
            doc[key] = value;
        }
        self.print_json(&doc)
    }

    /// Writes `text` to standard output.
    pub fn print(&self, text: &str) -> Result<()> {
        let mut out = self.out();
        out.write_all(text.as_bytes())?;
        out.finish()
    }

    /// Prints `value` as the run's JSON: pretty on a terminal, one line otherwise.
    pub fn print_json(&self, value: &impl serde::Serialize) -> Result<()> {
        if let Some(d) = &self.document {
            d.printed.store(true, Ordering::Relaxed);
        }
        let mut out = self.raw_out();
        if self.stdout_terminal {
            serde_json::to_writer_pretty(&mut out, value)?;
        } else {
            serde_json::to_writer(&mut out, value)?;
        }
        out.write_all(b"\n")?;
        out.finish()
    }

    /// The style of `error:`/`warning:`/`note:` labels on standard error.
    pub fn style(&self, level: Level) -> Style {
        if !self.color_stderr {
            return Style::new();
        }
        let color = match level {
            Level::Error => AnsiColor::Red,
            Level::Warning => AnsiColor::Yellow,
            Level::Note => AnsiColor::Cyan,
        };
        Style::new().bold().fg_color(Some(color.into()))
    }

    /// `error: message` (or `warning:`, `note:`) as one line for standard error, coloured
    /// when the session colours.
    pub fn label(&self, level: Level, message: &str) -> String {
        let style = self.style(level);
        format!("{style}{}:{style:#} {message}\n", level.name())
    }

    /// Writes a warning to standard error (also under `--quiet`).
    pub fn warn(&self, message: &str) {
        self.stderr(&self.label(Level::Warning, message));
    }

    /// Writes a note (a summary, what was written) to standard error, unless `--quiet`.
    pub fn note(&self, message: &str) {
        if !self.quiet {
            self.stderr(&self.label(Level::Note, message));
        }
    }

    /// Writes text to standard error; a closed standard error is ignored (there is nowhere
    /// left to say anything).
    pub fn stderr(&self, text: &str) {
        let _ = std::io::stderr().lock().write_all(text.as_bytes());
    }
}

/// The level of a diagnostic line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// The run (or one input) failed.
    Error,
    /// Something to look at; the run goes on.
    Warning,
    /// Information: a summary, what was written.
    Note,
}

impl Level {
    /// `error`, `warning`, `note`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        }
    }
}

/// Logs how long `what` took at `-v` (info level).
pub fn timed<T>(what: impl std::fmt::Display, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let value = f();
    log::info!("{what}: {:.3} ms", start.elapsed().as_secs_f64() * 1e3);
    value
}
