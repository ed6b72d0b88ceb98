//! Calls: user functions (inlined) and the intrinsic functions of shader models 1-3.

use super::*;

impl<'a> Lower<'a> {
    pub(super) fn call(&mut self, name: &str, args: &[Expr], loc: &Loc) -> R<Value> {
        if let Some(fs) = self.functions.get(name) {
            let f = fs
                .iter()
                .find(|f| f.params.len() == args.len())
                .copied()
                .ok_or_else(|| {
                    self.err(
                        Code::NoMatchingOverload,
                        loc,
                        format!("'{name}': no matching {} parameter function", args.len()),
                    )
                })?;
            return self.inline(f, args, loc);
        }
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.expr(a)?);
        }
        self.intrinsic(name, &vals, args, loc)
    }

    fn inline(&mut self, f: &'a Function, args: &[Expr], loc: &Loc) -> R<Value> {
        if self.call_stack.contains(&f.name) {
            return Err(self.err(
                Code::Recursion,
                loc,
                format!("'{}': recursive functions are not allowed", f.name),
            ));
        }
        if self.call_stack.len() >= MAX_CALL_DEPTH {
            return Err(self.err(Code::Limit, loc, "calls nested deeper than 64"));
        }
        let mut scope = HashMap::new();
        for (p, a) in f.params.iter().zip(args) {
            let v = if p.quals.input {
                let v = self.expr(a)?;
                self.convert(v, &p.ty, &a.loc)?
            } else {
                self.zero_value(&p.ty)?
            };
            scope.insert(p.name.clone(), v);
        }
        // The caller's returned lanes stay masked in the callee.
        let caller_returned = self.frames.last().map(|fr| fr.returned);
        let pushed = match caller_returned {
            Some(r) if !self.is_static_zero(r) => {
                let nr = self.not(r);
                self.cond.push(nr);
                true
            }
            _ => false,
        };
        let zero = self.m.scalar(0.0);
        self.frames.push(Frame {
            scopes: vec![scope],
            ret: None,
            returned: zero,
        });
        let saved_loops = std::mem::take(&mut self.loops);
        // Enclosing loops' exits still mask the callee: fold them into one condition.
        let mut outer = self.m.scalar(1.0);
        for l in &saved_loops {
            let nb = self.not(l.broken);
            let nc = self.not(l.continued);
            outer = self.and(outer, nb);
            outer = self.and(outer, nc);
        }
        self.cond.push(outer);
        self.call_stack.push(f.name.clone());
        let r = self.block(f.body.as_deref().unwrap_or(&[]));
        self.call_stack.pop();
        self.cond.pop();
        self.loops = saved_loops;
        let frame = self.frames.pop().expect("pushed");
        if pushed {
            self.cond.pop();
        }
        r?;
        for (p, a) in f.params.iter().zip(args) {
            if p.quals.output {
                let v = frame.scopes[0].get(&p.name).cloned().unwrap_or(Value::Void);
                self.assign(a, v)?;
            }
        }
        if f.ret.kind == TypeKind::Void {
            return Ok(Value::Void);
        }
        frame.ret.ok_or_else(|| {
            self.err(
                Code::CannotConvert,
                &f.loc,
                format!("'{}': function must return a value", f.name),
            )
        })
    }

    fn vec_arg(&self, v: &Value, loc: &Loc, name: &str) -> R<(Operand, u8, Scalar)> {
        match v {
            Value::Vector { o, n, ty, .. } => Ok((*o, *n, *ty)),
            _ => Err(self.err(
                Code::NoMatchingOverload,
                loc,
                format!("'{name}': no matching overload for these argument types"),
            )),
        }
    }

    fn per_lane(&mut self, o: Operand, n: u8, f: impl Fn(Operand) -> Op) -> Operand {
        let lanes: Vec<Operand> = (0..n).map(|i| self.m.op(f(o.lane(i)), 1).lane(0)).collect();
        self.m.compose(&lanes)
    }

    fn abs(&mut self, o: Operand, n: u8) -> Operand {
        if self.profile.major() >= 3 {
            Operand {
                abs: true,
                neg: false,
                ..o
            }
        } else {
            self.m.op(Op::Abs(o), n)
        }
    }

    fn intrinsic(&mut self, name: &str, v: &[Value], args: &[Expr], loc: &Loc) -> R<Value> {
        let arity = |k: usize| -> R<()> {
            if v.len() == k {
                Ok(())
            } else {
                Err(Diagnostic::error(
                    Code::NoMatchingOverload,
                    loc.clone(),
                    format!(
                        "'{name}': no matching {} parameter intrinsic function",
                        v.len()
                    ),
                ))
            }
        };
        if ELEMENTWISE.contains(&name) && v.iter().any(|x| matches!(x, Value::Matrix { .. })) {
            // Component-wise intrinsics apply to matrices row by row, over the rows and
            // columns every matrix argument has.
            let (mut r, mut c) = (u8::MAX, u8::MAX);
            for x in v {
                if let Value::Matrix { rows, cols, .. } = x {
                    r = r.min(rows.len() as u8);
                    c = c.min(cols.len() as u8);
                }
            }
            let mut out = Vec::with_capacity(usize::from(r));
            let mut ty = Scalar::Float;
            for i in 0..usize::from(r) {
                let row: Vec<Value> = v
                    .iter()
                    .map(|x| match x {
                        Value::Matrix { rows, ty, .. } => Value::vector(rows[i], c, *ty),
                        other => other.clone(),
                    })
                    .collect();
                let rv = self.intrinsic(name, &row, args, loc)?;
                let (o, _, t) = self.vec_arg(&rv, loc, name)?;
                ty = t;
                out.push(o);
            }
            return Ok(self.matrix_rows(out, c, ty));
        }
        let same = |me: &mut Self, a: &Value, b: &Value| me.unify(a.clone(), b.clone(), loc);
        let unary_float =
            |me: &mut Self, f: &dyn Fn(&mut Self, Operand, u8) -> Operand| -> R<Value> {
                arity(1)?;
                let (o, n, _) = me.vec_arg(&v[0], loc, name)?;
                let r = f(me, o, n);
                Ok(like(&v[0], r, Scalar::Float))
            };
        match name {
            "mul" => {
                arity(2)?;
                self.mul(&v[0], &v[1], loc)
            }
            "dot" => {
                arity(2)?;
                let (a, b) = same(self, &v[0], &v[1])?;
                let (oa, n, _) = self.vec_arg(&a, loc, name)?;
                let (ob, _, _) = self.vec_arg(&b, loc, name)?;
                Ok(Value::scalar(self.dot(oa, ob, n), Scalar::Float))
            }
            "normalize" => unary_float(self, &|me, o, n| me.normalize(o, n)),
            "length" => {
                arity(1)?;
                let (o, n, _) = self.vec_arg(&v[0], loc, name)?;
                Ok(Value::scalar(self.length(o, n), Scalar::Float))
            }
            "distance" => {
                arity(2)?;
                let (a, b) = same(self, &v[0], &v[1])?;
                let (oa, n, _) = self.vec_arg(&a, loc, name)?;
                let (ob, _, _) = self.vec_arg(&b, loc, name)?;
                let d = self.m.op(Op::Add(oa, ob.negate()), n);
                Ok(Value::scalar(self.length(d, n), Scalar::Float))
            }
            "saturate" => unary_float(self, &|me, o, n| me.m.op(Op::Sat(o), n)),
            "frac" => unary_float(self, &|me, o, n| me.m.op(Op::Frc(o), n)),
            "floor" => unary_float(self, &|me, o, n| me.floor(o, n)),
            "ceil" => unary_float(self, &|me, o, n| me.floor(o.negate(), n).negate()),
            "trunc" => unary_float(self, &|me, o, n| me.trunc(o, n)),
            "round" => unary_float(self, &|me, o, n| {
                let h = me.m.scalar(0.5);
                let x = me.m.op(Op::Add(o, h), n);
                me.floor(x, n)
            }),
            "isinf" => {
                // Only an infinity's magnitude passes the largest finite float (NaN compares
                // false).
                arity(1)?;
                let (o, n, _) = self.vec_arg(&v[0], loc, name)?;
                let a = self.abs(o, n);
                let big = self.m.scalar(f32::MAX);
                let r = self.compare(BinOp::Gt, a, big, n);
                Ok(like(&v[0], r, Scalar::Bool))
            }
            "abs" => {
                arity(1)?;
                let (o, n, ty) = self.vec_arg(&v[0], loc, name)?;
                let r = self.abs(o, n);
                Ok(like(&v[0], r, ty))
            }
            "rsqrt" => unary_float(self, &|me, o, n| me.per_lane(o, n, Op::Rsq)),
            "rcp" => unary_float(self, &|me, o, n| me.per_lane(o, n, Op::Rcp)),
            "sqrt" => unary_float(self, &|me, o, n| {
                let r = me.per_lane(o, n, Op::Rsq);
                me.per_lane(r, n, Op::Rcp)
            }),
            "exp2" => unary_float(self, &|me, o, n| me.per_lane(o, n, Op::Exp)),
            "exp" => unary_float(self, &|me, o, n| {
                let k = me.m.scalar(std::f32::consts::LOG2_E);
                let x = me.m.op(Op::Mul(o, k), n);
                me.per_lane(x, n, Op::Exp)
            }),
            "log2" => unary_float(self, &|me, o, n| me.per_lane(o, n, Op::Log)),
            "log" | "log10" => {
                let k = if name == "log" {
                    std::f32::consts::LN_2
                } else {
                    std::f32::consts::LOG10_2
                };
                unary_float(self, &|me, o, n| {
                    let l = me.per_lane(o, n, Op::Log);
                    let k = me.m.scalar(k);
                    me.m.op(Op::Mul(l, k), n)
                })
            }
            "sin" | "cos" => {
                let lane = if name == "sin" { 1 } else { 0 };
                unary_float(self, &|me, o, n| {
                    let lanes: Vec<Operand> = (0..n)
                        .map(|i| me.m.op(Op::SinCos(o.lane(i)), 2).lane(lane))
                        .collect();
                    me.m.compose(&lanes)
                })
            }
            "radians" | "degrees" => {
                let k = if name == "radians" {
                    std::f32::consts::PI / 180.0
                } else {
                    180.0 / std::f32::consts::PI
                };
                unary_float(self, &|me, o, n| {
                    let k = me.m.scalar(k);
                    me.m.op(Op::Mul(o, k), n)
                })
            }
            "ddx" | "ddy" => {
                if !self.pixel() || self.profile == Profile::Ps20 {
                    return Err(self.err(
                        Code::Unsupported,
                        loc,
                        format!("'{name}' needs ps_2_x or ps_3_0"),
                    ));
                }
                let dx = name == "ddx";
                unary_float(self, &|me, o, n| {
                    me.m.op(if dx { Op::Dsx(o) } else { Op::Dsy(o) }, n)
                })
            }
            "max" | "min" | "pow" | "step" | "fmod" | "atan2" => {
                arity(2)?;
                let (a, b) = same(self, &v[0], &v[1])?;
                let (oa, n, ty) = self.vec_arg(&a, loc, name)?;
                let (ob, _, _) = self.vec_arg(&b, loc, name)?;
                let r = match name {
                    "max" => self.m.op(Op::Max(oa, ob), n),
                    "min" => self.m.op(Op::Min(oa, ob), n),
                    "pow" => {
                        let lanes: Vec<Operand> = (0..n)
                            .map(|i| self.m.op(Op::Pow(oa.lane(i), ob.lane(i)), 1).lane(0))
                            .collect();
                        self.m.compose(&lanes)
                    }
                    // step(a, x) = x >= a.
                    "step" => self.compare(BinOp::Ge, ob, oa, n),
                    "fmod" => self.binary_lanes(BinOp::Rem, oa, ob, n, Scalar::Float, loc)?,
                    "atan2" => self.atan2(oa, ob, n),
                    _ => {
                        return Err(self.err(
                            Code::Unsupported,
                            loc,
                            format!("intrinsic '{name}' is not supported yet"),
                        ))
                    }
                };
                Ok(like(&a, r, if name == "step" { Scalar::Float } else { ty }))
            }
            "clamp" | "lerp" | "smoothstep" | "mad" => {
                arity(3)?;
                let (a, b) = same(self, &v[0], &v[1])?;
                let (a, c) = same(self, &a, &v[2])?;
                let (b, _) = same(self, &b, &c)?;
                let (oa, n, ty) = self.vec_arg(&a, loc, name)?;
                let (ob, _, _) = self.vec_arg(&b, loc, name)?;
                let (oc, _, _) = self.vec_arg(&c, loc, name)?;
                let r = match name {
                    "clamp" => {
                        if self.m.is_literal(ob, n, 0.0) && self.m.is_literal(oc, n, 1.0) {
                            self.m.op(Op::Sat(oa), n)
                        } else {
                            let x = self.m.op(Op::Max(oa, ob), n);
                            self.m.op(Op::Min(x, oc), n)
                        }
                    }
                    "lerp" => self.lerp(oa, ob, oc, n),
                    "mad" => self.m.op(Op::Mad(oa, ob, oc), n),
                    _ => {
                        // t = saturate((x - a) / (b - a)); t * t * (3 - 2t)
                        let d = self.m.op(Op::Add(ob, oa.negate()), n);
                        let x = self.m.op(Op::Add(oc, oa.negate()), n);
                        let q = self.div(x, d, n);
                        let t = self.m.op(Op::Sat(q), n);
                        let m2 = self.m.scalar(-2.0);
                        let three = self.m.scalar(3.0);
                        let k = self.m.op(Op::Mad(t, m2, three), n);
                        let tt = self.m.op(Op::Mul(t, t), n);
                        self.m.op(Op::Mul(tt, k), n)
                    }
                };
                Ok(like(&a, r, ty))
            }
            "cross" => {
                arity(2)?;
                let (oa, _, _) = self.vec_arg(&v[0], loc, name)?;
                let (ob, _, _) = self.vec_arg(&v[1], loc, name)?;
                let yzx = [1, 2, 0, 0];
                let zxy = [2, 0, 1, 0];
                let p = self.m.op(Op::Mul(oa.swizzle(zxy), ob.swizzle(yzx)), 3);
                let r = self
                    .m
                    .op(Op::Mad(oa.swizzle(yzx), ob.swizzle(zxy), p.negate()), 3);
                Ok(Value::vector(r, 3, Scalar::Float))
            }
            "reflect" => {
                arity(2)?;
                let (a, b) = same(self, &v[0], &v[1])?;
                let (oi, n, _) = self.vec_arg(&a, loc, name)?;
                let (on, _, _) = self.vec_arg(&b, loc, name)?;
                let d = self.dot(on, oi, n);
                let m2 = self.m.scalar(-2.0);
                let k = self.m.op(Op::Mul(d, m2), 1);
                let r = self.m.op(Op::Mad(k.lane(0), on, oi), n);
                Ok(like(&a, r, Scalar::Float))
            }
            "sign" => unary_float(self, &|me, o, n| {
                let z = me.m.scalar(0.0);
                let p = me.compare(BinOp::Gt, o, z, n);
                let q = me.compare(BinOp::Lt, o, z, n);
                me.m.op(Op::Add(p, q.negate()), n)
            }),
            "any" | "all" => {
                arity(1)?;
                let (o, n, ty) = self.vec_arg(&v[0], loc, name)?;
                let b = self.cast_scalar(o, ty, Scalar::Bool, n);
                let mut acc = b.lane(0);
                for i in 1..n {
                    acc = if name == "any" {
                        self.m.op(Op::Max(acc, b.lane(i)), 1)
                    } else {
                        self.m.op(Op::Mul(acc, b.lane(i)), 1)
                    };
                }
                Ok(Value::scalar(acc, Scalar::Bool))
            }
            "transpose" => {
                arity(1)?;
                match &v[0] {
                    Value::Matrix {
                        rows,
                        cols,
                        ty,
                        column_registers,
                    } => Ok(Value::Matrix {
                        rows: cols.clone(),
                        cols: rows.clone(),
                        ty: *ty,
                        column_registers: !column_registers,
                    }),
                    other => Ok(other.clone()),
                }
            }
            "clip" => {
                arity(1)?;
                if !self.pixel() {
                    return Err(self.err(Code::Unsupported, loc, "clip is for pixel shaders"));
                }
                let (o, n, _) = self.vec_arg(&v[0], loc, name)?;
                let m = self.mask();
                let z = self.m.scalar(0.0);
                let x = if self.m.is_literal(m, 1, 1.0) {
                    o
                } else {
                    self.m.op(Op::Cmp(m.negate(), z, o), n)
                };
                // texkill tests x, y and z.
                let k = Operand {
                    swz: [
                        x.swz[0],
                        x.swz[1.min(n as usize - 1)],
                        x.swz[2.min(n as usize - 1)],
                        x.swz[0],
                    ],
                    ..x
                };
                self.m.kills.push(k);
                if n == 4 {
                    self.m.kills.push(x.lane(3));
                }
                Ok(Value::Void)
            }
            "tan" => unary_float(self, &|me, o, n| {
                let lanes: Vec<Operand> = (0..n)
                    .map(|i| {
                        let sc = me.m.op(Op::SinCos(o.lane(i)), 2);
                        let r = me.m.op(Op::Rcp(sc.lane(0)), 1);
                        me.m.op(Op::Mul(sc.lane(1), r.lane(0)), 1).lane(0)
                    })
                    .collect();
                me.m.compose(&lanes)
            }),
            "sinh" | "cosh" | "tanh" => unary_float(self, &|me, o, n| {
                let k = me.m.scalar(std::f32::consts::LOG2_E);
                let x = me.m.op(Op::Mul(o, k), n);
                let ep = me.per_lane(x, n, Op::Exp);
                let en = me.per_lane(x.negate(), n, Op::Exp);
                let diff = me.m.op(Op::Add(ep, en.negate()), n);
                let sum = me.m.op(Op::Add(ep, en), n);
                let half = me.m.scalar(0.5);
                match name {
                    "sinh" => me.m.op(Op::Mul(diff, half), n),
                    "cosh" => me.m.op(Op::Mul(sum, half), n),
                    _ => me.div(diff, sum, n),
                }
            }),
            "asin" | "acos" => unary_float(self, &|me, o, n| {
                // fxc's polynomial (Abramowitz and Stegun 4.4.45):
                // acos(|x|) = sqrt(1 - |x|) * p(|x|), mirrored for x < 0.
                let t = me.abs(o, n);
                let c0 = me.m.scalar(-0.018_729_3);
                let c1 = me.m.scalar(0.074_261);
                let c2 = me.m.scalar(-0.212_114_4);
                let c3 = me.m.scalar(1.570_728_8);
                let p = me.m.op(Op::Mad(c0, t, c1), n);
                let p = me.m.op(Op::Mad(p, t, c2), n);
                let p = me.m.op(Op::Mad(p, t, c3), n);
                let one = me.m.scalar(1.0);
                let q = me.m.op(Op::Add(one, t.negate()), n);
                let rs = me.per_lane(q, n, Op::Rsq);
                let sq = me.per_lane(rs, n, Op::Rcp);
                let r = me.m.op(Op::Mul(sq, p), n);
                let pi = me.m.scalar(std::f32::consts::PI);
                let mirrored = me.m.op(Op::Add(pi, r.negate()), n);
                let acos = me.m.op(Op::Cmp(o, r, mirrored), n);
                if name == "acos" {
                    acos
                } else {
                    let h = me.m.scalar(std::f32::consts::FRAC_PI_2);
                    me.m.op(Op::Add(h, acos.negate()), n)
                }
            }),
            "atan" => unary_float(self, &|me, o, n| {
                let one = me.m.scalar(1.0);
                me.atan2(o, one, n)
            }),
            "fwidth" => {
                if !self.pixel() || self.profile == Profile::Ps20 {
                    return Err(self.err(
                        Code::Unsupported,
                        loc,
                        format!("'{name}' needs ps_2_x or ps_3_0"),
                    ));
                }
                unary_float(self, &|me, o, n| {
                    let x = me.m.op(Op::Dsx(o), n);
                    let y = me.m.op(Op::Dsy(o), n);
                    let ax = me.abs(x, n);
                    let ay = me.abs(y, n);
                    me.m.op(Op::Add(ax, ay), n)
                })
            }
            "ldexp" => {
                arity(2)?;
                let (a, b) = same(self, &v[0], &v[1])?;
                let (oa, n, _) = self.vec_arg(&a, loc, name)?;
                let (ob, _, _) = self.vec_arg(&b, loc, name)?;
                let e = self.per_lane(ob, n, Op::Exp);
                let r = self.m.op(Op::Mul(oa, e), n);
                Ok(like(&a, r, Scalar::Float))
            }
            "faceforward" => {
                arity(3)?;
                let (a, b) = same(self, &v[0], &v[1])?;
                let (a, c) = same(self, &a, &v[2])?;
                let (on, n, _) = self.vec_arg(&a, loc, name)?;
                let (oi, _, _) = self.vec_arg(&b, loc, name)?;
                let (og, _, _) = self.vec_arg(&c, loc, name)?;
                // dot(ng, i) < 0 ? n : -n
                let d = self.dot(og, oi, n);
                let r = self.m.op(Op::Cmp(d, on.negate(), on), n);
                Ok(like(&a, r, Scalar::Float))
            }
            "refract" => {
                arity(3)?;
                let (a, b) = same(self, &v[0], &v[1])?;
                let (oi, n, _) = self.vec_arg(&a, loc, name)?;
                let (on, _, _) = self.vec_arg(&b, loc, name)?;
                let (oe, _, _) = self.vec_arg(&v[2], loc, name)?;
                let eta = oe.lane(0);
                // k = 1 - eta^2 (1 - d^2); k < 0 ? 0 : eta i - (eta d + sqrt(k)) n
                let d = self.dot(on, oi, n);
                let one = self.m.scalar(1.0);
                let dd = self.m.op(Op::Mad(d.negate(), d, one), 1).lane(0);
                let ee = self.m.op(Op::Mul(eta, eta), 1).lane(0);
                let k = self.m.op(Op::Mad(ee.negate(), dd, one), 1).lane(0);
                let rs = self.m.op(Op::Rsq(k), 1).lane(0);
                let sq = self.m.op(Op::Rcp(rs), 1).lane(0);
                let t = self.m.op(Op::Mad(eta, d, sq), 1).lane(0);
                let tn = self.m.op(Op::Mul(t, on), n);
                let r = self.m.op(Op::Mad(eta, oi, tn.negate()), n);
                let z = self.m.scalar(0.0);
                let r = self.m.op(Op::Cmp(k, r, z), n);
                Ok(like(&a, r, Scalar::Float))
            }
            "lit" => {
                arity(3)?;
                let (l, _, _) = self.vec_arg(&v[0], loc, name)?;
                let (h, _, _) = self.vec_arg(&v[1], loc, name)?;
                let (m, _, _) = self.vec_arg(&v[2], loc, name)?;
                let (l, h, m) = (l.lane(0), h.lane(0), m.lane(0));
                let one = self.m.scalar(1.0);
                let z = self.m.scalar(0.0);
                let diffuse = self.m.op(Op::Max(l, z), 1).lane(0);
                let p = self.m.op(Op::Pow(h, m), 1).lane(0);
                let p = self.m.op(Op::Cmp(h, p, z), 1).lane(0);
                let spec = self.m.op(Op::Cmp(l, p, z), 1).lane(0);
                let r = self.m.compose(&[one, diffuse, spec, one]);
                Ok(Value::vector(r, 4, Scalar::Float))
            }
            "dst" => {
                arity(2)?;
                let (a, _, _) = self.vec_arg(&v[0], loc, name)?;
                let (b, _, _) = self.vec_arg(&v[1], loc, name)?;
                let one = self.m.scalar(1.0);
                let y = self.m.op(Op::Mul(a.lane(1), b.lane(1)), 1).lane(0);
                let r = self.m.compose(&[one, y, a.lane(2), b.lane(3)]);
                Ok(Value::vector(r, 4, Scalar::Float))
            }
            "determinant" => {
                arity(1)?;
                let m: Vec<Vec<Operand>> = match &v[0] {
                    Value::Matrix { rows, cols, .. } if rows.len() == cols.len() => rows
                        .iter()
                        .map(|r| (0..cols.len() as u8).map(|j| r.lane(j)).collect())
                        .collect(),
                    Value::Vector { o, n: 1, .. } => vec![vec![o.lane(0)]],
                    _ => {
                        return Err(self.err(
                            Code::NoMatchingOverload,
                            loc,
                            "'determinant': the argument must be a square matrix",
                        ))
                    }
                };
                let d = self.determinant(&m);
                Ok(Value::scalar(d, Scalar::Float))
            }
            "sincos" => {
                arity(3)?;
                let (o, n, _) = self.vec_arg(&v[0], loc, name)?;
                let mut sin = Vec::new();
                let mut cos = Vec::new();
                for i in 0..n {
                    let sc = self.m.op(Op::SinCos(o.lane(i)), 2);
                    cos.push(sc.lane(0));
                    sin.push(sc.lane(1));
                }
                let s = self.m.compose(&sin);
                let c = self.m.compose(&cos);
                self.assign(&args[1], like(&v[0], s, Scalar::Float))?;
                self.assign(&args[2], like(&v[0], c, Scalar::Float))?;
                Ok(Value::Void)
            }
            "modf" => {
                arity(2)?;
                let (o, n, ty) = self.vec_arg(&v[0], loc, name)?;
                let ip = self.trunc(o, n);
                let fp = self.m.op(Op::Add(o, ip.negate()), n);
                self.assign(&args[1], like(&v[0], ip, ty))?;
                Ok(like(&v[0], fp, ty))
            }
            _ if name.starts_with("tex") => self.sample(name, v, args, loc),
            _ => Err(self.err(
                Code::Undeclared,
                loc,
                format!("undeclared identifier '{name}'"),
            )),
        }
    }

    /// `atan2(y, x)`: a polynomial in `min / max` of the magnitudes (error about 1e-5),
    /// reflected into the octant and quadrant of the arguments.
    fn atan2(&mut self, y: Operand, x: Operand, n: u8) -> Operand {
        let ax = self.abs(x, n);
        let ay = self.abs(y, n);
        let lo = self.m.op(Op::Min(ax, ay), n);
        let hi = self.m.op(Op::Max(ax, ay), n);
        let a = self.div(lo, hi, n);
        let s = self.m.op(Op::Mul(a, a), n);
        let c0 = self.m.scalar(-0.046_496_475);
        let c1 = self.m.scalar(0.159_314_22);
        let c2 = self.m.scalar(-0.327_622_76);
        let p = self.m.op(Op::Mad(c0, s, c1), n);
        let p = self.m.op(Op::Mad(p, s, c2), n);
        let p = self.m.op(Op::Mul(p, s), n);
        let r = self.m.op(Op::Mad(p, a, a), n);
        // |y| > |x|: pi/2 - r.
        let h = self.m.scalar(std::f32::consts::FRAC_PI_2);
        let steep = self.m.op(Op::Add(h, r.negate()), n);
        let d = self.m.op(Op::Add(ax, ay.negate()), n);
        let r = self.m.op(Op::Cmp(d, r, steep), n);
        // x < 0: pi - r.
        let pi = self.m.scalar(std::f32::consts::PI);
        let back = self.m.op(Op::Add(pi, r.negate()), n);
        let r = self.m.op(Op::Cmp(x, r, back), n);
        // y < 0: -r.
        self.m.op(Op::Cmp(y, r, r.negate()), n)
    }

    /// The determinant of a square matrix given as lanes, by cofactor expansion along the
    /// first row (at most 4x4: 24 products).
    fn determinant(&mut self, m: &[Vec<Operand>]) -> Operand {
        match m.len() {
            0 => self.m.scalar(1.0),
            1 => m[0][0],
            _ => {
                let mut acc: Option<Operand> = None;
                for j in 0..m.len() {
                    let minor: Vec<Vec<Operand>> = m[1..]
                        .iter()
                        .map(|row| {
                            row.iter()
                                .enumerate()
                                .filter(|(k, _)| *k != j)
                                .map(|(_, x)| *x)
                                .collect()
                        })
                        .collect();
                    let d = self.determinant(&minor);
                    let term = if j % 2 == 0 {
                        m[0][j]
                    } else {
                        m[0][j].negate()
                    };
                    acc = Some(match acc {
                        None => self.m.op(Op::Mul(term, d), 1).lane(0),
                        Some(a) => self.m.op(Op::Mad(term, d, a), 1).lane(0),
                    });
                }
                acc.unwrap_or_else(|| self.m.scalar(1.0))
            }
        }
    }

    fn lerp(&mut self, a: Operand, b: Operand, t: Operand, n: u8) -> Operand {
        // lrp t, b, a = a + t * (b - a).
        self.m.op(Op::Lrp(t, b, a), n)
    }

    pub(super) fn dot(&mut self, a: Operand, b: Operand, n: u8) -> Operand {
        match n {
            1 => self.m.op(Op::Mul(a, b), 1),
            _ => self.m.op(Op::Dot(n, a, b), 1).lane(0),
        }
    }

    fn length(&mut self, o: Operand, n: u8) -> Operand {
        let d = self.dot(o, o, n);
        let r = self.m.op(Op::Rsq(d), 1);
        self.m.op(Op::Rcp(r), 1).lane(0)
    }

    fn normalize(&mut self, o: Operand, n: u8) -> Operand {
        if n == 3 {
            return self.m.op(Op::Nrm(o), 3);
        }
        let d = self.dot(o, o, n);
        let r = self.m.op(Op::Rsq(d), 1);
        self.m.op(Op::Mul(o, r.lane(0)), n)
    }

    fn mul(&mut self, a: &Value, b: &Value, loc: &Loc) -> R<Value> {
        match (a, b) {
            (
                Value::Vector {
                    n: 1,
                    scalar_form: true,
                    ..
                },
                _,
            )
            | (
                _,
                Value::Vector {
                    n: 1,
                    scalar_form: true,
                    ..
                },
            ) => self.binary(BinOp::Mul, a.clone(), b.clone(), loc),
            (Value::Vector { o, n, .. }, Value::Vector { o: ob, .. }) => {
                Ok(Value::scalar(self.dot(*o, *ob, *n), Scalar::Float))
            }
            // mul(v, M): v has rows(M) lanes; result lane j = dot(v, column j).
            (
                Value::Vector { o, n, .. },
                Value::Matrix {
                    rows,
                    cols,
                    column_registers,
                    ..
                },
            ) => {
                let (rows, cols, colreg) = (rows.clone(), cols.clone(), *column_registers);
                let k = (*n as usize).min(rows.len());
                if (*n as usize) > rows.len() {
                    self.truncation(loc);
                }
                Ok(Value::vector(
                    self.vec_mat(*o, k, &rows, &cols, colreg),
                    cols.len() as u8,
                    Scalar::Float,
                ))
            }
            // mul(M, v): result lane i = dot(row i, v).
            (
                Value::Matrix {
                    rows,
                    cols,
                    column_registers,
                    ..
                },
                Value::Vector { o, n, .. },
            ) => {
                let (rows, cols, colreg) = (rows.clone(), cols.clone(), *column_registers);
                let k = (*n as usize).min(cols.len());
                if (*n as usize) > cols.len() {
                    self.truncation(loc);
                }
                Ok(Value::vector(
                    self.vec_mat(*o, k, &cols, &rows, !colreg),
                    rows.len() as u8,
                    Scalar::Float,
                ))
            }
            (
                Value::Matrix {
                    rows: ra, cols: ca, ..
                },
                Value::Matrix {
                    rows: rb,
                    cols: cb,
                    column_registers,
                    ..
                },
            ) => {
                // The inner dimension is the smaller of a's columns and b's rows (fxc
                // truncates the larger, with a warning).
                let k = ca.len().min(rb.len());
                if ca.len() != rb.len() {
                    self.truncation(loc);
                }
                let (ra, rb, cb, colreg) = (ra.clone(), rb.clone(), cb.clone(), *column_registers);
                let rows: Vec<Operand> = ra
                    .iter()
                    .map(|r| self.vec_mat(*r, k, &rb[..k], &cb, colreg))
                    .collect();
                Ok(self.matrix_rows(rows, cb.len() as u8, Scalar::Float))
            }
            _ => Err(self.err(
                Code::NoMatchingOverload,
                loc,
                "'mul': no matching 2 parameter intrinsic function",
            )),
        }
    }

    /// `v` (k lanes) times a matrix given as `rows` (k of them) and `cols`: dot products with
    /// the columns when those sit in registers, else a multiply-add chain over the rows.
    fn vec_mat(
        &mut self,
        v: Operand,
        k: usize,
        rows: &[Operand],
        cols: &[Operand],
        dots: bool,
    ) -> Operand {
        let c = cols.len() as u8;
        if dots {
            let lanes: Vec<Operand> = cols.iter().map(|col| self.dot(v, *col, k as u8)).collect();
            return self.m.compose(&lanes);
        }
        let mut acc = self.m.op(Op::Mul(v.lane(0), rows[0]), c);
        for (i, row) in rows.iter().enumerate().take(k).skip(1) {
            acc = self.m.op(Op::Mad(v.lane(i as u8), *row, acc), c);
        }
        acc
    }

    fn sample(&mut self, name: &str, v: &[Value], _args: &[Expr], loc: &Loc) -> R<Value> {
        let base = name.trim_start_matches("tex");
        let (dim, rest) = ["1D", "2D", "3D", "CUBE"]
            .iter()
            .find_map(|d| base.strip_prefix(d).map(|r| (*d, r)))
            .ok_or_else(|| {
                self.err(
                    Code::Undeclared,
                    loc,
                    format!("undeclared identifier '{name}'"),
                )
            })?;
        let kind = match rest {
            "" if v.len() == 4 => SampleKind::Grad,
            "" => SampleKind::Plain,
            "proj" => SampleKind::Project,
            "bias" => SampleKind::Bias,
            "lod" => SampleKind::Lod,
            "grad" => SampleKind::Grad,
            _ => {
                return Err(self.err(
                    Code::Undeclared,
                    loc,
                    format!("undeclared identifier '{name}'"),
                ))
            }
        };
        let want = if kind == SampleKind::Grad { 4 } else { 2 };
        if v.len() != want {
            return Err(self.err(
                Code::NoMatchingOverload,
                loc,
                format!(
                    "'{name}': no matching {} parameter intrinsic function",
                    v.len()
                ),
            ));
        }
        let Value::Sampler(reg, obj, owner) = &v[0] else {
            return Err(self.err(
                Code::NoMatchingOverload,
                loc,
                format!("'{name}': the first argument must be a sampler"),
            ));
        };
        let (reg, obj, owner) = (*reg, *obj, owner.clone());
        let reg = self.sampler_register(reg, &owner);
        self.sample_with(reg, obj, &owner, name, dim, kind, &v[1..], loc)
    }

    #[allow(clippy::too_many_arguments)]
    fn sample_with(
        &mut self,
        reg: u16,
        obj: ObjectKind,
        owner: &str,
        name: &str,
        dim: &str,
        kind: SampleKind,
        v: &[Value],
        loc: &Loc,
    ) -> R<Value> {
        if kind == SampleKind::Lod && self.profile.major() < 3 {
            return Err(self.err(
                Code::Unsupported,
                loc,
                format!("'{name}' needs shader model 3"),
            ));
        }
        if self.profile.is_vertex() && (self.profile.major() < 3 || kind != SampleKind::Lod) {
            return Err(self.err(
                Code::Unsupported,
                loc,
                "vertex shaders sample only with tex2Dlod-style calls in vs_3_0",
            ));
        }
        if kind == SampleKind::Grad && self.profile == Profile::Ps20 {
            return Err(self.err(
                Code::Unsupported,
                loc,
                format!("'{name}' needs ps_2_x or ps_3_0"),
            ));
        }
        let (c, n, _) = self.vec_arg(&v[0], loc, name)?;
        let need = match kind {
            SampleKind::Project | SampleKind::Bias | SampleKind::Lod => 4,
            _ => match dim {
                "1D" => 1,
                "2D" => 2,
                _ => 3,
            },
        };
        if n < need {
            return Err(self.err(
                Code::NoMatchingOverload,
                loc,
                format!("'{name}': the coordinate needs {need} components"),
            ));
        }
        let coord = if need == 1 { c.lane(0) } else { c };
        let grads = if kind == SampleKind::Grad {
            let (x, _, _) = self.vec_arg(&v[1], loc, name)?;
            let (y, _, _) = self.vec_arg(&v[2], loc, name)?;
            Some((x, y))
        } else {
            None
        };
        let tt = texture_type(obj, name);
        if !self.m.samplers.iter().any(|(r, _)| *r == reg) {
            self.m.samplers.push((reg, tt));
        }
        let m = self.m.push(Op::Sample(kind, reg, coord, grads), 4);
        self.sample_owner.insert(m, owner.to_string());
        Ok(Value::vector(Operand::of(m), 4, Scalar::Float))
    }

    pub(super) fn method(&mut self, obj: &Expr, name: &str, args: &[Expr], loc: &Loc) -> R<Value> {
        let o = self.expr(obj)?;
        let Value::Texture(tex, binding) = o else {
            return Err(self.err(
                Code::InvalidSubscript,
                loc,
                format!("invalid method '{name}'"),
            ));
        };
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.expr(a)?);
        }
        // A shader model 1-3 `sampler` serves as the state too (fxc combines it the same way).
        let sname = match vals.first() {
            Some(Value::SamplerState(n)) | Some(Value::Sampler(_, _, n)) => Some(n.clone()),
            _ => None,
        };
        let Some(sname) = sname else {
            return Err(self.err(
                Code::NoMatchingOverload,
                loc,
                format!("'{name}': the first argument must be a SamplerState"),
            ));
        };
        let kind = match name {
            "Sample" => SampleKind::Plain,
            "SampleBias" => SampleKind::Bias,
            "SampleLevel" => SampleKind::Lod,
            "SampleGrad" => SampleKind::Grad,
            _ => {
                return Err(self.err(
                    Code::Unsupported,
                    loc,
                    format!("method '{name}' is not supported"),
                ))
            }
        };
        // fxc combines the two objects into one sampler named `sampler+texture`.
        let combined = format!("{sname}+{tex}");
        let reg = match self.uniform_index.get(&combined) {
            Some(&i) => self.m.uniforms[i].register,
            None => {
                // The texture's `t#` binding names the sampler register.
                let reg = match binding {
                    Some(b) => b as u16,
                    None => self.alloc(RegisterSet::Sampler, 1),
                };
                let index = self.m.uniforms.len();
                self.m.uniforms.push(UniformDecl {
                    name: combined.clone(),
                    set: RegisterSet::Sampler,
                    register: reg,
                    count: 1,
                    ty: self.type_info(&Type::of(TypeKind::Object(ObjectKind::Sampler2D))),
                    default: None,
                    used: false,
                });
                self.uniform_index.insert(combined.clone(), index);
                self.registers.push((RegisterSet::Sampler, reg, 1, index));
                reg
            }
        };
        let coords: Vec<Value> = match kind {
            SampleKind::Bias | SampleKind::Lod => {
                // Pack (u, v, 0, bias).
                let (c, _, _) = self.vec_arg(&vals[1], loc, name)?;
                let (b, _, _) = self.vec_arg(&vals[2], loc, name)?;
                let z = self.m.scalar(0.0);
                let packed = self.m.compose(&[c.lane(0), c.lane(1), z, b.lane(0)]);
                vec![Value::vector(packed, 4, Scalar::Float)]
            }
            _ => vals[1..].to_vec(),
        };
        self.sample_with(
            reg,
            ObjectKind::Sampler2D,
            &combined,
            "tex2D",
            "2D",
            kind,
            &coords,
            loc,
        )
    }
}

