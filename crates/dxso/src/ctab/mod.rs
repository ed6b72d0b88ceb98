//! The CTAB constant table that compilers put in a comment block: which uniforms a shader has,
//! in which registers, with which types and default values.
//!
//! Offsets in the table are bytes from the DWORD after the `CTAB` FOURCC. A parsed table keeps
//! its [`CtabLayout`] (where every object sat, and the padding bytes between them) so that
//! [`ConstantTable::to_words`] writes the same bytes back; a table built in code, or one whose
//! shape changed, is laid out the way fxc lays tables out.

mod fresh;

use crate::table::{self, Parser, TableError, Writer};

pub use crate::table::{MAX_OBJECTS_PER_BYTE, MAX_TEXT_PER_BYTE, MAX_TYPE_DEPTH, PAD_BYTE};
pub use crate::type_info::{CtabString, ParameterClass, ParameterType, StructMember, TypeInfo};
pub use fresh::{append_fresh_ctab, ConstantRef};

/// `CTAB` as a little-endian FOURCC.
pub const CTAB_FOURCC: u32 = u32::from_le_bytes(*b"CTAB");
const HEADER_SIZE: u32 = 28;
const CONSTANT_INFO_SIZE: u32 = 20;

/// Where every object of a parsed constant table sat (see [`ConstantTable::parse_bytes`] for
/// the order).
pub type CtabLayout = table::TableLayout;

/// `true` when a comment payload starts with the `CTAB` FOURCC.
pub fn is_ctab(comment: &[u32]) -> bool {
    comment.first() == Some(&CTAB_FOURCC)
}

/// Why a table could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CtabError {
    /// The payload does not start with `CTAB`.
    #[error("the comment does not start with the CTAB FOURCC")]
    NotCtab,
    /// The header is cut short.
    #[error("the table is {0} bytes, shorter than its 28-byte header")]
    TruncatedHeader(usize),
    /// An object of the table cannot be read.
    #[error(transparent)]
    Table(#[from] TableError),
}

/// `D3DXREGISTER_SET`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegisterSet {
    /// `b#`.
    Bool,
    /// `i#`.
    Int4,
    /// `c#`.
    Float4,
    /// `s#`.
    Sampler,
}

impl RegisterSet {
    /// Decodes the raw value.
    pub const fn from_raw(raw: u16) -> Option<Self> {
        Some(match raw {
            0 => RegisterSet::Bool,
            1 => RegisterSet::Int4,
            2 => RegisterSet::Float4,
            3 => RegisterSet::Sampler,
            _ => return None,
        })
    }

    /// The register prefix (`b`, `i`, `c`, `s`).
    pub const fn prefix(self) -> &'static str {
        match self {
            RegisterSet::Bool => "b",
            RegisterSet::Int4 => "i",
            RegisterSet::Float4 => "c",
            RegisterSet::Sampler => "s",
        }
    }
}

/// One constant (`D3DXSHADER_CONSTANTINFO`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Constant {
    /// The uniform's name.
    pub name: CtabString,
    /// `D3DXREGISTER_SET` as encoded; see [`Constant::register_set`].
    pub register_set_raw: u16,
    /// First register.
    pub register_index: u16,
    /// Number of registers.
    pub register_count: u16,
    /// The reserved u16 (zero from compilers).
    pub reserved: u16,
    /// The type.
    pub ty: TypeInfo,
    /// Default value DWORDs (four per register), when the table has one.
    pub default_value: Option<Vec<u32>>,
}

impl Constant {
    /// The register set, when the raw value is one.
    pub fn register_set(&self) -> Option<RegisterSet> {
        RegisterSet::from_raw(self.register_set_raw)
    }
}

/// A whole constant table.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ConstantTable {
    /// The compiler that wrote it (`Microsoft (R) HLSL Shader Compiler 9.29.952.3111`).
    pub creator: CtabString,
    /// The shader version token the table was built for.
    pub version: u32,
    /// `D3DXSHADER_*` compile flags.
    pub flags: u32,
    /// The target profile (`vs_2_0`).
    pub target: CtabString,
    /// The header's Size field (28 from every known compiler).
    pub header_size: u32,
    /// The constants in table order.
    pub constants: Vec<Constant>,
    /// Where a parsed table's objects sat; `None` for a table built in code.
    pub layout: Option<CtabLayout>,
}

impl ConstantTable {
    /// Parses a comment payload that starts with `CTAB`.
    pub fn parse(comment: &[u32]) -> Result<Self, CtabError> {
        if !is_ctab(comment) {
            return Err(CtabError::NotCtab);
        }
        Self::parse_bytes(&table::payload_bytes(comment))
    }

