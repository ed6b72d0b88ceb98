//! Borrowing views of the CTAB constant table and the DBUG debug table, for readers that look
//! at a table once and keep nothing of it (a disassembler's header and `#line` directives):
//! the same checks and errors as [`ConstantTable::parse_without_layout`] and
//! [`DebugInfo::parse_without_layout`], but no `String`, `Vec` or [`TypeInfo`] per object.
//! Names are slices of the comment payload and records are read on demand.
//!
//! [`ConstantTable`] and [`DebugInfo`] stay the models to edit and re-encode; tests compare
//! the views with them over every corpus table and over damaged ones.
//!
//! [`ConstantTable::parse_without_layout`]: crate::ctab::ConstantTable::parse_without_layout
//! [`DebugInfo::parse_without_layout`]: crate::dbug::DebugInfo::parse_without_layout
//! [`ConstantTable`]: crate::ctab::ConstantTable
//! [`DebugInfo`]: crate::dbug::DebugInfo
//! [`TypeInfo`]: crate::ctab::TypeInfo

use crate::ctab::{is_ctab, CtabError, ParameterClass, ParameterType, RegisterSet};
use crate::dbug::{is_dbug, DbugError, InstructionInfo, VariableWrite};
use crate::table::{
    self, TableError, MAX_OBJECTS_PER_BYTE, MAX_TEXT_PER_BYTE, MAX_TYPE_DEPTH, MEMBER_INFO_SIZE,
    TYPE_INFO_SIZE,
};
use std::borrow::Cow;

const HEADER_SIZE: u32 = 28;
const CONSTANT_INFO_SIZE: u32 = 20;
const DBUG_HEADER_SIZE: u32 = crate::dbug::HEADER_SIZE;
const FILE_INFO_SIZE: u32 = 4;
const INSTRUCTION_INFO_SIZE: u32 = 8;
const VARIABLE_INFO_SIZE: u32 = 20;
const WRITE_INFO_SIZE: u32 = 12;

/// A checked CTAB payload read in place.
#[derive(Clone, Debug)]
pub struct ConstantTableView<'a> {
    bytes: Cow<'a, [u8]>,
}

impl<'a> ConstantTableView<'a> {
    /// Checks a comment payload that starts with `CTAB` as
    /// [`ConstantTable::parse`](crate::ctab::ConstantTable::parse) does: the same tables are
    /// accepted and the same errors returned.
    pub fn parse(comment: &'a [u32]) -> Result<Self, CtabError> {
        if !is_ctab(comment) {
            return Err(CtabError::NotCtab);
        }
        let bytes = table::payload_bytes(comment);
        Checker::new(&bytes).table()?;
        Ok(ConstantTableView { bytes })
    }

    fn word(&self, index: usize) -> u32 {
        table::u32_at(&self.bytes, 4 * index)
    }

    /// The compiler that wrote the table, as bytes without the NUL.
    pub fn creator(&self) -> &[u8] {
        string_at(&self.bytes, self.word(1))
    }

    /// The shader version token the table was built for.
    pub fn version(&self) -> u32 {
        self.word(2)
    }

    /// `D3DXSHADER_*` compile flags.
    pub fn flags(&self) -> u32 {
        self.word(5)
    }

    /// The target profile (`vs_2_0`), as bytes without the NUL.
    pub fn target(&self) -> &[u8] {
        string_at(&self.bytes, self.word(6))
    }

    /// The number of constants.
    pub fn constant_count(&self) -> usize {
        self.word(3) as usize
    }

    /// The constants in table order.
    pub fn constants(&self) -> impl ExactSizeIterator<Item = ConstantView<'_>> + '_ {
        let count = self.constant_count();
        let records = if count == 0 {
            &[][..]
        } else {
            let start = self.word(4) as usize;
            &self.bytes[start..start + count * CONSTANT_INFO_SIZE as usize]
        };
        records
            .chunks_exact(CONSTANT_INFO_SIZE as usize)
            .map(|record| ConstantView {
                bytes: &self.bytes,
                record,
            })
    }
}

/// One constant (`D3DXSHADER_CONSTANTINFO`) of a [`ConstantTableView`].
#[derive(Clone, Copy, Debug)]
pub struct ConstantView<'t> {
    bytes: &'t [u8],
    record: &'t [u8],
}

