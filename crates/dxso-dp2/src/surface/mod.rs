//! Rect patch surfaces: the 1-D bases (Bezier, uniform B-spline, Catmull-Rom) and their tensor
//! product evaluated over a tessellated [`Domain`].

use crate::domain::Domain;
use grid::grid_channel;
pub use grid::{GridWeights, RectScratch};
use thiserror::Error;
use wide::f32x4;

mod grid;

/// `D3DBASISTYPE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// Bernstein polynomials; several patches sharing edges when the size allows.
    Bezier,
    /// Uniform B-spline over the whole grid.
    #[serde(alias = "b_spline")]
    Bspline,
    /// Catmull-Rom (cubic, interpolating).
    CatmullRom,
}

impl Basis {
    /// From `D3DBASISTYPE` (0, 1, 2).
    pub fn from_u32(v: u32) -> Option<Basis> {
        match v {
            0 => Some(Basis::Bezier),
            1 => Some(Basis::Bspline),
            2 => Some(Basis::CatmullRom),
            _ => None,
        }
    }

    /// The SDK value.
    pub fn to_u32(self) -> u32 {
        self as u32
    }
}

/// A basis, degree and size combination D3D9 does not allow.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SurfaceError {
    /// The degree is not one the basis has (Bezier/B-spline: 1, 2, 3, 5; Catmull-Rom: 3).
    #[error("{basis:?} has no degree {degree} (Bezier and B-spline: 1, 2, 3, 5; Catmull-Rom: 3)")]
    BadDegree {
        /// The basis.
        basis: Basis,
        /// The degree given.
        degree: u32,
    },
    /// The control points along one axis do not fit the basis.
    #[error("{basis:?} degree {degree} cannot use {count} control points along {axis} ({rule})")]
    BadSize {
        /// The basis.
        basis: Basis,
        /// The degree.
        degree: u32,
        /// Control points along the axis.
        count: u32,
        /// "width" or "height".
        axis: &'static str,
        /// What the basis needs.
        rule: &'static str,
    },
}

/// Weights of the control points that influence one parameter value.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Weights {
    /// Index of the first control point.
    pub first: usize,
    /// How many weights are used.
    pub n: usize,
    /// The basis values.
    pub w: [f32; 6],
    /// Their derivatives with respect to the parameter.
    pub dw: [f32; 6],
}

/// One axis of a rect patch: basis, degree and control-point count, validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Axis {
    basis: Basis,
    degree: u32,
    spans: u32,
}

impl Axis {
    /// Checks the combination; `axis` names it in errors.
    pub fn new(
        basis: Basis,
        degree: u32,
        count: u32,
        axis: &'static str,
    ) -> Result<Axis, SurfaceError> {
        let bad_size = |rule| SurfaceError::BadSize {
            basis,
            degree,
            count,
            axis,
            rule,
        };
        match basis {
            Basis::Bezier | Basis::Bspline if ![1, 2, 3, 5].contains(&degree) => {
                Err(SurfaceError::BadDegree { basis, degree })
            }
            Basis::CatmullRom if degree != 3 => Err(SurfaceError::BadDegree { basis, degree }),
            Basis::Bezier => {
                if count < degree + 1 || (count - 1) % degree != 0 {
                    Err(bad_size("Bezier needs k * degree + 1 points, k >= 1"))
                } else {
                    Ok(Axis {
                        basis,
                        degree,
                        spans: (count - 1) / degree,
                    })
                }
            }
            Basis::Bspline => {
                if count <= degree {
                    Err(bad_size("B-spline needs more points than its degree"))
                } else {
                    Ok(Axis {
                        basis,
                        degree,
                        spans: count - degree,
                    })
                }
            }
            Basis::CatmullRom => {
                if count < 4 {
                    Err(bad_size("Catmull-Rom needs at least 4 points"))
                } else {
                    Ok(Axis {
                        basis,
                        degree,
                        spans: count - 3,
                    })
                }
            }
        }
    }