    /// Parses as [`ConstantTable::parse`] does (the same checks, the same errors) but leaves
    /// `layout` `None`: for readers that will not re-encode the table, such as a printer.
    /// Recording the layout costs about as much as reading the table, and without it
    /// [`ConstantTable::to_words`] lays the table out afresh.
    pub fn parse_without_layout(comment: &[u32]) -> Result<Self, CtabError> {
        if !is_ctab(comment) {
            return Err(CtabError::NotCtab);
        }
        let bytes = table::payload_bytes(comment);
        Self::read(&bytes, Parser::without_layout(&bytes))
    }

    /// Parses the table bytes that follow the FOURCC.
    ///
    /// The layout records the creator, the target, the constant-info array, then per constant
    /// its name, its type (type, member list, each member's name and type) and its default
    /// value when it has one.
    pub fn parse_bytes(bytes: &[u8]) -> Result<Self, CtabError> {
        Self::read(bytes, Parser::new(bytes))
    }

    fn read(bytes: &[u8], mut p: Parser<'_>) -> Result<Self, CtabError> {
        if bytes.len() < HEADER_SIZE as usize {
            return Err(CtabError::TruncatedHeader(bytes.len()));
        }
        let h: [u32; 7] = std::array::from_fn(|i| table::u32_at(bytes, 4 * i));
        p.span("header", 0, HEADER_SIZE)?;
        let [header_size, creator_off, version, count, info_off, flags, target_off] = h;
        let creator = p.string(creator_off)?;
        let target = p.string(target_off)?;
        let infos = p.array("constant infos", info_off, count, CONSTANT_INFO_SIZE)?;
        let mut constants = Vec::with_capacity(count as usize);
        for b in infos.chunks_exact(CONSTANT_INFO_SIZE as usize) {
            let name = p.string(table::u32_at(b, 0))?;
            let register_count = table::u16_at(b, 8);
            let ty = p.type_info(table::u32_at(b, 12), 0)?;
            let default_off = table::u32_at(b, 16);
            let default_value = if default_off != 0 {
                p.record(default_off);
                let d = p.span("default value", default_off, register_count as u32 * 16)?;
                Some(d.chunks_exact(4).map(|w| table::u32_at(w, 0)).collect())
            } else {
                None
            };
            constants.push(Constant {
                name,
                register_set_raw: table::u16_at(b, 4),
                register_index: table::u16_at(b, 6),
                register_count,
                reserved: table::u16_at(b, 10),
                ty,
                default_value,
            });
        }
        Ok(ConstantTable {
            creator,
            version,
            flags,
            target,
            header_size,
            constants,
            layout: p.finish(),
        })
    }

    /// Encodes the table as a comment payload (FOURCC first), reproducing a parsed table's
    /// bytes exactly when its objects are unchanged in number.
    pub fn to_words(&self) -> Vec<u32> {
        table::payload_words(CTAB_FOURCC, &self.to_bytes())
    }

    /// Encodes the table bytes after the FOURCC.
    pub fn to_bytes(&self) -> Vec<u8> {
        let fixed = HEADER_SIZE + CONSTANT_INFO_SIZE * self.constants.len() as u32;
        let mut w = Writer::new(self.layout.as_ref(), self.object_count(), fixed as usize);
        self.write(&mut w);
        if w.fresh {
            // fxc pads the last string to a DWORD as it pads before aligned objects.
            while w.out.len() % 4 != 0 {
                w.out.push(PAD_BYTE);
            }
        }
        w.finish()
    }

    /// How many objects the writer places (the length of [`CtabLayout::offsets`]).
    fn object_count(&self) -> usize {
        3 + self
            .constants
            .iter()
            .map(|c| 1 + table::type_objects(&c.ty) + c.default_value.is_some() as usize)
            .sum::<usize>()
    }

    fn write(&self, w: &mut Writer) {
        // Objects go in the order `parse` recorded them; the fresh layout places them after the
        // header and the info array, strings packed and aligned objects padded with 0xAB as
        // fxc does.
        let fresh = w.fresh;
        // A parsed table recorded creator, target and the info array first; fxc itself writes
        // the two strings after everything else, which is where a fresh layout puts them.
        // fxc points an empty constant list at offset 0.
        let (mut creator, mut target, info_off) = if fresh {
            (
                0,
                0,
                if self.constants.is_empty() {
                    0
                } else {
                    HEADER_SIZE
                },
            )
        } else {
            let creator = w.string(&self.creator);
            let target = w.string(&self.target);
            (creator, target, w.place(0, 1))
        };
        self.write_constants(w, info_off);
        if fresh {
            target = w.string(&self.target);
            creator = w.string(&self.creator);
        }
        let header = [
            self.header_size,
            creator,
            self.version,
            self.constants.len() as u32,
            info_off,
            self.flags,
            target,
        ];
        w.put_u32s(0, &header);
    }

