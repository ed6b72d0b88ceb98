//! The intermediate representation: vector values in an arena, in the style of naga.
//!
//! Every node computes up to four lanes; an [`Operand`] reads a node through a swizzle with
//! negate and absolute-value flags, as a bytecode source does. Nodes are created in an order
//! where operands come first, so the arena order is an order of evaluation. Creating a node
//! folds it when its operands are literals and shares it when an equal node exists already
//! (pure nodes only), so constant folding and common-subexpression elimination happen as the
//! lowering builds the module.

use dxso::DeclUsage;
use std::collections::HashMap;

/// A node of the arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Handle(pub u32);

/// A read of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Operand {
    /// The node read.
    pub h: Handle,
    /// Which node lane each lane of the operand reads.
    pub swz: [u8; 4],
    /// Negate (applied after `abs`).
    pub neg: bool,
    /// Absolute value.
    pub abs: bool,
}

impl Operand {
    /// The node read whole.
    pub fn of(h: Handle) -> Self {
        Operand {
            h,
            swz: [0, 1, 2, 3],
            neg: false,
            abs: false,
        }
    }

    /// Lane `i` replicated.
    pub fn lane(self, i: u8) -> Self {
        let c = self.swz[i as usize & 3];
        Operand {
            swz: [c; 4],
            ..self
        }
    }

    /// Another swizzle applied on top of this one.
    pub fn swizzle(self, s: [u8; 4]) -> Self {
        Operand {
            swz: s.map(|i| self.swz[i as usize & 3]),
            ..self
        }
    }

    /// Negated.
    pub fn negate(self) -> Self {
        Operand {
            neg: !self.neg,
            ..self
        }
    }
}

/// The sampling forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SampleKind {
    /// `texld`.
    Plain,
    /// `texldp`: divide by w.
    Project,
    /// `texldb`: LOD bias in w.
    Bias,
    /// `texldl`: LOD in w.
    Lod,
    /// `texldd`: explicit gradients.
    Grad,
}

/// What a node computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// Four float bit patterns.
    Literal([u32; 4]),
    /// An input, by index into [`Module::inputs`].
    Input(u16),
    /// A float constant register `c#` (a uniform).
    Uniform(u16),
    /// `a + b`.
    Add(Operand, Operand),
    /// `a * b`.
    Mul(Operand, Operand),
    /// `a * b + c`.
    Mad(Operand, Operand, Operand),
    /// Lane-wise minimum.
    Min(Operand, Operand),
    /// Lane-wise maximum.
    Max(Operand, Operand),
    /// Dot product of the first `n` lanes (2, 3 or 4), in every lane.
    Dot(u8, Operand, Operand),
    /// `1 / a.x`.
    Rcp(Operand),
    /// `1 / sqrt(|a.x|)`.
    Rsq(Operand),
    /// `2^a.x`.
    Exp(Operand),
    /// `log2(|a.x|)`.
    Log(Operand),
    /// `|a.x|^b.x`.
    Pow(Operand, Operand),
    /// `a - floor(a)`.
    Frc(Operand),
    /// Clamp to [0, 1].
    Sat(Operand),
    /// `a >= 0 ? b : c`, lane-wise.
    Cmp(Operand, Operand, Operand),
    /// `a < b ? 1 : 0`.
    Slt(Operand, Operand),
    /// `a >= b ? 1 : 0`.
    Sge(Operand, Operand),
    /// `c + a * (b - c)`: `lrp a, b, c`.
    Lrp(Operand, Operand, Operand),
    /// Normalise the first three lanes.
    Nrm(Operand),
    /// `cos(a.x)` in lane 0, `sin(a.x)` in lane 1.
    SinCos(Operand),
    /// A texture sample: kind, sampler register, coordinate, gradients (for `Grad`).
    Sample(SampleKind, u16, Operand, Option<(Operand, Operand)>),
    /// Screen-space derivative in x.
    Dsx(Operand),
    /// Screen-space derivative in y.
    Dsy(Operand),
    /// `|a|` (shader model 3 has it as a source modifier instead).
    Abs(Operand),
    /// Lanes gathered from other nodes (`None` lanes are undefined).
    Compose([Option<Lane>; 4]),
    /// The constant register `c[base + round(index.x)]` (relative addressing through `a0.x`).
    UniformRel(u16, Operand),
    /// The start of the `rep` loop [`Module::loops`]`[n]`: its variables take their first values.
    LoopBegin(u16),
    /// Variable `k` of loop `n` inside and after it (its register carries it across iterations).
    Phi(u16, u16),
    /// The end of loop `n`: its variables take their next values, then `endrep` (`endif`
    /// for a block under a boolean register).
    LoopEnd(u16),
    /// The `else` of the block under a boolean register `n`: its variables take the values
    /// the first branch gave them ([`Loop::then_nexts`]), then `else`.
    LoopElse(u16),
}

