//! The C-like preprocessor of `D3DXAssembleShader`: `#define` (object- and function-like, with
//! `#` and `##`), `#undef`, `#ifdef`/`#ifndef`/`#if`/`#elif`/`#else`/`#endif`, `#include`
//! (relative to the including file), `#line`, `#error` and `#pragma` (ignored).
//!
//! The output is the token stream of the active lines, each line ended by a newline token;
//! tokens that macros produce point their diagnostics at the macro's use.

use super::diag::Rule;
use super::lexer::{tokenize, Kind, Site, Token};
use super::Sink;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Deepest `#include` nesting.
const MAX_INCLUDE_DEPTH: usize = 32;
/// Most files one run reads through `#include`: each inclusion copies a file, and files that
/// include others several times each multiply their inclusions at every level of nesting.
const MAX_INCLUDES: usize = 4096;
/// Deepest macro expansion nesting.
const MAX_EXPANSION_DEPTH: usize = 128;
/// Most tokens one line may expand to.
const MAX_LINE_TOKENS: usize = 1 << 16;
/// Macro expansion steps (a token looked at while expanding) a run may take whatever its
/// size: with [`EXPANSION_STEPS_PER_BYTE`], bounds the work of nested macros that double at
/// every level, which the per-line cap alone lets every line repeat.
const BASE_EXPANSION_STEPS: usize = 1 << 20;
/// Macro expansion steps a run may take per byte of its sources.
const EXPANSION_STEPS_PER_BYTE: usize = 256;

/// One source text: the input, an included file, or text made by `#` and `##`.
pub struct Source {
    /// The name diagnostics show.
    pub name: String,
    /// Where it was read from, for resolving its `#include`s.
    pub path: Option<PathBuf>,
    /// The text.
    pub text: std::sync::Arc<str>,
    /// `#line` renumberings: from this byte offset on, physical line `.1` is called `.2` in
    /// file `.3`.
    pub line_map: Vec<(u32, u32, u32, Option<String>)>,
}

/// Every source a run read.
#[derive(Default)]
pub struct Sources {
    /// By index.
    pub files: Vec<Source>,
    /// Text made by stringizing and pasting (index [`Sources::synthetic`]).
    synthetic_text: String,
}

impl Sources {
    /// Adds a source, returning its index.
    pub fn add(&mut self, name: String, path: Option<PathBuf>, text: std::sync::Arc<str>) -> u32 {
        self.files.push(Source {
            name,
            path,
            text,
            line_map: Vec::new(),
        });
        (self.files.len() - 1) as u32
    }

    /// The text of a token.
    pub fn text(&self, t: &Token) -> &str {
        let file = if t.file == u32::MAX {
            self.synthetic_text.as_str()
        } else {
            &self.files[t.file as usize].text
        };
        file.get(t.start as usize..t.end as usize).unwrap_or("")
    }

    /// A token of synthetic text.
    fn make(&mut self, kind: Kind, text: &str, site: Site) -> Token {
        let start = self.synthetic_text.len() as u32;
        self.synthetic_text.push_str(text);
        Token {
            kind,
            file: u32::MAX,
            start,
            end: self.synthetic_text.len() as u32,
            site,
            spaced: true,
        }
    }
}

struct Macro {
    params: Option<Vec<String>>,
    body: Vec<Token>,
}

/// Reads the file an `#include` names.
pub type IncludeReader<'a> = dyn Fn(&Path) -> std::io::Result<String> + 'a;

struct Conditional {
    /// The enclosing region is active.
    parent_active: bool,
    /// Lines are currently emitted.
    active: bool,
    /// Some branch was taken already.
    taken: bool,
    /// `#else` was seen.
    in_else: bool,
    site: Site,
}

/// A rule broken, where, and the message.
type Failure = (Rule, Site, String);

