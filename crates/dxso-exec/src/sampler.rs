//! Sampler and texture stage state, and sampling (`docs/SEMANTICS.md` section 12).
//!
//! [`sample`] is one texel lookup with a known level of detail; [`sample_lanes`] is the same over
//! arrays of lanes (coordinates in structure-of-arrays form, derivatives from 2x2 quads), the
//! form the interpreter and a JIT call.

use crate::texture::{Dimension, Texture};
use std::sync::Arc;
use thiserror::Error;

/// `D3DTEXTUREADDRESS`: what a coordinate outside [0, 1] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum AddressMode {
    /// Repeat (`D3DTADDRESS_WRAP`, the default).
    #[default]
    Wrap = 1,
    /// Repeat mirrored.
    Mirror = 2,
    /// Clamp to the edge texel.
    Clamp = 3,
    /// Outside reads the border colour.
    Border = 4,
    /// Mirror once around 0, then clamp.
    MirrorOnce = 5,
}

/// `D3DTEXTUREFILTERTYPE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Filter {
    /// No filtering (as a mip filter: use one level).
    #[default]
    None = 0,
    /// Nearest texel / nearest level.
    Point = 1,
    /// Linear blend.
    Linear = 2,
    /// Anisotropic: filters as linear.
    Anisotropic = 3,
    /// Pyramidal quad: filters as linear.
    PyramidalQuad = 6,
    /// Gaussian quad: filters as linear.
    GaussianQuad = 7,
}

impl Filter {
    fn is_point(self) -> bool {
        matches!(self, Filter::None | Filter::Point)
    }
}

/// The sampler states (`D3DSAMPLERSTATETYPE`) a shader's sampling depends on. The defaults are
/// Direct3D 9's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SamplerState {
    /// `D3DSAMP_ADDRESSU`.
    pub address_u: AddressMode,
    /// `D3DSAMP_ADDRESSV`.
    pub address_v: AddressMode,
    /// `D3DSAMP_ADDRESSW`.
    pub address_w: AddressMode,
    /// `D3DSAMP_BORDERCOLOR`, a `D3DCOLOR` (`0xAARRGGBB`).
    pub border_color: u32,
    /// `D3DSAMP_MAGFILTER` (default point).
    pub mag_filter: Filter,
    /// `D3DSAMP_MINFILTER` (default point).
    pub min_filter: Filter,
    /// `D3DSAMP_MIPFILTER` (default none).
    pub mip_filter: Filter,
    /// `D3DSAMP_MIPMAPLODBIAS`.
    pub mip_lod_bias: f32,
    /// `D3DSAMP_MAXMIPLEVEL`: the most detailed level sampling may use.
    pub max_mip_level: u32,
    /// `D3DSAMP_SRGBTEXTURE`: decode RGBA8 colour from sRGB.
    pub srgb_texture: bool,
}

impl Default for SamplerState {
    fn default() -> Self {
        SamplerState {
            address_u: AddressMode::Wrap,
            address_v: AddressMode::Wrap,
            address_w: AddressMode::Wrap,
            border_color: 0,
            mag_filter: Filter::Point,
            min_filter: Filter::Point,
            mip_filter: Filter::None,
            mip_lod_bias: 0.0,
            max_mip_level: 0,
            srgb_texture: false,
        }
    }
}

/// A sampler state name or value that [`SamplerState::set`] does not know.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SamplerStateError {
    /// Not one of the `D3DSAMPLERSTATETYPE` names this crate reads.
    #[error("unknown sampler state `{0}` (expected addressu, addressv, addressw, bordercolor, magfilter, minfilter, mipfilter, mipmaplodbias, maxmiplevel or srgbtexture)")]
    UnknownState(String),
    /// The value does not fit the state.
    #[error("sampler state `{state}`: bad value `{value}` ({expected})")]
    BadValue {
        /// The state.
        state: String,
        /// The value given.
        value: String,
        /// What the state takes.
        expected: &'static str,
    },
}

