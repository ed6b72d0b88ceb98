//! The words of an instruction line, shared by the line parser ([`super::assemble`]) and the
//! single-pass assembler ([`super::fast`]): a mnemonic with its suffixes, register names,
//! write masks, swizzles, modifiers and numbers. Each function gives the meaning of one word or
//! the rule it breaks, so both parsers read every spelling the same way.

use super::diag::Rule;
use crate::syntax::{component_of, register_allowed, COMPARISONS, REGISTER_PREFIXES};
use dxso::{
    DclToken, DeclUsage, Opcode, OpcodeInfo, Operands, Register, RegisterType, ResultModifiers,
    Shift, SrcModifier, Swizzle, Version, WriteMask,
};
use std::borrow::Cow;
use std::sync::OnceLock;

/// A rule broken and the message (the caller knows where).
pub(super) type WordError = (Rule, String);

/// A word of up to 15 ASCII bytes in lower case, packed into one integer: comparing two is one
/// comparison (`None` for longer words, which no mnemonic or suffix is).
pub(super) const fn key(word: &[u8]) -> Option<u128> {
    if word.len() > 15 {
        return None;
    }
    let mut k = 0u128;
    let mut i = 0;
    while i < word.len() {
        k = k << 8 | LOWER[word[i] as usize] as u128;
        i += 1;
    }
    // The length tells `ab` from `\0ab`.
    Some(k << 8 | word.len() as u128)
}

/// `u8::to_ascii_lowercase` as a table: one load per byte of a [`key`].
const LOWER: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).to_ascii_lowercase();
        b += 1;
    }
    t
};

/// The indices of the [`REGISTER_PREFIXES`] entries that start with each lower-case letter,
/// in table order (so the longest spelling comes first); `u8::MAX` ends a list.
const PREFIXES_BY_LETTER: [[u8; 8]; 26] = {
    let mut t = [[u8::MAX; 8]; 26];
    let mut i = 0;
    while i < REGISTER_PREFIXES.len() {
        let first = REGISTER_PREFIXES[i].0.as_bytes()[0];
        let letter = (first - b'a') as usize;
        let mut j = 0;
        while t[letter][j] != u8::MAX {
            j += 1;
        }
        t[letter][j] = i as u8;
        i += 1;
    }
    t
};

/// The register file a name starts with: the index of the entry of [`REGISTER_PREFIXES`] whose
/// spelling prefixes `name` (longest first).
fn register_prefix(name: &str) -> Option<usize> {
    let name = name.as_bytes();
    let letter = name.first()?.to_ascii_lowercase().wrapping_sub(b'a') as usize;
    PREFIXES_BY_LETTER
        .get(letter)?
        .iter()
        .take_while(|&&i| i != u8::MAX)
        .map(|&i| i as usize)
        .find(|&i| {
            let p = REGISTER_PREFIXES[i].0.as_bytes();
            name.len() >= p.len() && name[..p.len()].eq_ignore_ascii_case(p)
        })
}

/// [`register_allowed`] for every entry of [`REGISTER_PREFIXES`], per version class: the rule
/// looks only at the shader kind and whether the major version is at least 3 (a test checks
/// the table against the rule for every version).
fn prefix_allowed(index: usize, version: Version) -> bool {
    register_spellings(version).allowed[index].is_some()
}

/// What a mnemonic spelling means.
#[derive(Clone, Copy)]
struct Mnemonic {
    opcode: Opcode,
    control: u8,
    /// Takes a comparison suffix (`if`, `break`, `setp`).
    comparable: bool,
}

/// Mnemonics by [`key`] of their lower-case spelling: an open-addressing table of
/// [`MNEMONIC_SLOTS`] slots (a multiply, a shift and usually one comparison per lookup).
fn mnemonics() -> &'static [Option<(u128, Mnemonic)>] {
    static TABLE: OnceLock<Vec<Option<(u128, Mnemonic)>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec![None; MNEMONIC_SLOTS];
        // Later spellings replace earlier ones, as map insertions would.
        let mut insert = |name: &str, mn| {
            let k = key(name.as_bytes()).expect("mnemonics are short");
            let mut slot = mnemonic_slot(k);
            while let Some((other, _)) = table[slot] {
                if other == k {
                    break;
                }
                slot = (slot + 1) % MNEMONIC_SLOTS;
            }
            table[slot] = Some((k, mn));
        };
        for info in dxso::opcode::TABLE {
            if matches!(info.opcode, Opcode::Ifc | Opcode::BreakC) {
                continue;
            }
            let comparable = matches!(info.opcode, Opcode::If | Opcode::Break | Opcode::SetP);
            insert(
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
        insert("texld", alias(Opcode::Tex, 0));
        insert("texldp", alias(Opcode::Tex, 1));
        insert("texldb", alias(Opcode::Tex, 2));
        insert("texcrd", alias(Opcode::TexCoord, 0));
        table
    })
}

