//! Code generation: from the IR to a [`dxso::Shader`] for a profile.
//!
//! First the module is rewritten where that saves lanes or instructions: reads of a gathered
//! vector whose lanes come from one value read that value; a value the same in every lane is
//! read from one home lane; a saturate of a value nothing else reads becomes its `_sat`. A
//! backward pass finds the lanes each node must compute (dead nodes and lanes drop out);
//! multiplies that feed one add become `mad`; nodes are emitted in arena order. Temporaries
//! are allocated by lanes in a linear scan: a value (or a group of values written into one
//! vector) takes free lanes of the lowest register with room, in any lanes where the
//! instructions' swizzles can follow (in place where they cannot), until its last read.
//! Sources are legalised per profile (ps_2_0's swizzles and `texld` operands, one constant per
//! vertex instruction), literals are pooled into `def` registers after the uniforms, and the
//! constant table lists the uniforms the code reads, sorted by name as fxc sorts them.

use crate::diag::{Code, Diagnostic, Loc};
use crate::ir::{Handle, Lane, LoopKind, Module, Op, Operand, SampleKind};
use crate::lower::operands;
use crate::{Options, Profile};
use dxso::ctab::{Constant, ConstantTable, RegisterSet};
use dxso::{
    Comment, DclToken, DeclUsage, DstParam, Extra, Instruction, Item, Opcode, Register,
    RegisterType as RT, ResultModifiers, Shader, SrcModifier, SrcParam, Swizzle, WriteMask,
};

type R<T> = Result<T, Diagnostic>;

/// Lanes of a temp register: the register and the lane mask.
type Temp = (u16, u8);

/// Where a register-sharing group may place its lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Lanes {
    /// Any free lanes of any register (the instructions' swizzles follow).
    Any,
    /// Each lane in the register lane of its own index.
    Identity,
    /// A register of its own, every lane free.
    Whole,
}

/// The constants `sincos` needs in shader model 2 (`D3DSINCOSCONST1`, `D3DSINCOSCONST2`).
const SINCOS1: [f32; 4] = [
    -1.550_099_2e-6,
    -2.170_139e-5,
    0.002_604_166_7,
    0.000_260_416_68,
];
const SINCOS2: [f32; 4] = [-0.020_833_334, -0.125, 1.0, 0.5];

fn err(code: Code, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::error(code, Loc::default(), msg)
}

/// Generates the shader of `module` for `options.profile`.
pub fn generate(module: &Module, options: &Options) -> R<Shader> {
    if matches!(options.profile, Profile::Ps1x(_)) {
        return Err(err(
            Code::Unsupported,
            format!("dxso does not compile {} yet", options.profile),
        ));
    }
    // Before legalisation, whose copies (a uniform copied to a temporary once) must stay.
    let forwarded = forward_composes(module);
    let legal = crate::legalize::legalize(&forwarded, options.profile)?;
    let module = replicated_reads(legal.as_ref().unwrap_or(&forwarded), options.profile);
    let (module, saturated) = fold_saturates(&module, options.profile);
    let module = &module;
    let mut g = Gen::new(module, options.profile);
    g.saturated = saturated;
    g.run()?;
    g.finish()
}

struct Gen<'a> {
    m: &'a Module,
    profile: Profile,
    version: dxso::Version,
    demand: Vec<u8>,
    uses: Vec<u32>,
    /// Muls folded into the add that reads them.
    absorbed: Vec<bool>,
    /// Nodes whose instruction saturates its result (`_sat`; see `fold_saturates`).
    saturated: Vec<bool>,
    /// Vectors written lane by lane into their output registers (see `split_outputs`).
    split: Vec<bool>,
    /// Temp register of each emitted node.
    reg: Vec<Option<u16>>,
    /// Where each lane of an emitted node is in its register (node lane to register lane).
    map: Vec<[u8; 4]>,
    last_use: Vec<usize>,
    /// The lanes of each temp register that hold a live value.
    busy: Vec<u8>,
    /// The register of each register-sharing group (by root) and the lanes it still holds.
    slot: Vec<Option<Temp>>,
    /// The register and lane map each group (by root) was given.
    group_home: Vec<Option<(u16, [u8; 4])>>,
    /// The node lanes each group's members write (by root).
    group_lanes: Vec<u8>,
    /// Where each group (by root) may place them.
    group_rule: Vec<Lanes>,
    /// Groups of one lane-wise value kept in place only for ps_2_0's swizzles (by root): they
    /// take the lanes that make their sources' swizzles legal.
    swizzle_bound: Vec<bool>,
    max_temp: u16,
    code: Vec<Instruction>,
    defs: Vec<[f32; 4]>,
    def_used: Vec<u8>,
    /// The index `a0.x` holds (reset where a loop starts or ends an iteration).
    a0: Option<Operand>,
    /// The index a source of the instruction being built reads through `a0.x`.
    a0_claim: Option<Operand>,
    /// Temporaries to free once the instruction being built is emitted.
    pending: Vec<Temp>,
    /// The constant registers no read uniform occupies, lowest first: `def` literals go there.
    def_regs: Vec<u16>,
    input_regs: Vec<Register>,
    dcls: Vec<Instruction>,
    sincos_consts: Option<(u16, u16)>,
    /// Emission position of each emitted node.
    pos: Vec<usize>,
    /// The node whose register a node writes into (partial writes of one vector).
    alias: Vec<Option<usize>>,
    /// The last position at which any node of a register-sharing group is read, by root.
    group_last: Vec<usize>,
    /// Where each output is written.
    targets: Vec<(Register, WriteMask)>,
    /// The output register a group (by root) is computed in, in place of a temporary.
    direct: Vec<Option<Register>>,
}

impl<'a> Gen<'a> {
    fn new(m: &'a Module, profile: Profile) -> Self {
        let n = m.nodes.len();
        let top = m
            .uniforms
            .iter()
            .filter(|u| u.set == RegisterSet::Float4)
            .map(|u| u.register + u.count)
            .max()
            .unwrap_or(0);
        Gen {
            m,
            profile,
            version: profile.version(),
            demand: vec![0; n],
            uses: vec![0; n],
            absorbed: vec![false; n],
            saturated: vec![false; n],
            split: vec![false; n],
            reg: vec![None; n],
            map: vec![[0, 1, 2, 3]; n],
            last_use: vec![0; n],
            busy: vec![0; 4096],
            slot: vec![None; n],
            group_home: vec![None; n],
            group_lanes: vec![0; n],
            group_rule: vec![Lanes::Any; n],
            swizzle_bound: vec![false; n],
            max_temp: 0,
            code: Vec::new(),
            defs: Vec::new(),
            def_used: Vec::new(),
            a0: None,
            a0_claim: None,
            pending: Vec::new(),
            def_regs: {
                let mut taken = vec![false; profile.float_constants().max(top) as usize];
                for u in m
                    .uniforms
                    .iter()
                    .filter(|u| u.used && u.set == RegisterSet::Float4)
                {
                    for r in u.register..u.register.saturating_add(u.count) {
                        if let Some(t) = taken.get_mut(r as usize) {
                            *t = true;
                        }
                    }
                }
                for &r in &m.reserved {
                    if let Some(t) = taken.get_mut(r as usize) {
                        *t = true;
                    }
                }
                let limit = profile.float_constants();
                let mut regs: Vec<u16> = (0..limit).filter(|&r| !taken[r as usize]).collect();
                // vs_2_0 and vs_2_x uniforms may reach past c255 (the device's constant count
                // decides): literals that find no room below go after the last one, as fxc
                // places them.
                let last = taken.iter().rposition(|&t| t).map_or(0, |r| r + 1) as u16;
                if matches!(profile, Profile::Vs20 | Profile::Vs2x) && last > limit {
                    regs.extend(last..last.saturating_add(limit).min(8192));
                }
                regs
            },
            input_regs: Vec::new(),
            dcls: Vec::new(),
            sincos_consts: None,
            pos: vec![usize::MAX; n],
            alias: vec![None; n],
            group_last: vec![0; n],
            targets: Vec::new(),
            direct: vec![None; n],
        }
    }

    /// The register of literal vector `k`.
    fn def_reg(&self, k: usize) -> u16 {
        self.def_regs.get(k).copied().unwrap_or(u16::MAX)
    }

    fn node(&self, h: Handle) -> &crate::ir::Node {
        self.m.node(h)
    }

    fn has(&self, op: Opcode) -> bool {
        op.info().allowed_in(self.version)
    }

    fn pixel(&self) -> bool {
        !self.profile.is_vertex()
    }

    // ---- analysis ----

    fn analyse(&mut self) {
        self.demand = self.m.demand();
        // Use counts among live nodes, then multiplies to fold into adds.
        for i in 0..self.m.nodes.len() {
            if self.demand[i] == 0 {
                continue;
            }
            let mut ops = self.node_reads(i);
            ops.sort();
            ops.dedup();
            for h in ops {
                self.uses[h.0 as usize] += 1;
            }
        }
        for o in self
            .m
            .outputs
            .iter()
            .map(|o| o.value)
            .chain(self.m.kills.iter().copied())
        {
            self.uses[o.h.0 as usize] += 1;
        }
        for i in 0..self.m.nodes.len() {
            if self.demand[i] == 0 {
                continue;
            }
            if let Op::Add(a, b) = self.m.nodes[i].op {
                // `x + x` reads the product twice: it is computed, not folded.
                if a.h == b.h {
                    continue;
                }
                if let Some(x) = [a, b].into_iter().find(|o| self.foldable_mul(*o)) {
                    self.absorbed[x.h.0 as usize] = true;
                }
            }
        }
    }

    fn foldable_mul(&self, o: Operand) -> bool {
        let i = o.h.0 as usize;
        matches!(self.m.nodes[i].op, Op::Mul(..))
            && self.uses[i] == 1
            && !self.saturated[i]
            && !o.abs
            && !self.absorbed[i]
    }

    // ---- registers ----

    /// The lowest temp register whose `lanes` are free, those lanes taken.
    fn alloc(&mut self, lanes: u8) -> R<Temp> {
        let r = self
            .busy
            .iter()
            .position(|b| b & lanes == 0)
            .ok_or_else(|| err(Code::TooManyTemps, "out of temporary registers"))?;
        self.take(r as u16, lanes);
        Ok((r as u16, lanes))
    }

    fn take(&mut self, r: u16, lanes: u8) {
        self.busy[r as usize] |= lanes;
        self.max_temp = self.max_temp.max(r + 1);
    }

    fn release(&mut self, (r, lanes): Temp) {
        self.busy[r as usize] &= !lanes;
    }

    fn input_register(&mut self, index: u16) -> Register {
        self.input_regs[index as usize]
    }

