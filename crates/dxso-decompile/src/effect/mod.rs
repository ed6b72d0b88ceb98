//! Whole fx_2_0 effects as `.fx` source: the parameters with their types, semantics,
//! annotations and defaults, the `sampler_state` blocks, every embedded shader decompiled into
//! a function of its own, the preshaders and state expressions folded back into expressions of
//! the parameters, and the techniques and passes with every state by name.
//!
//! The layout answers HLSL's declare-before-use rule where an effect does not: shader-valued
//! parameters (`VertexShader VS[2] = { compile vs_2_0 VS0(), ... }`) name functions whose
//! bodies read parameters declared after them. So the shaders' structs and entry-point
//! prototypes come first, then the parameters in the effect's order, then the shader bodies,
//! then the techniques.

mod expr;
mod shader;

use crate::{Error, Options};
use dxso::ctab::ParameterType as PT;
use dxso_fx::states::{DeviceValue, StateClass};
use dxso_fx::types::{name_str, Shape};
use dxso_fx::{
    Annotation, Effect, ObjectData, Payload, ShaderSource, State, Target, TypeDesc, Value,
};
use std::fmt::Write as _;

pub use shader::EffectShader;

/// A decompiled effect.
#[derive(Clone, Debug)]
pub struct EffectSource {
    /// The `.fx` source.
    pub text: String,
    /// The embedded shaders, in the order of [`Effect::shaders`], each also as a stand-alone
    /// HLSL source that compiles on its own (for checking one function at a time).
    pub shaders: Vec<EffectShader>,
}

/// Decompiles a whole effect to `.fx` source.
pub fn decompile_effect(effect: &Effect, options: &Options) -> Result<EffectSource, Error> {
    let sources: Vec<(ShaderSource, &dxso_fx::EmbeddedShader)> = effect.shaders().collect();
    let mut shaders = Vec::with_capacity(sources.len());
    for (index, (source, sh)) in sources.iter().enumerate() {
        let name = dxso_fx::describe::shader_name(effect, *source);
        let s =
            shader::build(effect, index, &name, sh, options).map_err(|e| Error::Unsupported {
                what: format!("shader #{index} ({name}): {e}"),
            })?;
        shaders.push(s);
    }
    let w = Writer {
        effect,
        shaders: &shaders,
        sources: &sources,
    };
    let mut out = String::new();
    out.push_str("// Decompiled by dxso from an fx_2_0 effect.\n\n");
    for s in &shaders {
        out.push_str(&s.head);
    }
    if !effect.parameters.is_empty() {
        out.push_str("// Parameters\n\n");
    }
    for (pi, p) in effect.parameters.iter().enumerate() {
        out.push_str(&w.parameter(pi, p));
    }
    if !effect.parameters.is_empty() {
        out.push('\n');
    }
    for s in &shaders {
        out.push_str(&s.body);
    }
    for (ti, t) in effect.techniques.iter().enumerate() {
        out.push_str(&w.technique(ti, t));
    }
    Ok(EffectSource { text: out, shaders })
}

struct Writer<'a> {
    effect: &'a Effect,
    shaders: &'a [EffectShader],
    sources: &'a [(ShaderSource, &'a dxso_fx::EmbeddedShader)],
}

