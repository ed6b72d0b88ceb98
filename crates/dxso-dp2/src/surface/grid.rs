//! The grid kernel: one channel of a rect patch evaluated over a regular grid domain, four
//! vertices to a vector where it can, with the per-grid weights ([`GridWeights`]) it reads.

#[cfg(doc)]
use super::{evaluate_rect_with, normal_at, unit_normal};
use super::{inward, normal_of_weights, unit_normal_x4, Axis, Evaluated, Need, Weights};
use crate::domain::Domain;
use wide::f32x4;

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

/// [`unit_normal`] of four vertices at once, one per lane of the tangents' `x`, `y` and `z`
/// (the cross product is then whole-vector arithmetic instead of lane shuffles); the same
/// operations in the same order, so the same bits. Returns `[x, y, z, 0]` lane-wise.
#[inline(always)]
fn unit_normals_soa(du: [f32x4; 3], dv: [f32x4; 3]) -> [f32x4; 4] {
    normalise_soa(cross_soa(du, dv))
}

/// The first half of [`unit_normals_soa`]: the cross product `[x, y, z]` and its squared
/// length, lane-wise.
#[inline(always)]
fn cross_soa(du: [f32x4; 3], dv: [f32x4; 3]) -> [f32x4; 4] {
    let ([ux, uy, uz], [vx, vy, vz]) = (du, dv);
    let nx = uy * vz - uz * vy;
    let ny = uz * vx - ux * vz;
    let nz = ux * vy - uy * vx;
    let len2 = nx * nx + ny * ny + nz * nz;
    [nx, ny, nz, len2]
}

