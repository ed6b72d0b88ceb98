//! Bytes to [`Shader`]: a single forward pass that never panics and allocates only in proportion
//! to the input length.

use crate::instruction::{Comment, DclToken, Extra, Instruction, Item, Shader};
use crate::opcode::{Opcode, Operands, COMMENT_OPCODE, END_TOKEN};
use crate::param::{DstParam, Relative, RelativeToken, SrcParam, SrcTokenError, PARAM_BIT};
use crate::version::Version;
use std::borrow::Cow;

mod fast;

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
    let mut reader = Reader::new(words)?;
    let mut items = Vec::with_capacity(item_count_hint(words));
    loop {
        if !reader.version.is_sm1() {
            reader.pos = fast::run(reader.words, reader.pos, &mut items);
        }
        match reader.advance()? {
            Next::End => break,
            Next::Comment(data) => items.push(Item::Comment(Comment {
                data: data.to_vec(),
            })),
            Next::Instruction(opcode) => {
                // Build the instruction in its final slot: assembling it elsewhere and moving it
                // in costs more than the decoding itself.
                items.push(BLANK_INSTRUCTION);
                let Some(Item::Instruction(inst)) = items.last_mut() else {
                    unreachable!("just pushed an instruction")
                };
                inst.opcode = opcode;
                reader.pos =
                    decode_instruction_into(reader.words, reader.pos, reader.version, inst)?;
            }
        }
    }
    Ok(Shader {
        version: reader.version,
        items,
    })
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

/// A forward reader over a token stream that yields one [`Item`] at a time with its DWORD offset.
///
/// This is the streaming form of [`decode`]; `dxso dump` uses it to label every DWORD.
pub struct Reader<'a> {
    words: &'a [u32],
    pos: usize,
    version: Version,
    done: bool,
}

impl<'a> Reader<'a> {
    /// Starts reading; checks the version token.
    pub fn new(words: &'a [u32]) -> Result<Self, DecodeError> {
        let first = *words.first().ok_or(DecodeError {
            dword: 0,
            kind: DecodeErrorKind::Empty,
        })?;
        let version = Version::from_token(first).ok_or(DecodeError {
            dword: 0,
            kind: DecodeErrorKind::BadVersion(first),
        })?;
        Ok(Reader {
            words,
            pos: 1,
            version,
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
        let start = self.pos;
        match self.advance()? {
            Next::End => Ok(None),
            Next::Comment(data) => Ok(Some((
                start,
                Item::Comment(Comment {
                    data: data.to_vec(),
                }),
            ))),
            Next::Instruction(opcode) => {
                let mut inst = Instruction::new(opcode);
                self.pos = decode_instruction_into(self.words, start, self.version, &mut inst)?;
                Ok(Some((start, Item::Instruction(inst))))
            }
        }
    }

    /// Classifies the token at the current position. Comments and the end token are consumed;
    /// for an instruction the position stays on its token and the caller decodes it.
    fn advance(&mut self) -> Result<Next<'a>, DecodeError> {
        if self.done {
            return Ok(Next::End);
        }
        let start = self.pos;
        let err = |kind| DecodeError { dword: start, kind };
        let token = *self
            .words
            .get(start)
            .ok_or_else(|| err(DecodeErrorKind::MissingEnd))?;
        if token == END_TOKEN {
            self.done = true;
            let rest = self.words.len() - start - 1;
            if rest != 0 {
                return Err(DecodeError {
                    dword: start + 1,
                    kind: DecodeErrorKind::TrailingData(rest),
                });
            }
            return Ok(Next::End);
        }
        if token & 0x8000_0000 != 0 {
            return Err(err(DecodeErrorKind::InstructionBit31(token)));
        }
        let raw_op = token as u16;
        if raw_op == COMMENT_OPCODE {
            let len = (token >> 16) as usize & 0x7FFF;
            let data = self.words.get(start + 1..start + 1 + len).ok_or_else(|| {
                err(DecodeErrorKind::Truncated {
                    what: "comment",
                    needed: len,
                    available: self.words.len() - start - 1,
                })
            })?;
            self.pos = start + 1 + len;
            return Ok(Next::Comment(data));
        }
        if raw_op == 0xFFFF {
            return Err(err(DecodeErrorKind::MalformedEnd(token)));
        }
        Opcode::from_raw(raw_op)
            .map(Next::Instruction)
            .ok_or_else(|| err(DecodeErrorKind::UnknownOpcode(raw_op)))
    }
}

/// What the next token of the stream starts.
enum Next<'a> {
    End,
    Comment(&'a [u32]),
    Instruction(Opcode),
}

/// Operand reading for one instruction: a cursor with the limit the length field sets.
struct OperandCursor<'a> {
    words: &'a [u32],
    cur: usize,
    /// The end of the instruction (shader model 2+) or of the stream (shader model 1).
    limit: usize,
    sm1: bool,
    length_field: u32,
    mnemonic: &'static str,
}

