//! The effect model: parameters, techniques, passes, states, and the two object tables.

use crate::error::FxError;
use crate::program::{Program, PRES_FOURCC};
use crate::states::State;
use crate::types::{Name, TypeDesc};
use crate::value::Value;
use dxso::{ConstantTable, CtabError, Item};
use std::borrow::Cow;

/// The fx_2_0 tag, the first word of every effect binary.
pub const FX_2_0_TAG: u32 = 0xFEFF_0901;
/// `D3DX_PARAMETER_SHARED`: the parameter is shared through an effect pool.
pub const PARAMETER_SHARED: u32 = 1;

/// A whole fx_2_0 effect. [`Effect::parse`] reads one, [`Effect::encode`] writes it back: the
/// same bytes when nothing changed, a fresh layout otherwise.
///
/// Two effects are equal when their contents are, whatever their layouts.
#[derive(Clone, Debug)]
pub struct Effect {
    /// The tag (`0xfeff0901`).
    pub tag: u32,
    /// The parameters (top-level variables).
    pub parameters: Vec<Parameter>,
    /// The techniques.
    pub techniques: Vec<Technique>,
    /// The header's third count. Wine calls it a shader count; no rule fits every compiler's
    /// output, so it is kept as stored.
    pub shader_count: u32,
    /// The header's object count: object ids run from 0 to this.
    pub object_count: u32,
    /// The small-object table: the data of object ids (strings, shader-parameter bytecode).
    pub objects: Vec<Object>,
    /// The large-object table: data that belongs to one state (inline shaders, expressions,
    /// parameter references, array selectors).
    pub resources: Vec<Resource>,
    pub(crate) layout: Option<crate::layout::Layout>,
}

/// A top-level parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameter {
    /// Its type, name and semantic.
    pub ty: TypeDesc,
    /// Its default value.
    pub value: Value,
    /// `D3DX_PARAMETER_*` flags (bit 0: shared).
    pub flags: u32,
    /// Its annotations.
    pub annotations: Vec<Annotation>,
}

impl Parameter {
    /// The name (`""` when absent).
    pub fn name(&self) -> Cow<'_, str> {
        crate::types::name_str(&self.ty.name)
    }

    /// The semantic, if any.
    pub fn semantic(&self) -> Option<Cow<'_, str>> {
        self.ty.semantic.as_ref().map(Name::as_str)
    }

    /// `true` when declared `shared`.
    pub fn is_shared(&self) -> bool {
        self.flags & PARAMETER_SHARED != 0
    }
}

/// An annotation (`<string UIName = "Color";>`): a typed value with a name.
#[derive(Clone, Debug, PartialEq)]
pub struct Annotation {
    /// Its type and name.
    pub ty: TypeDesc,
    /// Its value.
    pub value: Value,
}

impl Annotation {
    /// The name.
    pub fn name(&self) -> Cow<'_, str> {
        crate::types::name_str(&self.ty.name)
    }
}

/// A technique.
#[derive(Clone, Debug, PartialEq)]
pub struct Technique {
    /// The name.
    pub name: Option<Name>,
    /// Its annotations.
    pub annotations: Vec<Annotation>,
    /// Its passes.
    pub passes: Vec<Pass>,
}

/// A pass.
#[derive(Clone, Debug, PartialEq)]
pub struct Pass {
    /// The name.
    pub name: Option<Name>,
    /// Its annotations.
    pub annotations: Vec<Annotation>,
    /// Its state assignments in order.
    pub states: Vec<State>,
}

/// An entry of the small-object table.
#[derive(Clone, Debug, PartialEq)]
pub struct Object {
    /// The object id.
    pub id: u32,
    /// The data.
    pub data: ObjectData,
}

/// The data of a small object.
#[derive(Clone, Debug, PartialEq)]
pub enum ObjectData {
    /// Bytes as stored (a string with its NUL, or an empty shader parameter).
    Bytes(Vec<u8>),
    /// The bytecode of a shader parameter.
    Shader(EmbeddedShader),
}

/// An entry of the large-object table.
#[derive(Clone, Debug, PartialEq)]
pub struct Resource {
    /// The state it belongs to.
    pub target: Target,
    /// The usage word: 0 code (shader or expression), 1 parameter name, 2 array selector.
    pub usage: u32,
    /// The data.
    pub payload: Payload,
}

