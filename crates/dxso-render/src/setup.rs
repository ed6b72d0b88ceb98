//! Primitive setup: the viewport transform, snapping, Direct3D 9's rasterisation rules, culling,
//! and the planes every pixel-shader input is interpolated from.
//!
//! The rules:
//! - The viewport maps NDC x = -1 to screen x = X and NDC y = +1 to screen y = Y; pixel (i, j)
//!   is sampled at the point (i, j): pixel centres sit at integer screen coordinates, so NDC
//!   -1..1 spans the centres of columns X..X+Width-1 and the right edge passes exactly through
//!   column X+Width, which the fill rule leaves out.
//! - Vertex positions are snapped to 1/256 pixel ([`SUBPIXEL_BITS`] = 8); edge functions are
//!   evaluated exactly in 64-bit integers on the snapped positions.
//! - Top-left fill rule: a pixel whose sample point lies exactly on an edge is covered only if
//!   that edge is a top edge (horizontal, the triangle below it) or a left edge.
//! - Winding is judged on the screen (y down): clockwise triangles are front-facing (vFace = +1).
//!   CULLMODE CCW (the default) culls counter-clockwise ones, CW clockwise ones.
//! - Lines (1 pixel wide): an x-major line lights one pixel per column whose centre lies between
//!   the rounded endpoints, in the row nearest the line (y-major alike); the last pixel only with
//!   LASTPIXEL. For lines between pixel centres this is the diamond-exit rule of Direct3D.
//! - Points: a square of the point size centred on the vertex, covering the pixels whose centres
//!   fall inside it (left and top edges in, right and bottom out).
//!
//! Attributes are perspective-correct: a/w and 1/w are planes in screen space and each pixel
//! takes their quotient. Depth is a plane of z/w (linear on the screen). Helper lanes of a quad
//! evaluate the same planes outside the primitive, which gives exact screen-space derivatives.

use crate::state::{DrawState, Viewport};
use dxso_dp2::enums::Cull;

/// Fractional bits of snapped screen coordinates.
pub const SUBPIXEL_BITS: u32 = 8;
const ONE: i64 = 1 << SUBPIXEL_BITS;

/// A screen-space vertex after the divide and the viewport transform, not yet snapped.
#[derive(Clone, Debug)]
pub struct ScreenVertex {
    /// Screen x, y (pixels) and depth.
    pub x: f64,
    /// Screen y.
    pub y: f64,
    /// Depth after the viewport's depth range.
    pub z: f32,
    /// 1 / w.
    pub inv_w: f32,
    /// Varyings (the pixel shader's inputs, in its order).
    pub varyings: Vec<[f32; 4]>,
}

/// The viewport transform of a clip-space position (w > 0).
pub fn to_screen(p: [f32; 4], varyings: Vec<[f32; 4]>, vp: &Viewport) -> ScreenVertex {
    let inv_w = 1.0 / p[3] as f64;
    let (nx, ny, nz) = (
        p[0] as f64 * inv_w,
        p[1] as f64 * inv_w,
        p[2] as f64 * inv_w,
    );
    ScreenVertex {
        x: vp.x as f64 + (1.0 + nx) * vp.width as f64 / 2.0,
        y: vp.y as f64 + (1.0 - ny) * vp.height as f64 / 2.0,
        z: (vp.min_z as f64 + nz * (vp.max_z - vp.min_z) as f64) as f32,
        inv_w: inv_w as f32,
        varyings,
    }
}

fn snap(v: f64) -> i64 {
    (v * ONE as f64).round() as i64
}

/// The largest screen coordinate setup accepts, in pixels. The guard band keeps every clipped
/// vertex within about 2^20 pixels (257 half-viewports of at most 4096 pixels, plus the
/// viewport's offset). Only degenerate arithmetic lands beyond 2^21: a vertex the clipper puts
/// on a guard-band plane where w is near the smallest float, whose interpolated x or y keeps a
/// rounding error far larger than w (found by the fuzz target `render`). Such a primitive is
/// dropped. Within it, snapped coordinates fit 29 bits and every
/// edge-function product fits an i64.
pub const MAX_SCREEN: f64 = (1 << 21) as f64;

fn on_screen(v: &ScreenVertex) -> bool {
    v.x.abs() <= MAX_SCREEN && v.y.abs() <= MAX_SCREEN && v.z.is_finite() && v.inv_w.is_finite()
}

