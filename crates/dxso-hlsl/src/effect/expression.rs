//! State values computed from parameters (`LightDiffuse[0] = 1 / Color;`, `ViewTransform =
//! (Camera);`, `FogDensity = Fog.Density;`): an FXLC expression program (`0x46580200`) that
//! the effect runtime evaluates when the pass is applied.
//!
//! Every parameter the expression reads is a `c` input of the program, laid out as d3dx9 lays
//! constants out (one register per scalar, vector or matrix row, element by element and member
//! by member) at the register its `register(cN)` binding names or, without one, at the first
//! free register in the order the parameters are met; the program's constant table lists them
//! by name. The value is computed component by component (a run of adjacent components in one
//! instruction) and written to `oc0.x` onwards.

use crate::ast::{BinOp, Expr, ExprKind, TypeKind, UnOp};
use crate::diag::{Code, Diagnostic};
use dxso::ctab::{Constant, ConstantTable, CtabString, ParameterClass, StructMember, TypeInfo};
use dxso_fx::program::{
    Code as FxCode, Instruction, Literals, Operand, Register, Section, Table, EXPRESSION_VERSION,
};
use dxso_fx::{Opcode, Parameter, Program, Shape, TypeDesc, Value};

/// The words compilers write after the last FXLC instruction.
const FXLC_TAIL: [u32; 3] = [0xf0f0_f0f0, 0x0f0f_0f0f, 0x0000_ffff];
/// `D3DXRS_FLOAT4`.
const REGISTER_SET_FLOAT4: u16 = 2;
/// Registers of the window each input is built in before it is placed.
const WINDOW: u32 = 1 << 16;
/// Inputs one expression may read (their windows fit the 32-bit component offsets).
const MAX_INPUTS: usize = 4096;
/// Instructions one expression may take: far above what a state value needs, and a bound on
/// the work a hostile expression can ask for.
const MAX_INSTRUCTIONS: usize = 4096;

type R<T> = Result<T, Diagnostic>;

fn unsupported(e: &Expr, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(Code::Unsupported, e.loc.clone(), message)
}

/// A place in a parameter: its input, the first register, and the type there.
struct Place<'p> {
    register: u32,
    ty: &'p TypeDesc,
    /// Whether `ty` still has its array dimension (an element was not chosen yet).
    whole_array: bool,
    /// A run-time index (a component) in registers, added to `register`.
    index: Option<Operand>,
}

struct Builder<'a> {
    parameters: &'a [Parameter],
    binding: &'a dyn Fn(&str) -> Option<u32>,
    /// Inputs: parameter index, first register, registers.
    inputs: Vec<(usize, u32, u32)>,
    literals: Vec<f64>,
    code: Vec<Instruction>,
    temps: u32,
}

fn reg(table: Table, offset: u32) -> Operand {
    Operand {
        index: None,
        register: Register { table, offset },
    }
}

/// Registers one leaf of `ty` takes (a scalar or vector one, a matrix one per row).
fn leaf_registers(ty: &TypeDesc) -> u32 {
    match (&ty.shape, ty.class()) {
        (Shape::Numeric { rows, .. }, Some(ParameterClass::MatrixRows)) => *rows,
        (Shape::Numeric { columns, .. }, Some(ParameterClass::MatrixColumns)) => *columns,
        _ => 1,
    }
}

/// Registers one element of `ty` takes.
fn element_registers(ty: &TypeDesc) -> u32 {
    match &ty.shape {
        Shape::Struct(members) => members.iter().map(registers).sum(),
        _ => leaf_registers(ty),
    }
}

/// Registers all of `ty` takes.
fn registers(ty: &TypeDesc) -> u32 {
    element_registers(ty).saturating_mul(ty.element_count().max(1))
}

/// The constant-table type of a parameter type.
fn type_info(ty: &TypeDesc) -> TypeInfo {
    TypeInfo {
        class_raw: ty.class_raw as u16,
        type_raw: ty.type_raw as u16,
        rows: ty.rows() as u16,
        columns: ty.columns() as u16,
        elements: ty.element_count().max(1) as u16,
        members: ty
            .members()
            .iter()
            .map(|m| StructMember {
                name: CtabString::from(dxso_fx::types::name_str(&m.name).as_ref()),
                ty: type_info(m),
            })
            .collect(),
    }
}