/// Slots of the mnemonic table: a power of two, at least twice the number of spellings.
const MNEMONIC_SLOTS: usize = 256;

fn mnemonic_slot(k: u128) -> usize {
    let h = (k as u64 ^ (k >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> 56) as usize % MNEMONIC_SLOTS
}

fn mnemonic(base: &[u8]) -> Option<Mnemonic> {
    mnemonic_of_key(key(base)?)
}

#[inline]
fn mnemonic_of_key(k: u128) -> Option<Mnemonic> {
    let table = mnemonics();
    let mut slot = mnemonic_slot(k);
    loop {
        match table[slot] {
            Some((other, mn)) if other == k => return Some(mn),
            Some(_) => slot = (slot + 1) % MNEMONIC_SLOTS,
            None => return None,
        }
    }
}

/// The register with the encoding the index needs (`c2048` and up use CONST2..CONST4).
pub(super) fn make_register(ty: RegisterType, num: u32) -> Option<Register> {
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

pub(super) fn comparison(s: &str) -> Option<u8> {
    COMPARISONS
        .iter()
        .position(|c| c.eq_ignore_ascii_case(s))
        .map(|i| i as u8 + 1)
}

/// `position1`, `texcoord`, `2d`, `cube`, `volume` after `dcl_` (any case), by [`key`]: the
/// names compared as integers, without lowering the text or comparing strings.
pub(super) fn dcl_suffix(s: &str) -> Option<DclToken> {
    const fn k(word: &str) -> u128 {
        match key(word.as_bytes()) {
            Some(k) => k,
            None => panic!("short"),
        }
    }
    const SAMPLERS: [(u128, dxso::TextureType); 4] = [
        (k("1d"), dxso::TextureType::Texture1D),
        (k("2d"), dxso::TextureType::Texture2D),
        (k("cube"), dxso::TextureType::Cube),
        (k("volume"), dxso::TextureType::Volume),
    ];
    const USAGES: [u128; DeclUsage::ALL.len()] = {
        let mut keys = [0; DeclUsage::ALL.len()];
        let mut i = 0;
        while i < keys.len() {
            keys[i] = k(DeclUsage::ALL[i].name());
            i += 1;
        }
        keys
    };
    let b = s.as_bytes();
    // The sampler types are two, four or six letters long.
    if matches!(b.len(), 2 | 4 | 6) {
        if let Some(whole) = key(b) {
            if let Some((_, t)) = SAMPLERS.iter().find(|(k, _)| *k == whole) {
                return Some(DclToken::sampler(*t));
            }
        }
    }
    let digits_at = b.iter().position(u8::is_ascii_digit).unwrap_or(b.len());
    // No usage name is longer than a key holds.
    let name = key(&b[..digits_at])?;
    let usage = USAGES.iter().position(|&k| k == name)?;
    let digits = &s[digits_at..];
    let index: u8 = if digits.is_empty() {
        0
    } else {
        digits.parse().ok().filter(|i| *i < 16)?
    };
    Some(DclToken::usage(DeclUsage::ALL[usage], index))
}

/// The source modifier for a prefix (`-`, `1-`, `!`) and a suffix (`_bx2`, ...).
pub(super) fn source_modifier(
    suffix: &str,
    negate: bool,
    complement: bool,
    not: bool,
) -> Option<SrcModifier> {
    use SrcModifier::*;
    if suffix.is_empty() {
        return match (negate, complement, not) {
            (false, false, false) => Some(None),
            (true, false, false) => Some(Neg),
            (false, true, false) => Some(Comp),
            (false, false, true) => Some(Not),
            _ => Option::None,
        };
    }
    let lower = lowercase(suffix);
    Some(match (&*lower, negate, complement, not) {
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
    short_decimal(text).or_else(|| parse_float_by_std(text))
}

/// [`parse_float`] for a decimal literal of up to 15 digits (an exact `f64` integer `m`)
/// and a power of ten `10^e` (exact in `f64` for `|e| <= 22`): `m * 10^e` as one correctly
/// rounded `f64` product or quotient, rounded to `f32`. That is `str::parse`'s result unless
/// the `f64` landed exactly on a halfway point between two `f32`s (no halfway point lies
/// strictly between it and the exact value: that point would be an `f64` nearer the value), so
/// then, and for results outside the normal `f32` range, `None` (left to `str::parse`).
fn short_decimal(text: &str) -> Option<f32> {
    let b = text.as_bytes();
    let (mut i, mut m, mut digits, mut frac, mut point) = (0, 0u64, 0u32, 0i32, false);
    while let Some(&c) = b.get(i) {
        match c {
            b'0'..=b'9' => {
                m = m * 10 + (c - b'0') as u64;
                digits += 1;
                frac += point as i32;
                if digits > 15 {
                    return None;
                }
            }
            b'.' if !point => point = true,
            _ => break,
        }
        i += 1;
    }
    if digits == 0 {
        return None;
    }
    let mut exp = 0i32;
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        let negative = b.get(i) == Some(&b'-');
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let from = i;
        while let Some(&c @ b'0'..=b'9') = b.get(i) {
            exp = exp * 10 + (c - b'0') as i32;
            i += 1;
            if i - from > 4 {
                return None;
            }
        }
        if i == from {
            return None;
        }
        if negative {
            exp = -exp;
        }
    }
    if !b[i..]
        .iter()
        .all(|c| matches!(c, b'f' | b'F' | b'h' | b'H'))
    {
        return None;
    }
    scaled_decimal(m, exp - frac)
}

/// The tail of [`short_decimal`]: `m * 10^e` for a decimal `m` of up to 15 digits, or `None`
/// for `str::parse` (a power of ten past 22, a halfway point, a result outside the normal
/// `f32` range). The single-pass parser gives it the digits it gathered while reading the
/// number, which [`short_decimal`] would read again.
pub(super) fn scaled_decimal(m: u64, e: i32) -> Option<f32> {
    const TENS: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ];
    let ten = *TENS.get(e.unsigned_abs() as usize)?;
    let q = if e < 0 {
        m as f64 / ten
    } else {
        m as f64 * ten
    };
    if m == 0 {
        return Some(0.0);
    }
    // The bits of an `f64` below an `f32`'s 24-bit significand: a halfway point is the top
    // one alone.
    let halfway = q.to_bits() & 0x1FFF_FFFF == 0x1000_0000;
    let normal = (f32::MIN_POSITIVE as f64..f32::MAX as f64).contains(&q);
    (normal && !halfway).then_some(q as f32)
}

/// [`parse_float`] through `str::parse`.
fn parse_float_by_std(text: &str) -> Option<f32> {
    let t = text.trim_end_matches(['f', 'F', 'h', 'H']);
    if t.starts_with("0x") || t.starts_with("0X") || t.ends_with(['u', 'U', 'l', 'L']) {
        return super::preprocess::parse_int(text).map(|v| v as f32);
    }
    let t = t.strip_suffix('.').unwrap_or(t);
    let t = if t.is_empty() { "0" } else { t };
    t.parse::<f32>().ok()
}

/// The `_`-separated parts after a mnemonic's base (`sat`, `pp` of `mad_sat_pp`), found byte
/// by byte (cheaper than `str::split` on words this short).
struct Suffixes<'a> {
    /// What follows the last `_` read; `None` when done.
    rest: Option<&'a str>,
}

impl<'a> Iterator for Suffixes<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        match rest.bytes().position(|b| b == b'_') {
            Some(i) => {
                self.rest = Some(&rest[i + 1..]);
                Some(&rest[..i])
            }
            None => {
                self.rest = None;
                Some(rest)
            }
        }
    }
}

