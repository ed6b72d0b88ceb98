//! A borrowing view of a CTAB constant table, for readers that look at a table once and keep
//! nothing of it (a disassembler's header): the same checks and errors as
//! [`ConstantTable::parse_without_layout`], but no `String`, `Vec` or [`TypeInfo`] per object.
//! Names are slices of the comment payload and types are read from their records on demand.
//!
//! [`ConstantTable`] stays the model to edit and re-encode; a test compares the two over every
//! corpus table and over damaged ones.
//!
//! [`ConstantTable::parse_without_layout`]: crate::ctab::ConstantTable::parse_without_layout
//! [`ConstantTable`]: crate::ctab::ConstantTable
//! [`TypeInfo`]: crate::ctab::TypeInfo

use crate::ctab::{is_ctab, CtabError, ParameterClass, ParameterType, RegisterSet};
use crate::table::{
    self, TableError, MAX_OBJECTS_PER_BYTE, MAX_TEXT_PER_BYTE, MAX_TYPE_DEPTH, MEMBER_INFO_SIZE,
    TYPE_INFO_SIZE,
};
use std::borrow::Cow;

const HEADER_SIZE: u32 = 28;
const CONSTANT_INFO_SIZE: u32 = 20;

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

/// The string at a checked offset.
fn string_at(bytes: &[u8], offset: u32) -> &[u8] {
    let rest = &bytes[offset as usize..];
    &rest[..nul_position(rest).unwrap_or(rest.len())]
}

/// Where the first NUL of `b` is, tested eight bytes at a time (the creator string runs to 50
/// bytes, file names to a hundred; a byte at a time cost more than the rest of the checks).
fn nul_position(b: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut chunks = b.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let x = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        // The high bit of every zero byte (and maybe of bytes above the lowest one: a borrow
        // runs upwards only, so the lowest flag is exact).
        let zeros = x.wrapping_sub(ONES) & !x & (ONES * 0x80);
        if zeros != 0 {
            return Some(at + zeros.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&c| c == 0)
        .map(|i| at + i)
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
