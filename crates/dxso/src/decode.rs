//! Bytes to [`Shader`]: a single forward pass that never panics and allocates only in proportion
//! to the input length.
//!
//! One decoder serves [`decode`] and the streaming [`Reader`]. It is table-driven: the opcode
//! facts it needs per instruction (opcode, what precedes the sources, the source counts a length
//! field may give) come from one compact row per raw opcode value derived from
//! [`crate::opcode::TABLE`], and each parameter token is checked and typed by one lookup in
//! [`crate::param`]'s token classes. Relative addressing, predication and every error take a
//! branch off that path inside the same reader, so each input has exactly one decoding.

use crate::instruction::{Comment, DclToken, Extra, Instruction, Item, Shader};
use crate::opcode::{Opcode, Operands, COMMENT_OPCODE, END_TOKEN, ROWS};
use crate::param::{
    class_index, raw_register_type, DstParam, Relative, RelativeToken, SrcParam, SrcTokenError,
    CLASS_BAD, CLASS_RELATIVE, DST_CLASSES, PARAM_BIT, SRC_CLASSES,
};
use crate::version::Version;
use std::borrow::Cow;

/// A decoding failure: where (in DWORDs from the start of the stream) and which rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("at DWORD {dword} (byte {byte:#x}): {kind}", byte = .dword * 4)]
pub struct DecodeError {
    /// The DWORD index of the offending token.
    pub dword: usize,
    /// The rule broken.
    pub kind: DecodeErrorKind,
}

impl DecodeError {
    /// The byte offset of the offending token.
    pub fn byte_offset(&self) -> usize {
        self.dword * 4
    }
}

/// The rules the decoder enforces. Decoding checks the token structure only; what a version
/// allows is [`mod@crate::validate`]'s business.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeErrorKind {
    /// The byte length is not a whole number of DWORDs.
    #[error("byte length {0} is not a multiple of 4")]
    UnalignedLength(usize),
    /// No bytes at all.
    #[error("the stream is empty; a shader starts with a version token")]
    Empty,
    /// The first DWORD is not `0xFFFEmmnn` or `0xFFFFmmnn`.
    #[error("{0:#010x} is not a version token (its upper half must be 0xFFFE or 0xFFFF)")]
    BadVersion(u32),
    /// A token needs more DWORDs than the stream has.
    #[error("truncated {what}: it needs {needed} more DWORD(s) but only {available} remain")]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// DWORDs it needs after this point.
        needed: usize,
        /// DWORDs left in the stream.
        available: usize,
    },
    /// The stream ends before the end token `0x0000FFFF`.
    #[error("the stream ends without the end token 0x0000FFFF")]
    MissingEnd,
    /// DWORDs follow the end token.
    #[error("{0} DWORD(s) of trailing data after the end token")]
    TrailingData(usize),
    /// The opcode field is not a `D3DSHADER_INSTRUCTION_OPCODE_TYPE`.
    #[error("unknown opcode {0} ({0:#06x})")]
    UnknownOpcode(u16),
    /// An instruction, comment or end token has bit 31 set.
    #[error("instruction token {0:#010x} has bit 31 set (only parameter tokens do)")]
    InstructionBit31(u32),
    /// A token where a parameter was expected has bit 31 clear.
    #[error("{what} token {token:#010x} has bit 31 clear (every parameter token sets it)")]
    ParameterBit31 {
        /// Which operand.
        what: &'static str,
        /// The token read.
        token: u32,
    },
    /// `0xFFFF` in the opcode field with other bits set.
    #[error("end token {0:#010x} has bits set beside 0x0000FFFF")]
    MalformedEnd(u32),
    /// The register type field names no register file.
    #[error("register type {0} is not a D3DSPR_* value")]
    UnknownRegisterType(u8),
    /// The source modifier field holds 14 or 15.
    #[error("source modifier {0} is not a D3DSPSM_* value")]
    UnknownSourceModifier(u8),
    /// The length field does not fit the operands of the opcode.
    #[error("{mnemonic}: length field says {field} DWORD(s) but {reason}")]
    LengthMismatch {
        /// The opcode's mnemonic.
        mnemonic: &'static str,
        /// The value of bits 24-27.
        field: u32,
        /// What did not fit.
        reason: &'static str,
    },
}

