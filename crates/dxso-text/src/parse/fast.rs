//! The single-pass assembler: text without preprocessor directives (and with no macros
//! defined) assembled straight from its bytes, one line at a time, without tokens.
//!
//! It reads the common forms of an instruction line: co-issue `+`, a mnemonic with suffixes,
//! destinations with write masks, sources with modifiers and swizzles, `def`/`defi`/`defb`
//! values. A line in any other form (predicates, relative addresses, special float spellings,
//! unusual spacing inside a word, ...) is tokenized alone and read by the line parser of the
//! full path ([`super::assemble::parse_line`]), which gives the same result the full path would.
//! Anything that needs the whole text (a directive, a block comment, a line continuation, a
//! carriage return inside a line) or any error makes [`assemble`] give up, and the full path
//! runs instead and reports the diagnostics. The meaning of every word comes from
//! [`super::words`], which the line parser uses too, so the two paths agree by construction on
//! what each word means; tests compare them on the corpus and on random text.

use super::assemble::parse_line;
use super::cache;
use super::lexer::tokenize;
use super::preprocess::Sources;
use super::sink::Sink;
use super::words::{self, source_modifier};
use crate::ctab::HeaderTable;
use crate::syntax::lossless::is_lossless_line;
use dxso::swar;
use dxso::{
    DstParam, Extra, Instruction, Operands, Register, RegisterType, Relative, RelativeToken,
    SrcModifier, SrcParam, Swizzle, Version, WriteMask,
};

/// Assembles `text` into `out` when it needs no preprocessor and has no error; `None`
/// otherwise (`out` then holds part of the text). Reading starts at `from` (the start of a
/// line; what comes before is comments and blank lines); `table` goes first, as the sink
/// places it. `seen` has the words read before ([`cache::Kept`]).
pub(super) fn assemble<O: Sink>(
    text: &str,
    from: usize,
    strict: bool,
    table: Option<HeaderTable<'_>>,
    seen: &mut Kept<O>,
    out: &mut O,
) -> Option<()> {
    let mut lines = Lines { text, pos: from };
    let mut buffer = LineBuffer::new();
    let version = loop {
        let (_, line) = lines.next()?;
        if is_line_directive(&mut buffer, line)? {
            continue;
        }
        let code = code_of(line)?;
        let word = code.trim_matches(|c: char| is_space(c as u8));
        if !word.is_empty() {
            // The version's tokens without the space between them (`vs_2_0`, `ps . 1 . 4`).
            break if word.bytes().any(is_space) {
                let squeezed: String = word.chars().filter(|&c| !is_space(c as u8)).collect();
                words::version_word(&squeezed, word)
            } else {
                words::version_word(word, word)
            }
            .ok()?;
        }
    };
    let ctx = Context {
        version,
        strict,
        spellings: words::register_spellings(version),
    };
    // Instruction lines of listings run to about 20-30 bytes; reserving for 16 each keeps
    // the output from growing (each growth copies everything so far).
    let capacity = (text.len() - lines.pos.min(text.len())) / 16 + 1;
    out.start(version, table, capacity);
    // The full text as a source, made the first time a line needs the line parser.
    let mut sources: Option<Sources> = None;
    let mut line_parser = |line: &str, start: usize| {
        let sources = sources.get_or_insert_with(|| {
            let mut s = Sources::default();
            s.add("<input>".into(), None, text.into());
            s
        });
        parse_with_line_parser(line, start, sources, &ctx)
    };
    seen.with(cache::context_id(version, strict), capacity, |seen| {
        assemble_lines(lines, &mut buffer, &ctx, seen, &mut line_parser, out)
    })
}

/// The lines after the version statement, into `out`.
fn assemble_lines<O: Sink>(
    lines: Lines<'_>,
    buffer: &mut LineBuffer,
    ctx: &Context,
    seen: &mut Seen<O>,
    line_parser: &mut impl FnMut(&str, usize) -> Option<Instruction>,
    out: &mut O,
) -> Option<()> {
    let text = lines.text;
    for (start, line) in lines {
        let Some(mut cursor) = buffer.cursor(line, &text.as_bytes()[start..]) else {
            // Too long for the buffer: blank, a comment, or the line parser's.
            if !code_of(line)?.bytes().all(is_space) {
                out.instruction(line_parser(line, start)?);
            }
            continue;
        };
        if cursor.at_end() {
            if is_lossless_line(line) {
                return None;
            }
            continue;
        }
        if cursor.peek() == b'#' {
            if is_line_directive(buffer, line)? {
                continue;
            }
            return None;
        }
        if cursor.instruction(ctx, seen, out).is_none() {
            out.cancel();
            out.instruction(line_parser(line, start)?);
        }
    }
    Some(())
}

