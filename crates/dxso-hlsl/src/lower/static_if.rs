//! `if (B)` on a boolean constant register (`bool B : register(b#)`) kept as static flow
//! control, `if b#` ... `else` ... `endif`, as fxc emits it: the value is known only when the
//! shader runs and no instruction reads it as a number. Each branch is lowered once; the
//! variables either changes become [`Op::Phi`] nodes whose registers hold them across the
//! block, as a `rep` loop's do (the block is a loop run at most once).

use super::rep::{stmt_targets, substitute_value};
use super::{Lower, Value, R};
use crate::ast::Stmt;
use crate::diag::{Code, Loc};
use crate::ir::{substitute_operand, Handle, Loop, LoopKind, Op, Operand};
use crate::Profile;

impl Lower<'_> {
    /// Lowers `if (b#) then else otherwise` as a static block; `uniform` is `b#`'s uniform.
    pub(super) fn static_if(
        &mut self,
        reg: u16,
        uniform: usize,
        then: &Stmt,
        otherwise: Option<&Stmt>,
        loc: &Loc,
    ) -> R<()> {
        if matches!(self.profile, Profile::Ps20 | Profile::Vs11) {
            return Err(self.err(
                Code::Unsupported,
                loc,
                format!(
                    "a branch on a boolean constant register needs if b#, which {} does not have",
                    self.profile
                ),
            ));
        }
        let mut names = Vec::new();
        let writes_arguments = |f: &str| {
            matches!(f, "sincos" | "modf" | "frexp")
                || self
                    .functions
                    .get(f)
                    .is_some_and(|fs| fs.iter().any(|f| f.params.iter().any(|p| p.quals.output)))
        };
        stmt_targets(then, &writes_arguments, &mut names);
        if let Some(o) = otherwise {
            stmt_targets(o, &writes_arguments, &mut names);
        }
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
            count: reg,
            begin,
            end: begin,
            phis: Vec::new(),
            inits: Vec::new(),
            nexts: Vec::new(),
            kind: LoopKind::IfBool,
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
        let mut then_nexts = self.static_branch(then, &carried, loc)?;
        let mut else_node = None;
        let nexts = match otherwise {
            Some(o) => {
                // The second branch starts from the values before the block (the phis'
                // registers still hold them when the first branch did not run).
                let e = self.m.push(Op::LoopElse(l), 1);
                self.m.forget_since(begin);
                else_node = Some(e);
                for (name, p) in &carried {
                    self.set_local(name, p.clone());
                }
                self.static_branch(o, &carried, loc)?
            }
            // Without an `else`, the block's end carries the first branch's values.
            None => std::mem::replace(
                &mut then_nexts,
                phis.iter().map(|p| Operand::of(*p)).collect(),
            ),
        };
        if nexts.len() != phis.len() || then_nexts.len() != phis.len() {
            return Err(self.err(Code::Limit, loc, "internal: a variable changed shape"));
        }
        // Lanes neither branch changes read the value from before the block.
        let mut replace: Vec<(Handle, Operand)> = Vec::new();
        let mut kept = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (((p, init), next), then_next) in phis.iter().zip(&inits).zip(&nexts).zip(&then_nexts) {
            if *next == Operand::of(*p) && *then_next == Operand::of(*p) {
                replace.push((*p, *init));
            } else {
                kept.0.push(*p);
                kept.1.push(*init);
                kept.2.push(*next);
                kept.3.push(*then_next);
            }
        }
        for h in begin.0 + 1..self.m.next_handle().0 {
            self.m.substitute(Handle(h), &replace);
        }
        let sub = |v: Vec<Operand>| -> Vec<Operand> {
            v.into_iter()
                .map(|o| substitute_operand(o, &replace))
                .collect()
        };
        let (phis, inits, nexts) = (kept.0, kept.1, sub(kept.2));
        let then_nexts = if else_node.is_some() {
            sub(kept.3)
        } else {
            Vec::new()
        };
        for (name, p) in &carried {
            let v = substitute_value(p, &replace);
            self.set_local(name, v);
        }
        let end = self.m.push(Op::LoopEnd(l), 1);
        self.m.loops[l as usize] = Loop {
            count: reg,
            begin,
            end,
            phis,
            inits,
            nexts,
            kind: LoopKind::IfBool,
            else_node,
            then_nexts,
        };
        // What a branch computed does not exist after the block (it may not have run).
        self.m.forget_since(begin);
        self.m.uniforms[uniform].used = true;
        Ok(())
    }

    /// Lowers one branch of a static block; the carried variables' values at its end.
    fn static_branch(
        &mut self,
        s: &Stmt,
        carried: &[(String, Value)],
        loc: &Loc,
    ) -> R<Vec<Operand>> {
        let kills = self.m.kills.len();
        let returned = self.frames.last().map(|f| f.returned);
        let jumps: Vec<(Operand, Operand)> =
            self.loops.iter().map(|l| (l.broken, l.continued)).collect();
        self.stmt(s)?;
        let jumps_now: Vec<(Operand, Operand)> =
            self.loops.iter().map(|l| (l.broken, l.continued)).collect();
        if self.m.kills.len() != kills
            || self.frames.last().map(|f| f.returned) != returned
            || jumps_now != jumps
        {
            return Err(self.err(
                Code::Unsupported,
                loc,
                "discard, break, continue or return under a boolean constant register is not supported yet",
            ));
        }
        let mut nexts = Vec::new();
        for (name, p) in carried {
            let now = self.local(name).unwrap_or_else(|| p.clone());
            nexts.extend(super::relative::leaf_operands(&now));
        }
        Ok(nexts)
    }
}