    /// The weights at parameter `t` in [0, 1] over the whole axis.
    pub fn weights(&self, t: f32) -> Weights {
        let x = t.clamp(0.0, 1.0) * self.spans as f32;
        let span = (x as u32).min(self.spans - 1);
        let local = x - span as f32;
        let scale = self.spans as f32;
        let d = self.degree as usize;
        let mut out = Weights::default();
        match self.basis {
            Basis::Bezier => {
                out.first = span as usize * d;
                out.n = d + 1;
                bernstein(d, local, &mut out.w, &mut out.dw);
            }
            Basis::Bspline => {
                out.first = span as usize;
                out.n = d + 1;
                uniform_bspline(d, local, &mut out.w, &mut out.dw);
            }
            Basis::CatmullRom => {
                out.first = span as usize;
                out.n = 4;
                let (t, t2, t3) = (local, local * local, local * local * local);
                out.w[..4].copy_from_slice(&[
                    0.5 * (-t3 + 2.0 * t2 - t),
                    0.5 * (3.0 * t3 - 5.0 * t2 + 2.0),
                    0.5 * (-3.0 * t3 + 4.0 * t2 + t),
                    0.5 * (t3 - t2),
                ]);
                out.dw[..4].copy_from_slice(&[
                    0.5 * (-3.0 * t2 + 4.0 * t - 1.0),
                    0.5 * (9.0 * t2 - 10.0 * t),
                    0.5 * (-9.0 * t2 + 8.0 * t + 1.0),
                    0.5 * (3.0 * t2 - 2.0 * t),
                ]);
            }
        }
        for dw in &mut out.dw[..out.n] {
            *dw *= scale;
        }
        out
    }
}

/// Bernstein polynomials of degree `d` at `t` and their derivatives, by repeated blending.
#[allow(clippy::needless_range_loop)] // indices tie weights to control points
fn bernstein(d: usize, t: f32, w: &mut [f32; 6], dw: &mut [f32; 6]) {
    let s = 1.0 - t;
    let mut b = [0.0f32; 6];
    b[0] = 1.0;
    let mut lower = b;
    for p in 1..=d {
        lower = b;
        b[p] = 0.0;
        for i in (0..=p).rev() {
            b[i] = s * b[i] + if i > 0 { t * b[i - 1] } else { 0.0 };
        }
    }
    w[..=d].copy_from_slice(&b[..=d]);
    for i in 0..=d {
        let left = if i > 0 { lower[i - 1] } else { 0.0 };
        let right = if i < d { lower[i] } else { 0.0 };
        dw[i] = d as f32 * (left - right);
    }
}

/// The uniform B-spline basis of degree `d` on one span (integer knots), control points
/// `span..=span + d`, at local `t` in [0, 1]; the Cox-de Boor triangle, keeping degree d-1
/// for the derivative (N'_{i,d} = N_{i,d-1} - N_{i+1,d-1} with unit knot spacing).
#[allow(clippy::needless_range_loop)] // indices tie weights to knots
fn uniform_bspline(d: usize, t: f32, w: &mut [f32; 6], dw: &mut [f32; 6]) {
    // Knot span [J, J+1) with J = d; left[j] = t + j - 1 - ... in local terms.
    let mut n = [0.0f32; 6];
    n[0] = 1.0;
    let mut lower = n;
    for p in 1..=d {
        lower = n;
        let mut saved = 0.0;
        for r in 0..p {
            // right[r+1] = (r + 1) - t, left[p - r] = t + (p - r) - 1, their sum = p.
            let right = (r + 1) as f32 - t;
            let left = t + (p - r) as f32 - 1.0;
            let temp = n[r] / p as f32;
            n[r] = saved + right * temp;
            saved = left * temp;
        }
        n[p] = saved;
    }
    w[..=d].copy_from_slice(&n[..=d]);
    for i in 0..=d {
        let left = if i > 0 { lower[i - 1] } else { 0.0 };
        let right = if i < d { lower[i] } else { 0.0 };
        dw[i] = left - right;
    }
}

/// Control values of one element over the whole grid, row-major (`width * height`).
pub type Channel = Vec<[f32; 4]>;

/// What to compute for one channel besides its value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Need {
    /// Keep dP/du and dP/dv (PARTIALU, PARTIALV).
    pub partials: bool,
    /// The unit normal dP/du x dP/dv of the first three components (CROSSUV).
    pub normal: bool,
}

/// One evaluated element: values and, when asked for, derivatives and the normal.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evaluated {
    /// Value per domain point (empty for a generated element's slot).
    pub value: Vec<[f32; 4]>,
    /// dP/du per point (empty unless asked).
    pub du: Vec<[f32; 4]>,
    /// dP/dv per point (empty unless asked).
    pub dv: Vec<[f32; 4]>,
    /// Unit normal per point (empty unless asked); NaN where the surface is degenerate.
    pub normal: Vec<[f32; 3]>,
}

