//! Operations on one *piece* of lanes: an `f32x4` vector, or one `f32` in scalar mode, with
//! masks as `i32x4` (or `i32`) lanes of all ones or zero.
//!
//! Every float function here is the IEEE operation sequence of `crate::math` written as
//! compares and bit selects, so its bits are the interpreter's: no fused multiply-add, the
//! `<` / `>=` selects of `min`/`max`, negation and absolute value as sign-bit operations (as
//! Rust compiles `-x` and `x.abs()`), and saturating float-to-integer conversions.

use super::Gen;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, Endianness, InstBuilder, MemFlagsData, Value};

const SIGN: i32 = i32::MIN;

impl Gen<'_, '_> {
    /// Flags of a bitcast between vector types (lane order must be explicit).
    fn cast_flags(&self) -> MemFlagsData {
        MemFlagsData::new().with_endianness(Endianness::Little)
    }

    /// A float constant in every lane.
    pub(super) fn fconst(&mut self, v: f32) -> Value {
        let key = v.to_bits();
        if let Some(&x) = self.consts.get(&key) {
            return x;
        }
        let s = self.b.ins().f32const(v);
        let x = if self.shape.simd {
            self.b.ins().splat(types::F32X4, s)
        } else {
            s
        };
        self.consts.insert(key, x);
        x
    }

    /// An integer constant in every lane of a mask-typed piece.
    pub(super) fn iconst_lanes(&mut self, v: i32) -> Value {
        let s = self.b.ins().iconst(types::I32, v as i64);
        if self.shape.simd {
            self.b.ins().splat(types::I32X4, s)
        } else {
            s
        }
    }

    /// A mask of every lane set (`true`) or none.
    pub(super) fn mask_const(&mut self, on: bool) -> Value {
        self.iconst_lanes(if on { -1 } else { 0 })
    }

    /// Float lanes seen as integer lanes (the same bits).
    pub(super) fn as_int(&mut self, x: Value) -> Value {
        let (ty, flags) = if self.shape.simd {
            (types::I32X4, self.cast_flags())
        } else {
            (types::I32, MemFlagsData::new())
        };
        self.b.ins().bitcast(ty, flags, x)
    }

    /// Integer lanes seen as float lanes.
    pub(super) fn as_float(&mut self, x: Value) -> Value {
        let (ty, flags) = if self.shape.simd {
            (types::F32X4, self.cast_flags())
        } else {
            (types::F32, MemFlagsData::new())
        };
        self.b.ins().bitcast(ty, flags, x)
    }

    /// `mask ? a : b` per lane (floats).
    pub(super) fn select(&mut self, mask: Value, a: Value, b: Value) -> Value {
        if self.shape.simd {
            let m = self.as_float(mask);
            self.b.ins().bitselect(m, a, b)
        } else {
            self.b.ins().select(mask, a, b)
        }
    }

    /// `mask ? a : b` per lane (integers or masks).
    pub(super) fn select_int(&mut self, mask: Value, a: Value, b: Value) -> Value {
        if self.shape.simd {
            self.b.ins().bitselect(mask, a, b)
        } else {
            self.b.ins().select(mask, a, b)
        }
    }

    /// A float comparison as a lane mask.
    pub(super) fn fcmp(&mut self, cc: FloatCC, a: Value, b: Value) -> Value {
        let c = self.b.ins().fcmp(cc, a, b);
        if self.shape.simd {
            c
        } else {
            self.b.ins().bmask(types::I32, c)
        }
    }

    /// An integer comparison as a lane mask.
    pub(super) fn icmp(&mut self, cc: IntCC, a: Value, b: Value) -> Value {
        let c = self.b.ins().icmp(cc, a, b);
        if self.shape.simd {
            c
        } else {
            self.b.ins().bmask(types::I32, c)
        }
    }

    /// `a & b` of masks.
    pub(super) fn and(&mut self, a: Value, b: Value) -> Value {
        self.b.ins().band(a, b)
    }

    /// `a | b` of masks.
    pub(super) fn or(&mut self, a: Value, b: Value) -> Value {
        self.b.ins().bor(a, b)
    }

    /// `a & !b` of masks.
    pub(super) fn and_not(&mut self, a: Value, b: Value) -> Value {
        self.b.ins().band_not(a, b)
    }

    /// `!a` of a mask.
    pub(super) fn not(&mut self, a: Value) -> Value {
        self.b.ins().bnot(a)
    }

    /// Piecewise `a & b` of optional masks (`None`: every lane).
    pub(super) fn and_opt(
        &mut self,
        a: Option<Vec<Value>>,
        b: Option<Vec<Value>>,
    ) -> Option<Vec<Value>> {
        match (a, b) {
            (None, x) | (x, None) => x,
            (Some(a), Some(b)) => Some(a.iter().zip(&b).map(|(&x, &y)| self.and(x, y)).collect()),
        }
    }

    /// A branch condition: whether any lane of the pieces is set.
    pub(super) fn any(&mut self, masks: &[Value]) -> Value {
        let mut acc = masks[0];
        for &m in &masks[1..] {
            acc = self.or(acc, m);
        }
        if self.shape.simd {
            self.b.ins().vany_true(acc)
        } else {
            self.b.ins().icmp_imm_s(IntCC::NotEqual, acc, 0)
        }
    }

