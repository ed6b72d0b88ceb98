//! Flow-control structure: blocks open and close in order, breaks sit in loops, labels are
//! defined once and called ones exist, ret and label placement, nesting depths, loop counts,
//! and aL only inside loops.

use super::{At, Cx, Operand, Profile, Rule};
use crate::instruction::Extra;
use crate::opcode::Opcode;
use crate::param::Relative;
use crate::register::{Register, RegisterType as R};
use rustc_hash::FxHashMap as HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    If { has_else: bool },
    Loop,
    Rep,
}

pub(super) fn check(cx: &mut Cx<'_>) {
    let p = cx.p();
    let (max_if, max_loop, max_call) = p.nesting();
    let insts = cx.insts.clone();
    let mut stack: Vec<(Block, usize)> = Vec::new();
    let mut labels: HashMap<u16, usize> = HashMap::default();
    // Function index 0 is main; each label starts the next one.
    let mut function_of_label: HashMap<u16, usize> = HashMap::default();
    let mut calls: Vec<(usize, u16, usize)> = Vec::new(); // (function, label, instruction)
    let mut function = 0usize;
    let mut in_subroutine = false;
    let mut prev: Option<Opcode> = None;
    let mut defi: HashMap<u16, [i32; 4]> = HashMap::default();
    let mut static_flow = 0usize;
    for at in insts.iter() {
        if let (Extra::DefI(v), Some(d)) = (at.inst.extra, at.inst.dst) {
            defi.insert(d.register.num, v);
        }
    }
    for at in insts.iter() {
        let inst = at.inst;
        let name = cx.mnemonic(inst);
        if p == Profile::Vs20
            && matches!(
                inst.opcode,
                Opcode::If
                    | Opcode::Else
                    | Opcode::Loop
                    | Opcode::Rep
                    | Opcode::Call
                    | Opcode::CallNz
            )
        {
            static_flow += 1;
            if static_flow == 17 {
                cx.at(
                    Rule::StaticFlowCount,
                    at,
                    Operand::Instruction,
                    None,
                    "vs_2_0 allows 16 static flow-control instructions; this is the 17th",
                );
            }
        }
        match inst.opcode {
            Opcode::If | Opcode::Ifc => {
                stack.push((Block::If { has_else: false }, at.index));
                let depth = stack
                    .iter()
                    .filter(|b| matches!(b.0, Block::If { .. }))
                    .count();
                if depth > max_if {
                    nesting(
                        cx,
                        at,
                        format!(
                            "if blocks nest {depth} deep; {} allows {max_if}",
                            cx.version
                        ),
                    );
                }
            }
            Opcode::Loop | Opcode::Rep => {
                stack.push((
                    if inst.opcode == Opcode::Loop {
                        Block::Loop
                    } else {
                        Block::Rep
                    },
                    at.index,
                ));
                let depth = stack
                    .iter()
                    .filter(|b| !matches!(b.0, Block::If { .. }))
                    .count();
                if depth > max_loop {
                    nesting(
                        cx,
                        at,
                        format!(
                            "loop/rep blocks nest {depth} deep; {} allows {max_loop}",
                            cx.version
                        ),
                    );
                }
                loop_count(cx, at, &defi);
            }
            Opcode::Else => match stack.last_mut() {
                Some((Block::If { has_else }, _)) if !*has_else => *has_else = true,
                _ => unmatched(cx, at, "else without an open if block"),
            },
            Opcode::EndIf => close(
                cx,
                at,
                &mut stack,
                |b| matches!(b, Block::If { .. }),
                "endif",
            ),
            Opcode::EndLoop => close(cx, at, &mut stack, |b| b == Block::Loop, "endloop"),
            Opcode::EndRep => close(cx, at, &mut stack, |b| b == Block::Rep, "endrep"),
            Opcode::Break | Opcode::BreakC | Opcode::BreakP
                if !stack
                    .iter()
                    .any(|b| matches!(b.0, Block::Loop | Block::Rep)) =>
            {
                cx.at(
                    Rule::BreakOutsideLoop,
                    at,
                    Operand::Instruction,
                    None,
                    format!("{name} outside a loop or rep block"),
                );
            }
            Opcode::Label => {
                let num = inst.srcs.first().map(|s| s.register.num).unwrap_or(0);
                if !stack.is_empty() {
                    unclosed(cx, at, &stack, "a label");
                    stack.clear();
                }
                if prev != Some(Opcode::Ret) {
                    cx.at(
                        Rule::RetPlacement,
                        at,
                        Operand::Instruction,
                        None,
                        "a label follows a ret (subroutines come after the main program)",
                    );
                }
                if labels.insert(num, at.index).is_some() {
                    cx.at(
                        Rule::LabelRedefined,
                        at,
                        Operand::Src(0),
                        Some(Register::new(R::Label, num)),
                        "this label is already defined",
                    );
                }
                function += 1;
                function_of_label.insert(num, function);
                in_subroutine = true;
            }
            Opcode::Call | Opcode::CallNz => {
                if let Some(s) = inst.srcs.first() {
                    calls.push((function, s.register.num, at.index));
                }
            }
            Opcode::Ret if !stack.is_empty() => {
                cx.at(
                    Rule::RetPlacement,
                    at,
                    Operand::Instruction,
                    None,
                    "ret inside an if, loop or rep block",
                );
            }
            _ => {}
        }
        // aL outside a loop (subroutines may use the caller's aL).
        if !in_subroutine && !stack.iter().any(|b| b.0 == Block::Loop) {
            loop_counter(cx, at);
        }
        prev = Some(inst.opcode);
    }
    if let Some(last) = insts.last() {
        if !stack.is_empty() {
            unclosed(cx, last, &stack, "the end of the shader");
        }
    }
    // Call targets and call depth.
    for &(_, label, index) in &calls {
        if !labels.contains_key(&label) {
            let at = insts[index];
            cx.at(
                Rule::CallTarget,
                &at,
                Operand::Src(0),
                Some(Register::new(R::Label, label)),
                "no label with this number is defined",
            );
        }
    }
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); function + 1];
    for &(from, label, _) in &calls {
        if let Some(&to) = function_of_label.get(&label) {
            edges[from].push(to);
        }
    }
    // Every function counts, called from main or not: recursion anywhere is an error.
    let deepest = call_depth(&edges);
    match deepest {
        None => {
            if let Some(&(_, _, index)) = calls.first() {
                let at = insts[index];
                nesting(cx, &at, "subroutines call themselves (recursion)".into());
            }
        }
        Some(d) if d > max_call => {
            if let Some(&(_, _, index)) = calls.first() {
                let at = insts[index];
                nesting(
                    cx,
                    &at,
                    format!("calls nest {d} deep; {} allows {max_call}", cx.version),
                );
            }
        }
        _ => {}
    }
}