impl<'t> ConstantView<'t> {
    /// The uniform's name, as bytes without the NUL.
    pub fn name(&self) -> &'t [u8] {
        string_at(self.bytes, table::u32_at(self.record, 0))
    }

    /// `D3DXREGISTER_SET` as encoded; see [`ConstantView::register_set`].
    pub fn register_set_raw(&self) -> u16 {
        table::u16_at(self.record, 4)
    }

    /// The register set, when the raw value is one.
    pub fn register_set(&self) -> Option<RegisterSet> {
        RegisterSet::from_raw(self.register_set_raw())
    }

    /// First register.
    pub fn register_index(&self) -> u16 {
        table::u16_at(self.record, 6)
    }

    /// Number of registers.
    pub fn register_count(&self) -> u16 {
        table::u16_at(self.record, 8)
    }

    /// The type.
    pub fn ty(&self) -> TypeView<'t> {
        type_at(self.bytes, table::u32_at(self.record, 12))
    }
}

/// A `D3DXSHADER_TYPEINFO` record of a [`ConstantTableView`].
#[derive(Clone, Copy, Debug)]
pub struct TypeView<'t> {
    bytes: &'t [u8],
    record: &'t [u8],
}

impl<'t> TypeView<'t> {
    fn field(&self, index: usize) -> u16 {
        table::u16_at(self.record, 2 * index)
    }

    /// `D3DXPARAMETER_CLASS` as encoded; see [`TypeView::class`].
    pub fn class_raw(&self) -> u16 {
        self.field(0)
    }

    /// `D3DXPARAMETER_TYPE` as encoded; see [`TypeView::ty`].
    pub fn type_raw(&self) -> u16 {
        self.field(1)
    }

    /// The class, when the raw value is one.
    pub fn class(&self) -> Option<ParameterClass> {
        ParameterClass::from_raw(self.class_raw())
    }

    /// The type, when the raw value is one.
    pub fn ty(&self) -> Option<ParameterType> {
        ParameterType::from_raw(self.type_raw())
    }

    /// Rows.
    pub fn rows(&self) -> u16 {
        self.field(2)
    }

    /// Columns.
    pub fn columns(&self) -> u16 {
        self.field(3)
    }

    /// Array elements (1 for a non-array).
    pub fn elements(&self) -> u16 {
        self.field(4)
    }

    /// The struct members (none unless the class is struct), as (name, type).
    pub fn members(&self) -> impl ExactSizeIterator<Item = (&'t [u8], TypeView<'t>)> + 't {
        let count = self.field(5) as usize;
        let bytes = self.bytes;
        let list = if count == 0 {
            &[][..]
        } else {
            let start = table::u32_at(self.record, 12) as usize;
            &bytes[start..start + count * MEMBER_INFO_SIZE as usize]
        };
        list.chunks_exact(MEMBER_INFO_SIZE as usize).map(move |m| {
            (
                string_at(bytes, table::u32_at(m, 0)),
                type_at(bytes, table::u32_at(m, 4)),
            )
        })
    }
}

/// A checked DBUG payload read in place.
#[derive(Clone, Debug)]
pub struct DebugInfoView<'a> {
    bytes: Cow<'a, [u8]>,
}

impl<'a> DebugInfoView<'a> {
    /// Checks a comment payload that starts with `DBUG` as
    /// [`DebugInfo::parse`](crate::dbug::DebugInfo::parse) does: the same tables are accepted
    /// and the same errors returned.
    pub fn parse(comment: &'a [u32]) -> Result<Self, DbugError> {
        if !is_dbug(comment) {
            return Err(DbugError::NotDbug);
        }
        let bytes = table::payload_bytes(comment);
        Checker::new(&bytes).debug_table()?;
        Ok(DebugInfoView { bytes })
    }

    fn word(&self, index: usize) -> u32 {
        table::u32_at(&self.bytes, 4 * index)
    }

    /// A checked array of the header's `count` word and `offset` word.
    fn array(&self, count: usize, offset: usize, size: u32) -> &[u8] {
        let n = self.word(count) as usize;
        if n == 0 {
            return &[];
        }
        let start = self.word(offset) as usize;
        &self.bytes[start..start + n * size as usize]
    }

