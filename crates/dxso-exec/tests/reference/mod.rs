//! A simple reference executor written for the tests: one invocation at a time, straight over
//! the `dxso::Shader` instructions with a program counter (no plan, no batches, no masks). It
//! follows `docs/SEMANTICS.md` independently of the crate's lowering; it shares only the scalar
//! float rules (`dxso_exec::math`) and texel lookup (`dxso_exec::sampler::sample`), which are the
//! definitions both must agree on.
//!
//! Derivatives need a quad, so the reference does not run `dsx`/`dsy`; implicit-LOD lookups use
//! LOD 0 (tests give textures one level and equal min/mag filters, where LOD changes nothing).

#![allow(dead_code)]
// Component loops index several arrays by the same component number.
#![allow(clippy::needless_range_loop)]

use dxso::validate::Profile;
use dxso::{
    Comparison, DstParam, Extra, Instruction, Opcode, Register, RegisterType as R, Relative,
    Shader, SrcModifier, SrcParam,
};
use dxso_exec::io::{InputRegister, OutputRegister};
use dxso_exec::math;
use dxso_exec::{Dimension, Resources, Sampler, SamplerState};
use std::collections::{BTreeMap, HashMap};

/// What one invocation produced.
#[derive(Debug, Clone, PartialEq)]
pub struct RefOutput {
    /// Outputs written (components never written are 0).
    pub outputs: BTreeMap<OutputRegister, [f32; 4]>,
    /// `texkill` fired.
    pub killed: bool,
    /// Instructions executed (`docs/SEMANTICS.md` 11).
    pub count: u64,
}

/// The invocation went over its budget.
#[derive(Debug, Clone, PartialEq)]
pub struct OverBudget;

/// A prepared shader.
pub struct Reference<'a> {
    shader: &'a Shader,
    insts: Vec<&'a Instruction>,
    profile: Profile,
    floats: Vec<[f32; 4]>,
    ints: [[i32; 4]; 16],
    bools: [bool; 16],
    samplers: &'a [Sampler],
    declared: HashMap<u8, Dimension>,
    /// if -> (else or endif), else -> endif, loop/rep -> end.
    matching: HashMap<usize, usize>,
    labels: HashMap<u16, usize>,
    clamp: f32,
    zero_times: bool,
    budget: u64,
}

struct LoopFrame {
    start: usize,
    end: usize,
    remaining: u32,
    step: i32,
    sets_al: bool,
    saved_al: i32,
}

struct State {
    r: [[f32; 4]; 32],
    t: [[f32; 4]; 8],
    outputs: BTreeMap<OutputRegister, [f32; 4]>,
    a0: [i32; 4],
    al: i32,
    p: [bool; 4],
    rows: [f32; 3],
    row: usize,
    killed: bool,
    count: u64,
}

fn out_reg(shader: &Shader, reg: Register) -> Option<OutputRegister> {
    use OutputRegister as O;
    let n = reg.num as u8;
    Some(match reg.ty {
        R::RastOut => [O::Pos, O::Fog, O::PointSize][(n as usize).min(2)],
        R::AttrOut => O::Color(n),
        R::Output if shader.version.is_vertex() && shader.version.major >= 3 => O::O(n),
        R::Output => O::TexCoord(n),
        R::ColorOut => O::Target(n),
        R::DepthOut => O::Depth,
        _ => return None,
    })
}

