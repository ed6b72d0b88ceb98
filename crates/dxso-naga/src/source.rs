//! Reading source operands: register files, relative addressing (clamped, `def` values
//! first), swizzles and source modifiers.

use crate::body::{Body, Lanes, Reg};
use crate::semantics;
use crate::Error;
use dxso::{RegisterType, Relative, SrcModifier, SrcParam};
use naga::{BinaryOperator, Expression, Handle, MathFunction, UnaryOperator, VectorSize};

type H = Handle<Expression>;

/// The rule an output register read as a source breaks.
pub(crate) const OUTPUT_READ: &str =
    "an output register is write-only: it cannot be read as a source";

impl Body<'_> {
    /// A register's value from memory (its variable, or the constant buffer).
    pub(crate) fn load_memory(&mut self, reg: Reg) -> Result<H, Error> {
        match reg {
            Reg::File(RegisterType::Const, n) => {
                if n >= self.plan.float_constants {
                    return Err(self.err("float constant register beyond the constant buffer"));
                }
                let c = self.member(0);
                let p = self.index(c, n);
                let v = self.load(p);
                Ok(self.ps1_constant_clamp(v))
            }
            Reg::File(
                RegisterType::ConstInt
                | RegisterType::ConstBool
                | RegisterType::Sampler
                | RegisterType::Label
                | RegisterType::Loop,
                _,
            )
            | Reg::LoopCounter
            | Reg::Killed => Err(self.err("register read as a vector")),
            _ => {
                let p = self.reg_ptr(reg);
                Ok(self.load(p))
            }
        }
    }

    /// The whole value of a register as `vec4<f32>` (address registers converted).
    pub(crate) fn read_reg(&mut self, reg: Reg) -> Result<H, Error> {
        match reg {
            Reg::File(RegisterType::Const, n) => {
                if let Some(bits) = self.plan.info.float_defs.get(&n) {
                    let bits = self.plan.def_value(*bits);
                    return Ok(self.def_constant(n, bits));
                }
                self.whole(reg)
            }
            Reg::File(RegisterType::Addr, _) if self.plan.version.is_vertex() => {
                let v = self.whole(reg)?;
                Ok(self.as_float(v))
            }
            Reg::File(RegisterType::Predicate, _) => {
                Err(self.err("the predicate register read as a value"))
            }
            Reg::File(RegisterType::ConstInt, n) => {
                let v = self.int_constant(n)?;
                Ok(self.as_float(v))
            }
            Reg::File(RegisterType::ConstBool, n) => {
                let b = self.bool_constant(n)?;
                let one = self.func.f32(1.0);
                let zero = self.func.f32(0.0);
                let f = self.select(b, one, zero);
                Ok(self.splat(f))
            }
            Reg::LoopCounter | Reg::File(RegisterType::Loop, _) => {
                let v = self.loop_counter()?;
                let f = self.as_float(v);
                Ok(self.splat(f))
            }
            _ => self.whole(reg),
        }
    }

    /// One component of a register as `f32`.
    pub(crate) fn read_comp(&mut self, reg: Reg, c: u8) -> Result<H, Error> {
        match reg {
            Reg::File(RegisterType::Const, n) => {
                if let Some(bits) = self.plan.info.float_defs.get(&n) {
                    let v = self.plan.def_value(*bits)[(c & 3) as usize];
                    return Ok(self.f32_bits(v));
                }
                self.comp(reg, c)
            }
            Reg::File(RegisterType::Addr, _) if self.plan.version.is_vertex() => {
                let v = self.comp(reg, c)?;
                Ok(self.as_float(v))
            }
            Reg::File(
                RegisterType::Predicate
                | RegisterType::ConstInt
                | RegisterType::ConstBool
                | RegisterType::Loop,
                _,
            )
            | Reg::LoopCounter => {
                let v = self.read_reg(reg)?;
                Ok(self.index(v, (c & 3) as u32))
            }
            _ => self.comp(reg, c),
        }
    }

    /// ps_1_x reads float constants clamped to [-1, 1] (SEMANTICS 3.1).
    fn ps1_constant_clamp(&mut self, v: H) -> H {
        match semantics::ps1_constant_range(self.plan.version) {
            Some(m) => {
                let lo = self.fconst(-m, Lanes::All);
                let hi = self.fconst(m, Lanes::All);
                self.math3(MathFunction::Clamp, v, lo, hi)
            }
            None => v,
        }
    }

    pub(crate) fn loop_counter(&mut self) -> Result<H, Error> {
        let p = self.reg_ptr(Reg::LoopCounter);
        Ok(self.load(p))
    }

    /// `i<n>` as `vec4<i32>`.
    pub(crate) fn int_constant(&mut self, n: u32) -> Result<H, Error> {
        if let Some(v) = self.plan.info.int_defs.get(&n) {
            let c = self.m.ivec4_constant(*v);
            return Ok(self.constant(c));
        }
        if n >= crate::layout::INT_CONSTANTS {
            return Err(self.err("integer constant register out of range"));
        }
        let member = self.member(1);
        let p = self.index(member, n);
        Ok(self.load(p))
    }

    /// `b<n>` as a `bool`.
    pub(crate) fn bool_constant(&mut self, n: u32) -> Result<H, Error> {
        if let Some(&v) = self.plan.info.bool_defs.get(&n) {
            return Ok(self.func.bool(v));
        }
        if n >= crate::layout::BOOL_CONSTANTS {
            return Err(self.err("boolean constant register out of range"));
        }
        let member = self.member(2);
        let row = self.index(member, n / 4);
        let p = self.index(row, n % 4);
        let v = self.load(p);
        let zero = self.func.u32(0);
        Ok(self.bin(BinaryOperator::NotEqual, v, zero))
    }

    /// The index register value of a relative operand, as `i32`.
    fn relative_index(&mut self, rel: Relative) -> Result<H, Error> {
        let (reg, comp) = match rel {
            Relative::Implicit => (RegisterType::Addr, 0),
            Relative::Token(t) => (t.register.ty, t.component()),
        };
        match reg {
            RegisterType::Addr if self.plan.version.is_vertex() => {
                self.comp(Reg::File(RegisterType::Addr, 0), comp)
            }
            RegisterType::Loop => self.loop_counter(),
            _ => Err(self.err("relative address register is neither a0 nor aL")),
        }
    }

    /// The register `base + index` addresses: an index clamped into `0..len` (so the IR
    /// never indexes out of bounds), and whether the unclamped one was in range (SEMANTICS 6:
    /// out of range reads 0 and writes nothing).
    pub(crate) fn clamped(&mut self, base: u32, rel: Relative, len: u32) -> Result<(H, H), Error> {
        let idx = self.relative_index(rel)?;
        let offset = self.func.i32(base as i32);
        let sum = self.bin(BinaryOperator::Add, idx, offset);
        let lo = self.func.i32(0);
        let hi = self.func.i32(len as i32 - 1);
        let clamped = self.math3(MathFunction::Clamp, sum, lo, hi);
        let in_range = self.bin(BinaryOperator::Equal, clamped, sum);
        Ok((clamped, in_range))
    }

    /// A relatively addressed register value.
    fn read_relative(&mut self, src: &SrcParam, rel: Relative) -> Result<H, Error> {
        let (ty, base) = dxso::analysis::register_key(src.register);
        self.readable(ty)?;
        let (array, len) = match ty {
            RegisterType::Const => {
                let len = self.plan.float_constants;
                (self.member(0), len)
            }
            RegisterType::Input | RegisterType::Output => {
                let Some(&(v, len)) = self.regs.arrays.get(&ty) else {
                    return Err(self.err("relative register file has no array"));
                };
                self.flush_file(ty)?;
                (self.ptr(v), len)
            }
            _ => {
                return Err(
                    self.err("relative addressing of a register file that cannot be indexed")
                )
            }
        };
        let (idx, in_range) = self.clamped(base, rel, len)?;
        let p = self.e(Expression::Access {
            base: array,
            index: idx,
        });
        let mut value = self.load(p);
        if ty == RegisterType::Const {
            value = self.ps1_constant_clamp(value);
            // `def` values take precedence over the buffer, also when indexed.
            for &(k, bits) in &self.plan.defs_sorted {
                if k >= len {
                    continue;
                }
                let kc = self.func.i32(k as i32);
                let hit = self.bin(BinaryOperator::Equal, idx, kc);
                let d = self.def_constant(k, self.plan.def_value(bits));
                value = self.select(hit, d, value);
            }
        }
        let zero = self.vconst([0.0; 4]);
        Ok(self.select(in_range, value, zero))
    }

    fn reg_of(&self, src: &SrcParam) -> Result<Reg, Error> {
        let (ty, n) = dxso::analysis::register_key(src.register);
        self.readable(ty)?;
        Ok(self.plan.source_reg(ty, n))
    }

    /// Refuses an output register read as a source: Direct3D 9 outputs are write-only (the
    /// validator's rule too), and some are scalars the translation cannot read as a vector.
    pub(crate) fn readable(&self, ty: RegisterType) -> Result<(), Error> {
        match ty {
            RegisterType::RastOut
            | RegisterType::AttrOut
            | RegisterType::Output
            | RegisterType::ColorOut
            | RegisterType::DepthOut => Err(self.err(OUTPUT_READ)),
            _ => Ok(()),
        }
    }

    fn read_raw(&mut self, src: &SrcParam) -> Result<H, Error> {
        match src.relative {
            Some(rel) => self.read_relative(src, rel),
            None => {
                let reg = self.reg_of(src)?;
                self.read_reg(reg)
            }
        }
    }

    /// The register value a source reads before its swizzle: `_dz` / `_dw` divide all four
    /// components by the register's own z / w first (SEMANTICS 3.3).
    fn read_divided(&mut self, src: &SrcParam) -> Result<H, Error> {
        let raw = self.read_raw(src)?;
        Ok(match divisor(src.modifier) {
            Some(c) => {
                let d = self.index(raw, c);
                let d = self.splat(d);
                self.bin(BinaryOperator::Divide, raw, d)
            }
            None => raw,
        })
    }

    /// A source as `vec4<f32>`: swizzled, modifier applied.
    pub(crate) fn src4(&mut self, src: &SrcParam) -> Result<H, Error> {
        let raw = self.read_divided(src)?;
        let v = if src.swizzle.is_identity() {
            raw
        } else {
            self.swizzle(raw, VectorSize::Quad, src.swizzle.components())
        };
        self.modify(src, v, Some(VectorSize::Quad))
    }

    /// The first 2 or 3 swizzled components of a source as a vector, modifier applied.
    pub(crate) fn src_n(&mut self, src: &SrcParam, size: VectorSize) -> Result<H, Error> {
        let raw = self.read_divided(src)?;
        let v = self.swizzle(raw, size, src.swizzle.components());
        self.modify(src, v, Some(size))
    }

    /// One source component: the one output component `lane` reads.
    pub(crate) fn src1(&mut self, src: &SrcParam, lane: u8) -> Result<H, Error> {
        let c = src.swizzle.get(lane as usize);
        let v = match (src.relative, divisor(src.modifier)) {
            (None, None) => {
                let reg = self.reg_of(src)?;
                self.read_comp(reg, c)?
            }
            _ => {
                let raw = self.read_divided(src)?;
                self.index(raw, c as u32)
            }
        };
        self.modify(src, v, None)
    }

    /// A source read for `lanes`.
    pub(crate) fn src(&mut self, src: &SrcParam, lanes: Lanes) -> Result<H, Error> {
        match lanes {
            Lanes::One(c) => self.src1(src, c),
            Lanes::All => self.src4(src),
        }
    }

    /// The scalar a scalar instruction (`rcp`, `exp`, ...) reads from its source.
    pub(crate) fn src_scalar(&mut self, src: &SrcParam) -> Result<H, Error> {
        self.src1(src, semantics::SCALAR_SOURCE_LANE)
    }

    fn modify(&mut self, src: &SrcParam, v: H, width: Option<VectorSize>) -> Result<H, Error> {
        match src.modifier {
            SrcModifier::Not => Err(self.err("the ! modifier on a value source")),
            m => Ok(self.modify_simple(m, v, width)),
        }
    }

    fn modify_simple(&mut self, m: SrcModifier, v: H, width: Option<VectorSize>) -> H {
        use BinaryOperator::*;
        let neg = |b: &mut Self, x| {
            b.e(Expression::Unary {
                op: UnaryOperator::Negate,
                expr: x,
            })
        };
        match m {
            SrcModifier::None | SrcModifier::Not | SrcModifier::Dz | SrcModifier::Dw => v,
            SrcModifier::Neg => neg(self, v),
            SrcModifier::Bias | SrcModifier::BiasNeg => {
                let h = self.fconst_w(0.5, width);
                let r = self.bin(Subtract, v, h);
                if m == SrcModifier::BiasNeg {
                    neg(self, r)
                } else {
                    r
                }
            }
            SrcModifier::Sign | SrcModifier::SignNeg => {
                let two = self.fconst_w(2.0, width);
                let one = self.fconst_w(1.0, width);
                let d = self.bin(Multiply, v, two);
                let r = self.bin(Subtract, d, one);
                if m == SrcModifier::SignNeg {
                    neg(self, r)
                } else {
                    r
                }
            }
            SrcModifier::Comp => {
                let one = self.fconst_w(1.0, width);
                self.bin(Subtract, one, v)
            }
            SrcModifier::X2 | SrcModifier::X2Neg => {
                let two = self.fconst_w(2.0, width);
                let r = self.bin(Multiply, v, two);
                if m == SrcModifier::X2Neg {
                    neg(self, r)
                } else {
                    r
                }
            }
            SrcModifier::Abs => self.math1(MathFunction::Abs, v),
            SrcModifier::AbsNeg => {
                let a = self.math1(MathFunction::Abs, v);
                neg(self, a)
            }
        }
    }

    /// The predicate source as `vec4<bool>` (swizzled, `!` applied).
    pub(crate) fn predicate4(&mut self, p: &SrcParam) -> Result<H, Error> {
        let v = self.whole(Reg::File(RegisterType::Predicate, 0))?;
        let v = if p.swizzle.is_identity() {
            v
        } else {
            self.swizzle(v, VectorSize::Quad, p.swizzle.components())
        };
        Ok(self.not_if(p.modifier, v))
    }

    /// One predicate component as `bool` (for `if p0.x`, `breakp`, `callnz`).
    pub(crate) fn predicate1(&mut self, p: &SrcParam) -> Result<H, Error> {
        let v = self.comp(Reg::File(RegisterType::Predicate, 0), p.swizzle.get(0))?;
        Ok(self.not_if(p.modifier, v))
    }

    fn not_if(&mut self, m: SrcModifier, v: H) -> H {
        if m == SrcModifier::Not {
            self.e(Expression::Unary {
                op: UnaryOperator::LogicalNot,
                expr: v,
            })
        } else {
            v
        }
    }
}

/// The component `_dz` / `_dw` divide by.
fn divisor(m: SrcModifier) -> Option<u32> {
    match m {
        SrcModifier::Dz => Some(2),
        SrcModifier::Dw => Some(3),
        _ => None,
    }
}