impl<'a> Builder<'a> {
    fn literal(&mut self, v: f64) -> Operand {
        let i = match self
            .literals
            .iter()
            .position(|&x| x.to_bits() == v.to_bits())
        {
            Some(i) => i,
            None => {
                self.literals.push(v);
                self.literals.len() - 1
            }
        };
        reg(Table::Immediate, i as u32)
    }

    fn temp(&mut self, n: u32) -> Vec<Operand> {
        let first = self.temps;
        self.temps += n;
        (first..first + n)
            .map(|t| reg(Table::Temporary, t))
            .collect()
    }

    /// The input of parameter `name`, added when first met.
    fn input(&mut self, e: &Expr, name: &str) -> R<(usize, u32)> {
        let (index, p) = self
            .parameters
            .iter()
            .enumerate()
            .find(|(_, p)| p.name() == name)
            .ok_or_else(|| {
                Diagnostic::error(
                    Code::Undeclared,
                    e.loc.clone(),
                    format!("undeclared identifier '{name}'"),
                )
            })?;
        if !matches!(p.value, Value::Data(_)) {
            return Err(unsupported(
                e,
                format!("'{name}' is not numeric; a state expression reads numbers"),
            ));
        }
        if let Some(&(_, first, _)) = self.inputs.iter().find(|(i, _, _)| *i == index) {
            return Ok((index, first));
        }
        let count = registers(&p.ty);
        if count > dxso_fx::program::MAX_REGISTERS {
            return Err(Diagnostic::error(
                Code::Limit,
                e.loc.clone(),
                format!("'{name}' takes more registers than an expression has"),
            ));
        }
        // Each input is built in a window of its own and placed once every read is known
        // (`place_inputs`).
        if self.inputs.len() >= MAX_INPUTS {
            return Err(Diagnostic::error(
                Code::Limit,
                e.loc.clone(),
                "the state expression reads too many parameters",
            ));
        }
        let first = WINDOW * self.inputs.len() as u32;
        self.inputs.push((index, first, count));
        Ok((index, first))
    }

    fn emit(&mut self, op: Opcode, inputs: &[Vec<Operand>], n: usize) -> R<Vec<Operand>> {
        let out = self.temp(n as u32);
        self.emit_into(op, inputs, &out)?;
        Ok(out)
    }

    /// `out[i] = op(inputs[..][i])`, in runs of adjacent components.
    fn emit_into(&mut self, op: Opcode, inputs: &[Vec<Operand>], out: &[Operand]) -> R<()> {
        let n = out.len();
        let mut i = 0;
        while i < n {
            // The longest run from `i` in which every input and the output advance by one
            // component within a register.
            let mut len = 1;
            while i + len < n
                && len < 4
                && (out[i].register.offset + len as u32) % 4 != 0
                && adjacent(&out[i], &out[i + len], len)
                && inputs.iter().all(|x| adjacent(&x[i], &x[i + len], len))
            {
                len += 1;
            }
            self.code.push(Instruction {
                word: (op.number() << 20) | len as u32,
                inputs: inputs.iter().map(|x| x[i]).collect(),
                output: out[i],
            });
            if self.code.len() > MAX_INSTRUCTIONS {
                return Err(Diagnostic::error(
                    Code::Limit,
                    crate::diag::Loc::default(),
                    "the state expression needs too many instructions",
                ));
            }
            i += len;
        }
        Ok(())
    }

