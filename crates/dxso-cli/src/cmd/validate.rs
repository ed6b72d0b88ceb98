use crate::batch;
use crate::input::{InputsArg, Kind};
use crate::session::{Level, Session};
use anyhow::Result;
use dxso::validate::{Diagnostic, Operand, Options, Report, Severity};
use dxso_text::SourceMap;
use serde_json::{json, Value};
use std::process::ExitCode;

/// Check shaders against every Direct3D 9 rule of their version (docs/VALIDATION.md).
///
/// Each finding names its rule id, the DWORD offset (version token = DWORD 0; byte offset in
/// brackets), the instruction index, the operand and register at fault. Findings go to standard
/// error; standard output gets one verdict line per input. Reads raw bytecode, fxc /Fh C
/// headers and assembly text (assembled first); folders are searched for *.dxso, *.vso, *.pso,
/// *.h and *.asm. A summary line (`1188 valid, 84 invalid`) ends a run over several inputs.
///
/// Under --json: `{"valid": bool, "files": [{"file", "version", "valid", "errors",
/// "warnings", "diagnostics": [...]}], "summary": {...}}`; `--rules --json` prints the rule
/// table as `{"rules": [{"id", "severity", "versions", "summary"}]}`.
///
/// Examples:
///   dxso validate shader.dxso
///   dxso validate shaders/ --quiet            (only the findings and the failing files)
///   dxso validate shaders/*.dxso --json
///   dxso validate skin.vso --max-vertex-constants 8192
///   dxso validate shader.h --name g_vs20_main
///   dxso validate --rules
///
/// Exit status: 0 when every input is valid (warnings allowed), 1 when any input is invalid or
/// cannot be decoded, 2 on usage and I/O errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    inputs: InputsArg,
    /// Print the rule table (Markdown, as in docs/VALIDATION.md; JSON with --json) and exit.
    #[arg(long)]
    rules: bool,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    printed: crate::output::PrintedArg,
}

/// The device limits validation depends on (`validate`, `disasm --validate`, `asm`).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct LimitArgs {
    /// The device's MaxVertexShaderConst, raising the float-constant limit of vs_1_1-vs_2_x.
    #[arg(long, value_name = "N")]
    pub max_vertex_constants: Option<u32>,
    #[command(flatten)]
    pub runtime: RuntimeArg,
}

impl LimitArgs {
    /// The validator's options.
    pub fn options(&self) -> Options {
        Options {
            max_vertex_constants: self.max_vertex_constants,
            runtime: self.runtime.runtime(),
        }
    }
}

/// `--runtime`: the Direct3D runtime whose bytecode rules apply (`validate`, `disasm`, `asm`,
/// `run`, `translate`).
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct RuntimeArg {
    /// The runtime the bytecode is written for: d3d9, or d3d8 (vs_1_0/1_1 and ps_1_0-1_4 with
    /// no dcl, inputs bound by register, scalar instructions reading .w; run and translate
    /// convert it to Direct3D 9 first, as `dxso convert --from d3d8` does).
    #[arg(long, value_enum, default_value_t = RuntimeName::D3d9)]
    pub runtime: RuntimeName,
}

/// A runtime's name on the command line.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RuntimeName {
    /// Direct3D 9.
    #[default]
    D3d9,
    /// Direct3D 8.
    D3d8,
}

impl RuntimeArg {
    /// The library's runtime.
    pub fn runtime(&self) -> dxso::Runtime {
        match self.runtime {
            RuntimeName::D3d9 => dxso::Runtime::D3d9,
            RuntimeName::D3d8 => dxso::Runtime::D3d8,
        }
    }

    /// The shader as the Direct3D 9 library takes it: unchanged under d3d9; under d3d8
    /// validated with Direct3D 8's rules, then converted with each input's `D3DVSDE_*` usage.
    pub fn as_d3d9(self, shader: dxso::Shader) -> anyhow::Result<dxso::Shader> {
        if self.runtime == RuntimeName::D3d9 {
            return Ok(shader);
        }
        let options = Options {
            runtime: dxso::Runtime::D3d8,
            ..Options::default()
        };
        let report = dxso::validate_with(&shader, &options);
        if let Some(first) = report.errors().next() {
            anyhow::bail!(
                "the shader is not valid Direct3D 8 bytecode: {first} ({} error(s))",
                report.errors().count()
            );
        }
        Ok(dxso::d3d8::to_d3d9(&shader, None)?)
    }
}

