use crate::measure::{measure, measure_pair, BenchArgs};
use crate::session::Session;
use anyhow::{Context, Result};
use serde_json::json;
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

/// HLSL compilation over the corpus sources: `dxso compile` against glslang's HLSL front end
/// (`glslangValidator -D --hlsl-dx9-compatible -V`, HLSL to SPIR-V) on the same sources, in
/// alternating passes.
///
/// The sources are the vs/ps 2_0-3_0 rows of `corpus/hlsl/CASES.tsv` (source, entry point,
/// profile, defines). **Both sides run one process per source**: `dxso compile` (the binary
/// beside this one, or `--dxso PATH`) and `glslangValidator`, each with the row's entry point,
/// defines and stage, output to a temporary file, so process start-up counts on both sides.
/// `ratio` is dxso's sources per second divided by glslang's, over the rows both compile (the
/// failures of each side are counted and left out, since a source that fails early costs
/// less). dxso compiling in process (no process start-up, `dxso_hlsl::compile`) is reported
/// beside it for scale; it is not the ratio.
///
/// Example:
///   cargo build --release -p dxso-cli -p dxso-bench
///   target/release/dxso-bench compile --json
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    args: BenchArgs,
    /// The `dxso` binary (default: the one beside this program, else `dxso` on the PATH).
    #[arg(long)]
    dxso: Option<PathBuf>,
    /// The glslang binary.
    #[arg(long, default_value = "glslangValidator")]
    glslang: PathBuf,
}

/// One row of `CASES.tsv` that both compilers can be given.
struct Row {
    source: PathBuf,
    entry: String,
    profile: String,
    defines: Vec<String>,
    text: String,
}

fn rows(corpus: &Path) -> Result<Vec<Row>> {
    let dir = corpus.join("hlsl");
    let tsv = std::fs::read_to_string(dir.join("CASES.tsv"))
        .with_context(|| format!("reading {}", dir.join("CASES.tsv").display()))?;
    let mut out = Vec::new();
    for line in tsv.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let [_, source, entry, profile, defines, ..] = f[..] else {
            continue;
        };
        if !matches!(profile, "vs_2_0" | "vs_3_0" | "ps_2_0" | "ps_3_0") {
            continue;
        }
        let source = dir.join(source);
        let text = std::fs::read_to_string(&source)
            .with_context(|| format!("reading {}", source.display()))?;
        out.push(Row {
            source,
            entry: entry.into(),
            profile: profile.into(),
            defines: defines.split_whitespace().map(String::from).collect(),
            text,
        });
    }
    anyhow::ensure!(
        !out.is_empty(),
        "no vs/ps 2_0-3_0 rows in {}",
        dir.display()
    );
    Ok(out)
}

fn dxso_command(bin: &Path, r: &Row, out: &Path) -> Command {
    let mut c = Command::new(bin);
    c.arg("compile")
        .arg(&r.source)
        .args(["-T", &r.profile, "-E", &r.entry]);
    for d in &r.defines {
        c.arg("-D").arg(d);
    }
    c.arg("-o").arg(out);
    c
}

fn glslang_command(bin: &Path, r: &Row, out: &Path) -> Command {
    let mut c = Command::new(bin);
    let stage = if r.profile.starts_with("vs") {
        "vert"
    } else {
        "frag"
    };
    c.args([
        "-D",
        "--hlsl-dx9-compatible",
        "-S",
        stage,
        "-e",
        &r.entry,
        "-V",
    ]);
    for d in &r.defines {
        c.arg(format!("-D{d}"));
    }
    c.arg("-o").arg(out).arg(&r.source);
    c
}

fn succeeds(mut c: Command) -> bool {
    c.stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn in_process(r: &Row) -> bool {
    let profile: dxso_hlsl::Profile = match r.profile.parse() {
        Ok(p) => p,
        Err(_) => return false,
    };
    let mut o = dxso_hlsl::Options::new(&r.entry, profile);
    o.defines = r
        .defines
        .iter()
        .map(|d| match d.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => (d.clone(), "1".to_string()),
        })
        .collect();
    o.includes = std::sync::Arc::new(dxso_hlsl::FileIncludes::default());
    let src = dxso_hlsl::Source::new(r.source.to_string_lossy(), r.text.clone());
    dxso_hlsl::compile(&src, &o).is_ok_and(|c| !c.bytes().is_empty())
}

