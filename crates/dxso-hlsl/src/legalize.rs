//! Rewrites a lowered module into the operations vs_1_1 has, before code generation.
//!
//! vs_1_1 has no `abs`, `pow`, `lrp`, `nrm`, `sincos`, `cmp` or `mova`, no `_abs` source
//! modifier, and its `frc` writes only `.y` or `.xy` (three slots). The module is rebuilt node by
//! node, each node the others read replaced by the same value computed with what vs_1_1 has
//! (the fraction, sine and cosine as fxc's own vs_1_1 code computes them):
//!
//! - `abs(x)` is `max(x, -x)`;
//! - `pow(x, y)` is `exp(y * log(x))` (the full-precision `exp` and `log`);
//! - `cmp(a, b, c)` is `lrp(sge(a, 0), b, c)`, which code generation writes as `add` and `mad`;
//! - `nrm(x)` is `x * rsq(dot(x, x))`;
//! - `frac(x)` is computed lane by lane into `.y` of its own register by `expp` (one slot; its
//!   `.y` is `x - floor(x)`), and read from there;
//! - `sincos(x)` is fxc's series: the angle is reduced to `t` in `[-pi, pi)` through `frac`
//!   (a quarter turn earlier for the sine), and fxc's even polynomial of degree 10 gives
//!   `cos t` (within 1e-4), in two lanes when both are read;
//! - a relative read `c[base + round(i)]` gets `i + 0.5`, because `mov a0.x` floors where `mova`
//!   rounds (not when `i` is known to be an integer).
//!
//! Two choices save slots, of which vs_1_1 has 128: a value that is the same in every lane is
//! read from the lane of the vector it is gathered into, so code generation computes it there;
//! and a uniform that meets other constant registers in several nodes is read from one copy.

use crate::diag::{Code, Diagnostic, Loc};
use crate::ir::{Handle, Lane, Module, Op, Operand};
use crate::Profile;

/// fxc's vs_1_1 cosine of `t` in `[-pi, pi]`: an even polynomial of degree 10, its
/// coefficients of `t^2` highest power first, as fxc's `def`s hold them (within 1e-4 of `cos`).
const COS_SERIES: [f32; 6] = [
    -2.523_985e-7,
    2.476_09e-5,
    -0.001_388_839_7,
    0.041_666_64,
    -0.5,
    1.0,
];

/// The module rebuilt for `profile`, or `None` when the profile has every operation the module
/// uses (every profile but vs_1_1).
pub(crate) fn legalize(m: &Module, profile: Profile) -> Result<Option<Module>, Diagnostic> {
    if profile != Profile::Vs11 {
        return Ok(None);
    }
    if !m.loops.is_empty() {
        return Err(Diagnostic::error(
            Code::Limit,
            Loc::default(),
            "internal: vs_1_1 has no flow control, and a loop was kept",
        ));
    }
    let demand = m.demand();
    let shared = shared_uniforms(m, &demand);
    let mut l = Legal {
        new: Module::default(),
        map: Vec::with_capacity(m.nodes.len()),
        copies: Default::default(),
        copy: None,
    };
    l.new.inputs = m.inputs.clone();
    l.new.uniforms = m.uniforms.clone();
    l.new.samplers = m.samplers.clone();
    for (i, node) in m.nodes.iter().enumerate() {
        let o = if demand[i] == 0 {
            // Dead: nothing reads it, so it need not be rebuilt.
            l.new.scalar(0.0)
        } else {
            l.copy = shared[i];
            let o = l.node(node.op, node.width, demand[i]);
            l.copy = None;
            o
        };
        l.map.push(o);
        // A series or a fraction is a dozen nodes: the module may grow, but not unbounded.
        if l.new.nodes.len() > crate::ir::MAX_NODES {
            return Err(Diagnostic::error(
                Code::Limit,
                Loc::default(),
                "the shader grows past 262144 operations as vs_1_1 code",
            ));
        }
    }
    for out in &m.outputs {
        let mut out = out.clone();
        out.value = l.operand(out.value);
        l.new.outputs.push(out);
    }
    for k in &m.kills {
        let k = l.operand(*k);
        l.new.kills.push(k);
    }
    Ok(Some(l.new))
}