    fn optional_string(&self, index: usize) -> Option<&[u8]> {
        let offset = self.word(index);
        (offset != 0).then(|| string_at(&self.bytes, offset))
    }

    /// The source file names, as bytes without the NUL.
    pub fn files(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        self.array(3, 4, FILE_INFO_SIZE)
            .chunks_exact(FILE_INFO_SIZE as usize)
            .map(|b| string_at(&self.bytes, table::u32_at(b, 0)))
    }

    /// The name of file `index`.
    pub fn file(&self, index: usize) -> Option<&[u8]> {
        let b = self
            .array(3, 4, FILE_INFO_SIZE)
            .chunks_exact(FILE_INFO_SIZE as usize)
            .nth(index)?;
        Some(string_at(&self.bytes, table::u32_at(b, 0)))
    }

    /// The number of instruction records.
    pub fn instruction_count(&self) -> usize {
        self.word(5) as usize
    }

    /// The instruction records in order (one per instruction, comments not counted).
    pub fn instructions(&self) -> impl ExactSizeIterator<Item = InstructionInfo> + '_ {
        self.array(5, 6, INSTRUCTION_INFO_SIZE)
            .chunks_exact(INSTRUCTION_INFO_SIZE as usize)
            .map(|b| InstructionInfo {
                line: table::u16_at(b, 0),
                file: table::u16_at(b, 2),
                offset: table::u32_at(b, 4),
            })
    }

    /// The record of instruction `index` (comments not counted).
    pub fn instruction(&self, index: usize) -> Option<InstructionInfo> {
        let b = self
            .array(5, 6, INSTRUCTION_INFO_SIZE)
            .chunks_exact(INSTRUCTION_INFO_SIZE as usize)
            .nth(index)?;
        Some(InstructionInfo {
            line: table::u16_at(b, 0),
            file: table::u16_at(b, 2),
            offset: table::u32_at(b, 4),
        })
    }

    /// The variables in table order.
    pub fn variables(&self) -> impl ExactSizeIterator<Item = VariableView<'_>> + '_ {
        self.array(7, 8, VARIABLE_INFO_SIZE)
            .chunks_exact(VARIABLE_INFO_SIZE as usize)
            .map(|record| VariableView {
                bytes: &self.bytes,
                record,
            })
    }

    /// Variable `index`.
    pub fn variable(&self, index: usize) -> Option<VariableView<'_>> {
        self.variables().nth(index)
    }

    /// The entry point's name, when the table has one.
    pub fn entry_point(&self) -> Option<&[u8]> {
        self.optional_string(9)
    }

    /// The compiler that wrote the table, when it says.
    pub fn creator(&self) -> Option<&[u8]> {
        self.optional_string(1)
    }

    /// The HLSL source, when the table carries it.
    pub fn source_code(&self) -> Option<&[u8]> {
        self.optional_string(2)
    }
}

/// A `D3DXSHADER_VARIABLEINFO` record of a [`DebugInfoView`].
#[derive(Clone, Copy, Debug)]
pub struct VariableView<'t> {
    bytes: &'t [u8],
    record: &'t [u8],
}

impl<'t> VariableView<'t> {
    /// The function the variable is a parameter of (see
    /// [`Variable::scope`](crate::dbug::Variable::scope)).
    pub fn scope(&self) -> Option<&'t [u8]> {
        let offset = table::u32_at(self.record, 0);
        (offset != 0).then(|| string_at(self.bytes, offset))
    }

    /// The variable's name.
    pub fn name(&self) -> &'t [u8] {
        string_at(self.bytes, table::u32_at(self.record, 4))
    }

    /// The variable's type.
    pub fn ty(&self) -> TypeView<'t> {
        type_at(self.bytes, table::u32_at(self.record, 8))
    }

    /// The instructions that write the variable.
    pub fn writes(&self) -> impl ExactSizeIterator<Item = VariableWrite> + 't {
        let count = table::u32_at(self.record, 12) as usize;
        let list = if count == 0 {
            &[][..]
        } else {
            let start = table::u32_at(self.record, 16) as usize;
            &self.bytes[start..start + count * WRITE_INFO_SIZE as usize]
        };
        list.chunks_exact(WRITE_INFO_SIZE as usize)
            .map(|w| VariableWrite {
                instruction: table::u32_at(w, 0),
                components: std::array::from_fn(|i| table::u16_at(w, 4 + 2 * i)),
            })
    }
}