    fn value(&mut self, e: &Expr) -> R<Vec<Operand>> {
        match &e.kind {
            ExprKind::Int(i) => Ok(vec![self.literal(*i as f64)]),
            ExprKind::Float(f) => Ok(vec![self.literal(*f)]),
            ExprKind::Bool(b) => Ok(vec![self.literal(f64::from(u8::from(*b)))]),
            ExprKind::Index(base, idx) if !self.is_array(base) => self.select(e, base, idx),
            ExprKind::Ident(_) | ExprKind::Member(..) | ExprKind::Index(..) => self.read(e),
            ExprKind::Unary(UnOp::Neg, x) => {
                let x = self.value(x)?;
                let n = x.len();
                self.emit(Opcode::Neg, &[x], n)
            }
            ExprKind::Unary(UnOp::Plus, x) => self.value(x),
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.value(a)?, self.value(b)?);
                let (x, y) = widen(e, x, y)?;
                let n = x.len();
                match op {
                    BinOp::Add => self.emit(Opcode::Add, &[x, y], n),
                    BinOp::Mul => self.emit(Opcode::Mul, &[x, y], n),
                    BinOp::Div => {
                        // d3dx9 evaluates FXLC `div` as 0: a quotient is a product with the
                        // reciprocal, as fxc writes it (`rcp` alone for 1 / y).
                        let r = self.emit(Opcode::Rcp, &[y], n)?;
                        let one = self.literal(1.0);
                        if x.iter().all(|o| *o == one) {
                            Ok(r)
                        } else {
                            self.emit(Opcode::Mul, &[x, r], n)
                        }
                    }
                    BinOp::Sub => {
                        let ny = self.emit(Opcode::Neg, &[y], n)?;
                        self.emit(Opcode::Add, &[x, ny], n)
                    }
                    BinOp::Lt => self.emit(Opcode::Lt, &[x, y], n),
                    BinOp::Ge => self.emit(Opcode::Ge, &[x, y], n),
                    BinOp::Gt => self.emit(Opcode::Lt, &[y, x], n),
                    BinOp::Le => self.emit(Opcode::Ge, &[y, x], n),
                    _ => Err(unsupported(
                        e,
                        "this operator is not supported in a state expression",
                    )),
                }
            }
            ExprKind::Construct(ty, _) | ExprKind::Cast(ty, _)
                if matches!(
                    ty.kind,
                    TypeKind::Scalar(_) | TypeKind::Vector(..) | TypeKind::Matrix(..)
                ) =>
            {
                let want = match ty.kind {
                    TypeKind::Vector(_, n) => n as usize,
                    TypeKind::Matrix(_, r, c) => r as usize * c as usize,
                    _ => 1,
                };
                let mut comps = Vec::new();
                match &e.kind {
                    ExprKind::Construct(_, args) => {
                        for a in args {
                            comps.extend(self.value(a)?);
                        }
                    }
                    ExprKind::Cast(_, x) => comps = self.value(x)?,
                    _ => {}
                }
                match comps.len() {
                    1 => Ok(vec![comps[0]; want]),
                    n if n >= want => {
                        comps.truncate(want);
                        Ok(comps)
                    }
                    n => Err(Diagnostic::error(
                        Code::CannotConvert,
                        e.loc.clone(),
                        format!("{n} values do not fill {want} components"),
                    )),
                }
            }
            ExprKind::Call(name, args) => self.call(e, name, args),
            _ => Err(unsupported(
                e,
                "this expression is not supported as a state value",
            )),
        }
    }

    fn call(&mut self, e: &Expr, name: &str, args: &[Expr]) -> R<Vec<Operand>> {
        let unary = |op| Some((op, 1usize));
        let (op, arity) = match name {
            "rcp" => unary(Opcode::Rcp),
            "rsqrt" => unary(Opcode::Rsq),
            "frac" => unary(Opcode::Frc),
            "sin" => unary(Opcode::Sin),
            "cos" => unary(Opcode::Cos),
            "sqrt" => unary(Opcode::Sqrt),
            "floor" => unary(Opcode::Floor),
            "ceil" => unary(Opcode::Ceil),
            "exp2" => unary(Opcode::Exp),
            "log2" => unary(Opcode::Log),
            "exp" | "log" => unary(Opcode::Mul),
            "asin" => unary(Opcode::Asin),
            "acos" => unary(Opcode::Acos),
            "atan" => unary(Opcode::Atan),
            "min" => Some((Opcode::Min, 2)),
            "max" => Some((Opcode::Max, 2)),
            "atan2" => Some((Opcode::Atan2, 2)),
            "dot" => Some((Opcode::Dot, 2)),
            "abs" => Some((Opcode::Max, 1)),
            _ => None,
        }
        .ok_or_else(|| {
            unsupported(
                e,
                format!("'{name}' is not supported in a state expression"),
            )
        })?;
        if args.len() != arity {
            return Err(Diagnostic::error(
                Code::CannotConvert,
                e.loc.clone(),
                format!("'{name}' takes {arity} argument(s)"),
            ));
        }
        let mut values = Vec::new();
        for a in args {
            values.push(self.value(a)?);
        }
        // FXLC `exp` and `log` are base 2, as the shader instructions are.
        if name == "exp" {
            let x = values.remove(0);
            let n = x.len();
            let k = self.literal(std::f64::consts::LOG2_E);
            let scaled = self.emit(Opcode::Mul, &[x, vec![k; n]], n)?;
            return self.emit(Opcode::Exp, &[scaled], n);
        }
        if name == "log" {
            let x = values.remove(0);
            let n = x.len();
            let k = self.literal(std::f64::consts::LN_2);
            let l = self.emit(Opcode::Log, &[x], n)?;
            return self.emit(Opcode::Mul, &[l, vec![k; n]], n);
        }
        if name == "abs" {
            let x = values.remove(0);
            let n = x.len();
            let nx = self.emit(Opcode::Neg, std::slice::from_ref(&x), n)?;
            return self.emit(Opcode::Max, &[x, nx], n);
        }
        if op == Opcode::Dot {
            let (x, y) = (values.remove(0), values.remove(0));
            if x.len() != y.len() || x.is_empty() || x.len() > 4 {
                return Err(Diagnostic::error(
                    Code::CannotConvert,
                    e.loc.clone(),
                    "'dot' takes two vectors of one size",
                ));
            }
            // The dot product reads its inputs as runs of components: copy them into
            // adjacent temporaries unless they already are.
            let x = self.adjacent_copy(x)?;
            let y = self.adjacent_copy(y)?;
            let out = self.temp(1);
            self.code.push(Instruction {
                word: (Opcode::Dot.number() << 20) | x.len() as u32,
                inputs: vec![x[0], y[0]],
                output: out[0],
            });
            return Ok(out);
        }
        if arity == 2 {
            let (x, y) = (values.remove(0), values.remove(0));
            let (x, y) = widen(e, x, y)?;
            let n = x.len();
            return self.emit(op, &[x, y], n);
        }
        let x = values.remove(0);
        let n = x.len();
        self.emit(op, &[x], n)
    }

    /// Whether `e` names a whole parameter array (or array member), which an index chooses
    /// an element of.
    fn is_array(&mut self, e: &Expr) -> bool {
        let parameters: &'a [Parameter] = self.parameters;
        // Only parameter references can be arrays; `locate` adds inputs, so look first.
        let mut base = e;
        loop {
            match &base.kind {
                ExprKind::Member(b, _) | ExprKind::Index(b, _) => base = b,
                ExprKind::Ident(n) => {
                    if !parameters.iter().any(|p| p.name() == n.as_str()) {
                        return false;
                    }
                    break;
                }
                _ => return false,
            }
        }
        matches!(self.locate(e), Ok((p, None)) if p.whole_array && p.ty.elements > 0)
    }

    /// `v[i]` of a vector value: a literal index is a swizzle; a run-time one takes the dot
    /// product with a row of the identity, read from the literals by the index, as fxc does.
    fn select(&mut self, e: &Expr, base: &Expr, idx: &Expr) -> R<Vec<Operand>> {
        if !matches!(idx.kind, ExprKind::Int(_)) {
            if let Some(row) = self.matrix_row(base, idx)? {
                return Ok(row);
            }
        }
        let v = self.value(base)?;
        if v.len() > 4 {
            return Err(unsupported(
                e,
                "a run-time index chooses a component of a vector in a state expression",
            ));
        }
        if let ExprKind::Int(k) = idx.kind {
            return usize::try_from(k)
                .ok()
                .and_then(|k| v.get(k).copied())
                .map(|c| vec![c])
                .ok_or_else(|| {
                    Diagnostic::error(Code::Limit, idx.loc.clone(), "the index is out of range")
                });
        }
        let (k, idx) = literal_offset(idx);
        let i = self.index_value(idx)?;
        let [mut i] = i[..] else {
            return Err(Diagnostic::error(
                Code::CannotConvert,
                idx.loc.clone(),
                "an index is one number",
            ));
        };
        if i.index.is_some() || i.register.table == Table::Immediate {
            i = self.emit(Opcode::Mov, &[vec![i]], 1)?[0];
        }
        let rows = self.identity() + 4 * k;
        let n = v.len();
        let v = self.adjacent_copy(v)?;
        let out = self.temp(1);
        self.code.push(Instruction {
            word: (Opcode::Dot.number() << 20) | n as u32,
            inputs: vec![
                v[0],
                Operand {
                    index: Some(i.register),
                    register: Register {
                        table: Table::Immediate,
                        offset: rows,
                    },
                },
            ],
            output: out[0],
        });
        Ok(out)
    }

    /// `m[i]` of a row-major matrix parameter with a run-time `i`: the row's registers read
    /// relative to the index. `None` when `base` is no such matrix.
    fn matrix_row(&mut self, base: &Expr, idx: &Expr) -> R<Option<Vec<Operand>>> {
        let parameters: &'a [Parameter] = self.parameters;
        let ExprKind::Ident(name) = &base.kind else {
            return Ok(None);
        };
        let Some(p) = parameters.iter().find(|p| p.name() == name.as_str()) else {
            return Ok(None);
        };
        let Shape::Numeric { columns, .. } = p.ty.shape else {
            return Ok(None);
        };
        if p.ty.class() != Some(ParameterClass::MatrixRows) || p.ty.elements > 0 {
            return Ok(None);
        }
        let (_, first) = self.input(base, name)?;
        let i = self.index_value(idx)?;
        let [mut i] = i[..] else {
            return Err(Diagnostic::error(
                Code::CannotConvert,
                idx.loc.clone(),
                "an index is one number",
            ));
        };
        if i.index.is_some() || i.register.table == Table::Immediate {
            i = self.emit(Opcode::Mov, &[vec![i]], 1)?[0];
        }
        Ok(Some(
            (0..columns)
                .map(|c| Operand {
                    index: Some(i.register),
                    register: Register {
                        table: Table::Constant,
                        offset: 4 * first + c,
                    },
                })
                .collect(),
        ))
    }

    /// An index's value: a float one rounded down first, as HLSL converts it (`x - frac(x)`,
    /// as fxc writes it), since a relative read rounds to the nearest register.
    fn index_value(&mut self, idx: &Expr) -> R<Vec<Operand>> {
        let v = self.value(idx)?;
        if self.is_integer(idx) || v.len() != 1 {
            return Ok(v);
        }
        let f = self.emit(Opcode::Frc, std::slice::from_ref(&v), 1)?;
        let nf = self.emit(Opcode::Neg, &[f], 1)?;
        self.emit(Opcode::Add, &[nf, v], 1)
    }

    /// Whether `e` has an integer value: an integer literal, a component of an int or bool
    /// parameter, or sums and products of those.
    fn is_integer(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) => true,
            ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul, a, b) => {
                self.is_integer(a) && self.is_integer(b)
            }
            ExprKind::Unary(UnOp::Neg | UnOp::Plus, a) => self.is_integer(a),
            ExprKind::Ident(_) | ExprKind::Member(..) | ExprKind::Index(..) => {
                let mut root = e;
                while let ExprKind::Member(b, _) | ExprKind::Index(b, _) = &root.kind {
                    root = b;
                }
                let ExprKind::Ident(name) = &root.kind else {
                    return false;
                };
                // Struct members may differ in type: only plain int or bool parameters count.
                self.parameters.iter().any(|p| {
                    p.name() == name.as_str()
                        && matches!(
                            p.ty.ty(),
                            Some(dxso::ctab::ParameterType::Int | dxso::ctab::ParameterType::Bool)
                        )
                })
            }
            _ => false,
        }
    }

    /// The literal offset of a 4x4 identity, starting a literal register.
    fn identity(&mut self) -> u32 {
        while self.literals.len() % 4 != 0 {
            self.literals.push(0.0);
        }
        let first = self.literals.len() as u32;
        for r in 0..4 {
            for c in 0..4 {
                self.literals.push(f64::from(u8::from(r == c)));
            }
        }
        first
    }

    /// `comps` in adjacent components of one register run (copied to temporaries if needed).
    fn adjacent_copy(&mut self, comps: Vec<Operand>) -> R<Vec<Operand>> {
        let aligned = comps[0].register.offset % 4 + comps.len() as u32 <= 4;
        if aligned
            && comps
                .iter()
                .enumerate()
                .all(|(k, c)| adjacent(&comps[0], c, k))
        {
            return Ok(comps);
        }
        let n = comps.len();
        // Temporaries from a register boundary, so the run stays inside one register.
        self.temps = self.temps.next_multiple_of(4);
        self.emit(Opcode::Mov, &[comps], n)
    }

    /// The components a parameter reference reads.
    fn read(&mut self, e: &Expr) -> R<Vec<Operand>> {
        let (place, swizzle) = self.locate(e)?;
        let mut comps = Vec::new();
        self.components(&place, &mut comps)?;
        match swizzle {
            None => Ok(comps),
            Some(s) => s
                .iter()
                .map(|&k| {
                    comps.get(k).copied().ok_or_else(|| {
                        Diagnostic::error(
                            Code::CannotConvert,
                            e.loc.clone(),
                            "the swizzle names a component the value does not have",
                        )
                    })
                })
                .collect(),
        }
    }

    /// Every component of a place, leaf by leaf.
    fn components(&mut self, p: &Place<'a>, out: &mut Vec<Operand>) -> R<()> {
        let elements = if p.whole_array {
            p.ty.element_count().max(1)
        } else {
            1
        };
        let per = element_registers(p.ty);
        for el in 0..elements {
            let base = p.register + el * per;
            self.leaf_components(p.ty, base, p.index, out)?;
            if out.len() > 4 * 4096 {
                return Err(Diagnostic::error(
                    Code::Limit,
                    crate::diag::Loc::default(),
                    "the state value is too large",
                ));
            }
        }
        Ok(())
    }

    fn leaf_components(
        &mut self,
        ty: &TypeDesc,
        base: u32,
        index: Option<Operand>,
        out: &mut Vec<Operand>,
    ) -> R<()> {
        let at = |r: u32, c: u32| Operand {
            index: index.map(|i| i.register),
            register: Register {
                table: Table::Constant,
                offset: 4 * r + c,
            },
        };
        match &ty.shape {
            Shape::Struct(members) => {
                let mut r = base;
                for m in members {
                    let el = element_registers(m);
                    for k in 0..m.element_count().max(1) {
                        self.leaf_components(m, r + k * el, index, out)?;
                    }
                    r += registers(m);
                }
            }
            Shape::Numeric { rows, columns } => match ty.class() {
                Some(ParameterClass::MatrixColumns) => {
                    for row in 0..*rows {
                        for col in 0..*columns {
                            out.push(at(base + col, row));
                        }
                    }
                }
                Some(ParameterClass::MatrixRows) => {
                    for row in 0..*rows {
                        for col in 0..*columns {
                            out.push(at(base + row, col));
                        }
                    }
                }
                _ => {
                    // Vectors store their size as columns.
                    for col in 0..(*rows).max(*columns) {
                        out.push(at(base, col));
                    }
                }
            },
            Shape::None => {}
        }
        Ok(())
    }

    /// The place `e` names and the swizzle applied to it.
    fn locate(&mut self, e: &Expr) -> R<(Place<'a>, Option<Vec<usize>>)> {
        let parameters: &'a [Parameter] = self.parameters;
        match &e.kind {
            ExprKind::Ident(name) => {
                let (input, register) = self.input(e, name)?;
                Ok((
                    Place {
                        register,
                        ty: &parameters[input].ty,
                        whole_array: true,
                        index: None,
                    },
                    None,
                ))
            }
            ExprKind::Member(base, field) => {
                let (mut p, swizzle) = self.locate(base)?;
                if swizzle.is_some() || (p.whole_array && p.ty.elements > 0) {
                    return Err(unsupported(
                        e,
                        format!("'.{field}' needs one struct element"),
                    ));
                }
                if let Shape::Struct(members) = &p.ty.shape {
                    let mut register = p.register;
                    for m in members {
                        if dxso_fx::types::name_str(&m.name) == field.as_str() {
                            p.register = register;
                            p.ty = m;
                            p.whole_array = true;
                            return Ok((p, None));
                        }
                        register += registers(m);
                    }
                    return Err(Diagnostic::error(
                        Code::Undeclared,
                        e.loc.clone(),
                        format!("the struct has no member '{field}'"),
                    ));
                }
                let lanes: Option<Vec<usize>> = field
                    .chars()
                    .map(|c| match c {
                        'x' | 'r' => Some(0),
                        'y' | 'g' => Some(1),
                        'z' | 'b' => Some(2),
                        'w' | 'a' => Some(3),
                        _ => None,
                    })
                    .collect();
                match lanes {
                    Some(l) if !l.is_empty() && l.len() <= 4 => Ok((p, Some(l))),
                    _ => Err(unsupported(e, format!("'.{field}' is not a swizzle"))),
                }
            }
            ExprKind::Index(base, idx) => {
                let (mut p, swizzle) = self.locate(base)?;
                if swizzle.is_some() || !p.whole_array || p.ty.elements == 0 {
                    return Err(unsupported(
                        e,
                        "only arrays of parameters can be indexed in a state expression",
                    ));
                }
                let stride = element_registers(p.ty);
                p.whole_array = false;
                if let ExprKind::Int(k) = idx.kind {
                    let k = u32::try_from(k)
                        .ok()
                        .filter(|&k| k < p.ty.element_count())
                        .ok_or_else(|| {
                            Diagnostic::error(
                                Code::Limit,
                                idx.loc.clone(),
                                "the array index is out of range",
                            )
                        })?;
                    p.register += k * stride;
                    return Ok((p, None));
                }
                if p.index.is_some() {
                    return Err(unsupported(e, "one run-time index per parameter reference"));
                }
                // `a[k + i]`: the literal part moves the base, as fxc writes `c[k + i]`.
                let (k, idx) = literal_offset(idx);
                p.register += k * stride;
                let v = self.index_value(idx)?;
                let [mut i] = v[..] else {
                    return Err(Diagnostic::error(
                        Code::CannotConvert,
                        idx.loc.clone(),
                        "an array index is one number",
                    ));
                };
                if stride != 1 {
                    let s = self.literal(f64::from(stride));
                    i = self.emit(Opcode::Mul, &[vec![i], vec![s]], 1)?[0];
                } else if i.index.is_some() || i.register.table == Table::Immediate {
                    i = self.emit(Opcode::Mov, &[vec![i]], 1)?[0];
                }
                p.index = Some(i);
                Ok((p, None))
            }
            _ => Err(unsupported(e, "not a parameter reference")),
        }
    }
}

