//! The instruction lines of a listing, written into bytes with table copies.
//!
//! Printing is mostly short pieces: a mnemonic, a register prefix, one or two digits, a swizzle.
//! Appending each as a `&str` costs a call to `memcpy` and a capacity check per piece, which
//! made up most of the printer's time. Here every common piece is a fixed-size padded entry of a
//! table (`Padded`): appended as one constant-size copy, then cut back to its length. The
//! tables are built once from the spelling functions of this crate and of `dxso` (so the
//! spellings live in one place), and a test compares every entry with them.

use super::{write_dcl_suffix, write_float_to, write_relative, write_result_modifiers, Text};
use dxso::{Extra, Instruction, Opcode, Register, RegisterType, SrcParam, Version};
use std::sync::OnceLock;

/// A short piece of text padded to `N` bytes.
#[derive(Clone, Copy)]
struct Padded<const N: usize> {
    bytes: [u8; N],
    len: u8,
}

impl<const N: usize> Padded<N> {
    const EMPTY: Self = Padded {
        bytes: [0; N],
        len: 0,
    };

    /// Table building only: every spelling that goes in a table is ASCII and short.
    fn new(text: &str) -> Self {
        assert!(text.len() <= N && text.is_ascii(), "{text:?} does not fit");
        let mut bytes = [0; N];
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        Padded {
            bytes,
            len: text.len() as u8,
        }
    }

    fn of(write: impl FnOnce(&mut String)) -> Self {
        let mut text = String::new();
        write(&mut text);
        Padded::new(&text)
    }

    /// Writes the piece at `pos` of the line and returns the position after it.
    #[inline(always)]
    fn put(&self, line: &mut Line, pos: usize) -> usize {
        line.0[pos..pos + N].copy_from_slice(&self.bytes);
        pos + self.len as usize
    }
}

/// The most bytes one instruction line can take, with room for the padding of the last piece.
/// The longest line the model allows is under 400 bytes: a predicate (at most 42), the
/// mnemonic with every suffix (53), a relatively addressed destination with a mask (33), four
/// `def` floats (72) and four sources with modifiers and relative addresses (164); the test
/// `the_longest_instruction_fits` prints it.
pub(super) const LINE_CAPACITY: usize = 512;

/// One instruction line being written: pieces go in at a position that the writers pass along
/// in registers (appending to a `Vec` reloads and stores its length around every piece).
pub(super) struct Line(pub(super) [u8; LINE_CAPACITY]);

impl Line {
    pub(super) fn new() -> Self {
        Line([0; LINE_CAPACITY])
    }

    #[inline(always)]
    fn byte(&mut self, pos: usize, b: u8) -> usize {
        self.0[pos] = b;
        pos + 1
    }

    #[inline(always)]
    fn bytes<const N: usize>(&mut self, pos: usize, b: &[u8; N]) -> usize {
        self.0[pos..pos + N].copy_from_slice(b);
        pos + N
    }

    /// Runs one of the general writers (which write through [`Text`]) at `pos`.
    fn with_text(&mut self, pos: usize, write: impl FnOnce(&mut LineText<'_>)) -> usize {
        let mut text = LineText { line: self, pos };
        write(&mut text);
        text.pos
    }
}

/// [`Text`] over a [`Line`], for the uncommon pieces (declarations, floats, relative addresses).
struct LineText<'a> {
    line: &'a mut Line,
    pos: usize,
}

impl Text for LineText<'_> {
    fn byte(&mut self, b: u8) {
        self.line.0[self.pos] = b;
        self.pos += 1;
    }
    fn text(&mut self, s: &str) {
        self.ascii(s.as_bytes());
    }
    fn ascii(&mut self, b: &[u8]) {
        self.line.0[self.pos..self.pos + b.len()].copy_from_slice(b);
        self.pos += b.len();
    }
}

