//! Straight-line operations: each one reads its slots, computes per piece with the functions
//! of `lanes.rs` (or a trampoline), and writes under the interpreter's masks, component by
//! component in the interpreter's order (a later component reads what an earlier one wrote).

use super::{Gen, Pieces, Write};
use crate::jit::runtime::{self, lod_kind, LaneFn};
use crate::plan::{ArithFn, DepthFn, GatherFrom, IndexReg, LodPlan, Op, PredSel, Slot};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, Value};
use dxso::Comparison;

fn bits(mask: u8) -> impl Iterator<Item = usize> {
    (0..4).filter(move |c| mask & (1 << c) != 0)
}

impl Gen<'_, '_> {
    /// The lanes a predicate lets write component `c` (`None`: every lane).
    fn pred(&mut self, pred: Option<PredSel>, c: usize) -> Option<Pieces> {
        let p = pred?;
        let vars = self.p[p.swizzle[c] as usize & 3].clone();
        let v = self.use_all(&vars);
        Some(if p.not {
            v.iter().map(|&x| self.not(x)).collect()
        } else {
            v
        })
    }

    /// A comparison of `ifc`, `breakc`, `setp` as a lane mask.
    pub(super) fn compare(&mut self, cmp: Comparison, a: Value, b: Value) -> Value {
        let cc = match cmp {
            Comparison::Gt => FloatCC::GreaterThan,
            Comparison::Eq => FloatCC::Equal,
            Comparison::Ge => FloatCC::GreaterThanOrEqual,
            Comparison::Lt => FloatCC::LessThan,
            // Unordered or not equal: true for NaN, as Rust's `!=`.
            Comparison::Ne => FloatCC::NotEqual,
            Comparison::Le => FloatCC::LessThanOrEqual,
        };
        self.fcmp(cc, a, b)
    }

    /// Stores pieces to the trampoline buffer at row `row` (rows of one chunk of lanes).
    fn store_buffer(&mut self, row: usize, vals: &[Value]) {
        let base = row * self.shape.chunk() * 4;
        for (k, &v) in vals.iter().enumerate() {
            let off = (base + k * self.shape.per_piece * 4) as i32;
            self.b.ins().stack_store(types::I64, v, self.buf, off);
        }
    }

    fn load_buffer(&mut self, row: usize) -> Pieces {
        let base = row * self.shape.chunk() * 4;
        (0..self.shape.pieces)
            .map(|k| {
                let off = (base + k * self.shape.per_piece * 4) as i32;
                self.b.ins().stack_load(types::I64, self.fty, self.buf, off)
            })
            .collect()
    }

    fn buffer_addr(&mut self, row: usize) -> Value {
        let off = (row * self.shape.chunk() * 4) as i32;
        self.b.ins().stack_addr(types::I64, self.buf, off)
    }

    fn call_indirect(&mut self, sig: cranelift_codegen::ir::SigRef, f: usize, args: &[Value]) {
        let callee = self.b.ins().iconst(types::I64, f as i64);
        self.b.ins().call_indirect(sig, callee, args);
    }

    /// `out = f(a, b)` over the chunk's lanes through a trampoline.
    fn call_lanes(&mut self, f: LaneFn, a: &[Value], b: &[Value]) -> Pieces {
        self.store_buffer(0, a);
        self.store_buffer(1, b);
        let (pa, pb, po) = (
            self.buffer_addr(0),
            self.buffer_addr(1),
            self.buffer_addr(2),
        );
        let n = self.b.ins().iconst(types::I64, self.shape.chunk() as i64);
        let sig = self.sigs.lane;
        self.call_indirect(sig, f as usize, &[pa, pb, po, n]);
        self.load_buffer(2)
    }

    /// A component-wise function over the chunk's lanes.
    fn arith(&mut self, f: ArithFn, a: &[Value], b: &[Value], c: &[Value]) -> Pieces {
        use ArithFn as F;
        let tramp: Option<LaneFn> = match f {
            F::Exp => Some(runtime::exp),
            F::Log => Some(runtime::log),
            F::ExpFloor => Some(runtime::exp_floor),
            F::Sin => Some(runtime::sin),
            F::Cos => Some(runtime::cos),
            F::Pow => Some(runtime::pow),
            _ => None,
        };
        if let Some(t) = tramp {
            return self.call_lanes(t, a, if f.arity() == 2 { b } else { a });
        }
        (0..a.len())
            .map(|k| self.arith_piece(f, a[k], b.get(k).copied(), c.get(k).copied()))
            .collect()
    }

