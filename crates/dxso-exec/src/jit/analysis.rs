//! What the code generator needs to know about a plan before emitting anything: its functions,
//! how its structured control flow nests, which slots live in memory, where the execution mask
//! is statically full, and whether the instruction budget can be reached at all.
//!
//! Every check that keeps generated code in bounds is made here, on the plan as given (a
//! [`Plan`] is plain data a caller could build by hand): a plan that fails one is not compiled
//! and runs on the interpreter, with the reason.

use super::Fallback;
use crate::plan::check::{resume_ok, Block};
use crate::plan::{LoopCount, Op, Pc, Plan};

/// A function of the plan: the main program or a subroutine.
#[derive(Clone, Debug)]
pub(super) struct Function {
    /// The first operation.
    pub start: Pc,
    /// The closing `End` (main) or `Return`.
    pub end: Pc,
    /// The `Call` operations that target it.
    pub call_sites: Vec<Pc>,
}

/// The facts about a plan.
#[derive(Clone, Debug)]
pub(super) struct Analysis {
    /// Functions; index 0 is the main program.
    pub functions: Vec<Function>,
    /// The function of each operation (`None`: code no call reaches).
    pub function_of: Vec<Option<usize>>,
    /// For `Else`, `EndIf`: the `If`; for `EndLoop`: the `Loop`.
    pub opener: Vec<Option<Pc>>,
    /// Operations some jump lands on (they start a basic block).
    pub target: Vec<bool>,
    /// Slots read and written in memory rather than held in variables: the relatively
    /// addressed register blocks, and the input rows nothing writes.
    pub in_memory: Vec<bool>,
    /// Slots the plan names.
    pub used: Vec<bool>,
    /// Where every lane of the batch is known to be active.
    pub full: Vec<bool>,
    /// Whether an invocation can reach the budget (else no instruction is counted).
    pub counting: bool,
    /// The most instructions an invocation can execute (saturating).
    pub max_count: u64,
    /// Texture stages `ProjectStage` reads, in order of first use.
    pub stages: Vec<u8>,
}

/// The rule a `Break`/`Ret` that [`resume_ok`] rejects breaks.
const RESUME: &str = "a break or ret that does not resume at its block's next structural operation";

/// Loop iterations are clamped to this (`docs/SEMANTICS.md` 9.2).
const MAX_ITERATIONS: u64 = 255;

/// The largest register file and relative offset the code generator addresses.
const MAX_REGISTERS: u32 = 1 << 24;

/// The deepest call chain the interpreter runs (its `CallDepth` limit).
const MAX_CALL_DEPTH: u32 = 63;