/// The string at a checked offset.
fn string_at(bytes: &[u8], offset: u32) -> &[u8] {
    let rest = &bytes[offset as usize..];
    &rest[..nul_position(rest).unwrap_or(rest.len())]
}

/// Where the first NUL of `b` is, tested eight bytes at a time (the creator string runs to 50
/// bytes, file names to a hundred; a byte at a time cost more than the rest of the checks).
fn nul_position(b: &[u8]) -> Option<usize> {
    crate::swar::first_in_class(b, crate::swar::zero_bytes, |c| c == 0)
}

/// The type record at a checked offset.
fn type_at(bytes: &[u8], offset: u32) -> TypeView<'_> {
    let start = offset as usize;
    TypeView {
        bytes,
        record: &bytes[start..start + TYPE_INFO_SIZE as usize],
    }
}

/// Walks a table in the order [`ConstantTable`](crate::ctab::ConstantTable)'s reader does,
/// with its bounds checks and limits, so that the first problem met is the one it reports.
struct Checker<'a> {
    bytes: &'a [u8],
    /// Type records still allowed (see [`MAX_OBJECTS_PER_BYTE`]).
    budget: usize,
    /// String bytes still allowed (see [`MAX_TEXT_PER_BYTE`]).
    text_budget: usize,
}

