//! Constant expressions the parser must know the value of: array dimensions such as
//! `[(2 + 1) * 2]` or `[size]` after `static const int size = 8;`.

use crate::ast::{BinOp, Expr, ExprKind, Init, Scalar, TypeKind, UnOp};
use std::collections::HashMap;

/// The scalar values of `const` variables whose initialisers are constant, flattened.
#[derive(Default)]
pub struct Consts {
    values: HashMap<String, Vec<f64>>,
}

impl Consts {
    /// Records `name`'s value when its initialiser is constant (forgets it otherwise, so a
    /// shadowing non-constant declaration hides an outer constant).
    pub fn record(&mut self, name: &str, kind: &TypeKind, init: Option<&Init>) {
        let mut out = Vec::new();
        let ok = init.is_some_and(|i| self.flatten(i, &mut out)) && out.len() <= 65536;
        if ok {
            if matches!(kind, TypeKind::Scalar(Scalar::Int | Scalar::Uint)) {
                out.iter_mut().for_each(|v| *v = v.trunc());
            }
            self.values.insert(name.to_string(), out);
        } else {
            self.values.remove(name);
        }
    }

    fn flatten(&self, init: &Init, out: &mut Vec<f64>) -> bool {
        match init {
            Init::Expr(e) => match self.eval(e) {
                Some(v) => {
                    out.push(v);
                    true
                }
                None => false,
            },
            Init::List(items, _) => items.iter().all(|i| self.flatten(i, out)),
            Init::SamplerState | Init::Str(..) => false,
        }
    }

    /// The value of a scalar constant expression, when it has one.
    pub fn eval(&self, e: &Expr) -> Option<f64> {
        self.eval_depth(e, 0)
    }

    fn eval_depth(&self, e: &Expr, depth: usize) -> Option<f64> {
        if depth > 64 {
            return None;
        }
        let ev = |x: &Expr| self.eval_depth(x, depth + 1);
        Some(match &e.kind {
            ExprKind::Int(v) => *v as f64,
            ExprKind::Float(v) => *v,
            ExprKind::Bool(b) => f64::from(u8::from(*b)),
            ExprKind::Ident(n) => match self.values.get(n)?.as_slice() {
                [v] => *v,
                _ => return None,
            },
            ExprKind::Index(a, i) => {
                let ExprKind::Ident(n) = &a.kind else {
                    return None;
                };
                let i = ev(i)?;
                if i < 0.0 {
                    return None;
                }
                *self.values.get(n)?.get(i as usize)?
            }
            ExprKind::Unary(op, x) => {
                let x = ev(x)?;
                match op {
                    UnOp::Neg => -x,
                    UnOp::Plus => x,
                    UnOp::Not => f64::from(u8::from(x == 0.0)),
                    _ => return None,
                }
            }
            ExprKind::Cast(ty, x) if ty.array.is_empty() => {
                let x = ev(x)?;
                match ty.kind {
                    TypeKind::Scalar(Scalar::Int | Scalar::Uint) => x.trunc(),
                    TypeKind::Scalar(Scalar::Bool) => f64::from(u8::from(x != 0.0)),
                    TypeKind::Scalar(_) => x,
                    _ => return None,
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (a, b) = (ev(a)?, ev(b)?);
                let t = |c: bool| f64::from(u8::from(c));
                match op {
                    BinOp::Add => a + b,
                    BinOp::Sub => a - b,
                    BinOp::Mul => a * b,
                    BinOp::Div if b != 0.0 => a / b,
                    BinOp::Rem if b != 0.0 => a % b,
                    BinOp::Lt => t(a < b),
                    BinOp::Gt => t(a > b),
                    BinOp::Le => t(a <= b),
                    BinOp::Ge => t(a >= b),
                    BinOp::Eq => t(a == b),
                    BinOp::Ne => t(a != b),
                    BinOp::And => t(a != 0.0 && b != 0.0),
                    BinOp::Or => t(a != 0.0 || b != 0.0),
                    _ => return None,
                }
            }
            ExprKind::Ternary(c, a, b) => {
                if ev(c)? != 0.0 {
                    ev(a)?
                } else {
                    ev(b)?
                }
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Loc;

    fn e(kind: ExprKind) -> Expr {
        Expr {
            kind,
            loc: Loc::default(),
        }
    }

    #[test]
    fn arithmetic_names_and_elements() {
        let mut c = Consts::default();
        let list = Init::List(
            vec![
                Init::Expr(e(ExprKind::Float(0.5))),
                Init::Expr(e(ExprKind::Int(3))),
            ],
            Loc::default(),
        );
        c.record("arr", &TypeKind::Scalar(Scalar::Float), Some(&list));
        c.record(
            "idx",
            &TypeKind::Scalar(Scalar::Int),
            Some(&Init::Expr(e(ExprKind::Float(1.7)))),
        );
        let index = e(ExprKind::Index(
            Box::new(e(ExprKind::Ident("arr".into()))),
            Box::new(e(ExprKind::Ident("idx".into()))),
        ));
        let sum = e(ExprKind::Binary(
            BinOp::Mul,
            Box::new(index),
            Box::new(e(ExprKind::Int(2))),
        ));
        assert_eq!(c.eval(&sum), Some(6.0));
        assert_eq!(c.eval(&e(ExprKind::Ident("nothing".into()))), None);
    }
}