impl<'a> Reference<'a> {
    pub fn new(shader: &'a Shader, resources: &'a Resources, options: &dxso_exec::Options) -> Self {
        let profile = Profile::of(shader.version).expect("a Direct3D 9 version");
        let insts: Vec<&Instruction> = shader.instructions().collect();
        let n = if shader.version.is_vertex() {
            256
        } else {
            match profile {
                Profile::Ps30 => 224,
                Profile::Ps20 | Profile::Ps2x => 32,
                _ => 8,
            }
        };
        let ps1 = profile.is_ps1();
        let mut floats = vec![[0f32; 4]; n];
        for (d, s) in floats.iter_mut().zip(&resources.constants.float) {
            *d = *s;
        }
        let mut ints = [[0; 4]; 16];
        for (d, s) in ints.iter_mut().zip(&resources.constants.int) {
            *d = *s;
        }
        let mut bools = [false; 16];
        for (d, s) in bools.iter_mut().zip(&resources.constants.bool) {
            *d = *s;
        }
        let mut declared = HashMap::new();
        let mut matching = HashMap::new();
        let mut labels = HashMap::new();
        let mut open: Vec<usize> = Vec::new();
        for (i, inst) in insts.iter().enumerate() {
            match (inst.opcode, inst.extra) {
                (Opcode::Def, Extra::Def(bits)) => {
                    if let Some(d) = floats.get_mut(inst.dst.unwrap().register.index() as usize) {
                        *d = bits.map(f32::from_bits);
                    }
                }
                (Opcode::DefI, Extra::DefI(v)) => {
                    ints[inst.dst.unwrap().register.num as usize & 15] = v
                }
                (Opcode::DefB, Extra::DefB(v)) => {
                    bools[inst.dst.unwrap().register.num as usize & 15] = v != 0
                }
                (Opcode::Dcl, Extra::Dcl(tok)) => {
                    let d = inst.dst.unwrap();
                    if d.register.ty == R::Sampler {
                        if let Some(dim) = tok.texture_type().and_then(Dimension::from_declared) {
                            declared.insert(d.register.num as u8, dim);
                        }
                    }
                }
                _ => {}
            }
            match inst.opcode {
                Opcode::If | Opcode::Ifc | Opcode::Loop | Opcode::Rep => open.push(i),
                Opcode::Else => {
                    let o = *open.last().unwrap();
                    matching.insert(o, i);
                    *open.last_mut().unwrap() = i;
                }
                Opcode::EndIf | Opcode::EndLoop | Opcode::EndRep => {
                    let o = open.pop().unwrap();
                    matching.insert(o, i);
                }
                Opcode::Label => {
                    labels.insert(inst.srcs[0].register.num, i);
                }
                _ => {}
            }
        }
        if ps1 {
            for v in floats.iter_mut().flatten() {
                *v = v.clamp(-1.0, 1.0);
            }
        }
        let clamp = if ps1 {
            options
                .ps1_range
                .limit(profile == Profile::Ps14)
                .unwrap_or(f32::INFINITY)
        } else {
            f32::INFINITY
        };
        Reference {
            shader,
            insts,
            profile,
            floats,
            ints,
            bools,
            samplers: &resources.samplers,
            declared,
            matching,
            labels,
            clamp,
            zero_times: options.zero_times_anything,
            budget: options.budget,
        }
    }

    fn input(inputs: &HashMap<InputRegister, [f32; 4]>, r: InputRegister) -> [f32; 4] {
        inputs.get(&r).copied().unwrap_or([0.0; 4])
    }

    fn rel_index(&self, s: &State, rel: Relative) -> i64 {
        match rel {
            Relative::Implicit => s.a0[0] as i64,
            Relative::Token(t) if t.register.ty == R::Loop => s.al as i64,
            Relative::Token(t) => s.a0[t.component() as usize & 3] as i64,
        }
    }

    fn raw(&self, s: &State, inputs: &HashMap<InputRegister, [f32; 4]>, p: &SrcParam) -> [f32; 4] {
        let reg = p.register;
        let rel = p.relative.map_or(0, |r| self.rel_index(s, r));
        match reg.ty {
            t if t.is_float_const() => {
                let i = reg.index() as i64 + rel;
                if i >= 0 && (i as usize) < self.floats.len() {
                    self.floats[i as usize]
                } else {
                    [0.0; 4]
                }
            }
            R::Temp => s.r[reg.num as usize],
            R::Input => {
                let i = reg.num as i64 + rel;
                let len = if self.shader.version.is_vertex() {
                    16
                } else {
                    10
                };
                if i >= 0 && i < len {
                    Self::input(inputs, InputRegister::V(i as u8))
                } else {
                    [0.0; 4]
                }
            }
            R::Addr if self.profile.is_ps11_13() => s.t[reg.num as usize],
            R::Addr => Self::input(inputs, InputRegister::T(reg.num as u8)),
            R::MiscType if reg.num == 0 => Self::input(inputs, InputRegister::Pos),
            R::MiscType => Self::input(inputs, InputRegister::Face),
            _ => [0.0; 4],
        }
    }

