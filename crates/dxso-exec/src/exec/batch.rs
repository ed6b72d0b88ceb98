//! One batch of `W` lanes running a plan: the register file in structure-of-arrays form, the
//! per-lane execution mask and the structured control-flow stack.

// Kernels index several rows by the same lane and component numbers: indexed loops are the
// clearest form, and the one LLVM vectorises.
#![allow(clippy::needless_range_loop)]

use super::Run;
use crate::math;
use crate::plan::{ArithFn, Cond, DepthFn, GatherFrom, IndexReg, LodPlan, Op, PredSel, Slot};
use crate::sampler::{sample_lanes, Lod};

/// Why a batch stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// Lane `.0` went over the budget.
    Budget(usize),
    /// Calls nested too deep.
    CallDepth,
}

enum Frame {
    If {
        entry: u64,
        taken: u64,
    },
    Loop {
        entry: u64,
        remaining: u32,
        step: i32,
        sets_al: bool,
        saved_al: i32,
        saved_brk: u64,
    },
    Call {
        entry: u64,
        return_pc: usize,
        saved_brk: u64,
        saved_ret: u64,
    },
}

/// The state of one batch. Reused from batch to batch by one worker.
pub(crate) struct Batch<const W: usize> {
    /// The register file: one row per slot.
    pub f: Vec<[f32; W]>,
    /// `a0.xyzw`.
    a0: [[i32; W]; 4],
    /// `aL`: every lane of a batch runs a loop together, so it is one value.
    al: i32,
    /// `p0.xyzw`, one bit per lane.
    p: [u64; 4],
    /// Lanes running.
    active: u64,
    /// `active` as lane masks (valid when not `full`).
    lanes: [u32; W],
    full: bool,
    /// Lanes discarded by `texkill`.
    pub killed: u64,
    /// Lanes that left the innermost loop.
    brk: u64,
    /// Lanes that returned from the current function.
    ret: u64,
    /// Instructions executed per lane.
    counts: [u64; W],
    stack: Vec<Frame>,
    calls: u32,
    /// First slot of the scratch rows: written in every lane, whatever the mask.
    scratch_start: Slot,
}

const fn all_lanes(w: usize) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

#[inline(always)]
fn bits_of<const W: usize>(f: impl Fn(usize) -> bool) -> u64 {
    let mut b = 0u64;
    for l in 0..W {
        b |= (f(l) as u64) << l;
    }
    b
}

#[inline(always)]
fn lane_masks<const W: usize>(bits: u64) -> [u32; W] {
    each(|l| 0u32.wrapping_sub(((bits >> l) & 1) as u32))
}

/// `[f(0), f(1), ...]` as a plain loop over an initialised array: unlike `array::from_fn`,
/// LLVM vectorises it.
#[inline(always)]
fn each<T: Copy + Default, const W: usize>(f: impl Fn(usize) -> T) -> [T; W] {
    let mut r = [T::default(); W];
    for (l, x) in r.iter_mut().enumerate() {
        *x = f(l);
    }
    r
}

impl<const W: usize> Batch<W> {
    /// A batch for `run`'s plan, uniforms filled.
    pub fn new(run: &Run<'_>) -> Self {
        let plan = run.plan;
        let mut f = vec![[0f32; W]; plan.slots.max(1) as usize];
        for (row, v) in f.iter_mut().zip(&run.uniforms) {
            *row = [*v; W];
        }
        Batch {
            f,
            a0: [[0; W]; 4],
            al: 0,
            p: [0; 4],
            active: all_lanes(W),
            lanes: [u32::MAX; W],
            full: true,
            killed: 0,
            brk: 0,
            ret: 0,
            counts: [0; W],
            stack: Vec::new(),
            calls: 0,
            scratch_start: plan.zeroed.end,
        }
    }

    /// Clears the per-invocation state before a batch.
    pub fn reset(&mut self, run: &Run<'_>) {
        for &s in &run.plan.clear {
            self.f[s as usize] = [0.0; W];
        }
        self.a0 = [[0; W]; 4];
        self.al = 0;
        self.p = [0; 4];
        self.set_active(all_lanes(W));
        self.killed = 0;
        self.brk = 0;
        self.ret = 0;
        self.counts = [0; W];
        self.stack.clear();
        self.calls = 0;
    }

