//! `Plan::check` over real plans: every plan lowered from a valid corpus shader passes, and
//! (with the `jit` feature, whose `Compiled::run_plan` runs plans it did not build) plans
//! lowered from a few shaders and then damaged at random are either refused with the check's
//! error or run to a result or a typed error, never a panic.

use dxso_exec::plan::Plan;
use dxso_exec::*;

#[test]
fn corpus_plans_pass_check() {
    let Some(dir) = dxso_corpus::corpus_or_skip("corpus_plans_pass_check") else {
        return;
    };
    let (mut valid, mut passed) = (0usize, 0usize);
    let mut failures = Vec::new();
    for e in dxso_corpus::entries(&dir) {
        let Ok(shader) = dxso::decode(&e.bytes()) else {
            continue;
        };
        if !dxso::validate(&shader).is_valid() {
            continue;
        }
        valid += 1;
        // The default width and the narrowest, as lowering builds them.
        let result = [32, 8].iter().try_for_each(|&lanes| {
            let options = Options {
                lanes,
                ..Options::default()
            };
            Plan::lower(&shader, &options)?.check()
        });
        match result {
            Ok(()) => passed += 1,
            Err(err) => failures.push(format!("{}: {err}", e.rel)),
        }
    }
    println!("corpus plans pass check: {passed}/{valid} (valid shaders)");
    assert!(
        failures.is_empty(),
        "expected all {valid} valid corpus shaders to lower to plans that pass check, {} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        valid >= 1188,
        "expected at least 1188 valid corpus shaders, found {valid}"
    );
}

#[cfg(feature = "jit")]
mod damaged {
    use super::*;
    use dxso_exec::plan::{GatherFrom, Op};
    use proptest::prelude::*;

    /// Shaders with every kind of structure the plan has: relative reads and writes, loops with
    /// breaks, branches, calls, samples, ps_1_x stages and texture registers.
    const SHADERS: &[&str] = &[
        "vs_3_0\ndcl_position v0\ndcl_texcoord v1\ndcl_position o0\ndcl_texcoord o1\ndcl_texcoord1 o2\ndcl_2d s0\ndefi i0, 3, 0, 1, 0\ndefb b0, true\nmova a0.x, v0.x\nmov r0, c[a0.x + 2]\nloop aL, i0\nadd r0, r0, c1\nmov o[aL + 1], r0\nbreak_gt r0.x, c0.x\nendloop\nif b0\ncall l0\nelse\nadd r0, r0, c1\nendif\ntexldl r1, v1, s0\nmov o0, r0\nmov o1, r1\nret\nlabel l0\nmul r0, r0, c3\nret\n",
        "ps_3_0\ndcl_texcoord v0\ndcl_texcoord1 v1\ndcl_2d s0\ndcl_cube s1\ndefi i0, 2, 0, 1, 0\nmov r0, c0\nloop aL, i0\nadd r0, r0, v[aL]\nendloop\nsetp_gt p0, r0, c1\n(p0) texld r1, v0, s0\nif_lt r0.x, c2.x\ntexld r2, r0, s1\nadd r0, r0, r2\nendif\ntexkill r0\ndsx r3, r0\nadd oC0, r1, r3\n",
        "ps_1_4\ntexld r0, t0\ntexcrd r1.xyz, t1\nphase\ntexld r2, r1\nmul r0, r0, r2\nadd_sat r0, r0, c0\n",
        "ps_1_1\ntex t0\ntexbem t1, t0\ntexm3x2pad t2, t0\ntexm3x2tex t3, t0\nmad r0, t1, c0, t3\n",
        "vs_1_1\ndcl_position v0\ndcl_normal v1\nmov a0.x, v1.x\nm4x4 oPos, v0, c4\ndp3 r0.x, v1, c[a0.x + 10]\nlit r1, r0\nmov oD0, r1\nexpp oT0, v0.x\n",
    ];

    /// One damage: which part, and three numbers that choose the value.
    type Damage = (u8, u32, u32, u32);

    /// A number near `around` (just past it as often as not), or any one.
    fn near(around: u32, x: u32) -> u32 {
        if x % 4 == 0 {
            x
        } else {
            x % around.saturating_add(5)
        }
    }

