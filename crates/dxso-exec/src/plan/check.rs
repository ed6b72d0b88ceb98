//! The rules every engine relies on when it runs a [`Plan`]: [`Plan::check`], and the one
//! enumeration of the slots an operation names ([`Op::slot_uses`]) that the check and the JIT's
//! analysis share.
//!
//! Lowering produces plans that keep these rules (it checks its result once); a plan built or
//! changed by hand is checked where it enters an engine, so the interpreter and the JIT's Rust
//! side can index rows, registers and operations without a panic and every run ends.

use super::{Cond, GatherFrom, Op, Pc, Plan, Slot, Uniform};
use crate::error::{PlanError, PlanPlace, PlanRule};
use crate::options::Options;

/// A relatively addressed register block an operation reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Block {
    /// First row.
    pub base: Slot,
    /// Registers of 4 rows each.
    pub len: u32,
    /// `Scatter` writes it; `Gather` reads it.
    pub written: bool,
}

/// The slots one operation names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SlotUses {
    /// Every slot the operation names (read or written, masked out or not), a block's base
    /// included.
    pub named: Vec<Slot>,
    /// The slots it writes (components in its mask), blocks apart.
    pub written: Vec<Slot>,
    /// The block it addresses relatively (its rows are not listed above: a hostile length
    /// would make the list unbounded).
    pub block: Option<Block>,
}

impl Op {
    /// The slots the operation names and writes.
    pub(crate) fn slot_uses(&self) -> SlotUses {
        let mut named = Vec::new();
        let mut copy = *self;
        copy.map_slots(|s| named.push(*s));
        let mut written = Vec::new();
        self.for_each_write(|s, _| written.push(s));
        let block = match *self {
            Op::Gather {
                from: GatherFrom::Block { base, len },
                ..
            } => Some(Block {
                base,
                len,
                written: false,
            }),
            Op::Scatter { base, len, .. } => Some(Block {
                base,
                len,
                written: true,
            }),
            _ => None,
        };
        SlotUses {
            named,
            written,
            block,
        }
    }

    /// Where the operation may jump.
    fn jump(&self) -> Option<Pc> {
        match *self {
            Op::If { else_pc, .. } => Some(else_pc),
            Op::Else { end_pc } | Op::Loop { end_pc, .. } => Some(end_pc),
            Op::EndLoop { body_pc } => Some(body_pc),
            Op::Break { resume, .. } | Op::Ret { resume } => Some(resume),
            Op::Call { target, .. } => Some(target),
            _ => None,
        }
    }
}

/// A `Break`/`Ret` at `pc` must resume at the innermost open block's next `Else`, `EndIf` or
/// `EndLoop` (`open` holds the openers, innermost last), or at `end` (its function's `End` or
/// `Return`) outside any block.
pub(crate) fn resume_ok(ops: &[Op], open: &[Pc], pc: usize, resume: usize, end: usize) -> bool {
    let want = match open.last() {
        None => Some(end),
        Some(&o) => match ops[o as usize] {
            // The if's else (while still before it), else its endif.
            Op::If { else_pc, .. } if else_pc as usize > pc => Some(else_pc as usize),
            Op::If { else_pc, .. } => match ops[else_pc as usize] {
                Op::Else { end_pc } => Some(end_pc as usize),
                _ => None,
            },
            Op::Loop { end_pc, .. } => Some(end_pc as usize),
            _ => None,
        },
    };
    want == Some(resume)
}

impl Plan {
    /// The largest register file a plan may have: at 64 lanes a batch's rows take 256 MiB.
    /// Lowered shaders use a few thousand rows at most.
    pub const MAX_SLOTS: u32 = 1 << 20;