/// `value(x, y) = a + dx * (x - origin.x) + dy * (y - origin.y)`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Plane {
    /// The value at the origin.
    pub a: f32,
    /// Change per pixel along x.
    pub dx: f32,
    /// Change per pixel along y.
    pub dy: f32,
}

impl Plane {
    /// The plane's value `dx`, `dy` pixels from the origin.
    #[inline]
    pub fn at(&self, dx: f32, dy: f32) -> f32 {
        self.a + self.dx * dx + self.dy * dy
    }

    fn constant(a: f32) -> Plane {
        Plane {
            a,
            dx: 0.0,
            dy: 0.0,
        }
    }
}

/// How an input's four planes are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interp {
    /// Divided by the 1/w plane (perspective-correct).
    Perspective,
    /// Taken as they are (constants, flat colours, point-sprite coordinates).
    Linear,
}

/// An edge function `e(i, j) = a * i + b * j + c` on pixel coordinates; a sample is inside when
/// `e >= 0` (the fill rule is folded into `c`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    /// Per pixel along x.
    pub a: i64,
    /// Per pixel along y.
    pub b: i64,
    /// At pixel (0, 0).
    pub c: i64,
}

impl Edge {
    /// The function at pixel (i, j).
    #[inline]
    pub fn at(&self, i: i64, j: i64) -> i64 {
        self.a * i + self.b * j + self.c
    }
}

/// Which pixels a primitive covers.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// All three edges non-negative.
    Triangle([Edge; 3]),
    /// These pixels, in order along the line.
    Pixels(Vec<[i32; 2]>),
    /// Pixels with x in `x0..x1` and y in `y0..y1`.
    Rect([i32; 4]),
}

/// A primitive ready to rasterise.
#[derive(Clone, Debug, PartialEq)]
pub struct Prim {
    /// Its coverage.
    pub shape: Shape,
    /// Pixels that may be covered: `x0..x1`, `y0..y1`, inside the viewport.
    pub bounds: [i32; 4],
    /// vFace.
    pub face: f32,
    /// Where the planes are measured from.
    pub origin: [f64; 2],
    /// 1/w.
    pub inv_w: Plane,
    /// Depth.
    pub z: Plane,
    /// Four planes per pixel-shader input.
    pub varyings: Vec<Plane>,
    /// How each input is interpolated.
    pub interp: Vec<Interp>,
}

impl Prim {
    /// Pixels in the bounds (what the rasteriser may test).
    pub fn area(&self) -> u64 {
        let [x0, y0, x1, y1] = self.bounds;
        (x1 - x0).max(0) as u64 * (y1 - y0).max(0) as u64
    }
}

/// Per input, whether it is a colour that SHADEMODE FLAT holds constant.
pub type FlatMask<'a> = &'a [bool];

fn viewport_bounds(vp: &Viewport) -> [i32; 4] {
    [
        vp.x as i32,
        vp.y as i32,
        (vp.x + vp.width) as i32,
        (vp.y + vp.height) as i32,
    ]
}

fn intersect(a: [i32; 4], b: [i32; 4]) -> Option<[i32; 4]> {
    let r = [
        a[0].max(b[0]),
        a[1].max(b[1]),
        a[2].min(b[2]),
        a[3].min(b[3]),
    ];
    (r[0] < r[2] && r[1] < r[3]).then_some(r)
}

/// Whether `CULLMODE` removes the polygon `v` (screen positions in order, snapped as
/// [`triangle`] snaps them); a degenerate polygon is removed too.
pub fn culled(v: &[ScreenVertex], cull: Cull) -> bool {
    if !v.iter().all(on_screen) {
        return true;
    }
    let p: Vec<[i64; 2]> = v.iter().map(|v| [snap(v.x), snap(v.y)]).collect();
    let area2: i128 = (0..p.len())
        .map(|k| {
            let (a, b) = (p[k], p[(k + 1) % p.len()]);
            a[0] as i128 * b[1] as i128 - b[0] as i128 * a[1] as i128
        })
        .sum();
    match cull {
        _ if area2 == 0 => true,
        Cull::Ccw => area2 < 0,
        Cull::Cw => area2 > 0,
        Cull::None => false,
    }
}

