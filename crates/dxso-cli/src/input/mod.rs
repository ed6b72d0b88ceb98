//! Reading inputs: one file (`FILE`, `-`, or standard input when FILE is absent and stdin is
//! not a terminal), several (`FILE...`, folders searched by extension), their [`Kind`]
//! detected from the bytes, and shaders out of them (bytecode, fxc `/Fh` headers, assembly).
//!
//! A subcommand that reads one shader flattens [`InputArg`] and calls
//! [`InputArg::read_decoded`]; one that reads another kind flattens [`FileArg`], calls
//! [`FileArg::read`] and [`Source::expect`] with the kinds it takes; one over several files
//! flattens [`InputsArg`] and hands [`InputsArg::expand`] to [`crate::batch`].

pub mod header;
pub mod kind;

pub use kind::Kind;

use crate::report::CliError;
use crate::session::Session;
use anyhow::{Context, Result};
use std::io::Read;
use std::path::{Path, PathBuf};

/// One input's bytes, name and kind.
#[derive(Clone, Debug)]
pub struct Source {
    /// The name for messages (the path as given, or `<stdin>`).
    pub name: String,
    /// The file, `None` for standard input.
    pub path: Option<PathBuf>,
    /// Every byte.
    pub bytes: Vec<u8>,
    /// What the bytes are.
    pub kind: Kind,
}

impl Source {
    /// Reads `path` (`-`: standard input).
    pub fn read(path: &Path) -> Result<Source> {
        let stdin = path.as_os_str() == "-";
        let (name, bytes) = if stdin {
            let mut buf = Vec::new();
            std::io::stdin()
                .read_to_end(&mut buf)
                .context("reading standard input")?;
            ("<stdin>".to_string(), buf)
        } else {
            let name = path.display().to_string();
            let bytes = std::fs::read(path).with_context(|| format!("reading {name}"))?;
            (name, bytes)
        };
        Ok(Source::from_bytes(
            name,
            (!stdin).then(|| path.to_path_buf()),
            bytes,
        ))
    }

    /// A source from bytes already in memory.
    pub fn from_bytes(name: String, path: Option<PathBuf>, bytes: Vec<u8>) -> Source {
        let kind = Kind::detect(&bytes);
        log::info!("read {name}: {} bytes, {kind}", bytes.len());
        Source {
            name,
            path,
            bytes,
            kind,
        }
    }

    /// Fails with "NAME is KIND; use ..." unless the input is one of `kinds`. JSON that does
    /// not parse is named as such, with serde's line and column, whatever the command reads.
    pub fn expect(&self, kinds: &[Kind]) -> Result<()> {
        if matches!(self.kind, Kind::Json | Kind::Dp2Json | Kind::PatchJson) {
            if let Err(e) =
                serde_json::from_slice::<serde_json::Value>(kind::strip_bom(&self.bytes))
            {
                anyhow::bail!("{} is not valid JSON: {}", self.name, json_message(&e));
            }
        }
        if kinds.contains(&self.kind) {
            return Ok(());
        }
        if self.kind == Kind::Json {
            if let Some(near) = json_near_miss(&self.bytes) {
                anyhow::bail!(
                    "{} is JSON that dxso does not read: it has `{}` where a {} has `{}`",
                    self.name,
                    near.0,
                    near.2,
                    near.1
                );
            }
        }
        Err(CliError::WrongKind {
            file: self.name.clone(),
            kind: self.kind,
            hint: self.kind.hint().to_string(),
        }
        .into())
    }

    /// The text, without a UTF-8 byte-order mark.
    pub fn text(&self) -> Result<&str> {
        std::str::from_utf8(kind::strip_bom(&self.bytes))
            .with_context(|| format!("{} is not UTF-8 text", self.name))
    }

    /// The shader bytecode of a bytecode file or of a header's array `name`; fails with a
    /// hint for every other kind.
    pub fn shader_bytes(&self, name: Option<&str>) -> Result<Vec<u8>> {
        self.expect(&[Kind::Bytecode, Kind::Header])?;
        if self.kind == Kind::Bytecode {
            if let Some(n) = name {
                return Err(CliError::Usage(format!(
                    "--name {n} picks an array of a C header, but {} is shader bytecode",
                    self.name
                ))
                .into());
            }
            return Ok(self.bytes.clone());
        }
        let bytes =
            header::header_array(self.text()?, name).with_context(|| self.name.to_string())?;
        log::info!(
            "{}: {} bytes of bytecode in the header",
            self.name,
            bytes.len()
        );
        Ok(bytes)
    }