/// What a mnemonic word (`texldp`, `mad_sat_pp`, `if_gt`, `dcl_texcoord1`) says.
#[derive(Clone, Copy, Debug)]
pub(super) struct MnemonicWord {
    pub(super) opcode: Opcode,
    pub(super) control: u8,
    /// The usage or sampler type of a `dcl` (default when the word names none).
    pub(super) dcl: Option<DclToken>,
    pub(super) modifiers: ResultModifiers,
    pub(super) shift: Shift,
}

/// Reads a mnemonic word with its `_` suffixes: comparison, `dcl` usage, result modifiers and
/// shift, in the order Microsoft's assembler accepts them.
pub(super) fn mnemonic_word(
    text: &str,
    version: Version,
    strict: bool,
) -> Result<MnemonicWord, WordError> {
    let (base_word, rest) = match text.bytes().position(|b| b == b'_') {
        Some(i) => (&text[..i], Some(&text[i + 1..])),
        None => (text, None),
    };
    let parts = Suffixes { rest };
    // The lower-case base, for messages.
    let base = || base_word.to_ascii_lowercase();
    let Some(mut mn) = mnemonic(base_word.as_bytes()) else {
        return Err((
            Rule::UnknownMnemonic,
            format!("unknown instruction `{text}`"),
        ));
    };
    let mut suffixes = parts.peekable();
    if mn.comparable {
        if let Some(cmp) = suffixes.peek().and_then(|s| comparison(s)) {
            suffixes.next();
            mn.opcode = match mn.opcode {
                Opcode::If => Opcode::Ifc,
                Opcode::Break => Opcode::BreakC,
                op => op,
            };
            mn.control = cmp;
        } else if mn.opcode == Opcode::SetP {
            return Err((
                Rule::BadModifier,
                "setp needs a comparison (setp_gt, setp_eq, ...)".into(),
            ));
        }
    }
    // `texldp`/`texldb` exist from ps_2_0 on; ps_1_4 `texld` has no mode to print.
    if mn.opcode == Opcode::Tex && mn.control != 0 && !version.at_least(2, 0) {
        return Err((
            Rule::OpcodeNotInVersion,
            format!("`{}` needs ps_2_0 or later", base()),
        ));
    }
    let info = mn.opcode.info();
    if strict && !info.allowed_in(version) {
        return Err((
            Rule::OpcodeNotInVersion,
            format!("`{}` is not an instruction of {}", base(), version),
        ));
    }
    // dcl: the first suffix is the usage (`texcoord1`) or sampler type (`2d`).
    let mut dcl = None;
    if mn.opcode == Opcode::Dcl {
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
    const fn k(word: &str) -> u128 {
        match key(word.as_bytes()) {
            Some(k) => k,
            None => panic!("short"),
        }
    }
    const SAT: u128 = k("sat");
    const PP: u128 = k("pp");
    const CENTROID: u128 = k("centroid");
    const X2: u128 = k("x2");
    const X4: u128 = k("x4");
    const X8: u128 = k("x8");
    const D2: u128 = k("d2");
    const D4: u128 = k("d4");
    const D8: u128 = k("d8");
    for s in suffixes {
        match key(s.as_bytes()) {
            Some(SAT) => modifiers = modifiers.union(ResultModifiers::SATURATE),
            Some(PP) => modifiers = modifiers.union(ResultModifiers::PARTIAL_PRECISION),
            Some(CENTROID) => modifiers = modifiers.union(ResultModifiers::CENTROID),
            Some(X2) => shift = Shift(1),
            Some(X4) => shift = Shift(2),
            Some(X8) => shift = Shift(3),
            Some(D2) => shift = Shift(-1),
            Some(D4) => shift = Shift(-2),
            Some(D8) => shift = Shift(-3),
            _ => {
                return Err((
                    Rule::BadModifier,
                    format!("`_{s}` is not a modifier of `{}`", base()),
                ));
            }
        }
    }
    // Every shape of an opcode agrees on whether it has a destination.
    if (modifiers != ResultModifiers::NONE || shift != Shift(0))
        && !info.operands(version).has_dst()
    {
        return Err((
            Rule::BadModifier,
            format!("`{}` has no destination to modify", base()),
        ));
    }
    Ok(MnemonicWord {
        opcode: mn.opcode,
        control: mn.control,
        dcl,
        modifiers,
        shift,
    })
}

/// A mnemonic word without `_` suffixes, by its [`key`]: a table lookup alone, and `None`
/// whenever [`mnemonic_word`] would do more than that (a comparable mnemonic, `texldp`/`texldb`
/// before ps_2_0, a strict check that fails, an unknown word), so the caller then asks it.
#[inline(always)]
pub(super) fn plain_mnemonic_of_key(
    k: u128,
    version: Version,
    strict: bool,
) -> Option<MnemonicWord> {
    let mn = mnemonic_of_key(k)?;
    if mn.comparable
        || (mn.opcode == Opcode::Tex && mn.control != 0 && !version.at_least(2, 0))
        || (strict && !mn.opcode.info().allowed_in(version))
    {
        return None;
    }
    Some(MnemonicWord {
        opcode: mn.opcode,
        control: mn.control,
        dcl: (mn.opcode == Opcode::Dcl).then(DclToken::default),
        modifiers: ResultModifiers::NONE,
        shift: Shift(0),
    })
}

/// The operand shape: the version's, except that shader model 2+ `sincos`/`sgn` take either
/// of their shapes (the assembler goes by the operand count written, which `operands` counts
/// when asked).
pub(super) fn shape(
    info: &OpcodeInfo,
    version: Version,
    operands: impl FnOnce() -> usize,
) -> Operands {
    if let Some(shape) = fixed_shape(info, version) {
        return shape;
    }
    let written = operands();
    info.shapes
        .iter()
        .map(|s| s.operands)
        .find(|s| 1 + s.src_count() as usize == written)
        .unwrap_or(info.operands(version))
}

/// [`shape`] when it does not depend on the operands written (every opcode but shader model
/// 2+ `sincos`/`sgn`), `None` otherwise.
pub(super) fn fixed_shape(info: &OpcodeInfo, version: Version) -> Option<Operands> {
    (version.is_sm1()
        || info.shapes.len() < 2
        || !matches!(info.opcode, Opcode::SinCos | Opcode::Sgn))
    .then(|| info.operands(version))
}

/// A register word (`r3`, `oPos`, `c`, `aL`, `r1_bx2`): the register, whether a number was
/// written, and the `_suffix` part of the word.
pub(super) fn register_word(
    word: &str,
    version: Version,
) -> Result<(Register, bool, &str), WordError> {
    let (name, suffix) = match word.bytes().position(|b| b == b'_') {
        Some(i) => (&word[..i], &word[i..]),
        None => (word, ""),
    };
    let bad = || (Rule::BadRegister, format!("`{name}` is not a register"));
    let index = register_prefix(name).ok_or_else(bad)?;
    let (spelling, ty, fixed) = REGISTER_PREFIXES[index];
    let digits = &name[spelling.len()..];
    let (num, has_number) = match fixed {
        Some(n) if digits.is_empty() => (n as u32, true),
        Some(_) => return Err(bad()),
        None if digits.is_empty() => (0, false),
        None => {
            if !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            let n = digits
                .bytes()
                .try_fold(0u32, |n, d| {
                    n.checked_mul(10)?.checked_add((d - b'0') as u32)
                })
                .ok_or_else(|| {
                    (
                        Rule::RegisterIndex,
                        format!("register index `{digits}` is too large"),
                    )
                })?;
            (n, true)
        }
    };
    if !prefix_allowed(index, version) {
        return Err((
            Rule::RegisterNotInVersion,
            format!("{version} has no register `{name}`"),
        ));
    }
    let register = make_register(ty, num).ok_or_else(|| {
        (
            Rule::RegisterIndex,
            format!("register index {num} does not fit the 11-bit field"),
        )
    })?;
    Ok((register, has_number, suffix))
}

/// The spellings of [`REGISTER_PREFIXES`] that `version` allows, by table index, with their
/// register file and fixed number.
pub(super) type AllowedSpellings = [Option<(RegisterType, Option<u16>)>; REGISTER_PREFIXES.len()];

/// What the single-pass assembler looks register words up in, for one version.
pub(super) struct RegisterSpellings {
    /// The spellings allowed, by table index.
    pub(super) allowed: AllowedSpellings,
    /// By lower-case letter: the register file the letter names when digits follow it (`r3`,
    /// `C12`), from `allowed`.
    pub(super) letters: [Option<RegisterType>; 26],
}

/// [`RegisterSpellings`] of `version`: built once per version class (the allowed spellings
/// depend only on the shader kind and whether the major version is at least 3; a test checks
/// [`prefix_allowed`] against [`register_allowed`] for every version), not once per text.
pub(super) fn register_spellings(version: Version) -> &'static RegisterSpellings {
    static CLASSES: OnceLock<[RegisterSpellings; 4]> = OnceLock::new();
    let classes = CLASSES.get_or_init(|| {
        crate::syntax::SPELLING_CLASSES.map(|v| {
            let mut allowed = [None; REGISTER_PREFIXES.len()];
            for (slot, &(spelling, ty, fixed)) in allowed.iter_mut().zip(REGISTER_PREFIXES) {
                *slot = register_allowed(spelling, v).then_some((ty, fixed));
            }
            let letters = std::array::from_fn(|i| {
                match spelling_of_key(b'a' as u64 + i as u64).and_then(|s| allowed[s]) {
                    Some((ty, None)) => Some(ty),
                    _ => None,
                }
            });
            RegisterSpellings { allowed, letters }
        })
    });
    &classes[crate::syntax::spelling_class(version)]
}

