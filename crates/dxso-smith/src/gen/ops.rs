//! One instruction at a time, for vertex shaders and ps_2_0+: arithmetic (every opcode with the
//! operand rules of Microsoft's token documentation and each version), texture sampling, `texkill`, `setp`, writes of
//! the address register, and the end-of-main writes that make every output defined.

use super::operands::{
    DstPick, DstReq, MaskRule, Picked, Ports, SrcReq, Swz, Target, F_CONST, F_INPUT, F_TCOORD,
    F_TEMP, F_VALUE,
};
use super::{Ctx, Gen};
use dxso::validate::Profile;
use dxso::{
    DstParam, Instruction, Opcode, Register, RegisterType, ResultModifiers, SrcModifier, SrcParam,
    Swizzle, TexldMode, TextureType, WriteMask,
};

/// How a source's lanes follow from the destination.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Lanes {
    /// The lanes the destination writes.
    Mask,
    /// `lit`: x for result y or z; y and w for result z.
    LitSrc,
    /// `dst` source 0 (y for result y, z for result z) or 1 (y for y, w for w).
    DstSrc(u8),
    Fixed(u8),
    Replicate,
    /// A matrix of this many rows (`m4x4` and friends).
    Matrix(u16),
    /// shader model 2 `sincos` series constant 0 or 1.
    SinCosConst(u8),
    /// `sgn`'s scratch temps (2_x form).
    Scratch,
}

/// The destination rule and sources of an arithmetic opcode in this version, or `None` when the
/// generator does not build it here.
fn shape(op: Opcode, p: Profile) -> Option<(MaskRule, Vec<Lanes>)> {
    use Lanes::*;
    use Opcode::*;
    let sm3 = p.is_sm3();
    let any = MaskRule::Any;
    Some(match op {
        Mov | Abs | Dsx | Dsy => (any, vec![Mask]),
        Add | Sub | Mul | Min | Max | Slt | Sge => (any, vec![Mask, Mask]),
        Mad | Lrp | Cmp => (any, vec![Mask, Mask, Mask]),
        Rcp | Rsq | Exp | Log | ExpP | LogP => (any, vec![Replicate]),
        Frc if p == Profile::Vs11 => (MaskRule::OneOf(&[0x2, 0x3]), vec![Mask]),
        Frc => (any, vec![Mask]),
        Dp3 => (any, vec![Fixed(0x7), Fixed(0x7)]),
        Dp4 => (any, vec![Fixed(0xF), Fixed(0xF)]),
        Lit => (any, vec![LitSrc]),
        Dst => (any, vec![DstSrc(0), DstSrc(1)]),
        M4x4 => (MaskRule::Exact(0xF), vec![Fixed(0xF), Matrix(4)]),
        M4x3 => (MaskRule::Exact(0x7), vec![Fixed(0xF), Matrix(3)]),
        M3x4 => (MaskRule::Exact(0xF), vec![Fixed(0x7), Matrix(4)]),
        M3x3 => (MaskRule::Exact(0x7), vec![Fixed(0x7), Matrix(3)]),
        M3x2 => (MaskRule::Exact(0x3), vec![Fixed(0x7), Matrix(2)]),
        Pow => (any, vec![Replicate, Replicate]),
        Crs => (MaskRule::Within(0x7), vec![Fixed(0x7), Fixed(0x7)]),
        Sgn if sm3 => (any, vec![Mask]),
        Sgn => (any, vec![Mask, Scratch, Scratch]),
        Nrm => (MaskRule::Exact(0x7), vec![Fixed(0x7)]),
        SinCos if sm3 => (MaskRule::Within(0x3), vec![Replicate]),
        SinCos => (
            MaskRule::Within(0x3),
            vec![Replicate, SinCosConst(0), SinCosConst(1)],
        ),
        Dp2Add => (any, vec![Fixed(0x3), Fixed(0x3), Replicate]),
        _ => return None,
    })
}

