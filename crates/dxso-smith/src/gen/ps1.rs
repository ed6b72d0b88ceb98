//! ps_1_1-ps_1_4 programs, which have a fixed layout: texture-address instructions first (each
//! ps_1_1-ps_1_3 texture register written once, from lower registers, with the `texm3x2`/`texm3x3`
//! sequences on consecutive registers), then at most eight arithmetic slots with co-issued pairs,
//! result shifts and the ps_1_x source modifiers; ps_1_4 may split this into two phases, where
//! temps lose their alpha at the `phase` and phase 2 texture loads may read phase 1 results.
//! The result is `r0`, written whole by the end.

use super::operands::{DstReq, MaskRule, Ports, SrcReq, Target, F_VALUE};
use super::ops::result_bound;
use super::{Ctx, Gen, InputSlot};
use dxso::validate::Profile;
use dxso::{
    DstParam, Instruction, Opcode, Register, RegisterType, ResultModifiers, Shift, SrcModifier,
    SrcParam, Swizzle, TextureType, WriteMask,
};

/// The ps_1_x source modifiers: ps_1_1-ps_1_3 take the first six, ps_1_4 all.
const PS1_MODS: &[SrcModifier] = &[
    SrcModifier::Neg,
    SrcModifier::Bias,
    SrcModifier::BiasNeg,
    SrcModifier::Sign,
    SrcModifier::SignNeg,
    SrcModifier::Comp,
    SrcModifier::X2,
    SrcModifier::X2Neg,
];
const NEG_ONLY: &[SrcModifier] = &[SrcModifier::Neg];

impl Gen<'_, '_> {
    /// The whole ps_1_x program.
    pub(crate) fn program_ps1(&mut self) -> Vec<Instruction> {
        for n in 0..2 {
            self.inputs.push(InputSlot {
                register: Register::new(RegisterType::Input, n),
                mask: 0xF,
                usage: None,
                centroid: false,
            });
        }
        self.setup_outputs();
        self.define_floats(4);
        let ctx = Ctx::main();
        if self.p == Profile::Ps14 {
            let two_phases = self.chance(1, 2);
            if two_phases {
                self.phase2 = false;
                self.section(&ctx, false);
                self.emit(Instruction::new(Opcode::Phase), 1);
                self.phase2 = true;
                // Temps lose their alpha at the phase.
                for r in 0..super::state::TEMPS {
                    self.st.temp[r] &= 0x7;
                }
            }
            self.section(&ctx, true);
        } else {
            self.section(&ctx, true);
        }
        std::mem::take(&mut self.out)
    }

    /// One texture section and one arithmetic section (a ps_1_4 phase, or all of ps_1_1-ps_1_3).
    fn section(&mut self, ctx: &Ctx, last: bool) {
        let (tex, arith) = self.p.slots(false);
        self.budget.tex_slots = tex;
        self.budget.slots = arith;
        if self.cfg.textures || self.cfg.discard {
            if self.p == Profile::Ps14 {
                self.tex_section_14(ctx);
            } else {
                self.tex_section_13(ctx);
            }
        }
        // The write that completes r0 needs a slot.
        let reserve = if last { 1 } else { 0 };
        self.reserve(reserve, reserve as u32);
        let mut bem_done = false;
        while self.affords(Opcode::Mov) {
            if !self.chance(5, 6) {
                break;
            }
            if !bem_done && !self.phase2 && self.cfg.textures && self.chance(1, 6) && self.bem(ctx)
            {
                bem_done = true;
                continue;
            }
            if self.cfg.coissue && self.chance(1, 4) && self.coissue_pair(ctx) {
                continue;
            }
            if !self.ps1_arith(ctx, None, 0) {
                break;
            }
        }
        self.release(reserve, reserve as u32);
        if last {
            self.complete_r0(ctx);
        }
    }

