//! The body of vertex shaders and ps_2_0+ shaders: a sequence of statements, each an
//! instruction or a block (`if`/`ifc`/`if p0` with an optional `else`, `loop aL, i#`, `rep i#`)
//! with a body of its own, breaks, and calls of subroutines generated where they are first
//! called. States are joined where paths meet, so only values written on every path are read
//! after a block; loop trip counts come from `defi`, so every program terminates.

use super::operands::{Ports, SrcReq};
use super::state::LoopFrame;
use super::{Ctx, Func, Gen, Sub};
use dxso::validate::Profile;
use dxso::{Instruction, Opcode, Register, RegisterType, SrcModifier, SrcParam, Swizzle};

/// What kind of statement to emit next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stmt {
    Arith,
    Texture,
    TexKill,
    Derivative,
    SetP,
    Address,
    If,
    Loop,
    Rep,
    Break,
    Call,
}

impl Gen<'_, '_> {
    /// Generates the whole program body of a vertex shader or ps_2_0+ shader.
    pub(crate) fn program(&mut self) -> Vec<Instruction> {
        let (_, arith) = self.p.slots(false);
        self.budget.slots = arith;
        if self.p == Profile::Ps20 {
            self.budget.tex_slots = self.p.slots(false).0;
        }
        // The epilogue writes each output at most once.
        let n_out = self.outputs.len();
        self.reserve(n_out, n_out as u32);
        let (_, _, max_call) = self.p.nesting();
        let mut ctx = Ctx::main();
        ctx.call_levels = if self.cfg.subroutines && self.allowed(Opcode::Call) {
            max_call
        } else {
            0
        };
        let target = self.range(1, self.cfg.max_instructions.max(1) as u32) as usize;
        let keep = self.budget.instrs.saturating_sub(target);
        self.reserve(keep, 0);
        self.block(&ctx, usize::MAX);
        self.release(keep, 0);
        self.release(n_out, n_out as u32);
        self.epilogue(&ctx);
        if !self.subs.is_empty() {
            self.release(1, 1);
            self.emit(Instruction::new(Opcode::Ret), 1);
        }
        std::mem::take(&mut self.out)
    }

    /// Statements until the budget ends or the input says stop (a block body stops sooner).
    fn block(&mut self, ctx: &Ctx, max_statements: usize) {
        let mut n = 0;
        while n < max_statements && self.affords(Opcode::Mov) {
            if n > 0 && !ctx.top && !self.chance(3, 4) {
                break;
            }
            if ctx.top && self.u.is_empty() {
                break;
            }
            n += 1;
            let stmt = self.choose_stmt(ctx);
            let done = match stmt {
                Stmt::Arith => self.arith(ctx),
                Stmt::Texture => self.texture(ctx),
                Stmt::TexKill => self.texkill(ctx),
                Stmt::Derivative => self.derivative(ctx),
                Stmt::SetP => self.setp(ctx),
                Stmt::Address => self.write_address(ctx),
                Stmt::If => self.if_block(ctx),
                Stmt::Loop => self.loop_block(ctx, true),
                Stmt::Rep => self.loop_block(ctx, false),
                Stmt::Break => self.break_stmt(ctx),
                Stmt::Call => self.call(ctx),
            };
            if !done && !self.arith(ctx) {
                self.fallback_mov(ctx);
            }
        }
    }

