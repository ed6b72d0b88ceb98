//! The C preprocessor of HLSL: `#define` (object- and function-like, `#` and `##`), `#undef`,
//! `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else`/`#endif` with `defined`, `#include` through the
//! caller's [`IncludeHandler`], `#error`, `#line` (ignored), and `#pragma` (`pack_matrix` becomes
//! a token for the parser; others are ignored as fxc ignores unknown pragmas).
//!
//! It works on the tokens of [`crate::lexer`], not on text: the assembler's preprocessor in
//! dxso-text lexes assembly (`;` starts a comment there), so it cannot serve HLSL as it is.
//! Tokens that macros produce carry the position of the macro's use.

use crate::diag::{Code, Diagnostic, Loc};
use crate::lexer::{tokenize, Tok, Token};
use crate::IncludeHandler;
use std::cell::Cell;
use std::collections::HashMap;

/// Deepest `#include` nesting.
const MAX_INCLUDE_DEPTH: usize = 32;
/// Deepest macro expansion nesting.
const MAX_EXPANSION_DEPTH: usize = 128;
/// Most tokens a whole run may produce.
const MAX_TOKENS: usize = 1 << 21;
/// Most token copies macro expansion may make in a whole run (nested expansions copy their
/// output once per level, so a doubling macro chain costs its output times its depth).
const MAX_EXPANSION_WORK: usize = 1 << 22;
/// Deepest `#if` nesting.
const MAX_CONDITIONAL_DEPTH: usize = 256;

#[derive(Clone)]
struct Macro {
    params: Option<Vec<String>>,
    body: Vec<Token>,
}

struct Cond {
    parent_active: bool,
    active: bool,
    taken: bool,
    in_else: bool,
}

/// The result of preprocessing: tokens for the parser and the file names their indices name.
pub struct Output {
    /// The tokens of the active lines, without newlines, ended by [`Tok::Eof`].
    pub tokens: Vec<Token>,
    /// File names by index.
    pub files: Vec<String>,
}

/// Preprocesses `text` (named `name`).
pub fn preprocess(
    name: &str,
    text: &str,
    defines: &[(String, String)],
    includes: &dyn IncludeHandler,
) -> Result<Output, Diagnostic> {
    let mut p = Pre {
        files: vec![name.to_string()],
        macros: HashMap::new(),
        conds: Vec::new(),
        includes,
        out: Vec::new(),
        depth: 0,
        work: Cell::new(0),
    };
    for (k, v) in defines {
        let mut body = tokenize(v, 0);
        body.retain(|t| t.kind != Tok::Newline);
        p.macros.insert(k.clone(), Macro { params: None, body });
    }
    p.file(0, text)?;
    let loc = Loc {
        file: name.to_string(),
        ..Loc::default()
    };
    p.out.push(Token {
        kind: Tok::Eof,
        text: String::new(),
        file: 0,
        line: p.out.last().map_or(1, |t| t.line),
        col: 1,
        spaced: true,
    });
    if !p.conds.is_empty() {
        return Err(Diagnostic::error(
            Code::Preprocessor,
            loc,
            "unexpected end of file in a conditional (missing #endif)",
        ));
    }
    Ok(Output {
        tokens: p.out,
        files: p.files,
    })
}

struct Pre<'a> {
    files: Vec<String>,
    macros: HashMap<String, Macro>,
    conds: Vec<Cond>,
    includes: &'a dyn IncludeHandler,
    out: Vec<Token>,
    depth: usize,
    /// Token copies made by macro expansion so far (see [`MAX_EXPANSION_WORK`]).
    work: Cell<usize>,
}

