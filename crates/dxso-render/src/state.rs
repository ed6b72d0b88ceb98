//! The fixed-function state of one draw, read from the device's render states and checked:
//! every value the pipeline interprets must be a member of its enumeration, and a state the
//! pipeline does not implement (dual-source blending, W-buffering without a far plane) is
//! refused rather than ignored.

pub use crate::color::d3dcolor;
use crate::error::RenderError;
use dxso_dp2::device::rs;
use dxso_dp2::enums::{
    Blend, BlendOp, CmpFunc, Cull, FillMode, FogMode, ShadeMode, StencilOp, ZBuffer,
};
use dxso_dp2::Device;

/// The viewport in pixels and its depth range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    /// Left column.
    pub x: u32,
    /// Top row.
    pub y: u32,
    /// Width in pixels (at least 1).
    pub width: u32,
    /// Height in pixels (at least 1).
    pub height: u32,
    /// Depth at NDC z = 0.
    pub min_z: f32,
    /// Depth at NDC z = 1.
    pub max_z: f32,
}

/// Who applies FOGENABLE's fog to a draw's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FogBy {
    /// The fixed-function pipeline's generated pixel shader blends it.
    Pipeline,
    /// A ps_3_0 computes its own: Direct3D 9 applies no fixed-function fog after it.
    Shader,
    /// A pixel shader before ps_3_0 (or a caller's stage): the output merger blends fog into
    /// its colour ([`PostFog`]).
    Blend,
}

/// Fixed-function fog blended into a pixel shader's colour (shaders before ps_3_0):
/// `f * colour + (1 - f) * FOGCOLOR` on red, green and blue.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PostFog {
    /// FOGCOLOR's red, green and blue.
    pub color: [f32; 3],
    /// FOGTABLEMODE with FOGSTART, FOGEND and FOGDENSITY: `f` from the pixel's depth; `None`:
    /// `f` is the vertex shader's interpolated oFog.
    pub table: Option<(FogMode, [f32; 3])>,
}

impl PostFog {
    /// The fog factor of a pixel at depth `z` by the table mode (1 without one).
    pub fn table_factor(&self, z: f32) -> f32 {
        let Some((mode, [start, end, density])) = self.table else {
            return 1.0;
        };
        let f = match mode {
            FogMode::None => 1.0,
            FogMode::Linear => (end - z) / (end - start),
            FogMode::Exp => (-(density * z)).exp(),
            FogMode::Exp2 => (-(density * z) * (density * z)).exp(),
        };
        crate::color::saturate(f)
    }

    /// `color` fogged by factor `f` (saturated first).
    pub fn blend(&self, color: [f32; 4], f: f32) -> [f32; 4] {
        let f = crate::color::saturate(f);
        std::array::from_fn(|c| {
            if c < 3 {
                f * color[c] + (1.0 - f) * self.color[c]
            } else {
                color[3]
            }
        })
    }
}

/// One side (colour or alpha) of the blend equation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlendEquation {
    /// The source factor.
    pub src: Blend,
    /// The destination factor.
    pub dst: Blend,
    /// The operation.
    pub op: BlendOp,
}

/// Blending: colour and alpha equations (the same unless SEPARATEALPHABLENDENABLE) and the
/// BLENDFACTOR constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlendState {
    /// Applied to red, green and blue.
    pub color: BlendEquation,
    /// Applied to alpha.
    pub alpha: BlendEquation,
    /// `D3DRS_BLENDFACTOR` as RGBA in 0..1.
    pub factor: [f32; 4],
}

/// The stencil test and operations of one face.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StencilFace {
    /// `(REF & MASK) func (stencil & MASK)` decides the test.
    pub func: CmpFunc,
    /// Applied when the stencil test fails.
    pub fail: StencilOp,
    /// Applied when the stencil test passes and the depth test fails.
    pub zfail: StencilOp,
    /// Applied when both pass (or the depth test is off).
    pub pass: StencilOp,
}

/// The stencil state of a draw (STENCILENABLE on), on an 8-bit stencil buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StencilState {
    /// Clockwise triangles, lines and points (STENCILFUNC, STENCILFAIL, STENCILZFAIL,
    /// STENCILPASS).
    pub front: StencilFace,
    /// Counter-clockwise triangles: the CCW_ states with TWOSIDEDSTENCILMODE, else `front`.
    pub back: StencilFace,
    /// STENCILREF's low 8 bits.
    pub reference: u8,
    /// STENCILMASK's low 8 bits: what the test compares.
    pub mask: u8,
    /// STENCILWRITEMASK's low 8 bits: the bits an operation may change.
    pub write_mask: u8,
}