impl SamplerState {
    /// Sets one state from its `D3DSAMPLERSTATETYPE` name (`addressu`, `D3DSAMP_MAGFILTER`, any
    /// case) and a value: `wrap mirror clamp border mirroronce` for addressing, `none point
    /// linear anisotropic pyramidalquad gaussianquad` for filters (or their numbers), a float
    /// for `mipmaplodbias`, an integer for `maxmiplevel`, `true`/`false`/`1`/`0` for
    /// `srgbtexture`, a number (`0xAARRGGBB` or decimal) for `bordercolor`.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), SamplerStateError> {
        let lower = name.to_ascii_lowercase();
        let key = lower.strip_prefix("d3dsamp_").unwrap_or(&lower);
        let v = value.trim().to_ascii_lowercase();
        let v = v.strip_prefix("d3dtaddress_").unwrap_or(&v);
        let v = v.strip_prefix("d3dtexf_").unwrap_or(v).to_string();
        let bad = |expected| SamplerStateError::BadValue {
            state: name.to_string(),
            value: value.to_string(),
            expected,
        };
        let address = |v: &str| -> Option<AddressMode> {
            Some(match v {
                "wrap" | "1" => AddressMode::Wrap,
                "mirror" | "2" => AddressMode::Mirror,
                "clamp" | "3" => AddressMode::Clamp,
                "border" | "4" => AddressMode::Border,
                "mirroronce" | "5" => AddressMode::MirrorOnce,
                _ => return None,
            })
        };
        let filter = |v: &str| -> Option<Filter> {
            Some(match v {
                "none" | "0" => Filter::None,
                "point" | "1" => Filter::Point,
                "linear" | "2" => Filter::Linear,
                "anisotropic" | "3" => Filter::Anisotropic,
                "pyramidalquad" | "6" => Filter::PyramidalQuad,
                "gaussianquad" | "7" => Filter::GaussianQuad,
                _ => return None,
            })
        };
        const ADDRESS: &str = "wrap, mirror, clamp, border or mirroronce";
        const FILTER: &str = "none, point, linear, anisotropic, pyramidalquad or gaussianquad";
        match key {
            "addressu" => self.address_u = address(&v).ok_or_else(|| bad(ADDRESS))?,
            "addressv" => self.address_v = address(&v).ok_or_else(|| bad(ADDRESS))?,
            "addressw" => self.address_w = address(&v).ok_or_else(|| bad(ADDRESS))?,
            "magfilter" => self.mag_filter = filter(&v).ok_or_else(|| bad(FILTER))?,
            "minfilter" => self.min_filter = filter(&v).ok_or_else(|| bad(FILTER))?,
            "mipfilter" => self.mip_filter = filter(&v).ok_or_else(|| bad(FILTER))?,
            "mipmaplodbias" => {
                self.mip_lod_bias = v
                    .parse::<f32>()
                    .ok()
                    .filter(|f| f.is_finite())
                    .ok_or_else(|| bad("a finite number"))?
            }
            "maxmiplevel" => {
                self.max_mip_level = v
                    .parse::<u32>()
                    .map_err(|_| bad("a non-negative integer"))?
            }
            "srgbtexture" => {
                self.srgb_texture = match v.as_str() {
                    "true" | "1" => true,
                    "false" | "0" => false,
                    _ => return Err(bad("true or false")),
                }
            }
            "bordercolor" => {
                self.border_color = if let Some(hex) = v.strip_prefix("0x") {
                    u32::from_str_radix(hex, 16).ok()
                } else {
                    v.parse::<u32>().ok()
                }
                .ok_or_else(|| bad("a D3DCOLOR such as 0xff000000"))?
            }
            _ => return Err(SamplerStateError::UnknownState(name.to_string())),
        }
        Ok(())
    }

    fn border(&self) -> [f32; 4] {
        let c = self.border_color;
        let ch = |shift: u32| ((c >> shift) & 0xFF) as f32 / 255.0;
        [ch(16), ch(8), ch(0), ch(24)]
    }
}

/// The texture stage states ps_1_x texture instructions read (`D3DTEXTURESTAGESTATETYPE`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StageState {
    /// `D3DTSS_BUMPENVMAT00`, `01`, `10`, `11`.
    pub bump_env_mat: [f32; 4],
    /// `D3DTSS_BUMPENVLSCALE`.
    pub bump_env_lscale: f32,
    /// `D3DTSS_BUMPENVLOFFSET`.
    pub bump_env_loffset: f32,
    /// `D3DTSS_TEXTURETRANSFORMFLAGS`: `D3DTTFF_COUNT1..4` (1-4) with `D3DTTFF_PROJECTED`
    /// (256) projects ps_1_1-1_3 `tex` and `texbem` coordinates (section 8).
    pub texture_transform_flags: u32,
}