impl Pre<'_> {
    fn loc(&self, t: &Token) -> Loc {
        Loc {
            file: self.files.get(t.file as usize).cloned().unwrap_or_default(),
            line: t.line,
            col: t.col,
            col_end: t.col + t.text.len().max(1) as u32 - 1,
        }
    }

    fn err(&self, t: &Token, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(Code::Preprocessor, self.loc(t), msg)
    }

    fn active(&self) -> bool {
        self.conds.last().map_or(true, |c| c.active)
    }

    fn file(&mut self, index: u32, text: &str) -> Result<(), Diagnostic> {
        let tokens = tokenize(text, index);
        if let Some(t) = tokens.iter().find(|t| t.kind == Tok::OpenComment) {
            return Err(self.err(t, "unterminated comment"));
        }
        let cond_depth = self.conds.len();
        let mut pending: Vec<Token> = Vec::new();
        for line in tokens.split(|t| t.kind == Tok::Newline) {
            if line.first().is_some_and(|t| t.kind == Tok::Hash) {
                self.flush(&mut pending)?;
                self.directive(line)?;
            } else if self.active() {
                pending.extend_from_slice(line);
            }
        }
        self.flush(&mut pending)?;
        if self.conds.len() > cond_depth {
            let t = tokens.last().cloned().unwrap_or(Token {
                kind: Tok::Eof,
                text: String::new(),
                file: index,
                line: 1,
                col: 1,
                spaced: true,
            });
            return Err(self.err(&t, "#if without #endif at the end of the file"));
        }
        Ok(())
    }

    fn flush(&mut self, pending: &mut Vec<Token>) -> Result<(), Diagnostic> {
        if pending.is_empty() {
            return Ok(());
        }
        let line = std::mem::take(pending);
        let expanded = self.expand(&line, &mut Vec::new(), 0)?;
        self.out.extend(expanded);
        if self.out.len() > MAX_TOKENS {
            return Err(self.err(&line[0], "the preprocessed source exceeds 2M tokens"));
        }
        Ok(())
    }

    fn directive(&mut self, line: &[Token]) -> Result<(), Diagnostic> {
        let Some(name_tok) = line.get(1) else {
            return Ok(()); // the null directive
        };
        let name = name_tok.text.as_str();
        let rest = &line[2..];
        match name {
            "if" | "ifdef" | "ifndef" => {
                if self.conds.len() >= MAX_CONDITIONAL_DEPTH {
                    return Err(Diagnostic::error(
                        Code::Limit,
                        self.loc(name_tok),
                        "#if nesting deeper than 256",
                    ));
                }
                let parent = self.active();
                let value = if !parent {
                    false
                } else if name == "if" {
                    self.eval_if(name_tok, rest)? != 0
                } else {
                    let id = rest
                        .first()
                        .filter(|t| t.kind == Tok::Ident)
                        .ok_or_else(|| self.err(name_tok, format!("#{name} needs a name")))?;
                    self.macros.contains_key(&id.text) == (name == "ifdef")
                };
                self.conds.push(Cond {
                    parent_active: parent,
                    active: value,
                    taken: value,
                    in_else: false,
                });
            }
            "elif" => {
                let taken = {
                    let c = self
                        .conds
                        .last()
                        .ok_or_else(|| self.err(name_tok, "#elif without #if"))?;
                    if c.in_else {
                        return Err(self.err(name_tok, "#elif after #else"));
                    }
                    c.taken || !c.parent_active
                };
                let value = !taken && self.eval_if(name_tok, rest)? != 0;
                let c = self.conds.last_mut().expect("checked above");
                c.active = value;
                c.taken |= value;
            }
            "else" => {
                let e = self.err(name_tok, "#else without #if");
                let c = self.conds.last_mut().ok_or(e)?;
                if c.in_else {
                    return Err(self.err(name_tok, "#else after #else"));
                }
                c.in_else = true;
                c.active = c.parent_active && !c.taken;
                c.taken = true;
            }
            "endif" => {
                if self.conds.pop().is_none() {
                    return Err(self.err(name_tok, "#endif without #if"));
                }
            }
            _ if !self.active() => {}
            "define" => self.define(name_tok, rest)?,
            "undef" => {
                if let Some(t) = rest.first() {
                    self.macros.remove(&t.text);
                }
            }
            "include" => self.include(name_tok, rest)?,
            "error" => {
                let msg: Vec<&str> = rest.iter().map(|t| t.text.as_str()).collect();
                return Err(Diagnostic::error(
                    Code::ErrorDirective,
                    self.loc(name_tok),
                    format!("#error {}", msg.join(" ")),
                ));
            }
            "pragma" => {
                let words: Vec<&str> = rest.iter().map(|t| t.text.as_str()).collect();
                if words.first() == Some(&"pack_matrix") {
                    // The argument is not macro-expanded; one fxc does not know is ignored.
                    let kind = match words.get(2) {
                        Some(&"row_major") => Tok::PackRowMajor,
                        Some(&"column_major") => Tok::PackColumnMajor,
                        _ => return Ok(()),
                    };
                    let mut t = name_tok.clone();
                    t.kind = kind;
                    self.out.push(t);
                }
            }
            "line" => {}
            _ => {
                return Err(self.err(name_tok, format!("unknown directive #{name}")));
            }
        }
        Ok(())
    }

    fn define(&mut self, at: &Token, rest: &[Token]) -> Result<(), Diagnostic> {
        let id = rest
            .first()
            .filter(|t| t.kind == Tok::Ident)
            .ok_or_else(|| self.err(at, "#define needs a name"))?;
        let mut i = 1;
        let params = if rest
            .get(1)
            .is_some_and(|t| t.kind == Tok::LParen && !t.spaced)
        {
            let mut ps = Vec::new();
            i = 2;
            loop {
                let t = rest
                    .get(i)
                    .ok_or_else(|| self.err(id, "unterminated macro parameter list"))?;
                i += 1;
                match t.kind {
                    Tok::RParen => break,
                    Tok::Comma => {}
                    Tok::Ident => ps.push(t.text.clone()),
                    _ => return Err(self.err(t, "bad macro parameter")),
                }
            }
            Some(ps)
        } else {
            None
        };
        self.macros.insert(
            id.text.clone(),
            Macro {
                params,
                body: rest[i..].to_vec(),
            },
        );
        Ok(())
    }

    fn include(&mut self, at: &Token, rest: &[Token]) -> Result<(), Diagnostic> {
        let (name, system) = match rest.first() {
            Some(t) if t.kind == Tok::Str => (t.text[1..t.text.len() - 1].to_string(), false),
            Some(t) if t.kind == Tok::Lt => {
                let mut s = String::new();
                for t in &rest[1..] {
                    if t.kind == Tok::Gt {
                        break;
                    }
                    s.push_str(&t.text);
                }
                (s, true)
            }
            _ => return Err(self.err(at, "#include expects \"FILENAME\" or <FILENAME>")),
        };
        if self.depth >= MAX_INCLUDE_DEPTH {
            return Err(Diagnostic::error(
                Code::Limit,
                self.loc(at),
                "#include nesting deeper than 32",
            ));
        }
        let from = self.files.get(at.file as usize).cloned();
        let (resolved, text) =
            self.includes
                .open(&name, from.as_deref(), system)
                .map_err(|why| {
                    Diagnostic::error(
                        Code::IncludeNotFound,
                        self.loc(at),
                        format!("failed to open source file: '{name}' ({why})"),
                    )
                })?;
        self.files.push(resolved);
        let index = (self.files.len() - 1) as u32;
        self.depth += 1;
        let r = self.file(index, &text);
        self.depth -= 1;
        r
    }

    /// Expands macros in `input`; `disabled` holds the macros being expanded.
    fn expand(
        &self,
        input: &[Token],
        disabled: &mut Vec<String>,
        depth: usize,
    ) -> Result<Vec<Token>, Diagnostic> {
        if depth > MAX_EXPANSION_DEPTH {
            return Err(Diagnostic::error(
                Code::Limit,
                input.first().map(|t| self.loc(t)).unwrap_or_default(),
                "macro expansion nested deeper than 128",
            ));
        }
        let mut out = Vec::with_capacity(input.len());
        let mut i = 0;
        while i < input.len() {
            let t = &input[i];
            i += 1;
            let m = match (t.kind, self.macros.get(&t.text)) {
                (Tok::Ident, Some(m)) if !disabled.contains(&t.text) => m,
                _ => {
                    out.push(t.clone());
                    continue;
                }
            };
            let body = match &m.params {
                None => m.body.clone(),
                Some(params) => {
                    if input.get(i).map_or(true, |n| n.kind != Tok::LParen) {
                        out.push(t.clone());
                        continue;
                    }
                    let (args, next) = self.collect_args(t, input, i + 1)?;
                    i = next;
                    if args.len() != params.len()
                        && !(params.is_empty() && args.len() == 1 && args[0].is_empty())
                    {
                        return Err(self.err(
                            t,
                            format!(
                                "macro '{}' takes {} arguments, {} given",
                                t.text,
                                params.len(),
                                args.len()
                            ),
                        ));
                    }
                    self.substitute(t, &m.body, params, &args, disabled, depth)?
                }
            };
            let placed: Vec<Token> = body
                .into_iter()
                .map(|mut b| {
                    b.file = t.file;
                    b.line = t.line;
                    b.col = t.col;
                    b
                })
                .collect();
            disabled.push(t.text.clone());
            let expanded = self.expand(&placed, disabled, depth + 1);
            disabled.pop();
            let expanded = expanded?;
            self.work.set(self.work.get() + expanded.len());
            out.extend(expanded);
            if out.len() > MAX_TOKENS || self.work.get() > MAX_EXPANSION_WORK {
                return Err(self.err(t, "macro expansion exceeds 2M tokens or 4M token copies"));
            }
        }
        Ok(out)
    }

    fn collect_args(
        &self,
        at: &Token,
        input: &[Token],
        mut i: usize,
    ) -> Result<(Vec<Vec<Token>>, usize), Diagnostic> {
        let mut args = vec![Vec::new()];
        let mut nest = 0usize;
        loop {
            let t = input
                .get(i)
                .ok_or_else(|| self.err(at, format!("unterminated call of macro '{}'", at.text)))?;
            i += 1;
            match t.kind {
                Tok::LParen => nest += 1,
                Tok::RParen if nest == 0 => return Ok((args, i)),
                Tok::RParen => nest -= 1,
                Tok::Comma if nest == 0 => {
                    args.push(Vec::new());
                    continue;
                }
                _ => {}
            }
            args.last_mut().expect("never empty").push(t.clone());
        }
    }

    fn substitute(
        &self,
        at: &Token,
        body: &[Token],
        params: &[String],
        args: &[Vec<Token>],
        disabled: &mut Vec<String>,
        depth: usize,
    ) -> Result<Vec<Token>, Diagnostic> {
        let param = |t: &Token| {
            (t.kind == Tok::Ident)
                .then(|| params.iter().position(|p| *p == t.text))
                .flatten()
        };
        let mut out: Vec<Token> = Vec::new();
        let mut j = 0;
        while j < body.len() {
            let t = &body[j];
            if t.kind == Tok::Hash {
                if let Some(k) = body.get(j + 1).and_then(param) {
                    let text: Vec<&str> = args[k].iter().map(|a| a.text.as_str()).collect();
                    out.push(Token {
                        kind: Tok::Str,
                        text: format!("\"{}\"", text.join(" ")),
                        ..t.clone()
                    });
                    j += 2;
                    continue;
                }
            }
            if t.kind == Tok::HashHash {
                let right: Vec<Token> = match body.get(j + 1) {
                    Some(r) => match param(r) {
                        Some(k) => args[k].clone(),
                        None => vec![r.clone()],
                    },
                    None => return Err(self.err(at, "'##' at the end of a macro")),
                };
                let mut right = right.into_iter();
                if let (Some(l), Some(r)) = (out.last_mut(), right.next()) {
                    let text = format!("{}{}", l.text, r.text);
                    let mut lexed = tokenize(&text, l.file);
                    lexed.retain(|t| t.kind != Tok::Newline);
                    if lexed.len() == 1 {
                        l.kind = lexed[0].kind;
                        l.text = text;
                    } else {
                        out.push(r);
                    }
                }
                out.extend(right);
                j += 2;
                continue;
            }
            match param(t) {
                Some(k) => {
                    let pasted = body.get(j + 1).is_some_and(|n| n.kind == Tok::HashHash);
                    if pasted {
                        out.extend(args[k].iter().cloned());
                    } else {
                        out.extend(self.expand(&args[k], disabled, depth + 1)?);
                    }
                }
                None => out.push(t.clone()),
            }
            j += 1;
        }
        Ok(out)
    }

    fn eval_if(&self, at: &Token, rest: &[Token]) -> Result<i64, Diagnostic> {
        // `defined` is resolved before expansion.
        let mut pre = Vec::new();
        let mut i = 0;
        while i < rest.len() {
            let t = &rest[i];
            if t.kind == Tok::Ident && t.text == "defined" {
                let (name, next) = match rest.get(i + 1) {
                    Some(p) if p.kind == Tok::LParen => (rest.get(i + 2), i + 4),
                    other => (other, i + 2),
                };
                let name = name.ok_or_else(|| self.err(t, "'defined' needs a name"))?;
                let v = self.macros.contains_key(&name.text) as i64;
                pre.push(Token {
                    kind: Tok::Int,
                    text: v.to_string(),
                    ..t.clone()
                });
                i = next;
            } else {
                pre.push(t.clone());
                i += 1;
            }
        }
        let tokens = self.expand(&pre, &mut Vec::new(), 0)?;
        if tokens.is_empty() {
            return Err(self.err(at, "#if with no expression"));
        }
        let mut e = IfExpr {
            t: &tokens,
            i: 0,
            pre: self,
            at,
        };
        let v = e.expr(0)?;
        if e.i != tokens.len() {
            return Err(self.err(&tokens[e.i], "unexpected token in #if expression"));
        }
        Ok(v)
    }
}

