//! [`Effect`] to bytes. The structured part is always written in order from the model; the
//! unstructured records (names, type descriptions, values) go back to the offsets the parser
//! noted when every record still has its parsed size, over a copy of the parsed bytes (so
//! padding and bytes no offset reaches survive), and are laid out afresh otherwise.

use crate::bytes::pad;
use crate::bytes::{put, to_bytes};
use crate::effect::{Annotation, Effect, ObjectData, Payload, Target};
use crate::layout::Layout;
use crate::types::{Name, Shape, TypeDesc};
use crate::value::Value;

struct Unstructured<'l> {
    out: Vec<u8>,
    /// The recorded layout being followed, or `None` for a fresh layout.
    recorded: Option<std::slice::Iter<'l, (u32, u32)>>,
    failed: bool,
}

impl<'l> Unstructured<'l> {
    fn new(layout: Option<&'l Layout>) -> Self {
        match layout {
            Some(l) => Unstructured {
                out: l.unstructured.clone(),
                recorded: Some(l.records.iter()),
                failed: false,
            },
            // Offset 0 holds a zero word, so offset 0 reads as the empty name.
            None => Unstructured {
                out: vec![0; 4],
                recorded: None,
                failed: false,
            },
        }
    }

    fn alloc(&mut self, len: usize) -> u32 {
        match &mut self.recorded {
            Some(records) => match records.next() {
                Some(&(offset, l)) if l as usize == len => offset,
                _ => {
                    self.failed = true;
                    0
                }
            },
            None => {
                while self.out.len() % 4 != 0 {
                    self.out.push(0);
                }
                let offset = self.out.len();
                self.out.resize(offset + len, 0);
                offset as u32
            }
        }
    }

    fn write(&mut self, offset: u32, bytes: &[u8]) {
        if self.failed {
            return;
        }
        let start = offset as usize;
        if self.out.len() < start + bytes.len() {
            self.out.resize(start + bytes.len(), 0);
        }
        self.out[start..start + bytes.len()].copy_from_slice(bytes);
    }

    fn name(&mut self, name: &Option<Name>) -> u32 {
        if name.is_none() && self.recorded.is_none() {
            return 0;
        }
        let bytes = name.as_ref().map_or(&[][..], |n| &n.0);
        let mut record = Vec::with_capacity(4 + bytes.len());
        put(&mut record, bytes.len() as u32);
        record.extend_from_slice(bytes);
        let offset = self.alloc(record.len());
        self.write(offset, &record);
        offset
    }

    fn typedef(&mut self, ty: &TypeDesc) -> u32 {
        let offset = self.alloc(typedef_len(ty));
        let mut words = Vec::new();
        self.typedef_words(ty, &mut words);
        self.write(offset, &to_bytes(&words));
        offset
    }

    fn typedef_words(&mut self, ty: &TypeDesc, out: &mut Vec<u32>) {
        out.push(ty.type_raw);
        out.push(ty.class_raw);
        out.push(self.name(&ty.name));
        out.push(self.name(&ty.semantic));
        out.push(ty.elements);
        match &ty.shape {
            Shape::Numeric { rows, columns } if ty.class_raw == 1 => out.extend([*columns, *rows]),
            Shape::Numeric { rows, columns } => out.extend([*rows, *columns]),
            Shape::Struct(members) => {
                out.push(members.len() as u32);
                for m in members {
                    self.typedef_words(m, out);
                }
            }
            Shape::None => {}
        }
    }

    fn value(&mut self, value: &Value) -> u32 {
        let offset = self.alloc(value_len(value));
        let mut words = Vec::new();
        self.value_words(value, &mut words);
        self.write(offset, &to_bytes(&words));
        offset
    }

    fn value_words(&mut self, value: &Value, out: &mut Vec<u32>) {
        match value {
            Value::Data(w) | Value::Objects(w) => out.extend_from_slice(w),
            Value::Samplers(blocks) => {
                // The block lists the states; their records follow it, in order.
                let mut pending = Vec::new();
                for block in blocks {
                    out.push(block.len() as u32);
                    for s in block {
                        pending.push(out.len());
                        out.extend([s.operation, s.index, 0, 0]);
                    }
                }
                for (at, s) in pending.into_iter().zip(blocks.iter().flatten()) {
                    out[at + 2] = self.typedef(&s.ty);
                    out[at + 3] = self.value(&s.value);
                }
            }
            Value::Members(members) => {
                for m in members {
                    self.value_words(m, out);
                }
            }
        }
    }

    fn annotations(&mut self, annotations: &[Annotation], s: &mut Vec<u8>) {
        for a in annotations {
            put(s, self.typedef(&a.ty));
            put(s, self.value(&a.value));
        }
    }
}

fn typedef_len(ty: &TypeDesc) -> usize {
    20 + match &ty.shape {
        Shape::Numeric { .. } => 8,
        Shape::Struct(m) => 4 + m.iter().map(typedef_len).sum::<usize>(),
        Shape::None => 0,
    }
}