impl Default for StageState {
    fn default() -> Self {
        StageState {
            bump_env_mat: [0.0; 4],
            bump_env_lscale: 0.0,
            bump_env_loffset: 0.0,
            texture_transform_flags: 0,
        }
    }
}

impl StageState {
    /// `D3DTTFF_PROJECTED`.
    pub const PROJECTED: u32 = 256;

    /// The coordinate component ps_1_1-1_3 texture lookups divide by, when the stage projects.
    pub fn projection_divisor(&self) -> Option<usize> {
        if self.texture_transform_flags & Self::PROJECTED == 0 {
            return None;
        }
        match self.texture_transform_flags & 0xFF {
            2 => Some(1),
            3 => Some(2),
            0 | 4 => Some(3),
            _ => None,
        }
    }
}

/// What a shader's sampler `s#` (or ps_1_x texture stage `#`) is bound to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sampler {
    /// The texture, or `None`: reads `(0, 0, 0, 1)`.
    pub texture: Option<Arc<Texture>>,
    /// Sampler states.
    pub state: SamplerState,
    /// Texture stage states (ps_1_x).
    pub stage: StageState,
    /// The sampler's type where the shader declares none (ps_1_x, undeclared): 2D by default.
    pub dimension: Option<Dimension>,
}

impl Sampler {
    /// A sampler bound to `texture` with the default states.
    pub fn new(texture: Arc<Texture>) -> Self {
        Sampler {
            texture: Some(texture),
            ..Sampler::default()
        }
    }
}

/// The value an unbound sampler reads.
pub const UNBOUND: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// Addresses texel index `i` of an axis of `n` texels; `None` reads the border colour.
#[inline]
pub fn address(i: i64, n: i64, mode: AddressMode) -> Option<i64> {
    match mode {
        // Power-of-two sizes (the common case) wrap with a mask: the same as `rem_euclid`.
        AddressMode::Wrap if n & (n - 1) == 0 => Some(i & (n - 1)),
        AddressMode::Wrap => Some(i.rem_euclid(n)),
        AddressMode::Mirror => {
            let p = i.rem_euclid(2 * n);
            Some(if p < n { p } else { 2 * n - 1 - p })
        }
        AddressMode::Clamp => Some(i.clamp(0, n - 1)),
        AddressMode::Border => (0..n).contains(&i).then_some(i),
        AddressMode::MirrorOnce => Some((if i < 0 { -1 - i } else { i }).clamp(0, n - 1)),
    }
}

/// `floor(x)` converted with saturation to `i32` (NaN gives 0), then widened: the texel index
/// of section 12.3. Computed without a library `floor` (SSE2 has none): truncate, then step
/// down when truncation rounded up; exact for every `f32`.
#[inline(always)]
fn index(x: f32) -> i64 {
    let t = x as i32 as i64;
    (t - ((t as f32) > x) as i64).max(i32::MIN as i64)
}

/// A linear-filter split of `x`: `(floor(x), x - floor(x))`, the fraction 0 when `x` is not
/// finite or beyond the `i32` range (where `floor(x) = x`).
#[inline(always)]
fn split_coordinate(x: f32) -> (i64, f32) {
    let i0 = index(x);
    let f = x - i0 as f32;
    (i0, if (0.0..1.0).contains(&f) { f } else { 0.0 })
}

/// The face of a cube direction and its face coordinates in [0, 1] (section 12.3).
#[inline]
pub fn cube_face(d: [f32; 3]) -> (usize, f32, f32) {
    let (face, sc, tc, ma) = cube_axes(d);
    let ma = ma.abs();
    (face, (sc / ma + 1.0) * 0.5, (tc / ma + 1.0) * 0.5)
}

/// Face, `sc`, `tc` and `ma` of a direction.
#[inline]
fn cube_axes(d: [f32; 3]) -> (usize, f32, f32, f32) {
    let [x, y, z] = d;
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    if az >= ax && az >= ay {
        if z >= 0.0 {
            (4, x, -y, z)
        } else {
            (5, -x, -y, z)
        }
    } else if ay >= ax {
        if y >= 0.0 {
            (2, x, z, y)
        } else {
            (3, x, -z, y)
        }
    } else if x >= 0.0 {
        (0, -z, -y, x)
    } else {
        (1, z, -y, x)
    }
}

