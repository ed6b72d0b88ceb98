//! What the comment-block tables (CTAB, DBUG) have in common: a header of byte offsets into the
//! table, NUL-terminated strings, `D3DXSHADER_TYPEINFO` types with struct members, and arrays of
//! fixed-size records.
//!
//! Reading goes through a bounds-checked parser that records the offset of every object it
//! meets, in reading order, and which bytes those objects covered. That [`TableLayout`] lets a
//! writer put every object back where it was (the bytes no object covers, padding mostly, are
//! kept as they were), so an unchanged table re-encodes bit for bit. A table built in code, or
//! one whose number of objects changed, is laid out afresh instead: objects in reading order
//! after the fixed-size parts, strings packed, aligned objects padded with [`PAD_BYTE`].

use crate::type_info::{CtabString, StructMember, TypeInfo};
use std::borrow::Cow;

/// Size of a `D3DXSHADER_TYPEINFO` record.
pub(crate) const TYPE_INFO_SIZE: u32 = 16;
/// Size of a `D3DXSHADER_STRUCTMEMBERINFO` record.
pub(crate) const MEMBER_INFO_SIZE: u32 = 8;
/// Deepest struct nesting accepted (hostile tables could otherwise recurse forever).
pub const MAX_TYPE_DEPTH: usize = 32;
/// Objects (types, members, strings) a table may expand to per byte of table: a type shared by
/// many members is expanded once per use, so without a cap a small hostile table could describe
/// an exponential tree.
pub const MAX_OBJECTS_PER_BYTE: usize = 4;
/// String bytes a table may expand to per byte of table: every reference to a string copies
/// it, so without a cap thousands of 4-byte references to one long string (a file list, struct
/// members of a shared type) would allocate quadratically. Compilers' tables stay under one.
pub const MAX_TEXT_PER_BYTE: usize = 32;
/// The byte fxc pads strings with before the next aligned object.
pub const PAD_BYTE: u8 = 0xAB;

/// Why the objects of a table could not be read (the table-specific errors wrap this).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// An offset or an object behind it lies outside the table.
    #[error("{what} at byte offset {offset:#x} (+{len}) lies outside the {size}-byte table")]
    OutOfBounds {
        /// The object.
        what: &'static str,
        /// Its offset in the table.
        offset: u32,
        /// Its length.
        len: u32,
        /// The table size.
        size: u32,
    },
    /// A string has no terminating NUL inside the table.
    #[error("string at byte offset {0:#x} is not NUL-terminated inside the table")]
    UnterminatedString(u32),
    /// Struct members nest deeper than [`MAX_TYPE_DEPTH`] (or refer to themselves).
    #[error("struct type at byte offset {0:#x} nests deeper than {MAX_TYPE_DEPTH} levels")]
    TooDeep(u32),
    /// Shared struct types expand to more objects than [`MAX_OBJECTS_PER_BYTE`] allows.
    #[error("struct type at byte offset {0:#x} expands past {1} objects for this table size")]
    TooManyObjects(u32, usize),
    /// The strings referred to add up to more than [`MAX_TEXT_PER_BYTE`] allows.
    #[error("string at byte offset {0:#x} takes the text past {1} bytes for this table size")]
    TooMuchText(u32, usize),
}

/// Where every object of a parsed table sat and the bytes between them.
///
/// `offsets` lists one offset per object in reading order (each table's `parse` documents its
/// order); `background` is the table's bytes with every object's bytes cleared, so it holds
/// only padding and anything no offset reaches.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct TableLayout {
    /// Object offsets in reading order.
    pub offsets: Vec<u32>,
    /// The table bytes with the objects cleared.
    pub background: Vec<u8>,
}

/// The table bytes after a FOURCC, from a comment payload that starts with it: borrowed on
/// little-endian machines, where the DWORDs in memory already are those bytes.
pub(crate) fn payload_bytes(comment: &[u32]) -> Cow<'_, [u8]> {
    crate::words::le_bytes_of(&comment[1..])
}

