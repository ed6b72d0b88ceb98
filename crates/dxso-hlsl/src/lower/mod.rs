//! Semantic analysis and lowering of the entry point into the IR.
//!
//! The entry point is evaluated symbolically: every function call is inlined, every loop
//! unrolled, and control flow flattened under an execution mask (a 0/1 value that is the
//! literal 1 where the flow is static, so static code makes no extra nodes). An assignment under
//! a mask selects between the new and the old value; `return`, `break` and `continue` clear
//! lanes of the mask. Types are checked as values are built, with fxc's diagnostics.

use crate::ast::*;
use crate::diag::{Code, Diagnostic, Loc};
use crate::ir::{InputDecl, Module, Op, Operand, OutputDecl, SampleKind, UniformDecl};
use crate::{Options, Profile};
use dxso::ctab::{ParameterClass, ParameterType, RegisterSet, TypeInfo};
use dxso::{DeclUsage, TextureType};
use std::collections::HashMap;

/// Most iterations one loop may unroll to.
pub const MAX_UNROLL: usize = 1024;
/// Deepest inlining of calls.
pub const MAX_CALL_DEPTH: usize = 64;
/// Most expressions one compilation evaluates (inlining and unrolling multiply the source's).
pub const MAX_STEPS: usize = 1 << 19;

type R<T> = Result<T, Diagnostic>;

/// A value during lowering.
#[derive(Clone, Debug)]
pub enum Value {
    /// A scalar (`n == 1`, `scalar_form`) or a vector of `n` lanes.
    Vector {
        /// The lanes.
        o: Operand,
        /// Lane count.
        n: u8,
        /// The element type.
        ty: Scalar,
        /// A scalar rather than a one-lane vector.
        scalar_form: bool,
    },
    /// A matrix as rows (`c` lanes each) and columns (`r` lanes each).
    Matrix {
        /// Rows.
        rows: Vec<Operand>,
        /// Columns.
        cols: Vec<Operand>,
        /// The element type.
        ty: Scalar,
        /// Its registers hold columns (products prefer the column form).
        column_registers: bool,
    },
    /// A struct's fields.
    Struct(usize, Vec<Value>),
    /// An array's elements.
    Array(Vec<Value>),
    /// A sampler bound to `s#`.
    Sampler(u16, ObjectKind, String),
    /// A D3D10-style texture object (combined with a `SamplerState` when sampled).
    Texture(String, Option<u32>),
    /// A D3D10-style sampler state.
    SamplerState(String),
    /// An integer uniform bound to `i#` (a `rep` loop's count), with its uniform's index.
    IntRegister(u16, usize),
    /// A boolean uniform bound to `b#` (an `if b#` condition), with its uniform's index.
    BoolRegister(u16, usize),
    /// No value.
    Void,
}

impl Value {
    fn vector(o: Operand, n: u8, ty: Scalar) -> Self {
        Value::Vector {
            o,
            n,
            ty,
            scalar_form: false,
        }
    }

    fn scalar(o: Operand, ty: Scalar) -> Self {
        Value::Vector {
            o,
            n: 1,
            ty,
            scalar_form: true,
        }
    }
}

struct Frame {
    scopes: Vec<HashMap<String, Value>>,
    /// The return value so far (flattened returns select into it).
    ret: Option<Value>,
    /// 1 where the function has returned.
    returned: Operand,
}

struct LoopState {
    broken: Operand,
    continued: Operand,
}

struct Lower<'a> {
    program: &'a Program,
    profile: Profile,
    m: Module,
    warnings: &'a mut Vec<Diagnostic>,
    globals: HashMap<String, Value>,
    functions: HashMap<String, Vec<&'a Function>>,
    frames: Vec<Frame>,
    /// The execution mask from enclosing `if`s.
    cond: Vec<Operand>,
    loops: Vec<LoopState>,
    call_stack: Vec<String>,
    next_c: u16,
    next_s: u16,
    used_c: Vec<bool>,
    used_s: Vec<bool>,
    /// Uniform index by name, to mark them used.
    uniform_index: HashMap<String, usize>,
    /// Register ranges of uniforms, to find which are read.
    registers: Vec<(RegisterSet, u16, u16, usize)>,
    /// The sampler uniform each sample node reads, by name.
    sample_owner: HashMap<crate::ir::Handle, String>,
    /// Expressions evaluated so far (see [`MAX_STEPS`]).
    steps: usize,
    /// Uniforms (by index) bound by `register()`: they keep their registers.
    bound: std::collections::HashSet<usize>,
    /// Constant registers `first..end` of arrays read through relative addressing.
    rel_ranges: Vec<(u16, u16)>,
    /// Values for the entry point's `uniform` parameters, in order (an effect's
    /// `compile vs_2_0 main(1, true)`).
    entry_args: &'a [Expr],
}

/// Lowers the entry point of `program`.
pub fn lower(program: &Program, options: &Options, warnings: &mut Vec<Diagnostic>) -> R<Module> {
    lower_with_args(program, options, warnings, &[])
}

/// [`lower`] with values for the entry point's `uniform` parameters, in order: each is
/// computed at compile time instead of taking a constant register, as an effect's
/// `compile profile entry(args)` asks.
pub(crate) fn lower_with_args(
    program: &Program,
    options: &Options,
    warnings: &mut Vec<Diagnostic>,
    entry_args: &[Expr],
) -> R<Module> {
    let mut functions: HashMap<String, Vec<&Function>> = HashMap::new();
    for g in &program.globals {
        if let Global::Function(f) = g {
            if f.body.is_some() {
                functions.entry(f.name.clone()).or_default().push(f);
            }
        }
    }
    let mut l = Lower {
        program,
        profile: options.profile,
        m: Module::default(),
        warnings,
        globals: HashMap::new(),
        functions,
        frames: Vec::new(),
        cond: Vec::new(),
        loops: Vec::new(),
        call_stack: Vec::new(),
        next_c: 0,
        next_s: 0,
        used_c: vec![false; 8192],
        used_s: vec![false; 16],
        uniform_index: HashMap::new(),
        registers: Vec::new(),
        sample_owner: HashMap::new(),
        steps: 0,
        bound: Default::default(),
        rel_ranges: Vec::new(),
        entry_args,
    };
    if let Profile::Ps1x(_) = options.profile {
        return Err(Diagnostic::error(
            Code::Unsupported,
            Loc::default(),
            format!("dxso does not compile {} yet", options.profile),
        ));
    }
    l.globals_pass()?;
    let entry = l
        .functions
        .get(&options.entry)
        .and_then(|v| v.first().copied())
        .ok_or_else(|| {
            Diagnostic::error(
                Code::EntryNotFound,
                Loc {
                    file: program_file(program),
                    line: 1,
                    col: 1,
                    col_end: 1,
                },
                format!("'{}': entrypoint not found", options.entry),
            )
        })?;
    l.entry(entry)?;
    l.mark_used();
    Ok(l.m)
}

fn program_file(_: &Program) -> String {
    String::new()
}

fn base_scalar(k: &TypeKind) -> Scalar {
    match k {
        TypeKind::Scalar(s) | TypeKind::Vector(s, _) | TypeKind::Matrix(s, _, _) => *s,
        _ => Scalar::Float,
    }
}

fn is_floaty(s: Scalar) -> bool {
    matches!(s, Scalar::Float | Scalar::Half | Scalar::Double)
}

/// The register of a sampler not read yet ([`Lower::sampler_register`] allocates it).
const PENDING_SAMPLER: u16 = u16::MAX;

impl<'a> Lower<'a> {
    fn err(&self, code: Code, loc: &Loc, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(code, loc.clone(), msg)
    }

    fn pixel(&self) -> bool {
        !self.profile.is_vertex()
    }

    fn check_size(&self, loc: &Loc) -> R<()> {
        if self.m.nodes.len() > crate::ir::MAX_NODES {
            return Err(self.err(
                Code::Limit,
                loc,
                "the shader grows past 262144 operations (loops unrolled too far?)",
            ));
        }
        Ok(())
    }

    // ---- globals and uniforms ----

    fn globals_pass(&mut self) -> R<()> {
        // Explicit bindings first, so free registers are known.
        for g in &self.program.globals {
            if let Global::Vars(vars) = g {
                for v in vars {
                    if let Some(b) = self.binding(v) {
                        let (set, count) = self.reg_needs(&v.ty);
                        let used = if set == RegisterSet::Sampler {
                            &mut self.used_s
                        } else {
                            &mut self.used_c
                        };
                        for r in b.index..(b.index + count as u32).min(used.len() as u32) {
                            used[r as usize] = true;
                        }
                    }
                }
            }
        }
        for g in &self.program.globals {
            let Global::Vars(vars) = g else { continue };
            for v in vars {
                if v.quals.is_static {
                    let value = self.declared_value(v)?;
                    self.globals.insert(v.name.clone(), value);
                    continue;
                }
                let value = self.uniform(v)?;
                self.globals.insert(v.name.clone(), value);
            }
        }
        Ok(())
    }

    /// The register set and count a uniform type needs.
    fn reg_needs(&self, ty: &Type) -> (RegisterSet, u16) {
        let elems: u32 = ty.array.iter().product::<u32>().max(1);
        let (set, per) = match &ty.kind {
            TypeKind::Object(ObjectKind::Texture(_))
            | TypeKind::Object(ObjectKind::SamplerState) => (RegisterSet::Sampler, 0),
            TypeKind::Object(_) => (RegisterSet::Sampler, 1),
            TypeKind::Matrix(_, r, c) => {
                let row_major = ty.row_major.unwrap_or(false);
                (RegisterSet::Float4, if row_major { *r } else { *c } as u32)
            }
            TypeKind::Struct(i) => {
                let n = self.program.structs[*i]
                    .members
                    .iter()
                    .map(|m| self.reg_needs(&m.ty).1 as u32)
                    .sum();
                (RegisterSet::Float4, n)
            }
            _ => (RegisterSet::Float4, 1),
        };
        (set, (per * elems).min(u16::MAX as u32) as u16)
    }

    /// The register of sampler uniform `owner`, allocated now when it is still pending.
    fn sampler_register(&mut self, reg: u16, owner: &str) -> u16 {
        if reg != PENDING_SAMPLER {
            return reg;
        }
        let Some(&u) = self.uniform_index.get(owner) else {
            return reg;
        };
        if self.m.uniforms[u].register == PENDING_SAMPLER {
            let r = self.alloc(RegisterSet::Sampler, 1);
            self.m.uniforms[u].register = r;
            self.registers.push((RegisterSet::Sampler, r, 1, u));
        }
        self.m.uniforms[u].register
    }

    fn alloc(&mut self, set: RegisterSet, count: u16) -> u16 {
        let used = if set == RegisterSet::Sampler {
            &mut self.used_s
        } else {
            &mut self.used_c
        };
        let start = if set == RegisterSet::Sampler {
            self.next_s
        } else {
            self.next_c
        };
        let mut r = start as usize;
        while r + count as usize <= used.len() {
            match used[r..r + count as usize].iter().rposition(|u| *u) {
                Some(k) => r += k + 1,
                None => break,
            }
        }
        for k in r..(r + count as usize).min(used.len()) {
            used[k] = true;
        }
        r as u16
    }

