//! FX programs: the bytecode of state expressions and array selectors (`0x46580200`) and of
//! shader preshaders (`0x46580201`, inside a `PRES` comment of the shader). A program is a
//! version word, comment sections (`CTAB` inputs, `CLIT` double literals, `FXLC` code, `PRSI`
//! register information) and the words after them (the end token `0x0000FFFF`).
//!
//! Every part keeps what it does not interpret, so [`Program::to_words`] reproduces the
//! parsed words exactly.

use crate::bytes::to_words;
use crate::error::{FxError, FxErrorKind, ProgramErrorKind};
use crate::opcode::Opcode;
use dxso::ConstantTable;
use std::fmt::Write as _;

/// The version word of state expressions and array selectors.
pub const EXPRESSION_VERSION: u32 = 0x4658_0200;
/// The version word of preshaders.
pub const PRESHADER_VERSION: u32 = 0x4658_0201;
/// `PRES`, the FOURCC of the shader comment that holds a preshader.
pub const PRES_FOURCC: u32 = u32::from_le_bytes(*b"PRES");
/// `CLIT`.
pub const CLIT_FOURCC: u32 = u32::from_le_bytes(*b"CLIT");
/// `FXLC`.
pub const FXLC_FOURCC: u32 = u32::from_le_bytes(*b"FXLC");
/// `PRSI`.
pub const PRSI_FOURCC: u32 = u32::from_le_bytes(*b"PRSI");
/// Registers a table may have (the CTAB register index is 16 bits); operands addressing past
/// it are rejected so that evaluation never allocates more than this per table.
pub const MAX_REGISTERS: u32 = 0x1_0000;

const COMMENT: u32 = 0xFFFE;

/// A whole FX program.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// `0x46580200` (expression) or `0x46580201` (preshader).
    pub version: u32,
    /// The comment sections in order.
    pub sections: Vec<Section>,
    /// The words after the last section (the end token in compiler output; one hand-edited
    /// Wine test blob has `0x00000000` there).
    pub end: Vec<u32>,
}

/// One comment section of a program.
#[derive(Clone, Debug, PartialEq)]
pub enum Section {
    /// `CTAB`: the inputs (effect parameters) and the `c` registers they occupy.
    ConstantTable(ConstantTable),
    /// `CLIT`: the double literals of the immediate table.
    Literals(Literals),
    /// `FXLC`: the instructions.
    Code(Code),
    /// `PRSI`: preshader register information (the payload after the FOURCC, kept as words;
    /// the evaluator does not need it, the outputs name their registers).
    RegisterInfo(Vec<u32>),
    /// Any other comment: the whole payload (FOURCC included).
    Other(Vec<u32>),
}

/// The `PRSI` section read as the output registers a preshader writes. The layout is inferred
/// from the 41 preshaders of the corpus (d3dx9 does not read the section): the first register
/// and the register count of the float, bool and int outputs, then for each of the three a
/// count of `(first register, count)` ranges. On every corpus preshader the ranges are the
/// registers its instructions write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegisterRanges {
    /// First register of the float, bool and int outputs.
    pub first: [u32; 3],
    /// Registers spanned by the float, bool and int outputs.
    pub count: [u32; 3],
    /// `(first register, count)` ranges written, per file (float, bool, int).
    pub ranges: [Vec<(u32, u32)>; 3],
}

impl RegisterRanges {
    fn parse(w: &[u32]) -> Option<RegisterRanges> {
        let mut pos = 6;
        let mut ranges: [Vec<(u32, u32)>; 3] = Default::default();
        for r in &mut ranges {
            let n = *w.get(pos)? as usize;
            pos += 1;
            let pairs = w.get(pos..pos.checked_add(n.checked_mul(2)?)?)?;
            r.extend(pairs.chunks_exact(2).map(|p| (p[0], p[1])));
            pos += 2 * n;
        }
        (pos == w.len()).then(|| RegisterRanges {
            first: [w[0], w[1], w[2]],
            count: [w[3], w[4], w[5]],
            ranges,
        })
    }
}

