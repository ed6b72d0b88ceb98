//! Slot allocation: which row of the register file holds which register component.
//!
//! While lowering, slots are allocated in four spaces (uniform, input, zeroed, scratch) and
//! tagged with their space; [`Layout::finish`] places the spaces one after the other and
//! renumbers every slot of the plan.

use super::{ExactF32, InputSlots, Op, OutputSlots, Slot, Uniform};
use crate::io::{InputRegister, OutputRegister};
use std::collections::HashMap;

const SPACE_SHIFT: u32 = 28;
const INDEX_MASK: u32 = (1 << SPACE_SHIFT) - 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Space {
    Uniform = 0,
    Input = 1,
    Zeroed = 2,
    Scratch = 3,
    /// Values kept across instructions that need no clearing (relative reads reused while the
    /// address register is unchanged); placed after scratch, written in every lane.
    Cache = 4,
}

/// A per-lane register whose components get slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Key {
    /// `r#`.
    Temp(u16),
    /// An input register.
    Input(InputRegister),
    /// A ps_1_1-1_3 texture register `t#` (written by texture instructions).
    TexReg(u8),
    /// An output register.
    Output(OutputRegister),
    /// The ps_1_x texture-matrix rows (`texm3x*pad` results) and other hidden values.
    Hidden(u8),
}

fn uniform_key(u: &Uniform) -> (u8, u64) {
    match *u {
        Uniform::Literal(v) => (0, v.0.to_bits() as u64),
        Uniform::Float {
            reg,
            comp,
            modifier,
        } => (1, (reg as u64) << 16 | (comp as u64) << 8 | modifier as u64),
        Uniform::Stage { stage, field } => (
            2,
            (stage as u64) << 8
                | match field {
                    super::StageField::BumpMat(i) => i as u64,
                    super::StageField::LScale => 4,
                    super::StageField::LOffset => 5,
                },
        ),
    }
}

/// The slot builder.
#[derive(Default)]
pub(crate) struct Layout {
    uniforms: Vec<Uniform>,
    uniform_map: HashMap<(u8, u64), Slot>,
    slots: HashMap<(Key, u8), Slot>,
    counts: [u32; 5],
    cache: HashMap<u64, Slot>,
    inputs: Vec<(InputRegister, u8, Slot)>,
    outputs: Vec<(OutputRegister, u8, Slot)>,
    scratch_mark: u32,
    scratch_high: u32,
}

impl Layout {
    fn alloc(&mut self, space: Space) -> Slot {
        let i = self.counts[space as usize];
        self.counts[space as usize] += 1;
        (space as u32) << SPACE_SHIFT | i
    }

    /// The uniform slot holding `u`.
    pub fn uniform(&mut self, u: Uniform) -> Slot {
        let key = uniform_key(&u);
        if let Some(&s) = self.uniform_map.get(&key) {
            return s;
        }
        let s = self.alloc(Space::Uniform);
        self.uniforms.push(u);
        self.uniform_map.insert(key, s);
        s
    }

    /// A literal's uniform slot.
    pub fn literal(&mut self, v: f32) -> Slot {
        self.uniform(Uniform::Literal(ExactF32(v)))
    }

    /// The slot of component `comp` of a per-lane register.
    pub fn reg(&mut self, key: Key, comp: u8) -> Slot {
        if let Some(&s) = self.slots.get(&(key, comp)) {
            return s;
        }
        let space = if matches!(key, Key::Input(_)) {
            Space::Input
        } else {
            Space::Zeroed
        };
        let s = self.alloc(space);
        self.slots.insert((key, comp), s);
        match key {
            Key::Input(r) => self.inputs.push((r, comp, s)),
            Key::Output(r) => self.outputs.push((r, comp, s)),
            _ => {}
        }
        s
    }

    /// Allocates every component of registers `0..len` of a relatively addressed file at once,
    /// contiguous (register-major), and returns the first slot.
    pub fn block(&mut self, key: impl Fn(u8) -> Key, len: u8) -> Slot {
        let mut first = None;
        for r in 0..len {
            for c in 0..4 {
                let k = key(r);
                debug_assert!(!self.slots.contains_key(&(k, c)), "block allocated first");
                let s = self.reg(k, c);
                first.get_or_insert(s);
            }
        }
        first.expect("len > 0")
    }