/// `k + rest` or `rest + k` with a non-negative integer literal `k`: `(k, rest)`; otherwise
/// `(0, e)`.
fn literal_offset(e: &Expr) -> (u32, &Expr) {
    let int = |x: &Expr| match x.kind {
        ExprKind::Int(k) => u32::try_from(k).ok().filter(|&k| k < 1 << 16),
        _ => None,
    };
    match &e.kind {
        ExprKind::Binary(BinOp::Add, a, b) => match (int(a), int(b)) {
            (Some(k), _) => (k, b),
            (None, Some(k)) => (k, a),
            _ => (0, e),
        },
        _ => (0, e),
    }
}

/// Whether `b` is `a` moved on by `k` components, with the same index register.
fn adjacent(a: &Operand, b: &Operand, k: usize) -> bool {
    a.index == b.index
        && a.register.table == b.register.table
        && a.register.table != Table::Immediate
        && b.register.offset == a.register.offset + k as u32
}

/// Two operands of one width: a single component is repeated to the other's width.
fn widen(e: &Expr, x: Vec<Operand>, y: Vec<Operand>) -> R<(Vec<Operand>, Vec<Operand>)> {
    match (x.len(), y.len()) {
        (a, b) if a == b => Ok((x, y)),
        (1, b) => Ok((vec![x[0]; b], y)),
        (a, 1) => Ok((x, vec![y[0]; a])),
        (a, b) => {
            // HLSL truncates the wider vector to the narrower one's size.
            let n = a.min(b);
            let _ = e;
            Ok((x[..n].to_vec(), y[..n].to_vec()))
        }
    }
}