    fn write_constants(&self, w: &mut Writer, info_off: u32) {
        // What a fresh layout has written already, to share as fxc does.
        let mut types = Vec::with_capacity(if w.fresh { self.constants.len() } else { 0 });
        let mut defaults: Vec<(&[u32], u32)> = Vec::new();
        for (i, c) in self.constants.iter().enumerate() {
            let name = w.string(&c.name);
            let ty = if w.fresh {
                fresh_type_info(w, &c.ty, &mut types, 0)
            } else {
                w.type_info(&c.ty)
            };
            let default = match &c.default_value {
                Some(v) => match defaults.iter().find(|(known, _)| *known == &v[..]) {
                    Some((_, off)) if w.fresh => *off,
                    _ => {
                        let off = w.place(v.len() * 4, 4);
                        w.put_u32s(off as usize, v);
                        if w.fresh {
                            defaults.push((v, off));
                        }
                        off
                    }
                },
                None => 0,
            };
            let at = info_off as usize + i * CONSTANT_INFO_SIZE as usize;
            w.put_u32s(at, &[name]);
            w.put_u16s(
                at + 4,
                &[
                    c.register_set_raw,
                    c.register_index,
                    c.register_count,
                    c.reserved,
                ],
            );
            w.put_u32s(at + 12, &[ty, default]);
        }
    }
}

