//! A recursive-descent parser from preprocessed tokens to [`crate::ast::Program`].
//!
//! Type names must be known to tell declarations from expressions, so the parser keeps the
//! struct and typedef names it has seen. Nesting is bounded ([`MAX_DEPTH`]) so hostile input
//! gets an error, not a stack overflow.

use crate::ast::*;
use crate::consteval::Consts;
use crate::diag::{Code, Diagnostic, Loc};
use crate::lexer::{Tok, Token};
use crate::preprocess::parse_int;
use std::collections::HashMap;

/// Deepest nesting of expressions and statements.
pub const MAX_DEPTH: usize = 200;

mod effect;

/// Parses the tokens of a preprocessed source; `files` names the token file indices.
pub fn parse(
    tokens: &[Token],
    files: &[String],
    row_major_default: bool,
) -> Result<Program, Diagnostic> {
    parse_as(tokens, files, row_major_default, false)
}

/// Parses the tokens of a preprocessed effect source: the shader language plus techniques,
/// annotations, `sampler_state` blocks and shader variables, kept in
/// [`Program::effect`].
pub fn parse_effect(
    tokens: &[Token],
    files: &[String],
    row_major_default: bool,
) -> Result<Program, Diagnostic> {
    parse_as(tokens, files, row_major_default, true)
}

fn parse_as(
    tokens: &[Token],
    files: &[String],
    row_major_default: bool,
    effect: bool,
) -> Result<Program, Diagnostic> {
    let mut p = Parser {
        t: tokens,
        i: 0,
        files,
        types: HashMap::new(),
        program: Program::default(),
        depth: 0,
        row_major: row_major_default,
        pragma_seen: false,
        consts: Consts::default(),
        effect,
        pending_annotations: Vec::new(),
        pending_states: None,
    };
    p.program_body()?;
    Ok(p.program)
}

struct Parser<'a> {
    t: &'a [Token],
    i: usize,
    files: &'a [String],
    /// Struct and typedef names.
    types: HashMap<String, Type>,
    program: Program,
    depth: usize,
    row_major: bool,
    /// A `#pragma pack_matrix` has been seen (typedefs take the latent majority from then).
    pragma_seen: bool,
    /// Values of constant variables, for array dimensions.
    consts: Consts,
    /// Parsing an effect: effect syntax is read, not skipped.
    effect: bool,
    /// The annotations of the declarator just read (effects).
    pending_annotations: Vec<AnnotationDecl>,
    /// The `sampler_state` block of the declarator just read (effects).
    pending_states: Option<Vec<StateAssign>>,
}

type R<T> = Result<T, Diagnostic>;

