//! What the single-pass assembler ([`super::fast`]) remembers of the words it has read: the
//! meaning of each mnemonic word and operand, by the word's bytes. Shaders repeat most of
//! their words (three in four mnemonics and operands of a corpus listing were read before in
//! the same listing, and `mov`, `r0`, `c0`, `v0` or `oPos` in nearly every listing), and a
//! repeated word is then a hash and a comparison instead of a parse.
//!
//! A key is the word's bytes (1 to [`WORD_MAX`], none of them zero) as a little-endian
//! integer, with a tag byte (what the reader adds to the bytes' meaning, such as a
//! destination's modifiers) and a context byte above them. What reading a word gives depends
//! on its bytes, the tag and the text's context alone (the shader version and whether the
//! reading is strict: [`context_id`]), so two keys are equal exactly when reading them gives
//! the same thing. A value is stored only when reading those bytes gives it whatever follows
//! them (the caller checks what follows), so a hit gives what reading would.
//!
//! The tables belong to the caller's [`crate::Assembler`] and are kept from text to text, so
//! a text finds the words of the texts before it with the same context (a context the byte
//! cannot name gets fresh tables of its own). Values are `Copy` and borrow nothing from a
//! text.

use dxso::swar::{zero_bytes, ONES};
use dxso::{ShaderKind, Version};

/// The longest word kept: two bytes of the key are the tag and the context.
pub(super) const WORD_MAX: usize = 14;

/// A direct-mapped table from keys to what the word means, of a power-of-two number of
/// slots; a word that lands in a taken slot replaces what was there.
pub(super) struct WordCache<V: Copy> {
    slots: Box<[Slot<V>]>,
    /// 64 less the base-two logarithm of the slot count: the shift that keeps the top bits
    /// of a hash.
    shift: u32,
}

/// A key and its value side by side: a lookup touches one place in memory (the tables are
/// larger than what stays in the first-level cache from text to text, and keys and values in
/// arrays of their own cost a miss each).
#[derive(Clone, Copy)]
struct Slot<V: Copy> {
    /// The key's halves, low first (two `u64`s, not a `u128`: its 16-byte alignment would pad
    /// every slot). Zero: an empty slot (no key is zero: the context byte never is).
    key: [u64; 2],
    value: V,
}

/// A key as the two halves a [`Slot`] keeps.
#[inline(always)]
fn halves(key: u128) -> [u64; 2] {
    [key as u64, (key >> 64) as u64]
}

impl<V: Copy> WordCache<V> {
    /// A table of `2^bits` slots (`bits` from 1 to 63).
    pub(super) fn new(blank: V, bits: u32) -> Self {
        let slot = Slot {
            key: [0; 2],
            value: blank,
        };
        WordCache {
            slots: vec![slot; 1 << bits].into_boxed_slice(),
            shift: 64 - bits,
        }
    }

