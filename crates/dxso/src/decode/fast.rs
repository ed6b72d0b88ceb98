//! The shader model 2+ fast path: instructions whose length field, operand shape and parameter
//! tokens are the common case decode here with one bounds check and one combined validity test
//! per instruction. Anything else (comments, the end token, relative addressing, predication,
//! reserved values, malformed tokens) stops the run and is left to the general decoder, which
//! gives the same result for what the fast path accepts (`decode` tests compare the two on the
//! corpus and on random streams) and the exact error for what it does not.

use crate::instruction::{DclToken, Extra, Instruction, Item};
use crate::opcode::{Opcode, Operands, ROWS};
use crate::param::{
    DstParam, ResultModifiers, Shift, SrcModifier, SrcParam, Swizzle, WriteMask, PARAM_BIT,
};
use crate::register::{Register, RegisterType};

/// What the operand tokens of an instruction are, by opcode and length field, in shader model
/// 2 and later: one value per combination, so that the decoder dispatches once per instruction.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// Not an instruction the fast path decodes: an unknown opcode (or the gap 49..64), or a
    /// length that fits no shape of the opcode (or more than [`crate::Sources::CAPACITY`] sources).
    Other,
    /// Sources only, as many as the length says.
    S0,
    S1,
    S2,
    S3,
    S4,
    /// A destination, then sources.
    D0,
    D1,
    D2,
    D3,
    D4,
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
    /// By the length field (bits 24-27).
    forms: [Form; 16],
}