/// The second half of [`unit_normals_soa`]: a [`cross_soa`] result scaled to unit length,
/// NaN where it is (nearly) zero or not finite.
#[inline(always)]
fn normalise_soa([nx, ny, nz, len2]: [f32x4; 4]) -> [f32x4; 4] {
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

/// Where a grid vertex's value goes: all four components, or `x`, `y` and `z` alone (the
/// mesh's positions or normals, written there without a copy out of four lanes).
pub(super) trait ValueSlot: Copy + Default {
    /// The slot holding the components of `v` it keeps.
    fn of(v: [f32; 4]) -> Self;
}

impl ValueSlot for [f32; 4] {
    #[inline(always)]
    fn of(v: [f32; 4]) -> Self {
        v
    }
}

impl ValueSlot for [f32; 3] {
    #[inline(always)]
    fn of(v: [f32; 4]) -> Self {
        [v[0], v[1], v[2]]
    }
}

/// Buffers a caller keeps across rect-patch evaluations ([`evaluate_rect_with`]) so that
/// evaluating allocates nothing: a row's combinations of the control columns.
#[derive(Clone, Debug, Default)]
pub struct RectScratch {
    pairs: Vec<[f32x4; 2]>,
    /// The channel's control points, each component repeated in four lanes.
    points: Vec<[f32x4; 4]>,
    /// Per control column, the combinations of four rows (one per lane): the value's four
    /// components, then the v-derivative's.
    columns: Vec<[f32x4; 8]>,
    /// Per u parameter of four rows, the cross products of the tangents and their squared
    /// lengths ([`cross_soa`]), normalised after the whole row is summed.
    crosses: Vec<[f32x4; 4]>,
    /// Per channel, the values of a channel evaluated as `x`, `y` and `z` alone
    /// ([`super::evaluate_rect_split`]); traded with a mesh's positions or normals, so they
    /// keep the length of the last grid.
    xyz: Vec<Vec<[f32; 3]>>,
}

impl RectScratch {
    /// The per-channel `x`, `y`, `z` values of the last split evaluation.
    pub(crate) fn xyz_values(&mut self) -> &mut [Vec<[f32; 3]>] {
        &mut self.xyz
    }

    /// Channel `c`'s `x`, `y`, `z` array, taken out (to be put back with
    /// [`RectScratch::put_xyz`]).
    pub(crate) fn take_xyz(&mut self, c: usize) -> Vec<[f32; 3]> {
        if self.xyz.len() <= c {
            self.xyz.resize_with(c + 1, Vec::new);
        }
        std::mem::take(&mut self.xyz[c])
    }

    /// Puts back what [`RectScratch::take_xyz`] took.
    pub(crate) fn put_xyz(&mut self, c: usize, values: Vec<[f32; 3]>) {
        if let Some(slot) = self.xyz.get_mut(c) {
            *slot = values;
        }
    }
}

/// One channel over a whole grid, separably: the control columns are combined with a row's
/// v-weights once, then each vertex is an `N`-term sum across them (`N` = weights per u).
/// Runs of four rows that read the same control rows ([`GridWeights`] finds them) are
/// evaluated four rows to a vector ([`row_quad`]); the other rows one at a time
/// ([`grid_row`]: each column's value paired with its v-derivative). In such a row, runs of
/// four u parameters that read the same columns are evaluated four vertices to a vector
/// ([`quad_vertices`]: the columns' components repeated in four lanes, the weights of the
/// four vertices in the lanes); the rest one vertex to a vector ([`vertex_sums`]). Every
/// output is written straight into its slot of arrays sized for the whole grid (through
/// [`evaluate_rect_into`] kept from earlier draws), with the same sums in the same order, so
/// the same bits.
#[allow(clippy::needless_range_loop)] // counted loops over a constant N unroll; zips do not
#[allow(clippy::too_many_arguments)] // the channel, its outputs and the scratch
pub(super) fn grid_channel<const N: usize, T: ValueSlot>(
    gw: &GridWeights,
    width: usize,
    ch: &[[f32; 4]],
    need: Need,
    value_w: bool,
    values: &mut Vec<T>,
    o: &mut Evaluated,
    scratch: &mut RectScratch,
) {
    let columns = gw.u.len();
    let count = columns * gw.v.len();
    values.resize(count, T::default());
    if need.normal {
        o.normal.resize(count, [0.0; 3]);
    }
    if need.partials {
        o.du.resize(count, [0.0; 4]);
        o.dv.resize(count, [0.0; 4]);
    }
    // Runs of four rows that read the same `N` control rows: four rows to a vector.
    let mut grouped = false;
    // Without partials, the `w` components of the control points feed only the value's
    // `w`: where nobody reads that, the runs of four (rows or vertices) skip them.
    let skip_w = !value_w && !need.partials;
    for rq in &gw.row_quads {
        let fits = gw.v.get(rq.start).is_some_and(|wv| wv.n == N)
            && (rq.first + N)
                .checked_mul(width)
                .is_some_and(|end| end <= ch.len());
        if fits {
            if !grouped {
                grouped = true;
                // In place (an array per point built on the stack and copied in cost as
                // much again); a channel of the last one's size is not resized.
                scratch.points.resize(ch.len(), [f32x4::ZERO; 4]);
                let components = if skip_w { 3 } else { 4 };
                for (to, from) in scratch.points.iter_mut().zip(ch) {
                    for (to, &from) in to.iter_mut().zip(from).take(components) {
                        *to = f32x4::splat(from);
                    }
                }
            }
            if skip_w {
                row_quad::<N, 3, T>(gw, rq, width, need, values, o, scratch);
            } else {
                row_quad::<N, 4, T>(gw, rq, width, need, values, o, scratch);
            }
        } else {
            for r in rq.start..rq.start + 4 {
                one_row::<N, T>(gw, r, width, ch, need, skip_w, values, o, scratch);
            }
        }
    }
    for &r in &gw.lone_rows {
        one_row::<N, T>(gw, r, width, ch, need, skip_w, values, o, scratch);
    }
}

/// [`grid_row`] with the value's `w` left out (`skip_w`) or not.
#[allow(clippy::too_many_arguments)] // grid_row's inputs plus the choice
#[inline(always)]
fn one_row<const N: usize, T: ValueSlot>(
    gw: &GridWeights,
    r: usize,
    width: usize,
    ch: &[[f32; 4]],
    need: Need,
    skip_w: bool,
    values: &mut [T],
    o: &mut Evaluated,
    scratch: &mut RectScratch,
) {
    if skip_w {
        grid_row::<N, 3, T>(gw, r, width, ch, need, values, o, scratch);
    } else {
        grid_row::<N, 4, T>(gw, r, width, ch, need, values, o, scratch);
    }
}

/// Four rows of a grid from `row_quads` at once, one row per lane: per control column the
/// combination of the `N` control rows with each row's v-weights (the control points'
/// components repeated in four lanes, the weights of the four rows in the lanes), then per u
/// parameter the value, du and dv sums across those columns, and the normals lane-wise. The
/// same products added in the same order as [`grid_row`], so the same bits. The value's
/// components from `K` on (`K` is 3 or 4) are not summed and written as zero.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // counted loops over a constant N unroll; zips do not
fn row_quad<const N: usize, const K: usize, T: ValueSlot>(
    gw: &GridWeights,
    rq: &QuadWeights,
    width: usize,
    need: Need,
    values: &mut [T],
    o: &mut Evaluated,
    scratch: &mut RectScratch,
) {
    let RectScratch {
        points,
        columns,
        crosses,
        ..
    } = scratch;
    let Some(block) = points.get(rq.first * width..(rq.first + N) * width) else {
        return;
    };
    let rows: [&[[f32x4; 4]]; N] = std::array::from_fn(|b| &block[b * width..(b + 1) * width]);
    let tangents = need.normal || need.partials;
    // Every group overwrites the columns, so stale contents are never read.
    columns.resize(width, [f32x4::ZERO; 8]);
    for (col, c) in columns.iter_mut().enumerate() {
        for k in 0..K.min(4) {
            let (mut acc, mut accv) = (f32x4::ZERO, f32x4::ZERO);
            for b in 0..N.min(6) {
                let p = rows[b][col][k];
                acc += rq.w[b] * p;
                accv += rq.dw[b] * p;
            }
            c[k] = acc;
            c[4 + k] = accv;
        }
    }
    let columns = &columns[..];
    let row_width = gw.u.len();
    if need.normal {
        crosses.resize(row_width, [f32x4::ZERO; 4]);
    }
    let mut value_rows = four_rows(values, rq.start, row_width);
    for (j, (wu, sw)) in gw.u.iter().zip(&gw.splat_u).enumerate() {
        let window = columns_at_soa::<N>(columns, wu.first);
        let mut val = [f32x4::ZERO; 4];
        if let Some(cols) = window {
            for k in 0..K.min(4) {
                for a in 0..N.min(6) {
                    val[k] += sw.w[a] * cols[a][k];
                }
            }
        }
        let slot = |l: usize| (rq.start + l) * row_width + j;
        if let Some(rows) = &mut value_rows {
            for (row, v) in rows.iter_mut().zip(f32x4::transpose(val)) {
                if let Some(out) = row.get_mut(j) {
                    *out = T::of(v.to_array());
                }
            }
        }
        if !tangents {
            continue;
        }
        // du and dv of x, y and z (all the normal reads); w only when the partials are kept.
        let (mut du, mut dv) = ([f32x4::ZERO; 4], [f32x4::ZERO; 4]);
        let derivative = |du: &mut [f32x4; 4], dv: &mut [f32x4; 4], k: usize| {
            if let Some(cols) = window {
                for a in 0..N.min(6) {
                    du[k] += sw.dw[a] * cols[a][k];
                }
                for a in 0..N.min(6) {
                    dv[k] += sw.w[a] * cols[a][4 + k];
                }
            }
        };
        for k in 0..3 {
            derivative(&mut du, &mut dv, k);
        }
        if need.partials {
            derivative(&mut du, &mut dv, 3);
            for (l, (u, v)) in f32x4::transpose(du)
                .into_iter()
                .zip(f32x4::transpose(dv))
                .enumerate()
            {
                if let (Some(du_out), Some(dv_out)) = (o.du.get_mut(slot(l)), o.dv.get_mut(slot(l)))
                {
                    *du_out = u.to_array();
                    *dv_out = v.to_array();
                }
            }
        }
        if let Some(c) = crosses.get_mut(j) {
            *c = cross_soa([du[0], du[1], du[2]], [dv[0], dv[1], dv[2]]);
        }
    }
    if !need.normal {
        return;
    }
    // The square roots and divisions of a whole row of four-vertex groups, independent of
    // each other (after each group's sums they made one long chain of latencies per group).
    let Some(mut normal_rows) = four_rows(&mut o.normal, rq.start, row_width) else {
        return;
    };
    for (j, c) in crosses.iter().enumerate() {
        let n = normalise_soa(*c);
        for (row, v) in normal_rows.iter_mut().zip(f32x4::transpose(n)) {
            if let Some(out) = row.get_mut(j) {
                let [x, y, z, _] = v.to_array();
                *out = [x, y, z];
            }
        }
    }
}

/// The four rows from row `start` of a row-major grid array `width` wide; `None` past its
/// end.
fn four_rows<T>(array: &mut [T], start: usize, width: usize) -> Option<[&mut [T]; 4]> {
    let block =
        array.get_mut(start.checked_mul(width)?..start.checked_add(4)?.checked_mul(width)?)?;
    let (r0, rest) = block.split_at_mut(width);
    let (r1, rest) = rest.split_at_mut(width);
    let (r2, r3) = rest.split_at_mut(width);
    Some([r0, r1, r2, r3])
}

/// [`columns_at`] for the four-row columns of [`row_quad`].
#[inline(always)]
fn columns_at_soa<const N: usize>(
    columns: &[[f32x4; 8]],
    first: usize,
) -> Option<&[[f32x4; 8]; N]> {
    columns.get(first..first.checked_add(N)?)?.try_into().ok()
}

/// One row of a grid: the control columns combined with the row's v-weights (each column's
/// value paired with its v-derivative), then each vertex an `N`-term sum across them, four
/// vertices to a vector where four u parameters share their columns (those leave the
/// value's components from `K` on zero, as [`row_quad`] does).
#[allow(clippy::needless_range_loop)] // counted loops over a constant N unroll; zips do not
#[allow(clippy::too_many_arguments)] // the row, its outputs and the scratch
fn grid_row<const N: usize, const K: usize, T: ValueSlot>(
    gw: &GridWeights,
    r: usize,
    width: usize,
    ch: &[[f32; 4]],
    need: Need,
    values: &mut [T],
    o: &mut Evaluated,
    scratch: &mut RectScratch,
) {
    let columns = gw.u.len();
    // Every row overwrites the column pairs, so stale contents are never read.
    let pairs = &mut scratch.pairs;
    pairs.resize(width, [f32x4::ZERO; 2]);
    let tangent_rows = need.normal || need.partials;
    // The columns of a run of four, each component repeated in four lanes.
    let mut splat = [[[f32x4::ZERO; 4]; 2]; N];
    if let Some(wv) = gw.v.get(r) {
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
        let values = &mut values[row.clone()];
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
                                for k in 0..K.min(4) {
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
            quad_vertices::<N, K, T>(quad, &splat, quad_values, quad_normals, quad_partials);
        }
        for &i in &gw.singles {
            let (Some(wu), Some(sw), Some(val)) =
                (gw.u.get(i), gw.splat_u.get(i), values.get_mut(i))
            else {
                continue;
            };
            if !tangent_rows {
                *val = T::of(vertex_value::<N>(sw, pairs, wu.first).to_array());
                continue;
            }
            let [v, du, dv] = vertex_sums::<N>(sw, pairs, wu.first);
            *val = T::of(v.to_array());
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
/// transposed into the output slots that are given. The value's components from `K` on
/// are zero.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // counted loops over a constant N unroll; zips do not
fn quad_vertices<const N: usize, const K: usize, T: ValueSlot>(
    quad: &QuadWeights,
    splat: &[[[f32x4; 4]; 2]; N],
    values: Option<&mut [T]>,
    normals: Option<&mut [[f32; 3]]>,
    partials: Option<PartialSlots<'_>>,
) {
    let mut val = [f32x4::ZERO; 4];
    for (k, v) in val.iter_mut().enumerate().take(K) {
        for a in 0..N.min(6) {
            *v += quad.w[a] * splat[a][0][k];
        }
    }
    if let Some(values) = values {
        for (slot, v) in values.iter_mut().zip(f32x4::transpose(val)) {
            *slot = T::of(v.to_array());
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
    pub(super) quads: Vec<QuadWeights>,
    /// The u parameters in no such run, evaluated one at a time.
    singles: Vec<usize>,
    /// Runs of four consecutive v parameters (rows) whose weights apply to the same control
    /// rows: their rows are evaluated together, one per lane ([`row_quad`]).
    pub(super) row_quads: Vec<QuadWeights>,
    /// The rows in no such run, evaluated one at a time.
    lone_rows: Vec<usize>,
}

/// Four consecutive u parameters sharing their first control column: the weights of term
/// `a` of the four in the four lanes of `w[a]` (and `dw[a]`), so each vertex's sums are
/// lane-wise products with a control column's component repeated in four lanes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct QuadWeights {
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

impl GridWeights {
    /// The weights for a grid domain (empty for a stitched one).
    pub fn new(u_axis: &Axis, v_axis: &Axis, domain: &Domain) -> GridWeights {
        match &domain.grid {
            Some((us, vs)) => {
                let u: Vec<Weights> = us.iter().map(|&u| u_axis.weights(u)).collect();
                let v: Vec<Weights> = vs.iter().map(|&v| v_axis.weights(v)).collect();
                let (quads, singles) = quads_of(&u);
                let (row_quads, lone_rows) = quads_of(&v);
                GridWeights {
                    row_quads,
                    lone_rows,
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

    /// Replaces every degenerate normal of a grid (NaN in `x`, as [`unit_normal`] leaves
    /// it) by [`GridWeights::inward_normal`] there, or by zero where that is degenerate too.
    /// A row's degenerate vertices are gathered four at a time (contiguous or not: rounding
    /// leaves some tangents at a pole crossing), and four whose inward weights read the same
    /// control columns (bicubic patches) are evaluated together, one vertex per lane (a
    /// row's last group repeats a vertex in its spare lanes), with the products and sums of
    /// the one-at-a-time path ([`normal_at`]) in its order, so the same bits. False (and
    /// nothing changed) if `normals` is not one per vertex of this grid.
    pub fn fix_degenerate_normals(
        &self,
        width: usize,
        channel: &[[f32; 4]],
        normals: &mut [[f32; 3]],
    ) -> bool {
        let columns = self.inward_u.len();
        if columns == 0 || normals.len() != columns * self.inward_v.len() {
            return false;
        }
        for (row, wv) in normals.chunks_exact_mut(columns).zip(&self.inward_v) {
            // Most rows have none: the scan is branch-free.
            if !row.iter().fold(false, |any, n| any | n[0].is_nan()) {
                continue;
            }
            let mut group = [0usize; 4];
            let mut gathered = 0;
            for j in 0..columns {
                if row[j][0].is_nan() {
                    group[gathered] = j;
                    gathered += 1;
                    if gathered == 4 {
                        self.fix_group(width, channel, row, wv, group);
                        gathered = 0;
                    }
                }
            }
            if gathered > 0 {
                let last = group[gathered - 1];
                group[gathered..].fill(last);
                self.fix_group(width, channel, row, wv, group);
            }
        }
        true
    }

    /// The inward normals of four vertices of a row (columns `group`, perhaps repeated),
    /// four lanes at once where they read the same control columns, else one at a time.
    fn fix_group(
        &self,
        width: usize,
        channel: &[[f32; 4]],
        row: &mut [[f32; 3]],
        wv: &Weights,
        group: [usize; 4],
    ) {
        let fixed = |n: [f32; 3]| if n[0].is_nan() { [0.0; 3] } else { n };
        let lanes = match group.map(|j| self.inward_u.get(j)) {
            [Some(u0), Some(u1), Some(u2), Some(u3)]
                if wv.n == 4
                    && [u0, u1, u2, u3]
                        .iter()
                        .all(|u| u.n == 4 && u.first == u0.first) =>
            {
                inward_normals_x4([u0, u1, u2, u3], wv, width, channel)
            }
            _ => None,
        };
        for (l, j) in group.into_iter().enumerate() {
            let n = match (&lanes, self.inward_u.get(j)) {
                (Some(n), _) => n[l],
                (None, Some(wu)) => normal_of_weights(wu, wv, width, channel),
                (None, None) => continue,
            };
            if let Some(slot) = row.get_mut(j) {
                *slot = fixed(n);
            }
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

/// [`normal_of_weights`] of four bicubic vertices sharing their v weights and first column,
/// one per lane: each lane multiplies its own weight products (`wu.dw[a] * wv.w[b]`, as the
/// scalar path does) with the control point's component repeated in four lanes, adding in
/// the same order; then the operations of [`unit_normal`]. `None` if a row is not in
/// `channel`.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // counted loops over a constant N unroll; zips do not
fn inward_normals_x4(
    wu: [&Weights; 4],
    wv: &Weights,
    width: usize,
    channel: &[[f32; 4]],
) -> Option<[[f32; 3]; 4]> {
    let lanes = |pick: fn(&Weights) -> &[f32; 6], a: usize| {
        f32x4::new([
            pick(wu[0])[a],
            pick(wu[1])[a],
            pick(wu[2])[a],
            pick(wu[3])[a],
        ])
    };
    let w: [f32x4; 4] = std::array::from_fn(|a| lanes(|w| &w.w, a));
    let dw: [f32x4; 4] = std::array::from_fn(|a| lanes(|w| &w.dw, a));
    let (mut du, mut dv) = ([f32x4::ZERO; 3], [f32x4::ZERO; 3]);
    for b in 0..4 {
        let start = (wv.first + b) * width + wu[0].first;
        let row: &[[f32; 4]; 4] = channel.get(start..start.checked_add(4)?)?.try_into().ok()?;
        let (wb, dwb) = (f32x4::splat(wv.w[b]), f32x4::splat(wv.dw[b]));
        for a in 0..4 {
            let (wdu, wdv) = (dw[a] * wb, w[a] * dwb);
            for k in 0..3 {
                let cp = f32x4::splat(row[a][k]);
                du[k] += wdu * cp;
                dv[k] += wdv * cp;
            }
        }
    }
    let n = f32x4::transpose(normalise_soa(cross_soa(du, dv)));
    Some(n.map(|v| {
        let [x, y, z, _] = v.to_array();
        [x, y, z]
    }))
}