impl StencilState {
    /// Whether the test passes for a pixel holding `value`.
    pub fn test(&self, face: &StencilFace, value: u8) -> bool {
        face.func
            .passes(self.reference & self.mask, value & self.mask)
    }

    /// `value` after `op`, only the write mask's bits changed.
    pub fn apply(&self, op: StencilOp, value: u8) -> u8 {
        let new = match op {
            StencilOp::Keep => value,
            StencilOp::Zero => 0,
            StencilOp::Replace => self.reference,
            StencilOp::IncrSat => value.saturating_add(1),
            StencilOp::DecrSat => value.saturating_sub(1),
            StencilOp::Invert => !value,
            StencilOp::Incr => value.wrapping_add(1),
            StencilOp::Decr => value.wrapping_sub(1),
        };
        (value & !self.write_mask) | (new & self.write_mask)
    }
}

/// The fixed-function state of a draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawState {
    /// Where NDC lands on the target.
    pub viewport: Viewport,
    /// Which winding is culled.
    pub cull: Cull,
    /// The depth test's function, when ZENABLE is on.
    pub depth_test: Option<CmpFunc>,
    /// Whether passing pixels write depth.
    pub depth_write: bool,
    /// ZENABLE USEW: the depth buffer holds `w / w_far` instead of z.
    pub w_buffer: Option<f32>,
    /// DEPTHBIAS and SLOPESCALEDEPTHBIAS: `depth += bias + slope * max(|dz/dx|, |dz/dy|)`.
    pub depth_bias: [f32; 2],
    /// The stencil test, when STENCILENABLE is on.
    pub stencil: Option<StencilState>,
    /// ALPHAFUNC and ALPHAREF, when ALPHATESTENABLE is on.
    pub alpha_test: Option<(CmpFunc, u8)>,
    /// Blending, when ALPHABLENDENABLE is on.
    pub blend: Option<BlendState>,
    /// COLORWRITEENABLE: bit 0 red, 1 green, 2 blue, 3 alpha.
    pub color_write: u8,
    /// SHADEMODE FLAT: colours from the first vertex of each primitive.
    pub flat: bool,
    /// POINTSIZE clamped to POINTSIZE_MIN..POINTSIZE_MAX (when the shader writes none).
    pub point_size: f32,
    /// POINTSIZE_MIN, POINTSIZE_MAX.
    pub point_range: [f32; 2],
    /// POINTSPRITEENABLE: texture coordinates run 0..1 across each point.
    pub point_sprite: bool,
    /// LASTPIXEL: lines draw their last pixel.
    pub last_pixel: bool,
    /// FILLMODE: triangles filled, as their edges or as their vertices.
    pub fill: FillMode,
    /// SRGBWRITEENABLE: colours are encoded to sRGB after blending.
    pub srgb_write: bool,
    /// SCISSORTESTENABLE with SETSCISSORRECT's {left, top, right, bottom} (right and bottom
    /// exclusive; the whole target when no rectangle was set): pixels outside are not drawn.
    pub scissor: Option<[i32; 4]>,
    /// WRAP0-WRAP15: per texture coordinate set, the coordinates (bit 0 u .. bit 3 the fourth)
    /// interpolated the shorter way round a cylinder.
    pub wrap: [u8; 16],
    /// Fog blended after a pixel shader before ps_3_0.
    pub post_fog: Option<PostFog>,
}

/// WRAP0-WRAP15.
const WRAP_STATES: [u32; 16] = [
    rs::WRAP0,
    rs::WRAP1,
    rs::WRAP2,
    rs::WRAP3,
    rs::WRAP4,
    rs::WRAP5,
    rs::WRAP6,
    rs::WRAP7,
    rs::WRAP8,
    rs::WRAP9,
    rs::WRAP10,
    rs::WRAP11,
    rs::WRAP12,
    rs::WRAP13,
    rs::WRAP14,
    rs::WRAP15,
];

fn state(device: &Device, number: u32) -> u32 {
    // Every state read here has a default in the table, so the device always holds a value.
    device.render_state(number).unwrap_or(0)
}

fn named<T>(
    device: &Device,
    number: u32,
    from: impl Fn(u32) -> Option<T>,
) -> Result<T, RenderError> {
    let value = state(device, number);
    from(value).ok_or_else(|| RenderError::BadState {
        state: rs::info(number).map_or("?", |i| i.name),
        value,
    })
}

