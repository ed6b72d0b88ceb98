//! Diagnostics: what went wrong, where (file, line, column, byte span) and which rule.

use miette::{LabeledSpan, NamedSource, SourceCode};
use std::fmt;
use std::sync::Arc;

/// The rule a diagnostic reports. Every rule has a stable code (`dxso::asm::<name>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rule {
    /// A character that starts no token.
    UnexpectedCharacter,
    /// A `/*` comment or a string with no end.
    Unterminated,
    /// The first statement is not a version (`vs_2_0`, `ps.1.4`).
    MissingVersion,
    /// A version that names no shader model.
    BadVersion,
    /// A mnemonic no opcode has.
    UnknownMnemonic,
    /// An opcode the shader version does not have.
    OpcodeNotInVersion,
    /// A suffix (`_sat`, `_x2`, `_texcoord1`, `_gt`) the instruction does not take.
    BadModifier,
    /// Fewer operands than the instruction takes.
    MissingOperand,
    /// More operands than the instruction takes.
    ExtraOperand,
    /// Something that is not a register where a register must be.
    BadRegister,
    /// A register the shader version does not have (`t0` in a vertex shader, `o0` before 3_0).
    RegisterNotInVersion,
    /// A register number past the 11-bit field.
    RegisterIndex,
    /// A swizzle with letters other than `xyzwrgba` or more than four.
    BadSwizzle,
    /// A write mask whose letters are not in order or repeat.
    BadWriteMask,
    /// A source modifier (`_bx2`, `1-`, `!`) that does not fit.
    BadSourceModifier,
    /// A relative address that is not `a0.c`, `aL` plus constants.
    BadRelativeAddress,
    /// A number that does not parse or does not fit.
    BadNumber,
    /// A token where another was expected.
    UnexpectedToken,
    /// A `// dxso:` line that is not a `dxso:comment` or `dxso:data` line of hexadecimal
    /// DWORDs, or a `dxso:data` line with no block to continue.
    BadLosslessLine,
    /// An unknown or malformed preprocessor directive.
    BadDirective,
    /// `#if` without `#endif`.
    UnterminatedConditional,
    /// `#else`, `#elif` or `#endif` without `#if`.
    UnmatchedConditional,
    /// A malformed `#if` expression (or division by zero in it).
    BadExpression,
    /// A function-like macro used with the wrong number of arguments.
    MacroArguments,
    /// A macro that expands without end or past the size limit.
    MacroExpansion,
    /// An `#include` that cannot be read.
    IncludeNotFound,
    /// A file that includes itself, directly or not (or nesting past the limit).
    IncludeCycle,
    /// More `#include` directives read in one run than the limit (files that include others
    /// several times each, nested, multiply without a cycle).
    TooManyIncludes,
    /// `#error`.
    ErrorDirective,
    /// A warning, not an error: a `// Parameters:` / `// Registers:` header that is not
    /// Microsoft's constant table (a note after the register table, a register row without a
    /// declaration, an unknown type), so the text assembles without a CTAB.
    ConstantTable,
}

impl Rule {
    /// `true` for the rules that warn: the text still assembles.
    pub fn is_warning(self) -> bool {
        matches!(self, Rule::ConstantTable)
    }

