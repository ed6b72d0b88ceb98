use crate::input::FileArg;
use crate::report::CliError;
use crate::session::Session;
use anyhow::{Context, Result};
use dxso_fx::describe;
use dxso_fx::runtime::{
    written, Numbers, PassView, ShaderView, StateSource, StateValue, StateView,
};
use dxso_fx::types::name_str;
use dxso_fx::{Effect, Precision, Runtime};
use std::fmt::Write as _;
use std::process::ExitCode;

/// Evaluate a pass as a device would receive it: every state's value (parameter references,
/// expressions and array selectors evaluated), the vertex and pixel shaders chosen, and the
/// constant registers each gets from its preshader and, through its constant table, from the
/// parameters; sampler registers with their states.
///
/// Parameters start at their default values; --set changes one (repeatable): a name or path
/// (`Lights[1].Color`) or a semantic (`WORLDVIEWPROJECTION`), then `=` and comma-separated
/// numbers (or true/false), matrices row by row.
///
/// With --json, prints {"technique", "pass", "states": [{"state", "operation", "index",
/// "source", "value", "device"}], "vertex_shader", "pixel_shader": {"shader", "name",
/// "version", "float_constants": [{"register", "value"}], "int_constants",
/// "bool_constants", "samplers", "warnings"}} (documented in the dxso-fx crate's `describe`
/// module).
///
/// Examples:
///   dxso fx eval BasicEffect.fxb
///   dxso fx eval BasicEffect.fxb --technique BasicEffect --pass 0 --set ShaderIndex=4
///   dxso fx eval BasicEffect.fxb --set WorldViewProj=2,0,0,0,0,2,0,0,0,0,2,0,0,0,0,1 --json
///
/// Exit status: 0 on success, 1 when the effect is malformed or a technique, pass or
/// parameter does not exist, 2 on usage and I/O errors (a --set without `=`, a value that is not a
/// number).
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    input: FileArg,
    /// The technique: a name or an index (default: the first).
    #[arg(long, short = 't', value_name = "NAME|N")]
    technique: Option<String>,
    /// The pass of the technique: a name or an index (default: the first).
    #[arg(long, short = 'p', value_name = "NAME|N")]
    pass: Option<String>,
    /// Set a parameter before evaluating: NAME=v1,v2,... (NAME may be a semantic).
    #[arg(long = "set", value_name = "NAME=VALUES")]
    sets: Vec<String>,
    /// Evaluate in float32 (every result rounded to float, as a GPU would) instead of the
    /// native d3dx9 double precision.
    #[arg(long)]
    float32: bool,
    #[command(flatten)]
    printed: crate::output::PrintedArg,
}

enum Values {
    Floats(Vec<f32>),
    Bools(Vec<bool>),
}

fn parse_set(arg: &str) -> Result<(String, Values)> {
    let (name, values) = arg.split_once('=').ok_or_else(|| {
        CliError::Usage(format!(
            "--set {arg}: expected NAME=VALUES (for example Alpha=0.5)"
        ))
    })?;
    let items: Vec<&str> = values
        .split([',', ' '])
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .collect();
    if items.is_empty() {
        return Err(CliError::Usage(format!("--set {arg}: no values after `=`")).into());
    }
    let bools: Option<Vec<bool>> = items
        .iter()
        .map(|v| match v.to_ascii_lowercase().as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        })
        .collect();
    if let Some(b) = bools {
        return Ok((name.trim().to_string(), Values::Bools(b)));
    }
    let floats = items
        .iter()
        .map(|v| {
            v.parse::<f32>().map_err(|_| {
                CliError::Usage(format!(
                    "--set {arg}: `{v}` is not a number (nor true/false)"
                ))
            })
        })
        .collect::<Result<Vec<f32>, CliError>>()?;
    Ok((name.trim().to_string(), Values::Floats(floats)))
}