    fn ps1_mods(&self) -> &'static [SrcModifier] {
        if !self.cfg.source_modifiers {
            &[]
        } else if !self.cfg.ps1_modifiers {
            NEG_ONLY
        } else if self.p == Profile::Ps14 {
            PS1_MODS
        } else {
            &PS1_MODS[..6]
        }
    }

    /// One arithmetic instruction, to `mask` when given (a co-issue half), without reading the
    /// temps in `exclude`. `true` when emitted.
    fn ps1_arith(&mut self, ctx: &Ctx, mask: Option<u8>, exclude: u32) -> bool {
        use Opcode::*;
        let mut ops = vec![Mov];
        if self.cfg.arithmetic {
            ops.extend([Add, Sub, Mul, Mad, Lrp, Dp3, Cnd]);
            if self.allowed(Dp4) {
                ops.push(Dp4);
            }
            if self.allowed(Cmp) {
                ops.push(Cmp);
            }
        }
        if mask.is_some() {
            // Co-issued halves: plain arithmetic only, and dp3/dp4 never on the alpha side.
            ops.retain(|op| matches!(op, Mov | Add | Sub | Mul | Mad | Lrp | Dp3));
            if mask == Some(0x8) {
                ops.retain(|op| *op != Dp3);
            }
        }
        // Some instructions take two slots in some versions (cmp and dp4 in ps_1_2-1_3).
        ops.retain(|&op| self.affords(op));
        if ops.is_empty() {
            return false;
        }
        for _ in 0..4 {
            let op = self.pick(&ops);
            let snapshot = self.snapshot();
            if self.ps1_try(ctx, op, mask, exclude) {
                return true;
            }
            self.restore(snapshot);
        }
        false
    }

    fn ps1_try(&mut self, ctx: &Ctx, op: Opcode, mask: Option<u8>, exclude: u32) -> bool {
        use Opcode::*;
        let ps13 = self.p.is_ps11_13();
        let rule = match (mask, op) {
            (Some(m), _) => MaskRule::Exact(m),
            (None, Dp3 | Dp4) => MaskRule::Within(0xF),
            (None, _) if ps13 => MaskRule::Ps1,
            (None, _) => MaskRule::Any,
        };
        let Some(dst) = self.pick_dst(ctx, &DstReq::temp(rule)) else {
            return false;
        };
        let mut dmask = dst.mask();
        if matches!(op, Dp3 | Dp4) && dmask != 0xF && dmask != 0x7 {
            dmask = 0xF;
        }
        let r = dst.temp().unwrap_or(0);
        let select = matches!(op, Cmp | Cnd);
        let exclude = exclude | if select { 1 << r } else { 0 };
        let lanes = match op {
            Dp3 => 0x7,
            Dp4 => 0xF,
            _ => dmask,
        };
        let n = match op {
            Mov => 1,
            Add | Sub | Mul | Dp3 | Dp4 => 2,
            _ => 3,
        };
        let files = if ps13 {
            F_VALUE
        } else {
            F_VALUE & !super::operands::F_TEX1
        };
        let mut ports = Ports::default();
        let mut srcs: Vec<SrcParam> = Vec::new();
        let mut bounds: Vec<f32> = Vec::new();
        let alpha_dst = dmask == 0x8;
        for i in 0..n {
            if op == Cnd && i == 0 && ps13 {
                // ps_1_1-ps_1_3 cnd reads its condition from r0.a.
                if self.st.temp[0] & 0x8 == 0 || exclude & 1 != 0 {
                    return false;
                }
                let b = self.temp_read_bound(0);
                srcs.push(SrcParam::new(
                    Register::new(RegisterType::Temp, 0),
                    Swizzle::W,
                ));
                bounds.push(b);
                continue;
            }
            let req = SrcReq {
                alpha_dst,
                ..SrcReq::value(lanes)
                    .files(files)
                    .exclude(exclude)
                    .mods(self.ps1_mods())
                    .no_relative()
            };
            let Some(mut p) = self.pick_src(&req, &mut ports) else {
                return false;
            };
            if p.src.register.ty == RegisterType::Const
                && !matches!(p.src.modifier, SrcModifier::None | SrcModifier::Neg)
            {
                // Constants take negation only.
                p.src.modifier = SrcModifier::None;
            }
            srcs.push(p.src);
            bounds.push(p.bound);
        }
        let mut bound = result_bound(op, &bounds);
        let mut param = DstParam::new(Register::new(RegisterType::Temp, r), WriteMask(dmask));
        if self.cfg.ps1_modifiers && self.chance(1, 5) {
            let shifts: &[i8] = if ps13 {
                &[1, 2, -1]
            } else {
                &[1, 2, 3, -1, -2, -3]
            };
            let s = self.pick(shifts);
            param.shift = Shift(s);
            bound *= 2f32.powi(s as i32);
        }
        if self.cfg.result_modifiers && self.chance(1, 5) {
            param.modifiers = ResultModifiers::SATURATE;
            bound = bound.min(1.0);
        }
        if !self.write_ok(Target::Temp(r), bound) {
            return false;
        }
        let mut inst = Instruction::new(op);
        inst.dst = Some(param);
        for s in srcs {
            let _ = inst.srcs.push(s);
        }
        inst.coissue = mask == Some(0x8) && exclude != 0;
        self.commit_write(Target::Temp(r), dmask, bound, 0, true);
        self.emit(inst, ctx.iterations);
        true
    }

    /// `op r.rgb, ...` + `+op r'.a, ...`: the second does not read the first's destination.
    fn coissue_pair(&mut self, ctx: &Ctx) -> bool {
        if !self.affords_with(Opcode::Mov, 1, 0) {
            return false;
        }
        let before = self.out.len();
        if !self.ps1_arith(ctx, Some(0x7), 0) {
            return false;
        }
        let first = self.out[before];
        let r = first.dst.map_or(0, |d| d.register.num);
        // The alpha half reads only values from before the pair.
        if !self.ps1_arith(ctx, Some(0x8), 1 << r) {
            return true;
        }
        true
    }

    /// Writes what `r0` still lacks.
    fn complete_r0(&mut self, ctx: &Ctx) {
        let missing = 0xF & !self.st.temp[0];
        if missing == 0 {
            return;
        }
        let mask = if self.p.is_ps11_13() {
            if missing & 0x7 == 0 {
                0x8
            } else if missing & 0x8 == 0 {
                0x7
            } else {
                0xF
            }
        } else {
            missing
        };
        let mut ports = Ports::default();
        let req = SrcReq {
            alpha_dst: mask == 0x8,
            ..SrcReq::value(mask).no_relative()
        };
        let files = if self.p.is_ps11_13() {
            F_VALUE
        } else {
            F_VALUE & !super::operands::F_TEX1
        };
        let src = self
            .pick_src(&req.files(files), &mut ports)
            .filter(|p| self.write_ok(Target::Temp(0), p.bound))
            .map(|p| p.src)
            .unwrap_or_else(|| {
                let c = self.zero_const();
                SrcParam::new(
                    Register::new(RegisterType::Const, c as u16),
                    Swizzle::IDENTITY,
                )
            });
        let mut inst = Instruction::new(Opcode::Mov);
        inst.dst = Some(DstParam::new(
            Register::new(RegisterType::Temp, 0),
            WriteMask(mask),
        ));
        let _ = inst.srcs.push(src);
        self.commit_write(Target::Temp(0), mask, self.cfg.input_bound, 0, true);
        self.emit(inst, ctx.iterations);
    }

    /// ps_1_4 `bem rN.xy, src0, rM` (phase 1).
    fn bem(&mut self, ctx: &Ctx) -> bool {
        if !self.affords(Opcode::Bem) {
            return false;
        }
        let snapshot = self.snapshot();
        let r = self.range(0, self.temp_count() as u32 - 1) as u16;
        let ex = 1u32 << r;
        let mut ports = Ports::default();
        let a = self.pick_src(
            &SrcReq::value(0x3)
                .files(super::operands::F_TEMP | super::operands::F_CONST)
                .exclude(ex)
                .no_relative(),
            &mut ports,
        );
        let b = self.pick_src(
            &SrcReq::value(0x3)
                .files(super::operands::F_TEMP)
                .exclude(ex)
                .no_relative(),
            &mut ports,
        );
        let (Some(a), Some(b)) = (a, b) else {
            self.restore(snapshot);
            return false;
        };
        let mut inst = Instruction::new(Opcode::Bem);
        let mut param = DstParam::new(Register::new(RegisterType::Temp, r), WriteMask::XY);
        if self.cfg.ps1_modifiers && self.chance(1, 4) {
            param.shift = Shift(self.pick(&[1, -1]));
        }
        inst.dst = Some(param);
        let _ = inst.srcs.push(a.src);
        let _ = inst.srcs.push(b.src);
        let bound = b.bound + a.bound * b.bound * 2.0 + 1.0;
        if !self.write_ok(Target::Temp(r), bound * 2.0) {
            self.restore(snapshot);
            return false;
        }
        self.record_sampler(r, TextureType::Texture2D, false)
            .bump_matrix = true;
        self.commit_write(Target::Temp(r), 0x3, bound * 2.0, 0, true);
        self.emit(inst, ctx.iterations);
        true
    }

    fn tex_inst(&mut self, op: Opcode, dst: Register, srcs: &[SrcParam], ctx: &Ctx) {
        let mut inst = Instruction::new(op);
        inst.dst = Some(DstParam::new(dst, WriteMask::ALL));
        for s in srcs {
            let _ = inst.srcs.push(*s);
        }
        self.emit(inst, ctx.iterations);
    }

    /// `op tN, tM`: stage `n` from the value of stage `m`.
    fn tex_from(&mut self, op: Opcode, n: u16, m: u16, ctx: &Ctx) {
        let src = SrcParam::new(Self::treg(m), Swizzle::IDENTITY);
        self.tex_inst(op, Self::treg(n), &[src], ctx);
        self.st.tex |= 1 << n;
    }

    fn treg(n: u16) -> Register {
        Register::new(RegisterType::Addr, n)
    }

    /// The texture coordinates stage `n` interpolates, read by a texture instruction.
    fn read_coords(&mut self, n: u16, comps: u8) {
        self.record_input(Self::treg(n), comps);
    }

    /// ps_1_1-ps_1_3: texture instructions over stages 0-3 in order.
    fn tex_section_13(&mut self, ctx: &Ctx) {
        use Opcode::*;
        let ps12 = self.p != Profile::Ps11;
        let ps13 = self.p == Profile::Ps13;
        let finite = self.finite();
        let mut n: u16 = 0;
        while n < 4 && self.affords(Tex) {
            if !self.chance(3, 4) {
                n += 1;
                continue;
            }
            // Sources: stages already written with a readable value.
            let readable: Vec<u16> = (0..n).filter(|m| self.st.tex & (1 << m) != 0).collect();
            let mut kinds: Vec<u8> = Vec::new();
            if self.cfg.textures {
                kinds.extend([0, 0, 1]);
                if !readable.is_empty() {
                    kinds.extend([3, 4]);
                    if ps12 {
                        kinds.push(5);
                    }
                    if n + 1 < 4 && self.affords_with(Tex, 1, 0) {
                        kinds.push(6);
                    }
                    if n + 2 < 4 && self.affords_with(Tex, 2, 0) {
                        kinds.push(7);
                    }
                }
            }
            if self.cfg.discard {
                kinds.push(2);
            }
            if kinds.is_empty() {
                return;
            }
            let kind = self.pick(&kinds);
            let bx2 = |g: &mut Self, m: u16| {
                let mut s = SrcParam::new(Self::treg(m), Swizzle::IDENTITY);
                if g.cfg.ps1_modifiers && g.chance(1, 3) {
                    s.modifier = SrcModifier::Sign;
                }
                s
            };
            match kind {
                0 => {
                    self.read_coords(n, 0x3);
                    self.record_sampler(n, TextureType::Texture2D, false);
                    self.tex_inst(Tex, Self::treg(n), &[], ctx);
                    self.st.tex |= 1 << n;
                }
                1 => {
                    self.read_coords(n, 0xF);
                    self.tex_inst(TexCoord, Self::treg(n), &[], ctx);
                    self.st.tex |= 1 << n;
                }
                2 => {
                    // texkill reads stage n's coordinates and writes nothing.
                    self.read_coords(n, 0x7);
                    self.rec.discard = true;
                    self.tex_inst(TexKill, Self::treg(n), &[], ctx);
                }
                3 => {
                    let m = self.pick(&readable);
                    let lum = self.chance(1, 3);
                    self.read_coords(n, 0x3);
                    let s = self.record_sampler(n, TextureType::Texture2D, false);
                    s.bump_matrix = true;
                    s.bump_luminance = lum;
                    let op = if lum { TexBemL } else { TexBem };
                    self.tex_from(op, n, m, ctx);
                }
                4 => {
                    let m = self.pick(&readable);
                    let ops: Vec<Opcode> = if ps12 {
                        vec![TexReg2Ar, TexReg2Gb, TexReg2Rgb]
                    } else {
                        vec![TexReg2Ar, TexReg2Gb]
                    };
                    let op = self.pick(&ops);
                    let ty = if op == TexReg2Rgb {
                        TextureType::Volume
                    } else {
                        TextureType::Texture2D
                    };
                    self.record_sampler(n, ty, false);
                    self.tex_from(op, n, m, ctx);
                }
                5 => {
                    let m = self.pick(&readable);
                    let op = self.pick(&[TexDp3Tex, TexDp3]);
                    self.read_coords(n, 0x7);
                    if op == TexDp3Tex {
                        self.record_sampler(n, TextureType::Texture2D, false);
                    }
                    let s = bx2(self, m);
                    self.tex_inst(op, Self::treg(n), &[s], ctx);
                    self.st.tex |= 1 << n;
                }
                6 => {
                    let m = self.pick(&readable);
                    let s = bx2(self, m);
                    self.read_coords(n, 0x7);
                    self.read_coords(n + 1, 0x7);
                    self.tex_inst(TexM3x2Pad, Self::treg(n), &[s], ctx);
                    let depth = ps13 && !finite && self.cfg.discard && self.chance(1, 4);
                    if depth {
                        self.rec.depth = true;
                        self.tex_inst(TexM3x2Depth, Self::treg(n + 1), &[s], ctx);
                    } else {
                        self.record_sampler(n + 1, TextureType::Texture2D, false);
                        self.tex_inst(TexM3x2Tex, Self::treg(n + 1), &[s], ctx);
                        self.st.tex |= 1 << (n + 1);
                    }
                    n += 1;
                }
                _ => {
                    let m = self.pick(&readable);
                    let s = bx2(self, m);
                    for k in 0..3 {
                        self.read_coords(n + k, 0x7);
                    }
                    self.tex_inst(TexM3x3Pad, Self::treg(n), &[s], ctx);
                    self.tex_inst(TexM3x3Pad, Self::treg(n + 1), &[s], ctx);
                    let mut finals = vec![TexM3x3Tex];
                    if ps12 {
                        finals.push(TexM3x3);
                    }
                    if !finite {
                        finals.extend([TexM3x3Spec, TexM3x3VSpec]);
                    }
                    let op = self.pick(&finals);
                    let t = Self::treg(n + 2);
                    match op {
                        TexM3x3Spec => {
                            let c = self.range(0, 7);
                            self.rec.fconsts.insert(c);
                            let eye = SrcParam::new(
                                Register::new(RegisterType::Const, c as u16),
                                Swizzle::IDENTITY,
                            );
                            self.record_sampler(n + 2, TextureType::Cube, false);
                            self.tex_inst(op, t, &[s, eye], ctx);
                        }
                        TexM3x3 => self.tex_inst(op, t, &[s], ctx),
                        _ => {
                            if op == TexM3x3VSpec {
                                for k in 0..3 {
                                    self.read_coords(n + k, 0xF);
                                }
                            }
                            self.record_sampler(n + 2, TextureType::Cube, false);
                            self.tex_inst(op, t, &[s], ctx);
                        }
                    }
                    self.st.tex |= 1 << (n + 2);
                    n += 2;
                }
            }
            n += 1;
        }
    }

    /// ps_1_4: `texld`/`texcrd`/`texkill`/`texdepth` of one phase.
    fn tex_section_14(&mut self, ctx: &Ctx) {
        use Opcode::*;
        let mut written: u8 = 0;
        let finite = self.finite();
        let ps1_mods = self.cfg.ps1_modifiers && !finite;
        loop {
            if !self.affords(Tex) || !self.chance(2, 3) {
                break;
            }
            let free: Vec<u16> = (0..6).filter(|r| written & (1 << r) == 0).collect();
            let mut kinds: Vec<u8> = Vec::new();
            if self.cfg.textures && !free.is_empty() {
                kinds.extend([0, 0, 1]);
                if self.phase2 {
                    kinds.push(2);
                }
            }
            if self.cfg.discard {
                kinds.push(3);
                if self.phase2 && !finite && written & (1 << 5) == 0 && self.st.temp[5] & 0x3 == 0x3
                {
                    kinds.push(4);
                }
            }
            if kinds.is_empty() {
                break;
            }
            let kind = self.pick(&kinds);
            let t = self.range(0, 5) as u16;
            match kind {
                0 | 1 => {
                    let r = self.pick(&free);
                    let mut src = SrcParam::new(Self::treg(t), Swizzle::IDENTITY);
                    let texld = kind == 0;
                    let mask = if texld { 0xF } else { self.pick(&[0xF, 0x7]) };
                    if texld && ps1_mods && self.chance(1, 5) {
                        src.modifier = SrcModifier::Dw;
                        src.swizzle = Swizzle(0xF4);
                        self.read_coords(t, 0xB);
                    } else {
                        self.read_coords(t, if texld { 0x7 } else { 0xF });
                    }
                    let mut inst = Instruction::new(if texld { Tex } else { TexCoord });
                    inst.dst = Some(DstParam::new(
                        Register::new(RegisterType::Temp, r),
                        WriteMask(mask),
                    ));
                    let _ = inst.srcs.push(src);
                    if texld {
                        self.record_sampler(r, TextureType::Texture2D, false);
                    }
                    written |= 1 << r;
                    self.commit_write(Target::Temp(r), mask, self.cfg.input_bound, 0, true);
                    self.emit(inst, ctx.iterations);
                }
                2 => {
                    // Dependent read of a phase 1 result.
                    let srcs: Vec<u16> = (0..6)
                        .filter(|&m| {
                            self.st.temp[m as usize] & 0x7 == 0x7 && written & (1 << m) == 0
                        })
                        .collect();
                    if srcs.is_empty() {
                        continue;
                    }
                    let m = self.pick(&srcs);
                    let r = self.pick(&free);
                    let mut src =
                        SrcParam::new(Register::new(RegisterType::Temp, m), Swizzle::IDENTITY);
                    if ps1_mods && self.chance(1, 4) {
                        src.modifier = SrcModifier::Dz;
                    }
                    let mut inst = Instruction::new(Tex);
                    inst.dst = Some(DstParam::new(
                        Register::new(RegisterType::Temp, r),
                        WriteMask::ALL,
                    ));
                    let _ = inst.srcs.push(src);
                    self.record_sampler(r, TextureType::Texture2D, false);
                    written |= 1 << r;
                    self.commit_write(Target::Temp(r), 0xF, self.cfg.input_bound, 0, true);
                    self.emit(inst, ctx.iterations);
                }
                3 => {
                    // texkill of texture coordinates, or of a written temp in phase 2.
                    let temps: Vec<u16> = (0..6)
                        .filter(|&m| self.phase2 && self.st.temp[m as usize] == 0xF)
                        .collect();
                    let reg = if !temps.is_empty() && self.chance(1, 2) {
                        Register::new(RegisterType::Temp, self.pick(&temps))
                    } else {
                        self.read_coords(t, 0x7);
                        Self::treg(t)
                    };
                    self.rec.discard = true;
                    self.tex_inst(TexKill, reg, &[], ctx);
                }
                _ => {
                    // texdepth r5: r5.r / r5.g becomes the pixel's depth.
                    self.rec.depth = true;
                    written |= 1 << 5;
                    self.tex_inst(TexDepth, Register::new(RegisterType::Temp, 5), &[], ctx);
                    // r5 now holds the depth: nothing reads or writes it again.
                    self.st.temp[5] = 0;
                    self.dead_temps |= 1 << 5;
                }
            }
        }
    }
}
