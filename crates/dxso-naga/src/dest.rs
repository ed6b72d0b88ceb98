//! Writing destinations: result shift, saturation, write masks, predication, relative
//! addressing.

use crate::body::{Body, Elem, Lanes, Reg, Value};
use crate::semantics;
use crate::Error;
use dxso::{DstParam, Instruction, RegisterType, Relative};
use naga::{BinaryOperator, Expression, Handle, MathFunction};

type H = Handle<Expression>;

impl Body<'_> {
    /// The components an instruction needs to compute: one when it writes one component
    /// unpredicated.
    pub(crate) fn lanes(&self, inst: &Instruction) -> Lanes {
        match inst.dst {
            Some(d) if inst.predicate.is_none() && d.mask.count() == 1 => {
                Lanes::One(d.mask.0.trailing_zeros() as u8)
            }
            _ => Lanes::All,
        }
    }

    /// Applies the result shift, the ps_1_x range clamp (arithmetic only) and saturation,
    /// both of which turn NaN into 0 (SEMANTICS 4).
    fn finish_value(&mut self, dst: &DstParam, v: H, lanes: Lanes) -> H {
        let mut v = v;
        if dst.shift.0 != 0 {
            let s = self.fconst((dst.shift.0 as f32).exp2(), lanes);
            v = self.bin(BinaryOperator::Multiply, v, s);
        }
        let range = semantics::ps1_range(self.plan.version, self.plan.options.ps1_range)
            .filter(|_| !dxso::slots::is_texture_address(self.opcode));
        if let Some(m) = range {
            let lo = self.fconst(-m, lanes);
            let hi = self.fconst(m, lanes);
            let c = self.math3(MathFunction::Clamp, v, lo, hi);
            v = self.nan_to_zero(v, c, lanes);
        }
        if dst.modifiers.saturate() {
            let c = self.math1(MathFunction::Saturate, v);
            v = self.nan_to_zero(v, c, lanes);
        }
        v
    }

    /// `clamped`, or 0 where `x` is NaN (GPU clamps leave NaN undefined).
    fn nan_to_zero(&mut self, x: H, clamped: H, lanes: Lanes) -> H {
        let ordered = self.bin(BinaryOperator::Equal, x, x);
        let zero = self.fconst(0.0, lanes);
        self.select(ordered, clamped, zero)
    }

    /// Writes only the components of the destination mask that are also in `allowed`.
    pub(crate) fn write_masked(
        &mut self,
        inst: &Instruction,
        value: Value,
        allowed: u8,
    ) -> Result<(), Error> {
        let mut i = *inst;
        if let Some(d) = i.dst.as_mut() {
            d.mask.0 &= allowed;
            if d.mask.0 == 0 {
                return Ok(());
            }
        }
        self.write(&i, value)
    }

    /// Writes a float value to the destination of `inst`.
    pub(crate) fn write(&mut self, inst: &Instruction, value: Value) -> Result<(), Error> {
        if self.capture {
            self.captured = Some(value);
            return Ok(());
        }
        let Some(dst) = inst.dst else {
            return Err(self.err("instruction without a destination"));
        };
        let value = match value {
            Value::Scalar(h) => Value::Scalar(self.finish_value(&dst, h, Lanes::One(0))),
            Value::Vec4(h) => Value::Vec4(self.finish_value(&dst, h, Lanes::All)),
        };
        self.write_raw(inst, &dst, value, Elem::Float)
    }

    /// Writes a value of the register's element type (modifiers already applied).
    pub(crate) fn write_raw(
        &mut self,
        inst: &Instruction,
        dst: &DstParam,
        value: Value,
        elem: Elem,
    ) -> Result<(), Error> {
        let (ty, n) = dxso::analysis::register_key(dst.register);
        if ty == RegisterType::DepthOut {
            let v = match value {
                Value::Scalar(h) => h,
                Value::Vec4(h) => self.index(h, 0),
            };
            let p = self.reg_ptr(Reg::File(RegisterType::DepthOut, 0));
            self.store(p, v);
            return Ok(());
        }
        if !matches!(
            ty,
            RegisterType::Temp
                | RegisterType::Addr
                | RegisterType::RastOut
                | RegisterType::AttrOut
                | RegisterType::Output
                | RegisterType::ColorOut
                | RegisterType::Predicate
        ) || (ty == RegisterType::Addr
            && self.plan.version.is_pixel()
            && self.plan.version.major >= 2)
        {
            return Err(self.err("destination register cannot be written"));
        }
        let reg = Reg::File(ty, n);
        if self.elem(reg) != elem {
            return Err(self.err("destination register of the wrong type for the instruction"));
        }
        if let Some(rel) = dst.relative {
            return self.write_relative(dst, rel, value);
        }
        let mut mask = dst.mask.0 & 0xF;
        if ty == RegisterType::RastOut && n >= 1 {
            // oFog and oPts are scalars: only .x is kept (SEMANTICS 2).
            mask &= 1;
            if mask == 0 {
                return Ok(());
            }
        }
        if inst.predicate.is_none() && mask.count_ones() == 1 {
            let c = mask.trailing_zeros() as u8;
            let v = match value {
                Value::Scalar(h) => h,
                Value::Vec4(h) => self.index(h, c as u32),
            };
            self.set_comp(reg, c, v);
            return Ok(());
        }
        if ty == RegisterType::Temp && inst.predicate.is_none() {
            // Components the mask leaves alone but nothing reads again need not keep their
            // old value: write the whole register (no merge, no load of the old value).
            if !mask & 0xF & self.plan.live.after(self.item, n) == 0 {
                mask = 0xF;
            }
        }
        let mut new = match value {
            Value::Scalar(h) => self.splat(h),
            Value::Vec4(h) => h,
        };
        if let Some(p) = &inst.predicate {
            let old = self.whole(reg)?;
            let cond = self.predicate4(p)?;
            new = self.select(cond, new, old);
        }
        self.set_vec(reg, new, mask)
    }

    fn write_relative(&mut self, dst: &DstParam, rel: Relative, value: Value) -> Result<(), Error> {
        let (ty, base) = dxso::analysis::register_key(dst.register);
        let Some(&(var, len)) = self.regs.arrays.get(&ty) else {
            return Err(self.err("relative destination in a file that cannot be indexed"));
        };
        self.flush_file(ty)?;
        let (idx, in_range) = self.clamped(base, rel, len)?;
        let arr = self.ptr(var);
        let p = self.e(Expression::Access {
            base: arr,
            index: idx,
        });
        let mut new = match value {
            Value::Scalar(h) => self.splat(h),
            Value::Vec4(h) => h,
        };
        let old = self.load(p);
        let mask = dst.mask.0 & 0xF;
        if mask != 0xF {
            let c = self.m.mask(mask);
            let m = self.constant(c);
            new = self.select(m, new, old);
        }
        // Out of range writes nothing: the clamped element gets its own value back.
        let new = self.select(in_range, new, old);
        self.store(p, new);
        // Any element may have changed.
        self.forget_file(ty);
        Ok(())
    }
}
