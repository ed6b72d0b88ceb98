//! The runtime view: what a device receives when an application sets parameters, picks a
//! technique and a pass, and begins the pass.
//!
//! [`Runtime`] holds the current value of every parameter (the defaults at first). Set values
//! by name ([`Runtime::set_floats`], with paths such as `Lights[1].Color`) or by semantic
//! ([`Runtime::set_by_semantic`]). [`Runtime::pass`] evaluates a pass: every state's value
//! (constants, parameter references, expressions and array selectors evaluated), the vertex
//! and pixel shaders chosen, and each shader's constant registers filled from the parameters
//! through its constant table and its preshader, with its `sampler_state` blocks bound to
//! the sampler registers the table names.

use crate::effect::{bytes_str, Effect, ObjectData, Payload, ShaderSource, Target};
use crate::eval::{execute, Bank, Precision, Registers};
use crate::program::Program;
use crate::states::{DeviceValue, State, StateClass};
use crate::types::{is_sampler, name_str, TypeDesc, ValueKind};
use crate::upload::{sampler_registers, upload};
use crate::value::Value;
use dxso::ctab::ParameterType;

/// Why the runtime could not do what was asked.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RuntimeError {
    /// No parameter has this name (or path).
    #[error("no parameter `{0}`")]
    NoParameter(String),
    /// No parameter has this semantic.
    #[error("no parameter has the semantic `{0}`")]
    NoSemantic(String),
    /// The technique does not exist.
    #[error("no technique `{0}`")]
    NoTechnique(String),
    /// The pass does not exist.
    #[error("no pass `{0}`")]
    NoPass(String),
    /// The parameter holds objects, not numbers.
    #[error("parameter `{0}` is not numeric")]
    NotNumeric(String),
    /// More values than the parameter holds.
    #[error("parameter `{name}` holds {capacity} value(s), {given} given")]
    TooManyValues {
        /// The parameter.
        name: String,
        /// Values it holds.
        capacity: usize,
        /// Values given.
        given: usize,
    },
    /// An array selector evaluated to an element the array does not have.
    #[error("array selector of `{parameter}` evaluated to {index}, outside 0..{count}")]
    SelectorOutOfRange {
        /// The array parameter.
        parameter: String,
        /// The index computed.
        index: i32,
        /// The array's elements.
        count: u32,
    },
    /// A state refers to an object the effect does not hold or that is not of the state's kind.
    #[error("{0}")]
    BadReference(String),
}

/// Where a state's value came from.
#[derive(Clone, Debug, PartialEq)]
pub enum StateSource {
    /// The value stored with the state.
    Constant,
    /// A parameter (`State = (name)`).
    Parameter(String),
    /// An expression evaluated on the parameters.
    Expression,
    /// An element of an array parameter, picked by an evaluated index.
    Selector {
        /// The array parameter.
        parameter: String,
        /// The element picked.
        index: u32,
    },
    /// An inline shader (`compile vs_2_0 main()`).
    InlineShader,
}

/// Numbers of a state, in the state's type.
#[derive(Clone, Debug, PartialEq)]
pub enum Numbers {
    /// Float values.
    Floats(Vec<f32>),
    /// Int values (enumerations, counts).
    Ints(Vec<i32>),
    /// Bool values.
    Bools(Vec<bool>),
}

/// The evaluated value of a state.
#[derive(Clone, Debug, PartialEq)]
pub enum StateValue {
    /// Numbers.
    Numbers(Numbers),
    /// A shader (`None` for `NULL`).
    Shader(Option<ShaderRef>),
    /// A texture: the texture parameter's name (`None` when none is bound).
    Texture(Option<String>),
    /// A sampler block (`Sampler[n] = s`): its states evaluated.
    Sampler {
        /// The sampler parameter.
        parameter: String,
        /// Its states.
        states: Vec<StateView>,
    },
    /// A string.
    String(String),
}

