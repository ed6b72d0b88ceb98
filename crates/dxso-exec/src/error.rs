//! Errors of lowering and running.

use crate::io::InputRegister;
use crate::texture::Dimension;
use thiserror::Error;

/// Why a shader could not be lowered to a plan.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum PlanError {
    /// The shader breaks a validation rule (the first error is quoted).
    #[error("the shader is not valid: {first} ({errors} error(s))")]
    Invalid {
        /// The first error, as `dxso::validate` reports it.
        first: String,
        /// How many errors.
        errors: usize,
    },
    /// A vertex shader was given where a pixel shader is needed, or the other way round.
    #[error("expected a {expected} shader, found {found}")]
    WrongKind {
        /// `vertex` or `pixel`.
        expected: &'static str,
        /// The shader's version.
        found: String,
    },
    /// An instruction the executor does not run (reserved opcodes).
    #[error("instruction {index} (`{mnemonic}`) at DWORD {offset}: {reason}")]
    Unsupported {
        /// Index among instructions.
        index: usize,
        /// The mnemonic.
        mnemonic: &'static str,
        /// DWORD offset of the instruction token.
        offset: usize,
        /// Why.
        reason: &'static str,
    },
    /// An option is out of range.
    #[error("option {name}: {reason}")]
    BadOption {
        /// The option.
        name: &'static str,
        /// Why.
        reason: &'static str,
    },
}

/// Why a run failed.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ExecError {
    /// An invocation executed more instructions than the budget allows.
    #[error("invocation {invocation} executed more than {budget} instructions (the budget)")]
    Budget {
        /// The lowest invocation (vertex, or pixel) found over the budget.
        invocation: usize,
        /// The budget.
        budget: u64,
    },
    /// An input register holds the wrong number of values.
    #[error("input {register}: {found} values, {expected} expected (one per invocation)")]
    InputLength {
        /// The register.
        register: InputRegister,
        /// Values needed.
        expected: usize,
        /// Values given.
        found: usize,
    },
    /// The coverage mask has the wrong length.
    #[error("coverage: {found} values, {expected} expected (one per pixel, or none)")]
    CoverageLength {
        /// Values needed.
        expected: usize,
        /// Values given.
        found: usize,
    },
    /// A bound texture's dimension differs from the sampler's.
    #[error(
        "sampler s{sampler}: the shader samples a {expected} texture, the bound texture is {found}"
    )]
    TextureType {
        /// The sampler.
        sampler: u8,
        /// `2d`, `cube` or `volume`.
        expected: &'static str,
        /// The texture's.
        found: &'static str,
    },
    /// Subroutine calls nested deeper than the plan allows (cannot happen for validated shaders).
    #[error("subroutine calls nested deeper than {limit}")]
    CallDepth {
        /// The limit.
        limit: u32,
    },
}

impl ExecError {
    pub(crate) fn texture_type(sampler: u8, expected: Dimension, found: Dimension) -> Self {
        ExecError::TextureType {
            sampler,
            expected: expected.name(),
            found: found.name(),
        }
    }
}
