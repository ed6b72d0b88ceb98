//! The grid kernel: one channel over a regular grid, evaluated four vertices at a time.
//!
//! Per row the control columns are combined with the row's v-weights once (as 4-component
//! values, then each component repeated in four lanes); per group of up to four consecutive
//! u parameters that share their control columns ([`LaneGroup`]), each lane is one vertex,
//! so the sums, the cross product and the normalisation are the same lane-by-lane arithmetic
//! for all four and compile to whole-register vector code. Every lane adds the same terms in
//! the same order as the one-vertex formulas ([`super::unit_normal`], the weighted sums from
//! zero), so results are the same to the bit.

use super::{Evaluated, Need, Weights};

/// Four `f32` lanes, 16-byte aligned so that vector loads fold into the arithmetic.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(16))]
pub(super) struct Lanes(pub(super) [f32; 4]);

impl Lanes {
    #[inline(always)]
    fn splat(x: f32) -> Lanes {
        Lanes([x; 4])
    }

    /// `self + a * b`, lane by lane (a multiply, then an add: no fused rounding).
    #[inline(always)]
    fn mad(self, a: Lanes, b: Lanes) -> Lanes {
        let mut out = self;
        for k in 0..4 {
            out.0[k] += a.0[k] * b.0[k];
        }
        out
    }

    #[inline(always)]
    fn zip(self, other: Lanes, f: impl Fn(f32, f32) -> f32) -> Lanes {
        let mut out = self;
        for k in 0..4 {
            out.0[k] = f(self.0[k], other.0[k]);
        }
        out
    }
}

impl std::ops::Mul for Lanes {
    type Output = Lanes;
    #[inline(always)]
    fn mul(self, b: Lanes) -> Lanes {
        self.zip(b, |x, y| x * y)
    }
}

impl std::ops::Sub for Lanes {
    type Output = Lanes;
    #[inline(always)]
    fn sub(self, b: Lanes) -> Lanes {
        self.zip(b, |x, y| x - y)
    }
}

impl std::ops::Add for Lanes {
    type Output = Lanes;
    #[inline(always)]
    fn add(self, b: Lanes) -> Lanes {
        self.zip(b, |x, y| x + y)
    }
}

/// Up to four consecutive u parameters of a grid whose weights start at the same control
/// column: lane `j` of `w[i]` is weight `i` of parameter `start + j` (unused lanes have zero
/// weights; their results are dropped).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct LaneGroup {
    /// The first u parameter.
    start: usize,
    /// The first control column the weights apply to.
    first: usize,
    /// Parameters in the group (1 to 4).
    lanes: usize,
    w: [Lanes; 6],
    dw: [Lanes; 6],
}

/// The u weights of a grid in groups of four consecutive parameters that start at the same
/// control column. A run of such parameters four or longer is covered by full groups only,
/// the last one overlapping its neighbour (those vertices are computed twice, identically),
/// so that every group of such a run writes four whole vertices; a shorter run is one
/// partial group.
pub(super) fn lane_groups(u: &[Weights]) -> Vec<LaneGroup> {
    let mut groups = Vec::with_capacity(u.len().div_ceil(4) + 1);
    let mut run = 0;
    while run < u.len() {
        let first = u[run].first;
        let len = u[run..].iter().take_while(|w| w.first == first).count();
        let mut start = run;
        loop {
            let lanes = len.min(4);
            let start_in_run = (start - run).min(len - lanes);
            let at = run + start_in_run;
            let mut g = LaneGroup {
                start: at,
                first,
                lanes,
                ..LaneGroup::default()
            };
            for (j, wu) in u[at..at + lanes].iter().enumerate() {
                for i in 0..6 {
                    g.w[i].0[j] = wu.w[i];
                    g.dw[i].0[j] = wu.dw[i];
                }
            }
            groups.push(g);
            start = at + lanes;
            if start >= run + len {
                break;
            }
        }
        run += len;
    }
    groups
}

/// Buffers kept across rect-patch evaluations (see [`super::RectScratch`]).
#[derive(Clone, Debug, Default)]
pub(super) struct GridScratch {
    /// Per component and control column: the column combined with the row's v-weights (`q`) and
    /// v-derivative weights (`qv`), each component repeated in four lanes.
    q: [Vec<Lanes>; 4],
    qv: [Vec<Lanes>; 4],
    /// The same, as one 4-component value per column.
    columns: Vec<[f32; 4]>,
    columns_v: Vec<[f32; 4]>,
    /// One row's results: value, du, dv and normal, each as one array per component.
    soa: [[Vec<f32>; 4]; 4],
}

