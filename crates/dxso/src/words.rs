//! DWORD streams as the little-endian bytes of a file, and the comment token: what the
//! encoder and the comment-block tables both write.

use std::borrow::Cow;

/// DWORDs as little-endian bytes (the mirror of [`crate::decode::words_of`]): borrowed on
/// little-endian machines, where the DWORDs in memory already are those bytes.
pub fn le_bytes_of(words: &[u32]) -> Cow<'_, [u8]> {
    if cfg!(target_endian = "little") {
        Cow::Borrowed(bytemuck::cast_slice(words))
    } else {
        Cow::Owned(words.iter().flat_map(|w| w.to_le_bytes()).collect())
    }
}

/// The comment token for a payload of `len` DWORDs (15 bits; longer payloads cannot be encoded
/// and are cut to the field by the mask).
pub const fn comment_token(len: usize) -> u32 {
    0xFFFE | ((len as u32 & 0x7FFF) << 16)
}