    /// Checks the rules every engine relies on, so that running the plan cannot index outside
    /// a buffer, allocate without bound or loop without end:
    ///
    /// - sizes: `slots <= MAX_SLOTS`, `float_constants <=`
    ///   [`Options::MAX_FLOAT_CONSTANTS`], `lanes` is 8, 16, 32 or 64, and the uniform rows,
    ///   the register rows (`zeroed`) and the file nest: `uniforms.len() <= zeroed.start <=
    ///   zeroed.end <= slots`; `clear` lies in `zeroed`;
    /// - slots: every slot an operation names (masked-out components included) is below
    ///   `slots`; nothing writes a uniform row; a relatively addressed block has at least one
    ///   register and fits in the file; inputs load into non-uniform rows in the file, outputs
    ///   read rows in the file;
    /// - registers: uniforms and relative reads name registers in their file (a relative
    ///   read's base register below `float_constants` or the block's length), `defi`/`defb`
    ///   registers, `b#` conditions and loop counts `i#` are below 16, and every sampled sampler is listed in
    ///   `samplers` (so its texture type is checked when the run starts);
    /// - control flow: every jump and call target is an operation; `If`/`Else`/`EndIf` and
    ///   `Loop`/`EndLoop` nest and point at each other, jumps other than `EndLoop` go forward,
    ///   `EndLoop` goes back to the first operation of its own loop's body, `Break` is inside
    ///   a loop, `Break`/`Ret` resume at the next structural operation of their innermost
    ///   block (or the function's end), no `End`/`Return` closes a function inside an open
    ///   block, and a call targets the operation after an `End` or `Return` (a subroutine's
    ///   start).
    ///
    /// With these, a run's time is bounded by its instruction budget: every backward jump is
    /// a counted loop iteration or a counted call (calls nest at most 64 deep).
    ///
    /// What the engines tolerate is not checked: component numbers, swizzles and masks are
    /// masked to their low bits; `Dot`/`Matrix` lengths outside 2..=4 / 3..=4 act as the
    /// nearest; a relative address out of range reads 0 or writes nothing; a sampler or
    /// texture stage without a binding reads the defaults; a `def` outside the float constant
    /// file is dropped; `budget` and `max_call_depth` are
    /// limits (calls beyond either stop the run with an error); an empty plan, or one whose
    /// main program has no `End`, ends after its last operation.
    ///
    /// [`crate::VertexShader`] and [`crate::PixelShader`] lower plans that pass; the JIT checks
    /// the plans it is given before it compiles them (a plan that fails runs nowhere) and
    /// `Compiled::run_plan` returns the error.
    pub fn check(&self) -> Result<(), PlanError> {
        let layout = |rule| malformed(PlanPlace::Layout, rule);
        if self.slots > Self::MAX_SLOTS {
            return Err(layout(PlanRule::TooManySlots {
                slots: self.slots,
                max: Self::MAX_SLOTS,
            }));
        }
        if self.float_constants > Options::MAX_FLOAT_CONSTANTS {
            return Err(layout(PlanRule::TooManyFloatConstants {
                count: self.float_constants,
                max: Options::MAX_FLOAT_CONSTANTS,
            }));
        }
        if ![8, 16, 32, 64].contains(&self.lanes) {
            return Err(layout(PlanRule::Lanes { lanes: self.lanes }));
        }
        let uniforms = self.uniforms.len();
        let zeroed = &self.zeroed;
        if uniforms > zeroed.start as usize || zeroed.start > zeroed.end || zeroed.end > self.slots
        {
            return Err(layout(PlanRule::Rows {
                uniforms,
                zeroed_start: zeroed.start,
                zeroed_end: zeroed.end,
                slots: self.slots,
            }));
        }
        // `uniforms <= zeroed.start <= slots <= MAX_SLOTS`: the count fits a slot.
        let uniforms = uniforms as Slot;
        for (i, &slot) in self.clear.iter().enumerate() {
            if !zeroed.contains(&slot) {
                return Err(malformed(
                    PlanPlace::Clear(i),
                    PlanRule::ClearOutsideZeroed { slot },
                ));
            }
        }
        for (i, u) in self.uniforms.iter().enumerate() {
            if let Uniform::Float { reg, .. } = *u {
                self.float_register(PlanPlace::Uniform(i), reg)?;
            }
        }
        // A `def` beyond the float constant file is dropped when the run starts: real shaders
        // define registers their file does not have (the corpus has `def c297` in a shader
        // run with 256 constants), so `float_defs` is not checked.
        let small = |place, reg: u32| match reg {
            0..16 => Ok(()),
            _ => Err(malformed(place, PlanRule::ConstantRegister { reg })),
        };
        for (i, &(reg, _)) in self.int_defs.iter().enumerate() {
            small(PlanPlace::IntDef(i), reg)?;
        }
        for (i, &(reg, _)) in self.bool_defs.iter().enumerate() {
            small(PlanPlace::BoolDef(i), reg)?;
        }
        for (i, input) in self.inputs.iter().enumerate() {
            for &slot in input.slots.iter().flatten() {
                self.slot(PlanPlace::Input(i), slot)?;
                if slot < uniforms {
                    return Err(malformed(
                        PlanPlace::Input(i),
                        PlanRule::WritesUniform { slot },
                    ));
                }
            }
        }
        for (i, output) in self.outputs.iter().enumerate() {
            for &slot in output.slots.iter().flatten() {
                self.slot(PlanPlace::Output(i), slot)?;
            }
        }
        for (pc, op) in self.ops.iter().enumerate() {
            self.check_op(pc, op, uniforms)?;
        }
        self.check_structure()
    }