    fn src(&self, s: &State, inputs: &HashMap<InputRegister, [f32; 4]>, p: &SrcParam) -> [f32; 4] {
        let mut v = self.raw(s, inputs, p);
        match p.modifier {
            SrcModifier::Dz => v = v.map(|x| x / v[2]),
            SrcModifier::Dw => {
                let w = v[3];
                v = v.map(|x| x / w)
            }
            _ => {}
        }
        let sw = p.swizzle.components();
        let v = [
            v[sw[0] as usize],
            v[sw[1] as usize],
            v[sw[2] as usize],
            v[sw[3] as usize],
        ];
        v.map(|x| match p.modifier {
            SrcModifier::Neg => -x,
            SrcModifier::Bias => x - 0.5,
            SrcModifier::BiasNeg => -(x - 0.5),
            SrcModifier::Sign => 2.0 * x - 1.0,
            SrcModifier::SignNeg => -(2.0 * x - 1.0),
            SrcModifier::Comp => 1.0 - x,
            SrcModifier::X2 => 2.0 * x,
            SrcModifier::X2Neg => -(2.0 * x),
            SrcModifier::Abs => x.abs(),
            SrcModifier::AbsNeg => -x.abs(),
            _ => x,
        })
    }

    fn pred_ok(&self, s: &State, inst: &Instruction, c: usize) -> bool {
        match inst.predicate {
            None => true,
            Some(p) => s.p[p.swizzle.get(c) as usize] != (p.modifier == SrcModifier::Not),
        }
    }

    /// Computes the destination writes of an arithmetic result (applied later: co-issue).
    fn writes(
        &self,
        s: &State,
        inst: &Instruction,
        d: &DstParam,
        v: [f32; 4],
    ) -> Vec<(Target, usize, f32)> {
        let arith = self.profile.is_ps1() && !dxso::slots::is_texture_address(inst.opcode);
        let scale = (d.shift.0 as f32).exp2();
        let target = match out_reg(self.shader, d.register) {
            Some(OutputRegister::O(n)) if d.relative.is_some() => {
                let i = n as i64 + self.rel_index(s, d.relative.unwrap());
                if !(0..12).contains(&i) {
                    return Vec::new();
                }
                Target::Out(OutputRegister::O(i as u8))
            }
            Some(o) => Target::Out(o),
            None if d.register.ty == R::Addr && self.profile.is_ps11_13() => {
                Target::T(d.register.num as usize)
            }
            None => Target::R(d.register.num as usize),
        };
        let scalar = matches!(
            target,
            Target::Out(OutputRegister::Fog | OutputRegister::PointSize | OutputRegister::Depth)
        );
        let mut out = Vec::new();
        for c in 0..4 {
            if d.mask.0 & (1 << c) == 0 || (scalar && c > 0) || !self.pred_ok(s, inst, c) {
                continue;
            }
            let mut x = v[c];
            if scale != 1.0 {
                x *= scale;
            }
            if arith && self.clamp.is_finite() {
                x = math::range_clamp(x, self.clamp);
            }
            if d.modifiers.saturate() {
                x = math::saturate(x);
            }
            out.push((target, c, x));
        }
        out
    }

    fn commit(s: &mut State, writes: Vec<(Target, usize, f32)>) {
        for (t, c, x) in writes {
            match t {
                Target::R(n) => s.r[n][c] = x,
                Target::T(n) => s.t[n][c] = x,
                Target::Out(o) => s.outputs.entry(o).or_insert([0.0; 4])[c] = x,
            }
        }
    }

