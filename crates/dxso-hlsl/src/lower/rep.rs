//! Loops counted by an integer constant register (`for (i = 0; i < n; i++)` with `int n :
//! register(i#)`) kept as `rep i#` loops, as fxc keeps them: the count is known only when the
//! shader runs, so they cannot be unrolled. The body is lowered once; the variables it changes
//! become [`Op::Phi`] nodes whose registers carry them across iterations.

use super::relative::leaf_operands;
use super::{LoopState, Lower, Value, R};
use crate::ast::{BinOp, Expr, ExprKind, Stmt, UnOp};
use crate::diag::{Code, Loc};
use crate::ir::{substitute_operand, Handle, Loop, LoopKind, Op, Operand};
use crate::Profile;

impl Lower<'_> {
    /// Lowers the loop as `rep` when it has the counted form; `false` when it does not (the
    /// caller unrolls it).
    pub(super) fn rep_loop(
        &mut self,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
        loc: &Loc,
    ) -> R<bool> {
        let Some((counter, count, uniform)) = self.counted_form(cond, step) else {
            return Ok(false);
        };
        if matches!(self.profile, Profile::Ps20 | Profile::Vs11) {
            return Err(self.err(
                Code::Unsupported,
                loc,
                format!(
                    "a loop counted by an integer constant needs rep, which {} does not have",
                    self.profile
                ),
            ));
        }
        // The variables the body or the step may change, as they are before the loop.
        let mut names = Vec::new();
        let writes_arguments = |f: &str| {
            matches!(f, "sincos" | "modf" | "frexp")
                || self
                    .functions
                    .get(f)
                    .is_some_and(|fs| fs.iter().any(|f| f.params.iter().any(|p| p.quals.output)))
        };
        stmt_targets(body, &writes_arguments, &mut names);
        names.push(counter);
        names.sort();
        names.dedup();
        let names: Vec<(String, Value)> = names
            .into_iter()
            .filter_map(|n| {
                let v = self.local(&n)?;
                Some((n, v))
            })
            .collect();
        let l = self.m.loops.len() as u16;
        let begin = self.m.push(Op::LoopBegin(l), 1);
        self.m.loops.push(Loop {
            count,
            begin,
            end: begin,
            phis: Vec::new(),
            inits: Vec::new(),
            nexts: Vec::new(),
            kind: LoopKind::Rep,
            else_node: None,
            then_nexts: Vec::new(),
        });
        let (mut phis, mut inits) = (Vec::new(), Vec::new());
        let mut carried = Vec::new();
        for (name, v) in &names {
            let p = self.phi_value(v, l, &mut phis, &mut inits, loc)?;
            self.set_local(name, p.clone());
            carried.push((name.clone(), p));
        }
        let zero = self.m.scalar(0.0);
        // `break` and `continue` are flattened as in unrolled loops: the body runs every
        // iteration with its writes masked. Whether the loop has been left is one more loop
        // variable, so the iterations after a `break` change nothing; `continue` holds for the
        // rest of its iteration only.
        let broken = if leaves(body) {
            let h = self.m.push(Op::Phi(l, phis.len() as u16), 1);
            phis.push(h);
            inits.push(zero);
            Some(h)
        } else {
            None
        };
        self.loops.push(LoopState {
            broken: broken.map_or(zero, |h| Operand::of(h).lane(0)),
            continued: zero,
        });
        let returned = self.frames.last().map(|f| f.returned);
        let r = self.stmt(body);
        if r.is_err() {
            self.loops.pop();
        }
        r?;
        if self.frames.last().map(|f| f.returned) != returned
            || (broken.is_none() && !self.is_static_zero(self.loops.last().expect("pushed").broken))
        {
            self.loops.pop();
            return Err(self.err(
                Code::Unsupported,
                loc,
                "return inside a loop counted by an integer constant is not supported yet",
            ));
        }
        // The step runs after a `continue`, not after a `break`.
        self.loops.last_mut().expect("pushed").continued = zero;
        let stepped = match step {
            Some(s) => self.expr(s).map(|_| ()),
            None => Ok(()),
        };
        let state = self.loops.pop().expect("pushed");
        stepped?;
        let mut nexts = Vec::new();
        for (name, p) in &carried {
            let now = self.local(name).unwrap_or_else(|| p.clone());
            nexts.extend(leaf_operands(&now));
        }
        if broken.is_some() {
            nexts.push(state.broken);
        }
        if nexts.len() != phis.len() {
            return Err(self.err(Code::Limit, loc, "internal: a loop variable changed shape"));
        }
        // Lanes the body does not change (a struct's other fields) read the value from before
        // the loop: no register is carried for them.
        let mut replace: Vec<(Handle, Operand)> = Vec::new();
        let (mut kept_phis, mut kept_inits, mut kept_nexts) = (Vec::new(), Vec::new(), Vec::new());
        for ((p, init), next) in phis.iter().zip(&inits).zip(&nexts) {
            if *next == Operand::of(*p) {
                replace.push((*p, *init));
            } else {
                kept_phis.push(*p);
                kept_inits.push(*init);
                kept_nexts.push(*next);
            }
        }
        for h in begin.0 + 1..self.m.next_handle().0 {
            self.m.substitute(Handle(h), &replace);
        }
        for k in self.m.kills.iter_mut() {
            *k = substitute_operand(*k, &replace);
        }
        let kept_nexts: Vec<Operand> = kept_nexts
            .into_iter()
            .map(|o| substitute_operand(o, &replace))
            .collect();
        for (name, p) in &carried {
            let v = substitute_value(p, &replace);
            self.set_local(name, v);
        }
        let (phis, inits, nexts) = (kept_phis, kept_inits, kept_nexts);
        let end = self.m.push(Op::LoopEnd(l), 1);
        self.m.loops[l as usize] = Loop {
            count,
            begin,
            end,
            phis,
            inits,
            nexts,
            kind: LoopKind::Rep,
            else_node: None,
            then_nexts: Vec::new(),
        };
        // What the body computed does not exist after the loop (it may have run no times).
        self.m.forget_since(begin);
        self.m.uniforms[uniform].used = true;
        Ok(true)
    }

    /// `(counter, i#, uniform index)` for `for (counter = 0; counter < n; counter++)` with `n`
    /// an integer constant register.
    fn counted_form(
        &mut self,
        cond: Option<&Expr>,
        step: Option<&Expr>,
    ) -> Option<(String, u16, usize)> {
        let ExprKind::Binary(BinOp::Lt, a, b) = &cond?.kind else {
            return None;
        };
        let ExprKind::Ident(counter) = &a.kind else {
            return None;
        };
        // `n` or `n[k]` (an element of an array of integer registers), or `n` / `n.x` of an
        // int uniform in no register set yet, which then takes an `i#` as fxc gives it.
        let bound = match &b.kind {
            ExprKind::Ident(bound) => match self.lookup(bound)? {
                Value::IntRegister(r, u) => Value::IntRegister(r, u),
                _ => self.int_register_for(bound)?,
            },
            ExprKind::Member(x, lane) if lane == "x" || lane == "r" => match &x.kind {
                ExprKind::Ident(bound) => self.int_register_for(bound)?,
                _ => return None,
            },
            ExprKind::Index(x, k) => match (&x.kind, &k.kind) {
                (ExprKind::Ident(bound), ExprKind::Int(k)) => match self.lookup(bound)? {
                    Value::Array(elems) => elems.get(usize::try_from(*k).ok()?)?.clone(),
                    _ => return None,
                },
                _ => return None,
            },
            _ => return None,
        };
        let Value::IntRegister(reg, uniform) = bound else {
            return None;
        };
        let Some(Value::Vector { o, .. }) = self.local(counter) else {
            return None;
        };
        if self.m.literal_lane(o, 0) != Some(0.0) {
            return None;
        }
        let steps_by_one = match &step?.kind {
            ExprKind::Unary(UnOp::PostInc | UnOp::PreInc, x) => is_ident(x, counter),
            ExprKind::Assign(Some(BinOp::Add), x, one) => {
                is_ident(x, counter) && matches!(one.kind, ExprKind::Int(1))
            }
            _ => false,
        };
        steps_by_one.then(|| (counter.clone(), reg, uniform))
    }

    /// An `i#` register for the int uniform (scalar or vector) `name` that is a loop's count,
    /// allocated at the lowest register no int uniform takes; the same one each time.
    fn int_register_for(&mut self, name: &str) -> Option<Value> {
        if self.local(name).is_some() {
            return None;
        }
        let &index = self.uniform_index.get(name)?;
        let u = &self.m.uniforms[index];
        let int = u.ty.ty() == Some(dxso::ctab::ParameterType::Int)
            && matches!(
                u.ty.class(),
                Some(dxso::ctab::ParameterClass::Scalar | dxso::ctab::ParameterClass::Vector)
            )
            && u.ty.elements <= 1;
        if !int || u.set != dxso::ctab::RegisterSet::Float4 {
            return None;
        }
        let ints = |m: &crate::ir::Module| {
            m.uniforms
                .iter()
                .enumerate()
                .filter(|(_, u)| u.set == dxso::ctab::RegisterSet::Int4)
                .map(|(i, u)| (i, u.name.clone(), u.register, u.count))
                .collect::<Vec<_>>()
        };
        let taken = ints(&self.m);
        if let Some((i, _, r, _)) = taken.iter().find(|(_, n, _, _)| n == name) {
            return Some(Value::IntRegister(*r, *i));
        }
        let register = (0..16u16).find(|r| {
            !taken
                .iter()
                .any(|&(_, _, first, n)| (first..first.saturating_add(n)).contains(r))
        })?;
        let decl = crate::ir::UniformDecl {
            name: name.to_string(),
            set: dxso::ctab::RegisterSet::Int4,
            register,
            count: 1,
            ty: u.ty.clone(),
            default: None,
            used: false,
        };
        self.m.uniforms.push(decl);
        Some(Value::IntRegister(register, self.m.uniforms.len() - 1))
    }

    /// A variable of the current function.
    pub(super) fn local(&self, name: &str) -> Option<Value> {
        let f = self.frames.last()?;
        f.scopes.iter().rev().find_map(|s| s.get(name).cloned())
    }

    pub(super) fn set_local(&mut self, name: &str, v: Value) {
        if let Some(f) = self.frames.last_mut() {
            if let Some(slot) = f.scopes.iter_mut().rev().find_map(|s| s.get_mut(name)) {
                *slot = v;
            }
        }
    }

    /// `v` with each vector replaced by a new [`Op::Phi`] of loop `l`.
    pub(super) fn phi_value(
        &mut self,
        v: &Value,
        l: u16,
        phis: &mut Vec<Handle>,
        inits: &mut Vec<Operand>,
        loc: &Loc,
    ) -> R<Value> {
        Ok(match v {
            Value::Vector {
                o,
                n,
                ty,
                scalar_form,
            } => {
                let h = self.m.push(Op::Phi(l, phis.len() as u16), *n);
                phis.push(h);
                inits.push(*o);
                Value::Vector {
                    o: Operand::of(h),
                    n: *n,
                    ty: *ty,
                    scalar_form: *scalar_form,
                }
            }
            Value::Struct(i, fields) => {
                let mut out = Vec::with_capacity(fields.len());
                for f in fields {
                    out.push(self.phi_value(f, l, phis, inits, loc)?);
                }
                Value::Struct(*i, out)
            }
            Value::Array(elems) => {
                let mut out = Vec::with_capacity(elems.len());
                for e in elems {
                    out.push(self.phi_value(e, l, phis, inits, loc)?);
                }
                Value::Array(out)
            }
            Value::Matrix { .. } => {
                return Err(self.err(
                    Code::Unsupported,
                    loc,
                    "a matrix changed inside a loop counted by an integer constant is not supported yet",
                ))
            }
            other => other.clone(),
        })
    }
}