    /// The register binding of `v` that applies to this profile.
    fn binding<'v>(&self, v: &'v VarDecl) -> Option<&'v Binding> {
        let profile = self.profile.to_string();
        v.binding.as_ref()?.for_profile(&profile)
    }

    fn uniform(&mut self, v: &VarDecl) -> R<Value> {
        match &v.ty.kind {
            TypeKind::Object(ObjectKind::Texture(_)) => {
                return Ok(Value::Texture(
                    v.name.clone(),
                    self.binding(v).map(|b| b.index),
                ));
            }
            TypeKind::Object(ObjectKind::SamplerState) => {
                return Ok(Value::SamplerState(v.name.clone()))
            }
            TypeKind::String | TypeKind::Void => return Ok(Value::Void),
            _ => {}
        }
        let (set, count) = self.reg_needs(&v.ty);
        let register = match self.binding(v) {
            Some(b) => {
                let ok = match set {
                    RegisterSet::Sampler => b.set == 's',
                    _ => b.set == 'c',
                };
                if !ok {
                    if b.set == 'i'
                        && matches!(v.ty.kind, TypeKind::Scalar(Scalar::Int))
                        && v.ty.array.len() <= 1
                    {
                        let index = self.m.uniforms.len();
                        let count = v.ty.array.first().copied().unwrap_or(1).clamp(1, 16) as u16;
                        self.m.uniforms.push(UniformDecl {
                            name: v.name.clone(),
                            set: RegisterSet::Int4,
                            register: b.index as u16,
                            count,
                            ty: self.type_info(&v.ty),
                            default: None,
                            used: false,
                        });
                        self.uniform_index.insert(v.name.clone(), index);
                        let reg = |k: u16| Value::IntRegister(b.index as u16 + k, index);
                        return Ok(if v.ty.array.is_empty() {
                            reg(0)
                        } else {
                            Value::Array((0..count).map(reg).collect())
                        });
                    }
                    if b.set == 'b' && matches!(v.ty.kind, TypeKind::Scalar(Scalar::Bool)) {
                        let index = self.m.uniforms.len();
                        let count = v.ty.array.iter().product::<u32>().clamp(1, 16) as u16;
                        self.m.uniforms.push(UniformDecl {
                            name: v.name.clone(),
                            set: RegisterSet::Bool,
                            register: b.index as u16,
                            count,
                            ty: self.type_info(&v.ty),
                            default: None,
                            used: false,
                        });
                        self.uniform_index.insert(v.name.clone(), index);
                        let reg = |k: u16| Value::BoolRegister(b.index as u16 + k, index);
                        return Ok(match v.ty.array.as_slice() {
                            [] => reg(0),
                            [n] => Value::Array((0..*n as u16).map(reg).collect()),
                            _ => Value::Void,
                        });
                    }
                    if matches!(b.set, 'i' | 'b') {
                        // Integer and boolean registers feed static flow control.
                        return Ok(Value::Void);
                    }
                    return Err(self.err(
                        Code::TypeMismatch,
                        &b.loc,
                        format!("invalid register '{}{}' for '{}'", b.set, b.index, v.name),
                    ));
                }
                b.index as u16
            }
            // A lone sampler gets its register when first sampled, as fxc allocates only the
            // samplers the code reads, in the order it reads them (so a sampler used only as
            // a texture object's state takes none).
            None if set == RegisterSet::Sampler
                && v.ty.array.is_empty()
                && matches!(v.ty.kind, TypeKind::Object(_)) =>
            {
                PENDING_SAMPLER
            }
            None => self.alloc(set, count),
        };
        let default = match &v.init {
            Some(Init::Expr(_)) | Some(Init::List(..)) if set == RegisterSet::Float4 => {
                let init = v.init.as_ref().expect("matched");
                let raw = self.init_value(init, &v.ty, &v.loc)?;
                let val = self.convert(raw, &v.ty, &v.loc)?;
                self.default_words(&val, count)
            }
            _ => None,
        };
        let index = self.m.uniforms.len();
        if self.binding(v).is_some() {
            self.bound.insert(index);
        }
        self.m.uniforms.push(UniformDecl {
            name: v.name.clone(),
            set,
            register,
            count,
            ty: self.type_info(&v.ty),
            default,
            used: false,
        });
        self.uniform_index.insert(v.name.clone(), index);
        if register != PENDING_SAMPLER {
            self.registers.push((set, register, count, index));
        }
        let mut next = register;
        self.uniform_value(&v.ty, &mut next, &v.name)
    }

    fn default_words(&self, v: &Value, count: u16) -> Option<Vec<u32>> {
        let mut words = Vec::new();
        let mut push_op = |o: Operand, n: u8, words: &mut Vec<u32>| -> Option<()> {
            for i in 0..4 {
                let x = if i < n as usize {
                    self.m.literal_lane(o, i)?
                } else {
                    0.0
                };
                words.push(x.to_bits());
            }
            Some(())
        };
        type Visit<'v> = dyn FnMut(Operand, u8, &mut Vec<u32>) -> Option<()> + 'v;
        fn walk(v: &Value, f: &mut Visit<'_>, w: &mut Vec<u32>) -> Option<()> {
            match v {
                Value::Vector { o, n, .. } => f(*o, *n, w),
                Value::Matrix {
                    rows,
                    cols,
                    column_registers,
                    ..
                } => {
                    let (list, n) = if *column_registers {
                        (cols, rows.len())
                    } else {
                        (rows, cols.len())
                    };
                    for o in list {
                        f(*o, n as u8, w)?;
                    }
                    Some(())
                }
                Value::Struct(_, fs) | Value::Array(fs) => {
                    for x in fs {
                        walk(x, f, w)?;
                    }
                    Some(())
                }
                _ => None,
            }
        }
        walk(v, &mut push_op, &mut words)?;
        (words.len() == count as usize * 4).then_some(words)
    }

    fn type_info(&self, ty: &Type) -> TypeInfo {
        let elements = ty.array.iter().product::<u32>().max(1) as u16;
        let scalar_type = |s: Scalar| match s {
            Scalar::Bool => ParameterType::Bool,
            Scalar::Int | Scalar::Uint => ParameterType::Int,
            _ => ParameterType::Float,
        } as u16;
        let (class, t, rows, columns, members) = match &ty.kind {
            TypeKind::Scalar(s) => (ParameterClass::Scalar, scalar_type(*s), 1, 1, Vec::new()),
            TypeKind::Vector(s, n) => (
                ParameterClass::Vector,
                scalar_type(*s),
                1,
                *n as u16,
                Vec::new(),
            ),
            TypeKind::Matrix(s, r, c) => (
                if ty.row_major.unwrap_or(false) {
                    ParameterClass::MatrixRows
                } else {
                    ParameterClass::MatrixColumns
                },
                scalar_type(*s),
                *r as u16,
                *c as u16,
                Vec::new(),
            ),
            TypeKind::Object(k) => {
                let t = match k {
                    ObjectKind::Sampler => ParameterType::Sampler,
                    ObjectKind::Sampler1D => ParameterType::Sampler1D,
                    ObjectKind::Sampler2D => ParameterType::Sampler2D,
                    ObjectKind::Sampler3D => ParameterType::Sampler3D,
                    ObjectKind::SamplerCube => ParameterType::SamplerCube,
                    _ => ParameterType::Sampler2D,
                };
                (ParameterClass::Object, t as u16, 1, 1, Vec::new())
            }
            TypeKind::Struct(i) => {
                let s = &self.program.structs[*i];
                let members: Vec<dxso::ctab::StructMember> = s
                    .members
                    .iter()
                    .map(|m| dxso::ctab::StructMember {
                        name: m.name.as_str().into(),
                        ty: self.type_info(&m.ty),
                    })
                    .collect();
                let cols = members
                    .iter()
                    .map(|m| m.ty.rows * m.ty.columns * m.ty.elements)
                    .sum();
                (
                    ParameterClass::Struct,
                    ParameterType::Void as u16,
                    1,
                    cols,
                    members,
                )
            }
            _ => (
                ParameterClass::Scalar,
                ParameterType::Void as u16,
                1,
                1,
                Vec::new(),
            ),
        };
        TypeInfo {
            class_raw: class as u16,
            type_raw: t,
            rows,
            columns,
            elements,
            members,
        }
    }

    fn uniform_value(&mut self, ty: &Type, next: &mut u16, name: &str) -> R<Value> {
        if let Some((&n, rest)) = ty.array.split_first() {
            let inner = Type {
                kind: ty.kind.clone(),
                array: rest.to_vec(),
                row_major: ty.row_major,
            };
            let mut elems = Vec::with_capacity(n as usize);
            for _ in 0..n {
                elems.push(self.uniform_value(&inner, next, name)?);
            }
            return Ok(Value::Array(elems));
        }
        let reg = |l: &mut Self, next: &mut u16| {
            let r = *next;
            *next = next.saturating_add(1);
            Operand::of(l.m.push(Op::Uniform(r), 4))
        };
        Ok(match &ty.kind {
            TypeKind::Scalar(s) => Value::scalar(reg(self, next).lane(0), *s),
            TypeKind::Vector(s, n) => Value::vector(reg(self, next), *n, *s),
            TypeKind::Matrix(s, r, c) => {
                let row_major = ty.row_major.unwrap_or(false);
                let outer = if row_major { *r } else { *c };
                let regs: Vec<Operand> = (0..outer).map(|_| reg(self, next)).collect();
                self.matrix_from(regs, *r, *c, row_major, *s)
            }
            TypeKind::Object(k) => {
                let r = *next;
                *next = next.saturating_add(1);
                Value::Sampler(r, *k, name.to_string())
            }
            TypeKind::Struct(i) => {
                let members = self.program.structs[*i].members.clone();
                let mut fields = Vec::new();
                for mem in &members {
                    fields.push(self.uniform_value(&mem.ty, next, name)?);
                }
                Value::Struct(*i, fields)
            }
            _ => Value::Void,
        })
    }

    /// A matrix whose registers hold rows (`row_major`) or columns.
    fn matrix_from(
        &mut self,
        regs: Vec<Operand>,
        r: u8,
        c: u8,
        row_major: bool,
        ty: Scalar,
    ) -> Value {
        let (outer, inner) = if row_major { (r, c) } else { (c, r) };
        let _ = outer;
        let mut transposed = Vec::new();
        for i in 0..inner {
            let lanes: Vec<Operand> = regs.iter().map(|o| o.lane(i)).collect();
            transposed.push(self.m.compose(&lanes));
        }
        let (rows, cols) = if row_major {
            (regs, transposed)
        } else {
            (transposed, regs)
        };
        Value::Matrix {
            rows,
            cols,
            ty,
            column_registers: !row_major,
        }
    }

    fn mark_used(&mut self) {
        let mut live = vec![false; self.m.nodes.len()];
        let roots: Vec<_> = self
            .m
            .outputs
            .iter()
            .map(|o| o.value.h)
            .chain(self.m.kills.iter().map(|k| k.h))
            .collect();
        for r in roots {
            live[r.0 as usize] = true;
        }
        for l in &self.m.loops {
            live[l.begin.0 as usize] = true;
            live[l.end.0 as usize] = true;
            if let Some(e) = l.else_node {
                live[e.0 as usize] = true;
            }
        }
        let mut sampled = Vec::new();
        for i in (0..self.m.nodes.len()).rev() {
            if !live[i] {
                continue;
            }
            let node = self.m.nodes[i];
            for o in operands(&node.op) {
                live[o.0 as usize] = true;
            }
            match node.op {
                Op::LoopBegin(l) => {
                    for o in &self.m.loops[l as usize].inits {
                        live[o.h.0 as usize] = true;
                    }
                }
                Op::LoopEnd(l) => {
                    let lp = &self.m.loops[l as usize];
                    for o in lp.nexts.iter().map(|o| o.h).chain(lp.phis.iter().copied()) {
                        live[o.0 as usize] = true;
                    }
                }
                Op::LoopElse(l) => {
                    for o in &self.m.loops[l as usize].then_nexts {
                        live[o.h.0 as usize] = true;
                    }
                }
                Op::Uniform(r) | Op::UniformRel(r, _) => {
                    if let Some(&(_, _, _, u)) = self.registers.iter().find(|(s, start, n, _)| {
                        *s != RegisterSet::Sampler && r >= *start && r < start + n
                    }) {
                        self.m.uniforms[u].used = true;
                    }
                }
                Op::Sample(..) => sampled.push(crate::ir::Handle(i as u32)),
                _ => {}
            }
        }
        for h in sampled {
            if let Some(&u) = self
                .sample_owner
                .get(&h)
                .and_then(|n| self.uniform_index.get(n))
            {
                self.m.uniforms[u].used = true;
            }
        }
        self.allocate_constants();
    }

    // ---- entry point ----

    fn entry(&mut self, f: &'a Function) -> R<()> {
        let mut scope = HashMap::new();
        let mut outs = Vec::new();
        let mut args = self.entry_args.iter();
        for p in &f.params {
            if p.quals.uniform {
                if let Some(arg) = args.next() {
                    let v = self.expr(arg)?;
                    let v = self.convert(v, &p.ty, &arg.loc)?;
                    scope.insert(p.name.clone(), v);
                    continue;
                }
                let mut decl = p.clone();
                decl.name = format!("${}", p.name);
                let v = self.uniform(&decl)?;
                if let Some(&i) = self.uniform_index.get(&decl.name) {
                    self.uniform_index.insert(p.name.clone(), i);
                }
                scope.insert(p.name.clone(), v);
                continue;
            }
            if p.quals.input {
                let v = self.input_value(&p.ty, p.semantic.as_deref(), &p.loc)?;
                scope.insert(p.name.clone(), v);
            } else {
                let v = self.zero_value(&p.ty)?;
                scope.insert(p.name.clone(), v);
            }
            if p.quals.output {
                outs.push(p);
            }
        }
        if let Some(extra) = args.next() {
            return Err(self.err(
                Code::CannotConvert,
                &extra.loc,
                format!(
                    "'{}' takes {} uniform argument(s)",
                    f.name,
                    self.entry_args.len() - 1 - args.len()
                ),
            ));
        }
        let one = self.m.scalar(1.0);
        let zero = self.m.scalar(0.0);
        let _ = one;
        self.frames.push(Frame {
            scopes: vec![scope],
            ret: None,
            returned: zero,
        });
        self.call_stack.push(f.name.clone());
        self.block(f.body.as_deref().unwrap_or(&[]))?;
        let frame = self.frames.pop().expect("pushed above");
        if f.ret.kind != TypeKind::Void {
            let ret = match frame.ret {
                Some(r) => r,
                None => {
                    return Err(self.err(
                        Code::CannotConvert,
                        &f.loc,
                        format!("'{}': function must return a value", f.name),
                    ))
                }
            };
            self.output_value(&ret, &f.ret, f.ret_semantic.as_deref(), &f.loc)?;
        }
        for p in outs {
            let v = frame.scopes[0].get(&p.name).cloned().unwrap_or(Value::Void);
            self.output_value(&v, &p.ty, p.semantic.as_deref(), &p.loc)?;
        }
        if self.m.outputs.is_empty() && self.m.kills.is_empty() {
            return Err(self.err(
                Code::MissingSemantic,
                &f.loc,
                format!("'{}': the entry point writes no output", f.name),
            ));
        }
        Ok(())
    }

    fn semantic(&self, s: Option<&str>, loc: &Loc, output: bool) -> R<(DeclUsage, u8, Option<u8>)> {
        let s = s.ok_or_else(|| self.err(Code::MissingSemantic, loc, "missing semantic"))?;
        let digits = s.len() - s.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (name, idx) = s.split_at(s.len() - digits);
        let index: u8 = if idx.is_empty() {
            0
        } else {
            idx.parse().unwrap_or(255)
        };
        let name = name.strip_prefix("SV_").unwrap_or(name);
        let usage = match name {
            // `POSITION` (`SV_Position`) of a pixel shader is its screen position; ps_3_0
            // interpolates `POSITION1`-`POSITION15` as any other input.
            "POSITION"
                if self.pixel() && !output && (index == 0 || self.profile != Profile::Ps30) =>
            {
                return Ok((DeclUsage::Position, 0, Some(0)))
            }
            "VPOS" => return Ok((DeclUsage::Position, 0, Some(0))),
            "VFACE" | "ISFRONTFACE" => return Ok((DeclUsage::Position, 0, Some(1))),
            "POSITION" => DeclUsage::Position,
            "POSITIONT" => DeclUsage::PositionT,
            "COLOR" | "TARGET" => DeclUsage::Color,
            "DEPTH" => DeclUsage::Depth,
            "TEXCOORD" => DeclUsage::TexCoord,
            "NORMAL" => DeclUsage::Normal,
            "TANGENT" => DeclUsage::Tangent,
            "BINORMAL" => DeclUsage::Binormal,
            "BLENDWEIGHT" => DeclUsage::BlendWeight,
            "BLENDINDICES" => DeclUsage::BlendIndices,
            "PSIZE" => DeclUsage::PSize,
            "FOG" => DeclUsage::Fog,
            "TESSFACTOR" => DeclUsage::TessFactor,
            _ => {
                return Err(self.err(
                    Code::MissingSemantic,
                    loc,
                    format!(
                        "invalid {} semantic '{}'",
                        if output { "output" } else { "input" },
                        s
                    ),
                ))
            }
        };
        if index > 15 {
            return Err(self.err(
                Code::MissingSemantic,
                loc,
                format!("invalid semantic index in '{s}'"),
            ));
        }
        Ok((usage, index, None))
    }

    fn input_value(&mut self, ty: &Type, sem: Option<&str>, loc: &Loc) -> R<Value> {
        if let TypeKind::Struct(i) = ty.kind {
            if ty.array.is_empty() {
                let members = self.program.structs[i].members.clone();
                let mut fields = Vec::new();
                for mem in &members {
                    fields.push(self.input_value(&mem.ty, mem.semantic.as_deref(), &mem.loc)?);
                }
                return Ok(Value::Struct(i, fields));
            }
        }
        let (usage, index, misc) = self.semantic(sem, loc, false)?;
        if let Some(&n) = ty.array.first() {
            let inner = Type {
                kind: ty.kind.clone(),
                array: ty.array[1..].to_vec(),
                row_major: ty.row_major,
            };
            let mut elems = Vec::new();
            for k in 0..n {
                let sem = format!("{}{}", semantic_name(usage), index as u32 + k);
                elems.push(self.input_value(&inner, Some(&sem), loc)?);
            }
            return Ok(Value::Array(elems));
        }
        let width = match &ty.kind {
            TypeKind::Scalar(_) => 1,
            TypeKind::Vector(_, n) => *n,
            TypeKind::Matrix(..) => {
                return Err(self.err(
                    Code::Unsupported,
                    loc,
                    "matrix inputs are not supported yet",
                ))
            }
            _ => return Err(self.err(Code::MissingSemantic, loc, "invalid input type")),
        };
        let idx = match self
            .m
            .inputs
            .iter()
            .position(|d| d.usage == usage && d.index == index && d.misc == misc)
        {
            Some(i) => {
                let d = &mut self.m.inputs[i];
                d.width = d.width.max(width);
                i
            }
            None => {
                self.m.inputs.push(InputDecl {
                    usage,
                    index,
                    width,
                    misc,
                });
                self.m.inputs.len() - 1
            }
        };
        let o = Operand::of(self.m.push(Op::Input(idx as u16), 4));
        let s = base_scalar(&ty.kind);
        Ok(match ty.kind {
            TypeKind::Scalar(_) => Value::scalar(o.lane(0), s),
            _ => Value::vector(o, width, s),
        })
    }

    fn output_value(&mut self, v: &Value, ty: &Type, sem: Option<&str>, loc: &Loc) -> R<()> {
        match v {
            Value::Struct(i, fields) => {
                let members = self.program.structs[*i].members.clone();
                for (m, f) in members.iter().zip(fields) {
                    self.output_value(f, &m.ty, m.semantic.as_deref(), &m.loc)?;
                }
                Ok(())
            }
            Value::Array(elems) => {
                let (usage, index, _) = self.semantic(sem, loc, true)?;
                let inner = Type {
                    kind: ty.kind.clone(),
                    array: ty.array.get(1..).unwrap_or(&[]).to_vec(),
                    row_major: ty.row_major,
                };
                for (k, e) in elems.iter().enumerate() {
                    let s = format!("{}{}", semantic_name(usage), index as usize + k);
                    self.output_value(e, &inner, Some(&s), loc)?;
                }
                Ok(())
            }
            Value::Vector { o, n, .. } => {
                let (usage, index, _) = self.semantic(sem, loc, true)?;
                self.m.outputs.push(OutputDecl {
                    usage,
                    index,
                    value: *o,
                    width: *n,
                });
                Ok(())
            }
            _ => Err(self.err(Code::MissingSemantic, loc, "invalid output type")),
        }
    }

    // ---- statements ----

    fn mask(&mut self) -> Operand {
        let mut m = self.m.scalar(1.0);
        for c in self.cond.clone() {
            m = self.and(m, c);
        }
        let f = self.frames.last().expect("in a function").returned;
        let not_ret = self.not(f);
        m = self.and(m, not_ret);
        let exits: Vec<(Operand, Operand)> =
            self.loops.iter().map(|l| (l.broken, l.continued)).collect();
        for (b, c) in exits {
            let nb = self.not_op(b);
            m = self.and_op(m, nb);
            let nc = self.not_op(c);
            m = self.and_op(m, nc);
        }
        m
    }

    fn and_op(&mut self, a: Operand, b: Operand) -> Operand {
        self.and(a, b)
    }

    fn not_op(&mut self, a: Operand) -> Operand {
        self.not(a)
    }

    fn and(&mut self, a: Operand, b: Operand) -> Operand {
        if self.m.is_literal(a, 1, 1.0) {
            return b;
        }
        if self.m.is_literal(b, 1, 1.0) {
            return a;
        }
        // A mask and its complement: no lane (a loop whose body always leaves it).
        if self.is_not_of(a, b) || self.is_not_of(b, a) {
            return self.m.scalar(0.0);
        }
        self.m.op(Op::Mul(a, b), 1)
    }

    /// Whether mask `x` is `not(y)` (`1 - y`).
    fn is_not_of(&self, x: Operand, y: Operand) -> bool {
        if x.neg || x.abs {
            return false;
        }
        match self.m.node(x.h).op {
            Op::Add(p, q) => {
                p.h == y.h
                    && p.neg != y.neg
                    && !p.abs
                    && !y.abs
                    && p.swz[x.swz[0] as usize & 3] == y.swz[0]
                    && self.m.is_literal(q, 1, 1.0)
            }
            _ => false,
        }
    }

    fn or(&mut self, a: Operand, b: Operand, n: u8) -> Operand {
        if n == 1 && self.is_static_zero(a) {
            return b;
        }
        if n == 1 && self.is_static_zero(b) {
            return a;
        }
        self.m.op(Op::Max(a, b), n)
    }

    fn not(&mut self, a: Operand) -> Operand {
        let one = self.m.scalar(1.0);
        self.m.op(Op::Add(a.negate(), one), 1)
    }

    fn is_static_zero(&self, o: Operand) -> bool {
        self.m.is_literal(o, 1, 0.0)
    }

    fn block(&mut self, stmts: &[Stmt]) -> R<()> {
        self.frames
            .last_mut()
            .expect("frame")
            .scopes
            .push(HashMap::new());
        let r = stmts.iter().try_for_each(|s| self.stmt(s));
        self.frames.last_mut().expect("frame").scopes.pop();
        r
    }

    fn stmt(&mut self, s: &Stmt) -> R<()> {
        match s {
            Stmt::Empty => Ok(()),
            Stmt::Expr(e) => self.expr(e).map(|_| ()),
            Stmt::Block(b) => self.block(b),
            Stmt::Vars(vars) => {
                for v in vars {
                    let value = self.declared_value(v)?;
                    let frame = self.frames.last_mut().expect("frame");
                    let scope = frame.scopes.last_mut().expect("scope");
                    if scope.contains_key(&v.name) {
                        return Err(self.err(
                            Code::Redefinition,
                            &v.loc,
                            format!("redefinition of '{}'", v.name),
                        ));
                    }
                    scope.insert(v.name.clone(), value);
                }
                Ok(())
            }
            Stmt::If {
                cond,
                then,
                otherwise,
                ..
            } => {
                let c = self.expr(cond)?;
                if let Value::BoolRegister(reg, uniform) = c {
                    return self.static_if(reg, uniform, then, otherwise.as_deref(), &cond.loc);
                }
                let c = self.truth(&c, &cond.loc)?;
                self.cond.push(c);
                let r = self.stmt(then);
                self.cond.pop();
                r?;
                if let Some(o) = otherwise {
                    let nc = self.not(c);
                    self.cond.push(nc);
                    let r = self.stmt(o);
                    self.cond.pop();
                    r?;
                }
                Ok(())
            }
            Stmt::For {
                init,
                cond,
                step,
                body,
                loc,
                ..
            } => {
                self.frames
                    .last_mut()
                    .expect("frame")
                    .scopes
                    .push(HashMap::new());
                let r = (|| {
                    if let Some(i) = init {
                        self.stmt(i)?;
                    }
                    if self.rep_loop(cond.as_ref(), step.as_ref(), body, loc)? {
                        return Ok(());
                    }
                    self.unroll(cond.as_ref(), step.as_ref(), body, loc, false)
                })();
                self.frames.last_mut().expect("frame").scopes.pop();
                r
            }
            Stmt::While {
                cond, body, loc, ..
            } => self.unroll(Some(cond), None, body, loc, false),
            Stmt::DoWhile {
                body, cond, loc, ..
            } => self.unroll(Some(cond), None, body, loc, true),
            Stmt::Return(e, loc) => {
                let v = match e {
                    Some(e) => Some(self.expr(e)?),
                    None => None,
                };
                let m = self.mask();
                let f = self.call_stack.last().cloned().unwrap_or_default();
                let ret_ty = self.current_ret_type(&f);
                if let (Some(v), Some(ty)) = (v, ret_ty) {
                    let v = self.convert(v, &ty, loc)?;
                    let frame_ret = self.frames.last().expect("frame").ret.clone();
                    let new = match frame_ret {
                        Some(old) => self.select_value(m, &v, &old),
                        None => v,
                    };
                    self.frames.last_mut().expect("frame").ret = Some(new);
                }
                let ret = self.frames.last().expect("frame").returned;
                let r = self.or(ret, m, 1);
                self.frames.last_mut().expect("frame").returned = r;
                Ok(())
            }
            Stmt::Break(loc) | Stmt::Continue(loc) => {
                if self.loops.is_empty() {
                    return Err(self.err(Code::Syntax, loc, "break or continue outside a loop"));
                }
                let m = self.mask();
                let l = self.loops.last().expect("checked");
                let (b, c) = (l.broken, l.continued);
                if matches!(s, Stmt::Break(_)) {
                    let r = self.or(b, m, 1);
                    self.loops.last_mut().expect("checked").broken = r;
                } else {
                    let r = self.or(c, m, 1);
                    self.loops.last_mut().expect("checked").continued = r;
                }
                Ok(())
            }
            Stmt::Discard(loc) => {
                if !self.pixel() {
                    return Err(self.err(Code::Unsupported, loc, "discard is for pixel shaders"));
                }
                let m = self.mask();
                self.m.kills.push(m.negate());
                Ok(())
            }
        }
    }

    fn current_ret_type(&self, name: &str) -> Option<Type> {
        let f = self.functions.get(name)?.first()?;
        (f.ret.kind != TypeKind::Void).then(|| f.ret.clone())
    }

    fn unroll(
        &mut self,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
        loc: &Loc,
        do_while: bool,
    ) -> R<()> {
        let zero = self.m.scalar(0.0);
        self.loops.push(LoopState {
            broken: zero,
            continued: zero,
        });
        let mut first = true;
        // A counted loop runs a known number of times however its lanes leave it early.
        let trips = if do_while {
            None
        } else {
            self.static_trip_count(cond, step, body)
        };
        let result = (|| {
            for it in 0..=MAX_UNROLL {
                self.check_size(loc)?;
                if trips == Some(it) {
                    return Ok(());
                }
                if !(do_while && first) && trips.is_none() {
                    if let Some(c) = cond {
                        let v = self.expr(c)?;
                        let t = self.truth(&v, &c.loc)?;
                        let m = self.mask();
                        let active = self.and(m, t);
                        if self.is_static_zero(active) {
                            return Ok(());
                        }
                        // Lanes whose condition fails leave the loop.
                        let nt = self.not(t);
                        let stop = self.and(m, nt);
                        let b = self.loops.last().expect("pushed").broken;
                        let r = self.or(b, stop, 1);
                        self.loops.last_mut().expect("pushed").broken = r;
                    }
                }
                first = false;
                let m = self.mask();
                if self.is_static_zero(m) {
                    return Ok(());
                }
                self.stmt(body)?;
                self.loops.last_mut().expect("pushed").continued = zero;
                if let Some(s) = step {
                    self.expr(s)?;
                }
            }
            Err(self.err(Code::UnrollLimit, loc, format!("unable to unroll loop, loop does not appear to terminate in a timely manner ({MAX_UNROLL} iterations)")))
        })();
        self.loops.pop();
        result
    }

    /// The iterations of `for (...; i OP bound; i += step)` when `i` holds a literal, the
    /// bound is a literal, the step a literal increment and the body never writes `i`: the
    /// condition then holds for exactly that many iterations on every lane still running.
    fn static_trip_count(
        &self,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
    ) -> Option<usize> {
        let ExprKind::Binary(op, a, b) = &cond?.kind else {
            return None;
        };
        let ExprKind::Ident(counter) = &a.kind else {
            return None;
        };
        let literal = |e: &Expr| -> Option<f64> {
            match &e.kind {
                ExprKind::Int(v) => Some(*v as f64),
                ExprKind::Float(v) => Some(*v),
                ExprKind::Unary(UnOp::Neg, x) => match x.kind {
                    ExprKind::Int(v) => Some(-(v as f64)),
                    ExprKind::Float(v) => Some(-v),
                    _ => None,
                },
                _ => None,
            }
        };
        let bound = literal(b)?;
        let is_counter = |e: &Expr| matches!(&e.kind, ExprKind::Ident(n) if n == counter);
        let delta = match &step?.kind {
            ExprKind::Unary(UnOp::PostInc | UnOp::PreInc, x) if is_counter(x) => 1.0,
            ExprKind::Unary(UnOp::PostDec | UnOp::PreDec, x) if is_counter(x) => -1.0,
            ExprKind::Assign(Some(BinOp::Add), x, d) if is_counter(x) => literal(d)?,
            ExprKind::Assign(Some(BinOp::Sub), x, d) if is_counter(x) => -literal(d)?,
            _ => return None,
        };
        let Some(Value::Vector { o, n: 1, .. }) = self.local(counter) else {
            return None;
        };
        let mut v = self.m.literal_lane(o, 0)? as f64;
        let mut written = Vec::new();
        let writes_arguments = |f: &str| {
            matches!(f, "sincos" | "modf" | "frexp")
                || self
                    .functions
                    .get(f)
                    .is_some_and(|fs| fs.iter().any(|f| f.params.iter().any(|p| p.quals.output)))
        };
        rep::stmt_targets(body, &writes_arguments, &mut written);
        if written.iter().any(|w| w == counter) {
            return None;
        }
        let holds = |v: f64| match op {
            BinOp::Lt => v < bound,
            BinOp::Le => v <= bound,
            BinOp::Gt => v > bound,
            BinOp::Ge => v >= bound,
            BinOp::Ne => v != bound,
            _ => false,
        };
        let mut n = 0;
        while holds(v) {
            n += 1;
            if n > MAX_UNROLL {
                return None;
            }
            v += delta;
        }
        Some(n)
    }

    // ---- values ----

    fn zero_value(&mut self, ty: &Type) -> R<Value> {
        if let Some((&n, rest)) = ty.array.split_first() {
            let inner = Type {
                kind: ty.kind.clone(),
                array: rest.to_vec(),
                row_major: ty.row_major,
            };
            let mut elems = Vec::new();
            for _ in 0..n.min(4096) {
                elems.push(self.zero_value(&inner)?);
            }
            return Ok(Value::Array(elems));
        }
        let z = self.m.literal([0.0; 4], 4);
        Ok(match &ty.kind {
            TypeKind::Scalar(s) => Value::scalar(z.lane(0), *s),
            TypeKind::Vector(s, n) => Value::vector(z, *n, *s),
            TypeKind::Matrix(s, r, c) => Value::Matrix {
                rows: vec![z; *r as usize],
                cols: vec![z; *c as usize],
                ty: *s,
                column_registers: false,
            },
            TypeKind::Struct(i) => {
                let members = self.program.structs[*i].members.clone();
                let mut fields = Vec::new();
                for m in &members {
                    fields.push(self.zero_value(&m.ty)?);
                }
                Value::Struct(*i, fields)
            }
            TypeKind::Object(_) => Value::Void,
            _ => Value::Void,
        })
    }

    /// A declared variable's first value: its initialiser converted to its type (an
    /// implicit outermost array size taken from the initialiser), or zero.
    fn declared_value(&mut self, v: &VarDecl) -> R<Value> {
        let Some(init) = &v.init else {
            return self.zero_value(&v.ty);
        };
        if v.ty.array.first() != Some(&0) {
            let raw = self.init_value(init, &v.ty, &v.loc)?;
            return self.convert(raw, &v.ty, &v.loc);
        }
        let inner = Type {
            kind: v.ty.kind.clone(),
            array: v.ty.array[1..].to_vec(),
            row_major: v.ty.row_major,
        };
        let mut ty = v.ty.clone();
        let raw = match init {
            Init::List(items, loc) => {
                let mut scalars = Vec::new();
                for it in items {
                    let x = self.init_value(it, &inner, loc)?;
                    self.flatten(&x, &mut scalars, loc)?;
                }
                let zero = self.zero_value(&inner)?;
                let mut per = Vec::new();
                self.flatten(&zero, &mut per, loc)?;
                if per.is_empty() || scalars.is_empty() || scalars.len() % per.len() != 0 {
                    return Err(self.err(
                        Code::CannotConvert,
                        loc,
                        format!(
                            "implicit array size: {} values do not fill elements of {}",
                            scalars.len(),
                            per.len()
                        ),
                    ));
                }
                ty.array[0] = (scalars.len() / per.len()) as u32;
                let mut k = 0;
                self.rebuild(&ty, &scalars, &mut k, loc)?
            }
            Init::Expr(e) => {
                let x = self.expr(e)?;
                let Value::Array(elems) = &x else {
                    return Err(self.err(
                        Code::CannotConvert,
                        &e.loc,
                        "an implicitly sized array needs an array or a list initialiser",
                    ));
                };
                ty.array[0] = elems.len() as u32;
                x
            }
            Init::SamplerState | Init::Str(..) => {
                return Err(self.err(Code::CannotConvert, &v.loc, "invalid initialiser"))
            }
        };
        self.convert(raw, &ty, &v.loc)
    }

    fn init_value(&mut self, init: &Init, ty: &Type, loc: &Loc) -> R<Value> {
        match init {
            Init::Expr(e) => self.expr(e),
            Init::SamplerState => Ok(Value::Void),
            Init::Str(_, loc) => {
                Err(self.err(Code::CannotConvert, loc, "a string is no value in a shader"))
            }
            Init::List(items, loc) => {
                // Flatten to scalars, each converted to its lane's type, then rebuild.
                let mut typed = Vec::new();
                self.list_scalars(items, ty, loc, &mut typed)?;
                let zero = self.zero_value(ty)?;
                let mut to = Vec::new();
                self.flatten_typed(&zero, &mut to, loc)?;
                let scalars: Vec<Operand> = typed
                    .iter()
                    .enumerate()
                    .map(|(i, &(o, s))| match to.get(i) {
                        Some(&(_, t)) => self.cast_scalar(o, s, t, 1).lane(0),
                        None => o,
                    })
                    .collect();
                let mut k = 0;
                self.rebuild(ty, &scalars, &mut k, loc)
            }
        }
        .map_err(|e| {
            if e.loc.line == 0 {
                self.err(e.code, loc, e.message)
            } else {
                e
            }
        })
    }

    /// The scalars of a list initialiser in order; inner braces only group (`{{1, 2}, 3}`
    /// fills a struct of a float2 and a float as `{1, 2, 3}` does).
    fn list_scalars(
        &mut self,
        items: &[Init],
        ty: &Type,
        loc: &Loc,
        out: &mut Vec<(Operand, Scalar)>,
    ) -> R<()> {
        for it in items {
            if let Init::List(inner, inner_loc) = it {
                self.list_scalars(inner, ty, inner_loc, out)?;
            } else {
                let v = self.init_value(it, ty, loc)?;
                self.flatten_typed(&v, out, loc)?;
            }
            if out.len() > 1 << 16 {
                return Err(self.err(Code::Limit, loc, "initialiser too large"));
            }
        }
        Ok(())
    }

    fn flatten(&mut self, v: &Value, out: &mut Vec<Operand>, loc: &Loc) -> R<()> {
        match v {
            Value::Vector { o, n, .. } => {
                for i in 0..*n {
                    out.push(o.lane(i));
                }
            }
            Value::Matrix { rows, cols, .. } => {
                for r in rows {
                    for i in 0..cols.len() as u8 {
                        out.push(r.lane(i));
                    }
                }
            }
            Value::Struct(_, fs) | Value::Array(fs) => {
                for f in fs {
                    self.flatten(f, out, loc)?;
                }
            }
            _ => {
                return Err(self.err(
                    Code::CannotConvert,
                    loc,
                    "cannot use an object in a numeric initialiser",
                ))
            }
        }
        if out.len() > 1 << 16 {
            return Err(self.err(Code::Limit, loc, "initialiser too large"));
        }
        Ok(())
    }

    fn rebuild(&mut self, ty: &Type, s: &[Operand], k: &mut usize, loc: &Loc) -> R<Value> {
        let take = |k: &mut usize| -> R<Operand> {
            let o = s.get(*k).copied().ok_or_else(|| {
                Diagnostic::error(
                    Code::CannotConvert,
                    loc.clone(),
                    "too few values in the initialiser",
                )
            })?;
            *k += 1;
            Ok(o)
        };
        if let Some((&n, rest)) = ty.array.split_first() {
            let inner = Type {
                kind: ty.kind.clone(),
                array: rest.to_vec(),
                row_major: ty.row_major,
            };
            let mut elems = Vec::new();
            for _ in 0..n {
                elems.push(self.rebuild(&inner, s, k, loc)?);
            }
            return Ok(Value::Array(elems));
        }
        Ok(match &ty.kind {
            TypeKind::Scalar(t) => Value::scalar(take(k)?, *t),
            TypeKind::Vector(t, n) => {
                let lanes: Vec<Operand> = (0..*n).map(|_| take(k)).collect::<R<_>>()?;
                Value::vector(self.m.compose(&lanes), *n, *t)
            }
            TypeKind::Matrix(t, r, c) => {
                let mut rows = Vec::new();
                for _ in 0..*r {
                    let lanes: Vec<Operand> = (0..*c).map(|_| take(k)).collect::<R<_>>()?;
                    rows.push(self.m.compose(&lanes));
                }
                self.matrix_rows(rows, *c, *t)
            }
            TypeKind::Struct(i) => {
                let members = self.program.structs[*i].members.clone();
                let mut fields = Vec::new();
                for m in &members {
                    fields.push(self.rebuild(&m.ty, s, k, loc)?);
                }
                Value::Struct(*i, fields)
            }
            _ => {
                return Err(self.err(
                    Code::CannotConvert,
                    loc,
                    "cannot initialise this type from a list",
                ))
            }
        })
    }

    fn matrix_rows(&mut self, rows: Vec<Operand>, c: u8, ty: Scalar) -> Value {
        let mut cols = Vec::new();
        for j in 0..c {
            let lanes: Vec<Operand> = rows.iter().map(|r| r.lane(j)).collect();
            cols.push(self.m.compose(&lanes));
        }
        Value::Matrix {
            rows,
            cols,
            ty,
            column_registers: false,
        }
    }

    /// Converts `v` to `ty` as an assignment or initialisation does (X3206 on truncation).
    fn convert(&mut self, v: Value, ty: &Type, loc: &Loc) -> R<Value> {
        if !ty.array.is_empty()
            || matches!(
                ty.kind,
                TypeKind::Struct(_) | TypeKind::Object(_) | TypeKind::Void | TypeKind::String
            )
        {
            return Ok(v);
        }
        let target = ty.kind.clone();
        match (&v, &target) {
            (Value::Vector { o, n, ty: from, .. }, TypeKind::Scalar(s)) => {
                if *n > 1 {
                    self.truncation(loc);
                }
                let o = self.cast_scalar(*o, *from, *s, 1);
                Ok(Value::scalar(o.lane(0), *s))
            }
            (
                Value::Vector {
                    o,
                    n,
                    ty: from,
                    scalar_form,
                },
                TypeKind::Vector(s, m),
            ) => {
                let o = self.cast_scalar(*o, *from, *s, *m);
                if *n == 1 || *scalar_form {
                    Ok(Value::vector(o.lane(0), *m, *s))
                } else if n < m {
                    Err(self.err(
                        Code::CannotConvert,
                        loc,
                        format!("cannot implicitly convert from 'float{n}' to 'float{m}'"),
                    ))
                } else {
                    if n > m {
                        self.truncation(loc);
                    }
                    Ok(Value::vector(o, *m, *s))
                }
            }
            (Value::Vector { o, n: 1, .. }, TypeKind::Matrix(s, r, c)) => {
                let rows = vec![o.lane(0); *r as usize];
                Ok(self.matrix_rows(rows, *c, *s))
            }
            (
                Value::Matrix {
                    rows,
                    cols,
                    column_registers,
                    ..
                },
                TypeKind::Matrix(s, r, c),
            ) => {
                let (r0, c0) = (rows.len() as u8, cols.len() as u8);
                if r0 < *r || c0 < *c {
                    return Err(self.err(
                        Code::CannotConvert,
                        loc,
                        "cannot implicitly convert to a larger matrix",
                    ));
                }
                if r0 > *r || c0 > *c {
                    self.truncation(loc);
                }
                // The leading rows and columns, each read where it is (a `(float3x3)` cast of
                // a uniform matrix keeps reading its column registers, not gathered copies).
                Ok(Value::Matrix {
                    rows: rows[..*r as usize].to_vec(),
                    cols: cols[..*c as usize].to_vec(),
                    ty: *s,
                    column_registers: *column_registers,
                })
            }
            (
                Value::Matrix {
                    rows,
                    cols,
                    ty: from,
                    ..
                },
                TypeKind::Vector(s, m),
            ) if rows.len() == 1 || cols.len() == 1 => {
                let o = if rows.len() == 1 { rows[0] } else { cols[0] };
                let _ = from;
                Ok(Value::vector(o, *m, *s))
            }
            // A matrix and a vector of as many components convert both ways, row by row.
            (Value::Matrix { rows, cols, .. }, TypeKind::Vector(s, m))
                if rows.len() * cols.len() >= usize::from(*m) =>
            {
                let c = cols.len() as u8;
                let lanes: Vec<Operand> = (0..*m)
                    .map(|i| rows[usize::from(i / c)].lane(i % c))
                    .collect();
                if rows.len() * cols.len() > usize::from(*m) {
                    self.truncation(loc);
                }
                let o = self.m.compose(&lanes);
                Ok(Value::vector(o, *m, *s))
            }
            (Value::Vector { o, n, .. }, TypeKind::Matrix(s, r, c)) if *n >= r * c => {
                if *n > r * c {
                    self.truncation(loc);
                }
                let rows: Vec<Operand> = (0..*r)
                    .map(|i| {
                        let lanes: Vec<Operand> = (0..*c).map(|j| o.lane(i * c + j)).collect();
                        self.m.compose(&lanes)
                    })
                    .collect();
                Ok(self.matrix_rows(rows, *c, *s))
            }
            _ => Err(self.err(
                Code::CannotConvert,
                loc,
                "cannot implicitly convert between these types",
            )),
        }
    }

    fn truncation(&mut self, loc: &Loc) {
        self.warnings.push(Diagnostic::warning(
            Code::ImplicitTruncation,
            loc.clone(),
            "implicit truncation of vector type",
        ));
    }

    /// Converts lanes between scalar types: float to int truncates toward zero, to bool tests
    /// for non-zero.
    fn cast_scalar(&mut self, o: Operand, from: Scalar, to: Scalar, n: u8) -> Operand {
        match (is_floaty(from), to) {
            (true, Scalar::Int | Scalar::Uint) => self.trunc(o, n),
            (_, Scalar::Bool) if from != Scalar::Bool => {
                let z = self.m.scalar(0.0);
                self.compare(BinOp::Ne, o, z, n)
            }
            _ => o,
        }
    }

    fn floor(&mut self, o: Operand, n: u8) -> Operand {
        let f = self.m.op(Op::Frc(o), n);
        self.m.op(Op::Add(o, f.negate()), n)
    }

    fn trunc(&mut self, o: Operand, n: u8) -> Operand {
        let fl = self.floor(o, n);
        let neg = self.floor(o.negate(), n);
        self.select_lanes(o, fl, neg.negate(), n)
    }

    /// `c >= 0 ? a : b` lane-wise.
    fn select_lanes(&mut self, c: Operand, a: Operand, b: Operand, n: u8) -> Operand {
        if self.pixel() {
            self.m.op(Op::Cmp(c, a, b), n)
        } else {
            let z = self.m.scalar(0.0);
            let ge = self.m.op(Op::Sge(c, z), n);
            self.m.op(Op::Lrp(ge, a, b), n)
        }
    }

    /// `m ? a : b` where `m` is a 0/1 mask.
    fn select(&mut self, m: Operand, a: Operand, b: Operand, n: u8) -> Operand {
        if a == b || self.m.is_literal(m, 1, 1.0) {
            return a;
        }
        if self.is_static_zero(m) {
            return b;
        }
        if self.pixel() {
            self.m.op(Op::Cmp(m.negate(), b, a), n)
        } else {
            self.m.op(Op::Lrp(m, a, b), n)
        }
    }

    fn select_value(&mut self, m: Operand, a: &Value, b: &Value) -> Value {
        match (a, b) {
            (
                Value::Vector {
                    o,
                    n,
                    ty,
                    scalar_form,
                },
                Value::Vector { o: ob, .. },
            ) => Value::Vector {
                o: self.select(m, *o, *ob, *n),
                n: *n,
                ty: *ty,
                scalar_form: *scalar_form,
            },
            (Value::Matrix { rows, cols, ty, .. }, Value::Matrix { rows: rb, .. }) => {
                let c = cols.len() as u8;
                let rows: Vec<Operand> = rows
                    .iter()
                    .zip(rb)
                    .map(|(x, y)| self.select(m, *x, *y, c))
                    .collect();
                self.matrix_rows(rows, c, *ty)
            }
            (Value::Struct(i, fa), Value::Struct(_, fb)) => Value::Struct(
                *i,
                fa.iter()
                    .zip(fb)
                    .map(|(x, y)| self.select_value(m, x, y))
                    .collect(),
            ),
            (Value::Array(fa), Value::Array(fb)) => Value::Array(
                fa.iter()
                    .zip(fb)
                    .map(|(x, y)| self.select_value(m, x, y))
                    .collect(),
            ),
            _ => a.clone(),
        }
    }

    /// `cond ? a : b` with a matrix condition or matrix operands: one condition component
    /// selects the whole value; more select component by component, the result taking the
    /// operands' type (the condition's components in order).
    fn matrix_ternary(&mut self, cond: &Value, a: &Value, b: &Value, loc: &Loc) -> R<Value> {
        let mut cs = Vec::new();
        self.flatten_typed(cond, &mut cs, loc)?;
        let z = self.m.scalar(0.0);
        if cs.len() == 1 {
            let (o, t) = cs[0];
            let m = if t == Scalar::Bool {
                o
            } else {
                self.compare(BinOp::Ne, o, z, 1)
            };
            return Ok(self.select_value(m, a, b));
        }
        // Vector operands need a condition of one row.
        let tall = matches!(cond, Value::Matrix { rows, .. } if rows.len() > 1);
        let wide_vector = |v: &Value| matches!(v, Value::Vector { n, .. } if *n > 1);
        if tall && (wide_vector(a) || wide_vector(b)) {
            return Err(self.err(Code::TypeMismatch, loc, "type mismatch"));
        }
        let (mut xa, mut xb) = (Vec::new(), Vec::new());
        self.flatten_typed(a, &mut xa, loc)?;
        self.flatten_typed(b, &mut xb, loc)?;
        // One-component operands take the condition's shape.
        let shape = if xa.len() == 1 && xb.len() == 1 {
            xa = vec![xa[0]; cs.len()];
            xb = vec![xb[0]; cs.len()];
            cond
        } else {
            a
        };
        let ty = xa[0].1;
        let result = match shape {
            Value::Matrix { rows, cols, .. } => {
                Type::of(TypeKind::Matrix(ty, rows.len() as u8, cols.len() as u8))
            }
            Value::Vector { n, .. } => Type::of(TypeKind::Vector(ty, *n)),
            _ => return Err(self.err(Code::TypeMismatch, loc, "type mismatch")),
        };
        if cs.len() != xa.len() || xb.len() != xa.len() {
            return Err(self.err(Code::TypeMismatch, loc, "type mismatch"));
        }
        let mut lanes = Vec::with_capacity(cs.len());
        for (k, &(o, t)) in cs.iter().enumerate() {
            let m = if t == Scalar::Bool {
                o
            } else {
                self.compare(BinOp::Ne, o, z, 1)
            };
            lanes.push(self.select(m, xa[k].0, xb[k].0, 1).lane(0));
        }
        let mut k = 0;
        self.rebuild(&result, &lanes, &mut k, loc)
    }

    fn truth(&mut self, v: &Value, loc: &Loc) -> R<Operand> {
        match v {
            Value::Vector {
                o,
                ty: Scalar::Bool,
                ..
            } => Ok(o.lane(0)),
            Value::Vector { o, .. } => {
                let z = self.m.scalar(0.0);
                Ok(self.compare(BinOp::Ne, o.lane(0), z, 1))
            }
            _ => Err(self.err(Code::CannotConvert, loc, "cannot convert to bool")),
        }
    }

    /// A lane-wise comparison giving 0 or 1.
    fn compare(&mut self, op: BinOp, a: Operand, b: Operand, n: u8) -> Operand {
        let one = self.m.scalar(1.0);
        let zero = self.m.scalar(0.0);
        if self.pixel() {
            let d = self.m.op(Op::Add(a, b.negate()), n);
            match op {
                BinOp::Lt => self.m.op(Op::Cmp(d, zero, one), n),
                BinOp::Ge => self.m.op(Op::Cmp(d, one, zero), n),
                BinOp::Gt => self.m.op(Op::Cmp(d.negate(), zero, one), n),
                BinOp::Le => self.m.op(Op::Cmp(d.negate(), one, zero), n),
                BinOp::Eq | BinOp::Ne => {
                    let sq = self.m.op(Op::Mul(d, d), n);
                    let (t, f) = if op == BinOp::Eq {
                        (one, zero)
                    } else {
                        (zero, one)
                    };
                    self.m.op(Op::Cmp(sq.negate(), t, f), n)
                }
                _ => unreachable!("comparison operators only"),
            }
        } else {
            match op {
                BinOp::Lt => self.m.op(Op::Slt(a, b), n),
                BinOp::Ge => self.m.op(Op::Sge(a, b), n),
                BinOp::Gt => self.m.op(Op::Slt(b, a), n),
                BinOp::Le => self.m.op(Op::Sge(b, a), n),
                BinOp::Eq | BinOp::Ne => {
                    let lt = self.m.op(Op::Slt(a, b), n);
                    let gt = self.m.op(Op::Slt(b, a), n);
                    let ne = self.m.op(Op::Max(lt, gt), n);
                    if op == BinOp::Ne {
                        ne
                    } else {
                        self.m.op(Op::Add(ne.negate(), one), n)
                    }
                }
                _ => unreachable!("comparison operators only"),
            }
        }
    }

    fn lookup(&self, name: &str) -> Option<Value> {
        if let Some(f) = self.frames.last() {
            for s in f.scopes.iter().rev() {
                if let Some(v) = s.get(name) {
                    return Some(v.clone());
                }
            }
        }
        self.globals.get(name).cloned()
    }

    fn expr(&mut self, e: &Expr) -> R<Value> {
        self.check_size(&e.loc)?;
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return Err(self.err(
                Code::Limit,
                &e.loc,
                "the shader takes more than 512K expression evaluations to inline and unroll",
            ));
        }
        match &e.kind {
            ExprKind::Int(v) => Ok(Value::scalar(self.m.scalar(*v as f32), Scalar::Int)),
            ExprKind::Float(v) => Ok(Value::scalar(self.m.scalar(*v as f32), Scalar::Float)),
            ExprKind::Bool(b) => Ok(Value::scalar(self.m.scalar(*b as u8 as f32), Scalar::Bool)),
            ExprKind::Ident(name) => self.lookup(name).ok_or_else(|| {
                self.err(
                    Code::Undeclared,
                    &e.loc,
                    format!("undeclared identifier '{name}'"),
                )
            }),
            ExprKind::Unary(op, x) => self.unary(*op, x, &e.loc),
            ExprKind::Binary(BinOp::Comma, a, b) => {
                self.expr(a)?;
                self.expr(b)
            }
            ExprKind::Binary(op, a, b) => {
                let va = self.expr(a)?;
                let vb = self.expr(b)?;
                self.binary(*op, va, vb, &e.loc)
            }
            ExprKind::Assign(op, target, value) => {
                let mut v = self.expr(value)?;
                if let Some(op) = op {
                    let old = self.expr(target)?;
                    v = self.binary(*op, old, v, &e.loc)?;
                }
                self.assign(target, v)
            }
            ExprKind::Ternary(c, a, b) => {
                let cv = self.expr(c)?;
                let va = self.expr(a)?;
                let vb = self.expr(b)?;
                let (va, vb) = self.unify(va, vb, &e.loc)?;
                if matches!(cv, Value::Matrix { .. }) || matches!(va, Value::Matrix { .. }) {
                    return self.matrix_ternary(&cv, &va, &vb, &e.loc);
                }
                match (&cv, &va, &vb) {
                    (
                        Value::Vector {
                            o: co,
                            n: cn,
                            ty: cty,
                            ..
                        },
                        Value::Vector {
                            o: ao,
                            n,
                            ty,
                            scalar_form,
                        },
                        Value::Vector { o: bo, .. },
                    ) => {
                        let m = if *cty == Scalar::Bool {
                            *co
                        } else {
                            let z = self.m.scalar(0.0);
                            self.compare(BinOp::Ne, *co, z, *cn)
                        };
                        let m = if *cn == 1 { m.lane(0) } else { m };
                        let r = if *cn == 1 {
                            self.select(m, *ao, *bo, *n)
                        } else if self.pixel() {
                            self.m.op(Op::Cmp(m.negate(), *bo, *ao), *n)
                        } else {
                            self.m.op(Op::Lrp(m, *ao, *bo), *n)
                        };
                        Ok(Value::Vector {
                            o: r,
                            n: *n,
                            ty: *ty,
                            scalar_form: *scalar_form,
                        })
                    }
                    _ => {
                        let t = self.truth(&cv, &c.loc)?;
                        Ok(self.select_value(t, &va, &vb))
                    }
                }
            }
            ExprKind::Call(name, args) => self.call(name, args, &e.loc),
            ExprKind::Construct(ty, args) => self.construct(ty, args, &e.loc),
            ExprKind::Cast(ty, x) => {
                let v = self.expr(x)?;
                self.cast(v, ty, &e.loc)
            }
            ExprKind::Member(x, name) => {
                let v = self.expr(x)?;
                self.member(v, name, &e.loc)
            }
            ExprKind::Index(x, i) => {
                let v = self.expr(x)?;
                let iv = self.expr(i)?;
                self.index(v, &iv, &e.loc)
            }
            ExprKind::Method(obj, name, args) => self.method(obj, name, args, &e.loc),
        }
    }

    fn const_index(&self, iv: &Value, loc: &Loc) -> R<usize> {
        match iv {
            Value::Vector { o, .. } => match self.m.literal_lane(*o, 0) {
                Some(x) if (0.0..65536.0).contains(&x) => Ok(x as usize),
                Some(_) => Err(self.err(Code::InvalidSubscript, loc, "array index out of bounds")),
                None => Err(self.err(
                    Code::Unsupported,
                    loc,
                    "dynamic indexing (relative addressing) is not supported yet",
                )),
            },
            _ => Err(self.err(Code::InvalidSubscript, loc, "invalid subscript")),
        }
    }

    fn index(&mut self, v: Value, iv: &Value, loc: &Loc) -> R<Value> {
        let k = match self.const_index(iv, loc) {
            Ok(k) => k,
            Err(e) if e.code == Code::Unsupported => {
                let Value::Vector { o: index, .. } = iv else {
                    return Err(e);
                };
                // A vector's lanes and a matrix's rows are selected by comparisons.
                return match &v {
                    Value::Array(elems) => self.relative_index(elems, iv, loc),
                    Value::Vector { o, n, ty, .. } if *n > 1 => {
                        let lanes: Vec<Value> =
                            (0..*n).map(|i| Value::scalar(o.lane(i), *ty)).collect();
                        self.select_index(&lanes, index.lane(0), loc)
                    }
                    Value::Matrix { rows, cols, ty, .. } => {
                        let rows: Vec<Value> = rows
                            .iter()
                            .map(|r| Value::vector(*r, cols.len() as u8, *ty))
                            .collect();
                        self.select_index(&rows, index.lane(0), loc)
                    }
                    _ => Err(e),
                };
            }
            Err(e) => return Err(e),
        };
        let oob = || {
            Diagnostic::error(
                Code::InvalidSubscript,
                loc.clone(),
                "array index out of bounds",
            )
        };
        match v {
            Value::Array(elems) => elems.get(k).cloned().ok_or_else(oob),
            Value::Vector { o, n, ty, .. } if k < n as usize => {
                Ok(Value::scalar(o.lane(k as u8), ty))
            }
            Value::Matrix { rows, cols, ty, .. } if k < rows.len() => {
                Ok(Value::vector(rows[k], cols.len() as u8, ty))
            }
            _ => Err(oob()),
        }
    }

    fn member(&mut self, v: Value, name: &str, loc: &Loc) -> R<Value> {
        match v {
            Value::Struct(i, fields) => {
                let s = &self.program.structs[i];
                let k = s
                    .members
                    .iter()
                    .position(|m| m.name == name)
                    .ok_or_else(|| {
                        self.err(
                            Code::InvalidSubscript,
                            loc,
                            format!("invalid subscript '{name}'"),
                        )
                    })?;
                Ok(fields[k].clone())
            }
            Value::Vector {
                o,
                n,
                ty,
                scalar_form,
            } => {
                let sw = swizzle(name, if scalar_form { 1 } else { n }).ok_or_else(|| {
                    self.err(
                        Code::InvalidSubscript,
                        loc,
                        format!("invalid subscript '{name}'"),
                    )
                })?;
                let len = sw.len() as u8;
                let mut s = [sw[len as usize - 1]; 4];
                s[..sw.len()].copy_from_slice(&sw);
                let o = o.swizzle(s);
                Ok(if len == 1 {
                    Value::scalar(o, ty)
                } else {
                    Value::vector(o, len, ty)
                })
            }
            Value::Matrix { rows, ty, .. } => {
                // `_m00`, `_11` forms.
                let lanes = matrix_swizzle(name).ok_or_else(|| {
                    self.err(
                        Code::InvalidSubscript,
                        loc,
                        format!("invalid subscript '{name}'"),
                    )
                })?;
                let mut ops = Vec::new();
                for (r, c) in lanes {
                    let row = rows.get(r as usize).ok_or_else(|| {
                        self.err(Code::InvalidSubscript, loc, "matrix subscript out of range")
                    })?;
                    ops.push(row.lane(c));
                }
                let n = ops.len() as u8;
                let o = self.m.compose(&ops);
                Ok(if n == 1 {
                    Value::scalar(o, ty)
                } else {
                    Value::vector(o, n, ty)
                })
            }
            _ => Err(self.err(
                Code::InvalidSubscript,
                loc,
                format!("invalid subscript '{name}'"),
            )),
        }
    }

    fn assign(&mut self, target: &Expr, v: Value) -> R<Value> {
        // `(T) x = v`, shader model 1-3's cast on the left: `v` converted to `T` is written to
        // the first lanes `T` has (all of them when `T` is as wide as `x`).
        if let ExprKind::Cast(ty, inner) = &target.kind {
            let lanes = match ty.kind {
                TypeKind::Scalar(_) if ty.array.is_empty() => Some(1),
                TypeKind::Vector(_, n) if ty.array.is_empty() => Some(n),
                _ => None,
            };
            let converted = self.convert(v.clone(), ty, &target.loc)?;
            let width = match self.lvalue_width(inner) {
                Some(w) => w,
                None => return self.assign(inner, converted).map(|_| v),
            };
            match lanes {
                Some(k) if k < width => {
                    let swz: String = "xyzw"[..k as usize].to_string();
                    let part = Expr {
                        kind: ExprKind::Member(inner.clone(), swz),
                        loc: target.loc.clone(),
                    };
                    self.assign(&part, converted)?;
                }
                _ => {
                    self.assign(inner, converted)?;
                }
            }
            return Ok(v);
        }
        // The path from a variable to the place written.
        enum Step {
            Field(String),
            Index(usize),
            Swizzle(String),
        }
        let mut steps = Vec::new();
        let mut t = target;
        let root = loop {
            match &t.kind {
                ExprKind::Ident(name) => break name.clone(),
                ExprKind::Member(x, name) => {
                    steps.push(Step::Field(name.clone()));
                    t = x;
                }
                ExprKind::Index(x, i) => {
                    let iv = self.expr(i)?;
                    steps.push(Step::Index(self.const_index(&iv, &i.loc)?));
                    t = x;
                }
                _ => {
                    return Err(self.err(
                        Code::NotLValue,
                        &target.loc,
                        "l-value specifies const object",
                    ))
                }
            }
        };
        let _ = Step::Swizzle(String::new());
        steps.reverse();
        let old = self.lookup(&root).ok_or_else(|| {
            self.err(
                Code::Undeclared,
                &target.loc,
                format!("undeclared identifier '{root}'"),
            )
        })?;
        if self
            .frames
            .last()
            .map_or(true, |f| !f.scopes.iter().any(|s| s.contains_key(&root)))
        {
            return Err(self.err(Code::NotLValue, &target.loc, format!("'{root}': global variables are implicitly constant, add 'static' to modify them")));
        }
        let new = self.update(&old, &steps_ref(&steps), v.clone(), &target.loc)?;
        let m = self.mask();
        let merged = self.select_value(m, &new, &old);
        let frame = self.frames.last_mut().expect("frame");
        for s in frame.scopes.iter_mut().rev() {
            if let Some(slot) = s.get_mut(&root) {
                *slot = merged;
                break;
            }
        }
        return Ok(v);

        fn steps_ref(steps: &[Step]) -> Vec<PathStep<'_>> {
            steps
                .iter()
                .map(|s| match s {
                    Step::Field(n) | Step::Swizzle(n) => PathStep::Name(n),
                    Step::Index(i) => PathStep::Index(*i),
                })
                .collect()
        }
    }

    /// The lane count of a vector or scalar l-value, read without side effects (`None` for
    /// anything else).
    fn lvalue_width(&mut self, e: &Expr) -> Option<u8> {
        if let ExprKind::Ident(name) = &e.kind {
            if let Some(Value::Vector { n, .. }) = self.lookup(name) {
                return Some(n);
            }
        }
        None
    }

    fn update(&mut self, old: &Value, path: &[PathStep<'_>], v: Value, loc: &Loc) -> R<Value> {
        let Some((first, rest)) = path.split_first() else {
            return self.convert_like(v, old, loc);
        };
        match (old, first) {
            (Value::Struct(i, fields), PathStep::Name(name)) => {
                let k = self.program.structs[*i]
                    .members
                    .iter()
                    .position(|m| m.name == *name)
                    .ok_or_else(|| {
                        self.err(
                            Code::InvalidSubscript,
                            loc,
                            format!("invalid subscript '{name}'"),
                        )
                    })?;
                let mut fields = fields.clone();
                fields[k] = self.update(&fields[k], rest, v, loc)?;
                Ok(Value::Struct(*i, fields))
            }
            (Value::Array(elems), PathStep::Index(k)) => {
                let mut elems = elems.clone();
                let slot = elems.get(*k).cloned().ok_or_else(|| {
                    self.err(Code::InvalidSubscript, loc, "array index out of bounds")
                })?;
                elems[*k] = self.update(&slot, rest, v, loc)?;
                Ok(Value::Array(elems))
            }
            // `v.wyz.yx = ...`: the inner swizzle updates the lanes the outer one selects.
            (
                Value::Vector {
                    o,
                    n,
                    ty,
                    scalar_form,
                },
                PathStep::Name(name),
            ) if !rest.is_empty() => {
                let sw = swizzle(name, if *scalar_form { 1 } else { *n }).ok_or_else(|| {
                    self.err(
                        Code::InvalidSubscript,
                        loc,
                        format!("invalid subscript '{name}'"),
                    )
                })?;
                let picked: Vec<Operand> = sw.iter().map(|&l| o.lane(l)).collect();
                let sub = Value::Vector {
                    o: self.m.compose(&picked),
                    n: sw.len() as u8,
                    ty: *ty,
                    scalar_form: sw.len() == 1,
                };
                let Value::Vector { o: so, .. } = self.update(&sub, rest, v, loc)? else {
                    return Err(self.err(Code::NotLValue, loc, "l-value specifies const object"));
                };
                let mut lanes: Vec<Operand> = (0..*n).map(|i| o.lane(i)).collect();
                for (k, &lane) in sw.iter().enumerate() {
                    lanes[lane as usize] = so.lane(k as u8);
                }
                Ok(Value::Vector {
                    o: self.m.compose(&lanes),
                    n: *n,
                    ty: *ty,
                    scalar_form: *scalar_form,
                })
            }
            (
                Value::Vector {
                    o,
                    n,
                    ty,
                    scalar_form,
                },
                PathStep::Name(name),
            ) if rest.is_empty() => {
                let sw = swizzle(name, if *scalar_form { 1 } else { *n }).ok_or_else(|| {
                    self.err(
                        Code::InvalidSubscript,
                        loc,
                        format!("invalid subscript '{name}'"),
                    )
                })?;
                let target = Type::of(if sw.len() == 1 {
                    TypeKind::Scalar(*ty)
                } else {
                    TypeKind::Vector(*ty, sw.len() as u8)
                });
                let v = self.convert(v, &target, loc)?;
                let Value::Vector { o: vo, .. } = v else {
                    unreachable!("converted to a vector")
                };
                let mut lanes: Vec<Operand> = (0..*n).map(|i| o.lane(i)).collect();
                for (k, &lane) in sw.iter().enumerate() {
                    lanes[lane as usize] = vo.lane(k as u8);
                }
                Ok(Value::Vector {
                    o: self.m.compose(&lanes),
                    n: *n,
                    ty: *ty,
                    scalar_form: *scalar_form,
                })
            }
            (
                Value::Vector {
                    o,
                    n,
                    ty,
                    scalar_form,
                },
                PathStep::Index(k),
            ) if rest.is_empty() && *k < *n as usize => {
                let v = self.convert(v, &Type::of(TypeKind::Scalar(*ty)), loc)?;
                let Value::Vector { o: vo, .. } = v else {
                    unreachable!("converted to a scalar")
                };
                let mut lanes: Vec<Operand> = (0..*n).map(|i| o.lane(i)).collect();
                lanes[*k] = vo.lane(0);
                Ok(Value::Vector {
                    o: self.m.compose(&lanes),
                    n: *n,
                    ty: *ty,
                    scalar_form: *scalar_form,
                })
            }
            (Value::Matrix { rows, cols, ty, .. }, PathStep::Index(k)) if *k < rows.len() => {
                let c = cols.len() as u8;
                let row = Value::vector(rows[*k], c, *ty);
                let new = self.update(&row, rest, v, loc)?;
                let Value::Vector { o, .. } =
                    self.convert(new, &Type::of(TypeKind::Vector(*ty, c)), loc)?
                else {
                    unreachable!("a vector")
                };
                let mut rows = rows.clone();
                rows[*k] = o;
                Ok(self.matrix_rows(rows, c, *ty))
            }
            _ => Err(self.err(
                Code::Unsupported,
                loc,
                "this assignment target is not supported yet",
            )),
        }
    }

    fn convert_like(&mut self, v: Value, like: &Value, loc: &Loc) -> R<Value> {
        let ty = match like {
            Value::Vector {
                n,
                ty,
                scalar_form: true,
                ..
            } if *n == 1 => Type::of(TypeKind::Scalar(*ty)),
            Value::Vector { n, ty, .. } => Type::of(TypeKind::Vector(*ty, *n)),
            Value::Matrix { rows, cols, ty, .. } => {
                Type::of(TypeKind::Matrix(*ty, rows.len() as u8, cols.len() as u8))
            }
            _ => return Ok(v),
        };
        self.convert(v, &ty, loc)
    }

    fn unary(&mut self, op: UnOp, x: &Expr, loc: &Loc) -> R<Value> {
        match op {
            UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec => {
                let old = self.expr(x)?;
                let one = Value::scalar(self.m.scalar(1.0), Scalar::Int);
                let bop = if matches!(op, UnOp::PreInc | UnOp::PostInc) {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
                let new = self.binary(bop, old.clone(), one, loc)?;
                self.assign(x, new.clone())?;
                Ok(if matches!(op, UnOp::PreInc | UnOp::PreDec) {
                    new
                } else {
                    old
                })
            }
            UnOp::Plus => self.expr(x),
            UnOp::Neg => {
                let v = self.expr(x)?;
                self.map_value(v, loc, |_, o, _| o.negate())
            }
            UnOp::Not => {
                let v = self.expr(x)?;
                match v {
                    Value::Vector { o, n, ty, .. } => {
                        let b = self.cast_scalar(o, ty, Scalar::Bool, n);
                        let one = self.m.scalar(1.0);
                        let r = self.m.op(Op::Add(b.negate(), one), n);
                        Ok(if n == 1 {
                            Value::scalar(r, Scalar::Bool)
                        } else {
                            Value::vector(r, n, Scalar::Bool)
                        })
                    }
                    _ => Err(self.err(Code::TypeMismatch, loc, "'!' needs a numeric operand")),
                }
            }
            UnOp::BitNot => Err(self.err(
                Code::Unsupported,
                loc,
                "bitwise operators need shader model 4",
            )),
        }
    }

    fn map_value(
        &mut self,
        v: Value,
        loc: &Loc,
        f: impl Fn(&mut Self, Operand, u8) -> Operand,
    ) -> R<Value> {
        Ok(match v {
            Value::Vector {
                o,
                n,
                ty,
                scalar_form,
            } => Value::Vector {
                o: f(self, o, n),
                n,
                ty,
                scalar_form,
            },
            Value::Matrix { rows, cols, ty, .. } => {
                let c = cols.len() as u8;
                let rows: Vec<Operand> = rows.iter().map(|r| f(self, *r, c)).collect();
                self.matrix_rows(rows, c, ty)
            }
            _ => return Err(self.err(Code::TypeMismatch, loc, "a numeric operand is needed")),
        })
    }

    /// Brings two operands to one shape (scalar broadcast, vector truncation with X3206).
    fn unify(&mut self, a: Value, b: Value, loc: &Loc) -> R<(Value, Value)> {
        let ty = |s1: Scalar, s2: Scalar| {
            if is_floaty(s1) || is_floaty(s2) {
                if s1 == Scalar::Half && s2 == Scalar::Half {
                    Scalar::Half
                } else {
                    Scalar::Float
                }
            } else if s1 == Scalar::Bool && s2 == Scalar::Bool {
                Scalar::Bool
            } else {
                Scalar::Int
            }
        };
        match (&a, &b) {
            (
                Value::Vector {
                    o: oa,
                    n: na,
                    ty: ta,
                    scalar_form: sa,
                },
                Value::Vector {
                    o: ob,
                    n: nb,
                    ty: tb,
                    scalar_form: sb,
                },
            ) => {
                let t = ty(*ta, *tb);
                let n = if *na == 1 {
                    *nb
                } else if *nb == 1 {
                    *na
                } else {
                    if na != nb {
                        self.truncation(loc);
                    }
                    (*na).min(*nb)
                };
                let sf = *sa && *sb;
                let fix = |o: Operand, k: u8| if k == 1 { o.lane(0) } else { o };
                Ok((
                    Value::Vector {
                        o: fix(*oa, *na),
                        n,
                        ty: t,
                        scalar_form: sf,
                    },
                    Value::Vector {
                        o: fix(*ob, *nb),
                        n,
                        ty: t,
                        scalar_form: sf,
                    },
                ))
            }
            (Value::Matrix { rows, cols, .. }, Value::Vector { .. }) => {
                let target = Type::of(TypeKind::Matrix(
                    Scalar::Float,
                    rows.len() as u8,
                    cols.len() as u8,
                ));
                let b = self.convert(b, &target, loc)?;
                Ok((a, b))
            }
            (Value::Vector { .. }, Value::Matrix { rows, cols, .. }) => {
                let target = Type::of(TypeKind::Matrix(
                    Scalar::Float,
                    rows.len() as u8,
                    cols.len() as u8,
                ));
                let a = self.convert(a, &target, loc)?;
                Ok((a, b))
            }
            (
                Value::Matrix {
                    rows: ra, cols: ca, ..
                },
                Value::Matrix {
                    rows: rb, cols: cb, ..
                },
            ) => {
                let (r, c) = (ra.len().min(rb.len()) as u8, ca.len().min(cb.len()) as u8);
                let target = Type::of(TypeKind::Matrix(Scalar::Float, r, c));
                let a = self.convert(a, &target, loc)?;
                let b = self.convert(b, &target, loc)?;
                Ok((a, b))
            }
            _ => Err(self.err(Code::TypeMismatch, loc, "type mismatch")),
        }
    }

    fn binary(&mut self, op: BinOp, a: Value, b: Value, loc: &Loc) -> R<Value> {
        let (a, b) = self.unify(a, b, loc)?;
        match (&a, &b) {
            (
                Value::Vector {
                    o: oa,
                    n,
                    ty,
                    scalar_form,
                },
                Value::Vector { o: ob, .. },
            ) => {
                let (n, ty, sf) = (*n, *ty, *scalar_form);
                let (oa, ob) = (*oa, *ob);
                let r = self.binary_lanes(op, oa, ob, n, ty, loc)?;
                let rty = if matches!(
                    op,
                    BinOp::Lt
                        | BinOp::Gt
                        | BinOp::Le
                        | BinOp::Ge
                        | BinOp::Eq
                        | BinOp::Ne
                        | BinOp::And
                        | BinOp::Or
                ) {
                    Scalar::Bool
                } else {
                    ty
                };
                Ok(Value::Vector {
                    o: r,
                    n,
                    ty: rty,
                    scalar_form: sf,
                })
            }
            (
                Value::Matrix {
                    rows: ra, cols, ty, ..
                },
                Value::Matrix { rows: rb, .. },
            ) => {
                let c = cols.len() as u8;
                let (ra, rb, ty) = (ra.clone(), rb.clone(), *ty);
                let mut rows = Vec::new();
                for (x, y) in ra.iter().zip(&rb) {
                    rows.push(self.binary_lanes(op, *x, *y, c, ty, loc)?);
                }
                Ok(self.matrix_rows(rows, c, ty))
            }
            _ => Err(self.err(Code::TypeMismatch, loc, "type mismatch")),
        }
    }

    fn binary_lanes(
        &mut self,
        op: BinOp,
        a: Operand,
        b: Operand,
        n: u8,
        ty: Scalar,
        loc: &Loc,
    ) -> R<Operand> {
        Ok(match op {
            BinOp::Add => self.m.op(Op::Add(a, b), n),
            BinOp::Sub => self.m.op(Op::Add(a, b.negate()), n),
            BinOp::Mul => self.m.op(Op::Mul(a, b), n),
            BinOp::Div => {
                let q = self.div(a, b, n);
                if is_floaty(ty) {
                    q
                } else {
                    self.trunc(q, n)
                }
            }
            BinOp::Rem => {
                // a - b * trunc(a / b), as fxc computes fmod.
                let q = self.div(a, b, n);
                let t = self.trunc(q, n);
                let p = self.m.op(Op::Mul(b, t), n);
                self.m.op(Op::Add(a, p.negate()), n)
            }
            BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne => {
                self.compare(op, a, b, n)
            }
            BinOp::And => {
                let x = self.cast_scalar(a, ty, Scalar::Bool, n);
                let y = self.cast_scalar(b, ty, Scalar::Bool, n);
                self.m.op(Op::Mul(x, y), n)
            }
            BinOp::Or => {
                let x = self.cast_scalar(a, ty, Scalar::Bool, n);
                let y = self.cast_scalar(b, ty, Scalar::Bool, n);
                self.m.op(Op::Max(x, y), n)
            }
            _ => {
                return Err(self.err(
                    Code::Unsupported,
                    loc,
                    "bitwise operators need shader model 4",
                ))
            }
        })
    }

    /// `a / b`: multiply by the reciprocal, one `rcp` per lane of `b`.
    fn div(&mut self, a: Operand, b: Operand, n: u8) -> Operand {
        let mut lanes = Vec::new();
        for i in 0..n {
            lanes.push(self.m.op(Op::Rcp(b.lane(i)), 1).lane(0));
        }
        let r = self.m.compose(&lanes);
        self.m.op(Op::Mul(a, r), n)
    }

    /// `v`'s scalars in order with their types (objects are refused).
    fn flatten_typed(&mut self, v: &Value, out: &mut Vec<(Operand, Scalar)>, loc: &Loc) -> R<()> {
        match v {
            Value::Vector { o, n, ty, .. } => out.extend((0..*n).map(|i| (o.lane(i), *ty))),
            Value::Matrix { rows, cols, ty, .. } => {
                for r in rows {
                    out.extend((0..cols.len() as u8).map(|i| (r.lane(i), *ty)));
                }
            }
            Value::Struct(_, fs) | Value::Array(fs) => {
                for f in fs {
                    self.flatten_typed(f, out, loc)?;
                }
            }
            _ => {
                return Err(self.err(
                    Code::CannotConvert,
                    loc,
                    "cannot use an object in a numeric initialiser or cast",
                ))
            }
        }
        if out.len() > 1 << 16 {
            return Err(self.err(Code::Limit, loc, "value too large"));
        }
        Ok(())
    }

    /// `v` as `ty` component by component (a struct or an array on either side): the
    /// scalars in order, each converted to its target lane's type; one scalar fills every
    /// lane; fewer scalars than lanes is an error.
    fn componentwise(&mut self, v: &Value, ty: &Type, loc: &Loc) -> R<Value> {
        let mut from = Vec::new();
        self.flatten_typed(v, &mut from, loc)?;
        let zero = self.zero_value(ty)?;
        let mut to = Vec::new();
        self.flatten_typed(&zero, &mut to, loc)?;
        if from.len() == 1 {
            from = vec![from[0]; to.len()];
        }
        // fxc wants equal sizes from a matrix of several rows and columns, and into a
        // matrix of several rows.
        let wide = |v: &Value| matches!(v, Value::Matrix { rows, cols, .. } if rows.len() > 1 && cols.len() > 1);
        let matrix = wide(v)
            || (ty.array.is_empty() && matches!(ty.kind, TypeKind::Matrix(_, r, _) if r > 1));
        if from.len() < to.len() || (matrix && from.len() != to.len()) {
            return Err(self.err(
                Code::CannotConvert,
                loc,
                format!(
                    "cannot convert {} values to a type of {}",
                    from.len(),
                    to.len()
                ),
            ));
        }
        let scalars: Vec<Operand> = to
            .iter()
            .zip(&from)
            .map(|(&(_, t), &(o, s))| self.cast_scalar(o, s, t, 1).lane(0))
            .collect();
        let mut k = 0;
        self.rebuild(ty, &scalars, &mut k, loc)
    }

    fn cast(&mut self, v: Value, ty: &Type, loc: &Loc) -> R<Value> {
        let aggregate = |v: &Value| matches!(v, Value::Struct(..) | Value::Array(_));
        if !ty.array.is_empty() || matches!(ty.kind, TypeKind::Struct(_)) || aggregate(&v) {
            return self.componentwise(&v, ty, loc);
        }
        // Explicit casts truncate silently.
        let target_n = match ty.kind {
            TypeKind::Scalar(_) => Some(1u8),
            TypeKind::Vector(_, n) => Some(n),
            _ => None,
        };
        let v = match (&v, target_n) {
            (Value::Vector { o, n, ty: t, .. }, Some(m)) if *n > m => Value::vector(*o, m, *t),
            (
                Value::Matrix {
                    rows, cols, ty: t, ..
                },
                Some(m),
            ) => {
                let mut lanes = Vec::new();
                for r in rows {
                    for c in 0..cols.len() as u8 {
                        lanes.push(r.lane(c));
                    }
                }
                lanes.truncate(m as usize);
                Value::vector(self.m.compose(&lanes), m, *t)
            }
            _ => v,
        };
        let before = self.warnings.len();
        let r = self.convert(v, ty, loc);
        self.warnings.truncate(before);
        r
    }

    fn construct(&mut self, ty: &Type, args: &[Expr], loc: &Loc) -> R<Value> {
        let mut lanes = Vec::new();
        for a in args {
            let v = self.expr(a)?;
            self.flatten(&v, &mut lanes, &a.loc)?;
        }
        let need = match &ty.kind {
            TypeKind::Scalar(_) => 1,
            TypeKind::Vector(_, n) => *n as usize,
            TypeKind::Matrix(_, r, c) => (*r * *c) as usize,
            _ => return Err(self.err(Code::CannotConvert, loc, "invalid constructor type")),
        };
        if lanes.len() == 1 && need > 1 {
            lanes = vec![lanes[0]; need];
        }
        if lanes.len() != need {
            return Err(self.err(
                Code::NoMatchingOverload,
                loc,
                format!(
                    "wrong number of values in a constructor: {} given, {} needed",
                    lanes.len(),
                    need
                ),
            ));
        }
        let mut k = 0;
        self.rebuild(ty, &lanes, &mut k, loc)
    }
}

enum PathStep<'a> {
    Name(&'a str),
    Index(usize),
}

fn semantic_name(u: DeclUsage) -> &'static str {
    match u {
        DeclUsage::Position => "POSITION",
        DeclUsage::BlendWeight => "BLENDWEIGHT",
        DeclUsage::BlendIndices => "BLENDINDICES",
        DeclUsage::Normal => "NORMAL",
        DeclUsage::PSize => "PSIZE",
        DeclUsage::TexCoord => "TEXCOORD",
        DeclUsage::Tangent => "TANGENT",
        DeclUsage::Binormal => "BINORMAL",
        DeclUsage::TessFactor => "TESSFACTOR",
        DeclUsage::PositionT => "POSITIONT",
        DeclUsage::Color => "COLOR",
        DeclUsage::Fog => "FOG",
        DeclUsage::Depth => "DEPTH",
        DeclUsage::Sample => "SAMPLE",
    }
}

