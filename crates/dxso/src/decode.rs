//! Bytes to [`Shader`]: a single forward pass that never panics and allocates only in proportion
//! to the input length.

use crate::instruction::{Comment, DclToken, Extra, Instruction, Item, Shader, Sources};
use crate::opcode::{Opcode, Operands, COMMENT_OPCODE, END_TOKEN};
use crate::param::{DstParam, Relative, RelativeToken, SrcParam, SrcTokenError, PARAM_BIT};
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
    let mut reader = Reader::new(words)?;
    // A shader averages well over two DWORDs an item; this bounds the first allocation by the
    // input length without over-reserving.
    let mut items = Vec::with_capacity(words.len() / 3);
    while let Some(item) = reader.next_item()? {
        items.push(item.1);
    }
    Ok(Shader {
        version: reader.version,
        items,
    })
}

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
        if self.done {
            return Ok(None);
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
            return Ok(None);
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
            return Ok(Some((
                start,
                Item::Comment(Comment {
                    data: data.to_vec(),
                }),
            )));
        }
        if raw_op == 0xFFFF {
            return Err(err(DecodeErrorKind::MalformedEnd(token)));
        }
        let opcode =
            Opcode::from_raw(raw_op).ok_or_else(|| err(DecodeErrorKind::UnknownOpcode(raw_op)))?;
        let (inst, next) = decode_instruction(self.words, start, self.version, opcode)?;
        self.pos = next;
        Ok(Some((start, Item::Instruction(inst))))
    }
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

    fn relative(&mut self, relative: Option<Relative>) -> Result<Option<Relative>, DecodeError> {
        if relative.is_none() || self.sm1 {
            return Ok(relative);
        }
        let t = self.param("relative address")?;
        let token = RelativeToken::from_token(t).map_err(|raw| {
            self.cur -= 1;
            self.fail(DecodeErrorKind::UnknownRegisterType(raw))
        })?;
        Ok(Some(Relative::Token(token)))
    }

    fn dst(&mut self) -> Result<DstParam, DecodeError> {
        let t = self.param("destination")?;
        let mut dst = DstParam::from_token(t).map_err(|raw| {
            self.cur -= 1;
            self.fail(DecodeErrorKind::UnknownRegisterType(raw))
        })?;
        dst.relative = self.relative(dst.relative)?;
        Ok(dst)
    }

    fn src(&mut self, what: &'static str) -> Result<SrcParam, DecodeError> {
        let t = self.param(what)?;
        let mut src = SrcParam::from_token(t).map_err(|e| {
            self.cur -= 1;
            self.fail(match e {
                SrcTokenError::RegisterType(raw) => DecodeErrorKind::UnknownRegisterType(raw),
                SrcTokenError::Modifier(raw) => DecodeErrorKind::UnknownSourceModifier(raw),
            })
        })?;
        src.relative = self.relative(src.relative)?;
        Ok(src)
    }
}

/// Decodes the instruction whose token is at `words[start]`; returns it and the offset after it.
pub fn decode_instruction(
    words: &[u32],
    start: usize,
    version: Version,
    opcode: Opcode,
) -> Result<(Instruction, usize), DecodeError> {
    let token = words[start];
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
    let mut inst = Instruction::new(opcode);
    inst.control = (token >> 16) as u8;
    inst.coissue = token & (1 << 30) != 0;
    inst.reserved = token & (1 << 29) != 0;
    if sm1 {
        inst.sm1_length = length_field as u8;
    }
    let shape = info.operands(version);
    match shape {
        Operands::Dcl => {
            let t = ops.param("dcl usage")?;
            inst.extra = Extra::Dcl(DclToken::from_token(t));
            inst.dst = Some(ops.dst()?);
        }
        Operands::Def | Operands::DefI | Operands::DefB => {
            inst.dst = Some(ops.dst()?);
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
        Operands::DstSrc(_) => inst.dst = Some(ops.dst()?),
        Operands::None | Operands::Src(_) => {}
    }
    if token & (1 << 28) != 0 {
        inst.predicate = Some(ops.src("predicate")?);
    }
    let mut srcs = Sources::new();
    let wanted = if sm1 {
        shape.src_count() as usize
    } else {
        usize::MAX
    };
    while srcs.len() < wanted && (sm1 || ops.cur < ops.limit) {
        let src = ops.src("source")?;
        if srcs.push(src).is_err() {
            return Err(DecodeError {
                dword: start,
                kind: DecodeErrorKind::LengthMismatch {
                    mnemonic: info.mnemonic,
                    field: length_field,
                    reason: "no opcode takes more than 4 sources",
                },
            });
        }
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
    inst.srcs = srcs;
    Ok((inst, ops.cur))
}