/// The spellings that do not depend on the version.
struct Tables {
    mnemonics: Vec<Padded<16>>,
    /// By [`Opcode::index`]: the mnemonic is the table's alone, whatever the version and the
    /// control bits (not `tex`, `texcoord` or a comparison), so one lookup skips those tests.
    plain: Vec<bool>,
    swizzles: [Padded<8>; 256],
    masks: [Padded<8>; 16],
    src_prefixes: [Padded<8>; 16],
    src_suffixes: [Padded<8>; 16],
    result_modifiers: [Padded<16>; 8],
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = Tables {
            mnemonics: dxso::opcode::TABLE
                .iter()
                .map(|info| Padded::new(info.mnemonic))
                .collect(),
            plain: vec![false; dxso::opcode::TABLE.len()],
            swizzles: [Padded::EMPTY; 256],
            masks: [Padded::EMPTY; 16],
            src_prefixes: [Padded::EMPTY; 16],
            src_suffixes: [Padded::EMPTY; 16],
            result_modifiers: [Padded::EMPTY; 8],
        };
        for &op in Opcode::ALL {
            t.plain[op.index()] =
                !matches!(op, Opcode::Tex | Opcode::TexCoord) && !op.has_comparison();
        }
        for (i, slot) in t.swizzles.iter_mut().enumerate() {
            *slot = Padded::of(|s| super::write_swizzle_to(s, dxso::Swizzle(i as u8)));
        }
        for (i, slot) in t.masks.iter_mut().enumerate() {
            *slot = Padded::of(|s| super::write_mask(s, dxso::WriteMask(i as u8)));
        }
        for raw in 0..16u8 {
            if let Some(m) = dxso::SrcModifier::from_raw(raw) {
                t.src_prefixes[raw as usize] = Padded::new(m.prefix());
                t.src_suffixes[raw as usize] = Padded::new(m.suffix());
            }
        }
        for (i, slot) in t.result_modifiers.iter_mut().enumerate() {
            *slot = Padded::of(|s| write_result_modifiers(s, dxso::ResultModifiers(i as u8)));
        }
        t
    })
}

/// How a register file is spelled in a version: `prefix` and index (`r3`, `c12`, `oT0`), with
/// names of their own for the first `named` numbers (`oPos`, `oFog`, `oPts`; `vPos`, `vFace`),
/// or, when `fixed`, the prefix alone whatever the number (`aL`, `oDepth`; `named` is then
/// every number). One comparison sends the common registers, spelled by number, past both.
#[derive(Clone, Copy)]
struct RegisterFile {
    prefix: Padded<8>,
    named: usize,
    fixed: bool,
    /// What [`Register::index`] adds to the number (2048 and up for `CONST2`..`CONST4`).
    base: u32,
    names: [Padded<8>; 4],
}

/// Register spellings by raw register type, for one version class.
type RegisterFiles = [RegisterFile; RegisterType::MAX_RAW as usize + 1];

/// Register spellings depend on the version only through the shader kind and whether the
/// major version is at least 3 ([`RegisterType::prefix`], [`Register::fixed_name`]); a test
/// checks every class against [`Register::name`].
fn register_files(version: Version) -> &'static RegisterFiles {
    static CLASSES: OnceLock<[RegisterFiles; 4]> = OnceLock::new();
    let classes = CLASSES.get_or_init(|| crate::syntax::SPELLING_CLASSES.map(files_of));
    &classes[crate::syntax::spelling_class(version)]
}

