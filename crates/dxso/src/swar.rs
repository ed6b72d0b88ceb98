//! Byte tests eight at a time in a `u64` ("SIMD within a register"), shared by the readers
//! that scan bytes for a byte class: the NUL search of the borrowed table views
//! ([`crate::ConstantTableView`], [`crate::DebugInfoView`]) here, and in `dxso-text` the single-pass assembler's line search
//! and word ends and the constant-table header reader.

/// `0x01` in every byte.
pub const ONES: u64 = 0x0101_0101_0101_0101;
/// `0x80` in every byte.
pub const HIGHS: u64 = ONES * 0x80;

/// The high bit of every zero byte of `x`, and maybe of bytes above the lowest one: a
/// borrow only runs upwards, so the lowest flag is exact.
#[inline(always)]
pub const fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// The high bits of the eight bytes of `x` (the flags [`zero_bytes`] gives) as the eight low
/// bits of a mask, byte `i` at bit `i`: one multiply gathers them into the top byte.
#[inline(always)]
pub const fn high_bits_mask(x: u64) -> u32 {
    (((x & HIGHS) >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// The first byte of `b` in a class: `flags` gives a word's high bits whose lowest is the
/// first member (as [`zero_bytes`] does), `member` tests one byte of the tail shorter than
/// eight.
#[inline(always)]
pub fn first_in_class(
    b: &[u8],
    flags: impl Fn(u64) -> u64,
    member: impl Fn(u8) -> bool,
) -> Option<usize> {
    let mut chunks = b.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let found = flags(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
        if found != 0 {
            return Some(at + found.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&c| member(c))
        .map(|i| at + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_member_is_found_in_a_word_and_in_the_tail() {
        let newline =
            |b: &[u8]| first_in_class(b, |w| zero_bytes(w ^ (ONES * b'\n' as u64)), |c| c == b'\n');
        assert_eq!(newline(b"abc\ndefg\n"), Some(3));
        assert_eq!(newline(b"abcdefgh\nij"), Some(8));
        assert_eq!(newline(b"abcdefghij\n"), Some(10));
        assert_eq!(newline(b"\x0b\n\n"), Some(1));
        assert_eq!(newline(b"abcdefgh"), None);
        assert_eq!(newline(b""), None);
        // A byte just above the searched one must not be taken for it (the borrow runs up).
        assert_eq!(newline(b"\x0b\x0a\x0b\x0b\x0b\x0b\x0b\x0b"), Some(1));
    }

    #[test]
    fn high_bits_gather_into_a_byte_mask() {
        for m in 0..=255u32 {
            let mut x = 0u64;
            for i in 0..8 {
                if m >> i & 1 != 0 {
                    x |= 0x80 << (8 * i);
                }
            }
            assert_eq!(high_bits_mask(x), m, "{x:#x}");
            // The low seven bits of each byte change nothing.
            assert_eq!(high_bits_mask(x | (ONES * 0x7F)), m, "{x:#x}");
        }
    }
}
