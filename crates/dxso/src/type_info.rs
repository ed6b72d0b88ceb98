//! The type descriptions that constant tables (CTAB) and debug information (DBUG) share:
//! `D3DXSHADER_TYPEINFO` with its class and type, struct members, and the tables' strings.

use std::borrow::Cow;

/// `D3DXPARAMETER_CLASS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum ParameterClass {
    Scalar,
    Vector,
    MatrixRows,
    MatrixColumns,
    Object,
    Struct,
}

impl ParameterClass {
    /// Decodes the raw value.
    pub const fn from_raw(raw: u16) -> Option<Self> {
        Some(match raw {
            0 => ParameterClass::Scalar,
            1 => ParameterClass::Vector,
            2 => ParameterClass::MatrixRows,
            3 => ParameterClass::MatrixColumns,
            4 => ParameterClass::Object,
            5 => ParameterClass::Struct,
            _ => return None,
        })
    }
}

/// `D3DXPARAMETER_TYPE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum ParameterType {
    Void,
    Bool,
    Int,
    Float,
    String,
    Texture,
    Texture1D,
    Texture2D,
    Texture3D,
    TextureCube,
    Sampler,
    Sampler1D,
    Sampler2D,
    Sampler3D,
    SamplerCube,
    PixelShader,
    VertexShader,
}

impl ParameterType {
    /// Decodes the raw value.
    pub const fn from_raw(raw: u16) -> Option<Self> {
        use ParameterType::*;
        Some(match raw {
            0 => Void,
            1 => Bool,
            2 => Int,
            3 => Float,
            4 => String,
            5 => Texture,
            6 => Texture1D,
            7 => Texture2D,
            8 => Texture3D,
            9 => TextureCube,
            10 => Sampler,
            11 => Sampler1D,
            12 => Sampler2D,
            13 => Sampler3D,
            14 => SamplerCube,
            15 => PixelShader,
            16 => VertexShader,
            _ => return None,
        })
    }
}

/// `D3DXSHADER_TYPEINFO` with its struct members resolved.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct TypeInfo {
    /// `D3DXPARAMETER_CLASS` as encoded; see [`TypeInfo::class`].
    pub class_raw: u16,
    /// `D3DXPARAMETER_TYPE` as encoded; see [`TypeInfo::ty`].
    pub type_raw: u16,
    /// Rows.
    pub rows: u16,
    /// Columns.
    pub columns: u16,
    /// Array elements (1 for a non-array).
    pub elements: u16,
    /// Struct members (empty unless the class is struct).
    pub members: Vec<StructMember>,
}

impl TypeInfo {
    /// The class, when the raw value is one.
    pub fn class(&self) -> Option<ParameterClass> {
        ParameterClass::from_raw(self.class_raw)
    }

    /// The type, when the raw value is one.
    pub fn ty(&self) -> Option<ParameterType> {
        ParameterType::from_raw(self.type_raw)
    }
}

/// One member of a struct type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct StructMember {
    /// The member name.
    pub name: CtabString,
    /// The member type.
    pub ty: TypeInfo,
}

/// A NUL-terminated string of the table, kept as bytes (compilers write ASCII, hand-made tables
/// may not).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CtabString(pub Vec<u8>);

impl CtabString {
    /// The string as text (invalid UTF-8 replaced).
    pub fn as_str(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.0)
    }
}

impl From<&str> for CtabString {
    fn from(s: &str) -> Self {
        CtabString(s.as_bytes().to_vec())
    }
}
