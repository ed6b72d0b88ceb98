//! Two fx_2_0 effects compared by meaning ([`compare_effects`]): an effect compiled from
//! source against fxc's binary of it, or a decompiled effect compiled back against the
//! original.

use super::{check, Tolerance};
use dxso_fx::{Effect, Payload, ShaderSource, Target};
use std::collections::BTreeMap;

/// What a candidate effect matches of a reference effect, counted as (matching, in the
/// reference).
#[derive(Default, Debug)]
pub struct EffectReport {
    /// Parameters with the same name, type, shape, semantic, flags, value and annotations.
    pub parameters: (usize, usize),
    /// Techniques with the same name and pass count.
    pub techniques: (usize, usize),
    /// Passes with the same name and state count.
    pub passes: (usize, usize),
    /// States with the same operation, index and value (expressions and selectors by
    /// evaluation).
    pub states: (usize, usize),
    /// Embedded shaders, by the place that holds them, equivalent by [`check`].
    pub shaders: (usize, usize),
    /// Each matched shader's instruction count over the reference's.
    pub instruction_ratios: Vec<f64>,
    /// What differs, one line each.
    pub notes: Vec<String>,
}

/// `parameters 12/12, techniques 1/1, passes 1/1, states 2/2, shaders 8/8`.
impl std::fmt::Display for EffectReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (p, t, a, s, h) = (
            self.parameters,
            self.techniques,
            self.passes,
            self.states,
            self.shaders,
        );
        write!(
            f,
            "parameters {}/{}, techniques {}/{}, passes {}/{}, states {}/{}, shaders {}/{}",
            p.0, p.1, t.0, t.1, a.0, a.1, s.0, s.1, h.0, h.1
        )
    }
}

impl EffectReport {
    /// Whether everything the reference has is matched.
    pub fn all_match(&self) -> bool {
        [
            self.parameters,
            self.techniques,
            self.passes,
            self.states,
            self.shaders,
        ]
        .iter()
        .all(|(matching, total)| matching == total)
    }
}

/// The large object of a state, described by meaning: the parameter it names, a shader, or
/// an expression (compared by listing).
fn state_value(e: &Effect, target: &Target) -> String {
    match e.resource_for(target).map(|(_, r)| &r.payload) {
        Some(Payload::Parameter(b)) => format!("parameter {}", dxso_fx::effect::bytes_str(b)),
        Some(Payload::Shader(Some(s))) => format!("shader {}", s.shader.version),
        Some(Payload::Shader(None)) => "NULL".into(),
        Some(Payload::Selector { name, program }) => format!(
            "{}[{}]",
            dxso_fx::effect::bytes_str(name),
            program.listing()
        ),
        Some(Payload::Expression(p)) => format!("expression {}", p.listing()),
        Some(Payload::Raw(b)) => format!("raw {b:?}"),
        None => String::new(),
    }
}

/// Whether state `si` of a pass computes the same numbers in both effects, for the
/// parameters' defaults and for three sets of pseudo-random float parameter values.
fn same_by_evaluation(a: &Effect, b: &Effect, ti: usize, pi: usize, si: usize) -> bool {
    let mut seed = 0x9E37_79B9_u32;
    (0..4).all(|round| {
        let mut ra = dxso_fx::runtime::Runtime::new(a);
        let mut rb = dxso_fx::runtime::Runtime::new(b);
        if round > 0 {
            for p in &a.parameters {
                if p.ty.ty() != Some(dxso::ctab::ParameterType::Float) {
                    continue;
                }
                let Some(words) = p.value.data() else {
                    continue;
                };
                let values: Vec<f32> = words
                    .iter()
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 17;
                        seed ^= seed << 5;
                        (seed % 4001) as f32 / 1000.0 - 2.0
                    })
                    .collect();
                let name = p.name();
                let _ = ra.set_floats(&name, &values);
                let _ = rb.set_floats(&name, &values);
            }
        }
        let (Ok(pa), Ok(pb)) = (ra.pass(ti, pi), rb.pass(ti, pi)) else {
            return false;
        };
        use dxso_fx::runtime::{Numbers, StateValue};
        let value = |p: &dxso_fx::runtime::PassView| match &p.states.get(si)?.value {
            Ok(StateValue::Numbers(n)) => Some(n.clone()),
            // A selected shader, by the array element it was taken from.
            Ok(StateValue::Shader(r)) => Some(Numbers::Ints(vec![r
                .as_ref()
                .and_then(|r| r.parameter.as_ref())
                .and_then(|p| p.rsplit('[').next()?.trim_end_matches(']').parse().ok())
                .unwrap_or(-1)])),
            _ => None,
        };
        let close = |x: f32, y: f32| {
            x.to_bits() == y.to_bits()
                || (x.is_nan() && y.is_nan())
                || (x - y).abs() <= 1e-5 * x.abs().max(y.abs()).max(1.0)
        };
        let (va, vb) = (value(&pa), value(&pb));
        match (va, vb) {
            (Some(Numbers::Floats(x)), Some(Numbers::Floats(y))) => {
                x.len() == y.len() && x.iter().zip(&y).all(|(&p, &q)| close(p, q))
            }
            (Some(x), Some(y)) => x == y,
            _ => false,
        }
    })
}

