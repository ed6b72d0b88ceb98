//! Type descriptions: D3DX class and type, rows and columns as native d3dx9 reports them,
//! array elements, struct members, names and semantics.

use dxso::ctab::{ParameterClass, ParameterType};
use std::borrow::Cow;

/// A string of the unstructured data: the bytes its length word covers (the terminating NUL
/// included, as compilers write it).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Name(pub Vec<u8>);

impl Name {
    /// The text up to the first NUL (invalid UTF-8 replaced).
    pub fn as_str(&self) -> Cow<'_, str> {
        let end = self.0.iter().position(|&b| b == 0).unwrap_or(self.0.len());
        String::from_utf8_lossy(&self.0[..end])
    }

    /// A name as compilers write it: the text and a terminating NUL.
    pub fn new(text: &str) -> Self {
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(0);
        Name(bytes)
    }
}

/// The text of an optional name (`""` when absent).
pub fn name_str(name: &Option<Name>) -> Cow<'_, str> {
    name.as_ref().map_or(Cow::Borrowed(""), Name::as_str)
}

/// What follows the five common words of a type description.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Scalar, vector and matrix classes. Vectors store columns then rows, the others rows then
    /// columns; these fields hold what `GetParameterDesc` reports either way.
    Numeric {
        /// Rows.
        rows: u32,
        /// Columns.
        columns: u32,
    },
    /// A struct: one complete type description per member, inline.
    Struct(Vec<TypeDesc>),
    /// The object class (strings, textures, samplers, shaders) and classes this crate does not
    /// know: no further words.
    None,
}

/// One type description of the unstructured data.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypeDesc {
    /// `D3DXPARAMETER_TYPE` as stored; see [`TypeDesc::ty`].
    pub type_raw: u32,
    /// `D3DXPARAMETER_CLASS` as stored; see [`TypeDesc::class`].
    pub class_raw: u32,
    /// The parameter or member name.
    pub name: Option<Name>,
    /// The semantic (`WORLDVIEWPROJECTION`).
    pub semantic: Option<Name>,
    /// Array elements (0 = not an array).
    pub elements: u32,
    /// Rows and columns, or members.
    pub shape: Shape,
}

/// What kind of value a type holds (per element).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// Words of numbers: scalar, vector, matrix (any type word).
    Numeric,
    /// One object id: strings, textures, shaders.
    Object,
    /// A state count and that many state records.
    Sampler,
    /// The members' values in order.
    Struct,
    /// Nothing (an object class with a non-object type, or an unknown class).
    Empty,
}

impl TypeDesc {
    /// The class, when the stored value is one.
    pub fn class(&self) -> Option<ParameterClass> {
        u16::try_from(self.class_raw)
            .ok()
            .and_then(ParameterClass::from_raw)
    }

    /// The type, when the stored value is one.
    pub fn ty(&self) -> Option<ParameterType> {
        u16::try_from(self.type_raw)
            .ok()
            .and_then(ParameterType::from_raw)
    }

    /// Rows (0 for objects and structs).
    pub fn rows(&self) -> u32 {
        match self.shape {
            Shape::Numeric { rows, .. } => rows,
            _ => 0,
        }
    }

    /// Columns (0 for objects and structs).
    pub fn columns(&self) -> u32 {
        match self.shape {
            Shape::Numeric { columns, .. } => columns,
            _ => 0,
        }
    }

    /// The struct members (empty unless a struct).
    pub fn members(&self) -> &[TypeDesc] {
        match &self.shape {
            Shape::Struct(m) => m,
            _ => &[],
        }
    }

    /// Elements, counting a non-array as one.
    pub fn element_count(&self) -> u32 {
        self.elements.max(1)
    }

    /// The same type without the array.
    pub fn element_type(&self) -> TypeDesc {
        TypeDesc {
            elements: 0,
            ..self.clone()
        }
    }

    /// The kind of value one element of this type holds.
    pub fn value_kind(&self) -> ValueKind {
        match self.shape {
            Shape::Numeric { .. } => ValueKind::Numeric,
            Shape::Struct(_) => ValueKind::Struct,
            Shape::None => match self.ty() {
                Some(t) if is_sampler(t) => ValueKind::Sampler,
                Some(t) if is_object(t) => ValueKind::Object,
                _ => ValueKind::Empty,
            },
        }
    }

    /// `true` when every leaf is numeric (the value is one packed run of words).
    pub fn is_plain_data(&self) -> bool {
        match &self.shape {
            Shape::Numeric { .. } => true,
            Shape::Struct(m) => m.iter().all(TypeDesc::is_plain_data),
            Shape::None => self.value_kind() == ValueKind::Empty,
        }
    }

    /// Words of one element's plain data (`None` when a leaf is not numeric).
    pub fn element_words(&self) -> Option<u64> {
        match &self.shape {
            Shape::Numeric { rows, columns } => Some(*rows as u64 * *columns as u64),
            // Saturating: hostile sizes must not wrap into small ones.
            Shape::Struct(m) => m.iter().try_fold(0u64, |acc, t| {
                Some(
                    acc.saturating_add(t.element_words()?.saturating_mul(t.element_count() as u64)),
                )
            }),
            Shape::None => (self.value_kind() == ValueKind::Empty).then_some(0),
        }
    }

    /// Words of the whole value's plain data (`None` when a leaf is not numeric).
    pub fn data_words(&self) -> Option<u64> {
        Some(
            self.element_words()?
                .saturating_mul(self.element_count() as u64),
        )
    }

    /// `D3DXPARAMETER_DESC::Bytes` for types whose leaves are numeric (objects are pointer
    /// sized in native d3dx9 and so depend on the process, samplers are 0).
    pub fn data_bytes(&self) -> Option<u64> {
        Some(self.data_words()?.saturating_mul(4))
    }