/// The preprocessor state for one run.
pub struct Preprocessor<'a> {
    pub(crate) sources: Sources,
    macros: HashMap<String, Macro>,
    conditionals: Vec<Conditional>,
    include_stack: Vec<PathBuf>,
    reader: &'a IncludeReader<'a>,
    include_dir: Option<PathBuf>,
    /// `-I` folders, searched after the including file's folder (before it for `<file>`).
    include_dirs: Vec<PathBuf>,
    /// Macro expansion steps taken so far in this run.
    expansion_steps: usize,
    /// Files read through `#include` so far in this run.
    includes_read: usize,
}

impl<'a> Preprocessor<'a> {
    /// A preprocessor with predefined object-like macros.
    pub fn new(
        defines: &[(String, String)],
        reader: &'a IncludeReader<'a>,
        include_dir: Option<PathBuf>,
    ) -> Self {
        let mut p = Preprocessor {
            sources: Sources::default(),
            macros: HashMap::new(),
            conditionals: Vec::new(),
            include_stack: Vec::new(),
            reader,
            include_dir,
            include_dirs: Vec::new(),
            expansion_steps: 0,
            includes_read: 0,
        };
        for (name, value) in defines {
            let file = p
                .sources
                .add(format!("<define {name}>"), None, value.as_str().into());
            let mut body = Vec::new();
            tokenize(value, file, &mut body);
            body.retain(|t| t.kind != Kind::Newline);
            p.macros.insert(name.clone(), Macro { params: None, body });
        }
        p
    }

    /// Preprocesses source `file` into `out`.
    pub fn run(&mut self, file: u32, out: &mut Vec<Token>, sink: &mut Sink) {
        let text = self.sources.files[file as usize].text.clone();
        // Text without directives and with no macros defined passes through untouched.
        if self.macros.is_empty() && !text.as_bytes().contains(&b'#') {
            tokenize(&text, file, out);
            return;
        }
        let mut tokens = Vec::with_capacity(text.len() / 3);
        tokenize(&text, file, &mut tokens);
        let depth_at_start = self.conditionals.len();
        let mut line_start = 0;
        while line_start < tokens.len() {
            let mut line_end = line_start;
            while line_end < tokens.len() && tokens[line_end].kind != Kind::Newline {
                line_end += 1;
            }
            let line = &tokens[line_start..line_end];
            self.line(file, line, out, sink);
            if let Some(nl) = tokens.get(line_end) {
                out.push(*nl);
            }
            line_start = line_end + 1;
        }
        while self.conditionals.len() > depth_at_start {
            let c = self.conditionals.pop().expect("length checked");
            sink.error(
                &self.sources,
                Rule::UnterminatedConditional,
                c.site,
                "this conditional has no #endif".into(),
            );
        }
    }

    fn active(&self) -> bool {
        self.conditionals.last().map_or(true, |c| c.active)
    }

    fn line(&mut self, file: u32, line: &[Token], out: &mut Vec<Token>, sink: &mut Sink) {
        let Some(first) = line.first() else { return };
        // A `// dxso:` line reaches the assembler as it is (the lexer keeps it only alone on
        // its line).
        if first.kind == Kind::Lossless {
            if self.active() {
                out.push(*first);
            }
            return;
        }
        if first.kind == Kind::Hash {
            self.directive(file, line, out, sink);
            return;
        }
        if !self.active() {
            return;
        }
        if self.macros.is_empty() {
            out.extend_from_slice(line);
            return;
        }
        let start = out.len();
        let mut active = Vec::new();
        if let Err((rule, site, msg)) = self.expand(line, out, &mut active, 0) {
            out.truncate(start);
            sink.error(&self.sources, rule, site, msg);
        }
    }

    fn name_of(&self, t: &Token) -> String {
        self.sources.text(t).to_string()
    }

