//! The DBUG debug information that compilers put in a comment block when asked to (`fxc /Zi`,
//! `D3DXSHADER_DEBUG`): the source files, the file and line of every instruction, and the HLSL
//! variables each instruction writes, component by component.
//!
//! The layout is D3DX's `D3DXSHADER_DEBUGINFO`; `docs/DBUG.md` describes it field by field,
//! with what the corpus shows and what stays unknown. As in the CTAB, offsets are bytes from
//! the DWORD after the `DBUG` FOURCC, and variable types are `D3DXSHADER_TYPEINFO` records
//! ([`TypeInfo`]). A parsed table keeps its [`DbugLayout`] so that [`DebugInfo::to_words`]
//! writes the same bytes back; a table built in code, or one whose number of objects changed,
//! is laid out afresh.

use crate::table::{self, Parser, TableError, Writer};
use crate::type_info::{CtabString, TypeInfo};
use crate::{Item, Shader};

/// `DBUG` as a little-endian FOURCC.
pub const DBUG_FOURCC: u32 = u32::from_le_bytes(*b"DBUG");
/// The header size every known compiler writes (ten DWORDs).
pub const HEADER_SIZE: u32 = 40;
const FILE_INFO_SIZE: u32 = 4;
const INSTRUCTION_INFO_SIZE: u32 = 8;
const VARIABLE_INFO_SIZE: u32 = 20;
const WRITE_INFO_SIZE: u32 = 12;

/// Where every object of a parsed debug table sat (see [`DebugInfo::parse_bytes`] for the
/// order).
pub type DbugLayout = table::TableLayout;

/// `true` when a comment payload starts with the `DBUG` FOURCC.
pub fn is_dbug(comment: &[u32]) -> bool {
    comment.first() == Some(&DBUG_FOURCC)
}

/// Why a debug table could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DbugError {
    /// The payload does not start with `DBUG`.
    #[error("the comment does not start with the DBUG FOURCC")]
    NotDbug,
    /// The header is cut short.
    #[error("the debug table is {0} bytes, shorter than its 40-byte header")]
    TruncatedHeader(usize),
    /// An object of the table cannot be read.
    #[error(transparent)]
    Table(#[from] TableError),
}

/// Where a debug table disagrees with the code it describes (a shader edited after it was
/// compiled, or a table made by hand). Parsing does not look at the code; [`DebugInfo::check`]
/// does.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DbugMismatch {
    /// The table has a different number of instruction records than the shader instructions.
    #[error("the debug table describes {records} instructions, the shader has {instructions}")]
    InstructionCount {
        /// Instruction records in the table.
        records: usize,
        /// Instructions in the shader.
        instructions: usize,
    },
    /// An instruction record's byte offset is not where that instruction starts.
    #[error("instruction {index}: the debug table says byte {recorded:#x}, the instruction starts at byte {actual:#x}")]
    Offset {
        /// The instruction index.
        index: usize,
        /// The offset in the table.
        recorded: u32,
        /// The instruction's byte offset in the shader.
        actual: u32,
    },
    /// An instruction record names a file the table does not list.
    #[error("instruction {index}: file index {file} is past the {files} file(s) of the table")]
    File {
        /// The instruction index.
        index: usize,
        /// The file index of the record.
        file: u16,
        /// Files in the table.
        files: usize,
    },
    /// A variable write names an instruction past the last one.
    #[error("variable {variable}: a write at instruction {instruction}, past the {instructions} instruction(s)")]
    Write {
        /// The variable's index in [`DebugInfo::variables`].
        variable: usize,
        /// The instruction index of the write.
        instruction: u32,
        /// Instructions in the shader.
        instructions: usize,
    },
}

/// `D3DXSHADER_INSTRUCTIONINFO`: where one instruction came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct InstructionInfo {
    /// The source line (1-based; 0 with [`InstructionInfo::NO_FILE`]).
    pub line: u16,
    /// Index into [`DebugInfo::files`], or [`InstructionInfo::NO_FILE`].
    pub file: u16,
    /// Byte offset of the instruction token from the start of the shader (the version token
    /// is at 0).
    pub offset: u32,
}

impl InstructionInfo {
    /// The file index of an instruction no source line produced (fxc writes it, with line 0,
    /// for the `dcl` and `def` instructions it adds).
    pub const NO_FILE: u16 = 0xFFFF;

    /// The file index and line, unless the instruction has no source.
    pub fn source(&self) -> Option<(u16, u16)> {
        (self.file != Self::NO_FILE).then_some((self.file, self.line))
    }
}

