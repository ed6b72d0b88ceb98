//! Diagnostics in fxc's form: `file(line,col-col): error X3004: undeclared identifier 'foo'`.
//!
//! Build tools written for fxc parse that line, so the position, the severity word and the
//! `X` number follow fxc; errors dxso reports for what it does not implement yet carry codes of
//! their own (`DXSO1xxx`) so no tool mistakes them for an fxc error.

use std::fmt;

/// Where a diagnostic points: a file, a line and a column range (1-based, as fxc prints them).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Loc {
    /// The file name as the source or `#include` named it.
    pub file: String,
    /// Line, from 1.
    pub line: u32,
    /// First column, from 1.
    pub col: u32,
    /// Last column (equal to `col` for a one-character range).
    pub col_end: u32,
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.col_end > self.col {
            write!(
                f,
                "{}({},{}-{})",
                self.file, self.line, self.col, self.col_end
            )
        } else {
            write!(f, "{}({},{})", self.file, self.line, self.col)
        }
    }
}

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The compilation fails.
    Error,
    /// The compilation goes on.
    Warning,
}

/// The rule a diagnostic reports, with fxc's number where fxc has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Code {
    /// X1507: an `#include` names a file that cannot be read.
    IncludeNotFound,
    /// X1000: a malformed preprocessor directive or `#if` expression.
    Preprocessor,
    /// X1501: `#error`.
    ErrorDirective,
    /// X3000: a syntax error.
    Syntax,
    /// X3003: a name declared twice in one scope.
    Redefinition,
    /// X3004: an undeclared identifier.
    Undeclared,
    /// X3013: no overload of a function or intrinsic takes these arguments.
    NoMatchingOverload,
    /// X3017: a value that cannot be converted to the type needed.
    CannotConvert,
    /// X3018: an invalid subscript or member.
    InvalidSubscript,
    /// X3020: operands of mismatched types.
    TypeMismatch,
    /// X3025: assignment to something that is not an l-value.
    NotLValue,
    /// X3500: recursion (fxc inlines every call).
    Recursion,
    /// X3501: the entry point does not exist.
    EntryNotFound,
    /// X3502: an entry-point input or output has no usable semantic.
    MissingSemantic,
    /// X3511: a loop cannot be unrolled within the iteration limit.
    UnrollLimit,
    /// X3206: implicit truncation of a vector type (a warning).
    ImplicitTruncation,
    /// X4505: more temporaries than the profile has.
    TooManyTemps,
    /// X5608: more instruction slots than the profile has.
    TooManySlots,
    /// X5589: a constant register past the profile's file (vs_1_1 has c0-c95).
    ConstRegister,
    /// X3539: a profile fxc does not accept for this input.
    BadProfile,
    /// A construct the language has and dxso does not compile yet.
    Unsupported,
    /// A limit dxso sets against hostile input (nesting depth, token count).
    Limit,
}

impl Code {
    /// The code as printed (`X3004`, `DXSO1001`).
    pub const fn name(self) -> &'static str {
        match self {
            Code::IncludeNotFound => "X1507",
            Code::Preprocessor => "X1000",
            Code::ErrorDirective => "X1501",
            Code::Syntax => "X3000",
            Code::Redefinition => "X3003",
            Code::Undeclared => "X3004",
            Code::NoMatchingOverload => "X3013",
            Code::CannotConvert => "X3017",
            Code::InvalidSubscript => "X3018",
            Code::TypeMismatch => "X3020",
            Code::NotLValue => "X3025",
            Code::Recursion => "X3500",
            Code::EntryNotFound => "X3501",
            Code::MissingSemantic => "X3502",
            Code::UnrollLimit => "X3511",
            Code::ImplicitTruncation => "X3206",
            Code::TooManyTemps => "X4505",
            Code::TooManySlots => "X5608",
            Code::ConstRegister => "X5589",
            Code::BadProfile => "X3539",
            Code::Unsupported => "DXSO1001",
            Code::Limit => "DXSO1002",
        }
    }
}

/// One diagnostic.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The rule.
    pub code: Code,
    /// Where.
    pub loc: Loc,
    /// What, in fxc's wording where fxc has one.
    pub message: String,
}

impl Diagnostic {
    /// An error.
    pub fn error(code: Code, loc: Loc, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            loc,
            message: message.into(),
        }
    }

    /// A warning.
    pub fn warning(code: Code, loc: Loc, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            code,
            loc,
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{}: {} {}: {}",
            self.loc,
            word,
            self.code.name(),
            self.message
        )
    }
}

/// Why a compilation failed: every diagnostic it gave, errors and warnings, in source order of
/// discovery. Displayed one per line, as fxc prints them.
#[derive(Clone, Debug, PartialEq, Eq, Default, thiserror::Error)]
#[error("{}", render(.0))]
pub struct Diagnostics(pub Vec<Diagnostic>);

fn render(list: &[Diagnostic]) -> String {
    list.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

impl Diagnostics {
    /// The errors alone.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter().filter(|d| d.severity == Severity::Error)
    }

    /// `true` when at least one diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.errors().next().is_some()
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fxc_form() {
        let d = Diagnostic::error(
            Code::Undeclared,
            Loc {
                file: "a.hlsl".into(),
                line: 3,
                col: 5,
                col_end: 7,
            },
            "undeclared identifier 'foo'",
        );
        assert_eq!(
            d.to_string(),
            "a.hlsl(3,5-7): error X3004: undeclared identifier 'foo'"
        );
        let w = Diagnostic::warning(
            Code::ImplicitTruncation,
            Loc {
                file: "b".into(),
                line: 1,
                col: 2,
                col_end: 2,
            },
            "implicit truncation of vector type",
        );
        assert_eq!(
            w.to_string(),
            "b(1,2): warning X3206: implicit truncation of vector type"
        );
    }
}
