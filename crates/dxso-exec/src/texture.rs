//! Textures as plain data users fill: 2D, cube and volume images with mip chains, in the formats
//! of `docs/SEMANTICS.md` section 12.1.

use thiserror::Error;

/// The kind of image a texture holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dimension {
    /// A 2D image.
    D2,
    /// Six square faces, in the order +X, -X, +Y, -Y, +Z, -Z.
    Cube,
    /// A 3D image.
    Volume,
}

impl Dimension {
    /// The dimension a sampler declaration names (`dcl_2d`, `dcl_cube`, `dcl_volume`).
    pub fn from_declared(ty: dxso::TextureType) -> Option<Self> {
        match ty {
            dxso::TextureType::Texture2D => Some(Dimension::D2),
            dxso::TextureType::Cube => Some(Dimension::Cube),
            dxso::TextureType::Volume => Some(Dimension::Volume),
            _ => None,
        }
    }

    /// `2d`, `cube` or `volume`.
    pub fn name(self) -> &'static str {
        match self {
            Dimension::D2 => "2d",
            Dimension::Cube => "cube",
            Dimension::Volume => "volume",
        }
    }
}

/// How texels are stored, and what they read as (section 12.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Four bytes R, G, B, A; reads `byte / 255` (sRGB-decoded when the sampler says so).
    Rgba8Unorm,
    /// One `f32`; reads `(r, 1, 1, 1)`.
    R32Float,
    /// Two `f32`; reads `(r, g, 1, 1)`.
    Rg32Float,
    /// Four `f32`.
    Rgba32Float,
    /// One binary16; reads `(r, 1, 1, 1)`.
    R16Float,
    /// Four binary16.
    Rgba16Float,
}

impl Format {
    /// Bytes per texel.
    pub const fn texel_size(self) -> usize {
        match self {
            Format::Rgba8Unorm | Format::R32Float => 4,
            Format::Rg32Float | Format::Rgba16Float => 8,
            Format::Rgba32Float => 16,
            Format::R16Float => 2,
        }
    }

    /// Decodes the texel at the start of `bytes` (which holds at least one texel).
    #[inline]
    pub fn decode(self, bytes: &[u8]) -> [f32; 4] {
        let f32_at = |i: usize| {
            f32::from_le_bytes([
                bytes[4 * i],
                bytes[4 * i + 1],
                bytes[4 * i + 2],
                bytes[4 * i + 3],
            ])
        };
        let f16_at = |i: usize| half::f16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]).to_f32();
        match self {
            Format::Rgba8Unorm => [
                bytes[0] as f32 / 255.0,
                bytes[1] as f32 / 255.0,
                bytes[2] as f32 / 255.0,
                bytes[3] as f32 / 255.0,
            ],
            Format::R32Float => [f32_at(0), 1.0, 1.0, 1.0],
            Format::Rg32Float => [f32_at(0), f32_at(1), 1.0, 1.0],
            Format::Rgba32Float => [f32_at(0), f32_at(1), f32_at(2), f32_at(3)],
            Format::R16Float => [f16_at(0), 1.0, 1.0, 1.0],
            Format::Rgba16Float => [f16_at(0), f16_at(1), f16_at(2), f16_at(3)],
        }
    }

    /// Encodes a texel (the inverse of [`Format::decode`] for the components stored; RGBA8
    /// rounds to the nearest byte after clamping to [0, 1]).
    pub fn encode(self, texel: [f32; 4], out: &mut [u8]) {
        let put32 = |out: &mut [u8], i: usize, v: f32| {
            out[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
        };
        let put16 = |out: &mut [u8], i: usize, v: f32| {
            out[2 * i..2 * i + 2].copy_from_slice(&half::f16::from_f32(v).to_le_bytes());
        };
        match self {
            Format::Rgba8Unorm => {
                for (o, v) in out.iter_mut().zip(texel) {
                    *o = (crate::math::saturate(v) * 255.0 + 0.5) as u8;
                }
            }
            Format::R32Float => put32(out, 0, texel[0]),
            Format::Rg32Float => (0..2).for_each(|i| put32(out, i, texel[i])),
            Format::Rgba32Float => (0..4).for_each(|i| put32(out, i, texel[i])),
            Format::R16Float => put16(out, 0, texel[0]),
            Format::Rgba16Float => (0..4).for_each(|i| put16(out, i, texel[i])),
        }
    }

    /// The name used on the command line and in messages (`rgba8`, `r32f`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Format::Rgba8Unorm => "rgba8",
            Format::R32Float => "r32f",
            Format::Rg32Float => "rg32f",
            Format::Rgba32Float => "rgba32f",
            Format::R16Float => "r16f",
            Format::Rgba16Float => "rgba16f",
        }
    }
}