/// A node: what it computes and how many lanes mean something.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node {
    /// The computation.
    pub op: Op,
    /// Lanes 0..width are meaningful.
    pub width: u8,
}

/// An input of the entry point.
#[derive(Clone, Debug, PartialEq)]
pub struct InputDecl {
    /// The semantic's usage.
    pub usage: DeclUsage,
    /// The semantic's index.
    pub index: u8,
    /// Lanes the type has.
    pub width: u8,
    /// `VPOS` or `VFACE` (ps_3_0 misc registers).
    pub misc: Option<u8>,
}

/// An output of the entry point.
#[derive(Clone, Debug, PartialEq)]
pub struct OutputDecl {
    /// The semantic's usage.
    pub usage: DeclUsage,
    /// The semantic's index.
    pub index: u8,
    /// The value written.
    pub value: Operand,
    /// Lanes written.
    pub width: u8,
}

/// A uniform laid out in registers, for the constant table.
#[derive(Clone, Debug, PartialEq)]
pub struct UniformDecl {
    /// The name.
    pub name: String,
    /// The register set.
    pub set: dxso::ctab::RegisterSet,
    /// First register.
    pub register: u16,
    /// Registers.
    pub count: u16,
    /// Its type in the table's terms.
    pub ty: dxso::ctab::TypeInfo,
    /// Default value DWORDs (four per register), from an initialiser.
    pub default: Option<Vec<u32>>,
    /// Read by the code (only those go into the table, as fxc does).
    pub used: bool,
}

/// A lowered entry point.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// The arena.
    pub nodes: Vec<Node>,
    /// Inputs by index.
    pub inputs: Vec<InputDecl>,
    /// Outputs.
    pub outputs: Vec<OutputDecl>,
    /// `texkill` operands (discard, clip), in order.
    pub kills: Vec<Operand>,
    /// Uniforms and samplers.
    pub uniforms: Vec<UniformDecl>,
    /// Sampler registers used, with their texture type.
    pub samplers: Vec<(u16, dxso::TextureType)>,
    /// `rep` loops kept as loops, in the order they begin (outer before inner).
    pub loops: Vec<Loop>,
    /// Constant registers a preshader fills: no literal may be pooled into them.
    pub reserved: Vec<u16>,
    shared: HashMap<Op, Handle>,
}

/// A loop run `i#.x` times: its variables live in registers across iterations.
#[derive(Clone, Debug, PartialEq)]
pub struct Loop {
    /// The integer constant register counting the iterations.
    pub count: u16,
    /// The [`Op::LoopBegin`] node.
    pub begin: Handle,
    /// The [`Op::LoopEnd`] node.
    pub end: Handle,
    /// The [`Op::Phi`] nodes of the variables the loop changes.
    pub phis: Vec<Handle>,
    /// Their values before the loop.
    pub inits: Vec<Operand>,
    /// Their values at the end of an iteration.
    pub nexts: Vec<Operand>,
    /// A `rep i#` loop, or a block run once when boolean register `b#` is true.
    pub kind: LoopKind,
    /// The [`Op::LoopElse`] node of a block with an `else`.
    pub else_node: Option<Handle>,
    /// The variables' values at the end of the first branch of a block with an `else`.
    pub then_nexts: Vec<Operand>,
}

/// What a [`Loop`] emits around its body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopKind {
    /// `rep i#` ... `endrep` ([`Loop::count`] is `i#`).
    Rep,
    /// `if b#` ... `else` ... `endif` ([`Loop::count`] is `b#`): a loop run at most once.
    IfBool,
}

/// Most nodes a module may hold (hostile unrolling ends here with an error).
pub const MAX_NODES: usize = 1 << 18;