    fn slot(&self, place: PlanPlace, slot: Slot) -> Result<(), PlanError> {
        if slot < self.slots {
            Ok(())
        } else {
            Err(malformed(
                place,
                PlanRule::SlotOutOfRange {
                    slot,
                    slots: self.slots,
                },
            ))
        }
    }

    fn float_register(&self, place: PlanPlace, reg: u32) -> Result<(), PlanError> {
        if reg < self.float_constants {
            Ok(())
        } else {
            Err(malformed(
                place,
                PlanRule::FloatRegister {
                    reg,
                    count: self.float_constants,
                },
            ))
        }
    }

    /// The slot, register and sampler rules of one operation.
    fn check_op(&self, pc: usize, op: &Op, uniforms: Slot) -> Result<(), PlanError> {
        let place = PlanPlace::Op(pc);
        let uses = op.slot_uses();
        for &slot in &uses.named {
            self.slot(place, slot)?;
        }
        if let Some(&slot) = uses.written.iter().find(|&&s| s < uniforms) {
            return Err(malformed(place, PlanRule::WritesUniform { slot }));
        }
        if let Some(Block { base, len, written }) = uses.block {
            let fits = len
                .checked_mul(4)
                .and_then(|rows| base.checked_add(rows))
                .is_some_and(|end| len > 0 && end <= self.slots);
            if !fits {
                return Err(malformed(place, PlanRule::BlockOutOfRange { base, len }));
            }
            if written && base < uniforms {
                return Err(malformed(place, PlanRule::WritesUniform { slot: base }));
            }
        }
        match *op {
            Op::Gather {
                from, offset: o, ..
            } => {
                let count = match from {
                    GatherFrom::Const => self.float_constants,
                    GatherFrom::Block { len, .. } => len,
                };
                if o < 0 || o as u32 >= count {
                    return Err(malformed(
                        place,
                        PlanRule::RelativeBase { offset: o, count },
                    ));
                }
            }
            Op::Scatter { len, offset: o, .. } if o < 0 || o as u32 >= len => {
                return Err(malformed(
                    place,
                    PlanRule::RelativeBase {
                        offset: o,
                        count: len,
                    },
                ));
            }
            Op::Loop {
                count: super::LoopCount::Int(r),
                ..
            } if r >= 16 => {
                return Err(malformed(
                    place,
                    PlanRule::ConstantRegister { reg: r as u32 },
                ));
            }
            Op::If {
                cond: Cond::Bool { reg, .. },
                ..
            }
            | Op::Break {
                cond: Cond::Bool { reg, .. },
                ..
            }
            | Op::Call {
                cond: Cond::Bool { reg, .. },
                ..
            } if reg >= 16 => {
                return Err(malformed(
                    place,
                    PlanRule::ConstantRegister { reg: reg as u32 },
                ));
            }
            Op::Sample { sampler, .. } if !self.samplers.iter().any(|s| s.index == sampler) => {
                return Err(malformed(place, PlanRule::UnlistedSampler { sampler }));
            }
            _ => {}
        }
        Ok(())
    }

