//! Operands: sources that read only components written on every path so far (or declared
//! inputs, or constants), with swizzles and modifiers the version allows and relative indices
//! that stay inside their register file; destinations with legal masks. Each instruction's reads
//! also respect the version's read ports (how many distinct registers of a file one instruction
//! may read).

use super::{Ctx, Gen};
use dxso::validate::Profile;
use dxso::{
    DstParam, Register, RegisterType, Relative, RelativeToken, SrcModifier, SrcParam, Swizzle,
};

pub(crate) const F_TEMP: u8 = 1;
pub(crate) const F_INPUT: u8 = 2;
pub(crate) const F_CONST: u8 = 4;
/// ps_1_1-ps_1_3 texture registers written by texture instructions.
pub(crate) const F_TEX1: u8 = 8;
/// Only the `t#` inputs of ps_2_0/ps_2_x (texture coordinates), not `v#`.
pub(crate) const F_TCOORD: u8 = 16;
pub(crate) const F_VALUE: u8 = F_TEMP | F_INPUT | F_CONST | F_TEX1;

/// What the swizzle of a source must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Swz {
    Any,
    Replicate,
    Identity,
}

/// What one source position accepts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SrcReq {
    /// The lanes (x..w of the swizzle) the instruction uses.
    pub lanes: u8,
    pub swz: Swz,
    /// Modifiers it may take (one is chosen now and then).
    pub mods: &'static [SrcModifier],
    pub files: u8,
    pub relative: bool,
    /// Temps it must not read (a macro's destination).
    pub exclude: u32,
    /// ps_1_1-ps_1_3: the instruction writes alpha only, so `.b` replicate is allowed.
    pub alpha_dst: bool,
}

impl SrcReq {
    pub fn value(lanes: u8) -> Self {
        SrcReq {
            lanes,
            swz: Swz::Any,
            mods: &[],
            files: F_VALUE,
            relative: true,
            exclude: 0,
            alpha_dst: false,
        }
    }

    pub fn replicate() -> Self {
        SrcReq {
            swz: Swz::Replicate,
            ..SrcReq::value(0x1)
        }
    }

    pub fn files(mut self, files: u8) -> Self {
        self.files = files;
        self
    }

    pub fn identity(mut self) -> Self {
        self.swz = Swz::Identity;
        self
    }

    pub fn no_relative(mut self) -> Self {
        self.relative = false;
        self
    }

    pub fn exclude(mut self, temps: u32) -> Self {
        self.exclude = temps;
        self
    }

    pub fn mods(mut self, mods: &'static [SrcModifier]) -> Self {
        self.mods = mods;
        self
    }
}

/// Registers one instruction has read so far, for the read-port limits.
#[derive(Clone, Debug, Default)]
pub(crate) struct Ports {
    temps: Vec<u16>,
    inputs: Vec<Register>,
    consts: Vec<u32>,
    const_reads: u8,
    tex: Vec<u16>,
}

/// A chosen source with what is known of its value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Picked {
    pub src: SrcParam,
    pub bound: f32,
    pub dep: u8,
}

#[derive(Clone, Copy, Debug)]
enum Rel {
    A0(u8),
    Al,
}

#[derive(Clone, Copy, Debug)]
enum Cand {
    Temp(u16),
    Input(usize),
    Tex1(u16),
    Const(u32),
    ConstRel(Rel),
    InputRel(Rel),
}

/// Where a destination writes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Target {
    Temp(u16),
    Output(usize),
    /// vs_3_0 `o[aL + n]`: the registers it may reach, all already written.
    OutputRel,
}