/// The spellings of [`REGISTER_PREFIXES`] packed like [`key`] without the length byte: a
/// lower-case letter per byte, first letter highest.
pub(super) const SPELLING_KEYS: [u64; REGISTER_PREFIXES.len()] = {
    let mut keys = [0u64; REGISTER_PREFIXES.len()];
    let mut i = 0;
    while i < keys.len() {
        let spelling = REGISTER_PREFIXES[i].0.as_bytes();
        let mut j = 0;
        while j < spelling.len() {
            keys[i] = keys[i] << 8 | spelling[j] as u64;
            j += 1;
        }
        i += 1;
    }
    keys
};

/// Slots of [`SPELLING_SLOTS`]: a power of two, so that the hash is the top bits of a product.
const SPELLING_SLOT_BITS: u32 = 6;

/// The slot of a packed spelling in [`SPELLING_SLOTS`] with multiplier `m`.
const fn spelling_slot(packed: u64, m: u64) -> usize {
    (packed.wrapping_mul(m) >> (64 - SPELLING_SLOT_BITS)) as usize
}

/// A multiplier that puts every [`SPELLING_KEYS`] entry in a slot of its own (found when the
/// crate is compiled: the search tries odd multipliers until none collide), and the table of
/// entry indices by slot (`u8::MAX`: no entry).
const SPELLING_HASH: (u64, [u8; 1 << SPELLING_SLOT_BITS]) = {
    let mut m: u64 = 0x9E37_79B9_7F4A_7C15;
    loop {
        let mut slots = [u8::MAX; 1 << SPELLING_SLOT_BITS];
        let mut i = 0;
        let mut collided = false;
        while i < SPELLING_KEYS.len() {
            let slot = spelling_slot(SPELLING_KEYS[i], m);
            if slots[slot] != u8::MAX {
                collided = true;
                break;
            }
            slots[slot] = i as u8;
            i += 1;
        }
        if !collided {
            break (m, slots);
        }
        m = m.wrapping_add(0x2545_F491_4F6C_DD1E) | 1;
    }
};