fn float(device: &Device, number: u32) -> Result<f32, RenderError> {
    let value = state(device, number);
    let f = f32::from_bits(value);
    if f.is_finite() {
        Ok(f)
    } else {
        Err(RenderError::BadState {
            state: rs::info(number).map_or("?", |i| i.name),
            value,
        })
    }
}

fn on(device: &Device, number: u32) -> bool {
    state(device, number) != 0
}

fn unsupported(what: &'static str) -> RenderError {
    RenderError::Unsupported(what)
}

/// The device's viewport (VIEWPORTINFO, else the whole target) and depth range (ZRANGE, else
/// 0..1), checked against a `width` x `height` target.
pub fn viewport(device: &Device, width: u32, height: u32) -> Result<Viewport, RenderError> {
    let (viewport, zrange) = device.viewport();
    let [x, y, w, h] = viewport.unwrap_or([0, 0, width, height]);
    let [min_z, max_z] = zrange.unwrap_or([0.0, 1.0]);
    let inside = w > 0
        && h > 0
        && x.checked_add(w).is_some_and(|r| r <= width)
        && y.checked_add(h).is_some_and(|b| b <= height);
    if !inside {
        return Err(RenderError::BadViewport {
            viewport: [x, y, w, h],
            width,
            height,
        });
    }
    if !(0.0..=1.0).contains(&min_z) || !(0.0..=1.0).contains(&max_z) {
        return Err(RenderError::BadZRange([min_z, max_z]));
    }
    Ok(Viewport {
        x,
        y,
        width: w,
        height: h,
        min_z,
        max_z,
    })
}

impl DrawState {
    /// The state of the device for a draw into a `width` x `height` target whose fog is
    /// applied as `fog` says.
    pub fn read_for(
        device: &Device,
        width: u32,
        height: u32,
        fog: FogBy,
    ) -> Result<DrawState, RenderError> {
        let viewport = viewport(device, width, height)?;
        let zenable = named(device, rs::ZENABLE, ZBuffer::from_u32)?;
        let depth_test = match zenable {
            ZBuffer::False => None,
            ZBuffer::True | ZBuffer::UseW => Some(named(device, rs::ZFUNC, CmpFunc::from_u32)?),
        };
        let w_buffer = if zenable == ZBuffer::UseW {
            Some(w_far(device)?)
        } else {
            None
        };
        let mut wrap = [0u8; 16];
        for (w, &n) in wrap.iter_mut().zip(&WRAP_STATES) {
            let value = state(device, n);
            if value > 0xF {
                return Err(RenderError::BadState {
                    state: rs::info(n).map_or("?", |i| i.name),
                    value,
                });
            }
            *w = value as u8;
        }
        let stencil = if on(device, rs::STENCILENABLE) {
            Some(read_stencil(device)?)
        } else {
            None
        };
        let post_fog = if on(device, rs::FOGENABLE) && fog == FogBy::Blend {
            let table = match named(device, rs::FOGTABLEMODE, FogMode::from_u32)? {
                FogMode::None => None,
                mode => Some((
                    mode,
                    [
                        float(device, rs::FOGSTART)?,
                        float(device, rs::FOGEND)?,
                        float(device, rs::FOGDENSITY)?,
                    ],
                )),
            };
            let [r, g, b, _] = d3dcolor(state(device, rs::FOGCOLOR));
            Some(PostFog {
                color: [r, g, b],
                table,
            })
        } else {
            None
        };
        let alpha_test = if on(device, rs::ALPHATESTENABLE) {
            let func = named(device, rs::ALPHAFUNC, CmpFunc::from_u32)?;
            Some((func, (state(device, rs::ALPHAREF) & 0xFF) as u8))
        } else {
            None
        };
        let blend = if on(device, rs::ALPHABLENDENABLE) {
            let equation = |src, dst, op| -> Result<BlendEquation, RenderError> {
                let eq = BlendEquation {
                    src: named(device, src, Blend::from_u32)?,
                    dst: named(device, dst, Blend::from_u32)?,
                    op: named(device, op, BlendOp::from_u32)?,
                };
                for f in [eq.src, eq.dst] {
                    if matches!(f, Blend::SrcColor2 | Blend::InvSrcColor2) {
                        return Err(unsupported("dual-source blend factors (SRCCOLOR2)"));
                    }
                }
                Ok(resolve_both(eq))
            };
            let color = equation(rs::SRCBLEND, rs::DESTBLEND, rs::BLENDOP)?;
            let alpha = if on(device, rs::SEPARATEALPHABLENDENABLE) {
                equation(rs::SRCBLENDALPHA, rs::DESTBLENDALPHA, rs::BLENDOPALPHA)?
            } else {
                color
            };
            Some(BlendState {
                color,
                alpha,
                factor: d3dcolor(state(device, rs::BLENDFACTOR)),
            })
        } else {
            None
        };
        let point_range = [
            float(device, rs::POINTSIZE_MIN)?,
            float(device, rs::POINTSIZE_MAX)?,
        ];
        Ok(DrawState {
            viewport,
            cull: named(device, rs::CULLMODE, Cull::from_u32)?,
            depth_test,
            depth_write: on(device, rs::ZWRITEENABLE),
            w_buffer,
            depth_bias: [
                float(device, rs::DEPTHBIAS)?,
                float(device, rs::SLOPESCALEDEPTHBIAS)?,
            ],
            stencil,
            alpha_test,
            blend,
            color_write: (state(device, rs::COLORWRITEENABLE) & 0xF) as u8,
            flat: named(device, rs::SHADEMODE, ShadeMode::from_u32)? == ShadeMode::Flat,
            point_size: float(device, rs::POINTSIZE)?,
            point_range,
            point_sprite: on(device, rs::POINTSPRITEENABLE),
            last_pixel: on(device, rs::LASTPIXEL),
            fill: named(device, rs::FILLMODE, FillMode::from_u32)?,
            srgb_write: on(device, rs::SRGBWRITEENABLE),
            scissor: scissor(device),
            wrap,
            post_fog,
        })
    }

