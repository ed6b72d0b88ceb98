//! The render target (RGBA8 colour, a 32-bit float depth buffer and an 8-bit stencil buffer), stored tile by tile so
//! that tiles are rendered in parallel without sharing memory, and [`Image`], its pixels in
//! row order, to and from PNG.

use crate::error::RenderError;
use crate::state::{d3dcolor, Viewport};

/// Side of a square tile in pixels (a multiple of 2, so tiles hold whole 2x2 quads).
pub const TILE: u32 = 32;
/// The largest target side (Direct3D 9's largest texture and target size).
pub const MAX_SIDE: u32 = 8192;

/// Reads a target size written `WIDTHxHEIGHT` (or `WIDTHXHEIGHT`), each side 1..=[`MAX_SIDE`];
/// the error says which part is wrong.
pub fn parse_size(s: &str) -> Result<[u32; 2], String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("`{s}` is not WIDTHxHEIGHT"))?;
    let side = |v: &str| -> Result<u32, String> {
        let n: u32 = v
            .trim()
            .parse()
            .map_err(|_| format!("`{v}` is not a whole number"))?;
        if n == 0 || n > MAX_SIDE {
            return Err(format!("{n} is outside 1..={MAX_SIDE}"));
        }
        Ok(n)
    };
    Ok([side(w)?, side(h)?])
}

/// The pixels of one tile.
#[derive(Clone, Debug)]
pub struct Tile {
    /// Left column of the tile.
    pub x: u32,
    /// Top row.
    pub y: u32,
    /// Columns (TILE, or fewer at the right edge).
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// RGBA8 per pixel, rows top to bottom.
    pub color: Vec<[u8; 4]>,
    /// Depth per pixel.
    pub depth: Vec<f32>,
    /// Stencil per pixel.
    pub stencil: Vec<u8>,
}

impl Tile {
    /// The index of pixel (x, y) (target coordinates, inside the tile).
    pub fn index(&self, x: u32, y: u32) -> usize {
        ((y - self.y) * self.width + (x - self.x)) as usize
    }

    /// Clears the part of `rect` {left, top, right, bottom} (right and bottom exclusive) that
    /// falls in this tile.
    pub fn clear(&mut self, rect: [i64; 4], job: &ClearJob) {
        let x0 = rect[0].max(self.x as i64);
        let y0 = rect[1].max(self.y as i64);
        let x1 = rect[2].min((self.x + self.width) as i64);
        let y1 = rect[3].min((self.y + self.height) as i64);
        for y in y0..y1.max(y0) {
            for x in x0..x1.max(x0) {
                let i = self.index(x as u32, y as u32);
                if let Some(c) = job.color {
                    self.color[i] = c;
                }
                if let Some(d) = job.depth {
                    self.depth[i] = d;
                }
                if let Some(s) = job.stencil {
                    self.stencil[i] = s;
                }
            }
        }
    }
}

/// An RGBA8 colour target with a depth and a stencil buffer, cleared to transparent black,
/// depth 1 and stencil 0.
#[derive(Clone, Debug)]
pub struct Target {
    width: u32,
    height: u32,
    tiles: Vec<Tile>,
}

impl Target {
    /// A `width` x `height` target (each side 1..=[`MAX_SIDE`]).
    pub fn new(width: u32, height: u32) -> Result<Target, RenderError> {
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return Err(RenderError::BadTargetSize {
                width,
                height,
                max: MAX_SIDE,
            });
        }
        let mut tiles = Vec::new();
        for y in (0..height).step_by(TILE as usize) {
            for x in (0..width).step_by(TILE as usize) {
                let (w, h) = (TILE.min(width - x), TILE.min(height - y));
                let n = (w * h) as usize;
                tiles.push(Tile {
                    x,
                    y,
                    width: w,
                    height: h,
                    color: vec![[0; 4]; n],
                    depth: vec![1.0; n],
                    stencil: vec![0; n],
                });
            }
        }
        Ok(Target {
            width,
            height,
            tiles,
        })
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Tiles per row.
    pub(crate) fn tiles_across(&self) -> u32 {
        self.width.div_ceil(TILE)
    }

    /// The tiles, mutable (for rendering them in parallel).
    pub(crate) fn tiles_mut(&mut self) -> &mut [Tile] {
        &mut self.tiles
    }

    /// The tile holding pixel (x, y).
    pub(crate) fn tile_of(&self, x: u32, y: u32) -> usize {
        ((y / TILE) * self.tiles_across() + x / TILE) as usize
    }

    /// The colour and depth of pixel (x, y).
    pub fn pixel(&self, x: u32, y: u32) -> ([u8; 4], f32) {
        let t = &self.tiles[self.tile_of(x, y)];
        let i = t.index(x, y);
        (t.color[i], t.depth[i])
    }

    /// The stencil value of pixel (x, y).
    pub fn stencil(&self, x: u32, y: u32) -> u8 {
        let t = &self.tiles[self.tile_of(x, y)];
        t.stencil[t.index(x, y)]
    }

