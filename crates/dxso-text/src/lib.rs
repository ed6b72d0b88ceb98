//! # dxso-text
//!
//! Direct3D 9 shader assembly as text, both ways:
//!
//! - [`print()`] writes the listing Microsoft's tools write (fxc `/Fc`, `D3DXDisassembleShader`):
//!   the constant-table header, the instructions, and the instruction-slot footer, byte for byte.
//! - [`parse()`] reads Microsoft's assembly syntax (what `D3DXAssembleShader` accepts, preprocessor
//!   included) into a [`dxso::Shader`] that encodes to the bytes Microsoft's assembler writes.
//! - [`assemble()`] gives those bytes directly (what `parse` then [`dxso::encode()`] give, and
//!   the same diagnostics), without building the shader when the text needs no preprocessor.
//! - [`Assembler`] parses and assembles many texts faster, keeping what it learnt of the words
//!   of one text for the next (the free functions start each text afresh).
//!
//! ```
//! let shader = dxso_text::parse("vs_1_1\ndcl_position v0\nmov oPos, v0\n")?;
//! let listing = dxso_text::print(&shader);
//! assert!(listing.contains("    mov oPos, v0\n"));
//! assert_eq!(dxso_text::parse(&listing)?, shader);
//! # Ok::<(), dxso_text::Diagnostics>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod ctab;
pub mod parse;
pub mod print;
pub mod syntax;

pub use parse::{
    assemble, assemble_with, assemble_with_warnings, parse, parse_with, parse_with_warnings,
    Assembler, Diagnostic, Diagnostics, ParseOptions, Place, Rule, SourceMap,
};
pub use print::{print, print_with, PrintOptions};

// The README's examples run as doctests, so the crate's front page stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
