//! Why an effect could not be read: the byte offset in the file and the rule it breaks.

/// A parsing failure: where (bytes from the start of the effect file) and which rule.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("at byte {offset:#x}: {kind}")]
pub struct FxError {
    /// Byte offset in the effect file (for an embedded program, of the offending word).
    pub offset: usize,
    /// The rule broken.
    pub kind: FxErrorKind,
}

impl FxError {
    pub(crate) fn new(offset: usize, kind: FxErrorKind) -> Self {
        FxError { offset, kind }
    }
}

/// The rules [`crate::Effect::parse`] enforces.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FxErrorKind {
    /// The file is shorter than the 8-byte header.
    #[error("the file is {0} bytes, shorter than the 8-byte header (tag and length)")]
    TooShort(usize),
    /// The first word is not the fx_2_0 tag.
    #[error(
        "{0:#010x} is not the fx_2_0 tag 0xfeff0901 (HLSL text effects must be compiled first)"
    )]
    BadTag(u32),
    /// The unstructured-data length runs past the end of the file.
    #[error("the unstructured data is said to be {declared} bytes but only {available} follow the header")]
    UnstructuredLength {
        /// The length field.
        declared: u32,
        /// Bytes after the header.
        available: usize,
    },
    /// A read ran past the end of the structured part.
    #[error("truncated {what}: it needs {needed} more byte(s) but only {available} remain")]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Bytes it needs.
        needed: u64,
        /// Bytes left.
        available: usize,
    },
    /// An offset stored in the structured part points outside the unstructured data.
    #[error("{what} at unstructured offset {offset:#x} (+{len} bytes) lies outside the {size}-byte unstructured data")]
    OutOfBounds {
        /// What the offset names.
        what: &'static str,
        /// The offset (relative to byte 8).
        offset: u32,
        /// The bytes the object needs.
        len: u64,
        /// The size of the unstructured data.
        size: usize,
    },
    /// Struct members or sampler states nest deeper than [`crate::MAX_DEPTH`].
    #[error("{what} nests deeper than {max} levels", max = crate::MAX_DEPTH)]
    TooDeep {
        /// The nesting kind.
        what: &'static str,
    },
    /// The file describes more objects than its size allows (see [`crate::MAX_NODES_PER_BYTE`]).
    #[error("the effect expands to more than {0} type, value and state records for its size")]
    TooManyNodes(usize),
    /// A parameter value names an object id the object table does not have.
    #[error("object id {id} is not below the object count {count}")]
    ObjectId {
        /// The id.
        id: u32,
        /// The object count of the header.
        count: u32,
    },
    /// A state operation that is not in the D3DX state table.
    #[error("state operation {0} is not a D3DX state (0..=178)")]
    UnknownState(u32),
    /// A large object names a technique, pass, parameter or state that does not exist.
    #[error("large object {object} names {what} {index}, but there are only {count}")]
    ObjectTarget {
        /// Index of the large object.
        object: usize,
        /// What it names.
        what: &'static str,
        /// The index stored.
        index: u32,
        /// How many exist.
        count: usize,
    },
    /// A large object of usage 2 (array selector) is too short for its name.
    #[error("array selector of {size} bytes cannot hold its {name_len}-byte name")]
    SelectorName {
        /// The object's size.
        size: u32,
        /// The name length it declares.
        name_len: u32,
    },
    /// An embedded shader does not decode.
    #[error("embedded shader: {0}")]
    Shader(dxso::DecodeError),
    /// An FX expression or preshader program breaks a rule of its format.
    #[error("{0}")]
    Program(ProgramErrorKind),
    /// Bytes follow the last large object.
    #[error("{0} byte(s) of trailing data after the object tables")]
    TrailingData(usize),
}

/// The rules of FX programs: expressions (`0x46580200`) and preshaders (`0x46580201`), with
/// their `CTAB`, `CLIT`, `FXLC` and `PRSI` sections.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ProgramErrorKind {
    /// The program's size is not a whole number of words.
    #[error("program of {0} bytes is not a whole number of words")]
    Unaligned(usize),
    /// The first word is not `0x4658mmnn`.
    #[error("{0:#010x} is not an FX program version (0x4658xxxx)")]
    BadVersion(u32),
    /// A comment section runs past the end of the program.
    #[error("section of {len} words runs past the end of the program ({available} words left)")]
    SectionLength {
        /// The section length field.
        len: usize,
        /// Words left.
        available: usize,
    },
    /// A section is shorter than its fields.
    #[error("{what} section is cut short: {needed} word(s) needed, {available} present")]
    ShortSection {
        /// The section.
        what: &'static str,
        /// Words needed.
        needed: u64,
        /// Words present.
        available: usize,
    },
    /// The constant table does not parse.
    #[error("constant table: {0}")]
    Ctab(dxso::CtabError),
    /// An FXLC instruction names an opcode and input count no runtime knows.
    #[error("FXLC instruction {index}: opcode {opcode:#x} with {inputs} input(s) is not a preshader operation")]
    UnknownOpcode {
        /// Instruction index.
        index: usize,
        /// Bits 20-30 of the instruction word.
        opcode: u32,
        /// The input count word.
        inputs: u32,
    },
    /// An FXLC instruction's component count is not 1..=4.
    #[error("FXLC instruction {index}: component count {count} is not 1..=4")]
    ComponentCount {
        /// Instruction index.
        index: usize,
        /// The count field (bits 0-15).
        count: u32,
    },
    /// An operand's relative-addressing flag is neither 0 nor 1.
    #[error("FXLC instruction {index}: relative-addressing flag {flag:#x} is neither 0 nor 1")]
    RelativeFlag {
        /// Instruction index.
        index: usize,
        /// The flag word.
        flag: u32,
    },
    /// An operand names a register table that does not exist.
    #[error("FXLC instruction {index}: register table {table} is not one of 1..=7 (immediate, c, v, oc, ob, oi, r)")]
    RegisterTable {
        /// Instruction index.
        index: usize,
        /// The table word.
        table: u32,
    },
    /// An operand addresses a register past the limit the evaluator allows.
    #[error(
        "FXLC instruction {index}: register offset {offset} is past the {max}-component limit"
    )]
    RegisterOffset {
        /// Instruction index.
        index: usize,
        /// The component offset.
        offset: u32,
        /// The largest component offset allowed.
        max: u32,
    },
    /// The output operand is relatively addressed or is an input-only table.
    #[error("FXLC instruction {index}: the output {reason}")]
    BadOutput {
        /// Instruction index.
        index: usize,
        /// What is wrong.
        reason: &'static str,
    },
}