fn value_len(value: &Value) -> usize {
    match value {
        Value::Data(w) | Value::Objects(w) => 4 * w.len(),
        Value::Samplers(blocks) => blocks.iter().map(|b| 4 + 16 * b.len()).sum(),
        Value::Members(m) => m.iter().map(value_len).sum(),
    }
}

pub(crate) fn encode(effect: &Effect) -> Vec<u8> {
    if let Some(bytes) = effect.layout.as_ref().and_then(|l| write(effect, Some(l))) {
        return bytes;
    }
    encode_fresh(effect)
}

pub(crate) fn encode_fresh(effect: &Effect) -> Vec<u8> {
    write(effect, None).expect("a fresh layout cannot fail")
}

fn write(effect: &Effect, layout: Option<&Layout>) -> Option<Vec<u8>> {
    let mut u = Unstructured::new(layout);
    let mut s = Vec::new();
    put(&mut s, effect.parameters.len() as u32);
    put(&mut s, effect.techniques.len() as u32);
    put(&mut s, effect.shader_count);
    put(&mut s, effect.object_count);
    for p in &effect.parameters {
        put(&mut s, u.typedef(&p.ty));
        put(&mut s, u.value(&p.value));
        put(&mut s, p.flags);
        put(&mut s, p.annotations.len() as u32);
        u.annotations(&p.annotations, &mut s);
    }
    for t in &effect.techniques {
        put(&mut s, u.name(&t.name));
        put(&mut s, t.annotations.len() as u32);
        put(&mut s, t.passes.len() as u32);
        u.annotations(&t.annotations, &mut s);
        for pass in &t.passes {
            put(&mut s, u.name(&pass.name));
            put(&mut s, pass.annotations.len() as u32);
            put(&mut s, pass.states.len() as u32);
            u.annotations(&pass.annotations, &mut s);
            for st in &pass.states {
                put(&mut s, st.operation);
                put(&mut s, st.index);
                put(&mut s, u.typedef(&st.ty));
                put(&mut s, u.value(&st.value));
            }
        }
    }
    if u.failed || u.recorded.as_mut().is_some_and(|r| r.next().is_some()) {
        return None;
    }

    let mut padding = layout.map(|l| l.padding.iter());
    let mut data_and_pad = |s: &mut Vec<u8>, data: &[u8]| {
        put(s, data.len() as u32);
        s.extend_from_slice(data);
        let want = pad(data.len() as u32) as usize;
        match padding.as_mut().and_then(|p| p.next()) {
            Some(p) if p.len() == want => s.extend_from_slice(p),
            _ => s.resize(s.len() + want, 0),
        }
    };
    put(&mut s, effect.objects.len() as u32);
    put(&mut s, effect.resources.len() as u32);
    for o in &effect.objects {
        put(&mut s, o.id);
        match &o.data {
            ObjectData::Bytes(b) => data_and_pad(&mut s, b),
            ObjectData::Shader(sh) => data_and_pad(&mut s, &sh.to_bytes()),
        }
    }
    for r in &effect.resources {
        match r.target {
            Target::Pass {
                technique,
                pass,
                state,
                element,
            } => [technique, pass, element, state],
            Target::Sampler {
                parameter,
                element,
                state,
            } => [u32::MAX, parameter, element, state],
        }
        .into_iter()
        .for_each(|w| put(&mut s, w));
        put(&mut s, r.usage);
        let bytes = match &r.payload {
            Payload::Shader(sh) => sh.as_ref().map_or(Vec::new(), |sh| sh.to_bytes()),
            Payload::Expression(p) => to_bytes(&p.to_words()),
            Payload::Parameter(b) | Payload::Raw(b) => b.clone(),
            Payload::Selector { name, program } => {
                let mut b = Vec::with_capacity(4 + name.len());
                put(&mut b, name.len() as u32);
                b.extend_from_slice(name);
                b.extend(to_bytes(&program.to_words()));
                b
            }
        };
        data_and_pad(&mut s, &bytes);
    }

    if u.recorded.is_none() {
        while u.out.len() % 4 != 0 {
            u.out.push(0);
        }
    }
    let mut out = Vec::with_capacity(8 + u.out.len() + s.len());
    put(&mut out, effect.tag);
    put(&mut out, u.out.len() as u32);
    out.extend_from_slice(&u.out);
    out.extend_from_slice(&s);
    Some(out)
}

impl Effect {
    /// Writes the effect: the parsed bytes exactly when nothing changed size, otherwise every
    /// record laid out afresh.
    pub fn encode(&self) -> Vec<u8> {
        encode(self)
    }

    /// Writes the effect with every record laid out afresh (strings, type descriptions and
    /// values packed in visiting order), whatever the parsed layout.
    pub fn encode_fresh(&self) -> Vec<u8> {
        encode_fresh(self)
    }
}