/// `sc`, `tc`, `ma` of direction `d` on the axes of `face` (so neighbours can be projected onto
/// a pixel's face).
#[inline]
fn face_axes(face: usize, d: [f32; 3]) -> (f32, f32, f32) {
    let [x, y, z] = d;
    match face {
        0 => (-z, -y, x),
        1 => (z, -y, x),
        2 => (x, z, y),
        3 => (x, -z, y),
        4 => (x, -y, z),
        _ => (-x, -y, z),
    }
}

/// The derivative of the face coordinates `(u, v)` of `d` on `face` along `dd` (chain rule of
/// `u = (sc / |ma| + 1) / 2`).
#[inline]
fn face_derivative(face: usize, d: [f32; 3], dd: [f32; 3]) -> [f32; 2] {
    let (sc, tc, ma) = face_axes(face, d);
    let (dsc, dtc, dma) = face_axes(face, dd);
    let am = ma.abs();
    let dam = if ma < 0.0 { -dma } else { dma };
    [
        0.5 * (dsc - sc * dam / am) / am,
        0.5 * (dtc - tc * dam / am) / am,
    ]
}

/// Where the level of detail of a lookup comes from.
#[derive(Clone, Copy, Debug)]
pub enum Lod<'a> {
    /// From the 2x2 quads' derivatives of the coordinates (pixel shaders), plus a bias per lane
    /// when given (`texldb`).
    Implicit(Option<&'a [f32]>),
    /// Explicit, per lane (`texldl`).
    Explicit(&'a [f32]),
    /// Explicit derivatives per lane, `[d/dx; 3]` then `[d/dy; 3]` (`texldd`).
    Gradients([&'a [f32]; 3], [&'a [f32]; 3]),
}

/// One texel lookup at normalized coordinates `coord` (2D: x, y; volume and cube: x, y, z) with
/// level of detail `lod` (bias and `maxmiplevel` not yet applied).
pub fn sample(texture: &Texture, state: &SamplerState, coord: [f32; 3], lod: f32) -> [f32; 4] {
    let lod = lod + state.mip_lod_bias;
    let levels = texture.levels().len();
    let top = (levels - 1) as f32;
    let base = (state.max_mip_level as f32).min(top);
    let filter = if lod <= 0.0 {
        state.mag_filter
    } else {
        state.min_filter
    };
    let lc = if lod > base { lod.min(top) } else { base };
    match state.mip_filter {
        Filter::None => sample_level(texture, state, coord, base as usize, filter),
        Filter::Point => sample_level(texture, state, coord, (lc + 0.5).floor() as usize, filter),
        _ => {
            let l0 = lc.floor();
            let t = lc - l0;
            let a = sample_level(texture, state, coord, l0 as usize, filter);
            if t == 0.0 {
                return a;
            }
            let l1 = (l0 as usize + 1).min(levels - 1);
            let b = sample_level(texture, state, coord, l1, filter);
            lerp(a, b, t)
        }
    }
}

fn sample_level(
    texture: &Texture,
    state: &SamplerState,
    coord: [f32; 3],
    level: usize,
    filter: Filter,
) -> [f32; 4] {
    let l = &texture.levels()[level];
    let (w, h) = (l.width as usize, l.height as usize);
    let data = &l.data[..];
    let format = texture.format();
    // The common case decodes RGBA8 bytes directly; everything else goes through the format.
    if format == crate::texture::Format::Rgba8Unorm && !state.srgb_texture {
        filter_level(texture, state, coord, level, filter, |x, y, z| {
            let i = ((z * h + y) * w + x) * 4;
            let b = &data[i..i + 4];
            [
                b[0] as f32 / 255.0,
                b[1] as f32 / 255.0,
                b[2] as f32 / 255.0,
                b[3] as f32 / 255.0,
            ]
        })
    } else {
        let srgb = state.srgb_texture && format == crate::texture::Format::Rgba8Unorm;
        let size = format.texel_size();
        filter_level(texture, state, coord, level, filter, |x, y, z| {
            let mut t = format.decode(&data[((z * h + y) * w + x) * size..]);
            if srgb {
                for c in &mut t[..3] {
                    *c = srgb_to_linear(*c);
                }
            }
            t
        })
    }
}

/// Point or linear filtering within one level, with `fetch` reading texel (x, y, z) (all in
/// range: addressing happens here).
#[inline(always)]
fn filter_level(
    texture: &Texture,
    state: &SamplerState,
    coord: [f32; 3],
    level: usize,
    filter: Filter,
    fetch: impl Fn(usize, usize, usize) -> [f32; 4],
) -> [f32; 4] {
    let l = &texture.levels()[level];
    let (w, h, d) = (l.width as i64, l.height as i64, l.depth as i64);
    let at = |x: Option<i64>, y: Option<i64>, z: Option<i64>| -> [f32; 4] {
        match (x, y, z) {
            (Some(x), Some(y), Some(z)) => fetch(x as usize, y as usize, z as usize),
            _ => state.border(),
        }
    };
    let (u, v, w_coord, z_fixed, modes) = match texture.dimension() {
        Dimension::D2 => (
            coord[0],
            coord[1],
            0.0,
            Some(0),
            [state.address_u, state.address_v, state.address_w],
        ),
        Dimension::Volume => (
            coord[0],
            coord[1],
            coord[2],
            None,
            [state.address_u, state.address_v, state.address_w],
        ),
        Dimension::Cube => {
            let (face, u, v) = cube_face(coord);
            (u, v, 0.0, Some(face as i64), [AddressMode::Clamp; 3])
        }
    };
    if filter.is_point() {
        let x = address(index(u * w as f32), w, modes[0]);
        let y = address(index(v * h as f32), h, modes[1]);
        let z = match z_fixed {
            Some(z) => Some(z),
            None => address(index(w_coord * d as f32), d, modes[2]),
        };
        return at(x, y, z);
    }
    let split = |c: f32, n: i64| split_coordinate(c * n as f32 - 0.5);
    let (x0, fx) = split(u, w);
    let (y0, fy) = split(v, h);
    let xs = [address(x0, w, modes[0]), address(x0 + 1, w, modes[0])];
    let ys = [address(y0, h, modes[1]), address(y0 + 1, h, modes[1])];
    let plane = |z: Option<i64>| {
        let top = lerp(at(xs[0], ys[0], z), at(xs[1], ys[0], z), fx);
        let bottom = lerp(at(xs[0], ys[1], z), at(xs[1], ys[1], z), fx);
        lerp(top, bottom, fy)
    };
    match z_fixed {
        Some(z) => plane(Some(z)),
        None => {
            let (z0, fz) = split(w_coord, d);
            let a = plane(address(z0, d, modes[2]));
            let b = plane(address(z0 + 1, d, modes[2]));
            lerp(a, b, fz)
        }
    }
}

/// The filter blend of section 12.3: `a + t * (b - a)` per channel.
#[inline(always)]
fn lerp(a: [f32; 4], b: [f32; 4], t: f32) -> [f32; 4] {
    [
        a[0] + t * (b[0] - a[0]),
        a[1] + t * (b[1] - a[1]),
        a[2] + t * (b[2] - a[2]),
        a[3] + t * (b[3] - a[3]),
    ]
}

/// The level of detail from derivatives of normalized coordinates (section 12.4).
pub fn lod_from_derivatives(texture: &Texture, coord: [f32; 3], dx: [f32; 3], dy: [f32; 3]) -> f32 {
    let l = &texture.levels()[0];
    let (w, h, d) = (l.width as f32, l.height as f32, l.depth as f32);
    let rho2 = match texture.dimension() {
        Dimension::D2 => {
            let x = (dx[0] * w).powi(2) + (dx[1] * h).powi(2);
            let y = (dy[0] * w).powi(2) + (dy[1] * h).powi(2);
            crate::math::max(x, y)
        }
        Dimension::Volume => {
            let x = (dx[0] * w).powi(2) + (dx[1] * h).powi(2) + (dx[2] * d).powi(2);
            let y = (dy[0] * w).powi(2) + (dy[1] * h).powi(2) + (dy[2] * d).powi(2);
            crate::math::max(x, y)
        }
        Dimension::Cube => {
            let (face, _, _, _) = cube_axes(coord);
            let [ux, vx] = face_derivative(face, coord, dx);
            let [uy, vy] = face_derivative(face, coord, dy);
            let x = (ux * w).powi(2) + (vx * w).powi(2);
            let y = (uy * w).powi(2) + (vy * w).powi(2);
            crate::math::max(x, y)
        }
    };
    rho2.sqrt().log2()
}

/// Samples every lane in `mask` of a batch: `coords` are the lanes' coordinates (one slice per
/// component, each at least as long as the highest lane in `mask`), results go to `out`
/// (one slice per channel). With [`Lod::Implicit`], lanes are 2x2 quads (lane `4q + 0` top left,
/// `+ 1` top right, `+ 2` bottom left, `+ 3` bottom right) and derivatives come from all four
/// lanes of a quad whatever `mask` says.
pub fn sample_lanes(
    texture: Option<&Texture>,
    state: &SamplerState,
    coords: [&[f32]; 3],
    lod: Lod<'_>,
    mask: u64,
    out: [&mut [f32]; 4],
) {
    let [o0, o1, o2, o3] = out;
    // Without mip levels to choose between and with one kind of filter either side of LOD 0,
    // the level of detail cannot change a lookup: skip the derivatives.
    let lod_matters = texture.is_some_and(|t| {
        (t.levels().len() > 1 && state.mip_filter != Filter::None)
            || state.mag_filter.is_point() != state.min_filter.is_point()
    });
    let lod = if lod_matters { lod } else { Lod::Explicit(&[]) };
    let mut bits = mask;
    while bits != 0 {
        let l = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let t = match texture {
            None => UNBOUND,
            Some(tex) => {
                let coord = [coords[0][l], coords[1][l], coords[2][l]];
                let lod = match lod {
                    Lod::Explicit(v) => v.get(l).copied().unwrap_or(0.0),
                    Lod::Implicit(bias) => {
                        let q = l & !3;
                        let (col, row) = (l & 1, l & 2);
                        let at = |i: usize| [coords[0][i], coords[1][i], coords[2][i]];
                        let dx: [f32; 3] =
                            std::array::from_fn(|c| at(q + row + 1)[c] - at(q + row)[c]);
                        let dy: [f32; 3] =
                            std::array::from_fn(|c| at(q + 2 + col)[c] - at(q + col)[c]);
                        lod_from_derivatives(tex, coord, dx, dy) + bias.map_or(0.0, |b| b[l])
                    }
                    Lod::Gradients(dx, dy) => lod_from_derivatives(
                        tex,
                        coord,
                        [dx[0][l], dx[1][l], dx[2][l]],
                        [dy[0][l], dy[1][l], dy[2][l]],
                    ),
                };
                sample(tex, state, coord, lod)
            }
        };
        o0[l] = t[0];
        o1[l] = t[1];
        o2[l] = t[2];
        o3[l] = t[3];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texture::{Format, MipLevel};

    fn checker() -> Texture {
        // 2x2: red, green / blue, white.
        let data = vec![
            255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255,
        ];
        Texture::new_2d(Format::Rgba8Unorm, 2, 2, data).unwrap()
    }

    #[test]
    fn texel_index_is_saturating_floor() {
        for x in [
            0.0f32, -0.0, 0.5, -0.5, 1.0, -1.0, 2.5, -2.5, 1e9, -1e9, 3e9, -3e9,
        ] {
            let want = x.floor() as i32 as i64;
            assert_eq!(index(x), want, "{x}");
        }
        assert_eq!(index(f32::NAN), 0);
        assert_eq!(index(f32::INFINITY), i32::MAX as i64);
        assert_eq!(index(f32::NEG_INFINITY), i32::MIN as i64);
        assert_eq!(split_coordinate(-0.25), (-1, 0.75));
        assert_eq!(split_coordinate(f32::INFINITY).1, 0.0);
        assert_eq!(split_coordinate(-5e9).1, 0.0);
    }

    #[test]
    fn addressing_modes() {
        use AddressMode::*;
        assert_eq!(address(-1, 4, Wrap), Some(3));
        assert_eq!(address(4, 4, Wrap), Some(0));
        assert_eq!(address(-1, 4, Mirror), Some(0));
        assert_eq!(address(4, 4, Mirror), Some(3));
        assert_eq!(address(8, 4, Mirror), Some(0));
        assert_eq!(address(-3, 4, Clamp), Some(0));
        assert_eq!(address(9, 4, Clamp), Some(3));
        assert_eq!(address(4, 4, Border), None);
        assert_eq!(address(-2, 4, MirrorOnce), Some(1));
        assert_eq!(address(7, 4, MirrorOnce), Some(3));
    }

    #[test]
    fn point_and_linear() {
        let t = checker();
        let s = SamplerState::default();
        assert_eq!(sample(&t, &s, [0.25, 0.25, 0.0], 0.0), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(sample(&t, &s, [0.75, 0.75, 0.0], 0.0), [1.0, 1.0, 1.0, 1.0]);
        // Wrap: 1.25 is 0.25.
        assert_eq!(sample(&t, &s, [1.25, 0.25, 0.0], 0.0), [1.0, 0.0, 0.0, 1.0]);
        let lin = SamplerState {
            mag_filter: Filter::Linear,
            ..SamplerState::default()
        };
        // The centre: all four texels equally.
        let c = sample(&t, &lin, [0.5, 0.5, 0.0], 0.0);
        assert_eq!(c, [0.5, 0.5, 0.5, 1.0]);
        let border = SamplerState {
            address_u: AddressMode::Border,
            border_color: 0xFF00_00FF,
            ..SamplerState::default()
        };
        assert_eq!(
            sample(&t, &border, [1.5, 0.25, 0.0], 0.0),
            [0.0, 0.0, 1.0, 1.0]
        );
    }

    #[test]
    fn mip_selection() {
        let t = checker().with_mip_chain();
        let s = SamplerState {
            mip_filter: Filter::Point,
            ..SamplerState::default()
        };
        assert_eq!(sample(&t, &s, [0.25, 0.25, 0.0], 1.0)[0], 128.0 / 255.0);
        assert_eq!(sample(&t, &s, [0.25, 0.25, 0.0], 0.4)[0], 1.0);
        let capped = SamplerState {
            max_mip_level: 1,
            ..s
        };
        assert_eq!(
            sample(&t, &capped, [0.25, 0.25, 0.0], -3.0)[0],
            128.0 / 255.0
        );
    }

    #[test]
    fn cube_faces() {
        assert_eq!(cube_face([1.0, 0.0, 0.0]), (0, 0.5, 0.5));
        assert_eq!(cube_face([0.0, 0.0, -1.0]), (5, 0.5, 0.5));
        assert_eq!(cube_face([0.0, 1.0, 0.5]).0, 2);
        assert_eq!(cube_face([0.5, 0.5, 0.5]).0, 4);
        let faces: Vec<u8> = (0..6u8).flat_map(|f| [f * 40, 0, 0, 255]).collect();
        let cube = Texture::new(
            Dimension::Cube,
            Format::Rgba8Unorm,
            vec![MipLevel {
                width: 1,
                height: 1,
                depth: 6,
                data: faces,
            }],
        )
        .unwrap();
        let s = SamplerState::default();
        assert_eq!(sample(&cube, &s, [0.0, -2.0, 0.1], 0.0)[0], 120.0 / 255.0);
    }

    #[test]
    fn state_names() {
        let mut s = SamplerState::default();
        s.set("AddressU", "clamp").unwrap();
        s.set("D3DSAMP_MAGFILTER", "linear").unwrap();
        s.set("mipmaplodbias", "-0.5").unwrap();
        s.set("bordercolor", "0xff00ff00").unwrap();
        s.set("srgbtexture", "true").unwrap();
        assert_eq!(s.address_u, AddressMode::Clamp);
        assert_eq!(s.mag_filter, Filter::Linear);
        assert_eq!(s.mip_lod_bias, -0.5);
        assert_eq!(s.border_color, 0xFF00_FF00);
        assert!(s.srgb_texture);
        assert!(matches!(
            s.set("addressq", "wrap"),
            Err(SamplerStateError::UnknownState(_))
        ));
        assert!(matches!(
            s.set("minfilter", "cubic"),
            Err(SamplerStateError::BadValue { .. })
        ));
    }

    #[test]
    fn implicit_lod_from_quads() {
        let t = checker().with_mip_chain();
        let s = SamplerState {
            mip_filter: Filter::Point,
            ..SamplerState::default()
        };
        // Coordinates one full texture apart per pixel: rho = 2 texels, lod 1.
        let u = [0.25, 1.25, 0.25, 1.25];
        let v = [0.25, 0.25, 1.25, 1.25];
        let z = [0.0; 4];
        let mut out = [[0f32; 4]; 4];
        let [a, b, c, d] = &mut out;
        sample_lanes(
            Some(&t),
            &s,
            [&u, &v, &z],
            Lod::Implicit(None),
            0b1111,
            [a, b, c, d],
        );
        assert_eq!(out[0], [128.0 / 255.0; 4]);
    }
}
