//! The descriptions `dxso fx info` and `dxso fx eval` print, as serializable values.
//!
//! # `dxso fx info --json`
//!
//! ```text
//! {
//!   "file": "fna_BasicEffect.fxb", "bytes": 28824,
//!   "parameters": [{
//!     "name": "WorldViewProj", "semantic": null,
//!     "class": "matrix_rows", "type": "float",       // D3DX names, lower case
//!     "rows": 4, "columns": 4, "elements": 0,          // as GetParameterDesc reports them
//!     "flags": 0, "shared": false,
//!     "annotations": [{"name", "class", "type", "rows", "columns", "elements", "value"}],
//!     "members": [{"name", "semantic", "class", "type", "rows", "columns", "elements", "members"}],
//!     "value": [1.0, 0.0, ...]                          // see "values" below
//!   }],
//!   "techniques": [{"name": "BasicEffect", "annotations": [...],
//!     "passes": [{"name": "", "annotations": [...],
//!       "states": [{"state": "VertexShader", "operation": 146, "index": 0, "value": ...}]}]}],
//!   "shaders": [{"index": 0, "name": "VSArray[0]", "source": {"object": 5},
//!     "version": "vs_2_0", "bytes": 812, "instructions": 25,
//!     "preshader": null | {"instructions": 3, "literals": 4, "listing": "..."}}]
//! }
//! ```
//!
//! Values: numbers are arrays in the value's type (floats, ints, or booleans), in storage order
//! (row by row); object ids are `{"object": id}`, strings `{"string": "text"}`, sampler
//! blocks arrays of states. A state whose value is computed says how: `{"parameter": "name"}`,
//! `{"expression": "listing"}`, `{"selector": "array", "expression": "listing"}`,
//! `{"shader": index}` (an inline `compile`, `null` for `NULL`).
//!
//! # `dxso fx eval --json`
//!
//! ```text
//! {
//!   "technique": "BasicEffect", "pass": "",
//!   "states": [{"state", "operation", "index", "source", "value", "device", "error"}],
//!   "vertex_shader": null | {"shader": 3, "name": "VSArray[3]", "version": "vs_2_0",
//!     "float_constants": [{"register": 0, "value": [x, y, z, w]}],
//!     "int_constants": [{"register", "value": [x, y, z, w]}],
//!     "bool_constants": [{"register", "value": true}],
//!     "samplers": [{"register": 0, "parameter": "TextureSampler", "states": [...]}],
//!     "warnings": ["..."]},
//!   "pixel_shader": null | {...}
//! }
//! ```
//!
//! `source` is `constant`, `parameter`, `expression`, `selector` or `inline_shader`;
//! `device` is the `DWORD` the device call receives for states that take one.

use crate::effect::{Annotation, Effect, ObjectData, Parameter, Payload, ShaderSource, Target};
use crate::runtime::{Numbers, PassView, ShaderView, StateSource, StateValue, StateView};
use crate::states::State;
use crate::types::{name_str, Shape, TypeDesc};
use crate::value::Value;
use dxso::ctab::ParameterType;
use serde::Serialize;

/// A JSON-shaped value (objects keep their key order).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// A number.
    Float(f64),
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// A string.
    Text(String),
    /// An array.
    List(Vec<Json>),
    /// An object with ordered keys.
    Object(Vec<(String, Json)>),
}

impl Json {
    fn obj<const N: usize>(fields: [(&str, Json); N]) -> Json {
        Json::Object(
            fields
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        )
    }
}

impl Serialize for Json {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Json::Null => s.serialize_unit(),
            Json::Float(f) => s.serialize_f64(*f),
            Json::Int(i) => s.serialize_i64(*i),
            Json::Bool(b) => s.serialize_bool(*b),
            Json::Text(t) => s.serialize_str(t),
            Json::List(l) => {
                let mut seq = s.serialize_seq(Some(l.len()))?;
                for v in l {
                    seq.serialize_element(v)?;
                }
                seq.end()
            }
            Json::Object(fields) => {
                let mut m = s.serialize_map(Some(fields.len()))?;
                for (k, v) in fields {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
        }
    }
}