/// `D3DXSHADER_WRITEINFO`: one instruction writing (part of) a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct VariableWrite {
    /// The instruction's index among the shader's instructions (comments not counted).
    pub instruction: u32,
    /// For each destination component x, y, z, w: the variable component it holds (its
    /// position in the variable flattened to scalars), or [`VariableWrite::NONE`].
    pub components: [u16; 4],
}

impl VariableWrite {
    /// A destination component that holds no component of the variable.
    pub const NONE: u16 = 0xFFFF;

    /// The variable components written, in destination-component order.
    pub fn variable_components(&self) -> impl Iterator<Item = u16> + '_ {
        self.components.iter().copied().filter(|&c| c != Self::NONE)
    }
}

/// `D3DXSHADER_VARIABLEINFO`: an HLSL variable and the instructions that write it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Variable {
    /// The function the variable is a parameter of; `None` for the entry point's return value
    /// and for local variables (fxc's listing prints those as `::name`).
    pub scope: Option<CtabString>,
    /// The variable's name (the entry point's name for its return value).
    pub name: CtabString,
    /// Its type.
    pub ty: TypeInfo,
    /// Every write, in table order.
    pub writes: Vec<VariableWrite>,
}

/// One write found by [`DebugInfo::writes_by_instruction`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteRef {
    /// The instruction index.
    pub instruction: u32,
    /// The index of the variable in [`DebugInfo::variables`].
    pub variable: usize,
    /// The index of the write in that variable's [`Variable::writes`].
    pub write: usize,
}

/// A whole debug table (`D3DXSHADER_DEBUGINFO`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct DebugInfo {
    /// The header's Size field ([`HEADER_SIZE`] from every known compiler).
    pub header_size: u32,
    /// The compiler that wrote it (`Microsoft (R) HLSL Shader Compiler 10.1`).
    pub creator: Option<CtabString>,
    /// The source code, when the compiler embedded it (no corpus table does).
    pub source_code: Option<CtabString>,
    /// The source files, as the compiler named them.
    pub files: Vec<CtabString>,
    /// One record per instruction, in stream order.
    pub instructions: Vec<InstructionInfo>,
    /// The variables.
    pub variables: Vec<Variable>,
    /// The entry-point function.
    pub entry_point: Option<CtabString>,
    /// Where a parsed table's objects sat; `None` for a table built in code.
    pub layout: Option<DbugLayout>,
}

impl DebugInfo {
    /// Parses a comment payload that starts with `DBUG`.
    pub fn parse(comment: &[u32]) -> Result<Self, DbugError> {
        if !is_dbug(comment) {
            return Err(DbugError::NotDbug);
        }
        Self::parse_bytes(&table::payload_bytes(comment))
    }

    /// Parses as [`DebugInfo::parse`] does (the same checks, the same errors) but leaves
    /// `layout` `None`: for readers that will not re-encode the table, such as a printer.
    pub fn parse_without_layout(comment: &[u32]) -> Result<Self, DbugError> {
        if !is_dbug(comment) {
            return Err(DbugError::NotDbug);
        }
        let bytes = table::payload_bytes(comment);
        Self::read(&bytes, Parser::without_layout(&bytes))
    }

    /// Parses the table bytes that follow the FOURCC.
    ///
    /// The layout records, in this order: the file-info array and each file name, the
    /// instruction-info array, the variable-info array and per variable its scope (when it has
    /// one), its name, its type (type, member list, each member's name and type) and its write
    /// array, then the entry point, the creator and the source code (each when present).
    pub fn parse_bytes(bytes: &[u8]) -> Result<Self, DbugError> {
        Self::read(bytes, Parser::new(bytes))
    }