/// The `CLIT` literals.
#[derive(Clone, Debug, PartialEq)]
pub struct Literals {
    /// The literals as `f64` bit patterns (kept as bits so NaN payloads survive).
    pub values: Vec<u64>,
    /// Words after the literals.
    pub extra: Vec<u32>,
}

impl Literals {
    /// The literal values.
    pub fn as_f64(&self) -> impl Iterator<Item = f64> + '_ {
        self.values.iter().map(|&b| f64::from_bits(b))
    }
}

/// The `FXLC` code.
#[derive(Clone, Debug, PartialEq)]
pub struct Code {
    /// The instructions.
    pub instructions: Vec<Instruction>,
    /// Words after the instructions (compilers write `0xf0f0f0f0, 0x0f0f0f0f, 0x0000ffff`).
    pub extra: Vec<u32>,
}

/// One FXLC instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    /// The instruction word: bit 31 scalar (the first input is one component, broadcast),
    /// bits 20-30 the opcode, bits 0-15 the component count.
    pub word: u32,
    /// The inputs.
    pub inputs: Vec<Operand>,
    /// The output.
    pub output: Operand,
}

impl Instruction {
    /// The operation (parsing guarantees it is known).
    pub fn opcode(&self) -> Opcode {
        Opcode::lookup((self.word >> 20) & 0x7FF, self.inputs.len() as u32).unwrap_or(Opcode::Nop)
    }

    /// Components computed (1..=4).
    pub fn components(&self) -> u32 {
        self.word & 0xFFFF
    }

    /// `true` when the first input is a single component used for every output component.
    pub fn scalar(&self) -> bool {
        self.word & 0x8000_0000 != 0
    }
}

/// An operand: a register, optionally indexed by another register's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Operand {
    /// The index register of relative addressing (`c[4 + r0.x]`).
    pub index: Option<Register>,
    /// The register (component offset).
    pub register: Register,
}

/// A register table and a component offset in it (`c3.y` is offset 13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Register {
    /// The table.
    pub table: Table,
    /// The offset as stored: components for every table (the bool table too).
    pub offset: u32,
}

/// The register tables of the FXLC format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Table {
    /// 1: the `CLIT` literals (doubles).
    Immediate,
    /// 2: the `c` inputs, filled from effect parameters through the program's `CTAB`.
    Constant,
    /// 3: `v` inputs of texture-shader preshaders (position and point size).
    Input,
    /// 4: float outputs (the state value, or the shader's `c` registers).
    Output,
    /// 5: bool outputs (the shader's `b` registers, one component each).
    BoolOutput,
    /// 6: int outputs (the shader's `i` registers).
    IntOutput,
    /// 7: temporaries.
    Temporary,
}

impl Table {
    /// From the stored word.
    pub fn from_raw(raw: u32) -> Option<Self> {
        use Table::*;
        Some(match raw {
            1 => Immediate,
            2 => Constant,
            3 => Input,
            4 => Output,
            5 => BoolOutput,
            6 => IntOutput,
            7 => Temporary,
            _ => return None,
        })
    }

    /// The stored word.
    pub fn raw(self) -> u32 {
        use Table::*;
        match self {
            Immediate => 1,
            Constant => 2,
            Input => 3,
            Output => 4,
            BoolOutput => 5,
            IntOutput => 6,
            Temporary => 7,
        }
    }

    /// The register prefix of listings.
    pub fn prefix(self) -> &'static str {
        use Table::*;
        match self {
            Immediate => "imm",
            Constant => "c",
            Input => "v",
            Output => "oc",
            BoolOutput => "ob",
            IntOutput => "oi",
            Temporary => "r",
        }
    }

    /// Units per register when evaluating: 4 components, or 1 for the bool table (whose stored
    /// offsets divide by 4 into register numbers).
    pub fn components(self) -> u32 {
        if self == Table::BoolOutput {
            1
        } else {
            4
        }
    }
}

struct Words<'a> {
    words: &'a [u32],
    pos: usize,
    /// Absolute byte offset of `words[0]`.
    base: usize,
}