#[inline(always)]
fn mad(acc: &mut [f32; 4], w: f32, p: &[f32; 4]) {
    for k in 0..4 {
        acc[k] += w * p[k];
    }
}

/// The unit normal of two tangents, NaN when they are (nearly) parallel or zero.
#[inline(always)]
pub fn unit_normal(du: &[f32; 4], dv: &[f32; 4]) -> [f32; 3] {
    let n = [
        du[1] * dv[2] - du[2] * dv[1],
        du[2] * dv[0] - du[0] * dv[2],
        du[0] * dv[1] - du[1] * dv[0],
    ];
    let len2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
    if len2 > 1e-30 && len2.is_finite() {
        let inv = 1.0 / len2.sqrt();
        [n[0] * inv, n[1] * inv, n[2] * inv]
    } else {
        [f32::NAN; 3]
    }
}

impl Evaluated {
    /// Empties every array, keeping its capacity, and reserves room for `count` points in
    /// the arrays this channel fills.
    fn reset(&mut self, count: usize, need: Need, present: bool) {
        let cap = |on: bool| if on && present { count } else { 0 };
        for (array, on) in [
            (&mut self.value, true),
            (&mut self.du, need.partials),
            (&mut self.dv, need.partials),
        ] {
            array.clear();
            array.reserve(cap(on));
        }
        self.normal.clear();
        self.normal.reserve(cap(need.normal));
    }

    /// Empties the arrays this channel does not fill on a grid; the others keep their
    /// contents, which the grid pass overwrites whole after sizing them (so arrays already
    /// the grid's size are not written twice).
    fn keep_for_grid(&mut self, need: Need, present: bool) {
        for (array, on) in [
            (&mut self.value, present),
            (&mut self.du, present && need.partials),
            (&mut self.dv, present && need.partials),
        ] {
            if !on {
                array.clear();
            }
        }
        if !(present && need.normal) {
            self.normal.clear();
        }
    }

    /// Appends one vertex's value and, as `need` asks, its partials and unit normal.
    #[inline(always)]
    pub(crate) fn push(&mut self, need: Need, val: [f32; 4], du: [f32; 4], dv: [f32; 4]) {
        self.value.push(val);
        if need.partials {
            self.du.push(du);
            self.dv.push(dv);
        }
        if need.normal {
            self.normal.push(unit_normal(&du, &dv));
        }
    }
}

/// The unit normal of one channel at (u, v), evaluated directly (no allocation); NaN when
/// the surface is degenerate there.
pub fn normal_at(
    u_axis: &Axis,
    v_axis: &Axis,
    width: usize,
    channel: &[[f32; 4]],
    u: f32,
    v: f32,
) -> [f32; 3] {
    normal_of_weights(&u_axis.weights(u), &v_axis.weights(v), width, channel)
}

fn normal_of_weights(wu: &Weights, wv: &Weights, width: usize, channel: &[[f32; 4]]) -> [f32; 3] {
    let fixed = match (wu.n, wv.n) {
        (4, 4) => normal_of_fixed_weights::<4>(wu, wv, width, channel),
        _ => None,
    };
    if let Some(n) = fixed {
        return n;
    }
    // 4-lane sums (the same products and order as four scalar lanes).
    let (mut du, mut dv) = (f32x4::ZERO, f32x4::ZERO);
    for b in 0..wv.n {
        for a in 0..wu.n {
            let cp = f32x4::from(channel[(wv.first + b) * width + wu.first + a]);
            du += f32x4::splat(wu.dw[a] * wv.w[b]) * cp;
            dv += f32x4::splat(wu.w[a] * wv.dw[b]) * cp;
        }
    }
    unit_normal_x4(du, dv)
}