struct IfExpr<'a, 'b> {
    t: &'a [Token],
    i: usize,
    pre: &'a Pre<'b>,
    at: &'a Token,
}

impl IfExpr<'_, '_> {
    fn err(&self, msg: &str) -> Diagnostic {
        let t = self.t.get(self.i).unwrap_or(self.at);
        self.pre.err(t, msg)
    }

    fn primary(&mut self, depth: usize) -> Result<i64, Diagnostic> {
        if depth > 200 {
            return Err(self.err("#if expression nested too deeply"));
        }
        let t = self
            .t
            .get(self.i)
            .ok_or_else(|| self.err("#if expression ends early"))?;
        self.i += 1;
        Ok(match t.kind {
            Tok::Int => parse_int(&t.text).ok_or_else(|| self.err("bad integer"))?,
            Tok::Float => t
                .text
                .trim_end_matches(['f', 'F', 'h', 'H'])
                .parse::<f64>()
                .map(|f| f as i64)
                .map_err(|_| self.err("bad number"))?,
            Tok::Ident => match t.text.as_str() {
                "true" => 1,
                _ => 0,
            },
            Tok::LParen => {
                let v = self.expr(depth + 1)?;
                if self.t.get(self.i).map(|t| t.kind) != Some(Tok::RParen) {
                    return Err(self.err("expected ')'"));
                }
                self.i += 1;
                v
            }
            Tok::Minus => self.primary(depth + 1)?.wrapping_neg(),
            Tok::Plus => self.primary(depth + 1)?,
            Tok::Bang => (self.primary(depth + 1)? == 0) as i64,
            Tok::Tilde => !self.primary(depth + 1)?,
            _ => {
                self.i -= 1;
                return Err(self.err("unexpected token in #if expression"));
            }
        })
    }

