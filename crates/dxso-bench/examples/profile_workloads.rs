//! Runs one benchmark workload many times, for profilers (callgrind, perf):
//! `profile_workloads skinning|lighting interp|jit|baseline [invocations] [passes] [lanes]`
//! (`jit` needs the `jit` feature).

use dxso_bench::workloads::*;
use dxso_exec::*;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map_or("skinning", |s| s.as_str());
    let mode = args.get(2).map_or("interp", |s| s.as_str());
    let n: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(65536);
    let passes: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(20);
    let lanes: usize = args
        .get(5)
        .and_then(|s| s.parse().ok())
        .unwrap_or(Options::DEFAULT_LANES);
    let options = Options {
        lanes,
        engine: if mode == "jit" {
            Engine::Jit
        } else {
            Engine::Interpreter
        },
        ..Options::default()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let mut out = Outputs::default();
    let start = Instant::now();
    pool.install(|| match which {
        "skinning" => {
            let shader = dxso_text::parse::parse(SKINNING_VS).unwrap();
            let vs = VertexShader::with_options(&shader, &options).unwrap();
            let (batch, res) = skinning_inputs(n);
            for _ in 0..passes {
                match mode {
                    "baseline" => skinning_baseline(&batch, &res, &mut out),
                    _ => vs.run_into(&batch, &res, &mut out).unwrap(),
                }
            }
        }
        _ => {
            let shader = dxso_text::parse::parse(LIGHTING_PS).unwrap();
            let ps = PixelShader::with_options(&shader, &options).unwrap();
            let (batch, res) = lighting_inputs(n / 4);
            for _ in 0..passes {
                match mode {
                    "baseline" => lighting_baseline(&batch, &res, &mut out),
                    _ => ps.run_into(&batch, &res, &mut out).unwrap(),
                }
            }
        }
    });
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{which} {mode} lanes {lanes}: {:.3e} invocations/s ({n} x {passes} in {secs:.3}s)",
        (n * passes) as f64 / secs
    );
}