    /// The slot of `key`: its two halves combined and multiplied, the top bits.
    #[inline(always)]
    fn slot(&self, key: [u64; 2]) -> usize {
        let mixed = key[0] ^ key[1];
        (mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    #[inline(always)]
    pub(super) fn get(&self, key: u128) -> Option<V> {
        let key = halves(key);
        let slot = self.slots.get(self.slot(key))?;
        // Both halves in one test (no branch on the first half alone).
        let differ = (slot.key[0] ^ key[0]) | (slot.key[1] ^ key[1]);
        (differ == 0).then_some(slot.value)
    }

    #[inline(always)]
    pub(super) fn put(&mut self, key: u128, value: V) {
        let key = halves(key);
        let at = self.slot(key);
        if let Some(slot) = self.slots.get_mut(at) {
            *slot = Slot { key, value };
        }
    }
}

/// How many of the 16 bytes come before the first blank, comma or zero (16 when none does):
/// the word the tables key on (a reader checks what it read of it). Eight bytes at a time,
/// without a loop per byte: a byte equal to one of the three is a zero byte of the word XORed
/// with that byte repeated, and the lowest zero byte of a word is found exactly by the borrow
/// test (a false find can only come above a true one).
#[inline(always)]
pub(super) fn run_len(bytes: [u8; 16]) -> usize {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[..8]);
    let low = ends(u64::from_le_bytes(b));
    if low != 0 {
        return low.trailing_zeros() as usize / 8;
    }
    b.copy_from_slice(&bytes[8..]);
    let high = ends(u64::from_le_bytes(b));
    8 + if high != 0 {
        high.trailing_zeros() as usize / 8
    } else {
        8
    }
}

/// The high bit of a byte of `x` that is a blank, a comma or zero, and maybe of bytes above
/// the lowest such.
#[inline(always)]
const fn ends(x: u64) -> u64 {
    // A zero and a blank differ only in bit 5 (0x20): cleared, both are zero bytes, and no
    // other byte is.
    zero_bytes(x & !(ONES * 0x20)) | zero_bytes(x ^ (ONES * b',' as u64))
}

/// The low `len` bytes of a `u128`, by length (none for lengths over [`WORD_MAX`]).
const MASKS: [u128; 16] = {
    let mut m = [0u128; 16];
    let mut i = 1;
    while i <= WORD_MAX {
        m[i] = (1u128 << (8 * i)) - 1;
        i += 1;
    }
    m
};

/// The word part of a key from the 16 bytes at the word's start: its `len` bytes (1 to
/// [`WORD_MAX`]) kept, the rest cleared; `None` for an empty word or a longer one.
#[inline(always)]
pub(super) fn word_key(bytes: [u8; 16], len: usize) -> Option<u128> {
    // Zero for an empty word and a longer one (a 16-byte run masks to nothing); no word byte
    // is zero, so any other word's key is not.
    let key = u128::from_le_bytes(bytes) & MASKS[len & 15];
    (key != 0).then_some(key)
}

/// An assembler's tables with the context byte of the text being read (see the module
/// documentation).
pub(super) struct ContextTables<T> {
    pub(super) tables: T,
    /// The context byte in the top byte of a key.
    bits: u128,
}

impl<T> ContextTables<T> {
    /// The key of a word (from [`word_key`]) with the `tag` of its reading.
    #[inline(always)]
    pub(super) fn key(&self, word: u128, tag: u8) -> u128 {
        word | (tag as u128) << 112 | self.bits
    }
}

/// The context byte of a text read as `version`, strictly or not: one value (never zero) per
/// version a shader can have and strictness, so the tables keep the words of each context
/// apart; `None` for a version outside that set (major above 3, or a minor other than 0 to 5
/// and `sw`).
pub(super) fn context_id(version: Version, strict: bool) -> Option<u8> {
    let minor = match version.minor {
        m @ 0..=5 => m,
        Version::SOFTWARE_MINOR => 6,
        _ => return None,
    };
    if version.major > 3 {
        return None;
    }
    let pixel = matches!(version.kind, ShaderKind::Pixel) as u8;
    Some(1 + ((strict as u8) << 6 | pixel << 5 | version.major << 3 | minor))
}

/// The tables a text's reader uses; [`Kept::with`] keys them for the text's context.
pub(super) trait Tables {
    /// Tables for words of texts of about `lines` lines (`None`: of any number of texts).
    fn new(lines: Option<usize>) -> Self;
}

/// The three tables of the single-pass assembler.
pub(super) struct Words<M: Copy, D: Copy, S: Copy> {
    pub(super) mnemonics: WordCache<M>,
    pub(super) dsts: WordCache<D>,
    pub(super) srcs: WordCache<S>,
}

/// The base-two logarithm of a table's slot count: `most` for tables kept from text to text,
/// else room for `share` of the lines of one text (between 16 slots and `2^most`). Tables
/// of tens of kilobytes cost more to make than the whole assembly of a short text, and a
/// text has fewer different words than lines.
fn bits(lines: Option<usize>, share: usize, most: u32) -> u32 {
    match lines {
        None => most,
        Some(lines) => (lines / share)
            .max(1)
            .next_power_of_two()
            .trailing_zeros()
            .clamp(4, most),
    }
}

impl<M: Copy + Default, D: Copy + Default, S: Copy + Default> Tables for Words<M, D, S> {
    fn new(lines: Option<usize>) -> Self {
        Words {
            mnemonics: WordCache::new(M::default(), bits(lines, 4, 7)),
            dsts: WordCache::new(D::default(), bits(lines, 2, 8)),
            srcs: WordCache::new(S::default(), bits(lines, 1, 10)),
        }
    }
}

/// The tables of one kind of output: kept from text to text (made the first time they are
/// needed, at their full size), or made afresh for each text, sized to it.
pub(super) struct Kept<T> {
    tables: Option<ContextTables<T>>,
    one_text: bool,
}

impl<T: Tables> Kept<T> {
    /// Tables kept from text to text.
    pub(super) const fn for_texts() -> Self {
        Kept {
            tables: None,
            one_text: false,
        }
    }

