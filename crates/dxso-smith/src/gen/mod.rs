//! The generator: one [`Gen`] per program. `setup` decides the program's interface (inputs,
//! outputs, samplers, defined constants) before any instruction exists, because declarations
//! and definitions come first in the stream; the body is then built instruction by instruction
//! ([`operands`] picks registers that are written and in range, [`ops`] builds each instruction,
//! [`flow`] nests blocks and subroutines), and ps_1_x programs follow their own fixed layout
//! ([`ps1`]).

pub(crate) mod flow;
pub(crate) mod operands;
pub(crate) mod ops;
pub(crate) mod ps1;
pub(crate) mod setup;
pub(crate) mod state;

use crate::config::Config;
use crate::interface::{
    BoolConstantUse, FloatConstantUse, InputUse, IntConstantUse, Interface, OutputUse, SamplerUse,
};
use arbitrary::Unstructured;
use dxso::validate::Profile;
use dxso::{
    DeclUsage, DstParam, Extra, Instruction, Item, Opcode, Register, RegisterType, Shader,
    TextureType, Version, WriteMask,
};
use state::{LoopFrame, State};
use std::collections::{BTreeMap, BTreeSet};

/// A declared input the body may read.
#[derive(Clone, Debug)]
pub(crate) struct InputSlot {
    pub register: Register,
    pub mask: u8,
    pub usage: Option<(DeclUsage, u8)>,
    pub centroid: bool,
}

/// An output the program writes on every path (decided up front: vs_3_0 declares them).
#[derive(Clone, Debug)]
pub(crate) struct OutputSlot {
    pub register: Register,
    pub mask: u8,
    pub usage: Option<(DeclUsage, u8)>,
    /// Written only by `mov` at the end of `main` (ps_2_0/ps_2_x colour, depth, `oFog`, `oPts`).
    pub epilogue_only: bool,
}

/// A finished subroutine.
#[derive(Clone, Debug)]
pub(crate) struct Sub {
    pub label: u16,
    pub body: Vec<Instruction>,
    /// The state it was generated in: a later call needs at least this much written.
    pub entry: State,
    /// Temps it leaves undefined (the scratch registers of `sgn`).
    pub clobbers: u32,
    /// How deep its own calls go (1 = it calls nothing).
    pub height: usize,
    /// Slots one call executes, loops and nested calls multiplied out.
    pub cost: u64,
    /// The product of its own nested loop trip counts.
    pub inner_iterations: u64,
    /// The range of `aL` it assumed, if it reads `aL`.
    pub al: Option<(i32, i32)>,
    /// It holds gradient instructions (so it may not run under divergent control flow).
    pub gradients: bool,
    /// It may discard.
    pub discards: bool,
    /// Its deepest `if` and loop nesting.
    pub if_height: usize,
    pub loop_height: usize,
}

/// The function being generated (main or a subroutine).
#[derive(Clone, Debug, Default)]
pub(crate) struct Func {
    /// Slots one run executes (loops multiplied out, relative to the function's entry).
    pub cost: u64,
    pub uses_al: bool,
    pub gradients: bool,
    pub discards: bool,
    /// How deep its calls go.
    pub height: usize,
    /// The largest product of its own loops' trip counts.
    pub inner_iterations: u64,
    /// The trip-count product at its entry (callers' loops).
    pub entry_iterations: u64,
    /// The deepest `if` and loop nesting inside it, relative to its entry.
    pub if_height: usize,
    pub loop_height: usize,
}

/// What the body read, for the interface.
#[derive(Clone, Debug, Default)]
pub(crate) struct Record {
    pub inputs: BTreeMap<Register, u8>,
    pub fconsts: BTreeSet<u32>,
    pub iconsts: BTreeSet<u16>,
    pub bconsts: BTreeSet<u16>,
    pub samplers: BTreeMap<u16, SamplerUse>,
    pub discard: bool,
    pub depth: bool,
}

/// Instruction and slot budgets, with what open blocks and the epilogue still need.
#[derive(Clone, Debug)]
pub(crate) struct Budget {
    pub instrs: usize,
    pub slots: u32,
    pub tex_slots: u32,
    pub reserved_instrs: usize,
    pub reserved_slots: u32,
    /// vs_2_0's 16 static flow-control instructions.
    pub static_flow: usize,
    /// Static flow-control instructions an open block still needs (a planned `else`).
    pub static_reserved: usize,
}

