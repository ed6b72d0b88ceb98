//! Arithmetic instructions: what each computes, per `docs/SEMANTICS.md`.

use crate::body::{Body, Elem, Lanes, Value};
use crate::semantics;
use crate::Error;
use dxso::{Comparison, Instruction, Opcode, SrcParam};
use naga::{BinaryOperator as B, Expression, Handle, MathFunction as M, VectorSize};

type H = Handle<Expression>;

impl Body<'_> {
    /// Computes an arithmetic instruction's value, or `None` when `opcode` is not one.
    /// Instructions that write a register of another type (`mova`, `setp`) write it here and
    /// return `Some(None)`.
    pub(crate) fn arith(&mut self, inst: &Instruction) -> Result<Option<Option<Value>>, Error> {
        use Opcode::*;
        let lanes = self.lanes(inst);
        let item = self.item;
        let s = |i: usize| -> Result<&SrcParam, Error> {
            inst.srcs
                .get(i)
                .ok_or_else(|| Error::at(item, inst.opcode, "missing source operand"))
        };
        let v = match inst.opcode {
            Mov => {
                if self.writes_address(inst) {
                    self.write_address(inst, false)?;
                    return Ok(Some(None));
                }
                self.cw(inst, lanes, 1, |_, a| Ok(a[0]))?
            }
            MovA => {
                self.write_address(inst, true)?;
                return Ok(Some(None));
            }
            Add => self.cw(inst, lanes, 2, |b, a| Ok(b.bin(B::Add, a[0], a[1])))?,
            Sub => self.cw(inst, lanes, 2, |b, a| Ok(b.bin(B::Subtract, a[0], a[1])))?,
            Mul => self.cw(inst, lanes, 2, |b, a| {
                Ok(b.product(a[0], a[1], lanes.width()))
            })?,
            Mad => self.cw(inst, lanes, 3, |b, a| {
                let m = b.product(a[0], a[1], lanes.width());
                Ok(b.bin(B::Add, m, a[2]))
            })?,
            Min => self.cw(inst, lanes, 2, |b, a| {
                let c = b.bin(B::Less, a[0], a[1]);
                Ok(b.select(c, a[0], a[1]))
            })?,
            Max => self.cw(inst, lanes, 2, |b, a| {
                let c = b.bin(B::GreaterEqual, a[0], a[1]);
                Ok(b.select(c, a[0], a[1]))
            })?,
            Slt | Sge => {
                let op = if inst.opcode == Slt {
                    B::Less
                } else {
                    B::GreaterEqual
                };
                self.cw(inst, lanes, 2, move |b, a| {
                    let c = b.bin(op, a[0], a[1]);
                    let one = b.fconst(1.0, lanes);
                    let zero = b.fconst(0.0, lanes);
                    Ok(b.select(c, one, zero))
                })?
            }
            Frc => self.cw(inst, lanes, 1, move |b, a| {
                // `x - floor(x)`, and NaN for infinite `x` as the formula gives, spelled out:
                // a device's compiler that assumes finite values folds fxc's `ceil` idiom
                // `x + frc(-x)` into `ceil(x)` (-inf, not NaN). The NaN is `sqrt(-|x|)`, as
                // shading languages have no NaN constant and old GLSL no bit casts; the test
                // halves `|x|` so that its bound, `f32::MAX / 2`, prints exactly.
                let f = b.math1(M::Floor, a[0]);
                let f = b.bin(B::Subtract, a[0], f);
                let abs = b.math1(M::Abs, a[0]);
                let half = b.fconst(0.5, lanes);
                let halved = b.bin(B::Multiply, abs, half);
                let bound = b.fconst(f32::MAX / 2.0, lanes);
                let finite = b.bin(B::LessEqual, halved, bound);
                let negative = b.e(naga::Expression::Unary {
                    op: naga::UnaryOperator::Negate,
                    expr: abs,
                });
                let nan = b.math1(M::Sqrt, negative);
                Ok(b.select(finite, f, nan))
            })?,
            Abs => self.cw(inst, lanes, 1, |b, a| Ok(b.math1(M::Abs, a[0])))?,
            Sgn => self.cw(inst, lanes, 1, move |b, a| {
                // NaN and -0 give 0.
                let zero = b.fconst(0.0, lanes);
                let one = b.fconst(1.0, lanes);
                let minus = b.fconst(-1.0, lanes);
                let pos = b.bin(B::Greater, a[0], zero);
                let neg = b.bin(B::Less, a[0], zero);
                let n = b.select(neg, minus, zero);
                Ok(b.select(pos, one, n))
            })?,
            Lrp => self.cw(inst, lanes, 3, |b, a| {
                let d = b.bin(B::Subtract, a[1], a[2]);
                let m = b.product(a[0], d, lanes.width());
                Ok(b.bin(B::Add, a[2], m))
            })?,
            Cmp => self.cw(inst, lanes, 3, move |b, a| {
                let zero = b.fconst(0.0, lanes);
                let c = b.bin(B::GreaterEqual, a[0], zero);
                Ok(b.select(c, a[1], a[2]))
            })?,
            Cnd if inst.coissue && self.plan.version.major < 2 && self.plan.version.minor < 4 => {
                // A co-issued cnd in ps_1_1-1_3 yields its second source (SEMANTICS 4).
                self.cw(inst, lanes, 3, |_, a| Ok(a[1]))?
            }
            Cnd => self.cw(inst, lanes, 3, move |b, a| {
                let half = b.fconst(0.5, lanes);
                let c = b.bin(B::Greater, a[0], half);
                Ok(b.select(c, a[1], a[2]))
            })?,
            Rcp => {
                let x = self.src_scalar(s(0)?)?;
                let one = self.func.f32(1.0);
                Value::Scalar(self.bin(B::Divide, one, x))
            }
            Rsq => {
                let x = self.src_scalar(s(0)?)?;
                let a = self.math1(M::Abs, x);
                Value::Scalar(self.math1(M::InverseSqrt, a))
            }
            Exp => {
                let x = self.src_scalar(s(0)?)?;
                Value::Scalar(self.exp2(x))
            }
            Log | LogP => {
                let x = self.src_scalar(s(0)?)?;
                let a = self.math1(M::Abs, x);
                Value::Scalar(self.math1(M::Log2, a))
            }
            ExpP => {
                let x = self.src_scalar(s(0)?)?;
                if semantics::expp_is_vector(self.plan.version) {
                    // (2^floor(x), x - floor(x), 2^x, 1)
                    let fl = self.math1(M::Floor, x);
                    let a = self.exp2(fl);
                    let f = self.bin(B::Subtract, x, fl);
                    let e = self.exp2(x);
                    let one = self.func.f32(1.0);
                    Value::Vec4(self.compose4(vec![a, f, e, one]))
                } else {
                    Value::Scalar(self.exp2(x))
                }
            }
            Pow => {
                let x = self.src_scalar(s(0)?)?;
                let y = self.src_scalar(s(1)?)?;
                Value::Scalar(self.powf(x, y, true))
            }
            Dp3 => {
                let a = self.src_n(s(0)?, VectorSize::Tri)?;
                let b = self.src_n(s(1)?, VectorSize::Tri)?;
                Value::Scalar(self.dot(a, b, 3))
            }
            Dp4 => {
                let a = self.src4(s(0)?)?;
                let b = self.src4(s(1)?)?;
                Value::Scalar(self.dot(a, b, 4))
            }
            Dp2Add => {
                let a = self.src_n(s(0)?, VectorSize::Bi)?;
                let b = self.src_n(s(1)?, VectorSize::Bi)?;
                let c = self.src_scalar(s(2)?)?;
                let d = self.dot(a, b, 2);
                Value::Scalar(self.bin(B::Add, d, c))
            }
            M4x4 | M4x3 | M3x4 | M3x3 | M3x2 => self.matrix(inst)?,
            Crs => {
                let a = self.src_n(s(0)?, VectorSize::Tri)?;
                let b = self.src_n(s(1)?, VectorSize::Tri)?;
                let c = self.cross(a, b);
                let zero = self.func.f32(0.0);
                let v = self.compose4(vec![c, zero]);
                // .w is never written.
                self.write_masked(inst, Value::Vec4(v), 0b0111)?;
                return Ok(Some(None));
            }
            Nrm => {
                // A zero vector normalises to zero (SEMANTICS 5.5).
                let v = self.src4(s(0)?)?;
                let xyz = self.swizzle(v, VectorSize::Tri, [0, 1, 2, 3]);
                let d = self.dot(xyz, xyz, 3);
                let r = self.math1(M::InverseSqrt, d);
                let zero = self.func.f32(0.0);
                let is_zero = self.bin(B::Equal, d, zero);
                let r = self.select(is_zero, zero, r);
                match lanes {
                    Lanes::One(c) => {
                        let x = self.index(v, c as u32);
                        Value::Scalar(self.product(x, r, None))
                    }
                    Lanes::All => Value::Vec4(self.product_by_scalar(v, r, VectorSize::Quad)),
                }
            }
            SinCos => {
                let x = self.src_scalar(s(0)?)?;
                let c = self.math1(M::Cos, x);
                let si = self.math1(M::Sin, x);
                match lanes {
                    Lanes::One(0) => Value::Scalar(c),
                    Lanes::One(_) => Value::Scalar(si),
                    Lanes::All => {
                        let zero = self.func.f32(0.0);
                        let v = self.compose4(vec![c, si, zero, zero]);
                        // .z and .w are never written.
                        self.write_masked(inst, Value::Vec4(v), 0b0011)?;
                        return Ok(Some(None));
                    }
                }
            }
            Lit => self.lit(s(0)?)?,
            Dst => {
                let one = self.func.f32(1.0);
                let a = self.src4(s(0)?)?;
                let b = self.src4(s(1)?)?;
                let ay = self.index(a, 1);
                let by = self.index(b, 1);
                let y = self.product(ay, by, None);
                let z = self.index(a, 2);
                let w = self.index(b, 3);
                Value::Vec4(self.compose4(vec![one, y, z, w]))
            }
            SetP => {
                self.setp(inst)?;
                return Ok(Some(None));
            }
            _ => return Ok(None),
        };
        Ok(Some(Some(v)))
    }

    /// A component-wise instruction over `n` sources.
    pub(crate) fn cw(
        &mut self,
        inst: &Instruction,
        lanes: Lanes,
        n: usize,
        f: impl FnOnce(&mut Self, &[H]) -> Result<H, Error>,
    ) -> Result<Value, Error> {
        if inst.srcs.len() < n {
            return Err(self.err("missing source operand"));
        }
        let first = self.src(&inst.srcs[0], lanes)?;
        let mut args = [first; 3];
        for (i, arg) in args.iter_mut().enumerate().take(n).skip(1) {
            *arg = self.src(&inst.srcs[i], lanes)?;
        }
        let v = f(self, &args[..n])?;
        Ok(match lanes {
            Lanes::One(_) => Value::Scalar(v),
            Lanes::All => Value::Vec4(v),
        })
    }

    /// `true` where `x` is NaN: `!(x == x)` (an ordered comparison is false for NaN; naga's
    /// `!=` is ordered too, and WGSL has no `isNan`).
    fn is_nan(&mut self, x: H) -> H {
        let eq = self.bin(B::Equal, x, x);
        self.e(naga::Expression::Unary {
            op: naga::UnaryOperator::LogicalNot,
            expr: eq,
        })
    }

    /// `2^x` with `exp2(NaN) = NaN`: lavapipe's `exp2` gives 0 for a NaN whose sign bit is set
    /// (the NaN that `-inf * 0` makes), where IEEE and the executor give NaN.
    fn exp2(&mut self, x: H) -> H {
        let e = self.math1(M::Exp2, x);
        let nan = self.is_nan(x);
        self.select(nan, x, e)
    }

    /// C's `powf` of `|x|` (with `abs`) or `x`, whatever the device's `pow` does outside its
    /// domain: `pow(x, 0) = pow(1, y) = 1` for every x and y (NaN included), a NaN operand
    /// otherwise gives NaN, `pow(0, y)` is `+inf` for `y < 0` and 0 for `y > 0` (GPUs compute
    /// `exp2(y log2 x)`, and lavapipe gives 0 for `pow(0, -1)` and for NaN bases).
    fn powf(&mut self, x: H, y: H, abs: bool) -> H {
        let base = if abs { self.math1(M::Abs, x) } else { x };
        let p = self.math2(M::Pow, base, y);
        let zero = self.func.f32(0.0);
        let one = self.func.f32(1.0);
        // pow(0, y): 1 / +0 = +inf for y < 0, the base itself (0) for y > 0.
        let base0 = self.bin(B::Equal, base, zero);
        let negative = self.bin(B::Less, y, zero);
        let inf = self.bin(B::Divide, one, base);
        let at_zero = self.select(negative, inf, base);
        let p = self.select(base0, at_zero, p);
        let nan_base = self.is_nan(base);
        let nan_y = self.is_nan(y);
        let nan = self.bin(B::LogicalOr, nan_base, nan_y);
        let sum = self.bin(B::Add, base, y);
        let p = self.select(nan, sum, p);
        let y0 = self.bin(B::Equal, y, zero);
        let b1 = self.bin(B::Equal, base, one);
        let unit = self.bin(B::LogicalOr, y0, b1);
        self.select(unit, one, p)
    }

    fn matrix(&mut self, inst: &Instruction) -> Result<Value, Error> {
        use Opcode::*;
        let (rows, size) = match inst.opcode {
            M4x4 => (4, VectorSize::Quad),
            M4x3 => (3, VectorSize::Quad),
            M3x4 => (4, VectorSize::Tri),
            M3x3 => (3, VectorSize::Tri),
            _ => (2, VectorSize::Tri),
        };
        let (Some(a), Some(m)) = (inst.srcs.first(), inst.srcs.get(1)) else {
            return Err(self.err("missing source operand"));
        };
        let mask = inst.dst.map(|d| d.mask.0).unwrap_or(0xF);
        let v = if size == VectorSize::Quad {
            self.src4(a)?
        } else {
            self.src_n(a, size)?
        };
        let mut dots = Vec::with_capacity(4);
        for k in 0..4u32 {
            if k >= rows || mask & (1 << k) == 0 {
                dots.push(None);
                continue;
            }
            let mut row = *m;
            row.register.num = row.register.num.wrapping_add(k as u16);
            let r = if size == VectorSize::Quad {
                self.src4(&row)?
            } else {
                self.src_n(&row, size)?
            };
            let n = if size == VectorSize::Quad { 4 } else { 3 };
            dots.push(Some(self.dot(v, r, n)));
        }
        if let Lanes::One(c) = self.lanes(inst) {
            return Ok(Value::Scalar(match dots[c as usize] {
                Some(d) => d,
                None => self.func.f32(0.0),
            }));
        }
        let zero = self.func.f32(0.0);
        let comps = dots.into_iter().map(|d| d.unwrap_or(zero)).collect();
        Ok(Value::Vec4(self.compose4(comps)))
    }

    fn lit(&mut self, src: &SrcParam) -> Result<Value, Error> {
        let v = self.src4(src)?;
        let x = self.index(v, 0);
        let y = self.index(v, 1);
        let w = self.index(v, 3);
        let zero = self.func.f32(0.0);
        let one = self.func.f32(1.0);
        let lim = self.func.f32(semantics::LIT_POWER_LIMIT);
        let nlim = self.func.f32(-semantics::LIT_POWER_LIMIT);
        let xp = self.bin(B::Greater, x, zero);
        let dy = self.select(xp, x, zero);
        let p = self.math3(M::Clamp, w, nlim, lim);
        let spec = self.powf(y, p, false);
        let yp = self.bin(B::Greater, y, zero);
        let both = self.bin(B::LogicalAnd, xp, yp);
        let dz = self.select(both, spec, zero);
        Ok(Value::Vec4(self.compose4(vec![one, dy, dz, one])))
    }

    fn writes_address(&self, inst: &Instruction) -> bool {
        self.plan.version.is_vertex()
            && inst.dst.map(|d| d.register.ty) == Some(dxso::RegisterType::Addr)
    }

    /// `mova` rounds to nearest with halves away from zero, vs_1_1 `mov a0` floors
    /// (SEMANTICS 5.6).
    fn write_address(&mut self, inst: &Instruction, round: bool) -> Result<(), Error> {
        let Some(dst) = inst.dst else {
            return Err(self.err("instruction without a destination"));
        };
        let lanes = self.lanes(inst);
        let v = self.cw(inst, lanes, 1, move |b, a| {
            let f = if round {
                // sign(x) * floor(|x| + 0.5)
                let abs = b.math1(M::Abs, a[0]);
                let h = b.fconst(0.5, lanes);
                let s = b.bin(B::Add, abs, h);
                let fl = b.math1(M::Floor, s);
                let sign = b.math1(M::Sign, a[0]);
                b.bin(B::Multiply, fl, sign)
            } else {
                b.math1(M::Floor, a[0])
            };
            Ok(b.as_int(f))
        })?;
        self.write_raw(inst, &dst, v, Elem::Int)
    }

    fn setp(&mut self, inst: &Instruction) -> Result<(), Error> {
        let Some(dst) = inst.dst else {
            return Err(self.err("instruction without a destination"));
        };
        let Some(cmp) = inst.comparison() else {
            return Err(self.err("setp with a reserved comparison"));
        };
        let lanes = self.lanes(inst);
        let v = self.cw(inst, lanes, 2, move |b, a| Ok(b.compare(cmp, a[0], a[1])))?;
        self.write_raw(inst, &dst, v, Elem::Bool)
    }

    pub(crate) fn compare(&mut self, cmp: Comparison, a: H, b: H) -> H {
        let op = match cmp {
            Comparison::Gt => B::Greater,
            Comparison::Eq => B::Equal,
            Comparison::Ge => B::GreaterEqual,
            Comparison::Lt => B::Less,
            Comparison::Ne => B::NotEqual,
            Comparison::Le => B::LessEqual,
        };
        self.bin(op, a, b)
    }
}