/// Macros expand to several instructions: their destination must differ from their sources, and
/// they are not predicated.
pub(crate) fn is_macro(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        M4x4 | M4x3 | M3x4 | M3x3 | M3x2 | Crs | Nrm | SinCos | Sgn | Pow
    )
}

/// Operations whose results engines approximate differently.
pub(crate) fn is_transcendental(op: Opcode) -> bool {
    use Opcode::*;
    matches!(op, Exp | Log | ExpP | LogP | Pow | SinCos | Lit)
}

/// Operations that can turn finite values into infinities or NaN.
pub(crate) fn can_overflow(op: Opcode) -> bool {
    use Opcode::*;
    matches!(op, Rcp | Rsq | Log | LogP | Pow | Nrm | Lit)
}

/// The magnitude bound of an operation's result from its sources' bounds.
pub(crate) fn result_bound(op: Opcode, b: &[f32]) -> f32 {
    use Opcode::*;
    let g = |i: usize| b.get(i).copied().unwrap_or(0.0);
    match op {
        Mov | Abs | Min | Max => b.iter().fold(0.0, |m: f32, x| m.max(*x)),
        Add | Sub => g(0) + g(1),
        Mul => g(0) * g(1),
        Mad => g(0) * g(1) + g(2),
        Lrp => g(0) * (g(1) + g(2)) + g(2),
        Cmp | Cnd => g(1).max(g(2)),
        Slt | Sge | Sgn | Frc | SinCos => 1.0,
        Dp3 | M3x3 | M3x2 | M3x4 => 3.0 * g(0) * g(1),
        Dp4 | M4x4 | M4x3 => 4.0 * g(0) * g(1),
        Dp2Add => 2.0 * g(0) * g(1) + g(2),
        Crs => 2.0 * g(0) * g(1),
        Dst => (g(0) * g(1)).max(1.0),
        Exp | ExpP => {
            if g(0) > 126.0 {
                f32::INFINITY
            } else {
                g(0).exp2()
            }
        }
        Dsx | Dsy => 2.0 * g(0),
        _ => f32::INFINITY,
    }
}

/// A built instruction and what it writes, not yet applied to the state.
pub(crate) struct Built {
    pub inst: Instruction,
    pub target: Target,
    pub mask: u8,
    pub bound: f32,
    pub dep: u8,
    pub definite: bool,
    /// Temps the instruction leaves undefined (`sgn` scratch).
    pub clobbers: u32,
}

const NEG: &[SrcModifier] = &[SrcModifier::Neg];
const NEG_ABS: &[SrcModifier] = &[SrcModifier::Neg, SrcModifier::Abs, SrcModifier::AbsNeg];

