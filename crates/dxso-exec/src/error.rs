//! Errors of lowering and running.

use crate::io::InputRegister;
use crate::plan::{Pc, Slot};
use crate::texture::Dimension;
use thiserror::Error;

/// Why a shader could not be lowered to a plan, or why a plan cannot run.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
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
    /// A plan breaks a rule every engine relies on ([`crate::plan::Plan::check`]).
    #[error("malformed plan: {place}: {rule}")]
    Malformed {
        /// Where in the plan.
        place: PlanPlace,
        /// What is wrong.
        rule: PlanRule,
    },
}

/// A place in a [`crate::plan::Plan`] that [`PlanError::Malformed`] names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanPlace {
    /// The plan's sizes (`slots`, `lanes`, `float_constants`, the row ranges).
    Layout,
    /// Operation `n` of `ops`.
    Op(usize),
    /// Entry `n` of `uniforms`.
    Uniform(usize),
    /// Entry `n` of `clear`.
    Clear(usize),
    /// Entry `n` of `inputs`.
    Input(usize),
    /// Entry `n` of `outputs`.
    Output(usize),
    /// Entry `n` of `int_defs`.
    IntDef(usize),
    /// Entry `n` of `bool_defs`.
    BoolDef(usize),
}

impl std::fmt::Display for PlanPlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            PlanPlace::Layout => write!(f, "layout"),
            PlanPlace::Op(n) => write!(f, "operation {n}"),
            PlanPlace::Uniform(n) => write!(f, "uniform {n}"),
            PlanPlace::Clear(n) => write!(f, "clear entry {n}"),
            PlanPlace::Input(n) => write!(f, "input {n}"),
            PlanPlace::Output(n) => write!(f, "output {n}"),
            PlanPlace::IntDef(n) => write!(f, "integer def {n}"),
            PlanPlace::BoolDef(n) => write!(f, "boolean def {n}"),
        }
    }
}

/// The rule a malformed plan breaks ([`PlanError::Malformed`]).
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
pub enum PlanRule {
    /// The register file is larger than the engines allocate.
    #[error("{slots} rows in the register file (at most {max})")]
    TooManySlots {
        /// `Plan::slots`.
        slots: u32,
        /// [`crate::plan::Plan::MAX_SLOTS`].
        max: u32,
    },
    /// The float constant file is larger than an option may ask for.
    #[error("{count} float constants (at most {max})")]
    TooManyFloatConstants {
        /// `Plan::float_constants`.
        count: u32,
        /// [`crate::Options::MAX_FLOAT_CONSTANTS`].
        max: u32,
    },
    /// A batch width the engines do not run.
    #[error("{lanes} lanes per batch (8, 16, 32 or 64)")]
    Lanes {
        /// `Plan::lanes`.
        lanes: usize,
    },
    /// The uniform rows, the register rows and the register file do not nest.
    #[error(
        "uniform rows 0..{uniforms}, register rows {zeroed_start}..{zeroed_end} and {slots} \
         rows in all do not nest (uniforms <= start <= end <= rows)"
    )]
    Rows {
        /// `uniforms.len()`.
        uniforms: usize,
        /// `zeroed.start`.
        zeroed_start: Slot,
        /// `zeroed.end`.
        zeroed_end: Slot,
        /// `slots`.
        slots: u32,
    },
    /// A row cleared before each batch is not a register row.
    #[error("row {slot} is cleared but is not a register row")]
    ClearOutsideZeroed {
        /// The row.
        slot: Slot,
    },
    /// A slot outside the register file.
    #[error("slot {slot} is outside the register file ({slots} rows)")]
    SlotOutOfRange {
        /// The slot.
        slot: Slot,
        /// `Plan::slots`.
        slots: u32,
    },
    /// A write to (or an input loaded into) a uniform row, which is filled once per run.
    #[error("writes uniform row {slot} (uniform rows are read-only)")]
    WritesUniform {
        /// The row.
        slot: Slot,
    },
    /// A relatively addressed block that is empty or does not fit in the register file.
    #[error("the register block of {len} registers at row {base} is empty or ends past the register file")]
    BlockOutOfRange {
        /// First row.
        base: Slot,
        /// Registers (4 rows each).
        len: u32,
    },
    /// A jump or call target outside the operations.
    #[error("jumps to operation {target}, past the last ({ops} operations)")]
    JumpOutOfRange {
        /// The target.
        target: Pc,
        /// `ops.len()`.
        ops: usize,
    },
    /// Control flow that is not properly structured.
    #[error("{0}")]
    Unstructured(&'static str),
    /// A call whose target does not start a subroutine.
    #[error("calls operation {target}, which does not follow an `End` or `Return`")]
    CallTarget {
        /// The target.
        target: Pc,
    },
    /// A float constant register outside the file.
    #[error("names float constant c{reg}, outside the file of {count}")]
    FloatRegister {
        /// The register.
        reg: u32,
        /// `Plan::float_constants`.
        count: u32,
    },
    /// A relative read whose register number lies outside the file it gathers from.
    #[error("a relative read based at register {offset}, outside the file of {count}")]
    RelativeBase {
        /// The register number the address is added to.
        offset: i32,
        /// Registers in the file.
        count: u32,
    },
    /// An integer or boolean constant register outside its file of 16.
    #[error("names register {reg}, outside the file of 16")]
    ConstantRegister {
        /// The register.
        reg: u32,
    },
    /// A sampler the plan samples but does not list in `samplers` (its texture type would go
    /// unchecked).
    #[error("samples s{sampler}, which `samplers` does not list")]
    UnlistedSampler {
        /// The sampler.
        sampler: u8,
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
    /// The plan breaks a rule of [`crate::plan::Plan::check`] (a plan built by hand).
    #[error(transparent)]
    Plan(#[from] PlanError),
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