    fn read(bytes: &[u8], mut p: Parser<'_>) -> Result<Self, DbugError> {
        if bytes.len() < HEADER_SIZE as usize {
            return Err(DbugError::TruncatedHeader(bytes.len()));
        }
        let h: [u32; 10] = std::array::from_fn(|i| table::u32_at(bytes, 4 * i));
        p.span("header", 0, HEADER_SIZE)?;
        let [header_size, creator, source_code, file_count, file_off, instruction_count, instruction_off, variable_count, variable_off, entry_point] =
            h;

        let list = p.array("file infos", file_off, file_count, FILE_INFO_SIZE)?;
        let mut files = Vec::with_capacity(file_count as usize);
        for b in list.chunks_exact(FILE_INFO_SIZE as usize) {
            files.push(p.string(table::u32_at(b, 0))?);
        }

        let list = p.array(
            "instruction infos",
            instruction_off,
            instruction_count,
            INSTRUCTION_INFO_SIZE,
        )?;
        let instructions = list
            .chunks_exact(INSTRUCTION_INFO_SIZE as usize)
            .map(|b| InstructionInfo {
                line: table::u16_at(b, 0),
                file: table::u16_at(b, 2),
                offset: table::u32_at(b, 4),
            })
            .collect();

        let list = p.array(
            "variable infos",
            variable_off,
            variable_count,
            VARIABLE_INFO_SIZE,
        )?;
        let mut variables = Vec::with_capacity(variable_count as usize);
        for b in list.chunks_exact(VARIABLE_INFO_SIZE as usize) {
            let scope = p.optional_string(table::u32_at(b, 0))?;
            let name = p.string(table::u32_at(b, 4))?;
            let ty = p.type_info(table::u32_at(b, 8), 0)?;
            let writes = p
                .array(
                    "write infos",
                    table::u32_at(b, 16),
                    table::u32_at(b, 12),
                    WRITE_INFO_SIZE,
                )?
                .chunks_exact(WRITE_INFO_SIZE as usize)
                .map(|w| VariableWrite {
                    instruction: table::u32_at(w, 0),
                    components: std::array::from_fn(|i| table::u16_at(w, 4 + 2 * i)),
                })
                .collect();
            variables.push(Variable {
                scope,
                name,
                ty,
                writes,
            });
        }

        let entry_point = p.optional_string(entry_point)?;
        let creator = p.optional_string(creator)?;
        let source_code = p.optional_string(source_code)?;
        Ok(DebugInfo {
            header_size,
            creator,
            source_code,
            files,
            instructions,
            variables,
            entry_point,
            layout: p.finish(),
        })
    }

    /// Encodes the table as a comment payload (FOURCC first), reproducing a parsed table's
    /// bytes exactly when its objects are unchanged in number.
    pub fn to_words(&self) -> Vec<u32> {
        table::payload_words(DBUG_FOURCC, &self.to_bytes())
    }

    /// Encodes the table bytes after the FOURCC.
    pub fn to_bytes(&self) -> Vec<u8> {
        // A fresh layout has the 40-byte header whatever the Size field says (a hostile one
        // must not size the buffer).
        let mut w = Writer::new(
            self.layout.as_ref(),
            self.object_count(),
            HEADER_SIZE as usize,
        );
        self.write(&mut w);
        w.finish()
    }

    /// How many objects the writer places (the length of [`DbugLayout::offsets`]).
    fn object_count(&self) -> usize {
        let variables: usize = self
            .variables
            .iter()
            .map(|v| v.scope.is_some() as usize + 1 + table::type_objects(&v.ty) + 1)
            .sum();
        3 + self.files.len()
            + variables
            + self.entry_point.is_some() as usize
            + self.creator.is_some() as usize
            + self.source_code.is_some() as usize
    }

    fn write(&self, w: &mut Writer) {
        // Objects go in the order `parse_bytes` records them.
        let files = w.array(self.files.len(), FILE_INFO_SIZE);
        for (i, name) in self.files.iter().enumerate() {
            let off = w.string(name);
            w.put_u32s(files as usize + i * FILE_INFO_SIZE as usize, &[off]);
        }
        let instructions = w.array(self.instructions.len(), INSTRUCTION_INFO_SIZE);
        for (i, r) in self.instructions.iter().enumerate() {
            let at = instructions as usize + i * INSTRUCTION_INFO_SIZE as usize;
            w.put_u16s(at, &[r.line, r.file]);
            w.put_u32s(at + 4, &[r.offset]);
        }
        let variables = w.array(self.variables.len(), VARIABLE_INFO_SIZE);
        for (i, v) in self.variables.iter().enumerate() {
            let scope = w.optional_string(v.scope.as_ref());
            let name = w.string(&v.name);
            let ty = w.type_info(&v.ty);
            let writes = w.array(v.writes.len(), WRITE_INFO_SIZE);
            for (k, write) in v.writes.iter().enumerate() {
                let at = writes as usize + k * WRITE_INFO_SIZE as usize;
                w.put_u32s(at, &[write.instruction]);
                w.put_u16s(at + 4, &write.components);
            }
            let at = variables as usize + i * VARIABLE_INFO_SIZE as usize;
            w.put_u32s(at, &[scope, name, ty, v.writes.len() as u32, writes]);
        }
        let entry_point = w.optional_string(self.entry_point.as_ref());
        let creator = w.optional_string(self.creator.as_ref());
        let source_code = w.optional_string(self.source_code.as_ref());
        let header = [
            self.header_size,
            creator,
            source_code,
            self.files.len() as u32,
            files,
            self.instructions.len() as u32,
            instructions,
            self.variables.len() as u32,
            variables,
            entry_point,
        ];
        w.put_u32s(0, &header);
    }