impl Module {
    /// Nodes created from here on are not shared with nodes created before `h` any more: a
    /// value computed inside a loop body does not exist after the loop.
    pub fn forget_since(&mut self, h: Handle) {
        self.shared.retain(|_, v| v.0 < h.0);
    }

    /// The next node's handle.
    pub fn next_handle(&self) -> Handle {
        Handle(self.nodes.len() as u32)
    }

    /// Rewrites node `h` to read the replacement wherever it read a replaced node (see
    /// [`substitute_operand`]). Only for nodes no other node is shared with any more.
    pub fn substitute(&mut self, h: Handle, replace: &[(Handle, Operand)]) {
        let node = &mut self.nodes[h.0 as usize];
        node.op = map_operands(node.op, &mut |o| substitute_operand(o, replace));
    }

    /// Rewrites every operand of the module (nodes, outputs, kills and loop variables) by `f`.
    /// Only once the module is built: shared nodes are not looked up again.
    pub fn rewrite_operands(&mut self, f: &mut dyn FnMut(Operand) -> Operand) {
        for node in &mut self.nodes {
            node.op = map_operands(node.op, f);
        }
        for out in &mut self.outputs {
            out.value = f(out.value);
        }
        for k in &mut self.kills {
            *k = f(*k);
        }
        for l in &mut self.loops {
            for o in l
                .inits
                .iter_mut()
                .chain(&mut l.nexts)
                .chain(&mut l.then_nexts)
            {
                *o = f(*o);
            }
        }
        self.shared.clear();
    }

    /// The node behind a handle.
    pub fn node(&self, h: Handle) -> &Node {
        &self.nodes[h.0 as usize]
    }

    /// The literal lane an operand reads, with its modifiers applied, if it reads a literal.
    pub fn literal_lane(&self, o: Operand, i: usize) -> Option<f32> {
        match self.node(o.h).op {
            Op::Literal(bits) => {
                let mut v = f32::from_bits(bits[o.swz[i & 3] as usize]);
                if o.abs {
                    v = v.abs();
                }
                if o.neg {
                    v = -v;
                }
                Some(v)
            }
            _ => None,
        }
    }

    fn literal_lanes(&self, o: Operand, width: u8) -> Option<[f32; 4]> {
        let mut out = [0.0; 4];
        for (i, slot) in out.iter_mut().enumerate().take(width as usize) {
            *slot = self.literal_lane(o, i)?;
        }
        Some(out)
    }

    /// `true` when the first `width` lanes of `o` are the literal `v`.
    pub fn is_literal(&self, o: Operand, width: u8, v: f32) -> bool {
        self.literal_lanes(o, width)
            .is_some_and(|l| l[..width as usize].iter().all(|&x| x == v))
    }

    /// A literal.
    pub fn literal(&mut self, v: [f32; 4], width: u8) -> Operand {
        let mut bits = v.map(f32::to_bits);
        for b in bits.iter_mut().skip(width as usize) {
            *b = 0;
        }
        // Canonical: a replicated scalar is one value.
        if width == 1 {
            bits = [bits[0]; 4];
        }
        Operand::of(self.push(Op::Literal(bits), width))
    }

    /// A scalar literal.
    pub fn scalar(&mut self, v: f32) -> Operand {
        self.literal([v; 4], 1)
    }

    /// The lanes of each node the outputs, kills and loops read (bit `k`: lane `k`); 0 for
    /// a dead node. A loop variable's lanes are those read in the loop or after it, and its
    /// values before the loop and at the end of an iteration are needed in those lanes: the
    /// backward pass is repeated until the variables' lanes stop growing.
    pub fn demand(&self) -> Vec<u8> {
        let mut demand = vec![0u8; self.nodes.len()];
        loop {
            let phis: Vec<u8> = self
                .loops
                .iter()
                .flat_map(|l| l.phis.iter().map(|p| demand[p.0 as usize]))
                .collect();
            self.demand_pass(&mut demand);
            let after: Vec<u8> = self
                .loops
                .iter()
                .flat_map(|l| l.phis.iter().map(|p| demand[p.0 as usize]))
                .collect();
            if after == phis {
                return demand;
            }
        }
    }