/// Every embedded shader by the place that holds it: `Param[i]` for an element of a shader
/// array parameter, the state's target for a shader a state holds.
pub fn shaders_by_place(e: &Effect) -> BTreeMap<String, dxso::Shader> {
    let mut out = BTreeMap::new();
    for (src, s) in e.shaders() {
        let place = match src {
            ShaderSource::Object(id) => e
                .parameters
                .iter()
                .find_map(|p| {
                    let ids = p.value.objects()?;
                    let i = ids.iter().position(|&x| x == id)?;
                    Some(format!("{}[{i}]", p.name()))
                })
                .unwrap_or_else(|| format!("object {id}")),
            ShaderSource::Resource(i) => format!("{:?}", e.resources[i].target),
        };
        out.insert(place, s.shader.clone());
    }
    out
}

/// Compares `ours` with the reference effect `fxc` (fxc's binary, or the effect a source was
/// decompiled from): parameters, techniques, passes, states and every embedded shader, by the
/// differential checker.
pub fn compare_effects(fxc: &Effect, ours: &Effect) -> EffectReport {
    let mut r = EffectReport::default();
    r.parameters.1 = fxc.parameters.len();
    for p in &fxc.parameters {
        let Some((_, q)) = ours.parameter(&p.name()) else {
            r.notes.push(format!("parameter {} missing", p.name()));
            continue;
        };
        let same_value = match (&p.value, &q.value) {
            (dxso_fx::Value::Data(a), dxso_fx::Value::Data(b)) => a == b,
            (dxso_fx::Value::Objects(a), dxso_fx::Value::Objects(b)) => a.len() == b.len(),
            (dxso_fx::Value::Samplers(a), dxso_fx::Value::Samplers(b)) => {
                a.len() == b.len()
                    && a.iter().zip(b).all(|(x, y)| {
                        x.len() == y.len()
                            && x.iter().zip(y).all(|(s, t)| s.operation == t.operation)
                    })
            }
            _ => false,
        };
        let same_annotations = p.annotations.len() == q.annotations.len()
            && p.annotations.iter().zip(&q.annotations).all(|(a, b)| {
                a.name() == b.name() && a.ty.type_raw == b.ty.type_raw && {
                    match (&a.value, &b.value) {
                        (dxso_fx::Value::Data(x), dxso_fx::Value::Data(y)) => x == y,
                        _ => true,
                    }
                }
            });
        if p.ty.type_raw == q.ty.type_raw
            && p.ty.class_raw == q.ty.class_raw
            && p.ty.shape == q.ty.shape
            && p.ty.elements == q.ty.elements
            && p.semantic() == q.semantic()
            && p.flags == q.flags
            && same_value
            && same_annotations
        {
            r.parameters.0 += 1;
        } else {
            r.notes.push(format!(
                "parameter {}: fxc {:?} {:?}, dxso {:?} {:?}",
                p.name(),
                p.ty,
                p.value,
                q.ty,
                q.value
            ));
        }
    }
    r.techniques.1 = fxc.techniques.len();
    for (ti, t) in fxc.techniques.iter().enumerate() {
        let Some(u) = ours.techniques.get(ti) else {
            continue;
        };
        if t.name == u.name && t.passes.len() == u.passes.len() {
            r.techniques.0 += 1;
        }
        for (pi, p) in t.passes.iter().enumerate() {
            r.passes.1 += 1;
            r.states.1 += p.states.len();
            let Some(q) = u.passes.get(pi) else { continue };
            if p.name == q.name && p.states.len() == q.states.len() {
                r.passes.0 += 1;
            }
            for (si, s) in p.states.iter().enumerate() {
                let Some(t2) = q.states.get(si) else { continue };
                let target = Target::Pass {
                    technique: ti as u32,
                    pass: pi as u32,
                    state: si as u32,
                    element: u32::MAX,
                };
                let (a, b) = (state_value(fxc, &target), state_value(ours, &target));
                let same = s.operation == t2.operation
                    && s.index == t2.index
                    && (a == b
                        || (a.starts_with("expression")
                            && b.starts_with("expression")
                            && same_by_evaluation(fxc, ours, ti, pi, si))
                        || (a.split('[').next() == b.split('[').next()
                            && a.contains('[')
                            && same_by_evaluation(fxc, ours, ti, pi, si)))
                    && (!a.is_empty() || s.value == t2.value);
                if same {
                    r.states.0 += 1;
                } else {
                    r.notes.push(format!(
                        "state {}: fxc {} {:?}, dxso {} {:?}",
                        s.info().name,
                        a,
                        s.value,
                        b,
                        t2.value
                    ));
                }
            }
        }
    }
    let ref_shaders = shaders_by_place(fxc);
    let our_shaders = shaders_by_place(ours);
    r.shaders.1 = ref_shaders.len();
    for (place, s) in &ref_shaders {
        let Some(c) = our_shaders.get(place) else {
            r.notes.push(format!("shader {place} missing"));
            continue;
        };
        let count = |s: &dxso::Shader| s.instructions().count().max(1) as f64;
        r.instruction_ratios.push(count(c) / count(s));
        match check(s, c, 16, 7, Tolerance::default()) {
            Ok(_) => r.shaders.0 += 1,
            Err(m) => r.notes.push(format!("shader {place}: {m}")),
        }
    }
    r
}