/// Decodes a whole shader from little-endian bytes.
///
/// ```
/// // vs_1_1, mov oPos, v0, end
/// let words: [u32; 4] = [0xFFFE_0101, 0x0000_0001, 0xC00F_0000, 0x90E4_0000];
/// let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
/// bytes.extend_from_slice(&0x0000_FFFFu32.to_le_bytes());
/// let shader = dxso::decode(&bytes).unwrap();
/// assert_eq!(shader.version.to_string(), "vs_1_1");
/// assert_eq!(shader.instructions().count(), 1);
/// assert_eq!(dxso::encode(&shader), bytes);
/// ```
pub fn decode(bytes: &[u8]) -> Result<Shader, DecodeError> {
    let words = words_of(bytes)?;
    decode_words(&words)
}

/// Decodes a whole shader from DWORDs.
pub fn decode_words(words: &[u32]) -> Result<Shader, DecodeError> {
    let version = read_version(words)?;
    let items = if version.is_sm1() {
        read_items::<true>(words, version)?
    } else {
        read_items::<false>(words, version)?
    };
    Ok(Shader { version, items })
}

/// The items after the version token, for a version of shader model 1 (`SM1`) or later.
fn read_items<const SM1: bool>(words: &[u32], version: Version) -> Result<Vec<Item>, DecodeError> {
    let mut items = Vec::with_capacity(item_count_hint(words));
    let mut pos = 1;
    loop {
        // The common token first, in the loop itself: an instruction with an opcode below 128.
        let (token, row) = match common_instruction(words, pos) {
            Some(common) => common,
            None => match other_token(words, pos)? {
                (Next::End, _) => return Ok(items),
                (Next::Comment(data), after) => {
                    items.push(Item::Comment(Comment {
                        data: data.to_vec(),
                    }));
                    pos = after;
                    continue;
                }
                (Next::Instruction(token, row), _) => (token, row),
            },
        };
        // Build the instruction in its final slot: assembling it elsewhere and moving it in
        // costs more than the decoding itself.
        items.push(BLANK_INSTRUCTION);
        let Some(Item::Instruction(inst)) = items.last_mut() else {
            unreachable!("just pushed an instruction")
        };
        pos = decode_instruction::<SM1>(words, pos, token, row, version, inst)?;
    }
}

/// About how many items the stream holds, to size the item vector once: each leading comment
/// (the constant table, compiler strings) is one item, and the instructions after them average
/// four DWORDs in compiled shaders, so a third of the remaining DWORDs rarely falls short and
/// over-reserves by about a third. (Walking the length fields gives the exact count, but that
/// walk is one dependent load per item and cost a sixth of the decoding time.) Never more than
/// one item per DWORD, so the allocation stays bounded by the input length.
fn item_count_hint(words: &[u32]) -> usize {
    let mut pos = 1;
    let mut comments = 0;
    while let Some(&token) = words.get(pos) {
        if token & 0x8000_FFFF != COMMENT_OPCODE as u32 {
            break;
        }
        pos += 1 + ((token >> 16) as usize & 0x7FFF);
        comments += 1;
    }
    comments + words.len().saturating_sub(pos) / 3 + 1
}

/// A constant to copy into each new slot: copying it is a few wide moves, where building an
/// instruction field by field is dozens of narrow stores.
const BLANK_INSTRUCTION: Item = Item::Instruction(Instruction::new(Opcode::Nop));

/// Views little-endian bytes as DWORDs, borrowing when the bytes are aligned.
pub fn words_of(bytes: &[u8]) -> Result<Cow<'_, [u32]>, DecodeError> {
    if bytes.len() % 4 != 0 {
        return Err(DecodeError {
            dword: bytes.len() / 4,
            kind: DecodeErrorKind::UnalignedLength(bytes.len()),
        });
    }
    #[cfg(target_endian = "little")]
    if let Ok(words) = bytemuck::try_cast_slice::<u8, u32>(bytes) {
        return Ok(Cow::Borrowed(words));
    }
    Ok(Cow::Owned(
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    ))
}

/// What the decoder reads about an opcode for every instruction, from its [`crate::OpcodeInfo`]:
/// four bytes, one load.
#[derive(Clone, Copy)]
struct OpcodeRow {
    opcode: Opcode,
    /// What precedes the sources in the first shape: in shader model 2+ that is what precedes
    /// them in every shape (the length field gives the source count).
    lead: Lead,
    /// Bit `n` set when some shape takes `n` sources; zero for a value that is no opcode.
    counts: u8,
}