/// One mip level: `width x height x depth` texels, tightly packed, x fastest, then y, then z
/// (for a cube, `depth` is 6: the faces).
#[derive(Clone, Debug, PartialEq)]
pub struct MipLevel {
    /// Texels per row.
    pub width: u32,
    /// Rows per image.
    pub height: u32,
    /// Images (volume slices, or the 6 cube faces).
    pub depth: u32,
    /// The texel bytes.
    pub data: Vec<u8>,
}

/// Why a texture could not be built.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum TextureError {
    /// No mip level was given.
    #[error("a texture needs at least one mip level")]
    NoLevels,
    /// More levels than a chain from the top level's size has.
    #[error("{levels} mip levels given, but a {width}x{height}x{depth} texture has at most {max}")]
    TooManyLevels {
        /// Levels given.
        levels: usize,
        /// The most a chain can have.
        max: usize,
        /// Top level width.
        width: u32,
        /// Top level height.
        height: u32,
        /// Top level depth.
        depth: u32,
    },
    /// A size is zero or beyond [`Texture::MAX_SIZE`].
    #[error("level {level}: size {width}x{height}x{depth} is outside 1..={max} per dimension")]
    BadSize {
        /// The level.
        level: usize,
        /// Its width.
        width: u32,
        /// Its height.
        height: u32,
        /// Its depth.
        depth: u32,
        /// [`Texture::MAX_SIZE`].
        max: u32,
    },
    /// A level is not half its predecessor (rounded down, at least 1), or a cube is not square
    /// with 6 faces, or a 2D texture has depth other than 1.
    #[error("level {level}: size {found:?} does not follow the chain (expected {expected:?})")]
    ChainSize {
        /// The level.
        level: usize,
        /// The size it should have.
        expected: [u32; 3],
        /// The size it has.
        found: [u32; 3],
    },
    /// The data length does not match the size and format.
    #[error("level {level}: {found} bytes of data, {expected} expected for its size and format")]
    DataLength {
        /// The level.
        level: usize,
        /// Bytes the size and format need.
        expected: usize,
        /// Bytes given.
        found: usize,
    },
}

/// A texture: dimension, format and a mip chain (level 0 the largest).
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    dimension: Dimension,
    format: Format,
    levels: Vec<MipLevel>,
}

impl Texture {
    /// The largest size per dimension (Direct3D 9's largest texture).
    pub const MAX_SIZE: u32 = 16384;

    /// A texture from its levels; every size and length is checked.
    pub fn new(
        dimension: Dimension,
        format: Format,
        levels: Vec<MipLevel>,
    ) -> Result<Self, TextureError> {
        let top = levels.first().ok_or(TextureError::NoLevels)?;
        let (w0, h0, d0) = (top.width, top.height, top.depth);
        let slices = |d: u32| if dimension == Dimension::Volume { d } else { 1 };
        let max_levels = 1 + (w0.max(h0).max(slices(d0)).max(1)).ilog2() as usize;
        if levels.len() > max_levels {
            return Err(TextureError::TooManyLevels {
                levels: levels.len(),
                max: max_levels,
                width: w0,
                height: h0,
                depth: d0,
            });
        }
        for (i, level) in levels.iter().enumerate() {
            let (w, h, d) = (level.width, level.height, level.depth);
            if [w, h, d].iter().any(|&s| s == 0 || s > Self::MAX_SIZE) {
                return Err(TextureError::BadSize {
                    level: i,
                    width: w,
                    height: h,
                    depth: d,
                    max: Self::MAX_SIZE,
                });
            }
            let half = |s: u32| (s >> i).max(1);
            let expected = match dimension {
                Dimension::D2 => [half(w0), half(h0), 1],
                Dimension::Cube => [half(w0), half(w0), 6],
                Dimension::Volume => [half(w0), half(h0), half(d0)],
            };
            if [w, h, d] != expected {
                return Err(TextureError::ChainSize {
                    level: i,
                    expected,
                    found: [w, h, d],
                });
            }
            let need = w as usize * h as usize * d as usize * format.texel_size();
            if level.data.len() != need {
                return Err(TextureError::DataLength {
                    level: i,
                    expected: need,
                    found: level.data.len(),
                });
            }
        }
        Ok(Texture {
            dimension,
            format,
            levels,
        })
    }

    /// A 2D texture with one level.
    pub fn new_2d(
        format: Format,
        width: u32,
        height: u32,
        data: Vec<u8>,
    ) -> Result<Self, TextureError> {
        Texture::new(
            Dimension::D2,
            format,
            vec![MipLevel {
                width,
                height,
                depth: 1,
                data,
            }],
        )
    }