const KINDS: &[Kind] = &[Kind::Bytecode, Kind::Header, Kind::Assembly];

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        if self.rules {
            self.printed.apply(s, &[])?;
            return rules(s);
        }
        let options = self.limits.options();
        let (inputs, several) = self.inputs.expand(s, KINDS)?;
        self.printed.apply(s, &inputs.iter().map(|i| i.path.as_path()).collect::<Vec<_>>())?;
        let read = self.inputs.shader_read(true);
        let (tally, files) = batch::run(s, &inputs, |input| {
            let source = input.read()?;
            let (_, shader, map) = source.shader_mapped(&read)?;
            let report = dxso::validate_with(&shader, &options);
            Ok(outcome(s, &source.name, shader.version, &report, map.as_ref()))
        })?;
        if s.json {
            s.print_json(&json!({
                "valid": tally.all_passed(),
                "files": files,
                "summary": tally.json("valid", "invalid"),
            }))?;
        }
        batch::summary(s, several, &tally, "valid", "invalid");
        Ok(tally.status())
    }
}

fn outcome(
    s: &Session,
    name: &str,
    version: dxso::Version,
    report: &Report,
    map: Option<&SourceMap>,
) -> batch::Outcome {
    let valid = report.is_valid();
    let (errors, warnings) = (report.errors().count(), report.warnings().count());
    if s.json {
        return batch::Outcome {
            passed: valid,
            json: Some(json!({
                "file": name,
                "version": version.to_string(),
                "valid": valid,
                "errors": errors,
                "warnings": warnings,
                "diagnostics": report
                    .diagnostics
                    .iter()
                    .map(|d| diagnostic_json(d, map))
                    .collect::<Vec<_>>(),
            })),
            ..Default::default()
        };
    }
    let stderr = findings(s, name, report, map);
    let stdout = if valid && s.quiet {
        String::new()
    } else {
        format!(
            "{name}: {version}: {} ({errors} error{}, {warnings} warning{})\n",
            if valid { "valid" } else { "INVALID" },
            if errors == 1 { "" } else { "s" },
            if warnings == 1 { "" } else { "s" },
        )
    };
    batch::Outcome {
        passed: valid,
        stdout: stdout.into_bytes(),
        stderr,
        json: None,
    }
}

/// Every finding of `report` as compiler-style lines for standard error; with the `map` of an
/// assembled text, each names its line and column.
pub fn findings(s: &Session, name: &str, report: &Report, map: Option<&SourceMap>) -> String {
    report
        .diagnostics
        .iter()
        .map(|d| human(s, name, d, map))
        .collect()
}

/// Where the text says what a finding is about: the line of its instruction.
fn place<'m>(d: &Diagnostic, map: Option<&'m SourceMap>) -> Option<&'m dxso_text::Place> {
    map?.item(d.item?)
}

fn rules(s: &Session) -> Result<ExitCode> {
    if s.json {
        let rules: Vec<Value> = dxso::validate::Rule::ALL
            .iter()
            .map(|r| {
                json!({
                    "id": r.id(),
                    "severity": r.severity().name(),
                    "versions": dxso::validate::Profile::ALL
                        .iter()
                        .filter(|p| r.versions().contains(**p))
                        .map(|p| p.name())
                        .collect::<Vec<_>>(),
                    "summary": r.summary(),
                })
            })
            .collect();
        s.print_json(&json!({ "rules": rules }))?;
    } else {
        let mut out = s.out();
        std::io::Write::write_all(&mut out, dxso::validate::rules_markdown().as_bytes())?;
        out.finish()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `file:dword 16 [0x40]: error[V0204]: message (instruction 4, src0 c32)`; for assembly text,
/// `file.asm:7:5: error[V0204]: message (instruction 4, src0 c32; dword 16 [0x40])`.
fn human(s: &Session, file: &str, d: &Diagnostic, map: Option<&SourceMap>) -> String {
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
    let dword = format!("dword {} [{:#x}]", d.offset, d.offset * 4);
    let (prefix, at) = match place(d, map) {
        Some(p) => (
            format!("{}:{}:{}", file, p.line, p.column),
            if at.is_empty() {
                format!(" ({dword})")
            } else {
                format!(" ({}; {dword})", at.join(", "))
            },
        ),
        None if at.is_empty() => (format!("{file}:{dword}"), String::new()),
        None => (format!("{file}:{dword}"), format!(" ({})", at.join(", "))),
    };
    let style = s.style(match d.severity {
        Severity::Error => Level::Error,
        Severity::Warning => Level::Warning,
    });
    format!(
        "{prefix}: {style}{}[{}]{style:#}: {}{at}\n",
        d.severity,
        d.rule.id(),
        d.message
    )
}

/// One finding as JSON (the objects of `diagnostics` under `--json`); `line` and `column`
/// with the `map` of an assembled text.
pub fn diagnostic_json(d: &Diagnostic, map: Option<&SourceMap>) -> Value {
    let mut v = json!({
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
    });
    if let Some(p) = place(d, map) {
        v["line"] = json!(p.line);
        v["column"] = json!(p.column);
    }
    v
}
