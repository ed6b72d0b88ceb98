//! Bytes to [`Effect`]: the structured part in one forward pass, the unstructured records
//! (names, type descriptions, values) at the offsets it names. Every record visited is noted
//! in a [`Layout`] so that [`crate::write`] can put it back where it was.

use crate::bytes::{pad, word_at, Cursor};
use crate::effect::{
    Annotation, Effect, EmbeddedShader, Object, ObjectData, Parameter, Pass, Payload, Resource,
    Target, Technique, FX_2_0_TAG,
};
use crate::error::{FxError, FxErrorKind};
use crate::layout::Layout;
use crate::program::Program;
use crate::states::{state_info, State};
use crate::types::{is_shader, Name, Shape, TypeDesc, ValueKind};
use crate::value::Value;
use crate::{MAX_DEPTH, MAX_NODES_PER_BYTE};
use dxso::ctab::ParameterType;
use std::collections::HashMap;

/// Offset of the unstructured data in the file.
const DATA_START: usize = 8;

struct Parser<'a> {
    /// The unstructured data.
    data: &'a [u8],
    layout: Layout,
    /// Records still allowed (see [`MAX_NODES_PER_BYTE`]).
    budget: usize,
    budget_total: usize,
    object_count: u32,
    /// The type of every object id a value refers to (decides how small objects are read).
    object_types: HashMap<u32, u32>,
}

impl<'a> Parser<'a> {
    fn node(&mut self, at: usize) -> Result<(), FxError> {
        self.charge(at, 1)
    }

    /// Spends `n` of the budget: one per record, one per word a value copies (a value or name
    /// read from many places is copied each time).
    fn charge(&mut self, at: usize, n: u64) -> Result<(), FxError> {
        self.budget = usize::try_from(n)
            .ok()
            .and_then(|n| self.budget.checked_sub(n))
            .ok_or_else(|| FxError::new(at, FxErrorKind::TooManyNodes(self.budget_total)))?;
        Ok(())
    }