/// `true` when every lane of `op` holds the same value: dot products and scalar functions,
/// and lane-wise arithmetic whose operands each hold one value in the lanes they read (looked
/// for `depth` nodes down).
fn replicated(m: &Module, op: Op, depth: u8) -> bool {
    let one = |o: &Operand| {
        o.swz.iter().all(|&c| c == o.swz[0])
            || match m.node(o.h).op {
                Op::Literal(b) => b.iter().all(|&x| x == b[0]),
                op => depth > 0 && replicated(m, op, depth - 1),
            }
    };
    match op {
        Op::Dot(..) | Op::Rcp(_) | Op::Rsq(_) | Op::Exp(_) | Op::Log(_) | Op::Pow(..) => true,
        Op::Add(a, b)
        | Op::Mul(a, b)
        | Op::Min(a, b)
        | Op::Max(a, b)
        | Op::Slt(a, b)
        | Op::Sge(a, b) => one(&a) && one(&b),
        Op::Mad(a, b, c) | Op::Lrp(a, b, c) => one(&a) && one(&b) && one(&c),
        _ => false,
    }
}

/// `true` when lane 0 of `o` is known to hold an integer: an integral literal, `x -
/// frac(x)`, sums, products and 0/1 selects of integers (looked for `depth` nodes down).
fn integral(m: &Module, o: Operand, depth: u8) -> bool {
    if let Some(v) = m.literal_lane(o, 0) {
        return v == v.round();
    }
    if depth == 0 {
        return false;
    }
    let lane = |x: Operand| x.lane(o.swz[0]);
    let is_01 = |x: Operand| matches!(m.node(x.h).op, Op::Slt(..) | Op::Sge(..));
    match m.node(o.h).op {
        Op::Add(a, b) => {
            let (a, b) = (lane(a), lane(b));
            // x - frac(x): the fraction is read from `.y` of a node of one lane of x.
            let floor_of = |x: Operand, f: Operand| {
                f.neg
                    && !f.abs
                    && matches!(m.node(f.h).op, Op::Frc(y)
                        if y.h == x.h && y.swz[0] == x.swz[0] && y.neg == x.neg && y.abs == x.abs)
            };
            floor_of(a, b)
                || floor_of(b, a)
                || (integral(m, a, depth - 1) && integral(m, b, depth - 1))
        }
        Op::Mul(a, b) => integral(m, lane(a), depth - 1) && integral(m, lane(b), depth - 1),
        Op::Lrp(s, b, c) => {
            is_01(s) && integral(m, lane(b), depth - 1) && integral(m, lane(c), depth - 1)
        }
        Op::Slt(..) | Op::Sge(..) => true,
        _ => false,
    }
}

/// For each node reading two constant registers (a vertex instruction reads one), the uniform
/// to read from a copy in a temporary instead, when that uniform meets another constant in
/// more than one node: one `mov` then serves them all (`mov r1.xyz, c7` and three `dp3`s
/// against `c4`-`c6`, rather than a copy of each of `c4`-`c6`).
fn shared_uniforms(m: &Module, demand: &[u8]) -> Vec<Option<Handle>> {
    let constants = |i: usize| {
        let mut c: Vec<Handle> = crate::lower::operands(&m.nodes[i].op)
            .into_iter()
            .filter(|h| matches!(m.node(*h).op, Op::Uniform(_) | Op::Literal(_)))
            .collect();
        c.sort();
        c.dedup();
        c
    };
    let mut meets = vec![0u32; m.nodes.len()];
    for (i, &d) in demand.iter().enumerate() {
        let c = constants(i);
        if d != 0 && c.len() > 1 {
            for h in c {
                meets[h.0 as usize] += 1;
            }
        }
    }
    (0..m.nodes.len())
        .map(|i| {
            let c = constants(i);
            if demand[i] == 0 || c.len() < 2 {
                return None;
            }
            c.into_iter()
                .filter(|h| matches!(m.node(*h).op, Op::Uniform(_)) && meets[h.0 as usize] > 1)
                .max_by_key(|h| meets[h.0 as usize])
        })
        .collect()
}

struct Legal {
    new: Module,
    /// The new value of each old node.
    map: Vec<Operand>,
    /// The copy in a temporary of each old uniform node read from one (see
    /// [`shared_uniforms`]).
    copies: std::collections::HashMap<Handle, Operand>,
    /// The uniform the node being rebuilt reads from its copy.
    copy: Option<Handle>,
}

