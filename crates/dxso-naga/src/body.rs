//! Lowering one function: where registers live, reading sources (relative addressing,
//! swizzles, modifiers) and writing destinations (masks, predicates, saturation, shifts).
//!
//! Registers are `vec4` variables: function locals when the shader has no subroutines,
//! private globals otherwise (subroutines share them). Values already in hand are remembered
//! per block ([`Body::cache`]) so a register written and read in straight-line code is not
//! loaded back: the module stays small, which keeps validation and writing fast.

use crate::func::Func;
use crate::module::ModuleCtx;
use crate::semantics;
use crate::{Error, Plan};
use dxso::{
    DstParam, Instruction, Opcode, RegisterType, Relative, SrcModifier, SrcParam, Swizzle,
};
use naga::{
    AddressSpace, BinaryOperator, Expression, GlobalVariable, Handle, LocalVariable, MathFunction,
    Scalar, ScalarKind, Span, Statement, SwizzleComponent, UnaryOperator, VectorSize,
};
use std::collections::HashMap;

/// A register as the lowering names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Reg {
    /// A register of a file, `c` files merged (see [`crate::scan::key`]).
    File(RegisterType, u32),
    /// The texture coordinate of stage n (ps_1_x, where `t#` registers are written).
    TexCoord(u32),
    /// The loop counter `aL` of the innermost loop.
    LoopCounter,
    /// Whether `texkill` has discarded the pixel (the discard happens at the end).
    Killed,
}

/// Where a register's memory is.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Var {
    Local(Handle<LocalVariable>),
    Global(Handle<GlobalVariable>),
}

/// The element type of a register variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Elem {
    Float,
    Int,
    Bool,
}

impl Lanes {
    /// The vector size of values computed for these lanes (`None`: scalar).
    pub(crate) fn width(self) -> Option<VectorSize> {
        match self {
            Lanes::One(_) => None,
            Lanes::All => Some(VectorSize::Quad),
        }
    }
}

impl Elem {
    fn scalar(self) -> Scalar {
        match self {
            Elem::Float => Scalar::F32,
            Elem::Int => Scalar::I32,
            Elem::Bool => Scalar::BOOL,
        }
    }
}

/// The variables of every register, shared by the functions of a module.
#[derive(Default)]
pub(crate) struct Regs {
    pub(crate) vars: HashMap<Reg, Var>,
    /// Register files kept as one array because they are relatively addressed.
    pub(crate) arrays: HashMap<RegisterType, (Var, u32)>,
    /// Registers live in private globals (the shader has subroutines).
    pub(crate) private: bool,
}

/// A computed value: a scalar, or all four components.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Value {
    Scalar(Handle<Expression>),
    Vec4(Handle<Expression>),
}

/// Which components an instruction computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lanes {
    /// Only output component `c` (a one-component write mask).
    One(u8),
    /// All four.
    All,
}

struct Cached {
    value: Handle<Expression>,
    depth: usize,
}

/// One function being lowered.
pub(crate) struct Body<'a> {
    pub(crate) m: &'a mut ModuleCtx,
    pub(crate) plan: &'a Plan<'a>,
    pub(crate) regs: &'a mut Regs,
    pub(crate) func: Func,
    /// Pointer expressions of variables in this function (pre-emitted, valid everywhere).
    ptrs: HashMap<(bool, u32), Handle<Expression>>,
    /// Values of registers known in the current block and the blocks around it.
    cache: HashMap<Reg, Cached>,
    /// Values fixed for the whole function (inputs in the entry point), never invalidated.
    pub(crate) fixed: HashMap<Reg, Handle<Expression>>,
    /// Constants of this function (pre-emitted).
    consts: HashMap<Handle<naga::Constant>, Handle<Expression>>,
    /// Members of the constant buffer, emitted in the function's first block.
    members: HashMap<u32, Handle<Expression>>,
    /// The item index of the instruction being lowered, for errors.
    pub(crate) item: usize,
    pub(crate) opcode: Opcode,
    /// Dot products of ps_1_x `texm3x*pad` waiting for the instruction that uses them.
    pub(crate) pads: Vec<Handle<Expression>>,
}