/// Analyses `plan`, or says why the JIT does not compile it.
pub(super) fn analyse(plan: &Plan) -> Result<Analysis, Fallback> {
    // Slots, blocks, registers and jump targets are in range and the blocks nest: what the
    // interpreter relies on too.
    plan.check().map_err(Fallback::Malformed)?;
    let ops = &plan.ops;
    let n = ops.len();
    if n == 0 {
        return Err(Fallback::Unstructured {
            pc: 0,
            reason: "the plan has no operations",
        });
    }
    let bad = |pc: usize, reason: &'static str| Fallback::Unstructured {
        pc: pc as Pc,
        reason,
    };
    let slots = plan.slots;
    let uniforms = plan.uniforms.len() as u32;
    if plan.float_constants > MAX_REGISTERS || slots > MAX_REGISTERS {
        return Err(Fallback::Layout("a register file beyond 2^24 registers"));
    }
    let mut used = vec![false; slots as usize];
    let mut in_memory = vec![false; slots as usize];
    let mut written = vec![false; slots as usize];
    let mut stages = Vec::new();
    for op in ops {
        let uses = op.slot_uses();
        for &s in &uses.named {
            used[s as usize] = true;
        }
        for &s in &uses.written {
            written[s as usize] = true;
        }
        if let Some(Block {
            base,
            len,
            written: w,
        }) = uses.block
        {
            // In the file (checked); the code generator also keeps blocks off uniform rows.
            if base < uniforms {
                return Err(Fallback::Layout(
                    "a relatively addressed block in uniform rows",
                ));
            }
            for s in base..base + len * 4 {
                in_memory[s as usize] = true;
                used[s as usize] = true;
                written[s as usize] |= w;
            }
        }
        // Register numbers are added in 32 bits: with offsets and files below 2^24, no sum
        // that wraps lands in range (the interpreter adds in 64 bits).
        if let Op::Gather { offset, .. } | Op::Scatter { offset, .. } = *op {
            if offset.unsigned_abs() > MAX_REGISTERS {
                return Err(Fallback::Layout("a relative offset beyond 2^24"));
            }
        }
        if let Op::ProjectStage { stage, .. } = *op {
            if !stages.contains(&stage) {
                stages.push(stage);
            }
        }
    }
    for s in plan
        .inputs
        .iter()
        .flat_map(|i| i.slots)
        .chain(plan.outputs.iter().flat_map(|o| o.slots))
        .flatten()
    {
        used[s as usize] = true;
    }
    // A memory block written by the shader must not hold inputs: the interpreter re-runs a
    // batch from the same input rows when the budget trips. Input rows nothing writes are
    // read where they are used, straight from the register file (they need no register for
    // the whole chunk).
    for i in &plan.inputs {
        for &s in i.slots.iter().flatten() {
            if in_memory[s as usize] && written[s as usize] {
                return Err(Fallback::Layout(
                    "an operation writes an input row of a relatively addressed block",
                ));
            }
            if !written[s as usize] {
                in_memory[s as usize] = true;
            }
        }
    }

    // Functions: main up to the first End, then one subroutine per Return.
    let Some(main_end) = ops.iter().position(|op| matches!(op, Op::End)) else {
        return Err(bad(n - 1, "the main program has no end"));
    };
    let mut functions = vec![Function {
        start: 0,
        end: main_end as Pc,
        call_sites: Vec::new(),
    }];
    let mut start = main_end + 1;
    for (pc, op) in ops.iter().enumerate().skip(main_end + 1) {
        match op {
            Op::Return => {
                functions.push(Function {
                    start: start as Pc,
                    end: pc as Pc,
                    call_sites: Vec::new(),
                });
                start = pc + 1;
            }
            Op::End => return Err(bad(pc, "an end outside the main program")),
            _ => {}
        }
    }
    let mut owner: Vec<Option<usize>> = vec![None; n];
    for (f, func) in functions.iter().enumerate() {
        for o in &mut owner[func.start as usize..=func.end as usize] {
            *o = Some(f);
        }
    }
    if main_end > 0 && ops[..main_end].iter().any(|op| matches!(op, Op::Return)) {
        return Err(bad(main_end, "a return inside the main program"));
    }
    // Calls: targets start functions; the call graph has no cycle and is shallow enough.
    let mut callees: Vec<Vec<usize>> = vec![Vec::new(); functions.len()];
    for (pc, op) in ops.iter().enumerate() {
        if let Op::Call { target, .. } = *op {
            let Some(callee) = functions.iter().position(|f| f.start == target) else {
                return Err(bad(pc, "a call into the middle of a function"));
            };
            if callee == 0 {
                return Err(bad(pc, "a call of the main program"));
            }
            functions[callee].call_sites.push(pc as Pc);
            if let Some(caller) = owner[pc] {
                callees[caller].push(callee);
            }
        }
    }
    let depth = call_depth(&callees)?;
    if depth > MAX_CALL_DEPTH || plan.max_call_depth > MAX_CALL_DEPTH {
        return Err(Fallback::CallDepth(depth.max(plan.max_call_depth)));
    }
    // Reachable functions: main and what it calls, transitively.
    let mut reachable = vec![false; functions.len()];
    let mut todo = vec![0usize];
    while let Some(f) = todo.pop() {
        if std::mem::replace(&mut reachable[f], true) {
            continue;
        }
        todo.extend(callees[f].iter().copied());
    }
    let function_of: Vec<Option<usize>> =
        owner.iter().map(|o| o.filter(|&f| reachable[f])).collect();
    for f in &mut functions {
        f.call_sites
            .retain(|&pc| function_of[pc as usize].is_some());
    }

    // Structure: blocks nest, jumps stay in their function and land where the interpreter's
    // frame stack expects.
    let mut opener = vec![None; n];
    let mut target = vec![false; n];
    for (fi, func) in functions.iter().enumerate() {
        if !reachable[fi] {
            continue;
        }
        let mut stack: Vec<Pc> = Vec::new();
        let same = |pc: usize, to: usize| owner[to] == Some(fi) || pc == to;
        for pc in func.start as usize..=func.end as usize {
            match ops[pc] {
                Op::If { else_pc, .. } => {
                    let e = else_pc as usize;
                    if e <= pc || !same(pc, e) || !matches!(ops[e], Op::Else { .. } | Op::EndIf) {
                        return Err(bad(pc, "an if whose else target is not its else or endif"));
                    }
                    stack.push(pc as Pc);
                    target[pc + 1] = true;
                    target[e] = true;
                }
                Op::Else { end_pc } => {
                    let Some(&i) = stack.last() else {
                        return Err(bad(pc, "an else outside an if"));
                    };
                    let e = end_pc as usize;
                    if !matches!(ops[i as usize], Op::If { else_pc, .. } if else_pc as usize == pc)
                        || e <= pc
                        || !same(pc, e)
                        || !matches!(ops[e], Op::EndIf)
                    {
                        return Err(bad(pc, "an else that does not pair with its if and endif"));
                    }
                    opener[pc] = Some(i);
                    target[pc + 1] = true;
                    target[e] = true;
                }
                Op::EndIf => {
                    let Some(i) = stack.pop() else {
                        return Err(bad(pc, "an endif outside an if"));
                    };
                    match ops[i as usize] {
                        Op::If { else_pc, .. } => {
                            let e = else_pc as usize;
                            let ok = e == pc
                                || matches!(ops[e], Op::Else { end_pc } if end_pc as usize == pc);
                            if !ok {
                                return Err(bad(pc, "an endif that does not close its if"));
                            }
                        }
                        _ => return Err(bad(pc, "an endif closing a loop")),
                    }
                    opener[pc] = Some(i);
                }
                Op::Loop { end_pc, .. } => {
                    let e = end_pc as usize;
                    if e <= pc || !same(pc, e) || e + 1 > func.end as usize {
                        return Err(bad(pc, "a loop whose end is outside its function"));
                    }
                    stack.push(pc as Pc);
                    target[e + 1] = true;
                    target[pc + 1] = true;
                }
                Op::EndLoop { body_pc } => {
                    let Some(l) = stack.pop() else {
                        return Err(bad(pc, "an endloop outside a loop"));
                    };
                    let ok = matches!(ops[l as usize], Op::Loop { end_pc, .. } if end_pc as usize == pc)
                        && body_pc == l + 1;
                    if !ok {
                        return Err(bad(pc, "an endloop that does not close its loop"));
                    }
                    opener[pc] = Some(l);
                    target[body_pc as usize] = true;
                    target[pc + 1] = true;
                }
                Op::Break { resume, .. } => {
                    if !stack
                        .iter()
                        .any(|&o| matches!(ops[o as usize], Op::Loop { .. }))
                    {
                        return Err(bad(pc, "a break outside a loop"));
                    }
                    if !resume_ok(ops, &stack, pc, resume as usize, func.end as usize) {
                        return Err(bad(pc, RESUME));
                    }
                    target[resume as usize] = true;
                    target[pc + 1] = true;
                }
                Op::Ret { resume } => {
                    if !resume_ok(ops, &stack, pc, resume as usize, func.end as usize) {
                        return Err(bad(pc, RESUME));
                    }
                    target[resume as usize] = true;
                    target[pc + 1] = true;
                }
                Op::Call { target: t, .. } => {
                    target[t as usize] = true;
                    target[pc + 1] = true;
                }
                Op::End | Op::Return if !stack.is_empty() => {
                    return Err(bad(pc, "a function ends inside an open block"));
                }
                _ => {}
            }
        }
        target[func.start as usize] = true;
    }

    // The budget: an upper bound of what an invocation executes.
    let mut memo = vec![None; functions.len()];
    let max_count = function_bound(plan, &functions, &callees, 0, &mut memo);
    let counting = max_count > plan.budget;

    // Statically full execution masks: main, outside any if, inside loops without break or
    // ret, before any ret.
    let mut full = vec![false; n];
    let mut stack: Vec<(Pc, bool)> = Vec::new();
    let mut ret_seen = false;
    let loop_is_clean = |l: usize| match ops[l] {
        Op::Loop { end_pc, .. } => !ops[l..=end_pc as usize]
            .iter()
            .any(|op| matches!(op, Op::Break { .. } | Op::Ret { .. })),
        _ => false,
    };
    for pc in 0..=main_end {
        let now = !ret_seen && stack.iter().all(|&(_, clean)| clean);
        full[pc] = now;
        match ops[pc] {
            Op::If { .. } => stack.push((pc as Pc, false)),
            Op::Loop { .. } => stack.push((pc as Pc, loop_is_clean(pc))),
            Op::EndIf | Op::EndLoop { .. } => {
                stack.pop();
            }
            Op::Ret { .. } => ret_seen = true,
            _ => {}
        }
    }
    Ok(Analysis {
        functions,
        function_of,
        opener,
        target,
        in_memory,
        used,
        full,
        counting,
        max_count,
        stages,
    })
}