    #[inline(always)]
    fn set_active(&mut self, bits: u64) {
        self.active = bits;
        self.full = bits == all_lanes(W);
        if !self.full {
            self.lanes = lane_masks::<W>(bits);
        }
    }

    /// Writes `v` to `slot` in the active lanes (every lane for scratch rows).
    #[inline(always)]
    fn put(&mut self, slot: Slot, v: &[f32; W]) {
        if self.full || slot >= self.scratch_start {
            self.f[slot as usize] = *v;
        } else {
            let m = self.lanes;
            let row = &mut self.f[slot as usize];
            for l in 0..W {
                row[l] = f32::from_bits((v[l].to_bits() & m[l]) | (row[l].to_bits() & !m[l]));
            }
        }
    }

    /// Writes `v` to `slot` in the lanes of `bits` only.
    #[inline(always)]
    fn put_bits(&mut self, slot: Slot, v: &[f32; W], bits: u64) {
        if bits == all_lanes(W) {
            self.f[slot as usize] = *v;
        } else {
            let m = lane_masks::<W>(bits);
            let row = &mut self.f[slot as usize];
            for l in 0..W {
                row[l] = f32::from_bits((v[l].to_bits() & m[l]) | (row[l].to_bits() & !m[l]));
            }
        }
    }

    fn pred_bits(&self, pred: Option<PredSel>, comp: usize) -> u64 {
        match pred {
            None => all_lanes(W),
            Some(p) => {
                let b = self.p[p.swizzle[comp] as usize & 3];
                if p.not {
                    !b & all_lanes(W)
                } else {
                    b
                }
            }
        }
    }

    fn cond_bits(&self, run: &Run<'_>, cond: Cond) -> u64 {
        match cond {
            Cond::Always => all_lanes(W),
            Cond::Literal(b) => {
                if b {
                    all_lanes(W)
                } else {
                    0
                }
            }
            Cond::Bool { reg, not } => {
                if run.bools[reg as usize & 15] != not {
                    all_lanes(W)
                } else {
                    0
                }
            }
            Cond::Pred { comp, not } => {
                let b = self.p[comp as usize & 3];
                if not {
                    !b & all_lanes(W)
                } else {
                    b
                }
            }
            Cond::Compare { cmp, a, b } => {
                let (a, b) = (&self.f[a as usize], &self.f[b as usize]);
                bits_of::<W>(|l| cmp.test(a[l], b[l]))
            }
        }
    }

    #[inline(always)]
    fn count(&mut self, n: u64) {
        if self.full {
            for c in &mut self.counts {
                *c += n;
            }
        } else {
            let m = self.lanes;
            for l in 0..W {
                self.counts[l] += n & (m[l] as u64 | (m[l] as u64) << 32);
            }
        }
    }

    /// The lowest real lane over the budget.
    pub fn over_budget(&self, budget: u64, lanes: usize) -> Option<usize> {
        self.counts[..lanes.min(W)].iter().position(|&c| c > budget)
    }

    fn index(&self, index: IndexReg, l: usize) -> i64 {
        match index {
            IndexReg::A0(c) => self.a0[c as usize & 3][l] as i64,
            IndexReg::Loop => self.al as i64,
        }
    }