/// A line the cursor does not read, through the full path's lexer and line parser; `None` when
/// the line needs more than that (see [`code_of`]) or has an error.
fn parse_with_line_parser(
    line: &str,
    start: usize,
    sources: &Sources,
    ctx: &Context,
) -> Option<Instruction> {
    let code = code_of(line)?;
    let mut tokens = Vec::with_capacity(code.len() / 2 + 1);
    tokenize(code, 0, &mut tokens);
    for t in &mut tokens {
        t.start += start as u32;
        t.end += start as u32;
        t.site = t.own_site();
    }
    // A line that ends in `+` co-issues the next: the full path pairs them.
    match parse_line(&tokens, sources, ctx.version, ctx.strict) {
        Ok((inst, None)) => Some(inst),
        _ => None,
    }
}

/// Whether `line` is a `#line N` or `#line N "file"` directive (`Some(true)`), which renames
/// and renumbers the lines after it for diagnostics and changes nothing else, or no directive
/// at all (`Some(false)`). `None` for any other directive and for a malformed `#line`: the full
/// path handles those (and reports).
fn is_line_directive(buffer: &mut LineBuffer, line: &str) -> Option<bool> {
    let Some(mut c) = buffer.cursor(line, line.as_bytes()) else {
        // Too long for the buffer: the full path reads a directive this long.
        let directive = line.bytes().find(|&b| !is_space(b)) == Some(b'#');
        return (!directive).then_some(false);
    };
    if !c.eat(b'#') {
        return Some(false);
    }
    if c.word()? != "line" {
        return None;
    }
    let start = c.i;
    c.digits();
    // The number is one token of digits (`12u` or `1e3` would be another) that fits a `u32`.
    let next = c.peek();
    if is_word_byte(next) || next == b'.' {
        return None;
    }
    line[start..c.i].parse::<u32>().ok()?;
    c.skip_space();
    if c.peek() == b'"' {
        let close = line[c.i + 1..].find('"')?;
        c.i += close + 2;
        c.skip_space();
    }
    c.at_end().then_some(true)
}

/// What every line of one text shares.
struct Context {
    version: Version,
    strict: bool,
    /// [`words::register_spellings`] of the version.
    spellings: &'static words::RegisterSpellings,
}

/// The words of the text read so far ([`cache`]): mnemonic words with their operand shape
/// (`None`: counted from the line), destinations and sources as the sink `O` keeps them.
pub(super) type Seen<O> = cache::ContextTables<Words<O>>;

/// The tables of [`Seen`].
pub(super) type Words<O> = cache::Words<
    Option<(words::MnemonicWord, Option<Operands>)>,
    <O as Sink>::KnownDst,
    <O as Sink>::KnownSrc,
>;

/// The words of the texts read so far, for the sink `O`.
pub(super) type Kept<O> = cache::Kept<Words<O>>;

/// What a byte can be, as bit flags.
const SPACE: u8 = 1;
const LETTER: u8 = 2;
const WORD: u8 = 4;
const DIGIT: u8 = 8;

const CLASSES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if matches!(c, b' ' | b'\t' | 0x0B | 0x0C) {
            t[b] |= SPACE;
        }
        if c.is_ascii_alphabetic() {
            t[b] |= LETTER;
        }
        if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' {
            t[b] |= WORD;
        }
        if c.is_ascii_digit() {
            t[b] |= DIGIT;
        }
        b += 1;
    }
    t
};

fn class(b: u8) -> u8 {
    CLASSES[b as usize]
}

/// `true` for the bytes the lexer skips as space.
fn is_space(b: u8) -> bool {
    class(b) & SPACE != 0
}

fn is_word_byte(b: u8) -> bool {
    class(b) & WORD != 0
}

/// The lines of the text with their byte offsets, without the line feed (and the carriage
/// return before it).
struct Lines<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, &'a str);

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.text.get(self.pos..).filter(|r| !r.is_empty())?;
        let start = self.pos;
        let len = newline(rest.as_bytes()).unwrap_or(rest.len());
        self.pos += len + 1;
        let line = &rest[..len];
        Some((start, line.strip_suffix('\r').unwrap_or(line)))
    }
}

/// The first line feed in `b`: eight bytes at a time (one test for a zero byte in the word
/// XORed with line feeds), which costs less than `memchr` on lines of tens of bytes. The
/// first 32 bytes, where most lines of a listing end, are tested in one step whose line
/// feeds are gathered into one mask: a loop over eight-byte words ends after a different
/// number of words from line to line, and its exit was mispredicted about once a line.
pub(crate) fn newline(b: &[u8]) -> Option<usize> {
    let line_feeds = |w: u64| swar::zero_bytes(w ^ (swar::ONES * b'\n' as u64));
    if let Some(block) = b.get(..32) {
        let mut mask = 0u32;
        for (k, chunk) in block.chunks_exact(8).enumerate() {
            let w = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
            mask |= swar::high_bits_mask(line_feeds(w)) << (8 * k);
        }
        if mask != 0 {
            return Some(mask.trailing_zeros() as usize);
        }
        return swar::first_in_class(&b[32..], line_feeds, |c| c == b'\n').map(|i| i + 32);
    }
    swar::first_in_class(b, line_feeds, |c| c == b'\n')
}