    /// Whether a pixel's colour can reach the target at all.
    pub fn writes_color(&self) -> bool {
        self.color_write != 0
    }
}

/// The far plane's w for W-buffering, from the projection transform as the Direct3D 9 runtime
/// derives it: the view-space z where clip z equals w (`(P44 - P43) / (P33 - P34)`), and w
/// there. Depth is `w / w_far`, so the far plane lands on 1. A projection without perspective
/// (`P34 = 0`: w is the same everywhere) or without a finite positive far w is refused.
fn w_far(device: &Device) -> Result<f32, RenderError> {
    let p = device
        .fixed_function()
        .transform(dxso_ffp::d3d::ts::PROJECTION);
    let z = (p[15] - p[14]) / (p[10] - p[11]);
    let far = z * p[11] + p[15];
    if p[11] != 0.0 && far.is_finite() && far > 0.0 {
        Ok(far)
    } else {
        Err(unsupported(
            "ZENABLE USEW without a perspective projection with a far plane (W-buffering normalises w by it)",
        ))
    }
}

/// The scissor rectangle when SCISSORTESTENABLE is on.
pub fn scissor(device: &Device) -> Option<[i32; 4]> {
    on(device, rs::SCISSORTESTENABLE)
        .then(|| device.scissor_rect().unwrap_or([0, 0, i32::MAX, i32::MAX]))
}

/// The stencil states, each checked against its enumeration.
fn read_stencil(device: &Device) -> Result<StencilState, RenderError> {
    let face = |func, fail, zfail, pass| -> Result<StencilFace, RenderError> {
        Ok(StencilFace {
            func: named(device, func, CmpFunc::from_u32)?,
            fail: named(device, fail, StencilOp::from_u32)?,
            zfail: named(device, zfail, StencilOp::from_u32)?,
            pass: named(device, pass, StencilOp::from_u32)?,
        })
    };
    let front = face(
        rs::STENCILFUNC,
        rs::STENCILFAIL,
        rs::STENCILZFAIL,
        rs::STENCILPASS,
    )?;
    let back = if on(device, rs::TWOSIDEDSTENCILMODE) {
        face(
            rs::CCW_STENCILFUNC,
            rs::CCW_STENCILFAIL,
            rs::CCW_STENCILZFAIL,
            rs::CCW_STENCILPASS,
        )?
    } else {
        front
    };
    Ok(StencilState {
        front,
        back,
        reference: (state(device, rs::STENCILREF) & 0xFF) as u8,
        mask: (state(device, rs::STENCILMASK) & 0xFF) as u8,
        write_mask: (state(device, rs::STENCILWRITEMASK) & 0xFF) as u8,
    })
}

/// BOTHSRCALPHA and BOTHINVSRCALPHA as a source factor set the destination factor too.
fn resolve_both(mut eq: BlendEquation) -> BlendEquation {
    match eq.src {
        Blend::BothSrcAlpha => {
            eq.src = Blend::SrcAlpha;
            eq.dst = Blend::InvSrcAlpha;
        }
        Blend::BothInvSrcAlpha => {
            eq.src = Blend::InvSrcAlpha;
            eq.dst = Blend::SrcAlpha;
        }
        _ => {}
    }
    eq
}
