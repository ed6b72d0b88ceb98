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

    /// Applies the result shift, saturation and the ps_1_x range.
    fn finish_value(&mut self, dst: &DstParam, v: H, lanes: Lanes) -> H {
        let mut v = v;
        if dst.shift.0 != 0 {
            let s = self.fconst((dst.shift.0 as f32).exp2(), lanes);
            v = self.bin(BinaryOperator::Multiply, v, s);
        }
        if dst.modifiers.saturate() {
            v = self.math1(MathFunction::Saturate, v);
        } else if let Some(range) = semantics::ps1_range(self.plan.version) {
            if matches!(dst.register.ty, RegisterType::Temp | RegisterType::Addr) {
                let lo = self.fconst(-range, lanes);
                let hi = self.fconst(range, lanes);
                v = self.math3(MathFunction::Clamp, v, lo, hi);
            }
        }
        v
    }

    /// Writes a float value to the destination of `inst`.
    pub(crate) fn write(&mut self, inst: &Instruction, value: Value) -> Result<(), Error> {
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
        let (ty, n) = crate::scan::key(dst.register);
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
        let mask = dst.mask.0 & 0xF;
        if inst.predicate.is_none() && mask.count_ones() == 1 {
            let c = mask.trailing_zeros() as u8;
            let v = match value {
                Value::Scalar(h) => h,
                Value::Vec4(h) => self.index(h, c as u32),
            };
            self.set_comp(reg, c, v);
            return Ok(());
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
        let (ty, base) = crate::scan::key(dst.register);
        let Some(&(var, len)) = self.regs.arrays.get(&ty) else {
            return Err(self.err("relative destination in a file that cannot be indexed"));
        };
        self.flush_file(ty)?;
        let idx = self.clamped(base, rel, len)?;
        let arr = self.ptr(var);
        let p = self.e(Expression::Access {
            base: arr,
            index: idx,
        });
        let mut new = match value {
            Value::Scalar(h) => self.splat(h),
            Value::Vec4(h) => h,
        };
        let mask = dst.mask.0 & 0xF;
        if mask != 0xF {
            let old = self.load(p);
            let c = self.m.mask(mask);
            let m = self.constant(c);
            new = self.select(m, new, old);
        }
        self.store(p, new);
        // Any element may have changed.
        self.forget_file(ty);
        Ok(())
    }
}