    /// Runs the plan to its end. `lanes` of the `W` are real invocations.
    pub fn run<const Z: bool>(&mut self, run: &Run<'_>, lanes: usize) -> Result<(), Stop> {
        let plan = run.plan;
        let ops = &plan.ops[..];
        let mut pc = 0usize;
        loop {
            let Some(op) = ops.get(pc) else {
                return Ok(());
            };
            match *op {
                Op::Count(n) => {
                    if n != 0 {
                        self.count(n as u64)
                    }
                }
                Op::Arith { f, mask, dst, src } => self.arith::<Z>(f, mask, &dst, &src),
                Op::Dot {
                    len,
                    a,
                    b,
                    add,
                    mask,
                    dst,
                } => {
                    let r: [f32; W] = {
                        let row = |s: Slot| &self.f[s as usize];
                        let (a0, a1, b0, b1) = (row(a[0]), row(a[1]), row(b[0]), row(b[1]));
                        let mut r: [f32; W] =
                            each(|l| math::mul(a0[l], b0[l], Z) + math::mul(a1[l], b1[l], Z));
                        if len >= 3 {
                            let (a2, b2) = (row(a[2]), row(b[2]));
                            for l in 0..W {
                                r[l] += math::mul(a2[l], b2[l], Z);
                            }
                        }
                        if len >= 4 {
                            let (a3, b3) = (row(a[3]), row(b[3]));
                            for l in 0..W {
                                r[l] += math::mul(a3[l], b3[l], Z);
                            }
                        }
                        if let Some(s) = add {
                            let c = row(s);
                            for l in 0..W {
                                r[l] += c[l];
                            }
                        }
                        r
                    };
                    for c in 0..4 {
                        if mask & (1 << c) != 0 {
                            self.put(dst[c], &r);
                        }
                    }
                }
                Op::Matrix {
                    len,
                    a,
                    rows,
                    mask,
                    dst,
                } => {
                    let mut r = [[0f32; W]; 4];
                    {
                        let row = |s: Slot| &self.f[s as usize];
                        let av = [row(a[0]), row(a[1]), row(a[2]), row(a[3])];
                        for k in 0..4 {
                            if mask & (1 << k) == 0 {
                                continue;
                            }
                            let m = [
                                row(rows[k][0]),
                                row(rows[k][1]),
                                row(rows[k][2]),
                                row(rows[k][3]),
                            ];
                            let out = &mut r[k];
                            for l in 0..W {
                                let mut x = math::mul(av[0][l], m[0][l], Z)
                                    + math::mul(av[1][l], m[1][l], Z)
                                    + math::mul(av[2][l], m[2][l], Z);
                                if len >= 4 {
                                    x += math::mul(av[3][l], m[3][l], Z);
                                }
                                out[l] = x;
                            }
                        }
                    }
                    for k in 0..4 {
                        if mask & (1 << k) != 0 {
                            self.put(dst[k], &r[k]);
                        }
                    }
                }
                Op::Cross { a, b, mask, dst } => {
                    let row = |s: Slot| self.f[s as usize];
                    let (a, b) = (a.map(row), b.map(row));
                    let r: [[f32; W]; 3] = std::array::from_fn(|c| {
                        let (i, j) = ((c + 1) % 3, (c + 2) % 3);
                        each(|l| math::mul(a[i][l], b[j][l], Z) - math::mul(a[j][l], b[i][l], Z))
                    });
                    for c in 0..3 {
                        if mask & (1 << c) != 0 {
                            self.put(dst[c], &r[c]);
                        }
                    }
                }
                Op::Lit { src, mask, dst } => {
                    let row = |s: Slot| self.f[s as usize];
                    let [x, y, w] = src.map(row);
                    let mut r = [[0f32; W]; 4];
                    for l in 0..W {
                        let v = math::lit(x[l], y[l], w[l]);
                        for c in 0..4 {
                            r[c][l] = v[c];
                        }
                    }
                    for c in 0..4 {
                        if mask & (1 << c) != 0 {
                            self.put(dst[c], &r[c]);
                        }
                    }
                }
                Op::Reflect { n, e, dst } => {
                    let row = |s: Slot| self.f[s as usize];
                    let (n, e) = (n.map(row), e.map(row));
                    let mut r = [[0f32; W]; 3];
                    for l in 0..W {
                        let nv = [n[0][l], n[1][l], n[2][l]];
                        let ev = [e[0][l], e[1][l], e[2][l]];
                        let s = math::reflect_scale(nv, ev, Z);
                        for c in 0..3 {
                            r[c][l] = math::reflect_component(s, nv[c], ev[c], Z);
                        }
                    }
                    for c in 0..3 {
                        self.put(dst[c], &r[c]);
                    }
                }
                Op::Gather {
                    from,
                    index,
                    offset,
                    comps,
                    mask,
                    dst,
                } => {
                    // Register numbers per lane; out of range maps to `len`, a zero register.
                    let len = match from {
                        GatherFrom::Const => run.float_count,
                        GatherFrom::Block { len, .. } => len as usize,
                    };
                    let at = |i: i64| {
                        if i >= 0 && (i as usize) < len {
                            i as usize
                        } else {
                            len
                        }
                    };
                    let idx: [usize; W] = match index {
                        IndexReg::Loop => [at(offset as i64 + self.al as i64); W],
                        IndexReg::A0(c) => {
                            let a = &self.a0[c as usize & 3];
                            each(|l| at(offset as i64 + a[l] as i64))
                        }
                    };
                    match from {
                        GatherFrom::Const
                            if mask == 0xF
                                && dst[0] >= self.scratch_start
                                && dst == [dst[0], dst[0] + 1, dst[0] + 2, dst[0] + 3] =>
                        {
                            // Four consecutive rows written in every lane (scratch or cache, as
                            // lowering allocates a gathered register): straight into them.
                            let d = dst[0] as usize;
                            if let [r0, r1, r2, r3] = &mut self.f[d..d + 4] {
                                let c = comps.map(|c| c as usize & 3);
                                for l in 0..W {
                                    let v = run.floats[idx[l]];
                                    r0[l] = v[c[0]];
                                    r1[l] = v[c[1]];
                                    r2[l] = v[c[2]];
                                    r3[l] = v[c[3]];
                                }
                            }
                        }
                        GatherFrom::Const => {
                            // One bounds check per lane: the whole register, then its components.
                            let mut r = [[0f32; W]; 4];
                            for l in 0..W {
                                let v = run.floats[idx[l]];
                                for c in 0..4 {
                                    r[c][l] = v[comps[c] as usize & 3];
                                }
                            }
                            for c in 0..4 {
                                if mask & (1 << c) != 0 {
                                    self.put(dst[c], &r[c]);
                                }
                            }
                        }
                        GatherFrom::Block { base, .. } => {
                            for c in 0..4 {
                                if mask & (1 << c) == 0 {
                                    continue;
                                }
                                let comp = comps[c] as usize & 3;
                                let r: [f32; W] = each(|l| {
                                    if idx[l] < len {
                                        self.f[base as usize + idx[l] * 4 + comp][l]
                                    } else {
                                        0.0
                                    }
                                });
                                self.put(dst[c], &r);
                            }
                        }
                    }
                }
                Op::Scatter {
                    base,
                    len,
                    index,
                    offset,
                    mask,
                    src,
                    pred,
                } => {
                    for c in 0..4 {
                        if mask & (1 << c) == 0 {
                            continue;
                        }
                        let allowed = self.active & self.pred_bits(pred, c);
                        for l in 0..W {
                            if allowed >> l & 1 == 0 {
                                continue;
                            }
                            let i = offset as i64 + self.index(index, l);
                            if i >= 0 && i < len as i64 {
                                let v = self.f[src[c] as usize][l];
                                self.f[base as usize + i as usize * 4 + c][l] = v;
                            }
                        }
                    }
                }
                Op::Store {
                    mask,
                    src,
                    dst,
                    scale,
                    clamp,
                    sat,
                    pred,
                } => {
                    for c in 0..4 {
                        if mask & (1 << c) == 0 {
                            continue;
                        }
                        let s = &self.f[src[c] as usize];
                        let mut r = *s;
                        if scale.0 != 1.0 {
                            for v in &mut r {
                                *v *= scale.0;
                            }
                        }
                        if clamp.0.is_finite() {
                            for v in &mut r {
                                *v = math::range_clamp(*v, clamp.0);
                            }
                        }
                        if sat {
                            for v in &mut r {
                                *v = math::saturate(*v);
                            }
                        }
                        if pred.is_some() {
                            let bits = self.active & self.pred_bits(pred, c);
                            self.put_bits(dst[c], &r, bits);
                        } else {
                            self.put(dst[c], &r);
                        }
                    }
                }
                Op::Mova {
                    round,
                    mask,
                    src,
                    pred,
                } => {
                    for c in 0..4 {
                        if mask & (1 << c) == 0 {
                            continue;
                        }
                        let allowed = self.active & self.pred_bits(pred, c);
                        let s = &self.f[src[c] as usize];
                        for l in 0..W {
                            if allowed >> l & 1 != 0 {
                                self.a0[c][l] = if round {
                                    math::round_address(s[l])
                                } else {
                                    math::floor_address(s[l])
                                };
                            }
                        }
                    }
                }
                Op::SetP {
                    cmp,
                    mask,
                    a,
                    b,
                    pred,
                } => {
                    for c in 0..4 {
                        if mask & (1 << c) == 0 {
                            continue;
                        }
                        let (x, y) = (&self.f[a[c] as usize], &self.f[b[c] as usize]);
                        let v = bits_of::<W>(|l| cmp.test(x[l], y[l]));
                        let allowed = self.active & self.pred_bits(pred, c);
                        self.p[c] = (self.p[c] & !allowed) | (v & allowed);
                    }
                }
                Op::Deriv { y, mask, src, dst } => {
                    for c in 0..4 {
                        if mask & (1 << c) == 0 {
                            continue;
                        }
                        let s = &self.f[src[c] as usize];
                        let mut r = [0f32; W];
                        for q in (0..W).step_by(4) {
                            if y {
                                let (left, right) = (s[q + 2] - s[q], s[q + 3] - s[q + 1]);
                                r[q..q + 4].copy_from_slice(&[left, right, left, right]);
                            } else {
                                let (top, bottom) = (s[q + 1] - s[q], s[q + 3] - s[q + 2]);
                                r[q..q + 4].copy_from_slice(&[top, top, bottom, bottom]);
                            }
                        }
                        self.put(dst[c], &r);
                    }
                }
                Op::Kill { mask, src, pred } => {
                    let mut kill = 0u64;
                    for c in 0..4 {
                        if mask & (1 << c) == 0 {
                            continue;
                        }
                        let s = &self.f[src[c] as usize];
                        kill |= bits_of::<W>(|l| s[l] < 0.0) & self.pred_bits(pred, c);
                    }
                    self.killed |= kill & self.active;
                }
                Op::Depth { f, a, b, dst } => {
                    let (x, y) = (&self.f[a as usize], &self.f[b as usize]);
                    let r: [f32; W] = each(|l| match f {
                        DepthFn::TexDepth => math::texdepth(x[l], y[l]),
                        DepthFn::TexM3x2 => math::texm3x2_depth(x[l], y[l]),
                    });
                    self.put(dst, &r);
                }
                Op::ProjectStage { stage, src, dst } => {
                    let divisor = run.stage(stage).projection_divisor();
                    for c in 0..3 {
                        let s = &self.f[src[c] as usize];
                        let r: [f32; W] = match divisor {
                            Some(d) => {
                                let q = &self.f[src[d] as usize];
                                each(|l| s[l] / q[l])
                            }
                            None => *s,
                        };
                        self.put(dst[c], &r);
                    }
                }
                Op::Sample {
                    sampler,
                    coords,
                    lod,
                    dst,
                } => {
                    let c = coords.map(|s| self.f[s as usize]);
                    let extra: [[f32; W]; 6] = match lod {
                        LodPlan::Implicit => [[0.0; W]; 6],
                        LodPlan::Bias(s) | LodPlan::Explicit(s) => {
                            let mut e = [[0.0; W]; 6];
                            e[0] = self.f[s as usize];
                            e
                        }
                        LodPlan::Gradients(dx, dy) => {
                            let r = |s: Slot| self.f[s as usize];
                            [r(dx[0]), r(dx[1]), r(dx[2]), r(dy[0]), r(dy[1]), r(dy[2])]
                        }
                    };
                    let lod = match lod {
                        LodPlan::Implicit => Lod::Implicit(None),
                        LodPlan::Bias(_) => Lod::Implicit(Some(&extra[0])),
                        LodPlan::Explicit(_) => Lod::Explicit(&extra[0]),
                        LodPlan::Gradients(..) => Lod::Gradients(
                            [&extra[0], &extra[1], &extra[2]],
                            [&extra[3], &extra[4], &extra[5]],
                        ),
                    };
                    let binding = run.sampler(sampler);
                    let mask = self.active & all_lanes(lanes.min(W));
                    let texture = binding.and_then(|b| b.texture.as_deref());
                    let state = binding.map_or(&run.default_state, |b| &b.state);
                    let coords = [&c[0][..], &c[1][..], &c[2][..]];
                    let mut out = [[0f32; W]; 4];
                    let [o0, o1, o2, o3] = &mut out;
                    sample_lanes(texture, state, coords, lod, mask, [o0, o1, o2, o3]);
                    for (s, v) in dst.iter().zip(&out) {
                        self.put(*s, v);
                    }
                }
                // Control flow (docs/SEMANTICS.md 9).
                Op::If { cond, else_pc } => {
                    let entry = self.active;
                    let taken = entry & self.cond_bits(run, cond);
                    self.stack.push(Frame::If { entry, taken });
                    self.set_active(taken);
                    if taken == 0 {
                        pc = else_pc as usize;
                        continue;
                    }
                }
                Op::Else { end_pc } => {
                    if let Some(Frame::If { entry, taken }) = self.stack.last() {
                        let next = entry & !taken & !self.brk & !self.ret;
                        self.set_active(next);
                        if next == 0 {
                            pc = end_pc as usize;
                            continue;
                        }
                    }
                }
                Op::EndIf => {
                    if let Some(Frame::If { entry, .. }) = self.stack.pop() {
                        self.set_active(entry & !self.brk & !self.ret);
                    }
                }
                Op::Loop {
                    count,
                    sets_al,
                    end_pc,
                } => {
                    let v = match count {
                        crate::plan::LoopCount::Literal(v) => v,
                        crate::plan::LoopCount::Int(r) => run.ints[r as usize & 15],
                    };
                    let n = v[0].clamp(0, 255) as u32;
                    if n == 0 || self.active == 0 {
                        pc = end_pc as usize + 1;
                        continue;
                    }
                    self.stack.push(Frame::Loop {
                        entry: self.active,
                        remaining: n,
                        step: v[2],
                        sets_al,
                        saved_al: self.al,
                        saved_brk: self.brk,
                    });
                    self.brk = 0;
                    if sets_al {
                        self.al = v[1];
                    }
                    self.count(1);
                    if let Some(l) = self.over_budget(plan.budget, lanes) {
                        return Err(Stop::Budget(l));
                    }
                }
                Op::EndLoop { body_pc } => {
                    let (ret, brk) = (self.ret, self.brk);
                    if let Some(Frame::Loop {
                        entry,
                        remaining,
                        step,
                        sets_al,
                        saved_al,
                        saved_brk,
                    }) = self.stack.last_mut()
                    {
                        *remaining -= 1;
                        let next = *entry & !brk & !ret;
                        if *remaining > 0 && next != 0 {
                            if *sets_al {
                                self.al = self.al.wrapping_add(*step);
                            }
                            self.set_active(next);
                            self.count(1);
                            if let Some(l) = self.over_budget(plan.budget, lanes) {
                                return Err(Stop::Budget(l));
                            }
                            pc = body_pc as usize;
                            continue;
                        }
                        let (entry, saved_al, saved_brk) = (*entry, *saved_al, *saved_brk);
                        self.stack.pop();
                        self.al = saved_al;
                        self.brk = saved_brk;
                        self.set_active(entry & !self.ret);
                    }
                }
                Op::Break { cond, resume } => {
                    let b = self.active & self.cond_bits(run, cond);
                    self.brk |= b;
                    let next = self.active & !b;
                    self.set_active(next);
                    if next == 0 {
                        pc = resume as usize;
                        continue;
                    }
                }
                Op::Call { cond, target } => {
                    let lanes_in = self.active & self.cond_bits(run, cond);
                    if lanes_in != 0 {
                        self.calls += 1;
                        // Saturating: a hostile plan's u32::MAX must not wrap to a limit of 0.
                        let limit = plan.max_call_depth.max(1).saturating_add(1);
                        if self.calls > limit || self.calls > 64 {
                            return Err(Stop::CallDepth);
                        }
                        self.stack.push(Frame::Call {
                            entry: self.active,
                            return_pc: pc + 1,
                            saved_brk: self.brk,
                            saved_ret: self.ret,
                        });
                        self.brk = 0;
                        self.ret = 0;
                        self.set_active(lanes_in);
                        self.count(1);
                        if let Some(l) = self.over_budget(plan.budget, lanes) {
                            return Err(Stop::Budget(l));
                        }
                        pc = target as usize;
                        continue;
                    }
                }
                Op::Ret { resume } => {
                    self.ret |= self.active;
                    self.set_active(0);
                    pc = resume as usize;
                    continue;
                }
                Op::Return => {
                    if let Some(Frame::Call {
                        entry,
                        return_pc,
                        saved_brk,
                        saved_ret,
                    }) = self.stack.pop()
                    {
                        self.calls -= 1;
                        self.brk = saved_brk;
                        self.ret = saved_ret;
                        self.set_active(entry);
                        pc = return_pc;
                        continue;
                    }
                    return Ok(());
                }
                Op::End => {
                    return match self.over_budget(plan.budget, lanes) {
                        Some(l) => Err(Stop::Budget(l)),
                        None => Ok(()),
                    };
                }
            }
            pc += 1;
        }
    }

