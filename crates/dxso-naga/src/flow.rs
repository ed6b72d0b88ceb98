//! The instruction loop and structured flow control: `if`/`else`, `loop`/`rep`, `break`,
//! `call`/`callnz`, `ret`, as naga blocks, loops and function calls.

use crate::body::{Body, Reg};
use crate::semantics;
use crate::Error;
use dxso::{Instruction, Opcode, RegisterType, SrcParam};
use naga::{BinaryOperator as B, Block, Expression, Handle, MathFunction as M, Scalar, Statement};

type H = Handle<Expression>;

enum Frame {
    If {
        cond: H,
        accept: Option<Block>,
    },
    /// `saved` holds the outer `aL` and `step` the increment (`loop` only, not `rep`).
    Loop {
        count: H,
        al: Option<(H, H)>,
    },
}

impl Body<'_> {
    /// Lowers a straight run of instructions (the main program or one subroutine), stopping
    /// at a `ret` outside flow control. `on_return` writes the outputs before a nested `ret`.
    pub(crate) fn lower(
        &mut self,
        insts: &[(usize, &Instruction)],
        on_return: &mut dyn FnMut(&mut Self) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let mut frames: Vec<Frame> = Vec::new();
        let mut i = 0;
        while i < insts.len() {
            let (item, inst) = insts[i];
            self.item = item;
            self.opcode = inst.opcode;
            // A co-issued pair (ps_1_x `+`) reads its sources before either writes.
            if let Some(&(next_item, next)) = insts.get(i + 1) {
                if next.coissue && !inst.coissue {
                    let a = self.arith(inst)?;
                    self.item = next_item;
                    self.opcode = next.opcode;
                    let b = self.arith(next)?;
                    if let (Some(Some(a)), Some(Some(b))) = (a, b) {
                        self.item = item;
                        self.write(inst, a)?;
                        self.item = next_item;
                        self.write(next, b)?;
                        i += 2;
                        continue;
                    }
                    return Err(Error::at(
                        next_item,
                        next.opcode,
                        "co-issue of an instruction that is not arithmetic",
                    ));
                }
            }
            if self.plan.stage == crate::Stage::Fragment
                && matches!(
                    inst.opcode,
                    Opcode::If | Opcode::Ifc | Opcode::Loop | Opcode::Rep
                )
            {
                self.hoist(insts, i)?;
            }
            match self.instruction(inst, &mut frames, on_return)? {
                Flow::Next => {}
                Flow::End => break,
            }
            i += 1;
        }
        if !frames.is_empty() {
            return Err(self.err("flow control left open at the end of the program"));
        }
        Ok(())
    }

    fn instruction(
        &mut self,
        inst: &Instruction,
        frames: &mut Vec<Frame>,
        on_return: &mut dyn FnMut(&mut Self) -> Result<(), Error>,
    ) -> Result<Flow, Error> {
        use Opcode::*;
        if let Some(v) = self.take_hoisted(self.item) {
            self.write(inst, v)?;
            return Ok(Flow::Next);
        }
        match inst.opcode {
            Nop | Dcl | Def | DefI | DefB | Phase | Label => {}
            If => {
                let cond = self.condition(first(inst, self)?)?;
                self.open()?;
                frames.push(Frame::If { cond, accept: None });
            }
            Ifc => {
                let cond = self.comparison(inst)?;
                self.open()?;
                frames.push(Frame::If { cond, accept: None });
            }
            Else => match frames.last_mut() {
                Some(Frame::If { accept, .. }) if accept.is_none() => {
                    let block = self.close()?;
                    *accept = Some(block);
                    self.open()?;
                }
                _ => return Err(self.err("else without if")),
            },
            EndIf => match frames.pop() {
                Some(Frame::If { cond, accept }) => {
                    let last = self.close()?;
                    let (accept, reject) = match accept {
                        Some(a) => (a, last),
                        None => (last, Block::new()),
                    };
                    self.func.stmt(Statement::If {
                        condition: cond,
                        accept,
                        reject,
                    });
                }
                _ => return Err(self.err("endif without if")),
            },
            Loop | Rep => {
                let frame = self.begin_loop(inst)?;
                frames.push(frame);
            }
            EndLoop | EndRep => match frames.pop() {
                Some(Frame::Loop { count, al }) => self.end_loop(count, al)?,
                _ => return Err(self.err("endloop or endrep without loop or rep")),
            },
            Break => {
                if !frames.iter().any(|f| matches!(f, Frame::Loop { .. })) {
                    return Err(self.err("break outside a loop"));
                }
                self.predicated(inst, |b| b.exit_stmt(Statement::Break))?;
            }
            BreakC | BreakP => {
                if !frames.iter().any(|f| matches!(f, Frame::Loop { .. })) {
                    return Err(self.err("break outside a loop"));
                }
                let cond = if inst.opcode == BreakC {
                    self.comparison(inst)?
                } else {
                    self.condition(first(inst, self)?)?
                };
                self.if_then(cond, |b| b.exit_stmt(Statement::Break))?;
            }
            Call => self.predicated(inst, |b| b.call(inst))?,
            CallNz => {
                let Some(c) = inst.srcs.get(1) else {
                    return Err(self.err("callnz without a condition"));
                };
                let cond = self.condition(c)?;
                self.if_then(cond, |b| b.call(inst))?;
            }
            Ret => {
                if frames.is_empty() {
                    return Ok(Flow::End);
                }
                on_return(self)?;
            }
            TexKill => self.texkill(inst)?,
            Dsx | Dsy => self.derivative(inst)?,
            _ => {
                if let Some(v) = self.arith(inst)? {
                    if let Some(v) = v {
                        self.write(inst, v)?;
                    }
                } else if !self.texture(inst)? {
                    return Err(self.err("instruction not supported by the translation"));
                }
            }
        }
        Ok(Flow::Next)
    }

    /// `dsx` or `dsy`.
    fn derivative(&mut self, inst: &Instruction) -> Result<(), Error> {
        let axis = if inst.opcode == Opcode::Dsx {
            naga::DerivativeAxis::X
        } else {
            naga::DerivativeAxis::Y
        };
        let lanes = self.lanes(inst);
        let v = self.cw(inst, lanes, 1, move |b, a| {
            Ok(b.e(Expression::Derivative {
                axis,
                ctrl: semantics::DERIVATIVE_CONTROL,
                expr: a[0],
            }))
        })?;
        self.write(inst, v)
    }

    /// Computes a derivative or a sample (`hoist`'s instructions); the value goes where
    /// [`Body::write`] puts it.
    pub(crate) fn compute(&mut self, inst: &Instruction) -> Result<(), Error> {
        match inst.opcode {
            Opcode::Dsx | Opcode::Dsy => self.derivative(inst),
            _ => self.texture(inst).map(|_| ()),
        }
    }

    /// Runs `f` under the instruction's predicate (for instructions without a masked write).
    fn predicated(
        &mut self,
        inst: &Instruction,
        f: impl FnOnce(&mut Self) -> Result<(), Error>,
    ) -> Result<(), Error> {
        match &inst.predicate {
            Some(p) => {
                let cond = self.predicate1(p)?;
                self.if_then(cond, f)
            }
            None => f(self),
        }
    }

    pub(crate) fn if_then(
        &mut self,
        cond: H,
        f: impl FnOnce(&mut Self) -> Result<(), Error>,
    ) -> Result<(), Error> {
        self.open()?;
        f(self)?;
        let accept = self.close()?;
        self.func.stmt(Statement::If {
            condition: cond,
            accept,
            reject: Block::new(),
        });
        Ok(())
    }

    /// The condition of `if`, `callnz` and `breakp`: a boolean constant or a predicate.
    fn condition(&mut self, src: &SrcParam) -> Result<H, Error> {
        match src.register.ty {
            RegisterType::ConstBool => {
                let b = self.bool_constant(src.register.index())?;
                Ok(if src.modifier == dxso::SrcModifier::Not {
                    self.e(Expression::Unary {
                        op: naga::UnaryOperator::LogicalNot,
                        expr: b,
                    })
                } else {
                    b
                })
            }
            RegisterType::Predicate => self.predicate1(src),
            _ => Err(self.err("condition is neither a boolean constant nor the predicate")),
        }
    }

    /// The comparison of `ifc` and `breakc` between two scalars.
    fn comparison(&mut self, inst: &Instruction) -> Result<H, Error> {
        let Some(cmp) = inst.comparison() else {
            return Err(self.err("reserved comparison"));
        };
        let (Some(a), Some(b)) = (inst.srcs.first(), inst.srcs.get(1)) else {
            return Err(self.err("missing source operand"));
        };
        let a = self.src_scalar(a)?;
        let b = self.src_scalar(b)?;
        Ok(self.compare(cmp, a, b))
    }

    fn begin_loop(&mut self, inst: &Instruction) -> Result<Frame, Error> {
        let is_loop = inst.opcode == Opcode::Loop;
        let counter_src = if is_loop {
            inst.srcs.get(1)
        } else {
            inst.srcs.first()
        };
        let Some(i) = counter_src else {
            return Err(self.err("loop without an integer constant"));
        };
        if i.register.ty != RegisterType::ConstInt {
            return Err(self.err("loop count is not an integer constant"));
        }
        let iv = self.int_constant(i.register.index())?;
        let x = self.index(iv, 0);
        let zero = self.func.i32(0);
        let max = self.func.i32(semantics::MAX_LOOP_COUNT);
        let count_value = self.math3(M::Clamp, x, zero, max);
        self.flush_all()?;
        let count = self.local("count", Scalar::I32);
        let al = if is_loop {
            let saved = self.local("aL_outer", Scalar::I32);
            let al = self.reg_ptr(Reg::LoopCounter);
            let outer = self.load(al);
            self.store(saved, outer);
            let start = self.index(iv, 1);
            self.store(al, start);
            Some((saved, self.index(iv, 2)))
        } else {
            None
        };
        self.store(count, count_value);
        self.forget_mutable();
        self.open()?;
        let c = self.load(count);
        let done = self.bin(B::LessEqual, c, zero);
        self.if_then(done, |b| b.exit_stmt(Statement::Break))?;
        Ok(Frame::Loop { count, al })
    }

    fn end_loop(&mut self, count: H, al: Option<(H, H)>) -> Result<(), Error> {
        let body = self.close()?;
        self.open()?;
        let c = self.load(count);
        let one = self.func.i32(1);
        let c1 = self.bin(B::Subtract, c, one);
        self.store(count, c1);
        if let Some((_, step)) = al {
            let p = self.reg_ptr(Reg::LoopCounter);
            let a = self.load(p);
            let a1 = self.bin(B::Add, a, step);
            self.store(p, a1);
        }
        let continuing = self.close()?;
        self.func.stmt(Statement::Loop {
            body,
            continuing,
            break_if: None,
        });
        if let Some((saved, _)) = al {
            let p = self.reg_ptr(Reg::LoopCounter);
            let outer = self.load(saved);
            self.store(p, outer);
        }
        self.forget_mutable();
        Ok(())
    }

    fn call(&mut self, inst: &Instruction) -> Result<(), Error> {
        let Some(l) = inst.srcs.first() else {
            return Err(self.err("call without a label"));
        };
        let Some(&function) = self.plan.functions.borrow().get(&l.register.index()) else {
            return Err(self.err("call to a subroutine that is not defined before it"));
        };
        self.exit_stmt(Statement::Call {
            function,
            arguments: Vec::new(),
            result: None,
        })?;
        self.forget_mutable();
        Ok(())
    }
}

enum Flow {
    Next,
    End,
}

fn first<'i>(inst: &'i Instruction, b: &Body) -> Result<&'i SrcParam, Error> {
    inst.srcs
        .first()
        .ok_or_else(|| b.err("missing source operand"))
}