    fn directive(&mut self, file: u32, line: &[Token], out: &mut Vec<Token>, sink: &mut Sink) {
        let Some(name_tok) = line.get(1) else {
            return; // A lone `#` is the null directive.
        };
        let name = self.sources.text(name_tok).to_string();
        let args = &line[2..];
        let site = name_tok.site;
        let err = |s: &mut Self, sink: &mut Sink, rule: Rule, site: Site, msg: String| {
            sink.error(&s.sources, rule, site, msg);
        };
        match name.as_str() {
            "ifdef" | "ifndef" | "if" => {
                let parent_active = self.active();
                let value = if !parent_active {
                    false
                } else if name == "if" {
                    match self.condition(args, site) {
                        Ok(v) => v,
                        Err((rule, at, msg)) => {
                            err(self, sink, rule, at, msg);
                            false
                        }
                    }
                } else {
                    match args {
                        [id] if id.kind == Kind::Ident => {
                            let defined = self.macros.contains_key(self.sources.text(id));
                            defined == (name == "ifdef")
                        }
                        _ => {
                            err(
                                self,
                                sink,
                                Rule::BadDirective,
                                site,
                                format!("#{name} takes one macro name"),
                            );
                            false
                        }
                    }
                };
                self.conditionals.push(Conditional {
                    parent_active,
                    active: parent_active && value,
                    taken: value,
                    in_else: false,
                    site,
                });
            }
            "elif" | "else" => {
                let Some(c) = self.conditionals.last() else {
                    return err(
                        self,
                        sink,
                        Rule::UnmatchedConditional,
                        site,
                        format!("#{name} without #if"),
                    );
                };
                if c.in_else {
                    return err(
                        self,
                        sink,
                        Rule::UnmatchedConditional,
                        site,
                        format!("#{name} after #else"),
                    );
                }
                let (parent_active, taken) = (c.parent_active, c.taken);
                let value = if name == "else" {
                    !taken
                } else if parent_active && !taken {
                    match self.condition(args, site) {
                        Ok(v) => v,
                        Err((rule, at, msg)) => {
                            err(self, sink, rule, at, msg);
                            false
                        }
                    }
                } else {
                    false
                };
                let c = self.conditionals.last_mut().expect("checked above");
                c.active = parent_active && value;
                c.taken |= value;
                c.in_else = name == "else";
            }
            "endif" => {
                if self.conditionals.pop().is_none() {
                    err(
                        self,
                        sink,
                        Rule::UnmatchedConditional,
                        site,
                        "#endif without #if".into(),
                    );
                }
            }
            _ if !self.active() => {}
            "define" => self.define(args, site, sink),
            "undef" => match args {
                [id] if id.kind == Kind::Ident => {
                    let n = self.name_of(id);
                    self.macros.remove(&n);
                }
                _ => err(
                    self,
                    sink,
                    Rule::BadDirective,
                    site,
                    "#undef takes one macro name".into(),
                ),
            },
            "include" => self.include(file, args, site, out, sink),
            "line" => self.line_directive(file, line, args, site, sink),
            "error" => {
                let msg = args
                    .iter()
                    .map(|t| self.sources.text(t))
                    .collect::<Vec<_>>()
                    .join(" ");
                err(
                    self,
                    sink,
                    Rule::ErrorDirective,
                    site,
                    format!("#error {msg}"),
                );
            }
            "pragma" => {}
            _ => err(
                self,
                sink,
                Rule::BadDirective,
                site,
                format!("unknown directive #{name}"),
            ),
        }
    }

    fn define(&mut self, args: &[Token], site: Site, sink: &mut Sink) {
        let Some(name_tok) = args.first().filter(|t| t.kind == Kind::Ident) else {
            return sink.error(
                &self.sources,
                Rule::BadDirective,
                site,
                "#define needs a macro name".into(),
            );
        };
        let name = self.name_of(name_tok);
        let mut rest = &args[1..];
        let mut params = None;
        // `NAME(` with no space before the parenthesis makes a function-like macro.
        if let Some(open) = rest.first().filter(|t| t.kind == Kind::LParen && !t.spaced) {
            let mut list = Vec::new();
            let mut i = 1;
            loop {
                match rest.get(i) {
                    Some(t) if t.kind == Kind::RParen && list.is_empty() => {
                        i += 1;
                        break;
                    }
                    Some(t) if t.kind == Kind::Ident => {
                        list.push(self.name_of(t));
                        match rest.get(i + 1) {
                            Some(c) if c.kind == Kind::Comma => i += 2,
                            Some(c) if c.kind == Kind::RParen => {
                                i += 2;
                                break;
                            }
                            _ => {
                                return sink.error(
                                    &self.sources,
                                    Rule::BadDirective,
                                    open.site,
                                    "malformed macro parameter list".into(),
                                )
                            }
                        }
                    }
                    _ => {
                        return sink.error(
                            &self.sources,
                            Rule::BadDirective,
                            open.site,
                            "malformed macro parameter list".into(),
                        )
                    }
                }
            }
            rest = &rest[i..];
            params = Some(list);
        }
        self.macros.insert(
            name,
            Macro {
                params,
                body: rest.to_vec(),
            },
        );
    }