    /// The same texture with its mip chain regenerated from level 0 down to 1x1 (a 2x2 box
    /// filter on the decoded texels, and a 2x2x2 box for volumes).
    pub fn with_mip_chain(mut self) -> Self {
        self.levels.truncate(1);
        loop {
            let prev = self.levels.last().expect("level 0 exists");
            let volume = self.dimension == Dimension::Volume;
            if prev.width == 1 && prev.height == 1 && (!volume || prev.depth == 1) {
                break;
            }
            let (w, h) = ((prev.width / 2).max(1), (prev.height / 2).max(1));
            let d = if volume {
                (prev.depth / 2).max(1)
            } else {
                prev.depth
            };
            let size = self.format.texel_size();
            let mut data = vec![0u8; w as usize * h as usize * d as usize * size];
            for z in 0..d {
                for y in 0..h {
                    for x in 0..w {
                        let mut sum = [0f32; 4];
                        let mut n = 0.0;
                        let zs: &[u32] = if volume { &[0, 1] } else { &[0] };
                        for &dz in zs {
                            for dy in 0..2 {
                                for dx in 0..2 {
                                    let sx = (2 * x + dx).min(prev.width - 1);
                                    let sy = (2 * y + dy).min(prev.height - 1);
                                    let sz = if volume {
                                        (2 * z + dz).min(prev.depth - 1)
                                    } else {
                                        z
                                    };
                                    let i = ((sz as usize * prev.height as usize + sy as usize)
                                        * prev.width as usize
                                        + sx as usize)
                                        * size;
                                    let t = self.format.decode(&prev.data[i..]);
                                    for c in 0..4 {
                                        sum[c] += t[c];
                                    }
                                    n += 1.0;
                                }
                            }
                        }
                        let o = ((z as usize * h as usize + y as usize) * w as usize + x as usize)
                            * size;
                        self.format
                            .encode(sum.map(|s| s / n), &mut data[o..o + size]);
                    }
                }
            }
            self.levels.push(MipLevel {
                width: w,
                height: h,
                depth: d,
                data,
            });
        }
        self
    }

    /// The dimension.
    pub fn dimension(&self) -> Dimension {
        self.dimension
    }

    /// The format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The mip levels, largest first.
    pub fn levels(&self) -> &[MipLevel] {
        &self.levels
    }

    /// The texel at `(x, y, z)` of `level` (all in range: the sampler addresses first).
    #[inline]
    pub fn texel(&self, level: usize, x: u32, y: u32, z: u32) -> [f32; 4] {
        let l = &self.levels[level];
        let i = ((z as usize * l.height as usize + y as usize) * l.width as usize + x as usize)
            * self.format.texel_size();
        self.format.decode(&l.data[i..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_checked() {
        assert!(Texture::new_2d(Format::Rgba8Unorm, 2, 2, vec![0; 16]).is_ok());
        assert_eq!(
            Texture::new_2d(Format::Rgba8Unorm, 2, 2, vec![0; 15]),
            Err(TextureError::DataLength {
                level: 0,
                expected: 16,
                found: 15
            })
        );
        assert!(matches!(
            Texture::new_2d(Format::R32Float, 0, 2, vec![]),
            Err(TextureError::BadSize { .. })
        ));
        let bad_chain = vec![
            MipLevel {
                width: 4,
                height: 4,
                depth: 1,
                data: vec![0; 64],
            },
            MipLevel {
                width: 1,
                height: 1,
                depth: 1,
                data: vec![0; 4],
            },
        ];
        assert!(matches!(
            Texture::new(Dimension::D2, Format::Rgba8Unorm, bad_chain),
            Err(TextureError::ChainSize { level: 1, .. })
        ));
        let cube = MipLevel {
            width: 2,
            height: 2,
            depth: 6,
            data: vec![0; 2 * 2 * 6 * 4],
        };
        assert!(Texture::new(Dimension::Cube, Format::Rgba8Unorm, vec![cube]).is_ok());
    }

    #[test]
    fn formats_decode() {
        assert_eq!(
            Format::Rgba8Unorm.decode(&[255, 0, 51, 255]),
            [1.0, 0.0, 0.2, 1.0]
        );
        let r = 0.5f32.to_le_bytes();
        assert_eq!(Format::R32Float.decode(&r), [0.5, 1.0, 1.0, 1.0]);
        let h = half::f16::from_f32(0.25).to_le_bytes();
        assert_eq!(Format::R16Float.decode(&h), [0.25, 1.0, 1.0, 1.0]);
        let mut rg = Vec::new();
        rg.extend(2.0f32.to_le_bytes());
        rg.extend(3.0f32.to_le_bytes());
        assert_eq!(Format::Rg32Float.decode(&rg), [2.0, 3.0, 1.0, 1.0]);
    }

    #[test]
    fn mip_chain_averages() {
        let data = [
            0u8, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 0,
        ]
        .to_vec();
        let t = Texture::new_2d(Format::Rgba8Unorm, 2, 2, data)
            .unwrap()
            .with_mip_chain();
        assert_eq!(t.levels().len(), 2);
        assert_eq!(t.levels()[1].data, vec![128, 128, 128, 128]);
    }
}
