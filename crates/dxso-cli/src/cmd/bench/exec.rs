use super::{measure_pair, BenchArgs};
use crate::session::Session;
use anyhow::{Context, Result};
use dxso_exec::workloads::*;
use dxso_exec::{Options, Outputs, PixelShader, VertexShader};
use serde_json::json;
use std::fmt::Write as _;
use std::hint::black_box;
use std::process::ExitCode;

/// CPU execution throughput: the interpreter (dxso-exec) on two workloads against the same math
/// written by hand in Rust (structure of arrays, compiled by rustc), measured in alternation.
///
/// Workloads (assembly in crates/dxso-exec/src/workloads/): a vs_3_0 skinning shader (4 bones
/// through relative addressing, m4x3, per-vertex lighting) and a ps_3_0 lighting shader (an
/// albedo and a normal-map sample, a loop over 4 point lights). The hand-written versions give
/// the same outputs bit for bit. Each prints invocations per second and the slowdown (hand-written
/// invocations/s divided by the interpreter's); `ratio` is the larger slowdown (target <= 4).
/// Both run on a rayon pool of --threads threads (default 1: the figures of one core).
///
/// Example:
///   cargo run --release -- bench exec --json
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    args: BenchArgs,
    /// Vertices per pass of the skinning workload.
    #[arg(long, default_value_t = 65536)]
    vertices: usize,
    /// 2x2 quads per pass of the lighting workload.
    #[arg(long, default_value_t = 16384)]
    quads: usize,
    /// Threads of the pool both sides run on.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Lanes per interpreter batch (8, 16, 32 or 64).
    #[arg(long, default_value_t = Options::DEFAULT_LANES)]
    lanes: usize,
}

struct Row {
    name: &'static str,
    invocations: usize,
    ours: f64,
    theirs: f64,
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        let options = Options {
            lanes: self.lanes,
            ..Options::default()
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads.max(1))
            .build()
            .context("starting the thread pool")?;
        let vs_shader = dxso_text::parse(SKINNING_VS).map_err(|e| anyhow::anyhow!("{e}"))?;
        let ps_shader = dxso_text::parse(LIGHTING_PS).map_err(|e| anyhow::anyhow!("{e}"))?;
        let vs = VertexShader::with_options(&vs_shader, &options)?;
        let ps = PixelShader::with_options(&ps_shader, &options)?;
        let (vbatch, vres) = skinning_inputs(self.vertices.max(1));
        let (pbatch, pres) = lighting_inputs(self.quads.max(1));
        let rows = pool.install(|| -> Result<Vec<Row>> {
            let (mut a, mut b) = (Outputs::default(), Outputs::default());
            vs.run_into(&vbatch, &vres, &mut a)?;
            skinning_baseline(&vbatch, &vres, &mut b);
            anyhow::ensure!(
                a == b,
                "skinning: the interpreter and the hand-written code differ"
            );
            let (ours, theirs) = measure_pair(
                &self.args,
                || {
                    vs.run_into(black_box(&vbatch), &vres, &mut a)
                        .expect("ran once")
                },
                Some(Box::new(|| {
                    skinning_baseline(black_box(&vbatch), &vres, &mut b)
                })),
            );
            let skinning = Row {
                name: "skinning (vs_3_0)",
                invocations: vbatch.count,
                ours: ours * vbatch.count as f64,
                theirs: theirs.unwrap_or(0.0) * vbatch.count as f64,
            };
            let (mut a, mut b) = (Outputs::default(), Outputs::default());
            ps.run_into(&pbatch, &pres, &mut a)?;
            lighting_baseline(&pbatch, &pres, &mut b);
            anyhow::ensure!(
                a == b,
                "lighting: the interpreter and the hand-written code differ"
            );
            let pixels = pbatch.pixels();
            let (ours, theirs) = measure_pair(
                &self.args,
                || {
                    ps.run_into(black_box(&pbatch), &pres, &mut a)
                        .expect("ran once")
                },
                Some(Box::new(|| {
                    lighting_baseline(black_box(&pbatch), &pres, &mut b)
                })),
            );
            let lighting = Row {
                name: "lighting (ps_3_0)",
                invocations: pixels,
                ours: ours * pixels as f64,
                theirs: theirs.unwrap_or(0.0) * pixels as f64,
            };
            Ok(vec![skinning, lighting])
        })?;
        let slowdown = |r: &Row| r.theirs / r.ours.max(1e-12);
        let ratio = rows.iter().map(slowdown).fold(0.0, f64::max);
        if s.json {
            s.print_json(&json!({
                "bench": "exec",
                "threads": self.threads.max(1),
                "lanes": self.lanes,
                "workloads": rows.iter().map(|r| json!({
                    "name": r.name,
                    "invocations_per_pass": r.invocations,
                    "interpreter_per_s": r.ours,
                    "hand_written_per_s": r.theirs,
                    "slowdown": slowdown(r),
                })).collect::<Vec<_>>(),
                "ratio": ratio,
            }))?;
        } else {
            let mut out = String::new();
            writeln!(
                out,
                "exec: interpreter vs hand-written SoA Rust, {} thread(s), {} lanes per batch",
                self.threads.max(1),
                self.lanes
            )?;
            writeln!(
                out,
                "{:<20} {:>12} {:>20} {:>20} {:>9}",
                "workload", "invocations", "interpreter inv/s", "hand-written inv/s", "slowdown"
            )?;
            for r in &rows {
                writeln!(
                    out,
                    "{:<20} {:>12} {:>20.3e} {:>20.3e} {:>8.2}x",
                    r.name,
                    r.invocations,
                    r.ours,
                    r.theirs,
                    slowdown(r)
                )?;
            }
            writeln!(out, "ratio (largest slowdown): {ratio:.2} (target <= 4)")?;
            s.print(&out)?;
        }
        Ok(ExitCode::SUCCESS)
    }
}