    /// The stable code of the rule.
    pub fn code(self) -> &'static str {
        use Rule::*;
        match self {
            UnexpectedCharacter => "dxso::asm::unexpected_character",
            Unterminated => "dxso::asm::unterminated",
            MissingVersion => "dxso::asm::missing_version",
            BadVersion => "dxso::asm::bad_version",
            UnknownMnemonic => "dxso::asm::unknown_mnemonic",
            OpcodeNotInVersion => "dxso::asm::opcode_not_in_version",
            BadModifier => "dxso::asm::bad_modifier",
            MissingOperand => "dxso::asm::missing_operand",
            ExtraOperand => "dxso::asm::extra_operand",
            BadRegister => "dxso::asm::bad_register",
            RegisterNotInVersion => "dxso::asm::register_not_in_version",
            RegisterIndex => "dxso::asm::register_index",
            BadSwizzle => "dxso::asm::bad_swizzle",
            BadWriteMask => "dxso::asm::bad_write_mask",
            BadSourceModifier => "dxso::asm::bad_source_modifier",
            BadRelativeAddress => "dxso::asm::bad_relative_address",
            BadNumber => "dxso::asm::bad_number",
            UnexpectedToken => "dxso::asm::unexpected_token",
            BadLosslessLine => "dxso::asm::lossless_line",
            BadDirective => "dxso::asm::bad_directive",
            UnterminatedConditional => "dxso::asm::unterminated_conditional",
            UnmatchedConditional => "dxso::asm::unmatched_conditional",
            BadExpression => "dxso::asm::bad_expression",
            MacroArguments => "dxso::asm::macro_arguments",
            MacroExpansion => "dxso::asm::macro_expansion",
            IncludeNotFound => "dxso::asm::include_not_found",
            IncludeCycle => "dxso::asm::include_cycle",
            TooManyIncludes => "dxso::asm::too_many_includes",
            ErrorDirective => "dxso::asm::error_directive",
            ConstantTable => "dxso::asm::constant_table",
        }
    }
}

/// One error: the rule, a message, and where.
#[derive(Clone)]
pub struct Diagnostic {
    /// The rule broken.
    pub rule: Rule,
    /// What is wrong, in words.
    pub message: String,
    /// The file name (as given, or `<input>`; `#line` renames it).
    pub file: String,
    /// 1-based line (`#line` renumbers it).
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
    /// The byte range in the source text.
    pub span: std::ops::Range<usize>,
    source: Arc<NamedSource<Arc<str>>>,
    /// Source index, for reporting in text order.
    pub(crate) file_index: u32,
}

/// Two diagnostics are equal when they say the same thing at the same place (rule, message,
/// file, line, column, span); the source text they show is not compared.
impl PartialEq for Diagnostic {
    fn eq(&self, other: &Self) -> bool {
        (
            self.rule,
            &self.message,
            &self.file,
            self.line,
            self.column,
            &self.span,
        ) == (
            other.rule,
            &other.message,
            &other.file,
            other.line,
            other.column,
            &other.span,
        )
    }
}

impl Eq for Diagnostic {}

impl Diagnostic {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        rule: Rule,
        message: String,
        file: String,
        line: u32,
        column: u32,
        span: std::ops::Range<usize>,
        source: Arc<NamedSource<Arc<str>>>,
        file_index: u32,
    ) -> Self {
        Diagnostic {
            file_index,
            rule,
            message,
            file,
            line,
            column,
            span,
            source,
        }
    }
}

impl fmt::Debug for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {} [{}]",
            self.file,
            self.line,
            self.column,
            self.message,
            self.rule.code()
        )
    }
}

impl std::error::Error for Diagnostic {}

impl miette::Diagnostic for Diagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.rule.code()))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&*self.source)
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.rule.is_warning() {
            true => miette::Severity::Warning,
            false => miette::Severity::Error,
        })
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let len = self.span.end.saturating_sub(self.span.start);
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
            Some(self.message.clone()),
            (self.span.start, len),
        ))))
    }
}

/// Every error of one [`crate::parse()`] run (at least one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostics {
    /// The errors, in source order of discovery.
    pub errors: Vec<Diagnostic>,
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.errors.as_slice() {
            [one] => write!(f, "{one}"),
            many => {
                write!(f, "{} errors", many.len())?;
                for e in many {
                    write!(f, "\n  {e}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for Diagnostics {}

impl miette::Diagnostic for Diagnostics {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.errors
            .first()
            .map(|e| Box::new(e.rule.code()) as Box<dyn fmt::Display>)
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        Some(Box::new(
            self.errors.iter().map(|e| e as &dyn miette::Diagnostic),
        ))
    }
}