impl OperandCursor<'_> {
    fn fail(&self, kind: DecodeErrorKind) -> DecodeError {
        DecodeError {
            dword: self.cur.min(self.words.len()),
            kind,
        }
    }

    fn raw(&mut self, what: &'static str) -> Result<u32, DecodeError> {
        if self.cur >= self.limit {
            // Shader model 2+ checked the length field against the stream already, so running
            // past the limit means the field is too short for the operands.
            return Err(if self.sm1 {
                self.fail(DecodeErrorKind::Truncated {
                    what,
                    needed: 1,
                    available: 0,
                })
            } else {
                self.fail(DecodeErrorKind::LengthMismatch {
                    mnemonic: self.mnemonic,
                    field: self.length_field,
                    reason: "the operands need more",
                })
            });
        }
        let t = self.words[self.cur];
        self.cur += 1;
        Ok(t)
    }

    fn param(&mut self, what: &'static str) -> Result<u32, DecodeError> {
        let t = self.raw(what)?;
        if t & PARAM_BIT == 0 {
            self.cur -= 1;
            return Err(self.fail(DecodeErrorKind::ParameterBit31 { what, token: t }));
        }
        Ok(t)
    }

    /// Reads the relative-address token that follows a relatively addressed parameter.
    fn relative_token(&mut self) -> Result<Relative, DecodeError> {
        let t = self.param("relative address")?;
        match RelativeToken::from_token(t) {
            Ok(token) => Ok(Relative::Token(token)),
            Err(raw) => Err(self.bad_register_type(raw)),
        }
    }

    #[cold]
    #[inline(never)]
    fn bad_register_type(&mut self, raw: u8) -> DecodeError {
        self.cur -= 1;
        self.fail(DecodeErrorKind::UnknownRegisterType(raw))
    }

    #[cold]
    #[inline(never)]
    fn bad_source(&mut self, e: SrcTokenError) -> DecodeError {
        self.cur -= 1;
        self.fail(match e {
            SrcTokenError::RegisterType(raw) => DecodeErrorKind::UnknownRegisterType(raw),
            SrcTokenError::Modifier(raw) => DecodeErrorKind::UnknownSourceModifier(raw),
        })
    }

    // The operand readers write straight into the instruction: returning a parameter by value
    // through a `Result` and storing it costs a store-forwarding stall per operand.
    #[inline(always)]
    fn dst_into(&mut self, out: &mut Option<DstParam>) -> Result<(), DecodeError> {
        let t = self.param("destination")?;
        let dst = out.insert(match DstParam::from_token(t) {
            Ok(d) => d,
            Err(raw) => return Err(self.bad_register_type(raw)),
        });
        if dst.relative.is_some() && !self.sm1 {
            dst.relative = Some(self.relative_token()?);
        }
        Ok(())
    }

    #[inline(always)]
    fn src_into(&mut self, what: &'static str, out: &mut SrcParam) -> Result<(), DecodeError> {
        let t = self.param(what)?;
        *out = match SrcParam::from_token(t) {
            Ok(s) => s,
            Err(e) => return Err(self.bad_source(e)),
        };
        if out.relative.is_some() && !self.sm1 {
            out.relative = Some(self.relative_token()?);
        }
        Ok(())
    }
}

