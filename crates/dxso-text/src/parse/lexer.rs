//! Tokens of assembly and preprocessor text.
//!
//! Comments (`//`, `;`, `/* */`) and line continuations (`\` before a newline) are skipped;
//! newlines are tokens because statements and directives end at them.

use logos::Logos;

/// The kind of a token; its text is a span of the source it came from.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[logos(skip r"[ \t\x0C\x0B]+")]
#[logos(skip r"\\\r?\n")]
#[logos(skip r"//[^\n]*")]
#[logos(skip r";[^\n]*")]
#[logos(skip r"/\*([^*]|\*+[^*/])*\*+/")]
pub enum Kind {
    /// A `// dxso:` comment alone on its line, which carries what a lossless listing adds to Microsoft's
    /// ([`crate::syntax::lossless`]); other `//` comments are skipped.
    #[regex(r"//[ \t]*dxso:[^\n]*", priority = 100)]
    Lossless,
    /// A line end.
    #[regex(r"\r?\n")]
    #[token("\r")]
    Newline,
    /// A name: mnemonic, register, macro, label.
    #[regex(r"[A-Za-z_$][A-Za-z0-9_$]*")]
    Ident,
    /// A number: decimal or hexadecimal integer, or a C float literal (`1.0f`, `-.5` is a minus
    /// then `.5`, `1e-3`, `0.`).
    #[regex(r"[0-9]+[uUlL]*")]
    #[regex(r"0[xX][0-9a-fA-F]+[uUlL]*")]
    #[regex(r"([0-9]+\.[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?[fFhH]?")]
    #[regex(r"[0-9]+[eE][+-]?[0-9]+[fFhH]?")]
    #[regex(r"[0-9]+[fFhH]")]
    Number,
    /// A string literal (`#include "file"`, `#line 1 "name"`).
    #[regex(r#""[^"\n]*""#)]
    String,
    /// An unterminated string literal (an error).
    #[regex(r#""[^"\n]*"#)]
    BadString,
    /// `<file>` of `#include`, recognised by the preprocessor from `<` tokens.
    #[token(",")]
    Comma,
    /// `.`
    #[token(".")]
    Dot,
    /// `+`
    #[token("+")]
    Plus,
    /// `-`
    #[token("-")]
    Minus,
    /// `*`
    #[token("*")]
    Star,
    /// `/`
    #[token("/")]
    Slash,
    /// `%`
    #[token("%")]
    Percent,
    /// `(`
    #[token("(")]
    LParen,
    /// `)`
    #[token(")")]
    RParen,
    /// `[`
    #[token("[")]
    LBracket,
    /// `]`
    #[token("]")]
    RBracket,
    /// `{`
    #[token("{")]
    LBrace,
    /// `}`
    #[token("}")]
    RBrace,
    /// `!`
    #[token("!")]
    Bang,
    /// `~`
    #[token("~")]
    Tilde,
    /// `<`
    #[token("<")]
    Lt,
    /// `>`
    #[token(">")]
    Gt,
    /// `<=`
    #[token("<=")]
    Le,
    /// `>=`
    #[token(">=")]
    Ge,
    /// `==`
    #[token("==")]
    EqEq,
    /// `!=`
    #[token("!=")]
    Ne,
    /// `&&`
    #[token("&&")]
    AndAnd,
    /// `||`
    #[token("||")]
    OrOr,
    /// `&`
    #[token("&")]
    Amp,
    /// `|`
    #[token("|")]
    Pipe,
    /// `^`
    #[token("^")]
    Caret,
    /// `<<`
    #[token("<<")]
    Shl,
    /// `>>`
    #[token(">>")]
    Shr,
    /// `?`
    #[token("?")]
    Question,
    /// `:`
    #[token(":")]
    Colon,
    /// `=`
    #[token("=")]
    Assign,
    /// `#`
    #[token("#")]
    Hash,
    /// `##`
    #[token("##")]
    HashHash,
    /// An unterminated `/*` comment (an error).
    #[regex(r"/\*([^*]|\*+[^*/])*\**")]
    OpenComment,
    /// Any other character (an error).
    Unknown,
}

/// A token: its kind, the source it lies in, and its byte range there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// The kind.
    pub kind: Kind,
    /// Index of the source text (see [`super::preprocess::Sources`]).
    pub file: u32,
    /// Byte range of the text.
    pub start: u32,
    /// End of the byte range.
    pub end: u32,
    /// Where a diagnostic about this token points: the token itself, or, for tokens a macro
    /// produced, the macro's use.
    pub site: Site,
    /// Whitespace (or a comment) precedes the token on its line.
    pub spaced: bool,
}

/// A place in a source for diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Site {
    /// Source index.
    pub file: u32,
    /// Byte offset.
    pub start: u32,
    /// End byte offset.
    pub end: u32,
}

impl Token {
    /// The place of the token's own text.
    pub fn own_site(&self) -> Site {
        Site {
            file: self.file,
            start: self.start,
            end: self.end,
        }
    }
}

/// Tokenizes `text` (source number `file`).
pub fn tokenize(text: &str, file: u32, out: &mut Vec<Token>) {
    let mut lexer = Kind::lexer(text);
    let mut last_end = 0usize;
    let mut line_start = true;
    while let Some(kind) = lexer.next() {
        let span = lexer.span();
        let kind = kind.unwrap_or(Kind::Unknown);
        // After code, a `// dxso:` comment is a comment like any other.
        if kind == Kind::Lossless && !line_start {
            continue;
        }
        line_start = kind == Kind::Newline;
        let (start, end) = (span.start as u32, span.end as u32);
        let site = Site { file, start, end };
        out.push(Token {
            kind,
            file,
            start,
            end,
            site,
            spaced: span.start > last_end,
        });
        last_end = span.end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<Kind> {
        let mut v = Vec::new();
        tokenize(s, 0, &mut v);
        v.into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn assembly_tokens() {
        use Kind::*;
        assert_eq!(
            kinds("mov r0.xy, -c[a0.x + 12] // c\n"),
            [
                Ident, Ident, Dot, Ident, Comma, Minus, Ident, LBracket, Ident, Dot, Ident, Plus,
                Number, RBracket, Newline
            ]
        );
        assert_eq!(
            kinds("def c0, 1.0f, -.5, 1e-3, 0."),
            [Ident, Ident, Comma, Number, Comma, Minus, Number, Comma, Number, Comma, Number]
        );
        assert_eq!(kinds("vs.1.1 ; comment"), [Ident, Number, Number]);
        assert_eq!(
            kinds("#define A 1 +\\\n 2"),
            [Hash, Ident, Ident, Number, Plus, Number]
        );
        assert_eq!(kinds("a /* x\n y */ b @"), [Ident, Ident, Unknown]);
    }
}
