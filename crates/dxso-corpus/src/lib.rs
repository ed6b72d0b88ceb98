//! Test support: finds the shader corpus and lists its files.
//!
//! The corpus is part of the repository (`corpus/` at its root, with its README, manifest and
//! licenses), so a clone runs every corpus test. `$DXSO_CORPUS` points the tests at another copy.
//! Corpus tests call [`corpus_dir`]; should it return `None` (a crate built outside the
//! repository) they print a notice and skip; `DXSO_REQUIRE_CORPUS=1` turns that into a failure.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The corpus folder: `$DXSO_CORPUS` when set, else the repository's `corpus/`.
pub fn corpus_dir() -> Option<PathBuf> {
    if let Ok(dir) = std::env::var("DXSO_CORPUS") {
        let p = PathBuf::from(dir);
        return p.is_dir().then_some(p);
    }
    // crates/<name> -> the repository root.
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    if p.join("MANIFEST.tsv").is_file() {
        return Some(p.canonicalize().unwrap_or(p));
    }
    if std::env::var_os("DXSO_REQUIRE_CORPUS").is_some() {
        panic!("DXSO_REQUIRE_CORPUS is set but the repository's corpus/ folder was not found");
    }
    None
}

/// The corpus folder, or a printed notice and `None` (tests return early on `None`).
pub fn corpus_or_skip(test: &str) -> Option<PathBuf> {
    let dir = corpus_dir();
    if dir.is_none() {
        eprintln!("{test}: the corpus folder was not found, skipping (set DXSO_CORPUS to run it)");
    }
    dir
}

/// For the profiling examples: the corpus folder given on the command line, else
/// [`corpus_dir`]; without either, a message and exit status 2.
pub fn corpus_dir_from_arg(arg: Option<String>) -> PathBuf {
    match arg.map(PathBuf::from).or_else(corpus_dir) {
        Some(dir) => dir,
        None => {
            eprintln!("no corpus folder: pass one, or set DXSO_CORPUS");
            std::process::exit(2);
        }
    }
}

/// One shader of the corpus.
#[derive(Clone, Debug)]
pub struct Entry {
    /// `source/name.dxso`, relative to the corpus folder.
    pub rel: String,
    /// The absolute path of the `.dxso` file.
    pub path: PathBuf,
    /// The source folder (`wine`, `bgfx`, ...).
    pub source: String,
}

impl Entry {
    /// The file's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        std::fs::read(&self.path).unwrap_or_else(|e| panic!("{}: {e}", self.path.display()))
    }

    /// A sibling file with another suffix (`ms.asm`, `src.asm`), if it exists.
    pub fn sibling(&self, suffix: &str) -> Option<PathBuf> {
        let stem = self.path.to_str()?.strip_suffix(".dxso")?;
        let stem = stem.strip_suffix(".invalid").unwrap_or(stem);
        let p = PathBuf::from(format!("{stem}.{suffix}"));
        p.is_file().then_some(p)
    }

    /// `true` for Wine's deliberately invalid shaders.
    pub fn is_invalid(&self) -> bool {
        self.rel.ends_with(".invalid.dxso")
    }

    /// `true` for the hand-written sources (`wine`, `wine-asm`).
    pub fn is_hand_written(&self) -> bool {
        self.source == "wine" || self.source == "wine-asm"
    }
}

/// Every `.dxso` file, sorted by relative path.
pub fn entries(dir: &Path) -> Vec<Entry> {
    let mut out = Vec::new();
    let Ok(sources) = std::fs::read_dir(dir) else {
        return out;
    };
    for source in sources.flatten() {
        let sp = source.path();
        if !sp.is_dir() {
            continue;
        }
        let sname = source.file_name().to_string_lossy().into_owned();
        for f in std::fs::read_dir(&sp).into_iter().flatten().flatten() {
            let name = f.file_name().to_string_lossy().into_owned();
            if name.ends_with(".dxso") {
                out.push(Entry {
                    rel: format!("{sname}/{name}"),
                    path: f.path(),
                    source: sname.clone(),
                });
            }
        }
    }
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    out
}

/// `MANIFEST.tsv` as rows keyed by `path`, each a map from column name to value.
pub fn manifest(dir: &Path) -> HashMap<String, HashMap<String, String>> {
    let text = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap_or_default();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    lines
        .map(|l| {
            let row: HashMap<String, String> = header
                .iter()
                .zip(l.split('\t'))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            (row.get("path").cloned().unwrap_or_default(), row)
        })
        .collect()
}

/// One effect of `effects/` with the counts `effects/README.md` records for it.
#[derive(Clone, Debug)]
pub struct EffectEntry {
    /// The file name (`fna_BasicEffect.fxb`).
    pub name: String,
    /// The absolute path.
    pub path: PathBuf,
    /// Parameters.
    pub parameters: usize,
    /// Techniques.
    pub techniques: usize,
    /// Passes over all techniques.
    pub passes: usize,
    /// Embedded vertex and pixel programs with a nonzero size.
    pub shaders: usize,
    /// What MojoShader (0.0~hg1314) does with the file, as the README records it.
    pub mojoshader: String,
}

impl EffectEntry {
    /// The file's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        std::fs::read(&self.path).unwrap_or_else(|e| panic!("{}: {e}", self.path.display()))
    }
}

/// The effects listed in the table of `effects/README.md`, in table order.
pub fn effects(dir: &Path) -> Vec<EffectEntry> {
    let folder = dir.join("effects");
    let text = std::fs::read_to_string(folder.join("README.md")).unwrap_or_default();
    let mut out = Vec::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // | file | repo | path | commit | licence | bytes | SHA-1 | MojoShader | params |
        //   techniques | passes | shaders |
        if cells.len() != 14 || !cells[1].ends_with(".fxb`") {
            continue;
        }
        let name = cells[1].trim_matches('`').to_string();
        let num = |i: usize| cells[i].parse::<usize>().ok();
        let (Some(parameters), Some(techniques), Some(passes), Some(shaders)) =
            (num(9), num(10), num(11), num(12))
        else {
            continue;
        };
        out.push(EffectEntry {
            path: folder.join(&name),
            name,
            parameters,
            techniques,
            passes,
            shaders,
            mojoshader: cells[8].to_string(),
        });
    }
    out
}
