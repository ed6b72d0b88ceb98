//! Translating a plan to one Cranelift function over a batch.
//!
//! The function walks the batch in *chunks* of whole quads (two `f32x4` pieces, or four
//! scalars in scalar mode) and runs the whole plan on each chunk before the next. Every lane's
//! result equals running it alone (`docs/SEMANTICS.md` 9), and a chunk holds whole 2x2 quads,
//! so chunking changes nothing a lane computes; the budget is the one place where lanes meet
//! (which invocation is reported), and a batch that trips it is re-run on the interpreter (see
//! `super::Compiled`).
//!
//! Register slots live in Cranelift variables (SSA values, so in machine registers where they
//! fit), except the relatively addressed blocks, which live in the batch's register file
//! because lanes index them. Structured control flow becomes a control-flow graph with the
//! interpreter's per-lane masks: each `If`, `Loop` and call site keeps its frame in variables
//! of its own (no recursion, so no frame is live twice), a subroutine returns through a jump
//! table on the call site that entered it.

mod lanes;
mod ops;

use super::analysis::Analysis;
use super::runtime::{field, status};
use crate::plan::{Cond, LoopCount, Op, Pc, Plan, Slot, Uniform};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    types, AbiParam, Block, ConstantData, InstBuilder, MemFlagsData, Signature, StackSlot,
    StackSlotData, StackSlotKind, Type, Value,
};
use cranelift_codegen::isa::{CallConv, TargetIsa};
use cranelift_frontend::{FunctionBuilder, Variable};
use std::collections::HashMap;

/// How lanes map onto values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Shape {
    /// `f32x4` pieces (else `f32`).
    pub simd: bool,
    /// Pieces per chunk.
    pub pieces: usize,
    /// Lanes per piece (4 or 1).
    pub per_piece: usize,
    /// Lanes per batch.
    pub width: usize,
}

impl Shape {
    /// Lanes per chunk.
    pub fn chunk(&self) -> usize {
        self.pieces * self.per_piece
    }
}

/// A slot's pieces and whether the value is uniform (the same in every piece).
type Pieces = Vec<Value>;

/// How a write merges into the old value.
#[derive(Clone)]
enum Write {
    /// The interpreter's `put`: the active lanes (every lane of scratch rows).
    Active,
    /// The interpreter's `put_bits`: these lanes.
    Lanes(Option<Pieces>),
}

struct LoopFrame {
    entry: Vec<Variable>,
    saved_brk: Vec<Variable>,
    remaining: Variable,
    step: Variable,
    saved_al: Variable,
}

struct CallFrame {
    entry: Vec<Variable>,
    saved_brk: Vec<Variable>,
    saved_ret: Vec<Variable>,
}

/// Signatures of the trampolines.
struct Sigs {
    lane: cranelift_codegen::ir::SigRef,
    lit: cranelift_codegen::ir::SigRef,
    sample: cranelift_codegen::ir::SigRef,
}

/// Pointers loaded from the context once (they dominate the whole function).
struct Pointers {
    rows: Value,
    uniforms: Value,
    floats: Value,
    ints: Value,
    bools: Value,
    divisors: Value,
    run: Value,
    lanes: Value,
    ctx: Value,
}

pub(super) struct Gen<'a, 'b> {
    b: FunctionBuilder<'b>,
    plan: &'a Plan,
    an: &'a Analysis,
    shape: Shape,
    fty: Type,
    ptr: Pointers,
    sigs: Sigs,
    buf: StackSlot,
    /// Lane index of the chunk's first lane.
    chunk: Variable,
    /// The chunk's register file base (`rows + 4 * chunk`).
    rows: Variable,
    /// The chunk's real lanes as bits.
    real: Variable,
    slots: Vec<Option<Vec<Variable>>>,
    active: Vec<Variable>,
    brk: Vec<Variable>,
    ret: Vec<Variable>,
    killed: Vec<Variable>,
    p: [Vec<Variable>; 4],
    a0: [Vec<Variable>; 4],
    al: Variable,
    counts: Vec<Variable>,
    ifs: HashMap<Pc, (Vec<Variable>, Vec<Variable>)>,
    loops: HashMap<Pc, LoopFrame>,
    calls: HashMap<Pc, CallFrame>,
    ret_site: Vec<Variable>,
    blocks: Vec<Option<Block>>,
    chunk_head: Block,
    trip: Block,
    unreachable: Block,
    /// The active mask is statically every lane.
    full: bool,
    /// Constants and uniforms of the current block.
    consts: HashMap<u32, Value>,
    uniforms: HashMap<Slot, Value>,
}