impl Json {
    /// The value as `serde_json`-style text would show it (used by text reports).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        self.write_text(&mut out);
        out
    }

    /// Appends [`Json::to_text`]'s text to `out`: one buffer for the whole value, so the work
    /// is the length of the text however deeply lists nest.
    fn write_text(&self, out: &mut String) {
        use std::fmt::Write as _;
        match self {
            Json::Null => out.push_str("null"),
            Json::Float(f) => out.push_str(&format_float(*f)),
            Json::Int(i) => {
                let _ = write!(out, "{i}");
            }
            Json::Bool(b) => {
                let _ = write!(out, "{b}");
            }
            Json::Text(s) => {
                let _ = write!(out, "{s:?}");
            }
            Json::List(l) => {
                out.push('[');
                for (i, v) in l.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    v.write_text(out);
                }
                out.push(']');
            }
            Json::Object(f) => {
                out.push('{');
                for (i, (k, v)) in f.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(k);
                    out.push_str(": ");
                    v.write_text(out);
                }
                out.push('}');
            }
        }
    }
}

fn format_float(f: f64) -> String {
    if f.is_finite() && f == f.trunc() && f.abs() < 1e15 {
        format!("{f:.1}")
    } else {
        format!("{f}")
    }
}

fn float_json(f: f32) -> Json {
    if f.is_finite() {
        Json::Float(f as f64)
    } else {
        // JSON has no infinities or NaNs: the bit pattern says which one.
        Json::Text(format!("{f} ({:#010x})", f.to_bits()))
    }
}

/// Numbers as a JSON array.
pub fn numbers_json(n: &Numbers) -> Json {
    match n {
        Numbers::Floats(v) => Json::List(v.iter().map(|&f| float_json(f)).collect()),
        Numbers::Ints(v) => Json::List(v.iter().map(|&i| Json::Int(i as i64)).collect()),
        Numbers::Bools(v) => Json::List(v.iter().map(|&b| Json::Bool(b)).collect()),
    }
}

/// The numbers of plain data words, in the type's storage order.
fn data_json(ty: &TypeDesc, words: &[u32]) -> Json {
    let types = ty.word_types();
    Json::List(
        words
            .iter()
            .enumerate()
            .map(|(k, &w)| match types.get(k).copied().flatten() {
                Some(ParameterType::Int) => Json::Int(w as i32 as i64),
                Some(ParameterType::Bool) => Json::Bool(w != 0),
                _ => float_json(f32::from_bits(w)),
            })
            .collect(),
    )
}

fn object_json(effect: &Effect, id: u32) -> Json {
    match effect.object(id).map(|o| &o.data) {
        Some(ObjectData::Bytes(b)) if !b.is_empty() && is_text(b) => Json::obj([(
            "string",
            Json::Text(crate::effect::bytes_str(b).into_owned()),
        )]),
        _ => Json::obj([("object", Json::Int(id as i64))]),
    }
}

fn is_text(b: &[u8]) -> bool {
    let body = b.strip_suffix(&[0]).unwrap_or(b);
    body.iter().all(|&c| c.is_ascii_graphic() || c == b' ')
}

/// A value as JSON.
pub fn value_json(effect: &Effect, ty: &TypeDesc, value: &Value) -> Json {
    match value {
        Value::Data(w) => data_json(ty, w),
        Value::Objects(ids) => {
            let list: Vec<Json> = ids.iter().map(|&id| object_json(effect, id)).collect();
            if ty.elements == 0 && list.len() == 1 {
                list.into_iter().next().unwrap_or(Json::Null)
            } else {
                Json::List(list)
            }
        }
        Value::Samplers(blocks) => {
            let list: Vec<Json> = blocks
                .iter()
                .map(|b| Json::List(b.iter().map(|s| plain_state_json(effect, s)).collect()))
                .collect();
            if ty.elements == 0 && list.len() == 1 {
                list.into_iter().next().unwrap_or(Json::Null)
            } else {
                Json::List(list)
            }
        }
        Value::Members(m) => {
            let members = ty.members();
            Json::List(
                members
                    .iter()
                    .cycle()
                    .zip(m)
                    .map(|(t, v)| value_json(effect, t, v))
                    .collect(),
            )
        }
    }
}