    /// One backward pass of [`Module::demand`], from the loop variables' lanes found so far.
    fn demand_pass(&self, demand: &mut [u8]) {
        let need = |d: &mut [u8], o: &Operand, lanes: u8| {
            for i in 0..4 {
                if lanes & (1 << i) != 0 {
                    d[o.h.0 as usize] |= 1 << o.swz[i];
                }
            }
        };
        for out in &self.outputs {
            need(demand, &out.value, (1u8 << out.width) - 1);
        }
        for k in &self.kills {
            need(demand, k, 0b0111);
        }
        // A loop is emitted (its count may be zero, and its variables keep their first values).
        for l in &self.loops {
            demand[l.begin.0 as usize] = 1;
            demand[l.end.0 as usize] = 1;
            if let Some(e) = l.else_node {
                demand[e.0 as usize] = 1;
            }
        }
        for i in (0..self.nodes.len()).rev() {
            let d = demand[i];
            if d == 0 {
                continue;
            }
            let node = self.nodes[i];
            let dm = &mut *demand;
            match &node.op {
                Op::Literal(_) | Op::Input(_) | Op::Uniform(_) | Op::Phi(..) => {}
                Op::UniformRel(_, index) => need(dm, index, 1),
                Op::LoopBegin(l) => {
                    let l = &self.loops[*l as usize];
                    for (p, o) in l.phis.iter().zip(&l.inits) {
                        let lanes = dm[p.0 as usize];
                        need(dm, o, lanes);
                    }
                }
                Op::LoopEnd(l) => {
                    let l = &self.loops[*l as usize];
                    for (p, o) in l.phis.iter().zip(&l.nexts) {
                        let lanes = dm[p.0 as usize];
                        need(dm, o, lanes);
                    }
                }
                Op::LoopElse(l) => {
                    let l = &self.loops[*l as usize];
                    for (p, o) in l.phis.iter().zip(&l.then_nexts) {
                        let lanes = dm[p.0 as usize];
                        need(dm, o, lanes);
                    }
                }
                Op::Add(a, b)
                | Op::Mul(a, b)
                | Op::Min(a, b)
                | Op::Max(a, b)
                | Op::Slt(a, b)
                | Op::Sge(a, b) => {
                    need(dm, a, d);
                    need(dm, b, d);
                }
                Op::Mad(a, b, c) | Op::Cmp(a, b, c) | Op::Lrp(a, b, c) => {
                    need(dm, a, d);
                    need(dm, b, d);
                    need(dm, c, d);
                }
                Op::Frc(a) | Op::Sat(a) | Op::Abs(a) | Op::Dsx(a) | Op::Dsy(a) => need(dm, a, d),
                Op::Dot(n, a, b) => {
                    need(dm, a, (1 << n) - 1);
                    need(dm, b, (1 << n) - 1);
                }
                Op::Rcp(a) | Op::Rsq(a) | Op::Exp(a) | Op::Log(a) | Op::SinCos(a) => need(dm, a, 1),
                Op::Pow(a, b) => {
                    need(dm, a, 1);
                    need(dm, b, 1);
                }
                Op::Nrm(a) => need(dm, a, 0b0111),
                Op::Sample(kind, s, c, g) => {
                    let lanes = self.coordinate_lanes(*kind, *s);
                    need(dm, c, lanes);
                    if let Some((x, y)) = g {
                        need(dm, x, lanes & 0b0111);
                        need(dm, y, lanes & 0b0111);
                    }
                }
                Op::Compose(parts) => {
                    for (k, p) in parts.iter().enumerate() {
                        if let Some(p) = p {
                            if d & (1 << k) != 0 {
                                dm[p.h.0 as usize] |= 1 << p.lane;
                            }
                        }
                    }
                }
            }
        }
    }

    /// The coordinate lanes a sample from sampler `s` reads: `.xy` of a 2D texture, `.xyz` of
    /// a cube or volume, and `.w` too when it projects, biases or gives the level.
    pub fn coordinate_lanes(&self, kind: SampleKind, s: u16) -> u8 {
        let two_d = self.samplers.iter().any(|&(r, t)| {
            r == s
                && matches!(
                    t,
                    dxso::TextureType::Texture2D | dxso::TextureType::Texture1D
                )
        });
        let lanes = if two_d { 0b0011 } else { 0b0111 };
        match kind {
            SampleKind::Plain | SampleKind::Grad => lanes,
            _ => lanes | 0b1000,
        }
    }