    /// A cursor at unstructured offset `offset` that must have `len` bytes.
    fn at(&self, what: &'static str, offset: u32, len: u64) -> Result<Cursor<'a>, FxError> {
        let start = offset as usize;
        if offset as u64 + len > self.data.len() as u64 {
            return Err(FxError::new(
                DATA_START + start.min(self.data.len()),
                FxErrorKind::OutOfBounds {
                    what,
                    offset,
                    len,
                    size: self.data.len(),
                },
            ));
        }
        Ok(Cursor::new(&self.data[start..], DATA_START + start))
    }

    fn name(&mut self, what: &'static str, offset: u32) -> Result<Option<Name>, FxError> {
        let mut c = self.at(what, offset, 4)?;
        let size = c.u32(what)?;
        if size as u64 + 4 > (self.data.len() - offset as usize) as u64 {
            return Err(FxError::new(
                DATA_START + offset as usize,
                FxErrorKind::OutOfBounds {
                    what,
                    offset,
                    len: size as u64 + 4,
                    size: self.data.len(),
                },
            ));
        }
        self.charge(c.offset(), 1 + size as u64 / 4)?;
        let bytes = c.take(what, size as u64)?;
        self.layout.record(offset, 4 + size);
        Ok((size != 0).then(|| Name(bytes.to_vec())))
    }

    fn typedef(&mut self, offset: u32, depth: usize) -> Result<TypeDesc, FxError> {
        let slot = self.layout.reserve(offset);
        let mut c = self.at("type description", offset, 20)?;
        let start = c.remaining();
        let ty = self.typedef_inline(&mut c, depth)?;
        self.layout.finish(slot, (start - c.remaining()) as u32);
        Ok(ty)
    }

    fn typedef_inline(&mut self, c: &mut Cursor, depth: usize) -> Result<TypeDesc, FxError> {
        if depth > MAX_DEPTH {
            return Err(FxError::new(
                c.offset(),
                FxErrorKind::TooDeep {
                    what: "struct members",
                },
            ));
        }
        self.node(c.offset())?;
        let what = "type description";
        let type_raw = c.u32(what)?;
        let class_raw = c.u32(what)?;
        let name_off = c.u32(what)?;
        let semantic_off = c.u32(what)?;
        let elements = c.u32(what)?;
        let name = self.name("name", name_off)?;
        let semantic = self.name("semantic", semantic_off)?;
        let shape = match class_raw {
            // Vectors store columns first, the other numeric classes rows first.
            1 => {
                let columns = c.u32(what)?;
                let rows = c.u32(what)?;
                Shape::Numeric { rows, columns }
            }
            0 | 2 | 3 => {
                let rows = c.u32(what)?;
                let columns = c.u32(what)?;
                Shape::Numeric { rows, columns }
            }
            5 => {
                // Each member takes at least the five common words.
                let count = c.count("struct members", 20)?;
                let mut members = Vec::with_capacity(count as usize);
                for _ in 0..count {
                    members.push(self.typedef_inline(c, depth + 1)?);
                }
                Shape::Struct(members)
            }
            _ => Shape::None,
        };
        Ok(TypeDesc {
            type_raw,
            class_raw,
            name,
            semantic,
            elements,
            shape,
        })
    }

    fn value(&mut self, ty: &TypeDesc, offset: u32, depth: usize) -> Result<Value, FxError> {
        let slot = self.layout.reserve(offset);
        let mut c = self.at("value", offset, 0)?;
        let start = c.remaining();
        let mut pending = Vec::new();
        let value = self.value_inline(ty, &mut c, &mut pending)?;
        self.layout.finish(slot, (start - c.remaining()) as u32);
        if pending.is_empty() {
            return Ok(value);
        }
        if depth >= MAX_DEPTH {
            return Err(FxError::new(
                DATA_START + offset as usize,
                FxErrorKind::TooDeep {
                    what: "sampler states",
                },
            ));
        }
        // The records of sampler states come after the value that lists them.
        self.resolve(value, &mut pending.into_iter(), depth)
    }

    /// Replaces the placeholder states of `value` (read as raw records) by parsed ones.
    fn resolve(
        &mut self,
        value: Value,
        raw: &mut std::vec::IntoIter<(usize, [u32; 4])>,
        depth: usize,
    ) -> Result<Value, FxError> {
        Ok(match value {
            Value::Samplers(blocks) => {
                let mut out = Vec::with_capacity(blocks.len());
                for block in blocks {
                    let mut states = Vec::with_capacity(block.len());
                    for _ in 0..block.len() {
                        let (at, rec) = raw.next().expect("one raw record per placeholder");
                        states.push(self.state(at, rec, depth + 1)?);
                    }
                    out.push(states);
                }
                Value::Samplers(out)
            }
            Value::Members(members) => {
                let mut out = Vec::with_capacity(members.len());
                for m in members {
                    out.push(self.resolve(m, raw, depth)?);
                }
                Value::Members(out)
            }
            v => v,
        })
    }

    fn value_inline(
        &mut self,
        ty: &TypeDesc,
        c: &mut Cursor,
        pending: &mut Vec<(usize, [u32; 4])>,
    ) -> Result<Value, FxError> {
        self.node(c.offset())?;
        if let Some(words) = ty.data_words() {
            let bytes = c.take("value", words.saturating_mul(4))?;
            self.charge(c.offset(), words)?;
            return Ok(Value::Data(crate::bytes::to_words(bytes)));
        }
        let n = ty.element_count();
        match ty.value_kind() {
            ValueKind::Object => {
                c.ensure("object ids", n, 4)?;
                let mut ids = Vec::with_capacity(n as usize);
                for _ in 0..n {
                    let at = c.offset();
                    let id = c.u32("object id")?;
                    if id >= self.object_count {
                        return Err(FxError::new(
                            at,
                            FxErrorKind::ObjectId {
                                id,
                                count: self.object_count,
                            },
                        ));
                    }
                    self.object_types.insert(id, ty.type_raw);
                    ids.push(id);
                }
                Ok(Value::Objects(ids))
            }
            ValueKind::Sampler => {
                c.ensure("sampler blocks", n, 4)?;
                let mut blocks = Vec::with_capacity(n as usize);
                for _ in 0..n {
                    let count = c.count("sampler states", 16)?;
                    for _ in 0..count {
                        let at = c.offset();
                        let rec = [
                            c.u32("state")?,
                            c.u32("state")?,
                            c.u32("state")?,
                            c.u32("state")?,
                        ];
                        pending.push((at, rec));
                    }
                    blocks.push(vec![placeholder_state(); count as usize]);
                }
                Ok(Value::Samplers(blocks))
            }
            _ => {
                // A struct with a non-numeric member: element by element, member by member.
                // Each element holds an object id or a sampler count, so it takes 4 bytes.
                c.ensure("struct elements", n, 4)?;
                let members = ty.members().to_vec();
                // Members may hold no bytes: the node budget, not the element count, bounds
                // how many values this makes.
                let mut out =
                    Vec::with_capacity((n as usize).saturating_mul(members.len()).min(self.budget));
                for _ in 0..n {
                    for m in &members {
                        out.push(self.value_inline(m, c, pending)?);
                    }
                }
                Ok(Value::Members(out))
            }
        }
    }

    fn state(&mut self, at: usize, rec: [u32; 4], depth: usize) -> Result<State, FxError> {
        let [operation, index, typedef, value] = rec;
        if state_info(operation).is_none() {
            return Err(FxError::new(at, FxErrorKind::UnknownState(operation)));
        }
        let ty = self.typedef(typedef, 0)?;
        let value = self.value(&ty, value, depth)?;
        Ok(State {
            operation,
            index,
            ty,
            value,
        })
    }

    fn annotations(&mut self, c: &mut Cursor, count: u32) -> Result<Vec<Annotation>, FxError> {
        let mut out = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let typedef = c.u32("annotation")?;
            let value = c.u32("annotation")?;
            let ty = self.typedef(typedef, 0)?;
            let value = self.value(&ty, value, 0)?;
            out.push(Annotation { ty, value });
        }
        Ok(out)
    }
}