/// Sets up a triangle; `None` when it is culled, degenerate or outside the viewport.
pub fn triangle(v: [&ScreenVertex; 3], state: &DrawState, flat: FlatMask<'_>) -> Option<Prim> {
    if !v.iter().all(|v| on_screen(v)) {
        return None;
    }
    let p: [[i64; 2]; 3] = v.map(|v| [snap(v.x), snap(v.y)]);
    let area2 =
        (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]);
    if area2 == 0 {
        return None;
    }
    let clockwise = area2 > 0;
    match state.cull {
        Cull::Ccw if !clockwise => return None,
        Cull::Cw if clockwise => return None,
        _ => {}
    }
    // Edges of the triangle taken clockwise, so the inside is where all are >= 0.
    let order = if clockwise { [0, 1, 2] } else { [0, 2, 1] };
    let edges = std::array::from_fn(|k| {
        let (a, b) = (p[order[k]], p[order[(k + 1) % 3]]);
        let (ea, eb) = (a[1] - b[1], b[0] - a[0]);
        // e(X, Y) = ea (X - ax) + eb (Y - ay) on snapped coordinates; at pixel (i, j), X = i ONE.
        // The inside is along (ea, eb): a left edge has it to the right, a top edge below.
        let top_left = ea > 0 || ea == 0 && eb > 0;
        let bias = if top_left { 0 } else { -1 };
        Edge {
            a: ea * ONE,
            b: eb * ONE,
            c: -(ea * a[0] + eb * a[1]) + bias,
        }
    });
    let min = |c: usize| p.iter().map(|q| q[c]).min().unwrap_or(0);
    let max = |c: usize| p.iter().map(|q| q[c]).max().unwrap_or(0);
    let bbox = [
        min(0).div_euclid(ONE) as i32,
        min(1).div_euclid(ONE) as i32,
        max(0).div_euclid(ONE) as i32 + 1,
        max(1).div_euclid(ONE) as i32 + 1,
    ];
    let bounds = intersect(bbox, viewport_bounds(&state.viewport))?;
    let xy: [[f64; 2]; 3] = p.map(|q| [q[0] as f64 / ONE as f64, q[1] as f64 / ONE as f64]);
    let det = (xy[1][0] - xy[0][0]) * (xy[2][1] - xy[0][1])
        - (xy[2][0] - xy[0][0]) * (xy[1][1] - xy[0][1]);
    let plane = |q: [f64; 3]| {
        let (d1, d2) = (q[1] - q[0], q[2] - q[0]);
        Plane {
            a: q[0] as f32,
            dx: ((d1 * (xy[2][1] - xy[0][1]) - d2 * (xy[1][1] - xy[0][1])) / det) as f32,
            dy: (((xy[1][0] - xy[0][0]) * d2 - (xy[2][0] - xy[0][0]) * d1) / det) as f32,
        }
    };
    let inv_w = v.map(|v| v.inv_w as f64);
    let mut varyings = Vec::with_capacity(v[0].varyings.len() * 4);
    let mut interp = Vec::with_capacity(v[0].varyings.len());
    for i in 0..v[0].varyings.len() {
        if flat.get(i).copied().unwrap_or(false) {
            varyings.extend(v[0].varyings[i].map(Plane::constant));
            interp.push(Interp::Linear);
        } else {
            for c in 0..4 {
                varyings.push(plane(std::array::from_fn(|k| {
                    v[k].varyings[i][c] as f64 * inv_w[k]
                })));
            }
            interp.push(Interp::Perspective);
        }
    }
    Some(Prim {
        shape: Shape::Triangle(edges),
        bounds,
        face: if clockwise { 1.0 } else { -1.0 },
        origin: xy[0],
        inv_w: plane(inv_w),
        z: plane(v.map(|v| v.z as f64)),
        varyings,
        interp,
    })
}