fn is_ident(e: &Expr, name: &str) -> bool {
    matches!(&e.kind, ExprKind::Ident(n) if n == name)
}

/// The variable an assignment target writes.
fn root(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n),
        ExprKind::Member(x, _) | ExprKind::Index(x, _) => root(x),
        _ => None,
    }
}

/// The variables a statement may write: assignment and `++`/`--` targets, and the variables
/// passed to a function `w` says writes its arguments (an `out` parameter).
pub(super) fn stmt_targets(s: &Stmt, w: &dyn Fn(&str) -> bool, out: &mut Vec<String>) {
    match s {
        Stmt::Expr(e) => expr_targets(e, w, out),
        Stmt::Vars(vars) => {
            for v in vars {
                if let Some(crate::ast::Init::Expr(e)) = &v.init {
                    expr_targets(e, w, out);
                }
            }
        }
        Stmt::Block(b) => b.iter().for_each(|s| stmt_targets(s, w, out)),
        Stmt::If {
            cond,
            then,
            otherwise,
            ..
        } => {
            expr_targets(cond, w, out);
            stmt_targets(then, w, out);
            if let Some(o) = otherwise {
                stmt_targets(o, w, out);
            }
        }
        Stmt::For {
            init,
            cond,
            step,
            body,
            ..
        } => {
            if let Some(i) = init {
                stmt_targets(i, w, out);
            }
            cond.iter()
                .chain(step.iter())
                .for_each(|e| expr_targets(e, w, out));
            stmt_targets(body, w, out);
        }
        Stmt::While { cond, body, .. } | Stmt::DoWhile { body, cond, .. } => {
            expr_targets(cond, w, out);
            stmt_targets(body, w, out);
        }
        Stmt::Return(Some(e), _) => expr_targets(e, w, out),
        _ => {}
    }
}