/// The code of a line: up to a `//` or `;` comment. `None` for what only the full path reads:
/// a `#` directive, a `/* */` comment (it may span lines), a `\` continuation, a carriage
/// return (a line end to the lexer), a string, or a byte outside ASCII.
fn code_of(line: &str) -> Option<&str> {
    let b = line.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b';' => return Some(&line[..i]),
            // A `// dxso:` line (a lossless listing's comment block) is the full path's.
            b'/' if b.get(i + 1) == Some(&b'/') => {
                if b[..i].iter().all(|&p| is_space(p)) && is_lossless_line(line) {
                    return None;
                }
                return Some(&line[..i]);
            }
            b'/' if b.get(i + 1) == Some(&b'*') => return None,
            b'#' if b[..i].iter().all(|&p| is_space(p)) => return None,
            b'\\' | b'\r' | b'"' | 0x80.. => return None,
            _ => {}
        }
    }
    Some(line)
}

/// The longest line the cursor reads (longer ones go to [`parse_with_line_parser`]): a line is copied into
/// a [`LineBuffer`] with a zero after it, so readers index the buffer without bounds checks and
/// stop at the zero (a byte no reader takes) without testing for the end.
const LINE_MAX: usize = 240;

/// Room for a line of up to [`LINE_MAX`] bytes and the zero after it; indices are taken modulo
/// 256, which the compiler sees is always in range, and the 16 bytes from any such index (a
/// word's [`cache::key`]) are in the buffer too.
struct LineBuffer([u8; BUFFER]);

const BUFFER: usize = 256 + 16;

impl LineBuffer {
    fn new() -> Self {
        LineBuffer([0; BUFFER])
    }

    /// A cursor at the first byte of `line` that is not space; `None` when the line is longer
    /// than [`LINE_MAX`].
    ///
    /// `from_line` is the text from the start of the line on: when it holds [`BLOCK`] bytes, a
    /// line no longer than that goes in as one fixed-size copy (a few vector moves) rather than
    /// a call to `memcpy` with a variable length; what it copies past the line end is never
    /// read (the zero stops every reader).
    fn cursor<'a>(&'a mut self, line: &'a str, from_line: &[u8]) -> Option<Cursor<'a>> {
        const BLOCK: usize = 64;
        let len = line.len();
        if len > LINE_MAX {
            return None;
        }
        match from_line.get(..BLOCK) {
            Some(block) if len <= BLOCK => self.0[..BLOCK].copy_from_slice(block),
            _ => self.0[..len].copy_from_slice(line.as_bytes()),
        }
        self.0[len] = 0;
        let mut c = Cursor {
            s: line,
            b: &self.0,
            len,
            i: 0,
        };
        // Listings indent every line by four blanks: skipped at once.
        if len >= 4
            && u32::from_le_bytes([self.0[0], self.0[1], self.0[2], self.0[3]]) == 0x2020_2020
        {
            c.i = 4;
        }
        c.skip_space();
        Some(c)
    }
}

/// A number as [`Cursor::number`] reads it, with the decimal `m` and power of ten `e` its
/// value is `m * 10^e` by, when it is one `words::short_decimal` reads (up to 15 digits, an
/// exponent of up to four).
struct Decimal<'a> {
    text: &'a str,
    scaled: Option<(u64, i32)>,
}

/// A position in one line, always at a byte that is not space: every reader skips the space
/// after what it reads, as the lexer does between tokens, and reads a word whole (the longest
/// run the lexer would make one token of), so a line it accepts means what the token stream of
/// the line means. The code ends at the end of the line or at a `//` or `;` comment; a line
/// with anything else the cursor does not read goes to [`parse_with_line_parser`].
struct Cursor<'a> {
    /// The line.
    s: &'a str,
    /// The line's bytes, then a zero.
    b: &'a [u8; BUFFER],
    len: usize,
    i: usize,
}

impl<'a> Cursor<'a> {
    /// The byte at `i` (zero at and after the end of the line).
    #[inline(always)]
    fn at(&self, i: usize) -> u8 {
        self.b[i & 0xFF]
    }

    #[inline(always)]
    fn skip_space(&mut self) {
        while is_space(self.at(self.i)) {
            self.i += 1;
        }
    }

    /// The byte at the cursor, zero at the end.
    #[inline(always)]
    fn peek(&self) -> u8 {
        self.at(self.i)
    }