/// Sets up a line segment from `a` to `b`.
pub fn line(
    a: &ScreenVertex,
    b: &ScreenVertex,
    state: &DrawState,
    flat: FlatMask<'_>,
) -> Option<Prim> {
    if !on_screen(a) || !on_screen(b) {
        return None;
    }
    let (ax, ay) = (snap(a.x) as f64 / ONE as f64, snap(a.y) as f64 / ONE as f64);
    let (bx, by) = (snap(b.x) as f64 / ONE as f64, snap(b.y) as f64 / ONE as f64);
    let (dx, dy) = (bx - ax, by - ay);
    let len2 = dx * dx + dy * dy;
    if len2 == 0.0 {
        return None;
    }
    let vp = viewport_bounds(&state.viewport);
    let x_major = dx.abs() >= dy.abs();
    let (s0, s1) = if x_major { (ax, bx) } else { (ay, by) };
    let (lo, hi) = if x_major {
        (vp[0], vp[2])
    } else {
        (vp[1], vp[3])
    };
    // Walk the major axis in the direction of the line, mirrored so it always increases:
    // centres m with m0 <= m < m1, and the endpoint's own pixel with LASTPIXEL.
    let sign = if s1 >= s0 { 1.0 } else { -1.0 };
    let (m0, m1) = (s0 * sign, s1 * sign);
    let mut first = m0.ceil();
    let mut last = if state.last_pixel {
        (m1 + 0.5).floor()
    } else {
        m1.ceil() - 1.0
    };
    // Only the part inside the viewport can light pixels: at most one per column (row).
    let (vlo, vhi) = if sign > 0.0 {
        (lo as f64, hi as f64 - 1.0)
    } else {
        (-(hi as f64 - 1.0), -(lo as f64))
    };
    first = first.max(vlo);
    last = last.min(vhi);
    let mut pixels = Vec::new();
    let mut m = first;
    while m <= last {
        let k = m * sign;
        let t = (k - s0) / (s1 - s0);
        // The minor axis rounds half down: the row (column) nearest the line.
        let minor = |v: f64| (v - 0.5).ceil() as i64;
        let px = if x_major {
            [k as i64, minor(ay + t * dy)]
        } else {
            [minor(ax + t * dx), k as i64]
        };
        if px[0] >= vp[0] as i64
            && px[0] < vp[2] as i64
            && px[1] >= vp[1] as i64
            && px[1] < vp[3] as i64
        {
            pixels.push([px[0] as i32, px[1] as i32]);
        }
        m += 1.0;
    }
    if pixels.is_empty() {
        return None;
    }
    let bounds = pixels
        .iter()
        .fold([i32::MAX, i32::MAX, i32::MIN, i32::MIN], |b, p| {
            [
                b[0].min(p[0]),
                b[1].min(p[1]),
                b[2].max(p[0] + 1),
                b[3].max(p[1] + 1),
            ]
        });
    // Along the line, t = ((x, y) - a) . d / |d|^2 is a plane; every quantity is linear in t.
    let along = |q0: f64, q1: f64| Plane {
        a: q0 as f32,
        dx: ((q1 - q0) * dx / len2) as f32,
        dy: ((q1 - q0) * dy / len2) as f32,
    };
    let (wa, wb) = (a.inv_w as f64, b.inv_w as f64);
    let mut varyings = Vec::new();
    let mut interp = Vec::new();
    for i in 0..a.varyings.len() {
        if flat.get(i).copied().unwrap_or(false) {
            varyings.extend(a.varyings[i].map(Plane::constant));
            interp.push(Interp::Linear);
        } else {
            for c in 0..4 {
                varyings.push(along(
                    a.varyings[i][c] as f64 * wa,
                    b.varyings[i][c] as f64 * wb,
                ));
            }
            interp.push(Interp::Perspective);
        }
    }
    Some(Prim {
        shape: Shape::Pixels(pixels),
        bounds,
        face: 1.0,
        origin: [ax, ay],
        inv_w: along(wa, wb),
        z: along(a.z as f64, b.z as f64),
        varyings,
        interp,
    })
}