/// The index of the [`REGISTER_PREFIXES`] entry whose spelling is the letters packed as in
/// [`SPELLING_KEYS`] (at most six lower-case letters): one slot of a perfect hash. When a
/// register word is these letters and then digits (or nothing), this is the entry
/// [`register_word`]'s prefix search finds: spellings are letters only, so a longer one cannot
/// prefix the word, and one that stops short leaves letters the number cannot have.
#[inline]
pub(super) fn spelling_of_key(packed: u64) -> Option<usize> {
    let (m, slots) = &SPELLING_HASH;
    let i = slots[spelling_slot(packed, *m)] as usize;
    SPELLING_KEYS.get(i).filter(|&&k| k == packed).map(|_| i)
}

/// The letters of a write mask (`xz`, `rgb`): components in order, once each.
pub(super) fn write_mask(letters: &str) -> Result<WriteMask, String> {
    let mut mask = 0u8;
    let mut last = -1i32;
    for b in letters.bytes() {
        let c = component_of_byte(b)
            .ok_or_else(|| format!("`{letters}` is not a write mask (letters xyzw or rgba)"))?;
        if c as i32 <= last {
            return Err(format!(
                "write mask `{letters}` must list components in order, once each"
            ));
        }
        last = c as i32;
        mask |= 1 << c;
    }
    Ok(WriteMask(mask))
}