/// The deepest call chain in the call graph; `None` when it has a cycle (recursion). Iterative,
/// so a long chain of subroutines cannot overflow the stack.
fn call_depth(edges: &[Vec<usize>]) -> Option<usize> {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; edges.len()];
    let mut depth = vec![0usize; edges.len()];
    let mut deepest = 0;
    for root in 0..edges.len() {
        if state[root] != NEW {
            continue;
        }
        // (function, index of the next callee to visit)
        let mut stack = vec![(root, 0usize)];
        state[root] = OPEN;
        while let Some(&mut (f, ref mut next)) = stack.last_mut() {
            if let Some(&g) = edges[f].get(*next) {
                *next += 1;
                match state[g] {
                    OPEN => return None,
                    NEW => {
                        state[g] = OPEN;
                        stack.push((g, 0));
                    }
                    _ => {}
                }
            } else {
                let d = edges[f].iter().map(|&g| depth[g] + 1).max().unwrap_or(0);
                depth[f] = d;
                deepest = deepest.max(d);
                state[f] = DONE;
                stack.pop();
            }
        }
    }
    Some(deepest)
}

fn nesting(cx: &mut Cx<'_>, at: &At<'_>, msg: String) {
    cx.at(Rule::NestingDepth, at, Operand::Instruction, None, msg);
}

fn unmatched(cx: &mut Cx<'_>, at: &At<'_>, msg: &str) {
    cx.at(Rule::UnmatchedBlock, at, Operand::Instruction, None, msg);
}

fn close(
    cx: &mut Cx<'_>,
    at: &At<'_>,
    stack: &mut Vec<(Block, usize)>,
    fits: impl Fn(Block) -> bool,
    name: &str,
) {
    match stack.last() {
        Some((b, _)) if fits(*b) => {
            stack.pop();
        }
        Some(&(b, i)) => {
            // Close the wrong block anyway, so one mistake is reported once.
            stack.pop();
            let msg = format!("{name} closes a {b:?} block opened at instruction {i}");
            unmatched(cx, at, &msg);
        }
        None => unmatched(cx, at, &format!("{name} without an open block")),
    }
}

fn unclosed(cx: &mut Cx<'_>, at: &At<'_>, stack: &[(Block, usize)], before: &str) {
    let open: Vec<String> = stack
        .iter()
        .map(|(b, i)| format!("{b:?} at instruction {i}"))
        .collect();
    cx.at(
        Rule::UnclosedBlock,
        at,
        Operand::Instruction,
        None,
        format!("blocks still open before {before}: {}", open.join(", ")),
    );
}

fn loop_count(cx: &mut Cx<'_>, at: &At<'_>, defi: &HashMap<u16, [i32; 4]>) {
    let inst = at.inst;
    let n = if inst.opcode == Opcode::Loop { 1 } else { 0 };
    let Some(s) = inst.srcs.get(n) else { return };
    if s.register.ty != R::ConstInt {
        return;
    }
    let Some(v) = defi.get(&s.register.num) else {
        return;
    };
    let ok = if inst.opcode == Opcode::Loop {
        (0..=255).contains(&v[0]) && (0..=255).contains(&v[1]) && (-128..=127).contains(&v[2])
    } else {
        (0..=255).contains(&v[0])
    };
    if !ok {
        cx.at(
            Rule::LoopCount,
            at,
            Operand::Src(n as u8),
            Some(s.register),
            format!(
                "the integer constant {v:?} is out of range for {}",
                cx.mnemonic(inst)
            ),
        );
    }
}

fn loop_counter(cx: &mut Cx<'_>, at: &At<'_>) {
    let inst = at.inst;
    let mut uses: Vec<Operand> = Vec::new();
    let is_al =
        |r: Option<Relative>| matches!(r, Some(Relative::Token(t)) if t.register.ty == R::Loop);
    if let Some(d) = inst.dst {
        if is_al(d.relative) {
            uses.push(Operand::Dst);
        }
    }
    for (n, s) in inst.srcs.iter().enumerate() {
        if is_al(s.relative) || (s.register.ty == R::Loop && inst.opcode != Opcode::Loop) {
            uses.push(Operand::Src(n as u8));
        }
    }
    for op in uses {
        cx.at(
            Rule::LoopCounterOutsideLoop,
            at,
            op,
            Some(Register::new(R::Loop, 0)),
            "aL is used outside a loop block",
        );
    }
}
