//! The DBUG debug information in the listing, where Microsoft's disassembler puts it
//! ([`write_variable_name`] is public for tools that name variables the same way):
//!
//! ```text
//!     dcl t2.xy  // pin<8,9>
//!
//! #line 111 "D:\Microsoft\DirectXTK\Src\Shaders\AlphaTestEffect.fx"
//!     texld r0, t2, s0
//!     mul r0, r0, t0  // ::color<0,1,2,3>
//! ```
//!
//! - A `#line` directive, after a blank line, goes before an instruction whose source differs
//!   from the previous instruction's that had one: with the file name when the file changed
//!   (or for the first), bare when only the line moved by three or more. Moves of one or two
//!   lines print nothing, and instructions without a source (fxc's own `dcl`/`def`) neither
//!   print a directive nor count as the previous one. That is what every corpus listing shows;
//!   `docs/DBUG.md` has the figures.
//! - After an instruction, `  // ` and every variable it writes, in table order, joined by
//!   `, `: `name<components>` for a parameter of the entry point, `scope::name<..>` for a
//!   parameter of another function, `::name<..>` for locals and the return value. The numbers
//!   are the variable components (flattened to scalars) held by the destination's x, y, z, w.

use super::header::bytes_text;
use super::{push_number, Text};
use dxso::dbug::{DebugInfo, Variable, VariableWrite};
use dxso::Comment;
use dxso::DebugInfoView;

/// Moves smaller than this, within one file, print no `#line`.
const LINE_MOVE_SHOWN: u32 = 3;

/// What the body loop calls around every instruction line.
pub(super) trait InstructionHook {
    /// `true` when the hook never writes anything (the body loop then appends each line and
    /// its newline in one go).
    const SILENT: bool = false;
    /// Before the line (and its indent) of the next instruction.
    fn before(&mut self, out: &mut Vec<u8>);
    /// After the instruction's text, before the newline; then the next instruction is due.
    fn after(&mut self, out: &mut Vec<u8>);
}

/// The hook of a shader without debug lines: nothing, compiled away.
pub(super) struct NoDebugLines;

impl InstructionHook for NoDebugLines {
    const SILENT: bool = true;
    #[inline(always)]
    fn before(&mut self, _: &mut Vec<u8>) {}
    #[inline(always)]
    fn after(&mut self, _: &mut Vec<u8>) {}
}

/// One variable write, where the annotations find it: the instruction, the variable's index
/// and the components.
struct Write {
    instruction: u32,
    variable: u32,
    components: [u16; 4],
}

/// A checked DBUG table (read in place: the listing keeps none of its strings) and where the
/// printer is in it. What every instruction looks up is copied out once: the sources, and the
/// variables' names as the annotations spell them.
pub(super) struct DebugLines<'a> {
    info: DebugInfoView<'a>,
    /// Each instruction's file and line, when it has a source.
    sources: Vec<Option<(u16, u16)>>,
    files: usize,
    /// Every variable's qualified name (`scope::name`, `::name`, `name`), one after another;
    /// `name_ends[v]` is where variable `v`'s ends.
    names: Vec<u8>,
    name_ends: Vec<usize>,
    /// Every write of every variable, ordered by instruction; writes to one instruction keep
    /// table order, as [`DebugInfo::writes_by_instruction`] orders them.
    writes: Vec<Write>,
    next_write: usize,
    /// The index of the instruction being printed (comments not counted).
    instruction: usize,
    /// File index and line of the last instruction that had a source.
    last: Option<(u16, u16)>,
}

impl<'a> DebugLines<'a> {
    /// The printer's view of a DBUG comment; `None` when the table does not parse (the listing
    /// then shows no debug lines, as it would without the block).
    pub(super) fn new(comment: &'a Comment) -> Option<Self> {
        let info = DebugInfoView::parse(&comment.data).ok()?;
        let entry_point = info.entry_point();
        let mut writes = Vec::new();
        let mut names = Vec::new();
        let mut name_ends = Vec::with_capacity(info.variables().len());
        for (variable, v) in info.variables().enumerate() {
            write_qualified_name(&mut names, v.scope(), entry_point, v.name());
            name_ends.push(names.len());
            writes.extend(v.writes().map(|w| Write {
                instruction: w.instruction,
                variable: variable as u32,
                components: w.components,
            }));
        }
        // Stable: writes to one instruction keep table order.
        writes.sort_by_key(|w| w.instruction);
        let sources = info.instructions().map(|r| r.source()).collect();
        let files = info.files().len();
        Some(DebugLines {
            info,
            sources,
            files,
            names,
            name_ends,
            writes,
            next_write: 0,
            instruction: 0,
            last: None,
        })
    }
}