fn call_depth(callees: &[Vec<usize>]) -> Result<u32, Fallback> {
    // Depth-first with colours: a grey node reached again is a cycle.
    fn visit(
        f: usize,
        callees: &[Vec<usize>],
        colour: &mut [u8],
        depth: &mut [u32],
    ) -> Result<u32, Fallback> {
        match colour[f] {
            1 => return Err(Fallback::Recursion),
            2 => return Ok(depth[f]),
            _ => {}
        }
        colour[f] = 1;
        let mut d = 0;
        for &c in &callees[f] {
            d = d.max(1 + visit(c, callees, colour, depth)?);
        }
        colour[f] = 2;
        depth[f] = d;
        Ok(d)
    }
    let mut colour = vec![0u8; callees.len()];
    let mut depth = vec![0u32; callees.len()];
    let mut max = 0;
    for f in 0..callees.len() {
        max = max.max(visit(f, callees, &mut colour, &mut depth)?);
    }
    Ok(max)
}

/// The most instructions one call of function `f` counts (saturating): every `Count`, loop
/// iteration and call, each loop taken the most times it can run.
fn function_bound(
    plan: &Plan,
    functions: &[Function],
    callees: &[Vec<usize>],
    f: usize,
    memo: &mut Vec<Option<u64>>,
) -> u64 {
    if let Some(b) = memo[f] {
        return b;
    }
    let func = &functions[f];
    let ops = &plan.ops;
    // Multiplier of the enclosing loops, innermost last.
    let mut mult: Vec<u64> = vec![1];
    let mut total: u64 = 0;
    for &op in &ops[func.start as usize..=func.end as usize] {
        let m = *mult.last().expect("never empty");
        match op {
            Op::Count(k) => total = total.saturating_add(m.saturating_mul(k as u64)),
            Op::Loop { count, .. } => {
                let iterations = match count {
                    LoopCount::Literal(v) => v[0].clamp(0, MAX_ITERATIONS as i32) as u64,
                    LoopCount::Int(_) => MAX_ITERATIONS,
                };
                // Each iteration counts 1 (the entry and every repeat).
                let inner = m.saturating_mul(iterations);
                total = total.saturating_add(inner);
                mult.push(inner);
            }
            Op::EndLoop { .. } if mult.len() > 1 => {
                mult.pop();
            }
            Op::Call { target, .. } => {
                let callee = functions.iter().position(|g| g.start == target);
                let inner = match callee {
                    Some(c) if callees[f].contains(&c) => {
                        function_bound(plan, functions, callees, c, memo)
                    }
                    _ => u64::MAX,
                };
                total = total.saturating_add(m.saturating_mul(inner.saturating_add(1)));
            }
            _ => {}
        }
    }
    memo[f] = Some(total);
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{PlanError, PlanRule};
    use crate::{Options, VertexShader};

    fn plan(src: &str, budget: u64) -> Plan {
        let shader = dxso_text::parse::parse(src).expect("assembles");
        let options = Options {
            budget,
            ..Options::default()
        };
        VertexShader::with_options(&shader, &options)
            .expect("lowers")
            .plan()
            .clone()
    }

    const LOOPS: &str = "vs_3_0\ndcl_position o0\ndefi i0, 10, 0, 1, 0\nrep i0\nrep i1\nadd r0, r0, c0\nendrep\nendrep\nmov o0, r0\n";

    #[test]
    fn budget_bound_decides_counting() {
        let p = plan(LOOPS, Options::DEFAULT_BUDGET);
        let a = analyse(&p).unwrap();
        // 10 outer iterations (literal), 255 inner (from the run's i1): 10 * (1 + 255 * 2) + 2.
        assert!(a.max_count >= 10 * 255, "{}", a.max_count);
        assert!(!a.counting);
        let tight = plan(LOOPS, 100);
        assert!(analyse(&tight).unwrap().counting);
    }

    #[test]
    fn full_masks_outside_branches() {
        let p = plan(
            "vs_3_0\ndcl_position o0\ndefb b0, true\nmov r0, c0\nif b0\nmov r0, c1\nendif\nmov o0, r0\n",
            Options::DEFAULT_BUDGET,
        );
        let a = analyse(&p).unwrap();
        let if_pc = p
            .ops
            .iter()
            .position(|o| matches!(o, Op::If { .. }))
            .unwrap();
        let endif_pc = p.ops.iter().position(|o| matches!(o, Op::EndIf)).unwrap();
        assert!(a.full[0]);
        assert!(a.full[if_pc]);
        assert!(!a.full[if_pc + 1]);
        assert!(a.full[endif_pc + 1]);
        assert_eq!(a.opener[endif_pc], Some(if_pc as Pc));
    }

    #[test]
    fn hostile_plans_fall_back() {
        let mut p = plan(LOOPS, Options::DEFAULT_BUDGET);
        let mut q = p.clone();
        let far = q.slots + 5;
        if let Some(Op::Arith { dst, .. }) =
            q.ops.iter_mut().find(|o| matches!(o, Op::Arith { .. }))
        {
            dst[0] = far;
        }
        assert!(matches!(
            analyse(&q),
            Err(Fallback::Malformed(PlanError::Malformed {
                rule: PlanRule::SlotOutOfRange { .. },
                ..
            }))
        ));
        let mut r = p.clone();
        r.slots = 0;
        assert!(matches!(
            analyse(&r),
            Err(Fallback::Malformed(PlanError::Malformed {
                rule: PlanRule::Rows { .. },
                ..
            }))
        ));
        if let Some(Op::Loop { end_pc, .. }) =
            p.ops.iter_mut().find(|o| matches!(o, Op::Loop { .. }))
        {
            *end_pc = 10_000;
        }
        assert!(matches!(
            analyse(&p),
            Err(Fallback::Malformed(PlanError::Malformed {
                rule: PlanRule::JumpOutOfRange { .. },
                ..
            }))
        ));
    }
}