    fn include(
        &mut self,
        file: u32,
        args: &[Token],
        site: Site,
        out: &mut Vec<Token>,
        sink: &mut Sink,
    ) {
        let target = match args {
            [s] if s.kind == Kind::String => {
                let t = self.sources.text(s);
                t[1..t.len() - 1].to_string()
            }
            [lt, .., gt] if lt.kind == Kind::Lt && gt.kind == Kind::Gt => {
                let src = &self.sources.files[lt.file as usize].text;
                src[lt.end as usize..gt.start as usize].to_string()
            }
            _ => {
                return sink.error(
                    &self.sources,
                    Rule::BadDirective,
                    site,
                    "#include needs \"file\" or <file>".into(),
                );
            }
        };
        let base = self.sources.files[file as usize]
            .path
            .as_ref()
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .or_else(|| self.include_dir.clone())
            .unwrap_or_default();
        let angle = args.first().is_some_and(|t| t.kind == Kind::Lt);
        let (path, text) = match self.find_include(&base, &target, angle) {
            Ok(found) => found,
            Err(message) => {
                return sink.error(&self.sources, Rule::IncludeNotFound, site, message);
            }
        };
        let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if self.include_stack.contains(&key) || self.include_stack.len() >= MAX_INCLUDE_DEPTH {
            return sink.error(
                &self.sources,
                Rule::IncludeCycle,
                site,
                format!("#include \"{target}\" includes a file that is already being read"),
            );
        }
        if self.includes_read >= MAX_INCLUDES {
            return sink.error(
                &self.sources,
                Rule::TooManyIncludes,
                site,
                format!("#include \"{target}\" would read more than {MAX_INCLUDES} included files"),
            );
        }
        self.includes_read += 1;
        let id = self
            .sources
            .add(target, Some(path), super::without_bom(&text).into());
        self.include_stack.push(key);
        self.run(id, out, sink);
        self.include_stack.pop();
    }

    /// Adds `-I` folders: `#include "file"` searches them after the including file's folder,
    /// `#include <file>` before it (as fxc does with `/I`).
    pub fn with_include_dirs(mut self, dirs: Vec<PathBuf>) -> Self {
        self.include_dirs = dirs;
        self
    }

    /// The first readable `target` among the folders searched, or the message naming them.
    fn find_include(
        &self,
        base: &Path,
        target: &str,
        angle: bool,
    ) -> Result<(PathBuf, String), String> {
        let mut folders: Vec<&Path> = self.include_dirs.iter().map(PathBuf::as_path).collect();
        if angle {
            folders.push(base);
        } else {
            folders.insert(0, base);
        }
        let mut first_error = None;
        for folder in &folders {
            let path = folder.join(target);
            match (self.reader)(&path) {
                Ok(text) => return Ok((path, text)),
                Err(e) => {
                    first_error
                        .get_or_insert_with(|| format!("cannot read \"{}\": {e}", path.display()));
                }
            }
        }
        let mut message = first_error.unwrap_or_default();
        if folders.len() > 1 {
            let searched: Vec<String> = folders
                .iter()
                .map(|f| match f.as_os_str().is_empty() {
                    true => ".".to_string(),
                    false => f.display().to_string(),
                })
                .collect();
            message.push_str(&format!(" (searched {})", searched.join(", ")));
        }
        Err(message)
    }