impl InstructionHook for DebugLines<'_> {
    fn before(&mut self, out: &mut Vec<u8>) {
        self.line_directive(out, self.instruction);
    }

    fn after(&mut self, out: &mut Vec<u8>) {
        self.annotations(out, self.instruction);
        self.instruction += 1;
    }
}

impl DebugLines<'_> {
    /// The `#line` directive due before instruction `index`, if any.
    fn line_directive(&mut self, out: &mut Vec<u8>, index: usize) {
        let Some(&Some((file, line))) = self.sources.get(index) else {
            return;
        };
        if file as usize >= self.files {
            return;
        }
        let with_name = match self.last {
            None => true,
            Some((last_file, _)) if last_file != file => true,
            Some((_, last_line)) if (line as u32).abs_diff(last_line as u32) >= LINE_MOVE_SHOWN => {
                false
            }
            Some(_) => {
                self.last = Some((file, line));
                return;
            }
        };
        self.last = Some((file, line));
        out.text("\n#line ");
        push_number(out, line as u32);
        if with_name {
            out.text(" \"");
            push_text(out, self.info.file(file as usize).unwrap_or_default(), true);
            out.byte(b'"');
        }
        out.byte(b'\n');
    }

    /// The variable annotations of instruction `index` (appended to its line), if any.
    fn annotations(&mut self, out: &mut Vec<u8>, index: usize) {
        let mut first = true;
        while let Some(w) = self.writes.get(self.next_write) {
            let at = w.instruction as usize;
            if at > index {
                break;
            }
            self.next_write += 1;
            if at < index {
                continue;
            }
            out.text(if first { "  // " } else { ", " });
            first = false;
            let v = w.variable as usize;
            let start = if v == 0 { 0 } else { self.name_ends[v - 1] };
            out.extend_from_slice(&self.names[start..self.name_ends[v]]);
            out.byte(b'<');
            let components = w.components.iter().filter(|&&c| c != VariableWrite::NONE);
            for (i, &c) in components.enumerate() {
                if i > 0 {
                    out.byte(b',');
                }
                push_number(out, c as u32);
            }
            out.byte(b'>');
        }
    }
}

/// Appends a variable's name as fxc's listing qualifies it: bare for a parameter of the entry
/// point, `scope::name` for a parameter of another function, `::name` for locals and the return
/// value.
pub fn write_variable_name(out: &mut String, info: &DebugInfo, variable: &Variable) {
    write_qualified_name(
        out,
        variable.scope.as_ref().map(|s| &s.0[..]),
        info.entry_point.as_ref().map(|s| &s.0[..]),
        &variable.name.0,
    );
}

/// [`write_variable_name`] from the names' bytes.
fn write_qualified_name(
    out: &mut impl Text,
    scope: Option<&[u8]>,
    entry_point: Option<&[u8]>,
    name: &[u8],
) {
    match scope {
        Some(scope) if Some(scope) == entry_point => {}
        Some(scope) => {
            push_text(out, scope, false);
            out.text("::");
        }
        None => out.text("::"),
    }
    push_text(out, name, false);
}

/// A table string as text. Compilers write plain ASCII; a hand-made table's control characters
/// (and, inside a `#line` file name, quotes) become `?` so that the listing still assembles: a
/// newline would end the comment or the directive early.
fn push_text(out: &mut impl Text, s: &[u8], quoted: bool) {
    let plain = |b: &u8| (b' '..=b'~').contains(b) && !(quoted && *b == b'"');
    // A fold without an early exit, so that the check vectorises (file names run to a hundred
    // bytes and are printed with every `#line` that changes file).
    if s.iter().fold(true, |all, b| all & plain(b)) {
        // Printable ASCII: the common case, without a per-character loop or a UTF-8 check.
        out.ascii(s);
        return;
    }
    let unsafe_char = |c: char| c.is_control() || (quoted && c == '"');
    let shown: String = bytes_text(s)
        .chars()
        .map(|c| if unsafe_char(c) { '?' } else { c })
        .collect();
    out.text(&shown);
}