fn files_of(version: Version) -> RegisterFiles {
    let mut files = [RegisterFile {
        prefix: Padded::EMPTY,
        named: 0,
        fixed: false,
        base: 0,
        names: [Padded::EMPTY; 4],
    }; RegisterType::MAX_RAW as usize + 1];
    for (raw, file) in files.iter_mut().enumerate() {
        let Some(ty) = RegisterType::from_raw(raw as u8) else {
            continue;
        };
        file.prefix = Padded::new(ty.prefix(version));
        file.base = Register::new(ty, 0).index();
        let name = |num| Register::new(ty, num).fixed_name(version);
        if let Some(fixed) = name(Register::MAX_NUM) {
            file.prefix = Padded::new(fixed);
            file.fixed = true;
            file.named = usize::MAX;
        } else {
            let named = (0..4).take_while(|&n| name(n).is_some()).count();
            for (n, slot) in file.names.iter_mut().enumerate().take(named) {
                *slot = Padded::new(name(n as u16).unwrap_or_default());
            }
            file.named = named;
        }
    }
    files
}

/// Two-digit decimal strings.
const DIGIT_PAIRS: [[u8; 2]; 100] = {
    let mut t = [[0; 2]; 100];
    let mut i = 0;
    while i < 100 {
        t[i] = [b'0' + (i / 10) as u8, b'0' + (i % 10) as u8];
        i += 1;
    }
    t
};

/// Writes a decimal number at `pos`: register numbers are mostly one or two digits.
#[inline(always)]
fn put_u32(line: &mut Line, pos: usize, v: u32) -> usize {
    if v < 10 {
        line.byte(pos, b'0' + v as u8)
    } else if v < 100 {
        line.bytes(pos, &DIGIT_PAIRS[v as usize])
    } else {
        put_long_u32(line, pos, v)
    }
}

#[inline(never)]
fn put_long_u32(line: &mut Line, pos: usize, v: u32) -> usize {
    if v < 100 {
        put_u32(line, pos, v)
    } else if v < 1000 {
        let pos = line.byte(pos, b'0' + (v / 100) as u8);
        line.bytes(pos, &DIGIT_PAIRS[(v % 100) as usize])
    } else if v < 10_000 {
        let pos = line.bytes(pos, &DIGIT_PAIRS[(v / 100) as usize]);
        line.bytes(pos, &DIGIT_PAIRS[(v % 100) as usize])
    } else {
        let pos = put_long_u32(line, pos, v / 10_000);
        let low = v % 10_000;
        let pos = line.bytes(pos, &DIGIT_PAIRS[(low / 100) as usize]);
        line.bytes(pos, &DIGIT_PAIRS[(low % 100) as usize])
    }
}

/// Writes the instruction lines of one shader.
pub(super) struct LineWriter {
    version: Version,
    tables: &'static Tables,
    registers: &'static RegisterFiles,
    /// `tex` and `texcoord`, whose spelling depends on the version (`texld`, `texcrd`).
    tex: Padded<16>,
    texcoord: Padded<16>,
}

impl LineWriter {
    pub(super) fn new(version: Version) -> Self {
        LineWriter {
            version,
            tables: tables(),
            registers: register_files(version),
            tex: Padded::new(Opcode::Tex.info().mnemonic_for(version)),
            texcoord: Padded::new(Opcode::TexCoord.info().mnemonic_for(version)),
        }
    }

    /// Writes one instruction (no indent, no newline) at the start of `line`; returns its length.
    pub(super) fn instruction(&self, line: &mut Line, inst: &Instruction) -> usize {
        self.instruction_at(line, 0, inst)
    }