    /// The file name and line of instruction `index`, when the table gives it a source.
    pub fn source_of(&self, index: usize) -> Option<(&CtabString, u16)> {
        let (file, line) = self.instructions.get(index)?.source()?;
        Some((self.files.get(file as usize)?, line))
    }

    /// Every write of every variable, ordered by instruction; writes to the same instruction
    /// keep table order (variable, then write), which is the order fxc's listing prints them.
    pub fn writes_by_instruction(&self) -> Vec<WriteRef> {
        let mut all = Vec::with_capacity(self.variables.iter().map(|v| v.writes.len()).sum());
        for (variable, v) in self.variables.iter().enumerate() {
            all.extend(v.writes.iter().enumerate().map(|(write, w)| WriteRef {
                instruction: w.instruction,
                variable,
                write,
            }));
        }
        // Stable: writes to one instruction keep table order.
        all.sort_by_key(|r| r.instruction);
        all
    }

    /// Checks the table against the code it describes: one instruction record per
    /// instruction, each at that instruction's byte offset and naming a listed file, and every
    /// write naming an existing instruction. Returns the first disagreement.
    pub fn check(&self, shader: &Shader) -> Result<(), DbugMismatch> {
        let mut offsets = Vec::new();
        let mut dword = 1usize;
        for item in &shader.items {
            match item {
                Item::Comment(c) => dword += 1 + c.data.len(),
                Item::Instruction(inst) => {
                    offsets.push(dword * 4);
                    inst.for_each_token(shader.version, |_, _| dword += 1);
                }
            }
        }
        if self.instructions.len() != offsets.len() {
            return Err(DbugMismatch::InstructionCount {
                records: self.instructions.len(),
                instructions: offsets.len(),
            });
        }
        for (index, (r, &actual)) in self.instructions.iter().zip(&offsets).enumerate() {
            if r.offset as usize != actual {
                return Err(DbugMismatch::Offset {
                    index,
                    recorded: r.offset,
                    actual: actual as u32,
                });
            }
            if r.file != InstructionInfo::NO_FILE && r.file as usize >= self.files.len() {
                return Err(DbugMismatch::File {
                    index,
                    file: r.file,
                    files: self.files.len(),
                });
            }
        }
        for (variable, v) in self.variables.iter().enumerate() {
            if let Some(w) = v
                .writes
                .iter()
                .find(|w| w.instruction as usize >= offsets.len())
            {
                return Err(DbugMismatch::Write {
                    variable,
                    instruction: w.instruction,
                    instructions: offsets.len(),
                });
            }
        }
        Ok(())
    }
}

