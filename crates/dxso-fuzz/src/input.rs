//! Shapes of fuzz inputs that keep every length useful: bytecode padded to whole DWORDs, and
//! a part prefixed by its length followed by bytes that drive the rest of a target.

use std::borrow::Cow;

/// `data` padded with zero bytes to a multiple of four, so that libFuzzer's byte insertions
/// and erasures still give a token stream instead of a length error.
pub fn padded(data: &[u8]) -> Cow<'_, [u8]> {
    match data.len() % 4 {
        0 => Cow::Borrowed(data),
        r => {
            let mut v = Vec::with_capacity(data.len() + 4 - r);
            v.extend_from_slice(data);
            v.resize(data.len() + 4 - r, 0);
            Cow::Owned(v)
        }
    }
}

/// Splits `[length: u16 LE][length bytes][rest]`; a length past the end takes what there is.
pub fn length_prefixed(data: &[u8]) -> (&[u8], &[u8]) {
    let Some((len, rest)) = data.split_first_chunk::<2>() else {
        return (&[], &[]);
    };
    let len = usize::from(u16::from_le_bytes(*len)).min(rest.len());
    rest.split_at(len)
}

/// The inverse of [`length_prefixed`] (for seeds): `part` (at most 65535 bytes) and `rest`.
pub fn prefix_length(part: &[u8], rest: &[u8]) -> Vec<u8> {
    let len = u16::try_from(part.len()).expect("a seed part fits a u16 length");
    let mut v = Vec::with_capacity(2 + part.len() + rest.len());
    v.extend_from_slice(&len.to_le_bytes());
    v.extend_from_slice(part);
    v.extend_from_slice(rest);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_reaches_whole_dwords() {
        for n in 0..9 {
            let data = vec![7u8; n];
            let p = padded(&data);
            assert_eq!(p.len() % 4, 0);
            assert_eq!(&p[..n], &data[..]);
            assert!(p[n..].iter().all(|&b| b == 0));
            assert!(p.len() < n + 4);
        }
    }

    #[test]
    fn length_prefixes_round_trip_and_clamp() {
        let v = prefix_length(b"abc", b"xy");
        assert_eq!(length_prefixed(&v), (&b"abc"[..], &b"xy"[..]));
        assert_eq!(length_prefixed(&[9, 0, 1, 2]), (&[1u8, 2][..], &[][..]));
        assert_eq!(length_prefixed(&[1]), (&[][..], &[][..]));
    }
}