/// A comment payload: the FOURCC, then the bytes zero-padded to whole DWORDs.
pub(crate) fn payload_words(fourcc: u32, bytes: &[u8]) -> Vec<u32> {
    let mut words = Vec::with_capacity(bytes.len() / 4 + 2);
    words.push(fourcc);
    // Whole DWORDs as fixed-size reads; only the last, partial one is copied by length.
    let chunks = bytes.chunks_exact(4);
    let rest = chunks.remainder();
    words.extend(chunks.map(|c| u32::from_le_bytes(c.try_into().expect("four bytes"))));
    if !rest.is_empty() {
        let mut w = [0u8; 4];
        w[..rest.len()].copy_from_slice(rest);
        words.push(u32::from_le_bytes(w));
    }
    words
}

pub(crate) fn u16_at(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[i], b[i + 1]])
}

pub(crate) fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

/// Bounds-checked reads that record the layout (unless made [`Parser::without_layout`]).
pub(crate) struct Parser<'a> {
    bytes: &'a [u8],
    /// Whether `covered` and `offsets` are kept; recording them costs about as much as the
    /// reading itself, and a reader that will not re-encode the table has no use for them.
    layout: bool,
    covered: Vec<bool>,
    offsets: Vec<u32>,
    /// Objects still allowed (see [`MAX_OBJECTS_PER_BYTE`]).
    budget: usize,
    /// String bytes still allowed (see [`MAX_TEXT_PER_BYTE`]).
    text_budget: usize,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Parser {
            bytes,
            layout: true,
            covered: vec![false; bytes.len()],
            offsets: Vec::new(),
            budget: Self::object_limit(bytes.len()),
            text_budget: Self::text_limit(bytes.len()),
        }
    }

    /// A parser that reads (with the same checks and limits) but records no layout.
    pub(crate) fn without_layout(bytes: &'a [u8]) -> Self {
        Parser {
            bytes,
            layout: false,
            covered: Vec::new(),
            offsets: Vec::new(),
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

    fn size(&self) -> u32 {
        self.bytes.len() as u32
    }

    /// Records `offset` as the next object of the layout.
    pub(crate) fn record(&mut self, offset: u32) {
        if self.layout {
            self.offsets.push(offset);
        }
    }

    /// Marks `start..end` as covered by an object.
    fn cover(&mut self, start: usize, end: usize) {
        if self.layout {
            self.covered[start..end].fill(true);
        }
    }

    /// The `len` bytes at `offset`, marked as covered.
    pub(crate) fn span(
        &mut self,
        what: &'static str,
        offset: u32,
        len: u32,
    ) -> Result<&'a [u8], TableError> {
        let end = offset as u64 + len as u64;
        if end > self.bytes.len() as u64 {
            return Err(TableError::OutOfBounds {
                what,
                offset,
                len,
                size: self.size(),
            });
        }
        self.cover(offset as usize, end as usize);
        Ok(&self.bytes[offset as usize..end as usize])
    }

    /// An array of `count` records of `size` bytes: recorded, bounds-checked, covered.
    pub(crate) fn array(
        &mut self,
        what: &'static str,
        offset: u32,
        count: u32,
        size: u32,
    ) -> Result<&'a [u8], TableError> {
        self.record(offset);
        if count == 0 {
            // An empty list may point anywhere: nothing is read there.
            return Ok(&[]);
        }
        let len = count.checked_mul(size).ok_or(TableError::OutOfBounds {
            what,
            offset,
            len: u32::MAX,
            size: self.size(),
        })?;
        self.span(what, offset, len)
    }

    /// The string at `offset`, recorded.
    pub(crate) fn string(&mut self, offset: u32) -> Result<CtabString, TableError> {
        self.record(offset);
        let start = offset as usize;
        let rest = self.bytes.get(start..).ok_or(TableError::OutOfBounds {
            what: "string",
            offset,
            len: 1,
            size: self.size(),
        })?;
        let len = rest
            .iter()
            .position(|&b| b == 0)
            .ok_or(TableError::UnterminatedString(offset))?;
        self.text_budget = self
            .text_budget
            .checked_sub(len)
            .ok_or(TableError::TooMuchText(
                offset,
                Self::text_limit(self.bytes.len()),
            ))?;
        let s = CtabString(rest[..len].to_vec());
        self.cover(start, start + len + 1);
        Ok(s)
    }

    /// The string at `offset`, or `None` for offset 0 (the header sits there, so no string
    /// can); only a present string is recorded.
    pub(crate) fn optional_string(
        &mut self,
        offset: u32,
    ) -> Result<Option<CtabString>, TableError> {
        if offset == 0 {
            return Ok(None);
        }
        self.string(offset).map(Some)
    }

    /// The type at `offset` with its members: records the type, then its member list, then
    /// each member's name and type.
    pub(crate) fn type_info(&mut self, offset: u32, depth: usize) -> Result<TypeInfo, TableError> {
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
        self.record(offset);
        let b = self.span("type info", offset, TYPE_INFO_SIZE)?;
        let fields: [u16; 6] = std::array::from_fn(|i| u16_at(b, 2 * i));
        let member_offset = u32_at(b, 12);
        let mut ty = TypeInfo {
            class_raw: fields[0],
            type_raw: fields[1],
            rows: fields[2],
            columns: fields[3],
            elements: fields[4],
            members: Vec::new(),
        };
        let count = fields[5] as u32;
        // The pointer is written even without members; it is kept in the layout either way.
        let list = self.array("struct members", member_offset, count, MEMBER_INFO_SIZE)?;
        ty.members.reserve(count as usize);
        for m in 0..count as usize {
            let name = self.string(u32_at(list, m * 8))?;
            let member_ty = self.type_info(u32_at(list, m * 8 + 4), depth + 1)?;
            ty.members.push(StructMember {
                name,
                ty: member_ty,
            });
        }
        Ok(ty)
    }

    /// The layout: the recorded offsets and the bytes no object covered (`None` from a parser
    /// made [`Parser::without_layout`]).
    pub(crate) fn finish(self) -> Option<TableLayout> {
        if !self.layout {
            return None;
        }
        let mut background = self.bytes.to_vec();
        // Branch-free (covered bytes are ANDed with 0x00, the others with 0xFF) so that the
        // loop vectorises: the printer parses a constant table for every listing header.
        for (byte, &covered) in background.iter_mut().zip(&self.covered) {
            *byte &= (covered as u8).wrapping_sub(1);
        }
        Some(TableLayout {
            offsets: self.offsets,
            background,
        })
    }
}