    fn arith_piece(&mut self, f: ArithFn, x: Value, y: Option<Value>, z: Option<Value>) -> Value {
        use ArithFn as F;
        let y = || y.expect("binary function has a second source");
        let z = || z.expect("ternary function has a third source");
        match f {
            F::Mov => x,
            F::Neg => self.neg(x),
            F::Abs => self.abs(x),
            F::NegAbs => self.neg_abs(x),
            F::Bias => {
                let h = self.fconst(0.5);
                self.sub(x, h)
            }
            F::NegBias => {
                let h = self.fconst(0.5);
                let r = self.sub(x, h);
                self.neg(r)
            }
            F::Bx2 | F::NegBx2 => {
                let two = self.scale(2.0, x);
                let one = self.fconst(1.0);
                let r = self.sub(two, one);
                if f == F::NegBx2 {
                    self.neg(r)
                } else {
                    r
                }
            }
            F::Comp => {
                let one = self.fconst(1.0);
                self.sub(one, x)
            }
            F::X2 => self.scale(2.0, x),
            F::NegX2 => {
                let r = self.scale(2.0, x);
                self.neg(r)
            }
            F::Sat => self.saturate(x),
            F::Frc => self.frc(x),
            F::Sgn => self.sgn(x),
            F::Rcp => self.rcp(x),
            F::Rsq => self.rsq(x),
            F::NrmFactor => self.nrm_factor(x),
            F::Add => self.add(x, y()),
            F::Sub => self.sub(x, y()),
            F::Mul => self.mul(x, y()),
            F::Div => self.div(x, y()),
            F::Min => self.min(x, y()),
            F::Max => self.max(x, y()),
            F::Slt => {
                let m = self.fcmp(FloatCC::LessThan, x, y());
                self.one_if(m)
            }
            F::Sge => {
                let m = self.fcmp(FloatCC::GreaterThanOrEqual, x, y());
                self.one_if(m)
            }
            F::Mad => {
                let p = self.mul(x, y());
                self.add(p, z())
            }
            F::Lrp => {
                let d = self.sub(y(), z());
                let p = self.mul(x, d);
                self.add(p, z())
            }
            F::Cmp => {
                let zero = self.fconst(0.0);
                let m = self.fcmp(FloatCC::GreaterThanOrEqual, x, zero);
                self.select(m, y(), z())
            }
            F::Cnd => {
                let half = self.fconst(0.5);
                let m = self.fcmp(FloatCC::GreaterThan, x, half);
                self.select(m, y(), z())
            }
            F::Exp | F::Log | F::ExpFloor | F::Sin | F::Cos | F::Pow => {
                unreachable!("trampolines handle transcendental functions")
            }
        }
    }

    /// `dp2`..`dp4` of pieces, left to right, plus `add`.
    fn dot(&mut self, a: &[Pieces], b: &[Pieces], add: Option<&Pieces>) -> Pieces {
        (0..self.shape.pieces)
            .map(|k| {
                let p0 = self.mul(a[0][k], b[0][k]);
                let p1 = self.mul(a[1][k], b[1][k]);
                let mut r = self.add(p0, p1);
                for i in 2..a.len() {
                    let p = self.mul(a[i][k], b[i][k]);
                    r = self.add(r, p);
                }
                if let Some(c) = add {
                    r = self.add(r, c[k]);
                }
                r
            })
            .collect()
    }