impl Gen<'_, '_> {
    /// Source modifiers shader model 2+ and vertex shaders allow.
    pub(crate) fn value_mods(&self) -> &'static [SrcModifier] {
        if !self.cfg.source_modifiers {
            &[]
        } else if self.p.is_sm3() {
            NEG_ABS
        } else {
            NEG
        }
    }

    /// The arithmetic opcodes this program may use.
    pub(crate) fn arith_ops(&self) -> Vec<Opcode> {
        use Opcode::*;
        let all = [
            Mov, Add, Sub, Mad, Mul, Rcp, Rsq, Dp3, Dp4, Min, Max, Slt, Sge, Exp, Log, Lit, Dst,
            Lrp, Frc, M4x4, M4x3, M3x4, M3x3, M3x2, Pow, Crs, Sgn, Abs, Nrm, SinCos, ExpP, LogP,
            Cmp, Dp2Add,
        ];
        all.into_iter()
            .filter(|&op| self.allowed(op))
            .filter(|&op| op == Mov || self.cfg.arithmetic)
            .filter(|&op| self.cfg.transcendentals || !is_transcendental(op))
            .filter(|&op| !self.finite() || !can_overflow(op))
            .filter(|&op| op != SinCos || self.v.major >= 3 || self.sincos_consts.is_some())
            .collect()
    }

    /// `_sat` and `_pp` for a destination.
    fn result_mods(&mut self, op: Opcode, reg: Register) -> ResultModifiers {
        let mut m = ResultModifiers::NONE;
        if !self.cfg.result_modifiers {
            return m;
        }
        use Profile::*;
        let sat_version = !matches!(self.p, Vs11 | Vs20 | Vs2x);
        // ps_2_0/ps_2_x outputs take no _sat; frc and sincos never do.
        let ps2_output = matches!(self.p, Ps20 | Ps2x)
            && matches!(reg.ty, RegisterType::ColorOut | RegisterType::DepthOut);
        let sat_op = !matches!(op, Opcode::Frc | Opcode::SinCos) && !ps2_output;
        if sat_version && sat_op && self.chance(1, 6) {
            m = m.union(ResultModifiers::SATURATE);
        }
        if matches!(self.p, Ps20 | Ps2x | Ps30) && self.chance(1, 6) {
            m = m.union(ResultModifiers::PARTIAL_PRECISION);
        }
        m
    }

    /// An optional predicate for an instruction writing `mask`.
    fn predicate(&mut self, op: Opcode, mask: u8) -> Option<SrcParam> {
        if !self.cfg.predication || !self.p.has_predicate() || self.st.pred == 0 || is_macro(op) {
            return None;
        }
        if !self.chance(1, 6) {
            return None;
        }
        let sw = if self.st.pred & mask == mask && self.chance(1, 2) {
            Swizzle::IDENTITY
        } else {
            let comps: Vec<u8> = (0..4).filter(|c| self.st.pred & (1 << c) != 0).collect();
            Swizzle::replicate(self.pick(&comps))
        };
        let mut p = SrcParam::new(Register::new(RegisterType::Predicate, 0), sw);
        if self.chance(1, 3) {
            p.modifier = SrcModifier::Not;
        }
        Some(p)
    }

    /// Builds arithmetic `op` (to `forced` when given); `None` when no operands fit here.
    pub(crate) fn build_arith(
        &mut self,
        ctx: &Ctx,
        op: Opcode,
        forced: Option<DstPick>,
    ) -> Option<Built> {
        let (rule, lanes) = shape(op, self.p)?;
        let macro_op = is_macro(op) || (op == Opcode::Lrp && self.p.is_vertex());
        let temp_only = op == Opcode::SinCos;
        let dst = match forced {
            Some(d) => d,
            None => self.pick_dst(
                ctx,
                &if temp_only {
                    DstReq::temp(rule)
                } else {
                    DstReq::value(rule)
                },
            )?,
        };
        let mask = dst.mask();
        let exclude = if macro_op {
            dst.temp().map_or(0, |r| 1u32 << r)
        } else {
            0
        };
        let mods = self.value_mods();
        let mut ports = Ports::default();
        let mut picked: Vec<Picked> = Vec::new();
        let mut scratch: Vec<u16> = Vec::new();
        for (i, l) in lanes.iter().enumerate() {
            let p = match *l {
                Lanes::Mask => {
                    self.pick_src(&SrcReq::value(mask).exclude(exclude).mods(mods), &mut ports)?
                }
                Lanes::LitSrc | Lanes::DstSrc(_) => {
                    let lanes = match *l {
                        Lanes::LitSrc => {
                            let x = if mask & 0x6 != 0 { 0x1 } else { 0 };
                            x | if mask & 0x4 != 0 { 0xA } else { 0 }
                        }
                        Lanes::DstSrc(0) => mask & 0x6,
                        _ => mask & 0xA,
                    };
                    self.pick_src(
                        &SrcReq::value(lanes).exclude(exclude).mods(mods),
                        &mut ports,
                    )?
                }
                Lanes::Fixed(m) => {
                    self.pick_src(&SrcReq::value(m).exclude(exclude).mods(mods), &mut ports)?
                }
                Lanes::Replicate => {
                    // sincos's argument is not a constant: its series constants use the port.
                    let files = if op == Opcode::SinCos && self.v.major == 2 {
                        F_TEMP | F_INPUT
                    } else {
                        F_VALUE
                    };
                    let req = SrcReq::replicate().files(files).exclude(exclude).mods(mods);
                    self.pick_src(&req, &mut ports)?
                }
                Lanes::Matrix(rows) => {
                    let mut ex = exclude;
                    if let Some(r) = dst.temp() {
                        // No row may be the destination.
                        for k in 0..rows {
                            if r >= k {
                                ex |= 1 << (r - k);
                            }
                        }
                    }
                    self.pick_matrix(rows, ex, &mut ports)?
                }
                Lanes::SinCosConst(k) => {
                    let (a, b) = self.sincos_consts?;
                    let n = if k == 0 { a } else { b };
                    self.rec.fconsts.insert(n);
                    Picked {
                        src: SrcParam::new(
                            Register::new(RegisterType::Const, n as u16),
                            Swizzle::IDENTITY,
                        ),
                        bound: 1.0,
                        dep: 0,
                    }
                }
                Lanes::Scratch => {
                    // Written temps other than the destination and the value source.
                    let mut busy = exclude;
                    if let Some(s) = picked.first() {
                        if s.src.register.ty == RegisterType::Temp {
                            busy |= 1 << s.src.register.num;
                        }
                    }
                    let free: Vec<u16> = (0..self.temp_count())
                        .filter(|&r| {
                            self.st.temp[r as usize] & mask == mask && busy & (1 << r) == 0
                        })
                        .collect();
                    if free.is_empty() {
                        return None;
                    }
                    let r = if i == 2 && self.chance(1, 2) {
                        scratch[0]
                    } else {
                        self.pick(&free)
                    };
                    scratch.push(r);
                    Picked {
                        src: SrcParam::new(Register::new(RegisterType::Temp, r), Swizzle::IDENTITY),
                        bound: 0.0,
                        dep: 0,
                    }
                }
            };
            picked.push(p);
        }
        let bounds: Vec<f32> = picked.iter().map(|p| p.bound).collect();
        if op == Opcode::SinCos && self.finite() && bounds[0] > std::f32::consts::PI {
            return None;
        }
        let mut bound = result_bound(op, &bounds);
        let mut param = dst.param;
        param.modifiers = self.result_mods(op, param.register);
        if param.modifiers.saturate() {
            bound = bound.min(1.0);
        }
        if self.finite() && bounds.iter().any(|b| !b.is_finite()) {
            return None;
        }
        if !self.write_ok(dst.target, bound) {
            return None;
        }
        let mut inst = Instruction::new(op);
        inst.dst = Some(param);
        for p in &picked {
            let _ = inst.srcs.push(p.src);
        }
        let pred = if forced.is_none() && !matches!(op, Opcode::Dsx | Opcode::Dsy) {
            self.predicate(op, mask)
        } else {
            None
        };
        let definite = pred.is_none();
        inst.predicate = pred;
        let dep = picked.iter().map(|p| p.dep).max().unwrap_or(0);
        let clobbers = scratch.iter().fold(0u32, |m, r| m | 1 << r);
        Some(Built {
            inst,
            target: dst.target,
            mask,
            bound,
            dep,
            definite,
            clobbers,
        })
    }

    /// Applies a built instruction to the state and emits it.
    pub(crate) fn commit(&mut self, ctx: &Ctx, b: Built) {
        let op = b.inst.opcode;
        self.commit_write(b.target, b.mask, b.bound, b.dep, b.definite);
        for r in 0..32 {
            if b.clobbers & (1 << r) != 0 {
                self.st.temp[r] = 0;
            }
        }
        if matches!(op, Opcode::Dsx | Opcode::Dsy)
            || (op == Opcode::Tex && b.inst.control <= 2 && !self.v.is_sm1())
        {
            self.func.gradients = true;
        }
        self.emit(b.inst, ctx.iterations);
    }

    /// Emits one arithmetic instruction of a random opcode; `false` when none fit.
    pub(crate) fn arith(&mut self, ctx: &Ctx) -> bool {
        let ops = self.arith_ops();
        for _ in 0..6 {
            let op = self.pick(&ops);
            if matches!(op, Opcode::Dsx | Opcode::Dsy) {
                continue;
            }
            if !self.affords(op) {
                continue;
            }
            let snapshot = self.snapshot();
            match self.build_arith(ctx, op, None) {
                Some(b) => {
                    self.commit(ctx, b);
                    return true;
                }
                None => self.restore(snapshot),
            }
        }
        false
    }

    /// `dsx`/`dsy` (ps_2_x, ps_3_0), outside divergent control flow.
    pub(crate) fn derivative(&mut self, ctx: &Ctx) -> bool {
        let op = if self.chance(1, 2) {
            Opcode::Dsx
        } else {
            Opcode::Dsy
        };
        if !self.cfg.derivatives || !self.allowed(op) || !self.affords(op) {
            return false;
        }
        if ctx.dynamic && !self.cfg.gradients_in_dynamic_flow {
            return false;
        }
        let snapshot = self.snapshot();
        match self.build_arith(ctx, op, None) {
            Some(b) => {
                self.commit(ctx, b);
                true
            }
            None => {
                self.restore(snapshot);
                false
            }
        }
    }

    /// What a failed attempt must undo (sources record reads as they are picked).
    pub(crate) fn snapshot(&self) -> (super::Record, Vec<super::state::LoopFrame>, bool) {
        (self.rec.clone(), self.loops.clone(), self.func.uses_al)
    }

    pub(crate) fn restore(&mut self, s: (super::Record, Vec<super::state::LoopFrame>, bool)) {
        self.rec = s.0;
        self.loops = s.1;
        self.func.uses_al = s.2;
    }

    /// `setp_cc p0.mask, a, b`.
    pub(crate) fn setp(&mut self, ctx: &Ctx) -> bool {
        if !self.cfg.predication || !self.allowed(Opcode::SetP) || !self.affords(Opcode::SetP) {
            return false;
        }
        let snapshot = self.snapshot();
        let mask = if self.cfg.write_masks {
            self.sub_mask(0xF)
        } else {
            0xF
        };
        let mods = self.value_mods();
        let mut ports = Ports::default();
        let a = self.pick_src(&SrcReq::value(mask).mods(mods), &mut ports);
        let b = self.pick_src(&SrcReq::value(mask).mods(mods), &mut ports);
        let (Some(a), Some(b)) = (a, b) else {
            self.restore(snapshot);
            return false;
        };
        let mut inst = Instruction::new(Opcode::SetP);
        inst.control = self.range(1, 6) as u8;
        inst.dst = Some(DstParam::new(
            Register::new(RegisterType::Predicate, 0),
            WriteMask(mask),
        ));
        let _ = inst.srcs.push(a.src);
        let _ = inst.srcs.push(b.src);
        self.st.pred |= mask;
        self.emit(inst, ctx.iterations);
        true
    }

    /// `mova a0.mask, c` (vs_2_0+) or `mov a0.x, c` (vs_1_1) from the address constant.
    pub(crate) fn write_address(&mut self, ctx: &Ctx) -> bool {
        let Some(c) = self.addr_const else {
            return false;
        };
        let vs11 = self.p == Profile::Vs11;
        let op = if vs11 { Opcode::Mov } else { Opcode::MovA };
        if !self.affords(op) {
            return false;
        }
        let mask = if vs11 {
            0x1
        } else if self.cfg.write_masks {
            self.sub_mask(0xF)
        } else {
            0xF
        };
        let Some(sw) = self.pick_swizzle(0xF, mask, Swz::Any, false) else {
            return false;
        };
        self.rec.fconsts.insert(c);
        let mut inst = Instruction::new(op);
        inst.dst = Some(DstParam::new(
            Register::new(RegisterType::Addr, 0),
            WriteMask(mask),
        ));
        let _ = inst.srcs.push(SrcParam::new(
            Register::new(RegisterType::Const, c as u16),
            sw,
        ));
        self.st.addr |= mask;
        self.emit(inst, ctx.iterations);
        true
    }

    fn coord_lanes(ty: TextureType) -> u8 {
        match ty {
            TextureType::Cube | TextureType::Volume => 0x7,
            _ => 0x3,
        }
    }

    /// `texld`/`texldp`/`texldb` (ps_2_0+), `texldl` (vs_3_0, ps_3_0), `texldd` (ps_2_x, ps_3_0).
    pub(crate) fn texture(&mut self, ctx: &Ctx) -> bool {
        if !self.cfg.textures || self.samplers.is_empty() {
            return false;
        }
        let mut ops = Vec::new();
        let gradients_ok = !ctx.dynamic || self.cfg.gradients_in_dynamic_flow;
        if self.v.is_pixel() && gradients_ok {
            ops.push(0u8);
            ops.push(2);
            if !self.finite() {
                ops.push(1);
            }
        }
        if self.allowed(Opcode::TexLdl) {
            ops.push(3);
        }
        if self.allowed(Opcode::TexLdd) {
            ops.push(4);
        }
        if ops.is_empty() {
            return false;
        }
        let kind = self.pick(&ops);
        let op = match kind {
            0..=2 => Opcode::Tex,
            3 => Opcode::TexLdl,
            _ => Opcode::TexLdd,
        };
        if !self.affords(op) {
            return false;
        }
        let (s, ty) = self.pick(&self.samplers.clone());
        let dims = Self::coord_lanes(ty);
        let sm20 = matches!(self.p, Profile::Ps20 | Profile::Ps2x);
        let snapshot = self.snapshot();
        let result = (|| {
            let mut ports = Ports::default();
            let coord_lanes = match kind {
                1..=3 => dims | 0x8,
                _ => dims,
            };
            let coord = if op == Opcode::Tex && sm20 {
                // ps_2_0/ps_2_x: t# or r#, no swizzle, no modifier.
                let req = SrcReq::value(coord_lanes)
                    .files(F_TEMP | F_TCOORD)
                    .identity()
                    .no_relative();
                self.pick_src(&req, &mut ports)?
            } else {
                let req = SrcReq::value(coord_lanes)
                    .files(F_TEMP | F_INPUT)
                    .no_relative();
                self.pick_src(&req, &mut ports)?
            };
            if sm20 && op == Opcode::Tex && coord.dep >= 3 {
                // At most four levels of dependent reads.
                return None;
            }
            let rule = if sm20 && op == Opcode::Tex {
                MaskRule::Exact(0xF)
            } else {
                MaskRule::Any
            };
            let dst = self.pick_dst(ctx, &DstReq::temp(rule))?;
            let mut inst = Instruction::new(op);
            inst.control = match kind {
                1 => TexldMode::Project.control(),
                2 => TexldMode::Bias.control(),
                _ => 0,
            };
            let mut param = dst.param;
            if self.cfg.result_modifiers && self.v.is_pixel() && self.chance(1, 6) {
                param.modifiers = ResultModifiers::PARTIAL_PRECISION;
            }
            inst.dst = Some(param);
            let _ = inst.srcs.push(coord.src);
            let _ = inst.srcs.push(SrcParam::new(
                Register::new(RegisterType::Sampler, s),
                Swizzle::IDENTITY,
            ));
            if op == Opcode::TexLdd {
                for _ in 0..2 {
                    let g = self.pick_src(
                        &SrcReq::value(dims).files(F_VALUE).no_relative(),
                        &mut ports,
                    )?;
                    let _ = inst.srcs.push(g.src);
                }
            }
            Some((inst, dst, coord.dep))
        })();
        let Some((inst, dst, dep)) = result else {
            self.restore(snapshot);
            return false;
        };
        self.record_sampler(s, ty, true);
        let mask = dst.mask();
        self.commit(
            ctx,
            Built {
                inst,
                target: dst.target,
                mask,
                bound: self.cfg.input_bound,
                dep: dep + 1,
                definite: true,
                clobbers: 0,
            },
        );
        true
    }

    /// `texkill` of a fully written temp, or of a fully declared `t#` (ps_2_x) or `v#` (ps_3_0).
    pub(crate) fn texkill(&mut self, ctx: &Ctx) -> bool {
        if !self.cfg.discard || !self.v.is_pixel() || !self.affords(Opcode::TexKill) {
            return false;
        }
        let mut regs: Vec<Register> = (0..self.temp_count())
            .filter(|&r| self.st.temp[r as usize] == 0xF)
            .map(|r| Register::new(RegisterType::Temp, r))
            .collect();
        for s in &self.inputs {
            let ok = match s.register.ty {
                RegisterType::Addr => true,
                RegisterType::Input => self.p == Profile::Ps30,
                _ => false,
            };
            if ok && s.mask == 0xF {
                regs.push(s.register);
            }
        }
        if regs.is_empty() {
            return false;
        }
        let reg = self.pick(&regs);
        if reg.ty != RegisterType::Temp {
            self.record_input(reg, 0x7);
        }
        let mut inst = Instruction::new(Opcode::TexKill);
        inst.dst = Some(DstParam::new(reg, WriteMask::ALL));
        self.rec.discard = true;
        self.func.discards = true;
        self.emit(inst, ctx.iterations);
        true
    }

    /// Writes every output component not yet written on every path (end of `main`, top level).
    pub(crate) fn epilogue(&mut self, ctx: &Ctx) {
        for s in 0..self.outputs.len() {
            let slot = self.outputs[s].clone();
            let missing = slot.mask & !self.st.out[s];
            if missing == 0 {
                continue;
            }
            let reg = slot.register;
            let mut param = DstParam::new(reg, WriteMask(missing));
            let pick = DstPick {
                target: Target::Output(s),
                param,
            };
            if !slot.epilogue_only && self.cfg.arithmetic && self.chance(1, 2) {
                let ops: Vec<Opcode> = self
                    .arith_ops()
                    .into_iter()
                    .filter(|op| {
                        matches!(
                            op,
                            Opcode::Add | Opcode::Mul | Opcode::Mad | Opcode::Min | Opcode::Max
                        )
                    })
                    .collect();
                if !ops.is_empty() {
                    let op = self.pick(&ops);
                    let snapshot = self.snapshot();
                    if let Some(b) = self.build_arith(ctx, op, Some(pick)) {
                        self.commit(ctx, b);
                        continue;
                    }
                    self.restore(snapshot);
                }
            }
            // mov: always possible from a constant. Scalar outputs read one component.
            let scalar = reg.ty == RegisterType::DepthOut
                || (reg.ty == RegisterType::RastOut && reg.num >= 1);
            let req = if scalar {
                SrcReq::replicate().no_relative()
            } else {
                SrcReq::value(missing).no_relative()
            };
            let mut ports = Ports::default();
            let src = self.pick_src(&req, &mut ports).or_else(|| {
                let mut ports = Ports::default();
                self.pick_src(&req.files(F_CONST), &mut ports)
            });
            let src = match src {
                Some(p) if self.write_ok(Target::Output(s), p.bound) => p.src,
                _ => {
                    // A constant the program defines as zero keeps the output finite.
                    let c = self.zero_const();
                    SrcParam::new(Register::new(RegisterType::Const, c as u16), Swizzle::X)
                }
            };
            param.modifiers = ResultModifiers::NONE;
            if !slot.epilogue_only {
                param.modifiers = self.result_mods(Opcode::Mov, reg);
            }
            let mut inst = Instruction::new(Opcode::Mov);
            inst.dst = Some(param);
            let _ = inst.srcs.push(src);
            self.st.out[s] |= missing;
            self.emit(inst, ctx.iterations);
        }
    }

    /// A float constant defined as zero (defining one when needed).
    pub(crate) fn zero_const(&mut self) -> u32 {
        let zero = [0u32; 4];
        if let Some((&i, _)) = self.fdefs.iter().find(|(_, v)| **v == zero) {
            self.rec.fconsts.insert(i);
            return i;
        }
        let i = self.free_const().unwrap_or(0);
        self.fdefs.insert(i, zero);
        self.rec.fconsts.insert(i);
        i
    }
}