fn plain_state_json(effect: &Effect, s: &State) -> Json {
    Json::obj([
        ("state", Json::Text(s.info().name.to_string())),
        ("operation", Json::Int(s.operation as i64)),
        ("index", Json::Int(s.index as i64)),
        ("value", value_json(effect, &s.ty, &s.value)),
    ])
}

fn type_json(ty: &TypeDesc) -> Vec<(String, Json)> {
    let opt = |n: &Option<crate::types::Name>| {
        n.as_ref()
            .map_or(Json::Null, |n| Json::Text(n.as_str().into_owned()))
    };
    vec![
        ("name".into(), Json::Text(name_str(&ty.name).into_owned())),
        ("semantic".into(), opt(&ty.semantic)),
        ("class".into(), Json::Text(ty.class_name().into_owned())),
        ("type".into(), Json::Text(ty.type_name().into_owned())),
        ("rows".into(), Json::Int(ty.rows() as i64)),
        ("columns".into(), Json::Int(ty.columns() as i64)),
        ("elements".into(), Json::Int(ty.elements as i64)),
        (
            "members".into(),
            Json::List(
                ty.members()
                    .iter()
                    .map(|m| Json::Object(type_json(m)))
                    .collect(),
            ),
        ),
    ]
}

fn annotation_json(effect: &Effect, a: &Annotation) -> Json {
    let mut f = type_json(&a.ty);
    f.retain(|(k, _)| k != "semantic" && k != "members");
    f.push(("value".into(), value_json(effect, &a.ty, &a.value)));
    Json::Object(f)
}

/// A parameter's value, its sampler states resolved through the large-object table.
fn parameter_value_json(effect: &Effect, index: usize, p: &Parameter) -> Json {
    let Value::Samplers(blocks) = &p.value else {
        return value_json(effect, &p.ty, &p.value);
    };
    let list: Vec<Json> = blocks
        .iter()
        .enumerate()
        .map(|(e, block)| {
            Json::List(
                block
                    .iter()
                    .enumerate()
                    .map(|(k, s)| {
                        let target = Target::Sampler {
                            parameter: index as u32,
                            element: if p.ty.elements > 0 {
                                e as u32
                            } else {
                                u32::MAX
                            },
                            state: k as u32,
                        };
                        Json::obj([
                            ("state", Json::Text(s.info().name.to_string())),
                            ("operation", Json::Int(s.operation as i64)),
                            ("index", Json::Int(s.index as i64)),
                            ("value", computed_state_json(effect, &target, s)),
                        ])
                    })
                    .collect(),
            )
        })
        .collect();
    if p.ty.elements == 0 && list.len() == 1 {
        list.into_iter().next().unwrap_or(Json::Null)
    } else {
        Json::List(list)
    }
}

fn parameter_json(effect: &Effect, index: usize, p: &Parameter) -> Json {
    let mut f = type_json(&p.ty);
    let members = f.pop();
    f.push(("flags".into(), Json::Int(p.flags as i64)));
    f.push(("shared".into(), Json::Bool(p.is_shared())));
    f.push((
        "annotations".into(),
        Json::List(
            p.annotations
                .iter()
                .map(|a| annotation_json(effect, a))
                .collect(),
        ),
    ));
    f.extend(members);
    f.push(("value".into(), parameter_value_json(effect, index, p)));
    Json::Object(f)
}

/// The position of a shader in [`Effect::shaders`].
pub fn shader_index(effect: &Effect, source: ShaderSource) -> Option<usize> {
    effect.shaders().position(|(s, _)| s == source)
}