    /// The lanes of the pieces as bits of an `i64` (lane `i` of the chunk at bit `i`).
    pub(super) fn lane_bits(&mut self, masks: &[Value]) -> Value {
        let per = self.shape.per_piece as i64;
        let mut acc = self.b.ins().iconst(types::I64, 0);
        for (k, &m) in masks.iter().enumerate() {
            let bits = if self.shape.simd {
                self.b.ins().vhigh_bits(types::I64, m)
            } else {
                let b = self.b.ins().band_imm_s(m, 1);
                self.b.ins().uextend(types::I64, b)
            };
            let shifted = self.b.ins().ishl_imm_s(bits, per * k as i64);
            acc = self.b.ins().bor(acc, shifted);
        }
        acc
    }

    // Float rules (docs/SEMANTICS.md 5).

    /// `-x`: the sign bit flipped.
    pub(super) fn neg(&mut self, x: Value) -> Value {
        let i = self.as_int(x);
        let s = self.iconst_lanes(SIGN);
        let r = self.b.ins().bxor(i, s);
        self.as_float(r)
    }

    /// `|x|`: the sign bit cleared.
    pub(super) fn abs(&mut self, x: Value) -> Value {
        let i = self.as_int(x);
        let s = self.iconst_lanes(i32::MAX);
        let r = self.b.ins().band(i, s);
        self.as_float(r)
    }

    /// `-|x|`: the sign bit set.
    pub(super) fn neg_abs(&mut self, x: Value) -> Value {
        let i = self.as_int(x);
        let s = self.iconst_lanes(SIGN);
        let r = self.b.ins().bor(i, s);
        self.as_float(r)
    }

    pub(super) fn add(&mut self, a: Value, b: Value) -> Value {
        self.b.ins().fadd(a, b)
    }

    pub(super) fn sub(&mut self, a: Value, b: Value) -> Value {
        self.b.ins().fsub(a, b)
    }

    pub(super) fn div(&mut self, a: Value, b: Value) -> Value {
        self.b.ins().fdiv(a, b)
    }

    /// A product (5.1), with "0 * anything = 0" when the plan asks for it.
    pub(super) fn mul(&mut self, a: Value, b: Value) -> Value {
        let p = self.b.ins().fmul(a, b);
        if !self.plan.zero_times_anything {
            return p;
        }
        let zero = self.fconst(0.0);
        let za = self.fcmp(FloatCC::Equal, a, zero);
        let zb = self.fcmp(FloatCC::Equal, b, zero);
        let z = self.or(za, zb);
        let bits = self.as_int(p);
        let r = self.and_not(bits, z);
        self.as_float(r)
    }

    /// A constant times `x`, as `c * x` is written in `crate::math` (the constant first).
    pub(super) fn scale(&mut self, c: f32, x: Value) -> Value {
        let k = self.fconst(c);
        self.b.ins().fmul(k, x)
    }

    /// `a < b ? a : b`.
    pub(super) fn min(&mut self, a: Value, b: Value) -> Value {
        let m = self.fcmp(FloatCC::LessThan, a, b);
        self.select(m, a, b)
    }

    /// `a >= b ? a : b`.
    pub(super) fn max(&mut self, a: Value, b: Value) -> Value {
        let m = self.fcmp(FloatCC::GreaterThanOrEqual, a, b);
        self.select(m, a, b)
    }

    /// `clamp(x, 0, 1)`, NaN giving 0.
    pub(super) fn saturate(&mut self, x: Value) -> Value {
        let (zero, one) = (self.fconst(0.0), self.fconst(1.0));
        let below = self.fcmp(FloatCC::LessThan, x, one);
        let inner = self.select(below, x, one);
        let above = self.fcmp(FloatCC::GreaterThan, x, zero);
        self.select(above, inner, zero)
    }

    /// The ps_1_x range clamp `clamp(x, -m, m)`, NaN giving 0.
    pub(super) fn range_clamp(&mut self, x: Value, m: f32) -> Value {
        let (lo, hi, zero) = (self.fconst(-m), self.fconst(m), self.fconst(0.0));
        let le_hi = self.fcmp(FloatCC::LessThanOrEqual, x, hi);
        let inner = self.select(le_hi, x, hi);
        let lt_lo = self.fcmp(FloatCC::LessThan, x, lo);
        let low = self.select(lt_lo, lo, zero);
        let ge_lo = self.fcmp(FloatCC::GreaterThanOrEqual, x, lo);
        self.select(ge_lo, inner, low)
    }

    /// `cond ? 1 : 0`.
    pub(super) fn one_if(&mut self, cond: Value) -> Value {
        let (one, zero) = (self.fconst(1.0), self.fconst(0.0));
        self.select(cond, one, zero)
    }

    pub(super) fn floor(&mut self, x: Value) -> Value {
        self.b.ins().floor(x)
    }

    /// `x - floor(x)`.
    pub(super) fn frc(&mut self, x: Value) -> Value {
        let f = self.floor(x);
        self.sub(x, f)
    }

