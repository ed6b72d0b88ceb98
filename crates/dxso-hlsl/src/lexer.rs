//! The tokens of HLSL and of its preprocessor, lexed with logos.

use logos::Logos;

/// A token kind. Comments and line continuations are skipped; newlines are kept because the
/// preprocessor's directives end at them.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[logos(skip r"[ \t\f\r]+")]
#[logos(skip r"//[^\n]*")]
#[logos(skip r"/\*([^*]|\*+[^*/])*\*+/")]
#[logos(skip r"\\\r?\n")]
pub enum Tok {
    /// End of a line.
    #[token("\n")]
    Newline,
    /// An identifier or keyword.
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Ident,
    /// An integer literal (decimal, octal, hex; `u`/`l` suffixes).
    #[regex(r"[0-9]+[uUlL]*", priority = 3)]
    #[regex(r"0[xX][0-9a-fA-F]+[uUlL]*")]
    Int,
    /// A floating literal (`1.0`, `.5`, `1.`, `1e3`, `f`/`h` suffixes).
    #[regex(r"([0-9]+\.[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?[fFhHlL]?")]
    #[regex(r"[0-9]+[eE][+-]?[0-9]+[fFhHlL]?")]
    #[regex(r"[0-9]+[fFhH]")]
    Float,
    /// A string literal.
    #[regex(r#""([^"\\\n]|\\.)*""#)]
    Str,
    /// An unterminated block comment (an error).
    #[regex(r"/\*([^*]|\*+[^*/])*\**")]
    OpenComment,
    #[token("#")]
    /// `#`.
    Hash,
    #[token("##")]
    /// `##`.
    HashHash,
    #[token("(")]
    /// `(`.
    LParen,
    #[token(")")]
    /// `)`.
    RParen,
    #[token("[")]
    /// `[`.
    LBracket,
    #[token("]")]
    /// `]`.
    RBracket,
    #[token("{")]
    /// `{`.
    LBrace,
    #[token("}")]
    /// `}`.
    RBrace,
    #[token(";")]
    /// `;`.
    Semi,
    #[token(",")]
    /// `,`.
    Comma,
    #[token(".")]
    /// `.`.
    Dot,
    #[token(":")]
    /// `:`.
    Colon,
    #[token("::")]
    /// `::`.
    ColonColon,
    #[token("?")]
    /// `?`.
    Question,
    #[token("+")]
    /// `+`.
    Plus,
    #[token("-")]
    /// `-`.
    Minus,
    #[token("*")]
    /// `*`.
    Star,
    #[token("/")]
    /// `/`.
    Slash,
    #[token("%")]
    /// `%`.
    Percent,
    #[token("++")]
    /// `++`.
    PlusPlus,
    #[token("--")]
    /// `--`.
    MinusMinus,
    #[token("=")]
    /// `=`.
    Assign,
    #[token("+=")]
    /// `+=`.
    PlusAssign,
    #[token("-=")]
    /// `-=`.
    MinusAssign,
    #[token("*=")]
    /// `*=`.
    StarAssign,
    #[token("/=")]
    /// `/=`.
    SlashAssign,
    #[token("%=")]
    /// `%=`.
    PercentAssign,
    #[token("&=")]
    /// `&=`.
    AmpAssign,
    #[token("|=")]
    /// `|=`.
    PipeAssign,
    #[token("^=")]
    /// `^=`.
    CaretAssign,
    #[token("<<=")]
    /// `<<=`.
    ShlAssign,
    #[token(">>=")]
    /// `>>=`.
    ShrAssign,
    #[token("==")]
    /// `==`.
    EqEq,
    #[token("!=")]
    /// `!=`.
    Ne,
    #[token("<")]
    /// `<`.
    Lt,
    #[token(">")]
    /// `>`.
    Gt,
    #[token("<=")]
    /// `<=`.
    Le,
    #[token(">=")]
    /// `>=`.
    Ge,
    #[token("&&")]
    /// `&&`.
    AndAnd,
    #[token("||")]
    /// `||`.
    OrOr,
    #[token("!")]
    /// `!`.
    Bang,
    #[token("~")]
    /// `~`.
    Tilde,
    #[token("&")]
    /// `&`.
    Amp,
    #[token("|")]
    /// `|`.
    Pipe,
    #[token("^")]
    /// `^`.
    Caret,
    #[token("<<")]
    /// `<<`.
    Shl,
    #[token(">>")]
    /// `>>`.
    Shr,
    /// A preprocessor `#pragma pack_matrix(row_major)` turned into a token for the parser.
    PackRowMajor,
    /// A preprocessor `#pragma pack_matrix(column_major)` turned into a token for the parser.
    PackColumnMajor,
    /// A character no token starts with.
    Unknown,
    /// End of input.
    Eof,
}

/// A token with its text and where it came from (for macro expansions, the macro's use).
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The kind.
    pub kind: Tok,
    /// The text.
    pub text: String,
    /// The source file index.
    pub file: u32,
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1.
    pub col: u32,
    /// Whitespace came before it (for `#define NAME(` versus `#define NAME (`).
    pub spaced: bool,
}

/// Lexes `text` of source `file`.
pub fn tokenize(text: &str, file: u32) -> Vec<Token> {
    let mut out = Vec::new();
    let mut lex = Tok::lexer(text);
    let mut line = 1u32;
    let mut line_start = 0usize;
    let mut last_end = 0usize;
    while let Some(r) = lex.next() {
        let span = lex.span();
        // Count newlines skipped inside comments and continuations.
        let gap = &text[last_end..span.start];
        for (i, b) in gap.bytes().enumerate() {
            if b == b'\n' {
                line += 1;
                line_start = last_end + i + 1;
            }
        }
        let kind = r.unwrap_or(Tok::Unknown);
        out.push(Token {
            kind,
            text: text[span.clone()].to_string(),
            file,
            line,
            col: (span.start - line_start) as u32 + 1,
            spaced: span.start > last_end || span.start == 0,
        });
        if kind == Tok::Newline {
            line += 1;
            line_start = span.end;
        } else if kind == Tok::OpenComment {
            break;
        }
        last_end = span.end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<Tok> {
        tokenize(s, 0).into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn numbers_and_operators() {
        assert_eq!(
            kinds("1 1.0 .5 1. 2e3 1.0f 0x1F 3u"),
            vec![
                Tok::Int,
                Tok::Float,
                Tok::Float,
                Tok::Float,
                Tok::Float,
                Tok::Float,
                Tok::Int,
                Tok::Int
            ]
        );
        assert_eq!(
            kinds("a+=b<<=c>=d"),
            vec![
                Tok::Ident,
                Tok::PlusAssign,
                Tok::Ident,
                Tok::ShlAssign,
                Tok::Ident,
                Tok::Ge,
                Tok::Ident
            ]
        );
    }

    #[test]
    fn comments_keep_lines() {
        let t = tokenize("a /* x\n y */ b // c\nd", 0);
        assert_eq!(t[0].line, 1);
        assert_eq!(t[1].text, "b");
        assert_eq!(t[1].line, 2);
        assert_eq!(t[3].text, "d");
        assert_eq!(t[3].line, 3);
        assert_eq!(t[3].col, 1);
    }
}