/// Decodes the operands of the instruction whose token is at `words[start]` into `inst` (whose
/// opcode the caller set from that token); returns the offset after the instruction.
pub fn decode_instruction_into(
    words: &[u32],
    start: usize,
    version: Version,
    inst: &mut Instruction,
) -> Result<usize, DecodeError> {
    let Some(&token) = words.get(start) else {
        return Err(DecodeError {
            dword: start,
            kind: DecodeErrorKind::MissingEnd,
        });
    };
    let opcode = inst.opcode;
    let info = opcode.info();
    let sm1 = version.is_sm1();
    let length_field = (token >> 24) & 0xF;
    let limit = if sm1 {
        words.len()
    } else {
        let end = start + 1 + length_field as usize;
        if end > words.len() {
            return Err(DecodeError {
                dword: start,
                kind: DecodeErrorKind::Truncated {
                    what: "instruction",
                    needed: length_field as usize,
                    available: words.len() - start - 1,
                },
            });
        }
        end
    };
    let mut ops = OperandCursor {
        words,
        cur: start + 1,
        limit,
        sm1,
        length_field,
        mnemonic: info.mnemonic,
    };
    inst.control = (token >> 16) as u8;
    inst.coissue = token & (1 << 30) != 0;
    inst.reserved = token & (1 << 29) != 0;
    if sm1 {
        inst.sm1_length = length_field as u8;
    }
    // Shader model 2+ takes the source count from the length field (checked below), so any
    // shape of the opcode says what precedes the sources; shader model 1 needs the exact one.
    let shape = if sm1 {
        info.operands(version)
    } else {
        info.shapes[0].operands
    };
    match shape {
        Operands::Dcl => {
            let t = ops.param("dcl usage")?;
            inst.extra = Extra::Dcl(DclToken::from_token(t));
            ops.dst_into(&mut inst.dst)?;
        }
        Operands::Def | Operands::DefI | Operands::DefB => {
            ops.dst_into(&mut inst.dst)?;
            if shape == Operands::DefB {
                inst.extra = Extra::DefB(ops.raw("defb value")?);
            } else {
                let mut v = [0u32; 4];
                for slot in &mut v {
                    *slot = ops.raw("def value")?;
                }
                inst.extra = if shape == Operands::Def {
                    Extra::Def(v)
                } else {
                    Extra::DefI(v.map(|x| x as i32))
                };
            }
        }
        Operands::DstSrc(_) => ops.dst_into(&mut inst.dst)?,
        Operands::None | Operands::Src(_) => {}
    }
    if token & (1 << 28) != 0 {
        ops.src_into("predicate", inst.predicate.insert(SrcParam::default()))?;
    }
    let srcs = &mut inst.srcs;
    let wanted = if sm1 {
        shape.src_count() as usize
    } else {
        usize::MAX
    };
    while srcs.len() < wanted && (sm1 || ops.cur < ops.limit) {
        let Some(slot) = srcs.spare_slot() else {
            return Err(DecodeError {
                dword: start,
                kind: DecodeErrorKind::LengthMismatch {
                    mnemonic: info.mnemonic,
                    field: length_field,
                    reason: "no opcode takes more than 4 sources",
                },
            });
        };
        ops.src_into("source", slot)?;
        srcs.commit_slot();
    }
    if !sm1 && !info.accepts_src_count(srcs.len()) {
        return Err(DecodeError {
            dword: start,
            kind: DecodeErrorKind::LengthMismatch {
                mnemonic: info.mnemonic,
                field: length_field,
                reason: "that gives a source count the opcode does not take",
            },
        });
    }
    Ok(ops.cur)
}