impl Parser<'_> {
    fn peek(&self) -> &Token {
        &self.t[self.i.min(self.t.len() - 1)]
    }

    fn peek_at(&self, n: usize) -> &Token {
        &self.t[(self.i + n).min(self.t.len() - 1)]
    }

    fn kind(&self) -> Tok {
        self.peek().kind
    }

    fn next(&mut self) -> Token {
        let t = self.peek().clone();
        if self.i < self.t.len() {
            self.i += 1;
        }
        t
    }

    fn loc_of(&self, t: &Token) -> Loc {
        Loc {
            file: self.files.get(t.file as usize).cloned().unwrap_or_default(),
            line: t.line,
            col: t.col,
            col_end: t.col + t.text.len().max(1) as u32 - 1,
        }
    }

    fn loc(&self) -> Loc {
        self.loc_of(self.peek())
    }

    fn err_here(&self, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(Code::Syntax, self.loc(), msg)
    }

    fn unexpected(&self) -> Diagnostic {
        let t = self.peek();
        if t.kind == Tok::Eof {
            self.err_here("syntax error: unexpected end of file")
        } else {
            self.err_here(format!("syntax error: unexpected token '{}'", t.text))
        }
    }

    fn eat(&mut self, k: Tok) -> bool {
        if self.kind() == k {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, k: Tok) -> R<Token> {
        if self.kind() == k {
            Ok(self.next())
        } else {
            Err(self.unexpected())
        }
    }

    fn ident(&mut self) -> R<Token> {
        self.expect(Tok::Ident)
    }

    fn is_word(&self, w: &str) -> bool {
        let t = self.peek();
        t.kind == Tok::Ident && t.text == w
    }

    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::error(
                Code::Limit,
                self.loc(),
                "nesting deeper than 200 levels",
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn program_body(&mut self) -> R<()> {
        while self.kind() != Tok::Eof {
            match self.kind() {
                Tok::Semi => {
                    self.i += 1;
                }
                Tok::PackRowMajor | Tok::PackColumnMajor => {
                    self.pragma();
                }
                _ if self.is_word("typedef") => self.typedef()?,
                _ if self.is_word("cbuffer") || self.is_word("tbuffer") => self.cbuffer()?,
                _ if self.effect && self.is_word_ci("technique") => {
                    let t = self.technique()?;
                    self.program.effect.techniques.push(t);
                }
                _ if self.effect
                    && (self.is_word_ci("vertexshader") || self.is_word_ci("pixelshader")) =>
                {
                    self.shader_var(false)?
                }
                _ if self.effect
                    && self.is_word("shared")
                    && {
                        let next = self.peek_at(1);
                        next.kind == Tok::Ident
                            && (next.text.eq_ignore_ascii_case("vertexshader")
                                || next.text.eq_ignore_ascii_case("pixelshader"))
                    } =>
                {
                    self.i += 1;
                    self.shader_var(true)?
                }
                _ if self.is_word("technique") || self.is_word("technique10") => {
                    return Err(Diagnostic::error(
                        Code::Unsupported,
                        self.loc(),
                        "techniques belong to effects (fx_2_0); a shader profile compiles functions",
                    ))
                }
                _ => self.global_decl()?,
            }
        }
        Ok(())
    }

    /// Consumes a `#pragma pack_matrix` at the cursor (it may sit anywhere, as fxc allows),
    /// returning whether there was one.
    fn pragma(&mut self) -> bool {
        match self.kind() {
            Tok::PackRowMajor | Tok::PackColumnMajor => {
                self.row_major = self.kind() == Tok::PackRowMajor;
                self.pragma_seen = true;
                self.i += 1;
                true
            }
            _ => false,
        }
    }

    /// The majority of a matrix declared with `packing` (`row_major`/`column_major` written)
    /// of type `ty` (a typedef may carry one): writing one against the typedef's is an
    /// error; with neither, `latent` applies.
    fn majority(&self, ty: &Type, packing: Option<bool>, latent: Option<bool>) -> R<Option<bool>> {
        if !matches!(ty.kind, TypeKind::Matrix(..)) {
            return Ok(None);
        }
        if let (Some(p), Some(t)) = (packing, ty.row_major) {
            if p != t {
                return Err(Diagnostic::error(
                    Code::Syntax,
                    self.loc(),
                    "a matrix majority contradicts its type's",
                ));
            }
        }
        Ok(packing.or(ty.row_major).or(latent))
    }

    fn typedef(&mut self) -> R<()> {
        self.i += 1;
        let start = self.i;
        let quals = self.qualifiers();
        let _ = quals;
        let mut ty = self.type_spec()?;
        // The latent majority applies to a typedef only once a pragma has set one.
        let latent = self.pragma_seen.then_some(self.row_major);
        ty.row_major = self.majority(&ty, self.packing_before(start), latent)?;
        loop {
            let name = self.ident()?;
            let mut t = ty.clone();
            t.array.extend(self.array_dims()?);
            if t.array.contains(&0) {
                return Err(Diagnostic::error(
                    Code::Syntax,
                    self.loc_of(&name),
                    "a typedef cannot leave an array size implicit",
                ));
            }
            self.types.insert(name.text.clone(), t);
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::Semi)?;
        Ok(())
    }

    fn cbuffer(&mut self) -> R<()> {
        self.i += 1;
        self.ident()?;
        if self.eat(Tok::Colon) {
            self.semantic_or_register()?;
        }
        self.expect(Tok::LBrace)?;
        while !self.eat(Tok::RBrace) {
            if self.kind() == Tok::Eof {
                return Err(self.unexpected());
            }
            self.global_decl()?;
        }
        self.eat(Tok::Semi);
        Ok(())
    }

    fn qualifiers(&mut self) -> Qualifiers {
        let mut q = Qualifiers::default();
        loop {
            let t = self.peek();
            if t.kind != Tok::Ident {
                break;
            }
            match t.text.as_str() {
                "static" => q.is_static = true,
                "uniform" => q.uniform = true,
                "const" => q.is_const = true,
                // `precise` is no keyword: a variable or a type may take the name.
                "precise" if !self.precise_is_qualifier() => break,
                "shared" => {
                    q.external = true;
                    q.shared = true;
                }
                "extern" | "volatile" | "inline" | "precise" | "nointerpolation" | "linear"
                | "centroid" | "noperspective" | "groupshared" => q.external = true,
                "in" => q.input = true,
                "out" => q.output = true,
                "inout" => {
                    q.input = true;
                    q.output = true;
                }
                "row_major" | "column_major" => {}
                _ => break,
            }
            self.i += 1;
        }
        q
    }

    /// Whether the `precise` at the cursor qualifies what follows: it is followed by a
    /// type or a qualifier, or by any name when no type is called `precise`.
    fn precise_is_qualifier(&self) -> bool {
        let next = self.peek_at(1);
        if next.kind != Tok::Ident {
            return false;
        }
        if !self.types.contains_key("precise") {
            return true;
        }
        builtin_type(&next.text).is_some()
            || self.types.contains_key(&next.text)
            || matches!(
                next.text.as_str(),
                "struct"
                    | "vector"
                    | "matrix"
                    | "const"
                    | "static"
                    | "uniform"
                    | "row_major"
                    | "column_major"
                    | "in"
                    | "out"
                    | "inout"
                    | "extern"
                    | "shared"
            )
    }

    /// `row_major`/`column_major` may sit among the qualifiers; reads them back.
    fn packing_before(&self, start: usize) -> Option<bool> {
        let mut r = None;
        for t in &self.t[start..self.i] {
            match t.text.as_str() {
                "row_major" => r = Some(true),
                "column_major" => r = Some(false),
                _ => {}
            }
        }
        r
    }

    fn is_type_start(&self) -> bool {
        let t = self.peek();
        t.kind == Tok::Ident
            && (builtin_type(&t.text).is_some()
                || (t.text == "precise" && self.precise_is_qualifier())
                || self.types.contains_key(&t.text)
                || matches!(
                    t.text.as_str(),
                    "struct"
                        | "vector"
                        | "matrix"
                        | "const"
                        | "static"
                        | "uniform"
                        | "row_major"
                        | "column_major"
                        | "in"
                        | "out"
                        | "inout"
                        | "extern"
                        | "shared"
                ))
    }

    fn type_spec(&mut self) -> R<Type> {
        let t = self.peek().clone();
        if t.kind != Tok::Ident {
            return Err(self.unexpected());
        }
        if t.text == "struct" {
            return self.struct_def();
        }
        if t.text == "vector" || t.text == "matrix" {
            self.i += 1;
            if !self.eat(Tok::Lt) {
                return Ok(Type::of(if t.text == "vector" {
                    TypeKind::Vector(Scalar::Float, 4)
                } else {
                    TypeKind::Matrix(Scalar::Float, 4, 4)
                }));
            }
            let s = self.ident()?;
            let scalar = match builtin_type(&s.text) {
                Some(TypeKind::Scalar(s)) => s,
                _ => {
                    return Err(Diagnostic::error(
                        Code::Syntax,
                        self.loc_of(&s),
                        "expected a scalar type",
                    ))
                }
            };
            let mut dims = Vec::new();
            while self.eat(Tok::Comma) {
                let n = self.expect(Tok::Int)?;
                let v = parse_int(&n.text)
                    .filter(|v| (1..=4).contains(v))
                    .ok_or_else(|| {
                        Diagnostic::error(Code::Syntax, self.loc_of(&n), "dimension must be 1 to 4")
                    })?;
                dims.push(v as u8);
            }
            self.expect(Tok::Gt)?;
            return Ok(Type::of(match (t.text.as_str(), dims.as_slice()) {
                ("vector", [n]) => TypeKind::Vector(scalar, *n),
                ("matrix", [r, c]) => TypeKind::Matrix(scalar, *r, *c),
                _ => {
                    return Err(Diagnostic::error(
                        Code::Syntax,
                        self.loc_of(&t),
                        "bad vector or matrix dimensions",
                    ))
                }
            }));
        }
        if let Some(k) = builtin_type(&t.text) {
            self.i += 1;
            // `sampler2D<float4>`-style template arguments are skipped.
            if matches!(k, TypeKind::Object(ObjectKind::Texture(_))) && self.kind() == Tok::Lt {
                while !self.eat(Tok::Gt) {
                    if self.kind() == Tok::Eof {
                        return Err(self.unexpected());
                    }
                    self.i += 1;
                }
            }
            return Ok(Type::of(k));
        }
        if let Some(ty) = self.types.get(&t.text) {
            self.i += 1;
            return Ok(ty.clone());
        }
        Err(Diagnostic::error(
            Code::Undeclared,
            self.loc_of(&t),
            format!("undeclared identifier '{}'", t.text),
        ))
    }

    fn struct_def(&mut self) -> R<Type> {
        self.i += 1;
        let name = if self.kind() == Tok::Ident {
            self.next().text
        } else {
            String::new()
        };
        if !self.eat(Tok::LBrace) {
            return self.types.get(&name).cloned().ok_or_else(|| {
                Diagnostic::error(
                    Code::Undeclared,
                    self.loc(),
                    format!("undeclared identifier '{name}'"),
                )
            });
        }
        let mut members = Vec::new();
        while !self.eat(Tok::RBrace) {
            if self.kind() == Tok::Eof {
                return Err(self.unexpected());
            }
            if self.pragma() {
                continue;
            }
            let start = self.i;
            let quals = self.qualifiers();
            let mut ty = self.type_spec()?;
            // Members take the latent majority where the struct is defined.
            ty.row_major = self.majority(&ty, self.packing_before(start), Some(self.row_major))?;
            loop {
                let decl = self.declarator(&ty, quals)?;
                members.push(decl);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::Semi)?;
        }
        self.program.structs.push(StructDef {
            name: name.clone(),
            members,
        });
        let ty = Type::of(TypeKind::Struct(self.program.structs.len() - 1));
        if !name.is_empty() {
            self.types.insert(name, ty.clone());
        }
        Ok(ty)
    }

    /// `[N]...` dimensions: constant expressions; `[]` (0) sizes the array by its
    /// initialiser (checked by [`Parser::declarator`]).
    fn array_dims(&mut self) -> R<Vec<u32>> {
        let mut dims = Vec::new();
        while self.eat(Tok::LBracket) {
            if self.eat(Tok::RBracket) {
                dims.push(0);
                continue;
            }
            let n = self.expr()?;
            let v = match self.consts.eval(&n) {
                Some(v) if (1.0..65537.0).contains(&v) => v as u32,
                _ => {
                    return Err(Diagnostic::error(
                        Code::Unsupported,
                        n.loc,
                        "array dimensions must be constant expressions from 1 to 65536",
                    ))
                }
            };
            dims.push(v);
            self.expect(Tok::RBracket)?;
        }
        Ok(dims)
    }

    /// `: SEMANTIC`, `: register(c0)`, `: packoffset(...)`, after the colon.
    fn semantic_or_register(&mut self) -> R<(Option<String>, Option<Binding>)> {
        let t = self.ident()?;
        if t.text == "register" || t.text == "packoffset" {
            self.expect(Tok::LParen)?;
            let mut word = self.ident()?;
            let mut profile = None;
            // `register(ps, c1)` names the profile first.
            if self.eat(Tok::Comma) {
                profile = Some(word.text.to_ascii_lowercase());
                word = self.ident()?;
            }
            // `c3`, `c` (c0), then an optional constant offset: `c0[1 + 1]`, `c[2]`. Letters
            // after the digits are ignored (as fxc does), letters without digits are an error.
            let text = word.text.to_ascii_lowercase();
            let set = text.chars().next().unwrap_or('c');
            let rest = &text[set.len_utf8()..];
            let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            let word_loc = self.loc_of(&word);
            let bad = || {
                Diagnostic::error(
                    Code::Syntax,
                    word_loc.clone(),
                    format!("invalid register '{}'", word.text),
                )
            };
            if t.text != "register" || (digits.is_empty() && !rest.is_empty()) {
                return Err(bad());
            }
            let mut index = if digits.is_empty() {
                0
            } else {
                digits.parse::<i64>().map_err(|_| bad())?
            };
            if self.eat(Tok::LBracket) {
                let e = self.expr()?;
                let off = self.consts.eval(&e).ok_or_else(bad)?;
                index = index.saturating_add(off.trunc() as i64);
                self.expect(Tok::RBracket)?;
            }
            self.expect(Tok::RParen)?;
            let index = u32::try_from(index).map_err(|_| bad())?;
            return Ok((
                None,
                Some(Binding {
                    set,
                    index,
                    profile,
                    more: Vec::new(),
                    loc: word_loc,
                }),
            ));
        }
        Ok((Some(t.text.to_ascii_uppercase()), None))
    }

    fn declarator(&mut self, ty: &Type, quals: Qualifiers) -> R<VarDecl> {
        let name = self.ident()?;
        let mut ty = ty.clone();
        ty.array.extend(self.array_dims()?);
        let mut semantic = None;
        let mut binding = None;
        while self.eat(Tok::Colon) {
            let (s, b) = self.semantic_or_register()?;
            semantic = semantic.or(s);
            match (&mut binding, b) {
                (None, b) => binding = b,
                (Some(first), Some(b)) => first.more.push(b),
                (Some(_), None) => {}
            }
        }
        // Annotations `< ... >` are for effects.
        self.pending_annotations.clear();
        self.pending_states = None;
        if self.kind() == Tok::Lt {
            if self.effect {
                self.pending_annotations = self.annotations()?;
            } else {
                self.skip_balanced(Tok::Lt, Tok::Gt)?;
            }
        }
        let init = if self.eat(Tok::Assign) {
            Some(self.initializer()?)
        } else if self.kind() == Tok::LBrace && matches!(ty.kind, TypeKind::Object(_)) {
            if self.effect {
                self.pending_states = Some(self.state_block()?);
            } else {
                self.skip_balanced(Tok::LBrace, Tok::RBrace)?;
            }
            Some(Init::SamplerState)
        } else {
            None
        };
        // Only the outermost dimension may be left to the initialiser.
        if ty.array.iter().skip(1).any(|&d| d == 0)
            || (ty.array.first() == Some(&0) && init.is_none())
        {
            return Err(Diagnostic::error(
                Code::Syntax,
                self.loc_of(&name),
                "implicit array size needs an initialiser and must be the outermost dimension",
            ));
        }
        if quals.is_const {
            self.consts.record(&name.text, &ty.kind, init.as_ref());
        }
        Ok(VarDecl {
            name: name.text.clone(),
            ty,
            quals,
            semantic,
            binding,
            init,
            loc: self.loc_of(&name),
        })
    }

    /// Skips `open ... close` with nested pairs; the next token must be `open` (after
    /// `sampler_state` the source may hold anything).
    fn skip_balanced(&mut self, open: Tok, close: Tok) -> R<()> {
        if self.kind() != open {
            return Err(self.unexpected());
        }
        let mut depth = 0usize;
        loop {
            let t = self.next();
            if t.kind == Tok::Eof {
                return Err(self.unexpected());
            }
            if t.kind == open {
                depth += 1;
            } else if t.kind == close {
                depth -= 1;
                if depth == 0 {
                    return Ok(());
                }
            }
        }
    }

    fn initializer(&mut self) -> R<Init> {
        if self.is_word("sampler_state") {
            self.i += 1;
            if self.effect {
                self.pending_states = Some(self.state_block()?);
            } else {
                self.skip_balanced(Tok::LBrace, Tok::RBrace)?;
            }
            return Ok(Init::SamplerState);
        }
        if self.effect && self.kind() == Tok::Str {
            let loc = self.loc();
            let t = self.next();
            return Ok(Init::Str(effect::unquote(&t.text), loc));
        }
        if self.kind() == Tok::LBrace {
            let loc = self.loc();
            self.enter()?;
            self.i += 1;
            let mut items = Vec::new();
            while !self.eat(Tok::RBrace) {
                items.push(self.initializer()?);
                if !self.eat(Tok::Comma) {
                    self.expect(Tok::RBrace)?;
                    break;
                }
            }
            self.leave();
            return Ok(Init::List(items, loc));
        }
        Ok(Init::Expr(self.assignment()?))
    }

    fn global_decl(&mut self) -> R<()> {
        let start = self.i;
        let quals = self.qualifiers();
        let mut ty = self.type_spec()?;
        let packing = self.packing_before(start);
        ty.row_major = self.majority(&ty, packing, Some(self.row_major))?;
        if self.eat(Tok::Semi) {
            return Ok(()); // a struct definition alone
        }
        let quals2 = self.qualifiers();
        let quals = merge(quals, quals2);
        if self.kind() == Tok::Ident && self.peek_at(1).kind == Tok::LParen {
            let f = self.function(ty)?;
            self.program.globals.push(Global::Function(f));
            return Ok(());
        }
        let mut vars = Vec::new();
        loop {
            let v = self.declarator(&ty, quals)?;
            if self.effect {
                let annotations = std::mem::take(&mut self.pending_annotations);
                if !annotations.is_empty() {
                    self.program
                        .effect
                        .annotations
                        .push((v.name.clone(), annotations));
                }
                if let Some(states) = self.pending_states.take() {
                    self.program
                        .effect
                        .sampler_states
                        .push((v.name.clone(), states));
                }
            }
            vars.push(v);
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::Semi)?;
        self.program.globals.push(Global::Vars(vars));
        Ok(())
    }

    fn function(&mut self, ret: Type) -> R<Function> {
        let name = self.ident()?;
        self.expect(Tok::LParen)?;
        let mut params = Vec::new();
        if self.is_word("void") && self.peek_at(1).kind == Tok::RParen {
            self.i += 1;
        }
        while !self.eat(Tok::RParen) {
            let start = self.i;
            let mut quals = self.qualifiers();
            if !quals.output {
                quals.input = true;
            }
            let mut ty = self.type_spec()?;
            let more = self.qualifiers();
            quals = merge(quals, more);
            ty.row_major = self
                .packing_before(start)
                .or(Some(self.row_major))
                .filter(|_| matches!(ty.kind, TypeKind::Matrix(..)));
            params.push(self.declarator(&ty, quals)?);
            if !self.eat(Tok::Comma) {
                self.expect(Tok::RParen)?;
                break;
            }
        }
        let mut ret_semantic = None;
        if self.eat(Tok::Colon) {
            ret_semantic = self.semantic_or_register()?.0;
        }
        let body = if self.eat(Tok::Semi) {
            None
        } else {
            self.expect(Tok::LBrace)?;
            Some(self.block_rest()?)
        };
        Ok(Function {
            name: name.text.clone(),
            ret,
            ret_semantic,
            params,
            body,
            loc: self.loc_of(&name),
        })
    }

    fn block_rest(&mut self) -> R<Vec<Stmt>> {
        self.enter()?;
        let mut out = Vec::new();
        while !self.eat(Tok::RBrace) {
            if self.kind() == Tok::Eof {
                return Err(self.unexpected());
            }
            if self.pragma() {
                continue;
            }
            out.push(self.statement()?);
        }
        self.leave();
        Ok(out)
    }

    fn attributes(&mut self) -> R<Vec<Attribute>> {
        let mut attrs = Vec::new();
        while self.kind() == Tok::LBracket {
            self.i += 1;
            let name = self.ident()?;
            let mut args = Vec::new();
            if self.eat(Tok::LParen) {
                while !self.eat(Tok::RParen) {
                    args.push(self.assignment()?);
                    if !self.eat(Tok::Comma) {
                        self.expect(Tok::RParen)?;
                        break;
                    }
                }
            }
            self.expect(Tok::RBracket)?;
            attrs.push(Attribute {
                name: name.text.to_ascii_lowercase(),
                args,
            });
        }
        Ok(attrs)
    }

    fn statement(&mut self) -> R<Stmt> {
        self.enter()?;
        let s = self.statement_inner();
        self.leave();
        s
    }

    fn statement_inner(&mut self) -> R<Stmt> {
        let attrs = self.attributes()?;
        let loc = self.loc();
        match self.kind() {
            Tok::Semi => {
                self.i += 1;
                return Ok(Stmt::Empty);
            }
            Tok::LBrace => {
                self.i += 1;
                return Ok(Stmt::Block(self.block_rest()?));
            }
            Tok::Ident => {}
            _ => {
                let e = self.expr()?;
                self.expect(Tok::Semi)?;
                return Ok(Stmt::Expr(e));
            }
        }
        let word = self.peek().text.clone();
        match word.as_str() {
            "if" => {
                self.i += 1;
                self.expect(Tok::LParen)?;
                let cond = self.expr()?;
                self.expect(Tok::RParen)?;
                let then = Box::new(self.statement()?);
                let otherwise = if self.is_word("else") {
                    self.i += 1;
                    Some(Box::new(self.statement()?))
                } else {
                    None
                };
                Ok(Stmt::If {
                    attrs,
                    cond,
                    then,
                    otherwise,
                })
            }
            "for" => {
                self.i += 1;
                self.expect(Tok::LParen)?;
                let init = if self.eat(Tok::Semi) {
                    None
                } else {
                    Some(Box::new(self.simple_statement()?))
                };
                let cond = if self.kind() == Tok::Semi {
                    None
                } else {
                    Some(self.expr()?)
                };
                self.expect(Tok::Semi)?;
                let step = if self.kind() == Tok::RParen {
                    None
                } else {
                    Some(self.expr()?)
                };
                self.expect(Tok::RParen)?;
                let body = Box::new(self.statement()?);
                Ok(Stmt::For {
                    attrs,
                    init,
                    cond,
                    step,
                    body,
                    loc,
                })
            }
            "while" => {
                self.i += 1;
                self.expect(Tok::LParen)?;
                let cond = self.expr()?;
                self.expect(Tok::RParen)?;
                let body = Box::new(self.statement()?);
                Ok(Stmt::While {
                    attrs,
                    cond,
                    body,
                    loc,
                })
            }
            "do" => {
                self.i += 1;
                let body = Box::new(self.statement()?);
                if !self.is_word("while") {
                    return Err(self.unexpected());
                }
                self.i += 1;
                self.expect(Tok::LParen)?;
                let cond = self.expr()?;
                self.expect(Tok::RParen)?;
                self.expect(Tok::Semi)?;
                Ok(Stmt::DoWhile {
                    attrs,
                    body,
                    cond,
                    loc,
                })
            }
            "switch" => {
                self.i += 1;
                self.switch(loc)
            }
            "return" => {
                self.i += 1;
                let e = if self.kind() == Tok::Semi {
                    None
                } else {
                    Some(self.expr()?)
                };
                self.expect(Tok::Semi)?;
                Ok(Stmt::Return(e, loc))
            }
            "break" | "continue" | "discard" => {
                self.i += 1;
                self.expect(Tok::Semi)?;
                Ok(match word.as_str() {
                    "break" => Stmt::Break(loc),
                    "continue" => Stmt::Continue(loc),
                    _ => Stmt::Discard(loc),
                })
            }
            _ => self.simple_statement(),
        }
    }

    /// `switch (x) { case K: ... default: ... }`, after the keyword, as the flow control
    /// shader models 1-3 have: a loop run once (so that `break` leaves it) in which each group
    /// of labels sets a flag when it matches, and each group's statements run while the flag
    /// is set (so that a group without `break` falls through into the next). `default`
    /// matches when no `case` does.
    fn switch(&mut self, loc: Loc) -> R<Stmt> {
        let at = |kind: ExprKind| Expr {
            kind,
            loc: loc.clone(),
        };
        let id = self.i;
        let value = format!("switch value#{id}");
        let matched = format!("switch matched#{id}");
        self.expect(Tok::LParen)?;
        let selector = self.expr()?;
        self.expect(Tok::RParen)?;
        self.expect(Tok::LBrace)?;
        // Groups of labels (`None` for `default`) and their statements.
        let mut groups: Vec<(Vec<Option<Expr>>, Vec<Stmt>)> = Vec::new();
        while !self.eat(Tok::RBrace) {
            if self.is_word("case") || self.is_word("default") {
                let label = if self.is_word("case") {
                    self.i += 1;
                    Some(self.expr()?)
                } else {
                    self.i += 1;
                    None
                };
                self.expect(Tok::Colon)?;
                match groups.last_mut() {
                    Some((labels, stmts)) if stmts.is_empty() => labels.push(label),
                    _ => groups.push((vec![label], Vec::new())),
                }
            } else {
                let stmt = self.statement()?;
                match groups.last_mut() {
                    Some((_, stmts)) => stmts.push(stmt),
                    None => return Err(self.unexpected()),
                }
            }
        }
        let ident = |name: &str| at(ExprKind::Ident(name.to_string()));
        let equals = |k: &Expr| {
            at(ExprKind::Binary(
                BinOp::Eq,
                Box::new(ident(&value)),
                // Labels are integers: `case 2.1f:` is `case 2:`.
                Box::new(at(ExprKind::Cast(
                    Type::of(TypeKind::Scalar(Scalar::Int)),
                    Box::new(k.clone()),
                ))),
            ))
        };
        let any = |tests: Vec<Expr>| {
            tests
                .into_iter()
                .reduce(|a, b| at(ExprKind::Binary(BinOp::Or, Box::new(a), Box::new(b))))
                .unwrap_or_else(|| at(ExprKind::Bool(false)))
        };
        let cases: Vec<Expr> = groups
            .iter()
            .flat_map(|(labels, _)| labels.iter().flatten())
            .map(equals)
            .collect();
        let no_case = at(ExprKind::Unary(UnOp::Not, Box::new(any(cases))));
        let var = |name: &str, scalar: Scalar, init: Expr| VarDecl {
            name: name.to_string(),
            ty: Type::of(TypeKind::Scalar(scalar)),
            quals: Qualifiers::default(),
            semantic: None,
            binding: None,
            init: Some(Init::Expr(init)),
            loc: loc.clone(),
        };
        let mut body = Vec::new();
        for (labels, stmts) in groups {
            let tests: Vec<Expr> = labels
                .iter()
                .map(|l| match l {
                    Some(k) => equals(k),
                    None => no_case.clone(),
                })
                .collect();
            body.push(Stmt::If {
                attrs: Vec::new(),
                cond: any(tests),
                then: Box::new(Stmt::Expr(at(ExprKind::Assign(
                    None,
                    Box::new(ident(&matched)),
                    Box::new(at(ExprKind::Bool(true))),
                )))),
                otherwise: None,
            });
            body.push(Stmt::If {
                attrs: Vec::new(),
                cond: ident(&matched),
                then: Box::new(Stmt::Block(stmts)),
                otherwise: None,
            });
        }
        Ok(Stmt::Block(vec![
            Stmt::Vars(vec![
                var(&value, Scalar::Int, selector),
                var(&matched, Scalar::Bool, at(ExprKind::Bool(false))),
            ]),
            Stmt::DoWhile {
                attrs: Vec::new(),
                body: Box::new(Stmt::Block(body)),
                cond: at(ExprKind::Bool(false)),
                loc,
            },
        ]))
    }

    /// A declaration or an expression statement, with its `;`.
    fn simple_statement(&mut self) -> R<Stmt> {
        if self.is_declaration() {
            let start = self.i;
            let quals = self.qualifiers();
            let mut ty = self.type_spec()?;
            ty.row_major = self
                .packing_before(start)
                .or(Some(self.row_major))
                .filter(|_| matches!(ty.kind, TypeKind::Matrix(..)));
            let mut vars = Vec::new();
            loop {
                vars.push(self.declarator(&ty, quals)?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::Semi)?;
            return Ok(Stmt::Vars(vars));
        }
        let e = self.expr()?;
        self.expect(Tok::Semi)?;
        Ok(Stmt::Expr(e))
    }

    fn is_declaration(&self) -> bool {
        if !self.is_type_start() {
            return false;
        }
        // `float3(...)` is a constructor expression; `float3 x` a declaration.
        let next = self.peek_at(1).kind;
        !(next == Tok::LParen || next == Tok::Dot)
    }

    fn expr(&mut self) -> R<Expr> {
        let mut e = self.assignment()?;
        while self.kind() == Tok::Comma {
            self.i += 1;
            let r = self.assignment()?;
            let loc = e.loc.clone();
            e = Expr {
                kind: ExprKind::Binary(BinOp::Comma, Box::new(e), Box::new(r)),
                loc,
            };
        }
        Ok(e)
    }

    fn assignment(&mut self) -> R<Expr> {
        self.enter()?;
        let r = self.assignment_inner();
        self.leave();
        r
    }

    fn assignment_inner(&mut self) -> R<Expr> {
        let lhs = self.ternary()?;
        let op = match self.kind() {
            Tok::Assign => None,
            Tok::PlusAssign => Some(BinOp::Add),
            Tok::MinusAssign => Some(BinOp::Sub),
            Tok::StarAssign => Some(BinOp::Mul),
            Tok::SlashAssign => Some(BinOp::Div),
            Tok::PercentAssign => Some(BinOp::Rem),
            Tok::AmpAssign => Some(BinOp::BitAnd),
            Tok::PipeAssign => Some(BinOp::BitOr),
            Tok::CaretAssign => Some(BinOp::BitXor),
            Tok::ShlAssign => Some(BinOp::Shl),
            Tok::ShrAssign => Some(BinOp::Shr),
            _ => return Ok(lhs),
        };
        let loc = self.loc();
        self.i += 1;
        let rhs = self.assignment()?;
        Ok(Expr {
            kind: ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)),
            loc,
        })
    }

    fn ternary(&mut self) -> R<Expr> {
        let c = self.binary(0)?;
        if self.kind() != Tok::Question {
            return Ok(c);
        }
        self.i += 1;
        let a = self.assignment()?;
        self.expect(Tok::Colon)?;
        let b = self.assignment()?;
        let loc = c.loc.clone();
        Ok(Expr {
            kind: ExprKind::Ternary(Box::new(c), Box::new(a), Box::new(b)),
            loc,
        })
    }

    fn binary(&mut self, min: u8) -> R<Expr> {
        self.enter()?;
        let mut l = self.unary()?;
        loop {
            let (prec, op) = match self.kind() {
                Tok::OrOr => (1, BinOp::Or),
                Tok::AndAnd => (2, BinOp::And),
                Tok::Pipe => (3, BinOp::BitOr),
                Tok::Caret => (4, BinOp::BitXor),
                Tok::Amp => (5, BinOp::BitAnd),
                Tok::EqEq => (6, BinOp::Eq),
                Tok::Ne => (6, BinOp::Ne),
                Tok::Lt => (7, BinOp::Lt),
                Tok::Gt => (7, BinOp::Gt),
                Tok::Le => (7, BinOp::Le),
                Tok::Ge => (7, BinOp::Ge),
                Tok::Shl => (8, BinOp::Shl),
                Tok::Shr => (8, BinOp::Shr),
                Tok::Plus => (9, BinOp::Add),
                Tok::Minus => (9, BinOp::Sub),
                Tok::Star => (10, BinOp::Mul),
                Tok::Slash => (10, BinOp::Div),
                Tok::Percent => (10, BinOp::Rem),
                _ => break,
            };
            if prec <= min {
                break;
            }
            let loc = self.loc();
            self.i += 1;
            let r = self.binary(prec)?;
            l = Expr {
                kind: ExprKind::Binary(op, Box::new(l), Box::new(r)),
                loc,
            };
        }
        self.leave();
        Ok(l)
    }

    fn unary(&mut self) -> R<Expr> {
        self.enter()?;
        let r = self.unary_inner();
        self.leave();
        r
    }

    fn unary_inner(&mut self) -> R<Expr> {
        let loc = self.loc();
        let op = match self.kind() {
            Tok::Minus => Some(UnOp::Neg),
            Tok::Plus => Some(UnOp::Plus),
            Tok::Bang => Some(UnOp::Not),
            Tok::Tilde => Some(UnOp::BitNot),
            Tok::PlusPlus => Some(UnOp::PreInc),
            Tok::MinusMinus => Some(UnOp::PreDec),
            _ => None,
        };
        if let Some(op) = op {
            self.i += 1;
            let e = self.unary()?;
            return Ok(Expr {
                kind: ExprKind::Unary(op, Box::new(e)),
                loc,
            });
        }
        // A cast: `(type) expr`.
        if self.kind() == Tok::LParen {
            let save = self.i;
            self.i += 1;
            if self.is_type_start() && !self.is_word("in") {
                let ty = self.type_spec();
                if let Ok(mut ty) = ty {
                    ty.array.extend(self.array_dims()?);
                    if ty.array.contains(&0) {
                        return Err(Diagnostic::error(
                            Code::Syntax,
                            loc,
                            "a cast cannot leave an array size implicit",
                        ));
                    }
                    if self.eat(Tok::RParen) {
                        let e = self.unary()?;
                        return Ok(Expr {
                            kind: ExprKind::Cast(ty, Box::new(e)),
                            loc,
                        });
                    }
                }
            }
            self.i = save;
        }
        self.postfix()
    }

    fn postfix(&mut self) -> R<Expr> {
        let mut e = self.primary()?;
        loop {
            let loc = self.loc();
            match self.kind() {
                Tok::Dot => {
                    self.i += 1;
                    let name = self.ident()?;
                    if self.kind() == Tok::LParen {
                        self.i += 1;
                        let args = self.args()?;
                        e = Expr {
                            kind: ExprKind::Method(Box::new(e), name.text, args),
                            loc,
                        };
                    } else {
                        e = Expr {
                            kind: ExprKind::Member(Box::new(e), name.text),
                            loc,
                        };
                    }
                }
                Tok::LBracket => {
                    self.i += 1;
                    let idx = self.expr()?;
                    self.expect(Tok::RBracket)?;
                    e = Expr {
                        kind: ExprKind::Index(Box::new(e), Box::new(idx)),
                        loc,
                    };
                }
                Tok::PlusPlus | Tok::MinusMinus => {
                    let op = if self.kind() == Tok::PlusPlus {
                        UnOp::PostInc
                    } else {
                        UnOp::PostDec
                    };
                    self.i += 1;
                    e = Expr {
                        kind: ExprKind::Unary(op, Box::new(e)),
                        loc,
                    };
                }
                _ => return Ok(e),
            }
        }
    }

    fn args(&mut self) -> R<Vec<Expr>> {
        let mut args = Vec::new();
        while !self.eat(Tok::RParen) {
            args.push(self.assignment()?);
            if !self.eat(Tok::Comma) {
                self.expect(Tok::RParen)?;
                break;
            }
        }
        Ok(args)
    }

    fn primary(&mut self) -> R<Expr> {
        let t = self.peek().clone();
        let loc = self.loc_of(&t);
        let kind = match t.kind {
            Tok::Int => {
                self.i += 1;
                let v = parse_int(&t.text).ok_or_else(|| {
                    Diagnostic::error(
                        Code::Syntax,
                        loc.clone(),
                        format!("invalid integer '{}'", t.text),
                    )
                })?;
                // Literals are 32-bit: fxc reads an unsuffixed one as signed (3000000000 is
                // -1294967296) and a `u` one as unsigned.
                let unsigned = t.text.trim_end_matches(['l', 'L']).ends_with(['u', 'U']);
                ExprKind::Int(if unsigned {
                    i64::from(v as u32)
                } else {
                    i64::from(v as u32 as i32)
                })
            }
            Tok::Float => {
                self.i += 1;
                let s = t.text.trim_end_matches(['f', 'F', 'h', 'H', 'l', 'L']);
                ExprKind::Float(s.parse().map_err(|_| {
                    Diagnostic::error(
                        Code::Syntax,
                        loc.clone(),
                        format!("invalid number '{}'", t.text),
                    )
                })?)
            }
            Tok::LParen => {
                self.i += 1;
                self.enter()?;
                let e = self.expr()?;
                self.leave();
                self.expect(Tok::RParen)?;
                return Ok(e);
            }
            Tok::Ident if t.text == "true" || t.text == "false" => {
                self.i += 1;
                ExprKind::Bool(t.text == "true")
            }
            Tok::Ident
                if self.is_type_start() && self.peek_at(1).kind == Tok::LParen
                    || t.text == "vector"
                    || t.text == "matrix" =>
            {
                let ty = self.type_spec()?;
                self.expect(Tok::LParen)?;
                let args = self.args()?;
                ExprKind::Construct(ty, args)
            }
            Tok::Ident => {
                self.i += 1;
                if self.kind() == Tok::LParen {
                    self.i += 1;
                    ExprKind::Call(t.text, self.args()?)
                } else {
                    ExprKind::Ident(t.text)
                }
            }
            _ => return Err(self.unexpected()),
        };
        Ok(Expr { kind, loc })
    }
}

