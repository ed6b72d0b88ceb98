//! Token lines to instructions, filling every field as Microsoft's assembler does: SM1
//! instructions have a zero length field and implicit `a0.x` relative addressing; SM2+
//! relative addresses get a token with the swizzle as written (`a0.x` replicates x, bare `a0`
//! and `aL` are `.xyzw`); destinations default to `.xyzw`; `dcl` usage tokens have bit 31 set
//! and nothing else beside the fields.

use super::diag::Rule;
use super::lexer::{Kind, Site, Token};
use super::preprocess::Sources;
use super::words::{self, make_register, source_modifier};
use super::Sink;
use dxso::{
    Comment, DclToken, DstParam, Extra, Instruction, Item, Operands, Register, RegisterType,
    Relative, RelativeToken, Shader, SrcParam, Swizzle, Version, WriteMask,
};

pub use words::parse_float;

/// A rule broken, where, and the message (boxed: results stay small on the success path).
type Failure = Box<(Rule, Site, String)>;
type Res<T> = Result<T, Failure>;

/// Assembles preprocessed lines; `None` when there is no version line.
///
/// `sites`, when given, receives the place of each item pushed (its line's first token), in
/// item order: the map from the shader's items back to the text.
pub fn assemble(
    tokens: &[Token],
    sources: &Sources,
    strict: bool,
    sink: &mut Sink,
    mut sites: Option<&mut Vec<Site>>,
) -> Option<Shader> {
    let mut lines = tokens
        .split(|t| t.kind == Kind::Newline)
        .filter(|l| !l.is_empty());
    let first = lines.next()?;
    let version = match parse_version(first, sources) {
        Ok(v) => v,
        Err(failure) => {
            let (rule, site, msg) = *failure;
            sink.error(sources, rule, site, msg);
            return None;
        }
    };
    let mut shader = Shader::new(version);
    shader.items.reserve(tokens.len() / 6);
    // The `+` that ended the line before, when it did: the next instruction is co-issued.
    let mut pending_plus: Option<Site> = None;
    // Whether the item last pushed is a comment block from `// dxso:` lines, which a
    // `// dxso:data` line continues.
    let mut open_comment = false;
    for line in lines {
        if let [t] = line {
            if t.kind == Kind::Lossless {
                match lossless_line(t, sources, open_comment) {
                    Ok((start, words)) => {
                        if start {
                            shader.items.push(Item::Comment(Comment { data: words }));
                            if let Some(sites) = sites.as_deref_mut() {
                                sites.push(t.own_site());
                            }
                        } else if let Some(Item::Comment(c)) = shader.items.last_mut() {
                            c.data.extend(words);
                        }
                        open_comment = true;
                    }
                    Err(failure) => {
                        let (rule, site, msg) = *failure;
                        sink.error(sources, rule, site, msg)
                    }
                }
                continue;
            }
        }
        open_comment = false;
        match parse_line(line, sources, version, strict) {
            Ok((mut inst, plus)) => {
                inst.coissue |= pending_plus.take().is_some();
                pending_plus = plus;
                shader.items.push(Item::Instruction(inst));
                if let (Some(sites), Some(t)) = (sites.as_deref_mut(), line.first()) {
                    sites.push(t.own_site());
                }
            }
            Err(failure) => {
                pending_plus = None;
                let (rule, site, msg) = *failure;
                sink.error(sources, rule, site, msg)
            }
        }
    }
    if let Some(site) = pending_plus {
        sink.error(
            sources,
            Rule::MissingOperand,
            site,
            "a `+` at the end of a line co-issues the next instruction, and none follows".into(),
        );
    }
    Some(shader)
}