/// The letters of a swizzle: one to four components, the last one repeated.
pub(super) fn swizzle(letters: &str) -> Result<Swizzle, String> {
    let bad = || format!("`{letters}` is not a swizzle (one to four of xyzw or rgba)");
    if letters.is_empty() || letters.len() > 4 {
        return Err(bad());
    }
    let mut sel = [0u8; 4];
    let mut n = 0;
    for b in letters.bytes() {
        sel[n] = component_of_byte(b).ok_or_else(bad)?;
        n += 1;
    }
    for i in n..4 {
        sel[i] = sel[n - 1];
    }
    Ok(Swizzle::new(sel[0], sel[1], sel[2], sel[3]))
}

/// `s` in lower case, borrowed when it already is (listings are).
fn lowercase(s: &str) -> Cow<'_, str> {
    if s.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(s.to_ascii_lowercase())
    } else {
        Cow::Borrowed(s)
    }
}

/// The version statement (`vs_1_1`, `vs.1.1`, `ps_2_x`, `vs_3_sw`, any case), given as the
/// text of its tokens without the spaces between them; `written` is the line as the text has
/// it, which error messages quote.
pub(super) fn version_word(text: &str, written: &str) -> Result<Version, WordError> {
    match printed_version(text.as_bytes()) {
        Some(v) => Ok(v),
        None => any_version_word(text, written),
    }
}

