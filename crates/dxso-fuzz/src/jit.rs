//! The JIT on any input: the fuzzer's bytes are a shader's bytecode (first byte's low bits 0;
//! zero-padded to whole DWORDs),
//! drive dxso-smith to a valid program (1), or drive dxso-smith and then damage the lowered
//! plan (2, 3: slots, jump targets, counts and offsets rewritten). Valid programs are decoded,
//! validated, lowered, compiled (vector or scalar code) and run on a few invocations under a
//! small budget on both engines, which must agree (a NaN only has to be a NaN); a damaged plan
//! must either be refused with `Plan::check`'s error or run without a panic or touching
//! memory outside its buffers. Never a hang: the budget bounds every loop.

use crate::exec_inputs::{attributes, resources};
use arbitrary::{Arbitrary, Unstructured};
use dxso_exec::plan::{Op, Plan};
use dxso_exec::*;

/// Rewrites slots, jump targets, loop counts and offsets of a plan from the fuzzer's bytes.
fn damage(plan: &mut Plan, u: &mut Unstructured<'_>) {
    let n = plan.ops.len() as u32;
    let slots = plan.slots;
    for _ in 0..u.int_in_range(1..=8).unwrap_or(1) {
        if n == 0 {
            return;
        }
        let i = u.int_in_range(0..=n - 1).unwrap_or(0) as usize;
        let pick = |u: &mut Unstructured<'_>, limit: u32| u.int_in_range(0..=limit).unwrap_or(0);
        match &mut plan.ops[i] {
            Op::If { else_pc: t, .. } | Op::Else { end_pc: t } | Op::Loop { end_pc: t, .. } => {
                *t = pick(u, n + 2)
            }
            Op::EndLoop { body_pc: t } | Op::Break { resume: t, .. } | Op::Ret { resume: t } => {
                *t = pick(u, n + 2)
            }
            Op::Call { target, .. } => *target = pick(u, n + 2),
            Op::Gather { offset, .. } | Op::Scatter { offset, .. } => {
                *offset = u.arbitrary().unwrap_or(0)
            }
            op => {
                let s = pick(u, slots + 8);
                let mut first = true;
                op.map_slots(|x| {
                    if std::mem::take(&mut first) {
                        *x = s;
                    }
                });
            }
        }
    }
    if u.arbitrary().unwrap_or(false) {
        plan.slots = u.int_in_range(0..=slots + 4).unwrap_or(slots);
    }
}

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut u = Unstructured::new(rest);
    let shader = if mode % 4 == 0 {
        let Ok(s) = dxso::decode(&crate::input::padded(rest)) else {
            return;
        };
        s
    } else {
        let Ok(p) = dxso_smith::ConfiguredShader::arbitrary(&mut u) else {
            return;
        };
        p.shader.shader().clone()
    };
    let jit = if mode & 0x20 != 0 {
        Engine::JitScalar
    } else {
        Engine::Jit
    };
    let options = Options {
        budget: 20_000,
        lanes: [8, 16, 32, 64][(mode as usize / 4) % 4],
        zero_times_anything: mode & 0x40 != 0,
        ..Options::default()
    };
    let vertex = shader.version.is_vertex();
    let plan = Plan::lower(&shader, &options);
    let Ok(mut plan) = plan else { return };
    let res = resources(&mut u, &plan);
    let count = 1 + u.int_in_range(0..=20).unwrap_or(0) as usize;
    let invocations = if vertex { count } else { count * 4 };
    let inputs = attributes(&mut u, &plan, invocations);
    let coverage: Vec<bool> = if vertex {
        Vec::new()
    } else {
        (0..invocations)
            .map(|_| u.arbitrary().unwrap_or(true))
            .collect()
    };
    if mode % 4 >= 2 {
        // A damaged plan: compiled code must stay inside its buffers (or not be generated).
        damage(&mut plan, &mut u);
        let compiled = jit::compile(
            &plan,
            if jit == Engine::Jit {
                jit::Mode::native()
            } else {
                jit::Mode::Scalar
            },
        );
        // `run_plan` refuses a plan that fails `Plan::check` with a typed error; a plan that
        // passes runs on the code or the interpreter without a panic.
        let _ = compiled.run_plan(&plan, invocations, &inputs, &res);
        return;
    }
    let run = |engine| -> Result<Outputs, ExecError> {
        let options = Options { engine, ..options };
        if vertex {
            let vs = VertexShader::with_options(&shader, &options).expect("lowered above");
            vs.run(
                &VertexBatch {
                    count,
                    inputs: inputs.clone(),
                },
                &res,
            )
        } else {
            let ps = PixelShader::with_options(&shader, &options).expect("lowered above");
            ps.run(
                &QuadBatch {
                    quads: count,
                    inputs: inputs.clone(),
                    coverage: coverage.clone(),
                },
                &res,
            )
        }
    };
    let (want, got) = (run(Engine::Interpreter), run(jit));
    match (&want, &got) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.discarded, b.discarded, "discard masks differ");
            assert_eq!(
                a.registers.len(),
                b.registers.len(),
                "output registers differ"
            );
            for ((ra, va), (rb, vb)) in a.registers.iter().zip(&b.registers) {
                assert_eq!(ra, rb);
                for (x, y) in va.iter().flatten().zip(vb.iter().flatten()) {
                    assert!(
                        x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()),
                        "{ra}: {x:?} vs {y:?}\n{}",
                        dxso_text::print::print(&shader)
                    );
                }
            }
        }
        (Err(a), Err(b)) => assert_eq!(a, b),
        _ => panic!(
            "interpreter {:?}, jit {:?}\n{}",
            want.as_ref().err(),
            got.as_ref().err(),
            dxso_text::print::print(&shader)
        ),
    }
}