/// Stores four lanes of each component at `start` of its row array (arrays too short, or
/// not in use, are left alone).
#[inline(always)]
fn store_lanes(rows: &mut [Vec<f32>; 4], start: usize, lanes: &Soa) {
    for (row, l) in rows.iter_mut().zip(lanes) {
        if let Some(dst) = row.get_mut(start..start + 4) {
            dst.copy_from_slice(&l.0);
        }
    }
}

/// Copies a row from component arrays into a row of an output array (one vertex at a
/// time; the component arrays were written a whole row earlier, so the loads do not wait
/// on the stores, as transposing straight out of registers through memory does).
#[inline(always)]
fn gather<T>(out: Option<&mut [T]>, rows: &[Vec<f32>; 4], f: impl Fn([f32; 4]) -> T) {
    let Some(out) = out else { return };
    let n = out.len();
    let (Some(x), Some(y), Some(z), Some(w)) = (
        rows[0].get(..n),
        rows[1].get(..n),
        rows[2].get(..n),
        rows[3].get(..n),
    ) else {
        return;
    };
    for (j, dst) in out.iter_mut().enumerate() {
        *dst = f([x[j], y[j], z[j], w[j]]);
    }
}

/// Component `c` of every column, repeated in four lanes, into `q[c]` (sized to match).
#[inline(always)]
fn splat_columns(columns: &[[f32; 4]], q: &mut [Vec<Lanes>; 4]) {
    for (c, lanes) in q.iter_mut().enumerate() {
        for (dst, col) in lanes.iter_mut().zip(columns) {
            *dst = Lanes::splat(col[c]);
        }
    }
}

/// One component of four vertices' values: the sum of `N` weighted columns from zero.
#[inline(never)]
fn value_sum<const N: usize>(g: &LaneGroup, q: &[Lanes; N]) -> Lanes {
    let mut acc = Lanes::default();
    for i in 0..N {
        acc = acc.mad(g.w[i], q[i]);
    }
    acc
}

/// One component of four vertices' value, u-derivative and v-derivative. (Kept out of
/// line: inlined into the loop over components, the compiler vectorises across components
/// instead of vertices and gathers every operand lane by lane.)
#[inline(always)]
fn component_sums<const N: usize>(g: &LaneGroup, q: &[Lanes; N], qv: &[Lanes; N]) -> [Lanes; 3] {
    let (mut val, mut du, mut dv) = (Lanes::default(), Lanes::default(), Lanes::default());
    for i in 0..N {
        val = val.mad(g.w[i], q[i]);
        du = du.mad(g.dw[i], q[i]);
        dv = dv.mad(g.w[i], qv[i]);
    }
    [val, du, dv]
}

/// The four components of a value for four vertices, component-major.
type Soa = [Lanes; 4];

/// The `N` columns from `first` (zeros if the weights ever pointed outside the grid, which
/// [`super::Axis::weights`] rules out).
#[inline(always)]
fn window<'r, const N: usize>(
    rows: &'r [Lanes],
    first: usize,
    zero: &'r [Lanes; N],
) -> &'r [Lanes; N] {
    rows.get(first..first + N)
        .and_then(|s| s.try_into().ok())
        .unwrap_or(zero)
}

/// [`super::unit_normal`] for four vertices at once, branch-free: every lane is
/// normalised and the degenerate ones replaced by NaN afterwards (a branch per lane keeps
/// the compiler from vectorising any of it).
#[inline(always)]
fn unit_normals(du: &Soa, dv: &Soa) -> [Lanes; 3] {
    let n = [
        du[1] * dv[2] - du[2] * dv[1],
        du[2] * dv[0] - du[0] * dv[2],
        du[0] * dv[1] - du[1] * dv[0],
    ];
    let len2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
    let inv = Lanes::splat(1.0).zip(len2, |one, l| one / l.sqrt());
    let mut keep = [0u32; 4];
    for k in 0..4 {
        let l = len2.0[k];
        keep[k] = 0u32.wrapping_sub(((l > 1e-30) & (l.abs() < f32::INFINITY)) as u32);
    }
    n.map(|c| {
        let scaled = c * inv;
        let mut out = scaled;
        for k in 0..4 {
            out.0[k] = f32::from_bits(
                (scaled.0[k].to_bits() & keep[k]) | (f32::NAN.to_bits() & !keep[k]),
            );
        }
        out
    })
}