    /// Tables for one text.
    pub(super) const fn for_one_text() -> Self {
        Kept {
            tables: None,
            one_text: true,
        }
    }

    /// Whether tables were made.
    pub(super) fn is_made(&self) -> bool {
        self.tables.is_some()
    }

    /// Runs `f` with the tables keyed for context `id` ([`context_id`]) of a text of about
    /// `lines` lines; with fresh tables, which are not kept, when there is no `id`.
    pub(super) fn with<R>(
        &mut self,
        id: Option<u8>,
        lines: usize,
        f: impl FnOnce(&mut ContextTables<T>) -> R,
    ) -> R {
        let keyed = |id: u8| (id as u128) << 120;
        let size = (self.one_text || id.is_none()).then_some(lines);
        let fresh = || ContextTables {
            tables: T::new(size),
            bits: keyed(1),
        };
        match id {
            None => f(&mut fresh()),
            Some(id) => {
                let tables = self.tables.get_or_insert_with(fresh);
                tables.bits = keyed(id);
                f(tables)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_end_at_the_first_blank_comma_or_zero() {
        let ends = |b: u8| matches!(b, b' ' | b',' | 0);
        for b in 0..=255u8 {
            for at in 0..16 {
                for after in [b'r', b' ', 0, b',', 0x80, 0xFF, 1] {
                    let mut bytes = [b'r'; 16];
                    bytes[at] = b;
                    bytes[(at + 1).min(15)..].fill(after);
                    let want = (0..16).find(|&i| ends(bytes[i])).unwrap_or(16);
                    assert_eq!(run_len(bytes), want, "{b:#x} at {at}, then {after:#x}");
                }
            }
        }
        assert_eq!(run_len(*b"r0.xyzw, c[a0.x]"), 7);
        assert_eq!(run_len(*b"-r2_abs.x\0\0\0\0\0\0\0"), 9);
        assert_eq!(run_len(*b"dcl_texcoord1 v0"), 13);
    }

    #[test]
    fn keys_keep_exactly_the_word() {
        let mut b = [b'z'; 16];
        b[..4].copy_from_slice(b"oPos");
        let k = word_key(b, 4).expect("short word");
        assert_eq!(k, u128::from_le_bytes(*b"oPos\0\0\0\0\0\0\0\0\0\0\0\0"));
        assert_ne!(word_key(b, 3), Some(k));
        assert_eq!(word_key(b, 0), None);
        assert_eq!(word_key(b, WORD_MAX + 1), None);
        assert_eq!(
            word_key(b, WORD_MAX).map(|k| k >> 112),
            Some(0),
            "the tag and context bytes stay clear"
        );
    }

    #[test]
    fn a_slot_holds_the_last_word_put() {
        let mut cache: WordCache<u8> = WordCache::new(0, 2);
        let words: Vec<u128> = (1..=40u128).map(|i| i * 0x0101_0101).collect();
        for (i, &w) in words.iter().enumerate() {
            assert_eq!(cache.get(w), None);
            cache.put(w, i as u8);
            assert_eq!(cache.get(w), Some(i as u8));
        }
        // Every word still found has the value put last for it.
        for (i, &w) in words.iter().enumerate() {
            if let Some(v) = cache.get(w) {
                assert_eq!(v, i as u8);
            }
        }
    }

    type Test = Words<u8, u8, u8>;

    fn version(kind: ShaderKind, major: u8, minor: u8) -> Version {
        Version { kind, major, minor }
    }

    #[test]
    fn every_context_has_its_own_byte() {
        let mut seen = std::collections::HashMap::new();
        for kind in [ShaderKind::Vertex, ShaderKind::Pixel] {
            for major in 0..=3 {
                for minor in (0..=5).chain([Version::SOFTWARE_MINOR]) {
                    for strict in [false, true] {
                        let id = context_id(version(kind, major, minor), strict)
                            .expect("a version a shader can have");
                        assert_ne!(id, 0, "zero marks an empty slot");
                        let was = seen.insert(id, (kind, major, minor, strict));
                        assert_eq!(was, None, "{id} named twice");
                    }
                }
            }
        }
        assert_eq!(context_id(version(ShaderKind::Vertex, 4, 0), false), None);
        assert_eq!(context_id(version(ShaderKind::Pixel, 2, 6), true), None);
    }

    #[test]
    fn texts_share_the_words_of_their_context_alone() {
        let word = word_key(*b"r0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 2).expect("short");
        let vs = context_id(version(ShaderKind::Vertex, 2, 0), false);
        let ps = context_id(version(ShaderKind::Pixel, 2, 0), false);
        let mut kept = Kept::<Test>::for_texts();
        kept.with(vs, 10, |t| {
            let k = t.key(word, 0);
            t.tables.srcs.put(k, 7);
            assert_eq!(t.tables.srcs.get(t.key(word, 1)), None, "another tag");
        });
        kept.with(vs, 10, |t| {
            assert_eq!(t.tables.srcs.get(t.key(word, 0)), Some(7), "the next text");
        });
        Kept::<Test>::for_texts().with(vs, 10, |t| {
            assert_eq!(t.tables.srcs.get(t.key(word, 0)), None, "other tables");
        });
        kept.with(ps, 10, |t| {
            assert_eq!(t.tables.srcs.get(t.key(word, 0)), None, "another context");
        });
        kept.with(None, 10, |t| {
            assert_eq!(
                t.tables.srcs.get(t.key(word, 0)),
                None,
                "no context: fresh tables"
            );
        });
    }

    #[test]
    fn tables_for_one_text_are_sized_to_it() {
        let vs = context_id(version(ShaderKind::Vertex, 2, 0), false);
        let slots = |kept: &mut Kept<Test>, lines| {
            kept.with(vs, lines, |t| {
                [
                    t.tables.mnemonics.slots.len(),
                    t.tables.dsts.slots.len(),
                    t.tables.srcs.slots.len(),
                ]
            })
        };
        assert_eq!(slots(&mut Kept::for_texts(), 1), [128, 256, 1024]);
        assert_eq!(slots(&mut Kept::for_one_text(), 1), [16, 16, 16]);
        assert_eq!(slots(&mut Kept::for_one_text(), 100), [32, 64, 128]);
        assert_eq!(slots(&mut Kept::for_one_text(), 1 << 20), [128, 256, 1024]);
        let mut kept = Kept::<Test>::for_one_text();
        kept.with(None, 100, |_| ());
        assert!(!kept.is_made(), "tables for no context are not kept");
    }
}