/// A type laid out as fxc lays it out in a fresh table: a struct's member names and types
/// first, then its member list, then the struct's own type. A type equal to one already
/// written in the same scope (the top-level constants, or the members of one struct) is
/// written once; fxc shares numeric and struct types that way but writes every object type
/// (samplers, textures) anew.
fn fresh_type_info<'t>(
    w: &mut Writer,
    t: &'t TypeInfo,
    scope: &mut Vec<(&'t TypeInfo, u32)>,
    depth: usize,
) -> u32 {
    let shareable = t.class() != Some(ParameterClass::Object);
    if shareable {
        if let Some((_, off)) = scope.iter().find(|(known, _)| *known == t) {
            return *off;
        }
    }
    let mut members = Vec::with_capacity(t.members.len());
    if depth < MAX_TYPE_DEPTH {
        let mut inner = Vec::new();
        for m in &t.members {
            let name = w.string(&m.name);
            members.push((name, fresh_type_info(w, &m.ty, &mut inner, depth + 1)));
        }
    }
    let list = w.array(members.len(), table::MEMBER_INFO_SIZE);
    for (i, (name, ty)) in members.iter().enumerate() {
        w.put_u32s(list as usize + i * 8, &[*name, *ty]);
    }
    let off = w.place(table::TYPE_INFO_SIZE as usize, 4);
    w.put_u16s(
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
    w.put_u32s(off as usize + 12, &[list]);
    if shareable {
        scope.push((t, off));
    }
    off
}

impl crate::Shader {
    /// The parsed constant table, if a comment block holds one.
    pub fn constant_table(&self) -> Option<Result<ConstantTable, CtabError>> {
        self.comments()
            .find(|c| is_ctab(&c.data))
            .map(|c| ConstantTable::parse(&c.data))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ConstantTable {
        ConstantTable {
            creator: "dxso test".into(),
            version: 0xFFFE_0200,
            flags: 0,
            target: "vs_2_0".into(),
            header_size: 28,
            constants: vec![
                Constant {
                    name: "worldViewProj".into(),
                    register_set_raw: 2,
                    register_index: 0,
                    register_count: 4,
                    reserved: 0,
                    ty: TypeInfo {
                        class_raw: 3,
                        type_raw: 3,
                        rows: 4,
                        columns: 4,
                        elements: 1,
                        members: vec![],
                    },
                    default_value: None,
                },
                Constant {
                    name: "light".into(),
                    register_set_raw: 2,
                    register_index: 4,
                    register_count: 2,
                    reserved: 0,
                    ty: TypeInfo {
                        class_raw: 5,
                        type_raw: 0,
                        rows: 1,
                        columns: 8,
                        elements: 1,
                        members: vec![
                            StructMember {
                                name: "color".into(),
                                ty: TypeInfo {
                                    class_raw: 1,
                                    type_raw: 3,
                                    rows: 1,
                                    columns: 4,
                                    elements: 1,
                                    members: vec![],
                                },
                            },
                            StructMember {
                                name: "dir".into(),
                                ty: TypeInfo {
                                    class_raw: 1,
                                    type_raw: 3,
                                    rows: 1,
                                    columns: 3,
                                    elements: 1,
                                    members: vec![],
                                },
                            },
                        ],
                    },
                    default_value: Some(vec![0x3F80_0000; 8]),
                },
            ],
            layout: None,
        }
    }

    #[test]
    fn fresh_table_parses_back() {
        let table = sample();
        let words = table.to_words();
        let parsed = ConstantTable::parse(&words).unwrap();
        assert_eq!(parsed.constants, table.constants);
        assert_eq!(parsed.creator, table.creator);
        assert_eq!(parsed.target, table.target);
        // And the parsed table re-encodes to the same words.
        assert_eq!(parsed.to_words(), words);
    }

    #[test]
    fn edits_change_the_bytes() {
        let words = sample().to_words();
        let mut parsed = ConstantTable::parse(&words).unwrap();
        parsed.constants[0].register_index = 9;
        let again = ConstantTable::parse(&parsed.to_words()).unwrap();
        assert_eq!(again.constants[0].register_index, 9);
    }

    #[test]
    fn hostile_tables_are_errors() {
        assert_eq!(ConstantTable::parse(&[1, 2]), Err(CtabError::NotCtab));
        assert!(matches!(
            ConstantTable::parse(&[CTAB_FOURCC, 28]),
            Err(CtabError::TruncatedHeader(4))
        ));
        // A huge constant count must not allocate or read past the end.
        let mut words = sample().to_words();
        words[4] = u32::MAX;
        assert!(matches!(
            ConstantTable::parse(&words),
            Err(CtabError::Table(TableError::OutOfBounds { .. }))
        ));
        // A struct whose member is itself.
        let mut t = sample().to_words();
        let parsed = ConstantTable::parse(&t).unwrap();
        let offs = parsed.layout.unwrap().offsets;
        // offsets: creator, target, infos, name0, type0, members0, name1, type1, members1, ...
        let type1 = offs[7];
        let members1 = offs[8];
        let member_word = 1 + (members1 as usize) / 4;
        t[member_word + 1] = type1;
        assert!(matches!(
            ConstantTable::parse(&t),
            Err(CtabError::Table(TableError::TooDeep(_)))
        ));
    }

    #[test]
    fn empty_member_list_pointing_far_away() {
        // Found by the fuzzer: a scalar type whose (unused) member pointer is huge made the
        // re-encoder grow its buffer to that offset.
        let mut words = sample().to_words();
        let parsed = ConstantTable::parse(&words).unwrap();
        let members0 = 5; // creator, target, infos, name0, type0, members0
        let type0 = parsed.layout.unwrap().offsets[members0 - 1];
        words[1 + (type0 as usize + 12) / 4] = 0xFFFF_FFF0;
        let parsed = ConstantTable::parse(&words).unwrap();
        assert_eq!(parsed.to_words(), words);
    }

    #[test]
    fn shared_struct_types_cannot_explode() {
        // Eight struct types, each with 16 members of the next type: 1.3 KB that would expand to
        // 16^8 objects. The depth cap does not stop that; the object budget does.
        const LEVELS: u32 = 8;
        let (info, name, leaf) = (28u32, 48u32, 52u32);
        let types = leaf + 16;
        let members = types + 16 * LEVELS;
        let mut b = vec![0u8; (members + LEVELS * 16 * 8) as usize];
        let put = |b: &mut Vec<u8>, at: u32, v: &[u32]| {
            for (i, x) in v.iter().enumerate() {
                b[at as usize + 4 * i..at as usize + 4 * i + 4].copy_from_slice(&x.to_le_bytes());
            }
        };
        put(&mut b, 0, &[28, name, 0xFFFE_0300, 1, info, 0, name]);
        put(&mut b, info, &[name, 2, 1, types, 0]);
        b[name as usize] = b'a';
        put(&mut b, leaf, &[0x0003_0000, 0x0001_0001, 1, 0]);
        for level in 0..LEVELS {
            let ty = types + 16 * level;
            let list = members + level * 128;
            put(&mut b, ty, &[5, 0x0001_0001, 16 << 16 | 1, list]);
            let next = if level + 1 < LEVELS { ty + 16 } else { leaf };
            for m in 0..16 {
                put(&mut b, list + 8 * m, &[name, next]);
            }
        }
        assert!(matches!(
            ConstantTable::parse_bytes(&b),
            Err(CtabError::Table(TableError::TooManyObjects(..)))
        ));
    }
}