    /// The type of every word of this type's plain data, in storage order (`None` where the
    /// type word is not a D3DX type).
    pub fn word_types(&self) -> Vec<Option<ParameterType>> {
        let mut out = Vec::new();
        self.push_word_types(&mut out);
        out
    }

    fn push_word_types(&self, out: &mut Vec<Option<ParameterType>>) {
        // One element is listed by walking the type, the others are copies of it, and an
        // element without numbers ends the listing: the work is the type's size plus the words
        // pushed, whatever element counts the input claims (a struct of many empty members
        // repeated once per element would multiply the two).
        let start = out.len();
        match &self.shape {
            Shape::Numeric { rows, columns } => {
                let n = (*rows as usize).saturating_mul(*columns as usize);
                out.extend(std::iter::repeat(self.ty()).take(n));
            }
            Shape::Struct(m) => m.iter().for_each(|m| m.push_word_types(out)),
            Shape::None => {}
        }
        let one = out.len() - start;
        if one == 0 {
            return;
        }
        for _ in 1..self.element_count() {
            out.extend_from_within(start..start + one);
        }
    }

    /// D3DX's class name in lower case (`matrix_rows`).
    pub fn class_name(&self) -> Cow<'static, str> {
        match self.class() {
            Some(c) => Cow::Borrowed(class_name(c)),
            None => Cow::Owned(format!("class_{}", self.class_raw)),
        }
    }

    /// D3DX's type name in lower case (`sampler2d`).
    pub fn type_name(&self) -> Cow<'static, str> {
        match self.ty() {
            Some(t) => Cow::Borrowed(type_name(t)),
            None => Cow::Owned(format!("type_{}", self.type_raw)),
        }
    }
}

/// D3DX's class name in lower case.
pub fn class_name(c: ParameterClass) -> &'static str {
    match c {
        ParameterClass::Scalar => "scalar",
        ParameterClass::Vector => "vector",
        ParameterClass::MatrixRows => "matrix_rows",
        ParameterClass::MatrixColumns => "matrix_columns",
        ParameterClass::Object => "object",
        ParameterClass::Struct => "struct",
    }
}

/// D3DX's type name in lower case.
pub fn type_name(t: ParameterType) -> &'static str {
    use ParameterType::*;
    match t {
        Void => "void",
        Bool => "bool",
        Int => "int",
        Float => "float",
        String => "string",
        Texture => "texture",
        Texture1D => "texture1d",
        Texture2D => "texture2d",
        Texture3D => "texture3d",
        TextureCube => "texturecube",
        Sampler => "sampler",
        Sampler1D => "sampler1d",
        Sampler2D => "sampler2d",
        Sampler3D => "sampler3d",
        SamplerCube => "samplercube",
        PixelShader => "pixelshader",
        VertexShader => "vertexshader",
    }
}

/// `true` for the five sampler types.
pub fn is_sampler(t: ParameterType) -> bool {
    use ParameterType::*;
    matches!(t, Sampler | Sampler1D | Sampler2D | Sampler3D | SamplerCube)
}

/// `true` for the types whose value is an object id (strings, textures, shaders).
pub fn is_object(t: ParameterType) -> bool {
    use ParameterType::*;
    matches!(
        t,
        String
            | Texture
            | Texture1D
            | Texture2D
            | Texture3D
            | TextureCube
            | PixelShader
            | VertexShader
    )
}

/// `true` for the two shader types.
pub fn is_shader(t: ParameterType) -> bool {
    matches!(t, ParameterType::PixelShader | ParameterType::VertexShader)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numeric(rows: u32, columns: u32, elements: u32) -> TypeDesc {
        TypeDesc {
            type_raw: ParameterType::Float as u32,
            class_raw: ParameterClass::Vector as u32,
            name: None,
            semantic: None,
            elements,
            shape: Shape::Numeric { rows, columns },
        }
    }

    fn structure(members: Vec<TypeDesc>, elements: u32) -> TypeDesc {
        TypeDesc {
            type_raw: ParameterType::Void as u32,
            class_raw: ParameterClass::Struct as u32,
            name: None,
            semantic: None,
            elements,
            shape: Shape::Struct(members),
        }
    }

    #[test]
    fn empty_elements_cost_nothing_whatever_their_count() {
        // Structs of structs of u32::MAX elements, each element holding no words: the value is
        // empty and listing its word types must not visit 2^96 elements.
        let inner = structure(vec![numeric(0, 4, u32::MAX)], u32::MAX);
        let outer = structure(vec![inner.clone(), inner], u32::MAX);
        assert_eq!(outer.data_words(), Some(0));
        let started = std::time::Instant::now();
        assert!(outer.word_types().is_empty());
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
    }

    #[test]
    fn empty_members_are_not_walked_once_per_element() {
        // One float and 20,000 empty members, 20,000 elements: 20,000 words, and walking the
        // members for every element would take 4 * 10^8 steps.
        let mut members = vec![numeric(1, 1, 0)];
        members.extend((0..20_000).map(|_| numeric(0, 4, 0)));
        let t = structure(members, 20_000);
        let started = std::time::Instant::now();
        assert_eq!(t.word_types().len(), 20_000);
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
    }

    #[test]
    fn word_types_follow_storage_order() {
        let mut int = numeric(1, 2, 0);
        int.type_raw = ParameterType::Int as u32;
        let t = structure(vec![numeric(1, 1, 2), structure(vec![], 7), int], 2);
        let f = Some(ParameterType::Float);
        let i = Some(ParameterType::Int);
        assert_eq!(t.word_types(), vec![f, f, i, i, f, f, i, i]);
    }
}