    /// The shader and its bytes: decoded from bytecode or a header, or (when `read.assemble`)
    /// assembled from assembly text first.
    pub fn shader(&self, read: &ShaderRead) -> Result<(Vec<u8>, dxso::Shader)> {
        self.shader_mapped(read)
            .map(|(bytes, shader, _)| (bytes, shader))
    }

    /// [`Source::shader`], with the map from the shader's items to the lines of assembly text
    /// (`None` for bytecode), so findings can name the line and column.
    pub fn shader_mapped(
        &self,
        read: &ShaderRead,
    ) -> Result<(Vec<u8>, dxso::Shader, Option<dxso_text::SourceMap>)> {
        if read.assemble && self.kind == Kind::Assembly {
            let (shader, warnings, map) =
                self.assemble_mapped(dxso_text::ParseOptions::default())?;
            for w in &warnings {
                log::warn!("{w}");
            }
            return Ok((dxso::encode(&shader), shader, Some(map)));
        }
        let (bytes, shader) = self.decoded(read)?;
        Ok((bytes, shader, None))
    }

    fn decoded(&self, read: &ShaderRead) -> Result<(Vec<u8>, dxso::Shader)> {
        if read.assemble && self.kind == Kind::Assembly {
            let (shader, warnings) = self.assemble(dxso_text::ParseOptions::default())?;
            for w in &warnings {
                log::warn!("{w}");
            }
            return Ok((dxso::encode(&shader), shader));
        }
        let bytes = self.shader_bytes(read.name.as_deref())?;
        let shader = crate::session::timed(format_args!("decoding {}", self.name), || {
            dxso::decode(&bytes)
        })
        .with_context(|| format!("decoding {}", self.name))?;
        Ok((bytes, shader))
    }

    /// The items a shader file cut short (or damaged) holds before the place decoding stops:
    /// `None` when the input is not bytecode, decodes whole, or has no readable version token.
    /// Commands print these before the error, so the user sees how far the file is good.
    pub fn decoded_prefix(&self, read: &ShaderRead) -> Option<dxso::Shader> {
        if read.assemble && self.kind == Kind::Assembly {
            return None;
        }
        let bytes = self.shader_bytes(read.name.as_deref()).ok()?;
        let whole = bytes.len() / 4 * 4;
        let words = dxso::decode::words_of(&bytes[..whole]).ok()?;
        let mut reader = dxso::Reader::new(&words).ok()?;
        let mut shader = dxso::Shader::new(reader.version());
        loop {
            match reader.next_item() {
                Ok(Some((_, item))) => shader.items.push(item),
                Ok(None) if whole == bytes.len() => return None,
                Ok(None) | Err(_) => return Some(shader),
            }
        }
    }

    /// Assembles the text with `options` (its path set to this file's, for `#include`s and
    /// messages); errors are every diagnostic of the run ([`CliError::Assembly`]); the
    /// warnings of a run that assembled come back beside the shader.
    pub fn assemble(
        &self,
        options: dxso_text::ParseOptions<'_>,
    ) -> Result<(dxso::Shader, Vec<dxso_text::Diagnostic>)> {
        self.assemble_by(options, dxso_text::parse_with_warnings)
    }

    /// [`Source::assemble`] with the [`dxso_text::SourceMap`] from items to lines.
    pub fn assemble_mapped(
        &self,
        options: dxso_text::ParseOptions<'_>,
    ) -> Result<(
        dxso::Shader,
        Vec<dxso_text::Diagnostic>,
        dxso_text::SourceMap,
    )> {
        self.assemble_by(options, |text, options| {
            dxso_text::Assembler::new().parse_mapped(text, options)
        })
    }

    /// [`Source::assemble`] to the encoded bytes alone (`dxso_text::assemble_with`: the same
    /// bytes and errors, without building the shader when the text needs no preprocessor).
    pub fn assemble_bytes(
        &self,
        options: dxso_text::ParseOptions<'_>,
    ) -> Result<(Vec<u8>, Vec<dxso_text::Diagnostic>)> {
        self.assemble_by(options, dxso_text::assemble_with_warnings)
    }

