//! Rect patch surfaces: the 1-D bases (Bezier, uniform B-spline, Catmull-Rom) and their tensor
//! product evaluated over a tessellated [`Domain`].

use crate::domain::Domain;
use thiserror::Error;
use wide::f32x4;

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

    #[inline(always)]
    fn push(&mut self, need: Need, val: [f32; 4], du: [f32; 4], dv: [f32; 4]) {
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

/// The `N` columns (each paired with its v-derivative) from `first`, if the row has them
/// ([`Axis::weights`] makes sure it does).
#[inline(always)]
fn columns_at<const N: usize>(pairs: &[[f32x4; 2]], first: usize) -> Option<&[[f32x4; 2]; N]> {
    pairs.get(first..first.checked_add(N)?)?.try_into().ok()
}

/// The value, du and dv of one vertex from the `N` columns its u weights apply to: `N`-term
/// sums accumulated in index order from zero, the order every path uses, so results match to
/// the bit. The 4-lane type keeps the sums whole-vector (one add and one multiply per term
/// and output) whatever uses them. Zero without the columns (as the sums over zeros are).
#[inline(always)]
#[allow(clippy::needless_range_loop)] // counted loops over a constant N unroll; zips do not
fn vertex_sums<const N: usize>(
    sw: &SplatWeights,
    pairs: &[[f32x4; 2]],
    first: usize,
) -> [f32x4; 3] {
    let (mut val, mut du, mut dv) = (f32x4::ZERO, f32x4::ZERO, f32x4::ZERO);
    // A branch, not a select per load: the sums run only on columns that exist.
    if let Some(columns) = columns_at::<N>(pairs, first) {
        // A counted loop over a constant `N` (a zip with the 6-long weights is not unrolled).
        for i in 0..N.min(6) {
            let [c, cv] = columns[i];
            val += sw.w[i] * c;
            du += sw.dw[i] * c;
            dv += sw.w[i] * cv;
        }
    }
    [val, du, dv]
}

/// [`vertex_sums`] for the value alone.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // counted loops over a constant N unroll; zips do not
fn vertex_value<const N: usize>(sw: &SplatWeights, pairs: &[[f32x4; 2]], first: usize) -> f32x4 {
    let mut val = f32x4::ZERO;
    if let Some(columns) = columns_at::<N>(pairs, first) {
        for i in 0..N.min(6) {
            val += sw.w[i] * columns[i][0];
        }
    }
    val
}

/// [`unit_normal`] of two 4-lane tangents.
#[inline(always)]
fn unit_normal_x4(du: f32x4, dv: f32x4) -> [f32; 3] {
    unit_normal(&du.to_array(), &dv.to_array())
}

/// [`unit_normal`] of four vertices at once, one per lane of the tangents' `x`, `y` and `z`
/// (the cross product is then whole-vector arithmetic instead of lane shuffles); the same
/// operations in the same order, so the same bits. Returns `[x, y, z, 0]` lane-wise.
#[inline(always)]
fn unit_normals_soa(du: [f32x4; 3], dv: [f32x4; 3]) -> [f32x4; 4] {
    let ([ux, uy, uz], [vx, vy, vz]) = (du, dv);
    let nx = uy * vz - uz * vy;
    let ny = uz * vx - ux * vz;
    let nz = ux * vy - uy * vx;
    let len2 = nx * nx + ny * ny + nz * nz;
    let inv = f32x4::ONE / len2.sqrt();
    // len2 is a sum of squares: not below zero, so `> 1e-30 && < inf` is unit_normal's test.
    let ok = len2.simd_gt(f32x4::splat(1e-30)) & len2.simd_lt(f32x4::splat(f32::INFINITY));
    let nan = f32x4::splat(f32::NAN);
    [
        ok.bitselect(nx * inv, nan),
        ok.bitselect(ny * inv, nan),
        ok.bitselect(nz * inv, nan),
        f32x4::ZERO,
    ]
}

/// Buffers a caller keeps across rect-patch evaluations ([`evaluate_rect_with`]) so that
/// evaluating allocates nothing: a row's combinations of the control columns.
#[derive(Clone, Debug, Default)]
pub struct RectScratch {
    pairs: Vec<[f32x4; 2]>,
}

/// One channel over a whole grid, separably: per row, the control columns are combined with
/// that row's v-weights once (each column's value paired with its v-derivative), then each
/// vertex is an `N`-term sum across them (`N` = weights per u). Runs of four u parameters
/// that read the same columns ([`GridWeights`] finds them) are evaluated four vertices to a
/// vector ([`quad_vertices`]: the columns' components repeated in four lanes, the weights of
/// the four vertices in the lanes); the rest one vertex to a vector ([`vertex_sums`]). Either
/// way every output is written straight into its slot of arrays sized for the whole grid
/// (through [`evaluate_rect_into`] kept from earlier draws), with the same sums in the same
/// order, so the same bits.
#[allow(clippy::needless_range_loop)] // counted loops over a constant N unroll; zips do not
fn grid_channel<const N: usize>(
    gw: &GridWeights,
    width: usize,
    ch: &[[f32; 4]],
    need: Need,
    o: &mut Evaluated,
    scratch: &mut RectScratch,
) {
    let columns = gw.u.len();
    let count = columns * gw.v.len();
    o.value.resize(count, [0.0; 4]);
    if need.normal {
        o.normal.resize(count, [0.0; 3]);
    }
    if need.partials {
        o.du.resize(count, [0.0; 4]);
        o.dv.resize(count, [0.0; 4]);
    }
    // Every row overwrites the column pairs, so stale contents are never read.
    let pairs = &mut scratch.pairs;
    pairs.resize(width, [f32x4::ZERO; 2]);
    let tangent_rows = need.normal || need.partials;
    // The columns of a run of four, each component repeated in four lanes (filled per row).
    let mut splat = [[[f32x4::ZERO; 4]; 2]; N];
    for (r, wv) in gw.v.iter().enumerate() {
        // The control rows this row's v-weights apply to, each exactly `width` long.
        let control_rows: Option<[&[[f32; 4]]; N]> = (wv.n == N).then(|| {
            std::array::from_fn(|b| {
                let start = (wv.first + b) * width;
                ch.get(start..start + width).unwrap_or(&[])
            })
        });
        match (control_rows, gw.splat_v.get(r)) {
            // As many rows as u weights (the v axis has the u axis's degree, as in nearly
            // every patch): a fixed number of terms, and no index check per control point.
            (Some(rows), Some(sv)) if rows.iter().all(|r| r.len() == width) => {
                for (col, pair) in pairs.iter_mut().enumerate() {
                    let (mut acc, mut accv) = (f32x4::ZERO, f32x4::ZERO);
                    for b in 0..N.min(6) {
                        let p = f32x4::from(rows[b][col]);
                        acc += sv.w[b] * p;
                        accv += sv.dw[b] * p;
                    }
                    *pair = [acc, accv];
                }
            }
            _ => {
                for (col, pair) in pairs.iter_mut().enumerate() {
                    let (mut acc, mut accv) = (f32x4::ZERO, f32x4::ZERO);
                    for b in 0..wv.n {
                        let p = f32x4::from(ch[(wv.first + b) * width + col]);
                        acc += f32x4::splat(wv.w[b]) * p;
                        accv += f32x4::splat(wv.dw[b]) * p;
                    }
                    *pair = [acc, accv];
                }
            }
        }
        let pairs = &pairs[..];
        let row = r * columns..(r + 1) * columns;
        let values = &mut o.value[row.clone()];
        let normals = if need.normal {
            &mut o.normal[row.clone()]
        } else {
            &mut []
        };
        let (du_out, dv_out) = if need.partials {
            (&mut o.du[row.clone()], &mut o.dv[row])
        } else {
            (&mut [][..], &mut [][..])
        };
        // Four vertices at a time where four u parameters share their columns.
        let mut splat_first = None;
        for quad in &gw.quads {
            if splat_first != Some(quad.first) {
                splat_first = Some(quad.first);
                // In place (a whole new array would be copied in).
                match columns_at::<N>(pairs, quad.first) {
                    Some(cols) => {
                        for (to, from) in splat.iter_mut().zip(cols) {
                            for (to, from) in to.iter_mut().zip(from) {
                                let from = from.to_array();
                                for k in 0..4 {
                                    to[k] = f32x4::splat(from[k]);
                                }
                            }
                        }
                    }
                    None => splat = [[[f32x4::ZERO; 4]; 2]; N],
                }
            }
            let out = quad.start..quad.start + 4;
            let quad_values = values.get_mut(out.clone());
            let quad_normals = normals.get_mut(out.clone());
            let quad_partials = du_out.get_mut(out.clone()).zip(dv_out.get_mut(out));
            quad_vertices(quad, &splat, quad_values, quad_normals, quad_partials);
        }
        for &i in &gw.singles {
            let (Some(wu), Some(sw), Some(val)) =
                (gw.u.get(i), gw.splat_u.get(i), values.get_mut(i))
            else {
                continue;
            };
            if !tangent_rows {
                *val = vertex_value::<N>(sw, pairs, wu.first).to_array();
                continue;
            }
            let [v, du, dv] = vertex_sums::<N>(sw, pairs, wu.first);
            *val = v.to_array();
            if let Some(n) = normals.get_mut(i) {
                *n = unit_normal_x4(du, dv);
            }
            if let (Some(du_slot), Some(dv_slot)) = (du_out.get_mut(i), dv_out.get_mut(i)) {
                *du_slot = du.to_array();
                *dv_slot = dv.to_array();
            }
        }
    }
}

/// Where four vertices' du and dv go.
type PartialSlots<'a> = (&'a mut [[f32; 4]], &'a mut [[f32; 4]]);

/// Four vertices of a row at once, one per lane: the value, du and dv sums of each (the
/// same products added in the same order as [`vertex_sums`]), then the unit normals (the
/// operations of [`unit_normal`]) with no transpose of the tangents, and the results
/// transposed into the output slots that are given.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // counted loops over a constant N unroll; zips do not
fn quad_vertices<const N: usize>(
    quad: &QuadWeights,
    splat: &[[[f32x4; 4]; 2]; N],
    values: Option<&mut [[f32; 4]]>,
    normals: Option<&mut [[f32; 3]]>,
    partials: Option<PartialSlots<'_>>,
) {
    let mut val = [f32x4::ZERO; 4];
    for (k, v) in val.iter_mut().enumerate() {
        for a in 0..N.min(6) {
            *v += quad.w[a] * splat[a][0][k];
        }
    }
    if let Some(values) = values {
        for (slot, v) in values.iter_mut().zip(f32x4::transpose(val)) {
            *slot = v.to_array();
        }
    }
    if normals.is_none() && partials.is_none() {
        return;
    }
    // du and dv of x, y and z (all the normal reads); w only when the partials are kept.
    let (mut du, mut dv) = ([f32x4::ZERO; 4], [f32x4::ZERO; 4]);
    let derivative = |du: &mut [f32x4; 4], dv: &mut [f32x4; 4], k: usize| {
        for a in 0..N.min(6) {
            du[k] += quad.dw[a] * splat[a][0][k];
        }
        for a in 0..N.min(6) {
            dv[k] += quad.w[a] * splat[a][1][k];
        }
    };
    for k in 0..3 {
        derivative(&mut du, &mut dv, k);
    }
    if let Some((du_out, dv_out)) = partials {
        derivative(&mut du, &mut dv, 3);
        for (slot, v) in du_out.iter_mut().zip(f32x4::transpose(du)) {
            *slot = v.to_array();
        }
        for (slot, v) in dv_out.iter_mut().zip(f32x4::transpose(dv)) {
            *slot = v.to_array();
        }
    }
    if let Some(normals) = normals {
        let n = unit_normals_soa([du[0], du[1], du[2]], [dv[0], dv[1], dv[2]]);
        for (slot, v) in normals.iter_mut().zip(f32x4::transpose(n)) {
            let [x, y, z, _] = v.to_array();
            *slot = [x, y, z];
        }
    }
}

/// The basis weights of every column (u) and row (v) parameter of a grid domain: they depend
/// only on the axes and the domain, so draws with the same shape and segments share them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GridWeights {
    /// Per u parameter.
    pub u: Vec<Weights>,
    /// Per v parameter.
    pub v: Vec<Weights>,
    /// Per u and v parameter, the weights a little way towards the middle ([`inward`]),
    /// where a degenerate normal is taken again.
    inward_u: Vec<Weights>,
    inward_v: Vec<Weights>,
    /// Per u parameter, its weights and derivative weights each repeated in four lanes, so
    /// that a sum over 4-lane curve values multiplies lane by lane (no broadcast per term).
    splat_u: Vec<SplatWeights>,
    /// The same per v parameter.
    splat_v: Vec<SplatWeights>,
    /// Runs of four consecutive u parameters whose weights apply to the same columns: their
    /// vertices are evaluated together, one per lane ([`QuadWeights`]).
    quads: Vec<QuadWeights>,
    /// The u parameters in no such run, evaluated one at a time.
    singles: Vec<usize>,
}