    fn choose_stmt(&mut self, ctx: &Ctx) -> Stmt {
        let mut w: Vec<(Stmt, u32)> = vec![(Stmt::Arith, 12)];
        let flow = self.cfg.flow_control && self.has_flow();
        let (max_if, max_loop, _) = self.p.nesting();
        let depth = ctx.if_depth + ctx.loop_depth;
        if !self.samplers.is_empty() {
            w.push((Stmt::Texture, 3));
        }
        if self.v.is_pixel() && self.cfg.discard {
            w.push((Stmt::TexKill, 1));
        }
        if self.cfg.derivatives && self.allowed(Opcode::Dsx) {
            w.push((Stmt::Derivative, 1));
        }
        if self.cfg.predication && self.allowed(Opcode::SetP) {
            w.push((Stmt::SetP, 2));
        }
        if self.addr_const.is_some() {
            w.push((Stmt::Address, 2));
        }
        if flow && depth < self.cfg.max_nesting && ctx.if_depth < max_if {
            w.push((Stmt::If, 3));
        }
        if flow
            && depth < self.cfg.max_nesting
            && ctx.loop_depth < max_loop
            && !self.idefs.is_empty()
        {
            if self.allowed(Opcode::Loop) {
                w.push((Stmt::Loop, 2));
            }
            w.push((Stmt::Rep, 2));
        }
        if flow && ctx.local_loops > 0 && self.allowed(Opcode::Break) {
            w.push((Stmt::Break, 1));
        }
        if ctx.call_levels > 0 {
            w.push((Stmt::Call, 2));
        }
        let total: u32 = w.iter().map(|x| x.1).sum();
        let mut roll = self.range(0, total - 1);
        for (s, weight) in w {
            if roll < weight {
                return s;
            }
            roll -= weight;
        }
        Stmt::Arith
    }

    /// `mov` of a constant into a temp: always possible, so a statement never fails.
    fn fallback_mov(&mut self, ctx: &Ctx) {
        let c = self.zero_const();
        let r = self.range(0, self.temp_count() as u32 - 1) as u16;
        let mut inst = Instruction::new(Opcode::Mov);
        inst.dst = Some(dxso::DstParam::new(
            Register::new(RegisterType::Temp, r),
            dxso::WriteMask::ALL,
        ));
        let _ = inst.srcs.push(SrcParam::new(
            Register::new(RegisterType::Const, c as u16),
            Swizzle::IDENTITY,
        ));
        self.commit_write(super::operands::Target::Temp(r), 0xF, 0.0, 0, true);
        self.emit(inst, ctx.iterations);
    }

    fn inner(&self, ctx: &Ctx) -> Ctx {
        Ctx { top: false, ..*ctx }
    }

    /// `if b#`, `if p0.c`, `if_cc a, b`, with a body and maybe an `else`.
    fn if_block(&mut self, ctx: &Ctx) -> bool {
        if !self.affords_with(Opcode::If, 2, 2) || !self.static_flow_fits(2) {
            return false;
        }
        let mut kinds = vec![0u8];
        if self.cfg.predication && self.p.has_predicate() && self.st.pred != 0 {
            kinds.push(1);
        }
        if self.allowed(Opcode::Ifc) {
            kinds.push(2);
            kinds.push(2);
        }
        let kind = self.pick(&kinds);
        let mut inst;
        let divergent;
        match kind {
            0 => {
                inst = Instruction::new(Opcode::If);
                let b = self.bool_const();
                let _ = inst.srcs.push(b);
                divergent = false;
            }
            1 => {
                inst = Instruction::new(Opcode::If);
                let _ = inst.srcs.push(self.pred_src());
                divergent = true;
            }
            _ => {
                inst = Instruction::new(Opcode::Ifc);
                inst.control = self.range(1, 6) as u8;
                let Some([a, b]) = self.compared_pair() else {
                    return false;
                };
                let _ = inst.srcs.push(a);
                let _ = inst.srcs.push(b);
                divergent = true;
            }
        }
        let with_else = self.chance(1, 3);
        self.emit(inst, ctx.iterations);
        self.reserve(1 + with_else as usize, 1 + with_else as u32);
        self.budget.static_reserved += with_else as usize;
        let mut inner = self.inner(ctx);
        inner.if_depth += 1;
        inner.dynamic |= divergent;
        inner.divergent_since_loop |= divergent;
        self.func.if_height = self.func.if_height.max(inner.if_depth);
        let pre = self.st.clone();
        self.block(&inner, 6);
        let then_state = self.st.clone();
        if with_else {
            self.release(1, 1);
            self.budget.static_reserved -= 1;
            self.st = pre.clone();
            self.emit(Instruction::new(Opcode::Else), ctx.iterations);
            self.block(&inner, 6);
            self.st = then_state.join(&self.st);
        } else {
            self.st = pre.join(&then_state);
        }
        self.release(1, 1);
        self.emit(Instruction::new(Opcode::EndIf), ctx.iterations);
        true
    }

