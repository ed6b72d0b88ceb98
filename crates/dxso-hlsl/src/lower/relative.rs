//! Dynamic indexing of uniform arrays: the element is read through relative addressing
//! (`c[base + a0.x]`), as fxc does in vertex shaders.

use super::{Lower, Value, R};
use crate::diag::{Code, Loc};
use crate::ir::{Lane, Op, Operand};

impl Lower<'_> {
    /// `elems[iv]` for an index known only when the shader runs.
    pub(super) fn relative_index(&mut self, elems: &[Value], iv: &Value, loc: &Loc) -> R<Value> {
        let Value::Vector { o: index, .. } = iv else {
            return Err(self.err(Code::InvalidSubscript, loc, "invalid subscript"));
        };
        let first = elems.first().and_then(|e| self.lowest_register(e));
        let first = match first {
            Some(f) if self.profile.is_vertex() => f,
            // Pixel shaders have no relative addressing of constants, and computed arrays
            // live in temporaries: the element is selected by comparisons.
            _ => return self.select_index(elems, index.lane(0), loc),
        };
        let stride = match elems.get(1).and_then(|e| self.lowest_register(e)) {
            Some(second) if second > first => second - first,
            _ => 1,
        };
        let last = elems
            .iter()
            .rev()
            .find_map(|e| self.highest_register(e))
            .unwrap_or(first);
        self.rel_ranges.push((first, last.saturating_add(1)));
        let mut index = index.lane(0);
        if stride != 1 {
            let s = self.m.scalar(stride as f32);
            index = self.m.op(Op::Mul(index, s), 1);
        }
        self.relative_value(&elems[0].clone(), index, loc)
    }

    /// `elems[index]` as a chain of selects on `index == k` (each element read, the one
    /// whose position matches kept), as fxc compiles indexing it cannot address.
    pub(super) fn select_index(&mut self, elems: &[Value], index: Operand, loc: &Loc) -> R<Value> {
        if elems.len() > 1024 {
            return Err(self.err(
                Code::Limit,
                loc,
                "dynamic indexing of an array of more than 1024 elements",
            ));
        }
        let Some(mut acc) = elems.first().cloned() else {
            return Err(self.err(Code::InvalidSubscript, loc, "invalid subscript"));
        };
        // A float index is truncated, as a conversion to int is.
        let index = if self.m.literal_lane(index, 0).is_some() {
            index
        } else {
            self.trunc(index, 1)
        };
        for (k, e) in elems.iter().enumerate().skip(1) {
            let kk = self.m.scalar(k as f32);
            let t = self.compare(crate::ast::BinOp::Eq, index, kk, 1);
            acc = self.select_value(t, e, &acc);
        }
        Ok(acc)
    }

    /// The lowest constant register a value's lanes read.
    fn lowest_register(&self, v: &Value) -> Option<u16> {
        let mut regs = Vec::new();
        for o in leaf_operands(v) {
            match self.m.node(o.h).op {
                Op::Uniform(r) => regs.push(r),
                Op::Compose(parts) => {
                    for p in parts.iter().flatten() {
                        if let Op::Uniform(r) = self.m.node(p.h).op {
                            regs.push(r);
                        }
                    }
                }
                _ => {}
            }
        }
        regs.into_iter().min()
    }

    /// The highest constant register a value's lanes read.
    fn highest_register(&self, v: &Value) -> Option<u16> {
        let mut regs = Vec::new();
        for o in leaf_operands(v) {
            match self.m.node(o.h).op {
                Op::Uniform(r) => regs.push(r),
                Op::Compose(parts) => {
                    for p in parts.iter().flatten() {
                        if let Op::Uniform(r) = self.m.node(p.h).op {
                            regs.push(r);
                        }
                    }
                }
                _ => {}
            }
        }
        regs.into_iter().max()
    }

    /// `v` (element 0 of a uniform array) with every register read at `index` elements on.
    fn relative_value(&mut self, v: &Value, index: Operand, loc: &Loc) -> R<Value> {
        Ok(match v {
            Value::Vector {
                o,
                n,
                ty,
                scalar_form,
            } => Value::Vector {
                o: self.relative_operand(*o, index, loc)?,
                n: *n,
                ty: *ty,
                scalar_form: *scalar_form,
            },
            Value::Matrix {
                rows,
                cols,
                ty,
                column_registers,
            } => {
                let mut r2 = Vec::with_capacity(rows.len());
                for r in rows {
                    r2.push(self.relative_operand(*r, index, loc)?);
                }
                let mut c2 = Vec::with_capacity(cols.len());
                for c in cols {
                    c2.push(self.relative_operand(*c, index, loc)?);
                }
                Value::Matrix {
                    rows: r2,
                    cols: c2,
                    ty: *ty,
                    column_registers: *column_registers,
                }
            }
            Value::Struct(i, fields) => {
                let mut out = Vec::with_capacity(fields.len());
                for f in fields {
                    out.push(self.relative_value(f, index, loc)?);
                }
                Value::Struct(*i, out)
            }
            Value::Array(elems) => {
                let mut out = Vec::with_capacity(elems.len());
                for e in elems {
                    out.push(self.relative_value(e, index, loc)?);
                }
                Value::Array(out)
            }
            _ => {
                return Err(self.err(
                    Code::Unsupported,
                    loc,
                    "dynamic indexing of samplers or objects is not supported",
                ))
            }
        })
    }

    fn relative_operand(&mut self, o: Operand, index: Operand, loc: &Loc) -> R<Operand> {
        let node = *self.m.node(o.h);
        Ok(match node.op {
            Op::Uniform(r) => Operand {
                h: self.m.push(Op::UniformRel(r, index), node.width),
                ..o
            },
            Op::Literal(_) => o,
            Op::Compose(parts) => {
                let mut out: [Option<Lane>; 4] = [None; 4];
                for (k, p) in parts.iter().enumerate() {
                    if let Some(p) = p {
                        let moved = self.relative_operand(Operand::of(p.h), index, loc)?;
                        out[k] = Some(Lane { h: moved.h, ..*p });
                    }
                }
                Operand {
                    h: self.m.push(Op::Compose(out), node.width),
                    ..o
                }
            }
            _ => {
                return Err(self.err(
                    Code::Unsupported,
                    loc,
                    "dynamic indexing of a computed array is not supported yet",
                ))
            }
        })
    }
}

/// The operands a value's lanes live in.
pub(super) fn leaf_operands(v: &Value) -> Vec<Operand> {
    let mut out = Vec::new();
    fn walk(v: &Value, out: &mut Vec<Operand>) {
        match v {
            Value::Vector { o, .. } => out.push(*o),
            Value::Matrix { rows, cols, .. } => {
                out.extend(rows.iter().copied());
                out.extend(cols.iter().copied());
            }
            Value::Struct(_, f) | Value::Array(f) => f.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    walk(v, &mut out);
    out
}