fn placeholder_state() -> State {
    State {
        operation: 0,
        index: 0,
        ty: TypeDesc {
            type_raw: 0,
            class_raw: 0,
            name: None,
            semantic: None,
            elements: 0,
            shape: Shape::None,
        },
        value: Value::Data(Vec::new()),
    }
}

pub(crate) fn parse(bytes: &[u8]) -> Result<Effect, FxError> {
    let (Some(tag), Some(len)) = (word_at(bytes, 0), word_at(bytes, 4)) else {
        return Err(FxError::new(0, FxErrorKind::TooShort(bytes.len())));
    };
    if tag != FX_2_0_TAG {
        return Err(FxError::new(0, FxErrorKind::BadTag(tag)));
    }
    let available = bytes.len() - DATA_START;
    if len as u64 > available as u64 {
        return Err(FxError::new(
            4,
            FxErrorKind::UnstructuredLength {
                declared: len,
                available,
            },
        ));
    }
    let data = &bytes[DATA_START..DATA_START + len as usize];
    let structured = DATA_START + len as usize;
    let mut c = Cursor::new(&bytes[structured..], structured);
    // A parameter record is at least 16 bytes, a technique 12.
    let parameter_count = c.count("parameters", 16)?;
    let technique_count = c.count("techniques", 12)?;
    let shader_count = c.u32("shader count")?;
    let object_count = c.u32("object count")?;
    let budget = bytes.len().saturating_mul(MAX_NODES_PER_BYTE) + 64;
    let mut p = Parser {
        data,
        layout: Layout::new(data.to_vec()),
        budget,
        budget_total: budget,
        object_count,
        object_types: HashMap::new(),
    };

    let mut parameters = Vec::with_capacity(parameter_count as usize);
    for _ in 0..parameter_count {
        let typedef = c.u32("parameter")?;
        let value = c.u32("parameter")?;
        let flags = c.u32("parameter")?;
        let annotation_count = c.count("annotations", 8)?;
        let ty = p.typedef(typedef, 0)?;
        let value = p.value(&ty, value, 0)?;
        let annotations = p.annotations(&mut c, annotation_count)?;
        parameters.push(Parameter {
            ty,
            value,
            flags,
            annotations,
        });
    }

    let mut techniques = Vec::with_capacity(technique_count as usize);
    for _ in 0..technique_count {
        let name = c.u32("technique")?;
        let annotation_count = c.count("annotations", 8)?;
        let pass_at = c.offset();
        let pass_count = c.u32("technique")?;
        let name = p.name("technique name", name)?;
        let annotations = p.annotations(&mut c, annotation_count)?;
        c.ensure_at(pass_at, "passes", pass_count, 12)?;
        let mut passes = Vec::with_capacity(pass_count as usize);
        for _ in 0..pass_count {
            let pass_name = c.u32("pass")?;
            let annotation_count = c.count("annotations", 8)?;
            let state_at = c.offset();
            let state_count = c.u32("pass")?;
            let name = p.name("pass name", pass_name)?;
            let annotations = p.annotations(&mut c, annotation_count)?;
            c.ensure_at(state_at, "states", state_count, 16)?;
            let mut states = Vec::with_capacity(state_count as usize);
            for _ in 0..state_count {
                let at = c.offset();
                let rec = [
                    c.u32("state")?,
                    c.u32("state")?,
                    c.u32("state")?,
                    c.u32("state")?,
                ];
                states.push(p.state(at, rec, 0)?);
            }
            passes.push(Pass {
                name,
                annotations,
                states,
            });
        }
        techniques.push(Technique {
            name,
            annotations,
            passes,
        });
    }

    let small_count = c.count("small objects", 8)?;
    let large_at = c.offset();
    let large_count = c.u32("large object count")?;
    let mut objects = Vec::with_capacity(small_count as usize);
    for _ in 0..small_count {
        let at = c.offset();
        let id = c.u32("small object")?;
        if id >= object_count {
            return Err(FxError::new(
                at,
                FxErrorKind::ObjectId {
                    id,
                    count: object_count,
                },
            ));
        }
        let size = c.u32("small object")?;
        let data_at = c.offset();
        let data = c.take("small object data", size as u64)?;
        p.layout
            .padding
            .push(c.take("small object padding", pad(size))?.to_vec());
        let is_shader_object = p
            .object_types
            .get(&id)
            .and_then(|&t| u16::try_from(t).ok().and_then(ParameterType::from_raw))
            .is_some_and(is_shader);
        let data = if is_shader_object && size > 0 {
            ObjectData::Shader(embedded_shader(data, data_at)?)
        } else {
            ObjectData::Bytes(data.to_vec())
        };
        objects.push(Object { id, data });
    }

    let mut effect = Effect {
        tag,
        parameters,
        techniques,
        shader_count,
        object_count,
        objects,
        resources: Vec::new(),
        layout: None,
    };

    c.ensure_at(large_at, "large objects", large_count, 24)?;
    let mut resources = Vec::with_capacity(large_count as usize);
    for object in 0..large_count as usize {
        let at = c.offset();
        let technique = c.u32("large object")?;
        let index = c.u32("large object")?;
        let element = c.u32("large object")?;
        let state = c.u32("large object")?;
        let usage = c.u32("large object")?;
        let size = c.u32("large object")?;
        let data_at = c.offset();
        let data = c.take("large object data", size as u64)?;
        p.layout
            .padding
            .push(c.take("large object padding", pad(size))?.to_vec());
        let target = if technique == u32::MAX {
            Target::Sampler {
                parameter: index,
                element,
                state,
            }
        } else {
            Target::Pass {
                technique,
                pass: index,
                state,
                element,
            }
        };
        let state_ty = check_target(&effect, &target, object, at)?.type_raw;
        let payload = payload(usage, state_ty, data, data_at)?;
        resources.push(Resource {
            target,
            usage,
            payload,
        });
    }
    if c.remaining() != 0 {
        return Err(FxError::new(
            c.offset(),
            FxErrorKind::TrailingData(c.remaining()),
        ));
    }
    effect.resources = resources;
    effect.layout = Some(p.layout);
    Ok(effect)
}