/// Where in the program an instruction goes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctx {
    /// In `main`, outside every block: writes here happen on every path.
    pub top: bool,
    /// Lanes may disagree about being here (divergent control flow).
    pub dynamic: bool,
    /// A divergent branch is open between here and the innermost loop.
    pub divergent_since_loop: bool,
    pub if_depth: usize,
    pub loop_depth: usize,
    /// Product of the trip counts of the enclosing loops, callers' loops included.
    pub iterations: u64,
    /// How many more call levels may open below this function.
    pub call_levels: usize,
    /// Loops opened inside the current function (a `break` needs one).
    pub local_loops: usize,
}

impl Ctx {
    /// The top of `main`.
    pub fn main() -> Self {
        Ctx {
            top: true,
            dynamic: false,
            divergent_since_loop: false,
            if_depth: 0,
            loop_depth: 0,
            iterations: 1,
            call_levels: 0,
            local_loops: 0,
        }
    }
}

pub(crate) struct Gen<'a, 'u> {
    pub cfg: &'a Config,
    pub u: &'a mut Unstructured<'u>,
    pub v: Version,
    pub p: Profile,
    pub st: State,
    pub loops: Vec<LoopFrame>,
    pub out: Vec<Instruction>,
    pub subs: Vec<Sub>,
    pub func: Func,
    pub inputs: Vec<InputSlot>,
    pub outputs: Vec<OutputSlot>,
    pub samplers: Vec<(u16, TextureType)>,
    pub fdefs: BTreeMap<u32, [u32; 4]>,
    pub idefs: BTreeMap<u16, [i32; 4]>,
    pub bdefs: BTreeMap<u16, bool>,
    /// The float constant `mova`/`mov a0` reads, and the range of integers it holds.
    pub addr_const: Option<u32>,
    pub a0_range: (i32, i32),
    /// shader model 2 `sincos`: the two series constants.
    pub sincos_consts: Option<(u32, u32)>,
    pub rec: Record,
    pub budget: Budget,
    /// ps_1_4: the instruction stream is in phase 2 (after `phase`, or no phase at all).
    pub phase2: bool,
    /// Temps no instruction may touch any more (ps_1_4 `r5` after `texdepth`).
    pub dead_temps: u32,
    /// Labels taken (subroutines being generated included).
    pub labels: Vec<u16>,
}

impl<'a, 'u> Gen<'a, 'u> {
    pub fn new(cfg: &'a Config, u: &'a mut Unstructured<'u>, v: Version) -> Self {
        let p = Profile::of(v).unwrap_or(Profile::Vs11);
        Gen {
            cfg,
            u,
            v,
            p,
            st: State::new(),
            loops: Vec::new(),
            out: Vec::new(),
            subs: Vec::new(),
            func: Func {
                inner_iterations: 1,
                entry_iterations: 1,
                ..Func::default()
            },
            inputs: Vec::new(),
            outputs: Vec::new(),
            samplers: Vec::new(),
            fdefs: BTreeMap::new(),
            idefs: BTreeMap::new(),
            bdefs: BTreeMap::new(),
            addr_const: None,
            a0_range: (0, 0),
            sincos_consts: None,
            rec: Record::default(),
            budget: Budget {
                instrs: cfg.max_instructions,
                slots: 0,
                tex_slots: u32::MAX,
                reserved_instrs: 0,
                reserved_slots: 0,
                static_flow: 0,
                static_reserved: 0,
            },
            phase2: true,
            dead_temps: 0,
            labels: Vec::new(),
        }
    }

    // ---- choices (exhausted input gives the first choice, so every loop ends) ----