/// A result shaped like `v` (scalar or vector) from `o`.
/// The intrinsics that act on each component alone (and so on matrices row by row).
const ELEMENTWISE: &[&str] = &[
    "isinf",
    "abs",
    "saturate",
    "frac",
    "floor",
    "ceil",
    "trunc",
    "round",
    "rsqrt",
    "rcp",
    "sqrt",
    "exp2",
    "exp",
    "log2",
    "log",
    "log10",
    "sin",
    "cos",
    "tan",
    "sinh",
    "cosh",
    "tanh",
    "asin",
    "acos",
    "atan",
    "radians",
    "degrees",
    "sign",
    "max",
    "min",
    "pow",
    "step",
    "fmod",
    "atan2",
    "clamp",
    "lerp",
    "smoothstep",
    "mad",
    "ldexp",
    "ddx",
    "ddy",
    "fwidth",
];

fn like(v: &Value, o: Operand, ty: Scalar) -> Value {
    match v {
        Value::Vector { n, scalar_form, .. } => Value::Vector {
            o,
            n: *n,
            ty,
            scalar_form: *scalar_form,
        },
        _ => Value::scalar(o, ty),
    }
}

fn texture_type(k: ObjectKind, call: &str) -> TextureType {
    match k {
        ObjectKind::Sampler3D => TextureType::Volume,
        ObjectKind::SamplerCube => TextureType::Cube,
        ObjectKind::Sampler if call.contains("CUBE") => TextureType::Cube,
        ObjectKind::Sampler if call.contains("3D") => TextureType::Volume,
        _ => TextureType::Texture2D,
    }
}
