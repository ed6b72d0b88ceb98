//! Token lines to instructions, filling every field as Microsoft's assembler does: SM1
//! instructions have a zero length field and implicit `a0.x` relative addressing; SM2+
//! relative addresses get a token with the swizzle as written (`a0.x` replicates x, bare `a0`
//! and `aL` are `.xyzw`); destinations default to `.xyzw`; `dcl` usage tokens have bit 31 set
//! and nothing else beside the fields.

use super::diag::Rule;
use super::lexer::{Kind, Site, Token};
use super::preprocess::Sources;
use super::Sink;
use crate::syntax::{component_of, register_allowed, COMPARISONS, REGISTER_PREFIXES};
use dxso::{
    DclToken, DeclUsage, DstParam, Extra, Instruction, Item, Opcode, Operands, Register,
    RegisterType, Relative, RelativeToken, ResultModifiers, Shader, Shift, SrcModifier, SrcParam,
    Swizzle, Version, WriteMask,
};
use std::collections::HashMap;
use std::sync::OnceLock;

/// A rule broken, where, and the message (boxed: results stay small on the success path).
type Failure = Box<(Rule, Site, String)>;
type Res<T> = Result<T, Failure>;

/// Assembles preprocessed lines; `None` when there is no version line.
pub fn assemble(
    tokens: &[Token],
    sources: &Sources,
    strict: bool,
    sink: &mut Sink,
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
    for line in lines {
        let mut p = LineParser {
            toks: line,
            pos: 0,
            sources,
            version,
            strict,
        };
        match p.instruction() {
            Ok(inst) => shader.items.push(Item::Instruction(inst)),
            Err(failure) => {
                let (rule, site, msg) = *failure;
                sink.error(sources, rule, site, msg)
            }
        }
    }
    Some(shader)
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

/// `vs_1_1`, `vs.1.1`, `ps_2_x`, `vs_3_sw` (any case).
fn parse_version(line: &[Token], sources: &Sources) -> Res<Version> {
    let text: String = line
        .iter()
        .map(|t| sources.text(t))
        .collect::<String>()
        .to_ascii_lowercase();
    let site = site_of(line);
    let bad = || {
        Box::new((
            Rule::MissingVersion,
            site,
            format!("expected a version statement (vs_2_0, ps.1.4, ...), found `{text}`"),
        ))
    };
    let (kind, rest) = if let Some(r) = text.strip_prefix("vs") {
        (dxso::ShaderKind::Vertex, r)
    } else if let Some(r) = text.strip_prefix("ps") {
        (dxso::ShaderKind::Pixel, r)
    } else {
        return Err(bad());
    };
    let mut parts = rest.split(['_', '.']);
    if parts.next() != Some("") {
        return Err(bad());
    }
    let (Some(major), Some(minor), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(bad());
    };
    let bad_version = || {
        Box::new((
            Rule::BadVersion,
            site,
            format!("`{text}` is not a shader version"),
        ))
    };
    let major: u8 = major.parse().map_err(|_| bad_version())?;
    let minor: u8 = match minor {
        "x" if major == 2 => 1,
        "sw" if major >= 2 => Version::SOFTWARE_MINOR,
        m => m.parse().map_err(|_| bad_version())?,
    };
    let ok = match (kind, major) {
        (_, 2) => minor == 0 || minor == 1 || minor == Version::SOFTWARE_MINOR,
        (_, 3) => minor == 0 || minor == Version::SOFTWARE_MINOR,
        (dxso::ShaderKind::Vertex, 1) => minor <= 1,
        (dxso::ShaderKind::Pixel, 1) => minor <= 4,
        _ => false,
    };
    if !ok || (minor == 1 && major == 2 && text.ends_with("_1")) {
        return Err(bad_version());
    }
    Ok(Version::new(kind, major, minor))
}

/// Mnemonics by lower-case spelling, hashed with FNV-1a (short keys, no untrusted growth: the
/// table is fixed).
type MnemonicMap = HashMap<&'static str, Mnemonic, std::hash::BuildHasherDefault<Fnv>>;

/// FNV-1a: much cheaper than SipHash on five-letter keys.
#[derive(Default)]
struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

/// The register file a name starts with: the entry of [`REGISTER_PREFIXES`] whose spelling
/// prefixes `name` (longest first), found by the first letter.
fn register_prefix(name: &str) -> Option<(&'static str, RegisterType, Option<u16>)> {
    let first = name.as_bytes().first()?.to_ascii_lowercase();
    let candidates = match first {
        b'o' | b'v' | b'a' => REGISTER_PREFIXES,
        _ => &REGISTER_PREFIXES[REGISTER_PREFIXES.len() - 10..],
    };
    candidates
        .iter()
        .find(|(p, _, _)| {
            p.as_bytes()[0] == first
                && name.len() >= p.len()
                && name[..p.len()].eq_ignore_ascii_case(p)
        })
        .copied()
}

/// What a mnemonic spelling means.
#[derive(Clone, Copy)]
struct Mnemonic {
    opcode: Opcode,
    control: u8,
    /// Takes a comparison suffix (`if`, `break`, `setp`).
    comparable: bool,
}

fn mnemonics() -> &'static MnemonicMap {
    static TABLE: OnceLock<MnemonicMap> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut m = MnemonicMap::default();
        for info in dxso::opcode::TABLE {
            if matches!(info.opcode, Opcode::Ifc | Opcode::BreakC) {
                continue;
            }
            let comparable = matches!(info.opcode, Opcode::If | Opcode::Break | Opcode::SetP);
            m.insert(
                info.mnemonic,
                Mnemonic {
                    opcode: info.opcode,
                    control: 0,
                    comparable,
                },
            );
        }
        let alias = |op, control| Mnemonic {
            opcode: op,
            control,
            comparable: false,
        };
        m.insert("texld", alias(Opcode::Tex, 0));
        m.insert("texldp", alias(Opcode::Tex, 1));
        m.insert("texldb", alias(Opcode::Tex, 2));
        m.insert("texcrd", alias(Opcode::TexCoord, 0));
        m
    })
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

    fn instruction(&mut self) -> Res<Instruction> {
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
        let mut parts = text.split('_');
        let mut buf = [0u8; 16];
        let base = lower_into(&mut buf, parts.next().unwrap_or(""));
        let Some(mut mn) = mnemonics().get(base).copied() else {
            return Err(Box::new((
                Rule::UnknownMnemonic,
                mn_tok.site,
                format!("unknown instruction `{text}`"),
            )));
        };
        let mut inst = Instruction::new(mn.opcode);
        inst.coissue = coissue;
        inst.predicate = predicate;
        let mut suffixes = parts.peekable();
        if mn.comparable {
            if let Some(cmp) = suffixes.peek().and_then(|s| comparison(s)) {
                suffixes.next();
                mn.opcode = match mn.opcode {
                    Opcode::If => Opcode::Ifc,
                    Opcode::Break => Opcode::BreakC,
                    op => op,
                };
                inst.opcode = mn.opcode;
                mn.control = cmp;
            } else if mn.opcode == Opcode::SetP {
                return Err(Box::new((
                    Rule::BadModifier,
                    mn_tok.site,
                    "setp needs a comparison (setp_gt, setp_eq, ...)".into(),
                )));
            }
        }
        // `texldp`/`texldb` exist from ps_2_0 on; ps_1_4 `texld` has no mode to print.
        if inst.opcode == Opcode::Tex && mn.control != 0 && !self.version.at_least(2, 0) {
            return Err(Box::new((
                Rule::OpcodeNotInVersion,
                mn_tok.site,
                format!("`{base}` needs ps_2_0 or later"),
            )));
        }
        inst.control = mn.control;
        let info = inst.opcode.info();
        if self.strict && !info.allowed_in(self.version) {
            return Err(Box::new((
                Rule::OpcodeNotInVersion,
                mn_tok.site,
                format!("`{}` is not an instruction of {}", base, self.version),
            )));
        }
        // dcl: the first suffix is the usage (`texcoord1`) or sampler type (`2d`).
        let mut dcl = None;
        if inst.opcode == Opcode::Dcl {
            let mut token = DclToken::default();
            if let Some(s) = suffixes.peek() {
                if let Some(d) = dcl_suffix(s) {
                    token = d;
                    suffixes.next();
                }
            }
            dcl = Some(token);
        }
        let mut modifiers = ResultModifiers::NONE;
        let mut shift = Shift(0);
        for s in suffixes {
            let mut buf = [0u8; 16];
            match lower_into(&mut buf, s) {
                "sat" => modifiers = modifiers.union(ResultModifiers::SATURATE),
                "pp" => modifiers = modifiers.union(ResultModifiers::PARTIAL_PRECISION),
                "centroid" => modifiers = modifiers.union(ResultModifiers::CENTROID),
                "x2" => shift = Shift(1),
                "x4" => shift = Shift(2),
                "x8" => shift = Shift(3),
                "d2" => shift = Shift(-1),
                "d4" => shift = Shift(-2),
                "d8" => shift = Shift(-3),
                _ => {
                    return Err(Box::new((
                        Rule::BadModifier,
                        mn_tok.site,
                        format!("`_{s}` is not a modifier of `{base}`"),
                    )));
                }
            }
        }
        let shape = self.shape(info, inst.opcode);
        if !shape.has_dst() && (modifiers != ResultModifiers::NONE || shift != Shift(0)) {
            return Err(Box::new((
                Rule::BadModifier,
                mn_tok.site,
                format!("`{base}` has no destination to modify"),
            )));
        }
        self.operands(&mut inst, shape, dcl, mn_tok)?;
        if let Some(d) = &mut inst.dst {
            d.modifiers = d.modifiers.union(modifiers);
            d.shift = shift;
        }
        if let Some(t) = self.peek() {
            return Err(Box::new((
                Rule::UnexpectedToken,
                t.site,
                format!("unexpected `{}` after the operands", self.text(t)),
            )));
        }
        Ok(inst)
    }

    /// The operand shape: the version's, except that shader model 2+ `sincos`/`sgn` take
    /// either of their shapes (the assembler goes by the operand count written).
    fn shape(&self, info: &dxso::OpcodeInfo, op: Opcode) -> Operands {
        let shape = info.operands(self.version);
        if self.version.is_sm1()
            || info.shapes.len() < 2
            || !matches!(op, Opcode::SinCos | Opcode::Sgn)
        {
            return shape;
        }
        let written = 1 + self.toks[self.pos..]
            .iter()
            .filter(|t| t.kind == Kind::Comma)
            .count();
        info.shapes
            .iter()
            .map(|s| s.operands)
            .find(|s| 1 + s.src_count() as usize == written)
            .unwrap_or(shape)
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
        let word = self.text(&t);
        let (name, suffix) = match word.bytes().position(|b| b == b'_') {
            Some(i) => (&word[..i], &word[i..]),
            None => (word, ""),
        };
        let bad = || {
            Box::new((
                Rule::BadRegister,
                t.site,
                format!("`{name}` is not a register"),
            ))
        };
        let (spelling, ty, fixed) = register_prefix(name).ok_or_else(bad)?;
        let digits = &name[spelling.len()..];
        let (num, has_number) = match fixed {
            Some(n) if digits.is_empty() => (n as u32, true),
            Some(_) => return Err(bad()),
            None if digits.is_empty() => (0, false),
            None => {
                if !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(bad());
                }
                let n: u32 = digits.parse().map_err(|_| {
                    Box::new((
                        Rule::RegisterIndex,
                        t.site,
                        format!("register index `{digits}` is too large"),
                    ))
                })?;
                (n, true)
            }
        };
        if !register_allowed(spelling, self.version) {
            return Err(Box::new((
                Rule::RegisterNotInVersion,
                t.site,
                format!("{} has no register `{name}`", self.version),
            )));
        }
        let register = make_register(ty, num).ok_or_else(|| {
            Box::new((
                Rule::RegisterIndex,
                t.site,
                format!("register index {num} does not fit the 11-bit field"),
            ))
        })?;
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
            let letters = self.text(&t);
            let mut mask = 0u8;
            let mut last = -1i32;
            for ch in letters.chars() {
                let c = component_of(ch).ok_or_else(|| {
                    Box::new((
                        Rule::BadWriteMask,
                        t.site,
                        format!("`{letters}` is not a write mask (letters xyzw or rgba)"),
                    ))
                })?;
                if c as i32 <= last {
                    return Err(Box::new((
                        Rule::BadWriteMask,
                        t.site,
                        format!("write mask `{letters}` must list components in order, once each"),
                    )));
                }
                last = c as i32;
                mask |= 1 << c;
            }
            dst.mask = WriteMask(mask);
        }
        Ok(dst)
    }

    fn swizzle(&mut self) -> Res<Swizzle> {
        self.pos += 1; // the dot
        let Some(t) = self.peek().copied().filter(|t| t.kind == Kind::Ident) else {
            return Err(self.unexpected("a swizzle"));
        };
        self.pos += 1;
        let letters = self.text(&t);
        if letters.is_empty() || letters.len() > 4 {
            return Err(Box::new((
                Rule::BadSwizzle,
                t.site,
                format!("`{letters}` is not a swizzle (one to four of xyzw or rgba)"),
            )));
        }
        let mut sel = [0u8; 4];
        let mut n = 0;
        for ch in letters.chars() {
            sel[n] = component_of(ch).ok_or_else(|| {
                Box::new((
                    Rule::BadSwizzle,
                    t.site,
                    format!("`{letters}` is not a swizzle (one to four of xyzw or rgba)"),
                ))
            })?;
            n += 1;
        }
        for i in n..4 {
            sel[i] = sel[n - 1];
        }
        Ok(Swizzle::new(sel[0], sel[1], sel[2], sel[3]))
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

/// The register with the encoding the index needs (`c2048` and up use CONST2..CONST4).
fn make_register(ty: RegisterType, num: u32) -> Option<Register> {
    if ty == RegisterType::Const && num > Register::MAX_NUM as u32 {
        let (ty, base) = match num {
            2048..=4095 => (RegisterType::Const2, 2048),
            4096..=6143 => (RegisterType::Const3, 4096),
            6144..=8191 => (RegisterType::Const4, 6144),
            _ => return None,
        };
        return Some(Register::new(ty, (num - base) as u16));
    }
    (num <= Register::MAX_NUM as u32).then(|| Register::new(ty, num as u16))
}

fn comparison(s: &str) -> Option<u8> {
    COMPARISONS
        .iter()
        .position(|c| c.eq_ignore_ascii_case(s))
        .map(|i| i as u8 + 1)
}

/// `position1`, `texcoord`, `2d`, `cube`, `volume` after `dcl_`.
fn dcl_suffix(s: &str) -> Option<DclToken> {
    let lower = s.to_ascii_lowercase();
    match lower.as_str() {
        "1d" => return Some(DclToken::sampler(dxso::TextureType::Texture1D)),
        "2d" => return Some(DclToken::sampler(dxso::TextureType::Texture2D)),
        "cube" => return Some(DclToken::sampler(dxso::TextureType::Cube)),
        "volume" => return Some(DclToken::sampler(dxso::TextureType::Volume)),
        _ => {}
    }
    let digits_at = lower
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(lower.len());
    let (name, digits) = lower.split_at(digits_at);
    let usage = DeclUsage::ALL.iter().find(|u| u.name() == name)?;
    let index: u8 = if digits.is_empty() {
        0
    } else {
        digits.parse().ok().filter(|i| *i < 16)?
    };
    Some(DclToken::usage(*usage, index))
}

/// The source modifier for a prefix (`-`, `1-`, `!`) and a suffix (`_bx2`, ...).
fn source_modifier(suffix: &str, negate: bool, complement: bool, not: bool) -> Option<SrcModifier> {
    use SrcModifier::*;
    let lower = suffix.to_ascii_lowercase();
    Some(match (lower.as_str(), negate, complement, not) {
        ("", false, false, false) => None,
        ("", true, false, false) => Neg,
        ("", false, true, false) => Comp,
        ("", false, false, true) => Not,
        ("_bias", n, false, false) => {
            if n {
                BiasNeg
            } else {
                Bias
            }
        }
        ("_bx2", n, false, false) => {
            if n {
                SignNeg
            } else {
                Sign
            }
        }
        ("_x2", n, false, false) => {
            if n {
                X2Neg
            } else {
                X2
            }
        }
        ("_abs", n, false, false) => {
            if n {
                AbsNeg
            } else {
                Abs
            }
        }
        ("_dz" | "_db", false, false, false) => Dz,
        ("_dw" | "_da", false, false, false) => Dw,
        _ => return Option::None,
    })
}

/// A C float literal: `1`, `1.0f`, `.5`, `0.`, `1e-3`, `1.5h`, hexadecimal integers.
pub fn parse_float(text: &str) -> Option<f32> {
    let t = text.trim_end_matches(['f', 'F', 'h', 'H']);
    if t.starts_with("0x") || t.starts_with("0X") || t.ends_with(['u', 'U', 'l', 'L']) {
        return super::preprocess::parse_int(text).map(|v| v as f32);
    }
    let t = t.strip_suffix('.').unwrap_or(t);
    let t = if t.is_empty() { "0" } else { t };
    t.parse::<f32>().ok()
}

/// `s` in lower case in `buf`; an empty string when it does not fit (no mnemonic or suffix is
/// that long, so the lookup then fails as it should).
fn lower_into<'b>(buf: &'b mut [u8; 16], s: &str) -> &'b str {
    if s.len() > buf.len() || !s.is_ascii() {
        return "";
    }
    let out = &mut buf[..s.len()];
    out.copy_from_slice(s.as_bytes());
    out.make_ascii_lowercase();
    std::str::from_utf8(out).unwrap_or("")
}