impl Shader {
    /// The parsed debug information, if a comment block holds one (`fxc /Zi`).
    pub fn debug_info(&self) -> Option<Result<DebugInfo, DbugError>> {
        self.comments()
            .find(|c| is_dbug(&c.data))
            .map(|c| DebugInfo::parse(&c.data))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ctab::StructMember;

    fn float_vector(columns: u16) -> TypeInfo {
        TypeInfo {
            class_raw: 1,
            type_raw: 3,
            rows: 1,
            columns,
            elements: 1,
            members: vec![],
        }
    }

    fn sample() -> DebugInfo {
        DebugInfo {
            header_size: HEADER_SIZE,
            creator: Some("dxso test".into()),
            source_code: None,
            files: vec!["a.fx".into(), "b.fxh".into()],
            instructions: vec![
                InstructionInfo {
                    line: 0,
                    file: InstructionInfo::NO_FILE,
                    offset: 4,
                },
                InstructionInfo {
                    line: 12,
                    file: 1,
                    offset: 16,
                },
            ],
            variables: vec![
                Variable {
                    scope: None,
                    name: "main".into(),
                    ty: float_vector(4),
                    writes: vec![VariableWrite {
                        instruction: 1,
                        components: [0, 1, 2, 3],
                    }],
                },
                Variable {
                    scope: Some("main".into()),
                    name: "vin".into(),
                    ty: TypeInfo {
                        class_raw: 5,
                        type_raw: 0,
                        rows: 1,
                        columns: 6,
                        elements: 1,
                        members: vec![
                            StructMember {
                                name: "pos".into(),
                                ty: float_vector(4),
                            },
                            StructMember {
                                name: "uv".into(),
                                ty: float_vector(2),
                            },
                        ],
                    },
                    writes: vec![VariableWrite {
                        instruction: 0,
                        components: [4, 5, VariableWrite::NONE, VariableWrite::NONE],
                    }],
                },
            ],
            entry_point: Some("main".into()),
            layout: None,
        }
    }

    #[test]
    fn fresh_table_parses_back() {
        let info = sample();
        let words = info.to_words();
        let parsed = DebugInfo::parse(&words).unwrap();
        assert_eq!(
            DebugInfo {
                layout: None,
                ..parsed.clone()
            },
            info
        );
        assert_eq!(parsed.to_words(), words);
        assert_eq!(parsed.source_of(1).unwrap().0.as_str(), "b.fxh");
        assert_eq!(parsed.source_of(0), None);
        let order: Vec<_> = parsed
            .writes_by_instruction()
            .iter()
            .map(|r| (r.instruction, r.variable))
            .collect();
        assert_eq!(order, [(0, 1), (1, 0)]);
    }

    #[test]
    fn edits_change_the_bytes() {
        let mut parsed = DebugInfo::parse(&sample().to_words()).unwrap();
        parsed.instructions[1].line = 99;
        parsed.variables[0].writes.push(VariableWrite {
            instruction: 0,
            components: [VariableWrite::NONE; 4],
        });
        let again = DebugInfo::parse(&parsed.to_words()).unwrap();
        assert_eq!(again.instructions[1].line, 99);
        assert_eq!(again.variables[0].writes.len(), 2);
    }

    #[test]
    fn hostile_tables_are_errors() {
        assert_eq!(DebugInfo::parse(&[1, 2]), Err(DbugError::NotDbug));
        assert_eq!(
            DebugInfo::parse(&[DBUG_FOURCC, 40]),
            Err(DbugError::TruncatedHeader(4))
        );
        // Counts that would need gigabytes of table.
        for field in [3, 5, 7] {
            let mut words = sample().to_words();
            words[1 + field] = u32::MAX;
            assert!(
                matches!(
                    DebugInfo::parse(&words),
                    Err(DbugError::Table(TableError::OutOfBounds { .. }))
                ),
                "count field {field}"
            );
        }
        // A string that runs off the end.
        let mut words = sample().to_words();
        let len = (words.len() as u32 - 1) * 4;
        words[1 + 9] = len - 1;
        *words.last_mut().unwrap() = 0x4141_4141;
        assert!(matches!(
            DebugInfo::parse(&words),
            Err(DbugError::Table(TableError::UnterminatedString(_)))
        ));
    }

    #[test]
    fn empty_lists_may_point_anywhere() {
        let mut info = sample();
        info.variables[0].writes.clear();
        let mut words = info.to_words();
        // Variable 0's record starts at the header's VariableInfo offset (byte 32); its write
        // array offset is the record's fifth DWORD.
        let record = words[1 + 8] as usize;
        words[1 + record / 4 + 4] = 0xFFFF_FFF0;
        let parsed = DebugInfo::parse(&words).unwrap();
        assert!(parsed.variables[0].writes.is_empty());
        assert_eq!(parsed.to_words(), words);
    }

    #[test]
    fn many_references_to_one_long_string_are_capped() {
        // 30,000 file records all naming one 64 KiB string: copying each would take 1.9 GiB.
        let files = 30_000u32;
        let name_off = HEADER_SIZE + files * 4;
        let mut b = vec![0u8; (name_off + 65_536) as usize];
        let mut put = |at: u32, v: u32| {
            b[at as usize..at as usize + 4].copy_from_slice(&v.to_le_bytes());
        };
        put(0, HEADER_SIZE);
        put(12, files);
        put(16, HEADER_SIZE);
        for i in 0..files {
            put(HEADER_SIZE + 4 * i, name_off);
        }
        b[name_off as usize..name_off as usize + 65_535].fill(b'a');
        assert!(matches!(
            DebugInfo::parse_bytes(&b),
            Err(DbugError::Table(TableError::TooMuchText(..)))
        ));
    }
}