impl<'a> Checker<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Checker {
            bytes,
            budget: Self::object_limit(bytes.len()),
            text_budget: Self::text_limit(bytes.len()),
        }
    }

    fn object_limit(len: usize) -> usize {
        len * MAX_OBJECTS_PER_BYTE + 64
    }

    fn text_limit(len: usize) -> usize {
        len * MAX_TEXT_PER_BYTE + 4096
    }

    fn table(&mut self) -> Result<(), CtabError> {
        let bytes = self.bytes;
        if bytes.len() < HEADER_SIZE as usize {
            return Err(CtabError::TruncatedHeader(bytes.len()));
        }
        let h: [u32; 7] = std::array::from_fn(|i| table::u32_at(bytes, 4 * i));
        let [_, creator_off, _, count, info_off, _, target_off] = h;
        self.string(creator_off)?;
        self.string(target_off)?;
        let infos = self.array("constant infos", info_off, count, CONSTANT_INFO_SIZE)?;
        for b in infos.chunks_exact(CONSTANT_INFO_SIZE as usize) {
            self.string(table::u32_at(b, 0))?;
            let register_count = table::u16_at(b, 8);
            self.type_info(table::u32_at(b, 12), 0)?;
            let default_off = table::u32_at(b, 16);
            if default_off != 0 {
                self.span("default value", default_off, register_count as u32 * 16)?;
            }
        }
        Ok(())
    }

    fn debug_table(&mut self) -> Result<(), DbugError> {
        let bytes = self.bytes;
        if bytes.len() < DBUG_HEADER_SIZE as usize {
            return Err(DbugError::TruncatedHeader(bytes.len()));
        }
        let h: [u32; 10] = std::array::from_fn(|i| table::u32_at(bytes, 4 * i));
        let [_, creator, source_code, file_count, file_off, instruction_count, instruction_off, variable_count, variable_off, entry_point] =
            h;
        let files = self.array("file infos", file_off, file_count, FILE_INFO_SIZE)?;
        for b in files.chunks_exact(FILE_INFO_SIZE as usize) {
            self.string(table::u32_at(b, 0))?;
        }
        self.array(
            "instruction infos",
            instruction_off,
            instruction_count,
            INSTRUCTION_INFO_SIZE,
        )?;
        let variables = self.array(
            "variable infos",
            variable_off,
            variable_count,
            VARIABLE_INFO_SIZE,
        )?;
        for b in variables.chunks_exact(VARIABLE_INFO_SIZE as usize) {
            self.optional_string(table::u32_at(b, 0))?;
            self.string(table::u32_at(b, 4))?;
            self.type_info(table::u32_at(b, 8), 0)?;
            self.array(
                "write infos",
                table::u32_at(b, 16),
                table::u32_at(b, 12),
                WRITE_INFO_SIZE,
            )?;
        }
        self.optional_string(entry_point)?;
        self.optional_string(creator)?;
        self.optional_string(source_code)?;
        Ok(())
    }

    fn optional_string(&mut self, offset: u32) -> Result<(), TableError> {
        if offset == 0 {
            return Ok(());
        }
        self.string(offset)
    }

    fn span(&self, what: &'static str, offset: u32, len: u32) -> Result<&'a [u8], TableError> {
        let end = offset as u64 + len as u64;
        if end > self.bytes.len() as u64 {
            return Err(self.out_of_bounds(what, offset, len));
        }
        Ok(&self.bytes[offset as usize..end as usize])
    }

    fn out_of_bounds(&self, what: &'static str, offset: u32, len: u32) -> TableError {
        TableError::OutOfBounds {
            what,
            offset,
            len,
            size: self.bytes.len() as u32,
        }
    }

    fn array(
        &self,
        what: &'static str,
        offset: u32,
        count: u32,
        size: u32,
    ) -> Result<&'a [u8], TableError> {
        if count == 0 {
            return Ok(&[]);
        }
        let len = count
            .checked_mul(size)
            .ok_or(self.out_of_bounds(what, offset, u32::MAX))?;
        self.span(what, offset, len)
    }

    fn string(&mut self, offset: u32) -> Result<(), TableError> {
        let rest = self
            .bytes
            .get(offset as usize..)
            .ok_or(self.out_of_bounds("string", offset, 1))?;
        let len = nul_position(rest).ok_or(TableError::UnterminatedString(offset))?;
        self.text_budget = self
            .text_budget
            .checked_sub(len)
            .ok_or(TableError::TooMuchText(
                offset,
                Self::text_limit(self.bytes.len()),
            ))?;
        Ok(())
    }

    fn type_info(&mut self, offset: u32, depth: usize) -> Result<(), TableError> {
        if depth > MAX_TYPE_DEPTH {
            return Err(TableError::TooDeep(offset));
        }
        self.budget = self
            .budget
            .checked_sub(1)
            .ok_or(TableError::TooManyObjects(
                offset,
                Self::object_limit(self.bytes.len()),
            ))?;
        let b = self.span("type info", offset, TYPE_INFO_SIZE)?;
        let count = table::u16_at(b, 10) as u32;
        let list = self.array(
            "struct members",
            table::u32_at(b, 12),
            count,
            MEMBER_INFO_SIZE,
        )?;
        for m in list.chunks_exact(MEMBER_INFO_SIZE as usize) {
            self.string(table::u32_at(m, 0))?;
            self.type_info(table::u32_at(m, 4), depth + 1)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ctab::{ConstantTable, TypeInfo};
    use proptest::prelude::*;

    fn same_type(view: TypeView<'_>, owned: &TypeInfo) {
        assert_eq!(view.class_raw(), owned.class_raw);
        assert_eq!(view.type_raw(), owned.type_raw);
        assert_eq!(view.rows(), owned.rows);
        assert_eq!(view.columns(), owned.columns);
        assert_eq!(view.elements(), owned.elements);
        assert_eq!(view.members().len(), owned.members.len());
        for ((name, ty), m) in view.members().zip(&owned.members) {
            assert_eq!(name, &m.name.0[..]);
            same_type(ty, &m.ty);
        }
    }

    /// The view accepts what the owned reader accepts, fails as it fails, and reads the same.
    pub(crate) fn agrees(comment: &[u32]) -> bool {
        let owned = ConstantTable::parse_without_layout(comment);
        let view = ConstantTableView::parse(comment);
        match (&owned, &view) {
            (Ok(t), Ok(v)) => {
                assert_eq!(v.creator(), &t.creator.0[..]);
                assert_eq!(v.target(), &t.target.0[..]);
                assert_eq!(v.version(), t.version);
                assert_eq!(v.flags(), t.flags);
                assert_eq!(v.constants().len(), t.constants.len());
                for (c, o) in v.constants().zip(&t.constants) {
                    assert_eq!(c.name(), &o.name.0[..]);
                    assert_eq!(c.register_set_raw(), o.register_set_raw);
                    assert_eq!(c.register_set(), o.register_set());
                    assert_eq!(c.register_index(), o.register_index);
                    assert_eq!(c.register_count(), o.register_count);
                    same_type(c.ty(), &o.ty);
                }
                true
            }
            (Err(a), Err(b)) => {
                assert_eq!(a, b);
                false
            }
            _ => panic!("owned {owned:?}, view {view:?}"),
        }
    }

    fn sample() -> Vec<u32> {
        use crate::ctab::{Constant, CtabString, StructMember};
        let float4 = TypeInfo {
            class_raw: 1,
            type_raw: 3,
            rows: 1,
            columns: 4,
            elements: 1,
            members: Vec::new(),
        };
        let light = TypeInfo {
            class_raw: 5,
            type_raw: 0,
            rows: 1,
            columns: 8,
            elements: 2,
            members: vec![
                StructMember {
                    name: CtabString::from("pos"),
                    ty: float4.clone(),
                },
                StructMember {
                    name: CtabString::from("color"),
                    ty: float4.clone(),
                },
            ],
        };
        let table = ConstantTable {
            creator: CtabString::from("Microsoft (R) HLSL Shader Compiler 9.29.952.3111"),
            version: 0xFFFE_0300,
            target: CtabString::from("vs_3_0"),
            header_size: 28,
            constants: vec![
                Constant {
                    name: CtabString::from("lights"),
                    register_set_raw: 2,
                    register_index: 4,
                    register_count: 4,
                    ty: light,
                    ..Default::default()
                },
                Constant {
                    name: CtabString::from("tint"),
                    register_set_raw: 2,
                    register_count: 1,
                    ty: float4,
                    default_value: Some(vec![0; 4]),
                    ..Default::default()
                },
            ],
            ..Default::default()
        };
        table.to_words()
    }

    #[test]
    fn nul_search() {
        for len in 0..40 {
            for at in 0..=len {
                let mut b = vec![b'a'; len];
                if at < len {
                    b[at] = 0;
                    // Bytes past the first NUL (a borrow could flag them) change nothing.
                    b[at..].iter_mut().skip(1).step_by(3).for_each(|x| *x = 0);
                    b.iter_mut().take(at).step_by(2).for_each(|x| *x = 0x80);
                }
                let expected = b.iter().position(|&c| c == 0);
                assert_eq!(nul_position(&b), expected, "{b:?}");
            }
        }
    }

    #[test]
    fn reads_what_the_owned_table_reads() {
        assert!(agrees(&sample()));
    }

    #[test]
    fn damaged_tables_fail_as_the_owned_reader_fails() {
        let words = sample();
        assert_eq!(
            ConstantTableView::parse(&[0]).unwrap_err(),
            CtabError::NotCtab
        );
        assert!(!agrees(&words[..3]));
        let mut failures = 0;
        // Every DWORD of the table set to values that point outside it, at its end, or at 0.
        for i in 1..words.len() {
            for v in [0, 1, 0xFFFF, 0xFFFF_FFFF, 4 * words.len() as u32 - 4] {
                let mut w = words.clone();
                w[i] = v;
                failures += !agrees(&w) as usize;
            }
        }
        assert!(failures > 0, "no damaged table failed");
    }

    #[test]
    fn corpus_tables_read_the_same() {
        let Some(dir) = dxso_corpus::corpus_or_skip("corpus_tables_read_the_same") else {
            return;
        };
        let (mut tables, mut read) = (0, 0);
        for e in dxso_corpus::entries(&dir) {
            let Ok(shader) = crate::decode(&e.bytes()) else {
                continue;
            };
            for c in shader.comments().filter(|c| is_ctab(&c.data)) {
                tables += 1;
                read += agrees(&c.data) as usize;
            }
        }
        // `agrees` fails the test on any difference; the tables neither reader accepts (two
        // hand-damaged ones in the corpus) fail with the same error in both.
        println!(
            "CTAB views: {tables}/{tables} agree with the owned tables ({read} read, {} rejected by both)",
            tables - read
        );
        assert!(
            tables > 700,
            "expected the corpus's 700+ CTABs, found {tables}"
        );
        assert!(
            read + 2 >= tables,
            "expected at most 2 unreadable CTABs, found {}",
            tables - read
        );
    }

    /// The DBUG view accepts what the owned reader accepts, fails as it fails, and reads the
    /// same.
    pub(crate) fn debug_agrees(comment: &[u32]) -> bool {
        use crate::dbug::DebugInfo;
        let owned = DebugInfo::parse_without_layout(comment);
        let view = DebugInfoView::parse(comment);
        match (&owned, &view) {
            (Ok(t), Ok(v)) => {
                let bytes = |s: &Option<crate::ctab::CtabString>| s.as_ref().map(|s| s.0.clone());
                assert_eq!(v.creator().map(<[u8]>::to_vec), bytes(&t.creator));
                assert_eq!(v.source_code().map(<[u8]>::to_vec), bytes(&t.source_code));
                assert_eq!(v.entry_point().map(<[u8]>::to_vec), bytes(&t.entry_point));
                assert_eq!(v.files().len(), t.files.len());
                for (i, f) in t.files.iter().enumerate() {
                    assert_eq!(v.file(i), Some(&f.0[..]));
                }
                assert_eq!(v.file(t.files.len()), None);
                assert_eq!(v.instruction_count(), t.instructions.len());
                assert!(v.instructions().eq(t.instructions.iter().copied()));
                for (i, r) in t.instructions.iter().enumerate() {
                    assert_eq!(v.instruction(i), Some(*r));
                }
                assert_eq!(v.instruction(t.instructions.len()), None);
                assert_eq!(v.variables().len(), t.variables.len());
                for (i, o) in t.variables.iter().enumerate() {
                    let var = v.variable(i).unwrap();
                    assert_eq!(var.scope(), o.scope.as_ref().map(|s| &s.0[..]));
                    assert_eq!(var.name(), &o.name.0[..]);
                    same_type(var.ty(), &o.ty);
                    assert!(var.writes().eq(o.writes.iter().copied()));
                }
                true
            }
            (Err(a), Err(b)) => {
                assert_eq!(a, b);
                false
            }
            _ => panic!("owned {owned:?}, view {view:?}"),
        }
    }

    #[test]
    fn corpus_debug_tables_read_the_same() {
        let Some(dir) = dxso_corpus::corpus_or_skip("corpus_debug_tables_read_the_same") else {
            return;
        };
        let (mut tables, mut read) = (0, 0);
        let mut damaged = 0;
        for e in dxso_corpus::entries(&dir) {
            let Ok(shader) = crate::decode(&e.bytes()) else {
                continue;
            };
            for c in shader.comments().filter(|c| is_dbug(&c.data)) {
                tables += 1;
                read += debug_agrees(&c.data) as usize;
                // Damage a few DWORDs of each table (offsets and counts out of range).
                for i in 1..c.data.len().min(12) {
                    for v in [0, 7, 0xFFFF, 0xFFFF_FFFF] {
                        let mut w = c.data.clone();
                        w[i] = v;
                        damaged += !debug_agrees(&w) as usize;
                    }
                }
            }
        }
        println!("DBUG views: {read}/{tables} corpus tables read the same as the owned tables; {damaged} damaged ones fail alike");
        assert!(
            tables >= 121,
            "expected the corpus's 121 DBUG tables, found {tables}"
        );
        assert_eq!(read, tables, "every corpus DBUG table parses");
        assert!(damaged > 0, "no damaged table failed");
    }

    #[test]
    fn short_debug_tables_fail_alike() {
        use crate::dbug::DBUG_FOURCC;
        assert!(!debug_agrees(&[DBUG_FOURCC]));
        assert!(!debug_agrees(&[DBUG_FOURCC, 40]));
        assert_eq!(DebugInfoView::parse(&[0]).unwrap_err(), DbugError::NotDbug);
    }

    proptest! {
        #[test]
        fn random_damage_agrees(edits in proptest::collection::vec((1usize..64, any::<u32>()), 1..6)) {
            let mut w = sample();
            for (i, v) in edits {
                let i = 1 + i % (w.len() - 1);
                w[i] = v;
            }
            agrees(&w);
        }
    }
}
