//! Values of the unstructured data: numbers, object ids and sampler state blocks, and the
//! state assignments those blocks (and passes) hold.

use crate::types::{TypeDesc, ValueKind};

/// A parameter, annotation or state value, laid out as its [`TypeDesc`] says: elements one
/// after the other, struct members in order, numeric leaves as `rows × columns` words (row by
/// row), object leaves as one object id, sampler leaves as a state block.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Every leaf is numeric: all the words, packed.
    Data(Vec<u32>),
    /// An object type: one object id per element.
    Objects(Vec<u32>),
    /// A sampler type: one state block per element.
    Samplers(Vec<Vec<State>>),
    /// A struct with a non-numeric member: per element, one value per member.
    Members(Vec<Value>),
}

impl Value {
    /// The words of plain data (`None` for objects and samplers).
    pub fn data(&self) -> Option<&[u32]> {
        match self {
            Value::Data(w) => Some(w),
            _ => None,
        }
    }

    /// The object ids of an object value.
    pub fn objects(&self) -> Option<&[u32]> {
        match self {
            Value::Objects(ids) => Some(ids),
            _ => None,
        }
    }

    /// The sampler state blocks of a sampler value.
    pub fn samplers(&self) -> Option<&[Vec<State>]> {
        match self {
            Value::Samplers(s) => Some(s),
            _ => None,
        }
    }

    /// A zero value of `ty` (object id 0, empty sampler blocks).
    pub fn zero(ty: &TypeDesc) -> Value {
        if let Some(words) = ty.data_words() {
            return Value::Data(vec![0; words as usize]);
        }
        let n = ty.element_count() as usize;
        match ty.value_kind() {
            ValueKind::Object => Value::Objects(vec![0; n]),
            ValueKind::Sampler => Value::Samplers(vec![Vec::new(); n]),
            _ => Value::Members(
                (0..n)
                    .flat_map(|_| ty.members().iter().map(Value::zero))
                    .collect(),
            ),
        }
    }

    /// Calls `f` with every object id the value holds (nested sampler states included).
    pub fn for_each_object(&self, f: &mut dyn FnMut(u32)) {
        match self {
            Value::Data(_) => {}
            Value::Objects(ids) => ids.iter().copied().for_each(f),
            Value::Samplers(blocks) => {
                for s in blocks.iter().flatten() {
                    s.value.for_each_object(f);
                }
            }
            Value::Members(m) => m.iter().for_each(|v| v.for_each_object(f)),
        }
    }
}

/// One state assignment: `operation`, the `[index]` of array states (`LightEnable[3]`,
/// `Sampler[1]`, `WorldTransform[1]`), and the value with its own type.
///
/// Values computed at run time (an expression, a parameter reference, an array selector, an
/// inline shader) live in the effect's large-object table ([`crate::Effect::resources`]); the
/// value here then holds a placeholder the compiler wrote (an object id or zeros).
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// Index into [`STATE_TABLE`](crate::states::STATE_TABLE).
    pub operation: u32,
    /// The array index (light, texture stage, sampler, transform or constant register).
    pub index: u32,
    /// The value's type.
    pub ty: TypeDesc,
    /// The value.
    pub value: Value,
}