/// One state as the device receives it.
#[derive(Clone, Debug, PartialEq)]
pub struct StateView {
    /// The state table operation.
    pub operation: u32,
    /// The effect-file name (`AlphaBlendEnable`).
    pub name: &'static str,
    /// The `[index]`.
    pub index: u32,
    /// Where the value came from.
    pub source: StateSource,
    /// The value, or why it could not be computed.
    pub value: Result<StateValue, RuntimeError>,
    /// The `DWORD` the device call receives, for states that take one (see
    /// [`DeviceValue`]): floats truncate for `DWORD` states and pass their bit pattern for
    /// float states.
    pub device: Option<u32>,
}

/// The `DWORD` a device call receives for a single-number value.
fn device_dword(kind: DeviceValue, value: &Result<StateValue, RuntimeError>) -> Option<u32> {
    let Ok(StateValue::Numbers(n)) = value else {
        return None;
    };
    match (kind, n) {
        (DeviceValue::Dword, Numbers::Floats(v)) if v.len() == 1 => Some(v[0] as i32 as u32),
        (DeviceValue::Dword, Numbers::Ints(v)) if v.len() == 1 => Some(v[0] as u32),
        (DeviceValue::Dword, Numbers::Bools(v)) if v.len() == 1 => Some(v[0] as u32),
        (DeviceValue::Float, Numbers::Floats(v)) if v.len() == 1 => Some(v[0].to_bits()),
        (DeviceValue::Float, Numbers::Ints(v)) if v.len() == 1 => Some((v[0] as f32).to_bits()),
        (DeviceValue::Float, Numbers::Bools(v)) if v.len() == 1 => {
            Some((v[0] as u32 as f32).to_bits())
        }
        _ => None,
    }
}

/// A shader picked by a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderRef {
    /// Where the bytecode lives.
    pub source: ShaderSource,
    /// The parameter (and element) it was taken from, if any (`VSArray[3]`).
    pub parameter: Option<String>,
}

/// A sampler register bound to a sampler parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct SamplerBinding {
    /// The sampler register (`s#`; for vertex shaders the device adds
    /// `D3DVERTEXTEXTURESAMPLER0`).
    pub register: u32,
    /// The sampler parameter (and element).
    pub parameter: String,
    /// Its states.
    pub states: Vec<StateView>,
}

/// A shader with its registers as the pass sets them.
#[derive(Clone, Debug, PartialEq)]
pub struct ShaderView {
    /// Which shader.
    pub shader: ShaderRef,
    /// The registers written by its preshader and from the parameters through its constant
    /// table (registers not listed keep what the device had).
    pub registers: Registers,
    /// The samplers its constant table binds.
    pub samplers: Vec<SamplerBinding>,
    /// Constants that could not be filled, and why.
    pub warnings: Vec<String>,
}

/// A pass as the device receives it.
#[derive(Clone, Debug, PartialEq)]
pub struct PassView {
    /// Technique index.
    pub technique: usize,
    /// Pass index.
    pub pass: usize,
    /// Every state in order.
    pub states: Vec<StateView>,
    /// The vertex shader the pass ends up with (the last `VertexShader` state) and its
    /// registers.
    pub vertex_shader: Option<ShaderView>,
    /// The pixel shader and its registers.
    pub pixel_shader: Option<ShaderView>,
}

/// The parameters of an effect with their current values.
#[derive(Clone, Debug)]
pub struct Runtime<'e> {
    effect: &'e Effect,
    values: Vec<Value>,
    precision: Precision,
    /// Nesting of state evaluation (sampler blocks referring to samplers).
    depth: std::cell::Cell<usize>,
}

/// One step of a parameter path.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    Member(String),
    Element(u32),
}

fn parse_path(path: &str) -> Option<(String, Vec<Step>)> {
    let top_end = path.find(['.', '[']).unwrap_or(path.len());
    let top = path[..top_end].to_string();
    if top.is_empty() {
        return None;
    }
    let mut steps = Vec::new();
    let mut rest = &path[top_end..];
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            if end == 0 {
                return None;
            }
            steps.push(Step::Member(r[..end].to_string()));
            rest = &r[end..];
        } else if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']')?;
            steps.push(Step::Element(r[..end].trim().parse().ok()?));
            rest = &r[end + 1..];
        } else {
            return None;
        }
    }
    Some((top, steps))
}