/// [`version_word`] for any spelling.
fn any_version_word(text: &str, written: &str) -> Result<Version, WordError> {
    let text = lowercase(text);
    let bad = || {
        (
            Rule::MissingVersion,
            format!("expected a version statement (vs_2_0, ps.1.4, ...), found `{written}`"),
        )
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
        (
            Rule::BadVersion,
            format!("`{written}` is not a shader version"),
        )
    };
    let major: u8 = major.parse().map_err(|_| bad_version())?;
    let minor: u8 = match minor {
        "x" if major == 2 => 1,
        "sw" if major >= 2 => Version::SOFTWARE_MINOR,
        m => m.parse().map_err(|_| bad_version())?,
    };
    if !supported(kind, major, minor) || (minor == 1 && major == 2 && text.ends_with("_1")) {
        return Err(bad_version());
    }
    Ok(Version::new(kind, major, minor))
}

/// Whether Direct3D 9 has shaders of `kind`, `major` and `minor` (2_x and 3_sw included).
fn supported(kind: dxso::ShaderKind, major: u8, minor: u8) -> bool {
    match (kind, major) {
        (_, 2) => minor == 0 || minor == 1 || minor == Version::SOFTWARE_MINOR,
        (_, 3) => minor == 0 || minor == Version::SOFTWARE_MINOR,
        (dxso::ShaderKind::Vertex, 1) => minor <= 1,
        (dxso::ShaderKind::Pixel, 1) => minor <= 4,
        _ => false,
    }
}

/// [`version_word`] for the spellings listings print (`vs_2_0`, `ps_1_4`, `vs_2_x`,
/// `ps_3_sw`), read by their bytes; `None` for any other (which `version_word` reads, and
/// where it fails, reports).
fn printed_version(b: &[u8]) -> Option<Version> {
    let (kind, major, minor) = match *b {
        [k, b's', b'_', d @ b'0'..=b'9', b'_', ref minor @ ..] => {
            let kind = match k {
                b'v' => dxso::ShaderKind::Vertex,
                b'p' => dxso::ShaderKind::Pixel,
                _ => return None,
            };
            let major = d - b'0';
            let minor = match *minor {
                // `vs_2_1` is spelt `vs_2_x`, and is an error.
                [m @ b'0'..=b'9'] if !(major == 2 && m == b'1') => m - b'0',
                [b'x'] if major == 2 => 1,
                [b's', b'w'] if major >= 2 => Version::SOFTWARE_MINOR,
                _ => return None,
            };
            (kind, major, minor)
        }
        _ => return None,
    };
    supported(kind, major, minor).then(|| Version::new(kind, major, minor))
}