fn expr_targets(e: &Expr, w: &dyn Fn(&str) -> bool, out: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Assign(_, t, v) => {
            out.extend(root(t).map(str::to_string));
            expr_targets(t, w, out);
            expr_targets(v, w, out);
        }
        ExprKind::Unary(op, x) => {
            if matches!(
                op,
                UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec
            ) {
                out.extend(root(x).map(str::to_string));
            }
            expr_targets(x, w, out);
        }
        ExprKind::Call(f, args) | ExprKind::Method(_, f, args) => {
            for a in args {
                if w(f) {
                    out.extend(root(a).map(str::to_string));
                }
                expr_targets(a, w, out);
            }
        }
        ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
            expr_targets(a, w, out);
            expr_targets(b, w, out);
        }
        ExprKind::Ternary(a, b, c) => {
            expr_targets(a, w, out);
            expr_targets(b, w, out);
            expr_targets(c, w, out);
        }
        ExprKind::Construct(_, args) => args.iter().for_each(|a| expr_targets(a, w, out)),
        ExprKind::Cast(_, x) | ExprKind::Member(x, _) => expr_targets(x, w, out),
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) | ExprKind::Ident(_) => {}
    }
}

/// `true` when `s` has a `break` of the loop whose body it is (not of a loop inside it).
fn leaves(s: &Stmt) -> bool {
    match s {
        Stmt::Break(_) => true,
        Stmt::Block(b) => b.iter().any(leaves),
        Stmt::If {
            then, otherwise, ..
        } => leaves(then) || otherwise.as_deref().is_some_and(leaves),
        _ => false,
    }
}

/// `v` with the replaced phis read from their values before the loop.
pub(super) fn substitute_value(v: &Value, replace: &[(Handle, Operand)]) -> Value {
    match v {
        Value::Vector {
            o,
            n,
            ty,
            scalar_form,
        } => Value::Vector {
            o: substitute_operand(*o, replace),
            n: *n,
            ty: *ty,
            scalar_form: *scalar_form,
        },
        Value::Struct(i, f) => {
            Value::Struct(*i, f.iter().map(|x| substitute_value(x, replace)).collect())
        }
        Value::Array(e) => Value::Array(e.iter().map(|x| substitute_value(x, replace)).collect()),
        other => other.clone(),
    }
}