/// A name for a shader: the parameter (and element) that holds it, or the technique, pass and
/// state of an inline `compile`.
pub fn shader_name(effect: &Effect, source: ShaderSource) -> String {
    match source {
        ShaderSource::Object(id) => effect
            .parameters
            .iter()
            .find_map(|p| {
                let ids = p.value.objects()?;
                let k = ids.iter().position(|&x| x == id)?;
                Some(if p.ty.elements > 0 {
                    format!("{}[{k}]", p.name())
                } else {
                    p.name().into_owned()
                })
            })
            .unwrap_or_else(|| format!("object{id}")),
        ShaderSource::Resource(i) => match effect.resources.get(i).map(|r| r.target) {
            Some(
                t @ Target::Pass {
                    technique, pass, ..
                },
            ) => {
                let tech = effect.techniques.get(technique as usize);
                let tname = tech.map_or(String::new(), |t| name_str(&t.name).into_owned());
                let pname = tech
                    .and_then(|t| t.passes.get(pass as usize))
                    .map_or(String::new(), |p| name_str(&p.name).into_owned());
                let state = effect.target_state(&t).map_or("state", |s| s.info().name);
                let or = |s: String, n: u32| if s.is_empty() { n.to_string() } else { s };
                format!("{}.{}.{state}", or(tname, technique), or(pname, pass))
            }
            _ => format!("resource{i}"),
        },
    }
}

/// A state's value as stored, or how its large object computes it.
pub fn computed_state_json(effect: &Effect, target: &Target, s: &State) -> Json {
    let Some((i, r)) = effect.resource_for(target) else {
        return value_json(effect, &s.ty, &s.value);
    };
    match &r.payload {
        Payload::Shader(None) => Json::obj([("shader", Json::Null)]),
        Payload::Shader(Some(_)) => Json::obj([(
            "shader",
            shader_index(effect, ShaderSource::Resource(i))
                .map_or(Json::Null, |k| Json::Int(k as i64)),
        )]),
        Payload::Expression(p) => Json::obj([("expression", Json::Text(p.listing()))]),
        Payload::Parameter(n) => Json::obj([(
            "parameter",
            Json::Text(crate::effect::bytes_str(n).into_owned()),
        )]),
        Payload::Selector { name, program } => Json::obj([
            (
                "selector",
                Json::Text(crate::effect::bytes_str(name).into_owned()),
            ),
            ("expression", Json::Text(program.listing())),
        ]),
        Payload::Raw(b) => Json::obj([("bytes", Json::Int(b.len() as i64))]),
    }
}

/// `dxso fx info`'s description of an effect (see the module documentation).
pub fn info(effect: &Effect, file: &str, bytes: usize) -> Json {
    let techniques = effect
        .techniques
        .iter()
        .enumerate()
        .map(|(ti, t)| {
            let passes = t
                .passes
                .iter()
                .enumerate()
                .map(|(pi, p)| {
                    let states = p
                        .states
                        .iter()
                        .enumerate()
                        .map(|(si, s)| {
                            let target = Target::Pass {
                                technique: ti as u32,
                                pass: pi as u32,
                                state: si as u32,
                                element: u32::MAX,
                            };
                            Json::obj([
                                ("state", Json::Text(s.info().name.to_string())),
                                ("operation", Json::Int(s.operation as i64)),
                                ("index", Json::Int(s.index as i64)),
                                ("value", computed_state_json(effect, &target, s)),
                            ])
                        })
                        .collect();
                    Json::obj([
                        ("name", Json::Text(name_str(&p.name).into_owned())),
                        (
                            "annotations",
                            Json::List(
                                p.annotations
                                    .iter()
                                    .map(|a| annotation_json(effect, a))
                                    .collect(),
                            ),
                        ),
                        ("states", Json::List(states)),
                    ])
                })
                .collect();
            Json::obj([
                ("name", Json::Text(name_str(&t.name).into_owned())),
                (
                    "annotations",
                    Json::List(
                        t.annotations
                            .iter()
                            .map(|a| annotation_json(effect, a))
                            .collect(),
                    ),
                ),
                ("passes", Json::List(passes)),
            ])
        })
        .collect();
    let shaders = effect
        .shaders()
        .enumerate()
        .map(|(i, (source, sh))| {
            let preshader = match sh.preshader() {
                Some(Ok(p)) => Json::obj([
                    ("instructions", Json::Int(p.instructions().len() as i64)),
                    (
                        "literals",
                        Json::Int(p.literals().map_or(0, |l| l.values.len()) as i64),
                    ),
                    ("listing", Json::Text(p.listing())),
                ]),
                Some(Err(e)) => Json::obj([("error", Json::Text(e.to_string()))]),
                None => Json::Null,
            };
            let src = match source {
                ShaderSource::Object(id) => Json::obj([("object", Json::Int(id as i64))]),
                ShaderSource::Resource(r) => Json::obj([("resource", Json::Int(r as i64))]),
            };
            Json::obj([
                ("index", Json::Int(i as i64)),
                ("name", Json::Text(shader_name(effect, source))),
                ("source", src),
                ("version", Json::Text(sh.shader.version.to_string())),
                ("bytes", Json::Int(sh.to_bytes().len() as i64)),
                (
                    "instructions",
                    Json::Int(sh.shader.instructions().count() as i64),
                ),
                ("preshader", preshader),
            ])
        })
        .collect();
    Json::obj([
        ("file", Json::Text(file.to_string())),
        ("bytes", Json::Int(bytes as i64)),
        (
            "parameters",
            Json::List(
                effect
                    .parameters
                    .iter()
                    .enumerate()
                    .map(|(i, p)| parameter_json(effect, i, p))
                    .collect(),
            ),
        ),
        ("techniques", Json::List(techniques)),
        ("shaders", Json::List(shaders)),
    ])
}