/// A `// dxso:comment` or `// dxso:data` line ([`crate::syntax::lossless`]): whether it starts
/// a comment block, and its DWORDs. `open` says whether a block from such lines is the last
/// item, which `data` continues.
fn lossless_line(t: &Token, sources: &Sources, open: bool) -> Res<(bool, Vec<u32>)> {
    use crate::syntax::lossless::{COMMENT, DATA, PREFIX};
    let fail = |msg: String| Box::new((Rule::BadLosslessLine, t.site, msg));
    let text = sources.text(t);
    let rest = text
        .trim_start_matches('/')
        .trim_start_matches([' ', '\t'])
        .strip_prefix(PREFIX)
        .unwrap_or_default();
    let mut words = rest.split_ascii_whitespace();
    let start = match words.next() {
        Some(COMMENT) => true,
        Some(DATA) if open => false,
        Some(DATA) => {
            return Err(fail(format!(
                "`{PREFIX}{DATA}` continues a `{PREFIX}{COMMENT}` block and must follow                  its lines directly"
            )))
        }
        other => {
            return Err(fail(format!(
                "`{PREFIX}{}` is not a dxso line; dxso writes `{PREFIX}{COMMENT}` and                  `{PREFIX}{DATA}`",
                other.unwrap_or_default()
            )))
        }
    };
    let data = words
        .map(|w| {
            u32::from_str_radix(w, 16)
                .ok()
                .filter(|_| w.len() <= 8)
                .ok_or_else(|| {
                    fail(format!(
                        "`{w}` is not a DWORD in hexadecimal (up to eight digits)"
                    ))
                })
        })
        .collect::<Res<Vec<u32>>>()?;
    Ok((start, data))
}

fn site_of(toks: &[Token]) -> Site {
    match (toks.first(), toks.last()) {
        (Some(a), Some(b)) if a.site.file == b.site.file && a.site.start <= b.site.end => Site {
            file: a.site.file,
            start: a.site.start,
            end: b.site.end,
        },
        (Some(a), _) => a.site,
        _ => Site::default(),
    }
}

/// The version statement of a line of tokens.
fn parse_version(line: &[Token], sources: &Sources) -> Res<Version> {
    let text: String = line.iter().map(|t| sources.text(t)).collect();
    let site = site_of(line);
    // Messages quote the line as written, spaces and case kept.
    let written = sources
        .files
        .get(site.file as usize)
        .and_then(|f| f.text.get(site.start as usize..site.end as usize))
        .unwrap_or(&text);
    words::version_word(&text, written).map_err(|(rule, msg)| Box::new((rule, site, msg)))
}

/// Assembles one line of tokens (not the version line), with the site of the `+` that ends it
/// when one does: as Valve's ps_1_x sources write a pair, `mul r0.rgb, r0, t0 +` co-issues the
/// instruction on the next line (the `+` that starts a line co-issues that line's).
pub(super) fn parse_line(
    line: &[Token],
    sources: &Sources,
    version: Version,
    strict: bool,
) -> Res<(Instruction, Option<Site>)> {
    LineParser {
        toks: line,
        pos: 0,
        sources,
        version,
        strict,
    }
    .instruction()
}

struct LineParser<'t> {
    toks: &'t [Token],
    pos: usize,
    sources: &'t Sources,
    version: Version,
    strict: bool,
}