    fn assign_inputs(&mut self) {
        let live_inputs: Vec<bool> = {
            let mut v = vec![false; self.m.inputs.len()];
            for (i, n) in self.m.nodes.iter().enumerate() {
                if let Op::Input(k) = n.op {
                    if self.demand[i] != 0 {
                        v[k as usize] = true;
                    }
                }
            }
            v
        };
        let mut next_v = 0u16;
        for (k, d) in self.m.inputs.iter().enumerate() {
            let mask = WriteMask(((1u16 << d.width) - 1) as u8);
            let (reg, dcl) = if let Some(misc) = d.misc {
                (
                    Register::new(RT::MiscType, misc as u16),
                    Some(DclToken::usage(DeclUsage::Position, 0)),
                )
            } else if self.profile.is_vertex() || self.profile == Profile::Ps30 {
                let r = Register::new(RT::Input, next_v);
                next_v += 1;
                (r, Some(DclToken::usage(d.usage, d.index)))
            } else {
                // ps_2_x: texture coordinates in t#, colours in v#.
                let r = match d.usage {
                    DeclUsage::Color => Register::new(RT::Input, d.index as u16),
                    _ => Register::new(RT::Addr, d.index as u16),
                };
                (r, Some(DclToken::usage(DeclUsage::Position, 0)))
            };
            self.input_regs.push(reg);
            if !live_inputs[k] {
                continue;
            }
            let mut inst = Instruction::new(Opcode::Dcl);
            let full = reg.ty == RT::MiscType && reg.num == 1 || self.profile.is_vertex();
            inst.dst = Some(DstParam::new(reg, if full { WriteMask::ALL } else { mask }));
            if reg.ty == RT::MiscType {
                inst.dst = Some(DstParam::new(
                    reg,
                    if reg.num == 1 {
                        WriteMask::ALL
                    } else {
                        mask.max_xy()
                    },
                ));
            }
            inst.extra = Extra::Dcl(dcl.unwrap_or_default());
            self.dcls.push(inst);
        }
    }

    // ---- operands ----

    /// The register an operand's node lives in.
    fn src_register(&mut self, o: &Operand) -> R<(Register, [u8; 4])> {
        let node = *self.node(o.h);
        Ok(match node.op {
            Op::Input(k) => (self.input_register(k), o.swz),
            Op::Uniform(r) => (Register::new(RT::Const, r), o.swz),
            Op::Literal(bits) => self.literal_register(bits, o.swz, node.width)?,
            _ => {
                let r = self.reg[o.h.0 as usize].ok_or_else(|| {
                    err(
                        Code::Limit,
                        "internal: a value was read before it was computed",
                    )
                })?;
                let map = self.map[o.h.0 as usize];
                (
                    Register::new(RT::Temp, r),
                    o.swz.map(|k| map[k as usize & 3]),
                )
            }
        })
    }

    /// Places the literal lanes an operand reads into `def` registers; returns the register and
    /// the swizzle reading them.
    fn literal_register(
        &mut self,
        bits: [u32; 4],
        swz: [u8; 4],
        _width: u8,
    ) -> R<(Register, [u8; 4])> {
        let vals: Vec<f32> = (0..4)
            .map(|i| f32::from_bits(bits[swz[i] as usize]))
            .collect();
        // A register holding every value, or one with room for the missing ones (ps_2_0 reads
        // a literal only through a swizzle it has).
        let ps20 = self.profile == Profile::Ps20;
        for r in 0..self.defs.len() {
            let (mut d, mut used) = (self.defs[r], self.def_used[r]);
            let mut lanes = [0u8; 4];
            let mut room = true;
            for (i, v) in vals.iter().enumerate() {
                let l =
                    match (0..4).find(|&l| used & (1 << l) != 0 && d[l].to_bits() == v.to_bits()) {
                        Some(l) => l,
                        None => match (0..4).find(|&l| used & (1 << l) == 0) {
                            Some(l) => {
                                d[l] = *v;
                                used |= 1 << l;
                                l
                            }
                            None => {
                                room = false;
                                break;
                            }
                        },
                    };
                lanes[i] = l as u8;
            }
            if room && (!ps20 || PS20_SWIZZLES.contains(&lanes)) {
                self.defs[r] = d;
                self.def_used[r] = used;
                return Ok((Register::new(RT::Const, self.def_reg(r)), lanes));
            }
        }
        // A fresh register, lanes in the order the operand reads them (in ps_2_0 each value
        // in its own lane unless that needs a swizzle it does not have).
        let mut d = [0.0f32; 4];
        let mut lanes = [0u8; 4];
        let mut used = 0u8;
        for (i, v) in vals.iter().enumerate() {
            let l = match (0..4).find(|&l| used & (1 << l) != 0 && d[l].to_bits() == v.to_bits()) {
                Some(l) => l,
                None => {
                    let l = if used & (1 << i) == 0 {
                        i
                    } else {
                        (0..4).find(|&l| used & (1 << l) == 0).expect("four lanes")
                    };
                    d[l] = *v;
                    used |= 1 << l;
                    l
                }
            };
            lanes[i] = l as u8;
        }
        if ps20 && !PS20_SWIZZLES.contains(&lanes) {
            for (i, v) in vals.iter().enumerate() {
                d[i] = *v;
            }
            used = 0xF;
            lanes = [0, 1, 2, 3];
        }
        self.defs.push(d);
        self.def_used.push(used);
        if self.defs.len() > self.def_regs.len() {
            return Err(err(
                Code::TooManySlots,
                "too many constants for the profile (uniforms and literals)",
            ));
        }
        Ok((
            Register::new(RT::Const, self.def_reg(self.defs.len() - 1)),
            lanes,
        ))
    }

    /// A source parameter reading `o` in the lanes `read` (other lanes filled to keep the
    /// swizzle legal).
    fn src(&mut self, o: &Operand, read: u8) -> R<SrcParam> {
        if let Op::UniformRel(base, index) = self.node(o.h).op {
            return self.relative_src(o, base, index, read);
        }
        let (reg, swz) = self.src_register(o)?;
        let mut sw = fill_swizzle(swz, read);
        if self.profile == Profile::Ps20 {
            sw = ps20_fill(sw, read).unwrap_or(sw);
        }
        let mut p = SrcParam::new(reg, Swizzle::new(sw[0], sw[1], sw[2], sw[3]));
        p.modifier = match (o.abs, o.neg) {
            (false, false) => SrcModifier::None,
            (false, true) => SrcModifier::Neg,
            (true, false) => SrcModifier::Abs,
            (true, true) => SrcModifier::AbsNeg,
        };
        Ok(p)
    }

    /// `c[base + a0.x]` read straight from the constant file; `mova` first when `a0.x` holds
    /// another index. A second index in one instruction is read into a temporary instead.
    fn relative_src(&mut self, o: &Operand, base: u16, index: Operand, read: u8) -> R<SrcParam> {
        let a0 = Register::new(RT::Addr, 0);
        let index = index.lane(0);
        let mut p = SrcParam::new(Register::new(RT::Const, base), Swizzle::IDENTITY);
        p.relative = Some(if self.profile.major() < 2 {
            dxso::Relative::Implicit
        } else {
            dxso::Relative::Token(dxso::RelativeToken::new(a0, 0))
        });
        let sw = fill_swizzle(o.swz, read);
        p.swizzle = Swizzle::new(sw[0], sw[1], sw[2], sw[3]);
        p.modifier = match (o.abs, o.neg) {
            (false, false) => SrcModifier::None,
            (false, true) => SrcModifier::Neg,
            (true, false) => SrcModifier::Abs,
            (true, true) => SrcModifier::AbsNeg,
        };
        let claimed = self.a0_claim.filter(|c| *c != index);
        let mova = self.mova();
        if self.a0 != Some(index) {
            let mut s = [self.src(&index, 1)?];
            s[0].swizzle = Swizzle::replicate(s[0].swizzle.get(0));
            self.emit(mova, DstParam::new(a0, WriteMask(1)), &s);
            self.a0 = Some(index);
        }
        if let Some(other) = claimed {
            // An earlier source of this instruction reads `a0.x` as `other`.
            let (t, r) = self.copy_to_temp(
                SrcParam {
                    modifier: SrcModifier::None,
                    ..p
                },
                read,
            )?;
            self.pending.push(r);
            let mut s = [self.src(&other, 1)?];
            s[0].swizzle = Swizzle::replicate(s[0].swizzle.get(0));
            self.emit(mova, DstParam::new(a0, WriteMask(1)), &s);
            self.a0 = Some(other);
            return Ok(SrcParam {
                modifier: p.modifier,
                ..t
            });
        }
        self.a0_claim = Some(index);
        Ok(p)
    }

    /// The instruction writing `a0.x`: `mova` from vs_2_0 on, `mov` in vs_1_1 (which floors;
    /// the legalised index carries the half that makes it round).
    fn mova(&self) -> Opcode {
        if self.has(Opcode::MovA) {
            Opcode::MovA
        } else {
            Opcode::Mov
        }
    }

    fn swizzle_ok(&self, s: Swizzle) -> bool {
        self.profile != Profile::Ps20
            || s.is_identity()
            || s.replicated().is_some()
            || matches!(s.0, 0xC9 | 0xD2 | 0x1B)
    }

    /// Emits `mov` instructions bringing `p` (lanes `read`) into a fresh temp read with an
    /// identity swizzle; the temp is released by the caller.
    fn copy_to_temp(&mut self, p: SrcParam, read: u8) -> R<(SrcParam, Temp)> {
        let t = self.alloc(read)?;
        let dst_reg = Register::new(RT::Temp, t.0);
        if self.swizzle_ok(p.swizzle) {
            self.emit(Opcode::Mov, DstParam::new(dst_reg, WriteMask(read)), &[p]);
        } else {
            for l in 0..4u8 {
                if read & (1 << l) != 0 {
                    let mut s = p;
                    s.swizzle = Swizzle::replicate(p.swizzle.get(l as usize));
                    self.emit(Opcode::Mov, DstParam::new(dst_reg, WriteMask(1 << l)), &[s]);
                }
            }
        }
        Ok((SrcParam::new(dst_reg, Swizzle::IDENTITY), t))
    }

    /// Copies each source whose swizzle the profile cannot read to a temporary (pushed on
    /// `temps` for the caller to release).
    fn legalise_swizzles(
        &mut self,
        srcs: &mut [SrcParam],
        reads: &[u8],
        temps: &mut Vec<Temp>,
    ) -> R<()> {
        for (i, s) in srcs.iter_mut().enumerate() {
            if !self.swizzle_ok(s.swizzle) {
                let m = s.modifier;
                let (p, t) = self.copy_to_temp(
                    SrcParam {
                        modifier: SrcModifier::None,
                        ..*s
                    },
                    reads[i],
                )?;
                temps.push(t);
                *s = SrcParam { modifier: m, ..p };
            }
        }
        Ok(())
    }

    fn emit(&mut self, op: Opcode, dst: DstParam, srcs: &[SrcParam]) {
        let mut inst = Instruction::new(op);
        inst.dst = Some(dst);
        inst.srcs = dxso::Sources::from_slice(srcs).expect("at most four sources");
        self.code.push(inst);
    }

    /// Emits `op` with legalised sources; `reads[i]` are the lanes source `i` reads.
    fn emit_legal(
        &mut self,
        op: Opcode,
        dst: DstParam,
        srcs: &mut [SrcParam],
        reads: &[u8],
    ) -> R<()> {
        let mut temps = Vec::new();
        // Only one constant register per vertex instruction (and one input register in
        // vs_1_1, whose read ports allow one): the one most sources read stays, the others
        // are copied to temporaries.
        if !self.pixel() {
            for ty in [RT::Const, RT::Input] {
                if ty == RT::Input && self.profile != Profile::Vs11 {
                    continue;
                }
                let key = |s: &SrcParam| (s.register, s.relative);
                let keys: Vec<_> = srcs
                    .iter()
                    .filter(|s| s.register.ty == ty)
                    .map(key)
                    .collect();
                let Some(keep) = keys
                    .iter()
                    .copied()
                    .rev()
                    .max_by_key(|k| keys.iter().filter(|x| *x == k).count())
                else {
                    continue;
                };
                for (i, s) in srcs.iter_mut().enumerate() {
                    if s.register.ty != ty || key(s) == keep {
                        continue;
                    }
                    let (p, t) = self.copy_to_temp(
                        SrcParam {
                            modifier: SrcModifier::None,
                            ..*s
                        },
                        reads[i],
                    )?;
                    temps.push(t);
                    *s = SrcParam {
                        modifier: s.modifier,
                        ..p
                    };
                }
            }
        }
        self.legalise_swizzles(srcs, reads, &mut temps)?;
        self.emit(op, dst, srcs);
        for t in temps {
            self.release(t);
        }
        // The instruction has read its sources: `a0.x` and the temporaries are free again.
        self.a0_claim = None;
        for r in std::mem::take(&mut self.pending) {
            self.release(r);
        }
        Ok(())
    }