    /// Marks `path` as being read (the top-level file), so that including it is a cycle.
    pub fn enter_root(&mut self, path: &Path) {
        self.include_stack
            .push(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()));
    }

    fn line_directive(
        &mut self,
        file: u32,
        line: &[Token],
        args: &[Token],
        site: Site,
        sink: &mut Sink,
    ) {
        let number = args
            .first()
            .filter(|t| t.kind == Kind::Number)
            .and_then(|t| self.sources.text(t).parse::<u32>().ok());
        let Some(number) = number else {
            return sink.error(
                &self.sources,
                Rule::BadDirective,
                site,
                "#line needs a line number".into(),
            );
        };
        let name = match args.get(1) {
            None => None,
            Some(s) if s.kind == Kind::String && args.len() == 2 => {
                let t = self.sources.text(s);
                Some(t[1..t.len() - 1].to_string())
            }
            Some(t) => {
                return sink.error(
                    &self.sources,
                    Rule::BadDirective,
                    t.site,
                    "#line takes a number and an optional \"file name\"".into(),
                )
            }
        };
        let end = line.last().map_or(0, |t| t.end);
        let src = &self.sources.files[file as usize];
        // As in C, `#line N` alone keeps the file name an earlier `#line` gave (fxc's /Zi
        // listings rely on it: `#line 12` follows `#line 41 "...Common.fxh"`).
        let name = name.or_else(|| src.line_map.last().and_then(|m| m.3.clone()));
        // The line after the directive gets `number`.
        let text = &src.text;
        let next_line_start = text[end as usize..]
            .find('\n')
            .map_or(text.len(), |i| end as usize + i + 1);
        let physical = text[..next_line_start]
            .bytes()
            .filter(|&b| b == b'\n')
            .count() as u32
            + 1;
        self.sources.files[file as usize].line_map.push((
            next_line_start as u32,
            physical,
            number,
            name,
        ));
    }

    fn condition(&mut self, args: &[Token], site: Site) -> Result<bool, (Rule, Site, String)> {
        // `defined X` and `defined(X)` are decided before expansion.
        let mut replaced = Vec::with_capacity(args.len());
        let mut i = 0;
        while i < args.len() {
            let t = args[i];
            if t.kind == Kind::Ident && self.sources.text(&t) == "defined" {
                let (name, next) = match (args.get(i + 1), args.get(i + 2), args.get(i + 3)) {
                    (Some(open), Some(id), Some(close))
                        if open.kind == Kind::LParen
                            && id.kind == Kind::Ident
                            && close.kind == Kind::RParen =>
                    {
                        (*id, i + 4)
                    }
                    (Some(id), _, _) if id.kind == Kind::Ident => (*id, i + 2),
                    _ => {
                        return Err((
                            Rule::BadExpression,
                            t.site,
                            "defined needs a macro name".into(),
                        ))
                    }
                };
                let v = if self.macros.contains_key(self.sources.text(&name)) {
                    "1"
                } else {
                    "0"
                };
                replaced.push(self.sources.make(Kind::Number, v, t.site));
                i = next;
            } else {
                replaced.push(t);
                i += 1;
            }
        }
        let mut expanded = Vec::new();
        let mut active = Vec::new();
        self.expand(&replaced, &mut expanded, &mut active, 0)?;
        if expanded.is_empty() {
            return Err((Rule::BadExpression, site, "#if needs an expression".into()));
        }
        let mut e = Expr {
            tokens: &expanded,
            pos: 0,
            sources: &self.sources,
            end_site: site,
        };
        let v = e.ternary()?;
        if let Some(t) = expanded.get(e.pos) {
            return Err((
                Rule::BadExpression,
                t.site,
                format!("unexpected `{}` in #if expression", self.sources.text(t)),
            ));
        }
        Ok(v != 0)
    }

    /// `true` when the expansion steps taken exceed what the sources read so far allow.
    fn over_expansion_budget(&self) -> bool {
        let bytes: usize = self.sources.files.iter().map(|f| f.text.len()).sum();
        self.expansion_steps
            > bytes
                .saturating_mul(EXPANSION_STEPS_PER_BYTE)
                .saturating_add(BASE_EXPANSION_STEPS)
    }

    /// Expands macros in `input` into `out`; `active` holds the macros being expanded (a macro
    /// is not expanded inside itself).
    fn expand(
        &mut self,
        input: &[Token],
        out: &mut Vec<Token>,
        active: &mut Vec<String>,
        depth: usize,
    ) -> Result<(), (Rule, Site, String)> {
        if depth > MAX_EXPANSION_DEPTH {
            let site = input.first().map(|t| t.site).unwrap_or_default();
            return Err((Rule::MacroExpansion, site, "macros nest too deeply".into()));
        }
        let mut i = 0;
        while i < input.len() {
            let t = input[i];
            i += 1;
            if out.len() > MAX_LINE_TOKENS {
                return Err((
                    Rule::MacroExpansion,
                    t.site,
                    "macro expansion is too large".into(),
                ));
            }
            self.expansion_steps += 1;
            if self.expansion_steps > BASE_EXPANSION_STEPS && self.over_expansion_budget() {
                return Err((
                    Rule::MacroExpansion,
                    t.site,
                    format!(
                        "macro expansions take more than {EXPANSION_STEPS_PER_BYTE} steps per \
                         byte of source (and {BASE_EXPANSION_STEPS} in all)"
                    ),
                ));
            }
            if t.kind != Kind::Ident {
                out.push(t);
                continue;
            }
            let name = self.sources.text(&t);
            let Some(m) = self.macros.get(name) else {
                out.push(t);
                continue;
            };
            if active.iter().any(|a| a == name) {
                out.push(t);
                continue;
            }
            let name = name.to_string();
            let site = t.site;
            let body = m.body.clone();
            let substituted = match &m.params {
                None => body
                    .iter()
                    .map(|b| Token { site, ..*b })
                    .collect::<Vec<_>>(),
                Some(params) => {
                    if input.get(i).map_or(true, |n| n.kind != Kind::LParen) {
                        out.push(t);
                        continue;
                    }
                    let params = params.clone();
                    let (args, next) = split_args(input, i, site)?;
                    i = next;
                    let args_ok = args.len() == params.len()
                        || (params.is_empty() && args.len() == 1 && args[0].is_empty());
                    if !args_ok {
                        return Err((
                            Rule::MacroArguments,
                            site,
                            format!(
                                "macro {name} takes {} argument(s), {} given",
                                params.len(),
                                args.len()
                            ),
                        ));
                    }
                    self.substitute(&body, &params, &args, site, active, depth)?
                }
            };
            active.push(name);
            self.expand(&substituted, out, active, depth + 1)?;
            active.pop();
        }
        Ok(())
    }

    fn substitute(
        &mut self,
        body: &[Token],
        params: &[String],
        args: &[Vec<Token>],
        site: Site,
        active: &mut Vec<String>,
        depth: usize,
    ) -> Result<Vec<Token>, (Rule, Site, String)> {
        let param_index = |s: &Sources, t: &Token| -> Option<usize> {
            (t.kind == Kind::Ident)
                .then(|| params.iter().position(|p| p == s.text(t)))
                .flatten()
        };
        let mut result: Vec<Token> = Vec::new();
        let mut j = 0;
        while j < body.len() {
            let b = body[j];
            if b.kind == Kind::Hash {
                if let Some(k) = body.get(j + 1).and_then(|n| param_index(&self.sources, n)) {
                    let text: Vec<&str> = args[k].iter().map(|a| self.sources.text(a)).collect();
                    let s = format!("\"{}\"", text.join(" ").replace('"', "\\\""));
                    result.push(self.sources.make(Kind::String, &s, site));
                    j += 2;
                    continue;
                }
            }
            let pasting = body.get(j + 1).is_some_and(|n| n.kind == Kind::HashHash)
                || (j > 0 && body[j - 1].kind == Kind::HashHash);
            if b.kind == Kind::HashHash {
                j += 1;
                continue;
            }
            match param_index(&self.sources, &b) {
                Some(k) if pasting => result.extend(args[k].iter().map(|a| Token { site, ..*a })),
                Some(k) => {
                    let mut expanded = Vec::new();
                    self.expand(&args[k], &mut expanded, active, depth + 1)?;
                    result.extend(expanded.into_iter().map(|a| Token { site, ..a }));
                }
                None => result.push(Token { site, ..b }),
            }
            if j > 0 && body[j - 1].kind == Kind::HashHash && result.len() >= 2 {
                // Paste the last token of the left operand and the first of the right.
                let right_len = match param_index(&self.sources, &b) {
                    Some(k) => args[k].len(),
                    None => 1,
                };
                if right_len > 0 && result.len() > right_len {
                    let left_at = result.len() - right_len - 1;
                    let joined = format!(
                        "{}{}",
                        self.sources.text(&result[left_at]),
                        self.sources.text(&result[left_at + 1])
                    );
                    let mut toks = Vec::new();
                    tokenize(&joined, u32::MAX - 1, &mut toks);
                    let kind = if toks.len() == 1 {
                        toks[0].kind
                    } else {
                        Kind::Unknown
                    };
                    let made = self.sources.make(kind, &joined, site);
                    result.splice(left_at..left_at + 2, [made]);
                }
            }
            j += 1;
        }
        Ok(result)
    }
}