impl Words<'_> {
    fn err(&self, at: usize, kind: ProgramErrorKind) -> FxError {
        FxError::new(self.base + 4 * at, FxErrorKind::Program(kind))
    }

    fn next(&mut self, what: &'static str, needed: u64) -> Result<u32, FxError> {
        match self.words.get(self.pos) {
            Some(&w) => {
                self.pos += 1;
                Ok(w)
            }
            None => Err(self.err(
                self.pos,
                ProgramErrorKind::ShortSection {
                    what,
                    needed,
                    available: self.words.len(),
                },
            )),
        }
    }
}

impl Program {
    /// Parses a program from its bytes; `base` is the byte offset of the program in the file
    /// (errors name absolute offsets).
    pub fn parse(bytes: &[u8], base: usize) -> Result<Program, FxError> {
        if bytes.len() % 4 != 0 {
            return Err(FxError::new(
                base,
                FxErrorKind::Program(ProgramErrorKind::Unaligned(bytes.len())),
            ));
        }
        Self::parse_words(&to_words(bytes), base)
    }

    /// Parses a program from its words.
    pub fn parse_words(words: &[u32], base: usize) -> Result<Program, FxError> {
        let r = Words {
            words,
            pos: 0,
            base,
        };
        let version = match words.first() {
            Some(&v) if v >> 16 == 0x4658 => v,
            Some(&v) => return Err(r.err(0, ProgramErrorKind::BadVersion(v))),
            None => return Err(r.err(0, ProgramErrorKind::BadVersion(0))),
        };
        let mut pos = 1;
        let mut sections = Vec::new();
        while let Some(&token) = words.get(pos) {
            if token & 0xFFFF != COMMENT || token & 0x8000_0000 != 0 {
                break;
            }
            let len = (token >> 16) as usize;
            let available = words.len() - pos - 1;
            if len > available {
                return Err(r.err(pos, ProgramErrorKind::SectionLength { len, available }));
            }
            let payload = &words[pos + 1..pos + 1 + len];
            sections.push(Section::parse(payload, base + 4 * (pos + 1))?);
            pos += 1 + len;
        }
        Ok(Program {
            version,
            sections,
            end: words[pos..].to_vec(),
        })
    }

    /// The words, exactly as parsed when unchanged.
    pub fn to_words(&self) -> Vec<u32> {
        let mut out = vec![self.version];
        for s in &self.sections {
            let payload = s.to_words();
            out.push(COMMENT | ((payload.len() as u32) << 16));
            out.extend(payload);
        }
        out.extend_from_slice(&self.end);
        out
    }

    /// The constant table, if the program has one.
    pub fn constant_table(&self) -> Option<&ConstantTable> {
        self.sections.iter().find_map(|s| match s {
            Section::ConstantTable(t) => Some(t),
            _ => None,
        })
    }

    /// The literals, if the program has them.
    pub fn literals(&self) -> Option<&Literals> {
        self.sections.iter().find_map(|s| match s {
            Section::Literals(l) => Some(l),
            _ => None,
        })
    }

    /// The code, if the program has it.
    pub fn code(&self) -> Option<&Code> {
        self.sections.iter().find_map(|s| match s {
            Section::Code(c) => Some(c),
            _ => None,
        })
    }

    /// The `PRSI` payload, if the program has one.
    pub fn register_info(&self) -> Option<&[u32]> {
        self.sections.iter().find_map(|s| match s {
            Section::RegisterInfo(w) => Some(w.as_slice()),
            _ => None,
        })
    }

    /// The `PRSI` payload read as register ranges (see [`RegisterRanges`]), when it has that
    /// shape.
    pub fn register_ranges(&self) -> Option<RegisterRanges> {
        RegisterRanges::parse(self.register_info()?)
    }

    /// The instructions (empty without code).
    pub fn instructions(&self) -> &[Instruction] {
        self.code().map_or(&[], |c| &c.instructions)
    }

