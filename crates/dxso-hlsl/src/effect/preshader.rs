//! Preshaders: the computations of a shader that read only uniforms and literals are taken
//! out of it into an FXLC program (`0x46580201`, in the shader's `PRES` comment) that the
//! effect runtime runs when parameters change, as fxc does by default.
//!
//! A node is hoisted when it computes something (not a bare uniform or literal) from uniforms
//! and literals only, and a node that stays in the shader (or an output, a `texkill` or a
//! loop) reads it. Each such node becomes a read of a fresh constant register after the
//! uniforms; the preshader computes it lane by lane into that register (`oc#`). Its inputs are
//! the uniforms it reads, at the registers the shader would read them from, listed in its own
//! constant table by name. Nodes only the hoisted ones read drop out of the shader, and so do
//! uniforms only they read.

use crate::ir::{Handle, Module, Op, Operand};
use crate::Profile;
use dxso::ctab::{Constant, ConstantTable, RegisterSet};
use dxso_fx::program::{Instruction, Operand as FxOperand, Register, Table, PRESHADER_VERSION};
use dxso_fx::{Opcode, Program};

/// Instructions a preshader may take: far above what hoisting produces for shaders of the
/// profiles' sizes, and a bound on the work the runtime does per parameter change.
const MAX_INSTRUCTIONS: usize = 1 << 16;

/// Whether a node of this kind can be computed by a preshader from computable operands.
fn computable(op: &Op) -> bool {
    matches!(
        op,
        Op::Add(..)
            | Op::Mul(..)
            | Op::Mad(..)
            | Op::Min(..)
            | Op::Max(..)
            | Op::Dot(..)
            | Op::Rcp(_)
            | Op::Rsq(_)
            | Op::Exp(_)
            | Op::Log(_)
            | Op::Pow(..)
            | Op::Frc(_)
            | Op::Sat(_)
            | Op::Cmp(..)
            | Op::Slt(..)
            | Op::Sge(..)
            | Op::Lrp(..)
            | Op::Abs(_)
            | Op::SinCos(_)
            | Op::Compose(_)
    )
}

/// Every operand a node reads.
fn operands(op: &Op) -> Vec<Operand> {
    match *op {
        Op::Add(a, b)
        | Op::Mul(a, b)
        | Op::Min(a, b)
        | Op::Max(a, b)
        | Op::Dot(_, a, b)
        | Op::Pow(a, b)
        | Op::Slt(a, b)
        | Op::Sge(a, b) => vec![a, b],
        Op::Mad(a, b, c) | Op::Cmp(a, b, c) | Op::Lrp(a, b, c) => vec![a, b, c],
        Op::Rcp(a)
        | Op::Rsq(a)
        | Op::Exp(a)
        | Op::Log(a)
        | Op::Frc(a)
        | Op::Sat(a)
        | Op::Nrm(a)
        | Op::SinCos(a)
        | Op::Dsx(a)
        | Op::Dsy(a)
        | Op::Abs(a)
        | Op::UniformRel(_, a) => vec![a],
        Op::Sample(_, _, c, g) => {
            let mut v = vec![c];
            if let Some((x, y)) = g {
                v.extend([x, y]);
            }
            v
        }
        Op::Compose(parts) => parts
            .iter()
            .flatten()
            .map(|l| Operand {
                h: l.h,
                swz: [l.lane; 4],
                neg: l.neg,
                abs: l.abs,
            })
            .collect(),
        Op::Literal(_)
        | Op::Input(_)
        | Op::Uniform(_)
        | Op::LoopBegin(_)
        | Op::Phi(..)
        | Op::LoopEnd(_)
        | Op::LoopElse(_) => Vec::new(),
    }
}

/// The uniform-only nodes of `m` worth computing outside the shader: `true` per node.
fn computed_nodes(m: &Module) -> Vec<bool> {
    let float_register = |r: u16| {
        m.uniforms.iter().any(|u| {
            u.set == RegisterSet::Float4
                && (u.register..u.register.saturating_add(u.count)).contains(&r)
        })
    };
    // Uniform-only: literals, float uniforms, and computable nodes of uniform-only operands.
    let mut uniform_only = vec![false; m.nodes.len()];
    let mut computed = vec![false; m.nodes.len()];
    for (i, node) in m.nodes.iter().enumerate() {
        match node.op {
            Op::Literal(_) => uniform_only[i] = true,
            Op::Uniform(r) => uniform_only[i] = float_register(r),
            ref op if computable(op) => {
                let ins = operands(op);
                if ins.iter().all(|o| uniform_only[o.h.0 as usize]) {
                    uniform_only[i] = true;
                    // Gathering lanes of uniforms and literals is free in the shader.
                    computed[i] = !matches!(op, Op::Compose(_))
                        || ins.iter().any(|o| computed[o.h.0 as usize]);
                }
            }
            _ => {}
        }
    }
    computed
}