/// The signature of generated code: `(ctx) -> status`.
pub(super) fn entry_signature(call_conv: CallConv) -> Signature {
    let mut sig = Signature::new(call_conv);
    sig.params.push(AbiParam::new(types::I64));
    sig.returns.push(AbiParam::new(types::I32));
    sig
}

/// Emits the function for `plan` into `b` (its signature is [`entry_signature`]).
pub(super) fn generate(
    mut b: FunctionBuilder<'_>,
    plan: &Plan,
    an: &Analysis,
    shape: Shape,
    isa: &dyn TargetIsa,
) {
    let call_conv = isa.default_call_conv();
    let (fty, ity) = if shape.simd {
        (types::F32X4, types::I32X4)
    } else {
        (types::F32, types::I32)
    };
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let ctx = b.block_params(entry)[0];
    let load_ptr = |b: &mut FunctionBuilder<'_>, off: i32, ty: Type| {
        b.ins().load(ty, MemFlagsData::trusted(), ctx, off)
    };
    let ptr = Pointers {
        rows: load_ptr(&mut b, field::ROWS, types::I64),
        uniforms: load_ptr(&mut b, field::UNIFORMS, types::I64),
        floats: load_ptr(&mut b, field::FLOATS, types::I64),
        ints: load_ptr(&mut b, field::INTS, types::I64),
        bools: load_ptr(&mut b, field::BOOLS, types::I64),
        divisors: load_ptr(&mut b, field::DIVISORS, types::I64),
        run: load_ptr(&mut b, field::RUN, types::I64),
        lanes: load_ptr(&mut b, field::LANES, types::I64),
        ctx,
    };
    let sig = |params: &[Type]| {
        let mut s = Signature::new(call_conv);
        s.params.extend(params.iter().map(|&t| AbiParam::new(t)));
        s
    };
    let i64_ = types::I64;
    let sigs = Sigs {
        lane: b.import_signature(sig(&[i64_, i64_, i64_, i64_])),
        lit: b.import_signature(sig(&[i64_, i64_, i64_])),
        sample: b.import_signature(sig(&[i64_, types::I32, types::I32, i64_, i64_, i64_])),
    };
    let chunk_lanes = shape.chunk() as u32;
    let buf = b.create_sized_stack_slot(StackSlotData::new(
        StackSlotKind::ExplicitSlot,
        13 * 4 * chunk_lanes,
        4,
    ));
    let masks = |b: &mut FunctionBuilder<'_>| -> Vec<Variable> {
        (0..shape.pieces).map(|_| b.declare_var(ity)).collect()
    };
    let chunk = b.declare_var(types::I64);
    let rows = b.declare_var(types::I64);
    let real = b.declare_var(types::I64);
    let active = masks(&mut b);
    let brk = masks(&mut b);
    let ret = masks(&mut b);
    let killed = masks(&mut b);
    let p = std::array::from_fn(|_| masks(&mut b));
    let a0 = std::array::from_fn(|_| masks(&mut b));
    let al = b.declare_var(types::I32);
    let counts = if an.counting {
        let (n, ty) = if shape.simd {
            (2 * shape.pieces, types::I64X2)
        } else {
            (shape.pieces, types::I64)
        };
        (0..n).map(|_| b.declare_var(ty)).collect()
    } else {
        Vec::new()
    };
    let mut slots = vec![None; plan.slots as usize];
    let uniform_rows = plan.uniforms.len();
    for (s, v) in slots.iter_mut().enumerate() {
        if an.used[s] && !an.in_memory[s] && s >= uniform_rows {
            *v = Some((0..shape.pieces).map(|_| b.declare_var(fty)).collect());
        }
    }
    let mut ifs = HashMap::new();
    let mut loops = HashMap::new();
    let mut calls = HashMap::new();
    for (pc, op) in plan.ops.iter().enumerate() {
        if an.function_of[pc].is_none() {
            continue;
        }
        match op {
            Op::If { .. } => {
                ifs.insert(pc as Pc, (masks(&mut b), masks(&mut b)));
            }
            Op::Loop { .. } => {
                let frame = LoopFrame {
                    entry: masks(&mut b),
                    saved_brk: masks(&mut b),
                    remaining: b.declare_var(types::I32),
                    step: b.declare_var(types::I32),
                    saved_al: b.declare_var(types::I32),
                };
                loops.insert(pc as Pc, frame);
            }
            Op::Call { .. } => {
                let frame = CallFrame {
                    entry: masks(&mut b),
                    saved_brk: masks(&mut b),
                    saved_ret: masks(&mut b),
                };
                calls.insert(pc as Pc, frame);
            }
            _ => {}
        }
    }
    let ret_site = an
        .functions
        .iter()
        .map(|_| b.declare_var(types::I32))
        .collect();
    let chunk_head = b.create_block();
    let trip = b.create_block();
    let unreachable = b.create_block();
    b.set_cold_block(trip);
    b.set_cold_block(unreachable);
    let zero = b.ins().iconst(types::I64, 0);
    b.def_var(chunk, zero);
    b.ins().jump(chunk_head, &[]);
    let mut g = Gen {
        b,
        plan,
        an,
        shape,
        fty,
        ptr,
        sigs,
        buf,
        chunk,
        rows,
        real,
        slots,
        active,
        brk,
        ret,
        killed,
        p,
        a0,
        al,
        counts,
        ifs,
        loops,
        calls,
        ret_site,
        blocks: vec![None; plan.ops.len()],
        chunk_head,
        trip,
        unreachable,
        full: false,
        consts: HashMap::new(),
        uniforms: HashMap::new(),
    };
    g.chunk_start();
    g.program();
    g.switch_to(trip);
    let s = g.b.ins().iconst(types::I32, status::BUDGET as i64);
    g.b.ins().return_(&[s]);
    g.switch_to(unreachable);
    let s = g.b.ins().iconst(types::I32, status::UNREACHABLE as i64);
    g.b.ins().return_(&[s]);
    g.b.seal_all_blocks();
    g.b.finalize(isa.frontend_config());
}