    // ---- emission ----

    fn run(&mut self) -> R<()> {
        self.constants_fit()?;
        self.analyse();
        self.assign_inputs();
        self.split_outputs();
        let order: Vec<usize> = (0..self.m.nodes.len())
            .filter(|&i| {
                self.demand[i] != 0
                    && !self.absorbed[i]
                    && !self.split[i]
                    && !matches!(
                        self.m.nodes[i].op,
                        Op::Literal(_) | Op::Input(_) | Op::Uniform(_) | Op::UniformRel(..)
                    )
            })
            .collect();
        for (p, &i) in order.iter().enumerate() {
            self.pos[i] = p;
        }
        // Positions of the last read of every node.
        let end = order.len();
        let mut readers: Vec<Vec<usize>> = vec![Vec::new(); self.m.nodes.len()];
        for (p, &i) in order.iter().enumerate() {
            for h in self.reads_of(i) {
                self.last_use[h.0 as usize] = p;
                readers[h.0 as usize].push(p);
            }
        }
        for o in self
            .m
            .outputs
            .iter()
            .map(|o| o.value)
            .chain(self.m.kills.iter().copied())
        {
            let h = o.h.0 as usize;
            let read = if self.split[h] {
                self.reads_of(h)
            } else {
                vec![o.h]
            };
            for r in read {
                self.last_use[r.0 as usize] = end;
                readers[r.0 as usize].push(end);
            }
        }
        // A value a loop body reads lives until the loop's end: the next iteration reads it
        // again. Inner loops first, so their ends carry over to the loops around them.
        let mut spans: Vec<(usize, usize)> = self
            .m
            .loops
            .iter()
            .map(|l| (self.pos[l.begin.0 as usize], self.pos[l.end.0 as usize]))
            .collect();
        spans.sort_by_key(|s| s.1);
        for (b, e) in spans {
            for &k in &order {
                if self.pos[k] < b && self.last_use[k] > b && self.last_use[k] < e {
                    self.last_use[k] = e;
                    readers[k].push(e);
                }
            }
        }
        self.coalesce(&order, &readers);
        self.loop_values_in_place(&order, &readers);
        for &i in &order {
            let r = self.root(i);
            self.group_last[r] = self.group_last[r].max(self.last_use[i]).max(self.pos[i]);
        }
        self.targets = self.output_targets()?;
        self.outputs_in_place(&order);
        self.group_rules(&order);
        for (p, &i) in order.iter().enumerate() {
            self.node_code(i)?;
            for h in self.reads_of(i) {
                let k = h.0 as usize;
                if self.pos[k] == usize::MAX {
                    continue;
                }
                let root = self.root(k);
                if self.group_last[root] == p {
                    if let Some(t) = self.slot[root].take() {
                        self.release(t);
                    }
                }
            }
        }
        self.kills()?;
        self.outputs()?;
        if self.max_temp > self.profile.temps() {
            return Err(err(
                Code::TooManyTemps,
                format!(
                    "maximum temp register index exceeded: {} temps needed, {} has {}",
                    self.max_temp,
                    self.profile,
                    self.profile.temps()
                ),
            ));
        }
        Ok(())
    }