/// Hoists what `m` computes from uniforms alone into a preshader, and returns it (`None` when
/// nothing is worth hoisting). `profile` bounds the constant registers the outputs may take.
pub(crate) fn hoist(m: &mut Module, profile: Profile) -> Option<Program> {
    let demand = m.demand();
    let computed = computed_nodes(m);
    // Hoisted: computed nodes a live node that stays, or the module itself, reads.
    let mut hoisted = vec![false; m.nodes.len()];
    for (i, node) in m.nodes.iter().enumerate() {
        if demand[i] == 0 || computed[i] {
            continue;
        }
        for o in operands(&node.op) {
            hoisted[o.h.0 as usize] |= computed[o.h.0 as usize];
        }
    }
    let module_reads = m
        .outputs
        .iter()
        .map(|o| o.value)
        .chain(m.kills.iter().copied())
        .chain(
            m.loops
                .iter()
                .flat_map(|l| l.inits.iter().chain(&l.nexts).chain(&l.then_nexts).copied()),
        )
        .collect::<Vec<_>>();
    for o in module_reads {
        hoisted[o.h.0 as usize] |= computed[o.h.0 as usize];
    }
    let outputs: Vec<Handle> = (0..m.nodes.len())
        .filter(|&i| hoisted[i])
        .map(|i| Handle(i as u32))
        .collect();
    if outputs.is_empty() {
        return None;
    }
    // Output registers after every float uniform, within the profile's constants.
    let first = m
        .uniforms
        .iter()
        .filter(|u| u.used && u.set == RegisterSet::Float4)
        .map(|u| u.register.saturating_add(u.count))
        .max()
        .unwrap_or(0);
    let limit = profile.float_constants();
    let mut b = Builder::new(m);
    let mut registers = Vec::new();
    for (k, &h) in outputs.iter().enumerate() {
        let Some(r) = first.checked_add(k as u16).filter(|&r| r < limit) else {
            break;
        };
        if !b.node(h) {
            return None;
        }
        let width = m.nodes[h.0 as usize].width.clamp(1, 4);
        for lane in 0..width {
            let src = b.value_of(h, lane);
            b.mov(src, reg(Table::Output, 4 * u32::from(r) + u32::from(lane)));
        }
        registers.push((h, r));
    }
    if b.code.len() > MAX_INSTRUCTIONS || registers.is_empty() {
        return None;
    }
    let program = b.finish(m)?;
    // A shader comment holds at most 0x7FFF words, the FOURCC among them.
    if program.to_words().len() >= 0x7FFF {
        return None;
    }
    for &(h, r) in &registers {
        m.make_uniform(h, r);
        m.reserved.push(r);
    }
    // Uniforms only the preshader reads leave the shader's table.
    let demand = m.demand();
    let read: Vec<u16> = m
        .nodes
        .iter()
        .enumerate()
        .filter(|(i, _)| demand[*i] != 0)
        .filter_map(|(_, n)| match n.op {
            Op::Uniform(r) => Some(r),
            _ => None,
        })
        .collect();
    let relative: Vec<(u16, u16)> = m
        .nodes
        .iter()
        .enumerate()
        .filter(|(i, _)| demand[*i] != 0)
        .filter_map(|(_, n)| match n.op {
            Op::UniformRel(r, _) => Some((r, r)),
            _ => None,
        })
        .collect();
    for u in m
        .uniforms
        .iter_mut()
        .filter(|u| u.set == RegisterSet::Float4 && u.used)
    {
        let range = u.register..u.register.saturating_add(u.count);
        let direct = read.iter().any(|r| range.contains(r));
        let indexed = relative.iter().any(|&(r, _)| range.contains(&r));
        if !direct && !indexed {
            u.used = false;
        }
    }
    Some(program)
}

fn reg(table: Table, offset: u32) -> FxOperand {
    FxOperand {
        index: None,
        register: Register { table, offset },
    }
}

/// Builds the FXLC code, one component per instruction.
struct Builder {
    /// The temporary register of each node computed so far.
    temp: Vec<Option<u32>>,
    next_temp: u32,
    literals: Vec<f64>,
    code: Vec<Instruction>,
    /// The constant registers read.
    inputs: Vec<u16>,
    nodes: Vec<crate::ir::Node>,
}

impl Builder {
    fn new(m: &Module) -> Self {
        Builder {
            temp: vec![None; m.nodes.len()],
            next_temp: 0,
            literals: Vec::new(),
            code: Vec::new(),
            inputs: Vec::new(),
            nodes: m.nodes.clone(),
        }
    }