/// Opcodes 0..=127 by raw value, so that one mask test rejects the rest: every opcode but
/// `phase` (which the general decoder handles, as it does what is not an opcode).
const TABLE: [Row; 128] = {
    const SOURCES: [Form; 5] = [Form::S0, Form::S1, Form::S2, Form::S3, Form::S4];
    const DST_SOURCES: [Form; 5] = [Form::D0, Form::D1, Form::D2, Form::D3, Form::D4];
    let mut table = [Row {
        opcode: Opcode::Nop,
        forms: [Form::Other; 16],
    }; 128];
    let mut i = 0;
    while i < ROWS.len() {
        let info = &ROWS[i];
        let raw = info.opcode as usize;
        if raw < table.len() {
            let mut row = Row {
                opcode: info.opcode,
                forms: [Form::Other; 16],
            };
            let mut j = 0;
            while j < info.shapes.len() {
                let count = info.shapes[j].operands.src_count() as usize;
                // As in the general decoder, shader model 2+ reads the first shape for what
                // precedes the sources and takes the source count from the length field, which
                // must fit some shape; declarations and definitions take no sources.
                let (len, form) = match info.shapes[0].operands {
                    Operands::None | Operands::Src(_) if count < SOURCES.len() => {
                        (count, SOURCES[count])
                    }
                    Operands::DstSrc(_) if count < DST_SOURCES.len() => {
                        (1 + count, DST_SOURCES[count])
                    }
                    Operands::Dcl if count == 0 => (2, Form::Dcl),
                    Operands::Def if count == 0 => (5, Form::Def),
                    Operands::DefI if count == 0 => (5, Form::DefI),
                    Operands::DefB if count == 0 => (2, Form::DefB),
                    _ => (0, Form::Other),
                };
                if !matches!(form, Form::Other) {
                    row.forms[len] = form;
                }
                j += 1;
            }
            table[raw] = row;
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

/// Register types of common parameter tokens, indexed by [`type_index`] (the top byte: bit 31,
/// the low register type bits 28-30 and the modifier or shift in bits 24-27; then bits 11-13:
/// the high register type bits and the relative bit): the raw register type, or [`UNCOMMON`]
/// when bit 31 is clear, the token is relatively addressed, the type is unknown or (for
/// sources) the modifier is 14 or 15. One index and one load check a token and find its
/// register type.
const fn register_types(source: bool) -> [u8; 2048] {
    let mut table = [UNCOMMON; 2048];
    let mut i = 0;
    while i < table.len() {
        let (top, low) = (i >> 3, i & 7);
        let raw_type = (top >> 4) & 7 | (low & 3) << 3;
        let common = top & 0x80 != 0
            && low & 4 == 0
            && raw_type <= RegisterType::MAX_RAW as usize
            && !(source && top & 0xF >= 14);
        if common {
            table[i] = raw_type as u8;
        }
        i += 1;
    }
    table
}

/// Set in a [`register_types`] entry when the token is not the common case.
const UNCOMMON: u8 = 0x80;

/// [`register_types`] for destinations (and the registers of `dcl` and `def*`).
const DST_TYPES: [u8; 2048] = register_types(false);
/// [`register_types`] for sources.
const SRC_TYPES: [u8; 2048] = register_types(true);

#[inline(always)]
fn type_index(token: u32) -> usize {
    ((token >> 21) & 0x7F8 | (token >> 11) & 7) as usize
}

#[inline(always)]
fn register(raw_type: u8, token: u32) -> Register {
    Register::new(
        REGISTER_TYPES[raw_type as usize & 31],
        (token & 0x7FF) as u16,
    )
}

#[inline(always)]
fn dst(raw_type: u8, token: u32) -> DstParam {
    DstParam {
        register: register(raw_type, token),
        relative: None,
        mask: WriteMask(((token >> 16) & 0xF) as u8),
        modifiers: ResultModifiers(((token >> 20) & 0xF) as u8),
        shift: Shift::from_raw((token >> 24) as u8),
        reserved: ((token >> 14) & 3) as u8,
    }
}

#[inline(always)]
fn src(raw_type: u8, token: u32) -> SrcParam {
    SrcParam {
        register: register(raw_type, token),
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

/// Appends a blank instruction with the fields of the instruction token; the caller writes the
/// operands into it.
#[inline(always)]
fn push(items: &mut Vec<Item>, token: u32, opcode: Opcode) -> &mut Instruction {
    items.push(BLANK);
    let Some(Item::Instruction(inst)) = items.last_mut() else {
        unreachable!("just pushed an instruction")
    };
    inst.opcode = opcode;
    inst.control = (token >> 16) as u8;
    inst.coissue = token & (1 << 30) != 0;
    inst.reserved = token & (1 << 29) != 0;
    inst
}

#[inline(always)]
fn set_sources<const N: usize>(inst: &mut Instruction, srcs: [u32; N], types: [u8; N]) {
    for ((slot, t), ty) in inst.srcs.items.iter_mut().zip(srcs).zip(types) {
        *slot = src(ty, t);
    }
    inst.srcs.len = N as u8;
}

/// The register types of source tokens, and whether one is [`UNCOMMON`].
#[inline(always)]
fn source_types<const N: usize>(srcs: [u32; N]) -> ([u8; N], u8) {
    let types = srcs.map(|t| SRC_TYPES[type_index(t)]);
    let uncommon = types.iter().fold(0, |acc, &ty| acc | ty) & UNCOMMON;
    (types, uncommon)
}

/// A destination and `N` sources, when all are common; `false` leaves nothing written.
#[inline(always)]
fn dst_sources<const N: usize>(
    items: &mut Vec<Item>,
    token: u32,
    opcode: Opcode,
    d: u32,
    srcs: [u32; N],
) -> bool {
    let dst_type = DST_TYPES[type_index(d)];
    let (types, uncommon) = source_types(srcs);
    if (dst_type | uncommon) & UNCOMMON != 0 {
        return false;
    }
    let inst = push(items, token, opcode);
    inst.dst = Some(dst(dst_type, d));
    set_sources(inst, srcs, types);
    true
}

/// `N` sources and no destination, when all are common.
#[inline(always)]
fn sources<const N: usize>(
    items: &mut Vec<Item>,
    token: u32,
    opcode: Opcode,
    srcs: [u32; N],
) -> bool {
    let (types, uncommon) = source_types(srcs);
    if uncommon != 0 {
        return false;
    }
    set_sources(push(items, token, opcode), srcs, types);
    true
}

/// A destination and the immediates (or `dcl` usage token) that follow it, when the
/// destination is common.
#[inline(always)]
fn dst_extra(items: &mut Vec<Item>, token: u32, opcode: Opcode, d: u32, extra: Extra) -> bool {
    let dst_type = DST_TYPES[type_index(d)];
    if dst_type & UNCOMMON != 0 {
        return false;
    }
    let inst = push(items, token, opcode);
    inst.dst = Some(dst(dst_type, d));
    inst.extra = extra;
    true
}

/// Decodes common shader model 2+ instructions from `words[pos]` on into `items`; returns the
/// position of the first token it leaves to the general decoder.
pub(super) fn run(words: &[u32], pos: usize, items: &mut Vec<Item>) -> usize {
    // The rest of the stream as a slice (a pointer and a length) rather than an index into it:
    // the loop keeps fewer values live, so fewer of them are spilled to the stack and reloaded
    // on the path from one instruction token to the next.
    let mut rest = words.get(pos..).unwrap_or_default();
    while let Some((&token, after)) = rest.split_first() {
        // Bits 28 (predicated) and 31 and opcodes past 127 (comments, the end token, `phase`)
        // are the general decoder's; so are 97..=127, which are no opcodes.
        if token & 0x9000_FF80 != 0 {
            break;
        }
        let row = &TABLE[(token & 0x7F) as usize];
        let len = ((token >> 24) & 0xF) as usize;
        let form = row.forms[len];
        let Some(ops) = after.get(..len) else {
            break;
        };
        // Each arm checks every token first, so that nothing is written for an instruction the
        // general decoder will read again. (The slice patterns only restate the length the
        // form was chosen by.)
        let op = row.opcode;
        let taken = match (form, ops) {
            (Form::D0, &[d]) => dst_sources(items, token, op, d, []),
            (Form::D1, &[d, a]) => dst_sources(items, token, op, d, [a]),
            (Form::D2, &[d, a, b]) => dst_sources(items, token, op, d, [a, b]),
            (Form::D3, &[d, a, b, c]) => dst_sources(items, token, op, d, [a, b, c]),
            (Form::D4, &[d, a, b, c, e]) => dst_sources(items, token, op, d, [a, b, c, e]),
            (Form::S0, &[]) => sources(items, token, op, []),
            (Form::S1, &[a]) => sources(items, token, op, [a]),
            (Form::S2, &[a, b]) => sources(items, token, op, [a, b]),
            (Form::S3, &[a, b, c]) => sources(items, token, op, [a, b, c]),
            (Form::S4, &[a, b, c, e]) => sources(items, token, op, [a, b, c, e]),
            (Form::Dcl, &[usage, d]) if usage & PARAM_BIT != 0 => {
                dst_extra(items, token, op, d, Extra::Dcl(DclToken::from_token(usage)))
            }
            (Form::Def, &[d, x, y, z, w]) => {
                dst_extra(items, token, op, d, Extra::Def([x, y, z, w]))
            }
            (Form::DefI, &[d, x, y, z, w]) => dst_extra(
                items,
                token,
                op,
                d,
                Extra::DefI([x as i32, y as i32, z as i32, w as i32]),
            ),
            (Form::DefB, &[d, b]) => dst_extra(items, token, op, d, Extra::DefB(b)),
            _ => false,
        };
        if !taken {
            break;
        }
        rest = &after[len..];
    }
    words.len() - rest.len()
}