/// What the write mask of a destination may be.
#[derive(Clone, Copy, Debug)]
pub(crate) enum MaskRule {
    Any,
    Exact(u8),
    /// A non-empty subset of these components.
    Within(u8),
    /// ps_1_1-ps_1_3: `.rgba`, `.rgb` or `.a`.
    Ps1,
    /// One of these masks.
    OneOf(&'static [u8]),
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct DstReq {
    pub mask: MaskRule,
    pub temps: bool,
    pub outputs: bool,
    pub exclude: u32,
}

impl DstReq {
    pub fn value(mask: MaskRule) -> Self {
        DstReq {
            mask,
            temps: true,
            outputs: true,
            exclude: 0,
        }
    }

    pub fn temp(mask: MaskRule) -> Self {
        DstReq {
            outputs: false,
            ..DstReq::value(mask)
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct DstPick {
    pub target: Target,
    pub param: DstParam,
}

impl DstPick {
    pub fn mask(&self) -> u8 {
        self.param.mask.0 & 0xF
    }

    pub fn temp(&self) -> Option<u16> {
        match self.target {
            Target::Temp(r) => Some(r),
            _ => None,
        }
    }
}

const fn sw_ok(sw: Swizzle, avail: u8, lanes: u8) -> bool {
    let mut l = 0;
    while l < 4 {
        if lanes & (1 << l) != 0 && avail & (1 << sw.get(l)) == 0 {
            return false;
        }
        l += 1;
    }
    true
}

/// The mask a source's swizzle reads over `lanes`.
pub(crate) fn read_mask(sw: Swizzle, lanes: u8) -> u8 {
    (0..4)
        .filter(|l| lanes & (1 << l) != 0)
        .fold(0, |m, l| m | 1 << sw.get(l))
}

/// The bound of a value after a source modifier.
pub(crate) fn modified_bound(m: SrcModifier, b: f32) -> f32 {
    use SrcModifier::*;
    match m {
        None | Neg | Abs | AbsNeg | Not => b,
        Bias | BiasNeg => b + 0.5,
        Sign | SignNeg => 2.0 * b + 1.0,
        Comp => b + 1.0,
        X2 | X2Neg => 2.0 * b,
        Dz | Dw => f32::INFINITY,
    }
}

impl Gen<'_, '_> {
    fn port_limits(&self) -> (usize, usize, usize, usize) {
        // (temps, inputs, constants, texture registers): distinct registers per instruction.
        if self.p.is_ps1() {
            (if self.p == Profile::Ps14 { 3 } else { 2 }, 2, 2, 2)
        } else {
            (3, 1, 1, 1)
        }
    }

    fn port_ok(&self, ports: &Ports, c: Cand) -> bool {
        let (lt, li, lc, lx) = self.port_limits();
        let has = |v: &[u16], n: u16, lim: usize| v.contains(&n) || v.len() < lim;
        match c {
            Cand::Temp(r) => has(&ports.temps, r, lt),
            Cand::Input(i) => {
                let reg = self.inputs[i].register;
                if reg.ty == RegisterType::Addr {
                    has(&ports.tex, reg.num, lx)
                } else {
                    ports.inputs.contains(&reg) || ports.inputs.len() < li
                }
            }
            Cand::Tex1(t) => has(&ports.tex, t, lx),
            Cand::Const(c) => {
                ports.const_reads < 2 && (ports.consts.contains(&c) || ports.consts.len() < lc)
            }
            Cand::ConstRel(_) => ports.const_reads < 2 && ports.consts.len() < lc,
            Cand::InputRel(_) => ports.inputs.is_empty(),
        }
    }

    /// The allowed swizzles of this version for a source, or `None` for "any".
    fn swizzle_set(&self, alpha_dst: bool) -> Option<Vec<Swizzle>> {
        use Profile::*;
        let reps = [Swizzle::X, Swizzle::Y, Swizzle::Z, Swizzle::W];
        match self.p {
            Ps11 | Ps12 | Ps13 => {
                let mut v = vec![Swizzle::IDENTITY, Swizzle::W];
                if alpha_dst {
                    v.push(Swizzle::Z);
                }
                Some(v)
            }
            Ps14 => {
                let mut v = vec![Swizzle::IDENTITY];
                v.extend(reps);
                Some(v)
            }
            Ps20 => {
                let mut v = vec![Swizzle::IDENTITY];
                v.extend(reps);
                v.extend([Swizzle(0xC9), Swizzle(0xD2), Swizzle(0x1B)]);
                Some(v)
            }
            _ => None,
        }
    }

    /// A swizzle reading only `avail` components over `lanes`, within the version's rules.
    pub(crate) fn pick_swizzle(
        &mut self,
        avail: u8,
        lanes: u8,
        swz: Swz,
        alpha_dst: bool,
    ) -> Option<Swizzle> {
        if avail == 0 {
            return None;
        }
        let set = self.swizzle_set(alpha_dst);
        let comps: Vec<u8> = (0..4).filter(|c| avail & (1 << c) != 0).collect();
        match swz {
            Swz::Identity => sw_ok(Swizzle::IDENTITY, avail, lanes).then_some(Swizzle::IDENTITY),
            Swz::Replicate => {
                let allowed: Vec<Swizzle> = comps
                    .iter()
                    .map(|&c| Swizzle::replicate(c))
                    .filter(|s| set.as_ref().map_or(true, |set| set.contains(s)))
                    .collect();
                (!allowed.is_empty()).then(|| self.pick(&allowed))
            }
            Swz::Any => {
                let identity_ok = sw_ok(Swizzle::IDENTITY, avail, lanes);
                if !self.cfg.swizzles {
                    return identity_ok.then_some(Swizzle::IDENTITY);
                }
                if identity_ok && self.chance(1, 2) {
                    return Some(Swizzle::IDENTITY);
                }
                match set {
                    Some(set) => {
                        let ok: Vec<Swizzle> = set
                            .into_iter()
                            .filter(|s| sw_ok(*s, avail, lanes))
                            .collect();
                        (!ok.is_empty()).then(|| self.pick(&ok))
                    }
                    None => {
                        let mut sel = [0u8; 4];
                        for s in &mut sel {
                            *s = self.pick(&comps);
                        }
                        Some(Swizzle::new(sel[0], sel[1], sel[2], sel[3]))
                    }
                }
            }
        }
    }

    /// The range `aL` takes in the innermost `loop`.
    pub(crate) fn al_range(&self) -> Option<(i32, i32)> {
        self.loops.iter().rev().find_map(|f| f.al)
    }

    fn rel_range(&self, rel: Rel) -> (i32, i32) {
        match rel {
            Rel::A0(_) => self.a0_range,
            Rel::Al => self.al_range().unwrap_or((0, 0)),
        }
    }

    fn rel_param(&self, rel: Rel) -> Relative {
        match rel {
            Rel::A0(_) if self.v.is_sm1() => Relative::Implicit,
            Rel::A0(c) => {
                Relative::Token(RelativeToken::new(Register::new(RegisterType::Addr, 0), c))
            }
            Rel::Al => Relative::Token(RelativeToken::new(Register::new(RegisterType::Loop, 0), 0)),
        }
    }

    /// The relative sources this point of the program can use.
    fn rel_sources(&mut self) -> Vec<Rel> {
        let mut v = Vec::new();
        if !self.cfg.relative_addressing {
            return v;
        }
        if self.p.is_vertex() && self.addr_const.is_some() {
            let comps = if self.p == Profile::Vs11 { 1 } else { 4 };
            for c in 0..comps {
                if self.st.addr & (1 << c) != 0 {
                    v.push(Rel::A0(c));
                }
            }
        }
        let has_al = matches!(
            self.p,
            Profile::Vs20 | Profile::Vs2x | Profile::Vs30 | Profile::Ps30
        );
        if has_al && self.al_range().is_some() {
            v.push(Rel::Al);
        }
        v
    }

    /// A base register number `n` with `n + lo >= 0` and `n + hi + extra < count`.
    fn rel_base(&mut self, (lo, hi): (i32, i32), extra: i32, count: i32) -> Option<i32> {
        let min = (-lo).max(0);
        let max = count - 1 - hi - extra;
        if max < min {
            return None;
        }
        let top = max.min(min + 24);
        Some(self.range_i(min, top))
    }

    /// The magnitude bound of reading temp `r` here; inside loops, a read before the iteration
    /// wrote `r` takes a value the previous iteration left, which the loop limit bounds.
    pub(crate) fn temp_read_bound(&mut self, r: u16) -> f32 {
        let bit = 1u32 << r;
        let mut b = self.st.bound[r as usize];
        for k in (0..self.loops.len()).rev() {
            if self.st.fresh[k] & bit != 0 {
                break;
            }
            self.loops[k].carried |= bit;
            b = b.max(self.cfg.loop_value_limit);
        }
        b
    }

    fn input_bound_of(&self, reg: Register) -> f32 {
        if reg.ty == RegisterType::MiscType && reg.num == 0 {
            // vPos holds pixel coordinates.
            self.cfg.input_bound.max(8192.0)
        } else {
            self.cfg.input_bound
        }
    }

    /// Chooses a source; `None` when nothing readable fits `req` here.
    pub(crate) fn pick_src(&mut self, req: &SrcReq, ports: &mut Ports) -> Option<Picked> {
        let mut cands: Vec<Cand> = Vec::new();
        if req.files & F_TEMP != 0 {
            for r in 0..self.temp_count() {
                if self.st.temp[r as usize] != 0 && req.exclude & (1 << r) == 0 {
                    cands.push(Cand::Temp(r));
                    cands.push(Cand::Temp(r));
                }
            }
        }
        if req.files & (F_INPUT | F_TCOORD) != 0 {
            for i in 0..self.inputs.len() {
                let ty = self.inputs[i].register.ty;
                if req.files & F_INPUT == 0 && ty != RegisterType::Addr {
                    continue;
                }
                // ps_1_4 reads colour inputs in phase 2 only.
                if self.p == Profile::Ps14 && !self.phase2 {
                    continue;
                }
                if ty == RegisterType::Addr && self.p.is_ps1() {
                    continue;
                }
                cands.push(Cand::Input(i));
            }
        }
        if req.files & F_TEX1 != 0 && self.p.is_ps11_13() {
            for t in 0..4 {
                if self.st.tex & (1 << t) != 0 {
                    cands.push(Cand::Tex1(t));
                }
            }
        }
        if req.files & F_CONST != 0 {
            let count = self.const_count();
            let defined: Vec<u32> = self.fdefs.keys().copied().collect();
            if let Some(&c) = ports.consts.first() {
                cands.push(Cand::Const(c));
            } else {
                if !defined.is_empty() {
                    let c = self.pick(&defined);
                    cands.push(Cand::Const(c));
                }
                let top = if self.chance(1, 8) {
                    count - 1
                } else {
                    count.min(16) - 1
                };
                let c = self.range(0, top);
                cands.push(Cand::Const(c));
            }
            if req.relative && !self.p.is_ps1() {
                for rel in self.rel_sources() {
                    cands.push(Cand::ConstRel(rel));
                }
            }
        }
        if req.files & F_INPUT != 0 && req.relative && self.p.is_sm3() {
            for rel in self.rel_sources() {
                if matches!(rel, Rel::Al) || self.p == Profile::Vs30 {
                    cands.push(Cand::InputRel(rel));
                }
            }
        }
        cands.retain(|c| self.port_ok(ports, *c));
        while !cands.is_empty() {
            let i = self.index(cands.len());
            let c = cands.swap_remove(i);
            if let Some(p) = self.try_cand(c, req, ports) {
                return Some(p);
            }
        }
        None
    }

    fn try_cand(&mut self, c: Cand, req: &SrcReq, ports: &mut Ports) -> Option<Picked> {
        let (avail, register, relative, regs): (u8, Register, Option<Relative>, Vec<u32>) = match c
        {
            Cand::Temp(r) => (
                self.st.temp[r as usize],
                Register::new(RegisterType::Temp, r),
                None,
                vec![],
            ),
            Cand::Input(i) => (self.inputs[i].mask, self.inputs[i].register, None, vec![]),
            Cand::Tex1(t) => (0xF, Register::new(RegisterType::Addr, t), None, vec![]),
            Cand::Const(n) => (
                0xF,
                Register::new(RegisterType::Const, n as u16),
                None,
                vec![n],
            ),
            Cand::ConstRel(rel) => {
                let range = self.rel_range(rel);
                let base = self.rel_base(range, 0, self.const_count() as i32)?;
                let regs = ((base + range.0)..=(base + range.1))
                    .map(|n| n as u32)
                    .collect();
                (
                    0xF,
                    Register::new(RegisterType::Const, base as u16),
                    Some(self.rel_param(rel)),
                    regs,
                )
            }
            Cand::InputRel(rel) => {
                let range = self.rel_range(rel);
                let run = self
                    .inputs
                    .iter()
                    .take_while(|s| s.register.ty == RegisterType::Input)
                    .enumerate()
                    .take_while(|(i, s)| s.register.num as usize == *i)
                    .count() as i32;
                let base = self.rel_base(range, 0, run)?;
                let regs: Vec<u32> = ((base + range.0)..=(base + range.1))
                    .map(|n| n as u32)
                    .collect();
                let avail = regs
                    .iter()
                    .fold(0xF, |m, &n| m & self.inputs[n as usize].mask);
                (
                    avail,
                    Register::new(RegisterType::Input, base as u16),
                    Some(self.rel_param(rel)),
                    regs,
                )
            }
        };
        let sw = self.pick_swizzle(avail, req.lanes, req.swz, req.alpha_dst)?;
        let comps = read_mask(sw, req.lanes);
        let modifier = if !req.mods.is_empty() && self.chance(1, 4) {
            self.pick(req.mods)
        } else {
            SrcModifier::None
        };
        // Commit: ports, records, bounds.
        let (bound, dep) = match c {
            Cand::Temp(r) => {
                if !ports.temps.contains(&r) {
                    ports.temps.push(r);
                }
                (self.temp_read_bound(r), self.st.dep[r as usize])
            }
            Cand::Input(_) => {
                if register.ty == RegisterType::Addr {
                    if !ports.tex.contains(&register.num) {
                        ports.tex.push(register.num);
                    }
                } else if !ports.inputs.contains(&register) {
                    ports.inputs.push(register);
                }
                self.record_input(register, comps);
                (self.input_bound_of(register), 0)
            }
            Cand::Tex1(t) => {
                if !ports.tex.contains(&t) {
                    ports.tex.push(t);
                }
                (self.cfg.input_bound, 0)
            }
            Cand::Const(_) | Cand::ConstRel(_) => {
                ports.const_reads += 1;
                ports.consts.push(register.num as u32);
                let mut b: f32 = 0.0;
                for &n in &regs {
                    self.rec.fconsts.insert(n);
                    b = b.max(self.const_bound(n));
                }
                (b, 0)
            }
            Cand::InputRel(_) => {
                ports.inputs.push(register);
                for &n in &regs {
                    self.record_input(Register::new(RegisterType::Input, n as u16), comps);
                }
                (self.cfg.input_bound, 0)
            }
        };
        if matches!(c, Cand::ConstRel(Rel::Al) | Cand::InputRel(Rel::Al)) {
            self.func.uses_al = true;
        }
        let mut src = SrcParam::new(register, sw);
        src.relative = relative;
        src.modifier = modifier;
        Some(Picked {
            src,
            bound: modified_bound(modifier, bound),
            dep,
        })
    }

    /// The matrix source of `m4x4`-style macros: `rows` consecutive registers read whole, with no
    /// swizzle and no negate.
    pub(crate) fn pick_matrix(
        &mut self,
        rows: u16,
        exclude: u32,
        ports: &mut Ports,
    ) -> Option<Picked> {
        let temps: Vec<u16> = (0..self.temp_count().saturating_sub(rows - 1))
            .filter(|&r| {
                (r..r + rows).all(|k| self.st.temp[k as usize] == 0xF && exclude & (1 << k) == 0)
            })
            .collect();
        let (_, _, lc, _) = self.port_limits();
        let const_ok = ports.const_reads < 2 && ports.consts.len() < lc;
        let use_temp = !temps.is_empty() && (!const_ok || self.chance(1, 3));
        if use_temp {
            let r = self.pick(&temps);
            if !ports.temps.contains(&r) && ports.temps.len() >= self.port_limits().0 {
                return None;
            }
            ports.temps.push(r);
            let mut b: f32 = 0.0;
            for k in r..r + rows {
                b = b.max(self.temp_read_bound(k));
            }
            let dep = (r..r + rows)
                .map(|k| self.st.dep[k as usize])
                .max()
                .unwrap_or(0);
            return Some(Picked {
                src: SrcParam::new(Register::new(RegisterType::Temp, r), Swizzle::IDENTITY),
                bound: b,
                dep,
            });
        }
        if !const_ok {
            return None;
        }
        let count = self.const_count() as i32;
        let rels = self.rel_sources();
        let (base, relative, range) = if !rels.is_empty() && self.chance(1, 3) {
            let rel = self.pick(&rels);
            let range = self.rel_range(rel);
            let base = self.rel_base(range, rows as i32 - 1, count)?;
            if matches!(rel, Rel::Al) {
                self.func.uses_al = true;
            }
            (base, Some(self.rel_param(rel)), range)
        } else {
            let base = self.range_i(0, (count - rows as i32).min(16));
            (base, None, (0, 0))
        };
        ports.const_reads += 1;
        ports.consts.push(base as u32);
        let mut b: f32 = 0.0;
        for n in (base + range.0)..=(base + range.1 + rows as i32 - 1) {
            self.rec.fconsts.insert(n as u32);
            b = b.max(self.const_bound(n as u32));
        }
        let mut src = SrcParam::new(
            Register::new(RegisterType::Const, base as u16),
            Swizzle::IDENTITY,
        );
        src.relative = relative;
        Some(Picked {
            src,
            bound: b,
            dep: 0,
        })
    }

    fn mask_for(&mut self, rule: MaskRule, allowed: u8) -> Option<u8> {
        let m = match rule {
            MaskRule::Exact(m) => m,
            MaskRule::Within(m) => {
                let within = m & allowed;
                if within == 0 {
                    return None;
                }
                if !self.cfg.write_masks || self.chance(1, 2) {
                    within
                } else {
                    self.sub_mask(within)
                }
            }
            MaskRule::Any => {
                if !self.cfg.write_masks || self.chance(1, 2) {
                    allowed
                } else {
                    self.sub_mask(allowed)
                }
            }
            MaskRule::Ps1 | MaskRule::OneOf(_) => {
                let all: &[u8] = match rule {
                    MaskRule::OneOf(m) => m,
                    _ => &[0xF, 0x7, 0x8],
                };
                let options: Vec<u8> = all.iter().copied().filter(|m| m & !allowed == 0).collect();
                if options.is_empty() {
                    return None;
                }
                if !self.cfg.write_masks {
                    options[0]
                } else {
                    self.pick(&options)
                }
            }
        };
        (m != 0 && m & !allowed == 0).then_some(m)
    }

    /// Chooses a destination; `None` when nothing fits.
    pub(crate) fn pick_dst(&mut self, ctx: &Ctx, req: &DstReq) -> Option<DstPick> {
        let mut outs: Vec<(usize, u8)> = Vec::new();
        if req.outputs {
            for (s, slot) in self.outputs.iter().enumerate() {
                if slot.epilogue_only || slot.register.ty == RegisterType::Temp {
                    continue;
                }
                let allowed = if ctx.top {
                    slot.mask
                } else {
                    slot.mask & self.st.out[s]
                };
                if allowed != 0 {
                    outs.push((s, allowed));
                }
            }
        }
        let rel_out = req.outputs
            && self.cfg.relative_addressing
            && self.p == Profile::Vs30
            && self.al_range().is_some();
        for attempt in 0..4 {
            if rel_out && attempt == 0 && self.chance(1, 3) {
                if let Some(d) = self.pick_rel_output(req.mask) {
                    return Some(d);
                }
            }
            if !outs.is_empty() && (!req.temps || self.chance(1, 4)) {
                let (s, allowed) = self.pick(&outs);
                if let Some(mask) = self.mask_for(req.mask, allowed) {
                    let reg = self.outputs[s].register;
                    return Some(DstPick {
                        target: Target::Output(s),
                        param: DstParam::new(reg, dxso::WriteMask(mask)),
                    });
                }
                continue;
            }
            if !req.temps {
                return None;
            }
            let count = self.temp_count();
            let exclude = req.exclude | self.dead_temps;
            let written: Vec<u16> = (0..count)
                .filter(|&r| self.st.temp[r as usize] != 0 && exclude & (1 << r) == 0)
                .collect();
            let r = if !written.is_empty() && self.chance(1, 2) {
                self.pick(&written)
            } else {
                self.range(0, count as u32 - 1) as u16
            };
            if exclude & (1 << r) != 0 {
                continue;
            }
            if let Some(mask) = self.mask_for(req.mask, 0xF) {
                return Some(DstPick {
                    target: Target::Temp(r),
                    param: DstParam::new(
                        Register::new(RegisterType::Temp, r),
                        dxso::WriteMask(mask),
                    ),
                });
            }
        }
        None
    }

    /// vs_3_0 `o[aL + n]` over declared texcoord/colour outputs every path already wrote.
    fn pick_rel_output(&mut self, rule: MaskRule) -> Option<DstPick> {
        use dxso::DeclUsage;
        let range = self.al_range()?;
        let mut avail = [0u8; 12];
        for n in 1..12u16 {
            let slots: Vec<usize> = (0..self.outputs.len())
                .filter(|&s| self.outputs[s].register == Register::new(RegisterType::Output, n))
                .collect();
            if let [s] = slots[..] {
                let slot = &self.outputs[s];
                if matches!(
                    slot.usage,
                    Some((DeclUsage::TexCoord | DeclUsage::Color, _))
                ) {
                    avail[n as usize] = slot.mask & self.st.out[s];
                }
            }
        }
        // Every base whose whole range lands on written outputs.
        let common = |base: i32| {
            ((base + range.0)..=(base + range.1))
                .fold(0xF, |m, n| m & avail.get(n as usize).copied().unwrap_or(0))
        };
        let bases: Vec<i32> = ((-range.0).max(0)..12)
            .filter(|&b| common(b) != 0)
            .collect();
        if bases.is_empty() {
            return None;
        }
        let base = self.pick(&bases);
        let mask = self.mask_for(rule, common(base))?;
        self.func.uses_al = true;
        let mut param = DstParam::new(
            Register::new(RegisterType::Output, base as u16),
            dxso::WriteMask(mask),
        );
        param.relative = Some(self.rel_param(Rel::Al));
        Some(DstPick {
            target: Target::OutputRel,
            param,
        })
    }

    /// Whether writing a value bounded by `bound` to `target` keeps values finite.
    pub(crate) fn write_ok(&self, target: Target, bound: f32) -> bool {
        if !self.finite() {
            return true;
        }
        if bound.is_nan() || bound > self.cfg.value_limit {
            return false;
        }
        match target {
            Target::Temp(r) => {
                let carried = self.loops.iter().any(|f| f.carried & (1 << r) != 0);
                !carried || bound <= self.cfg.loop_value_limit
            }
            _ => true,
        }
    }

    /// Records a write: components written on every path (unless `definite` is false: a
    /// predicated write), the value's bound and dependent-read depth.
    pub(crate) fn commit_write(
        &mut self,
        target: Target,
        mask: u8,
        bound: f32,
        dep: u8,
        definite: bool,
    ) {
        match target {
            Target::Temp(r) => {
                let i = r as usize;
                if definite && mask == 0xF {
                    self.st.bound[i] = bound;
                    self.st.dep[i] = dep;
                } else {
                    self.st.bound[i] = self.st.bound[i].max(bound);
                    self.st.dep[i] = self.st.dep[i].max(dep);
                }
                if definite {
                    self.st.temp[i] |= mask;
                    for k in 0..self.loops.len() {
                        self.st.fresh[k] |= 1 << r;
                    }
                }
            }
            Target::Output(s) => {
                if definite {
                    self.st.out[s] |= mask;
                }
            }
            Target::OutputRel => {}
        }
    }
}