/// An HLSL string literal.
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The declared type of one element of `ty` (`float4`, `row_major float4x3`, `texture2D`).
pub(crate) fn element_type(ty: &TypeDesc) -> String {
    match &ty.shape {
        Shape::Numeric { rows, columns } => {
            let t = match ty.ty() {
                Some(PT::Bool) => "bool",
                Some(PT::Int) => "int",
                _ => "float",
            };
            match ty.class_raw {
                0 => t.to_string(),
                1 => format!("{t}{columns}"),
                // Effects report every matrix as rows whatever its packing, and packing does
                // not change what `mul` computes: the default packing is written.
                _ => format!("{t}{rows}x{columns}"),
            }
        }
        Shape::Struct(m) => {
            let fields: Vec<String> = m
                .iter()
                .map(|m| format!("{} {}{};", element_type(m), name_str(&m.name), array(m)))
                .collect();
            format!("struct {{ {} }}", fields.join(" "))
        }
        Shape::None => match ty.ty() {
            Some(PT::String) => "string",
            Some(PT::Texture) => "texture",
            Some(PT::Texture1D) => "texture1D",
            Some(PT::Texture2D) => "texture2D",
            Some(PT::Texture3D) => "texture3D",
            Some(PT::TextureCube) => "textureCUBE",
            Some(PT::Sampler) => "sampler",
            Some(PT::Sampler1D) => "sampler1D",
            Some(PT::Sampler2D) => "sampler2D",
            Some(PT::Sampler3D) => "sampler3D",
            Some(PT::SamplerCube) => "samplerCUBE",
            Some(PT::PixelShader) => "PixelShader",
            Some(PT::VertexShader) => "VertexShader",
            _ => "void",
        }
        .to_string(),
    }
}

fn array(ty: &TypeDesc) -> String {
    if ty.elements > 0 {
        format!("[{}]", ty.elements)
    } else {
        String::new()
    }
}

/// A parameter's declaration without initialiser or annotations (`float4x4 World`).
pub(crate) fn plain_declaration(ty: &TypeDesc) -> String {
    format!("{} {}{}", element_type(ty), name_str(&ty.name), array(ty))
}

/// A float as HLSL reads it back bit for bit where it can.
fn float(f: f32) -> String {
    if f.is_finite() {
        format!("{f:?}")
    } else {
        expr::number(f as f64)
    }
}

