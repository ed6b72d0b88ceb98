//! # dxso
//!
//! The Direct3D 9 shader bytecode model: a typed representation of every token of the
//! vs_1_1..vs_3_0 and ps_1_0..ps_3_0 token streams, a decoder that never panics, an encoder that
//! reproduces the input bit for bit, the CTAB constant table and the DBUG debug information.
//!
//! ```
//! let bytes = dxso::encode(&dxso::Shader::new(dxso::Version::ps(2, 0)));
//! let shader = dxso::decode(&bytes)?;
//! assert_eq!(shader.version.to_string(), "ps_2_0");
//! # Ok::<(), dxso::DecodeError>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod analysis;
pub mod ctab;
pub mod d3d8;
pub mod dbug;
pub mod decode;
pub mod encode;
pub mod instruction;
pub mod opcode;
pub mod param;
pub mod register;
pub mod slots;
pub mod swar;
mod table;
mod table_view;
mod type_info;
pub mod version;
mod words;

pub use analysis::{analyze, analyze_with, Declaration, ShaderInfo};
pub use ctab::{ConstantTable, CtabError};
pub use dbug::{DbugError, DebugInfo};
pub use decode::{decode, decode_words, DecodeError, DecodeErrorKind, Reader};
pub use encode::{encode, encode_words, TokenRole};
pub use instruction::{
    Comment, Comparison, DclToken, DeclUsage, Extra, Instruction, Item, Shader, Sources, TexldMode,
    TextureType,
};
pub use opcode::{Block, Opcode, OpcodeInfo, Operands, StageUse};
pub use param::{
    DstParam, Relative, RelativeToken, ResultModifiers, Shift, SrcModifier, SrcParam, Swizzle,
    WriteMask,
};
pub use register::{Register, RegisterType};
pub use table::{TableError, TableLayout};
pub use table_view::{ConstantTableView, ConstantView, DebugInfoView, TypeView, VariableView};
pub use version::{ShaderKind, Version};
pub mod validate;
pub use validate::{validate, validate_with, Diagnostic, Report, Rule, Runtime, Severity};

// The README's examples run as doctests, so the crate's front page stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