/// A sub-parameter: its type, and its words (for plain data) in the top-level value.
#[derive(Clone, Debug)]
struct Located {
    ty: TypeDesc,
    /// The value of the sub-parameter.
    value: Value,
    /// Word range in the top-level `Value::Data`, when the whole parameter is plain data.
    words: Option<std::ops::Range<usize>>,
}

fn locate(ty: &TypeDesc, value: &Value, steps: &[Step]) -> Option<Located> {
    let Some((step, rest)) = steps.split_first() else {
        return Some(Located {
            ty: ty.clone(),
            value: value.clone(),
            words: ty.data_words().map(|w| 0..w as usize),
        });
    };
    let shift = |l: Located, by: usize| Located {
        words: l.words.map(|r| r.start + by..r.end + by),
        ..l
    };
    match step {
        Step::Element(i) => {
            if ty.elements == 0 || *i >= ty.elements {
                return None;
            }
            let et = ty.element_type();
            let i = *i as usize;
            match value {
                Value::Data(w) => {
                    let n = et.data_words()? as usize;
                    let part = Value::Data(w.get(i * n..(i + 1) * n)?.to_vec());
                    Some(shift(locate(&et, &part, rest)?, i * n))
                }
                Value::Objects(ids) => locate(&et, &Value::Objects(vec![*ids.get(i)?]), rest),
                Value::Samplers(b) => locate(&et, &Value::Samplers(vec![b.get(i)?.clone()]), rest),
                Value::Members(m) => {
                    let k = ty.members().len();
                    let part = Value::Members(m.get(i * k..(i + 1) * k)?.to_vec());
                    let mut l = locate(&et, &part, rest)?;
                    l.words = None;
                    Some(l)
                }
            }
        }
        Step::Member(name) => {
            if ty.elements > 0 {
                return None;
            }
            let members = ty.members();
            let k = members
                .iter()
                .position(|m| name_str(&m.name) == name.as_str())?;
            let mt = &members[k];
            match value {
                Value::Data(w) => {
                    let start: usize = members[..k]
                        .iter()
                        .map(|m| m.data_words().unwrap_or(0) as usize)
                        .sum();
                    let n = mt.data_words()? as usize;
                    let part = Value::Data(w.get(start..start + n)?.to_vec());
                    Some(shift(locate(mt, &part, rest)?, start))
                }
                Value::Members(m) => {
                    let mut l = locate(mt, m.get(k)?, rest)?;
                    l.words = None;
                    Some(l)
                }
                _ => None,
            }
        }
    }
}

/// A number given by the user, in the word encoding of `ty` (d3dx9's conversions).
fn encode_number(ty: Option<ParameterType>, v: Given) -> u32 {
    match (ty, v) {
        (Some(ParameterType::Int), Given::Float(f)) => f as i32 as u32,
        (Some(ParameterType::Int), Given::Int(i)) => i as u32,
        (Some(ParameterType::Int), Given::Bool(b)) => b as u32,
        (Some(ParameterType::Bool), Given::Float(f)) => (f.to_bits() != 0) as u32,
        (Some(ParameterType::Bool), Given::Int(i)) => (i != 0) as u32,
        (Some(ParameterType::Bool), Given::Bool(b)) => b as u32,
        (_, Given::Float(f)) => f.to_bits(),
        (_, Given::Int(i)) => (i as f32).to_bits(),
        (_, Given::Bool(b)) => (b as u32 as f32).to_bits(),
    }
}

#[derive(Clone, Copy)]
enum Given {
    Float(f32),
    Int(i32),
    Bool(bool),
}

