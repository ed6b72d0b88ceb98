use crate::input::FileArg;
use crate::session::Session;
use anyhow::Result;
use dxso_fx::describe::{self, Json};
use dxso_fx::types::name_str;
use dxso_fx::{Effect, Payload, ShaderSource, Target};
use std::fmt::Write as _;
use std::process::ExitCode;

/// Describe an effect: its parameters (type, semantic, annotations, default value), its
/// techniques, passes and state assignments, and its embedded shaders with their preshaders.
///
/// With --json, prints one object: {"file", "bytes", "parameters": [{"name", "semantic",
/// "class", "type", "rows", "columns", "elements", "flags", "shared", "annotations",
/// "members", "value"}], "techniques": [{"name", "annotations", "passes": [{"name",
/// "annotations", "states": [{"state", "operation", "index", "value"}]}]}], "shaders":
/// [{"index", "name", "source", "version", "bytes", "instructions", "preshader"}]} (the
/// dxso-fx crate's `describe` module documents every field).
///
/// Examples:
///   dxso fx info BasicEffect.fxb
///   dxso fx info BasicEffect.fxb --json
///   cat BasicEffect.fxb | dxso fx info
///
/// Exit status: 0 on success, 1 when the effect is malformed, 2 on usage and I/O errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    input: FileArg,
    #[command(flatten)]
    printed: crate::output::PrintedArg,
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        self.printed.apply(s, &self.input.file.iter().map(|p| p.as_path()).collect::<Vec<_>>())?;
        let (source, effect) = super::read_effect(s, &self.input)?;
        if s.json {
            s.print_json(&describe::info(&effect, &source.name, source.bytes.len()))?;
        } else {
            s.print(&text(&effect, &source.name, source.bytes.len()))?;
        }
        Ok(ExitCode::SUCCESS)
    }
}

pub(super) fn plural(n: usize, one: &str) -> String {
    match (n, one) {
        (1, _) => format!("1 {one}"),
        (_, "pass") => format!("{n} passes"),
        _ => format!("{n} {one}s"),
    }
}

/// A value in one line, shortened past 8 items.
fn short(v: &Json) -> String {
    match v {
        Json::List(items) if items.len() == 1 => items[0].to_text(),
        Json::List(items) if items.len() > 8 => {
            let head: Vec<String> = items[..8].iter().map(Json::to_text).collect();
            format!("[{}, ... ({} values)]", head.join(", "), items.len())
        }
        v => v.to_text(),
    }
}

fn state_text(effect: &Effect, target: &Target, state: &dxso_fx::State) -> String {
    let Some((i, r)) = effect.resource_for(target) else {
        return short(&describe::value_json(effect, &state.ty, &state.value));
    };
    match &r.payload {
        Payload::Shader(None) => "NULL".to_string(),
        Payload::Shader(Some(_)) => format!(
            "shader #{} (inline compile)",
            describe::shader_index(effect, ShaderSource::Resource(i)).unwrap_or(0)
        ),
        Payload::Expression(p) => format!(
            "expression of {} ({})",
            inputs(p),
            plural(p.instructions().len(), "instruction")
        ),
        Payload::Parameter(n) => format!("({})", dxso_fx::effect::bytes_str(n)),
        Payload::Selector { name, program } => format!(
            "{}[expression of {}]  (array selector, {})",
            dxso_fx::effect::bytes_str(name),
            inputs(program),
            plural(program.instructions().len(), "instruction")
        ),
        Payload::Raw(b) => format!("{} bytes", b.len()),
    }
}

/// The parameters a program reads.
fn inputs(p: &dxso_fx::Program) -> String {
    let names: Vec<String> = p
        .constant_table()
        .map(|t| {
            t.constants
                .iter()
                .map(|c| c.name.as_str().into_owned())
                .collect()
        })
        .unwrap_or_default();
    if names.is_empty() {
        "constants".to_string()
    } else {
        names.join(", ")
    }
}

fn text(effect: &Effect, file: &str, bytes: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{file}: fx_2_0 effect, {bytes} bytes, {}, {}, {}, {}",
        plural(effect.parameters.len(), "parameter"),
        plural(effect.techniques.len(), "technique"),
        plural(effect.pass_count(), "pass"),
        plural(effect.shaders().count(), "shader")
    );
    if !effect.parameters.is_empty() {
        let _ = writeln!(out, "\nparameters:");
    }
    for (pi, p) in effect.parameters.iter().enumerate() {
        let mut head = format!("{} {}", describe::type_text(&p.ty), p.name());
        if let Some(sem) = p.semantic() {
            let _ = write!(head, " : {sem}");
        }
        if p.is_shared() {
            head = format!("shared {head}");
        }
        if let Some(blocks) = p.value.samplers() {
            let _ = writeln!(out, "  {head}");
            for (e, block) in blocks.iter().enumerate() {
                let label = if p.ty.elements > 0 {
                    format!("[{e}] sampler_state")
                } else {
                    "sampler_state".to_string()
                };
                let _ = writeln!(out, "      {label} {{");
                for (k, st) in block.iter().enumerate() {
                    let target = Target::Sampler {
                        parameter: pi as u32,
                        element: if p.ty.elements > 0 {
                            e as u32
                        } else {
                            u32::MAX
                        },
                        state: k as u32,
                    };
                    let _ = writeln!(
                        out,
                        "        {:<22} = {}",
                        st.info().name,
                        state_text(effect, &target, st)
                    );
                }
                let _ = writeln!(out, "      }}");
            }
        } else {
            let value = describe::value_json(effect, &p.ty, &p.value);
            let _ = writeln!(out, "  {head:<40} = {}", short(&value));
        }
        for a in &p.annotations {
            let v = describe::value_json(effect, &a.ty, &a.value);
            let _ = writeln!(
                out,
                "      <{} {} = {}>",
                describe::type_text(&a.ty),
                a.name(),
                short(&v)
            );
        }
    }
    if !effect.techniques.is_empty() {
        let _ = writeln!(out, "\ntechniques:");
    }
    for (ti, t) in effect.techniques.iter().enumerate() {
        let _ = writeln!(out, "  technique {ti} {:?}", name_str(&t.name));
        for (pi, p) in t.passes.iter().enumerate() {
            let _ = writeln!(
                out,
                "    pass {pi} {:?} ({})",
                name_str(&p.name),
                plural(p.states.len(), "state")
            );
            for (si, st) in p.states.iter().enumerate() {
                let target = Target::Pass {
                    technique: ti as u32,
                    pass: pi as u32,
                    state: si as u32,
                    element: u32::MAX,
                };
                let name = if st.info().takes_index() {
                    format!("{}[{}]", st.info().name, st.index)
                } else {
                    st.info().name.to_string()
                };
                let _ = writeln!(
                    out,
                    "      {name:<26} = {}",
                    state_text(effect, &target, st)
                );
            }
        }
    }
    let shaders: Vec<_> = effect.shaders().collect();
    if !shaders.is_empty() {
        let _ = writeln!(out, "\nshaders:");
    }
    for (i, (source, sh)) in shaders.into_iter().enumerate() {
        let pres = match sh.preshader() {
            Some(Ok(p)) => format!(
                ", preshader of {}",
                plural(p.instructions().len(), "instruction")
            ),
            Some(Err(e)) => format!(", unreadable preshader: {e}"),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "  #{i:<3} {:<7} {:<28} {:>6} bytes, {}{pres}",
            sh.shader.version.to_string(),
            describe::shader_name(effect, source),
            sh.to_bytes().len(),
            plural(sh.shader.instructions().count(), "instruction")
        );
    }
    out
}
