//! Textures in a `.dp2` capture: a buffer that starts with a small header (this crate's
//! extension; the DDI moves textures by other means). `D3DTSS_TEXTUREMAP` names the buffer.
//!
//! Layout (little-endian u32s): magic `DTX9`, `D3DFORMAT`, width, height, mip levels; then the
//! levels, largest first, level `i` being `max(1, width >> i)` by `max(1, height >> i)` texels,
//! rows top to bottom, tightly packed in the format's memory layout. The buffer holds exactly
//! that many bytes. `docs/DP2.md` has the table of formats.

use crate::named::named_enum;
use thiserror::Error;

/// The magic at the start of a texture buffer.
pub const MAGIC: [u8; 4] = *b"DTX9";
/// Bytes before the first texel.
pub const HEADER_SIZE: usize = 20;
/// The largest width or height (Direct3D 9's largest `MaxTextureWidth`).
pub const MAX_SIDE: u32 = 8192;

named_enum! {
    /// The `D3DFORMAT`s a texture buffer may hold. Channels a format lacks read as 1 (alpha,
    /// and green and blue of one- and two-channel float formats), as Direct3D 9 samples them;
    /// luminance replicates into red, green and blue; A8 reads as (0, 0, 0, a).
    TextureFormat: u32, from_u32 {
        /// 32 bits: bytes B, G, R, A.
        A8R8G8B8 = 21, "A8R8G8B8";
        /// 32 bits: bytes B, G, R, unused (alpha 1).
        X8R8G8B8 = 22, "X8R8G8B8";
        /// 16 bits: red 15-11, green 10-5, blue 4-0.
        R5G6B5 = 23, "R5G6B5";
        /// 8 bits of alpha.
        A8 = 28, "A8";
        /// 32 bits: bytes R, G, B, A.
        A8B8G8R8 = 32, "A8B8G8R8";
        /// 32 bits: bytes R, G, B, unused.
        X8B8G8R8 = 33, "X8B8G8R8";
        /// 8 bits of luminance.
        L8 = 50, "L8";
        /// Bytes L, A.
        A8L8 = 51, "A8L8";
        /// One half float.
        R16F = 111, "R16F";
        /// Two half floats: R, G.
        G16R16F = 112, "G16R16F";
        /// Four half floats: R, G, B, A.
        A16B16G16R16F = 113, "A16B16G16R16F";
        /// One float.
        R32F = 114, "R32F";
        /// Two floats: R, G.
        G32R32F = 115, "G32R32F";
        /// Four floats: R, G, B, A.
        A32B32G32R32F = 116, "A32B32G32R32F";
    }
}

impl TextureFormat {
    /// Bytes per texel.
    pub fn texel_size(self) -> usize {
        use TextureFormat::*;
        match self {
            A8 | L8 => 1,
            R5G6B5 | A8L8 | R16F => 2,
            A8R8G8B8 | X8R8G8B8 | A8B8G8R8 | X8B8G8R8 | G16R16F | R32F => 4,
            A16B16G16R16F | G32R32F => 8,
            A32B32G32R32F => 16,
        }
    }

    /// Reads one texel from exactly `texel_size()` bytes as RGBA.
    pub fn read(self, b: &[u8]) -> [f32; 4] {
        use TextureFormat::*;
        let n = |x: u8| x as f32 / 255.0;
        let h = |i: usize| half::f16::from_le_bytes([b[i], b[i + 1]]).to_f32();
        let f = |i: usize| f32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        match self {
            A8R8G8B8 => [n(b[2]), n(b[1]), n(b[0]), n(b[3])],
            X8R8G8B8 => [n(b[2]), n(b[1]), n(b[0]), 1.0],
            R5G6B5 => {
                let v = u16::from_le_bytes([b[0], b[1]]);
                [
                    (v >> 11) as f32 / 31.0,
                    ((v >> 5) & 63) as f32 / 63.0,
                    (v & 31) as f32 / 31.0,
                    1.0,
                ]
            }
            A8 => [0.0, 0.0, 0.0, n(b[0])],
            A8B8G8R8 => [n(b[0]), n(b[1]), n(b[2]), n(b[3])],
            X8B8G8R8 => [n(b[0]), n(b[1]), n(b[2]), 1.0],
            L8 => [n(b[0]), n(b[0]), n(b[0]), 1.0],
            A8L8 => [n(b[0]), n(b[0]), n(b[0]), n(b[1])],
            R16F => [h(0), 1.0, 1.0, 1.0],
            G16R16F => [h(0), h(2), 1.0, 1.0],
            A16B16G16R16F => [h(0), h(2), h(4), h(6)],
            R32F => [f(0), 1.0, 1.0, 1.0],
            G32R32F => [f(0), f(4), 1.0, 1.0],
            A32B32G32R32F => [f(0), f(4), f(8), f(12)],
        }
    }
}