impl Legal {
    /// An old operand read from the new module, without an `_abs` modifier.
    fn operand(&mut self, o: Operand) -> Operand {
        let by = if self.copy == Some(o.h) {
            self.copy_of(o.h)
        } else {
            self.map[o.h.0 as usize]
        };
        let r = crate::ir::substitute_operand(o, &[(o.h, by)]);
        if !r.abs {
            return r;
        }
        // |x| = max(x, -x), computed on the whole node so other swizzles share it.
        let width = self.new.node(r.h).width;
        let base = Operand::of(r.h);
        let a = self.new.op(Op::Max(base, base.negate()), width);
        let mut out = a.swizzle(r.swz);
        out.neg ^= r.neg;
        out
    }

    /// The copy of old uniform node `h` in a temporary (a gathering of its own lanes, which
    /// code generation writes with one `mov`).
    fn copy_of(&mut self, h: Handle) -> Operand {
        if let Some(&c) = self.copies.get(&h) {
            return c;
        }
        let u = self.map[h.0 as usize];
        let width = self.new.node(u.h).width.max(1);
        let parts = std::array::from_fn(|k| {
            Some(Lane {
                h: u.h,
                lane: u.swz[k],
                neg: u.neg,
                abs: u.abs,
            })
        });
        let c = self.new.op(Op::Compose(parts), width);
        self.copies.insert(h, c);
        c
    }

    fn lane(&mut self, p: Lane) -> Lane {
        let o = self.operand(Operand {
            h: p.h,
            swz: [p.lane; 4],
            neg: p.neg,
            abs: p.abs,
        });
        Lane {
            h: o.h,
            lane: o.swz[0],
            neg: o.neg,
            abs: o.abs,
        }
    }