/// The operand tokens before the sources.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lead {
    /// None (`nop`, `if`, `call`, ...).
    Nothing,
    /// A destination.
    Dst,
    /// `dcl`: the usage token, then the destination.
    Dcl,
    /// `def`: the destination, then four float bit patterns.
    Def,
    /// `defi`: the destination, then four integers.
    DefI,
    /// `defb`: the destination, then one boolean DWORD.
    DefB,
}

impl Lead {
    const fn of(operands: Operands) -> Lead {
        match operands {
            Operands::None | Operands::Src(_) => Lead::Nothing,
            Operands::DstSrc(_) => Lead::Dst,
            Operands::Dcl => Lead::Dcl,
            Operands::Def => Lead::Def,
            Operands::DefI => Lead::DefI,
            Operands::DefB => Lead::DefB,
        }
    }
}

impl OpcodeRow {
    const NONE: OpcodeRow = OpcodeRow {
        opcode: Opcode::Nop,
        lead: Lead::Nothing,
        counts: 0,
    };

    const fn of(info: &crate::OpcodeInfo) -> OpcodeRow {
        let mut counts = 0u8;
        let mut j = 0;
        while j < info.shapes.len() {
            counts |= 1 << info.shapes[j].operands.src_count();
            j += 1;
        }
        OpcodeRow {
            opcode: info.opcode,
            lead: Lead::of(info.shapes[0].operands),
            counts,
        }
    }
}

/// Rows by raw opcode value for 0..=127, so that one mask test of the instruction token sends
/// every other value (comments, the end token, `phase`, errors) to [`Reader::advance_other`].
static OPCODE_ROWS: [OpcodeRow; 128] = {
    let mut rows = [OpcodeRow::NONE; 128];
    let mut i = 0;
    while i < ROWS.len() {
        let raw = ROWS[i].opcode as usize;
        if raw < rows.len() {
            rows[raw] = OpcodeRow::of(&ROWS[i]);
        }
        i += 1;
    }
    rows
};

/// A forward reader over a token stream that yields one [`Item`] at a time with its DWORD offset.
///
/// This is the streaming form of [`decode`] (the same decoder); `dxso dump` uses it to label
/// every DWORD.
pub struct Reader<'a> {
    words: &'a [u32],
    pos: usize,
    version: Version,
    done: bool,
}

impl<'a> Reader<'a> {
    /// Starts reading; checks the version token.
    pub fn new(words: &'a [u32]) -> Result<Self, DecodeError> {
        Ok(Reader {
            words,
            pos: 1,
            version: read_version(words)?,
            done: false,
        })
    }

    /// The shader's version.
    pub fn version(&self) -> Version {
        self.version
    }

    /// The DWORD offset of the next token.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The next item and its DWORD offset, or `None` after the end token.
    pub fn next_item(&mut self) -> Result<Option<(usize, Item)>, DecodeError> {
        if self.done {
            return Ok(None);
        }
        let start = self.pos;
        let (next, after) = next_token(self.words, start).inspect_err(|e| {
            // Data after the end token is an error once; the stream has ended all the same.
            self.done = matches!(e.kind, DecodeErrorKind::TrailingData(_));
        })?;
        match next {
            Next::End => {
                self.done = true;
                return Ok(None);
            }
            _ => self.pos = after,
        }
        match next {
            Next::End => Ok(None),
            Next::Comment(data) => Ok(Some((
                start,
                Item::Comment(Comment {
                    data: data.to_vec(),
                }),
            ))),
            Next::Instruction(token, row) => {
                let mut inst = Instruction::new(row.opcode);
                let (words, version) = (self.words, self.version);
                self.pos = if version.is_sm1() {
                    decode_instruction::<true>(words, start, token, row, version, &mut inst)?
                } else {
                    decode_instruction::<false>(words, start, token, row, version, &mut inst)?
                };
                Ok(Some((start, Item::Instruction(inst))))
            }
        }
    }
}

/// The version token.
fn read_version(words: &[u32]) -> Result<Version, DecodeError> {
    let first = *words.first().ok_or(DecodeError {
        dword: 0,
        kind: DecodeErrorKind::Empty,
    })?;
    Version::from_token(first).ok_or(DecodeError {
        dword: 0,
        kind: DecodeErrorKind::BadVersion(first),
    })
}

/// Classifies the token at `pos` and returns the position after it: after a comment its data,
/// after an instruction its token only (the caller decodes the operands).
fn next_token(words: &[u32], pos: usize) -> Result<(Next<'_>, usize), DecodeError> {
    match common_instruction(words, pos) {
        Some((token, row)) => Ok((Next::Instruction(token, row), pos + 1)),
        None => other_token(words, pos),
    }
}