fn source_json(s: &StateSource) -> (Json, Vec<(String, Json)>) {
    match s {
        StateSource::Constant => (Json::Text("constant".into()), vec![]),
        StateSource::Parameter(p) => (
            Json::Text("parameter".into()),
            vec![("parameter".into(), Json::Text(p.clone()))],
        ),
        StateSource::Expression => (Json::Text("expression".into()), vec![]),
        StateSource::Selector { parameter, index } => (
            Json::Text("selector".into()),
            vec![
                ("parameter".into(), Json::Text(parameter.clone())),
                ("element".into(), Json::Int(*index as i64)),
            ],
        ),
        StateSource::InlineShader => (Json::Text("inline_shader".into()), vec![]),
    }
}

/// An evaluated state as JSON.
pub fn state_view_json(effect: &Effect, s: &StateView) -> Json {
    let (source, extra) = source_json(&s.source);
    let mut f: Vec<(String, Json)> = vec![
        ("state".into(), Json::Text(s.name.to_string())),
        ("operation".into(), Json::Int(s.operation as i64)),
        ("index".into(), Json::Int(s.index as i64)),
        ("source".into(), source),
    ];
    f.extend(extra);
    match &s.value {
        Ok(v) => f.push(("value".into(), state_value_json(effect, v))),
        Err(e) => f.push(("error".into(), Json::Text(e.to_string()))),
    }
    f.push((
        "device".into(),
        s.device.map_or(Json::Null, |d| Json::Int(d as i64)),
    ));
    Json::Object(f)
}

fn state_value_json(effect: &Effect, v: &StateValue) -> Json {
    match v {
        StateValue::Numbers(n) => numbers_json(n),
        StateValue::Shader(None) => Json::obj([("shader", Json::Null)]),
        StateValue::Shader(Some(r)) => Json::obj([
            (
                "shader",
                shader_index(effect, r.source).map_or(Json::Null, |k| Json::Int(k as i64)),
            ),
            ("name", Json::Text(shader_name(effect, r.source))),
        ]),
        StateValue::Texture(t) => Json::obj([(
            "texture",
            t.as_ref().map_or(Json::Null, |t| Json::Text(t.clone())),
        )]),
        StateValue::Sampler { parameter, states } => Json::obj([
            ("sampler", Json::Text(parameter.clone())),
            (
                "states",
                Json::List(states.iter().map(|s| state_view_json(effect, s)).collect()),
            ),
        ]),
        StateValue::String(s) => Json::obj([("string", Json::Text(s.clone()))]),
    }
}