    /// Makes node `h` a read of constant register `r` (its value computed elsewhere, by a
    /// preshader), leaving its users as they are.
    pub fn make_uniform(&mut self, h: Handle, r: u16) {
        self.nodes[h.0 as usize].op = Op::Uniform(r);
        self.shared.clear();
        for (i, node) in self.nodes.iter().enumerate() {
            self.shared.entry(node.op).or_insert(Handle(i as u32));
        }
    }

    /// Moves every constant register read (`Op::Uniform`, `Op::UniformRel`) to `moved(r)`.
    pub fn move_uniforms(&mut self, moved: impl Fn(u16) -> u16) {
        for node in &mut self.nodes {
            node.op = match node.op {
                Op::Uniform(r) => Op::Uniform(moved(r)),
                Op::UniformRel(r, i) => Op::UniformRel(moved(r), i),
                op => op,
            };
        }
        self.shared.clear();
        for (i, node) in self.nodes.iter().enumerate() {
            self.shared.entry(node.op).or_insert(Handle(i as u32));
        }
    }

    /// Adds a node (shared with an equal one when it exists).
    pub fn push(&mut self, op: Op, width: u8) -> Handle {
        if let Some(&h) = self.shared.get(&op) {
            if self.node(h).width >= width {
                return h;
            }
        }
        let h = Handle(self.nodes.len() as u32);
        self.nodes.push(Node { op, width });
        self.shared.insert(op, h);
        h
    }

    /// Builds `op` on `width` lanes, folding it when every operand is a literal.
    pub fn op(&mut self, op: Op, width: u8) -> Operand {
        if let Some(v) = self.fold(&op, width) {
            return self.literal(v, width);
        }
        if let Some(o) = self.simplify(&op, width) {
            return o;
        }
        Operand::of(self.push(op, width))
    }

    fn simplify(&mut self, op: &Op, w: u8) -> Option<Operand> {
        match *op {
            Op::Mul(a, b) if self.is_literal(b, w, 1.0) => Some(a),
            Op::Mul(a, b) if self.is_literal(a, w, 1.0) => Some(b),
            Op::Mul(a, b) if self.is_literal(a, w, 0.0) || self.is_literal(b, w, 0.0) => {
                Some(self.literal([0.0; 4], w))
            }
            Op::Add(a, b) if self.is_literal(b, w, 0.0) => Some(a),
            Op::Add(a, b) if self.is_literal(a, w, 0.0) => Some(b),
            Op::Mad(a, b, c) if self.is_literal(c, w, 0.0) => Some(self.op(Op::Mul(a, b), w)),
            Op::Mad(a, b, c) if self.is_literal(a, w, 1.0) => Some(self.op(Op::Add(b, c), w)),
            Op::Mad(a, b, c) if self.is_literal(b, w, 1.0) => Some(self.op(Op::Add(a, c), w)),
            Op::Mad(a, b, c) if self.is_literal(a, w, 0.0) || self.is_literal(b, w, 0.0) => Some(c),
            Op::Sat(a) if matches!(self.node(a.h).op, Op::Sat(_)) && !a.neg && !a.abs => Some(a),
            Op::Cmp(a, b, c) => self.select_of_mask(a, b, c, w),
            _ => None,
        }
    }

    /// `a >= 0 ? b : c` where `a` reads a 0/1 mask `x >= 0 ? 1 : 0` (or `? 0 : 1`),
    /// negated or not, as one select on `x` (a comparison feeding a select is one `cmp`).
    fn select_of_mask(&mut self, a: Operand, b: Operand, c: Operand, w: u8) -> Option<Operand> {
        let Op::Cmp(x, one, zero) = self.node(a.h).op else {
            return None;
        };
        if a.abs {
            return None;
        }
        let lanes = |me: &Self, o: Operand, v: f32| {
            (0..w as usize).all(|k| me.literal_lane(o, a.swz[k] as usize) == Some(v))
        };
        let x = x.swizzle(a.swz);
        if lanes(self, one, 1.0) && lanes(self, zero, 0.0) {
            // The mask is 1 where `x >= 0`: `-mask >= 0` where `x < 0`.
            Some(if a.neg {
                self.op(Op::Cmp(x, c, b), w)
            } else {
                b
            })
        } else if lanes(self, one, 0.0) && lanes(self, zero, 1.0) {
            Some(if a.neg {
                self.op(Op::Cmp(x, b, c), w)
            } else {
                b
            })
        } else {
            None
        }
    }

