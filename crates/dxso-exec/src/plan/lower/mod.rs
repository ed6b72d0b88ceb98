//! Lowering a validated shader to a [`Plan`]: one pass over the instructions.

mod ps1;

use super::layout::{Key, Layout};
use super::*;
use crate::error::PlanError;
use crate::options::Options;
use dxso::validate::Profile;
use dxso::{
    DstParam, Instruction, Opcode, Register, RegisterType as R, Relative, Shader, SrcModifier,
    SrcParam,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// An open block of structured control flow.
enum Open {
    If {
        if_pc: usize,
        else_pc: Option<usize>,
        /// `Break`/`Ret` operations that resume at this block's next structural operation.
        pending: Vec<usize>,
    },
    Loop {
        loop_pc: usize,
        pending: Vec<usize>,
    },
}

/// A destination being written: the slots operations write (`result`) and what follows.
pub(super) struct DstPlan {
    pub mask: u8,
    pub result: [Slot; 4],
    /// What moves `result` to the destination (`Store`, `Scatter`); empty when the operations
    /// write the destination itself.
    finish: Vec<Op>,
}

/// Which sources an instruction's last operation reads, for hazard checks.
pub(super) enum Reads<'a> {
    /// Component `c` of the result reads component `c` of each source only.
    Componentwise(&'a [[Slot; 4]]),
    /// Any result component may read any of these.
    Any(&'a [Slot]),
}

pub(super) struct Lowerer<'a> {
    pub shader: &'a Shader,
    pub profile: Profile,
    pub opts: Options,
    pub layout: Layout,
    pub ops: Vec<Op>,
    pub float_defs: BTreeMap<u32, [f32; 4]>,
    int_defs: BTreeMap<u32, [i32; 4]>,
    bool_defs: BTreeMap<u32, bool>,
    input_block: Option<(Slot, u32)>,
    output_block: Option<(Slot, u32)>,
    pub samplers: BTreeMap<u8, Option<crate::texture::Dimension>>,
    declared_samplers: HashMap<u8, crate::texture::Dimension>,
    open: Vec<Open>,
    count_op: usize,
    labels: HashMap<u32, Pc>,
    calls: Vec<(usize, u32)>,
    rets: Vec<usize>,
    pub clamp: f32,
    written_outputs: BTreeSet<crate::io::OutputRegister>,
    declared_outputs: BTreeSet<crate::io::OutputRegister>,
    deferred: Vec<Op>,
    pub ps1: ps1::State,
    /// Index and DWORD offset of the instruction being lowered.
    pub at: (usize, usize),
    /// Relative reads already gathered in this straight-line block (key: see `rel_key`),
    /// valid until the address registers may change.
    gathered: BTreeSet<u64>,
}

/// The DWORD offsets of the instructions, for error messages.
fn offsets(shader: &Shader) -> Vec<usize> {
    let mut out = Vec::new();
    let mut offset = 1;
    for item in &shader.items {
        match item {
            dxso::Item::Instruction(i) => {
                out.push(offset);
                offset += 1 + i.operand_token_count() as usize;
            }
            dxso::Item::Comment(c) => offset += 1 + c.data.len(),
        }
    }
    out
}

fn modifier_fn(m: SrcModifier) -> ArithFn {
    use ArithFn as F;
    match m {
        SrcModifier::None | SrcModifier::Dz | SrcModifier::Dw | SrcModifier::Not => F::Mov,
        SrcModifier::Neg => F::Neg,
        SrcModifier::Bias => F::Bias,
        SrcModifier::BiasNeg => F::NegBias,
        SrcModifier::Sign => F::Bx2,
        SrcModifier::SignNeg => F::NegBx2,
        SrcModifier::Comp => F::Comp,
        SrcModifier::X2 => F::X2,
        SrcModifier::X2Neg => F::NegX2,
        SrcModifier::Abs => F::Abs,
        SrcModifier::AbsNeg => F::NegAbs,
    }
}

/// A source modifier applied to a value known when lowering.
pub(crate) fn apply_modifier(f: ArithFn, x: f32) -> f32 {
    use ArithFn as F;
    match f {
        F::Neg => -x,
        F::Abs => x.abs(),
        F::NegAbs => -x.abs(),
        F::Bias => x - 0.5,
        F::NegBias => -(x - 0.5),
        F::Bx2 => 2.0 * x - 1.0,
        F::NegBx2 => -(2.0 * x - 1.0),
        F::Comp => 1.0 - x,
        F::X2 => 2.0 * x,
        F::NegX2 => -(2.0 * x),
        _ => x,
    }
}

fn index_reg(rel: Relative) -> IndexReg {
    match rel {
        Relative::Implicit => IndexReg::A0(0),
        Relative::Token(t) if t.register.ty == R::Loop => IndexReg::Loop,
        Relative::Token(t) => IndexReg::A0(t.component()),
    }
}

/// The cache key of one component of a relative read.
fn rel_key(block: bool, index: IndexReg, offset: i32, comp: u8) -> u64 {
    let index = match index {
        IndexReg::A0(c) => c as u64,
        IndexReg::Loop => 4,
    };
    (block as u64) << 48 | index << 40 | (offset as u32 as u64) << 8 | comp as u64
}

fn bits(mask: u8) -> impl Iterator<Item = usize> {
    (0..4).filter(move |c| mask & (1 << c) != 0)
}

impl<'a> Lowerer<'a> {
    fn new(shader: &'a Shader, profile: Profile, opts: Options) -> Self {
        let clamp = if profile.is_ps1() {
            opts.ps1_range
                .limit(profile == Profile::Ps14)
                .unwrap_or(f32::INFINITY)
        } else {
            f32::INFINITY
        };
        Lowerer {
            shader,
            profile,
            opts,
            layout: Layout::default(),
            ops: Vec::new(),
            float_defs: BTreeMap::new(),
            int_defs: BTreeMap::new(),
            bool_defs: BTreeMap::new(),
            input_block: None,
            output_block: None,
            samplers: BTreeMap::new(),
            declared_samplers: HashMap::new(),
            open: Vec::new(),
            count_op: 0,
            labels: HashMap::new(),
            calls: Vec::new(),
            rets: Vec::new(),
            clamp,
            written_outputs: BTreeSet::new(),
            declared_outputs: BTreeSet::new(),
            deferred: Vec::new(),
            ps1: Default::default(),
            at: (0, 0),
            gathered: BTreeSet::new(),
        }
    }

    pub fn unsupported(&self, inst: &Instruction, reason: &'static str) -> PlanError {
        PlanError::Unsupported {
            index: self.at.0,
            mnemonic: inst.opcode.info().mnemonic_for(self.shader.version),
            offset: self.at.1,
            reason,
        }
    }

    pub fn emit(&mut self, op: Op) -> usize {
        self.ops.push(op);
        self.ops.len() - 1
    }

    /// Starts a straight-line block. Relative reads gathered before it are forgotten: a block
    /// after flow control or at a label (a subroutine, entered with any `a0` and `aL`) cannot
    /// rely on them.
    fn begin_block(&mut self) {
        self.gathered.clear();
        self.count_op = self.emit(Op::Count(0));
    }

    fn count(&mut self, n: u32) {
        if let Op::Count(k) = &mut self.ops[self.count_op] {
            *k += n;
        }
    }

    /// Emits a flow-control operation: it ends the straight-line block (and with it what
    /// relative reads it gathered: `aL` and the lanes may change).
    fn flow(&mut self, op: Op) -> usize {
        let pc = self.emit(op);
        self.begin_block();
        pc
    }

    pub fn zero(&mut self) -> Slot {
        self.layout.literal(0.0)
    }

    pub fn one(&mut self) -> Slot {
        self.layout.literal(1.0)
    }

    /// The per-lane register a source register reads, or `None` for constants.
    fn lane_key(&self, reg: Register) -> Option<Key> {
        let n = reg.num;
        Some(match reg.ty {
            R::Temp => Key::Temp(n),
            R::Input => Key::Input(crate::io::InputRegister::V(n as u8)),
            R::Addr if self.profile.is_ps11_13() => Key::TexReg(n as u8),
            R::Addr => Key::Input(crate::io::InputRegister::T(n as u8)),
            R::MiscType if n == 0 => Key::Input(crate::io::InputRegister::Pos),
            R::MiscType => Key::Input(crate::io::InputRegister::Face),
            _ => return None,
        })
    }

    /// The slot of a register component read by number (no relative address, no modifier).
    pub fn reg_slot(&mut self, reg: Register, comp: u8) -> Slot {
        if reg.ty.is_float_const() {
            return self.const_slot(reg.index(), comp, ArithFn::Mov);
        }
        match self.lane_key(reg) {
            Some(key) => self.layout.reg(key, comp),
            None => self.zero(),
        }
    }

    fn const_slot(&mut self, index: u32, comp: u8, modifier: ArithFn) -> Slot {
        match self.float_defs.get(&index) {
            Some(v) => {
                let x = apply_modifier(modifier, v[comp as usize]);
                self.layout.literal(x)
            }
            None => self.layout.uniform(Uniform::Float {
                reg: index,
                comp,
                modifier,
            }),
        }
    }

    /// Slots holding components `need` of a source after relative addressing, `_dz`/`_dw`,
    /// swizzle and modifier (`docs/SEMANTICS.md` 3).
    pub fn src(&mut self, s: &SrcParam, need: u8) -> [Slot; 4] {
        let zero = self.zero();
        let mut out = [zero; 4];
        let swz = s.swizzle.components();
        let project = match s.modifier {
            SrcModifier::Dz => Some(2u8),
            SrcModifier::Dw => Some(3u8),
            _ => None,
        };
        let modifier = modifier_fn(s.modifier);
        // Register components to fetch.
        let mut raw_need = 0u8;
        for i in bits(need) {
            raw_need |= 1 << swz[i];
        }
        if let Some(p) = project {
            raw_need |= 1 << p;
        }
        let reg = s.register;
        // Plain constants: uniforms with the modifier folded in.
        if reg.ty.is_float_const() && s.relative.is_none() && project.is_none() {
            for i in bits(need) {
                out[i] = self.const_slot(reg.index(), swz[i], modifier);
            }
            return out;
        }
        let mut raw = [zero; 4];
        match s.relative {
            Some(rel) => {
                let block = !reg.ty.is_float_const();
                let from = match (block, self.input_block) {
                    (true, Some((base, len))) if reg.ty == R::Input => {
                        GatherFrom::Block { base, len }
                    }
                    // Relative addressing of other files does not validate.
                    _ => GatherFrom::Const,
                };
                let offset = if reg.ty.is_float_const() {
                    reg.index() as i32
                } else {
                    reg.num as i32
                };
                let index = index_reg(rel);
                let mut dst = [zero; 4];
                let mut comps = [0u8; 4];
                let mut missing = 0u8;
                for c in bits(raw_need) {
                    let key = rel_key(
                        matches!(from, GatherFrom::Block { .. }),
                        index,
                        offset,
                        c as u8,
                    );
                    raw[c] = self.layout.cache(key);
                    if self.gathered.insert(key) {
                        missing |= 1 << c;
                        dst[c] = raw[c];
                        comps[c] = c as u8;
                    }
                }
                if missing != 0 {
                    self.emit(Op::Gather {
                        from,
                        index,
                        offset,
                        comps,
                        mask: missing,
                        dst,
                    });
                }
            }
            None => {
                for c in bits(raw_need) {
                    raw[c] = self.reg_slot(reg, c as u8);
                }
            }
        }
        for i in bits(need) {
            out[i] = raw[swz[i] as usize];
        }
        if let Some(p) = project {
            let mut dst = [zero; 4];
            let mut src = [[zero; 4]; 3];
            for i in bits(need) {
                dst[i] = self.layout.scratch();
                src[0][i] = out[i];
                src[1][i] = raw[p as usize];
            }
            self.emit(Op::Arith {
                f: ArithFn::Div,
                mask: need,
                dst,
                src,
            });
            out = dst;
        }
        if modifier != ArithFn::Mov {
            let mut dst = [zero; 4];
            let mut src = [[zero; 4]; 3];
            for i in bits(need) {
                dst[i] = self.layout.scratch();
                src[0][i] = out[i];
            }
            self.emit(Op::Arith {
                f: modifier,
                mask: need,
                dst,
                src,
            });
            out = dst;
        }
        out
    }

    /// The scalar a replicate-swizzled source reads (component `.x` of the swizzled value).
    pub fn scalar(&mut self, s: &SrcParam) -> Slot {
        self.src(s, 1)[0]
    }

    /// The output register a destination names, if it is one.
    fn output_register(&self, reg: Register) -> Option<crate::io::OutputRegister> {
        use crate::io::OutputRegister as O;
        let n = reg.num as u8;
        Some(match reg.ty {
            R::RastOut => match n {
                0 => O::Pos,
                1 => O::Fog,
                _ => O::PointSize,
            },
            R::AttrOut => O::Color(n),
            R::Output if self.shader.version.is_vertex() && self.shader.version.major >= 3 => {
                O::O(n)
            }
            R::Output => O::TexCoord(n),
            R::ColorOut => O::Target(n),
            R::DepthOut => O::Depth,
            _ => return None,
        })
    }

    /// The slots of a destination register's components.
    pub fn dst_slots(&mut self, reg: Register, mask: u8) -> [Slot; 4] {
        let zero = self.zero();
        let mut out = [zero; 4];
        let key = match self.output_register(reg) {
            Some(o) => {
                self.written_outputs.insert(o);
                Key::Output(o)
            }
            None => match reg.ty {
                R::Addr if self.profile.is_ps11_13() => Key::TexReg(reg.num as u8),
                _ => Key::Temp(reg.num),
            },
        };
        for c in bits(mask) {
            out[c] = self.layout.reg(key, c as u8);
        }
        out
    }

    fn is_scalar_output(&self, reg: Register) -> bool {
        matches!(
            self.output_register(reg),
            Some(crate::io::OutputRegister::Fog)
                | Some(crate::io::OutputRegister::PointSize)
                | Some(crate::io::OutputRegister::Depth)
        )
    }

    fn pred_sel(inst: &Instruction) -> Option<PredSel> {
        inst.predicate.map(|p| PredSel {
            swizzle: p.swizzle.components(),
            not: p.modifier == SrcModifier::Not,
        })
    }

    /// Plans writing `d` for an instruction whose last operation reads `reads`.
    pub fn dst_begin(&mut self, inst: &Instruction, d: &DstParam, reads: Reads<'_>) -> DstPlan {
        let mut mask = d.mask.0 & 0xF;
        if self.is_scalar_output(d.register) {
            mask &= 1;
        }
        let arith = self.profile.is_ps1() && !dxso::slots::is_texture_address(inst.opcode);
        let clamp = if arith { self.clamp } else { f32::INFINITY };
        let scale = (d.shift.0 as f32).exp2();
        let sat = d.modifiers.saturate();
        let pred = Self::pred_sel(inst);
        let relative = d.relative.is_some() && self.output_block.is_some();
        let zero = self.zero();
        if relative {
            let (base, len) = self.output_block.expect("checked");
            for o in self.declared_outputs.clone() {
                self.written_outputs.insert(o);
            }
            let mut result = [zero; 4];
            for c in bits(mask) {
                result[c] = self.layout.scratch();
            }
            let mut finish = Vec::new();
            if sat || scale != 1.0 || clamp.is_finite() {
                finish.push(Op::Store {
                    mask,
                    src: result,
                    dst: result,
                    scale: scale.into(),
                    clamp: clamp.into(),
                    sat,
                    pred: None,
                });
            }
            finish.push(Op::Scatter {
                base,
                len,
                index: index_reg(d.relative.expect("checked")),
                offset: d.register.num as i32,
                mask,
                src: result,
                pred,
            });
            return DstPlan {
                mask,
                result,
                finish,
            };
        }
        let final_slots = self.dst_slots(d.register, mask);
        let hazard = match reads {
            Reads::Componentwise(srcs) => bits(mask).any(|c| {
                bits(mask).any(|c2| c2 != c && srcs.iter().any(|s| s[c2] == final_slots[c]))
            }),
            Reads::Any(slots) => bits(mask).any(|c| slots.contains(&final_slots[c])),
        };
        let coissue_first = self.next_is_coissued();
        let plain = !sat && scale == 1.0 && !clamp.is_finite() && pred.is_none();
        if plain && !hazard && !coissue_first {
            return DstPlan {
                mask,
                result: final_slots,
                finish: Vec::new(),
            };
        }
        let mut result = [zero; 4];
        for c in bits(mask) {
            result[c] = self.layout.scratch();
        }
        DstPlan {
            mask,
            result,
            finish: vec![Op::Store {
                mask,
                src: result,
                dst: final_slots,
                scale: scale.into(),
                clamp: clamp.into(),
                sat,
                pred,
            }],
        }
    }

    /// Finishes a destination.
    pub fn dst_end(&mut self, plan: DstPlan) {
        if self.next_is_coissued() {
            self.deferred.extend(plan.finish);
        } else {
            for op in plan.finish {
                self.emit(op);
            }
        }
    }

    /// Makes a `Break`/`Ret` resume at the innermost open block's next structural operation
    /// (or, outside any block, at the function's end).
    fn pend(&mut self, pc: usize) {
        match self.open.last_mut() {
            Some(Open::If { pending, .. }) | Some(Open::Loop { pending, .. }) => pending.push(pc),
            None => self.rets.push(pc),
        }
    }

    fn resume_at(&mut self, pending: &[usize], pc: usize) {
        for &p in pending {
            match &mut self.ops[p] {
                Op::Break { resume, .. } | Op::Ret { resume } => *resume = pc as Pc,
                _ => {}
            }
        }
    }

    /// Records that the shader writes an output.
    pub fn mark_written(&mut self, o: crate::io::OutputRegister) {
        self.written_outputs.insert(o);
    }

    fn next_is_coissued(&self) -> bool {
        self.ps1.next_coissued
    }

    /// Writes precomputed values `vals` (per component) to `d`.
    pub fn write(&mut self, inst: &Instruction, d: &DstParam, vals: [Slot; 4]) {
        let srcs = [vals];
        let plan = self.dst_begin(inst, d, Reads::Componentwise(&srcs));
        self.arith_into(ArithFn::Mov, &plan, &[vals]);
        self.dst_end(plan);
    }

    /// Emits `f` component-wise into a planned destination.
    pub fn arith_into(&mut self, f: ArithFn, plan: &DstPlan, srcs: &[[Slot; 4]]) {
        let zero = self.zero();
        let mut src = [[zero; 4]; 3];
        for (i, s) in srcs.iter().enumerate() {
            src[i] = *s;
        }
        if plan.mask != 0 {
            self.emit(Op::Arith {
                f,
                mask: plan.mask,
                dst: plan.result,
                src,
            });
        }
    }

    /// A component-wise instruction with `f`.
    fn componentwise(&mut self, inst: &Instruction, f: ArithFn) {
        let d = inst.dst.expect("validated: has a destination");
        let mask = d.mask.0 & 0xF;
        let srcs: Vec<[Slot; 4]> = inst.srcs[..f.arity()]
            .iter()
            .map(|s| self.src(s, mask))
            .collect();
        let plan = self.dst_begin(inst, &d, Reads::Componentwise(&srcs));
        self.arith_into(f, &plan, &srcs);
        self.dst_end(plan);
    }

    /// A scalar function of one (or two, `pow`) replicated sources.
    fn scalar_fn(&mut self, inst: &Instruction, f: ArithFn) {
        let d = inst.dst.expect("validated: has a destination");
        let xs: Vec<Slot> = inst.srcs[..f.arity()]
            .iter()
            .map(|s| self.scalar(s))
            .collect();
        let plan = self.dst_begin(inst, &d, Reads::Any(&xs));
        self.replicate(f, &plan, &xs);
        self.dst_end(plan);
    }

    /// Computes `f(xs)` once and copies it to every other component of the plan.
    fn replicate(&mut self, f: ArithFn, plan: &DstPlan, xs: &[Slot]) {
        let Some(first) = bits(plan.mask).next() else {
            return;
        };
        let zero = self.zero();
        let mut src = [[zero; 4]; 3];
        for (i, &x) in xs.iter().enumerate() {
            src[i] = [x; 4];
        }
        let mut dst = [zero; 4];
        dst[first] = plan.result[first];
        self.emit(Op::Arith {
            f,
            mask: 1 << first,
            dst,
            src,
        });
        let rest = plan.mask & !(1 << first);
        if rest != 0 {
            self.emit(Op::Arith {
                f: ArithFn::Mov,
                mask: rest,
                dst: plan.result,
                src: [[plan.result[first]; 4], [zero; 4], [zero; 4]],
            });
        }
    }

    fn dot(&mut self, inst: &Instruction, len: u8) {
        let d = inst.dst.expect("validated: has a destination");
        let need = (1u8 << len) - 1;
        let a = self.src(&inst.srcs[0], need);
        let b = self.src(&inst.srcs[1], need);
        let add = (inst.opcode == Opcode::Dp2Add).then(|| self.scalar(&inst.srcs[2]));
        let mut reads: Vec<Slot> = a.iter().chain(b.iter()).copied().collect();
        reads.extend(add);
        let plan = self.dst_begin(inst, &d, Reads::Any(&reads));
        if plan.mask != 0 {
            self.emit(Op::Dot {
                len,
                a,
                b,
                add,
                mask: plan.mask,
                dst: plan.result,
            });
        }
        self.dst_end(plan);
    }

    fn matrix(&mut self, inst: &Instruction, len: u8, rows: u8) {
        let d = inst.dst.expect("validated: has a destination");
        let need = (1u8 << len) - 1;
        let a = self.src(&inst.srcs[0], need);
        let mut row_slots = Vec::new();
        for k in 0..rows {
            let mut s = inst.srcs[1];
            s.register.num += k as u16;
            row_slots.push(self.src(&s, need));
        }
        let mut reads: Vec<Slot> = a.to_vec();
        for r in &row_slots {
            reads.extend_from_slice(r);
        }
        let mut plan = self.dst_begin(inst, &d, Reads::Any(&reads));
        plan.mask &= (1u8 << rows) - 1;
        if plan.mask != 0 {
            let zero = self.zero();
            let mut m = [[zero; 4]; 4];
            for (k, row) in row_slots.iter().enumerate() {
                m[k] = *row;
            }
            self.emit(Op::Matrix {
                len,
                a,
                rows: m,
                mask: plan.mask,
                dst: plan.result,
            });
        }
        self.dst_end(plan);
    }

    fn uniform_cond_bool(&self, reg: u32, not: bool) -> Cond {
        match self.bool_defs.get(&reg) {
            Some(&b) => Cond::Literal(b != not),
            None => Cond::Bool {
                reg: reg as u8,
                not,
            },
        }
    }

    /// The condition a `b#` / `p0` operand names.
    fn bool_or_pred(&mut self, s: &SrcParam) -> Cond {
        if s.register.ty == R::Predicate {
            Cond::Pred {
                comp: s.swizzle.get(0),
                not: s.modifier == SrcModifier::Not,
            }
        } else {
            self.uniform_cond_bool(s.register.num as u32, s.modifier == SrcModifier::Not)
        }
    }

    fn compare(&mut self, inst: &Instruction) -> Cond {
        let cmp = inst.comparison().unwrap_or(Comparison::Gt);
        let a = self.scalar(&inst.srcs[0]);
        let b = self.scalar(&inst.srcs[1]);
        Cond::Compare { cmp, a, b }
    }

    fn loop_count(&self, s: &SrcParam) -> LoopCount {
        let reg = s.register.num as u32;
        match self.int_defs.get(&reg) {
            Some(v) => LoopCount::Literal(*v),
            None => LoopCount::Int(reg as u8),
        }
    }

    /// One instruction.
    fn instruction(&mut self, inst: &Instruction) -> Result<(), PlanError> {
        use Opcode::*;
        let counted = !matches!(
            inst.opcode,
            Nop | Dcl
                | Def
                | DefI
                | DefB
                | Label
                | Phase
                | If
                | Ifc
                | Else
                | EndIf
                | Break
                | BreakC
                | BreakP
                | EndLoop
                | EndRep
                | Ret
                | Loop
                | Rep
                | Call
                | CallNz
        );
        if counted {
            self.count(1);
        }
        match inst.opcode {
            Nop | Dcl | Def | DefI | DefB | Phase | Label => {}
            Mov if inst.dst.is_some_and(|d| d.register.ty == R::Addr)
                && self.shader.version.is_vertex() =>
            {
                self.mova(inst, false)
            }
            MovA => self.mova(inst, true),
            Mov => self.componentwise(inst, ArithFn::Mov),
            Add => self.componentwise(inst, ArithFn::Add),
            Sub => self.componentwise(inst, ArithFn::Sub),
            Mul => self.componentwise(inst, ArithFn::Mul),
            Mad => self.componentwise(inst, ArithFn::Mad),
            Lrp => self.componentwise(inst, ArithFn::Lrp),
            Min => self.componentwise(inst, ArithFn::Min),
            Max => self.componentwise(inst, ArithFn::Max),
            Slt => self.componentwise(inst, ArithFn::Slt),
            Sge => self.componentwise(inst, ArithFn::Sge),
            Cmp => self.componentwise(inst, ArithFn::Cmp),
            Cnd if inst.coissue && self.profile.is_ps11_13() => {
                // Co-issued cnd yields its second source (docs/SEMANTICS.md 4).
                let d = inst.dst.expect("validated");
                let v = self.src(&inst.srcs[1], d.mask.0 & 0xF);
                self.write(inst, &d, v);
            }
            Cnd => self.componentwise(inst, ArithFn::Cnd),
            Abs => self.componentwise(inst, ArithFn::Abs),
            Frc => self.componentwise(inst, ArithFn::Frc),
            Sgn => self.componentwise(inst, ArithFn::Sgn),
            Dsx | Dsy => {
                let d = inst.dst.expect("validated");
                let mask = d.mask.0 & 0xF;
                let src = self.src(&inst.srcs[0], mask);
                let srcs = [src];
                let plan = self.dst_begin(inst, &d, Reads::Componentwise(&srcs));
                if plan.mask != 0 {
                    self.emit(Op::Deriv {
                        y: inst.opcode == Dsy,
                        mask: plan.mask,
                        src,
                        dst: plan.result,
                    });
                }
                self.dst_end(plan);
            }
            Rcp => self.scalar_fn(inst, ArithFn::Rcp),
            Rsq => self.scalar_fn(inst, ArithFn::Rsq),
            Exp => self.scalar_fn(inst, ArithFn::Exp),
            Log | LogP => self.scalar_fn(inst, ArithFn::Log),
            Pow => self.scalar_fn(inst, ArithFn::Pow),
            ExpP if self.shader.version.major < 2 => {
                let d = inst.dst.expect("validated");
                let x = self.scalar(&inst.srcs[0]);
                let plan = self.dst_begin(inst, &d, Reads::Any(&[x]));
                let fns = [ArithFn::ExpFloor, ArithFn::Frc, ArithFn::Exp];
                for c in bits(plan.mask) {
                    let zero = self.zero();
                    let mut dst = [zero; 4];
                    dst[c] = plan.result[c];
                    let (f, s) = match c {
                        3 => (ArithFn::Mov, self.one()),
                        _ => (fns[c], x),
                    };
                    self.emit(Op::Arith {
                        f,
                        mask: 1 << c,
                        dst,
                        src: [[s; 4], [zero; 4], [zero; 4]],
                    });
                }
                self.dst_end(plan);
            }
            ExpP => self.scalar_fn(inst, ArithFn::Exp),
            SinCos => {
                let d = inst.dst.expect("validated");
                let x = self.scalar(&inst.srcs[0]);
                let mut plan = self.dst_begin(inst, &d, Reads::Any(&[x]));
                plan.mask &= 3;
                for c in bits(plan.mask) {
                    let zero = self.zero();
                    let mut dst = [zero; 4];
                    dst[c] = plan.result[c];
                    self.emit(Op::Arith {
                        f: if c == 0 { ArithFn::Cos } else { ArithFn::Sin },
                        mask: 1 << c,
                        dst,
                        src: [[x; 4], [zero; 4], [zero; 4]],
                    });
                }
                self.dst_end(plan);
            }
            Dp3 => self.dot(inst, 3),
            Dp4 => self.dot(inst, 4),
            Dp2Add => self.dot(inst, 2),
            M4x4 => self.matrix(inst, 4, 4),
            M4x3 => self.matrix(inst, 4, 3),
            M3x4 => self.matrix(inst, 3, 4),
            M3x3 => self.matrix(inst, 3, 3),
            M3x2 => self.matrix(inst, 3, 2),
            Crs => {
                let d = inst.dst.expect("validated");
                let a = self.src(&inst.srcs[0], 7);
                let b = self.src(&inst.srcs[1], 7);
                let reads: Vec<Slot> = a[..3].iter().chain(&b[..3]).copied().collect();
                let mut plan = self.dst_begin(inst, &d, Reads::Any(&reads));
                plan.mask &= 7;
                if plan.mask != 0 {
                    self.emit(Op::Cross {
                        a: [a[0], a[1], a[2]],
                        b: [b[0], b[1], b[2]],
                        mask: plan.mask,
                        dst: plan.result,
                    });
                }
                self.dst_end(plan);
            }
            Nrm => {
                let d = inst.dst.expect("validated");
                let mask = d.mask.0 & 0xF;
                let v = self.src(&inst.srcs[0], mask | 7);
                let l = self.layout.scratch();
                let zero = self.zero();
                self.emit(Op::Dot {
                    len: 3,
                    a: v,
                    b: v,
                    add: None,
                    mask: 1,
                    dst: [l, zero, zero, zero],
                });
                let f = self.layout.scratch();
                self.emit(Op::Arith {
                    f: ArithFn::NrmFactor,
                    mask: 1,
                    dst: [f, zero, zero, zero],
                    src: [[l; 4], [zero; 4], [zero; 4]],
                });
                let srcs = [v, [f; 4]];
                let plan = self.dst_begin(inst, &d, Reads::Componentwise(&srcs));
                self.arith_into(ArithFn::Mul, &plan, &srcs);
                self.dst_end(plan);
            }
            Lit => {
                let d = inst.dst.expect("validated");
                let v = self.src(&inst.srcs[0], 0b1011);
                let reads = [v[0], v[1], v[3]];
                let plan = self.dst_begin(inst, &d, Reads::Any(&reads));
                if plan.mask != 0 {
                    self.emit(Op::Lit {
                        src: reads,
                        mask: plan.mask,
                        dst: plan.result,
                    });
                }
                self.dst_end(plan);
            }
            Dst => {
                let d = inst.dst.expect("validated");
                let a = self.src(&inst.srcs[0], 0b0110);
                let b = self.src(&inst.srcs[1], 0b1010);
                let reads = [a[1], a[2], b[1], b[3]];
                let plan = self.dst_begin(inst, &d, Reads::Any(&reads));
                let one = self.one();
                let zero = self.zero();
                for c in bits(plan.mask) {
                    let mut dst = [zero; 4];
                    dst[c] = plan.result[c];
                    let (f, s) = match c {
                        0 => (ArithFn::Mov, [one, zero]),
                        1 => (ArithFn::Mul, [a[1], b[1]]),
                        2 => (ArithFn::Mov, [a[2], zero]),
                        _ => (ArithFn::Mov, [b[3], zero]),
                    };
                    self.emit(Op::Arith {
                        f,
                        mask: 1 << c,
                        dst,
                        src: [[s[0]; 4], [s[1]; 4], [zero; 4]],
                    });
                }
                self.dst_end(plan);
            }
            SetP => {
                let d = inst.dst.expect("validated");
                let mask = d.mask.0 & 0xF;
                let a = self.src(&inst.srcs[0], mask);
                let b = self.src(&inst.srcs[1], mask);
                self.emit(Op::SetP {
                    cmp: inst.comparison().unwrap_or(Comparison::Gt),
                    mask,
                    a,
                    b,
                    pred: Self::pred_sel(inst),
                });
            }
            // Flow control.
            If => {
                let cond = self.bool_or_pred(&inst.srcs[0]);
                let pc = self.flow(Op::If { cond, else_pc: 0 });
                self.open.push(Open::If {
                    if_pc: pc,
                    else_pc: None,
                    pending: Vec::new(),
                });
            }
            Ifc => {
                let cond = self.compare(inst);
                let pc = self.flow(Op::If { cond, else_pc: 0 });
                self.open.push(Open::If {
                    if_pc: pc,
                    else_pc: None,
                    pending: Vec::new(),
                });
            }
            Else => {
                let pc = self.flow(Op::Else { end_pc: 0 });
                if let Some(Open::If {
                    if_pc,
                    else_pc,
                    pending,
                }) = self.open.last_mut()
                {
                    *else_pc = Some(pc);
                    let if_pc = *if_pc;
                    let pending = std::mem::take(pending);
                    if let Op::If { else_pc, .. } = &mut self.ops[if_pc] {
                        *else_pc = pc as Pc;
                    }
                    self.resume_at(&pending, pc);
                }
            }
            EndIf => {
                let pc = self.flow(Op::EndIf);
                if let Some(Open::If {
                    if_pc,
                    else_pc,
                    pending,
                }) = self.open.pop()
                {
                    self.resume_at(&pending, pc);
                    match else_pc {
                        Some(e) => {
                            if let Op::Else { end_pc } = &mut self.ops[e] {
                                *end_pc = pc as Pc;
                            }
                        }
                        None => {
                            if let Op::If { else_pc, .. } = &mut self.ops[if_pc] {
                                *else_pc = pc as Pc;
                            }
                        }
                    }
                }
            }
            Loop | Rep => {
                let src = if inst.opcode == Loop {
                    &inst.srcs[1]
                } else {
                    &inst.srcs[0]
                };
                let count = self.loop_count(src);
                let pc = self.flow(Op::Loop {
                    count,
                    sets_al: inst.opcode == Loop,
                    end_pc: 0,
                });
                self.open.push(Open::Loop {
                    loop_pc: pc,
                    pending: Vec::new(),
                });
            }
            EndLoop | EndRep => {
                let Some(Open::Loop { loop_pc, pending }) = self.open.pop() else {
                    return Err(self.unsupported(inst, "endloop without loop"));
                };
                let pc = self.flow(Op::EndLoop {
                    body_pc: loop_pc as Pc + 1,
                });
                if let Op::Loop { end_pc, .. } = &mut self.ops[loop_pc] {
                    *end_pc = pc as Pc;
                }
                self.resume_at(&pending, pc);
            }
            Break | BreakC | BreakP => {
                let cond = match inst.opcode {
                    Break => Cond::Always,
                    BreakC => self.compare(inst),
                    _ => self.bool_or_pred(&inst.srcs[0]),
                };
                if !self.open.iter().any(|o| matches!(o, Open::Loop { .. })) {
                    return Err(self.unsupported(inst, "break outside a loop"));
                }
                let pc = self.flow(Op::Break { cond, resume: 0 });
                self.pend(pc);
            }
            Call | CallNz => {
                let cond = if inst.opcode == CallNz {
                    self.bool_or_pred(&inst.srcs[1])
                } else {
                    Cond::Always
                };
                let pc = self.flow(Op::Call { cond, target: 0 });
                self.calls.push((pc, inst.srcs[0].register.num as u32));
            }
            Ret => {
                let pc = self.flow(Op::Ret { resume: 0 });
                self.pend(pc);
            }
            TexKill => {
                let d = inst.dst.expect("validated");
                let mask = if self.profile.is_ps1() {
                    7
                } else {
                    d.mask.0 & 0xF
                };
                let src = self.texture_source(d.register, mask);
                self.emit(Op::Kill {
                    mask,
                    src,
                    pred: Self::pred_sel(inst),
                });
            }
            Tex if self.shader.version.major >= 2 => self.texld(inst)?,
            TexLdl | TexLdd => self.texld(inst)?,
            TexM3x3Diff => {
                return Err(self.unsupported(inst, "reserved opcode (no defined result)"))
            }
            _ if self.profile.is_ps1() => self.ps1_texture(inst)?,
            _ => return Err(self.unsupported(inst, "not an instruction of this version")),
        }
        Ok(())
    }

    /// The per-lane values a texture register names as a source of texture instructions and
    /// `texkill`: in ps_1_x `t#` is the texture coordinate set, `r#` the temporary.
    pub fn texture_source(&mut self, reg: Register, mask: u8) -> [Slot; 4] {
        let zero = self.zero();
        let mut out = [zero; 4];
        let key = match reg.ty {
            R::Addr => Key::Input(crate::io::InputRegister::T(reg.num as u8)),
            R::Input => Key::Input(crate::io::InputRegister::V(reg.num as u8)),
            _ => Key::Temp(reg.num),
        };
        for c in bits(mask) {
            out[c] = self.layout.reg(key, c as u8);
        }
        out
    }

    fn sampler_dim(&mut self, index: u8) -> Option<crate::texture::Dimension> {
        let declared = self.declared_samplers.get(&index).copied();
        self.samplers.insert(index, declared);
        declared
    }

    /// `texld`/`texldp`/`texldb` (ps_2_0+), `texldl`, `texldd`.
    fn texld(&mut self, inst: &Instruction) -> Result<(), PlanError> {
        let d = inst.dst.expect("validated");
        let sampler_src = inst.srcs[1];
        let sampler = sampler_src.register.num as u8;
        self.sampler_dim(sampler);
        let mode = inst.texld_mode().unwrap_or(dxso::TexldMode::Plain);
        let mut c = self.src(&inst.srcs[0], 0xF);
        if inst.opcode == Opcode::Tex && mode == dxso::TexldMode::Project {
            let zero = self.zero();
            let mut dst = [zero; 4];
            for slot in dst.iter_mut().take(3) {
                *slot = self.layout.scratch();
            }
            self.emit(Op::Arith {
                f: ArithFn::Div,
                mask: 7,
                dst,
                src: [c, [c[3]; 4], [zero; 4]],
            });
            c = [dst[0], dst[1], dst[2], c[3]];
        }
        let lod = match inst.opcode {
            Opcode::TexLdl => LodPlan::Explicit(c[3]),
            Opcode::TexLdd => {
                let dx = self.src(&inst.srcs[2], 7);
                let dy = self.src(&inst.srcs[3], 7);
                LodPlan::Gradients([dx[0], dx[1], dx[2]], [dy[0], dy[1], dy[2]])
            }
            _ if mode == dxso::TexldMode::Bias => LodPlan::Bias(c[3]),
            _ => LodPlan::Implicit,
        };
        let lod = if self.shader.version.is_vertex() {
            match lod {
                LodPlan::Implicit | LodPlan::Bias(_) => LodPlan::Explicit(self.zero()),
                other => other,
            }
        } else {
            lod
        };
        let swz = sampler_src.swizzle.components();
        let mut ch = [0; 4];
        for s in ch.iter_mut() {
            *s = self.layout.scratch();
        }
        self.emit(Op::Sample {
            sampler,
            coords: [c[0], c[1], c[2]],
            lod,
            dst: ch,
        });
        let vals = swz.map(|i| ch[i as usize]);
        self.write(inst, &d, vals);
        Ok(())
    }

    fn mova(&mut self, inst: &Instruction, round: bool) {
        let d = inst.dst.expect("validated");
        let mask = d.mask.0 & 0xF;
        let src = self.src(&inst.srcs[0], mask);
        // The address register changes: gathered relative reads are stale.
        self.gathered.clear();
        self.emit(Op::Mova {
            round,
            mask,
            src,
            pred: Self::pred_sel(inst),
        });
    }

    /// Declarations and definitions, read before lowering.
    /// Takes what the lowering needs before it starts from the shader's analysis: `def`
    /// values, declared samplers and outputs, and the register files addressed relatively.
    fn scan(&mut self, info: &dxso::ShaderInfo) {
        use crate::io::OutputRegister as O;
        // ps_1_x reads its `def` constants clamped to [-1, 1].
        let clamp = self.profile.is_ps1();
        for (&n, bits) in &info.float_defs {
            let v = bits.map(|b| {
                let x = f32::from_bits(b);
                if clamp {
                    x.clamp(-1.0, 1.0)
                } else {
                    x
                }
            });
            self.float_defs.insert(n, v);
        }
        for (&n, &v) in &info.int_defs {
            self.int_defs.insert(n, v);
        }
        for (&n, &v) in &info.bool_defs {
            self.bool_defs.insert(n, v);
        }
        for (&n, &ty) in &info.samplers {
            if let Some(dim) = crate::texture::Dimension::from_declared(ty) {
                self.declared_samplers.insert(n as u8, dim);
            }
        }
        for &n in info.outputs.keys() {
            if let Some(o @ O::O(_)) = self.output_register(Register::new(R::Output, n as u16)) {
                self.declared_outputs.insert(o);
            }
        }
        let relative_inputs = info.relative.contains(&R::Input);
        let relative_outputs = info.relative.contains(&R::Output);
        if relative_inputs {
            let len = if self.shader.version.is_vertex() {
                16
            } else {
                10
            };
            let base = self
                .layout
                .block(|r| Key::Input(crate::io::InputRegister::V(r)), len);
            self.input_block = Some((base, len as u32));
        }
        if relative_outputs {
            let base = self.layout.block(|r| Key::Output(O::O(r)), 12);
            self.output_block = Some((base, 12));
        }
    }
}

impl Plan {
    /// Lowers a validated shader of either kind to its plan, as [`crate::VertexShader`] and
    /// [`crate::PixelShader`] do (without compiling it): for tools that inspect plans and for
    /// callers of [`crate::jit::Compiled::run_plan`].
    pub fn lower(shader: &Shader, options: &Options) -> Result<Plan, PlanError> {
        lower(shader, options)
    }
}

/// Lowers a validated shader.
pub(crate) fn lower(shader: &Shader, opts: &Options) -> Result<Plan, PlanError> {
    if ![8, 16, 32, 64].contains(&opts.lanes) {
        return Err(PlanError::BadOption {
            name: "lanes",
            reason: "must be 8, 16, 32 or 64",
        });
    }
    if opts
        .float_constants
        .is_some_and(|n| n == 0 || n > Options::MAX_FLOAT_CONSTANTS)
    {
        return Err(PlanError::BadOption {
            name: "float_constants",
            reason: "must be 1..=8192",
        });
    }
    let info = dxso::analyze(shader).map_err(|report| PlanError::Invalid {
        first: report
            .errors()
            .next()
            .map(|d| d.to_string())
            .unwrap_or_default(),
        errors: report.errors().count(),
    })?;
    let profile = Profile::of(shader.version).ok_or_else(|| PlanError::Invalid {
        first: format!("{} is not a Direct3D 9 version", shader.version),
        errors: 1,
    })?;
    let mut lw = Lowerer::new(shader, profile, *opts);
    lw.zero();
    lw.one();
    lw.scan(&info);
    let offsets = offsets(shader);
    let insts: Vec<&Instruction> = shader.instructions().collect();
    lw.begin_block();
    let mut in_main = true;
    let mut depth = 0usize;
    let mut ended = false;
    let mut i = 0;
    while i < insts.len() {
        let inst = insts[i];
        lw.at = (i, offsets.get(i).copied().unwrap_or(0));
        lw.ps1.next_coissued = insts.get(i + 1).is_some_and(|n| n.coissue);
        let scratch = lw.layout.scratch_position();
        match inst.opcode {
            Opcode::Label => {
                if !ended {
                    // A function that runs off its end returns.
                    lw.finish_function(in_main);
                }
                in_main = false;
                ended = false;
                depth = 0;
                lw.labels
                    .insert(inst.srcs[0].register.num as u32, lw.ops.len() as Pc);
                lw.begin_block();
            }
            Opcode::Ret if depth == 0 => {
                if !ended {
                    lw.finish_function(in_main);
                }
                ended = true;
            }
            _ if ended => {}
            _ => {
                match inst.opcode.info().block {
                    dxso::Block::Opens => depth += 1,
                    dxso::Block::Closes => depth = depth.saturating_sub(1),
                    dxso::Block::Continues | dxso::Block::None => {}
                }
                lw.instruction(inst)?;
                if !lw.ps1.next_coissued {
                    for op in std::mem::take(&mut lw.deferred) {
                        lw.emit(op);
                    }
                }
            }
        }
        if !lw.ps1.next_coissued {
            lw.layout
                .release_scratch(scratch.min(lw.layout.scratch_position()));
        }
        i += 1;
    }
    if !ended {
        lw.finish_function(in_main);
    }
    for &(pc, label) in &lw.calls {
        let target = *lw.labels.get(&label).ok_or(PlanError::Invalid {
            first: format!("call to undefined label l{label}"),
            errors: 1,
        })?;
        if let Op::Call { target: t, .. } = &mut lw.ops[pc] {
            *t = target;
        }
    }
    // ps_1_x: the colour result is r0.
    let mut r0 = [0; 4];
    if lw.profile.is_ps1() {
        for (c, s) in r0.iter_mut().enumerate() {
            *s = lw.layout.reg(Key::Temp(0), c as u8);
        }
    }
    let max_call_depth = call_depth(&lw.ops);
    let Parts {
        mut ops,
        layout,
        float_defs,
        int_defs,
        bool_defs,
        samplers,
        written_outputs,
        zero_times_anything,
    } = lw.into_parts();
    let (slots, uniforms, zeroed, inputs, mut outputs) = layout.finish(&mut ops, &mut r0);
    outputs.retain(|o| written_outputs.contains(&o.register));
    let clear = rows_to_clear(&ops, &zeroed, &outputs);
    if profile.is_ps1() {
        outputs.push(OutputSlots {
            register: crate::io::OutputRegister::Target(0),
            slots: r0.map(Some),
        });
    }
    let float_constants = opts
        .float_constants
        .unwrap_or(if shader.version.is_software() {
            8192
        } else if shader.version.is_vertex() {
            256
        } else {
            match profile {
                Profile::Ps30 => 224,
                Profile::Ps20 | Profile::Ps2x => 32,
                _ => 8,
            }
        });
    let plan = Plan {
        version: shader.version,
        ops,
        slots,
        uniforms,
        zeroed,
        clear,
        inputs,
        outputs,
        float_defs: float_defs
            .into_iter()
            .map(|(r, v): (u32, [f32; 4])| (r, v.map(ExactF32)))
            .collect(),
        int_defs: int_defs.into_iter().collect(),
        bool_defs: bool_defs.into_iter().collect(),
        float_constants,
        clamp_constants: profile.is_ps1(),
        samplers: samplers
            .into_iter()
            .map(|(index, declared)| SamplerUse { index, declared })
            .collect(),
        zero_times_anything,
        budget: opts.budget,
        max_call_depth,
        lanes: opts.lanes,
    };
    // Once per lowering: what the engines rely on holds (a breach is a lowering bug, reported
    // rather than run).
    plan.check()?;
    Ok(plan)
}

/// The parts of a finished lowering.
struct Parts {
    ops: Vec<Op>,
    layout: Layout,
    float_defs: BTreeMap<u32, [f32; 4]>,
    int_defs: BTreeMap<u32, [i32; 4]>,
    bool_defs: BTreeMap<u32, bool>,
    samplers: BTreeMap<u8, Option<crate::texture::Dimension>>,
    written_outputs: BTreeSet<crate::io::OutputRegister>,
    zero_times_anything: bool,
}

impl Lowerer<'_> {
    fn into_parts(self) -> Parts {
        Parts {
            ops: self.ops,
            layout: self.layout,
            float_defs: self.float_defs,
            int_defs: self.int_defs,
            bool_defs: self.bool_defs,
            samplers: self.samplers,
            written_outputs: self.written_outputs,
            zero_times_anything: self.opts.zero_times_anything,
        }
    }

    /// Ends the current function: `End` for the main program, `Return` for a subroutine; the
    /// function's nested `ret`s jump here.
    fn finish_function(&mut self, main: bool) {
        let pc = self.emit(if main { Op::End } else { Op::Return });
        for r in std::mem::take(&mut self.rets) {
            if let Op::Ret { resume } = &mut self.ops[r] {
                *resume = pc as Pc;
            }
        }
        self.open.clear();
    }
}