    /// The two replicate-swizzled operands `if_cc` and `break_cc` compare.
    fn compared_pair(&mut self) -> Option<[SrcParam; 2]> {
        let snapshot = self.snapshot();
        let mut ports = Ports::default();
        let mods = self.value_mods();
        let a = self.pick_src(&SrcReq::replicate().mods(mods), &mut ports);
        let b = self.pick_src(&SrcReq::replicate().mods(mods), &mut ports);
        match (a, b) {
            (Some(a), Some(b)) => Some([a.src, b.src]),
            _ => {
                self.restore(snapshot);
                None
            }
        }
    }

    /// A boolean constant for `if`/`callnz`.
    fn bool_const(&mut self) -> SrcParam {
        let defined: Vec<u16> = self.bdefs.keys().copied().collect();
        let b = if !defined.is_empty() && self.chance(1, 2) {
            self.pick(&defined)
        } else {
            self.range(0, 15) as u16
        };
        self.rec.bconsts.insert(b);
        SrcParam::new(Register::new(RegisterType::ConstBool, b), Swizzle::IDENTITY)
    }

    /// `p0.c` (maybe `!p0.c`) over a written component.
    fn pred_src(&mut self) -> SrcParam {
        let comps: Vec<u8> = (0..4).filter(|c| self.st.pred & (1 << c) != 0).collect();
        let c = self.pick(&comps);
        let mut p = SrcParam::new(
            Register::new(RegisterType::Predicate, 0),
            Swizzle::replicate(c),
        );
        if self.chance(1, 3) {
            p.modifier = SrcModifier::Not;
        }
        p
    }

    /// `loop aL, i#` or `rep i#` over a defined integer constant whose trip count keeps the
    /// nested product within `max_loop_iterations`.
    fn loop_block(&mut self, ctx: &Ctx, with_al: bool) -> bool {
        let (open, close) = if with_al {
            (Opcode::Loop, Opcode::EndLoop)
        } else {
            (Opcode::Rep, Opcode::EndRep)
        };
        if !self.affords_with(open, 1, 2) || !self.static_flow_fits(1) {
            return false;
        }
        if self.loops.len() >= super::state::LOOP_DEPTH {
            return false;
        }
        let max = self.cfg.max_loop_iterations.max(1) as u64;
        let fits: Vec<(u16, [i32; 4])> = self
            .idefs
            .iter()
            .filter(|(_, v)| (v[0].max(1) as u64).saturating_mul(ctx.iterations) <= max)
            .map(|(k, v)| (*k, *v))
            .collect();
        if fits.is_empty() {
            return false;
        }
        let (i, vals) = self.pick(&fits);
        let (count, start, step) = (vals[0], vals[1], vals[2]);
        let last = start + (count.max(1) - 1) * step;
        let al = with_al.then(|| (start.min(last), start.max(last)));
        let mut inst = Instruction::new(open);
        if with_al {
            let _ = inst.srcs.push(SrcParam::new(
                Register::new(RegisterType::Loop, 0),
                Swizzle::IDENTITY,
            ));
        }
        let _ = inst.srcs.push(SrcParam::new(
            Register::new(RegisterType::ConstInt, i),
            Swizzle::IDENTITY,
        ));
        self.rec.iconsts.insert(i);
        self.emit(inst, ctx.iterations);
        let (_, cs) = self.slot_cost(close);
        self.reserve(1, cs);
        // Divergent breaks may leave this loop: decided now, because gradients inside depend on it.
        let dynamic = ctx.dynamic || (self.allowed(Opcode::BreakC) && self.chance(1, 3));
        let mut inner = self.inner(ctx);
        inner.loop_depth += 1;
        inner.local_loops += 1;
        inner.dynamic = dynamic;
        inner.divergent_since_loop = false;
        inner.iterations = ctx.iterations.saturating_mul(count.max(1) as u64);
        self.func.loop_height = self.func.loop_height.max(inner.loop_depth);
        let local = inner.iterations / self.func.entry_iterations.max(1);
        self.func.inner_iterations = self.func.inner_iterations.max(local);
        self.loops.push(LoopFrame {
            al,
            dynamic,
            carried: 0,
        });
        let k = self.loops.len() - 1;
        self.st.fresh[k] = 0;
        let pre = self.st.clone();
        self.block(&inner, 8);
        let frame = self.loops.pop().unwrap_or(LoopFrame {
            al: None,
            dynamic: false,
            carried: 0,
        });
        self.st = pre.join(&self.st);
        self.st.fresh[k] = 0;
        for r in 0..32 {
            if frame.carried & (1 << r) != 0 {
                self.st.bound[r] = self.st.bound[r].max(self.cfg.loop_value_limit);
            }
        }
        self.release(1, cs);
        self.emit(Instruction::new(close), ctx.iterations);
        true
    }