/// Index of the item named `want` (or numbered), among `names`.
fn pick(what: &str, want: Option<&str>, names: &[String]) -> Result<usize> {
    let Some(want) = want else {
        return if names.is_empty() {
            Err(anyhow::anyhow!("the effect has no {what}"))
        } else {
            Ok(0)
        };
    };
    if let Some(i) = names.iter().position(|n| n == want) {
        return Ok(i);
    }
    if let Ok(i) = want.parse::<usize>() {
        if i < names.len() {
            return Ok(i);
        }
    }
    let known: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            if n.is_empty() {
                i.to_string()
            } else {
                format!("{n:?}")
            }
        })
        .collect();
    Err(anyhow::anyhow!(
        "no {what} `{want}` (there are: {})",
        known.join(", ")
    ))
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        self.printed.apply(s, &self.input.file.iter().map(|p| p.as_path()).collect::<Vec<_>>())?;
        let sets = self
            .sets
            .iter()
            .map(|a| parse_set(a))
            .collect::<Result<Vec<_>>>()?;
        let (source, effect) = super::read_effect(s, &self.input)?;
        let tnames: Vec<String> = effect
            .techniques
            .iter()
            .map(|t| name_str(&t.name).into_owned())
            .collect();
        let ti = pick("technique", self.technique.as_deref(), &tnames)?;
        let pnames: Vec<String> = effect.techniques[ti]
            .passes
            .iter()
            .map(|p| name_str(&p.name).into_owned())
            .collect();
        let pi = pick("pass", self.pass.as_deref(), &pnames)?;
        let precision = if self.float32 {
            Precision::Float32
        } else {
            Precision::Native
        };
        let mut rt = Runtime::new(&effect).with_precision(precision);
        for (name, values) in &sets {
            for warning in conversions(&rt, name, values) {
                s.warn(&format!("--set {name}: {warning}"));
            }
            set(&mut rt, name, values).with_context(|| format!("--set {name}"))?;
        }
        let view = rt.pass(ti, pi)?;
        if s.json {
            s.print_json(&describe::pass_json(&effect, &view))?;
        } else {
            s.print(&text(&effect, &source.name, &view))?;
        }
        Ok(ExitCode::SUCCESS)
    }
}

/// What setting `values` on the parameter at `name` changes on the way: fewer values than the
/// parameter holds (the rest keep theirs), fractions truncated for `int` components (as
/// `SetFloatArray` converts), numbers other than 0 and 1 for `bool` components.
fn conversions(rt: &Runtime, name: &str, values: &Values) -> Vec<String> {
    use dxso::ctab::ParameterType;
    let Some((ty, _)) = rt.get(name) else {
        return Vec::new();
    };
    let types = ty.word_types();
    let given = match values {
        Values::Floats(v) => v.len(),
        Values::Bools(v) => v.len(),
    };
    let mut out = Vec::new();
    if given < types.len() {
        out.push(format!(
            "{given} of its {} values given; the other {} keep their values",
            types.len(),
            types.len() - given
        ));
    }
    if let Values::Floats(v) = values {
        for (k, (&x, t)) in v.iter().zip(&types).enumerate() {
            match t {
                Some(ParameterType::Int) if x.fract() != 0.0 || !x.is_finite() => out.push(
                    format!("value {k} ({x}) is truncated to {} (an int)", x as i32),
                ),
                Some(ParameterType::Bool) if x != 0.0 && x != 1.0 => out.push(format!(
                    "value {k} ({x}) becomes {} (a bool)",
                    x.to_bits() != 0
                )),
                _ => {}
            }
        }
    }
    out
}

fn set(rt: &mut Runtime, name: &str, values: &Values) -> Result<()> {
    let by_name = rt.get(name).is_some();
    let by_semantic = rt
        .effect()
        .parameters
        .iter()
        .any(|p| p.semantic().is_some_and(|s| s.eq_ignore_ascii_case(name)));
    if !by_name && !by_semantic {
        anyhow::bail!("no parameter `{name}`, and no parameter has it as its semantic (`dxso fx info` lists them)");
    }
    match (values, by_name) {
        (Values::Floats(v), true) => rt.set_floats(name, v)?,
        (Values::Bools(v), true) => rt.set_bools(name, v)?,
        (Values::Floats(v), false) => {
            let p = rt.set_by_semantic(name, v)?;
            log::info!("--set {name}: the parameter `{p}` has this semantic");
        }
        (Values::Bools(v), false) => {
            let f: Vec<f32> = v.iter().map(|&b| b as u32 as f32).collect();
            rt.set_by_semantic(name, &f)?;
        }
    }
    Ok(())
}