    /// The new value of a node computing `op` on `w` lanes, of which `demand` are read.
    fn node(&mut self, op: Op, w: u8, demand: u8) -> Operand {
        match op {
            Op::Literal(_) | Op::Input(_) | Op::Uniform(_) => Operand::of(self.new.push(op, w)),
            Op::Add(a, b) => {
                let (a, b) = (self.operand(a), self.operand(b));
                self.new.op(Op::Add(a, b), w)
            }
            Op::Mul(a, b) => {
                let (a, b) = (self.operand(a), self.operand(b));
                self.new.op(Op::Mul(a, b), w)
            }
            Op::Mad(a, b, c) => {
                let (a, b, c) = (self.operand(a), self.operand(b), self.operand(c));
                self.new.op(Op::Mad(a, b, c), w)
            }
            Op::Min(a, b) => {
                let (a, b) = (self.operand(a), self.operand(b));
                self.new.op(Op::Min(a, b), w)
            }
            Op::Max(a, b) => {
                let (a, b) = (self.operand(a), self.operand(b));
                self.new.op(Op::Max(a, b), w)
            }
            Op::Slt(a, b) => {
                let (a, b) = (self.operand(a), self.operand(b));
                self.new.op(Op::Slt(a, b), w)
            }
            Op::Sge(a, b) => {
                let (a, b) = (self.operand(a), self.operand(b));
                self.new.op(Op::Sge(a, b), w)
            }
            Op::Dot(n, a, b) => {
                let (a, b) = (self.operand(a), self.operand(b));
                self.new.op(Op::Dot(n, a, b), w)
            }
            Op::Rcp(a) => {
                let a = self.operand(a);
                self.new.op(Op::Rcp(a), w)
            }
            Op::Rsq(a) => {
                let a = self.operand(a);
                self.new.op(Op::Rsq(a), w)
            }
            Op::Exp(a) => {
                let a = self.operand(a);
                self.new.op(Op::Exp(a), w)
            }
            Op::Log(a) => {
                let a = self.operand(a);
                self.new.op(Op::Log(a), w)
            }
            Op::Sat(a) => {
                let a = self.operand(a);
                self.new.op(Op::Sat(a), w)
            }
            Op::Lrp(a, b, c) => {
                let (a, b, c) = (self.operand(a), self.operand(b), self.operand(c));
                self.new.op(Op::Lrp(a, b, c), w)
            }
            Op::Abs(a) => {
                let a = self.operand(a);
                self.new.op(Op::Max(a, a.negate()), w)
            }
            Op::Pow(a, b) => {
                let (a, b) = (self.operand(a), self.operand(b));
                self.pow(a, b)
            }
            Op::Cmp(a, b, c) => {
                let (a, b, c) = (self.operand(a), self.operand(b), self.operand(c));
                let zero = self.new.scalar(0.0);
                let s = self.new.op(Op::Sge(a, zero), w);
                self.new.op(Op::Lrp(s, b, c), w)
            }
            Op::Nrm(a) => {
                let a = self.operand(a);
                let d = self.new.op(Op::Dot(3, a, a), 1);
                let r = self.new.op(Op::Rsq(d.lane(0)), 1);
                self.new.op(Op::Mul(a, r.lane(0)), w)
            }
            Op::Frc(a) => {
                let a = self.operand(a);
                let lanes: Vec<Operand> = (0..w)
                    .map(|k| {
                        // Undemanded lanes repeat a demanded one (nothing reads them).
                        let k = if demand & (1 << k) != 0 {
                            k
                        } else {
                            demand.trailing_zeros().min(3) as u8
                        };
                        self.frac(a.lane(k))
                    })
                    .collect();
                self.new.compose(&lanes)
            }
            Op::SinCos(a) => {
                let a = self.operand(a);
                let (cos, sin) = self.sincos(a.lane(0), demand);
                self.new.compose(&[cos, sin])
            }
            Op::UniformRel(base, index) => {
                let index = self.operand(index).lane(0);
                let index = match integral(&self.new, index, 6) {
                    true => index,
                    false => {
                        // `mov a0.x` floors: floor(i + 0.5) is the nearest integer.
                        let half = self.new.scalar(0.5);
                        self.new.op(Op::Add(index, half), 1)
                    }
                };
                self.new.op(Op::UniformRel(base, index), w)
            }
            Op::Compose(parts) => {
                let mut parts = parts.map(|p| p.map(|p| self.lane(p)));
                for (k, p) in parts.iter_mut().enumerate() {
                    let Some(p) = p else { continue };
                    // A lane of a gathered vector is read where it was gathered from.
                    if let Op::Compose(inner) = self.new.node(p.h).op {
                        if let Some(q) = inner[p.lane as usize & 3] {
                            if !p.abs {
                                *p = Lane {
                                    neg: p.neg ^ q.neg,
                                    ..q
                                };
                            }
                        }
                    }
                    // A value that is the same in every lane (a dot product, a scalar
                    // function, arithmetic on single lanes) is read from the lane it fills,
                    // so it can be computed there, where the vector is gathered (`dp4 r0.y`
                    // and no `mov r0.y, r1.x`): vs_1_1 has 128 slots.
                    if !p.abs && replicated(&self.new, self.new.node(p.h).op, 4) {
                        p.lane = k as u8;
                    }
                }
                self.new.op(Op::Compose(parts), w)
            }
            Op::Sample(k, s, c, g) => {
                let c = self.operand(c);
                let g = g.map(|(x, y)| (self.operand(x), self.operand(y)));
                self.new.op(Op::Sample(k, s, c, g), w)
            }
            Op::Dsx(a) => {
                let a = self.operand(a);
                self.new.op(Op::Dsx(a), w)
            }
            Op::Dsy(a) => {
                let a = self.operand(a);
                self.new.op(Op::Dsy(a), w)
            }
            // `legalize` refuses modules with loops.
            Op::LoopBegin(_) | Op::Phi(..) | Op::LoopEnd(_) | Op::LoopElse(_) => {
                Operand::of(self.new.push(op, w))
            }
        }
    }

    /// `|a.x| ^ b.x` as `exp(b * log(a))`.
    fn pow(&mut self, a: Operand, b: Operand) -> Operand {
        let l = self.new.op(Op::Log(a.lane(0)), 1);
        let p = self.new.op(Op::Mul(l.lane(0), b.lane(0)), 1);
        self.new.op(Op::Exp(p.lane(0)), 1).lane(0)
    }

    /// `x - floor(x)` of a scalar, read from `.y` of the node (`expp`'s fraction lane).
    fn frac(&mut self, x: Operand) -> Operand {
        self.new.op(Op::Frc(x), 2).lane(1)
    }

