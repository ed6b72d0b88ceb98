//! The shader model 2+ fast path: instructions whose length field, operand shape and parameter
//! tokens are the common case decode here with one bounds check and one combined validity test
//! per instruction. Anything else (comments, the end token, relative addressing, predication,
//! reserved values, malformed tokens) stops the run and is left to the general decoder, which
//! gives the same result for what the fast path accepts (`decode` tests compare the two on the
//! corpus and on random streams) and the exact error for what it does not.

use crate::instruction::{DclToken, Extra, Instruction, Item, Sources};
use crate::opcode::{Opcode, Operands, ROWS};
use crate::param::{
    DstParam, ResultModifiers, Shift, SrcModifier, SrcParam, Swizzle, WriteMask, PARAM_BIT,
};
use crate::register::{Register, RegisterType};

/// What the operand tokens of an opcode are, in shader model 2 and later.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// Not an opcode the fast path decodes (unknown values, and the gap 49..64).
    Unknown,
    /// Sources only (possibly none): every operand token is a source.
    Sources,
    /// A destination, then sources.
    DstSources,
    /// `dcl`: usage token, destination.
    Dcl,
    /// `def`: destination and four raw DWORDs.
    Def,
    /// `defi`: the same, as integers.
    DefI,
    /// `defb`: destination and one raw DWORD.
    DefB,
}

#[derive(Clone, Copy)]
struct Row {
    opcode: Opcode,
    form: Form,
    /// Bit `n` set when some shape of the opcode takes `n` sources.
    src_counts: u8,
}

/// Opcodes 0..=96 (all but `phase`, which the general decoder handles), indexed by raw value.
const TABLE: [Row; 97] = {
    let mut table = [Row {
        opcode: Opcode::Nop,
        form: Form::Unknown,
        src_counts: 0,
    }; 97];
    let mut i = 0;
    while i < ROWS.len() {
        let info = &ROWS[i];
        let raw = info.opcode as usize;
        if raw < table.len() {
            let mut src_counts = 0u8;
            let mut j = 0;
            while j < info.shapes.len() {
                src_counts |= 1 << info.shapes[j].operands.src_count();
                j += 1;
            }
            // As in the general decoder, shader model 2+ reads the first shape for what precedes
            // the sources and takes the source count from the length field.
            let form = match info.shapes[0].operands {
                Operands::None | Operands::Src(_) => Form::Sources,
                Operands::DstSrc(_) => Form::DstSources,
                Operands::Dcl => Form::Dcl,
                Operands::Def => Form::Def,
                Operands::DefI => Form::DefI,
                Operands::DefB => Form::DefB,
            };
            table[raw] = Row {
                opcode: info.opcode,
                form,
                src_counts,
            };
        }
        i += 1;
    }
    table
};

/// Register types by raw value; the values past [`RegisterType::MAX_RAW`] are never read (the
/// validity test rejects them first) and only fill the table to a power of two.
const REGISTER_TYPES: [RegisterType; 32] = {
    let mut table = [RegisterType::Temp; 32];
    let mut raw = 0;
    while raw <= RegisterType::MAX_RAW {
        table[raw as usize] = match RegisterType::from_raw(raw) {
            Some(ty) => ty,
            None => panic!("every raw value up to MAX_RAW is a register type"),
        };
        raw += 1;
    }
    table
};

/// Source modifiers by raw value; 14 and 15 are rejected before the table is read.
const SRC_MODIFIERS: [SrcModifier; 16] = {
    let mut table = [SrcModifier::None; 16];
    let mut raw = 0;
    while raw <= 13 {
        table[raw as usize] = match SrcModifier::from_raw(raw) {
            Some(m) => m,
            None => panic!("0..=13 are source modifiers"),
        };
        raw += 1;
    }
    table
};

const RELATIVE_BIT: u32 = 1 << 13;

#[inline(always)]
fn raw_register_type(token: u32) -> u32 {
    ((token >> 28) & 7) | ((token >> 8) & 0x18)
}

/// Non-zero when a destination (or `dcl` usage) token is not the common case: bit 31 clear,
/// relatively addressed, or an unknown register type.
#[inline(always)]
fn dst_trouble(token: u32) -> u32 {
    (!token & PARAM_BIT) | (token & RELATIVE_BIT) | (raw_register_type(token) > 19) as u32
}