    fn expr(&mut self, depth: usize) -> Result<i64, Diagnostic> {
        let c = self.binary(0, depth)?;
        if self.t.get(self.i).map(|t| t.kind) == Some(Tok::Question) {
            self.i += 1;
            let a = self.expr(depth + 1)?;
            if self.t.get(self.i).map(|t| t.kind) != Some(Tok::Colon) {
                return Err(self.err("expected ':'"));
            }
            self.i += 1;
            let b = self.expr(depth + 1)?;
            return Ok(if c != 0 { a } else { b });
        }
        Ok(c)
    }

    fn binary(&mut self, min: u8, depth: usize) -> Result<i64, Diagnostic> {
        let mut l = self.primary(depth + 1)?;
        while let Some(t) = self.t.get(self.i) {
            let prec = match t.kind {
                Tok::OrOr => 1,
                Tok::AndAnd => 2,
                Tok::Pipe => 3,
                Tok::Caret => 4,
                Tok::Amp => 5,
                Tok::EqEq | Tok::Ne => 6,
                Tok::Lt | Tok::Gt | Tok::Le | Tok::Ge => 7,
                Tok::Shl | Tok::Shr => 8,
                Tok::Plus | Tok::Minus => 9,
                Tok::Star | Tok::Slash | Tok::Percent => 10,
                _ => break,
            };
            if prec <= min {
                break;
            }
            let op = t.kind;
            self.i += 1;
            let r = self.binary(prec, depth + 1)?;
            l = match op {
                Tok::OrOr => (l != 0 || r != 0) as i64,
                Tok::AndAnd => (l != 0 && r != 0) as i64,
                Tok::Pipe => l | r,
                Tok::Caret => l ^ r,
                Tok::Amp => l & r,
                Tok::EqEq => (l == r) as i64,
                Tok::Ne => (l != r) as i64,
                Tok::Lt => (l < r) as i64,
                Tok::Gt => (l > r) as i64,
                Tok::Le => (l <= r) as i64,
                Tok::Ge => (l >= r) as i64,
                Tok::Shl => l.wrapping_shl(r as u32),
                Tok::Shr => l.wrapping_shr(r as u32),
                Tok::Plus => l.wrapping_add(r),
                Tok::Minus => l.wrapping_sub(r),
                Tok::Star => l.wrapping_mul(r),
                Tok::Slash | Tok::Percent => {
                    if r == 0 {
                        return Err(self.err("division by zero in #if"));
                    }
                    if op == Tok::Slash {
                        l.wrapping_div(r)
                    } else {
                        l.wrapping_rem(r)
                    }
                }
                _ => unreachable!("operators listed above"),
            };
        }
        Ok(l)
    }
}