    /// A listing: the literals, the inputs of the constant table, one instruction a line.
    pub fn listing(&self) -> String {
        let mut out = String::new();
        let literals: Vec<f64> = self.literals().map_or(Vec::new(), |l| l.as_f64().collect());
        if let Some(t) = self.constant_table() {
            for c in &t.constants {
                let set = c.register_set().map_or("?", |s| s.prefix());
                let _ = writeln!(
                    out,
                    "// {:<20} {}{} {}",
                    c.name.as_str(),
                    set,
                    c.register_index,
                    c.register_count
                );
            }
        }
        let kind = if self.version == PRESHADER_VERSION {
            "preshader"
        } else {
            "expression"
        };
        let _ = writeln!(out, "{kind}");
        for ins in self.instructions() {
            let op = ins.opcode();
            let n = ins.components();
            let out_n = if op.reduces() { 1 } else { n };
            let _ = write!(
                out,
                "{} {}",
                op.mnemonic(),
                operand_text(&ins.output, out_n, &literals)
            );
            for (k, input) in ins.inputs.iter().enumerate() {
                let count = if ins.scalar() && k == 0 { 1 } else { n };
                let _ = write!(out, ", {}", operand_text(input, count, &literals));
            }
            out.push('\n');
        }
        out
    }
}

fn operand_text(op: &Operand, count: u32, literals: &[f64]) -> String {
    const XYZW: [char; 4] = ['x', 'y', 'z', 'w'];
    let reg = op.register;
    if reg.table == Table::Immediate && op.index.is_none() {
        let values: Vec<String> = (0..count)
            .map(|i| {
                // Offsets are read from input: one past u32::MAX names no literal.
                reg.offset
                    .checked_add(i)
                    .and_then(|k| literals.get(k as usize))
                    .map_or_else(|| "?".to_string(), |v| format!("{v}"))
            })
            .collect();
        return format!("({})", values.join(", "));
    }
    let mut s = match op.index {
        None => format!("{}{}", reg.table.prefix(), reg.index()),
        Some(ix) => format!(
            "{}[{} + {}{}.{}]",
            reg.table.prefix(),
            reg.index(),
            ix.table.prefix(),
            ix.index(),
            XYZW[ix.component() as usize]
        ),
    };
    if reg.table != Table::BoolOutput {
        s.push('.');
        for i in 0..count {
            s.push(XYZW[(reg.offset.wrapping_add(i) % 4) as usize]);
        }
    }
    s
}

impl Register {
    /// The register number (`c3.y` is 3; for the bool table too, whose offsets are also
    /// stored four to a register).
    pub fn index(&self) -> u32 {
        self.offset / 4
    }

    /// The component (`c3.y` is 1; 0 for bools).
    pub fn component(&self) -> u32 {
        if self.table == Table::BoolOutput {
            0
        } else {
            self.offset % 4
        }
    }
}

impl Section {
    fn parse(payload: &[u32], base: usize) -> Result<Section, FxError> {
        let mut r = Words {
            words: payload,
            pos: 1,
            base,
        };
        let Some(&fourcc) = payload.first() else {
            return Ok(Section::Other(Vec::new()));
        };
        Ok(match fourcc {
            dxso::ctab::CTAB_FOURCC => Section::ConstantTable(
                ConstantTable::parse(payload).map_err(|e| r.err(0, ProgramErrorKind::Ctab(e)))?,
            ),
            CLIT_FOURCC => {
                let count = r.next("CLIT", 1)?;
                let needed = 2 * count as u64;
                if needed > (payload.len() - 2) as u64 {
                    return Err(r.err(
                        1,
                        ProgramErrorKind::ShortSection {
                            what: "CLIT",
                            needed,
                            available: payload.len() - 2,
                        },
                    ));
                }
                let end = 2 + needed as usize;
                let values = payload[2..end]
                    .chunks_exact(2)
                    .map(|p| p[0] as u64 | (p[1] as u64) << 32)
                    .collect();
                Section::Literals(Literals {
                    values,
                    extra: payload[end..].to_vec(),
                })
            }
            FXLC_FOURCC => {
                let count = r.next("FXLC", 1)?;
                // Every instruction takes at least 2 + 3 words.
                if count as u64 * 5 > (payload.len() - 2) as u64 {
                    return Err(r.err(
                        1,
                        ProgramErrorKind::ShortSection {
                            what: "FXLC",
                            needed: count as u64 * 5,
                            available: payload.len() - 2,
                        },
                    ));
                }
                let mut instructions = Vec::with_capacity(count as usize);
                for index in 0..count as usize {
                    instructions.push(parse_instruction(&mut r, index)?);
                }
                Section::Code(Code {
                    instructions,
                    extra: payload[r.pos..].to_vec(),
                })
            }
            PRSI_FOURCC => Section::RegisterInfo(payload[1..].to_vec()),
            _ => Section::Other(payload.to_vec()),
        })
    }