    /// The control-flow rules: targets in range, blocks nested, every jump but a loop's
    /// repeat forward.
    fn check_structure(&self) -> Result<(), PlanError> {
        let ops = &self.ops[..];
        let n = ops.len();
        let bad = |pc: usize, rule: &'static str| {
            malformed(PlanPlace::Op(pc), PlanRule::Unstructured(rule))
        };
        for (pc, op) in ops.iter().enumerate() {
            if let Some(target) = op.jump() {
                if target as usize >= n {
                    return Err(malformed(
                        PlanPlace::Op(pc),
                        PlanRule::JumpOutOfRange { target, ops: n },
                    ));
                }
            }
        }
        // Openers of the blocks open at each operation, innermost last; every function leaves
        // it empty.
        let mut open: Vec<Pc> = Vec::new();
        for (pc, op) in ops.iter().enumerate() {
            match *op {
                Op::If { else_pc, .. } => {
                    let e = else_pc as usize;
                    if e <= pc || !matches!(ops[e], Op::Else { .. } | Op::EndIf) {
                        return Err(bad(
                            pc,
                            "an if whose else target is not a later else or endif",
                        ));
                    }
                    open.push(pc as Pc);
                }
                Op::Else { end_pc } => {
                    let paired = open.last().is_some_and(|&i| {
                        matches!(ops[i as usize], Op::If { else_pc, .. } if else_pc as usize == pc)
                    });
                    let e = end_pc as usize;
                    if !paired || e <= pc || !matches!(ops[e], Op::EndIf) {
                        return Err(bad(
                            pc,
                            "an else that does not pair with its if and a later endif",
                        ));
                    }
                }
                Op::EndIf => {
                    let closes = open.pop().is_some_and(|i| match ops[i as usize] {
                        Op::If { else_pc, .. } => {
                            let e = else_pc as usize;
                            e == pc
                                || matches!(ops[e], Op::Else { end_pc } if end_pc as usize == pc)
                        }
                        _ => false,
                    });
                    if !closes {
                        return Err(bad(pc, "an endif that does not close the innermost if"));
                    }
                }
                Op::Loop { end_pc, .. } => {
                    let e = end_pc as usize;
                    if e <= pc || !matches!(ops[e], Op::EndLoop { .. }) {
                        return Err(bad(pc, "a loop whose end is not a later endloop"));
                    }
                    open.push(pc as Pc);
                }
                Op::EndLoop { body_pc } => {
                    let closes = open.pop().is_some_and(|l| {
                        matches!(ops[l as usize], Op::Loop { end_pc, .. } if end_pc as usize == pc)
                            && body_pc == l + 1
                    });
                    if !closes {
                        return Err(bad(
                            pc,
                            "an endloop that does not close the innermost loop or repeat its body",
                        ));
                    }
                }
                Op::Break { resume, .. } | Op::Ret { resume } => {
                    let is_break = matches!(op, Op::Break { .. });
                    if is_break
                        && !open
                            .iter()
                            .any(|&o| matches!(ops[o as usize], Op::Loop { .. }))
                    {
                        return Err(bad(pc, "a break outside a loop"));
                    }
                    let end = ops[pc..]
                        .iter()
                        .position(|op| matches!(op, Op::End | Op::Return))
                        .map(|k| pc + k);
                    let Some(end) = end else {
                        return Err(bad(pc, "a break or ret in a function without an end"));
                    };
                    if !resume_ok(ops, &open, pc, resume as usize, end) {
                        return Err(bad(
                            pc,
                            "a break or ret that does not resume at its block's next structural \
                             operation",
                        ));
                    }
                }
                Op::Call { target, .. } => {
                    let t = target as usize;
                    if t == 0 || !matches!(ops[t - 1], Op::End | Op::Return) {
                        return Err(malformed(
                            PlanPlace::Op(pc),
                            PlanRule::CallTarget { target },
                        ));
                    }
                }
                Op::End | Op::Return if !open.is_empty() => {
                    return Err(bad(pc, "a function ends inside an open block"));
                }
                _ => {}
            }
        }
        match open.last() {
            Some(&o) => Err(bad(o as usize, "a block that is never closed")),
            None => Ok(()),
        }
    }
}