    fn damage(plan: &mut Plan, (kind, a, b, c): Damage) {
        let n = plan.ops.len() as u32;
        let slots = plan.slots;
        let i = (a % n.max(1)) as usize;
        match kind % 12 {
            0..=3 if n > 0 => {
                let mut seen = 0;
                plan.ops[i].map_slots(|x| {
                    if seen == b % 16 {
                        *x = near(slots, c);
                    }
                    seen += 1;
                });
            }
            4 | 5 if n > 0 => match &mut plan.ops[i] {
                Op::If { else_pc: p, .. }
                | Op::Else { end_pc: p }
                | Op::Loop { end_pc: p, .. }
                | Op::EndLoop { body_pc: p }
                | Op::Break { resume: p, .. }
                | Op::Ret { resume: p }
                | Op::Call { target: p, .. } => *p = near(n, c),
                Op::Gather {
                    from: GatherFrom::Block { base, len },
                    ..
                }
                | Op::Scatter { base, len, .. }
                    if kind % 2 == 0 =>
                {
                    *base = near(slots, b);
                    *len = near(8, c);
                }
                Op::Gather { offset, .. } | Op::Scatter { offset, .. } => *offset = c as i32,
                Op::Sample { sampler, .. } => *sampler = c as u8,
                _ => {}
            },
            6 if n > 1 => {
                let j = (b % n) as usize;
                match c % 3 {
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
            7 => plan.slots = near(slots, c),
            8 => plan.zeroed = near(slots, b)..near(slots, c),
            9 => plan.clear.push(near(slots, c)),
            10 => {
                let s = Some(near(slots, c));
                if b % 2 == 0 {
                    if let Some(x) = plan.inputs.first_mut() {
                        x.slots[(a % 4) as usize] = s;
                    }
                } else if let Some(x) = plan.outputs.first_mut() {
                    x.slots[(a % 4) as usize] = s;
                }
            }
            _ => {
                plan.lanes = [0, 8, 12, 16, 32, 64, 100][(c % 7) as usize];
                plan.float_constants = near(plan.float_constants, b);
            }
        }
    }

    fn inputs(plan: &Plan, count: usize) -> Vec<Attribute> {
        plan.inputs
            .iter()
            .enumerate()
            .map(|(k, i)| Attribute {
                register: i.register,
                values: (0..count)
                    .map(|l| [k as f32, l as f32 * 0.25, 0.5, 1.0])
                    .collect(),
            })
            .collect()
    }

    fn resources(plan: &Plan) -> Resources {
        let mut r = Resources::default();
        r.constants.float = (0..32).map(|k| [k as f32 * 0.5 - 4.0; 4]).collect();
        r.constants.int = vec![[3, 0, 1, 0]; 16];
        for s in &plan.samplers {
            let dim = s.declared.unwrap_or(Dimension::D2);
            let faces = match dim {
                Dimension::D2 => 1,
                Dimension::Cube => 6,
                Dimension::Volume => 2,
            };
            let texture = Texture::new(
                dim,
                Format::Rgba8Unorm,
                vec![MipLevel {
                    width: 2,
                    height: 2,
                    depth: faces,
                    data: (0..16 * faces).map(|b| (b * 7 % 256) as u8).collect(),
                }],
            )
            .expect("sizes match");
            let i = s.index as usize;
            if r.samplers.len() <= i {
                r.samplers.resize(i + 1, Sampler::default());
            }
            r.samplers[i] = Sampler::new(std::sync::Arc::new(texture));
        }
        r
    }

    fn plans() -> Vec<Plan> {
        SHADERS
            .iter()
            .map(|src| {
                let shader = dxso_text::parse::parse(src).expect("assembles");
                let options = Options {
                    budget: 2_000,
                    lanes: 8,
                    ..Options::default()
                };
                Plan::lower(&shader, &options).expect("lowers")
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(600))]

        #[test]
        fn damaged_plans_never_panic(
            which in 0..SHADERS.len(),
            damages in prop::collection::vec(any::<Damage>(), 1..5),
            scalar in any::<bool>(),
        ) {
            let mut plan = plans().swap_remove(which);
            prop_assert_eq!(plan.check(), Ok(()));
            let res = resources(&plan);
            for d in damages {
                damage(&mut plan, d);
            }
            let checked = plan.check();
            let mode = if scalar { jit::Mode::Scalar } else { jit::Mode::native() };
            let compiled = jit::compile(&plan, mode);
            let count = if plan.version.is_pixel() { 12 } else { 5 };
            let run = compiled.run_plan(&plan, count, &inputs(&plan, count), &res);
            match checked {
                Err(e) => {
                    prop_assert_eq!(
                        compiled.fallback_reason(),
                        Some(&jit::Fallback::Malformed(e.clone()))
                    );
                    prop_assert_eq!(run.err(), Some(ExecError::Plan(e)));
                }
                Ok(()) => prop_assert!(!matches!(run, Err(ExecError::Plan(_)))),
            }
        }
    }

    #[test]
    fn run_plan_refuses_a_malformed_plan() {
        let mut plan = plans().swap_remove(0);
        let compiled = jit::compile(&plan, jit::Mode::native());
        plan.lanes = 3;
        let err = compiled
            .run_plan(&plan, 4, &inputs(&plan, 4), &resources(&plan))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "malformed plan: layout: 3 lanes per batch (8, 16, 32 or 64)"
        );
        assert!(matches!(
            jit::compile(&plan, jit::Mode::Scalar).fallback_reason(),
            Some(jit::Fallback::Malformed(PlanError::Malformed {
                rule: PlanRule::Lanes { lanes: 3 },
                ..
            }))
        ));
    }
}