    /// `(cos x, sin x)` of a scalar, each read from lane 0; `demand` bit 0 asks for the cosine,
    /// bit 1 for the sine (a value nothing reads is not built). As fxc computes them: the angle
    /// `t = 2pi frac(x / 2pi + phase) - pi` in `[-pi, pi)`, with phase 1/2 for the cosine and 1/4
    /// for the sine (`sin x = cos(x - pi/2)`), then [`COS_SERIES`] of `t`; both in two lanes
    /// when both are read.
    fn sincos(&mut self, x: Operand, demand: u8) -> (Operand, Operand) {
        use std::f32::consts::{PI, TAU};
        let phases: &[f32] = match demand & 3 {
            1 => &[0.5],
            2 => &[0.25],
            _ => &[0.5, 0.25],
        };
        let w = phases.len() as u8;
        let m = &mut self.new;
        let k = m.scalar(1.0 / TAU);
        let phase = m.literal([phases[0], *phases.last().unwrap_or(&0.5), 0.0, 0.0], w);
        let u = m.op(Op::Mad(x.lane(0), k, phase), w);
        let f: Vec<Operand> = (0..w).map(|i| self.frac(u.lane(i))).collect();
        let f = self.new.compose(&f);
        let m = &mut self.new;
        let (tau, neg_pi) = (m.scalar(TAU), m.scalar(-PI));
        let t = m.op(Op::Mad(f, tau, neg_pi), w);
        let p = m.op(Op::Mul(t, t), w);
        let (c0, c1) = (m.scalar(COS_SERIES[0]), m.scalar(COS_SERIES[1]));
        let mut r = m.op(Op::Mad(p, c0, c1), w);
        for &c in &COS_SERIES[2..] {
            let c = m.scalar(c);
            r = m.op(Op::Mad(p, r, c), w);
        }
        if w == 2 {
            (r.lane(0), r.lane(1))
        } else {
            (r.lane(0), r.lane(0))
        }
    }
}

#[cfg(all(test, feature = "equivalence"))]
mod tests {
    use crate::equivalence::{check, Tolerance};
    use crate::{compile, Code, Options, Profile, Source};
    use dxso::Opcode;
    use dxso_exec::{InputRegister, OutputRegister, Resources, VertexBatch, VertexShader};

    fn build(text: &str, profile: Profile) -> Result<dxso::Shader, crate::Diagnostics> {
        compile(&Source::new("t.hlsl", text), &Options::new("main", profile)).map(|c| c.shader)
    }

    /// Compiles `text` for vs_1_1 and vs_2_0, checks the vs_1_1 shader validates, uses no
    /// instruction vs_1_1 lacks, and runs as the vs_2_0 one does on dxso-exec; returns it.
    fn same_as_vs20(text: &str) -> dxso::Shader {
        let vs11 = build(text, Profile::Vs11).unwrap_or_else(|e| panic!("vs_1_1: {e}"));
        let vs20 = build(text, Profile::Vs20).unwrap_or_else(|e| panic!("vs_2_0: {e}"));
        let report = dxso::validate(&vs11);
        assert!(report.is_valid(), "{:?}", report.errors().next());
        for i in vs11.instructions() {
            assert!(
                i.opcode.info().allowed_in(vs11.version),
                "{:?} in vs_1_1",
                i.opcode
            );
        }
        let tolerance = Tolerance {
            absolute: 2e-4,
            relative: 2e-4,
        };
        for seed in 1..4 {
            if let Err(m) = check(&vs20, &vs11, 256, seed, tolerance) {
                panic!(
                    "{m}\n{text}\n{}\n{}",
                    dxso_text::print(&vs20),
                    dxso_text::print(&vs11)
                );
            }
        }
        vs11
    }

    fn count(s: &dxso::Shader, op: Opcode) -> usize {
        s.instructions().filter(|i| i.opcode == op).count()
    }

    const HEAD: &str = "struct O { float4 p : POSITION; float4 c : COLOR0; };\n";

    fn shader(body: &str) -> String {
        format!(
            "{HEAD}float4 k; float4 j;\nO main(float4 v : POSITION, float4 n : NORMAL) {{\n    O o; o.p = v;\n{body}\n    return o;\n}}\n"
        )
    }

    #[test]
    fn abs_is_max_of_x_and_minus_x() {
        let s = same_as_vs20(&shader("    o.c = abs(v) + abs(n.x - k);"));
        assert!(count(&s, Opcode::Max) >= 2);
    }

    #[test]
    fn pow_is_exp_of_log() {
        let s = same_as_vs20(&shader("    o.c = pow(abs(v) + 0.5, k.x * 2);"));
        assert!(count(&s, Opcode::Exp) >= 1 && count(&s, Opcode::Log) >= 1);
    }

    #[test]
    fn lerp_is_an_add_and_a_mad() {
        same_as_vs20(&shader("    o.c = lerp(v, n, k);"));
    }