/// Sets up a point of `size` pixels; `sprite[i]` marks the inputs (texture coordinates) that
/// POINTSPRITEENABLE replaces with 0..1 across the point.
pub fn point(v: &ScreenVertex, size: f32, state: &DrawState, sprite: &[bool]) -> Option<Prim> {
    if !on_screen(v) {
        return None;
    }
    let size = size
        .max(state.point_range[0])
        .min(state.point_range[1])
        .min(8192.0);
    if size.is_nan() || size <= 0.0 {
        return None;
    }
    let (cx, cy) = (snap(v.x), snap(v.y));
    let half = (size as f64 * ONE as f64 / 2.0).round() as i64;
    // Left and top edges in, right and bottom out: ceil of each edge, in pixels.
    let edge = |e: i64| -(-e).div_euclid(ONE);
    let rect = [
        edge(cx - half),
        edge(cy - half),
        edge(cx + half),
        edge(cy + half),
    ]
    .map(|e| e as i32);
    let bounds = intersect(rect, viewport_bounds(&state.viewport))?;
    let origin = [cx as f64 / ONE as f64, cy as f64 / ONE as f64];
    let mut varyings = Vec::new();
    for (i, value) in v.varyings.iter().enumerate() {
        if sprite.get(i).copied().unwrap_or(false) {
            let s = 1.0 / size;
            varyings.push(Plane {
                a: 0.5,
                dx: s,
                dy: 0.0,
            });
            varyings.push(Plane {
                a: 0.5,
                dx: 0.0,
                dy: s,
            });
            varyings.extend([value[2], value[3]].map(Plane::constant));
        } else {
            varyings.extend(value.map(Plane::constant));
        }
    }
    Some(Prim {
        shape: Shape::Rect(rect),
        bounds,
        face: 1.0,
        origin,
        // Inputs are constant across a point; 1/w serves W-buffering.
        inv_w: Plane::constant(v.inv_w),
        z: Plane::constant(v.z),
        interp: vec![Interp::Linear; v.varyings.len()],
        varyings,
    })
}

impl Prim {
    /// Whether pixel (i, j) is covered (inside the bounds and the shape).
    #[inline]
    pub fn covers(&self, i: i32, j: i32) -> bool {
        let [x0, y0, x1, y1] = self.bounds;
        if i < x0 || i >= x1 || j < y0 || j >= y1 {
            return false;
        }
        match &self.shape {
            Shape::Triangle(e) => {
                let (i, j) = (i as i64, j as i64);
                e[0].at(i, j) >= 0 && e[1].at(i, j) >= 0 && e[2].at(i, j) >= 0
            }
            Shape::Rect(r) => i >= r[0] && i < r[2] && j >= r[1] && j < r[3],
            Shape::Pixels(p) => p.contains(&[i, j]),
        }
    }