    fn to_words(&self) -> Vec<u32> {
        match self {
            Section::ConstantTable(t) => t.to_words(),
            Section::Literals(l) => {
                let mut out = vec![CLIT_FOURCC, l.values.len() as u32];
                for &v in &l.values {
                    out.push(v as u32);
                    out.push((v >> 32) as u32);
                }
                out.extend_from_slice(&l.extra);
                out
            }
            Section::Code(c) => {
                let mut out = vec![FXLC_FOURCC, c.instructions.len() as u32];
                for ins in &c.instructions {
                    out.push(ins.word);
                    out.push(ins.inputs.len() as u32);
                    for op in ins.inputs.iter().chain(std::iter::once(&ins.output)) {
                        match op.index {
                            Some(ix) => out.extend([1, ix.table.raw(), ix.offset]),
                            None => out.push(0),
                        }
                        out.extend([op.register.table.raw(), op.register.offset]);
                    }
                }
                out.extend_from_slice(&c.extra);
                out
            }
            Section::RegisterInfo(w) => {
                let mut out = vec![PRSI_FOURCC];
                out.extend_from_slice(w);
                out
            }
            Section::Other(w) => w.clone(),
        }
    }
}

fn parse_instruction(r: &mut Words, index: usize) -> Result<Instruction, FxError> {
    let at = r.pos;
    let word = r.next("FXLC instruction", 2)?;
    let inputs = r.next("FXLC instruction", 1)?;
    let opcode = (word >> 20) & 0x7FF;
    if Opcode::lookup(opcode, inputs).is_none() {
        return Err(r.err(
            at,
            ProgramErrorKind::UnknownOpcode {
                index,
                opcode,
                inputs,
            },
        ));
    }
    let count = word & 0xFFFF;
    if !(1..=4).contains(&count) {
        return Err(r.err(at, ProgramErrorKind::ComponentCount { index, count }));
    }
    let mut operands = Vec::with_capacity(inputs as usize);
    for _ in 0..inputs {
        operands.push(parse_operand(r, index)?);
    }
    let out_at = r.pos;
    let output = parse_operand(r, index)?;
    if output.index.is_some() {
        return Err(r.err(
            out_at,
            ProgramErrorKind::BadOutput {
                index,
                reason: "is relatively addressed",
            },
        ));
    }
    if matches!(
        output.register.table,
        Table::Immediate | Table::Constant | Table::Input
    ) {
        return Err(r.err(
            out_at,
            ProgramErrorKind::BadOutput {
                index,
                reason: "is in an input table (immediate, c or v)",
            },
        ));
    }
    Ok(Instruction {
        word,
        inputs: operands,
        output,
    })
}

fn parse_operand(r: &mut Words, index: usize) -> Result<Operand, FxError> {
    let at = r.pos;
    let flag = r.next("FXLC operand", 3)?;
    let relative = match flag {
        0 => None,
        1 => Some(parse_register(r, index)?),
        _ => return Err(r.err(at, ProgramErrorKind::RelativeFlag { index, flag })),
    };
    Ok(Operand {
        index: relative,
        register: parse_register(r, index)?,
    })
}