fn check_target<'e>(
    effect: &'e Effect,
    target: &Target,
    object: usize,
    at: usize,
) -> Result<&'e TypeDesc, FxError> {
    let err = |what: &'static str, index: u32, count: usize| {
        FxError::new(
            at,
            FxErrorKind::ObjectTarget {
                object,
                what,
                index,
                count,
            },
        )
    };
    match *target {
        Target::Pass {
            technique,
            pass,
            state,
            ..
        } => {
            let t = effect
                .techniques
                .get(technique as usize)
                .ok_or_else(|| err("technique", technique, effect.techniques.len()))?;
            let p = t
                .passes
                .get(pass as usize)
                .ok_or_else(|| err("pass", pass, t.passes.len()))?;
            let s = p
                .states
                .get(state as usize)
                .ok_or_else(|| err("state", state, p.states.len()))?;
            Ok(&s.ty)
        }
        Target::Sampler {
            parameter,
            element,
            state,
        } => {
            let p = effect
                .parameters
                .get(parameter as usize)
                .ok_or_else(|| err("parameter", parameter, effect.parameters.len()))?;
            let blocks = p
                .value
                .samplers()
                .ok_or_else(|| err("sampler parameter", parameter, 0))?;
            let block = if p.ty.elements == 0 || element == u32::MAX {
                blocks.first()
            } else {
                blocks.get(element as usize)
            }
            .ok_or_else(|| err("sampler element", element, blocks.len()))?;
            let s = block
                .get(state as usize)
                .ok_or_else(|| err("sampler state", state, block.len()))?;
            Ok(&s.ty)
        }
    }
}

