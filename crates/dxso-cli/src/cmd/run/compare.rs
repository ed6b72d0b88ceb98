//! `run --compare`: several engines on the same inputs, every output register and component
//! compared with the first engine's under the float rules of docs/SEMANTICS.md.

use super::{number, results_json, results_text, Run};
use crate::engine::Engine;
use crate::report::CliError;
use crate::session::Session;
use anyhow::Result;
use dxso_exec::compare::{compare, Comparison, Tolerance};
use dxso_exec::{Options, Outputs};
use serde_json::{json, Map, Value};
use std::process::ExitCode;

/// Where docs/SEMANTICS.md explains the differences a GPU may show.
const WHERE: &str = "docs/SEMANTICS.md section 16";

const COMPONENTS: [&str; 4] = ["x", "y", "z", "w"];

/// Runs `engines` and reports their differences; exit 1 when two engines differ.
pub fn run(
    s: &Session,
    engines: &[Engine],
    run: &Run,
    shader: &dxso::Shader,
    options: &Options,
    name: &str,
    many: bool,
) -> Result<ExitCode> {
    let mut listed: Vec<Engine> = Vec::new();
    for e in engines {
        if listed.contains(e) {
            return Err(CliError::Usage(format!(
                "--compare: {} is listed twice; name each engine once",
                e.name()
            ))
            .into());
        }
        listed.push(*e);
    }
    if listed.len() < 2 {
        return Err(CliError::Usage(
            "--compare: name two engines or more (interp,jit,jit-scalar,vulkan)".into(),
        )
        .into());
    }
    let mut skipped = Vec::new();
    let mut runs: Vec<(Engine, Outputs)> = Vec::new();
    for &e in &listed {
        if let Err(why) = e.available() {
            s.warn(&format!("--compare: {} skipped: {why}", e.name()));
            skipped.push(json!({"engine": e.name(), "reason": why}));
            continue;
        }
        runs.push((e, run.execute(e, shader, options, name)?));
    }
    if runs.len() < 2 {
        s.warn("--compare: fewer than two engines ran; nothing was compared");
    }
    let device = Tolerance::of(shader);
    let comparisons: Vec<(Engine, Engine, Tolerance, Comparison)> = runs
        .iter()
        .skip(1)
        .map(|(e, out)| {
            let (first, reference) = &runs[0];
            let t = if first.is_cpu() && e.is_cpu() {
                Tolerance::Exact
            } else {
                device
            };
            (*first, *e, t, compare(reference, out, t))
        })
        .collect();
    let agree = comparisons.iter().all(|c| c.3.agrees());
    if s.json {
        let mut outputs = Map::new();
        for (e, out) in &runs {
            outputs.insert(e.name().into(), results_json(out, many));
        }
        s.print_json(&json!({
            "engines": runs.iter().map(|r| r.0.name()).collect::<Vec<_>>(),
            "skipped": skipped,
            "agree": agree,
            "comparisons": comparisons.iter().map(|(a, b, t, c)| comparison_json(*a, *b, *t, c)).collect::<Vec<_>>(),
            "outputs": outputs,
        }))?;
    } else {
        let pixel = shader.version.is_pixel();
        let mut text = String::new();
        if let Some((e, out)) = runs.first() {
            text.push_str(&format!("{}:\n", e.name()));
            text.push_str(&results_text(out, many, pixel));
        }
        for (a, b, t, c) in &comparisons {
            text.push_str(&comparison_text(*a, *b, *t, c, many));
        }
        s.print(&text)?;
    }
    Ok(if agree {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn comparison_json(a: Engine, b: Engine, t: Tolerance, c: &Comparison) -> Value {
    json!({
        "left": a.name(),
        "right": b.name(),
        "tolerance": t.name(),
        "agree": c.agrees(),
        "differences": c.differences.iter().map(|d| json!({
            "register": d.register.to_string(),
            "invocation": d.invocation,
            "component": COMPONENTS[d.component],
            "left": number(d.left),
            "right": number(d.right),
            "kind": d.kind.name(),
        })).collect::<Vec<_>>(),
        "discards": c.discards,
        "registers": c.registers.iter().map(|r| r.to_string()).collect::<Vec<_>>(),
    })
}

fn comparison_text(a: Engine, b: Engine, t: Tolerance, c: &Comparison, many: bool) -> String {
    let (an, bn) = (a.name(), b.name());
    let rule = if t == Tolerance::Exact {
        "bit for bit".to_string()
    } else {
        let (abs, rel) = t.bounds();
        format!("{} tolerance {abs:e} + {rel:e} x max(1, |value|)", t.name())
    };
    if c.agrees() {
        return format!("{an} and {bn} agree ({rule})\n");
    }
    let n = c.differences.len() + c.discards.len() + c.registers.len();
    let mut text = format!(
        "{an} and {bn} differ in {n} place{} ({rule}):\n",
        if n == 1 { "" } else { "s" }
    );
    let at = |k: usize| {
        if many {
            format!("[{k}]")
        } else {
            String::new()
        }
    };
    for r in &c.registers {
        text.push_str(&format!("  {r}: written by one engine only\n"));
    }
    for k in &c.discards {
        text.push_str(&format!("  discarded{}: the engines disagree\n", at(*k)));
    }
    for d in &c.differences {
        text.push_str(&format!(
            "  {}{}.{}: {an} {}, {bn} {} ({})\n",
            d.register,
            at(d.invocation),
            COMPONENTS[d.component],
            d.left,
            d.right,
            d.kind
        ));
    }
    if c.differences.iter().any(|d| d.kind.is_non_finite()) {
        text.push_str(&format!(
            "  (non-finite values: {WHERE} says where a GPU may differ)\n"
        ));
    }
    text
}