/// One mip level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// Texels per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// `width * height` texels in the texture's format, rows top to bottom.
    pub bytes: Vec<u8>,
}

/// A texture read from a texture buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Texture {
    /// The texel format.
    pub format: TextureFormat,
    /// The mip levels, largest first (at least one).
    pub levels: Vec<Level>,
}

/// A texture buffer that cannot be read.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("texture buffer byte {offset}: {kind}")]
pub struct TextureError {
    /// Byte offset in the buffer.
    pub offset: usize,
    /// The rule broken.
    pub kind: TextureErrorKind,
}

/// What is wrong with a texture buffer.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum TextureErrorKind {
    /// The buffer does not start with `DTX9`.
    #[error("magic is not DTX9 (a texture buffer starts with the texture header)")]
    BadMagic,
    /// The buffer ends inside the header.
    #[error("the {HEADER_SIZE}-byte header is cut short at {0} bytes")]
    ShortHeader(usize),
    /// A `D3DFORMAT` this crate does not read.
    #[error("D3DFORMAT {0} is not a supported texture format")]
    BadFormat(u32),
    /// Width or height 0 or above the cap.
    #[error("size {width} x {height}: each side must be 1..={MAX_SIDE}")]
    BadSize {
        /// Width.
        width: u32,
        /// Height.
        height: u32,
    },
    /// A level count of 0 or more than the chain has.
    #[error("{levels} mip levels: a {width} x {height} texture has 1..={max}")]
    BadLevels {
        /// Levels given.
        levels: u32,
        /// Width.
        width: u32,
        /// Height.
        height: u32,
        /// Levels in the full chain.
        max: u32,
    },
    /// The buffer's length is not the header plus the levels.
    #[error("the levels need {expected} bytes after the header, the buffer has {found}")]
    WrongLength {
        /// Bytes the levels need.
        expected: u64,
        /// Bytes present after the header.
        found: usize,
    },
}

/// Levels in the full mip chain of a `width` x `height` texture.
pub fn full_chain(width: u32, height: u32) -> u32 {
    32 - width.max(height).max(1).leading_zeros()
}