/// Four consecutive u parameters sharing their first control column: the weights of term
/// `a` of the four in the four lanes of `w[a]` (and `dw[a]`), so each vertex's sums are
/// lane-wise products with a control column's component repeated in four lanes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct QuadWeights {
    /// The first of the four u parameters.
    start: usize,
    /// Their shared first column.
    first: usize,
    w: [f32x4; 6],
    dw: [f32x4; 6],
}

/// Splits the u parameters into runs of four sharing their columns and the rest.
fn quads_of(u: &[Weights]) -> (Vec<QuadWeights>, Vec<usize>) {
    let (mut quads, mut singles) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < u.len() {
        match u.get(i..i + 4) {
            Some(run)
                if run
                    .iter()
                    .all(|w| w.first == run[0].first && w.n == run[0].n) =>
            {
                let lanes = |pick: fn(&Weights) -> &[f32; 6]| -> [f32x4; 6] {
                    std::array::from_fn(|a| {
                        f32x4::new([
                            pick(&run[0])[a],
                            pick(&run[1])[a],
                            pick(&run[2])[a],
                            pick(&run[3])[a],
                        ])
                    })
                };
                quads.push(QuadWeights {
                    start: i,
                    first: run[0].first,
                    w: lanes(|w| &w.w),
                    dw: lanes(|w| &w.dw),
                });
                i += 4;
            }
            _ => {
                singles.push(i);
                i += 1;
            }
        }
    }
    (quads, singles)
}

