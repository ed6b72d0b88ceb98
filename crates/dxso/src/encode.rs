//! [`Shader`] to bytes, the mirror image of [`decode`](crate::decode()).
//!
//! Token order lives in one place, [`Instruction::for_each_token`]: the encoder writes what it
//! yields and `dxso dump` labels what it yields.

use crate::instruction::{Extra, Instruction, Item, Shader};
use crate::opcode::END_TOKEN;
use crate::param::Relative;
use crate::version::Version;

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
        self.opcode.raw() as u32
            | (self.control as u32) << 16
            | length << 24
            | (self.predicate.is_some() as u32) << 28
            | (self.reserved as u32) << 29
            | (self.coissue as u32) << 30
    }

    /// Calls `f` with every DWORD of the encoded instruction, in stream order, and its role.
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
        match self.extra {
            Extra::Def(v) => v
                .iter()
                .enumerate()
                .for_each(|(i, x)| f(TokenRole::Immediate(i as u8), *x)),
            Extra::DefI(v) => v
                .iter()
                .enumerate()
                .for_each(|(i, x)| f(TokenRole::Immediate(i as u8), *x as u32)),
            Extra::DefB(b) => f(TokenRole::Immediate(0), b),
            Extra::Dcl(_) | Extra::None => {}
        }
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

/// Where encoded DWORDs go: a DWORD vector or little-endian bytes.
trait Sink {
    fn word(&mut self, w: u32);
    fn words(&mut self, ws: &[u32]);
}

impl Sink for Vec<u32> {
    fn word(&mut self, w: u32) {
        self.push(w);
    }
    fn words(&mut self, ws: &[u32]) {
        self.extend_from_slice(ws);
    }
}

impl Sink for Vec<u8> {
    fn word(&mut self, w: u32) {
        self.extend_from_slice(&w.to_le_bytes());
    }
    fn words(&mut self, ws: &[u32]) {
        for w in ws {
            self.extend_from_slice(&w.to_le_bytes());
        }
    }
}

/// Writes every DWORD of the encoded shader to `out`, in stream order.
fn encode_into(shader: &Shader, out: &mut impl Sink) {
    out.word(shader.version.to_token());
    for item in &shader.items {
        match item {
            Item::Instruction(inst) => inst.for_each_token(shader.version, |_, t| out.word(t)),
            Item::Comment(c) => {
                out.word(comment_token(c.data.len()));
                out.words(&c.data);
            }
        }
    }
    out.word(END_TOKEN);
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
    let mut out = Vec::with_capacity(capacity_hint(shader) * 4);
    encode_into(shader, &mut out);
    out
}

/// The comment token for a payload of `len` DWORDs (15 bits; longer payloads cannot be encoded
/// and are cut to the field by the mask).
pub const fn comment_token(len: usize) -> u32 {
    0xFFFE | ((len as u32 & 0x7FFF) << 16)
}
