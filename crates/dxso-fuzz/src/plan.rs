//! Hand-built execution plans: a valid program (driven through dxso-smith, or with bit 5 of the
//! first byte set a shader's bytecode prefixed by its length, as the seeds from the corpus are)
//! is lowered, and the fuzzer's bytes then rewrite the plan as a caller building plans by hand could (any slot,
//! jump target, block, offset, register, sampler, size, row range, input or output, and whole
//! operations dropped, repeated or swapped). The plan is checked, compiled (vector or scalar
//! code) and run; a plan that fails `Plan::check` must fall back with that error and be
//! refused by `run_plan` with the same error; one that passes must run to `Ok` or a typed
//! error. Never a panic, never a hang (the budget bounds every loop of a plan that passes).

use crate::exec_inputs::{attributes, resources};
use arbitrary::{Arbitrary, Unstructured};
use dxso_exec::plan::{Op, Plan};
use dxso_exec::*;

/// A number near `around` (often just past it), or any value.
fn near(u: &mut Unstructured<'_>, around: u32) -> u32 {
    match u.int_in_range(0u8..=3).unwrap_or(0) {
        0 => u.arbitrary().unwrap_or(0),
        _ => u.int_in_range(0..=around.saturating_add(4)).unwrap_or(0),
    }
}

/// Rewrites one part of the plan.
fn mutate(plan: &mut Plan, u: &mut Unstructured<'_>) {
    let n = plan.ops.len() as u32;
    let slots = plan.slots;
    let pick_op = |u: &mut Unstructured<'_>| u.int_in_range(0..=n.max(1) - 1).unwrap_or(0) as usize;
    match u.int_in_range(0u8..=15).unwrap_or(0) {
        0..=4 if n > 0 => {
            // One slot of one operation.
            let i = pick_op(u);
            let k = u.int_in_range(0u8..=15).unwrap_or(0);
            let s = near(u, slots);
            let mut seen = 0;
            plan.ops[i].map_slots(|x| {
                if seen == k {
                    *x = s;
                }
                seen += 1;
            });
        }
        5 | 6 if n > 0 => {
            let i = pick_op(u);
            let t = near(u, n);
            match &mut plan.ops[i] {
                Op::If { else_pc: p, .. }
                | Op::Else { end_pc: p }
                | Op::Loop { end_pc: p, .. }
                | Op::EndLoop { body_pc: p }
                | Op::Break { resume: p, .. }
                | Op::Ret { resume: p }
                | Op::Call { target: p, .. } => *p = t,
                Op::Gather { offset, .. } | Op::Scatter { offset, .. } => {
                    *offset = u.arbitrary().unwrap_or(0)
                }
                Op::Sample { sampler, .. } => *sampler = u.arbitrary().unwrap_or(0),
                Op::ProjectStage { stage, .. } => *stage = u.arbitrary().unwrap_or(0),
                Op::Count(c) => *c = u.arbitrary().unwrap_or(0),
                Op::Dot { len, .. } | Op::Matrix { len, .. } => *len = u.arbitrary().unwrap_or(0),
                Op::Arith { mask, .. } | Op::Store { mask, .. } | Op::Mova { mask, .. } => {
                    *mask = u.arbitrary().unwrap_or(0)
                }
                _ => {}
            }
        }
        7 if n > 0 => {
            // Blocks: base and length.
            let i = pick_op(u);
            let (b, l) = (near(u, slots), near(u, 64));
            match &mut plan.ops[i] {
                Op::Scatter { base, len, .. }
                | Op::Gather {
                    from: dxso_exec::plan::GatherFrom::Block { base, len },
                    ..
                } => {
                    *base = b;
                    *len = l;
                }
                _ => {}
            }
        }
        8 if n > 0 => {
            // Drop, repeat or swap operations.
            let (i, j) = (pick_op(u), pick_op(u));
            match u.int_in_range(0u8..=2).unwrap_or(0) {
                0 => {
                    plan.ops.remove(i);
                }
                1 => {
                    let op = plan.ops[i];
                    plan.ops.insert(j, op);
                }
                _ => plan.ops.swap(i, j),
            }
        }
        9 => plan.slots = near(u, slots),
        10 => {
            plan.zeroed = near(u, plan.zeroed.start)..near(u, plan.zeroed.end);
        }
        11 => match u.int_in_range(0u8..=2).unwrap_or(0) {
            0 => {
                plan.uniforms.pop();
            }
            1 => plan.uniforms.push(dxso_exec::plan::Uniform::Float {
                reg: near(u, plan.float_constants),
                comp: u.arbitrary().unwrap_or(0),
                modifier: dxso_exec::plan::ArithFn::Add,
            }),
            _ => plan.clear.push(near(u, slots)),
        },
        12 => {
            let s = Some(near(u, slots));
            let c = u.int_in_range(0..=3).unwrap_or(0);
            if u.arbitrary().unwrap_or(false) {
                if let Some(i) = plan.inputs.first_mut() {
                    i.slots[c] = s;
                }
            } else if let Some(o) = plan.outputs.last_mut() {
                o.slots[c] = s;
            }
        }
        13 => plan.lanes = [0, 1, 4, 8, 12, 16, 32, 64, 128][u.int_in_range(0..=8).unwrap_or(0)],
        14 => plan.float_constants = near(u, plan.float_constants),
        _ => {
            plan.int_defs
                .push((near(u, 16), [u.arbitrary().unwrap_or(0); 4]));
            plan.bool_defs.push((near(u, 16), true));
            plan.max_call_depth = u.arbitrary().unwrap_or(0);
        }
    }
}

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let (shader, mut u) = if mode & 0x20 != 0 {
        let (bytes, rest) = crate::input::length_prefixed(rest);
        let Ok(shader) = dxso::decode(&crate::input::padded(bytes)) else {
            return;
        };
        (shader, Unstructured::new(rest))
    } else {
        let mut u = Unstructured::new(rest);
        let Ok(p) = dxso_smith::ConfiguredShader::arbitrary(&mut u) else {
            return;
        };
        (p.shader.shader().clone(), u)
    };
    let options = Options {
        budget: 5_000,
        lanes: [8, 16, 32, 64][mode as usize % 4],
        ..Options::default()
    };
    let vertex = shader.version.is_vertex();
    let plan = Plan::lower(&shader, &options);
    let Ok(mut plan) = plan else { return };
    assert_eq!(plan.check(), Ok(()), "a lowered plan passes its check");
    let res = resources(&mut u, &plan);
    for _ in 0..u.int_in_range(1..=6).unwrap_or(1) {
        mutate(&mut plan, &mut u);
    }
    let count = 1 + u.int_in_range(0..=12).unwrap_or(0) as usize;
    let invocations = if vertex { count } else { count * 4 };
    let inputs = attributes(&mut u, &plan, invocations);
    let checked = plan.check();
    let mode = if mode & 0x10 != 0 {
        jit::Mode::Scalar
    } else {
        jit::Mode::native()
    };
    let compiled = jit::compile(&plan, mode);
    let run = compiled.run_plan(&plan, invocations, &inputs, &res);
    match checked {
        Err(e) => {
            assert_eq!(
                compiled.fallback_reason(),
                Some(&jit::Fallback::Malformed(e.clone()))
            );
            assert_eq!(run.err(), Some(ExecError::Plan(e)));
        }
        Ok(()) => {
            if let Err(ExecError::Plan(e)) = run {
                panic!("a plan that passes its check is refused: {e}");
            }
        }
    }
}