    fn literal(&mut self, v: f64) -> FxOperand {
        let i = match self
            .literals
            .iter()
            .position(|&x| x.to_bits() == v.to_bits())
        {
            Some(i) => i,
            None => {
                self.literals.push(v);
                self.literals.len() - 1
            }
        };
        reg(Table::Immediate, i as u32)
    }

    /// A fresh temporary register (its `x` component).
    fn scratch(&mut self) -> FxOperand {
        let t = self.next_temp;
        self.next_temp += 1;
        reg(Table::Temporary, 4 * t)
    }

    fn emit(&mut self, op: Opcode, inputs: &[FxOperand], out: FxOperand) {
        self.code.push(Instruction {
            word: (op.number() << 20) | 1,
            inputs: inputs.to_vec(),
            output: out,
        });
    }

    fn mov(&mut self, src: FxOperand, out: FxOperand) {
        self.emit(Opcode::Mov, &[src], out);
    }

    /// Lane `lane` of node `h`, computed (or a literal, or a uniform's component).
    fn value_of(&mut self, h: Handle, lane: u8) -> FxOperand {
        let node = self.nodes[h.0 as usize];
        // A node narrower than the lane read is a scalar: every lane is its first.
        let lane = if lane >= node.width && !matches!(node.op, Op::Uniform(_)) {
            0
        } else {
            lane
        };
        match node.op {
            Op::Literal(bits) => self.literal(f64::from(f32::from_bits(bits[lane as usize & 3]))),
            Op::Uniform(r) => {
                if !self.inputs.contains(&r) {
                    self.inputs.push(r);
                }
                reg(Table::Constant, 4 * u32::from(r) + u32::from(lane & 3))
            }
            _ => {
                let t = self.temp[h.0 as usize].expect("operands are computed first");
                reg(Table::Temporary, 4 * t + u32::from(lane & 3))
            }
        }
    }

    /// Lane `lane` of an operand, its modifiers applied.
    fn read(&mut self, o: Operand, lane: u8) -> FxOperand {
        let src = o.swz[lane as usize & 3];
        let node = self.nodes[o.h.0 as usize];
        if let Op::Literal(bits) = node.op {
            let src = if src >= node.width { 0 } else { src };
            let mut v = f64::from(f32::from_bits(bits[src as usize & 3]));
            if o.abs {
                v = v.abs();
            }
            if o.neg {
                v = -v;
            }
            return self.literal(v);
        }
        let mut x = self.value_of(o.h, src);
        if o.abs {
            let n = self.scratch();
            self.emit(Opcode::Neg, &[x], n);
            let a = self.scratch();
            self.emit(Opcode::Max, &[x, n], a);
            x = a;
        }
        if o.neg {
            let n = self.scratch();
            self.emit(Opcode::Neg, &[x], n);
            x = n;
        }
        x
    }