    #[inline(always)]
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == c {
            self.i += 1;
            self.skip_space();
            true
        } else {
            false
        }
    }

    /// The end of the code: the end of the line or a comment.
    #[inline(always)]
    fn at_end(&self) -> bool {
        self.ends_at(self.i)
    }

    /// Whether the code ends at `j`.
    #[inline(always)]
    fn ends_at(&self, j: usize) -> bool {
        match self.at(j) {
            0 => j >= self.len,
            b';' => true,
            b'/' => self.at(j + 1) == b'/',
            _ => false,
        }
    }

    /// The word at the cursor as the tables read it ([`cache::run_len`]): its
    /// [`cache::word_key`] and where it ends; `None` when it is empty or too long.
    #[inline(always)]
    fn cache_word(&self) -> Option<(u128, usize)> {
        let at = self.i & 0xFF;
        let mut bytes = [0u8; 16];
        bytes.copy_from_slice(&self.b[at..at + 16]);
        let len = cache::run_len(bytes);
        Some((cache::word_key(bytes, len)?, self.i + len))
    }

    /// Where the space from `j` ends.
    #[inline(always)]
    fn space_end(&self, mut j: usize) -> usize {
        while is_space(self.at(j)) {
            j += 1;
        }
        j
    }

    /// The key of the operand at the cursor ([`Cursor::cache_word`]) and where the space
    /// after it ends, when a `,` or the end of the code comes next: what an operand reader
    /// reads then depends on those bytes alone. `None` for any other operand.
    #[inline(always)]
    fn operand_key(&self) -> Option<(u128, usize)> {
        let (key, end) = self.cache_word()?;
        // A comma right after the operand mostly.
        if self.at(end) == b',' {
            return Some((key, end));
        }
        let next = self.space_end(end);
        if self.at(next) != b',' && !self.ends_at(next) {
            return None;
        }
        Some((key, next))
    }

    /// A name (`[A-Za-z_$][A-Za-z0-9_$]*`).
    #[inline(always)]
    fn word(&mut self) -> Option<&'a str> {
        let c = self.peek();
        if !is_word_byte(c) || class(c) & DIGIT != 0 {
            return None;
        }
        let start = self.i;
        while is_word_byte(self.at(self.i)) {
            self.i += 1;
        }
        let word = &self.s[start..self.i];
        self.skip_space();
        Some(word)
    }

    /// A `.` that the lexer makes a token of its own: not the start of a number (`.5`).
    #[inline(always)]
    fn dot(&mut self) -> bool {
        if self.peek() == b'.' && class(self.at(self.i + 1)) & DIGIT == 0 {
            self.i += 1;
            self.skip_space();
            true
        } else {
            false
        }
    }

    /// Digits from the cursor; how many.
    #[inline(always)]
    fn digits(&mut self) -> usize {
        let from = self.i;
        while class(self.at(self.i)) & DIGIT != 0 {
            self.i += 1;
        }
        self.i - from
    }

    /// A decimal number in the forms listings write (`1`, `0.5`, `.5`, `1.`, `1e-005`,
    /// `1.5f`), followed by something that cannot continue it. Hexadecimal, octal-looking and
    /// suffixed integers are left to the line parser.
    fn number(&mut self) -> Option<&'a str> {
        self.decimal().map(|d| d.text)
    }

    /// [`Cursor::number`] with the value of its digits, gathered as they are read.
    #[inline(always)]
    fn decimal(&mut self) -> Option<Decimal<'a>> {
        let start = self.i;
        let mut m = 0u64;
        let int = self.digits_into(&mut m);
        let mut frac = 0;
        let mut point = false;
        if self.peek() == b'.' {
            point = true;
            self.i += 1;
            frac = self.digits_into(&mut m);
        }
        if int + frac == 0 {
            self.i = start;
            return None;
        }
        let (mut exp, mut exp_digits) = (0u64, 0);
        if matches!(self.peek(), b'e' | b'E') {
            let mark = self.i;
            self.i += 1;
            let negative = self.peek() == b'-';
            if matches!(self.peek(), b'+' | b'-') {
                self.i += 1;
            }
            exp_digits = self.digits_into(&mut exp);
            if exp_digits == 0 {
                self.i = mark;
            } else if negative {
                exp = exp.wrapping_neg();
            }
        }
        let suffixed = matches!(self.peek(), b'f' | b'F' | b'h' | b'H');
        if suffixed {
            self.i += 1;
        }
        let text = &self.s[start..self.i];
        // `0x1F`, `017` and `1u` read differently as integers; leave them to the line parser.
        let leading_zero = !point && !suffixed && int > 1 && text.starts_with('0');
        let next = self.peek();
        if leading_zero || is_word_byte(next) || next == b'.' {
            return None;
        }
        self.skip_space();
        // What `words::short_decimal` reads exactly: up to 15 digits, an exponent of up to 4.
        let scaled =
            (int + frac <= 15 && exp_digits <= 4).then(|| (m, exp as i64 as i32 - frac as i32));
        Some(Decimal { text, scaled })
    }

    /// Digits from the cursor, their decimal value gathered into `m` (wrapping past 19
    /// digits: trusted only for fewer); how many.
    #[inline(always)]
    fn digits_into(&mut self, m: &mut u64) -> usize {
        let from = self.i;
        loop {
            let c = self.at(self.i);
            if class(c) & DIGIT == 0 {
                break;
            }
            *m = m.wrapping_mul(10).wrapping_add((c - b'0') as u64);
            self.i += 1;
        }
        self.i - from
    }

    /// The mnemonic word: a word without `_` by its packed key alone
    /// ([`words::plain_mnemonic_of_key`]), anything else by [`words::mnemonic_word`].
    #[inline(always)]
    fn mnemonic(&mut self, ctx: &Context) -> Option<words::MnemonicWord> {
        if class(self.peek()) & LETTER == 0 {
            return None;
        }
        let start = self.i;
        // Letters and digits, lowered (`| 0x20` lowers a letter and keeps a digit), packed as
        // [`words::key`] packs them: a mnemonic of up to seven of them fits 64 bits.
        let mut packed = 0u64;
        loop {
            let c = self.at(self.i);
            if class(c) & (LETTER | DIGIT) == 0 {
                break;
            }
            packed = packed << 8 | (c | 0x20) as u64;
            self.i += 1;
        }
        let plain = !is_word_byte(self.at(self.i));
        if !plain {
            while is_word_byte(self.at(self.i)) {
                self.i += 1;
            }
        }
        let len = self.i - start;
        if plain && len <= 15 {
            let key = if len <= 7 {
                (packed << 8 | len as u64) as u128
            } else {
                words::key(&self.s.as_bytes()[start..self.i])?
            };
            if let Some(word) = words::plain_mnemonic_of_key(key, ctx.version, ctx.strict) {
                self.skip_space();
                return Some(word);
            }
        }
        let word = words::mnemonic_word(&self.s[start..self.i], ctx.version, ctx.strict).ok();
        self.skip_space();
        word
    }

    /// Reads the line's instruction into `out` (begun, not ended); `None` (with part of it
    /// given to `out`) when the line is not in a form the cursor reads.
    #[inline(always)]
    fn instruction<O: Sink>(
        &mut self,
        ctx: &Context,
        seen: &mut Seen<O>,
        out: &mut O,
    ) -> Option<()> {
        let coissue = self.eat(b'+');
        // The tables' word ends at a blank or the end of the line: what the mnemonic reader
        // reads of it depends on its bytes alone.
        let known = self
            .cache_word()
            .map(|(k, end)| (seen.key(k, 0), self.space_end(end)));
        let (word, fixed) =
            match known.and_then(|(k, next)| Some((seen.tables.mnemonics.get(k)??, next))) {
                Some((known, next)) => {
                    self.i = next;
                    known
                }
                None => {
                    let word = self.mnemonic(ctx)?;
                    let fixed = words::fixed_shape(word.opcode.info(), ctx.version);
                    if let Some((k, _)) = known.filter(|&(_, next)| next == self.i) {
                        seen.tables.mnemonics.put(k, Some((word, fixed)));
                    }
                    (word, fixed)
                }
            };
        let shape = match fixed {
            Some(shape) => shape,
            None => {
                let rest = &self.s.as_bytes()[self.i..];
                words::shape(word.opcode.info(), ctx.version, || {
                    1 + rest.iter().filter(|&&c| c == b',').count()
                })
            }
        };
        out.begin(word.opcode, word.control, coissue);
        match shape {
            Operands::None => {}
            Operands::Dcl => {
                out.dcl(word.dcl.unwrap_or_default());
                self.known_dst(ctx, seen, &word, out)?;
            }
            Operands::Def => {
                self.known_dst(ctx, seen, &word, out)?;
                let mut v = [0u32; 4];
                for slot in &mut v {
                    self.comma()?;
                    *slot = self.float()?.to_bits();
                }
                out.def(Extra::Def(v));
            }
            Operands::DefI => {
                self.known_dst(ctx, seen, &word, out)?;
                let mut v = [0i32; 4];
                for slot in &mut v {
                    self.comma()?;
                    *slot = self.int()?;
                }
                out.def(Extra::DefI(v));
            }
            Operands::DefB => {
                self.known_dst(ctx, seen, &word, out)?;
                self.comma()?;
                out.def(Extra::DefB(self.boolean()?));
            }
            Operands::DstSrc(count) => {
                if count as usize > dxso::Sources::CAPACITY {
                    return None;
                }
                self.known_dst(ctx, seen, &word, out)?;
                for _ in 0..count {
                    self.comma()?;
                    self.known_src(ctx, seen, out)?;
                }
            }
            Operands::Src(count) => {
                if count as usize > dxso::Sources::CAPACITY {
                    return None;
                }
                for i in 0..count {
                    if i > 0 {
                        self.comma()?;
                    }
                    self.known_src(ctx, seen, out)?;
                }
            }
        }
        if !self.at_end() {
            return None;
        }
        out.end();
        Some(())
    }

    #[inline(always)]
    fn comma(&mut self) -> Option<()> {
        self.eat(b',').then_some(())
    }

    /// A register word, the `_suffix` part of the word, and whether it has a number (which
    /// only a register with a relative address may lack: see [`Cursor::relative`]). Letters and digits (`r0`, `c12`, `oT3`, `oPos`,
    /// `v3_bx2`) are read here, through the spellings the version allows
    /// ([`words::spelling_of_key`]); any other word by [`words::register_word`].
    #[inline(always)]
    fn register(&mut self, ctx: &Context) -> Option<(Register, &'a str, bool)> {
        let start = self.i;
        // Most registers are one letter and a number, with nothing after them in the word:
        // the letter's file from a table, no spelling hash. Anything else reads as below.
        if class(self.at(start + 1)) & DIGIT != 0 {
            // Only a letter's byte with bit 5 set is `a` to `z`.
            let letter = (self.at(start) | 0x20).wrapping_sub(b'a');
            if let Some(&Some(ty)) = ctx.spellings.letters.get(letter as usize) {
                let mut j = start + 1;
                let mut num = 0u32;
                while class(self.at(j)) & DIGIT != 0 && j - start <= 5 {
                    num = num * 10 + (self.at(j) - b'0') as u32;
                    j += 1;
                }
                if !is_word_byte(self.at(j)) {
                    self.i = j;
                    self.skip_space();
                    return Some((words::make_register(ty, num)?, "", true));
                }
            }
        }
        let mut j = start;
        let mut packed = 0u64;
        loop {
            let c = self.at(j);
            if class(c) & LETTER == 0 || j - start == 6 {
                break;
            }
            packed = packed << 8 | (c | 0x20) as u64;
            j += 1;
        }
        let letters_end = j;
        let mut num = 0u32;
        loop {
            let d = self.at(j);
            if class(d) & DIGIT == 0 {
                break;
            }
            // Wrapping: a number of more than five digits is not read here (`plain` below), but
            // the run is measured whole (found by the fuzzer: `r99999999999` overflowed).
            num = num.wrapping_mul(10).wrapping_add((d - b'0') as u32);
            j += 1;
        }
        let digits = j - letters_end;
        let next = self.at(j);
        let plain = letters_end > start && digits <= 5 && !(is_word_byte(next) && next != b'_');
        let spelling = if plain {
            words::spelling_of_key(packed).and_then(|i| ctx.spellings.allowed[i])
        } else {
            None
        };
        let number = match spelling {
            Some((_, Some(fixed))) if digits == 0 => Some(fixed as u32),
            Some((_, None)) if digits > 0 => Some(num),
            _ => None,
        };
        let register = match (spelling, number) {
            (Some((ty, _)), Some(num)) => {
                let mut end = j;
                if next == b'_' {
                    while is_word_byte(self.at(end)) {
                        end += 1;
                    }
                }
                self.i = end;
                self.skip_space();
                // Most registers have no suffix: no slice to check then.
                let suffix = if end == j { "" } else { &self.s[j..end] };
                (words::make_register(ty, num)?, suffix, true)
            }
            _ => {
                let (register, has_number, suffix) =
                    words::register_word(self.word()?, ctx.version).ok()?;
                (register, suffix, has_number)
            }
        };
        Some(register)
    }

    /// What follows a register word: a relative address in `[...]` (the register then needs
    /// no number), or nothing (it then must have one).
    #[inline(always)]
    fn relative(
        &mut self,
        ctx: &Context,
        register: &mut Register,
        has_number: bool,
    ) -> Option<Option<Relative>> {
        if self.peek() != b'[' {
            return has_number.then_some(None);
        }
        self.relative_address(ctx, register).map(Some)
    }

    /// `[a0.x]`, `[aL]`, `[a0.x + 12]` (a decimal offset), applied to `register` as the line
    /// parser applies it ([`super::assemble`]): the index moved by the offset, then an address
    /// token (shader model 2 and later) or the implicit `a0.x` of shader model 1. Any other
    /// form is the line parser's.
    fn relative_address(&mut self, ctx: &Context, register: &mut Register) -> Option<Relative> {
        self.i += 1;
        self.skip_space();
        let (address, suffix, has_number) = self.register(ctx)?;
        let is_address = if ctx.version.is_sm1() {
            address.ty == RegisterType::Addr
        } else {
            address.ty == RegisterType::Loop
                || (address.ty == RegisterType::Addr && ctx.version.is_vertex())
        };
        if !is_address || !suffix.is_empty() || !has_number {
            return None;
        }
        let swizzle = self.swizzle()?;
        let mut offset = 0u32;
        if self.eat(b'+') {
            let start = self.i;
            let digits = self.digits();
            let next = self.peek();
            // `017` is octal to the line parser, `4u` and `4.5` other numbers.
            if digits == 0
                || digits > 5
                || (digits > 1 && self.at(start) == b'0')
                || is_word_byte(next)
                || next == b'.'
            {
                return None;
            }
            offset = self.s[start..self.i].parse().ok()?;
            self.skip_space();
        }
        if !self.eat(b']') {
            return None;
        }
        let base = if register.ty.is_float_const() {
            RegisterType::Const
        } else {
            register.ty
        };
        *register = words::make_register(base, register.index() + offset)?;
        Some(if ctx.version.is_sm1() {
            Relative::Implicit
        } else {
            Relative::Token(RelativeToken {
                register: address,
                swizzle,
                modifier: 0,
                reserved: 0,
            })
        })
    }

    /// The components after a `.`: one to four letters, each a component, and with `mask` in
    /// increasing order.
    #[inline(always)]
    fn components(&mut self, mask: bool) -> Option<([u8; 4], usize)> {
        let mut sel = [0u8; 4];
        let mut n = 0;
        loop {
            let c = self.at(self.i);
            if !is_word_byte(c) {
                break;
            }
            let component = words::component_of_byte(c)?;
            if n == 4 || (mask && n > 0 && component <= sel[n - 1]) {
                return None;
            }
            sel[n] = component;
            n += 1;
            self.i += 1;
        }
        self.skip_space();
        (n > 0).then_some((sel, n))
    }

    /// A `.` and a swizzle (one to four components, the last repeated), or the identity
    /// when no `.` comes.
    #[inline(always)]
    fn swizzle(&mut self) -> Option<Swizzle> {
        if !self.dot() {
            return Some(Swizzle::IDENTITY);
        }
        let (sel, n) = self.components(false)?;
        let last = sel[n - 1];
        let pick = |i: usize| if i < n { sel[i] } else { last };
        Some(Swizzle::new(pick(0), pick(1), pick(2), pick(3)))
    }

    /// A destination, with the result modifiers and shift of the mnemonic `word`, into `out`:
    /// from `seen` when the same bytes were read the same way before (and stored there when
    /// they can be).
    #[inline(always)]
    fn known_dst<O: Sink>(
        &mut self,
        ctx: &Context,
        seen: &mut Seen<O>,
        word: &words::MnemonicWord,
        out: &mut O,
    ) -> Option<()> {
        let tag = (word.modifiers.0 & 0xF) | (word.shift.0 as u8) << 4;
        let known = self.operand_key().map(|(k, next)| (seen.key(k, tag), next));
        if let Some((kept, next)) =
            known.and_then(|(k, next)| Some((seen.tables.dsts.get(k)?, next)))
        {
            self.i = next;
            out.known_dst(kept);
            return Some(());
        }
        let mut dst = self.dst(ctx)?;
        dst.modifiers = word.modifiers;
        dst.shift = word.shift;
        match known.filter(|&(_, next)| next == self.i && dst.relative.is_none()) {
            Some((k, _)) => {
                let kept = O::keep_dst(dst, dst.to_token());
                seen.tables.dsts.put(k, kept);
                out.known_dst(kept);
            }
            None => out.dst(dst),
        }
        Some(())
    }

    /// A source into `out`, from `seen` as [`Cursor::known_dst`] reads a destination.
    #[inline(always)]
    fn known_src<O: Sink>(&mut self, ctx: &Context, seen: &mut Seen<O>, out: &mut O) -> Option<()> {
        let known = self.operand_key().map(|(k, next)| (seen.key(k, 0), next));
        if let Some((kept, next)) =
            known.and_then(|(k, next)| Some((seen.tables.srcs.get(k)?, next)))
        {
            self.i = next;
            out.known_src(kept);
            return Some(());
        }
        let src = self.src(ctx)?;
        match known.filter(|&(_, next)| next == self.i && src.relative.is_none()) {
            Some((k, _)) => {
                let kept = O::keep_src(src, src.to_token());
                seen.tables.srcs.put(k, kept);
                out.known_src(kept);
            }
            None => out.src(src),
        }
        Some(())
    }

    /// A destination without result modifiers or shift.
    #[inline(always)]
    fn dst(&mut self, ctx: &Context) -> Option<DstParam> {
        let (mut register, suffix, has_number) = self.register(ctx)?;
        if !suffix.is_empty() {
            return None;
        }
        let relative = self.relative(ctx, &mut register, has_number)?;
        let mut dst = DstParam::new(register, WriteMask::ALL);
        dst.relative = relative;
        if self.dot() {
            let (sel, n) = self.components(true)?;
            dst.mask = WriteMask(sel[..n].iter().fold(0, |m, &c| m | 1 << c));
        }
        Some(dst)
    }

    #[inline(always)]
    fn src(&mut self, ctx: &Context) -> Option<SrcParam> {
        let (mut negate, mut complement, mut not) = (false, false, false);
        match self.peek() {
            b'-' => {
                self.i += 1;
                self.skip_space();
                negate = true;
            }
            b'!' => {
                self.i += 1;
                self.skip_space();
                not = true;
            }
            b'1' => {
                // `1-r0`: the number `1`, then a minus.
                if self.number()? != "1" || !self.eat(b'-') {
                    return None;
                }
                complement = true;
            }
            _ => {}
        }
        let (mut register, suffix, has_number) = self.register(ctx)?;
        let relative = self.relative(ctx, &mut register, has_number)?;
        let swizzle = self.swizzle()?;
        let mut src = SrcParam::new(register, swizzle);
        src.relative = relative;
        src.modifier = match (suffix.is_empty(), negate, complement, not) {
            (true, false, false, false) => SrcModifier::None,
            (true, true, false, false) => SrcModifier::Neg,
            _ => source_modifier(suffix, negate, complement, not)?,
        };
        Some(src)
    }

    /// An optional sign and a number.
    fn signed_number(&mut self) -> Option<(bool, &'a str)> {
        let negative = self.eat(b'-');
        if !negative {
            self.eat(b'+');
        }
        Some((negative, self.number()?))
    }

    fn float(&mut self) -> Option<f32> {
        let negative = self.eat(b'-');
        if !negative {
            self.eat(b'+');
        }
        let d = self.decimal()?;
        // The digits as read, scaled, unless `str::parse` must decide (as `parse_float`
        // would find again from the text).
        let v = d
            .scaled
            .and_then(|(m, e)| words::scaled_decimal(m, e))
            .or_else(|| words::parse_float(d.text))?;
        Some(if negative { -v } else { v })
    }

    fn int(&mut self) -> Option<i32> {
        let (negative, text) = self.signed_number()?;
        let v = super::preprocess::parse_int(text)
            .filter(|v| (i32::MIN as i64..=u32::MAX as i64).contains(v))?;
        Some(if negative {
            (v as i32).wrapping_neg()
        } else {
            v as i32
        })
    }

    fn boolean(&mut self) -> Option<u32> {
        if self.peek().is_ascii_digit() {
            return Some((self.int()? != 0) as u32);
        }
        let word = self.word()?;
        if word.eq_ignore_ascii_case("true") {
            Some(1)
        } else if word.eq_ignore_ascii_case("false") {
            Some(0)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newline_finds_the_first_line_feed() {
        let mut text = vec![b'a'; 40];
        assert_eq!(newline(&text), None);
        for at in 0..40 {
            text[at] = b'\n';
            assert_eq!(newline(&text), Some(at), "{at}");
            // Bytes that differ from a line feed in one bit, after it and before it.
            text[at] = 0x0B;
            assert_eq!(newline(&text), None);
            text[at] = 0x8A;
            assert_eq!(newline(&text), None);
            text[at] = b'a';
        }
        text[3] = b'\n';
        text[20] = b'\n';
        assert_eq!(newline(&text), Some(3));
        assert_eq!(newline(b""), None);
        // Every length, inside and past the first 32 bytes, and a second line feed after.
        for len in 0..80 {
            for at in 0..len {
                let mut text = vec![b'x'; len];
                text[at] = b'\n';
                if at + 9 < len {
                    text[at + 9] = b'\n';
                }
                assert_eq!(newline(&text), Some(at), "{at} of {len}");
            }
            assert_eq!(newline(&vec![0x0B; len]), None, "{len}");
        }
    }

    #[test]
    fn floats_read_with_their_digits_are_those_of_parse_float() {
        let mut texts: Vec<String> = [
            "0",
            "1",
            "-1",
            "+2.5",
            "0.5",
            ".5",
            "1.",
            "1e-005",
            "1.5f",
            "-0.25h",
            "3.0e-2",
            "0.123456791",
            "1.00000001e-05",
            "123456789012345",
            "1234567890123456",
            "0.000000000000000000000000000000000000000000001",
            "3.4028235e38",
            "3.5e38",
            "1e22",
            "1e23",
            "1e-0045",
            "1e00001",
            "7.0000005",
            "16777217",
            "0.1f",
        ]
        .iter()
        .map(|t| t.to_string())
        .collect();
        // Nine significant digits at every point and power, as listings print floats.
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..3000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let digits = format!("{:09}", seed % 1_000_000_000);
            let point = (seed >> 32) as usize % 10;
            let exp = (seed >> 40) as i32 % 40 - 20;
            texts.push(format!(
                "{}.{}e{exp:+04}",
                &digits[..point],
                &digits[point..]
            ));
            texts.push(format!("{}.{}", &digits[..point], &digits[point..]));
        }
        for text in &texts {
            let line = format!("{text}, 0");
            let mut buffer = LineBuffer::new();
            let mut c = buffer.cursor(&line, line.as_bytes()).unwrap();
            let unsigned = text.trim_start_matches(['-', '+']);
            let want =
                words::parse_float(unsigned).map(|v| if text.starts_with('-') { -v } else { v });
            assert_eq!(
                c.float().map(f32::to_bits),
                want.map(f32::to_bits),
                "{text}"
            );
        }
    }
}
