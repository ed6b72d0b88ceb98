//! [`Shader`] to bytes, the mirror image of [`decode`](crate::decode()).
//!
//! Token order lives in one place, [`Instruction::for_each_token`]: the encoder writes what it
//! yields and `dxso dump` labels what it yields.

use crate::instruction::{Extra, Instruction, Item, Shader};
use crate::opcode::END_TOKEN;
use crate::param::Relative;
use crate::version::Version;
pub use crate::words::{comment_token, le_bytes_of};

/// What a DWORD of the stream is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenRole {
    /// The version token.
    Version,
    /// An instruction token.
    Instruction,
    /// The usage token of `dcl`.
    DclUsage,
    /// A destination parameter.
    Dst,
    /// The relative-address token after a parameter.
    RelativeAddress,
    /// The predicate source.
    Predicate,
    /// Source operand `n` (from 0).
    Src(u8),
    /// Immediate value `n` of `def`/`defi`/`defb`.
    Immediate(u8),
    /// A comment token.
    Comment,
    /// A DWORD of comment payload.
    CommentData,
    /// The end token.
    End,
}

impl Instruction {
    /// The instruction token as it is encoded in `version`.
    pub fn token(&self, version: Version) -> u32 {
        let length = if version.is_sm1() {
            self.sm1_length as u32 & 0xF
        } else {
            self.operand_token_count() & 0xF
        };
        InstructionToken {
            opcode: self.opcode,
            control: self.control,
            length,
            predicated: self.predicate.is_some(),
            reserved: self.reserved,
            coissue: self.coissue,
        }
        .to_token()
    }

    /// Calls `f` with every DWORD of the encoded instruction, in stream order, and its role.
    #[inline]
    pub fn for_each_token(&self, version: Version, mut f: impl FnMut(TokenRole, u32)) {
        let relative = |f: &mut dyn FnMut(TokenRole, u32), r: Option<Relative>| {
            if let Some(Relative::Token(t)) = r {
                f(TokenRole::RelativeAddress, t.to_token());
            }
        };
        f(TokenRole::Instruction, self.token(version));
        if let Extra::Dcl(d) = self.extra {
            f(TokenRole::DclUsage, d.to_token());
        }
        if let Some(dst) = &self.dst {
            f(TokenRole::Dst, dst.to_token());
            relative(&mut f, dst.relative);
        }
        let mut immediate = 0;
        self.extra.for_each_immediate(|x| {
            f(TokenRole::Immediate(immediate), x);
            immediate += 1;
        });
        if let Some(p) = &self.predicate {
            f(TokenRole::Predicate, p.to_token());
            relative(&mut f, p.relative);
        }
        for (i, s) in self.srcs.iter().enumerate() {
            f(TokenRole::Src(i as u8), s.to_token());
            relative(&mut f, s.relative);
        }
    }
}

impl Extra {
    /// The immediate DWORDs of `def` (four floats' bits), `defi` (four integers) and `defb`
    /// (one), in stream order; nothing for the other kinds.
    #[inline(always)]
    pub fn for_each_immediate(&self, mut f: impl FnMut(u32)) {
        match *self {
            Extra::Def(v) => v.iter().for_each(|&x| f(x)),
            Extra::DefI(v) => v.iter().for_each(|&x| f(x as u32)),
            Extra::DefB(b) => f(b),
            Extra::Dcl(_) | Extra::None => {}
        }
    }
}

/// The fields of an instruction token, for writers that produce the operand tokens themselves
/// (an assembler writing DWORDs as it reads, without an [`Instruction`]); [`Instruction::token`]
/// is built on it, so the bit layout lives here alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InstructionToken {
    /// The opcode.
    pub opcode: crate::opcode::Opcode,
    /// Bits 16-23: comparison, `texld` mode.
    pub control: u8,
    /// Bits 24-27: the DWORDs after the instruction token in shader model 2 and later, the
    /// unused field of shader model 1 (masked to four bits).
    pub length: u32,
    /// Bit 28: a predicate source follows the destination.
    pub predicated: bool,
    /// Bit 29, reserved.
    pub reserved: bool,
    /// Bit 30: ps_1_x co-issue.
    pub coissue: bool,
}

impl InstructionToken {
    /// The DWORD.
    #[inline]
    pub const fn to_token(self) -> u32 {
        self.opcode.raw() as u32
            | (self.control as u32) << 16
            | (self.length & 0xF) << 24
            | (self.predicated as u32) << 28
            | (self.reserved as u32) << 29
            | (self.coissue as u32) << 30
    }

    /// An encoded instruction token with its length field (bits 24-27) set to `length`
    /// (masked to four bits), the rest kept: what an encoder that writes the token before
    /// counting the DWORDs after it puts in at the end.
    #[inline(always)]
    pub const fn with_length(token: u32, length: u32) -> u32 {
        token & !(0xF << 24) | (length & 0xF) << 24
    }
}

/// The most DWORDs one instruction encodes to: the instruction token, a `dcl` usage, a
/// destination with its relative address, four immediates, a predicate with its relative
/// address, and four sources with theirs.
const MAX_INSTRUCTION_TOKENS: usize = 1 + 1 + 2 + 4 + 2 + 8;

/// Appends every DWORD of the encoded shader to `out`, in stream order.
fn encode_into(shader: &Shader, out: &mut Vec<u32>) {
    out.push(shader.version.to_token());
    for item in &shader.items {
        match item {
            Item::Instruction(inst) => {
                // Room for the longest instruction is made first (wide stores), the DWORDs
                // go straight into it and the rest is cut: no capacity check or length update
                // per DWORD, and no narrow stores read back as wide loads (gathering them on
                // the stack and copying stalled on store forwarding).
                let len = out.len();
                out.resize(len + MAX_INSTRUCTION_TOKENS, 0);
                let room = &mut out[len..];
                let mut n = 0;
                inst.for_each_token(shader.version, |_, t| {
                    room[n] = t;
                    n += 1;
                });
                out.truncate(len + n);
            }
            Item::Comment(c) => {
                out.push(comment_token(c.data.len()));
                out.extend_from_slice(&c.data);
            }
        }
    }
    out.push(END_TOKEN);
}

/// DWORDs to reserve: comments exactly, instructions at six each (most take three to five).
fn capacity_hint(shader: &Shader) -> usize {
    2 + shader
        .items
        .iter()
        .map(|item| match item {
            Item::Instruction(_) => 6,
            Item::Comment(c) => 1 + c.data.len(),
        })
        .sum::<usize>()
}

/// Encodes a shader to DWORDs.
pub fn encode_words(shader: &Shader) -> Vec<u32> {
    let mut out = Vec::with_capacity(capacity_hint(shader));
    encode_into(shader, &mut out);
    out
}

/// Encodes a shader to little-endian bytes; `encode(&decode(b)?) == b` for every valid `b`.
pub fn encode(shader: &Shader) -> Vec<u8> {
    le_bytes_of(&encode_words(shader)).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opcode::Opcode;

    #[test]
    fn with_length_sets_only_the_length_field() {
        for length in [0u32, 1, 5, 15, 16, 0xFFFF_FFFF] {
            let fields = InstructionToken {
                opcode: Opcode::Mad,
                control: 0xA5,
                length: 9,
                predicated: true,
                reserved: true,
                coissue: true,
            };
            let want = InstructionToken { length, ..fields }.to_token();
            assert_eq!(
                InstructionToken::with_length(fields.to_token(), length),
                want
            );
        }
    }
}