    #[inline(always)]
    fn arith<const Z: bool>(
        &mut self,
        f: ArithFn,
        mask: u8,
        dst: &[Slot; 4],
        src: &[[Slot; 4]; 3],
    ) {
        for c in 0..4 {
            if mask & (1 << c) == 0 {
                continue;
            }
            let r = self.arith_component::<Z>(f, src[0][c], src[1][c], src[2][c]);
            self.put(dst[c], &r);
        }
    }

    #[inline(always)]
    fn arith_component<const Z: bool>(&self, f: ArithFn, a: Slot, b: Slot, c: Slot) -> [f32; W] {
        use ArithFn as F;
        let a = &self.f[a as usize];
        macro_rules! un {
            ($e:expr) => {{
                let g = $e;
                each(|l| g(a[l]))
            }};
        }
        macro_rules! bin {
            ($e:expr) => {{
                let b = &self.f[b as usize];
                let g = $e;
                each(|l| g(a[l], b[l]))
            }};
        }
        macro_rules! ter {
            ($e:expr) => {{
                let b = &self.f[b as usize];
                let c = &self.f[c as usize];
                let g = $e;
                each(|l| g(a[l], b[l], c[l]))
            }};
        }
        match f {
            F::Mov => *a,
            F::Neg => un!(|x: f32| -x),
            F::Abs => un!(|x: f32| x.abs()),
            F::NegAbs => un!(|x: f32| -x.abs()),
            F::Bias => un!(|x: f32| x - 0.5),
            F::NegBias => un!(|x: f32| -(x - 0.5)),
            F::Bx2 => un!(|x: f32| 2.0 * x - 1.0),
            F::NegBx2 => un!(|x: f32| -(2.0 * x - 1.0)),
            F::Comp => un!(|x: f32| 1.0 - x),
            F::X2 => un!(|x: f32| 2.0 * x),
            F::NegX2 => un!(|x: f32| -(2.0 * x)),
            F::Sat => un!(math::saturate),
            F::Frc => un!(math::frc),
            F::Sgn => un!(math::sgn),
            F::Rcp => un!(math::rcp),
            F::Rsq => un!(math::rsq),
            F::Exp => un!(math::exp),
            F::Log => un!(math::log),
            F::ExpFloor => un!(|x: f32| math::floor(x).exp2()),
            F::Sin => un!(f32::sin),
            F::Cos => un!(f32::cos),
            F::NrmFactor => un!(math::nrm_factor),
            F::Add => bin!(|x: f32, y: f32| x + y),
            F::Sub => bin!(|x: f32, y: f32| x - y),
            F::Mul => bin!(|x: f32, y: f32| math::mul(x, y, Z)),
            F::Div => bin!(|x: f32, y: f32| x / y),
            F::Min => bin!(math::min),
            F::Max => bin!(math::max),
            F::Slt => bin!(|x: f32, y: f32| if x < y { 1.0 } else { 0.0 }),
            F::Sge => bin!(|x: f32, y: f32| if x >= y { 1.0 } else { 0.0 }),
            F::Pow => bin!(math::pow),
            F::Mad => ter!(|x: f32, y: f32, z: f32| math::mul(x, y, Z) + z),
            F::Lrp => ter!(|x: f32, y: f32, z: f32| math::mul(x, y - z, Z) + z),
            F::Cmp => ter!(|x: f32, y: f32, z: f32| if x >= 0.0 { y } else { z }),
            F::Cnd => ter!(|x: f32, y: f32, z: f32| if x > 0.5 { y } else { z }),
        }
    }
}