fn payload(usage: u32, state_type: u32, data: &[u8], at: usize) -> Result<Payload, FxError> {
    let ty = u16::try_from(state_type)
        .ok()
        .and_then(ParameterType::from_raw);
    Ok(match usage {
        0 if ty.is_some_and(is_shader) => Payload::Shader(if data.is_empty() {
            None
        } else {
            Some(embedded_shader(data, at)?)
        }),
        0 if !data.is_empty()
            && matches!(
                ty,
                Some(
                    ParameterType::Bool
                        | ParameterType::Int
                        | ParameterType::Float
                        | ParameterType::String
                )
            ) =>
        {
            Payload::Expression(Program::parse(data, at)?)
        }
        1 => Payload::Parameter(data.to_vec()),
        2 => {
            let size = data.len() as u32;
            let name_len = word_at(data, 0).unwrap_or(u32::MAX);
            if name_len as u64 + 4 > size as u64 {
                return Err(FxError::new(
                    at,
                    FxErrorKind::SelectorName { size, name_len },
                ));
            }
            let end = 4 + name_len as usize;
            Payload::Selector {
                name: data[4..end].to_vec(),
                program: Program::parse(&data[end..], at + end)?,
            }
        }
        _ => Payload::Raw(data.to_vec()),
    })
}

/// Decodes embedded bytecode and checks its preshader; `at` is its offset in the file.
fn embedded_shader(data: &[u8], at: usize) -> Result<EmbeddedShader, FxError> {
    let shader = dxso::decode(data)
        .map_err(|e| FxError::new(at + e.byte_offset(), FxErrorKind::Shader(e)))?;
    let shader = EmbeddedShader { shader };
    if let Some(Err(mut e)) = shader.preshader() {
        e.offset += at;
        return Err(e);
    }
    Ok(shader)
}

impl Effect {
    /// Parses an effect binary. Errors name the byte offset and the rule; allocation is
    /// bounded by the input size.
    pub fn parse(bytes: &[u8]) -> Result<Effect, FxError> {
        parse(bytes)
    }
}

#[cfg(test)]
mod tests {
    use crate::Effect;

    #[test]
    fn crafted_effects_are_errors() {
        use crate::FxErrorKind;
        let words = |w: &[u32]| -> Vec<u8> { w.iter().flat_map(|x| x.to_le_bytes()).collect() };
        let kind = |b: &[u8]| Effect::parse(b).unwrap_err().kind;
        assert!(matches!(kind(&[1, 2, 3]), FxErrorKind::TooShort(3)));
        assert!(matches!(
            kind(&words(&[0xFEFF_0900, 0])),
            FxErrorKind::BadTag(0xFEFF_0900)
        ));
        assert!(matches!(
            kind(&words(&[0xFEFF_0901, 100])),
            FxErrorKind::UnstructuredLength { declared: 100, .. }
        ));
        // A billion parameters in a tiny file: refused before anything is allocated.
        let e = Effect::parse(&words(&[0xFEFF_0901, 4, 0, 1_000_000_000, 0, 0, 0])).unwrap_err();
        assert!(
            matches!(
                e.kind,
                FxErrorKind::Truncated {
                    what: "parameters",
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(e.offset, 12);
        // One parameter whose type description lies outside the unstructured data.
        let e = Effect::parse(&words(&[
            0xFEFF_0901,
            4,
            0,
            1,
            0,
            0,
            0,
            0x100,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
        ]))
        .unwrap_err();
        assert!(
            matches!(
                e.kind,
                FxErrorKind::OutOfBounds {
                    what: "type description",
                    offset: 0x100,
                    ..
                }
            ),
            "{e}"
        );
        // An empty effect parses and re-encodes.
        let empty = words(&[0xFEFF_0901, 4, 0, 0, 0, 0, 0, 0, 0]);
        let effect = Effect::parse(&empty).unwrap();
        assert_eq!(effect.encode(), empty);
        // Trailing bytes are an error.
        let mut trailing = empty.clone();
        trailing.extend_from_slice(&[0; 4]);
        assert!(matches!(kind(&trailing), FxErrorKind::TrailingData(4)));
    }
}