/// The token at `pos` and its opcode's row when it is an instruction with an opcode below 128
/// (by far the most common token); `None` leaves the token to [`other_token`].
#[inline(always)]
fn common_instruction(words: &[u32], pos: usize) -> Option<(u32, OpcodeRow)> {
    let token = *words.get(pos)?;
    // Bit 31 and opcode values past 127 are the end token, comments, `phase` or errors.
    if token & 0x8000_FF80 != 0 {
        return None;
    }
    let row = OPCODE_ROWS[(token & 0x7F) as usize];
    (row.counts != 0).then_some((token, row))
}

/// [`next_token`] for every token but the ones [`common_instruction`] takes.
#[inline(never)]
fn other_token(words: &[u32], start: usize) -> Result<(Next<'_>, usize), DecodeError> {
    let err = |kind| DecodeError { dword: start, kind };
    let token = *words
        .get(start)
        .ok_or_else(|| err(DecodeErrorKind::MissingEnd))?;
    if token == END_TOKEN {
        let rest = words.len() - start - 1;
        if rest != 0 {
            return Err(DecodeError {
                dword: start + 1,
                kind: DecodeErrorKind::TrailingData(rest),
            });
        }
        return Ok((Next::End, start + 1));
    }
    if token & 0x8000_0000 != 0 {
        return Err(err(DecodeErrorKind::InstructionBit31(token)));
    }
    let raw_op = token as u16;
    if raw_op == COMMENT_OPCODE {
        let len = (token >> 16) as usize & 0x7FFF;
        let data = words.get(start + 1..start + 1 + len).ok_or_else(|| {
            err(DecodeErrorKind::Truncated {
                what: "comment",
                needed: len,
                available: words.len() - start - 1,
            })
        })?;
        return Ok((Next::Comment(data), start + 1 + len));
    }
    if raw_op == 0xFFFF {
        return Err(err(DecodeErrorKind::MalformedEnd(token)));
    }
    match Opcode::from_raw(raw_op) {
        Some(opcode) => Ok((
            Next::Instruction(token, OpcodeRow::of(opcode.info())),
            start + 1,
        )),
        None => Err(err(DecodeErrorKind::UnknownOpcode(raw_op))),
    }
}

/// What the next token of the stream starts.
enum Next<'a> {
    End,
    Comment(&'a [u32]),
    /// An instruction token and its opcode's row.
    Instruction(u32, OpcodeRow),
}