/// The register rows that need clearing before each batch. The first straight-line block of the
/// main program runs in every lane, so a row it writes before anything reads it is defined
/// without clearing; every other row (read first, written later or only partially, or an
/// output the block does not write) is cleared.
fn rows_to_clear(ops: &[Op], zeroed: &std::ops::Range<Slot>, outputs: &[OutputSlots]) -> Vec<Slot> {
    let mut written = BTreeSet::new();
    let mut read_first = BTreeSet::new();
    for op in ops {
        let flow = matches!(
            op,
            Op::If { .. }
                | Op::Else { .. }
                | Op::EndIf
                | Op::Loop { .. }
                | Op::EndLoop { .. }
                | Op::Break { .. }
                | Op::Call { .. }
                | Op::Ret { .. }
                | Op::Return
                | Op::End
        );
        if flow {
            break;
        }
        let mut op = *op;
        let mut writes = Vec::new();
        op.for_each_full_write(|s| writes.push(s));
        // Every slot the operation names, once per mention; what remains after taking away one
        // mention per destination is read (before the operation writes).
        let mut named: HashMap<Slot, usize> = HashMap::new();
        op.map_slots(|s| *named.entry(*s).or_insert(0) += 1);
        for s in &writes {
            if let Some(n) = named.get_mut(s) {
                *n -= 1;
            }
        }
        for (s, n) in named {
            if n > 0 && !written.contains(&s) {
                read_first.insert(s);
            }
        }
        written.extend(writes);
    }
    let mut clear: Vec<Slot> = zeroed
        .clone()
        .filter(|s| !written.contains(s) || read_first.contains(s))
        .collect();
    // Outputs are read when the batch ends: every output row not written in the first block.
    for o in outputs {
        for s in o.slots.iter().flatten() {
            if !written.contains(s) && !clear.contains(s) {
                clear.push(*s);
            }
        }
    }
    clear.sort();
    clear
}