/// Splits `f(a, (b, c), d)` arguments; `open` indexes the `(`. Returns the arguments and the
/// index after `)`.
fn split_args(
    input: &[Token],
    open: usize,
    site: Site,
) -> Result<(Vec<Vec<Token>>, usize), Failure> {
    let mut args = vec![Vec::new()];
    let mut depth = 0usize;
    let mut i = open + 1;
    while let Some(t) = input.get(i) {
        i += 1;
        match t.kind {
            Kind::LParen => depth += 1,
            Kind::RParen if depth == 0 => return Ok((args, i)),
            Kind::RParen => depth -= 1,
            Kind::Comma if depth == 0 => {
                args.push(Vec::new());
                continue;
            }
            _ => {}
        }
        args.last_mut().expect("never empty").push(*t);
    }
    Err((
        Rule::MacroArguments,
        site,
        "macro arguments have no closing `)`".into(),
    ))
}

/// `#if` expressions: C integer arithmetic on `i64`, unknown names are 0.
struct Expr<'t> {
    tokens: &'t [Token],
    pos: usize,
    sources: &'t Sources,
    end_site: Site,
}

type ExprResult = Result<i64, (Rule, Site, String)>;

impl Expr<'_> {
    fn peek(&self) -> Option<Kind> {
        self.tokens.get(self.pos).map(|t| t.kind)
    }

    fn site(&self) -> Site {
        self.tokens.get(self.pos).map_or(self.end_site, |t| t.site)
    }

    fn eat(&mut self, k: Kind) -> bool {
        if self.peek() == Some(k) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn ternary(&mut self) -> ExprResult {
        let c = self.binary(0)?;
        if self.eat(Kind::Question) {
            let a = self.ternary()?;
            if !self.eat(Kind::Colon) {
                return Err((Rule::BadExpression, self.site(), "expected `:`".into()));
            }
            let b = self.ternary()?;
            return Ok(if c != 0 { a } else { b });
        }
        Ok(c)
    }

    fn binary(&mut self, min_prec: u8) -> ExprResult {
        let mut lhs = self.unary()?;
        while let Some(k) = self.peek() {
            let prec = match k {
                Kind::OrOr => 1,
                Kind::AndAnd => 2,
                Kind::Pipe => 3,
                Kind::Caret => 4,
                Kind::Amp => 5,
                Kind::EqEq | Kind::Ne => 6,
                Kind::Lt | Kind::Gt | Kind::Le | Kind::Ge => 7,
                Kind::Shl | Kind::Shr => 8,
                Kind::Plus | Kind::Minus => 9,
                Kind::Star | Kind::Slash | Kind::Percent => 10,
                _ => break,
            };
            if prec <= min_prec {
                break;
            }
            let site = self.site();
            self.pos += 1;
            let rhs = self.binary(prec)?;
            lhs = match k {
                Kind::OrOr => (lhs != 0 || rhs != 0) as i64,
                Kind::AndAnd => (lhs != 0 && rhs != 0) as i64,
                Kind::Pipe => lhs | rhs,
                Kind::Caret => lhs ^ rhs,
                Kind::Amp => lhs & rhs,
                Kind::EqEq => (lhs == rhs) as i64,
                Kind::Ne => (lhs != rhs) as i64,
                Kind::Lt => (lhs < rhs) as i64,
                Kind::Gt => (lhs > rhs) as i64,
                Kind::Le => (lhs <= rhs) as i64,
                Kind::Ge => (lhs >= rhs) as i64,
                Kind::Shl => lhs.wrapping_shl(rhs as u32),
                Kind::Shr => lhs.wrapping_shr(rhs as u32),
                Kind::Plus => lhs.wrapping_add(rhs),
                Kind::Minus => lhs.wrapping_sub(rhs),
                Kind::Star => lhs.wrapping_mul(rhs),
                Kind::Slash | Kind::Percent if rhs == 0 => {
                    return Err((Rule::BadExpression, site, "division by zero in #if".into()))
                }
                Kind::Slash => lhs.wrapping_div(rhs),
                _ => lhs.wrapping_rem(rhs),
            };
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> ExprResult {
        let site = self.site();
        let Some(t) = self.tokens.get(self.pos).copied() else {
            return Err((
                Rule::BadExpression,
                site,
                "the #if expression ends early".into(),
            ));
        };
        self.pos += 1;
        match t.kind {
            Kind::Bang => Ok((self.unary()? == 0) as i64),
            Kind::Tilde => Ok(!self.unary()?),
            Kind::Minus => Ok(self.unary()?.wrapping_neg()),
            Kind::Plus => self.unary(),
            Kind::LParen => {
                let v = self.ternary()?;
                if !self.eat(Kind::RParen) {
                    return Err((Rule::BadExpression, self.site(), "expected `)`".into()));
                }
                Ok(v)
            }
            Kind::Number => parse_int(self.sources.text(&t)).ok_or_else(|| {
                (
                    Rule::BadExpression,
                    t.site,
                    format!("`{}` is not an integer", self.sources.text(&t)),
                )
            }),
            Kind::Ident => Ok(0),
            _ => Err((
                Rule::BadExpression,
                t.site,
                format!("unexpected `{}` in #if expression", self.sources.text(&t)),
            )),
        }
    }
}

/// A C integer literal (decimal, `0x` hex, `0` octal, with `u`/`l` suffixes).
pub fn parse_int(text: &str) -> Option<i64> {
    let t = text.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok().map(|v| v as i64)
    } else if t.len() > 1 && t.starts_with('0') {
        u64::from_str_radix(&t[1..], 8).ok().map(|v| v as i64)
    } else {
        t.parse::<u64>().ok().map(|v| v as i64)
    }
}

#[cfg(test)]
mod tests {
    /// Sixteen macros each doubling the last: every use would expand to 65,536 tokens.
    fn doubling_macros(uses: usize) -> String {
        let mut text = String::from("#define A0 mov r0, r0\n");
        for i in 1..16 {
            text.push_str(&format!("#define A{i} A{j} A{j}\n", j = i - 1));
        }
        text.push_str("vs_2_0\n");
        text.push_str(&"A15\n".repeat(uses));
        text
    }

    #[test]
    fn expansion_work_is_bounded_by_the_source_not_per_line() {
        let err = crate::parse(&doubling_macros(40)).expect_err("too large to assemble");
        let text = err.to_string();
        assert!(text.contains("macro expansion is too large"), "{text}");
        // Past the base allowance every further use stops at once.
        assert!(text.contains("steps per byte of source"), "{text}");
    }
}