/// The state a large object belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A pass state.
    Pass {
        /// Technique index.
        technique: u32,
        /// Pass index.
        pass: u32,
        /// State index in the pass.
        state: u32,
        /// The element word (`0xffffffff` from compilers).
        element: u32,
    },
    /// A state of a sampler parameter's `sampler_state` block (technique word `0xffffffff`).
    Sampler {
        /// Parameter index.
        parameter: u32,
        /// Array element (`0xffffffff` for a parameter that is not an array).
        element: u32,
        /// State index in the block.
        state: u32,
    },
}

/// What a large object holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Payload {
    /// Usage 0 on a shader state: an inline `compile` (`None` for `NULL`).
    Shader(Option<EmbeddedShader>),
    /// Usage 0 on another state: an FX expression that computes the value.
    Expression(Program),
    /// Usage 1: the name of the parameter the state takes its value from (bytes as stored,
    /// NUL included).
    Parameter(Vec<u8>),
    /// Usage 2: an array selector: the array parameter's name and the expression that
    /// computes the element index.
    Selector {
        /// The name bytes (as many as the stored name length, NUL and padding included).
        name: Vec<u8>,
        /// The index expression.
        program: Program,
    },
    /// Any other usage or an empty object: the bytes as stored.
    Raw(Vec<u8>),
}

/// Text of a NUL-terminated name stored as bytes.
pub fn bytes_str(bytes: &[u8]) -> Cow<'_, str> {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end])
}

impl Payload {
    /// The parameter name of a reference or selector.
    pub fn parameter_name(&self) -> Option<Cow<'_, str>> {
        match self {
            Payload::Parameter(b) | Payload::Selector { name: b, .. } => Some(bytes_str(b)),
            _ => None,
        }
    }
}

/// A shader embedded in an effect, decoded through [`dxso::decode()`].
#[derive(Clone, Debug, PartialEq)]
pub struct EmbeddedShader {
    /// The shader.
    pub shader: dxso::Shader,
}

impl EmbeddedShader {
    /// The bytecode ([`dxso::encode()`]: bit-exact for a decoded shader).
    pub fn to_bytes(&self) -> Vec<u8> {
        dxso::encode(&self.shader)
    }

    /// The shader's constant table, if it has one.
    pub fn constant_table(&self) -> Option<Result<ConstantTable, CtabError>> {
        self.shader.constant_table()
    }

    /// The preshader: the program in the shader's `PRES` comment, if it has one. Error offsets
    /// count bytes from the start of the shader.
    pub fn preshader(&self) -> Option<Result<Program, FxError>> {
        let words = dxso::encode_words(&self.shader);
        let mut reader = dxso::Reader::new(&words).ok()?;
        while let Ok(Some((dword, item))) = reader.next_item() {
            if let Item::Comment(c) = item {
                if c.data.first() == Some(&PRES_FOURCC) {
                    // The program starts after the comment token and the FOURCC.
                    return Some(Program::parse_words(&c.data[1..], 4 * (dword + 2)));
                }
            }
        }
        None
    }

    /// `true` when the shader carries a `PRES` comment.
    pub fn has_preshader(&self) -> bool {
        self.shader
            .comments()
            .any(|c| c.data.first() == Some(&PRES_FOURCC))
    }
}

/// Where an embedded shader lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShaderSource {
    /// The small object with this id (a shader parameter's element).
    Object(u32),
    /// The large object at this index of [`Effect::resources`] (an inline `compile`).
    Resource(usize),
}

impl PartialEq for Effect {
    fn eq(&self, other: &Self) -> bool {
        self.tag == other.tag
            && self.parameters == other.parameters
            && self.techniques == other.techniques
            && self.shader_count == other.shader_count
            && self.object_count == other.object_count
            && self.objects == other.objects
            && self.resources == other.resources
    }
}

impl Default for Effect {
    fn default() -> Self {
        Effect::new()
    }
}