impl Gen<'_, '_> {
    fn switch_to(&mut self, block: Block) {
        self.b.switch_to_block(block);
        self.consts.clear();
        self.uniforms.clear();
    }

    fn block_at(&mut self, pc: Pc) -> Block {
        let i = pc as usize;
        match self.blocks[i] {
            Some(b) => b,
            None => {
                let b = self.b.create_block();
                self.blocks[i] = Some(b);
                b
            }
        }
    }

    fn use_all(&mut self, vars: &[Variable]) -> Vec<Value> {
        vars.iter().map(|&v| self.b.use_var(v)).collect()
    }

    fn def_all(&mut self, vars: &[Variable], vals: &[Value]) {
        for (&v, &x) in vars.iter().zip(vals) {
            self.b.def_var(v, x);
        }
    }

    fn def_const_masks(&mut self, vars: &[Variable], on: bool) {
        let m = self.mask_const(on);
        for &v in vars {
            self.b.def_var(v, m);
        }
    }

    /// The active mask, or `None` when it is statically every lane.
    fn active(&mut self) -> Option<Pieces> {
        if self.full {
            None
        } else {
            let a = self.active.clone();
            Some(self.use_all(&a))
        }
    }

    /// The byte offset of piece `k` of `slot` from the chunk's register file base.
    fn row_offset(&self, slot: Slot, k: usize) -> i32 {
        ((slot as usize * self.shape.width + k * self.shape.per_piece) * 4) as i32
    }

    fn load_row(&mut self, slot: Slot) -> Pieces {
        let base = self.b.use_var(self.rows);
        (0..self.shape.pieces)
            .map(|k| {
                let off = self.row_offset(slot, k);
                self.b
                    .ins()
                    .load(self.fty, MemFlagsData::new().with_notrap(), base, off)
            })
            .collect()
    }

    fn store_row(&mut self, slot: Slot, vals: &[Value]) {
        let base = self.b.use_var(self.rows);
        for (k, &v) in vals.iter().enumerate() {
            let off = self.row_offset(slot, k);
            self.b
                .ins()
                .store(MemFlagsData::new().with_notrap(), v, base, off);
        }
    }

    /// The value of a slot in the chunk's lanes.
    fn get(&mut self, slot: Slot) -> Pieces {
        let s = slot as usize;
        if s < self.plan.uniforms.len() {
            let v = self.uniform(slot);
            return vec![v; self.shape.pieces];
        }
        if self.an.in_memory[s] {
            return self.load_row(slot);
        }
        let vars = self.slots[s]
            .clone()
            .expect("analysis declared every used slot");
        self.use_all(&vars)
    }

    fn uniform(&mut self, slot: Slot) -> Value {
        if let Some(&v) = self.uniforms.get(&slot) {
            return v;
        }
        let v = match self.plan.uniforms[slot as usize] {
            Uniform::Literal(x) => self.fconst(x.0),
            _ => {
                let x = self.b.ins().load(
                    types::F32,
                    MemFlagsData::trusted().with_readonly(),
                    self.ptr.uniforms,
                    (slot * 4) as i32,
                );
                if self.shape.simd {
                    self.b.ins().splat(types::F32X4, x)
                } else {
                    x
                }
            }
        };
        self.uniforms.insert(slot, v);
        v
    }