fn dxso_binary(given: &Option<PathBuf>) -> PathBuf {
    if let Some(p) = given {
        return p.clone();
    }
    let beside = std::env::current_exe().ok().and_then(|e| {
        e.parent()
            .map(|d| d.join(format!("dxso{}", std::env::consts::EXE_SUFFIX)))
    });
    match beside {
        Some(p) if p.is_file() => p,
        _ => PathBuf::from("dxso"),
    }
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        let all = rows(&self.args.corpus_dir()?)?;
        let dxso = dxso_binary(&self.dxso);
        let tmp = std::env::temp_dir().join(format!("dxso-bench-compile-{}", std::process::id()));
        std::fs::create_dir_all(&tmp)?;
        let out_d = tmp.join("out.dxso");
        let out_g = tmp.join("out.spv");
        anyhow::ensure!(
            Command::new(&dxso)
                .arg("--version")
                .stdout(Stdio::null())
                .status()
                .is_ok_and(|s| s.success()),
            "{} does not run (build dxso-cli, or pass --dxso)",
            dxso.display()
        );
        let glslang_runs = Command::new(&self.glslang)
            .arg("--version")
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        let ok_d: Vec<bool> = all
            .iter()
            .map(|r| succeeds(dxso_command(&dxso, r, &out_d)))
            .collect();
        let ok_g: Vec<bool> = all
            .iter()
            .map(|r| glslang_runs && succeeds(glslang_command(&self.glslang, r, &out_g)))
            .collect();
        let both: Vec<&Row> = all
            .iter()
            .zip(ok_d.iter().zip(&ok_g))
            .filter(|(_, (d, g))| **d && **g)
            .map(|(r, _)| r)
            .collect();
        anyhow::ensure!(!both.is_empty(), "no source compiles with both");
        let (d_pass, g_pass) = measure_pair(
            &self.args,
            || {
                for r in &both {
                    black_box(succeeds(dxso_command(&dxso, r, &out_d)));
                }
            },
            glslang_runs.then(|| {
                Box::new(|| {
                    for r in &both {
                        black_box(succeeds(glslang_command(&self.glslang, r, &out_g)));
                    }
                }) as Box<dyn FnMut()>
            }),
        );
        let in_proc = measure(self.args.budget(), || {
            for r in &both {
                black_box(in_process(r));
            }
        });
        let _ = std::fs::remove_dir_all(&tmp);
        let n = both.len() as f64;
        let dxso_fail = ok_d.iter().filter(|x| !**x).count();
        let glslang_fail = glslang_runs.then(|| ok_g.iter().filter(|x| !**x).count());
        let ratio = g_pass.map(|g| d_pass / g);
        if s.json {
            let j = json!({
                "bench": "compile",
                "measured": "one process per source for both sides",
                "rows": all.len(),
                "sources": both.len(),
                "dxso": { "sources_per_s": d_pass * n, "failures": dxso_fail, "command": "dxso compile FILE -T PROFILE -E ENTRY [-D NAME=VALUE] -o OUT" },
                "glslang": g_pass.map(|g| json!({ "sources_per_s": g * n, "failures": glslang_fail, "command": "glslangValidator -D --hlsl-dx9-compatible -S vert|frag -e ENTRY -V [-DNAME=VALUE] -o OUT FILE" })),
                "dxso_in_process": { "sources_per_s": in_proc * n },
                "ratio": ratio,
            });
            s.print_json(&j)?;
            return Ok(ExitCode::SUCCESS);
        }
        let mut out = String::new();
        writeln!(
            out,
            "compile HLSL: {} vs/ps 2_0-3_0 rows of CASES.tsv, {} compiled by both, one process per source each",
            all.len(),
            both.len()
        )?;
        writeln!(
            out,
            "{:<40} {:>12} {:>10}",
            "implementation", "sources/s", "failures"
        )?;
        writeln!(
            out,
            "{:<40} {:>12.1} {:>10}",
            "dxso compile (process)",
            d_pass * n,
            dxso_fail
        )?;
        match (g_pass, glslang_fail) {
            (Some(g), Some(f)) => writeln!(
                out,
                "{:<40} {:>12.1} {:>10}",
                "glslangValidator -D -V (process)",
                g * n,
                f
            )?,
            _ => writeln!(
                out,
                "{:<40} {:>12} {:>10}",
                "glslangValidator", "n/a", "n/a"
            )?,
        }
        writeln!(
            out,
            "{:<40} {:>12.1} {:>10}",
            "dxso_hlsl::compile (in process, scale)",
            in_proc * n,
            ""
        )?;
        match ratio {
            Some(r) => writeln!(
                out,
                "ratio (dxso / glslang, both one process per source): {r:.2}x"
            )?,
            None => writeln!(out, "ratio: n/a ({} not found)", self.glslang.display())?,
        }
        s.print(&out)?;
        Ok(ExitCode::SUCCESS)
    }
}