impl<'t> LineParser<'t> {
    fn peek(&self) -> Option<&'t Token> {
        self.toks.get(self.pos)
    }

    fn peek_kind(&self) -> Option<Kind> {
        self.peek().map(|t| t.kind)
    }

    fn text(&self, t: &Token) -> &'t str {
        self.sources.text(t)
    }

    /// The site just after the last token (for "missing" diagnostics).
    fn end_site(&self) -> Site {
        match self.toks.last() {
            Some(t) => Site {
                file: t.site.file,
                start: t.site.end,
                end: t.site.end,
            },
            None => Site::default(),
        }
    }

    fn here(&self) -> Site {
        self.peek().map_or_else(|| self.end_site(), |t| t.site)
    }

    fn eat(&mut self, k: Kind) -> bool {
        if self.peek_kind() == Some(k) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn unexpected(&self, what: &str) -> Failure {
        match self.peek() {
            Some(t) => Box::new((
                Rule::UnexpectedToken,
                t.site,
                format!("expected {what}, found `{}`", self.text(t)),
            )),
            None => Box::new((
                Rule::MissingOperand,
                self.end_site(),
                format!("expected {what} before the end of the line"),
            )),
        }
    }

    fn instruction(&mut self) -> Res<(Instruction, Option<Site>)> {
        let coissue = self.eat(Kind::Plus);
        let predicate = if self.eat(Kind::LParen) {
            let p = self.src()?;
            if !self.eat(Kind::RParen) {
                return Err(self.unexpected("`)` after the predicate"));
            }
            if p.register.ty != RegisterType::Predicate {
                return Err(Box::new((
                    Rule::BadRegister,
                    site_of(&self.toks[..self.pos]),
                    "the predicate must be p0".into(),
                )));
            }
            Some(p)
        } else {
            None
        };
        let Some(mn_tok) = self.peek().copied().filter(|t| t.kind == Kind::Ident) else {
            return Err(self.unexpected("an instruction"));
        };
        self.pos += 1;
        let text = self.text(&mn_tok);
        let word = words::mnemonic_word(text, self.version, self.strict)
            .map_err(|(rule, msg)| Box::new((rule, mn_tok.site, msg)))?;
        let mut inst = Instruction::new(word.opcode);
        inst.coissue = coissue;
        inst.predicate = predicate;
        inst.control = word.control;
        let (modifiers, shift, dcl) = (word.modifiers, word.shift, word.dcl);
        let rest = &self.toks[self.pos..];
        let shape = words::shape(inst.opcode.info(), self.version, || {
            1 + rest.iter().filter(|t| t.kind == Kind::Comma).count()
        });
        self.operands(&mut inst, shape, dcl, mn_tok)?;
        if let Some(d) = &mut inst.dst {
            d.modifiers = d.modifiers.union(modifiers);
            d.shift = shift;
        }
        let plus = match self.peek() {
            Some(t) if t.kind == Kind::Plus && self.pos + 1 == self.toks.len() => {
                self.pos += 1;
                Some(t.site)
            }
            _ => None,
        };
        if let Some(t) = self.peek() {
            return Err(Box::new((
                Rule::UnexpectedToken,
                t.site,
                format!("unexpected `{}` after the operands", self.text(t)),
            )));
        }
        Ok((inst, plus))
    }

    fn comma(&mut self, what: impl FnOnce() -> String) -> Res<()> {
        if self.eat(Kind::Comma) {
            Ok(())
        } else if self.peek().is_none() {
            Err(Box::new((
                Rule::MissingOperand,
                self.end_site(),
                format!("missing {}", what()),
            )))
        } else {
            Err(self.unexpected("`,`"))
        }
    }

    fn operands(
        &mut self,
        inst: &mut Instruction,
        shape: Operands,
        dcl: Option<DclToken>,
        mn: Token,
    ) -> Res<()> {
        let mnemonic = self.text(&mn);
        let count = shape.src_count() as usize;
        match shape {
            Operands::None => {}
            Operands::Dcl => {
                let dst = self.dst()?;
                inst.extra = Extra::Dcl(dcl.unwrap_or_default());
                inst.dst = Some(dst);
            }
            Operands::Def | Operands::DefI | Operands::DefB => {
                inst.dst = Some(self.dst()?);
                match shape {
                    Operands::Def => {
                        let mut v = [0u32; 4];
                        for slot in &mut v {
                            self.comma(|| "a value".into())?;
                            *slot = self.float()?.to_bits();
                        }
                        inst.extra = Extra::Def(v);
                    }
                    Operands::DefI => {
                        let mut v = [0i32; 4];
                        for slot in &mut v {
                            self.comma(|| "a value".into())?;
                            *slot = self.int()?;
                        }
                        inst.extra = Extra::DefI(v);
                    }
                    _ => {
                        self.comma(|| "a value".into())?;
                        inst.extra = Extra::DefB(self.boolean()?);
                    }
                }
            }
            Operands::DstSrc(_) => {
                if self.peek().is_none() {
                    return Err(Box::new((
                        Rule::MissingOperand,
                        self.end_site(),
                        format!("`{mnemonic}` needs a destination"),
                    )));
                }
                inst.dst = Some(self.dst()?);
                for i in 0..count {
                    self.comma(|| format!("source {} of `{mnemonic}`", i + 1))?;
                    let s = self.src()?;
                    let _ = inst.srcs.push(s);
                }
            }
            Operands::Src(_) => {
                for i in 0..count {
                    if i > 0 {
                        self.comma(|| format!("operand {} of `{mnemonic}`", i + 1))?;
                    } else if self.peek().is_none() {
                        return Err(Box::new((
                            Rule::MissingOperand,
                            self.end_site(),
                            format!("`{mnemonic}` needs an operand"),
                        )));
                    }
                    let s = self.src()?;
                    let _ = inst.srcs.push(s);
                }
            }
        }
        if self.peek_kind() == Some(Kind::Comma) {
            let extra = site_of(&self.toks[self.pos..]);
            return Err(Box::new((
                Rule::ExtraOperand,
                extra,
                format!("`{mnemonic}` takes fewer operands"),
            )));
        }
        Ok(())
    }

    fn signed_number(&mut self) -> Res<(bool, Token)> {
        let neg = if self.eat(Kind::Minus) {
            true
        } else {
            self.eat(Kind::Plus);
            false
        };
        match self.peek().copied() {
            Some(t) if t.kind == Kind::Number => {
                self.pos += 1;
                Ok((neg, t))
            }
            _ => Err(self.unexpected("a number")),
        }
    }

    fn float(&mut self) -> Res<f32> {
        let (neg, t) = self.signed_number()?;
        let text = self.text(&t);
        // MSVC's spellings of the special values, as listings print them: `1.#INF`,
        // `1.#QNAN`, `-1.#IND`.
        if text == "1." && self.peek_kind() == Some(Kind::Hash) {
            let special = self
                .toks
                .get(self.pos + 1)
                .filter(|n| n.kind == Kind::Ident);
            let v = special.and_then(|n| match self.text(n).to_ascii_uppercase().as_str() {
                "INF" => Some(f32::INFINITY),
                "QNAN" | "IND" | "SNAN" => Some(f32::NAN),
                _ => None,
            });
            if let Some(v) = v {
                self.pos += 2;
                return Ok(if neg { -v } else { v });
            }
        }
        let v = parse_float(text).ok_or_else(|| {
            Box::new((Rule::BadNumber, t.site, format!("`{text}` is not a number")))
        })?;
        Ok(if neg { -v } else { v })
    }

    fn int(&mut self) -> Res<i32> {
        let (neg, t) = self.signed_number()?;
        let text = self.text(&t);
        let v = super::preprocess::parse_int(text)
            .filter(|v| (i32::MIN as i64..=u32::MAX as i64).contains(v))
            .ok_or_else(|| {
                Box::new((
                    Rule::BadNumber,
                    t.site,
                    format!("`{text}` is not a 32-bit integer"),
                ))
            })?;
        let v = if neg {
            (v as i32).wrapping_neg()
        } else {
            v as i32
        };
        Ok(v)
    }

    fn boolean(&mut self) -> Res<u32> {
        match self.peek().copied() {
            Some(t) if t.kind == Kind::Ident => {
                self.pos += 1;
                match self.text(&t).to_ascii_lowercase().as_str() {
                    "true" => Ok(1),
                    "false" => Ok(0),
                    other => Err(Box::new((
                        Rule::BadNumber,
                        t.site,
                        format!("`{other}` is not true or false"),
                    ))),
                }
            }
            Some(t) if t.kind == Kind::Number => Ok((self.int()? != 0) as u32),
            _ => Err(self.unexpected("true or false")),
        }
    }

    /// A register name (`r3`, `oPos`, `c`, `aL`) and what follows its name in the same word
    /// (the `_bx2` of `r1_bx2`).
    /// Returns the register, whether a number was written, the `_suffix` part of the word, and
    /// the word's token index (small results keep this hot path free of copies).
    fn register(&mut self) -> Res<(Register, bool, &'t str, usize)> {
        let Some(t) = self.peek().copied().filter(|t| t.kind == Kind::Ident) else {
            return Err(match self.peek() {
                None => Box::new((
                    Rule::MissingOperand,
                    self.end_site(),
                    "missing register".into(),
                )),
                Some(t) => Box::new((
                    Rule::BadRegister,
                    t.site,
                    format!("expected a register, found `{}`", self.text(t)),
                )),
            });
        };
        self.pos += 1;
        let (register, has_number, suffix) = words::register_word(self.text(&t), self.version)
            .map_err(|(rule, msg)| Box::new((rule, t.site, msg)))?;
        Ok((register, has_number, suffix, self.pos - 1))
    }

    /// `[a0.x + 12]`: the address register (if any) and the constant sum.
    fn relative(&mut self) -> Res<(Option<(Register, Swizzle)>, i64)> {
        let open = self.here();
        let mut address = None;
        let mut offset = 0i64;
        let mut negate = false;
        loop {
            match self.peek().copied() {
                Some(t) if t.kind == Kind::Number => {
                    self.pos += 1;
                    let v = super::preprocess::parse_int(self.text(&t)).ok_or_else(|| {
                        Box::new((
                            Rule::BadRelativeAddress,
                            t.site,
                            format!("`{}` is not an integer offset", self.text(&t)),
                        ))
                    })?;
                    offset += if negate { -v } else { v };
                }
                Some(t) if t.kind == Kind::Ident => {
                    if negate || address.is_some() {
                        return Err(Box::new((
                            Rule::BadRelativeAddress,
                            t.site,
                            "a relative address has one address register, added".into(),
                        )));
                    }
                    // Shader model 1 addresses through a0.x only (pixel shaders print it that
                    // way too, though they have no a0 otherwise); later models use a0 in
                    // vertex shaders and aL anywhere.
                    let word = self.text(&t);
                    let (reg, suffix) = if self.version.is_sm1() && word.eq_ignore_ascii_case("a0")
                    {
                        self.pos += 1;
                        (Register::new(RegisterType::Addr, 0), "")
                    } else {
                        let (reg, _, suffix, _) = self.register()?;
                        (reg, suffix)
                    };
                    let is_address = if self.version.is_sm1() {
                        reg.ty == RegisterType::Addr
                    } else {
                        reg.ty == RegisterType::Loop
                            || (reg.ty == RegisterType::Addr && self.version.is_vertex())
                    };
                    if !is_address {
                        return Err(Box::new((
                            Rule::BadRelativeAddress,
                            t.site,
                            "the address register must be a0 or aL".into(),
                        )));
                    }
                    if !suffix.is_empty() {
                        return Err(Box::new((
                            Rule::BadRelativeAddress,
                            t.site,
                            "an address register takes no modifier".into(),
                        )));
                    }
                    let swizzle = if self.peek_kind() == Some(Kind::Dot) {
                        self.swizzle()?
                    } else {
                        Swizzle::IDENTITY
                    };
                    address = Some((reg, swizzle));
                }
                _ => return Err(self.unexpected("an address register or a number")),
            }
            match self.peek_kind() {
                Some(Kind::Plus) => {
                    self.pos += 1;
                    negate = false;
                }
                Some(Kind::Minus) => {
                    self.pos += 1;
                    negate = true;
                }
                Some(Kind::RBracket) => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(self.unexpected("`+` or `]`")),
            }
        }
        let _ = open;
        Ok((address, offset))
    }

    /// Applies `[...]` to `register`.
    fn apply_relative(
        &mut self,
        register: &mut Register,
        has_number: bool,
        word: usize,
    ) -> Res<Option<Relative>> {
        if !self.eat(Kind::LBracket) {
            if !has_number {
                return Err(Box::new((
                    Rule::BadRegister,
                    self.toks[word].site,
                    format!("`{}` needs a register number", self.text(&self.toks[word])),
                )));
            }
            return Ok(None);
        }
        let start = self.pos - 1;
        let (address, offset) = self.relative()?;
        let site = site_of(&self.toks[start..self.pos]);
        let index = register.index() as i64 + offset;
        let num = u32::try_from(index).map_err(|_| {
            Box::new((
                Rule::RegisterIndex,
                site,
                format!("register index {index} is negative"),
            ))
        })?;
        // The index is the full one (`c2049`); make_register picks the CONST2..4 file again.
        let base = if register.ty.is_float_const() {
            RegisterType::Const
        } else {
            register.ty
        };
        *register = make_register(base, num).ok_or_else(|| {
            Box::new((
                Rule::RegisterIndex,
                site,
                format!("register index {num} is too large"),
            ))
        })?;
        Ok(match address {
            None => None,
            Some(_) if self.version.is_sm1() => Some(Relative::Implicit),
            Some((reg, swizzle)) => Some(Relative::Token(RelativeToken {
                register: reg,
                swizzle,
                modifier: 0,
                reserved: 0,
            })),
        })
    }

    fn dst(&mut self) -> Res<DstParam> {
        let (mut register, has_number, suffix, word) = self.register()?;
        if !suffix.is_empty() {
            let word = self.toks[word];
            return Err(Box::new((
                Rule::BadModifier,
                word.site,
                format!(
                    "a destination takes no `{suffix}`; put result modifiers on the instruction"
                ),
            )));
        }
        let relative = self.apply_relative(&mut register, has_number, word)?;
        let mut dst = DstParam::new(register, WriteMask::ALL);
        dst.relative = relative;
        if self.eat(Kind::Dot) {
            let Some(t) = self.peek().copied().filter(|t| t.kind == Kind::Ident) else {
                return Err(self.unexpected("a write mask"));
            };
            self.pos += 1;
            dst.mask = words::write_mask(self.text(&t))
                .map_err(|msg| Box::new((Rule::BadWriteMask, t.site, msg)))?;
        }
        Ok(dst)
    }

    fn swizzle(&mut self) -> Res<Swizzle> {
        self.pos += 1; // the dot
        let Some(t) = self.peek().copied().filter(|t| t.kind == Kind::Ident) else {
            return Err(self.unexpected("a swizzle"));
        };
        self.pos += 1;
        words::swizzle(self.text(&t)).map_err(|msg| Box::new((Rule::BadSwizzle, t.site, msg)))
    }

    fn src(&mut self) -> Res<SrcParam> {
        let start = self.pos;
        let mut negate = false;
        let mut complement = false;
        let mut not = false;
        match self.peek_kind() {
            Some(Kind::Minus) => {
                self.pos += 1;
                negate = true;
            }
            Some(Kind::Bang) => {
                self.pos += 1;
                not = true;
            }
            Some(Kind::Number) => {
                let t = self.peek().copied().expect("peeked");
                if self.text(&t) == "1"
                    && self
                        .toks
                        .get(self.pos + 1)
                        .is_some_and(|m| m.kind == Kind::Minus)
                {
                    self.pos += 2;
                    complement = true;
                }
            }
            _ => {}
        }
        let (mut register, has_number, suffix, word) = self.register()?;
        let relative = self.apply_relative(&mut register, has_number, word)?;
        let mut swizzle = Swizzle::IDENTITY;
        if self.peek_kind() == Some(Kind::Dot) {
            swizzle = self.swizzle()?;
        }
        let site = site_of(&self.toks[start..self.pos]);
        let modifier = source_modifier(suffix, negate, complement, not).ok_or_else(|| {
            Box::new((
                Rule::BadSourceModifier,
                site,
                format!("`{}` is not a source modifier combination", {
                    let mut s = String::new();
                    if negate {
                        s.push('-')
                    }
                    if complement {
                        s.push_str("1-")
                    }
                    if not {
                        s.push('!')
                    }
                    s.push_str(if suffix.is_empty() { "r" } else { suffix });
                    s
                }),
            ))
        })?;
        let mut src = SrcParam::new(register, swizzle);
        src.modifier = modifier;
        src.relative = relative;
        Ok(src)
    }
}