    /// Writes a slot in the chunk's lanes.
    fn put(&mut self, slot: Slot, vals: Pieces, how: Write) {
        let mask = match how {
            Write::Active if slot >= self.plan.zeroed.end => None,
            Write::Active => self.active(),
            Write::Lanes(m) => m,
        };
        let s = slot as usize;
        let vals = match mask {
            None => vals,
            Some(m) => {
                let old = self.get(slot);
                (0..vals.len())
                    .map(|k| self.select(m[k], vals[k], old[k]))
                    .collect()
            }
        };
        if self.an.in_memory[s] {
            self.store_row(slot, &vals);
        } else if let Some(vars) = self.slots[s].clone() {
            self.def_all(&vars, &vals);
        }
    }

    /// Per-lane counts plus `n` for the lanes of `mask` (`None`: every lane).
    fn count(&mut self, mask: Option<&[Value]>, n: u32) {
        if !self.an.counting || n == 0 {
            return;
        }
        let counts = self.counts.clone();
        if self.shape.simd {
            let k = self.b.ins().iconst(types::I64, n as i64);
            let k = self.b.ins().splat(types::I64X2, k);
            for (i, &var) in counts.iter().enumerate() {
                let inc = match mask {
                    None => k,
                    Some(m) => {
                        let half = if i % 2 == 0 {
                            self.b.ins().swiden_low(m[i / 2])
                        } else {
                            self.b.ins().swiden_high(m[i / 2])
                        };
                        self.b.ins().band(half, k)
                    }
                };
                let c = self.b.use_var(var);
                let c = self.b.ins().iadd(c, inc);
                self.b.def_var(var, c);
            }
        } else {
            for (i, &var) in counts.iter().enumerate() {
                let k = self.b.ins().iconst(types::I64, n as i64);
                let inc = match mask {
                    None => k,
                    Some(m) => {
                        let wide = self.b.ins().sextend(types::I64, m[i]);
                        self.b.ins().band(wide, k)
                    }
                };
                let c = self.b.use_var(var);
                let c = self.b.ins().iadd(c, inc);
                self.b.def_var(var, c);
            }
        }
    }

    /// Leaves with `status::BUDGET` when a real lane is over the budget.
    fn check_budget(&mut self) {
        if !self.an.counting {
            return;
        }
        let budget = self.plan.budget.min(i64::MAX as u64) as i64;
        let limit = self.b.ins().iconst(types::I64, budget);
        let limit = if self.shape.simd {
            self.b.ins().splat(types::I64X2, limit)
        } else {
            limit
        };
        let counts = self.counts.clone();
        let mut over = None;
        for &var in &counts {
            let c = self.b.use_var(var);
            let o = self.b.ins().icmp(IntCC::SignedGreaterThan, c, limit);
            over = Some(match over {
                None => o,
                Some(x) => self.b.ins().bor(x, o),
            });
        }
        let over = over.expect("counting has counters");
        let any = if self.shape.simd {
            self.b.ins().vany_true(over)
        } else {
            over
        };
        let go_on = self.b.create_block();
        self.b.ins().brif(any, self.trip, &[], go_on, &[]);
        self.switch_to(go_on);
    }

    /// The start of a chunk: every per-invocation register cleared, inputs loaded.
    fn chunk_start(&mut self) {
        let head = self.chunk_head;
        self.switch_to(head);
        let chunk = self.b.use_var(self.chunk);
        let offset = self.b.ins().ishl_imm_s(chunk, 2);
        let rows = self.b.ins().iadd(self.ptr.rows, offset);
        self.b.def_var(self.rows, rows);
        // Real lanes of this chunk as bits.
        let c = self.shape.chunk() as i64;
        let left = self.b.ins().isub(self.ptr.lanes, chunk);
        let cap = self.b.ins().iconst(types::I64, c);
        let left = self.b.ins().umin(left, cap);
        let one = self.b.ins().iconst(types::I64, 1);
        let bit = self.b.ins().ishl(one, left);
        let real = self.b.ins().iadd_imm_s(bit, -1);
        self.b.def_var(self.real, real);
        // Registers.
        let zeroed = self.plan.zeroed.clone();
        let inputs: Vec<Slot> = self
            .plan
            .inputs
            .iter()
            .flat_map(|i| i.slots.iter().flatten().copied())
            .collect();
        for s in 0..self.plan.slots {
            let i = s as usize;
            if !self.an.used[i] {
                continue;
            }
            if self.an.in_memory[i] {
                if zeroed.contains(&s) {
                    let z = self.fconst(0.0);
                    self.store_row(s, &vec![z; self.shape.pieces]);
                }
                continue;
            }
            let Some(vars) = self.slots[i].clone() else {
                continue;
            };
            let vals = if inputs.contains(&s) {
                self.load_row(s)
            } else {
                let z = self.fconst(0.0);
                vec![z; self.shape.pieces]
            };
            self.def_all(&vars, &vals);
        }
        let masks: Vec<(Vec<Variable>, bool)> = vec![
            (self.active.clone(), true),
            (self.brk.clone(), false),
            (self.ret.clone(), false),
            (self.killed.clone(), false),
        ];
        for (vars, on) in masks {
            self.def_const_masks(&vars, on);
        }
        for c in 0..4 {
            let (p, a) = (self.p[c].clone(), self.a0[c].clone());
            self.def_const_masks(&p, false);
            self.def_const_masks(&a, false);
        }
        let z = self.b.ins().iconst(types::I32, 0);
        self.b.def_var(self.al, z);
        if self.an.counting {
            self.init_counts(chunk);
        }
        let first = self.block_at(0);
        self.b.ins().jump(first, &[]);
    }

