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

use super::header::text_of;
use super::{push_number, Text};
use dxso::ctab::CtabString;
use dxso::dbug::{DebugInfo, Variable, WriteRef};
use dxso::Comment;

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

/// A parsed DBUG table and where the printer is in it.
pub(super) struct DebugLines {
    info: DebugInfo,
    writes: Vec<WriteRef>,
    next_write: usize,
    /// The index of the instruction being printed (comments not counted).
    instruction: usize,
    /// File index and line of the last instruction that had a source.
    last: Option<(u16, u16)>,
}

impl DebugLines {
    /// The printer's view of a DBUG comment; `None` when the table does not parse (the listing
    /// then shows no debug lines, as it would without the block).
    pub(super) fn new(comment: &Comment) -> Option<Self> {
        let info = DebugInfo::parse_without_layout(&comment.data).ok()?;
        let writes = info.writes_by_instruction();
        Some(DebugLines {
            info,
            writes,
            next_write: 0,
            instruction: 0,
            last: None,
        })
    }
}

impl InstructionHook for DebugLines {
    fn before(&mut self, out: &mut Vec<u8>) {
        self.line_directive(out, self.instruction);
    }

    fn after(&mut self, out: &mut Vec<u8>) {
        self.annotations(out, self.instruction);
        self.instruction += 1;
    }
}

impl DebugLines {
    /// The `#line` directive due before instruction `index`, if any.
    fn line_directive(&mut self, out: &mut Vec<u8>, index: usize) {
        let Some(record) = self.info.instructions.get(index) else {
            return;
        };
        let Some((file, line)) = record.source() else {
            return;
        };
        let Some(name) = self.info.files.get(file as usize) else {
            return;
        };
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
            push_text(out, name, true);
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
            let variable = &self.info.variables[w.variable];
            write_variable_name_to(out, &self.info, variable);
            out.byte(b'<');
            let components = variable.writes[w.write].variable_components();
            for (i, c) in components.enumerate() {
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
    write_variable_name_to(out, info, variable);
}

fn write_variable_name_to(out: &mut impl Text, info: &DebugInfo, variable: &Variable) {
    match &variable.scope {
        Some(scope) if Some(scope) == info.entry_point.as_ref() => {}
        Some(scope) => {
            push_text(out, scope, false);
            out.text("::");
        }
        None => out.text("::"),
    }
    push_text(out, &variable.name, false);
}

/// A table string as text. Compilers write plain ASCII; a hand-made table's control characters
/// (and, inside a `#line` file name, quotes) become `?` so that the listing still assembles: a
/// newline would end the comment or the directive early.
fn push_text(out: &mut impl Text, s: &CtabString, quoted: bool) {
    let plain = |b: &u8| (b' '..=b'~').contains(b) && !(quoted && *b == b'"');
    // A fold without an early exit, so that the check vectorises (file names run to a hundred
    // bytes and are printed with every `#line` that changes file).
    if s.0.iter().fold(true, |all, b| all & plain(b)) {
        // Printable ASCII: the common case, without a per-character loop or a UTF-8 check.
        out.ascii(&s.0);
        return;
    }
    let unsafe_char = |c: char| c.is_control() || (quoted && c == '"');
    let shown: String = text_of(s)
        .chars()
        .map(|c| if unsafe_char(c) { '?' } else { c })
        .collect();
    out.text(&shown);
}