    fn assemble_by<T>(
        &self,
        mut options: dxso_text::ParseOptions<'_>,
        assemble: impl FnOnce(&str, &dxso_text::ParseOptions<'_>) -> Result<T, dxso_text::Diagnostics>,
    ) -> Result<T> {
        // Text without a version statement goes to the assembler too, which says where the
        // version statement should be.
        self.expect(&[Kind::Assembly, Kind::Text])?;
        let text = self.text()?;
        if self.path.is_some() {
            options.path = self.path.clone();
        }
        crate::session::timed(format_args!("assembling {}", self.name), || {
            assemble(text, &options)
        })
        .map_err(|diagnostics| {
            CliError::Assembly {
                file: self.name.clone(),
                diagnostics,
            }
            .into()
        })
    }
}

/// How a command reads a shader.
#[derive(Clone, Debug, Default)]
pub struct ShaderRead {
    /// The header array (`--name`).
    pub name: Option<String>,
    /// Assembly text is assembled first (`disasm`, `validate`); otherwise it is refused with a
    /// hint.
    pub assemble: bool,
}

/// A top-level key of a JSON object that misspells the key that makes it a DP2 description
/// (`commands`) or a patch (`control_points`): the key, the one meant and what it makes.
fn json_near_miss(bytes: &[u8]) -> Option<(String, &'static str, &'static str)> {
    let value: serde_json::Value = serde_json::from_slice(kind::strip_bom(bytes)).ok()?;
    value.as_object()?.keys().find_map(|key| {
        [("commands", "DP2 description"), ("control_points", "patch")]
            .into_iter()
            .find(|(meant, _)| {
                let limit = (meant.len() / 3).max(1);
                strsim::levenshtein(key, meant) <= limit
            })
            .map(|(meant, what)| (key.clone(), meant, what))
    })
}

/// serde_json's message for `e`, with the nearest valid name added to an unknown field
/// ("unknown field `degre`, expected one of `basis`, `degree` ... (did you mean `degree`?)").
pub fn json_message(e: &serde_json::Error) -> String {
    let message = e.to_string();
    let Some(rest) = message.strip_prefix("unknown field `") else {
        return message;
    };
    let Some((field, rest)) = rest.split_once('`') else {
        return message;
    };
    let expected = rest.split('`').skip(1).step_by(2);
    let limit = (field.chars().count() / 3).max(1);
    let nearest = expected
        .map(|c| (strsim::levenshtein(field, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d);
    match nearest {
        Some((_, near)) => format!("{message} (did you mean `{near}`?)"),
        None => message,
    }
}

/// The missing-FILE rule: standard input when it is not a terminal, else a usage error.
fn file_or_stdin(file: Option<&PathBuf>, s: &Session) -> Result<PathBuf> {
    match file {
        Some(f) => Ok(f.clone()),
        None if s.stdin_is_terminal() => Err(CliError::Usage(
            "no input: give a FILE, or `-` (or nothing) with standard input piped in".into(),
        )
        .into()),
        None => Ok(PathBuf::from("-")),
    }
}

fn read_checked(file: Option<&PathBuf>, s: &Session) -> Result<Source> {
    let path = file_or_stdin(file, s)?;
    let source = Source::read(&path)?;
    if file.is_none() && source.bytes.is_empty() {
        return Err(
            CliError::Usage("no FILE given and standard input is empty".to_string()).into(),
        );
    }
    Ok(source)
}

/// One input file of any kind.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct FileArg {
    /// The input file; `-` or absent: standard input.
    pub file: Option<PathBuf>,
}

impl FileArg {
    /// Reads it.
    pub fn read(&self, s: &Session) -> Result<Source> {
        read_checked(self.file.as_ref(), s)
    }
}

/// One shader input: bytecode, an fxc `/Fh` header, or `-`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct InputArg {
    /// The shader: bytecode, a C header as fxc /Fh writes it (BYTE or DWORD array), or `-`;
    /// absent: standard input.
    pub file: Option<PathBuf>,
    /// In a header with several arrays, the one to read (default: the first).
    #[arg(long, value_name = "ARRAY")]
    pub name: Option<String>,
}

impl InputArg {
    /// Reads the file as it is.
    pub fn read(&self, s: &Session) -> Result<Source> {
        read_checked(self.file.as_ref(), s)
    }

    /// The shader's bytes and its decoded model; a decoding error names the file, the offset
    /// and the rule. (The entry point of single-shader commands such as `run`, `translate`.)
    #[allow(dead_code)]
    pub fn read_decoded(&self, s: &Session) -> Result<(Vec<u8>, dxso::Shader)> {
        self.read(s)?.shader(&self.shader_read(false))
    }

    /// The same, assembling assembly text first.
    #[allow(dead_code)]
    pub fn read_or_assemble(&self, s: &Session) -> Result<(Vec<u8>, dxso::Shader)> {
        self.read(s)?.shader(&self.shader_read(true))
    }