/// Words of a value read as the numbers of `state_type` (d3dx9's conversions).
fn numbers(from: &[Option<ParameterType>], words: &[u32], to: Option<ParameterType>) -> Numbers {
    let get = |k: usize| (from.get(k).copied().flatten(), words[k]);
    let n = words.len();
    match to {
        Some(ParameterType::Int) => Numbers::Ints(
            (0..n)
                .map(|k| match get(k) {
                    (Some(ParameterType::Int), w) => w as i32,
                    (Some(ParameterType::Bool), w) => (w != 0) as i32,
                    (_, w) => f32::from_bits(w) as i32,
                })
                .collect(),
        ),
        Some(ParameterType::Bool) => Numbers::Bools((0..n).map(|k| get(k).1 != 0).collect()),
        _ => Numbers::Floats(
            (0..n)
                .map(|k| match get(k) {
                    (Some(ParameterType::Int), w) => w as i32 as f32,
                    (Some(ParameterType::Bool), w) => (w != 0) as u32 as f32,
                    (_, w) => f32::from_bits(w),
                })
                .collect(),
        ),
    }
}

impl<'e> Runtime<'e> {
    /// The effect's parameters at their default values, evaluated as native d3dx9 does.
    pub fn new(effect: &'e Effect) -> Self {
        Runtime {
            effect,
            values: effect.parameters.iter().map(|p| p.value.clone()).collect(),
            precision: Precision::Native,
            depth: std::cell::Cell::new(0),
        }
    }

    /// Evaluates expressions and preshaders with `precision`.
    pub fn with_precision(mut self, precision: Precision) -> Self {
        self.precision = precision;
        self
    }