/// The program computing the state value `e` from the effect's `parameters`; `binding` gives
/// the `c` register a parameter is bound to, if any. Returns the program and the number of
/// components it writes.
pub(super) fn state_expression(
    e: &Expr,
    parameters: &[Parameter],
    binding: &dyn Fn(&str) -> Option<u32>,
) -> R<(Program, usize)> {
    let mut b = Builder {
        parameters,
        binding,
        inputs: Vec::new(),
        literals: Vec::new(),
        code: Vec::new(),
        temps: 0,
    };
    // Findings without a place (limits) are placed at the expression.
    let place = |d: Diagnostic| {
        if d.loc.line == 0 {
            Diagnostic::error(d.code, e.loc.clone(), d.message)
        } else {
            d
        }
    };
    let value = b.value(e).map_err(place)?;
    let n = value.len();
    let outputs: Vec<Operand> = (0..n as u32).map(|k| reg(Table::Output, k)).collect();
    b.emit_into(Opcode::Mov, &[value], &outputs)
        .map_err(place)?;
    let placed = place_inputs(&mut b, parameters);
    let mut constants: Vec<Constant> = placed
        .iter()
        .map(|&(i, first, count)| {
            let p = &parameters[i];
            Constant {
                name: p.name().as_ref().into(),
                register_set_raw: REGISTER_SET_FLOAT4,
                register_index: first as u16,
                register_count: count as u16,
                reserved: 0,
                ty: type_info(&p.ty),
                default_value: None,
            }
        })
        .collect();
    constants.sort_by(|a, b| a.name.0.cmp(&b.name.0));
    let table = ConstantTable {
        creator: format!("dxso-hlsl {}", env!("CARGO_PKG_VERSION"))
            .as_str()
            .into(),
        version: EXPRESSION_VERSION,
        flags: 0,
        target: "".into(),
        header_size: 28,
        constants,
        layout: None,
    };
    let words = program_words(EXPRESSION_VERSION, table, &b.literals, b.code);
    let program = Program::parse_words(&words, 0).map_err(|err| {
        Diagnostic::error(
            Code::Unsupported,
            e.loc.clone(),
            format!("internal: the state expression does not read back: {err}"),
        )
    })?;
    Ok((program, n))
}