    fn shader_read(&self, assemble: bool) -> ShaderRead {
        ShaderRead {
            name: self.name.clone(),
            assemble,
        }
    }
}

/// Several inputs: files, folders (searched for the extensions of the kinds the command reads)
/// and `-`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct InputsArg {
    /// Files or folders; `-` or none: standard input. Folders are searched for the
    /// extensions of what the command reads (shader bytecode: .dxso .vso .pso .fxo .cso .bin;
    /// headers: .h; assembly: .asm), or those of --ext.
    pub files: Vec<PathBuf>,
    /// In C headers with several arrays, the one to read (default: the first).
    #[arg(long, value_name = "ARRAY")]
    pub name: Option<String>,
    /// The file extensions a folder search takes instead of the default ones, comma-separated
    /// (`--ext dxso,fxc`); the kind of each file is still told from its bytes.
    #[arg(long, value_name = "EXT,...", value_delimiter = ',')]
    pub ext: Vec<String>,
}

/// One input of a batch: where it is, and the relative path its output is named after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputPath {
    /// The file (or `-`).
    pub path: PathBuf,
    /// Its path under the folder it was found in, or its file name.
    pub rel: PathBuf,
    /// Standard input read because no FILE was given (then empty input is a usage error).
    pub implied: bool,
}

impl InputPath {
    /// Reads the input.
    pub fn read(&self) -> Result<Source> {
        let source = Source::read(&self.path)?;
        if self.implied && source.bytes.is_empty() {
            return Err(CliError::Usage("no FILE given and standard input is empty".into()).into());
        }
        Ok(source)
    }
}

impl InputsArg {
    /// Every input, folders expanded to their files with an extension of `kinds` (sorted).
    /// `several` in the result is true when more than one input was given or found.
    pub fn expand(&self, s: &Session, kinds: &[Kind]) -> Result<(Vec<InputPath>, bool)> {
        if self.files.is_empty() {
            let path = file_or_stdin(None, s)?;
            let mut input = stdin_input(path);
            input.implied = true;
            return Ok((vec![input], false));
        }
        let mut extensions: Vec<&str> = if self.ext.is_empty() {
            kinds.iter().flat_map(|k| k.extensions()).copied().collect()
        } else {
            self.ext.iter().map(|e| e.trim_start_matches('.')).collect()
        };
        let mut seen = std::collections::HashSet::new();
        extensions.retain(|e| seen.insert(e.to_ascii_lowercase()));
        let patterns = extensions
            .iter()
            .map(|e| format!("*.{e}"))
            .collect::<Vec<_>>()
            .join(", ");
        let mut out = Vec::new();
        let mut folder = false;
        let mut skipped = 0usize;
        for f in &self.files {
            if f.as_os_str() == "-" {
                out.push(stdin_input(f.clone()));
            } else if f.is_dir() {
                folder = true;
                let before = out.len();
                walk(f, f, &extensions, &mut out, &mut skipped)
                    .with_context(|| format!("searching {}", f.display()))?;
                out[before..].sort_by(|a, b| a.path.cmp(&b.path));
                if out.len() == before {
                    s.warn(&format!("{} holds no {patterns} file", f.display()));
                }
            } else {
                let rel = f.file_name().map_or_else(|| f.clone(), PathBuf::from);
                out.push(InputPath {
                    path: f.clone(),
                    rel,
                    implied: false,
                });
            }
        }
        if out.iter().filter(|i| i.path.as_os_str() == "-").count() > 1 {
            return Err(
                CliError::Usage("`-` (standard input) can be read only once".into()).into(),
            );
        }
        if skipped > 0 {
            s.note(&format!(
                "skipped {skipped} file(s) in the folders that are not {patterns} (--ext takes \
                 other extensions)"
            ));
        }
        if out.is_empty() {
            return Err(CliError::NothingToRead(format!(
                "no input: the folders given hold no {patterns} file{}",
                if skipped > 0 {
                    format!(" ({skipped} other file(s) skipped; --ext takes other extensions)")
                } else {
                    String::new()
                }
            ))
            .into());
        }
        let several = folder || out.len() > 1;
        log::info!("{} input(s)", out.len());
        Ok((out, several))
    }

    /// How to read a shader from each input.
    pub fn shader_read(&self, assemble: bool) -> ShaderRead {
        ShaderRead {
            name: self.name.clone(),
            assemble,
        }
    }
}

fn stdin_input(path: PathBuf) -> InputPath {
    InputPath {
        path,
        rel: PathBuf::from("stdin"),
        implied: false,
    }
}

fn walk(
    root: &Path,
    dir: &Path,
    extensions: &[&str],
    out: &mut Vec<InputPath>,
    skipped: &mut usize,
) -> Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(root, &path, extensions, out, skipped)?;
        } else if !path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| extensions.iter().any(|x| x.eq_ignore_ascii_case(e)))
        {
            *skipped += 1;
        } else {
            let rel = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
            out.push(InputPath {
                path,
                rel,
                implied: false,
            });
        }
    }
    Ok(())
}
