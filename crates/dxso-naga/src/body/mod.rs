//! Lowering one function: where registers live, reading sources (relative addressing,
//! swizzles, modifiers) and writing destinations (masks, predicates, saturation, shifts).
//!
//! Registers are `vec4` variables: function locals when the shader has no subroutines,
//! private globals otherwise (subroutines share them). Values already in hand are remembered
//! per block ([`Body::cache`]) so a register written and read in straight-line code is not
//! loaded back: the module stays small, which keeps validation and writing fast.

mod values;

use crate::func::Func;
use crate::module::ModuleCtx;
use crate::{Error, Plan};
use dxso::{Opcode, RegisterType};
use naga::FastHashMap as HashMap;
use naga::{
    AddressSpace, BinaryOperator, Expression, GlobalVariable, Handle, LocalVariable, MathFunction,
    Scalar, ScalarKind, Span, Statement, SwizzleComponent, VectorSize,
};

/// A register as the lowering names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Reg {
    /// A register of a file, `c` files merged (see [`dxso::analysis::register_key`]).
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

/// One function being lowered.
pub(crate) struct Body<'a> {
    pub(crate) m: &'a mut ModuleCtx,
    pub(crate) plan: &'a Plan<'a>,
    pub(crate) regs: &'a mut Regs,
    pub(crate) func: Func,
    /// Pointer expressions of variables in this function (pre-emitted, valid everywhere).
    ptrs: HashMap<(bool, u32), Handle<Expression>>,
    /// What is known about register values here (see [`values`]).
    pub(crate) known: HashMap<Reg, values::Known>,
    /// Entry-point values that are not registers (the fragment coordinate).
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
    /// [`Body::write`] keeps the value in `captured` instead of writing it (see [`crate::hoist`]).
    pub(crate) capture: bool,
    pub(crate) captured: Option<Value>,
    /// Values computed before their flow-control construct, by item index.
    pub(crate) hoisted: HashMap<usize, Value>,
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
            ptrs: HashMap::default(),
            known: HashMap::default(),
            fixed: HashMap::default(),
            consts: HashMap::default(),
            members: HashMap::default(),
            item: 0,
            opcode: Opcode::Nop,
            pads: Vec::new(),
            capture: false,
            captured: None,
            hoisted: HashMap::default(),
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

    pub(crate) fn math1(
        &mut self,
        fun: MathFunction,
        arg: Handle<Expression>,
    ) -> Handle<Expression> {
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

    /// The value of `def c<n>` (`bits` as the shader reads them). naga has no NaN or infinite
    /// literals, so a `def` holding one is a `vec4<u32>` constant of its bits, reinterpreted
    /// where it is read.
    pub(crate) fn def_constant(&mut self, n: u32, bits: [u32; 4]) -> Handle<Expression> {
        if bits.iter().all(|&b| f32::from_bits(b).is_finite()) {
            let c = self.m.def(n, bits);
            return self.constant(c);
        }
        let c = self.m.def_bits(n, bits);
        let u = self.constant(c);
        self.e(Expression::As {
            expr: u,
            kind: ScalarKind::Float,
            convert: None,
        })
    }

    /// The float with these bits: a literal, or (NaN, infinity) a `u32` literal reinterpreted.
    pub(crate) fn f32_bits(&mut self, bits: u32) -> Handle<Expression> {
        let v = f32::from_bits(bits);
        if v.is_finite() {
            return self.func.f32(v);
        }
        let u = self.func.u32(bits);
        self.e(Expression::As {
            expr: u,
            kind: ScalarKind::Float,
            convert: None,
        })
    }

    pub(crate) fn constant(&mut self, c: Handle<naga::Constant>) -> Handle<Expression> {
        if let Some(&h) = self.consts.get(&c) {
            return h;
        }
        let h = self.func.pre(Expression::Constant(c));
        self.consts.insert(c, h);
        h
    }

    pub(crate) fn as_float(&mut self, e: Handle<Expression>) -> Handle<Expression> {
        self.e(Expression::As {
            expr: e,
            kind: ScalarKind::Float,
            convert: Some(4),
        })
    }

    pub(crate) fn as_int(&mut self, e: Handle<Expression>) -> Handle<Expression> {
        self.e(Expression::As {
            expr: e,
            kind: ScalarKind::Sint,
            convert: Some(4),
        })
    }

    // ----- blocks -----

    /// Opens a nested block (registers in hand are stored first).
    pub(crate) fn open(&mut self) -> Result<(), Error> {
        self.flush_all()?;
        self.func.open();
        Ok(())
    }

    /// Closes the innermost block (storing what it wrote).
    pub(crate) fn close(&mut self) -> Result<naga::Block, Error> {
        self.leave_block()?;
        Ok(self.func.close())
    }

    /// A statement that leaves the block (`break`, `return`, a call): registers in hand are
    /// stored first.
    pub(crate) fn exit_stmt(&mut self, s: Statement) -> Result<(), Error> {
        self.flush_all()?;
        self.func.stmt(s);
        Ok(())
    }

    /// The element type of a register's variable.
    pub(crate) fn elem(&self, reg: Reg) -> Elem {
        match reg {
            Reg::File(ty, _) => elem_of(self.plan.version, ty),
            _ => Elem::Float,
        }
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
            Reg::File(RegisterType::DepthOut, _) => {
                ("oDepth".to_string(), self.m.scalar(Scalar::F32))
            }
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
        if let Var::Local(h) = v {
            // An explicit zero: naga writes an array's default as `(float4[N])0` in HLSL,
            // which glslang's HLSL front end does not read.
            let zero = self.func.f32(0.0);
            let vec4 = self.m.vec(VectorSize::Quad, Scalar::F32);
            let z4 = self.e(Expression::Compose {
                ty: vec4,
                components: vec![zero; 4],
            });
            let init = self.e(Expression::Compose {
                ty: t,
                components: vec![z4; len as usize],
            });
            self.func.f.local_variables[h].init = Some(init);
        }
        self.regs.arrays.insert(ty, (v, len));
        v
    }

    /// Creates the arrays of relatively addressed register files (inputs, vs_3_0 outputs).
    pub(crate) fn declare_arrays(&mut self) {
        let vertex = self.plan.version.is_vertex();
        if self.plan.info.relative.contains(&RegisterType::Input) {
            self.array_var(RegisterType::Input, if vertex { 16 } else { 10 });
        }
        if vertex && self.plan.info.relative.contains(&RegisterType::Output) {
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
}

impl Reg {
    /// Whether the register never changes while a function runs.
    pub(crate) fn is_immutable(self) -> bool {
        matches!(
            self,
            Reg::File(
                RegisterType::Const | RegisterType::Input | RegisterType::MiscType,
                _
            ) | Reg::TexCoord(_)
        )
    }
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