    /// Counters start at 0, padding lanes at `i64::MIN` (so they never pass the budget).
    fn init_counts(&mut self, chunk: Value) {
        let counts = self.counts.clone();
        let lanes = self.ptr.lanes;
        let min = self.b.ins().iconst(types::I64, i64::MIN);
        for (i, &var) in counts.iter().enumerate() {
            let v = if self.shape.simd {
                let first = (2 * i) as u64;
                let mut bytes = Vec::with_capacity(16);
                bytes.extend_from_slice(&first.to_le_bytes());
                bytes.extend_from_slice(&(first + 1).to_le_bytes());
                let c = self.b.func.dfg.constants.insert(ConstantData::from(bytes));
                let iota = self.b.ins().vconst(types::I64X2, c);
                let base = self.b.ins().splat(types::I64X2, chunk);
                let idx = self.b.ins().iadd(iota, base);
                let n = self.b.ins().splat(types::I64X2, lanes);
                let pad = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, idx, n);
                let m = self.b.ins().splat(types::I64X2, min);
                self.b.ins().band(pad, m)
            } else {
                let idx = self.b.ins().iadd_imm_s(chunk, i as i64);
                let pad = self
                    .b
                    .ins()
                    .icmp(IntCC::SignedGreaterThanOrEqual, idx, lanes);
                let zero = self.b.ins().iconst(types::I64, 0);
                self.b.ins().select(pad, min, zero)
            };
            self.b.def_var(var, v);
        }
    }

    /// The end of a chunk: outputs and discards stored, on to the next chunk or done.
    fn chunk_end(&mut self) {
        self.check_budget();
        let outputs: Vec<Slot> = self
            .plan
            .outputs
            .iter()
            .flat_map(|o| o.slots.iter().flatten().copied())
            .collect();
        for s in outputs {
            if self.an.in_memory[s as usize] || (s as usize) < self.plan.uniforms.len() {
                continue;
            }
            let v = self.get(s);
            self.store_row(s, &v);
        }
        if self.plan.version.is_pixel() {
            let k = self.killed.clone();
            let k = self.use_all(&k);
            let bits = self.lane_bits(&k);
            let real = self.b.use_var(self.real);
            let bits = self.b.ins().band(bits, real);
            let chunk = self.b.use_var(self.chunk);
            let bits = self.b.ins().ishl(bits, chunk);
            let flags = MemFlagsData::trusted();
            let old = self
                .b
                .ins()
                .load(types::I64, flags, self.ptr.ctx, field::KILLED);
            let new = self.b.ins().bor(old, bits);
            self.b.ins().store(flags, new, self.ptr.ctx, field::KILLED);
        }
        let chunk = self.b.use_var(self.chunk);
        let next = self.b.ins().iadd_imm_s(chunk, self.shape.chunk() as i64);
        self.b.def_var(self.chunk, next);
        let more = self
            .b
            .ins()
            .icmp(IntCC::UnsignedLessThan, next, self.ptr.lanes);
        let done = self.b.create_block();
        self.b.ins().brif(more, self.chunk_head, &[], done, &[]);
        self.switch_to(done);
        let s = self.b.ins().iconst(types::I32, status::DONE as i64);
        self.b.ins().return_(&[s]);
    }

    /// The operations, in order; blocks start where jumps land.
    fn program(&mut self) {
        let mut open = false;
        let ops = &self.plan.ops;
        for (pc, &op) in ops.iter().enumerate() {
            if self.an.function_of[pc].is_none() {
                continue;
            }
            if self.an.target[pc] || self.blocks[pc].is_some() {
                let b = self.block_at(pc as Pc);
                if open {
                    self.b.ins().jump(b, &[]);
                }
                self.switch_to(b);
            } else if !open {
                // Code after an unconditional jump that nothing jumps to.
                let b = self.b.create_block();
                self.switch_to(b);
            }
            self.full = self.an.full[pc];
            open = self.op(pc as Pc, op);
        }
        assert!(!open, "every function ends with End or Return");
    }

    /// Emits one operation; returns whether control falls through to the next.
    fn op(&mut self, pc: Pc, op: Op) -> bool {
        match op {
            Op::Count(n) => {
                let a = self.active();
                self.count(a.as_deref(), n);
            }
            Op::If { cond, else_pc } => {
                let entry = self.use_all(&self.active.clone());
                let c = self.cond(cond);
                let taken = match c {
                    None => entry.clone(),
                    Some(c) => entry
                        .iter()
                        .zip(&c)
                        .map(|(&a, &b)| self.and(a, b))
                        .collect(),
                };
                let (ev, tv) = self.ifs[&pc].clone();
                self.def_all(&ev, &entry);
                self.def_all(&tv, &taken);
                let active = self.active.clone();
                self.def_all(&active, &taken);
                self.branch_any(&taken, pc + 1, else_pc);
                return false;
            }
            Op::Else { end_pc } => {
                let i = self.an.opener[pc as usize].expect("analysed");
                let (ev, tv) = self.ifs[&i].clone();
                let entry = self.use_all(&ev);
                let taken = self.use_all(&tv);
                let next = self.left_after(&entry, Some(&taken));
                let active = self.active.clone();
                self.def_all(&active, &next);
                self.branch_any(&next, pc + 1, end_pc);
                return false;
            }
            Op::EndIf => {
                let i = self.an.opener[pc as usize].expect("analysed");
                let (ev, _) = self.ifs[&i].clone();
                let entry = self.use_all(&ev);
                let next = self.left_after(&entry, None);
                let active = self.active.clone();
                self.def_all(&active, &next);
            }
            Op::Loop {
                count,
                sets_al,
                end_pc,
            } => {
                self.loop_start(pc, count, sets_al, end_pc);
                return false;
            }
            Op::EndLoop { body_pc } => {
                self.loop_end(pc, body_pc);
                return false;
            }
            Op::Break { cond, resume } => {
                let active = self.use_all(&self.active.clone());
                let c = self.cond(cond);
                let b: Pieces = match c {
                    None => active.clone(),
                    Some(c) => active
                        .iter()
                        .zip(&c)
                        .map(|(&a, &x)| self.and(a, x))
                        .collect(),
                };
                let brk_vars = self.brk.clone();
                let brk = self.use_all(&brk_vars);
                let brk: Pieces = brk.iter().zip(&b).map(|(&x, &y)| self.or(x, y)).collect();
                self.def_all(&brk_vars, &brk);
                let next: Pieces = active
                    .iter()
                    .zip(&b)
                    .map(|(&a, &x)| self.and_not(a, x))
                    .collect();
                let av = self.active.clone();
                self.def_all(&av, &next);
                if matches!(cond, Cond::Always) || cond == Cond::Literal(true) {
                    let r = self.block_at(resume);
                    self.b.ins().jump(r, &[]);
                } else {
                    self.branch_any(&next, pc + 1, resume);
                }
                return false;
            }
            Op::Call { cond, target } => {
                self.call(pc, cond, target);
                return false;
            }
            Op::Ret { resume } => {
                let rv = self.ret.clone();
                let ret = self.use_all(&rv);
                let active = self.use_all(&self.active.clone());
                let ret: Pieces = ret
                    .iter()
                    .zip(&active)
                    .map(|(&x, &y)| self.or(x, y))
                    .collect();
                self.def_all(&rv, &ret);
                let av = self.active.clone();
                self.def_const_masks(&av, false);
                let r = self.block_at(resume);
                self.b.ins().jump(r, &[]);
                return false;
            }
            Op::Return => {
                self.function_return(pc);
                return false;
            }
            Op::End => {
                self.chunk_end();
                return false;
            }
            _ => self.straight(op),
        }
        true
    }

    /// `entry & !taken & !brk & !ret` (or without `taken`).
    fn left_after(&mut self, entry: &[Value], taken: Option<&[Value]>) -> Pieces {
        let (bv, rv) = (self.brk.clone(), self.ret.clone());
        let brk = self.use_all(&bv);
        let ret = self.use_all(&rv);
        (0..entry.len())
            .map(|k| {
                let mut m = entry[k];
                if let Some(t) = taken {
                    m = self.and_not(m, t[k]);
                }
                let m = self.and_not(m, brk[k]);
                self.and_not(m, ret[k])
            })
            .collect()
    }

    /// Jumps to `then` when any lane of `mask` is set, else to `otherwise`.
    fn branch_any(&mut self, mask: &[Value], then: Pc, otherwise: Pc) {
        let c = self.any(mask);
        let (t, e) = (self.block_at(then), self.block_at(otherwise));
        self.b.ins().brif(c, t, &[], e, &[]);
    }

    /// A condition's lanes (`None`: every lane).
    fn cond(&mut self, cond: Cond) -> Option<Pieces> {
        let k = self.shape.pieces;
        match cond {
            Cond::Always => None,
            Cond::Literal(true) => None,
            Cond::Literal(false) => Some(vec![self.mask_const(false); k]),
            Cond::Bool { reg, not } => {
                let v = self.b.ins().load(
                    types::I8,
                    MemFlagsData::trusted().with_readonly(),
                    self.ptr.bools,
                    (reg & 15) as i32,
                );
                // `b#` is 0 or 1: `!b#` flips the low bit.
                let v = if not {
                    self.b.ins().bxor_imm_u(v, 1)
                } else {
                    v
                };
                let m = self.b.ins().bmask(types::I32, v);
                let m = if self.shape.simd {
                    self.b.ins().splat(types::I32X4, m)
                } else {
                    m
                };
                Some(vec![m; k])
            }
            Cond::Pred { comp, not } => {
                let pv = self.p[comp as usize & 3].clone();
                let p = self.use_all(&pv);
                Some(if not {
                    p.iter().map(|&x| self.not(x)).collect()
                } else {
                    p
                })
            }
            Cond::Compare { cmp, a, b } => {
                let (x, y) = (self.get(a), self.get(b));
                Some((0..k).map(|i| self.compare(cmp, x[i], y[i])).collect())
            }
        }
    }

    /// A loop's count, start and step (`i#.xyz`) as `i32` values.
    fn loop_count(&mut self, count: LoopCount) -> [Value; 3] {
        match count {
            LoopCount::Literal(v) => {
                std::array::from_fn(|i| self.b.ins().iconst(types::I32, v[i] as i64))
            }
            LoopCount::Int(r) => std::array::from_fn(|i| {
                self.b.ins().load(
                    types::I32,
                    MemFlagsData::trusted().with_readonly(),
                    self.ptr.ints,
                    ((r as usize & 15) * 16 + 4 * i) as i32,
                )
            }),
        }
    }

    fn loop_start(&mut self, pc: Pc, count: LoopCount, sets_al: bool, end_pc: Pc) {
        let [n, start, step] = self.loop_count(count);
        let (lo, hi) = (
            self.b.ins().iconst(types::I32, 0),
            self.b.ins().iconst(types::I32, 255),
        );
        let n = self.b.ins().smax(n, lo);
        let n = self.b.ins().smin(n, hi);
        let active = self.use_all(&self.active.clone());
        let any = self.any(&active);
        let zero_count = self.b.ins().icmp_imm_s(IntCC::Equal, n, 0);
        let none = self.b.ins().icmp_imm_s(IntCC::Equal, any, 0);
        let skip = self.b.ins().bor(zero_count, none);
        let enter = self.b.create_block();
        let after = self.block_at(end_pc + 1);
        self.b.ins().brif(skip, after, &[], enter, &[]);
        self.switch_to(enter);
        let f = &self.loops[&pc];
        let (entry, saved_brk) = (f.entry.clone(), f.saved_brk.clone());
        let (remaining, step_var, saved_al) = (f.remaining, f.step, f.saved_al);
        self.def_all(&entry, &active);
        let bv = self.brk.clone();
        let brk = self.use_all(&bv);
        self.def_all(&saved_brk, &brk);
        self.def_const_masks(&bv, false);
        self.b.def_var(remaining, n);
        self.b.def_var(step_var, step);
        let al = self.b.use_var(self.al);
        self.b.def_var(saved_al, al);
        if sets_al {
            self.b.def_var(self.al, start);
        }
        let a = if self.full { None } else { Some(active) };
        self.count(a.as_deref(), 1);
        let body = self.block_at(pc + 1);
        self.b.ins().jump(body, &[]);
    }

    fn loop_end(&mut self, pc: Pc, body_pc: Pc) {
        let l = self.an.opener[pc as usize].expect("analysed");
        let f = &self.loops[&l];
        let (entry_v, saved_brk) = (f.entry.clone(), f.saved_brk.clone());
        let (remaining, step, saved_al) = (f.remaining, f.step, f.saved_al);
        let sets_al = matches!(self.plan.ops[l as usize], Op::Loop { sets_al: true, .. });
        let rem = self.b.use_var(remaining);
        let rem = self.b.ins().iadd_imm_s(rem, -1);
        self.b.def_var(remaining, rem);
        let entry = self.use_all(&entry_v);
        let next = self.left_after(&entry, None);
        let any = self.any(&next);
        let more = self.b.ins().icmp_imm_s(IntCC::SignedGreaterThan, rem, 0);
        let again = self.b.ins().band(more, any);
        let (repeat, exit) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(again, repeat, &[], exit, &[]);
        self.switch_to(repeat);
        if sets_al {
            let al = self.b.use_var(self.al);
            let s = self.b.use_var(step);
            let al = self.b.ins().iadd(al, s);
            self.b.def_var(self.al, al);
        }
        let av = self.active.clone();
        self.def_all(&av, &next);
        let full = self.full;
        self.count(if full { None } else { Some(&next) }, 1);
        self.check_budget();
        let body = self.block_at(body_pc);
        self.b.ins().jump(body, &[]);
        self.switch_to(exit);
        let al = self.b.use_var(saved_al);
        self.b.def_var(self.al, al);
        let bv = self.brk.clone();
        let brk = self.use_all(&saved_brk);
        self.def_all(&bv, &brk);
        let rv = self.ret.clone();
        let ret = self.use_all(&rv);
        let active: Pieces = entry
            .iter()
            .zip(&ret)
            .map(|(&e, &r)| self.and_not(e, r))
            .collect();
        self.def_all(&av, &active);
        let after = self.block_at(pc + 1);
        self.b.ins().jump(after, &[]);
    }

    fn call(&mut self, pc: Pc, cond: Cond, target: Pc) {
        let active = self.use_all(&self.active.clone());
        let lanes_in: Pieces = match self.cond(cond) {
            None => active.clone(),
            Some(c) => active
                .iter()
                .zip(&c)
                .map(|(&a, &x)| self.and(a, x))
                .collect(),
        };
        let any = self.any(&lanes_in);
        let enter = self.b.create_block();
        let after = self.block_at(pc + 1);
        self.b.ins().brif(any, enter, &[], after, &[]);
        self.switch_to(enter);
        let f = &self.calls[&pc];
        let (entry, saved_brk, saved_ret) =
            (f.entry.clone(), f.saved_brk.clone(), f.saved_ret.clone());
        self.def_all(&entry, &active);
        let (bv, rv) = (self.brk.clone(), self.ret.clone());
        let brk = self.use_all(&bv);
        let ret = self.use_all(&rv);
        self.def_all(&saved_brk, &brk);
        self.def_all(&saved_ret, &ret);
        self.def_const_masks(&bv, false);
        self.def_const_masks(&rv, false);
        let av = self.active.clone();
        self.def_all(&av, &lanes_in);
        self.count(Some(&lanes_in), 1);
        let callee = self
            .an
            .functions
            .iter()
            .position(|f| f.start == target)
            .expect("analysed");
        let site = self.an.functions[callee]
            .call_sites
            .iter()
            .position(|&s| s == pc)
            .expect("analysed");
        let site = self.b.ins().iconst(types::I32, site as i64);
        self.b.def_var(self.ret_site[callee], site);
        let t = self.block_at(target);
        self.b.ins().jump(t, &[]);
    }

    fn function_return(&mut self, pc: Pc) {
        let f = self.an.function_of[pc as usize].expect("emitted code has a function");
        let sites = self.an.functions[f].call_sites.clone();
        if f == 0 || sites.is_empty() {
            self.b.ins().jump(self.unreachable, &[]);
            return;
        }
        let mut resumes = Vec::new();
        for &s in &sites {
            resumes.push((s, self.b.create_block()));
        }
        let which = self.b.use_var(self.ret_site[f]);
        let pool = &mut self.b.func.dfg.value_lists;
        let calls: Vec<_> = resumes
            .iter()
            .map(|&(_, blk)| cranelift_codegen::ir::BlockCall::new(blk, [], pool))
            .collect();
        let default = cranelift_codegen::ir::BlockCall::new(self.unreachable, [], pool);
        let jt = self
            .b
            .create_jump_table(cranelift_codegen::ir::JumpTableData::new(default, &calls));
        self.b.ins().br_table(which, jt);
        for (site, blk) in resumes {
            self.switch_to(blk);
            let frame = &self.calls[&site];
            let (entry, saved_brk, saved_ret) = (
                frame.entry.clone(),
                frame.saved_brk.clone(),
                frame.saved_ret.clone(),
            );
            for (from, to) in [
                (saved_brk, self.brk.clone()),
                (saved_ret, self.ret.clone()),
                (entry, self.active.clone()),
            ] {
                let v = self.use_all(&from);
                self.def_all(&to, &v);
            }
            let after = self.block_at(site + 1);
            self.b.ins().jump(after, &[]);
        }
    }
}