fn parse_register(r: &mut Words, index: usize) -> Result<Register, FxError> {
    let at = r.pos;
    let raw = r.next("FXLC register", 2)?;
    let table = Table::from_raw(raw)
        .ok_or_else(|| r.err(at, ProgramErrorKind::RegisterTable { index, table: raw }))?;
    let offset = r.next("FXLC register", 1)?;
    let max = MAX_REGISTERS * 4 - 1;
    if offset > max {
        return Err(r.err(
            at + 1,
            ProgramErrorKind::RegisterOffset { index, offset, max },
        ));
    }
    Ok(Register { table, offset })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `mov oc0.x, c0.x` with a given instruction word, table and flag.
    fn program(word: u32, inputs: u32, flag: u32, table: u32, out_table: u32) -> Vec<u32> {
        let mut fxlc = vec![FXLC_FOURCC, 1, word, inputs];
        for _ in 0..inputs {
            fxlc.extend([flag, table, 0]);
            if flag == 1 {
                fxlc.extend([2, 0]);
            }
        }
        fxlc.extend([0, out_table, 0]);
        let mut w = vec![EXPRESSION_VERSION, 0xFFFE | (fxlc.len() as u32) << 16];
        w.extend(fxlc);
        w.push(0xFFFF);
        w
    }

    fn kind(words: &[u32]) -> (usize, ProgramErrorKind) {
        let e = Program::parse_words(words, 0x100).unwrap_err();
        match e.kind {
            FxErrorKind::Program(k) => (e.offset, k),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn programs_round_trip() {
        let words = program(0x1000_0001, 1, 0, 2, 4);
        let p = Program::parse_words(&words, 0).unwrap();
        assert_eq!(p.instructions()[0].opcode(), Opcode::Mov);
        assert_eq!(p.to_words(), words);
        assert_eq!(p.listing(), "expression\nmov oc0.x, c0.x\n");
    }

    #[test]
    fn broken_programs_name_the_word_and_rule() {
        // The instruction word is word 4, at byte 0x100 + 16.
        assert_eq!(
            kind(&program(0x2070_0001, 2, 0, 2, 4)),
            (
                0x110,
                ProgramErrorKind::UnknownOpcode {
                    index: 0,
                    opcode: 0x207,
                    inputs: 2
                }
            )
        );
        assert_eq!(
            kind(&program(0x1000_0000, 1, 0, 2, 4)),
            (
                0x110,
                ProgramErrorKind::ComponentCount { index: 0, count: 0 }
            )
        );
        assert_eq!(
            kind(&program(0x1000_0001, 1, 2, 2, 4)),
            (0x118, ProgramErrorKind::RelativeFlag { index: 0, flag: 2 })
        );
        assert_eq!(
            kind(&program(0x1000_0001, 1, 0, 9, 4)),
            (
                0x11c,
                ProgramErrorKind::RegisterTable { index: 0, table: 9 }
            )
        );
        assert!(matches!(
            kind(&program(0x1000_0001, 1, 0, 2, 2)).1,
            ProgramErrorKind::BadOutput { .. }
        ));
        let mut cut = program(0x1000_0001, 1, 0, 2, 4);
        cut[1] = 0xFFFE | 100 << 16;
        assert!(matches!(
            kind(&cut).1,
            ProgramErrorKind::SectionLength { len: 100, .. }
        ));
        assert!(matches!(
            kind(&[0x1234_5678]).1,
            ProgramErrorKind::BadVersion(0x1234_5678)
        ));
        let short_clit = [EXPRESSION_VERSION, 0x0002_FFFE, CLIT_FOURCC, 5, 0xFFFF];
        assert!(matches!(
            kind(&short_clit).1,
            ProgramErrorKind::ShortSection { what: "CLIT", .. }
        ));
        // A huge instruction count is refused before anything is reserved.
        let huge = [
            EXPRESSION_VERSION,
            0x0002_FFFE,
            FXLC_FOURCC,
            u32::MAX,
            0xFFFF,
        ];
        assert!(matches!(
            kind(&huge).1,
            ProgramErrorKind::ShortSection { what: "FXLC", .. }
        ));
    }

    #[test]
    fn register_ranges_read_the_prsi_layout() {
        // ColorEncoder's pixel preshader: floats c0-c3 and c7-c9, bools b0-b2.
        let w = [0, 0, 0, 10, 3, 0, 2, 0, 4, 7, 3, 1, 0, 3, 0];
        let r = RegisterRanges::parse(&w).unwrap();
        assert_eq!(r.count, [10, 3, 0]);
        assert_eq!(r.ranges[0], [(0, 4), (7, 3)]);
        assert_eq!(r.ranges[1], [(0, 3)]);
        assert!(RegisterRanges::parse(&w[..14]).is_none());
    }
}