    /// Emits a straight-line operation.
    pub(super) fn straight(&mut self, op: Op) {
        match op {
            Op::Arith { f, mask, dst, src } => {
                for c in bits(mask) {
                    let a = self.get(src[0][c]);
                    let b = if f.arity() >= 2 {
                        self.get(src[1][c])
                    } else {
                        Vec::new()
                    };
                    let cc = if f.arity() >= 3 {
                        self.get(src[2][c])
                    } else {
                        Vec::new()
                    };
                    let r = self.arith(f, &a, &b, &cc);
                    self.put(dst[c], r, Write::Active);
                }
            }
            Op::Dot {
                len,
                a,
                b,
                add,
                mask,
                dst,
            } => {
                let n = (len as usize).clamp(2, 4);
                let av: Vec<Pieces> = (0..n).map(|i| self.get(a[i])).collect();
                let bv: Vec<Pieces> = (0..n).map(|i| self.get(b[i])).collect();
                let add = add.map(|s| self.get(s));
                let r = self.dot(&av, &bv, add.as_ref());
                for c in bits(mask) {
                    self.put(dst[c], r.clone(), Write::Active);
                }
            }
            Op::Matrix {
                len,
                a,
                rows,
                mask,
                dst,
            } => {
                let n = if len >= 4 { 4 } else { 3 };
                let av: Vec<Pieces> = (0..n).map(|i| self.get(a[i])).collect();
                let mut r = Vec::new();
                for k in bits(mask) {
                    let row: Vec<Pieces> = (0..n).map(|i| self.get(rows[k][i])).collect();
                    r.push((k, self.dot(&av, &row, None)));
                }
                for (k, v) in r {
                    self.put(dst[k], v, Write::Active);
                }
            }
            Op::Cross { a, b, mask, dst } => {
                let av: Vec<Pieces> = a.iter().map(|&s| self.get(s)).collect();
                let bv: Vec<Pieces> = b.iter().map(|&s| self.get(s)).collect();
                let r: Vec<Pieces> = (0..3)
                    .map(|c| {
                        let (i, j) = ((c + 1) % 3, (c + 2) % 3);
                        (0..self.shape.pieces)
                            .map(|k| {
                                let x = self.mul(av[i][k], bv[j][k]);
                                let y = self.mul(av[j][k], bv[i][k]);
                                self.sub(x, y)
                            })
                            .collect()
                    })
                    .collect();
                for c in bits(mask & 7) {
                    self.put(dst[c], r[c].clone(), Write::Active);
                }
            }
            Op::Lit { src, mask, dst } => {
                for (row, &s) in src.iter().enumerate() {
                    let v = self.get(s);
                    self.store_buffer(row, &v);
                }
                let (pin, pout) = (self.buffer_addr(0), self.buffer_addr(3));
                let n = self.b.ins().iconst(types::I64, self.shape.chunk() as i64);
                let sig = self.sigs.lit;
                self.call_indirect(
                    sig,
                    runtime::lit as runtime::LitFn as usize,
                    &[pin, pout, n],
                );
                let r: Vec<Pieces> = (0..4).map(|c| self.load_buffer(3 + c)).collect();
                for c in bits(mask) {
                    self.put(dst[c], r[c].clone(), Write::Active);
                }
            }
            Op::Reflect { n, e, dst } => {
                let nv: Vec<Pieces> = n.iter().map(|&s| self.get(s)).collect();
                let ev: Vec<Pieces> = e.iter().map(|&s| self.get(s)).collect();
                let ne = self.dot(&nv, &ev, None);
                let nn = self.dot(&nv, &nv, None);
                let r: Vec<Pieces> = (0..3)
                    .map(|c| {
                        (0..self.shape.pieces)
                            .map(|k| {
                                let two = self.scale(2.0, ne[k]);
                                let s = self.div(two, nn[k]);
                                let p = self.mul(s, nv[c][k]);
                                self.sub(p, ev[c][k])
                            })
                            .collect()
                    })
                    .collect();
                for (c, v) in r.into_iter().enumerate() {
                    self.put(dst[c], v, Write::Active);
                }
            }
            Op::Gather {
                from,
                index,
                offset,
                comps,
                mask,
                dst,
            } => self.gather(from, index, offset, comps, mask, dst),
            Op::Scatter {
                base,
                len,
                index,
                offset,
                mask,
                src,
                pred,
            } => self.scatter(base, len, index, offset, mask, src, pred),
            Op::Store {
                mask,
                src,
                dst,
                scale,
                clamp,
                sat,
                pred,
            } => {
                for c in bits(mask) {
                    let mut r = self.get(src[c]);
                    if scale.0 != 1.0 {
                        let k = self.fconst(scale.0);
                        r = r.iter().map(|&v| self.b.ins().fmul(v, k)).collect();
                    }
                    if clamp.0.is_finite() {
                        r = r.iter().map(|&v| self.range_clamp(v, clamp.0)).collect();
                    }
                    if sat {
                        r = r.iter().map(|&v| self.saturate(v)).collect();
                    }
                    let how = if pred.is_some() {
                        let a = self.active();
                        let p = self.pred(pred, c);
                        Write::Lanes(self.and_opt(a, p))
                    } else {
                        Write::Active
                    };
                    self.put(dst[c], r, how);
                }
            }
            Op::Mova {
                round,
                mask,
                src,
                pred,
            } => {
                for c in bits(mask) {
                    let a = self.active();
                    let p = self.pred(pred, c);
                    let allowed = self.and_opt(a, p);
                    let s = self.get(src[c]);
                    let vars = self.a0[c].clone();
                    for k in 0..self.shape.pieces {
                        let new = self.address(s[k], round);
                        let v = match &allowed {
                            None => new,
                            Some(m) => {
                                let old = self.b.use_var(vars[k]);
                                self.select_int(m[k], new, old)
                            }
                        };
                        self.b.def_var(vars[k], v);
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
                for c in bits(mask) {
                    let (x, y) = (self.get(a[c]), self.get(b[c]));
                    let act = self.active();
                    let p = self.pred(pred, c);
                    let allowed = self.and_opt(act, p);
                    let vars = self.p[c].clone();
                    for k in 0..self.shape.pieces {
                        let v = self.compare(cmp, x[k], y[k]);
                        let v = match &allowed {
                            None => v,
                            Some(m) => {
                                let old = self.b.use_var(vars[k]);
                                self.select_int(m[k], v, old)
                            }
                        };
                        self.b.def_var(vars[k], v);
                    }
                }
            }
            Op::Deriv { y, mask, src, dst } => {
                for c in bits(mask) {
                    let s = self.get(src[c]);
                    let r = self.deriv(&s, y);
                    self.put(dst[c], r, Write::Active);
                }
            }
            Op::Kill { mask, src, pred } => {
                let mut kill: Option<Pieces> = None;
                for c in bits(mask) {
                    let s = self.get(src[c]);
                    let zero = self.fconst(0.0);
                    let below: Pieces = s
                        .iter()
                        .map(|&v| self.fcmp(FloatCC::LessThan, v, zero))
                        .collect();
                    let p = self.pred(pred, c);
                    let k = self.and_opt(Some(below), p).expect("some");
                    kill = Some(match kill {
                        None => k,
                        Some(old) => old.iter().zip(&k).map(|(&a, &b)| self.or(a, b)).collect(),
                    });
                }
                if let Some(kill) = kill {
                    let a = self.active();
                    let kill = self.and_opt(Some(kill), a).expect("some");
                    let kv = self.killed.clone();
                    let old = self.use_all(&kv);
                    let new: Pieces = old
                        .iter()
                        .zip(&kill)
                        .map(|(&a, &b)| self.or(a, b))
                        .collect();
                    self.def_all(&kv, &new);
                }
            }
            Op::Depth { f, a, b, dst } => {
                let (x, y) = (self.get(a), self.get(b));
                let r: Pieces = (0..self.shape.pieces)
                    .map(|k| match f {
                        DepthFn::TexDepth => {
                            let one = self.fconst(1.0);
                            let m = self.min(y[k], one);
                            let q = self.div(x[k], m);
                            self.saturate(q)
                        }
                        DepthFn::TexM3x2 => {
                            let (zero, one) = (self.fconst(0.0), self.fconst(1.0));
                            let q = self.div(x[k], y[k]);
                            let q = self.saturate(q);
                            let w0 = self.fcmp(FloatCC::Equal, y[k], zero);
                            self.select(w0, one, q)
                        }
                    })
                    .collect();
                self.put(dst, r, Write::Active);
            }
            Op::ProjectStage { stage, src, dst } => {
                let i = self
                    .an
                    .stages
                    .iter()
                    .position(|&s| s == stage)
                    .expect("analysed");
                let d = self.b.ins().load(
                    types::I32,
                    MemFlagsData::trusted().with_readonly(),
                    self.ptr.divisors,
                    (4 * i) as i32,
                );
                let is1 = self.b.ins().icmp_imm_s(IntCC::Equal, d, 1);
                let is2 = self.b.ins().icmp_imm_s(IntCC::Equal, d, 2);
                let projects = self
                    .b
                    .ins()
                    .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, d, 1);
                for c in 0..3 {
                    let s = self.get(src[c]);
                    let (qy, qz, qw) = (self.get(src[1]), self.get(src[2]), self.get(src[3]));
                    let r: Pieces = (0..self.shape.pieces)
                        .map(|k| {
                            let zw = self.b.ins().select(is2, qz[k], qw[k]);
                            let q = self.b.ins().select(is1, qy[k], zw);
                            let p = self.div(s[k], q);
                            self.b.ins().select(projects, p, s[k])
                        })
                        .collect();
                    self.put(dst[c], r, Write::Active);
                }
            }
            Op::Sample {
                sampler,
                coords,
                lod,
                dst,
            } => self.sample(sampler, coords, lod, dst),
            // Flow control is emitted by the caller.
            _ => unreachable!("not a straight-line operation: {op:?}"),
        }
    }

    fn deriv(&mut self, s: &[Value], y: bool) -> Pieces {
        if self.shape.simd {
            return s.iter().map(|&v| self.deriv_vector(v, y)).collect();
        }
        let mut out = Vec::with_capacity(s.len());
        for q in s.chunks(4) {
            let (a, b, c, d) = (q[0], q[1], q[2], q[3]);
            if y {
                let (left, right) = (self.sub(c, a), self.sub(d, b));
                out.extend([left, right, left, right]);
            } else {
                let (top, bottom) = (self.sub(b, a), self.sub(d, c));
                out.extend([top, top, bottom, bottom]);
            }
        }
        out
    }

    /// Lane `l` of a piece as a scalar.
    fn lane(&mut self, v: Value, l: usize) -> Value {
        if self.shape.simd {
            self.b.ins().extractlane(v, l as u8)
        } else {
            v
        }
    }

    /// The register number each lane addresses, as `i32` pieces, and whether it is in range
    /// (`Uniform`: the one number of `aL`). Out of range, the number is `spare` (a register
    /// that reads 0, or any in-range one when the read is masked afterwards).
    fn index(&mut self, index: IndexReg, offset: i32, len: u32, spare: u32) -> Index {
        match index {
            IndexReg::Loop => {
                let al = self.b.use_var(self.al);
                let i = self.b.ins().iadd_imm_s(al, offset as i64);
                let ok = self
                    .b
                    .ins()
                    .icmp_imm_u(IntCC::UnsignedLessThan, i, len as i64);
                let zero = self.b.ins().iconst(types::I32, spare as i64);
                let safe = self.b.ins().select(ok, i, zero);
                Index::Uniform { ok, safe }
            }
            IndexReg::A0(c) => {
                let vars = self.a0[c as usize & 3].clone();
                let off = self.iconst_lanes(offset);
                let n = self.iconst_lanes(len as i32);
                let zero = self.iconst_lanes(spare as i32);
                let mut ok = Vec::new();
                let mut safe = Vec::new();
                for v in vars {
                    let a = self.b.use_var(v);
                    let i = self.b.ins().iadd(a, off);
                    let in_range = self.icmp(IntCC::UnsignedLessThan, i, n);
                    safe.push(self.select_int(in_range, i, zero));
                    ok.push(in_range);
                }
                Index::Lanes { ok, safe }
            }
        }
    }

    /// The address of float `comp` of constant register `reg` (an in-range `i32`).
    fn constant_addr(&mut self, reg: Value) -> Value {
        let r = self.b.ins().uextend(types::I64, reg);
        let r = self.b.ins().ishl_imm_s(r, 4);
        self.b.ins().iadd(self.ptr.floats, r)
    }

    /// The address of lane `lane` of the chunk in row `base + 4 reg + comp` of the register
    /// file (`reg` an in-range `i32`).
    fn block_addr(&mut self, base: Slot, reg: Value, comp: usize, lane: usize) -> Value {
        let r = self.b.ins().uextend(types::I64, reg);
        let r = self
            .b
            .ins()
            .imul_imm_s(r, (4 * self.shape.width * 4) as i64);
        let rows = self.b.use_var(self.rows);
        let a = self.b.ins().iadd(rows, r);
        let fixed = ((base as usize + comp) * self.shape.width + lane) * 4;
        self.b.ins().iadd_imm_s(a, fixed as i64)
    }

    fn gather(
        &mut self,
        from: GatherFrom,
        index: IndexReg,
        offset: i32,
        comps: [u8; 4],
        mask: u8,
        dst: [Slot; 4],
    ) {
        let pieces = self.shape.pieces;
        let per = self.shape.per_piece;
        let flags = MemFlagsData::new().with_notrap();
        let zero = self.fconst(0.0);
        // Component `comp` of the register each lane reads, one vector per piece.
        let mut read: Vec<[Pieces; 4]> = Vec::new();
        match from {
            GatherFrom::Const => {
                // Out of range reads the zero register after the constants.
                let len = self.plan.float_constants;
                match self.index(index, offset, len, len) {
                    Index::Uniform { safe, .. } => {
                        let addr = self.constant_addr(safe);
                        let regs: [Pieces; 4] = std::array::from_fn(|c| {
                            let x = self.b.ins().load(types::F32, flags, addr, (4 * c) as i32);
                            let v = if self.shape.simd {
                                self.b.ins().splat(types::F32X4, x)
                            } else {
                                x
                            };
                            vec![v; pieces]
                        });
                        read.push(regs);
                    }
                    Index::Lanes { safe, .. } if self.shape.simd => {
                        let mut regs: [Pieces; 4] = Default::default();
                        for s in safe {
                            let rows: [Value; 4] = std::array::from_fn(|l| {
                                let i = self.b.ins().extractlane(s, l as u8);
                                let addr = self.constant_addr(i);
                                self.b.ins().load(types::F32X4, flags, addr, 0)
                            });
                            let cols = self.transpose(rows);
                            for (c, v) in cols.into_iter().enumerate() {
                                regs[c].push(v);
                            }
                        }
                        read.push(regs);
                    }
                    Index::Lanes { safe, .. } => {
                        let regs: [Pieces; 4] = std::array::from_fn(|c| {
                            safe.iter()
                                .map(|&i| {
                                    let addr = self.constant_addr(i);
                                    self.b.ins().load(types::F32, flags, addr, (4 * c) as i32)
                                })
                                .collect()
                        });
                        read.push(regs);
                    }
                }
            }
            GatherFrom::Block { base, len } => {
                // Out of range reads register 0 of the block, then 0 is selected.
                let idx = self.index(index, offset, len, 0);
                let regs: [Pieces; 4] = std::array::from_fn(|comp| match &idx {
                    Index::Uniform { ok, safe } => (0..pieces)
                        .map(|k| {
                            let addr = self.block_addr(base, *safe, comp, k * per);
                            let v = self.b.ins().load(self.fty, flags, addr, 0);
                            self.b.ins().select(*ok, v, zero)
                        })
                        .collect(),
                    Index::Lanes { ok, safe } => (0..pieces)
                        .map(|k| {
                            let mut v = zero;
                            for l in 0..per {
                                let i = self.lane(safe[k], l);
                                let addr = self.block_addr(base, i, comp, k * per + l);
                                let x = self.b.ins().load(types::F32, flags, addr, 0);
                                v = if self.shape.simd {
                                    self.b.ins().insertlane(v, x, l as u8)
                                } else {
                                    x
                                };
                            }
                            self.select(ok[k], v, zero)
                        })
                        .collect(),
                });
                read.push(regs);
            }
        }
        let regs = read.pop().expect("one read");
        for c in bits(mask) {
            let r = regs[comps[c] as usize & 3].clone();
            self.put(dst[c], r, Write::Active);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn scatter(
        &mut self,
        base: Slot,
        len: u32,
        index: IndexReg,
        offset: i32,
        mask: u8,
        src: [Slot; 4],
        pred: Option<PredSel>,
    ) {
        let idx = self.index(index, offset, len, 0);
        let pieces = self.shape.pieces;
        let per = self.shape.per_piece;
        let flags = MemFlagsData::trusted();
        for c in bits(mask) {
            let a = self.active();
            let p = self.pred(pred, c);
            let allowed = self.and_opt(a, p);
            let v = self.get(src[c]);
            for k in 0..pieces {
                for l in 0..per {
                    let (ok, safe) = match &idx {
                        Index::Uniform { ok, safe } => (*ok, *safe),
                        Index::Lanes { ok, safe } => {
                            let o = self.lane(ok[k], l);
                            let o = self.b.ins().icmp_imm_s(IntCC::NotEqual, o, 0);
                            let s = self.lane(safe[k], l);
                            (o, s)
                        }
                    };
                    let ok = match &allowed {
                        None => ok,
                        Some(m) => {
                            let a = self.lane(m[k], l);
                            let a = self.b.ins().icmp_imm_s(IntCC::NotEqual, a, 0);
                            self.b.ins().band(ok, a)
                        }
                    };
                    let addr = self.block_addr(base, safe, c, k * per + l);
                    let old = self.b.ins().load(types::F32, flags, addr, 0);
                    let x = self.lane_f(v[k], l);
                    let new = self.b.ins().select(ok, x, old);
                    self.b.ins().store(flags, new, addr, 0);
                }
            }
        }
    }

    /// Lane `l` of a float piece as an `f32`.
    fn lane_f(&mut self, v: Value, l: usize) -> Value {
        self.lane(v, l)
    }

    fn sample(&mut self, sampler: u8, coords: [Slot; 3], lod: LodPlan, dst: [Slot; 4]) {
        for (row, &s) in coords.iter().enumerate() {
            let v = self.get(s);
            self.store_buffer(row, &v);
        }
        let kind = match lod {
            LodPlan::Implicit => lod_kind::IMPLICIT,
            LodPlan::Bias(s) => {
                let v = self.get(s);
                self.store_buffer(3, &v);
                lod_kind::BIAS
            }
            LodPlan::Explicit(s) => {
                let v = self.get(s);
                self.store_buffer(3, &v);
                lod_kind::EXPLICIT
            }
            LodPlan::Gradients(dx, dy) => {
                for (row, &s) in dx.iter().chain(&dy).enumerate() {
                    let v = self.get(s);
                    self.store_buffer(3 + row, &v);
                }
                lod_kind::GRADIENTS
            }
        };
        // The channels of lanes the sampler does not write read 0 (as the interpreter's).
        let zero = self.fconst(0.0);
        for c in 0..4 {
            self.store_buffer(9 + c, &vec![zero; self.shape.pieces]);
        }
        let active = self.active();
        let real = self.b.use_var(self.real);
        let mask = match active {
            None => real,
            Some(a) => {
                let bits = self.lane_bits(&a);
                self.b.ins().band(bits, real)
            }
        };
        let run = self.ptr.run;
        let s = self.b.ins().iconst(types::I32, sampler as i64);
        let k = self.b.ins().iconst(types::I32, kind as i64);
        let buf = self.buffer_addr(0);
        let n = self.b.ins().iconst(types::I64, self.shape.chunk() as i64);
        let sig = self.sigs.sample;
        let f = runtime::sample as runtime::SampleFn as usize;
        self.call_indirect(sig, f, &[run, s, k, mask, buf, n]);
        for (c, &s) in dst.iter().enumerate() {
            let v = self.load_buffer(9 + c);
            self.put(s, v, Write::Active);
        }
    }
}

/// The register numbers a relative access uses.
enum Index {
    /// `aL`: one number (`safe` is 0 when out of range).
    Uniform { ok: Value, safe: Value },
    /// `a0.c`: a number per lane, masks of the lanes in range.
    Lanes { ok: Pieces, safe: Pieces },
}