/// The lanes a swizzle (`xyzw` or `rgba`, not mixed) names, for a value of `n` lanes.
pub fn swizzle(name: &str, n: u8) -> Option<Vec<u8>> {
    if name.is_empty() || name.len() > 4 {
        return None;
    }
    let xyzw = name.chars().all(|c| "xyzw".contains(c));
    let rgba = name.chars().all(|c| "rgba".contains(c));
    if !xyzw && !rgba {
        return None;
    }
    let set = if xyzw { "xyzw" } else { "rgba" };
    let lanes: Vec<u8> = name
        .chars()
        .map(|c| set.find(c).unwrap_or(0) as u8)
        .collect();
    lanes.iter().all(|&l| l < n.max(1)).then_some(lanes)
}

fn matrix_swizzle(name: &str) -> Option<Vec<(u8, u8)>> {
    let mut out = Vec::new();
    let mut rest = name;
    while !rest.is_empty() {
        let r = rest.strip_prefix('_')?;
        let (zero_based, r) = match r.strip_prefix('m') {
            Some(r) => (true, r),
            None => (false, r),
        };
        let b = r.as_bytes();
        if b.len() < 2 {
            return None;
        }
        let d = |c: u8| c.checked_sub(b'0').filter(|v| *v <= 4);
        let (mut row, mut col) = (d(b[0])?, d(b[1])?);
        if !zero_based {
            row = row.checked_sub(1)?;
            col = col.checked_sub(1)?;
        }
        if row > 3 || col > 3 {
            return None;
        }
        out.push((row, col));
        rest = &r[2..];
    }
    (!out.is_empty() && out.len() <= 4).then_some(out)
}

