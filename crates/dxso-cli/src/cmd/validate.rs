use crate::input::InputArg;
use anyhow::Result;
use dxso::validate::{Diagnostic, Operand, Options};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::ExitCode;

/// Check shaders against every Direct3D 9 rule of their version (docs/VALIDATION.md).
///
/// Each finding names its rule id, the DWORD offset (version token = DWORD 0; byte offset in
/// brackets), the instruction index, the operand and register at fault.
///
/// Examples:
///   dxso validate shader.dxso
///   dxso validate shaders/*.dxso --json
///   dxso validate skin.vso --max-vertex-constants 8192
///   dxso validate --rules
///
/// Exit status: 0 when every file is valid (warnings allowed), 1 when any file is invalid or
/// cannot be read or decoded, 2 on usage errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    /// Shader files: raw bytecode, fxc `/Fh` C headers (first array), or `-` for stdin.
    #[arg(required_unless_present = "rules")]
    files: Vec<PathBuf>,
    /// Print the rule table (Markdown, as in docs/VALIDATION.md) and exit.
    #[arg(long)]
    rules: bool,
    /// Print one JSON object: `{"valid": bool, "files": [...]}`.
    #[arg(long)]
    json: bool,
    /// The device's MaxVertexShaderConst, raising the float-constant limit of vs_1_1-vs_2_x.
    #[arg(long, value_name = "N")]
    max_vertex_constants: Option<u32>,
}

impl Opts {
    pub fn run(self) -> Result<ExitCode> {
        if self.rules {
            print!("{}", dxso::validate::rules_markdown());
            return Ok(ExitCode::SUCCESS);
        }
        let options = Options {
            max_vertex_constants: self.max_vertex_constants,
        };
        let mut all_valid = true;
        let mut files = Vec::new();
        for file in &self.files {
            let input = InputArg {
                file: file.clone(),
                name: None,
            };
            let name = input.display();
            let outcome = input
                .read_shader()
                .and_then(|bytes| dxso::decode(&bytes).map_err(|e| anyhow::anyhow!("{e}")));
            let shader = match outcome {
                Ok(s) => s,
                Err(e) => {
                    all_valid = false;
                    if self.json {
                        files
                            .push(json!({"file": name, "valid": false, "error": format!("{e:#}")}));
                    } else {
                        println!("{name}: error: {e:#}");
                    }
                    continue;
                }
            };
            let report = dxso::validate_with(&shader, &options);
            let valid = report.is_valid();
            all_valid &= valid;
            let (errors, warnings) = (report.errors().count(), report.warnings().count());
            if self.json {
                files.push(json!({
                    "file": name,
                    "version": shader.version.to_string(),
                    "valid": valid,
                    "errors": errors,
                    "warnings": warnings,
                    "diagnostics": report.diagnostics.iter().map(diagnostic_json).collect::<Vec<_>>(),
                }));
            } else {
                for d in &report.diagnostics {
                    println!("{}", human(&name, d));
                }
                println!(
                    "{name}: {}: {} ({errors} error{}, {warnings} warning{})",
                    shader.version,
                    if valid { "valid" } else { "INVALID" },
                    if errors == 1 { "" } else { "s" },
                    if warnings == 1 { "" } else { "s" },
                );
            }
        }
        if self.json {
            println!(
                "{}",
                serde_json::to_string_pretty(&json!({"valid": all_valid, "files": files}))?
            );
        }
        Ok(if all_valid {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        })
    }
}

/// `file:dword 16 [0x40]: error[V0204]: message (instruction 4, src0 c32)`.
fn human(file: &str, d: &Diagnostic) -> String {
    let mut at = Vec::new();
    if let Some(i) = d.instruction {
        at.push(format!("instruction {i}"));
    }
    if let Some(o) = d.operand.filter(|o| *o != Operand::Instruction) {
        at.push(match &d.register {
            Some(r) => format!("{o} {r}"),
            None => o.to_string(),
        });
    }
    let at = if at.is_empty() {
        String::new()
    } else {
        format!(" ({})", at.join(", "))
    };
    format!(
        "{file}:dword {} [{:#x}]: {}[{}]: {}{at}",
        d.offset,
        d.offset * 4,
        d.severity,
        d.rule.id(),
        d.message
    )
}

fn diagnostic_json(d: &Diagnostic) -> Value {
    json!({
        "rule": d.rule.id(),
        "severity": d.severity.name(),
        "item": d.item,
        "instruction": d.instruction,
        "dword_offset": d.offset,
        "byte_offset": d.offset * 4,
        "operand": d.operand.map(|o| o.to_string()),
        "register": d.register,
        "message": d.message,
        "rule_summary": d.rule.summary(),
    })
}