/// As [`dst_trouble`], and also a source modifier of 14 or 15.
#[inline(always)]
fn src_trouble(token: u32) -> u32 {
    dst_trouble(token) | (((token >> 24) & 0xF) >= 14) as u32
}

#[inline(always)]
fn register(token: u32) -> Register {
    Register::new(
        REGISTER_TYPES[raw_register_type(token) as usize & 31],
        (token & 0x7FF) as u16,
    )
}

#[inline(always)]
fn dst(token: u32) -> DstParam {
    DstParam {
        register: register(token),
        relative: None,
        mask: WriteMask(((token >> 16) & 0xF) as u8),
        modifiers: ResultModifiers(((token >> 20) & 0xF) as u8),
        shift: Shift::from_raw((token >> 24) as u8),
        reserved: ((token >> 14) & 3) as u8,
    }
}

#[inline(always)]
fn src(token: u32) -> SrcParam {
    SrcParam {
        register: register(token),
        relative: None,
        swizzle: Swizzle((token >> 16) as u8),
        modifier: SRC_MODIFIERS[((token >> 24) & 0xF) as usize],
        reserved: ((token >> 14) & 3) as u8,
    }
}

/// A constant to copy into each new slot: copying it is a few wide moves, and the fields written
/// over it afterwards go straight to their final place (building the instruction elsewhere and
/// moving it in stalls on store forwarding: narrow field stores read back as wide moves).
const BLANK: Item = Item::Instruction(Instruction::new(Opcode::Nop));

/// Decodes common shader model 2+ instructions from `words[pos]` on into `items`; returns the
/// position of the first token it leaves to the general decoder.
pub(super) fn run(words: &[u32], mut pos: usize, items: &mut Vec<Item>) -> usize {
    while let Some(&token) = words.get(pos) {
        // Bits 28 (predicated) and 31 and opcodes past 96 (comments, the end token, `phase`)
        // are the general decoder's.
        if token & 0x9000_0000 != 0 || token & 0xFFFF > 96 {
            break;
        }
        let row = TABLE[(token & 0xFFFF) as usize];
        let len = ((token >> 24) & 0xF) as usize;
        let Some(ops) = words.get(pos + 1..pos + 1 + len) else {
            break;
        };
        // Check everything first, so that nothing is written for an instruction the general
        // decoder will read again.
        let (dst_token, srcs, extra) = match (row.form, ops) {
            (Form::Unknown, _) => break,
            (Form::Sources, _) => (None, ops, Extra::None),
            (Form::DstSources, [d, rest @ ..]) => (Some(*d), rest, Extra::None),
            (Form::Dcl, &[usage, d]) if usage & PARAM_BIT != 0 => {
                (Some(d), &[][..], Extra::Dcl(DclToken::from_token(usage)))
            }
            (Form::Def, &[d, x, y, z, w]) => (Some(d), &[][..], Extra::Def([x, y, z, w])),
            (Form::DefI, &[d, x, y, z, w]) => (
                Some(d),
                &[][..],
                Extra::DefI([x as i32, y as i32, z as i32, w as i32]),
            ),
            (Form::DefB, &[d, b]) => (Some(d), &[][..], Extra::DefB(b)),
            _ => break,
        };
        if srcs.len() > Sources::CAPACITY || row.src_counts & (1 << srcs.len()) == 0 {
            break;
        }
        let trouble =
            srcs.iter().fold(0, |acc, &t| acc | src_trouble(t)) | dst_token.map_or(0, dst_trouble);
        if trouble != 0 {
            break;
        }
        items.push(BLANK);
        let Some(Item::Instruction(inst)) = items.last_mut() else {
            unreachable!("just pushed an instruction")
        };
        inst.opcode = row.opcode;
        inst.control = (token >> 16) as u8;
        inst.coissue = token & (1 << 30) != 0;
        inst.reserved = token & (1 << 29) != 0;
        if let Some(d) = dst_token {
            inst.dst = Some(dst(d));
        }
        inst.extra = extra;
        for (slot, &t) in inst.srcs.items.iter_mut().zip(srcs) {
            *slot = src(t);
        }
        inst.srcs.len = srcs.len() as u8;
        pos += 1 + len;
    }
    pos
}