    /// The cache slot named `key` (the same key always names the same slot).
    pub fn cache(&mut self, key: u64) -> Slot {
        if let Some(&s) = self.cache.get(&key) {
            return s;
        }
        let s = self.alloc(Space::Cache);
        self.cache.insert(key, s);
        s
    }

    /// A scratch slot, valid until [`Layout::release_scratch`].
    pub fn scratch(&mut self) -> Slot {
        let s = (Space::Scratch as u32) << SPACE_SHIFT | self.scratch_mark;
        self.scratch_mark += 1;
        self.scratch_high = self.scratch_high.max(self.scratch_mark);
        s
    }

    /// The current scratch position, to release back to.
    pub fn scratch_position(&self) -> u32 {
        self.scratch_mark
    }

    /// Frees scratch slots allocated since `position`.
    pub fn release_scratch(&mut self, position: u32) {
        self.scratch_mark = position;
    }

    /// Places the spaces and renumbers `ops` and `extra`. Returns the row count, the uniforms, the zeroed
    /// range, the inputs and the outputs (in register order).
    pub fn finish(
        self,
        ops: &mut [Op],
        extra: &mut [Slot],
    ) -> (
        u32,
        Vec<Uniform>,
        std::ops::Range<Slot>,
        Vec<InputSlots>,
        Vec<OutputSlots>,
    ) {
        let mut base = [0u32; 5];
        let sizes = [
            self.counts[0],
            self.counts[1],
            self.counts[2],
            self.scratch_high,
            self.counts[4],
        ];
        for i in 1..5 {
            base[i] = base[i - 1] + sizes[i - 1];
        }
        let total = base[4] + sizes[4];
        let place = |s: Slot| base[(s >> SPACE_SHIFT) as usize] + (s & INDEX_MASK);
        for op in ops.iter_mut() {
            op.map_slots(|s| *s = place(*s));
        }
        for s in extra.iter_mut() {
            *s = place(*s);
        }
        let mut inputs: Vec<InputSlots> = Vec::new();
        for (r, c, s) in self.inputs {
            match inputs.iter_mut().find(|i| i.register == r) {
                Some(i) => i.slots[c as usize] = Some(place(s)),
                None => {
                    let mut slots = [None; 4];
                    slots[c as usize] = Some(place(s));
                    inputs.push(InputSlots { register: r, slots });
                }
            }
        }
        inputs.sort_by_key(|i| i.register);
        let mut outputs: Vec<OutputSlots> = Vec::new();
        for (r, c, s) in self.outputs {
            match outputs.iter_mut().find(|o| o.register == r) {
                Some(o) => o.slots[c as usize] = Some(place(s)),
                None => {
                    let mut slots = [None; 4];
                    slots[c as usize] = Some(place(s));
                    outputs.push(OutputSlots { register: r, slots });
                }
            }
        }
        outputs.sort_by_key(|o| o.register);
        (total, self.uniforms, base[2]..base[3], inputs, outputs)
    }
}

impl Op {
    /// Calls `f` on every slot the operation writes in every active lane (partial writes:
    /// predicated stores, scatters, are not listed).
    pub fn for_each_full_write(&self, mut f: impl FnMut(Slot)) {
        self.for_each_write(|s, full| {
            if full {
                f(s)
            }
        });
    }