/// Puts objects at their recorded offsets, or lays them out afresh.
pub(crate) struct Writer {
    pub(crate) out: Vec<u8>,
    offsets: std::vec::IntoIter<u32>,
    /// Lay objects out anew (fxc style) instead of at recorded offsets.
    pub(crate) fresh: bool,
}

impl Writer {
    /// A writer that reuses `layout` when it has `objects` offsets, else one that lays out
    /// afresh after `fixed` zero bytes (the header and whatever else sits at fixed places).
    pub(crate) fn new(layout: Option<&TableLayout>, objects: usize, fixed: usize) -> Self {
        match layout.filter(|l| l.offsets.len() == objects) {
            Some(layout) => Writer {
                out: layout.background.clone(),
                offsets: layout.offsets.clone().into_iter(),
                fresh: false,
            },
            None => Writer {
                // Room for the objects too (strings and type records run to tens of bytes).
                out: {
                    let mut out = Vec::with_capacity(fixed + 32 * objects);
                    out.resize(fixed, 0);
                    out
                },
                offsets: Vec::new().into_iter(),
                fresh: true,
            },
        }
    }

    /// The table bytes (a fresh layout padded to whole DWORDs).
    pub(crate) fn finish(mut self) -> Vec<u8> {
        if self.fresh {
            while self.out.len() % 4 != 0 {
                self.out.push(0);
            }
        }
        self.out
    }