    pub fn chance(&mut self, num: u8, den: u8) -> bool {
        self.u.ratio(num, den).unwrap_or(false)
    }

    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        if hi <= lo {
            return lo;
        }
        self.u.int_in_range(lo..=hi).unwrap_or(lo)
    }

    pub fn range_i(&mut self, lo: i32, hi: i32) -> i32 {
        if hi <= lo {
            return lo;
        }
        self.u.int_in_range(lo..=hi).unwrap_or(lo)
    }

    pub fn index(&mut self, len: usize) -> usize {
        if len <= 1 {
            return 0;
        }
        self.u.choose_index(len).unwrap_or(0)
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.index(items.len())]
    }

    /// A random subset of `mask`'s bits, never empty when `mask` is not.
    pub fn sub_mask(&mut self, mask: u8) -> u8 {
        if mask == 0 {
            return 0;
        }
        let bits: u8 = self.u.arbitrary().unwrap_or(0xFF);
        let m = bits & mask;
        if m != 0 {
            m
        } else {
            mask
        }
    }

    // ---- limits ----

    /// How many temps the body uses: the profile's file, kept to the 12 every `_x` device has.
    pub fn temp_count(&self) -> u16 {
        use Profile::*;
        match self.p {
            Vs11 | Vs20 | Vs2x | Ps20 | Ps2x => 12,
            Vs30 | Ps30 => 32,
            Ps11 | Ps12 | Ps13 => 2,
            Ps14 => 6,
        }
    }

    pub fn const_count(&self) -> u32 {
        self.p
            .file(RegisterType::Const, false)
            .map_or(8, |f| f.count)
    }

    pub fn has_flow(&self) -> bool {
        Opcode::If.info().allowed_in(self.v)
    }

    pub fn allowed(&self, op: Opcode) -> bool {
        op.info().allowed_in(self.v)
    }

    pub fn finite(&self) -> bool {
        self.cfg.finite_values
    }

    // ---- budget ----

    pub fn slot_cost(&self, op: Opcode) -> (u32, u32) {
        let n = dxso::slots::cost(op, self.v);
        if self.budget.tex_slots != u32::MAX {
            (n.texture, n.arithmetic)
        } else {
            (0, n.total())
        }
    }

    /// Whether one more `op` fits, leaving what open blocks and the epilogue reserved.
    pub fn affords(&self, op: Opcode) -> bool {
        self.affords_with(op, 0, 0)
    }

    /// Whether `op` fits while also keeping `instrs` instructions and `slots` slots for later.
    pub fn affords_with(&self, op: Opcode, instrs: usize, slots: u32) -> bool {
        let (t, a) = self.slot_cost(op);
        let b = &self.budget;
        b.instrs > b.reserved_instrs + instrs
            && b.slots >= b.reserved_slots + slots + a
            && b.tex_slots >= t
    }

    pub fn reserve(&mut self, instrs: usize, slots: u32) {
        self.budget.reserved_instrs += instrs;
        self.budget.reserved_slots += slots;
    }

    pub fn release(&mut self, instrs: usize, slots: u32) {
        self.budget.reserved_instrs -= instrs;
        self.budget.reserved_slots -= slots;
    }

    /// Appends an instruction to the function being generated and charges its cost.
    pub fn emit(&mut self, inst: Instruction, iterations: u64) {
        let op = inst.opcode;
        if !matches!(op, Opcode::Dcl | Opcode::Def | Opcode::DefI | Opcode::DefB) {
            // A co-issued instruction shares its partner's slot.
            let (t, a) = if inst.coissue {
                (0, 0)
            } else {
                self.slot_cost(op)
            };
            let b = &mut self.budget;
            b.instrs = b.instrs.saturating_sub(1);
            b.slots = b.slots.saturating_sub(a);
            if b.tex_slots != u32::MAX {
                b.tex_slots = b.tex_slots.saturating_sub(t);
            }
            let slots = if inst.coissue {
                0
            } else {
                dxso::slots::cost(op, self.v).total() as u64
            };
            let local = iterations / self.func.entry_iterations.max(1);
            self.func.cost = self.func.cost.saturating_add(slots.saturating_mul(local));
        }
        if self.p == Profile::Vs20
            && matches!(
                op,
                Opcode::If
                    | Opcode::Else
                    | Opcode::Loop
                    | Opcode::Rep
                    | Opcode::Call
                    | Opcode::CallNz
            )
        {
            self.budget.static_flow += 1;
        }
        self.out.push(inst);
    }

    /// vs_2_0 allows 16 static flow-control instructions: `n` more still fit.
    pub fn static_flow_fits(&self, n: usize) -> bool {
        self.p != Profile::Vs20 || self.budget.static_flow + self.budget.static_reserved + n <= 16
    }

    // ---- recording ----

    pub fn record_input(&mut self, register: Register, comps: u8) {
        *self.rec.inputs.entry(register).or_insert(0) |= comps;
    }

    pub fn record_sampler(
        &mut self,
        index: u16,
        ty: TextureType,
        declared: bool,
    ) -> &mut SamplerUse {
        self.rec.samplers.entry(index).or_insert(SamplerUse {
            index,
            texture_type: ty,
            declared,
            bump_matrix: false,
            bump_luminance: false,
        })
    }

    /// A float constant's value bound: what `def` put there, or the assumed input bound.
    pub fn const_bound(&self, index: u32) -> f32 {
        match self.fdefs.get(&index) {
            Some(bits) => bits
                .iter()
                .map(|b| f32::from_bits(*b).abs())
                .fold(
                    0.0,
                    |m, x| if x.is_nan() { f32::INFINITY } else { m.max(x) },
                ),
            None => self.cfg.input_bound,
        }
    }

    // ---- the finished program ----

    pub fn finish(self, main: Vec<Instruction>) -> (Shader, Interface) {
        let mut items: Vec<Item> = Vec::new();
        let push = |items: &mut Vec<Item>, i: Instruction| items.push(Item::Instruction(i));
        for (&index, &bits) in &self.fdefs {
            let mut i = Instruction::new(Opcode::Def);
            i.dst = Some(DstParam::new(
                Register::new(RegisterType::Const, index as u16),
                WriteMask::ALL,
            ));
            i.extra = Extra::Def(bits);
            push(&mut items, i);
        }
        for (&index, &vals) in &self.idefs {
            let mut i = Instruction::new(Opcode::DefI);
            i.dst = Some(DstParam::new(
                Register::new(RegisterType::ConstInt, index),
                WriteMask::ALL,
            ));
            i.extra = Extra::DefI(vals);
            push(&mut items, i);
        }
        for (&index, &b) in &self.bdefs {
            let mut i = Instruction::new(Opcode::DefB);
            i.dst = Some(DstParam::new(
                Register::new(RegisterType::ConstBool, index),
                WriteMask::ALL,
            ));
            i.extra = Extra::DefB(b as u32);
            push(&mut items, i);
        }
        for d in setup::declarations(&self) {
            push(&mut items, d);
        }
        for i in main {
            push(&mut items, i);
        }
        let mut subs = self.subs.clone();
        subs.sort_by_key(|s| s.label);
        for s in subs {
            let mut l = Instruction::new(Opcode::Label);
            let _ = l.srcs.push(dxso::SrcParam::new(
                Register::new(RegisterType::Label, s.label),
                dxso::Swizzle::IDENTITY,
            ));
            push(&mut items, l);
            // The body ends with its `ret`.
            for i in s.body {
                push(&mut items, i);
            }
        }
        let interface = self.interface();
        (
            Shader {
                version: self.v,
                items,
            },
            interface,
        )
    }

    fn interface(&self) -> Interface {
        let mut inputs = Vec::new();
        for (&register, &read) in &self.rec.inputs {
            let slot = self.inputs.iter().find(|s| s.register == register);
            inputs.push(InputUse {
                register,
                read: WriteMask(read),
                declared: WriteMask(slot.map_or(0xF, |s| s.mask)),
                usage: slot.and_then(|s| s.usage),
                centroid: slot.is_some_and(|s| s.centroid),
            });
        }
        let float_constants = self
            .rec
            .fconsts
            .iter()
            .map(|&index| FloatConstantUse {
                index,
                defined: self.fdefs.get(&index).copied(),
            })
            .collect();
        let int_constants = self
            .rec
            .iconsts
            .iter()
            .map(|&index| IntConstantUse {
                index,
                defined: self.idefs.get(&index).copied().unwrap_or_default(),
            })
            .collect();
        let bool_constants = self
            .rec
            .bconsts
            .iter()
            .map(|&index| BoolConstantUse {
                index,
                defined: self.bdefs.get(&index).copied(),
            })
            .collect();
        let mut outputs: Vec<OutputUse> = Vec::new();
        for s in &self.outputs {
            match outputs.iter_mut().find(|o| o.register == s.register) {
                // vs_3_0 may declare one register twice with disjoint masks.
                Some(o) => o.mask = WriteMask(o.mask.0 | s.mask),
                None => outputs.push(OutputUse {
                    register: s.register,
                    mask: WriteMask(s.mask),
                    usage: s.usage,
                }),
            }
        }
        if self.rec.depth {
            outputs.push(OutputUse {
                register: Register::new(RegisterType::DepthOut, 0),
                mask: WriteMask::X,
                usage: None,
            });
        }
        outputs.sort_by_key(|o| o.register);
        Interface {
            inputs,
            float_constants,
            int_constants,
            bool_constants,
            samplers: self.rec.samplers.values().cloned().collect(),
            outputs,
            may_discard: self.rec.discard,
            max_executed_slots: self.func.cost,
            assumed_input_bound: self.cfg.finite_values.then_some(self.cfg.input_bound),
        }
    }
}
