//! Reading DirectDraw Surface files (`.dds`, Direct3D 9's texture container) into a
//! [`Texture`]: uncompressed RGBA8 (A8R8G8B8, A8B8G8R8, X8R8G8B8, X8B8G8R8) and the float
//! formats R16F, A16B16G16R16F, R32F, G32R32F, A32B32G32R32F; 2D textures, cube maps (all six
//! faces) and volumes, with their mip levels.
//!
//! Every size and offset is checked against the bytes present before anything is copied.

use crate::texture::{Dimension, Format, MipLevel, Texture, TextureError};
use thiserror::Error;

/// Why a `.dds` file could not be read.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DdsError {
    /// The file does not start with `DDS ` and a 124-byte header.
    #[error("not a DDS file (no `DDS ` magic and 124-byte header)")]
    NotDds,
    /// The pixel format is not one this reader takes.
    #[error("unsupported DDS pixel format ({0}); uncompressed RGBA8 and R16F, A16B16G16R16F, R32F, G32R32F, A32B32G32R32F are read")]
    UnsupportedFormat(String),
    /// A cube map without all six faces.
    #[error("cube map with only some faces (caps2 {0:#x}); all six are needed")]
    PartialCube(u32),
    /// The file ends before the data its header describes.
    #[error(
        "the header describes {expected} bytes of texel data at byte 128, the file has {found}"
    )]
    Truncated {
        /// Bytes needed after the header.
        expected: u64,
        /// Bytes present after the header.
        found: u64,
    },
    /// The sizes do not make a texture.
    #[error(transparent)]
    Texture(#[from] TextureError),
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// How a pixel format's texels are stored, and how to turn them into a [`Format`]'s bytes.
#[derive(Clone, Copy)]
enum Layout {
    /// 32-bit texels with bit masks of R, G, B and A (A 0: opaque).
    Masked { r: u32, g: u32, b: u32, a: u32 },
    /// Stored as the format itself.
    Native(Format),
    /// Two f16 (G16R16F): widened to RGBA16F with blue and alpha 1.
    Rg16,
}

impl Layout {
    fn bytes_per_texel(self) -> u64 {
        match self {
            Layout::Masked { .. } | Layout::Rg16 => 4,
            Layout::Native(f) => f.texel_size() as u64,
        }
    }

    fn format(self) -> Format {
        match self {
            Layout::Masked { .. } => Format::Rgba8Unorm,
            Layout::Native(f) => f,
            Layout::Rg16 => Format::Rgba16Float,
        }
    }

    fn convert(self, src: &[u8]) -> Vec<u8> {
        match self {
            Layout::Native(_) => src.to_vec(),
            Layout::Masked { r, g, b, a } => {
                let channel = |t: u32, mask: u32| -> u8 {
                    if mask == 0 {
                        return 255;
                    }
                    ((t & mask) >> mask.trailing_zeros()) as u8
                };
                src.chunks_exact(4)
                    .flat_map(|t| {
                        let t = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
                        [channel(t, r), channel(t, g), channel(t, b), channel(t, a)]
                    })
                    .collect()
            }
            Layout::Rg16 => {
                let one = half::f16::from_f32(1.0).to_le_bytes();
                src.chunks_exact(4)
                    .flat_map(|t| [t[0], t[1], t[2], t[3], one[0], one[1], one[0], one[1]])
                    .collect()
            }
        }
    }
}

fn layout(b: &[u8]) -> Result<Layout, DdsError> {
    let flags = u32_at(b, 80);
    let fourcc = u32_at(b, 84);
    if flags & 0x4 != 0 {
        return Ok(match fourcc {
            111 => Layout::Native(Format::R16Float),
            112 => Layout::Rg16,
            113 => Layout::Native(Format::Rgba16Float),
            114 => Layout::Native(Format::R32Float),
            115 => Layout::Native(Format::Rg32Float),
            116 => Layout::Native(Format::Rgba32Float),
            _ => {
                let text: String = fourcc
                    .to_le_bytes()
                    .iter()
                    .map(|&c| if c.is_ascii_graphic() { c as char } else { '?' })
                    .collect();
                return Err(DdsError::UnsupportedFormat(format!(
                    "FourCC `{text}` ({fourcc})"
                )));
            }
        });
    }
    let bits = u32_at(b, 88);
    let (r, g, bl, a) = (u32_at(b, 92), u32_at(b, 96), u32_at(b, 100), u32_at(b, 104));
    let a = if flags & 0x1 != 0 { a } else { 0 };
    let byte_masks = [0xFF, 0xFF00, 0xFF_0000, 0xFF00_0000];
    let ok = |m: u32| m == 0 || byte_masks.contains(&m);
    if flags & 0x40 != 0 && bits == 32 && [r, g, bl].iter().all(|&m| m != 0 && ok(m)) && ok(a) {
        return Ok(Layout::Masked { r, g, b: bl, a });
    }
    Err(DdsError::UnsupportedFormat(format!(
        "{bits}-bit RGB masks {r:#x} {g:#x} {bl:#x} {a:#x}, flags {flags:#x}"
    )))
}

/// Reads a `.dds` file.
pub fn read(bytes: &[u8]) -> Result<Texture, DdsError> {
    if bytes.len() < 128 || &bytes[..4] != b"DDS " || u32_at(bytes, 4) != 124 {
        return Err(DdsError::NotDds);
    }
    let height = u32_at(bytes, 12);
    let width = u32_at(bytes, 16);
    let flags = u32_at(bytes, 8);
    let depth = if flags & 0x80_0000 != 0 {
        u32_at(bytes, 24).max(1)
    } else {
        1
    };
    let mips = u32_at(bytes, 28).max(1);
    let caps2 = u32_at(bytes, 112);
    let layout = layout(bytes)?;
    let (dimension, faces) = if caps2 & 0x200 != 0 {
        if caps2 & 0xFC00 != 0xFC00 {
            return Err(DdsError::PartialCube(caps2));
        }
        (Dimension::Cube, 6u64)
    } else if caps2 & 0x20_0000 != 0 {
        (Dimension::Volume, 1)
    } else {
        (Dimension::D2, 1)
    };
    let max = Texture::MAX_SIZE;
    if width == 0 || height == 0 || width > max || height > max || depth > max {
        return Err(TextureError::BadSize {
            level: 0,
            width,
            height,
            depth,
            max,
        }
        .into());
    }
    let volume = dimension == Dimension::Volume;
    let chain = 1 + width
        .max(height)
        .max(if volume { depth } else { 1 })
        .ilog2();
    let mips = mips.min(chain);
    let level_size = |i: u32| -> (u32, u32, u32) {
        let d = if volume { (depth >> i).max(1) } else { 1 };
        ((width >> i).max(1), (height >> i).max(1), d)
    };
    let per_face: u64 = (0..mips)
        .map(|i| {
            let (w, h, d) = level_size(i);
            w as u64 * h as u64 * d as u64 * layout.bytes_per_texel()
        })
        .sum();
    let data = &bytes[128..];
    let expected = per_face * faces;
    if (data.len() as u64) < expected {
        return Err(DdsError::Truncated {
            expected,
            found: data.len() as u64,
        });
    }
    // Cube files store face by face (each with its mips); levels hold the six faces.
    let mut levels: Vec<MipLevel> = (0..mips)
        .map(|i| {
            let (w, h, d) = level_size(i);
            MipLevel {
                width: w,
                height: h,
                depth: if faces == 6 { 6 } else { d },
                data: Vec::new(),
            }
        })
        .collect();
    let mut at = 0usize;
    for _ in 0..faces {
        for (i, level) in levels.iter_mut().enumerate() {
            let (w, h, d) = level_size(i as u32);
            let n = (w as u64 * h as u64 * d as u64 * layout.bytes_per_texel()) as usize;
            level.data.extend(layout.convert(&data[at..at + n]));
            at += n;
        }
    }
    Ok(Texture::new(dimension, layout.format(), levels)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(w: u32, h: u32, mips: u32, pf: [u32; 8], caps2: u32, depth: u32) -> Vec<u8> {
        let mut b = vec![0u8; 128];
        b[..4].copy_from_slice(b"DDS ");
        let mut put = |at: usize, v: u32| b[at..at + 4].copy_from_slice(&v.to_le_bytes());
        put(4, 124);
        put(8, 0x1007 | if depth > 1 { 0x80_0000 } else { 0 });
        put(12, h);
        put(16, w);
        put(24, depth);
        put(28, mips);
        for (i, v) in pf.iter().enumerate() {
            put(76 + 4 * i, *v);
        }
        put(112, caps2);
        b
    }

    const ARGB8: [u32; 8] = [32, 0x41, 0, 32, 0xFF_0000, 0xFF00, 0xFF, 0xFF00_0000];

    #[test]
    fn argb8_with_mips() {
        let mut f = header(2, 2, 2, ARGB8, 0, 1);
        // B, G, R, A bytes of A8R8G8B8.
        for _ in 0..4 {
            f.extend([10, 20, 30, 40]);
        }
        f.extend([1, 2, 3, 4]);
        let t = read(&f).unwrap();
        assert_eq!(t.levels().len(), 2);
        assert_eq!(t.levels()[0].data[..4], [30, 20, 10, 40]);
        assert_eq!(t.levels()[1].data, vec![3, 2, 1, 4]);
    }

    #[test]
    fn float_cube() {
        let mut f = header(1, 1, 1, [32, 0x4, 114, 0, 0, 0, 0, 0], 0xFE00, 1);
        for face in 0..6 {
            f.extend((face as f32).to_le_bytes());
        }
        let t = read(&f).unwrap();
        assert_eq!(t.dimension(), Dimension::Cube);
        assert_eq!(t.texel(0, 0, 0, 5), [5.0, 1.0, 1.0, 1.0]);
    }

    #[test]
    fn hostile_headers() {
        assert_eq!(read(b"DDS "), Err(DdsError::NotDds));
        let f = header(4096, 4096, 1, ARGB8, 0, 1);
        assert!(matches!(read(&f), Err(DdsError::Truncated { .. })));
        let f = header(0, 4, 1, ARGB8, 0, 1);
        assert!(matches!(read(&f), Err(DdsError::Texture(_))));
        let f = header(4, 4, 1, [32, 0x4, 0x3154_5844, 0, 0, 0, 0, 0], 0, 1);
        assert!(matches!(read(&f), Err(DdsError::UnsupportedFormat(_))));
        let f = header(1, 1, 1, ARGB8, 0x600, 1);
        assert_eq!(read(&f), Err(DdsError::PartialCube(0x600)));
        // An absurd mip count is cut to the chain length.
        let mut f = header(1, 1, 1000, ARGB8, 0, 1);
        f.extend([0; 4]);
        assert_eq!(read(&f).unwrap().levels().len(), 1);
    }
}
