//! Little-endian words at byte positions, with the absolute file offset kept for errors.

use crate::error::{FxError, FxErrorKind};

/// A forward reader over a byte slice that starts at absolute offset `base` in the file.
pub(crate) struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    base: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(bytes: &'a [u8], base: usize) -> Self {
        Cursor {
            bytes,
            pos: 0,
            base,
        }
    }

    /// Absolute file offset of the next byte.
    pub(crate) fn offset(&self) -> usize {
        self.base + self.pos
    }

    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    fn truncated(&self, what: &'static str, needed: u64) -> FxError {
        FxError::new(
            self.offset(),
            FxErrorKind::Truncated {
                what,
                needed,
                available: self.remaining(),
            },
        )
    }

    pub(crate) fn u32(&mut self, what: &'static str) -> Result<u32, FxError> {
        let b = self.take(what, 4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// `len` bytes; the length is checked against what is left before anything is copied.
    pub(crate) fn take(&mut self, what: &'static str, len: u64) -> Result<&'a [u8], FxError> {
        if len > self.remaining() as u64 {
            return Err(self.truncated(what, len));
        }
        let start = self.pos;
        self.pos += len as usize;
        Ok(&self.bytes[start..self.pos])
    }

    /// Reads a count of records that take at least `size` bytes each and checks that they
    /// could still follow, so that a count never sizes an allocation larger than the input.
    /// The error names the offset of the count.
    pub(crate) fn count(&mut self, what: &'static str, size: u64) -> Result<u32, FxError> {
        let at = self.offset();
        let count = self.u32(what)?;
        self.ensure_at(at, what, count, size)?;
        Ok(count)
    }

    /// Checks that `count` records of `size` bytes could still follow; errors name `at`.
    pub(crate) fn ensure_at(
        &self,
        at: usize,
        what: &'static str,
        count: u32,
        size: u64,
    ) -> Result<(), FxError> {
        let needed = count as u64 * size;
        if needed > self.remaining() as u64 {
            return Err(FxError::new(
                at,
                FxErrorKind::Truncated {
                    what,
                    needed,
                    available: self.remaining(),
                },
            ));
        }
        Ok(())
    }

    /// [`Cursor::ensure_at`] at the current offset.
    pub(crate) fn ensure(&self, what: &'static str, count: u32, size: u64) -> Result<(), FxError> {
        self.ensure_at(self.offset(), what, count, size)
    }
}

/// The word at byte `at` of `bytes`, if four bytes are there.
pub(crate) fn word_at(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Little-endian bytes to words (the length must be a multiple of 4).
pub(crate) fn to_words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Words to little-endian bytes.
pub(crate) fn to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Appends `w` little-endian.
pub(crate) fn put(out: &mut Vec<u8>, w: u32) {
    out.extend_from_slice(&w.to_le_bytes());
}

/// Padding bytes after `size` bytes of object data.
pub(crate) fn pad(size: u32) -> u64 {
    ((4 - size % 4) % 4) as u64
}