    /// `break`, `break_cc a, b` or `breakp p0.c` inside a loop of this function.
    fn break_stmt(&mut self, ctx: &Ctx) -> bool {
        let Some(frame) = self.loops.last() else {
            return false;
        };
        let dynamic_ok = frame.dynamic;
        let mut kinds = Vec::new();
        if dynamic_ok || !ctx.divergent_since_loop {
            kinds.push(0u8);
        }
        if dynamic_ok {
            kinds.push(1);
            if self.cfg.predication && self.st.pred != 0 && self.allowed(Opcode::BreakP) {
                kinds.push(2);
            }
        }
        if kinds.is_empty() {
            return false;
        }
        let kind = self.pick(&kinds);
        let op = [Opcode::Break, Opcode::BreakC, Opcode::BreakP][kind as usize];
        if !self.affords(op) {
            return false;
        }
        let mut inst = Instruction::new(op);
        match kind {
            1 => {
                inst.control = self.range(1, 6) as u8;
                let Some([a, b]) = self.compared_pair() else {
                    return false;
                };
                let _ = inst.srcs.push(a);
                let _ = inst.srcs.push(b);
            }
            2 => {
                let _ = inst.srcs.push(self.pred_src());
            }
            _ => {}
        }
        self.emit(inst, ctx.iterations);
        true
    }