    /// The effect.
    pub fn effect(&self) -> &'e Effect {
        self.effect
    }

    /// The current value of parameter `index`.
    pub fn value(&self, index: usize) -> Option<&Value> {
        self.values.get(index)
    }

    fn find(&self, path: &str) -> Option<(usize, Located)> {
        let (top, steps) = parse_path(path)?;
        let (i, p) = self.effect.parameter(&top)?;
        Some((i, locate(&p.ty, &self.values[i], &steps)?))
    }

    /// The current value of the parameter (or sub-parameter) at `path`, with its type.
    pub fn get(&self, path: &str) -> Option<(TypeDesc, Value)> {
        self.find(path).map(|(_, l)| (l.ty, l.value))
    }

    fn set(&mut self, path: &str, given: &[Given]) -> Result<(), RuntimeError> {
        let (i, l) = self
            .find(path)
            .ok_or_else(|| RuntimeError::NoParameter(path.to_string()))?;
        let range = l
            .words
            .filter(|_| matches!(self.values[i], Value::Data(_)))
            .ok_or_else(|| RuntimeError::NotNumeric(path.to_string()))?;
        if given.len() > range.len() {
            return Err(RuntimeError::TooManyValues {
                name: path.to_string(),
                capacity: range.len(),
                given: given.len(),
            });
        }
        let types = l.ty.word_types();
        if let Value::Data(words) = &mut self.values[i] {
            for (k, &v) in given.iter().enumerate() {
                words[range.start + k] = encode_number(types.get(k).copied().flatten(), v);
            }
        }
        Ok(())
    }

    /// Sets the first values of a numeric parameter (or sub-parameter, `a.b[2]`) from floats,
    /// converting to its type as `SetFloatArray` does.
    pub fn set_floats(&mut self, path: &str, values: &[f32]) -> Result<(), RuntimeError> {
        let given: Vec<Given> = values.iter().map(|&f| Given::Float(f)).collect();
        self.set(path, &given)
    }

    /// Sets the first values from ints.
    pub fn set_ints(&mut self, path: &str, values: &[i32]) -> Result<(), RuntimeError> {
        let given: Vec<Given> = values.iter().map(|&v| Given::Int(v)).collect();
        self.set(path, &given)
    }

    /// Sets the first values from bools.
    pub fn set_bools(&mut self, path: &str, values: &[bool]) -> Result<(), RuntimeError> {
        let given: Vec<Given> = values.iter().map(|&v| Given::Bool(v)).collect();
        self.set(path, &given)
    }

    /// Sets the first parameter whose semantic is `semantic` (case-insensitive) from floats;
    /// returns its name.
    pub fn set_by_semantic(
        &mut self,
        semantic: &str,
        values: &[f32],
    ) -> Result<String, RuntimeError> {
        let name = self
            .effect
            .parameters
            .iter()
            .find(|p| {
                p.semantic()
                    .is_some_and(|s| s.eq_ignore_ascii_case(semantic))
            })
            .map(|p| p.name().into_owned())
            .ok_or_else(|| RuntimeError::NoSemantic(semantic.to_string()))?;
        self.set_floats(&name, values)?;
        Ok(name)
    }

    /// Evaluates pass `pass` of technique `technique`.
    pub fn pass(&self, technique: usize, pass: usize) -> Result<PassView, RuntimeError> {
        let t = self
            .effect
            .techniques
            .get(technique)
            .ok_or_else(|| RuntimeError::NoTechnique(technique.to_string()))?;
        let p = t
            .passes
            .get(pass)
            .ok_or_else(|| RuntimeError::NoPass(pass.to_string()))?;
        let states: Vec<StateView> = p
            .states
            .iter()
            .enumerate()
            .map(|(k, s)| {
                let target = Target::Pass {
                    technique: technique as u32,
                    pass: pass as u32,
                    state: k as u32,
                    element: u32::MAX,
                };
                self.state(s, &target)
            })
            .collect();
        let shader_of = |class: StateClass| {
            let v = states
                .iter()
                .rev()
                .find(|s| crate::states::state_info(s.operation).map(|i| i.class) == Some(class))?;
            match &v.value {
                Ok(StateValue::Shader(Some(r))) => Some(self.shader_view(r.clone())),
                _ => None,
            }
        };
        Ok(PassView {
            technique,
            pass,
            vertex_shader: shader_of(StateClass::VertexShader),
            pixel_shader: shader_of(StateClass::PixelShader),
            states,
        })
    }

    /// Finds a pass by technique and pass names.
    pub fn pass_by_name(&self, technique: &str, pass: &str) -> Result<PassView, RuntimeError> {
        let (ti, t) = self
            .effect
            .technique(technique)
            .ok_or_else(|| RuntimeError::NoTechnique(technique.to_string()))?;
        let pi = t
            .passes
            .iter()
            .position(|p| name_str(&p.name) == pass)
            .ok_or_else(|| RuntimeError::NoPass(pass.to_string()))?;
        self.pass(ti, pi)
    }

    /// Evaluates one state; sampler references nest at most [`crate::MAX_DEPTH`] deep.
    fn state(&self, state: &State, target: &Target) -> StateView {
        let depth = self.depth.get();
        if depth >= crate::MAX_DEPTH {
            return StateView {
                operation: state.operation,
                name: state.info().name,
                index: state.index,
                source: StateSource::Constant,
                value: Err(RuntimeError::BadReference(format!(
                    "sampler references nest deeper than {}",
                    crate::MAX_DEPTH
                ))),
                device: None,
            };
        }
        self.depth.set(depth + 1);
        let view = self.state_at_depth(state, target);
        self.depth.set(depth);
        view
    }

    fn state_at_depth(&self, state: &State, target: &Target) -> StateView {
        let info = state.info();
        let resource = self.resource(target);
        let (source, value) = match resource.map(|r| &r.payload) {
            None => (StateSource::Constant, self.constant_value(state)),
            Some(Payload::Shader(s)) => (
                StateSource::InlineShader,
                Ok(StateValue::Shader(s.as_ref().map(|_| ShaderRef {
                    source: ShaderSource::Resource(
                        self.effect.resource_for(target).map_or(0, |(i, _)| i),
                    ),
                    parameter: None,
                }))),
            ),
            Some(Payload::Expression(program)) => (
                StateSource::Expression,
                Ok(self.expression_value(state, program)),
            ),
            Some(Payload::Parameter(name)) => {
                let name = bytes_str(name).into_owned();
                let v = self.reference_value(state, &name);
                (StateSource::Parameter(name), v)
            }
            Some(Payload::Selector { name, program }) => {
                let name = bytes_str(name).into_owned();
                match self.select(state, &name, program) {
                    Ok((index, v)) => (
                        StateSource::Selector {
                            parameter: name,
                            index,
                        },
                        Ok(v),
                    ),
                    Err(e) => (
                        StateSource::Selector {
                            parameter: name,
                            index: 0,
                        },
                        Err(e),
                    ),
                }
            }
            Some(Payload::Raw(_)) => (StateSource::Constant, self.constant_value(state)),
        };
        StateView {
            operation: state.operation,
            name: info.name,
            index: state.index,
            source,
            device: device_dword(info.device_value(), &value),
            value,
        }
    }

    fn resource(&self, target: &Target) -> Option<&'e crate::effect::Resource> {
        let effect = self.effect;
        effect
            .resources
            .iter()
            .rev()
            .find(|r| match (r.target, *target) {
                (
                    Target::Pass {
                        technique: a,
                        pass: b,
                        state: c,
                        ..
                    },
                    Target::Pass {
                        technique: x,
                        pass: y,
                        state: z,
                        ..
                    },
                ) => (a, b, c) == (x, y, z),
                (
                    Target::Sampler {
                        parameter: a,
                        element: e1,
                        state: c,
                    },
                    Target::Sampler {
                        parameter: x,
                        element: e2,
                        state: z,
                    },
                ) => {
                    let array = effect
                        .parameters
                        .get(a as usize)
                        .is_some_and(|p| p.ty.elements > 0);
                    (a, c) == (x, z) && (!array || e1 == e2)
                }
                _ => false,
            })
    }

    fn object_value(
        &self,
        ty: &TypeDesc,
        id: u32,
        parameter: Option<String>,
    ) -> Result<StateValue, RuntimeError> {
        match ty.ty() {
            Some(ParameterType::VertexShader | ParameterType::PixelShader) => {
                match self.effect.object(id).map(|o| &o.data) {
                    Some(ObjectData::Shader(_)) => Ok(StateValue::Shader(Some(ShaderRef {
                        source: ShaderSource::Object(id),
                        parameter,
                    }))),
                    _ => Ok(StateValue::Shader(None)),
                }
            }
            Some(ParameterType::String) => match self.effect.object(id).map(|o| &o.data) {
                Some(ObjectData::Bytes(b)) => Ok(StateValue::String(bytes_str(b).into_owned())),
                _ => Ok(StateValue::String(String::new())),
            },
            _ => Ok(StateValue::Texture(
                parameter.or_else(|| self.texture_parameter(id)),
            )),
        }
    }

    /// The texture parameter that holds object id `id`.
    fn texture_parameter(&self, id: u32) -> Option<String> {
        self.effect.parameters.iter().find_map(|p| {
            let ids = p.value.objects()?;
            let k = ids.iter().position(|&x| x == id)?;
            Some(if p.ty.elements > 0 {
                format!("{}[{k}]", p.name())
            } else {
                p.name().into_owned()
            })
        })
    }

    fn constant_value(&self, state: &State) -> Result<StateValue, RuntimeError> {
        let is_shader_state = matches!(
            state.info().class,
            StateClass::VertexShader | StateClass::PixelShader
        );
        match &state.value {
            // `VertexShader = NULL` compiles to a number.
            Value::Data(_) if is_shader_state => Ok(StateValue::Shader(None)),
            Value::Data(words) => {
                let types = state.ty.word_types();
                Ok(StateValue::Numbers(numbers(&types, words, state.ty.ty())))
            }
            Value::Objects(ids) => {
                self.object_value(&state.ty, ids.first().copied().unwrap_or(0), None)
            }
            Value::Samplers(blocks) => Ok(StateValue::Sampler {
                parameter: String::new(),
                states: blocks
                    .first()
                    .map(|b| b.iter().map(|s| self.nested_state(s)).collect())
                    .unwrap_or_default(),
            }),
            Value::Members(_) => Err(RuntimeError::BadReference(
                "a state value cannot be a struct".to_string(),
            )),
        }
    }

    /// A state of a block that no large object can name.
    fn nested_state(&self, state: &State) -> StateView {
        let value = self.constant_value(state);
        StateView {
            operation: state.operation,
            name: state.info().name,
            index: state.index,
            source: StateSource::Constant,
            device: device_dword(state.info().device_value(), &value),
            value,
        }
    }

    /// Runs `program` with its constant table filled from the parameters.
    fn run(&self, program: &Program, warnings: &mut Vec<String>) -> Registers {
        let mut inputs = Registers::default();
        if let Some(t) = program.constant_table() {
            for c in &t.constants {
                let name = c.name.as_str();
                match self.effect.parameter(&name) {
                    Some((i, p)) => {
                        if let Err(e) = upload(c, &p.ty, &self.values[i], &mut inputs) {
                            warnings.push(format!("input `{name}`: {e}"));
                        }
                    }
                    None => warnings.push(format!("input `{name}`: no such parameter")),
                }
            }
        }
        let mut out = Registers::default();
        execute(program, &inputs.floats, &mut out, self.precision);
        out
    }

    fn expression_value(&self, state: &State, program: &Program) -> StateValue {
        let out = self.run(program, &mut Vec::new());
        let n = state.ty.data_words().unwrap_or(0) as usize;
        let stored = state.value.data().unwrap_or(&[]);
        // The outputs replace the stored words they cover, as d3dx9 copies the output table.
        let floats: Vec<f32> = (0..n)
            .map(|k| {
                if k < out.floats.len() * 4 {
                    out.floats.get(k)
                } else {
                    f32::from_bits(stored.get(k).copied().unwrap_or(0))
                }
            })
            .collect();
        let words: Vec<u32> = floats.iter().map(|f| f.to_bits()).collect();
        let types = vec![Some(ParameterType::Float); n];
        StateValue::Numbers(numbers(&types, &words, state.ty.ty()))
    }

    fn reference_value(&self, state: &State, name: &str) -> Result<StateValue, RuntimeError> {
        let (ty, value) = self
            .get(name)
            .ok_or_else(|| RuntimeError::NoParameter(name.to_string()))?;
        self.referenced(state, &ty, &value, name.to_string())
    }

    /// A state's value taken from a (sub-)parameter.
    fn referenced(
        &self,
        state: &State,
        ty: &TypeDesc,
        value: &Value,
        name: String,
    ) -> Result<StateValue, RuntimeError> {
        match value {
            Value::Data(words) => {
                let types = ty.word_types();
                let n = state.ty.data_words().unwrap_or(words.len() as u64) as usize;
                let n = n.min(words.len());
                Ok(StateValue::Numbers(numbers(
                    &types,
                    &words[..n],
                    state.ty.ty(),
                )))
            }
            Value::Objects(ids) => {
                self.object_value(ty, ids.first().copied().unwrap_or(0), Some(name))
            }
            Value::Samplers(blocks) => {
                let (i, _) = self
                    .effect
                    .parameter(&name)
                    .ok_or_else(|| RuntimeError::NoParameter(name.clone()))?;
                Ok(StateValue::Sampler {
                    states: self.sampler_states(i, 0, blocks.first().map_or(&[][..], |b| b)),
                    parameter: name,
                })
            }
            Value::Members(_) => Err(RuntimeError::NotNumeric(name)),
        }
    }

    /// Evaluates an array selector: the element index and the state's value from it.
    fn select(
        &self,
        state: &State,
        name: &str,
        program: &Program,
    ) -> Result<(u32, StateValue), RuntimeError> {
        let (_, p) = self
            .effect
            .parameter(name)
            .ok_or_else(|| RuntimeError::NoParameter(name.to_string()))?;
        let out = self.run(program, &mut Vec::new());
        // The index is read as an int parameter: the float output truncated.
        let raw = out.floats.get(0) as i32;
        // d3dx9 takes -1 as the first element.
        let index = if raw == -1 { 0 } else { raw };
        if index < 0 || index as u32 >= p.ty.elements {
            return Err(RuntimeError::SelectorOutOfRange {
                parameter: name.to_string(),
                index: raw,
                count: p.ty.elements,
            });
        }
        let path = format!("{name}[{index}]");
        let (ty, value) = self
            .get(&path)
            .ok_or_else(|| RuntimeError::NoParameter(path.clone()))?;
        Ok((index as u32, self.referenced(state, &ty, &value, path)?))
    }

    /// The states of element `element` of sampler parameter `parameter`, evaluated.
    fn sampler_states(&self, parameter: usize, element: u32, block: &[State]) -> Vec<StateView> {
        block
            .iter()
            .enumerate()
            .map(|(k, s)| {
                let target = Target::Sampler {
                    parameter: parameter as u32,
                    element,
                    state: k as u32,
                };
                self.state(s, &target)
            })
            .collect()
    }

    /// The registers a shader gets: its preshader's outputs, then its constant table filled
    /// from the parameters, and its sampler bindings.
    pub fn shader_view(&self, shader: ShaderRef) -> ShaderView {
        let mut view = ShaderView {
            shader: shader.clone(),
            registers: Registers::default(),
            samplers: Vec::new(),
            warnings: Vec::new(),
        };
        let Some(sh) = self.effect.shader(shader.source) else {
            view.warnings
                .push("the shader object holds no bytecode".to_string());
            return view;
        };
        match sh.preshader() {
            Some(Ok(program)) => view.registers = self.run(&program, &mut view.warnings),
            Some(Err(e)) => view.warnings.push(format!("preshader: {e}")),
            None => {}
        }
        let table = match sh.constant_table() {
            Some(Ok(t)) => t,
            Some(Err(e)) => {
                view.warnings.push(format!("constant table: {e}"));
                return view;
            }
            None => return view,
        };
        for c in &table.constants {
            let name = c.name.as_str();
            let Some((i, p)) = self.effect.parameter(&name) else {
                view.warnings
                    .push(format!("constant `{name}`: no such parameter"));
                continue;
            };
            if let Some((first, count)) = sampler_registers(c) {
                let Some(blocks) = self.values[i].samplers() else {
                    view.warnings
                        .push(format!("sampler `{name}`: the parameter is not a sampler"));
                    continue;
                };
                for k in 0..count {
                    let element = if p.ty.elements > 0 { k } else { 0 };
                    let Some(block) = blocks.get(element as usize) else {
                        break;
                    };
                    view.samplers.push(SamplerBinding {
                        register: first + k,
                        parameter: if p.ty.elements > 0 {
                            format!("{name}[{k}]")
                        } else {
                            name.to_string()
                        },
                        states: self.sampler_states(
                            i,
                            if p.ty.elements > 0 { k } else { u32::MAX },
                            block,
                        ),
                    });
                }
                continue;
            }
            if p.ty.value_kind() == ValueKind::Object || p.ty.ty().is_some_and(is_sampler) {
                continue;
            }
            if let Err(e) = upload(c, &p.ty, &self.values[i], &mut view.registers) {
                view.warnings.push(format!("constant `{name}`: {e}"));
            }
        }
        view
    }

    /// The float, int and bool numbers of a parameter's plain data, for display.
    pub fn numbers_of(&self, index: usize) -> Option<Numbers> {
        let p = self.effect.parameters.get(index)?;
        let words = self.values.get(index)?.data()?;
        let types = p.ty.word_types();
        Some(numbers(&types, words, p.ty.ty()))
    }
}

/// A bank of registers as `(register, components)` pairs of the written registers.
pub fn written<T: Copy + Default>(bank: &Bank<T>) -> Vec<(usize, Vec<T>)> {
    bank.written().map(|r| (r, bank.register(r))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        assert_eq!(
            parse_path("ts3.ts[1].fv"),
            Some((
                "ts3".to_string(),
                vec![
                    Step::Member("ts".into()),
                    Step::Element(1),
                    Step::Member("fv".into())
                ]
            ))
        );
        assert_eq!(parse_path("a"), Some(("a".to_string(), vec![])));
        assert_eq!(parse_path("a."), None);
        assert_eq!(parse_path("a[x]"), None);
        assert_eq!(parse_path("[0]"), None);
    }
}