fn merge(a: Qualifiers, b: Qualifiers) -> Qualifiers {
    Qualifiers {
        is_static: a.is_static || b.is_static,
        uniform: a.uniform || b.uniform,
        is_const: a.is_const || b.is_const,
        external: a.external || b.external,
        shared: a.shared || b.shared,
        input: a.input || b.input,
        output: a.output || b.output,
    }
}

/// The built-in type a name spells (`float3`, `half4x4`, `sampler2D`, `dword`).
pub fn builtin_type(name: &str) -> Option<TypeKind> {
    let obj = |k| Some(TypeKind::Object(k));
    match name {
        "void" => return Some(TypeKind::Void),
        "string" => return Some(TypeKind::String),
        "dword" => return Some(TypeKind::Scalar(Scalar::Uint)),
        "sampler" | "sampler_state" => return obj(ObjectKind::Sampler),
        "sampler1D" => return obj(ObjectKind::Sampler1D),
        "sampler2D" => return obj(ObjectKind::Sampler2D),
        "sampler3D" => return obj(ObjectKind::Sampler3D),
        "samplerCUBE" => return obj(ObjectKind::SamplerCube),
        "SamplerState" | "SamplerComparisonState" => return obj(ObjectKind::SamplerState),
        "texture" | "Texture" => return obj(ObjectKind::Texture(0)),
        "Texture1D" | "texture1D" => return obj(ObjectKind::Texture(1)),
        "Texture2D" | "texture2D" => return obj(ObjectKind::Texture(2)),
        "Texture3D" | "texture3D" => return obj(ObjectKind::Texture(3)),
        "TextureCube" | "textureCUBE" => return obj(ObjectKind::Texture(4)),
        _ => {}
    }
    let scalars = [
        ("bool", Scalar::Bool),
        ("int", Scalar::Int),
        ("uint", Scalar::Uint),
        ("half", Scalar::Half),
        ("float", Scalar::Float),
        ("double", Scalar::Double),
        ("min16float", Scalar::Half),
        ("min10float", Scalar::Half),
        ("min16int", Scalar::Int),
        ("min12int", Scalar::Int),
        ("min16uint", Scalar::Uint),
    ];
    for (word, s) in scalars {
        if let Some(rest) = name.strip_prefix(word) {
            let b = rest.as_bytes();
            let dim = |c: u8| (b'1'..=b'4').contains(&c).then_some(c - b'0');
            return match b {
                [] => Some(TypeKind::Scalar(s)),
                [n] => Some(TypeKind::Vector(s, dim(*n)?)),
                [r, b'x', c] => Some(TypeKind::Matrix(s, dim(*r)?, dim(*c)?)),
                _ => None,
            };
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preprocess::preprocess;
    use crate::NoIncludes;

    fn parse_src(src: &str) -> R<Program> {
        let out = preprocess("t", src, &[], &NoIncludes)?;
        parse(&out.tokens, &out.files, false)
    }

    #[test]
    fn declarations_and_functions() {
        let p = parse_src(
            "struct V { float4 p : POSITION; float2 t[2] : TEXCOORD0; };\n\
             typedef float3 vec3;\n\
             sampler2D s : register(s1);\n\
             row_major float4x4 m : register(c4);\n\
             static const float k = 2.0;\n\
             float4 main(V v, uniform float a) : COLOR {\n\
               vec3 x = v.p.xyz * a; [unroll] for (int i = 0; i < 3; i++) x += i;\n\
               if (x.x > 0) discard; return float4(x, (float)k) + tex2D(s, v.t[1]); }",
        )
        .unwrap();
        assert_eq!(p.structs.len(), 1);
        assert_eq!(p.globals.len(), 4);
        match &p.globals[0] {
            Global::Vars(v) => {
                assert_eq!(
                    v[0].binding.as_ref().map(|b| (b.set, b.index)),
                    Some(('s', 1))
                )
            }
            g => panic!("{g:?}"),
        }
    }

    #[test]
    fn register_forms() {
        let binding = |decl: &str| -> R<Option<(char, u32)>> {
            let p = parse_src(&format!("static const int two = 2;\n{decl}"))?;
            match &p.globals[1] {
                Global::Vars(v) => Ok(v[0].binding.as_ref().map(|b| (b.set, b.index))),
                g => panic!("{g:?}"),
            }
        };
        assert_eq!(binding("float a : register(c);").unwrap(), Some(('c', 0)));
        assert_eq!(
            binding("float a : register(c[1 + two]);").unwrap(),
            Some(('c', 3))
        );
        assert_eq!(
            binding("float a : register(c2[-1]);").unwrap(),
            Some(('c', 1))
        );
        assert_eq!(
            binding("float a : register(c0[0.6 + 0.6]);").unwrap(),
            Some(('c', 1))
        );
        assert_eq!(
            binding("float a : register(c1xyz);").unwrap(),
            Some(('c', 1))
        );
        assert!(binding("float a : register(banana);").is_err());
        assert!(binding("float a : register(c0[-1]);").is_err());
    }

    #[test]
    fn sampler_state_without_braces_is_a_syntax_error() {
        // The skipping of `{ ... }` once began at whatever token came next, and a closing
        // token first drove its depth below zero.
        for src in [
            "SamplerState s = sampler_state '}' ;",
            "SamplerState s = sampler_state } ;",
            "float4 v < > > ;",
            "sampler2D s = sampler_state",
        ] {
            let e = parse_src(src).unwrap_err();
            assert_eq!(e.code, crate::Code::Syntax, "{src}");
        }
    }

    #[test]
    fn builtin_names() {
        assert_eq!(
            builtin_type("float3x4"),
            Some(TypeKind::Matrix(Scalar::Float, 3, 4))
        );
        assert_eq!(
            builtin_type("half2"),
            Some(TypeKind::Vector(Scalar::Half, 2))
        );
        assert_eq!(builtin_type("float5"), None);
    }

    #[test]
    fn errors_point_at_tokens() {
        let e = parse_src("float4 main() : COLOR { return 1 +; }").unwrap_err();
        assert_eq!(e.code, Code::Syntax);
        assert_eq!((e.loc.line, e.loc.col), (1, 35));
        let deep = format!(
            "float f() {{ return {}1{}; }}",
            "(".repeat(5000),
            ")".repeat(5000)
        );
        assert_eq!(parse_src(&deep).unwrap_err().code, Code::Limit);
    }
}