    /// `call l#` or `callnz l#, b#/p0.c`: an existing subroutine that fits here, or a new one
    /// generated now (so it sees exactly what this call site has written).
    fn call(&mut self, ctx: &Ctx) -> bool {
        if ctx.call_levels == 0 || !self.static_flow_fits(1) {
            return false;
        }
        let conditional = self.chance(1, 3);
        let by_pred = conditional
            && self.cfg.predication
            && self.p.has_predicate()
            && self.st.pred != 0
            && self.chance(1, 2);
        let op = if conditional {
            Opcode::CallNz
        } else {
            Opcode::Call
        };
        let dynamic = ctx.dynamic || by_pred;
        // ret of main, once subroutines exist.
        let main_ret = if self.subs.is_empty() { 1 } else { 0 };
        if !self.affords_with(op, 2 + main_ret, 2 + main_ret as u32) {
            return false;
        }
        let (max_if, max_loop, _) = self.p.nesting();
        let max_iter = self.cfg.max_loop_iterations.max(1) as u64;
        let al = self.al_range();
        let reusable: Vec<usize> = if self.finite() {
            Vec::new()
        } else {
            (0..self.subs.len())
                .filter(|&i| {
                    let s = &self.subs[i];
                    self.st.covers(&s.entry)
                        && s.height <= ctx.call_levels
                        && ctx.if_depth + s.if_height <= max_if
                        && ctx.loop_depth + s.loop_height <= max_loop
                        && ctx.if_depth + ctx.loop_depth + s.if_height + s.loop_height
                            <= self.cfg.max_nesting
                        && ctx.iterations.saturating_mul(s.inner_iterations) <= max_iter
                        && (!s.gradients || !dynamic || self.cfg.gradients_in_dynamic_flow)
                        && match (s.al, al) {
                            (None, _) => true,
                            (Some((lo, hi)), Some((a, b))) => lo <= a && b <= hi,
                            (Some(_), None) => false,
                        }
                })
                .collect()
        };
        let sub_index = if !reusable.is_empty() && self.chance(1, 2) {
            let i = self.pick(&reusable);
            for r in 0..32 {
                if self.subs[i].clobbers & (1 << r) != 0 {
                    self.st.temp[r] = 0;
                }
            }
            i
        } else {
            if self.subs.len() >= 64 {
                return false;
            }
            if main_ret == 1 {
                self.reserve(1, 1);
            }
            // The call itself comes after the body: keep its slots and static flow-control place.
            let (_, cost) = self.slot_cost(op);
            self.reserve(1, cost);
            self.budget.static_reserved += 1;
            let i = self.new_sub(ctx, dynamic);
            self.budget.static_reserved -= 1;
            self.release(1, cost);
            i
        };
        let sub = &self.subs[sub_index];
        let label = sub.label;
        let local = ctx.iterations / self.func.entry_iterations.max(1);
        self.func.cost = self
            .func
            .cost
            .saturating_add(sub.cost.saturating_mul(local));
        self.func.height = self.func.height.max(sub.height + 1);
        self.func.uses_al |= sub.al.is_some();
        self.func.gradients |= sub.gradients;
        self.func.discards |= sub.discards;
        self.func.if_height = self.func.if_height.max(ctx.if_depth + sub.if_height);
        self.func.loop_height = self.func.loop_height.max(ctx.loop_depth + sub.loop_height);
        self.func.inner_iterations = self
            .func
            .inner_iterations
            .max(local.saturating_mul(sub.inner_iterations));
        let mut inst = Instruction::new(op);
        let _ = inst.srcs.push(SrcParam::new(
            Register::new(RegisterType::Label, label),
            Swizzle::IDENTITY,
        ));
        if conditional {
            let c = if by_pred {
                self.pred_src()
            } else {
                self.bool_const()
            };
            let _ = inst.srcs.push(c);
        }
        self.emit(inst, ctx.iterations);
        true
    }

    fn new_sub(&mut self, ctx: &Ctx, dynamic: bool) -> usize {
        let mut label = self.range(0, 31) as u16;
        while self.labels.contains(&label) {
            label += 1;
        }
        self.labels.push(label);
        let saved_out = std::mem::take(&mut self.out);
        let saved_func = std::mem::replace(
            &mut self.func,
            Func {
                inner_iterations: 1,
                entry_iterations: ctx.iterations,
                height: 1,
                ..Func::default()
            },
        );
        let entry = self.st.clone();
        let sub_ctx = Ctx {
            top: false,
            dynamic,
            divergent_since_loop: false,
            if_depth: ctx.if_depth,
            loop_depth: ctx.loop_depth,
            iterations: ctx.iterations,
            call_levels: ctx.call_levels - 1,
            local_loops: 0,
        };
        // Its ret.
        self.reserve(1, 1);
        self.block(&sub_ctx, 8);
        self.release(1, 1);
        self.emit(Instruction::new(Opcode::Ret), ctx.iterations);
        let exit = self.st.clone();
        self.st = entry.join(&exit);
        let func = std::mem::replace(&mut self.func, saved_func);
        let body = std::mem::replace(&mut self.out, saved_out);
        let clobbers = (0..32).fold(0u32, |m, r| {
            if entry.temp[r] & !exit.temp[r] != 0 {
                m | 1 << r
            } else {
                m
            }
        });
        let al = if func.uses_al { self.al_range() } else { None };
        self.subs.push(Sub {
            label,
            body,
            entry,
            clobbers,
            height: func.height.max(1),
            cost: func.cost,
            inner_iterations: func.inner_iterations,
            al,
            gradients: func.gradients,
            discards: func.discards,
            if_height: func.if_height.saturating_sub(ctx.if_depth),
            loop_height: func.loop_height.saturating_sub(ctx.loop_depth),
        });
        self.subs.len() - 1
    }
}