    /// Calls `f` on every slot the operation writes (components in its mask), with whether the
    /// write reaches every active lane (`false` for a predicated store). Scatters, which write
    /// a relatively addressed block, are not listed.
    pub(crate) fn for_each_write(&self, mut f: impl FnMut(Slot, bool)) {
        let mut masked = |mask: u8, dst: &[Slot], full: bool| {
            for (c, s) in dst.iter().enumerate() {
                if mask & (1 << c) != 0 {
                    f(*s, full);
                }
            }
        };
        match self {
            Op::Arith { mask, dst, .. }
            | Op::Dot { mask, dst, .. }
            | Op::Matrix { mask, dst, .. }
            | Op::Cross { mask, dst, .. }
            | Op::Lit { mask, dst, .. }
            | Op::Deriv { mask, dst, .. }
            | Op::Gather { mask, dst, .. } => masked(*mask, dst, true),
            Op::Store {
                mask, dst, pred, ..
            } => masked(*mask, dst, pred.is_none()),
            Op::Reflect { dst, .. } | Op::ProjectStage { dst, .. } => masked(0x7, dst, true),
            Op::Sample { dst, .. } => masked(0xF, dst, true),
            Op::Depth { dst, .. } => masked(1, &[*dst], true),
            _ => {}
        }
    }

    /// Calls `f` on every slot the operation names.
    pub fn map_slots(&mut self, mut f: impl FnMut(&mut Slot)) {
        use super::{Cond, LodPlan};
        let cond = |c: &mut Cond, f: &mut dyn FnMut(&mut Slot)| {
            if let Cond::Compare { a, b, .. } = c {
                f(a);
                f(b);
            }
        };
        match self {
            Op::Arith { dst, src, .. } => {
                dst.iter_mut().for_each(&mut f);
                src.iter_mut().flatten().for_each(&mut f);
            }
            Op::Dot { a, b, add, dst, .. } => {
                a.iter_mut()
                    .chain(b.iter_mut())
                    .chain(dst.iter_mut())
                    .for_each(&mut f);
                if let Some(s) = add {
                    f(s);
                }
            }
            Op::Matrix { a, rows, dst, .. } => a
                .iter_mut()
                .chain(rows.iter_mut().flatten())
                .chain(dst.iter_mut())
                .for_each(&mut f),
            Op::Cross { a, b, dst, .. } => a
                .iter_mut()
                .chain(b.iter_mut())
                .chain(dst.iter_mut())
                .for_each(&mut f),
            Op::Lit { src, dst, .. } => src.iter_mut().chain(dst.iter_mut()).for_each(&mut f),
            Op::Reflect { n, e, dst } => n
                .iter_mut()
                .chain(e.iter_mut())
                .chain(dst.iter_mut())
                .for_each(&mut f),
            Op::Gather { from, dst, .. } => {
                if let super::GatherFrom::Block { base, .. } = from {
                    f(base);
                }
                dst.iter_mut().for_each(&mut f);
            }
            Op::Scatter { base, src, .. } => {
                f(base);
                src.iter_mut().for_each(&mut f);
            }
            Op::Store { src, dst, .. } => src.iter_mut().chain(dst.iter_mut()).for_each(&mut f),
            Op::Mova { src, .. } => src.iter_mut().for_each(&mut f),
            Op::SetP { a, b, .. } => a.iter_mut().chain(b.iter_mut()).for_each(&mut f),
            Op::Deriv { src, dst, .. } => src.iter_mut().chain(dst.iter_mut()).for_each(&mut f),
            Op::Kill { src, .. } => src.iter_mut().for_each(&mut f),
            Op::Depth { a, b, dst, .. } => {
                f(a);
                f(b);
                f(dst);
            }
            Op::ProjectStage { src, dst, .. } => {
                src.iter_mut().chain(dst.iter_mut()).for_each(&mut f)
            }
            Op::Sample {
                coords, lod, dst, ..
            } => {
                coords.iter_mut().chain(dst.iter_mut()).for_each(&mut f);
                match lod {
                    LodPlan::Implicit => {}
                    LodPlan::Bias(s) | LodPlan::Explicit(s) => f(s),
                    LodPlan::Gradients(dx, dy) => {
                        dx.iter_mut().chain(dy.iter_mut()).for_each(&mut f)
                    }
                }
            }
            Op::If { cond: c, .. } | Op::Break { cond: c, .. } | Op::Call { cond: c, .. } => {
                cond(c, &mut f)
            }
            Op::Count(_)
            | Op::Else { .. }
            | Op::EndIf
            | Op::Loop { .. }
            | Op::EndLoop { .. }
            | Op::Ret { .. }
            | Op::Return
            | Op::End => {}
        }
    }
}