    /// -1, 0 or 1; NaN and -0 give 0.
    pub(super) fn sgn(&mut self, x: Value) -> Value {
        let (zero, one, minus) = (self.fconst(0.0), self.fconst(1.0), self.fconst(-1.0));
        let lt = self.fcmp(FloatCC::LessThan, x, zero);
        let inner = self.select(lt, minus, zero);
        let gt = self.fcmp(FloatCC::GreaterThan, x, zero);
        self.select(gt, one, inner)
    }

    /// `1 / x`.
    pub(super) fn rcp(&mut self, x: Value) -> Value {
        let one = self.fconst(1.0);
        self.div(one, x)
    }

    /// `1 / sqrt(|x|)`.
    pub(super) fn rsq(&mut self, x: Value) -> Value {
        let a = self.abs(x);
        let s = self.b.ins().sqrt(a);
        self.rcp(s)
    }

    /// 0 for 0, else `1 / sqrt(x)`.
    pub(super) fn nrm_factor(&mut self, l: Value) -> Value {
        let zero = self.fconst(0.0);
        let s = self.b.ins().sqrt(l);
        let r = self.rcp(s);
        let is_zero = self.fcmp(FloatCC::Equal, l, zero);
        self.select(is_zero, zero, r)
    }

    /// `mova` (round half away from zero) or vs_1_1 `mov a0` (floor), saturating to `i32`.
    pub(super) fn address(&mut self, x: Value, round: bool) -> Value {
        let r = if round {
            // trunc(x) + 1 (or - 1) when the dropped fraction is at least a half; the
            // fraction `x - trunc(x)` is exact, and so is the step for |x| < 2^23 (larger
            // values are integers with no fraction).
            let t = self.b.ins().trunc(x);
            let d = self.sub(x, t);
            let (half, minus_half) = (self.fconst(0.5), self.fconst(-0.5));
            let (one, minus, zero) = (self.fconst(1.0), self.fconst(-1.0), self.fconst(0.0));
            let up = self.fcmp(FloatCC::GreaterThanOrEqual, d, half);
            let down = self.fcmp(FloatCC::LessThanOrEqual, d, minus_half);
            let low = self.select(down, minus, zero);
            let step = self.select(up, one, low);
            self.add(t, step)
        } else {
            self.floor(x)
        };
        let ty = if self.shape.simd {
            types::I32X4
        } else {
            types::I32
        };
        self.b.ins().fcvt_to_sint_sat(ty, r)
    }

    /// `dsx` (`y == false`) or `dsy` of one piece holding whole quads.
    pub(super) fn deriv_vector(&mut self, s: Value, y: bool) -> Value {
        // dsx: (b - a, b - a, d - c, d - c); dsy: (c - a, d - b, c - a, d - b).
        let (hi, lo): ([u8; 4], [u8; 4]) = if y {
            ([2, 3, 2, 3], [0, 1, 0, 1])
        } else {
            ([1, 1, 3, 3], [0, 0, 2, 2])
        };
        let a = self.shuffle(s, hi);
        let b = self.shuffle(s, lo);
        self.sub(a, b)
    }

    /// Lanes of an `f32x4` rearranged: lane `i` of the result is lane `lanes[i]` of `x`.
    fn shuffle(&mut self, x: Value, lanes: [u8; 4]) -> Value {
        self.shuffle2(x, x, lanes)
    }

    /// Lanes of two `f32x4` combined: lane `i` of the result is lane `lanes[i]` of `x` (0-3)
    /// or of `y` (4-7).
    fn shuffle2(&mut self, x: Value, y: Value, lanes: [u8; 4]) -> Value {
        let flags = self.cast_flags();
        let a = self.b.ins().bitcast(types::I8X16, flags, x);
        let b = self.b.ins().bitcast(types::I8X16, flags, y);
        let mut mask = [0u8; 16];
        for (i, &l) in lanes.iter().enumerate() {
            for j in 0..4 {
                mask[4 * i + j] = 4 * l + j as u8;
            }
        }
        let imm = self.b.func.dfg.immediates.push(mask.to_vec().into());
        let r = self.b.ins().shuffle(a, b, imm);
        self.b.ins().bitcast(types::F32X4, flags, r)
    }

    /// Four registers of four components (one lane each) as four pieces of one component
    /// each (the unpack sequence x86 has instructions for).
    pub(super) fn transpose(&mut self, r: [Value; 4]) -> [Value; 4] {
        let t0 = self.shuffle2(r[0], r[1], [0, 4, 1, 5]);
        let t1 = self.shuffle2(r[2], r[3], [0, 4, 1, 5]);
        let t2 = self.shuffle2(r[0], r[1], [2, 6, 3, 7]);
        let t3 = self.shuffle2(r[2], r[3], [2, 6, 3, 7]);
        [
            self.shuffle2(t0, t1, [0, 1, 4, 5]),
            self.shuffle2(t0, t1, [2, 3, 6, 7]),
            self.shuffle2(t2, t3, [0, 1, 4, 5]),
            self.shuffle2(t2, t3, [2, 3, 6, 7]),
        ]
    }
}