/// One channel over a whole grid, `N` weights per parameter (rows `v`, `columns` u
/// parameters in `groups`), into `o` (its arrays are sized here).
#[allow(clippy::too_many_arguments)] // the grid, the channel, the output and its scratch
pub(super) fn grid_channel<const N: usize>(
    v: &[Weights],
    groups: &[LaneGroup],
    columns: usize,
    width: usize,
    ch: &[[f32; 4]],
    need: Need,
    o: &mut Evaluated,
    scratch: &mut GridScratch,
) {
    let GridScratch {
        q,
        qv,
        columns: cols4,
        columns_v: cols4_v,
        soa,
    } = scratch;
    cols4.clear();
    cols4.resize(width, [0.0; 4]);
    cols4_v.clear();
    cols4_v.resize(width, [0.0; 4]);
    for rows in q.iter_mut().chain(qv.iter_mut()) {
        rows.clear();
        rows.resize(width, Lanes::default());
    }
    let count = columns * v.len();
    let size = |on: bool| if on { count } else { 0 };
    o.value.resize(count, [0.0; 4]);
    o.du.resize(size(need.partials), [0.0; 4]);
    o.dv.resize(size(need.partials), [0.0; 4]);
    o.normal.resize(size(need.normal), [0.0; 3]);
    // A row's results, one array per quantity and component (value, du, dv, normal; four
    // lanes of padding so that every group stores four lanes), each written whole per row.
    for (quantity, rows) in soa.iter_mut().enumerate() {
        let used = match quantity {
            0 => true,
            1 | 2 => need.partials,
            _ => need.normal,
        };
        for row in rows.iter_mut() {
            row.clear();
            row.resize(if used { columns + 4 } else { 0 }, 0.0);
        }
    }
    let zero = [Lanes::default(); N];
    let derivatives = need.partials || need.normal;
    for (r, wv) in v.iter().enumerate() {
        for (col, (qc, qvc)) in cols4.iter_mut().zip(cols4_v.iter_mut()).enumerate() {
            let (mut acc, mut accv) = ([0.0f32; 4], [0.0f32; 4]);
            for b in 0..wv.n.min(6) {
                let p = ch.get((wv.first + b) * width + col).unwrap_or(&[0.0; 4]);
                for k in 0..4 {
                    acc[k] += wv.w[b] * p[k];
                    accv[k] += wv.dw[b] * p[k];
                }
            }
            *qc = acc;
            *qvc = accv;
        }
        splat_columns(cols4, q);
        splat_columns(cols4_v, qv);
        for g in groups {
            let cols: [&[Lanes; N]; 4] = std::array::from_fn(|c| window(&q[c], g.first, &zero));
            let mut val = [Lanes::default(); 4];
            let (mut du, mut dv) = ([Lanes::default(); 4], [Lanes::default(); 4]);
            if derivatives {
                let cols_v: [&[Lanes; N]; 4] =
                    std::array::from_fn(|c| window(&qv[c], g.first, &zero));
                for c in 0..4 {
                    [val[c], du[c], dv[c]] = component_sums::<N>(g, cols[c], cols_v[c]);
                }
            } else {
                for c in 0..4 {
                    val[c] = value_sum::<N>(g, cols[c]);
                }
            }
            let [soa_val, soa_du, soa_dv, soa_n] = &mut *soa;
            store_lanes(soa_val, g.start, &val);
            store_lanes(soa_du, g.start, &du);
            store_lanes(soa_dv, g.start, &dv);
            if need.normal {
                let n = unit_normals(&du, &dv);
                store_lanes(soa_n, g.start, &[n[0], n[1], n[2], Lanes::default()]);
            }
        }
        let row = r * columns..(r + 1) * columns;
        let [soa_val, soa_du, soa_dv, soa_n] = &*soa;
        gather(o.value.get_mut(row.clone()), soa_val, |v| v);
        gather(o.du.get_mut(row.clone()), soa_du, |v| v);
        gather(o.dv.get_mut(row.clone()), soa_dv, |v| v);
        gather(o.normal.get_mut(row), soa_n, |[x, y, z, _]| [x, y, z]);
    }
}