    /// The offset of the next object: the recorded one, or the end of the buffer (aligned).
    pub(crate) fn place(&mut self, len: usize, align: usize) -> u32 {
        if self.fresh {
            if align > 1 {
                while self.out.len() % align != 0 {
                    self.out.push(PAD_BYTE);
                }
            }
            let off = self.out.len();
            self.out.resize(off + len, 0);
            off as u32
        } else {
            // Recorded offsets of objects with bytes were bounds-checked when parsed; an empty
            // object (a list of length 0) may point anywhere and needs no room.
            let off = self.offsets.next().unwrap_or(0);
            let end = off as usize + len;
            if len > 0 && end > self.out.len() {
                self.out.resize(end, 0);
            }
            off
        }
    }

    /// Room for an array of `count` records of `size` bytes; a fresh empty array gets offset 0
    /// (what fxc writes), a recorded one keeps its offset.
    pub(crate) fn array(&mut self, count: usize, size: u32) -> u32 {
        let off = self.place(count * size as usize, 4);
        if count == 0 && self.fresh {
            0
        } else {
            off
        }
    }

    fn put_bytes(&mut self, at: usize, bytes: &[u8]) {
        if !bytes.is_empty() {
            self.room(at, bytes.len()).copy_from_slice(bytes);
        }
    }

    /// The `len` bytes at `at`, the buffer grown to hold them (callers write `len > 0`).
    fn room(&mut self, at: usize, len: usize) -> &mut [u8] {
        if self.out.len() < at + len {
            self.out.resize(at + len, 0);
        }
        &mut self.out[at..at + len]
    }

    pub(crate) fn put_u32s(&mut self, at: usize, v: &[u32]) {
        if v.is_empty() {
            return;
        }
        for (bytes, x) in self.room(at, 4 * v.len()).chunks_exact_mut(4).zip(v) {
            bytes.copy_from_slice(&x.to_le_bytes());
        }
    }

    pub(crate) fn put_u16s(&mut self, at: usize, v: &[u16]) {
        if v.is_empty() {
            return;
        }
        for (bytes, x) in self.room(at, 2 * v.len()).chunks_exact_mut(2).zip(v) {
            bytes.copy_from_slice(&x.to_le_bytes());
        }
    }

    pub(crate) fn string(&mut self, s: &CtabString) -> u32 {
        if self.fresh {
            // Packed at the end: appended, not zero-filled first and copied over.
            let off = self.out.len();
            self.out.extend_from_slice(&s.0);
            self.out.push(0);
            return off as u32;
        }
        let off = self.place(s.0.len() + 1, 1);
        self.put_bytes(off as usize, &s.0);
        self.put_bytes(off as usize + s.0.len(), &[0]);
        off
    }

    /// A string written only when present; offset 0 stands for none.
    pub(crate) fn optional_string(&mut self, s: Option<&CtabString>) -> u32 {
        s.map_or(0, |s| self.string(s))
    }

    pub(crate) fn type_info(&mut self, t: &TypeInfo) -> u32 {
        let off = self.place(TYPE_INFO_SIZE as usize, 4);
        let members = self.array(t.members.len(), MEMBER_INFO_SIZE);
        self.put_u16s(
            off as usize,
            &[
                t.class_raw,
                t.type_raw,
                t.rows,
                t.columns,
                t.elements,
                t.members.len() as u16,
            ],
        );
        self.put_u32s(off as usize + 12, &[members]);
        for (i, m) in t.members.iter().enumerate() {
            let name = self.string(&m.name);
            let ty = self.type_info(&m.ty);
            self.put_u32s(members as usize + i * 8, &[name, ty]);
        }
        off
    }
}

/// How many objects [`Writer::type_info`] places for `t` (and [`Parser::type_info`] records).
pub(crate) fn type_objects(t: &TypeInfo) -> usize {
    2 + t
        .members
        .iter()
        .map(|m| 1 + type_objects(&m.ty))
        .sum::<usize>()
}