/// [`normal_of_weights`] with `N` weights on both axes (bicubic patches): the same sums
/// unrolled, each control row read as one slice; `None` if a row is not in `channel`.
#[allow(clippy::needless_range_loop)] // counted loops over a constant N unroll; zips do not
fn normal_of_fixed_weights<const N: usize>(
    wu: &Weights,
    wv: &Weights,
    width: usize,
    channel: &[[f32; 4]],
) -> Option<[f32; 3]> {
    let (mut du, mut dv) = (f32x4::ZERO, f32x4::ZERO);
    for b in 0..N.min(6) {
        let start = (wv.first + b) * width + wu.first;
        let row: &[[f32; 4]; N] = channel.get(start..start.checked_add(N)?)?.try_into().ok()?;
        for a in 0..N.min(6) {
            let cp = f32x4::from(row[a]);
            du += f32x4::splat(wu.dw[a] * wv.w[b]) * cp;
            dv += f32x4::splat(wu.w[a] * wv.dw[b]) * cp;
        }
    }
    Some(unit_normal_x4(du, dv))
}
/// [`unit_normal`] of two 4-lane tangents.
#[inline(always)]
pub(super) fn unit_normal_x4(du: f32x4, dv: f32x4) -> [f32; 3] {
    unit_normal(&du.to_array(), &dv.to_array())
}

/// A parameter moved a thousandth of the way towards the middle of the patch: where a normal
/// that is degenerate at a pole is evaluated instead.
pub fn inward(t: f32) -> f32 {
    t + (0.5 - t) * 1e-3
}

/// Evaluates every channel at every domain point. An empty channel (a generated element)
/// gets an empty result.
pub fn evaluate_rect(
    u_axis: &Axis,
    v_axis: &Axis,
    width: usize,
    channels: &[&[[f32; 4]]],
    needs: &[Need],
    domain: &Domain,
    weights: Option<&GridWeights>,
) -> Vec<Evaluated> {
    let mut out = Vec::new();
    evaluate_rect_into(
        u_axis, v_axis, width, channels, needs, domain, weights, &mut out,
    );
    out
}

/// [`evaluate_rect`] into caller-owned results: `out` ends with one [`Evaluated`] per channel,
/// and arrays it already holds are reused, so a caller that keeps `out` across draws of the
/// same size allocates nothing but the row buffers ([`evaluate_rect_with`] keeps those too).
#[allow(clippy::too_many_arguments)] // evaluate_rect's inputs plus the output
pub fn evaluate_rect_into(
    u_axis: &Axis,
    v_axis: &Axis,
    width: usize,
    channels: &[&[[f32; 4]]],
    needs: &[Need],
    domain: &Domain,
    weights: Option<&GridWeights>,
    out: &mut Vec<Evaluated>,
) {
    evaluate_rect_with(
        u_axis,
        v_axis,
        width,
        channels,
        needs,
        domain,
        weights,
        out,
        &mut RectScratch::default(),
    );
}

/// [`evaluate_rect_into`] with the row buffers kept in `scratch` too.
#[allow(clippy::too_many_arguments)] // evaluate_rect's inputs plus the outputs
pub fn evaluate_rect_with(
    u_axis: &Axis,
    v_axis: &Axis,
    width: usize,
    channels: &[&[[f32; 4]]],
    needs: &[Need],
    domain: &Domain,
    weights: Option<&GridWeights>,
    out: &mut Vec<Evaluated>,
    scratch: &mut RectScratch,
) {
    evaluate_rect_split(
        u_axis, v_axis, width, channels, needs, domain, weights, out, scratch, 0, false,
    );
}

/// [`grid_channel`] for the number of weights per u parameter of a `degree` axis.
#[allow(clippy::too_many_arguments)] // grid_channel's inputs plus the degree
fn grid_channel_of<T: grid::ValueSlot>(
    degree: u32,
    gw: &GridWeights,
    width: usize,
    ch: &[[f32; 4]],
    need: Need,
    value_w: bool,
    values: &mut Vec<T>,
    o: &mut Evaluated,
    scratch: &mut RectScratch,
) {
    match degree as usize + 1 {
        2 => grid_channel::<2, T>(gw, width, ch, need, value_w, values, o, scratch),
        3 => grid_channel::<3, T>(gw, width, ch, need, value_w, values, o, scratch),
        4 => grid_channel::<4, T>(gw, width, ch, need, value_w, values, o, scratch),
        _ => grid_channel::<6, T>(gw, width, ch, need, value_w, values, o, scratch),
    }
}