/// [`Weights::w`] and [`Weights::dw`] with every weight repeated in four lanes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct SplatWeights {
    w: [f32x4; 6],
    dw: [f32x4; 6],
}

impl SplatWeights {
    fn new(w: &Weights) -> Self {
        SplatWeights {
            w: w.w.map(f32x4::splat),
            dw: w.dw.map(f32x4::splat),
        }
    }
}

/// A parameter moved a thousandth of the way towards the middle of the patch: where a normal
/// that is degenerate at a pole is evaluated instead.
pub fn inward(t: f32) -> f32 {
    t + (0.5 - t) * 1e-3
}

impl GridWeights {
    /// The weights for a grid domain (empty for a stitched one).
    pub fn new(u_axis: &Axis, v_axis: &Axis, domain: &Domain) -> GridWeights {
        match &domain.grid {
            Some((us, vs)) => {
                let u: Vec<Weights> = us.iter().map(|&u| u_axis.weights(u)).collect();
                let v: Vec<Weights> = vs.iter().map(|&v| v_axis.weights(v)).collect();
                let (quads, singles) = quads_of(&u);
                GridWeights {
                    splat_v: v.iter().map(SplatWeights::new).collect(),
                    v,
                    inward_u: us.iter().map(|&u| u_axis.weights(inward(u))).collect(),
                    inward_v: vs.iter().map(|&v| v_axis.weights(inward(v))).collect(),
                    splat_u: u.iter().map(SplatWeights::new).collect(),
                    quads,
                    singles,
                    u,
                }
            }
            None => GridWeights::default(),
        }
    }

    /// The unit normal of `channel` at grid vertex `index` (row-major) moved [`inward`], as
    /// [`normal_at`] gives it; `None` when the grid has no such vertex.
    pub fn inward_normal(
        &self,
        width: usize,
        channel: &[[f32; 4]],
        index: usize,
    ) -> Option<[f32; 3]> {
        let columns = self.inward_u.len();
        let wu = self.inward_u.get(index % columns.max(1))?;
        let wv = self.inward_v.get(index / columns.max(1))?;
        Some(normal_of_weights(wu, wv, width, channel))
    }
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
        for ((ch, &need), o) in channels.iter().zip(needs).zip(out.iter_mut()) {
            if ch.is_empty() {
                continue; // a generated element: nothing to read
            }
            match u_axis.degree as usize + 1 {
                2 => grid_channel::<2>(gw, width, ch, need, o, scratch),
                3 => grid_channel::<3>(gw, width, ch, need, o, scratch),
                4 => grid_channel::<4>(gw, width, ch, need, o, scratch),
                _ => grid_channel::<6>(gw, width, ch, need, o, scratch),
            }
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
        let mut quads = 0;
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
