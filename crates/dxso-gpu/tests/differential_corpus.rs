//! Differential execution on the Vulkan device: every corpus shader that validates runs
//! through `dxso-gpu` and `dxso-exec` on the same deterministic inputs, constants and
//! textures; outputs agree within the tolerance of the shader's operation class and discard
//! masks agree exactly.

mod common;

use common::*;

#[test]
fn corpus_agrees_with_the_executor_on_the_device() {
    let [ieee, _] = float_modes();
    corpus(ieee);
}

#[test]
fn corpus_agrees_with_the_executor_on_the_device_with_zero_times_anything() {
    let [_, zero] = float_modes();
    corpus(zero);
}

fn corpus((mode, options): (&str, dxso_exec::Options)) {
    let what = format!("corpus_agrees_with_the_executor_on_the_device ({mode})");
    let Some(dir) = dxso_corpus::corpus_or_skip(&what) else {
        return;
    };
    let Some(gpu) = gpu_or_skip(&what) else {
        return;
    };
    let mut stats = Stats::default();
    let mut valid = 0;
    for (n, e) in dxso_corpus::entries(&dir).iter().enumerate() {
        let Ok(shader) = dxso::decode(&e.bytes()) else {
            continue;
        };
        if !dxso::validate(&shader).is_valid() {
            continue;
        }
        valid += 1;
        let Case {
            class,
            inputs,
            count,
            resources,
        } = match corpus_case(n, &shader, &options) {
            Ok(c) => c,
            Err(err) => {
                stats.failures.push(format!("{}: {err}", e.rel));
                continue;
            }
        };
        let show = std::env::var("DXSO_DIFF_SHOW").is_ok_and(|f| e.rel.contains(&f));
        if show {
            eprintln!("{}\n{}", e.rel, dxso_text::print(&shader));
            eprintln!("inputs {inputs:?}");
            for s in &resources.samplers {
                eprintln!(
                    "sampler {:?} {:?}",
                    s.state,
                    s.texture
                        .as_ref()
                        .map(|t| (t.format(), t.levels()[0].width))
                );
            }
        }
        match run_both(
            &gpu, &shader, inputs, count, &resources, &options, &mut stats,
        ) {
            Ok(Some((cpu, g))) => {
                if show {
                    for ((r, c), (_, gv)) in cpu.registers.iter().zip(&g.registers) {
                        eprintln!("{r}: cpu {c:?}\n{r}: gpu {gv:?}");
                    }
                }
                stats.compare(&e.rel, class, &cpu, &g)
            }
            Ok(None) => {}
            Err(err) => stats.failures.push(format!("{}: {err}", e.rel)),
        }
    }
    stats.report(&format!("corpus ({mode}) on {}", gpu.adapter_name()));
    let skipped: usize = stats.skipped.values().sum();
    assert_eq!(
        stats.shaders
            + skipped
            + stats
                .failures
                .iter()
                .filter(|f| f.contains(": gpu:")
                    || f.contains(": cpu:")
                    || f.contains("executor")
                    || f.contains("translate"))
                .count(),
        valid,
        "expected every one of the {valid} valid corpus shaders to be run or skipped with a reason"
    );
    assert!(
        stats.failures.is_empty(),
        "{} of {valid} shaders disagree (first: {})",
        stats.failures.len(),
        stats.failures[0]
    );
}