/// Parses a C integer literal (decimal, octal, hex; suffixes ignored).
pub fn parse_int(text: &str) -> Option<i64> {
    let t = text.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()
    } else if t.len() > 1 && t.starts_with('0') {
        i64::from_str_radix(&t[1..], 8).ok()
    } else {
        t.parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NoIncludes;

    fn run(src: &str) -> Result<String, Diagnostic> {
        let out = preprocess("t.hlsl", src, &[("D".into(), "1".into())], &NoIncludes)?;
        Ok(out
            .tokens
            .iter()
            .filter(|t| t.kind != Tok::Eof)
            .map(|t| t.text.as_str())
            .collect::<Vec<_>>()
            .join(" "))
    }

    #[test]
    fn macros_and_conditionals() {
        assert_eq!(run("#define A(x) (x*2)\nA(3)").unwrap(), "( 3 * 2 )");
        assert_eq!(
            run("#if D && !defined(E)\nyes\n#else\nno\n#endif").unwrap(),
            "yes"
        );
        assert_eq!(run("#ifdef E\na\n#elif D == 1\nb\n#endif").unwrap(), "b");
        assert_eq!(run("#define C(a,b) a##b\nC(x,y)").unwrap(), "xy");
        assert_eq!(run("#define R R + 1\nR").unwrap(), "R + 1");
        assert_eq!(run("#define F(a) a\nF(\n1)").unwrap(), "1");
    }

    #[test]
    fn errors() {
        assert!(run("#if 1\n").is_err());
        assert!(run("#endif").is_err());
        assert!(run("#include \"x.h\"").is_err());
        assert!(run("#if 1/0\n#endif").is_err());
        assert!(run("#error stop").is_err());
    }
}