fn malformed(place: PlanPlace, rule: PlanRule) -> PlanError {
    PlanError::Malformed { place, rule }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::PlanRule as R;
    use crate::plan::{Cond, ExactF32, IndexReg, LoopCount};
    use crate::VertexShader;

    /// A plan with every kind of structure: a relative read, a loop with a break, an if with
    /// an else, a call, a sample, uniforms.
    const SHADER: &str = "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord o1\ndcl_2d s0\ndefi i0, 3, 0, 1, 0\ndefb b0, true\nmova a0.x, v0.x\nmov r0, c[a0.x + 2]\nloop aL, i0\nadd r0, r0, c1\nbreak_gt r0.x, c0.x\nendloop\nif b0\ncall l0\nelse\nadd r0, r0, c1\nendif\ntexldl r1, v0, s0\nmov o0, r0\nmov o1, r1\nret\nlabel l0\nmul r0, r0, c3\nret\n";

    fn plan() -> Plan {
        let shader = dxso_text::parse::parse(SHADER).expect("assembles");
        let plan = VertexShader::new(&shader).expect("lowers").plan().clone();
        assert_eq!(plan.check(), Ok(()));
        plan
    }

    fn pc_of(plan: &Plan, f: impl Fn(&Op) -> bool) -> usize {
        plan.ops
            .iter()
            .position(f)
            .expect("the plan has the operation")
    }

    /// The error of the plan after `f` breaks it.
    fn broken(f: impl FnOnce(&mut Plan)) -> (PlanPlace, R) {
        let mut p = plan();
        f(&mut p);
        match p.check() {
            Err(PlanError::Malformed { place, rule }) => (place, rule),
            other => panic!("expected a malformed plan, found {other:?}"),
        }
    }

    fn arith(p: &Plan) -> usize {
        pc_of(p, |o| matches!(o, Op::Arith { mask, .. } if mask & 1 != 0))
    }

    #[test]
    fn sizes() {
        let (place, rule) = broken(|p| p.slots = Plan::MAX_SLOTS + 1);
        assert_eq!(place, PlanPlace::Layout);
        assert!(matches!(rule, R::TooManySlots { .. }));
        let (_, rule) = broken(|p| p.float_constants = u32::MAX);
        assert!(matches!(
            rule,
            R::TooManyFloatConstants {
                count: u32::MAX,
                ..
            }
        ));
        assert_eq!(broken(|p| p.lanes = 12).1, R::Lanes { lanes: 12 });
        assert_eq!(broken(|p| p.lanes = 0).1, R::Lanes { lanes: 0 });
    }

    #[test]
    fn row_ranges_nest() {
        let (_, rule) = broken(|p| p.zeroed.end = p.slots + 1);
        assert!(matches!(rule, R::Rows { .. }), "{rule}");
        let (_, rule) = broken(|p| p.zeroed = p.zeroed.end..p.zeroed.start);
        assert!(matches!(rule, R::Rows { .. }), "{rule}");
        let (_, rule) = broken(|p| p.zeroed.start = 0);
        assert!(
            matches!(rule, R::Rows { uniforms, .. } if uniforms > 0),
            "{rule}"
        );
        let (place, rule) = broken(|p| p.clear.push(p.zeroed.end));
        assert!(matches!(place, PlanPlace::Clear(_)));
        assert!(matches!(rule, R::ClearOutsideZeroed { .. }));
    }

    #[test]
    fn operation_slots() {
        let mut pc = 0;
        let (place, rule) = broken(|p| {
            pc = arith(p);
            if let Op::Arith { src, .. } = &mut p.ops[pc] {
                src[0][0] = p.slots;
            }
        });
        assert_eq!(place, PlanPlace::Op(pc));
        assert!(matches!(rule, R::SlotOutOfRange { .. }));
        // A masked-out component names a slot too.
        let (_, rule) = broken(|p| {
            let i = arith(p);
            if let Op::Arith { mask, dst, .. } = &mut p.ops[i] {
                *mask = 1;
                dst[3] = u32::MAX;
            }
        });
        assert!(matches!(rule, R::SlotOutOfRange { slot: u32::MAX, .. }));
        let (_, rule) = broken(|p| {
            let i = arith(p);
            if let Op::Arith { dst, .. } = &mut p.ops[i] {
                dst[0] = 0;
            }
        });
        assert_eq!(rule, R::WritesUniform { slot: 0 });
    }

    #[test]
    fn blocks() {
        let block = |base: Slot, len: u32| {
            move |p: &mut Plan| {
                let i = arith(p);
                p.ops[i] = Op::Gather {
                    from: GatherFrom::Block { base, len },
                    index: IndexReg::Loop,
                    offset: 0,
                    comps: [0, 1, 2, 3],
                    mask: 1,
                    dst: [p.zeroed.start; 4],
                };
            }
        };
        let mut slots = 0;
        let (_, rule) = broken(|p| {
            slots = p.slots;
            block(p.slots - 2, 1)(p)
        });
        assert_eq!(
            rule,
            R::BlockOutOfRange {
                base: slots - 2,
                len: 1
            }
        );
        assert!(matches!(
            broken(block(0, 0)).1,
            R::BlockOutOfRange { len: 0, .. }
        ));
        assert!(matches!(
            broken(block(0, u32::MAX)).1,
            R::BlockOutOfRange { .. }
        ));
        // A write into the uniform rows through a block.
        let (_, rule) = broken(|p| {
            let i = arith(p);
            p.ops[i] = Op::Scatter {
                base: 0,
                len: 1,
                index: IndexReg::Loop,
                offset: 0,
                mask: 1,
                src: [0; 4],
                pred: None,
            };
        });
        assert_eq!(rule, R::WritesUniform { slot: 0 });
    }

    #[test]
    fn relative_bases() {
        let (_, rule) = broken(|p| {
            for op in &mut p.ops {
                if let Op::Gather { offset, .. } = op {
                    *offset = -1;
                }
            }
        });
        assert!(matches!(rule, R::RelativeBase { offset: -1, .. }), "{rule}");
        let mut count = 0;
        let (_, rule) = broken(|p| {
            count = p.float_constants;
            for op in &mut p.ops {
                if let Op::Gather { offset, .. } = op {
                    *offset = count as i32;
                }
            }
        });
        assert_eq!(
            rule,
            R::RelativeBase {
                offset: count as i32,
                count
            }
        );
    }

    #[test]
    fn registers() {
        let (place, rule) = broken(|p| {
            let count = p.float_constants;
            for u in &mut p.uniforms {
                if let Uniform::Float { reg, .. } = u {
                    *reg = count;
                }
            }
        });
        assert!(matches!(place, PlanPlace::Uniform(_)));
        assert!(matches!(rule, R::FloatRegister { .. }));
        let (place, rule) = broken(|p| p.int_defs.push((16, [0; 4])));
        assert!(matches!(place, PlanPlace::IntDef(_)));
        assert_eq!(rule, R::ConstantRegister { reg: 16 });
        let (place, _) = broken(|p| p.bool_defs.push((99, true)));
        assert!(matches!(place, PlanPlace::BoolDef(_)));
        let (_, rule) = broken(|p| {
            let i = pc_of(p, |o| matches!(o, Op::Loop { .. }));
            if let Op::Loop { count, .. } = &mut p.ops[i] {
                *count = LoopCount::Int(16);
            }
        });
        assert_eq!(rule, R::ConstantRegister { reg: 16 });
        let (_, rule) = broken(|p| {
            let i = pc_of(p, |o| matches!(o, Op::If { .. }));
            if let Op::If { cond, .. } = &mut p.ops[i] {
                *cond = Cond::Bool {
                    reg: 200,
                    not: false,
                };
            }
        });
        assert_eq!(rule, R::ConstantRegister { reg: 200 });
        let (_, rule) = broken(|p| {
            let i = pc_of(p, |o| matches!(o, Op::Sample { .. }));
            if let Op::Sample { sampler, .. } = &mut p.ops[i] {
                *sampler = 5;
            }
        });
        assert_eq!(rule, R::UnlistedSampler { sampler: 5 });
    }

    #[test]
    fn inputs_and_outputs() {
        let (place, rule) = broken(|p| p.inputs[0].slots[0] = Some(0));
        assert_eq!(place, PlanPlace::Input(0));
        assert_eq!(rule, R::WritesUniform { slot: 0 });
        let (place, rule) = broken(|p| p.inputs[0].slots[3] = Some(p.slots));
        assert_eq!(place, PlanPlace::Input(0));
        assert!(matches!(rule, R::SlotOutOfRange { .. }));
        let (place, rule) = broken(|p| p.outputs[1].slots[2] = Some(p.slots + 7));
        assert_eq!(place, PlanPlace::Output(1));
        assert!(matches!(rule, R::SlotOutOfRange { .. }));
    }

    #[test]
    fn jump_targets() {
        let mut n = 0;
        let (_, rule) = broken(|p| {
            n = p.ops.len();
            let i = pc_of(p, |o| matches!(o, Op::If { .. }));
            p.ops[i] = Op::If {
                cond: Cond::Always,
                else_pc: n as Pc,
            };
        });
        assert_eq!(
            rule,
            R::JumpOutOfRange {
                target: n as Pc,
                ops: n
            }
        );
        let (_, rule) = broken(|p| {
            let i = pc_of(p, |o| matches!(o, Op::Call { .. }));
            p.ops[i] = Op::Call {
                cond: Cond::Always,
                target: 1,
            };
        });
        assert_eq!(rule, R::CallTarget { target: 1 });
        let (_, rule) = broken(|p| {
            let i = pc_of(p, |o| matches!(o, Op::Call { .. }));
            p.ops[i] = Op::Call {
                cond: Cond::Always,
                target: 0,
            };
        });
        assert_eq!(rule, R::CallTarget { target: 0 });
    }

    fn unstructured(f: impl FnOnce(&mut Plan)) -> &'static str {
        match broken(f) {
            (PlanPlace::Op(_), R::Unstructured(why)) => why,
            other => panic!("expected unstructured control flow, found {other:?}"),
        }
    }

    #[test]
    fn structure() {
        // A backward if (would loop for ever without counting).
        let why = unstructured(|p| {
            let i = pc_of(p, |o| matches!(o, Op::If { .. }));
            if let Op::If { else_pc, .. } = &mut p.ops[i] {
                *else_pc = 0;
            }
        });
        assert!(why.contains("an if"), "{why}");
        let why = unstructured(|p| {
            let i = pc_of(p, |o| matches!(o, Op::Else { .. }));
            if let Op::Else { end_pc } = &mut p.ops[i] {
                *end_pc = i as Pc - 1;
            }
        });
        assert!(why.contains("an else"), "{why}");
        // An endloop repeating from its loop (would push a frame per iteration).
        let why = unstructured(|p| {
            let l = pc_of(p, |o| matches!(o, Op::Loop { .. }));
            let e = pc_of(p, |o| matches!(o, Op::EndLoop { .. }));
            p.ops[e] = Op::EndLoop { body_pc: l as Pc };
        });
        assert!(why.contains("endloop"), "{why}");
        let why = unstructured(|p| {
            let l = pc_of(p, |o| matches!(o, Op::Loop { .. }));
            let e = pc_of(p, |o| matches!(o, Op::EndIf));
            if let Op::Loop { end_pc, .. } = &mut p.ops[l] {
                *end_pc = e as Pc;
            }
        });
        assert!(why.contains("a loop"), "{why}");
        let why = unstructured(|p| {
            let b = pc_of(p, |o| matches!(o, Op::Break { .. }));
            if let Op::Break { resume, .. } = &mut p.ops[b] {
                *resume += 1;
            }
        });
        assert!(why.contains("resume"), "{why}");
        let why = unstructured(|p| {
            let l = pc_of(p, |o| matches!(o, Op::Loop { .. }));
            let b = pc_of(p, |o| matches!(o, Op::Break { .. }));
            p.ops[b] = Op::Count(1);
            p.ops[l] = Op::Count(1);
            let e = pc_of(p, |o| matches!(o, Op::EndLoop { .. }));
            p.ops[e] = Op::Break {
                cond: Cond::Always,
                resume: e as Pc + 1,
            };
        });
        assert!(why.contains("break outside"), "{why}");
        let why = unstructured(|p| {
            let e = pc_of(p, |o| matches!(o, Op::EndIf));
            p.ops[e] = Op::Count(0);
        });
        assert!(why.contains("else"), "{why}");
        let why = unstructured(|p| {
            let n = p.ops.len() as Pc;
            p.ops.push(Op::If {
                cond: Cond::Always,
                else_pc: n + 2,
            });
            p.ops.push(Op::End);
            p.ops.push(Op::EndIf);
        });
        assert!(why.contains("open block"), "{why}");
    }

    #[test]
    fn message_names_place_and_rule() {
        let mut p = plan();
        p.lanes = 12;
        assert_eq!(
            p.check().unwrap_err().to_string(),
            "malformed plan: layout: 12 lanes per batch (8, 16, 32 or 64)"
        );
        let mut p = plan();
        let i = arith(&p);
        if let Op::Arith { src, .. } = &mut p.ops[i] {
            src[1][2] = 1 << 19;
        }
        let slots = p.slots;
        assert_eq!(
            p.check().unwrap_err().to_string(),
            format!(
                "malformed plan: operation {i}: slot 524288 is outside the register file \
                 ({slots} rows)"
            )
        );
    }

    #[test]
    fn tolerated_values_pass() {
        let mut p = plan();
        // A def past the file is dropped; component numbers and lengths are masked.
        p.float_defs
            .push((p.float_constants + 40, [ExactF32(1.0); 4]));
        for op in &mut p.ops {
            match op {
                Op::Gather { comps, .. } => *comps = [7, 9, 200, 3],
                Op::Sample { .. } => {}
                Op::Arith { mask, .. } => *mask |= 0xF0,
                _ => {}
            }
        }
        p.budget = 0;
        p.max_call_depth = u32::MAX;
        assert_eq!(p.check(), Ok(()));
    }

    #[test]
    fn slot_uses_list_named_and_written_rows() {
        let op = Op::Scatter {
            base: 10,
            len: u32::MAX,
            index: IndexReg::Loop,
            offset: 0,
            mask: 1,
            src: [1, 2, 3, 4],
            pred: None,
        };
        let uses = op.slot_uses();
        assert_eq!(uses.named, vec![10, 1, 2, 3, 4]);
        assert!(uses.written.is_empty());
        assert_eq!(
            uses.block,
            Some(Block {
                base: 10,
                len: u32::MAX,
                written: true
            })
        );
        let op = Op::Arith {
            f: crate::plan::ArithFn::Add,
            mask: 0b0101,
            dst: [5, 6, 7, 8],
            src: [[1; 4], [2; 4], [3; 4]],
        };
        assert_eq!(op.slot_uses().written, vec![5, 7]);
    }
}