    #[test]
    fn normalize_is_dp3_rsq_mul() {
        let s = same_as_vs20(&shader("    o.c = float4(normalize(n.xyz + 3), 1);"));
        assert_eq!(count(&s, Opcode::Rsq), 1);
        assert_eq!(count(&s, Opcode::Dp3), 1);
    }

    #[test]
    fn comparisons_and_selects_are_slt_sge_arithmetic() {
        same_as_vs20(&shader(
            "    o.c = v.x < k.x ? n : k;\n    if (v.y >= j.y) o.c.y = 3; else o.c.z = n.x > j.z ? 1 : -1;\n    o.c.w = (v.z == k.z) + (v.w != j.w) + step(k.w, n.w) + sign(n.y);",
        ));
    }

    #[test]
    fn frac_floor_ceil_fmod_go_through_expp() {
        let s = same_as_vs20(&shader(
            "    o.c = frac(v * 3) + floor(n * 2) + ceil(k - v) + fmod(n * 5, 1.5);",
        ));
        assert!(count(&s, Opcode::ExpP) >= 4);
        assert_eq!(count(&s, Opcode::Frc), 0);
    }

    #[test]
    fn saturate_is_max_and_min() {
        same_as_vs20(&shader("    o.c = saturate(v * 2 - n);"));
    }

    #[test]
    fn sin_cos_series_within_tolerance() {
        same_as_vs20(&shader(
            "    o.c = float4(sin(v.x * 3), cos(v.y * 7), sin(n.z) * cos(n.w), tan(k.x));",
        ));
        // Over a range of angles against f32 directly.
        let text = format!(
            "{HEAD}O main(float4 v : POSITION) {{ O o; o.p = v; o.c = float4(sin(v.x), cos(v.x), 0, 1); return o; }}"
        );
        let s = build(&text, Profile::Vs11).unwrap();
        assert!(dxso::validate(&s).is_valid());
        assert_eq!(count(&s, Opcode::SinCos), 0);
        let xs: Vec<f32> = (0..4001).map(|i| (i as f32 - 2000.0) * 0.05).collect();
        let vs = VertexShader::new(&s).unwrap();
        let mut b = VertexBatch::new(xs.len());
        b.set(
            InputRegister::V(0),
            xs.iter().map(|&x| [x, 0.0, 0.0, 1.0]).collect(),
        );
        let out = vs.run(&b, &Resources::default()).unwrap();
        let c = out.get(OutputRegister::Color(0)).unwrap();
        for (x, r) in xs.iter().zip(c) {
            // fxc's polynomial is within 1e-4 of cos on [-pi, pi] (9.4e-5 measured here, 9.5e-5
            // with the range reduction's rounding of x / 2pi for |x| <= 100).
            let tolerance = 1e-4;
            let (s, c) = ((r[0] - x.sin()).abs(), (r[1] - x.cos()).abs());
            assert!(s < tolerance, "sin({x}) = {} not {}", r[0], x.sin());
            assert!(c < tolerance, "cos({x}) = {} not {}", r[1], x.cos());
        }
    }

    #[test]
    fn uniform_arrays_are_indexed_through_mov_a0() {
        // Indices within the arrays (past their ends the two versions' files hold different
        // `def`s); fractional ones round as `mova` rounds.
        let text = "float4 arr[20]; float4x4 bones[8];\nstruct O { float4 p : POSITION; float4 c : COLOR0; };\nO main(float4 v : POSITION, float4 b : BLENDINDICES) { float4 i = saturate(b * 0.25 + 0.5); O o; o.p = mul(v, bones[i.x * 7]); o.c = arr[i.y * 19] + arr[i.z * 17 + 2]; return o; }";
        let s = same_as_vs20(text);
        assert_eq!(count(&s, Opcode::MovA), 0);
        assert!(s.instructions().any(|i| i.opcode == Opcode::Mov
            && i.dst
                .is_some_and(|d| d.register.ty == dxso::RegisterType::Addr)));
    }

    #[test]
    fn loops_unroll_and_branches_flatten() {
        let s = same_as_vs20(&shader(
            "    float4 a = 0;\n    for (int i = 0; i < 4; i++) { if (v[i] > k[i]) a += n * i; else a -= j; }\n    o.c = a;",
        ));
        assert!(s.instructions().all(|i| !matches!(
            i.opcode,
            Opcode::Rep | Opcode::If | Opcode::Loop | Opcode::Call
        )));
    }