impl Writer<'_> {
    fn parameter(&self, pi: usize, p: &dxso_fx::Parameter) -> String {
        let mut head = plain_declaration(&p.ty);
        if p.is_shared() {
            head = format!("shared {head}");
        }
        if let Some(sem) = p.semantic() {
            let _ = write!(head, " : {sem}");
        }
        head.push_str(&self.annotations(&p.annotations, "    "));
        let init = if let Value::Samplers(blocks) = &p.value {
            let ind = if p.ty.elements > 0 { "    " } else { "" };
            let items: Vec<String> = blocks
                .iter()
                .enumerate()
                .map(|(e, block)| {
                    let element = if p.ty.elements > 0 {
                        e as u32
                    } else {
                        u32::MAX
                    };
                    let mut s = format!("sampler_state\n{ind}{{\n");
                    for (k, st) in block.iter().enumerate() {
                        let target = Target::Sampler {
                            parameter: pi as u32,
                            element,
                            state: k as u32,
                        };
                        s.push_str(&self.state_line(&target, st, false, &format!("{ind}    ")));
                    }
                    let _ = write!(s, "{ind}}}");
                    s
                })
                .collect();
            if p.ty.elements > 0 {
                Some(format!("{{\n    {}\n}}", items.join(",\n    ")))
            } else {
                items.into_iter().next()
            }
        } else {
            self.value(&p.ty, &p.value, false)
        };
        match init {
            Some(v) => format!("{head} = {v};\n"),
            None => format!("{head};\n"),
        }
    }

    fn annotations(&self, list: &[Annotation], indent: &str) -> String {
        if list.is_empty() {
            return String::new();
        }
        let items: Vec<String> = list
            .iter()
            .map(|a| {
                let v = self
                    .value(&a.ty, &a.value, true)
                    .unwrap_or_else(|| "0".into());
                format!("{indent}{} = {v};", plain_declaration(&a.ty))
            })
            .collect();
        let close = &indent[..indent.len().saturating_sub(4)];
        format!("\n{close}<\n{}\n{close}>", items.join("\n"))
    }

    /// A value as an initialiser; `None` for nothing to write (zero numbers when `force` is
    /// off, textures).
    fn value(&self, ty: &TypeDesc, value: &Value, force: bool) -> Option<String> {
        match value {
            Value::Data(words) => {
                if !force && words.iter().all(|&w| w == 0) {
                    return None;
                }
                let types = ty.word_types();
                let items: Vec<String> = words
                    .iter()
                    .enumerate()
                    .map(|(k, &w)| match types.get(k).copied().flatten() {
                        Some(PT::Int) => (w as i32).to_string(),
                        Some(PT::Bool) => (w != 0).to_string(),
                        _ => float(f32::from_bits(w)),
                    })
                    .collect();
                if items.len() == 1 && ty.elements == 0 {
                    items.into_iter().next()
                } else {
                    Some(format!("{{ {} }}", items.join(", ")))
                }
            }
            Value::Objects(ids) => {
                let items: Vec<Option<String>> =
                    ids.iter().map(|&id| self.object(ty, id)).collect();
                if items.iter().all(Option::is_none) {
                    return None;
                }
                let items: Vec<String> = items
                    .into_iter()
                    .map(|i| i.unwrap_or_else(|| "NULL".into()))
                    .collect();
                if ty.elements == 0 && items.len() == 1 {
                    items.into_iter().next()
                } else {
                    Some(format!("{{ {} }}", items.join(", ")))
                }
            }
            Value::Members(m) => {
                let members = ty.members();
                let items: Vec<String> = members
                    .iter()
                    .cycle()
                    .zip(m)
                    .map(|(t, v)| self.value(t, v, true).unwrap_or_else(|| "0".into()))
                    .collect();
                let all_zero = {
                    let mut zero = true;
                    for v in m {
                        if let Value::Data(w) = v {
                            zero &= w.iter().all(|&x| x == 0);
                        } else {
                            zero = false;
                        }
                    }
                    zero
                };
                if all_zero && !force {
                    None
                } else {
                    Some(format!("{{ {} }}", items.join(", ")))
                }
            }
            Value::Samplers(_) => None,
        }
    }

    /// An object's value: a string literal, a shader's `compile`, or nothing (textures).
    fn object(&self, ty: &TypeDesc, id: u32) -> Option<String> {
        let data = &self.effect.object(id)?.data;
        match (ty.ty(), data) {
            (Some(PT::String), ObjectData::Bytes(b)) => Some(quote(&dxso_fx::effect::bytes_str(b))),
            (_, ObjectData::Shader(_)) => self.compile(ShaderSource::Object(id)),
            (Some(PT::VertexShader | PT::PixelShader), ObjectData::Bytes(_)) => Some("NULL".into()),
            _ => None,
        }
    }

    /// `compile vs_2_0 VS0()` for the shader at `source`.
    fn compile(&self, source: ShaderSource) -> Option<String> {
        let k = self.sources.iter().position(|(s, _)| *s == source)?;
        let s = &self.shaders[k];
        Some(format!("compile {} {}()", s.profile, s.entry))
    }

    fn technique(&self, ti: usize, t: &dxso_fx::Technique) -> String {
        let mut out = String::new();
        let name = name_str(&t.name);
        out.push_str(format!("technique {name}").trim_end());
        out.push_str(&self.annotations(&t.annotations, "    "));
        out.push_str("\n{\n");
        for (pi, p) in t.passes.iter().enumerate() {
            out.push_str(format!("    pass {}", name_str(&p.name)).trim_end());
            out.push_str(&self.annotations(&p.annotations, "        "));
            out.push_str("\n    {\n");
            for (si, st) in p.states.iter().enumerate() {
                let target = Target::Pass {
                    technique: ti as u32,
                    pass: pi as u32,
                    state: si as u32,
                    element: u32::MAX,
                };
                out.push_str(&self.state_line(&target, st, true, "        "));
            }
            out.push_str("    }\n");
        }
        out.push_str("}\n\n");
        out
    }

    /// One state assignment with its line end; a program that does not fold is listed in a
    /// comment before it, and the stored value stands in for it.
    fn state_line(&self, target: &Target, st: &State, indexed: bool, indent: &str) -> String {
        let info = st.info();
        let name = if indexed && info.takes_index() {
            format!("{}[{}]", info.name, st.index)
        } else {
            info.name.to_string()
        };
        let mut pre = String::new();
        let value = match self
            .effect
            .resource_for(target)
            .map(|(i, r)| (i, &r.payload))
        {
            Some((_, Payload::Shader(None))) => "NULL".to_string(),
            Some((i, Payload::Shader(Some(_)))) => self
                .compile(ShaderSource::Resource(i))
                .unwrap_or_else(|| "NULL".into()),
            Some((_, Payload::Parameter(n))) => {
                format!("({})", dxso_fx::effect::bytes_str(n))
            }
            Some((_, Payload::Expression(p))) => match expr::fold(p).and_then(|f| state_expr(&f)) {
                Some(e) => expr::parenthesised(&e),
                None => {
                    pre = listing(p, indent);
                    self.plain(st)
                }
            },
            Some((_, Payload::Selector { name, program })) => {
                let array = dxso_fx::effect::bytes_str(name);
                match expr::fold(program).and_then(|f| f.floats.get(&0).cloned()) {
                    Some(e) => format!("({array}[{e}])"),
                    None => {
                        pre = listing(program, indent);
                        format!("({array}[0])")
                    }
                }
            }
            Some((_, Payload::Raw(_))) | None => self.plain(st),
        };
        format!("{pre}{indent}{name} = {value};\n")
    }

    /// A state's stored value: a value name where the state has names, else the number.
    fn plain(&self, st: &State) -> String {
        let info = st.info();
        match &st.value {
            Value::Data(words) => {
                let types = st.ty.word_types();
                let int_like =
                    |k: usize| matches!(types.get(k).copied().flatten(), Some(PT::Int | PT::Bool));
                if words.len() == 1 && info.device_value() == DeviceValue::Dword {
                    let w = words[0];
                    let dword = if int_like(0) {
                        Some(w)
                    } else {
                        let f = f32::from_bits(w);
                        (f >= 0.0 && f.fract() == 0.0 && f < 4.0e9).then_some(f as u32)
                    };
                    if let Some(d) = dword {
                        if let Some(n) = dxso_fx::state_values::value_name(info.name, d) {
                            return n;
                        }
                    }
                }
                let items: Vec<String> = words
                    .iter()
                    .enumerate()
                    .map(|(k, &w)| match types.get(k).copied().flatten() {
                        Some(PT::Int) => (w as i32).to_string(),
                        Some(PT::Bool) => (w != 0).to_string(),
                        _ => float(f32::from_bits(w)),
                    })
                    .collect();
                match items.len() {
                    0 => "0".into(),
                    1 => items[0].clone(),
                    n @ 2..=4 => format!("float{n}({})", items.join(", ")),
                    16 => format!("float4x4({})", items.join(", ")),
                    _ => format!("{{ {} }}", items.join(", ")),
                }
            }
            Value::Objects(ids) => {
                let id = ids.first().copied().unwrap_or(0);
                if matches!(
                    info.class,
                    StateClass::VertexShader | StateClass::PixelShader
                ) {
                    return self
                        .compile(ShaderSource::Object(id))
                        .unwrap_or_else(|| "NULL".into());
                }
                // A texture or sampler object: the parameter holding it.
                self.effect
                    .parameters
                    .iter()
                    .find(|p| p.value.objects().is_some_and(|o| o.contains(&id)))
                    .map_or_else(|| "NULL".into(), |p| format!("({})", p.name()))
            }
            _ => "0".into(),
        }
    }
}

/// A state expression's value: its first output component, or a vector of the components it
/// writes.
fn state_expr(f: &expr::Folded) -> Option<String> {
    let n = f.floats.keys().next_back().map_or(0, |&k| k + 1);
    match n {
        0 => None,
        1 => f.floats.get(&0).cloned(),
        2..=4 => {
            let items: Vec<String> = (0..n)
                .map(|k| f.floats.get(&k).cloned().unwrap_or_else(|| "0".into()))
                .collect();
            Some(format!("float{n}({})", items.join(", ")))
        }
        _ => None,
    }
}

/// A program's listing as comment lines.
fn listing(p: &dxso_fx::Program, indent: &str) -> String {
    let mut out = format!("{indent}// Not folded into an expression; the program:\n");
    for l in p.listing().lines() {
        let l = l.trim_start_matches("// ");
        let _ = writeln!(out, "{indent}//   {l}");
    }
    out
}