    /// vs_1_1 has 96 float constants, and a relative read may reach any register of the array
    /// it reads: every register of a read uniform must exist (later versions' validators check
    /// the registers instructions name).
    fn constants_fit(&self) -> R<()> {
        if self.profile != Profile::Vs11 {
            return Ok(());
        }
        let max = self.profile.float_constants();
        for u in &self.m.uniforms {
            let end = u.register as u32 + u.count as u32;
            if u.used && u.set == RegisterSet::Float4 && end > max as u32 {
                return Err(err(
                    Code::ConstRegister,
                    format!(
                        "Invalid const register num: {}. Max allowed is {} ('{}' takes c{}-c{})",
                        end - 1,
                        max - 1,
                        u.name,
                        u.register,
                        end - 1
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Lets a vertex output be computed in its output register (`dp4 oPos.x, ...`, `max oD0,
    /// ...`, no `mov` at the end) when nothing else reads its value and every instruction of
    /// it writes exactly its lanes once without reading them back.
    fn outputs_in_place(&mut self, order: &[usize]) {
        if !self.profile.is_vertex() || !self.m.loops.is_empty() {
            return;
        }
        let single = |me: &Self, x: usize| match me.m.nodes[x].op {
            Op::Add(..)
            | Op::Mul(..)
            | Op::Mad(..)
            | Op::Min(..)
            | Op::Max(..)
            | Op::Slt(..)
            | Op::Sge(..)
            | Op::Dot(3 | 4, ..)
            | Op::Rcp(_)
            | Op::Rsq(_)
            | Op::Exp(_)
            | Op::Log(_) => true,
            Op::Abs(_) => me.has(Opcode::Abs),
            _ => false,
        };
        let mut claimed: Vec<usize> = Vec::new();
        for (k, out) in self.m.outputs.iter().enumerate() {
            let (reg, mask) = self.targets[k];
            let c = out.value.h.0 as usize;
            let mut d = self.demand[c];
            let mut identity =
                (0..4).all(|l| mask.0 & (1 << l) == 0 || out.value.swz[l] == l as u8);
            // A value that is the same in every lane, read replicated (a scalar widened to
            // the output), is computed into all the output's lanes at once.
            let one = |o: &Operand| o.swz.iter().all(|&x| x == o.swz[0]);
            let same_everywhere = match self.m.nodes[c].op {
                Op::Dot(3 | 4, ..) | Op::Rcp(_) | Op::Rsq(_) | Op::Exp(_) | Op::Log(_) => true,
                Op::Add(a, b)
                | Op::Mul(a, b)
                | Op::Min(a, b)
                | Op::Max(a, b)
                | Op::Slt(a, b)
                | Op::Sge(a, b) => one(&a) && one(&b) && !self.absorbed_read(&a, &b),
                Op::Mad(a, b, e) => one(&a) && one(&b) && one(&e),
                _ => false,
            };
            if !identity && same_everywhere && !out.value.neg && !out.value.abs {
                identity = true;
                d = mask.0;
            }
            if out.value.neg
                || out.value.abs
                || !identity
                || d != mask.0
                || self.pos[c] == usize::MAX
                || self.uses[c] != 1
                || self.split[c]
                || self.alias[c].is_some()
                || claimed.contains(&c)
            {
                continue;
            }
            let members: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&x| x != c && self.root(x) == c)
                .collect();
            let ok = match self.m.nodes[c].op {
                // Every lane written by a member in place.
                Op::Compose(parts) => {
                    (0..4).all(|l| {
                        d & (1 << l) == 0
                            || parts[l].is_some_and(|p| {
                                members.contains(&(p.h.0 as usize))
                                    && p.lane == l as u8
                                    && !p.neg
                                    && !p.abs
                            })
                    }) && members.iter().all(|&x| {
                        // An output register cannot be read back.
                        single(self, x)
                            && self
                                .reads_of(x)
                                .iter()
                                .all(|h| self.root(h.0 as usize) != c)
                    })
                }
                _ => members.is_empty() && single(self, c),
            };
            if ok {
                claimed.push(c);
                self.direct[c] = Some(reg);
                self.demand[c] = d;
            }
        }
    }

    /// `true` when either operand is a multiply folded into the add reading it (its operands
    /// are read instead, through their own swizzles).
    fn absorbed_read(&self, a: &Operand, b: &Operand) -> bool {
        self.absorbed[a.h.0 as usize] || self.absorbed[b.h.0 as usize]
    }

    /// Marks the vectors only outputs read, gathered from inputs, constants and at most one
    /// computed value (`Op::Compose`), in vertex shaders: each part is written straight into
    /// the output register's lanes at the end, so no temporary holds the early parts (an
    /// input copied at the start) through the rest of the shader.
    fn split_outputs(&mut self) {
        if !self.profile.is_vertex() {
            return;
        }
        let mut read_by_code = vec![false; self.m.nodes.len()];
        for i in 0..self.m.nodes.len() {
            if self.demand[i] != 0 && !self.absorbed[i] {
                for h in self.node_reads(i) {
                    read_by_code[h.0 as usize] = true;
                }
            }
        }
        // Every output reading the vector must read existing lanes one to one, into a
        // register written with the value's own mask (not `oPos` filled from fewer lanes).
        let fits = |out: &crate::ir::OutputDecl| {
            let Op::Compose(parts) = self.m.nodes[out.value.h.0 as usize].op else {
                return false;
            };
            // Computed parts stay in their registers until the end: worth it while they
            // are one value (inputs, constants and literals cost none).
            let mut computed: Vec<Handle> = parts
                .iter()
                .flatten()
                .map(|p| p.h)
                .filter(|h| {
                    !matches!(
                        self.m.nodes[h.0 as usize].op,
                        Op::Input(_) | Op::Uniform(_) | Op::Literal(_)
                    )
                })
                .collect();
            computed.sort_by_key(|h| h.0);
            computed.dedup();
            computed.len() <= 1
                && !out.value.neg
                && !out.value.abs
                && (out.usage != DeclUsage::Position || out.width == 4)
                && (0..out.width as usize).all(|k| parts[out.value.swz[k] as usize].is_some())
        };
        let mut ok = vec![true; self.m.nodes.len()];
        for out in &self.m.outputs {
            let h = out.value.h.0 as usize;
            ok[h] &= fits(out);
        }
        for out in &self.m.outputs {
            let h = out.value.h.0 as usize;
            self.split[h] = ok[h] && !read_by_code[h];
        }
    }

    fn root(&self, mut i: usize) -> usize {
        while let Some(a) = self.alias[i] {
            i = a;
        }
        i
    }

    /// `true` when node `i` writes only its demanded lanes in one instruction, so it can
    /// write them straight into a register other lanes of which hold other values.
    fn writes_in_place(&self, i: usize) -> bool {
        match self.m.nodes[i].op {
            Op::Sample(..)
            | Op::Literal(_)
            | Op::Input(_)
            | Op::Uniform(_)
            | Op::LoopBegin(_)
            | Op::Phi(..)
            | Op::LoopEnd(_)
            | Op::LoopElse(_) => false,
            Op::Dot(2, ..) => self.has(Opcode::Dp2Add),
            Op::Lrp(..) => self.has(Opcode::Lrp),
            Op::Sat(_) => self.pixel(),
            // vs_1_1 writes a fraction into `.y` alone, or `frc`'s `.xy`.
            Op::Frc(_) if self.profile == Profile::Vs11 => self.demand[i] == 0b0010,
            _ => true,
        }
    }

    /// Lets the values a vector is gathered from be computed straight into its register
    /// (`mad r0.xyz, ...` then `mov r0.w, ...` becomes `mad r0.xyz` alone when `r0.w` is
    /// already the old value's).
    fn coalesce(&mut self, order: &[usize], readers: &[Vec<usize>]) {
        for &c in order {
            let Op::Compose(parts) = self.m.nodes[c].op else {
                continue;
            };
            let d = self.demand[c];
            let mut sources: Vec<usize> = Vec::new();
            for p in parts.iter().flatten() {
                if !sources.contains(&(p.h.0 as usize)) {
                    sources.push(p.h.0 as usize);
                }
            }
            let identity = |x: usize| {
                parts.iter().enumerate().all(|(k, p)| match p {
                    Some(p) if p.h.0 as usize == x && d & (1 << k) != 0 => {
                        p.lane == k as u8 && !p.neg && !p.abs
                    }
                    _ => true,
                })
            };
            let mut members = Vec::new();
            for &x in &sources {
                if self.pos[x] != usize::MAX
                    && self.alias[x].is_none()
                    && self.uses[x] == 1
                    && identity(x)
                    && self.writes_in_place(x)
                    && x != c
                {
                    members.push(x);
                }
            }
            // The old value the vector updates, when nothing reads its register after the
            // first write into it.
            let first = members
                .iter()
                .map(|&x| self.pos[x])
                .min()
                .unwrap_or(self.pos[c]);
            let single_write = |me: &Self, p: usize| {
                members.iter().any(|&m| {
                    me.pos[m] == p
                        && !matches!(
                            me.m.nodes[m].op,
                            Op::Compose(_) | Op::Nrm(_) | Op::SinCos(_)
                        )
                })
            };
            let base = sources.iter().copied().find(|&o| {
                if members.contains(&o)
                    || self.pos[o] == usize::MAX
                    || self.pos[o] >= first
                    || !identity(o)
                    || self.uses[o] > 64
                {
                    return false;
                }
                let root = self.root(o);
                let group: Vec<usize> = if self.alias[o].is_none() && !self.alias.contains(&Some(o))
                {
                    vec![o]
                } else {
                    (0..self.alias.len())
                        .filter(|&k| self.root(k) == root)
                        .collect()
                };
                group.iter().all(|&k| {
                    readers[k].iter().all(|&p| {
                        p < first || p == self.pos[c] || (p == first && single_write(self, p))
                    })
                })
            });
            for &x in &members {
                self.alias[x] = Some(c);
            }
            if let Some(o) = base {
                self.alias[c] = Some(self.root(o));
            }
        }
    }

    /// Lets the value a loop variable takes at the end of an iteration be computed straight into
    /// the variable's register (`add r5.x, r5.x, c1.x` rather than `add r0.x, ...` then
    /// `mov r5.x, r0.x`) when nothing reads the variable after that value's first write.
    fn loop_values_in_place(&mut self, order: &[usize], readers: &[Vec<usize>]) {
        let single = |op: &Op| {
            matches!(
                op,
                Op::Add(..) | Op::Mul(..) | Op::Mad(..) | Op::Min(..) | Op::Max(..) | Op::Frc(_)
            )
        };
        for l in &self.m.loops {
            let end = self.pos[l.end.0 as usize];
            for (p, next) in l.phis.iter().zip(&l.nexts) {
                let (p, x) = (p.0 as usize, next.h.0 as usize);
                let d = self.demand[p];
                let identity = fill_swizzle(next.swz, d) == fill_swizzle([0, 1, 2, 3], d)
                    && !next.neg
                    && !next.abs;
                if x == p
                    || !identity
                    || self.pos[x] == usize::MAX
                    || self.pos[x] <= self.pos[l.begin.0 as usize]
                    || self.pos[x] >= end
                    || self.alias[x].is_some()
                    || self.uses[x] != 1
                    || self.demand[x] & !d != 0
                    || !(self.writes_in_place(x) || matches!(self.m.nodes[x].op, Op::Compose(_)))
                {
                    continue;
                }
                let members: Vec<usize> = order
                    .iter()
                    .copied()
                    .filter(|&k| self.root(k) == x)
                    .collect();
                let first = members
                    .iter()
                    .map(|&k| self.pos[k])
                    .min()
                    .unwrap_or(self.pos[x]);
                let compose = matches!(self.m.nodes[x].op, Op::Compose(_));
                let safe = readers[p].iter().all(|&r| {
                    r >= end
                        || r < first
                        || (r == first && single(&self.m.nodes[order[first]].op))
                        || (r == self.pos[x] && compose)
                });
                if safe {
                    self.alias[x] = Some(p);
                }
            }
        }
    }

    /// The nodes node `i` reads, a loop's variables included.
    fn node_reads(&self, i: usize) -> Vec<Handle> {
        // Only the variables with lanes to carry (the others are not emitted).
        let live = |l: &crate::ir::Loop, values: &[Operand]| -> Vec<Handle> {
            let mut out = Vec::new();
            for (p, o) in l.phis.iter().zip(values) {
                if self.demand[p.0 as usize] != 0 {
                    out.push(o.h);
                }
            }
            out
        };
        let phis = |l: &crate::ir::Loop| {
            l.phis
                .iter()
                .copied()
                .filter(|p| self.demand[p.0 as usize] != 0)
                .collect::<Vec<_>>()
        };
        match self.m.nodes[i].op {
            Op::LoopBegin(l) => {
                let l = &self.m.loops[l as usize];
                live(l, &l.inits)
            }
            Op::LoopElse(l) => {
                let l = &self.m.loops[l as usize];
                let mut v = live(l, &l.then_nexts);
                v.extend(phis(l));
                v
            }
            Op::LoopEnd(l) => {
                let l = &self.m.loops[l as usize];
                let mut v = live(l, &l.nexts);
                v.extend(phis(l));
                v
            }
            ref op => operands(op),
        }
    }

    /// The nodes whose registers node `i`'s instructions read (through folded multiplies).
    fn reads_of(&self, i: usize) -> Vec<Handle> {
        let mut out = Vec::new();
        for h in self.node_reads(i) {
            if self.absorbed[h.0 as usize] {
                out.extend(operands(&self.m.nodes[h.0 as usize].op));
            } else {
                out.push(h);
            }
        }
        // A relative read reads its index when the instruction runs (through `mova`).
        let mut k = 0;
        while k < out.len() {
            if let Op::UniformRel(_, index) = self.m.nodes[out[k].0 as usize].op {
                out.push(index.h);
            }
            k += 1;
        }
        out
    }

    fn node_code(&mut self, i: usize) -> R<()> {
        let node = self.m.nodes[i];
        let d = self.demand[i];
        match node.op {
            Op::LoopBegin(l) => return self.loop_begin(l),
            Op::LoopEnd(l) => return self.loop_end(l),
            Op::LoopElse(l) => return self.loop_else(l),
            // Its register was given at the loop's start.
            Op::Phi(..) => return Ok(()),
            _ => {}
        }
        // One instruction reads its sources before it writes: it may write lanes whose
        // values it reads last. Instructions that expand to several (`nrm`, `sincos`, `pow`,
        // `lrp`) write a register none of their sources is in, as fxc's always do.
        let single = (lanewise(&node.op)
            && !matches!(node.op, Op::Sat(_) if !self.pixel())
            && !matches!(node.op, Op::Lrp(..)))
            || matches!(
                node.op,
                Op::Dot(3 | 4, ..) | Op::Rcp(_) | Op::Rsq(_) | Op::Exp(_) | Op::Log(_)
            );
        let distinct = matches!(
            node.op,
            Op::Nrm(_) | Op::SinCos(_) | Op::Pow(..) | Op::Lrp(..)
        );
        let root = self.root(i);
        if let Some(out) = self.direct[root] {
            let dst = DstParam::new(out, WriteMask(d));
            return self.node_body(i, out, dst);
        }
        if self.slot[root].is_none() && self.group_placed(root).is_none() {
            self.place(i, root, single, distinct)?;
        }
        let (r, map) = self
            .group_placed(root)
            .ok_or_else(|| err(Code::Limit, "internal: a group has no register"))?;
        self.reg[i] = Some(r);
        self.map[i] = map;
        let dst_reg = Register::new(RT::Temp, r);
        let dst = DstParam::new(dst_reg, WriteMask(lanes_of(d, map)));
        self.node_body(i, dst_reg, dst)
    }

    /// The register and lane map of the group `root` heads, once a member has them.
    fn group_placed(&self, root: usize) -> Option<(u16, [u8; 4])> {
        if let Some(r) = self.reg[root] {
            return Some((r, self.map[root]));
        }
        self.group_home[root]
    }

    /// Gives the group `root` heads a register and lanes, at the emission of its first member
    /// `i`: the lowest register with room, lanes free or (for a single instruction) held by
    /// values `i` reads last.
    fn place(&mut self, i: usize, root: usize, single: bool, distinct: bool) -> R<()> {
        let need = self.group_lanes[root];
        let rule = self.group_rule[root];
        let p = self.pos[i];
        // Lanes `i` may take over: those of groups last read here.
        let mut dying: Vec<usize> = Vec::new();
        let mut avoid: Vec<u16> = Vec::new();
        for h in self.reads_of(i) {
            let k = h.0 as usize;
            if self.pos[k] == usize::MAX {
                continue;
            }
            let g = self.root(k);
            if let Some((r, _)) = self.slot[g] {
                avoid.push(r);
                if single && self.group_last[g] == p && !dying.contains(&g) {
                    dying.push(g);
                }
            }
        }
        if self.swizzle_bound[root] && root == i {
            return self.place_for_swizzles(i, need, &dying);
        }
        for r in 0..self.busy.len() as u16 {
            if distinct && avoid.contains(&r) {
                continue;
            }
            let mut free = !self.busy[r as usize] & 0xF;
            for &g in &dying {
                if let Some((gr, l)) = self.slot[g] {
                    if gr == r {
                        free |= l;
                    }
                }
            }
            let Some(map) = fit(need, free, rule) else {
                continue;
            };
            let lanes = lanes_of(need, map);
            for &g in &dying {
                if let Some((gr, l)) = &mut self.slot[g] {
                    if *gr == r {
                        *l &= !lanes;
                    }
                }
            }
            self.take(r, lanes);
            self.slot[root] = Some((r, lanes));
            self.group_home[root] = Some((r, map));
            return Ok(());
        }
        Err(err(Code::TooManyTemps, "out of temporary registers"))
    }

    /// The instructions of node `i`, writing `dst` (in `dst_reg`).
    fn node_body(&mut self, i: usize, dst_reg: Register, dst: DstParam) -> R<()> {
        let mut dst = dst;
        if self.saturated[i] {
            dst.modifiers = ResultModifiers(dst.modifiers.0 | ResultModifiers::SATURATE.0);
        }
        let map = self.map[i];
        let d = dst.mask.0;
        // A lane-wise instruction computes node lane `k` in register lane `map[k]`: its
        // sources are read through the inverse map.
        let op = match self.m.nodes[i].op {
            op if lanewise(&op)
                && (0..4).any(|k| self.demand[i] & (1 << k) != 0 && map[k] != k as u8) =>
            {
                let mut inv = [0u8; 4];
                for k in 0..4 {
                    if self.demand[i] & (1 << k) != 0 {
                        inv[map[k] as usize] = k as u8;
                    }
                }
                crate::ir::map_operands(op, &mut |o| o.swizzle(inv))
            }
            op => op,
        };
        match op {
            Op::Add(a, b) => {
                let mul = [a, b].into_iter().position(|o| {
                    self.absorbed[o.h.0 as usize] && matches!(self.node(o.h).op, Op::Mul(..))
                });
                if let Some(k) = mul {
                    let (m, other) = if k == 0 { (a, b) } else { (b, a) };
                    let Op::Mul(x, y) = self.node(m.h).op else {
                        unreachable!("checked")
                    };
                    let mut x = x.swizzle(m.swz);
                    let y = y.swizzle(m.swz);
                    if m.neg {
                        x = x.negate();
                    }
                    let mut s = [self.src(&x, d)?, self.src(&y, d)?, self.src(&other, d)?];
                    self.emit_legal(Opcode::Mad, dst, &mut s, &[d, d, d])?;
                } else {
                    self.binary(Opcode::Add, dst, a, b, d)?;
                }
            }
            Op::Mul(a, b) => self.binary(Opcode::Mul, dst, a, b, d)?,
            Op::Min(a, b) => self.binary(Opcode::Min, dst, a, b, d)?,
            Op::Max(a, b) => self.binary(Opcode::Max, dst, a, b, d)?,
            Op::Slt(a, b) => self.binary(Opcode::Slt, dst, a, b, d)?,
            Op::Sge(a, b) => self.binary(Opcode::Sge, dst, a, b, d)?,
            Op::Mad(a, b, c) => self.ternary(Opcode::Mad, dst, a, b, c, d)?,
            Op::Cmp(a, b, c) => self.ternary(Opcode::Cmp, dst, a, b, c, d)?,
            Op::Lrp(a, b, c) => {
                if self.has(Opcode::Lrp) {
                    self.ternary(Opcode::Lrp, dst, a, b, c, d)?;
                } else {
                    // c + a * (b - c)
                    let mut s = [self.src(&b, d)?, self.src(&c.negate(), d)?];
                    self.emit_legal(Opcode::Add, dst, &mut s, &[d, d])?;
                    let mut s = [
                        self.src(&a, d)?,
                        SrcParam::new(dst_reg, Swizzle::IDENTITY),
                        self.src(&c, d)?,
                    ];
                    self.emit_legal(Opcode::Mad, dst, &mut s, &[d, d, d])?;
                }
            }
            Op::Frc(a) if self.profile == Profile::Vs11 => {
                // vs_1_1: `expp`'s `.y` is the fraction of one lane; its `frc` writes `.y` or
                // `.xy` only (legalisation leaves one lane read from `.y`).
                let one_lane = (0..4).all(|k| a.swz[k] == a.swz[0]);
                if d == 0b0010 && one_lane {
                    self.unary(Opcode::ExpP, dst, a, 1)?;
                } else if d & 0b1100 == 0 {
                    let dd = DstParam::new(dst_reg, WriteMask(if d == 0b0010 { 2 } else { 3 }));
                    self.unary(Opcode::Frc, dd, a, dd.mask.0)?;
                } else {
                    return Err(err(
                        Code::Limit,
                        "internal: a vs_1_1 frc writes lanes past .xy",
                    ));
                }
            }
            Op::Frc(a) => self.unary(Opcode::Frc, dst, a, d)?,
            Op::Abs(a) => self.unary(Opcode::Abs, dst, a, d)?,
            Op::Dsx(a) => self.unary(Opcode::Dsx, dst, a, d)?,
            Op::Dsy(a) => self.unary(Opcode::Dsy, dst, a, d)?,
            Op::Sat(a) => {
                if self.pixel() {
                    let mut dd = dst;
                    dd.modifiers = ResultModifiers::SATURATE;
                    let mut s = [self.src(&a, d)?];
                    self.emit_legal(Opcode::Mov, dd, &mut s, &[d])?;
                } else {
                    let zero = self.literal_src(0.0)?;
                    let one = self.literal_src(1.0)?;
                    let mut s = [self.src(&a, d)?, zero];
                    self.emit_legal(Opcode::Max, dst, &mut s, &[d, d])?;
                    let mut s = [SrcParam::new(dst_reg, Swizzle::IDENTITY), one];
                    self.emit_legal(Opcode::Min, dst, &mut s, &[d, d])?;
                }
            }
            Op::Dot(n, a, b) => {
                let read = (1u8 << n) - 1;
                match n {
                    3 | 4 => {
                        let mut s = [self.src(&a, read)?, self.src(&b, read)?];
                        self.emit_legal(
                            if n == 3 { Opcode::Dp3 } else { Opcode::Dp4 },
                            dst,
                            &mut s,
                            &[read, read],
                        )?;
                    }
                    _ if self.has(Opcode::Dp2Add) => {
                        let zero = self.literal_src(0.0)?;
                        let mut s = [self.src(&a, read)?, self.src(&b, read)?, zero];
                        self.emit_legal(Opcode::Dp2Add, dst, &mut s, &[read, read, 1])?;
                    }
                    _ => {
                        let mut s = [self.src(&a, read)?, self.src(&b, read)?];
                        let tmp = DstParam::new(dst_reg, WriteMask::XY);
                        self.emit_legal(Opcode::Mul, tmp, &mut s, &[read, read])?;
                        let x = SrcParam::new(dst_reg, Swizzle::X);
                        let y = SrcParam::new(dst_reg, Swizzle::Y);
                        self.emit(Opcode::Add, dst, &[x, y]);
                    }
                }
            }
            Op::Rcp(a) => self.unary(Opcode::Rcp, dst, a, 1)?,
            Op::Rsq(a) => self.unary(Opcode::Rsq, dst, a, 1)?,
            Op::Exp(a) => self.unary(Opcode::Exp, dst, a, 1)?,
            Op::Log(a) => self.unary(Opcode::Log, dst, a, 1)?,
            Op::Pow(a, b) => {
                let mut s = [self.src(&a, 1)?, self.src(&b, 1)?];
                self.emit_legal(Opcode::Pow, dst, &mut s, &[1, 1])?;
            }
            Op::Nrm(a) => {
                let mut s = [self.src(&a, 0b0111)?];
                let mut dd = dst;
                dd.mask = WriteMask(d & 0b0111);
                self.emit_legal(Opcode::Nrm, dd, &mut s, &[0b0111])?;
            }
            Op::SinCos(a) => {
                let mut dd = dst;
                dd.mask = WriteMask(d & 0b0011);
                let src = self.src(&a, 1)?;
                if self.profile.major() >= 3 {
                    self.emit_legal(Opcode::SinCos, dd, &mut [src], &[1])?;
                } else {
                    let (c1, c2) = match self.sincos_consts {
                        Some(c) => c,
                        None => {
                            let k = self.defs.len();
                            if k + 2 > self.def_regs.len() {
                                return Err(err(
                                    Code::TooManySlots,
                                    "too many constants for the profile (uniforms and literals)",
                                ));
                            }
                            self.defs.push(SINCOS1);
                            self.def_used.push(0xF);
                            self.defs.push(SINCOS2);
                            self.def_used.push(0xF);
                            let c = (self.def_reg(k), self.def_reg(k + 1));
                            self.sincos_consts = Some(c);
                            c
                        }
                    };
                    // The series constants must stay constant registers, so an angle read
                    // from a constant (a second constant register, which a vertex
                    // instruction may not read) moves to a temporary instead of them.
                    let (src, temp) = if !self.pixel() && src.register.ty == RT::Const {
                        let m = src.modifier;
                        let (p, t) = self.copy_to_temp(
                            SrcParam {
                                modifier: SrcModifier::None,
                                ..src
                            },
                            1,
                        )?;
                        let x = Swizzle::X;
                        (
                            SrcParam {
                                modifier: m,
                                swizzle: x,
                                ..p
                            },
                            Some(t),
                        )
                    } else {
                        (src, None)
                    };
                    let s1 = SrcParam::new(Register::new(RT::Const, c1), Swizzle::IDENTITY);
                    let s2 = SrcParam::new(Register::new(RT::Const, c2), Swizzle::IDENTITY);
                    // The two series constants are the one exception to a vertex
                    // instruction's single constant register: legalise the angle alone.
                    let mut angle = [src];
                    self.legalise_swizzles(&mut angle, &[1], &mut Vec::new())?;
                    let srcs = [angle[0], s1, s2];
                    self.emit(Opcode::SinCos, dd, &srcs);
                    self.a0_claim = None;
                    for r in std::mem::take(&mut self.pending) {
                        self.release(r);
                    }
                    if let Some(t) = temp {
                        self.release(t);
                    }
                }
            }
            Op::Sample(kind, s, c, g) => self.sample(dst, kind, s, c, g)?,
            Op::Compose(parts) => self.compose(dst_reg, i, parts, self.demand[i], map)?,
            Op::Literal(_)
            | Op::Input(_)
            | Op::Uniform(_)
            | Op::UniformRel(..)
            | Op::LoopBegin(_)
            | Op::Phi(..)
            | Op::LoopEnd(_)
            | Op::LoopElse(_) => {}
        }
        Ok(())
    }

    /// The variables of loop `l` take their first values; `rep i#`.
    fn loop_begin(&mut self, l: u16) -> R<()> {
        let lp = self.m.loops[l as usize].clone();
        for (p, init) in lp.phis.iter().zip(&lp.inits) {
            if self.demand[p.0 as usize] == 0 {
                continue;
            }
            let (i, root) = (p.0 as usize, self.root(p.0 as usize));
            if self.group_placed(root).is_none() {
                self.place(i, root, false, false)?;
            }
            let (r, map) = self
                .group_placed(root)
                .ok_or_else(|| err(Code::Limit, "internal: a loop variable has no register"))?;
            self.reg[i] = Some(r);
            self.map[i] = map;
            let d = self.demand[p.0 as usize];
            let dst = DstParam::new(Register::new(RT::Temp, r), WriteMask(d));
            let mut s = [self.src(init, d)?];
            self.emit_legal(Opcode::Mov, dst, &mut s, &[d])?;
        }
        self.a0 = None;
        if lp.kind == LoopKind::IfBool {
            let b = SrcParam::new(Register::new(RT::ConstBool, lp.count), Swizzle::IDENTITY);
            let mut inst = Instruction::new(Opcode::If);
            inst.srcs = dxso::Sources::from_slice(&[b]).expect("one source");
            self.code.push(inst);
            return Ok(());
        }
        let count = SrcParam::new(Register::new(RT::ConstInt, lp.count), Swizzle::IDENTITY);
        let mut rep = Instruction::new(Opcode::Rep);
        rep.srcs = dxso::Sources::from_slice(&[count]).expect("one source");
        self.code.push(rep);
        Ok(())
    }

    /// The variables of the block under a boolean register take the first branch's values;
    /// `else`.
    fn loop_else(&mut self, l: u16) -> R<()> {
        let lp = self.m.loops[l as usize].clone();
        self.carry(&lp.phis, &lp.then_nexts)?;
        self.a0 = None;
        self.code.push(Instruction::new(Opcode::Else));
        Ok(())
    }

    /// The variables of loop `l` take their next values; `endrep` (`endif`).
    fn loop_end(&mut self, l: u16) -> R<()> {
        let lp = self.m.loops[l as usize].clone();
        self.carry(&lp.phis, &lp.nexts)?;
        self.a0 = None;
        self.code
            .push(Instruction::new(if lp.kind == LoopKind::IfBool {
                Opcode::EndIf
            } else {
                Opcode::EndRep
            }));
        Ok(())
    }

    /// Copies `nexts` into the registers of the loop variables `phis`.
    fn carry(&mut self, phis: &[Handle], nexts: &[Operand]) -> R<()> {
        let lp = crate::ir::Loop {
            count: 0,
            begin: Handle(0),
            end: Handle(0),
            phis: phis.to_vec(),
            inits: Vec::new(),
            nexts: nexts.to_vec(),
            kind: LoopKind::Rep,
            else_node: None,
            then_nexts: Vec::new(),
        };
        // A next value that is another variable of this loop is read before any is written.
        let mut srcs = Vec::new();
        let mut temps = Vec::new();
        for (k, (p, next)) in lp.phis.iter().zip(&lp.nexts).enumerate() {
            let d = self.demand[p.0 as usize];
            let (nh, ph) = (next.h.0 as usize, p.0 as usize);
            let in_place = self.reg[nh].is_some()
                && self.reg[nh] == self.reg[ph]
                && (0..4).all(|k| {
                    d & (1 << k) == 0 || self.map[nh][next.swz[k] as usize & 3] == self.map[ph][k]
                })
                && !next.neg
                && !next.abs;
            let unchanged = d == 0
                || in_place
                || next.h == *p
                    && fill_swizzle(next.swz, d) == fill_swizzle([0, 1, 2, 3], d)
                    && !next.neg
                    && !next.abs;
            if unchanged {
                srcs.push(None);
                continue;
            }
            let mut s = self.src(next, d)?;
            if lp
                .phis
                .iter()
                .enumerate()
                .any(|(j, q)| j < k && *q == next.h)
            {
                let (t, r) = self.copy_to_temp(s, d)?;
                temps.push(r);
                s = SrcParam {
                    modifier: s.modifier,
                    ..t
                };
            }
            srcs.push(Some(s));
        }
        for (p, s) in lp.phis.iter().zip(srcs) {
            let Some(s) = s else { continue };
            let d = self.demand[p.0 as usize];
            let r = self.reg[p.0 as usize]
                .ok_or_else(|| err(Code::Limit, "internal: a loop variable has no register"))?;
            let dst = DstParam::new(Register::new(RT::Temp, r), WriteMask(d));
            let mut s = [s];
            self.emit_legal(Opcode::Mov, dst, &mut s, &[d])?;
        }
        for t in temps {
            self.release(t);
        }
        Ok(())
    }

    /// Places lane-wise node `i` (of `need` lanes, ps_2_0) in the lanes of the lowest register
    /// that leave the fewest of its sources with a swizzle ps_2_0 cannot read (each such
    /// source costs a copy): `c4.zyx` read into `.yzw` is `c4.wzyx`, which it can.
    fn place_for_swizzles(&mut self, i: usize, need: u8, dying: &[usize]) -> R<()> {
        let sources = self.instruction_operands(i);
        let mut best: Option<(usize, u16, [u8; 4])> = None;
        for r in 0..self.busy.len() as u16 {
            let mut free = !self.busy[r as usize] & 0xF;
            for &g in dying {
                if let Some((gr, l)) = self.slot[g] {
                    if gr == r {
                        free |= l;
                    }
                }
            }
            for map in lane_maps(need, free) {
                let cost = sources
                    .iter()
                    .filter(|o| !self.reads_legally(o, need, map))
                    .count();
                if best.map_or(true, |b| cost < b.0) {
                    best = Some((cost, r, map));
                }
            }
            // Past the registers in use, a fresh one offers every placement.
            if best.is_some_and(|b| b.0 == 0 || r >= self.max_temp) {
                break;
            }
        }
        let (_, r, map) =
            best.ok_or_else(|| err(Code::TooManyTemps, "out of temporary registers"))?;
        let lanes = lanes_of(need, map);
        for &g in dying {
            if let Some((gr, l)) = &mut self.slot[g] {
                if *gr == r {
                    *l &= !lanes;
                }
            }
        }
        self.take(r, lanes);
        self.slot[i] = Some((r, lanes));
        self.group_home[i] = Some((r, map));
        Ok(())
    }

    /// The operands lane-wise node `i`'s instruction reads (a folded multiply's own).
    fn instruction_operands(&self, i: usize) -> Vec<Operand> {
        let mut out = Vec::new();
        crate::ir::map_operands(self.m.nodes[i].op, &mut |o| {
            if self.absorbed[o.h.0 as usize] {
                if let Op::Mul(x, y) = self.m.nodes[o.h.0 as usize].op {
                    out.push(x.swizzle(o.swz));
                    out.push(y.swizzle(o.swz));
                    return o;
                }
            }
            out.push(o);
            o
        });
        out
    }

    /// `true` when `o`, read by a lane-wise instruction computing node lanes `need` in the
    /// register lanes `map` gives, has a swizzle ps_2_0 reads (literals are placed to fit).
    fn reads_legally(&self, o: &Operand, need: u8, map: [u8; 4]) -> bool {
        let h = o.h.0 as usize;
        let at = match self.m.nodes[h].op {
            Op::Literal(_) => return true,
            Op::Input(_) | Op::Uniform(_) | Op::UniformRel(..) => [0, 1, 2, 3],
            _ => self.map[h],
        };
        let (mut swz, mut read) = ([0u8; 4], 0u8);
        for k in 0..4 {
            if need & (1 << k) != 0 {
                swz[map[k] as usize] = at[o.swz[k] as usize & 3];
                read |= 1 << map[k];
            }
        }
        ps20_fill(fill_swizzle(swz, read), read).is_some()
    }

    /// The lanes each register-sharing group writes and where it may place them: samples
    /// write whole registers (ps_2_0 and ps_2_x `texld` writes all of a temp), `nrm`,
    /// `sincos`, loop variables and vs_1_1 `frc` their own lanes; in pixel shaders before
    /// 3_0, whose swizzles are limited, a value of several lanes keeps them in place.
    fn group_rules(&mut self, order: &[usize]) {
        for &x in order {
            let root = self.root(x);
            let mut lanes = self.demand[x];
            let rule = match self.m.nodes[x].op {
                Op::Sample(..) if matches!(self.profile, Profile::Ps20 | Profile::Ps2x) => {
                    Lanes::Whole
                }
                Op::Dot(2, ..) if !self.has(Opcode::Dp2Add) => Lanes::Whole,
                Op::Sample(..) | Op::Nrm(_) | Op::SinCos(_) | Op::Phi(..) => Lanes::Identity,
                Op::Frc(_) if self.profile == Profile::Vs11 => {
                    lanes |= 0b0011;
                    Lanes::Identity
                }
                _ => Lanes::Any,
            };
            self.group_lanes[root] |= lanes;
            self.group_rule[root] = self.group_rule[root].max(rule);
        }
        let free_swizzles = self.profile.is_vertex() || self.profile == Profile::Ps30;
        let mut members = vec![0u32; self.m.nodes.len()];
        for &x in order {
            members[self.root(x)] += 1;
        }
        for &x in order {
            if !free_swizzles && self.group_lanes[x].count_ones() > 1 {
                self.swizzle_bound[x] = self.profile == Profile::Ps20
                    && self.group_rule[x] == Lanes::Any
                    && members[x] == 1
                    && lanewise(&self.m.nodes[x].op);
                self.group_rule[x] = self.group_rule[x].max(Lanes::Identity);
            }
        }
    }

    fn literal_src(&mut self, v: f32) -> R<SrcParam> {
        let (reg, swz) = self.literal_register([v.to_bits(); 4], [0; 4], 1)?;
        Ok(SrcParam::new(reg, Swizzle::replicate(swz[0])))
    }

    fn unary(&mut self, op: Opcode, dst: DstParam, a: Operand, read: u8) -> R<()> {
        let mut dst = dst;
        if read == 1 {
            // Scalar instructions: write the demanded lanes, read one.
            let mut s = [self.src(&a, 1)?];
            s[0].swizzle = Swizzle::replicate(s[0].swizzle.get(0));
            let _ = &mut dst;
            return self.emit_legal(op, dst, &mut s, &[1]);
        }
        let mut s = [self.src(&a, dst.mask.0)?];
        self.emit_legal(op, dst, &mut s, &[dst.mask.0])
    }

    fn binary(&mut self, op: Opcode, dst: DstParam, a: Operand, b: Operand, d: u8) -> R<()> {
        let mut s = [self.src(&a, d)?, self.src(&b, d)?];
        self.emit_legal(op, dst, &mut s, &[d, d])
    }

    fn ternary(
        &mut self,
        op: Opcode,
        dst: DstParam,
        a: Operand,
        b: Operand,
        c: Operand,
        d: u8,
    ) -> R<()> {
        let mut s = [self.src(&a, d)?, self.src(&b, d)?, self.src(&c, d)?];
        self.emit_legal(op, dst, &mut s, &[d, d, d])
    }

    /// A texture read into `dst` (all of its register in ps_2_0 and ps_2_x, which write
    /// nothing less; the lanes read elsewhere, other values living in the others).
    fn sample(
        &mut self,
        dst: DstParam,
        kind: SampleKind,
        s: u16,
        c: Operand,
        g: Option<(Operand, Operand)>,
    ) -> R<()> {
        let read = self.m.coordinate_lanes(kind, s);
        let mut coord = self.src(&c, read)?;
        let mut temps = Vec::new();
        let coord_ok = |p: &SrcParam, ps2: bool| {
            if !ps2 {
                return true;
            }
            let regs_ok = matches!(p.register.ty, RT::Temp | RT::Addr);
            let lanes_ok = (0..4).all(|l| read & (1 << l) == 0 || p.swizzle.get(l) == l as u8);
            regs_ok && lanes_ok && p.modifier == SrcModifier::None
        };
        let ps2 = matches!(self.profile, Profile::Ps20 | Profile::Ps2x);
        if !coord_ok(&coord, ps2) || !self.swizzle_ok(coord.swizzle) {
            let (p, t) = self.copy_to_temp(coord, read)?;
            temps.push(t);
            coord = p;
        } else if ps2 {
            coord.swizzle = Swizzle::IDENTITY;
        }
        let sampler = SrcParam::new(Register::new(RT::Sampler, s), Swizzle::IDENTITY);
        let (op, control, extra): (Opcode, u8, Vec<SrcParam>) = match kind {
            SampleKind::Plain => (Opcode::Tex, 0, vec![]),
            SampleKind::Project => (Opcode::Tex, 1, vec![]),
            SampleKind::Bias => (Opcode::Tex, 2, vec![]),
            SampleKind::Lod => (Opcode::TexLdl, 0, vec![]),
            SampleKind::Grad => {
                let (x, y) = g.expect("gradients present");
                (
                    Opcode::TexLdd,
                    0,
                    vec![self.src(&x, read & 0b0111)?, self.src(&y, read & 0b0111)?],
                )
            }
        };
        let mut srcs = vec![coord, sampler];
        srcs.extend(extra);
        let mut inst = Instruction::new(op);
        inst.control = control;
        let whole = matches!(self.profile, Profile::Ps20 | Profile::Ps2x);
        inst.dst = Some(if whole {
            DstParam::new(dst.register, WriteMask::ALL)
        } else {
            dst
        });
        inst.srcs = dxso::Sources::from_slice(&srcs).expect("at most four sources");
        self.code.push(inst);
        for t in temps {
            self.release(t);
        }
        Ok(())
    }

    /// Gathers `parts` (node lanes `d`, placed in the register lanes `map` gives) into
    /// `dst_reg`.
    fn compose(
        &mut self,
        dst_reg: Register,
        dst_index: usize,
        parts: [Option<Lane>; 4],
        d: u8,
        map: [u8; 4],
    ) -> R<()> {
        // One mov per source node (and modifier), lanes grouped; a lane already where a
        // member of the group or any value computed it needs none.
        let mut done = 0u8;
        for i in 0..4 {
            if d & (1 << i) == 0 || done & (1 << i) != 0 {
                continue;
            }
            let Some(p) = parts[i] else { continue };
            let h = p.h.0 as usize;
            let in_group = self.root(h) == self.root(dst_index) && p.lane == i as u8;
            let in_place = self.reg[h].is_some_and(|r| Register::new(RT::Temp, r) == dst_reg)
                && self.map[h][p.lane as usize & 3] == map[i];
            if self.pos[h] != usize::MAX && (in_group || in_place) && !p.neg && !p.abs {
                done |= 1 << i;
                continue;
            }
            let mut mask = 0u8;
            let mut swz = [p.lane; 4];
            let mut lanes = 0u8;
            for (k, q) in parts.iter().enumerate() {
                if let Some(q) = q {
                    if d & (1 << k) != 0
                        && done & (1 << k) == 0
                        && q.h == p.h
                        && q.neg == p.neg
                        && q.abs == p.abs
                    {
                        lanes |= 1 << k;
                        mask |= 1 << map[k];
                        swz[map[k] as usize] = q.lane;
                    }
                }
            }
            done |= lanes;
            let o = Operand {
                h: p.h,
                swz,
                neg: p.neg,
                abs: p.abs,
            };
            let src = self.src(&o, mask)?;
            if self.swizzle_ok(src.swizzle) {
                self.emit(Opcode::Mov, DstParam::new(dst_reg, WriteMask(mask)), &[src]);
            } else {
                for l in 0..4u8 {
                    if mask & (1 << l) != 0 {
                        let mut s = src;
                        s.swizzle = Swizzle::replicate(src.swizzle.get(l as usize));
                        self.emit(Opcode::Mov, DstParam::new(dst_reg, WriteMask(1 << l)), &[s]);
                    }
                }
            }
        }
        Ok(())
    }

    /// `texkill` of each kill operand. A kill tests `.xyz`, and `texkill` from ps_2_0 tests
    /// all four lanes of its register: the register is used as it is when its `.w` holds a
    /// lane another kill tests anyway, else `.xyz` are copied with `.w` repeating `.x`.
    fn kills(&mut self) -> R<()> {
        let kills = self.m.kills.clone();
        // Values whose four lanes a `texkill` of their own register has tested.
        let mut tested: Vec<Operand> = Vec::new();
        for k in &kills {
            if tested
                .iter()
                .any(|t| t.h == k.h && t.neg == k.neg && t.abs == k.abs)
            {
                continue;
            }
            let p = self.src(k, 0b0111)?;
            let h = k.h.0 as usize;
            let w_killed = kills.iter().any(|q| {
                q.h == k.h && q.neg == k.neg && q.abs == k.abs && q.swz.iter().all(|&l| l == 3)
            });
            let direct = p.register.ty == RT::Temp
                && p.modifier == SrcModifier::None
                && (0..4).all(|l| p.swizzle.get(l) == l as u8)
                && w_killed
                && self.map[h][3] == 3;
            let (reg, temp) = if direct {
                if self.map[h] == [0, 1, 2, 3] {
                    tested.push(*k);
                }
                (p.register, None)
            } else {
                let xyzx = Operand {
                    swz: [k.swz[0], k.swz[1], k.swz[2], k.swz[0]],
                    ..*k
                };
                let p = self.src(&xyzx, 0b1111)?;
                let (q, t) = self.copy_to_temp(p, 0b1111)?;
                (q.register, Some(t))
            };
            let mut inst = Instruction::new(Opcode::TexKill);
            inst.dst = Some(DstParam::new(reg, WriteMask::ALL));
            self.code.push(inst);
            if let Some(t) = temp {
                self.release(t);
            }
        }
        Ok(())
    }

    /// The register and mask each output is written to (vs_3_0 outputs declared on the way).
    fn output_targets(&mut self) -> R<Vec<(Register, WriteMask)>> {
        let mut next_o = 0u16;
        let mut targets = Vec::new();
        for out in self.m.outputs.clone() {
            let width_mask = ((1u16 << out.width) - 1) as u8;
            let target = match (self.profile, out.usage) {
                (p, DeclUsage::Color) if !p.is_vertex() => (
                    Register::new(RT::ColorOut, out.index as u16),
                    WriteMask::ALL,
                ),
                (p, DeclUsage::Depth) if !p.is_vertex() => {
                    (Register::new(RT::DepthOut, 0), WriteMask::ALL)
                }
                (p, u) if !p.is_vertex() => {
                    return Err(err(
                        Code::MissingSemantic,
                        format!(
                            "invalid ps output semantic '{}{}'",
                            u.name().to_ascii_uppercase(),
                            out.index
                        ),
                    ))
                }
                (Profile::Vs30, u) => {
                    let r = Register::new(RT::Output, next_o);
                    next_o += 1;
                    let mask = if u == DeclUsage::Position {
                        WriteMask::ALL
                    } else {
                        WriteMask(width_mask)
                    };
                    let mut dcl = Instruction::new(Opcode::Dcl);
                    dcl.dst = Some(DstParam::new(r, mask));
                    dcl.extra = Extra::Dcl(DclToken::usage(u, out.index));
                    self.dcls.push(dcl);
                    (r, mask)
                }
                (_, DeclUsage::Position) if out.index == 0 => {
                    (Register::new(RT::RastOut, 0), WriteMask::ALL)
                }
                (_, DeclUsage::Fog) => (Register::new(RT::RastOut, 1), WriteMask::X),
                (_, DeclUsage::PSize) => (Register::new(RT::RastOut, 2), WriteMask::X),
                (_, DeclUsage::Color) if out.index < 2 => (
                    Register::new(RT::AttrOut, out.index as u16),
                    WriteMask(width_mask),
                ),
                (_, DeclUsage::TexCoord) if out.index < 8 => (
                    Register::new(RT::Output, out.index as u16),
                    WriteMask(width_mask),
                ),
                (_, u) => {
                    return Err(err(
                        Code::MissingSemantic,
                        format!(
                            "invalid vs output semantic '{}{}' for {}",
                            u.name().to_ascii_uppercase(),
                            out.index,
                            self.profile
                        ),
                    ))
                }
            };
            targets.push(target);
        }
        Ok(targets)
    }

    fn outputs(&mut self) -> R<()> {
        for (k, out) in self.m.outputs.clone().into_iter().enumerate() {
            let (reg, mask) = self.targets[k];
            if self.direct[out.value.h.0 as usize].is_some() {
                // Computed in place by the instructions of its value.
                continue;
            }
            let width_mask = ((1u16 << out.width) - 1) as u8;
            let read = if mask.0 == 0xF && out.width < 4 {
                width_mask
            } else {
                mask.0
            };
            if let Op::Compose(parts) = self.m.node(out.value.h).op {
                if self.split[out.value.h.0 as usize] {
                    let lanes: [Option<Lane>; 4] =
                        std::array::from_fn(|k| parts[out.value.swz[k] as usize]);
                    self.compose(reg, out.value.h.0 as usize, lanes, mask.0, [0, 1, 2, 3])?;
                    continue;
                }
            }
            let mut src = self.src(&out.value, read)?;
            if mask.0 == 0xF && out.width < 4 {
                // Lanes past the value's width repeat its last lane.
                let s = fill_swizzle(src.swizzle.components(), width_mask);
                src.swizzle = Swizzle::new(s[0], s[1], s[2], s[3]);
            }
            let dst = DstParam::new(reg, mask);
            let mut s = [src];
            self.emit_legal(Opcode::Mov, dst, &mut s, &[mask.0])?;
        }
        Ok(())
    }

    fn finish(self) -> R<Shader> {
        let mut shader = Shader::new(self.version);
        shader.items.push(Item::Comment(Comment {
            data: self.ctab().to_words(),
        }));
        for (r, d) in self.defs.iter().enumerate() {
            let mut def = Instruction::new(Opcode::Def);
            def.dst = Some(DstParam::new(
                Register::new(RT::Const, self.def_reg(r)),
                WriteMask::ALL,
            ));
            def.extra = Extra::Def(d.map(f32::to_bits));
            shader.items.push(Item::Instruction(def));
        }
        for d in &self.dcls {
            shader.items.push(Item::Instruction(*d));
        }
        let mut samplers = self.m.samplers.clone();
        samplers.sort_by_key(|(r, _)| *r);
        for (s, tt) in samplers {
            let used = self.code.iter().any(|i| {
                i.srcs
                    .iter()
                    .any(|p| p.register == Register::new(RT::Sampler, s))
            });
            if !used {
                continue;
            }
            let mut dcl = Instruction::new(Opcode::Dcl);
            dcl.dst = Some(DstParam::new(Register::new(RT::Sampler, s), WriteMask::ALL));
            dcl.extra = Extra::Dcl(DclToken::sampler(tt));
            shader.items.push(Item::Instruction(dcl));
        }
        for i in &self.code {
            shader.items.push(Item::Instruction(*i));
        }
        let slots = dxso::slots::count(&shader);
        if let Some(profile) = dxso::validate::Profile::of(self.version) {
            let (tex_max, max) = profile.slots(false);
            if tex_max == 0 && slots.total() > max {
                return Err(err(
                    Code::TooManySlots,
                    format!(
                        "compiled shader code uses too many arithmetic instruction slots ({}). Max. allowed by the target ({}) is {max}",
                        slots.total(),
                        self.profile
                    ),
                ));
            }
        }
        let report = dxso::validate(&shader);
        if let Some(e) = report.errors().next() {
            let code = if matches!(e.rule, dxso::Rule::SlotLimit) {
                Code::TooManySlots
            } else {
                Code::Limit
            };
            return Err(err(
                code,
                format!("the generated {} does not validate: {}", self.profile, e),
            ));
        }
        Ok(shader)
    }

    fn ctab(&self) -> ConstantTable {
        let mut constants: Vec<Constant> = self
            .m
            .uniforms
            .iter()
            .filter(|u| u.used)
            .map(|u| Constant {
                name: u.name.as_str().into(),
                register_set_raw: u.set as u16,
                register_index: u.register,
                register_count: u.count,
                reserved: 0,
                ty: u.ty.clone(),
                default_value: u.default.clone(),
            })
            .collect();
        constants.sort_by(|a, b| a.name.0.cmp(&b.name.0));
        ConstantTable {
            creator: format!("dxso-hlsl {}", env!("CARGO_PKG_VERSION"))
                .as_str()
                .into(),
            version: self.version.to_token(),
            flags: 0,
            target: self.profile.to_string().as_str().into(),
            header_size: 28,
            constants,
            layout: None,
        }
    }
}

/// `true` when each lane of `op`'s result is computed from the same lane of its operands.
fn lanewise(op: &Op) -> bool {
    matches!(
        op,
        Op::Add(..)
            | Op::Mul(..)
            | Op::Mad(..)
            | Op::Min(..)
            | Op::Max(..)
            | Op::Cmp(..)
            | Op::Slt(..)
            | Op::Sge(..)
            | Op::Frc(..)
            | Op::Abs(..)
            | Op::Dsx(..)
            | Op::Dsy(..)
            | Op::Lrp(..)
            | Op::Sat(..)
    )
}

/// The swizzles ps_2_0 reads.
const PS20_SWIZZLES: [[u8; 4]; 8] = [
    [0, 1, 2, 3],
    [1, 2, 0, 3],
    [2, 0, 1, 3],
    [3, 2, 1, 0],
    [0; 4],
    [1; 4],
    [2; 4],
    [3; 4],
];

/// `sw` if ps_2_0 reads it, else a swizzle it reads agreeing on the lanes `read`.
fn ps20_fill(sw: [u8; 4], read: u8) -> Option<[u8; 4]> {
    if PS20_SWIZZLES.contains(&sw) {
        return Some(sw);
    }
    PS20_SWIZZLES
        .iter()
        .find(|c| (0..4).all(|l| read & (1 << l) == 0 || c[l] == sw[l]))
        .copied()
}

/// Every map of node lanes `need` into the `free` lanes of a register, keeping each lane in
/// place first.
fn lane_maps(need: u8, free: u8) -> Vec<[u8; 4]> {
    let lanes: Vec<usize> = (0..4).filter(|k| need & (1 << k) != 0).collect();
    let mut out = Vec::new();
    if need & !free == 0 {
        out.push([0, 1, 2, 3]);
    }
    fn go(lanes: &[usize], free: u8, map: &mut [u8; 4], out: &mut Vec<[u8; 4]>) {
        let Some((&k, rest)) = lanes.split_first() else {
            if !out.contains(map) {
                out.push(*map);
            }
            return;
        };
        for l in 0..4u8 {
            if free & (1 << l) != 0 {
                map[k] = l;
                go(rest, free & !(1 << l), map, out);
            }
        }
    }
    go(&lanes, free, &mut [0, 1, 2, 3], &mut out);
    out
}

/// The register lanes node lanes `d` take under `map`.
fn lanes_of(d: u8, map: [u8; 4]) -> u8 {
    (0..4)
        .filter(|k| d & (1 << k) != 0)
        .fold(0, |m, k| m | 1 << map[k])
}

/// A lane map placing node lanes `need` in the `free` lanes of a register under `rule`:
/// each lane in its own place when it can be, else (for `Lanes::Any`) in the free lanes in
/// order.
fn fit(need: u8, free: u8, rule: Lanes) -> Option<[u8; 4]> {
    let identity = [0, 1, 2, 3];
    match rule {
        Lanes::Whole => (free == 0xF).then_some(identity),
        _ if need & !free == 0 => Some(identity),
        Lanes::Identity => None,
        Lanes::Any => {
            if need.count_ones() > free.count_ones() {
                return None;
            }
            let mut map = identity;
            let mut lanes = (0..4u8).filter(|l| free & (1 << l) != 0);
            for (k, m) in map.iter_mut().enumerate() {
                if need & (1 << k) != 0 {
                    *m = lanes.next()?;
                }
            }
            Some(map)
        }
    }
}

/// `o` reading the value a gathered vector's lanes come from, when every lane `o` reads
/// comes from one value (with the same modifiers): no `mov` gathers them.
fn forward(nodes: &[crate::ir::Node], o: Operand) -> Operand {
    let Op::Compose(parts) = nodes[o.h.0 as usize].op else {
        return o;
    };
    let Some(first) = parts[o.swz[0] as usize & 3] else {
        return o;
    };
    let mut swz = [0u8; 4];
    for k in 0..4 {
        match parts[o.swz[k] as usize & 3] {
            Some(p) if p.h == first.h && p.neg == first.neg && p.abs == first.abs => {
                swz[k] = p.lane
            }
            _ => return o,
        }
    }
    Operand {
        h: first.h,
        swz,
        neg: if o.abs { o.neg } else { o.neg ^ first.neg },
        abs: o.abs || first.abs,
    }
}

/// The module with the gathered vectors every read of which reads lanes of one value
/// reading that value instead (`r.w = x; y = r.www` reads `x`), so none is gathered. A
/// vector some read needs stays, and the others read it too: a value gathered once can be
/// computed straight into the vector's register.
fn forward_composes(m: &Module) -> Module {
    let mut out = m.clone();
    let mut ok = vec![true; m.nodes.len()];
    {
        let mut check = |o: Operand| {
            if forward(&m.nodes, o) == o {
                ok[o.h.0 as usize] = false;
            }
            o
        };
        for node in &m.nodes {
            crate::ir::map_operands(node.op, &mut check);
        }
        for o in m
            .outputs
            .iter()
            .map(|o| o.value)
            .chain(m.kills.iter().copied())
        {
            check(o);
        }
        for l in &m.loops {
            for &o in l.inits.iter().chain(&l.nexts).chain(&l.then_nexts) {
                check(o);
            }
        }
    }
    let pass = |nodes: &[crate::ir::Node], o: Operand| {
        if ok[o.h.0 as usize] {
            forward(nodes, o)
        } else {
            o
        }
    };
    for i in 0..out.nodes.len() {
        let op = out.nodes[i].op;
        let nodes = &out.nodes;
        let op = crate::ir::map_operands(op, &mut |o| pass(nodes, o));
        out.nodes[i].op = op;
    }
    let nodes = out.nodes.clone();
    let f = |o: Operand| pass(&nodes, o);
    for o in out.outputs.iter_mut() {
        o.value = f(o.value);
    }
    for k in out.kills.iter_mut() {
        *k = f(*k);
    }
    for l in out.loops.iter_mut() {
        for o in l
            .inits
            .iter_mut()
            .chain(&mut l.nexts)
            .chain(&mut l.then_nexts)
        {
            *o = f(*o);
        }
    }
    out
}

/// The module with each saturate of a value nothing else reads folded into the instruction
/// computing it (`dp3_sat r0.x` rather than `dp3 r0.x` and `mov_sat r0.x, r0.x`): its reads
/// read the value, which is flagged (in the second vector) to be written with `_sat`. Only
/// where `_sat` exists (pixel shaders and vs_3_0) and on values one instruction computes.
fn fold_saturates(m: &Module, profile: Profile) -> (Module, Vec<bool>) {
    let mut saturated = vec![false; m.nodes.len()];
    if profile.is_vertex() && profile != Profile::Vs30 {
        return (m.clone(), saturated);
    }
    let demand = m.demand();
    let mut uses = vec![0u32; m.nodes.len()];
    let mut count = |o: Operand| {
        uses[o.h.0 as usize] += 1;
        o
    };
    for (i, node) in m.nodes.iter().enumerate() {
        if demand[i] != 0 {
            crate::ir::map_operands(node.op, &mut count);
        }
    }
    for o in m
        .outputs
        .iter()
        .map(|o| o.value)
        .chain(m.kills.iter().copied())
    {
        count(o);
    }
    for l in &m.loops {
        for &o in l.inits.iter().chain(&l.nexts).chain(&l.then_nexts) {
            count(o);
        }
    }
    let has = |op: Opcode| op.info().allowed_in(profile.version());
    let one_instruction = |op: &Op| match op {
        Op::Add(..)
        | Op::Mul(..)
        | Op::Mad(..)
        | Op::Min(..)
        | Op::Max(..)
        | Op::Dot(3 | 4, ..)
        | Op::Rcp(_)
        | Op::Rsq(_)
        | Op::Exp(_)
        | Op::Log(_)
        | Op::Pow(..)
        | Op::Nrm(_) => true,
        Op::Cmp(..) => has(Opcode::Cmp),
        Op::Lrp(..) => has(Opcode::Lrp),
        Op::Abs(_) => has(Opcode::Abs),
        Op::Dot(2, ..) => has(Opcode::Dp2Add),
        _ => false,
    };
    let mut replace: Vec<Option<Operand>> = vec![None; m.nodes.len()];
    for (i, node) in m.nodes.iter().enumerate() {
        let Op::Sat(a) = node.op else { continue };
        let x = a.h.0 as usize;
        if demand[i] == 0 || a.neg || a.abs || uses[x] != 1 || !one_instruction(&m.nodes[x].op) {
            continue;
        }
        saturated[x] = true;
        replace[i] = Some(Operand {
            neg: false,
            abs: false,
            ..a
        });
    }
    let mut out = m.clone();
    out.rewrite_operands(&mut |o| match replace[o.h.0 as usize] {
        Some(by) => crate::ir::substitute_operand(o, &[(o.h, by)]),
        None => o,
    });
    (out, saturated)
}

/// `true` when every lane of `op`'s result is the same value (the instruction replicates it).
fn replicates(op: &Op) -> bool {
    matches!(
        op,
        Op::Dot(..) | Op::Rcp(_) | Op::Rsq(_) | Op::Exp(_) | Op::Log(_) | Op::Pow(..)
    )
}

/// The module with every read of a value the same in all lanes (a dot product, `rcp`...)
/// reading one lane, its home: the lane a gathered vector places it in when one does (so it
/// can be computed straight there, `dp4 r0.y`), else the lowest lane read. Such a value then
/// takes one lane of a register instead of as many as its readers read.
fn replicated_reads(m: &Module, profile: Profile) -> Module {
    let demand = m.demand();
    // Same in every lane: a replicating instruction, or a lane-wise one whose operands each
    // read one lane (or such a value, or a literal the same in the lanes read).
    let mut same = vec![false; m.nodes.len()];
    for (i, node) in m.nodes.iter().enumerate() {
        let w = node.width.clamp(1, 4) as usize;
        let mut all = true;
        crate::ir::map_operands(node.op, &mut |o| {
            let h = o.h.0 as usize;
            let literal = (0..w).all(|k| {
                m.literal_lane(o, k).is_some_and(|v| {
                    m.literal_lane(o, 0)
                        .is_some_and(|v0| v.to_bits() == v0.to_bits())
                })
            });
            all &= same[h] || o.swz[..w].iter().all(|&l| l == o.swz[0]) || literal;
            o
        });
        same[i] = replicates(&node.op) || (lanewise(&node.op) && all);
    }
    let replicates = |i: usize| same[i];
    // vs_1_1 computes one fraction in `.y` in one slot (`expp`): that is its home.
    let expp = |i: usize| profile == Profile::Vs11 && matches!(m.nodes[i].op, Op::Frc(_));
    let mut home: Vec<Option<u8>> = vec![None; m.nodes.len()];
    for (i, node) in m.nodes.iter().enumerate() {
        if demand[i] == 0 {
            continue;
        }
        if let Op::Compose(parts) = node.op {
            for (k, p) in parts.iter().enumerate() {
                if let Some(p) = p {
                    let h = p.h.0 as usize;
                    if demand[i] & (1 << k) != 0 && replicates(h) && home[h].is_none() && !expp(h) {
                        home[h] = Some(k as u8);
                    }
                }
            }
        }
    }
    for i in 0..m.nodes.len() {
        if home[i].is_none() && demand[i] != 0 && replicates(i) {
            home[i] = Some(if expp(i) {
                1
            } else {
                demand[i].trailing_zeros() as u8
            });
        }
    }
    let mut out = m.clone();
    out.rewrite_operands(&mut |o| match home[o.h.0 as usize] {
        Some(l) => Operand { swz: [l; 4], ..o },
        None => o,
    });
    out
}

/// Fills the lanes of a swizzle that are not read so it stays simple: a replicate when one
/// lane is read (or all read lanes are the same), else each unread lane its own index.
fn fill_swizzle(swz: [u8; 4], read: u8) -> [u8; 4] {
    let lanes: Vec<u8> = (0..4)
        .filter(|l| read & (1 << l) != 0)
        .map(|l| swz[l as usize])
        .collect();
    if let Some(&first) = lanes.first() {
        if lanes.iter().all(|&x| x == first) {
            return [first; 4];
        }
    }
    let mut out = swz;
    let mut last = 0;
    for l in 0..4 {
        if read & (1 << l) != 0 {
            out[l] = swz[l];
            last = swz[l];
        } else {
            // Prefer identity, which keeps ps_2_0 swizzles legal.
            out[l] = if (0..4).all(|k| read & (1 << k) == 0 || swz[k] == k as u8) {
                l as u8
            } else {
                last
            };
        }
    }
    out
}

trait MaskExt {
    fn max_xy(self) -> WriteMask;
}

impl MaskExt for WriteMask {
    fn max_xy(self) -> WriteMask {
        WriteMask(self.0 & 0b0011 | if self.0 == 0 { 3 } else { 0 })
    }
}