/// The words of an FXLC program of `version` (expression or preshader): its constant table,
/// its `CLIT` literals and its `FXLC` code with the words compilers write after it, written by
/// dxso-fx's own writer.
pub(super) fn program_words(
    version: u32,
    table: ConstantTable,
    literals: &[f64],
    instructions: Vec<Instruction>,
) -> Vec<u32> {
    Program {
        version,
        sections: vec![
            Section::ConstantTable(table),
            Section::Literals(Literals {
                values: literals.iter().map(|v| v.to_bits()).collect(),
                extra: Vec::new(),
            }),
            Section::Code(FxCode {
                instructions,
                extra: FXLC_TAIL.to_vec(),
            }),
        ],
        end: Vec::new(),
    }
    .to_words()
}

/// Places the inputs, as fxc lays out an expression's constants: each takes the registers up to
/// the last one the code reads, or all of the parameter when an index chooses at run time, and
/// keeps free the registers up to the highest base a run-time index starts from (reads past an
/// array land where fxc's would); the larger first, then in the parameters' order, from `c0`
/// (a `register(cN)` binding keeps its register). Rewrites the code's `c` operands and returns
/// `(parameter, first register, registers listed)` per input.
fn place_inputs(b: &mut Builder<'_>, parameters: &[Parameter]) -> Vec<(usize, u32, u32)> {
    let n = b.inputs.len();
    // Per input: highest register read directly, highest relative base, whether relative.
    let mut direct = vec![None::<u32>; n];
    let mut base = vec![None::<u32>; n];
    for ins in &b.code {
        for op in &ins.inputs {
            let r = op.register;
            if r.table != Table::Constant {
                continue;
            }
            let k = (r.offset / 4 / WINDOW) as usize;
            let reg = r.offset / 4 % WINDOW;
            let slot = if op.index.is_some() {
                &mut base
            } else {
                &mut direct
            };
            if let Some(s) = slot.get_mut(k) {
                *s = (*s).max(Some(reg));
            }
        }
    }
    let listed: Vec<u32> = (0..n)
        .map(|k| {
            let full = b.inputs[k].2;
            match (base[k], direct[k]) {
                (Some(_), _) => full,
                (None, Some(d)) => d + 1,
                (None, None) => full,
            }
        })
        .collect();
    let extent: Vec<u32> = (0..n)
        .map(|k| listed[k].max(base[k].map_or(0, |r| r + 1)).max(1))
        .collect();
    let bound: Vec<Option<u32>> = b
        .inputs
        .iter()
        .map(|&(i, _, _)| (b.binding)(&parameters[i].name()))
        .collect();
    let mut order: Vec<usize> = (0..n).filter(|&k| bound[k].is_none()).collect();
    order.sort_by_key(|&k| (std::cmp::Reverse(extent[k]), b.inputs[k].0));
    let mut first = bound.clone();
    let mut at = 0u32;
    for k in order {
        // Past every bound input this range would overlap.
        while let Some(end) = (0..n)
            .filter_map(|j| Some((bound[j]?, extent[j])))
            .find(|&(f, e)| at < f + e && f < at + extent[k])
            .map(|(f, e)| f + e)
        {
            at = end;
        }
        first[k] = Some(at);
        at += extent[k];
    }
    let moved = |offset: u32| {
        let k = (offset / 4 / WINDOW) as usize;
        let within = offset - 4 * WINDOW * k as u32;
        4 * first.get(k).copied().flatten().unwrap_or(0) + within
    };
    for ins in &mut b.code {
        for op in ins.inputs.iter_mut() {
            if op.register.table == Table::Constant {
                op.register.offset = moved(op.register.offset);
            }
            if let Some(ix) = op.index.as_mut() {
                if ix.table == Table::Constant {
                    ix.offset = moved(ix.offset);
                }
            }
        }
    }
    (0..n)
        .map(|k| (b.inputs[k].0, first[k].unwrap_or(0), listed[k]))
        .collect()
}