    /// Computes node `h` and every computed node it reads; `false` when one cannot be.
    fn node(&mut self, h: Handle) -> bool {
        let i = h.0 as usize;
        if self.temp[i].is_some() {
            return true;
        }
        let node = self.nodes[i];
        if matches!(node.op, Op::Literal(_) | Op::Uniform(_)) {
            return true;
        }
        if !computable(&node.op) {
            return false;
        }
        for o in operands(&node.op) {
            if !self.node(o.h) {
                return false;
            }
        }
        if self.code.len() > MAX_INSTRUCTIONS {
            return false;
        }
        let t = self.next_temp;
        self.next_temp += 1;
        self.temp[i] = Some(t);
        let out = |lane: u8| reg(Table::Temporary, 4 * t + u32::from(lane));
        let width = node.width.clamp(1, 4);
        for lane in 0..width {
            let o = out(lane);
            match node.op {
                Op::Add(a, b) => self.binary(Opcode::Add, a, b, lane, o),
                Op::Mul(a, b) => self.binary(Opcode::Mul, a, b, lane, o),
                Op::Min(a, b) => self.binary(Opcode::Min, a, b, lane, o),
                Op::Max(a, b) => self.binary(Opcode::Max, a, b, lane, o),
                Op::Slt(a, b) => self.binary(Opcode::Lt, a, b, lane, o),
                Op::Sge(a, b) => self.binary(Opcode::Ge, a, b, lane, o),
                Op::Mad(a, b, c) => {
                    let p = self.scratch();
                    self.binary(Opcode::Mul, a, b, lane, p);
                    let z = self.read(c, lane);
                    self.emit(Opcode::Add, &[p, z], o);
                }
                Op::Dot(n, a, b) => {
                    let mut acc: Option<FxOperand> = None;
                    for k in 0..n.clamp(1, 4) {
                        let p = self.scratch();
                        self.binary(Opcode::Mul, a, b, k, p);
                        acc = Some(match acc {
                            None => p,
                            Some(s) => {
                                let q = self.scratch();
                                self.emit(Opcode::Add, &[s, p], q);
                                q
                            }
                        });
                    }
                    let v = acc.expect("at least one lane");
                    self.mov(v, o);
                }
                Op::Rcp(a) => self.unary(Opcode::Rcp, a, 0, o),
                Op::Rsq(a) => self.unary(Opcode::Rsq, a, 0, o),
                Op::Exp(a) => self.unary(Opcode::Exp, a, 0, o),
                Op::Log(a) => self.unary(Opcode::Log, a, 0, o),
                Op::Frc(a) => self.unary(Opcode::Frc, a, lane, o),
                Op::Pow(a, b) => {
                    // |a|^b = 2^(b * log2 |a|): FXLC's `log` takes the absolute value.
                    let l = self.scratch();
                    self.unary(Opcode::Log, a, 0, l);
                    let y = self.read(b, 0);
                    let p = self.scratch();
                    self.emit(Opcode::Mul, &[y, l], p);
                    self.emit(Opcode::Exp, &[p], o);
                }
                Op::Sat(a) => {
                    let x = self.read(a, lane);
                    let zero = self.literal(0.0);
                    let one = self.literal(1.0);
                    let m = self.scratch();
                    self.emit(Opcode::Max, &[x, zero], m);
                    self.emit(Opcode::Min, &[m, one], o);
                }
                Op::Abs(a) => {
                    let x = self.read(a, lane);
                    let n = self.scratch();
                    self.emit(Opcode::Neg, &[x], n);
                    self.emit(Opcode::Max, &[x, n], o);
                }
                Op::Cmp(a, b, c) => {
                    let (x, y, z) = (self.read(a, lane), self.read(b, lane), self.read(c, lane));
                    self.emit(Opcode::Cmp, &[x, y, z], o);
                }
                Op::Lrp(a, b, c) => {
                    // c + a * (b - c)
                    let (x, y, z) = (self.read(a, lane), self.read(b, lane), self.read(c, lane));
                    let nz = self.scratch();
                    self.emit(Opcode::Neg, &[z], nz);
                    let d = self.scratch();
                    self.emit(Opcode::Add, &[y, nz], d);
                    let p = self.scratch();
                    self.emit(Opcode::Mul, &[x, d], p);
                    self.emit(Opcode::Add, &[z, p], o);
                }
                Op::SinCos(a) => {
                    let x = self.read(a, 0);
                    let f = if lane == 1 { Opcode::Sin } else { Opcode::Cos };
                    self.emit(f, &[x], o);
                }
                Op::Compose(parts) => match parts[lane as usize] {
                    Some(l) => {
                        let x = self.read(
                            Operand {
                                h: l.h,
                                swz: [l.lane; 4],
                                neg: l.neg,
                                abs: l.abs,
                            },
                            0,
                        );
                        self.mov(x, o);
                    }
                    None => {
                        let z = self.literal(0.0);
                        self.mov(z, o);
                    }
                },
                _ => return false,
            }
        }
        true
    }

    fn binary(&mut self, op: Opcode, a: Operand, b: Operand, lane: u8, out: FxOperand) {
        let (x, y) = (self.read(a, lane), self.read(b, lane));
        self.emit(op, &[x, y], out);
    }

    fn unary(&mut self, op: Opcode, a: Operand, lane: u8, out: FxOperand) {
        let x = self.read(a, lane);
        self.emit(op, &[x], out);
    }

    /// The program: its constant table lists the uniforms read, by name, at their registers.
    fn finish(self, m: &Module) -> Option<Program> {
        let mut constants: Vec<Constant> = m
            .uniforms
            .iter()
            .filter(|u| u.used && u.set == RegisterSet::Float4)
            .filter(|u| {
                let range = u.register..u.register.saturating_add(u.count);
                self.inputs.iter().any(|r| range.contains(r))
            })
            .map(|u| Constant {
                name: u.name.as_str().into(),
                register_set_raw: RegisterSet::Float4 as u16,
                register_index: u.register,
                register_count: u.count,
                reserved: 0,
                ty: u.ty.clone(),
                default_value: None,
            })
            .collect();
        constants.sort_by(|a, b| a.name.0.cmp(&b.name.0));
        let table = ConstantTable {
            creator: format!("dxso-hlsl {}", env!("CARGO_PKG_VERSION"))
                .as_str()
                .into(),
            version: PRESHADER_VERSION,
            flags: 0,
            target: "".into(),
            header_size: 28,
            constants,
            layout: None,
        };
        let words =
            super::expression::program_words(PRESHADER_VERSION, table, &self.literals, self.code);
        Program::parse_words(&words, 0).ok()
    }
}