impl<'a> Body<'a> {
    pub(crate) fn new(
        m: &'a mut ModuleCtx,
        plan: &'a Plan<'a>,
        regs: &'a mut Regs,
        name: &str,
    ) -> Self {
        Body {
            m,
            plan,
            regs,
            func: Func::new(name),
            ptrs: HashMap::new(),
            cache: HashMap::new(),
            fixed: HashMap::new(),
            consts: HashMap::new(),
            members: HashMap::new(),
            item: 0,
            opcode: Opcode::Nop,
            pads: Vec::new(),
        }
    }

    pub(crate) fn err(&self, rule: &'static str) -> Error {
        Error::at(self.item, self.opcode, rule)
    }

    // ----- expressions -----

    pub(crate) fn e(&mut self, e: Expression) -> Handle<Expression> {
        self.func.expr(e)
    }

    pub(crate) fn bin(
        &mut self,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Handle<Expression> {
        self.e(Expression::Binary { op, left, right })
    }

    pub(crate) fn math1(&mut self, fun: MathFunction, arg: Handle<Expression>) -> Handle<Expression> {
        self.e(Expression::Math {
            fun,
            arg,
            arg1: None,
            arg2: None,
            arg3: None,
        })
    }

    pub(crate) fn math2(
        &mut self,
        fun: MathFunction,
        arg: Handle<Expression>,
        arg1: Handle<Expression>,
    ) -> Handle<Expression> {
        self.e(Expression::Math {
            fun,
            arg,
            arg1: Some(arg1),
            arg2: None,
            arg3: None,
        })
    }

    pub(crate) fn math3(
        &mut self,
        fun: MathFunction,
        arg: Handle<Expression>,
        arg1: Handle<Expression>,
        arg2: Handle<Expression>,
    ) -> Handle<Expression> {
        self.e(Expression::Math {
            fun,
            arg,
            arg1: Some(arg1),
            arg2: Some(arg2),
            arg3: None,
        })
    }

    pub(crate) fn select(
        &mut self,
        condition: Handle<Expression>,
        accept: Handle<Expression>,
        reject: Handle<Expression>,
    ) -> Handle<Expression> {
        self.e(Expression::Select {
            condition,
            accept,
            reject,
        })
    }

    pub(crate) fn index(&mut self, base: Handle<Expression>, index: u32) -> Handle<Expression> {
        self.e(Expression::AccessIndex { base, index })
    }

    pub(crate) fn load(&mut self, pointer: Handle<Expression>) -> Handle<Expression> {
        self.e(Expression::Load { pointer })
    }

    pub(crate) fn store(&mut self, pointer: Handle<Expression>, value: Handle<Expression>) {
        self.func.stmt(Statement::Store { pointer, value });
    }

    pub(crate) fn swizzle(
        &mut self,
        vector: Handle<Expression>,
        size: VectorSize,
        comps: [u8; 4],
    ) -> Handle<Expression> {
        self.e(Expression::Swizzle {
            size,
            vector,
            pattern: comps.map(component),
        })
    }

    pub(crate) fn splat(&mut self, value: Handle<Expression>) -> Handle<Expression> {
        self.e(Expression::Splat {
            size: VectorSize::Quad,
            value,
        })
    }

    pub(crate) fn compose4(&mut self, components: Vec<Handle<Expression>>) -> Handle<Expression> {
        let ty = self.m.vec4f();
        self.e(Expression::Compose { ty, components })
    }

    /// A float constant of the value's width.
    pub(crate) fn fconst(&mut self, v: f32, lanes: Lanes) -> Handle<Expression> {
        self.fconst_w(v, lanes.width())
    }

    /// A float constant, scalar (`None`) or splatted to a vector size.
    pub(crate) fn fconst_w(&mut self, v: f32, width: Option<VectorSize>) -> Handle<Expression> {
        match width {
            None => self.func.f32(v),
            Some(size) => {
                let c = self.m.splat_constant(size, v);
                self.constant(c)
            }
        }
    }

    /// A `vec4<f32>` module constant, as a pre-emitted expression.
    pub(crate) fn vconst(&mut self, v: [f32; 4]) -> Handle<Expression> {
        let c = self.m.vec4_constant(v);
        self.constant(c)
    }

    pub(crate) fn constant(&mut self, c: Handle<naga::Constant>) -> Handle<Expression> {
        if let Some(&h) = self.consts.get(&c) {
            return h;
        }
        let h = self.func.pre(Expression::Constant(c));
        self.consts.insert(c, h);
        h
    }

    pub(crate) fn to_float(&mut self, e: Handle<Expression>) -> Handle<Expression> {
        self.e(Expression::As {
            expr: e,
            kind: ScalarKind::Float,
            convert: Some(4),
        })
    }

    pub(crate) fn to_int(&mut self, e: Handle<Expression>) -> Handle<Expression> {
        self.e(Expression::As {
            expr: e,
            kind: ScalarKind::Sint,
            convert: Some(4),
        })
    }

    // ----- blocks and the value cache -----

    pub(crate) fn open(&mut self) {
        self.func.open();
    }

    pub(crate) fn close(&mut self) -> naga::Block {
        let depth = self.func.depth();
        self.cache.retain(|_, c| c.depth < depth);
        self.func.close()
    }

    /// Forgets every register value that memory may have changed under (loops, calls).
    pub(crate) fn forget_mutable(&mut self) {
        self.cache.retain(|r, _| is_immutable(*r));
    }

    // ----- variables -----

    fn var_ty(&mut self, elem: Elem, len: Option<u32>) -> Handle<naga::Type> {
        let base = self.m.vec(VectorSize::Quad, elem.scalar());
        match len {
            Some(n) => self.m.array(base, Some(n), 16),
            None => base,
        }
    }

    fn new_var(&mut self, name: String, ty: Handle<naga::Type>) -> Var {
        if self.regs.private {
            Var::Global(self.m.module.global_variables.append(
                GlobalVariable {
                    name: Some(name),
                    space: AddressSpace::Private,
                    binding: None,
                    ty,
                    init: None,
                    memory_decorations: Default::default(),
                },
                Span::UNDEFINED,
            ))
        } else {
            Var::Local(self.func.f.local_variables.append(
                LocalVariable {
                    name: Some(name),
                    ty,
                    init: None,
                },
                Span::UNDEFINED,
            ))
        }
    }

    /// A function-local scalar variable, whatever the storage mode (loop trip counts).
    pub(crate) fn local(&mut self, name: &str, scalar: Scalar) -> Handle<Expression> {
        let ty = self.m.scalar(scalar);
        let h = self.func.f.local_variables.append(
            LocalVariable {
                name: Some(name.into()),
                ty,
                init: None,
            },
            Span::UNDEFINED,
        );
        self.func.pre(Expression::LocalVariable(h))
    }

    pub(crate) fn ptr(&mut self, var: Var) -> Handle<Expression> {
        let key = match var {
            Var::Local(h) => (false, h.index() as u32),
            Var::Global(h) => (true, h.index() as u32),
        };
        if let Some(&h) = self.ptrs.get(&key) {
            return h;
        }
        let h = match var {
            Var::Local(h) => self.func.pre(Expression::LocalVariable(h)),
            Var::Global(h) => self.func.pre(Expression::GlobalVariable(h)),
        };
        self.ptrs.insert(key, h);
        h
    }

    /// The variable of a (non-array) register, created on first use.
    pub(crate) fn var(&mut self, reg: Reg) -> Var {
        if let Some(&v) = self.regs.vars.get(&reg) {
            return v;
        }
        let (name, ty) = match reg {
            Reg::LoopCounter => ("aL".to_string(), self.m.scalar(Scalar::I32)),
            Reg::Killed => ("killed".to_string(), self.m.scalar(Scalar::BOOL)),
            Reg::File(RegisterType::DepthOut, _) => ("oDepth".to_string(), self.m.scalar(Scalar::F32)),
            Reg::TexCoord(n) => (format!("texcoord{n}"), self.var_ty(Elem::Float, None)),
            Reg::File(ty, n) => {
                let name = reg_name(self.plan.version, ty, n);
                let elem = elem_of(self.plan.version, ty);
                (name, self.var_ty(elem, None))
            }
        };
        let v = self.new_var(name, ty);
        self.regs.vars.insert(reg, v);
        v
    }

    /// The array variable of a relatively addressed register file.
    pub(crate) fn array_var(&mut self, ty: RegisterType, len: u32) -> Var {
        if let Some(&(v, _)) = self.regs.arrays.get(&ty) {
            return v;
        }
        let name = match ty {
            RegisterType::Input => "v",
            RegisterType::Output => "o",
            _ => "regs",
        };
        let t = self.var_ty(Elem::Float, Some(len));
        let v = self.new_var(name.into(), t);
        self.regs.arrays.insert(ty, (v, len));
        v
    }

    /// Creates the arrays of relatively addressed register files (inputs, vs_3_0 outputs).
    pub(crate) fn declare_arrays(&mut self) {
        let vertex = self.plan.version.is_vertex();
        if self.plan.scan.relative.contains(&RegisterType::Input) {
            self.array_var(RegisterType::Input, if vertex { 16 } else { 10 });
        }
        if vertex && self.plan.scan.relative.contains(&RegisterType::Output) {
            self.array_var(RegisterType::Output, 12);
        }
    }

    /// The pointer to register `reg`'s memory (an array element when its file is an array).
    pub(crate) fn reg_ptr(&mut self, reg: Reg) -> Handle<Expression> {
        if let Reg::File(ty, n) = reg {
            if let Some(&(v, len)) = self.regs.arrays.get(&ty) {
                let base = self.ptr(v);
                return self.index(base, n.min(len - 1));
            }
        }
        let v = self.var(reg);
        self.ptr(v)
    }

    /// A member of the constant buffer (0 `c`, 1 `i`, 2 `b`, 3 `bumpenv`, 4 `bumplum`,
    /// 5 `viewport`), as a pointer.
    pub(crate) fn member(&mut self, index: u32) -> Handle<Expression> {
        if let Some(&h) = self.members.get(&index) {
            return h;
        }
        let g = self.m.constant_buffer();
        let base = self.func.pre(Expression::GlobalVariable(g));
        let h = self.index(base, index);
        // Emitted where it is first needed: valid there and in the blocks inside, so only
        // remembered when that is the function's body.
        if self.func.depth() == 0 {
            self.members.insert(index, h);
        }
        h
    }

    /// Makes the constant-buffer members this function uses valid everywhere in it.
    pub(crate) fn prepare_members(&mut self, members: &[u32]) {
        for &m in members {
            self.member(m);
        }
    }

    // ----- reading -----

    /// The whole value of a register as `vec4<f32>` (address registers converted).
    pub(crate) fn read_reg(&mut self, reg: Reg) -> Result<Handle<Expression>, Error> {
        if let Some(&h) = self.fixed.get(&reg) {
            return Ok(h);
        }
        if let Some(c) = self.cache.get(&reg) {
            return Ok(c.value);
        }
        let value = match reg {
            Reg::File(RegisterType::Const, n) => {
                if let Some(bits) = self.plan.scan.defs.get(&n) {
                    let c = self.m.def(n, *bits);
                    return Ok(self.constant(c));
                }
                let count = self.plan.float_constants;
                if n >= count {
                    return Err(self.err("float constant register beyond the constant buffer"));
                }
                let c = self.member(0);
                let p = self.index(c, n);
                self.load(p)
            }
            Reg::File(RegisterType::Addr, 0) if self.plan.version.is_vertex() => {
                let p = self.reg_ptr(reg);
                let v = self.load(p);
                self.to_float(v)
            }
            Reg::File(RegisterType::Predicate, _) => {
                return Err(self.err("the predicate register read as a value"))
            }
            Reg::File(RegisterType::ConstInt, n) => {
                let v = self.int_constant(n)?;
                return Ok(self.to_float(v));
            }
            Reg::File(RegisterType::ConstBool, n) => {
                let b = self.bool_constant(n)?;
                let one = self.func.f32(1.0);
                let zero = self.func.f32(0.0);
                let f = self.select(b, one, zero);
                return Ok(self.splat(f));
            }
            Reg::File(RegisterType::Sampler | RegisterType::Label, _) => {
                return Err(self.err("a sampler or label register read as a value"))
            }
            Reg::LoopCounter => {
                let v = self.loop_counter()?;
                let f = self.to_float(v);
                return Ok(self.splat(f));
            }
            _ => {
                let p = self.reg_ptr(reg);
                self.load(p)
            }
        };
        self.remember(reg, value);
        Ok(value)
    }

    pub(crate) fn remember(&mut self, reg: Reg, value: Handle<Expression>) {
        let depth = self.func.depth();
        self.cache.insert(reg, Cached { value, depth });
    }

    pub(crate) fn loop_counter(&mut self) -> Result<Handle<Expression>, Error> {
        let p = self.reg_ptr(Reg::LoopCounter);
        Ok(self.load(p))
    }

    /// `i<n>` as `vec4<i32>`.
    pub(crate) fn int_constant(&mut self, n: u32) -> Result<Handle<Expression>, Error> {
        if let Some(v) = self.plan.scan.defis.get(&n) {
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
    pub(crate) fn bool_constant(&mut self, n: u32) -> Result<Handle<Expression>, Error> {
        if let Some(&v) = self.plan.scan.defbs.get(&n) {
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
    fn relative_index(&mut self, rel: Relative) -> Result<Handle<Expression>, Error> {
        let (reg, comp) = match rel {
            Relative::Implicit => (RegisterType::Addr, 0),
            Relative::Token(t) => (t.register.ty, t.component()),
        };
        match reg {
            RegisterType::Addr if self.plan.version.is_vertex() => {
                let p = self.reg_ptr(Reg::File(RegisterType::Addr, 0));
                let p = self.index(p, comp as u32);
                Ok(self.load(p))
            }
            RegisterType::Loop => self.loop_counter(),
            _ => Err(self.err("relative address register is neither a0 nor aL")),
        }
    }

    /// `base + index` clamped into `0..len` (the executor's out-of-range rule).
    fn clamped(&mut self, base: u32, rel: Relative, len: u32) -> Result<Handle<Expression>, Error> {
        let idx = self.relative_index(rel)?;
        let offset = self.func.i32(base as i32);
        let sum = self.bin(BinaryOperator::Add, idx, offset);
        let lo = self.func.i32(0);
        let hi = self.func.i32(len as i32 - 1);
        Ok(self.math3(MathFunction::Clamp, sum, lo, hi))
    }

    /// A relatively addressed register value.
    fn read_relative(&mut self, src: &SrcParam, rel: Relative) -> Result<Handle<Expression>, Error> {
        let (ty, base) = crate::scan::key(src.register);
        match ty {
            RegisterType::Const => {
                let len = self.plan.float_constants;
                let idx = self.clamped(base, rel, len)?;
                let c = self.member(0);
                let p = self.e(Expression::Access { base: c, index: idx });
                let mut value = self.load(p);
                // `def` values take precedence over the buffer, also when indexed.
                let mut defs: Vec<_> = self.plan.scan.defs.iter().map(|(&k, &v)| (k, v)).collect();
                defs.sort_by_key(|d| d.0);
                for (k, bits) in defs {
                    if k >= len {
                        continue;
                    }
                    let kc = self.func.i32(k as i32);
                    let hit = self.bin(BinaryOperator::Equal, idx, kc);
                    let c = self.m.def(k, bits);
                    let d = self.constant(c);
                    value = self.select(hit, d, value);
                }
                Ok(value)
            }
            RegisterType::Input | RegisterType::Output => {
                let Some(&(v, len)) = self.regs.arrays.get(&ty) else {
                    return Err(self.err("relative register file has no array"));
                };
                let idx = self.clamped(base, rel, len)?;
                let arr = self.ptr(v);
                let p = self.e(Expression::Access { base: arr, index: idx });
                Ok(self.load(p))
            }
            _ => Err(self.err("relative addressing of a register file that cannot be indexed")),
        }
    }

    fn read_raw(&mut self, src: &SrcParam) -> Result<Handle<Expression>, Error> {
        match src.relative {
            Some(rel) => self.read_relative(src, rel),
            None => {
                let (ty, n) = crate::scan::key(src.register);
                let reg = self.plan.source_reg(ty, n);
                self.read_reg(reg)
            }
        }
    }

    /// A source as `vec4<f32>`: swizzled, modifier applied.
    pub(crate) fn src4(&mut self, src: &SrcParam) -> Result<Handle<Expression>, Error> {
        let raw = self.read_raw(src)?;
        let v = if src.swizzle.is_identity() {
            raw
        } else {
            self.swizzle(raw, VectorSize::Quad, src.swizzle.components())
        };
        self.modify(src.modifier, v, raw, src.swizzle, Lanes::All)
    }

    /// Source components for output components `lanes` (2 or 3 of them) as a vector.
    pub(crate) fn src_n(&mut self, src: &SrcParam, size: VectorSize) -> Result<Handle<Expression>, Error> {
        let raw = self.read_raw(src)?;
        let v = self.swizzle(raw, size, src.swizzle.components());
        match src.modifier {
            SrcModifier::Dz | SrcModifier::Dw => {
                let d = self.index(raw, if src.modifier == SrcModifier::Dz { 2 } else { 3 });
                let d = self.e(Expression::Splat { size, value: d });
                Ok(self.bin(BinaryOperator::Divide, v, d))
            }
            m => Ok(self.modify_simple(m, v, Some(size))),
        }
    }

    /// One source component: the one output component `lane` reads.
    pub(crate) fn src1(&mut self, src: &SrcParam, lane: u8) -> Result<Handle<Expression>, Error> {
        let raw = self.read_raw(src)?;
        let v = self.index(raw, src.swizzle.get(lane as usize) as u32);
        self.modify(src.modifier, v, raw, src.swizzle, Lanes::One(lane))
    }

    /// A source read for `lanes`.
    pub(crate) fn src(&mut self, src: &SrcParam, lanes: Lanes) -> Result<Handle<Expression>, Error> {
        match lanes {
            Lanes::One(c) => self.src1(src, c),
            Lanes::All => self.src4(src),
        }
    }

    /// The scalar a scalar instruction (`rcp`, `exp`, ...) reads from its source.
    pub(crate) fn src_scalar(&mut self, src: &SrcParam) -> Result<Handle<Expression>, Error> {
        self.src1(src, semantics::SCALAR_SOURCE_LANE)
    }

    fn modify(
        &mut self,
        m: SrcModifier,
        v: Handle<Expression>,
        raw: Handle<Expression>,
        swizzle: Swizzle,
        lanes: Lanes,
    ) -> Result<Handle<Expression>, Error> {
        match m {
            SrcModifier::Dz | SrcModifier::Dw => {
                // Divide by the z (w) of the swizzled register.
                let c = if m == SrcModifier::Dz { 2 } else { 3 };
                let d = self.index(raw, swizzle.get(c) as u32);
                let d = match lanes {
                    Lanes::One(_) => d,
                    Lanes::All => self.splat(d),
                };
                Ok(self.bin(BinaryOperator::Divide, v, d))
            }
            SrcModifier::Not => Err(self.err("the ! modifier on a value source")),
            m => Ok(self.modify_simple(m, v, lanes.width())),
        }
    }

    fn modify_simple(
        &mut self,
        m: SrcModifier,
        v: Handle<Expression>,
        width: Option<VectorSize>,
    ) -> Handle<Expression> {
        use BinaryOperator::*;
        let neg = |b: &mut Self, x| b.e(Expression::Unary { op: UnaryOperator::Negate, expr: x });
        match m {
            SrcModifier::None | SrcModifier::Not | SrcModifier::Dz | SrcModifier::Dw => v,
            SrcModifier::Neg => neg(self, v),
            SrcModifier::Bias | SrcModifier::BiasNeg => {
                let h = self.fconst_w(0.5, width);
                let r = self.bin(Subtract, v, h);
                if m == SrcModifier::BiasNeg { neg(self, r) } else { r }
            }
            SrcModifier::Sign | SrcModifier::SignNeg => {
                let two = self.fconst_w(2.0, width);
                let one = self.fconst_w(1.0, width);
                let d = self.bin(Multiply, v, two);
                let r = self.bin(Subtract, d, one);
                if m == SrcModifier::SignNeg { neg(self, r) } else { r }
            }
            SrcModifier::Comp => {
                let one = self.fconst_w(1.0, width);
                self.bin(Subtract, one, v)
            }
            SrcModifier::X2 | SrcModifier::X2Neg => {
                let two = self.fconst_w(2.0, width);
                let r = self.bin(Multiply, v, two);
                if m == SrcModifier::X2Neg { neg(self, r) } else { r }
            }
            SrcModifier::Abs => self.math1(MathFunction::Abs, v),
            SrcModifier::AbsNeg => {
                let a = self.math1(MathFunction::Abs, v);
                neg(self, a)
            }
        }
    }

    /// The predicate source as `vec4<bool>` (swizzled, `!` applied).
    pub(crate) fn predicate4(&mut self, p: &SrcParam) -> Handle<Expression> {
        let ptr = self.reg_ptr(Reg::File(RegisterType::Predicate, 0));
        let v = self.load(ptr);
        let v = if p.swizzle.is_identity() {
            v
        } else {
            self.swizzle(v, VectorSize::Quad, p.swizzle.components())
        };
        self.not_if(p.modifier, v)
    }

    /// One predicate component as `bool` (for `if p0.x`, `breakp`, `callnz`).
    pub(crate) fn predicate1(&mut self, p: &SrcParam) -> Handle<Expression> {
        let ptr = self.reg_ptr(Reg::File(RegisterType::Predicate, 0));
        let v = self.load(ptr);
        let v = self.index(v, p.swizzle.get(0) as u32);
        self.not_if(p.modifier, v)
    }

    fn not_if(&mut self, m: SrcModifier, v: Handle<Expression>) -> Handle<Expression> {
        if m == SrcModifier::Not {
            self.e(Expression::Unary {
                op: UnaryOperator::LogicalNot,
                expr: v,
            })
        } else {
            v
        }
    }

    // ----- writing -----

    /// The components an instruction needs to compute.
    pub(crate) fn lanes(&self, inst: &Instruction) -> Lanes {
        match inst.dst {
            Some(d) if inst.predicate.is_none() && d.mask.count() == 1 => {
                Lanes::One(d.mask.0.trailing_zeros() as u8)
            }
            _ => Lanes::All,
        }
    }

    /// Applies the result shift, saturation and the ps_1_x range.
    pub(crate) fn finish_value(&mut self, dst: &DstParam, v: Handle<Expression>, lanes: Lanes) -> Handle<Expression> {
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
        let (v, lanes) = match value {
            Value::Scalar(h) => (h, Lanes::One(0)),
            Value::Vec4(h) => (h, Lanes::All),
        };
        let v = self.finish_value(&dst, v, lanes);
        let value = match value {
            Value::Scalar(_) => Value::Scalar(v),
            Value::Vec4(_) => Value::Vec4(v),
        };
        self.write_raw(inst, &dst, value, Elem::Float)
    }

    /// Writes a value of the register's element type (after modifiers).
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
        ) {
            return Err(self.err("destination register cannot be written"));
        }
        let reg = Reg::File(ty, n);
        if let Some(rel) = dst.relative {
            return self.write_relative(dst, rel, value);
        }
        let mask = dst.mask.0 & 0xF;
        let ptr = self.reg_ptr(reg);
        if inst.predicate.is_none() && mask.count_ones() == 1 {
            let c = mask.trailing_zeros();
            let v = match value {
                Value::Scalar(h) => h,
                Value::Vec4(h) => self.index(h, c),
            };
            let p = self.index(ptr, c);
            self.store(p, v);
            if let Some(old) = self.cached(reg) {
                // Keep the register's value in hand: insert the component.
                let mut comps = Vec::with_capacity(4);
                for i in 0..4 {
                    comps.push(if i == c { v } else { self.index(old, i) });
                }
                let ty = self.m.vec(VectorSize::Quad, elem.scalar());
                let new = self.e(Expression::Compose { ty, components: comps });
                self.remember(reg, new);
            }
            return Ok(());
        }
        let mut new = match value {
            Value::Scalar(h) => self.splat(h),
            Value::Vec4(h) => h,
        };
        let full = mask == 0xF && inst.predicate.is_none();
        if !full {
            let old = self.read_typed(reg, elem)?;
            if let Some(p) = &inst.predicate {
                let cond = self.predicate4(p);
                new = self.select(cond, new, old);
            }
            if mask != 0xF {
                let c = self.m.mask(mask);
                let m = self.constant(c);
                new = self.select(m, new, old);
            }
        }
        self.store(ptr, new);
        self.remember(reg, new);
        Ok(())
    }

    fn cached(&self, reg: Reg) -> Option<Handle<Expression>> {
        self.cache.get(&reg).map(|c| c.value)
    }

    /// A register's value in its own element type.
    fn read_typed(&mut self, reg: Reg, elem: Elem) -> Result<Handle<Expression>, Error> {
        if elem == Elem::Float {
            return self.read_reg(reg);
        }
        if let Some(v) = self.cached(reg) {
            return Ok(v);
        }
        let p = self.reg_ptr(reg);
        let v = self.load(p);
        self.remember(reg, v);
        Ok(v)
    }

    fn write_relative(&mut self, dst: &DstParam, rel: Relative, value: Value) -> Result<(), Error> {
        let (ty, base) = crate::scan::key(dst.register);
        let Some(&(var, len)) = self.regs.arrays.get(&ty) else {
            return Err(self.err("relative destination in a file that cannot be indexed"));
        };
        let idx = self.clamped(base, rel, len)?;
        let arr = self.ptr(var);
        let p = self.e(Expression::Access { base: arr, index: idx });
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
        self.cache.retain(|r, _| !matches!(r, Reg::File(t, _) if *t == ty));
        Ok(())
    }

}

/// Whether a register never changes while a function runs.
fn is_immutable(r: Reg) -> bool {
    matches!(
        r,
        Reg::File(RegisterType::Const | RegisterType::Input | RegisterType::MiscType, _)
            | Reg::TexCoord(_)
    )
}

fn elem_of(version: dxso::Version, ty: RegisterType) -> Elem {
    match ty {
        RegisterType::Addr if version.is_vertex() => Elem::Int,
        RegisterType::Predicate => Elem::Bool,
        _ => Elem::Float,
    }
}

pub(crate) fn component(c: u8) -> SwizzleComponent {
    match c & 3 {
        0 => SwizzleComponent::X,
        1 => SwizzleComponent::Y,
        2 => SwizzleComponent::Z,
        _ => SwizzleComponent::W,
    }
}

/// The variable name of a register (`r3`, `oT0`, `oPos`).
pub(crate) fn reg_name(version: dxso::Version, ty: RegisterType, n: u32) -> String {
    dxso::Register::new(ty, n as u16).name(version)
}