impl Effect {
    /// An empty effect (no parameters, techniques or objects) to build one up; write it with
    /// [`Effect::encode_fresh`].
    pub fn new() -> Self {
        Effect {
            tag: FX_2_0_TAG,
            parameters: Vec::new(),
            techniques: Vec::new(),
            shader_count: 0,
            object_count: 1,
            objects: Vec::new(),
            resources: Vec::new(),
            layout: None,
        }
    }

    /// The parameter called `name`.
    pub fn parameter(&self, name: &str) -> Option<(usize, &Parameter)> {
        self.parameters
            .iter()
            .enumerate()
            .find(|(_, p)| p.name() == name)
    }

    /// The technique called `name`.
    pub fn technique(&self, name: &str) -> Option<(usize, &Technique)> {
        self.techniques
            .iter()
            .enumerate()
            .find(|(_, t)| crate::types::name_str(&t.name) == name)
    }

    /// The small object with `id`.
    pub fn object(&self, id: u32) -> Option<&Object> {
        self.objects.iter().rev().find(|o| o.id == id)
    }

    /// The state a large object's target names.
    pub fn target_state(&self, target: &Target) -> Option<&State> {
        match *target {
            Target::Pass {
                technique,
                pass,
                state,
                ..
            } => self
                .techniques
                .get(technique as usize)?
                .passes
                .get(pass as usize)?
                .states
                .get(state as usize),
            Target::Sampler {
                parameter,
                element,
                state,
            } => {
                let p = self.parameters.get(parameter as usize)?;
                let blocks = p.value.samplers()?;
                let block = if p.ty.elements == 0 || element == u32::MAX {
                    blocks.first()?
                } else {
                    blocks.get(element as usize)?
                };
                block.get(state as usize)
            }
        }
    }

    /// The large object for a state (the last one when several name it, as d3dx9 keeps the
    /// last), with its index.
    pub fn resource_for(&self, target: &Target) -> Option<(usize, &Resource)> {
        self.resources
            .iter()
            .enumerate()
            .rev()
            .find(|(_, r)| same_state(&r.target, target))
    }

    /// Every embedded shader, small objects first, with where it lives.
    pub fn shaders(&self) -> impl Iterator<Item = (ShaderSource, &EmbeddedShader)> + '_ {
        let objects = self.objects.iter().filter_map(|o| match &o.data {
            ObjectData::Shader(s) => Some((ShaderSource::Object(o.id), s)),
            ObjectData::Bytes(_) => None,
        });
        let resources = self
            .resources
            .iter()
            .enumerate()
            .filter_map(|(i, r)| match &r.payload {
                Payload::Shader(Some(s)) => Some((ShaderSource::Resource(i), s)),
                _ => None,
            });
        objects.chain(resources)
    }

    /// The shader at `source`.
    pub fn shader(&self, source: ShaderSource) -> Option<&EmbeddedShader> {
        match source {
            ShaderSource::Object(id) => match &self.object(id)?.data {
                ObjectData::Shader(s) => Some(s),
                ObjectData::Bytes(_) => None,
            },
            ShaderSource::Resource(i) => match &self.resources.get(i)?.payload {
                Payload::Shader(s) => s.as_ref(),
                _ => None,
            },
        }
    }

    /// Total passes over all techniques.
    pub fn pass_count(&self) -> usize {
        self.techniques.iter().map(|t| t.passes.len()).sum()
    }
}

/// `true` when two targets name the same state (the element word of pass targets and of
/// non-array samplers does not select anything).
fn same_state(a: &Target, b: &Target) -> bool {
    match (*a, *b) {
        (
            Target::Pass {
                technique: t1,
                pass: p1,
                state: s1,
                ..
            },
            Target::Pass {
                technique: t2,
                pass: p2,
                state: s2,
                ..
            },
        ) => (t1, p1, s1) == (t2, p2, s2),
        // The element word selects nothing for a parameter that is not an array, and
        // compilers write 0 or `0xffffffff` there; a target built with either matches.
        (
            Target::Sampler {
                parameter: p1,
                element: e1,
                state: s1,
            },
            Target::Sampler {
                parameter: p2,
                element: e2,
                state: s2,
            },
        ) => (p1, s1) == (p2, s2) && (e1 == e2 || e1 == u32::MAX || e2 == u32::MAX),
        _ => false,
    }
}