fn shader_view_json(effect: &Effect, v: &ShaderView) -> Json {
    let regs = |bank: &crate::eval::Bank<f32>| {
        Json::List(
            crate::runtime::written(bank)
                .into_iter()
                .map(|(r, c)| {
                    Json::obj([
                        ("register", Json::Int(r as i64)),
                        ("value", Json::List(c.into_iter().map(float_json).collect())),
                    ])
                })
                .collect(),
        )
    };
    let ints = Json::List(
        crate::runtime::written(&v.registers.ints)
            .into_iter()
            .map(|(r, c)| {
                Json::obj([
                    ("register", Json::Int(r as i64)),
                    (
                        "value",
                        Json::List(c.into_iter().map(|i| Json::Int(i as i64)).collect()),
                    ),
                ])
            })
            .collect(),
    );
    let bools = Json::List(
        crate::runtime::written(&v.registers.bools)
            .into_iter()
            .map(|(r, c)| {
                Json::obj([
                    ("register", Json::Int(r as i64)),
                    ("value", Json::Bool(c.first().copied().unwrap_or(false))),
                ])
            })
            .collect(),
    );
    let samplers = Json::List(
        v.samplers
            .iter()
            .map(|b| {
                Json::obj([
                    ("register", Json::Int(b.register as i64)),
                    ("parameter", Json::Text(b.parameter.clone())),
                    (
                        "states",
                        Json::List(
                            b.states
                                .iter()
                                .map(|s| state_view_json(effect, s))
                                .collect(),
                        ),
                    ),
                ])
            })
            .collect(),
    );
    let version = effect
        .shader(v.shader.source)
        .map_or(String::new(), |s| s.shader.version.to_string());
    Json::obj([
        (
            "shader",
            shader_index(effect, v.shader.source).map_or(Json::Null, |k| Json::Int(k as i64)),
        ),
        ("name", Json::Text(shader_name(effect, v.shader.source))),
        ("version", Json::Text(version)),
        ("float_constants", regs(&v.registers.floats)),
        ("int_constants", ints),
        ("bool_constants", bools),
        ("samplers", samplers),
        (
            "warnings",
            Json::List(v.warnings.iter().map(|w| Json::Text(w.clone())).collect()),
        ),
    ])
}

/// `dxso fx eval`'s description of an evaluated pass (see the module documentation).
pub fn pass_json(effect: &Effect, view: &PassView) -> Json {
    let tech = effect.techniques.get(view.technique);
    let pass = tech.and_then(|t| t.passes.get(view.pass));
    Json::obj([
        (
            "technique",
            Json::Text(tech.map_or(String::new(), |t| name_str(&t.name).into_owned())),
        ),
        (
            "pass",
            Json::Text(pass.map_or(String::new(), |p| name_str(&p.name).into_owned())),
        ),
        (
            "states",
            Json::List(
                view.states
                    .iter()
                    .map(|s| state_view_json(effect, s))
                    .collect(),
            ),
        ),
        (
            "vertex_shader",
            view.vertex_shader
                .as_ref()
                .map_or(Json::Null, |v| shader_view_json(effect, v)),
        ),
        (
            "pixel_shader",
            view.pixel_shader
                .as_ref()
                .map_or(Json::Null, |v| shader_view_json(effect, v)),
        ),
    ])
}

/// A type as HLSL spells it (`float4x4`, `int[2]`, `texture2d`, `struct`).
pub fn type_text(ty: &TypeDesc) -> String {
    let base = match &ty.shape {
        Shape::Numeric { rows, columns } => {
            let t = ty.type_name();
            match ty.class_raw {
                0 => t.into_owned(),
                1 => format!("{t}{columns}"),
                _ => format!("{t}{rows}x{columns}"),
            }
        }
        Shape::Struct(m) => format!(
            "struct {{ {} }}",
            m.iter()
                .map(|m| format!("{} {};", type_text(m), name_str(&m.name)))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Shape::None => ty.type_name().into_owned(),
    };
    if ty.elements > 0 {
        format!("{base}[{}]", ty.elements)
    } else {
        base
    }
}
