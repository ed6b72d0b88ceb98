//! What the single-pass assembler ([`super::fast`]) remembers within one text: the meaning of
//! each mnemonic word and operand it has read, by the word's bytes. A shader repeats most of
//! its words (three in four mnemonics and operands of a corpus listing were read before in the
//! same listing), and a repeated word is then a hash and a comparison instead of a parse.
//!
//! A key is the word's bytes (1 to [`WORD_MAX`], none of them zero) as a little-endian
//! integer, with a tag byte (what the reader adds to the bytes' meaning, such as a
//! destination's modifiers) and the text's generation byte above them: two keys are equal
//! exactly when they are the same bytes read the same way in the same text. A value is stored
//! only when reading those bytes gives it whatever follows them (the caller checks what
//! follows), so a hit gives what reading would.
//!
//! The tables live per thread and are reused from text to text (a text's own tables would
//! cost more to clear than most texts save): each text takes the next generation, which makes
//! every older entry miss; when the 255 generations run out, the tables are cleared.

use crate::swar::{zero_bytes, ONES};
use std::cell::RefCell;

/// The longest word kept: two bytes of the key are the tag and the generation.
pub(super) const WORD_MAX: usize = 14;

/// A direct-mapped table of `N` slots (a power of two) from keys to what the word means; a
/// word that lands in a taken slot replaces what was there.
pub(super) struct WordCache<V: Copy, const N: usize> {
    slots: [Slot<V>; N],
}

/// A key and its value side by side: a lookup touches one place in memory (the tables are
/// larger than what stays in the first-level cache from text to text, and keys and values in
/// arrays of their own cost a miss each).
#[derive(Clone, Copy)]
struct Slot<V: Copy> {
    /// The key's halves, low first (two `u64`s, not a `u128`: its 16-byte alignment would pad
    /// every slot). Zero: an empty slot (no key is zero: the generation byte never is).
    key: [u64; 2],
    value: V,
}

/// A key as the two halves a [`Slot`] keeps.
#[inline(always)]
fn halves(key: u128) -> [u64; 2] {
    [key as u64, (key >> 64) as u64]
}

impl<V: Copy, const N: usize> WordCache<V, N> {
    pub(super) fn new(blank: V) -> Self {
        WordCache {
            slots: [Slot {
                key: [0; 2],
                value: blank,
            }; N],
        }
    }

    /// The slot of `key`: its two halves combined and multiplied, the top bits.
    #[inline(always)]
    fn slot(key: [u64; 2]) -> usize {
        let mixed = key[0] ^ key[1];
        (mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - N.trailing_zeros())) as usize % N
    }

    #[inline(always)]
    pub(super) fn get(&self, key: u128) -> Option<V> {
        let key = halves(key);
        let slot = &self.slots[Self::slot(key)];
        (slot.key == key).then_some(slot.value)
    }

    #[inline(always)]
    pub(super) fn put(&mut self, key: u128, value: V) {
        let key = halves(key);
        self.slots[Self::slot(key)] = Slot { key, value };
    }

    fn clear(&mut self) {
        for slot in &mut self.slots {
            slot.key = [0; 2];
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
    zero_bytes(x) | zero_bytes(x ^ (ONES * b' ' as u64)) | zero_bytes(x ^ (ONES * b',' as u64))
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

/// Tables of one text: `generation` goes into every key (see the module documentation).
pub(super) struct Generation<T> {
    pub(super) tables: T,
    generation: u8,
    /// `generation` in the top byte of a key.
    bits: u128,
}

impl<T> Generation<T> {
    /// The key of a word (from [`word_key`]) with the `tag` of its reading.
    #[inline(always)]
    pub(super) fn key(&self, word: u128, tag: u8) -> u128 {
        word | (tag as u128) << 112 | self.bits
    }

    fn next(&mut self) {
        self.generation = self.generation.wrapping_add(1).max(1);
        self.bits = (self.generation as u128) << 120;
    }
}

/// The tables a text's reader uses; [`with_tables`] gives the next generation of them.
pub(super) trait Tables {
    fn new() -> Self;
    /// Every entry dropped.
    fn clear(&mut self);
}

/// The three tables of the single-pass assembler.
pub(super) struct Words<M: Copy, D: Copy, S: Copy> {
    pub(super) mnemonics: WordCache<M, 128>,
    pub(super) dsts: WordCache<D, 256>,
    pub(super) srcs: WordCache<S, 1024>,
}

impl<M: Copy + Default, D: Copy + Default, S: Copy + Default> Tables for Words<M, D, S> {
    fn new() -> Self {
        Words {
            mnemonics: WordCache::new(M::default()),
            dsts: WordCache::new(D::default()),
            srcs: WordCache::new(S::default()),
        }
    }

    fn clear(&mut self) {
        self.mnemonics.clear();
        self.dsts.clear();
        self.srcs.clear();
    }
}

/// Runs `f` with this thread's tables of type `T` in a new generation (or with fresh tables,
/// when the thread's are in use by a caller up the stack).
pub(super) fn with_tables<T: Tables + 'static, R>(
    cell: &'static std::thread::LocalKey<RefCell<Option<Box<Generation<T>>>>>,
    f: impl FnOnce(&mut Generation<T>) -> R,
) -> R {
    cell.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => {
            let tables = slot.get_or_insert_with(|| {
                Box::new(Generation {
                    tables: T::new(),
                    generation: 0,
                    bits: 0,
                })
            });
            if tables.generation == u8::MAX {
                tables.tables.clear();
            }
            tables.next();
            f(tables)
        }
        Err(_) => {
            let mut fresh = Generation {
                tables: T::new(),
                generation: 0,
                bits: 0,
            };
            fresh.next();
            f(&mut fresh)
        }
    })
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
            "the tag and generation bytes stay clear"
        );
    }

    #[test]
    fn a_slot_holds_the_last_word_put() {
        let mut cache: WordCache<u8, 4> = WordCache::new(0);
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
        cache.clear();
        assert!(words.iter().all(|&w| cache.get(w).is_none()));
    }

    type Test = Words<u8, u8, u8>;
    thread_local! {
        static TEST: RefCell<Option<Box<Generation<Test>>>> = const { RefCell::new(None) };
    }

    #[test]
    fn each_text_sees_only_its_own_words() {
        let word = word_key(*b"r0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 2).expect("short");
        // More texts than generations: the tables are cleared when they run out.
        for text in 0..600u32 {
            with_tables(&TEST, |g| {
                let k = g.key(word, 0);
                assert_eq!(g.tables.srcs.get(k), None, "text {text}");
                g.tables.srcs.put(k, 7);
                assert_eq!(g.tables.srcs.get(k), Some(7));
                assert_eq!(g.tables.srcs.get(g.key(word, 1)), None, "another tag");
                // A text assembled while this one is: tables of its own.
                with_tables(&TEST, |inner| assert_eq!(inner.tables.srcs.get(k), None));
            });
        }
    }
}