/// The deepest chain of calls (validated shaders do not recurse; a cycle counts as deep).
fn call_depth(ops: &[Op]) -> u32 {
    // Functions: main at 0, subroutines at call targets; a function's ops run to its Return.
    let targets: BTreeSet<Pc> = ops
        .iter()
        .filter_map(|op| match op {
            Op::Call { target, .. } => Some(*target),
            _ => None,
        })
        .collect();
    let calls_from = |start: Pc| -> Vec<Pc> {
        let mut out = Vec::new();
        for op in &ops[start as usize..] {
            match op {
                Op::Call { target, .. } => out.push(*target),
                Op::Return | Op::End => break,
                _ => {}
            }
        }
        out
    };
    fn depth(
        f: Pc,
        calls_from: &dyn Fn(Pc) -> Vec<Pc>,
        seen: &mut Vec<Pc>,
        memo: &mut HashMap<Pc, u32>,
    ) -> u32 {
        if let Some(&d) = memo.get(&f) {
            return d;
        }
        if seen.contains(&f) || seen.len() > 64 {
            return 1000;
        }
        seen.push(f);
        let d = calls_from(f)
            .into_iter()
            .map(|t| 1 + depth(t, calls_from, seen, memo))
            .max()
            .unwrap_or(0);
        seen.pop();
        memo.insert(f, d);
        d
    }
    let _ = targets;
    let mut memo = HashMap::new();
    depth(0, &calls_from, &mut Vec::new(), &mut memo)
}