/// Why an instruction could not be read, with what [`Fault::error`] needs to name the place and
/// the rule. The operand readers return it rather than the error itself, so that the context of
/// the message (mnemonic, length field) is looked up only when one is made.
#[derive(Clone, Copy)]
enum Fault {
    /// The length field reaches past the stream.
    Truncated,
    /// The operand at this index (after the instruction token) lies past the last one.
    Overrun(usize, &'static str),
    /// The parameter token at this index is none of its kind (its class is [`CLASS_BAD`]).
    BadParam(usize, &'static str, ParamKind),
    /// The length field leaves more than four sources.
    TooManySources,
    /// The length field leaves a source count no shape of the opcode has.
    SourceCount,
}

/// Which class table judged a parameter token.
#[derive(Clone, Copy)]
enum ParamKind {
    /// Bit 31 and a register type (destinations, relative-address tokens).
    Register,
    /// Bit 31 only (`dcl`'s usage token).
    Usage,
    /// Bit 31, a register type and a modifier (sources).
    Source,
}

impl Fault {
    /// The error of the instruction at `words[start]`.
    #[cold]
    #[inline(never)]
    fn error(self, words: &[u32], start: usize, version: Version) -> DecodeError {
        let token = words.get(start).copied().unwrap_or_default();
        let field = (token >> 24) & 0xF;
        let length_mismatch = |reason| DecodeErrorKind::LengthMismatch {
            mnemonic: Opcode::from_raw(token as u16).map_or("", |op| op.info().mnemonic),
            field,
            reason,
        };
        let (at, kind) = match self {
            Fault::Truncated => (
                None,
                DecodeErrorKind::Truncated {
                    what: "instruction",
                    needed: field as usize,
                    available: words.len() - start - 1,
                },
            ),
            // Shader model 2+ checked the length field against the stream already, so running
            // past the operands means the field is too short for them.
            Fault::Overrun(at, what) if version.is_sm1() => (
                Some(at),
                DecodeErrorKind::Truncated {
                    what,
                    needed: 1,
                    available: 0,
                },
            ),
            Fault::Overrun(at, _) => (Some(at), length_mismatch("the operands need more")),
            Fault::BadParam(at, what, kind) => {
                let t = words.get(start + 1 + at).copied().unwrap_or_default();
                let kind = if t & PARAM_BIT == 0 {
                    DecodeErrorKind::ParameterBit31 { what, token: t }
                } else {
                    match (kind, SrcParam::from_token(t)) {
                        (ParamKind::Source, Err(SrcTokenError::Modifier(raw))) => {
                            DecodeErrorKind::UnknownSourceModifier(raw)
                        }
                        _ => DecodeErrorKind::UnknownRegisterType(raw_register_type(t)),
                    }
                };
                (Some(at), kind)
            }
            Fault::TooManySources => (None, length_mismatch("no opcode takes more than 4 sources")),
            Fault::SourceCount => (
                None,
                length_mismatch("that gives a source count the opcode does not take"),
            ),
        };
        DecodeError {
            dword: at.map_or(start, |at| (start + 1 + at).min(words.len())),
            kind,
        }
    }
}

/// The token at `ops[*at]`, which must exist.
#[inline(always)]
fn raw(ops: &[u32], at: &mut usize, what: &'static str) -> Result<u32, Fault> {
    let Some(&t) = ops.get(*at) else {
        return Err(Fault::Overrun(*at, what));
    };
    *at += 1;
    Ok(t)
}

/// The relative-address token after a relatively addressed parameter (shader model 2+).
fn relative_token(ops: &[u32], at: &mut usize) -> Result<Relative, Fault> {
    const WHAT: &str = "relative address";
    let t = raw(ops, at, WHAT)?;
    match RelativeToken::from_token(t) {
        Ok(token) if t & PARAM_BIT != 0 => Ok(Relative::Token(token)),
        _ => Err(Fault::BadParam(*at - 1, WHAT, ParamKind::Register)),
    }
}

// The operand readers write straight into the instruction: returning a parameter by value
// through a `Result` and storing it costs a store-forwarding stall per operand. The cursor `at`
// stays a local of the instruction's decoding (the uncommon cases take and return it by value),
// so that it lives in a register.

/// Reads a destination at `ops[*at]` into `out`.
#[inline(always)]
fn dst_into(
    ops: &[u32],
    at: &mut usize,
    sm1: bool,
    out: &mut Option<DstParam>,
) -> Result<(), Fault> {
    let Some(&t) = ops.get(*at) else {
        return Err(Fault::Overrun(*at, "destination"));
    };
    let class = DST_CLASSES[class_index(t)];
    if class & (CLASS_BAD | CLASS_RELATIVE) != 0 {
        *at = dst_uncommon(ops, *at, sm1, class, out)?;
        return Ok(());
    }
    *at += 1;
    *out = Some(DstParam::from_class(class, t));
    Ok(())
}

/// [`dst_into`] for a bad or relatively addressed token; returns the index after it.
#[inline(never)]
fn dst_uncommon(
    ops: &[u32],
    mut at: usize,
    sm1: bool,
    class: u8,
    out: &mut Option<DstParam>,
) -> Result<usize, Fault> {
    if class & CLASS_BAD != 0 {
        return Err(Fault::BadParam(at, "destination", ParamKind::Register));
    }
    let dst = out.insert(DstParam::from_class(class, ops[at]));
    at += 1;
    if !sm1 {
        dst.relative = Some(relative_token(ops, &mut at)?);
    }
    Ok(at)
}

/// Reads a source at `ops[*at]` into `out`.
#[inline(always)]
fn src_into(
    ops: &[u32],
    at: &mut usize,
    sm1: bool,
    what: &'static str,
    out: &mut SrcParam,
) -> Result<(), Fault> {
    let Some(&t) = ops.get(*at) else {
        return Err(Fault::Overrun(*at, what));
    };
    let class = SRC_CLASSES[class_index(t)];
    if class & (CLASS_BAD | CLASS_RELATIVE) != 0 {
        *at = src_uncommon(ops, *at, sm1, what, class, out)?;
        return Ok(());
    }
    *at += 1;
    *out = SrcParam::from_class(class, t);
    Ok(())
}

/// [`src_into`] for a bad or relatively addressed token; returns the index after it.
#[inline(never)]
fn src_uncommon(
    ops: &[u32],
    mut at: usize,
    sm1: bool,
    what: &'static str,
    class: u8,
    out: &mut SrcParam,
) -> Result<usize, Fault> {
    if class & CLASS_BAD != 0 {
        return Err(Fault::BadParam(at, what, ParamKind::Source));
    }
    *out = SrcParam::from_class(class, ops[at]);
    at += 1;
    if !sm1 {
        out.relative = Some(relative_token(ops, &mut at)?);
    }
    Ok(at)
}

/// Decodes the instruction whose token `token` (of opcode `row`) is at `words[start]` into
/// `inst`; returns the offset after the instruction. `SM1` is `version.is_sm1()`, a constant so
/// that each shader model's loop has only its own branches.
#[inline(always)]
fn decode_instruction<const SM1: bool>(
    words: &[u32],
    start: usize,
    token: u32,
    row: OpcodeRow,
    version: Version,
    inst: &mut Instruction,
) -> Result<usize, DecodeError> {
    match read_instruction::<SM1>(words, start, token, row, version, inst) {
        Ok(end) => Ok(end),
        Err(fault) => Err(fault.error(words, start, version)),
    }
}

#[inline(always)]
fn read_instruction<const SM1: bool>(
    words: &[u32],
    start: usize,
    token: u32,
    row: OpcodeRow,
    version: Version,
    inst: &mut Instruction,
) -> Result<usize, Fault> {
    let sm1 = SM1;
    let length_field = (token >> 24) & 0xF;
    // Shader model 2+ takes the source count from the length field (checked below), so any
    // shape of the opcode says what precedes the sources; shader model 1 needs the exact one.
    let (ops, lead, sm1_sources) = if sm1 {
        let shape = row.opcode.info().operands(version);
        (
            words.get(start + 1..).unwrap_or_default(),
            Lead::of(shape),
            shape.src_count() as usize,
        )
    } else {
        match words.get(start + 1..start + 1 + length_field as usize) {
            Some(ops) => (ops, row.lead, 0),
            None => return Err(Fault::Truncated),
        }
    };
    inst.opcode = row.opcode;
    inst.control = (token >> 16) as u8;
    inst.coissue = token & (1 << 30) != 0;
    inst.reserved = token & (1 << 29) != 0;
    if sm1 {
        inst.sm1_length = length_field as u8;
    }
    let mut at = 0;
    match lead {
        Lead::Dst => dst_into(ops, &mut at, sm1, &mut inst.dst)?,
        Lead::Nothing => {}
        Lead::Dcl => {
            let t = raw(ops, &mut at, "dcl usage")?;
            if t & PARAM_BIT == 0 {
                return Err(Fault::BadParam(at - 1, "dcl usage", ParamKind::Usage));
            }
            inst.extra = Extra::Dcl(DclToken::from_token(t));
            dst_into(ops, &mut at, sm1, &mut inst.dst)?;
        }
        Lead::DefB => {
            dst_into(ops, &mut at, sm1, &mut inst.dst)?;
            inst.extra = Extra::DefB(raw(ops, &mut at, "defb value")?);
        }
        Lead::Def | Lead::DefI => {
            dst_into(ops, &mut at, sm1, &mut inst.dst)?;
            let mut v = [0u32; 4];
            for slot in &mut v {
                *slot = raw(ops, &mut at, "def value")?;
            }
            inst.extra = if lead == Lead::Def {
                Extra::Def(v)
            } else {
                Extra::DefI(v.map(|x| x as i32))
            };
        }
    }
    if token & (1 << 28) != 0 {
        let predicate = inst.predicate.insert(SrcParam::default());
        src_into(ops, &mut at, sm1, "predicate", predicate)?;
    }
    let srcs = &mut inst.srcs;
    if sm1 {
        let wanted = sm1_sources.min(srcs.items.len());
        for slot in &mut srcs.items[..wanted] {
            src_into(ops, &mut at, sm1, "source", slot)?;
        }
        srcs.len = wanted as u8;
    } else {
        // The sources are the rest of the operands. A loop over the four slots rather than
        // over the tokens, so that each slot's address is a constant.
        let mut n = 0;
        for slot in &mut srcs.items {
            if at >= ops.len() {
                break;
            }
            src_into(ops, &mut at, sm1, "source", slot)?;
            n += 1;
        }
        if at < ops.len() {
            return Err(Fault::TooManySources);
        }
        srcs.len = n as u8;
        if row.counts & (1 << n) == 0 {
            return Err(Fault::SourceCount);
        }
    }
    Ok(start + 1 + at)
}