    /// Writes one instruction at `pos` of `line` (after an indent already there); returns
    /// where it ends.
    pub(super) fn instruction_at(
        &self,
        line: &mut Line,
        mut pos: usize,
        inst: &Instruction,
    ) -> usize {
        if let Some(p) = &inst.predicate {
            pos = line.byte(pos, b'(');
            pos = self.src(line, pos, p);
            pos = line.bytes(pos, b") ");
        }
        pos = self.mnemonic(line, pos, inst);
        let mut first = true;
        let mut sep = |line: &mut Line, pos: usize| {
            if first {
                first = false;
                line.byte(pos, b' ')
            } else {
                line.bytes(pos, b", ")
            }
        };
        if let Some(dst) = &inst.dst {
            pos = sep(line, pos);
            pos = self.register(line, pos, dst.register);
            if let Some(relative) = dst.relative {
                pos = line.with_text(pos, |t| write_relative(t, relative, self.version));
            }
            if !dst.mask.is_full() {
                pos = self.tables.masks[(dst.mask.0 & 0xF) as usize].put(line, pos);
            }
        }
        match inst.extra {
            Extra::Def(bits) => {
                for b in bits {
                    pos = sep(line, pos);
                    pos = line.with_text(pos, |t| write_float_to(t, f32::from_bits(b)));
                }
            }
            Extra::DefI(v) => {
                for x in v {
                    pos = sep(line, pos);
                    if x < 0 {
                        pos = line.byte(pos, b'-');
                    }
                    pos = put_u32(line, pos, x.unsigned_abs());
                }
            }
            Extra::DefB(b) => {
                pos = sep(line, pos);
                pos = if b != 0 {
                    line.bytes(pos, b"true")
                } else {
                    line.bytes(pos, b"false")
                };
            }
            Extra::Dcl(_) | Extra::None => {}
        }
        for src in inst.srcs.iter() {
            pos = sep(line, pos);
            pos = self.src(line, pos, src);
        }
        pos
    }

    fn mnemonic(&self, line: &mut Line, mut pos: usize, inst: &Instruction) -> usize {
        let index = inst.opcode.index();
        if self.tables.plain[index] {
            pos = self.tables.mnemonics[index].put(line, pos);
        } else {
            pos = match inst.opcode {
                Opcode::Tex => self.tex.put(line, pos),
                Opcode::TexCoord => self.texcoord.put(line, pos),
                _ => self.tables.mnemonics[index].put(line, pos),
            };
            if inst.opcode == Opcode::Tex {
                pos = line.with_text(pos, |t| super::write_texld_mode(t, inst, self.version));
            }
            if let Some(c) = inst.comparison() {
                pos = line.with_text(pos, |t| {
                    t.byte(b'_');
                    t.text(c.suffix());
                });
            }
        }
        if let Extra::Dcl(d) = inst.extra {
            pos = line.with_text(pos, |t| write_dcl_suffix(t, inst, d, self.version));
        }
        if let Some(dst) = &inst.dst {
            if dst.shift.0 != 0 {
                pos = line.with_text(pos, |t| t.text(dst.shift.suffix()));
            }
            pos = self.tables.result_modifiers[(dst.modifiers.0 & 7) as usize].put(line, pos);
        }
        pos
    }

    /// Writes a source operand (`-c19[a0.x].w`, `1-r0`, `r2_bx2.x`, `!p0`).
    #[inline(always)]
    fn src(&self, line: &mut Line, mut pos: usize, src: &SrcParam) -> usize {
        // Most sources have no modifier.
        let modifier = src.modifier.raw() as usize & 0xF;
        if modifier != 0 {
            pos = self.tables.src_prefixes[modifier].put(line, pos);
        }
        pos = self.register(line, pos, src.register);
        if modifier != 0 {
            pos = self.tables.src_suffixes[modifier].put(line, pos);
        }
        if let Some(relative) = src.relative {
            pos = line.with_text(pos, |t| write_relative(t, relative, self.version));
        }
        self.tables.swizzles[src.swizzle.0 as usize].put(line, pos)
    }