fn value_text(effect: &Effect, v: &StateValue) -> String {
    let list = |items: Vec<String>| {
        if items.len() == 1 {
            items.into_iter().next().unwrap_or_default()
        } else {
            items.join(", ")
        }
    };
    match v {
        StateValue::Numbers(Numbers::Floats(f)) => list(f.iter().map(|&x| super::num(x)).collect()),
        StateValue::Numbers(Numbers::Ints(i)) => list(i.iter().map(|x| x.to_string()).collect()),
        StateValue::Numbers(Numbers::Bools(b)) => list(b.iter().map(|x| x.to_string()).collect()),
        StateValue::Shader(None) => "NULL".to_string(),
        StateValue::Shader(Some(r)) => format!(
            "shader #{} {}",
            describe::shader_index(effect, r.source).unwrap_or(0),
            describe::shader_name(effect, r.source)
        ),
        StateValue::Texture(t) => t.clone().unwrap_or_else(|| "no texture".to_string()),
        StateValue::Sampler { parameter, states } => {
            format!(
                "{parameter} ({})",
                super::info::plural(states.len(), "state")
            )
        }
        StateValue::String(s) => format!("{s:?}"),
    }
}

fn state_line(effect: &Effect, st: &StateView) -> String {
    let name = if dxso_fx::states::state_info(st.operation).is_some_and(|i| i.takes_index()) {
        format!("{}[{}]", st.name, st.index)
    } else {
        st.name.to_string()
    };
    let value = match &st.value {
        Ok(v) => value_text(effect, v),
        Err(e) => format!("error: {e}"),
    };
    let from = match &st.source {
        StateSource::Constant => String::new(),
        StateSource::Parameter(p) => format!("  (from {p})"),
        StateSource::Expression => "  (expression)".to_string(),
        StateSource::Selector { parameter, index } => format!("  (selected {parameter}[{index}])"),
        StateSource::InlineShader => "  (inline compile)".to_string(),
    };
    // The DWORD the device gets, where it is not the value itself.
    let shown = matches!(&st.value, Ok(StateValue::Numbers(Numbers::Ints(v))) if v.len() == 1 && st.device == Some(v[0] as u32));
    let device = match st.device {
        Some(d) if !shown => format!("  -> {d:#x}"),
        _ => String::new(),
    };
    format!("{name:<26} = {value}{from}{device}")
}

fn shader_text(out: &mut String, effect: &Effect, stage: &str, v: &ShaderView) {
    let version = effect
        .shader(v.shader.source)
        .map_or(String::new(), |s| s.shader.version.to_string());
    let _ = writeln!(
        out,
        "\n{stage} shader #{} {version} ({})",
        describe::shader_index(effect, v.shader.source).unwrap_or(0),
        describe::shader_name(effect, v.shader.source)
    );
    for (r, c) in written(&v.registers.floats) {
        let _ = writeln!(
            out,
            "  c{r:<4} = {}",
            c.iter()
                .map(|&x| super::num(x))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    for (r, c) in written(&v.registers.ints) {
        let _ = writeln!(
            out,
            "  i{r:<4} = {}",
            c.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    for (r, c) in written(&v.registers.bools) {
        let _ = writeln!(out, "  b{r:<4} = {}", c.first().copied().unwrap_or(false));
    }
    for b in &v.samplers {
        let _ = writeln!(out, "  s{:<4} = {}", b.register, b.parameter);
        for st in &b.states {
            let _ = writeln!(out, "      {}", state_line(effect, st));
        }
    }
    if v.registers.floats.is_empty()
        && v.registers.ints.is_empty()
        && v.registers.bools.is_empty()
        && v.samplers.is_empty()
    {
        let _ = writeln!(out, "  (no constants or samplers)");
    }
    for w in &v.warnings {
        let _ = writeln!(out, "  warning: {w}");
    }
}

fn text(effect: &Effect, file: &str, view: &PassView) -> String {
    let mut out = String::new();
    let t = &effect.techniques[view.technique];
    let _ = writeln!(
        out,
        "{file}: technique {} {:?}, pass {} {:?}",
        view.technique,
        name_str(&t.name),
        view.pass,
        name_str(&t.passes[view.pass].name)
    );
    for st in &view.states {
        let _ = writeln!(out, "  {}", state_line(effect, st));
    }
    if let Some(v) = &view.vertex_shader {
        shader_text(&mut out, effect, "vertex", v);
    }
    if let Some(v) = &view.pixel_shader {
        shader_text(&mut out, effect, "pixel", v);
    }
    out
}