/// [`component_of`] for a byte, from a table (a byte outside ASCII is no component, as the
/// character it starts is none).
pub(super) fn component_of_byte(b: u8) -> Option<u8> {
    const TABLE: [u8; 256] = {
        let mut t = [u8::MAX; 256];
        let mut b = 0;
        while b < 128 {
            if let Some(c) = component_of(b as u8 as char) {
                t[b] = c;
            }
            b += 1;
        }
        t
    };
    Some(TABLE[b as usize]).filter(|&c| c != u8::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20000))]

        /// The short path gives `str::parse`'s bits wherever it gives a value.
        #[test]
        fn short_decimals_round_as_str_parse_does(
            text in "[0-9]{0,16}(\\.[0-9]{0,16})?([eE][+-]?[0-9]{1,3})?[fFhH]?",
        ) {
            if let Some(v) = short_decimal(&text) {
                let want = parse_float_by_std(&text);
                prop_assert_eq!(Some(v.to_bits()), want.map(f32::to_bits), "{}", text);
            }
        }

        /// Nine significant digits, as listings print floats, near every power of ten the
        /// short path scales by.
        #[test]
        fn nine_digit_decimals_round_as_str_parse_does(
            m in 100_000_000u64..1_000_000_000,
            point in 0usize..10,
            exp in -6i32..6,
        ) {
            let digits = m.to_string();
            let text = format!("{}.{}e{exp}", &digits[..point.min(9)], &digits[point.min(9)..]);
            let got = parse_float(&text).map(f32::to_bits);
            prop_assert_eq!(got, parse_float_by_std(&text).map(f32::to_bits), "{}", text);
        }
    }

    #[test]
    fn short_decimals_take_the_listing_forms() {
        for text in [
            "1",
            "0.5",
            ".5",
            "1.",
            "1e-005",
            "9.99999975e-005",
            "0.850000024",
            "3.14159274",
            "1.5f",
            "3.0e-2",
            "1024",
            "0",
        ] {
            let want = parse_float_by_std(text).map(f32::to_bits);
            assert!(want.is_some(), "{text}");
            assert_eq!(short_decimal(text).map(f32::to_bits), want, "{text}");
        }
        assert_eq!(short_decimal("1.5f"), Some(1.5));
        assert_eq!(short_decimal("3.0e-2"), Some(0.03));
        for text in [
            "",
            ".",
            "0x10",
            "1u",
            "1e",
            "1e+",
            "-1",
            "1.#INF",
            "1234567890123456",
            "1e99999",
            "1e-50",
            "1e39",
            // 2^24 + 1, halfway between two `f32`s: `str::parse` rounds it.
            "16777217",
        ] {
            assert_eq!(short_decimal(text), None, "{text}");
        }
    }

    #[test]
    fn every_spelling_has_a_slot_and_nothing_else_matches() {
        for (i, (spelling, _, _)) in REGISTER_PREFIXES.iter().enumerate() {
            assert_eq!(spelling_of_key(SPELLING_KEYS[i]), Some(i), "{spelling}");
        }
        // Every word of one to three letters that is not a spelling finds nothing.
        let longer = |words: &[u64]| -> Vec<u64> {
            words
                .iter()
                .flat_map(|&w| (b'a'..=b'z').map(move |c| w << 8 | c as u64))
                .collect()
        };
        let one: Vec<u64> = (b'a'..=b'z').map(u64::from).collect();
        let two = longer(&one);
        let three = longer(&two);
        let words = [one, two, three].concat();
        assert_eq!(words.len(), 26 + 26 * 26 + 26 * 26 * 26);
        for w in words {
            assert_eq!(
                spelling_of_key(w).is_some(),
                SPELLING_KEYS.contains(&w),
                "{w:x}"
            );
        }
    }

    #[test]
    fn allowed_table_follows_the_rule() {
        for kind in [dxso::ShaderKind::Vertex, dxso::ShaderKind::Pixel] {
            for major in 0..=255u8 {
                for minor in [0, 1, 4, 0xFF] {
                    let v = Version::new(kind, major, minor);
                    for (i, (spelling, _, _)) in REGISTER_PREFIXES.iter().enumerate() {
                        assert_eq!(
                            prefix_allowed(i, v),
                            register_allowed(spelling, v),
                            "{spelling} {v}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn prefixes_are_found_longest_first() {
        for (name, want) in [
            ("r0", "r"),
            ("oPos", "opos"),
            ("oT3", "ot"),
            ("o5", "o"),
            ("vFace", "vface"),
            ("v1", "v"),
            ("aL", "al"),
            ("a0", "a"),
            ("x1", ""),
            ("", ""),
            ("_", ""),
        ] {
            let got = register_prefix(name).map_or("", |i| REGISTER_PREFIXES[i].0);
            assert_eq!(got, want, "{name}");
        }
    }

    #[test]
    fn printed_versions_read_as_version_word_reads_them() {
        let mut read = 0;
        for kind in ["vs", "ps", "VS", "xs", "v"] {
            for major in ["0", "1", "2", "3", "4", "9", "x", "10", ""] {
                for minor in [
                    "0", "1", "2", "3", "4", "5", "x", "sw", "SW", "01", "", "xx",
                ] {
                    let text = format!("{kind}_{major}_{minor}");
                    if let Some(v) = printed_version(text.as_bytes()) {
                        read += 1;
                        assert_eq!(
                            Ok(v),
                            any_version_word(&text, &text).map_err(|_| ()),
                            "{text}"
                        );
                    }
                }
            }
        }
        assert_eq!(
            read, 17,
            "vs/ps 1_0, 1_1, ps 1_2-1_4, 2_0, 2_x, 2_sw, 3_0, 3_sw"
        );
    }
}