    #[test]
    fn loops_on_integer_registers_are_refused() {
        let text = "int n : register(i0);\nfloat4 main(float4 v : POSITION) : POSITION { float4 a = v; for (int i = 0; i < n; i++) a += v; return a; }";
        let e = build(text, Profile::Vs11).unwrap_err();
        let d = e.errors().next().unwrap();
        assert_eq!(d.code, Code::Unsupported);
        assert!(d.message.contains("vs_1_1"), "{}", d.message);
        let text = "float4 main(float4 v : POSITION) : POSITION { float4 a = v; while (a.x > 0) a.x -= 1; return a; }";
        let e = build(text, Profile::Vs11).unwrap_err();
        assert_eq!(e.errors().next().unwrap().code, Code::UnrollLimit);
    }

    #[test]
    fn pixel_only_constructs_and_bool_registers_are_refused() {
        let head =
            "sampler2D s; bool b : register(b0);\nfloat4 main(float4 v : POSITION) : POSITION";
        for (body, says) in [
            ("{ if (v.x < 0) discard; return v; }", "discard"),
            ("{ clip(v); return v; }", "clip"),
            ("{ return tex2D(s, v.xy); }", "vs_3_0"),
            ("{ if (b) v = -v; return v; }", "vs_1_1"),
        ] {
            let e = build(&format!("{head} {body}"), Profile::Vs11).unwrap_err();
            let d = e.errors().next().unwrap();
            assert_eq!(d.code, Code::Unsupported, "{body}: {d}");
            assert!(d.message.contains(says), "{body}: {}", d.message);
        }
    }

    #[test]
    fn too_many_slots_is_x5608() {
        let text = "float4 k;\nfloat4 main(float4 v : POSITION) : POSITION { float4 a = v; for (int i = 0; i < 40; i++) a = pow(abs(a), k) + a * k; return a; }";
        let e = build(text, Profile::Vs11).unwrap_err();
        let d = e.errors().next().unwrap();
        assert_eq!(d.code, Code::TooManySlots);
        assert!(
            d.message
                .contains("Max. allowed by the target (vs_1_1) is 128"),
            "{}",
            d.message
        );
        // The same code fits vs_2_0's 256 slots only without pow's exp and log macros.
        assert!(build(text, Profile::Vs30).is_ok());
    }

    #[test]
    fn constants_past_c95_are_x5589() {
        let text = "float4x3 bones[40];\nfloat4 main(float4 v : POSITION, float4 i : BLENDINDICES) : POSITION { return float4(mul(v, bones[i.x]), 1); }";
        let e = build(text, Profile::Vs11).unwrap_err();
        let d = e.errors().next().unwrap();
        assert_eq!(d.code, Code::ConstRegister);
        assert!(
            d.message
                .starts_with("Invalid const register num: 119. Max allowed is 95"),
            "{}",
            d.message
        );
        // Thirty bones fit.
        same_as_vs20(
            &text
                .replace("[40]", "[30]")
                .replace("i.x]", "saturate(i.x) * 29]"),
        );
    }

    #[test]
    fn too_many_temps_is_x4505() {
        // Sixteen values all alive at the end.
        let mut body = String::new();
        for i in 0..16 {
            body += &format!("    float4 t{i} = v * k{i} + j;\n");
        }
        body += "    float4 s = 0;\n";
        for i in 0..16 {
            body += &format!("    s = s * t{i} + t{};\n", 15 - i);
        }
        let decls: String = (0..16).map(|i| format!("float4 k{i}; ")).collect();
        let text = format!(
            "{decls}float4 j;\nfloat4 main(float4 v : POSITION) : POSITION {{\n{body}    return s;\n}}"
        );
        let e = build(&text, Profile::Vs11).unwrap_err();
        let d = e.errors().next().unwrap();
        assert_eq!(d.code, Code::TooManyTemps, "{}", d.message);
        assert!(build(&text, Profile::Vs30).is_ok());
    }

    #[test]
    fn two_inputs_are_not_read_by_one_instruction() {
        let s = same_as_vs20(&shader("    o.c = v * n + v.yzwx;"));
        for i in s.instructions() {
            let inputs: std::collections::HashSet<u16> = i
                .srcs
                .iter()
                .filter(|p| p.register.ty == dxso::RegisterType::Input)
                .map(|p| p.register.num)
                .collect();
            assert!(inputs.len() <= 1, "{i:?}");
        }
    }
}