    /// Writes a register as [`Register::name`] spells it.
    #[inline(always)]
    fn register(&self, line: &mut Line, pos: usize, register: Register) -> usize {
        let file = &self.registers[register.ty as usize];
        let num = register.num as usize;
        if num < file.named {
            return if file.fixed {
                file.prefix.put(line, pos)
            } else {
                file.names[num & 3].put(line, pos)
            };
        }
        let pos = file.prefix.put(line, pos);
        put_u32(line, pos, file.base + register.num as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxso::{SrcModifier, Swizzle};

    const VERSIONS: [Version; 9] = [
        Version::vs(1, 1),
        Version::vs(2, 0),
        Version::vs(2, 1),
        Version::vs(3, 0),
        Version::vs(3, 0xFF),
        Version::ps(1, 1),
        Version::ps(1, 4),
        Version::ps(2, 0),
        Version::ps(3, 0),
    ];

    fn text(write: impl FnOnce(&mut Line) -> usize) -> String {
        let mut line = Line::new();
        let len = write(&mut line);
        String::from_utf8(line.0[..len].to_vec()).unwrap()
    }

    #[test]
    fn registers_are_spelled_as_register_name_spells_them() {
        let mut checked = 0;
        for version in VERSIONS {
            let w = LineWriter::new(version);
            for raw in 0..=RegisterType::MAX_RAW {
                let ty = RegisterType::from_raw(raw).unwrap();
                for num in [0, 1, 2, 3, 4, 9, 10, 99, 100, 999, 1000, 2047] {
                    let r = Register::new(ty, num);
                    assert_eq!(
                        text(|l| w.register(l, 0, r)),
                        r.name(version),
                        "{r:?} {version}"
                    );
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 9 * 20 * 12);
    }

    #[test]
    fn numbers() {
        for v in (0..20_000).chain([99_999, 100_000, 1_234_567, u32::MAX]) {
            assert_eq!(text(|l| put_u32(l, 0, v)), v.to_string());
        }
    }

    #[test]
    fn sources_match_their_pieces() {
        let version = Version::ps(2, 0);
        let w = LineWriter::new(version);
        for raw in 0..=13 {
            for swizzle in 0..=255u8 {
                let register = Register::new(RegisterType::Const, 7);
                let mut s = SrcParam::new(register, Swizzle(swizzle));
                s.modifier = SrcModifier::from_raw(raw).unwrap();
                let mut reference = format!(
                    "{}{}{}",
                    s.modifier.prefix(),
                    register.name(version),
                    s.modifier.suffix()
                );
                super::super::write_swizzle_to(&mut reference, s.swizzle);
                assert_eq!(text(|l| w.src(l, 0, &s)), reference);
            }
        }
    }

    #[test]
    fn the_longest_instruction_fits() {
        use dxso::{DclToken, DstParam, Relative, RelativeToken, ResultModifiers, Shift};
        let long = Register::new(RegisterType::MiscType, Register::MAX_NUM);
        let relative = Some(Relative::Token(RelativeToken {
            register: long,
            swizzle: Swizzle(0x1B),
            modifier: 0,
            reserved: 0,
        }));
        let mut src = SrcParam::new(long, Swizzle(0x1B));
        src.modifier = SrcModifier::BiasNeg;
        src.relative = relative;
        let mut inst = Instruction::new(Opcode::TexM3x3VSpec);
        inst.control = 3;
        inst.predicate = Some(src);
        inst.dst = Some(DstParam {
            register: long,
            relative,
            mask: dxso::WriteMask(0x5),
            modifiers: ResultModifiers(0xF),
            shift: Shift(-8),
            reserved: 0,
        });
        inst.srcs = dxso::Sources::from_slice(&[src; 4]).unwrap();
        let mut longest = 0;
        for extra in [
            Extra::Def([0x8080_0000; 4]),
            Extra::DefI([i32::MIN; 4]),
            Extra::Dcl(DclToken::from_token(0xFFFF_FFFF)),
        ] {
            inst.extra = extra;
            for version in VERSIONS {
                let printed = text(|l| LineWriter::new(version).instruction(l, &inst));
                longest = longest.max(printed.len());
            }
        }
        assert!(longest < 400, "{longest} bytes");
        // The body loop writes the indent (and a newline) into the same buffer, and the last
        // piece may copy up to 16 bytes of padding.
        assert!(longest + super::super::INLINE_INDENT + 16 < LINE_CAPACITY);
    }
}