/// [`evaluate_rect_with`] for a caller that never reads the `w` component of the values of
/// the channels set in `xyz_only` (bit `c` for channel `c`): a grid may leave it zero there.
/// With `split`, on a grid those channels leave
/// their `value` empty and have their `x`, `y` and `z` in [`RectScratch::xyz_values`]
/// instead (where a mesh's positions or normals are traded in, so they are written once).
#[allow(clippy::too_many_arguments)] // evaluate_rect_with's inputs plus the mask and choice
pub(crate) fn evaluate_rect_split(
    u_axis: &Axis,
    v_axis: &Axis,
    width: usize,
    channels: &[&[[f32; 4]]],
    needs: &[Need],
    domain: &Domain,
    weights: Option<&GridWeights>,
    out: &mut Vec<Evaluated>,
    scratch: &mut RectScratch,
    xyz_only: u64,
    split: bool,
) {
    let count = domain.points.len();
    out.resize_with(channels.len().min(needs.len()), Evaluated::default);
    let grid = domain.grid.is_some();
    for ((o, c), &n) in out.iter_mut().zip(channels).zip(needs) {
        if grid {
            o.keep_for_grid(n, !c.is_empty());
        } else {
            o.reset(count, n, !c.is_empty());
        }
    }
    if grid {
        let computed;
        let gw = match weights {
            Some(w) => w,
            None => {
                computed = GridWeights::new(u_axis, v_axis, domain);
                &computed
            }
        };
        for (c, ((ch, &need), o)) in channels.iter().zip(needs).zip(out.iter_mut()).enumerate() {
            let w = c >= 64 || xyz_only & (1 << c) == 0;
            if split && !w {
                let mut values = scratch.take_xyz(c);
                o.value.clear();
                if ch.is_empty() {
                    values.clear();
                } else {
                    grid_channel_of(
                        u_axis.degree,
                        gw,
                        width,
                        ch,
                        need,
                        w,
                        &mut values,
                        o,
                        scratch,
                    );
                }
                scratch.put_xyz(c, values);
                continue;
            }
            if ch.is_empty() {
                continue; // a generated element: nothing to read
            }
            let mut values = std::mem::take(&mut o.value);
            grid_channel_of(
                u_axis.degree,
                gw,
                width,
                ch,
                need,
                w,
                &mut values,
                o,
                scratch,
            );
            o.value = values;
        }
    } else {
        for p in &domain.points {
            let wu = u_axis.weights(p[0]);
            let wv = v_axis.weights(p[1]);
            for ((ch, &need), o) in channels.iter().zip(needs).zip(out.iter_mut()) {
                if ch.is_empty() {
                    continue;
                }
                let (mut val, mut du, mut dv) = ([0.0; 4], [0.0; 4], [0.0; 4]);
                for b in 0..wv.n {
                    for a in 0..wu.n {
                        let cp = &ch[(wv.first + b) * width + wu.first + a];
                        mad(&mut val, wu.w[a] * wv.w[b], cp);
                        mad(&mut du, wu.dw[a] * wv.w[b], cp);
                        mad(&mut dv, wu.w[a] * wv.dw[b], cp);
                    }
                }
                o.push(need, val, du, dv);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sums(axis: Axis) {
        for i in 0..=50 {
            let w = axis.weights(i as f32 / 50.0);
            let s: f32 = w.w[..w.n].iter().sum();
            let ds: f32 = w.dw[..w.n].iter().sum();
            assert!((s - 1.0).abs() < 1e-5, "{axis:?} sum {s}");
            assert!(ds.abs() < 1e-3, "{axis:?} derivative sum {ds}");
        }
    }

    #[test]
    fn partition_of_unity() {
        for d in [1, 2, 3, 5] {
            sums(Axis::new(Basis::Bezier, d, d + 1, "width").unwrap());
            sums(Axis::new(Basis::Bezier, d, 2 * d + 1, "width").unwrap());
            sums(Axis::new(Basis::Bspline, d, d + 4, "width").unwrap());
        }
        sums(Axis::new(Basis::CatmullRom, 3, 7, "width").unwrap());
    }

    #[test]
    fn evaluating_into_used_buffers_matches_a_fresh_evaluation() {
        use crate::domain::{rect, EdgeStyle};
        let u = Axis::new(Basis::Bspline, 3, 6, "width").unwrap();
        let v = Axis::new(Basis::Bezier, 3, 4, "height").unwrap();
        let points: Vec<[f32; 4]> = (0..24)
            .map(|i| [i as f32, (i * i % 7) as f32, (i % 5) as f32, 1.0])
            .collect();
        let channels: [&[[f32; 4]]; 2] = [&points, &[]];
        let needs = [
            Need {
                partials: true,
                normal: true,
            },
            Need::default(),
        ];
        let mut out = Vec::new();
        // A larger grid first, then a stitched one, then a grid again: stale contents and
        // capacity must not leak into the next result.
        for segs in [[9.0; 4], [2.0, 3.0, 4.0, 5.0], [5.0; 4]] {
            let d = rect(segs, EdgeStyle::Discrete, 64);
            let gw = GridWeights::new(&u, &v, &d);
            let fresh = evaluate_rect(&u, &v, 6, &channels, &needs, &d, Some(&gw));
            evaluate_rect_into(&u, &v, 6, &channels, &needs, &d, Some(&gw), &mut out);
            assert_eq!(out.len(), 2);
            for (a, b) in out.iter().zip(&fresh) {
                assert_eq!(a.value, b.value);
                assert_eq!(a.du, b.du);
                assert_eq!(a.dv, b.dv);
                // NaN != NaN: compare bits.
                let bits = |n: &[[f32; 3]]| -> Vec<[u32; 3]> {
                    n.iter().map(|p| p.map(f32::to_bits)).collect()
                };
                assert_eq!(bits(&a.normal), bits(&b.normal));
            }
            assert_eq!(out[0].value.len(), d.points.len());
            assert!(out[1].value.is_empty());
        }
    }

    /// The separable sums written out one scalar at a time, in the order the kernels add
    /// them (rows of control points first, then across the columns).
    fn reference_grid(
        gw: &GridWeights,
        width: usize,
        ch: &[[f32; 4]],
    ) -> Vec<([f32; 4], [f32; 4], [f32; 4])> {
        let mut out = Vec::new();
        for wv in &gw.v {
            let column = |col: usize, weights: &[f32; 6]| -> [f32; 4] {
                let mut acc = [0.0f32; 4];
                for b in 0..wv.n {
                    for k in 0..4 {
                        acc[k] += weights[b] * ch[(wv.first + b) * width + col][k];
                    }
                }
                acc
            };
            let q: Vec<[f32; 4]> = (0..width).map(|c| column(c, &wv.w)).collect();
            let qv: Vec<[f32; 4]> = (0..width).map(|c| column(c, &wv.dw)).collect();
            for wu in &gw.u {
                let (mut val, mut du, mut dv) = ([0.0f32; 4], [0.0f32; 4], [0.0f32; 4]);
                for a in 0..wu.n {
                    for k in 0..4 {
                        val[k] += wu.w[a] * q[wu.first + a][k];
                        du[k] += wu.dw[a] * q[wu.first + a][k];
                        dv[k] += wu.w[a] * qv[wu.first + a][k];
                    }
                }
                out.push((val, du, dv));
            }
        }
        out
    }

    #[test]
    fn grid_kernels_match_scalar_sums_bit_for_bit() {
        use crate::domain::{rect, EdgeStyle};
        let bits4 = |v: &[f32; 4]| v.map(f32::to_bits);
        let bits3 = |v: &[f32; 3]| v.map(f32::to_bits);
        let (mut quads, mut row_quads) = (0, 0);
        for (basis, degree, width, height) in [
            (Basis::Bezier, 1, 3, 2),
            (Basis::Bezier, 2, 5, 3),
            (Basis::Bezier, 3, 7, 4),
            (Basis::Bezier, 5, 11, 6),
            (Basis::Bspline, 2, 5, 4),
            (Basis::Bspline, 3, 6, 5),
            (Basis::Bspline, 5, 8, 7),
            (Basis::CatmullRom, 3, 6, 5),
        ] {
            let u = Axis::new(basis, degree, width, "width").unwrap();
            let v = Axis::new(basis, degree, height, "height").unwrap();
            // Irregular values, negative zeros and one collapsed row (a pole).
            let points: Vec<[f32; 4]> = (0..width * height)
                .map(|i| {
                    let (c, r) = ((i % width) as f32, (i / width) as f32);
                    if r == 0.0 {
                        [1.5, -0.0, 0.25, 1.0]
                    } else {
                        [
                            c + 0.3 * (r * c).sin(),
                            r - 0.2 * c.cos(),
                            (c * r).sin(),
                            1.0,
                        ]
                    }
                })
                .collect();
            let channels: [&[[f32; 4]]; 1] = [&points];
            for segments in [1.0f32, 3.0, 7.0, 8.0, 13.0] {
                let d = rect([segments; 4], EdgeStyle::Discrete, 64);
                let gw = GridWeights::new(&u, &v, &d);
                quads += gw.quads.len();
                row_quads += gw.row_quads.len();
                let reference = reference_grid(&gw, width as usize, &points);
                for need in [
                    Need::default(),
                    Need {
                        partials: true,
                        normal: false,
                    },
                    Need {
                        partials: false,
                        normal: true,
                    },
                    Need {
                        partials: true,
                        normal: true,
                    },
                ] {
                    let e =
                        evaluate_rect(&u, &v, width as usize, &channels, &[need], &d, Some(&gw));
                    let e = &e[0];
                    assert_eq!(e.value.len(), reference.len());
                    for (i, (val, du, dv)) in reference.iter().enumerate() {
                        let at = format!("{basis:?} {degree} {segments} {need:?} vertex {i}");
                        assert_eq!(bits4(&e.value[i]), bits4(val), "value, {at}");
                        if need.partials {
                            assert_eq!(bits4(&e.du[i]), bits4(du), "du, {at}");
                            assert_eq!(bits4(&e.dv[i]), bits4(dv), "dv, {at}");
                        } else {
                            assert!(e.du.is_empty() && e.dv.is_empty(), "{at}");
                        }
                        if need.normal {
                            let n = unit_normal(du, dv);
                            assert_eq!(bits3(&e.normal[i]), bits3(&n), "normal, {at}");
                        } else {
                            assert!(e.normal.is_empty(), "{at}");
                        }
                    }
                }
            }
        }
        // Runs of four u parameters sharing their columns were exercised, and so were the
        // vertices left over.
        assert!(quads > 0, "no four-vertex runs were evaluated");
        // So were runs of four rows sharing their control rows, and the rows left over.
        assert!(row_quads > 0, "no four-row runs were evaluated");
    }

    #[test]
    fn values_without_w_keep_every_other_output_bit_for_bit() {
        use crate::domain::{rect, EdgeStyle};
        let u = Axis::new(Basis::Bezier, 3, 7, "width").unwrap();
        let v = Axis::new(Basis::Bspline, 3, 9, "height").unwrap();
        let points: Vec<[f32; 4]> = (0..63)
            .map(|i| {
                [
                    (i as f32).sin(),
                    (i % 7) as f32,
                    (i / 7) as f32 * 0.3,
                    2.0 - i as f32,
                ]
            })
            .collect();
        let channels: [&[[f32; 4]]; 1] = [&points];
        for need in [
            Need::default(),
            Need {
                partials: false,
                normal: true,
            },
            Need {
                partials: true,
                normal: true,
            },
        ] {
            for segments in [3.0f32, 8.0, 16.0] {
                let d = rect([segments; 4], EdgeStyle::Discrete, 64);
                let gw = GridWeights::new(&u, &v, &d);
                let whole = evaluate_rect(&u, &v, 7, &channels, &[need], &d, Some(&gw));
                let (mut xyz, mut scratch) = (Vec::new(), RectScratch::default());
                evaluate_rect_split(
                    &u,
                    &v,
                    7,
                    &channels,
                    &[need],
                    &d,
                    Some(&gw),
                    &mut xyz,
                    &mut scratch,
                    1,
                    false,
                );
                let bits = |p: &[f32]| p.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                for (a, b) in whole[0].value.iter().zip(&xyz[0].value) {
                    assert_eq!(bits(&a[..3]), bits(&b[..3]), "{need:?} {segments}");
                }
                assert_eq!(whole[0].value.len(), xyz[0].value.len());
                assert_eq!(whole[0].du, xyz[0].du);
                assert_eq!(whole[0].dv, xyz[0].dv);
                let normals =
                    |e: &Evaluated| e.normal.iter().flat_map(|n| bits(n)).collect::<Vec<_>>();
                assert_eq!(normals(&whole[0]), normals(&xyz[0]), "{need:?} {segments}");
            }
        }
    }

    #[test]
    fn degenerate_normals_fixed_four_at_a_time_match_one_at_a_time_bit_for_bit() {
        use crate::domain::{rect, EdgeStyle};
        let mut fixed = 0;
        for (basis, degree, width, height) in [
            (Basis::Bezier, 3, 4, 4),
            (Basis::Bezier, 3, 7, 4),
            (Basis::Bspline, 3, 6, 5),
            (Basis::Bezier, 2, 5, 3),
        ] {
            let u = Axis::new(basis, degree, width, "width").unwrap();
            let v = Axis::new(basis, degree, height, "height").unwrap();
            // The first and last rows collapse to a point (poles), as in the teapot; or the
            // first column does (a pole on the u = 0 edge: one degenerate vertex per row).
            for column_pole in [false, true] {
                let points: Vec<[f32; 4]> = (0..width * height)
                    .map(|i| {
                        let (c, r) = ((i % width) as f32, (i / width) as f32);
                        if column_pole && c == 0.0 {
                            [0.5, -0.0, 2.0, 1.0]
                        } else if column_pole {
                            [c * r.cos(), c * r.sin(), c * 0.7 + r * 0.1, 1.0]
                        } else if r == 0.0 || r == (height - 1) as f32 {
                            [0.5, r, -0.0, 1.0]
                        } else {
                            [c.cos() * r, c.sin() * r, r * 0.7 + c * 0.1, 1.0]
                        }
                    })
                    .collect();
                let channels: [&[[f32; 4]]; 1] = [&points];
                let need = Need {
                    partials: false,
                    normal: true,
                };
                for segments in [3.0f32, 8.0, 13.0] {
                    let d = rect([segments; 4], EdgeStyle::Discrete, 64);
                    let gw = GridWeights::new(&u, &v, &d);
                    let e =
                        evaluate_rect(&u, &v, width as usize, &channels, &[need], &d, Some(&gw));
                    let mut four = e[0].normal.clone();
                    assert!(gw.fix_degenerate_normals(width as usize, &points, &mut four));
                    for (i, (n, got)) in e[0].normal.iter().zip(&four).enumerate() {
                        let want = if n[0].is_nan() {
                            fixed += 1;
                            let m = gw.inward_normal(width as usize, &points, i).unwrap();
                            if m[0].is_nan() {
                                [0.0; 3]
                            } else {
                                m
                            }
                        } else {
                            *n
                        };
                        let at = format!("{basis:?} {degree} {segments} {column_pole} vertex {i}");
                        assert_eq!(got.map(f32::to_bits), want.map(f32::to_bits), "{at}");
                    }
                }
            }
        }
        assert!(fixed > 0, "no degenerate normals were fixed");
    }

    #[test]
    fn forbidden_combinations() {
        assert!(Axis::new(Basis::Bezier, 4, 5, "width").is_err());
        assert!(Axis::new(Basis::Bezier, 3, 5, "width").is_err());
        assert!(Axis::new(Basis::Bspline, 3, 3, "width").is_err());
        assert!(Axis::new(Basis::CatmullRom, 2, 4, "width").is_err());
        assert!(Axis::new(Basis::CatmullRom, 3, 3, "width").is_err());
    }

    #[test]
    fn derivatives_match_finite_differences() {
        for axis in [
            Axis::new(Basis::Bezier, 3, 7, "w").unwrap(),
            Axis::new(Basis::Bspline, 5, 9, "w").unwrap(),
            Axis::new(Basis::Bspline, 2, 5, "w").unwrap(),
            Axis::new(Basis::CatmullRom, 3, 6, "w").unwrap(),
        ] {
            let f = |t: f32| {
                let w = axis.weights(t);
                (0..w.n)
                    .map(|i| w.w[i] * ((w.first + i) as f32).powi(2))
                    .sum::<f32>()
            };
            for t in [0.1f32, 0.37, 0.62, 0.9] {
                let w = axis.weights(t);
                let d: f32 = (0..w.n)
                    .map(|i| w.dw[i] * ((w.first + i) as f32).powi(2))
                    .sum();
                let h = 1e-3;
                let fd = (f(t + h) - f(t - h)) / (2.0 * h);
                assert!(
                    (d - fd).abs() < 0.05 * fd.abs().max(1.0),
                    "{axis:?} t={t}: {d} vs {fd}"
                );
            }
        }
    }
}