    /// The colour target in row order.
    pub fn image(&self) -> Image {
        let mut pixels = vec![[0u8; 4]; (self.width * self.height) as usize];
        for t in &self.tiles {
            for row in 0..t.height {
                let src = (row * t.width) as usize;
                let dst = ((t.y + row) * self.width + t.x) as usize;
                pixels[dst..dst + t.width as usize]
                    .copy_from_slice(&t.color[src..src + t.width as usize]);
            }
        }
        Image {
            width: self.width,
            height: self.height,
            pixels,
        }
    }
}

/// What a CLEAR asks for, resolved against the viewport: `D3DCLEAR_TARGET` (1) clears colour,
/// `D3DCLEAR_ZBUFFER` (2) depth, `D3DCLEAR_STENCIL` (4) stencil (the value's low 8 bits).
#[derive(Clone, Debug, PartialEq)]
pub struct ClearJob {
    /// The colour, when TARGET is set.
    pub color: Option<[u8; 4]>,
    /// The depth (clamped to 0..1), when ZBUFFER is set.
    pub depth: Option<f32>,
    /// The stencil value, when STENCIL is set.
    pub stencil: Option<u8>,
    /// Rectangles {left, top, right, bottom}: the record's, or the viewport when it has none.
    pub rects: Vec<[i64; 4]>,
}

impl ClearJob {
    /// The clear a CLEAR record asks for within `viewport`, inside `scissor` {left, top, right,
    /// bottom} when the scissor test is on.
    pub fn new(
        clear: &dxso_dp2::command::Clear,
        viewport: &Viewport,
        scissor: Option<[i32; 4]>,
    ) -> ClearJob {
        let rgba = d3dcolor(clear.color).map(|c| (c * 255.0).round() as u8);
        let rects = if clear.rects.is_empty() {
            vec![[
                viewport.x as i64,
                viewport.y as i64,
                (viewport.x + viewport.width) as i64,
                (viewport.y + viewport.height) as i64,
            ]]
        } else {
            clear.rects.iter().map(|r| r.map(i64::from)).collect()
        };
        let rects = match scissor {
            None => rects,
            Some(s) => rects
                .into_iter()
                .map(|r| {
                    [
                        r[0].max(s[0] as i64),
                        r[1].max(s[1] as i64),
                        r[2].min(s[2] as i64),
                        r[3].min(s[3] as i64),
                    ]
                })
                .collect(),
        };
        ClearJob {
            color: (clear.flags & 1 != 0).then_some(rgba),
            depth: (clear.flags & 2 != 0).then(|| {
                if clear.depth.is_nan() {
                    0.0
                } else {
                    clear.depth.clamp(0.0, 1.0)
                }
            }),
            stencil: (clear.flags & 4 != 0).then_some((clear.stencil & 0xFF) as u8),
            rects,
        }
    }

    /// Applies the clear to the part of each rectangle inside `tile`.
    pub fn apply(&self, tile: &mut Tile) {
        for &r in &self.rects {
            tile.clear(r, self);
        }
    }
}

/// RGBA8 pixels in row order, top row first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// `width * height` pixels.
    pub pixels: Vec<[u8; 4]>,
}

impl Image {
    /// The pixel at (x, y).
    pub fn get(&self, x: u32, y: u32) -> [u8; 4] {
        self.pixels[(y * self.width + x) as usize]
    }

    /// The image as a PNG file (8-bit RGBA).
    pub fn to_png(&self) -> Result<Vec<u8>, RenderError> {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, self.width, self.height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let png_error = |e: png::EncodingError| RenderError::Png(e.to_string());
        let mut writer = encoder.write_header().map_err(png_error)?;
        let bytes: Vec<u8> = self.pixels.iter().flatten().copied().collect();
        writer.write_image_data(&bytes).map_err(png_error)?;
        writer.finish().map_err(png_error)?;
        Ok(out)
    }

    /// Reads an 8-bit RGBA or RGB PNG (the golden images).
    pub fn from_png(bytes: &[u8]) -> Result<Image, RenderError> {
        let png_error = |e: png::DecodingError| RenderError::Png(e.to_string());
        let mut reader = png::Decoder::new(bytes).read_info().map_err(png_error)?;
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).map_err(png_error)?;
        if info.bit_depth != png::BitDepth::Eight {
            return Err(RenderError::Png("only 8-bit PNGs are read".into()));
        }
        let channels = match info.color_type {
            png::ColorType::Rgba => 4,
            png::ColorType::Rgb => 3,
            _ => return Err(RenderError::Png("only RGB and RGBA PNGs are read".into())),
        };
        let pixels = buf[..info.buffer_size()]
            .chunks_exact(channels)
            .map(|p| [p[0], p[1], p[2], if channels == 4 { p[3] } else { 255 }])
            .collect();
        Ok(Image {
            width: info.width,
            height: info.height,
            pixels,
        })
    }
}