    fn sampler(&self, index: u8) -> (Option<&dxso_exec::Texture>, SamplerState) {
        match self.samplers.get(index as usize) {
            Some(s) => (s.texture.as_deref(), s.state),
            None => (None, SamplerState::default()),
        }
    }

    fn sample(&self, index: u8, coord: [f32; 3], lod: f32) -> [f32; 4] {
        match self.sampler(index) {
            (Some(t), state) => dxso_exec::sampler::sample(t, &state, coord, lod),
            (None, _) => dxso_exec::sampler::UNBOUND,
        }
    }

    fn stage(&self, m: u8) -> dxso_exec::StageState {
        self.samplers
            .get(m as usize)
            .map(|s| s.stage)
            .unwrap_or_default()
    }

    /// Runs one invocation.
    pub fn run(&self, inputs: &HashMap<InputRegister, [f32; 4]>) -> Result<RefOutput, OverBudget> {
        let mut s = State {
            r: [[0.0; 4]; 32],
            t: [[0.0; 4]; 8],
            outputs: BTreeMap::new(),
            a0: [0; 4],
            al: 0,
            p: [false; 4],
            rows: [0.0; 3],
            row: 0,
            killed: false,
            count: 0,
        };
        let z = self.zero_times;
        let mul = |a: f32, b: f32| math::mul(a, b, z);
        let dp3 = |a: [f32; 4], b: [f32; 4]| math::dp3([a[0], a[1], a[2]], [b[0], b[1], b[2]], z);
        let mut calls: Vec<(usize, usize)> = Vec::new();
        let mut loops: Vec<LoopFrame> = Vec::new();
        let mut pc = 0usize;
        let mut pending: Vec<(Target, usize, f32)> = Vec::new();
        macro_rules! tick {
            ($n:expr) => {{
                s.count += $n;
                if s.count > self.budget {
                    return Err(OverBudget);
                }
            }};
        }
        while let Some(&inst) = self.insts.get(pc) {
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
                tick!(1);
            }
            let src = |i: usize, s: &State| self.src(s, inputs, &inst.srcs[i]);
            let mut result: Option<[f32; 4]> = None;
            let m = inst.dst.map(|d| d.register.num as u8).unwrap_or(0);
            match inst.opcode {
                Nop | Dcl | Def | DefI | DefB | Phase => {}
                Label => break,
                Mov if inst.dst.unwrap().register.ty == R::Addr
                    && self.shader.version.is_vertex() =>
                {
                    let v = src(0, &s);
                    for c in 0..4 {
                        if inst.dst.unwrap().mask.0 & (1 << c) != 0 && self.pred_ok(&s, inst, c) {
                            s.a0[c] = math::floor_address(v[c]);
                        }
                    }
                }
                MovA => {
                    let v = src(0, &s);
                    for c in 0..4 {
                        if inst.dst.unwrap().mask.0 & (1 << c) != 0 && self.pred_ok(&s, inst, c) {
                            s.a0[c] = math::round_address(v[c]);
                        }
                    }
                }
                Mov => result = Some(src(0, &s)),
                Add => result = Some(zip2(src(0, &s), src(1, &s), |a, b| a + b)),
                Sub => result = Some(zip2(src(0, &s), src(1, &s), |a, b| a - b)),
                Mul => result = Some(zip2(src(0, &s), src(1, &s), mul)),
                Mad => {
                    let (a, b, c) = (src(0, &s), src(1, &s), src(2, &s));
                    result = Some(std::array::from_fn(|i| mul(a[i], b[i]) + c[i]));
                }
                Lrp => {
                    let (a, b, c) = (src(0, &s), src(1, &s), src(2, &s));
                    result = Some(std::array::from_fn(|i| mul(a[i], b[i] - c[i]) + c[i]));
                }
                Min => result = Some(zip2(src(0, &s), src(1, &s), math::min)),
                Max => result = Some(zip2(src(0, &s), src(1, &s), math::max)),
                Slt => result = Some(zip2(src(0, &s), src(1, &s), |a, b| (a < b) as u8 as f32)),
                Sge => result = Some(zip2(src(0, &s), src(1, &s), |a, b| (a >= b) as u8 as f32)),
                Cmp => {
                    let (a, b, c) = (src(0, &s), src(1, &s), src(2, &s));
                    result = Some(std::array::from_fn(
                        |i| if a[i] >= 0.0 { b[i] } else { c[i] },
                    ));
                }
                Cnd if inst.coissue && self.profile.is_ps11_13() => result = Some(src(1, &s)),
                Cnd => {
                    let (a, b, c) = (src(0, &s), src(1, &s), src(2, &s));
                    result = Some(std::array::from_fn(
                        |i| if a[i] > 0.5 { b[i] } else { c[i] },
                    ));
                }
                Abs => result = Some(src(0, &s).map(f32::abs)),
                Frc => result = Some(src(0, &s).map(math::frc)),
                Sgn => result = Some(src(0, &s).map(math::sgn)),
                Rcp => result = Some([math::rcp(src(0, &s)[0]); 4]),
                Rsq => result = Some([math::rsq(src(0, &s)[0]); 4]),
                Exp => result = Some([math::exp(src(0, &s)[0]); 4]),
                Log | LogP => result = Some([math::log(src(0, &s)[0]); 4]),
                ExpP if self.shader.version.major < 2 => {
                    result = Some(math::expp_sm1(src(0, &s)[0]))
                }
                ExpP => result = Some([math::exp(src(0, &s)[0]); 4]),
                Pow => result = Some([math::pow(src(0, &s)[0], src(1, &s)[0]); 4]),
                SinCos => {
                    let x = src(0, &s)[0];
                    let d = inst.dst.unwrap();
                    let mut d2 = d;
                    d2.mask.0 &= 3;
                    let w = self.writes(&s, inst, &d2, [x.cos(), x.sin(), 0.0, 0.0]);
                    pending.extend(w);
                }
                Dp3 => result = Some([dp3(src(0, &s), src(1, &s)); 4]),
                Dp4 => {
                    let (a, b) = (src(0, &s), src(1, &s));
                    result = Some([math::dp4(a, b, z); 4]);
                }
                Dp2Add => {
                    let (a, b, c) = (src(0, &s), src(1, &s), src(2, &s));
                    result = Some([mul(a[0], b[0]) + mul(a[1], b[1]) + c[0]; 4]);
                }
                M4x4 | M4x3 | M3x4 | M3x3 | M3x2 => {
                    let (len, rows) = match inst.opcode {
                        M4x4 => (4, 4),
                        M4x3 => (4, 3),
                        M3x4 => (3, 4),
                        M3x3 => (3, 3),
                        _ => (3, 2),
                    };
                    let a = src(0, &s);
                    let mut v = [0.0; 4];
                    for (k, slot) in v.iter_mut().enumerate().take(rows) {
                        let mut p = inst.srcs[1];
                        p.register.num += k as u16;
                        let row = self.src(&s, inputs, &p);
                        *slot = if len == 4 {
                            math::dp4(a, row, z)
                        } else {
                            dp3(a, row)
                        };
                    }
                    let mut d = inst.dst.unwrap();
                    d.mask.0 &= (1 << rows) - 1;
                    pending.extend(self.writes(&s, inst, &d, v));
                }
                Crs => {
                    let (a, b) = (src(0, &s), src(1, &s));
                    let v = [
                        mul(a[1], b[2]) - mul(a[2], b[1]),
                        mul(a[2], b[0]) - mul(a[0], b[2]),
                        mul(a[0], b[1]) - mul(a[1], b[0]),
                        0.0,
                    ];
                    let mut d = inst.dst.unwrap();
                    d.mask.0 &= 7;
                    pending.extend(self.writes(&s, inst, &d, v));
                }
                Nrm => {
                    let a = src(0, &s);
                    let f = math::nrm_factor(dp3(a, a));
                    result = Some(a.map(|x| mul(x, f)));
                }
                Lit => {
                    let a = src(0, &s);
                    result = Some(math::lit(a[0], a[1], a[3]));
                }
                Dst => {
                    let (a, b) = (src(0, &s), src(1, &s));
                    result = Some([1.0, mul(a[1], b[1]), a[2], b[3]]);
                }
                Dsx | Dsy => panic!("the reference does not run derivatives"),
                SetP => {
                    let (a, b) = (src(0, &s), src(1, &s));
                    let cmp = inst.comparison().unwrap();
                    for c in 0..4 {
                        if inst.dst.unwrap().mask.0 & (1 << c) != 0 {
                            s.p[c] = cmp.test(a[c], b[c]);
                        }
                    }
                }
                TexKill => {
                    let d = inst.dst.unwrap();
                    let v = match d.register.ty {
                        R::Addr if self.profile.is_ps1() || self.profile.is_ps11_13() => {
                            Self::input(inputs, InputRegister::T(d.register.num as u8))
                        }
                        R::Addr => Self::input(inputs, InputRegister::T(d.register.num as u8)),
                        R::Input => Self::input(inputs, InputRegister::V(d.register.num as u8)),
                        _ => s.r[d.register.num as usize],
                    };
                    let mask = if self.profile.is_ps1() { 7 } else { d.mask.0 };
                    for c in 0..4 {
                        if mask & (1 << c) != 0 && v[c] < 0.0 && self.pred_ok(&s, inst, c) {
                            s.killed = true;
                        }
                    }
                }
                // Shader model 2+ sampling.
                TexLdl | TexLdd | Tex if self.shader.version.major >= 2 || inst.opcode != Tex => {
                    let mut c = src(0, &s);
                    let mode = inst.texld_mode().unwrap_or(dxso::TexldMode::Plain);
                    let sampler = inst.srcs[1].register.num as u8;
                    if inst.opcode == Tex && mode == dxso::TexldMode::Project {
                        let w = c[3];
                        c = [c[0] / w, c[1] / w, c[2] / w, w];
                    }
                    let coord = [c[0], c[1], c[2]];
                    let lod = match inst.opcode {
                        TexLdl => c[3],
                        TexLdd => {
                            let (dx, dy) = (src(2, &s), src(3, &s));
                            match self.sampler(sampler).0 {
                                Some(t) => dxso_exec::sampler::lod_from_derivatives(
                                    t,
                                    coord,
                                    [dx[0], dx[1], dx[2]],
                                    [dy[0], dy[1], dy[2]],
                                ),
                                None => 0.0,
                            }
                        }
                        _ if self.shader.version.is_vertex() => 0.0,
                        _ if mode == dxso::TexldMode::Bias => c[3],
                        _ => 0.0,
                    };
                    let t = self.sample(sampler, coord, lod);
                    let sw = inst.srcs[1].swizzle.components();
                    result = Some(sw.map(|i| t[i as usize]));
                }
                // ps_1_x texture instructions.
                Tex if !self.profile.is_ps11_13() => {
                    let c = src(0, &s);
                    result = Some(self.sample(m, [c[0], c[1], c[2]], 0.0));
                }
                Tex => {
                    let tc = Self::input(inputs, InputRegister::T(m));
                    let p = project(tc, self.stage(m).projection_divisor());
                    result = Some(self.sample(m, p, 0.0));
                }
                TexCoord if self.profile.is_ps11_13() => {
                    let tc = Self::input(inputs, InputRegister::T(m));
                    result = Some([
                        math::saturate(tc[0]),
                        math::saturate(tc[1]),
                        math::saturate(tc[2]),
                        1.0,
                    ]);
                }
                TexCoord => result = Some(src(0, &s)),
                TexBem | TexBemL => {
                    let t = src(0, &s);
                    let st = self.stage(m);
                    let tc = project(
                        Self::input(inputs, InputRegister::T(m)),
                        st.projection_divisor(),
                    );
                    let b = st.bump_env_mat;
                    let u = mul(b[2], t[1]) + (mul(b[0], t[0]) + tc[0]);
                    let v = mul(b[3], t[1]) + (mul(b[1], t[0]) + tc[1]);
                    let mut r = self.sample(m, [u, v, 0.0], 0.0);
                    if inst.opcode == TexBemL {
                        let l = mul(t[2], st.bump_env_lscale) + st.bump_env_loffset;
                        r = r.map(|x| mul(x, l));
                    }
                    result = Some(r);
                }
                TexReg2Ar | TexReg2Gb | TexReg2Rgb => {
                    let t = src(0, &s);
                    let c = match inst.opcode {
                        TexReg2Ar => [t[3], t[0], 0.0],
                        TexReg2Gb => [t[1], t[2], 0.0],
                        _ => [t[0], t[1], t[2]],
                    };
                    result = Some(self.sample(m, c, 0.0));
                }
                TexM3x2Pad | TexM3x3Pad => {
                    if inst.opcode == TexM3x2Pad || s.row >= 2 {
                        s.row = 0;
                    }
                    let t = src(0, &s);
                    let tc = Self::input(inputs, InputRegister::T(m));
                    s.rows[s.row] = dp3(tc, t);
                    s.row += 1;
                }
                TexM3x2Tex | TexM3x2Depth => {
                    let t = src(0, &s);
                    let v = dp3(Self::input(inputs, InputRegister::T(m)), t);
                    let u = s.rows[0];
                    s.row = 0;
                    if inst.opcode == TexM3x2Tex {
                        result = Some(self.sample(m, [u, v, 0.0], 0.0));
                    } else {
                        s.outputs.entry(OutputRegister::Depth).or_insert([0.0; 4])[0] =
                            math::texm3x2_depth(u, v);
                    }
                }
                TexM3x3Tex | TexM3x3 | TexM3x3Spec | TexM3x3VSpec => {
                    let t = src(0, &s);
                    let w = dp3(Self::input(inputs, InputRegister::T(m)), t);
                    let n = [s.rows[0], s.rows[1], w];
                    s.row = 0;
                    result = Some(match inst.opcode {
                        TexM3x3Tex => self.sample(m, n, 0.0),
                        TexM3x3 => [n[0], n[1], n[2], 1.0],
                        _ => {
                            let e = if inst.opcode == TexM3x3Spec {
                                let c = src(1, &s);
                                [c[0], c[1], c[2]]
                            } else {
                                let w = |k: u8| Self::input(inputs, InputRegister::T(k))[3];
                                [w(m - 2), w(m - 1), w(m)]
                            };
                            let sc = math::reflect_scale(n, e, z);
                            let r: [f32; 3] =
                                std::array::from_fn(|i| math::reflect_component(sc, n[i], e[i], z));
                            self.sample(m, r, 0.0)
                        }
                    });
                }
                TexDp3Tex | TexDp3 => {
                    let t = src(0, &s);
                    let u = dp3(Self::input(inputs, InputRegister::T(m)), t);
                    result = Some(if inst.opcode == TexDp3 {
                        [u; 4]
                    } else {
                        self.sample(m, [u, 0.0, 0.0], 0.0)
                    });
                }
                TexDepth => {
                    let r5 = s.r[m as usize];
                    s.outputs.entry(OutputRegister::Depth).or_insert([0.0; 4])[0] =
                        math::texdepth(r5[0], r5[1]);
                }
                Bem => {
                    let (a, b) = (src(0, &s), src(1, &s));
                    let mt = self.stage(m).bump_env_mat;
                    let x = mul(mt[2], b[1]) + (mul(mt[0], b[0]) + a[0]);
                    let y = mul(mt[3], b[1]) + (mul(mt[1], b[0]) + a[1]);
                    result = Some([x, y, 0.0, 0.0]);
                }
                TexM3x3Diff | TexLdl | TexLdd => panic!("not an instruction of this version"),
                // Flow control.
                If | Ifc => {
                    let take = if inst.opcode == If {
                        self.bool_or_pred(&s, &inst.srcs[0])
                    } else {
                        inst.comparison()
                            .unwrap()
                            .test(src(0, &s)[0], src(1, &s)[0])
                    };
                    if !take {
                        let e = self.matching[&pc];
                        pc = e + 1;
                        continue;
                    }
                }
                Else => {
                    pc = self.matching[&pc] + 1;
                    continue;
                }
                EndIf => {}
                Loop | Rep => {
                    let v = self.ints[inst.srcs[if inst.opcode == Loop { 1 } else { 0 }]
                        .register
                        .num as usize
                        & 15];
                    let n = v[0].clamp(0, 255) as u32;
                    let end = self.matching[&pc];
                    if n == 0 {
                        pc = end + 1;
                        continue;
                    }
                    loops.push(LoopFrame {
                        start: pc + 1,
                        end,
                        remaining: n,
                        step: v[2],
                        sets_al: inst.opcode == Loop,
                        saved_al: s.al,
                    });
                    if inst.opcode == Loop {
                        s.al = v[1];
                    }
                    tick!(1);
                }
                EndLoop | EndRep => {
                    let f = loops.last_mut().unwrap();
                    f.remaining -= 1;
                    if f.remaining > 0 {
                        if f.sets_al {
                            s.al = s.al.wrapping_add(f.step);
                        }
                        pc = f.start;
                        tick!(1);
                        continue;
                    }
                    s.al = f.saved_al;
                    loops.pop();
                }
                Break | BreakC | BreakP => {
                    let take = match inst.opcode {
                        Break => true,
                        BreakC => inst
                            .comparison()
                            .unwrap()
                            .test(src(0, &s)[0], src(1, &s)[0]),
                        _ => self.bool_or_pred(&s, &inst.srcs[0]),
                    };
                    if take {
                        let f = loops.pop().unwrap();
                        s.al = f.saved_al;
                        pc = f.end + 1;
                        continue;
                    }
                }
                Call | CallNz => {
                    let take = inst.opcode == Call || self.bool_or_pred(&s, &inst.srcs[1]);
                    if take {
                        tick!(1);
                        calls.push((pc + 1, loops.len()));
                        pc = self.labels[&inst.srcs[0].register.num] + 1;
                        continue;
                    }
                }
                Ret => match calls.pop() {
                    Some((back, depth)) => {
                        loops.truncate(depth);
                        pc = back;
                        continue;
                    }
                    None => break,
                },
            }
            if let Some(v) = result {
                let d = inst.dst.unwrap();
                pending.extend(self.writes(&s, inst, &d, v));
            }
            let next_coissued = self.insts.get(pc + 1).is_some_and(|n| n.coissue);
            if !next_coissued {
                Self::commit(&mut s, std::mem::take(&mut pending));
            }
            pc += 1;
        }
        Self::commit(&mut s, pending);
        if self.profile.is_ps1() {
            s.outputs.insert(OutputRegister::Target(0), s.r[0]);
        }
        Ok(RefOutput {
            outputs: s.outputs,
            killed: s.killed,
            count: s.count,
        })
    }

    fn bool_or_pred(&self, s: &State, p: &SrcParam) -> bool {
        if p.register.ty == R::Predicate {
            s.p[p.swizzle.get(0) as usize] != (p.modifier == SrcModifier::Not)
        } else {
            self.bools[p.register.num as usize & 15] != (p.modifier == SrcModifier::Not)
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Target {
    R(usize),
    T(usize),
    Out(OutputRegister),
}

fn zip2(a: [f32; 4], b: [f32; 4], f: impl Fn(f32, f32) -> f32) -> [f32; 4] {
    std::array::from_fn(|i| f(a[i], b[i]))
}

fn project(tc: [f32; 4], divisor: Option<usize>) -> [f32; 3] {
    match divisor {
        Some(d) => [tc[0] / tc[d], tc[1] / tc[d], tc[2] / tc[d]],
        None => [tc[0], tc[1], tc[2]],
    }
}

/// Silences "unused" for helpers only some test files use.
pub fn _unused(_: Comparison) {}