    fn fold(&self, op: &Op, w: u8) -> Option<[f32; 4]> {
        let l = |o: Operand| self.literal_lanes(o, 4.max(w));
        let lanes = |f: &dyn Fn(usize) -> f32| {
            let mut out = [0.0; 4];
            for (i, v) in out.iter_mut().enumerate().take(w as usize) {
                *v = f(i);
            }
            out
        };
        Some(match *op {
            Op::Add(a, b) => {
                let (a, b) = (l(a)?, l(b)?);
                lanes(&|i| a[i] + b[i])
            }
            Op::Mul(a, b) => {
                let (a, b) = (l(a)?, l(b)?);
                lanes(&|i| a[i] * b[i])
            }
            Op::Mad(a, b, c) => {
                let (a, b, c) = (l(a)?, l(b)?, l(c)?);
                lanes(&|i| a[i] * b[i] + c[i])
            }
            Op::Min(a, b) => {
                let (a, b) = (l(a)?, l(b)?);
                lanes(&|i| if a[i] < b[i] { a[i] } else { b[i] })
            }
            Op::Max(a, b) => {
                let (a, b) = (l(a)?, l(b)?);
                lanes(&|i| if a[i] >= b[i] { a[i] } else { b[i] })
            }
            Op::Dot(n, a, b) => {
                let (a, b) = (l(a)?, l(b)?);
                let d: f32 = (0..n as usize).map(|i| a[i] * b[i]).sum();
                [d; 4]
            }
            Op::Rcp(a) => [1.0 / l(a)?[0]; 4],
            Op::Rsq(a) => [1.0 / l(a)?[0].abs().sqrt(); 4],
            Op::Exp(a) => [l(a)?[0].exp2(); 4],
            Op::Log(a) => [l(a)?[0].abs().log2(); 4],
            Op::Pow(a, b) => [l(a)?[0].abs().powf(l(b)?[0]); 4],
            Op::Abs(a) => {
                let a = l(a)?;
                lanes(&|i| a[i].abs())
            }
            Op::Frc(a) => {
                let a = l(a)?;
                lanes(&|i| a[i] - a[i].floor())
            }
            Op::Sat(a) => {
                let a = l(a)?;
                lanes(&|i| a[i].clamp(0.0, 1.0))
            }
            Op::Cmp(a, b, c) => {
                let (a, b, c) = (l(a)?, l(b)?, l(c)?);
                lanes(&|i| if a[i] >= 0.0 { b[i] } else { c[i] })
            }
            Op::Slt(a, b) => {
                let (a, b) = (l(a)?, l(b)?);
                lanes(&|i| (a[i] < b[i]) as u8 as f32)
            }
            Op::Sge(a, b) => {
                let (a, b) = (l(a)?, l(b)?);
                lanes(&|i| (a[i] >= b[i]) as u8 as f32)
            }
            Op::Lrp(a, b, c) => {
                let (a, b, c) = (l(a)?, l(b)?, l(c)?);
                lanes(&|i| c[i] + a[i] * (b[i] - c[i]))
            }
            Op::Compose(parts) => {
                let mut out = [0.0; 4];
                for i in 0..w as usize {
                    let p = parts[i]?;
                    let o = Operand {
                        h: p.h,
                        swz: [p.lane; 4],
                        neg: p.neg,
                        abs: p.abs,
                    };
                    out[i] = self.literal_lane(o, 0)?;
                }
                out
            }
            _ => return None,
        })
    }

