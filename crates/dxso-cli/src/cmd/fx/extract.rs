use crate::input::FileArg;
use crate::report::CliError;
use crate::session::Session;
use anyhow::{Context, Result};
use dxso_fx::describe;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Write every embedded shader of an effect to a folder: its bytecode (`.dxso`), its listing
/// as Microsoft's tools print it (`.asm`, which `dxso asm` assembles back to the same
/// instructions; comment blocks such as the constant table are not in listings), and its
/// preshader when it has one (`.preshader.txt`).
///
/// Files are named `NN_NAME.VERSION.*`: NN the shader's index in `dxso fx info`, NAME the
/// parameter holding it (`VSArray_3`) or the technique, pass and state of an inline compile.
/// With --json, prints {"file", "shaders": [{"index", "name", "version", "files": [...]}]}.
///
/// Examples:
///   dxso fx extract BasicEffect.fxb -o shaders/
///   dxso fx extract BasicEffect.fxb -o shaders/ --json
///
/// Exit status: 0 on success, 1 when the effect is malformed, 2 on I/O errors and
/// on usage errors (no -o, or `-o -`: standard output cannot hold several files) and when a
/// file it would write exists (give --force), before anything is written.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    input: FileArg,
    /// The folder to write into (created if missing).
    #[arg(short, long, value_name = "DIR")]
    output: Option<PathBuf>,
    #[command(flatten)]
    force: crate::output::ForceArg,
}

/// `VSArray[3]` as a file name part: `VSArray_3`.
fn file_part(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    while out.ends_with('_') {
        out.pop();
    }
    if out.is_empty() {
        out.push_str("shader");
    }
    out
}

fn write(s: &Session, path: &Path, bytes: &[u8]) -> Result<String> {
    crate::output::write_file(s, path, bytes)?;
    Ok(path.display().to_string())
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        let Some(dir) = self.output.clone() else {
            return Err(CliError::Usage(
                "dxso fx extract writes several files: give the folder with -o DIR".into(),
            )
            .into());
        };
        crate::output::refuse_stdout_for_several("dxso fx extract", Some(&dir))?;
        let (source, effect) = super::read_effect(s, &self.input)?;
        // Every file is named before any is written, so that a refusal leaves the folder as
        // it was.
        let mut plans = Vec::new();
        for (i, (src, sh)) in effect.shaders().enumerate() {
            let name = describe::shader_name(&effect, src);
            let version = sh.shader.version.to_string();
            let stem = format!("{i:02}_{}.{version}", file_part(&name));
            let preshader = sh.preshader();
            if let Some(Err(e)) = &preshader {
                s.warn(&format!("{name}: unreadable preshader: {e}"));
            }
            let mut files = vec![
                (dir.join(format!("{stem}.dxso")), sh.to_bytes()),
                (
                    dir.join(format!("{stem}.asm")),
                    dxso_text::print(&sh.shader).into_bytes(),
                ),
            ];
            if let Some(Ok(p)) = preshader {
                files.push((
                    dir.join(format!("{stem}.preshader.txt")),
                    p.listing().into_bytes(),
                ));
            }
            plans.push((i, name, version, files));
        }
        let planned: Vec<crate::output::Planned> = plans
            .iter()
            .flat_map(|(.., files)| files)
            .map(|(path, _)| crate::output::Planned {
                path: path.clone(),
                from: self.input.file.clone(),
            })
            .collect();
        let inputs: Vec<&Path> = self.input.file.iter().map(PathBuf::as_path).collect();
        crate::output::check_plan(&planned, &inputs, self.force.force)?;
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let mut listed = Vec::new();
        let mut text = String::new();
        for (i, name, version, files) in plans {
            let files = files
                .iter()
                .map(|(path, bytes)| write(s, path, bytes))
                .collect::<Result<Vec<_>>>()?;
            text.push_str(&format!("{}\n", files.join("\n")));
            listed.push(json!({"index": i, "name": name, "version": version, "files": files}));
        }
        if s.json {
            s.print_json(&json!({"file": source.name, "shaders": listed}))?;
        } else if !s.quiet {
            s.print(&text)?;
            s.note(&format!(
                "{}: {} written to {}",
                source.name,
                super::info::plural(listed.len(), "shader"),
                dir.display()
            ));
        }
        Ok(ExitCode::SUCCESS)
    }
}