impl Texture {
    /// Reads a texture buffer.
    pub fn parse(bytes: &[u8]) -> Result<Texture, TextureError> {
        let err = |offset, kind| TextureError { offset, kind };
        if bytes.len() < HEADER_SIZE {
            if bytes.len() >= 4 && bytes[..4] != MAGIC {
                return Err(err(0, TextureErrorKind::BadMagic));
            }
            return Err(err(bytes.len(), TextureErrorKind::ShortHeader(bytes.len())));
        }
        if bytes[..4] != MAGIC {
            return Err(err(0, TextureErrorKind::BadMagic));
        }
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let (raw_format, width, height, levels) = (word(4), word(8), word(12), word(16));
        let format = TextureFormat::from_u32(raw_format)
            .ok_or_else(|| err(4, TextureErrorKind::BadFormat(raw_format)))?;
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return Err(err(8, TextureErrorKind::BadSize { width, height }));
        }
        let max = full_chain(width, height);
        if levels == 0 || levels > max {
            return Err(err(
                16,
                TextureErrorKind::BadLevels {
                    levels,
                    width,
                    height,
                    max,
                },
            ));
        }
        let sizes: Vec<(u32, u32)> = (0..levels)
            .map(|i| ((width >> i).max(1), (height >> i).max(1)))
            .collect();
        let expected: u64 = sizes
            .iter()
            .map(|&(w, h)| w as u64 * h as u64 * format.texel_size() as u64)
            .sum();
        let found = bytes.len() - HEADER_SIZE;
        if expected != found as u64 {
            return Err(err(
                HEADER_SIZE,
                TextureErrorKind::WrongLength { expected, found },
            ));
        }
        let mut at = HEADER_SIZE;
        let levels = sizes
            .into_iter()
            .map(|(width, height)| {
                let n = width as usize * height as usize * format.texel_size();
                let level = Level {
                    width,
                    height,
                    bytes: bytes[at..at + n].to_vec(),
                };
                at += n;
                level
            })
            .collect();
        Ok(Texture { format, levels })
    }

    /// A texture buffer holding `levels` (raw texels, largest first) of a `width` x `height`
    /// texture; [`Texture::parse`] checks it.
    pub fn buffer(
        format: TextureFormat,
        width: u32,
        height: u32,
        levels: u32,
        texels: &[u8],
    ) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_SIZE + texels.len());
        out.extend_from_slice(&MAGIC);
        for w in [format as u32, width, height, levels] {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(texels);
        out
    }

    /// The buffer this texture is read from.
    pub fn to_bytes(&self) -> Vec<u8> {
        let texels: Vec<u8> = self
            .levels
            .iter()
            .flat_map(|l| l.bytes.iter().copied())
            .collect();
        let (w, h) = (self.width(), self.height());
        Texture::buffer(self.format, w, h, self.levels.len() as u32, &texels)
    }

    /// Width of level 0.
    pub fn width(&self) -> u32 {
        self.levels[0].width
    }

    /// Height of level 0.
    pub fn height(&self) -> u32 {
        self.levels[0].height
    }

    /// The texels of one level as RGBA, rows top to bottom (empty past the last level).
    pub fn decode_level(&self, level: usize) -> Vec<[f32; 4]> {
        let size = self.format.texel_size();
        self.levels.get(level).map_or_else(Vec::new, |l| {
            l.bytes
                .chunks_exact(size)
                .map(|t| self.format.read(t))
                .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_a_mip_chain() {
        // 4x2, 2x1, 1x1 of A8R8G8B8.
        let texels: Vec<u8> = (0..(8 + 2 + 1) * 4).map(|i| i as u8).collect();
        let bytes = Texture::buffer(TextureFormat::A8R8G8B8, 4, 2, 3, &texels);
        let t = Texture::parse(&bytes).unwrap();
        assert_eq!(t.levels.len(), 3);
        assert_eq!((t.levels[1].width, t.levels[1].height), (2, 1));
        assert_eq!(t.to_bytes(), bytes);
        assert_eq!(
            t.decode_level(0)[0],
            [2.0 / 255.0, 1.0 / 255.0, 0.0, 3.0 / 255.0]
        );
        assert_eq!(full_chain(4, 2), 3);
        assert_eq!(full_chain(1, 1), 1);
    }

    #[test]
    fn hostile_headers_are_errors() {
        let kind = |b: &[u8]| Texture::parse(b).unwrap_err().kind;
        assert_eq!(kind(b"XXXX"), TextureErrorKind::BadMagic);
        assert_eq!(kind(b"DTX9"), TextureErrorKind::ShortHeader(4));
        let h = |f: u32, w: u32, h: u32, l: u32| {
            Texture::buffer(
                TextureFormat::from_u32(f).unwrap_or(TextureFormat::A8),
                w,
                h,
                l,
                &[],
            )
        };
        let mut bad_format = h(21, 1, 1, 1);
        bad_format[4] = 99;
        assert_eq!(kind(&bad_format), TextureErrorKind::BadFormat(99));
        assert!(matches!(
            kind(&h(21, 0, 1, 1)),
            TextureErrorKind::BadSize { .. }
        ));
        assert!(matches!(
            kind(&h(21, u32::MAX, u32::MAX, 1)),
            TextureErrorKind::BadSize { .. }
        ));
        assert!(matches!(
            kind(&h(21, 4, 4, 4)),
            TextureErrorKind::BadLevels { max: 3, .. }
        ));
        assert_eq!(
            kind(&h(21, 8192, 8192, 14)),
            TextureErrorKind::WrongLength {
                expected: 4 * (0..14).map(|i| (8192u64 >> i).pow(2)).sum::<u64>(),
                found: 0
            }
        );
    }

    #[test]
    fn formats_fill_missing_channels_with_one() {
        assert_eq!(
            TextureFormat::R32F.read(&2.5f32.to_le_bytes()),
            [2.5, 1.0, 1.0, 1.0]
        );
        assert_eq!(TextureFormat::L8.read(&[255]), [1.0, 1.0, 1.0, 1.0]);
        assert_eq!(TextureFormat::A8.read(&[255]), [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(
            TextureFormat::R5G6B5.read(&0xF800u16.to_le_bytes()),
            [1.0, 0.0, 0.0, 1.0]
        );
        for &f in TextureFormat::ALL {
            assert_eq!(TextureFormat::from_name(f.name()), Some(f));
            let zeros = vec![0u8; f.texel_size()];
            assert!(f.read(&zeros).iter().all(|c| c.is_finite()));
        }
    }
}