    /// Gathers lanes, each read from lane 0 of an operand, into one value of `lanes.len()`
    /// lanes.
    pub fn compose(&mut self, lanes: &[Operand]) -> Operand {
        let width = lanes.len().clamp(1, 4) as u8;
        // A lane of a gathered vector is read from where it was gathered from, so the
        // inner vector need not be built when nothing else reads it.
        let flat: Vec<Operand> = lanes
            .iter()
            .map(|o| match self.node(o.h).op {
                Op::Compose(parts) if !o.abs => match parts[o.swz[0] as usize & 3] {
                    Some(p) => Operand {
                        h: p.h,
                        swz: [p.lane; 4],
                        neg: o.neg ^ p.neg,
                        abs: p.abs,
                    },
                    None => *o,
                },
                _ => *o,
            })
            .collect();
        let lanes = &flat[..];
        // One operand read through a swizzle needs no node.
        let first = lanes[0];
        if lanes
            .iter()
            .all(|o| o.h == first.h && o.neg == first.neg && o.abs == first.abs)
        {
            let mut swz = [first.swz[0]; 4];
            for (i, o) in lanes.iter().enumerate().take(4) {
                swz[i] = o.swz[0];
            }
            return Operand { swz, ..first };
        }
        let mut parts = [None; 4];
        for (i, o) in lanes.iter().enumerate().take(4) {
            parts[i] = Some(Lane {
                h: o.h,
                lane: o.swz[0],
                neg: o.neg,
                abs: o.abs,
            });
        }
        self.op(Op::Compose(parts), width)
    }
}

/// One lane of a [`Op::Compose`]: a node's lane with modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lane {
    /// The node.
    pub h: Handle,
    /// Its lane.
    pub lane: u8,
    /// Negated.
    pub neg: bool,
    /// Absolute value.
    pub abs: bool,
}

/// `op` with every operand rewritten by `f` (a lane of [`Op::Compose`] as an operand reading it
/// replicated).
pub fn map_operands(op: Op, f: &mut dyn FnMut(Operand) -> Operand) -> Op {
    let mut s = |o: Operand| f(o);
    match op {
        Op::Add(a, b) => Op::Add(s(a), s(b)),
        Op::Mul(a, b) => Op::Mul(s(a), s(b)),
        Op::Mad(a, b, c) => Op::Mad(s(a), s(b), s(c)),
        Op::Min(a, b) => Op::Min(s(a), s(b)),
        Op::Max(a, b) => Op::Max(s(a), s(b)),
        Op::Dot(n, a, b) => Op::Dot(n, s(a), s(b)),
        Op::Rcp(a) => Op::Rcp(s(a)),
        Op::Rsq(a) => Op::Rsq(s(a)),
        Op::Exp(a) => Op::Exp(s(a)),
        Op::Log(a) => Op::Log(s(a)),
        Op::Pow(a, b) => Op::Pow(s(a), s(b)),
        Op::Frc(a) => Op::Frc(s(a)),
        Op::Sat(a) => Op::Sat(s(a)),
        Op::Cmp(a, b, c) => Op::Cmp(s(a), s(b), s(c)),
        Op::Slt(a, b) => Op::Slt(s(a), s(b)),
        Op::Sge(a, b) => Op::Sge(s(a), s(b)),
        Op::Lrp(a, b, c) => Op::Lrp(s(a), s(b), s(c)),
        Op::Nrm(a) => Op::Nrm(s(a)),
        Op::SinCos(a) => Op::SinCos(s(a)),
        Op::Sample(k, r, c, g) => Op::Sample(k, r, s(c), g.map(|(x, y)| (s(x), s(y)))),
        Op::Dsx(a) => Op::Dsx(s(a)),
        Op::Dsy(a) => Op::Dsy(s(a)),
        Op::Abs(a) => Op::Abs(s(a)),
        Op::UniformRel(r, i) => Op::UniformRel(r, s(i)),
        Op::Compose(parts) => Op::Compose(parts.map(|p| {
            p.map(|p| {
                let o = s(Operand {
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
            })
        })),
        op @ (Op::Literal(_)
        | Op::Input(_)
        | Op::Uniform(_)
        | Op::LoopBegin(_)
        | Op::Phi(..)
        | Op::LoopEnd(_)
        | Op::LoopElse(_)) => op,
    }
}

/// `o` reading `by` (through `o`'s swizzle and modifiers) when it reads a node `replace` maps.
pub fn substitute_operand(o: Operand, replace: &[(Handle, Operand)]) -> Operand {
    let Some((_, by)) = replace.iter().find(|(h, _)| *h == o.h) else {
        return o;
    };
    Operand {
        h: by.h,
        swz: o.swz.map(|i| by.swz[i as usize & 3]),
        neg: if o.abs { o.neg } else { o.neg ^ by.neg },
        abs: o.abs || by.abs,
    }
}