    /// Whether the rectangle of pixels `x0..x1`, `y0..y1` can hold a covered pixel (a cheap
    /// test: a triangle with an edge negative at all four corners misses it).
    pub fn may_touch(&self, r: [i32; 4]) -> bool {
        if intersect(self.bounds, r).is_none() {
            return false;
        }
        match &self.shape {
            Shape::Triangle(edges) => edges.iter().all(|e| {
                let corners = [
                    (r[0], r[1]),
                    (r[2] - 1, r[1]),
                    (r[0], r[3] - 1),
                    (r[2] - 1, r[3] - 1),
                ];
                corners.iter().any(|&(i, j)| e.at(i as i64, j as i64) >= 0)
            }),
            Shape::Pixels(p) => p
                .iter()
                .any(|&[i, j]| i >= r[0] && i < r[2] && j >= r[1] && j < r[3]),
            Shape::Rect(_) => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxso_dp2::enums::CmpFunc;

    pub(crate) fn state(width: u32, height: u32) -> DrawState {
        DrawState {
            viewport: Viewport {
                x: 0,
                y: 0,
                width,
                height,
                min_z: 0.0,
                max_z: 1.0,
            },
            cull: Cull::None,
            depth_test: Some(CmpFunc::LessEqual),
            depth_write: true,
            w_buffer: None,
            depth_bias: [0.0, 0.0],
            stencil: None,
            alpha_test: None,
            blend: None,
            color_write: 0xF,
            flat: false,
            point_size: 1.0,
            point_range: [1.0, 64.0],
            point_sprite: false,
            last_pixel: true,
            fill: dxso_dp2::enums::FillMode::Solid,
            srgb_write: false,
            scissor: None,
            wrap: [0; 16],
            post_fog: None,
        }
    }

    fn sv(x: f64, y: f64) -> ScreenVertex {
        ScreenVertex {
            x,
            y,
            z: 0.5,
            inv_w: 1.0,
            varyings: vec![[x as f32, y as f32, 0.0, 1.0]],
        }
    }

    #[test]
    fn ndc_corners_land_on_pixel_centres() {
        let vp = state(8, 4).viewport;
        let a = to_screen([-1.0, 1.0, 0.0, 1.0], vec![], &vp);
        let b = to_screen([2.0, -2.0, 1.0, 2.0], vec![], &vp);
        assert_eq!((a.x, a.y, a.z), (0.0, 0.0, 0.0));
        assert_eq!((b.x, b.y, b.z, b.inv_w), (8.0, 4.0, 0.5, 0.5));
    }

    #[test]
    fn top_and_left_edges_are_in_bottom_and_right_out() {
        let s = state(8, 8);
        // A right triangle with legs on x = 0 (left) and y = 0 (top), clockwise on screen.
        let t = triangle([&sv(0.0, 0.0), &sv(4.0, 0.0), &sv(0.0, 4.0)], &s, &[]).unwrap();
        assert!(t.covers(0, 0) && t.covers(3, 0) && t.covers(0, 3));
        assert!(!t.covers(4, 0) && !t.covers(0, 4));
        // (2, 2) lies on the hypotenuse, a right edge: out.
        assert!(!t.covers(2, 2) && t.covers(1, 2));
        assert_eq!(t.face, 1.0);
        // The same triangle wound the other way covers the same pixels, back-facing.
        let u = triangle([&sv(0.0, 0.0), &sv(0.0, 4.0), &sv(4.0, 0.0)], &s, &[]).unwrap();
        for j in 0..8 {
            for i in 0..8 {
                assert_eq!(t.covers(i, j), u.covers(i, j), "({i}, {j})");
            }
        }
        assert_eq!(u.face, -1.0);
    }

    #[test]
    fn culling_follows_the_screen_winding() {
        let mut s = state(8, 8);
        let (a, b, c) = (sv(0.0, 0.0), sv(4.0, 0.0), sv(0.0, 4.0));
        s.cull = Cull::Ccw;
        assert!(triangle([&a, &b, &c], &s, &[]).is_some());
        assert!(triangle([&a, &c, &b], &s, &[]).is_none());
        s.cull = Cull::Cw;
        assert!(triangle([&a, &b, &c], &s, &[]).is_none());
    }

    #[test]
    fn planes_are_exact_for_dyadic_values() {
        let s = state(16, 16);
        let t = triangle([&sv(0.0, 0.0), &sv(8.0, 0.0), &sv(0.0, 8.0)], &s, &[]).unwrap();
        // The first input is (x, y, 0, 1) at the vertices: its x plane has slope 1 along x.
        assert_eq!(
            t.varyings[0],
            Plane {
                a: 0.0,
                dx: 1.0,
                dy: 0.0
            }
        );
        assert_eq!(
            t.varyings[1],
            Plane {
                a: 0.0,
                dx: 0.0,
                dy: 1.0
            }
        );
    }

    #[test]
    fn lines_light_one_pixel_per_column() {
        let mut s = state(8, 8);
        let l = line(&sv(0.0, 0.0), &sv(4.0, 2.0), &s, &[]).unwrap();
        let Shape::Pixels(p) = &l.shape else { panic!() };
        assert_eq!(p, &[[0, 0], [1, 0], [2, 1], [3, 1], [4, 2]]);
        s.last_pixel = false;
        let l = line(&sv(0.0, 0.0), &sv(4.0, 2.0), &s, &[]).unwrap();
        assert_eq!(l.shape, Shape::Pixels(vec![[0, 0], [1, 0], [2, 1], [3, 1]]));
    }

    #[test]
    fn degenerate_screen_coordinates_are_dropped() {
        let s = state(8, 8);
        let far = sv(1e300, 0.0);
        assert!(triangle([&far, &sv(4.0, 0.0), &sv(0.0, 4.0)], &s, &[]).is_none());
        assert!(line(&far, &sv(4.0, 0.0), &s, &[]).is_none());
        assert!(point(&sv(f64::NAN, 1.0), 1.0, &s, &[]).is_none());
        // The largest accepted coordinates still set up without overflow.
        let edge = sv(MAX_SCREEN, -MAX_SCREEN);
        assert!(triangle(
            [
                &edge,
                &sv(-MAX_SCREEN, MAX_SCREEN),
                &sv(MAX_SCREEN, MAX_SCREEN)
            ],
            &s,
            &[]
        )
        .is_some());
    }

    #[test]
    fn a_unit_point_covers_its_pixel() {
        let s = state(8, 8);
        let p = point(&sv(3.0, 5.0), 1.0, &s, &[]).unwrap();
        assert_eq!(p.shape, Shape::Rect([3, 5, 4, 6]));
        let p = point(&sv(3.0, 5.0), 2.0, &s, &[]).unwrap();
        assert_eq!(p.shape, Shape::Rect([2, 4, 4, 6]));
    }
}