/// The nodes an operation reads.
pub fn operands(op: &Op) -> Vec<crate::ir::Handle> {
    let mut v = Vec::new();
    let mut o = |x: &Operand| v.push(x.h);
    match op {
        // A loop's own operands are in `Module::loops`.
        Op::Literal(_)
        | Op::Input(_)
        | Op::Uniform(_)
        | Op::LoopBegin(_)
        | Op::Phi(..)
        | Op::LoopEnd(_)
        | Op::LoopElse(_) => {}
        Op::UniformRel(_, i) => o(i),
        Op::Add(a, b)
        | Op::Mul(a, b)
        | Op::Min(a, b)
        | Op::Max(a, b)
        | Op::Dot(_, a, b)
        | Op::Pow(a, b)
        | Op::Slt(a, b)
        | Op::Sge(a, b) => {
            o(a);
            o(b);
        }
        Op::Mad(a, b, c) | Op::Cmp(a, b, c) | Op::Lrp(a, b, c) => {
            o(a);
            o(b);
            o(c);
        }
        Op::Rcp(a)
        | Op::Rsq(a)
        | Op::Exp(a)
        | Op::Log(a)
        | Op::Frc(a)
        | Op::Sat(a)
        | Op::Nrm(a)
        | Op::SinCos(a)
        | Op::Dsx(a)
        | Op::Dsy(a)
        | Op::Abs(a) => o(a),
        Op::Sample(_, _, c, g) => {
            o(c);
            if let Some((x, y)) = g {
                o(x);
                o(y);
            }
        }
        Op::Compose(parts) => {
            for p in parts.iter().flatten() {
                v.push(p.h);
            }
        }
    }
    v
}

mod allocate;
mod intrinsics;
mod relative;
mod rep;
mod static_if;
