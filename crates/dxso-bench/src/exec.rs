use crate::measure::{corpus_blobs, measure_alternating, BenchArgs};
use crate::session::Session;
use anyhow::{Context, Result};
use dxso_bench::workloads::*;
use dxso_exec::{Engine, Options, Outputs, PixelShader, VertexShader};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Duration;

/// CPU execution throughput: the interpreter (dxso-exec) and the JIT (its Cranelift code, in
/// builds with the `jit` feature) on two workloads against the same math written by hand in
/// Rust (structure of arrays, compiled by rustc), all measured in alternation.
///
/// Workloads (assembly in crates/dxso-exec/src/workloads/): a vs_3_0 skinning shader (4 bones
/// through relative addressing, m4x3, per-vertex lighting) and a ps_3_0 lighting shader (an
/// albedo and a normal-map sample, a loop over 4 point lights). The hand-written versions give
/// the same outputs bit for bit, and so does the JIT. Each prints invocations per second and
/// the slowdowns (hand-written invocations/s divided by the engine's); `ratio` is the
/// interpreter's larger slowdown (target <= 4), `jit_ratio` the JIT's (target <= 1.5). Also
/// the JIT's compile time of each workload shader and, when the corpus is found, the median
/// and largest compile time over every valid corpus shader.
/// Everything runs on a rayon pool of --threads threads (default 1: the figures of one core).
///
/// Example:
///   cargo run --release -p dxso-bench -- exec --json
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
    /// Threads of the pool every side runs on.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Lanes per batch (8, 16, 32 or 64).
    #[arg(long, default_value_t = Options::DEFAULT_LANES)]
    lanes: usize,
}

struct Row {
    name: &'static str,
    invocations: usize,
    interpreter: f64,
    jit: Option<f64>,
    hand_written: f64,
    compile: Option<Duration>,
}

impl Row {
    fn slowdown(&self) -> f64 {
        self.hand_written / self.interpreter.max(1e-12)
    }
    fn jit_slowdown(&self) -> Option<f64> {
        self.jit.map(|j| self.hand_written / j.max(1e-12))
    }
}

/// A workload's shader on one engine: runs a pass into its outputs.
trait Pass {
    fn pass(&self, out: &mut Outputs);
}

/// The JIT's compile time of a plan (compiled afresh, not from the cache), and its fallback.
#[cfg(feature = "jit")]
fn compile_time(plan: &dxso_exec::plan::Plan) -> Option<(Duration, Option<String>)> {
    let c = dxso_exec::jit::compile(plan, dxso_exec::jit::Mode::native());
    Some((c.compile_time(), c.fallback_reason().map(|f| f.to_string())))
}

#[cfg(not(feature = "jit"))]
fn compile_time(_: &dxso_exec::plan::Plan) -> Option<(Duration, Option<String>)> {
    None
}

/// Measures one workload: the interpreter, the JIT and the hand-written code in alternation,
/// after checking that all three give the same outputs.
fn workload(
    args: &BenchArgs,
    name: &'static str,
    invocations: usize,
    interpreter: &dyn Pass,
    jit: Option<&dyn Pass>,
    hand_written: &dyn Fn(&mut Outputs),
) -> Result<Row> {
    let (mut a, mut b, mut c) = (Outputs::default(), Outputs::default(), Outputs::default());
    interpreter.pass(&mut a);
    hand_written(&mut b);
    anyhow::ensure!(
        a == b,
        "{name}: the interpreter and the hand-written code differ"
    );
    if let Some(j) = jit {
        j.pass(&mut c);
        anyhow::ensure!(a == c, "{name}: the interpreter and the JIT differ");
    }
    let mut sides: Vec<Box<dyn FnMut() + '_>> = vec![
        Box::new(|| interpreter.pass(black_box(&mut a))),
        Box::new(|| hand_written(black_box(&mut b))),
    ];
    if let Some(j) = jit {
        sides.push(Box::new(move || j.pass(black_box(&mut c))));
    }
    let mut refs: Vec<&mut dyn FnMut()> = sides.iter_mut().map(|s| &mut **s as _).collect();
    let rates = measure_alternating(args.budget(), &mut refs);
    let per = invocations as f64;
    Ok(Row {
        name,
        invocations,
        interpreter: rates[0] * per,
        hand_written: rates[1] * per,
        jit: rates.get(2).map(|r| r * per),
        compile: None,
    })
}

struct Vertex<'a>(
    VertexShader,
    &'a dxso_exec::VertexBatch,
    &'a dxso_exec::Resources,
);
struct Pixel<'a>(
    PixelShader,
    &'a dxso_exec::QuadBatch,
    &'a dxso_exec::Resources,
);

impl Pass for Vertex<'_> {
    fn pass(&self, out: &mut Outputs) {
        self.0.run_into(self.1, self.2, out).expect("ran once");
    }
}

impl Pass for Pixel<'_> {
    fn pass(&self, out: &mut Outputs) {
        self.0.run_into(self.1, self.2, out).expect("ran once");
    }
}

/// Compile times over the corpus: (shaders compiled, median, max and its shader, fallbacks).
struct CorpusCompile {
    shaders: usize,
    median: Duration,
    max: (Duration, String),
    fallbacks: Vec<String>,
}

fn corpus_compile(args: &BenchArgs, options: &Options) -> Result<Option<CorpusCompile>> {
    let Ok(dir) = args.corpus_dir() else {
        return Ok(None);
    };
    let mut times = Vec::new();
    let mut max = (Duration::ZERO, String::new());
    let mut fallbacks = Vec::new();
    for (name, bytes) in corpus_blobs(&dir)? {
        let Ok(shader) = dxso::decode(&bytes) else {
            continue;
        };
        let plan = if shader.version.is_vertex() {
            VertexShader::with_options(&shader, options).map(|s| s.plan().clone())
        } else {
            PixelShader::with_options(&shader, options).map(|s| s.plan().clone())
        };
        let Ok(plan) = plan else { continue };
        let Some((t, fallback)) = compile_time(&plan) else {
            return Ok(None);
        };
        if let Some(why) = fallback {
            fallbacks.push(format!("{name}: {why}"));
            continue;
        }
        if t > max.0 {
            max = (t, name);
        }
        times.push(t);
    }
    times.sort();
    Ok(Some(CorpusCompile {
        shaders: times.len(),
        median: times.get(times.len() / 2).copied().unwrap_or_default(),
        max,
        fallbacks,
    }))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        let options = Options {
            lanes: self.lanes,
            ..Options::default()
        };
        let jit_options = Options {
            engine: Engine::Jit,
            ..options
        };
        let jit = cfg!(feature = "jit");
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads.max(1))
            .build()
            .context("starting the thread pool")?;
        let vs_shader = dxso_text::parse(SKINNING_VS).map_err(|e| anyhow::anyhow!("{e}"))?;
        let ps_shader = dxso_text::parse(LIGHTING_PS).map_err(|e| anyhow::anyhow!("{e}"))?;
        let (vbatch, vres) = skinning_inputs(self.vertices.max(1));
        let (pbatch, pres) = lighting_inputs(self.quads.max(1));
        let vs = Vertex(
            VertexShader::with_options(&vs_shader, &options)?,
            &vbatch,
            &vres,
        );
        let ps = Pixel(
            PixelShader::with_options(&ps_shader, &options)?,
            &pbatch,
            &pres,
        );
        let (vs_jit, ps_jit) = if jit {
            (
                Some(Vertex(
                    VertexShader::with_options(&vs_shader, &jit_options)?,
                    &vbatch,
                    &vres,
                )),
                Some(Pixel(
                    PixelShader::with_options(&ps_shader, &jit_options)?,
                    &pbatch,
                    &pres,
                )),
            )
        } else {
            (None, None)
        };
        let rows = pool.install(|| -> Result<Vec<Row>> {
            let skinning = workload(
                &self.args,
                "skinning (vs_3_0)",
                vbatch.count,
                &vs,
                vs_jit.as_ref().map(|p| p as &dyn Pass),
                &|out| skinning_baseline(black_box(&vbatch), &vres, out),
            )?;
            let lighting = workload(
                &self.args,
                "lighting (ps_3_0)",
                pbatch.pixels(),
                &ps,
                ps_jit.as_ref().map(|p| p as &dyn Pass),
                &|out| lighting_baseline(black_box(&pbatch), &pres, out),
            )?;
            Ok(vec![
                Row {
                    compile: compile_time(vs.0.plan()).map(|c| c.0),
                    ..skinning
                },
                Row {
                    compile: compile_time(ps.0.plan()).map(|c| c.0),
                    ..lighting
                },
            ])
        })?;
        let corpus = if jit {
            corpus_compile(&self.args, &options)?
        } else {
            None
        };
        let ratio = rows.iter().map(Row::slowdown).fold(0.0, f64::max);
        let jit_ratio = rows
            .iter()
            .map(|r| r.jit_slowdown())
            .try_fold(0.0, |m: f64, x| x.map(|x| m.max(x)));
        if s.json {
            let corpus_json = corpus.as_ref().map(|c| {
                json!({
                    "shaders": c.shaders,
                    "median_ms": ms(c.median),
                    "max_ms": ms(c.max.0),
                    "max_shader": c.max.1,
                    "fallbacks": c.fallbacks,
                })
            });
            s.print_json(&json!({
                "bench": "exec",
                "threads": self.threads.max(1),
                "lanes": self.lanes,
                "workloads": rows.iter().map(|r| json!({
                    "name": r.name,
                    "invocations_per_pass": r.invocations,
                    "interpreter_per_s": r.interpreter,
                    "jit_per_s": r.jit,
                    "hand_written_per_s": r.hand_written,
                    "slowdown": r.slowdown(),
                    "jit_slowdown": r.jit_slowdown(),
                    "jit_compile_ms": r.compile.map(ms),
                })).collect::<Vec<_>>(),
                "jit_compile_corpus": corpus_json.unwrap_or(Value::Null),
                "ratio": ratio,
                "jit_ratio": jit_ratio,
            }))?;
        } else {
            let mut out = String::new();
            writeln!(
                out,
                "exec: interpreter and JIT vs hand-written SoA Rust, {} thread(s), {} lanes per batch",
                self.threads.max(1),
                self.lanes
            )?;
            writeln!(
                out,
                "{:<18} {:>11} {:>14} {:>14} {:>14} {:>9} {:>9} {:>11}",
                "workload",
                "invocations",
                "interp inv/s",
                "jit inv/s",
                "hand inv/s",
                "interp",
                "jit",
                "jit compile"
            )?;
            for r in &rows {
                let na = || "-".to_string();
                writeln!(
                    out,
                    "{:<18} {:>11} {:>14.3e} {:>14} {:>14.3e} {:>8.2}x {:>9} {:>11}",
                    r.name,
                    r.invocations,
                    r.interpreter,
                    r.jit.map_or_else(na, |j| format!("{j:.3e}")),
                    r.hand_written,
                    r.slowdown(),
                    r.jit_slowdown().map_or_else(na, |x| format!("{x:.2}x")),
                    r.compile.map_or_else(na, |d| format!("{:.2} ms", ms(d))),
                )?;
            }
            writeln!(
                out,
                "ratio (interpreter's largest slowdown): {ratio:.2} (target <= 4)"
            )?;
            match jit_ratio {
                Some(j) => writeln!(
                    out,
                    "jit_ratio (JIT's largest slowdown): {j:.2} (target <= 1.5)"
                )?,
                None => writeln!(out, "jit_ratio: - (built without the `jit` feature)")?,
            }
            match &corpus {
                Some(c) => {
                    writeln!(
                        out,
                        "JIT compile time over {} corpus shaders: median {:.2} ms, max {:.2} ms ({})",
                        c.shaders,
                        ms(c.median),
                        ms(c.max.0),
                        c.max.1
                    )?;
                    if !c.fallbacks.is_empty() {
                        writeln!(out, "fallbacks to the interpreter: {}", c.fallbacks.len())?;
                        for f in &c.fallbacks {
                            writeln!(out, "  {f}")?;
                        }
                    }
                }
                None if jit => writeln!(out, "JIT compile time over the corpus: corpus not found")?,
                None => {}
            }
            s.print(&out)?;
        }
        Ok(ExitCode::SUCCESS)
    }
}
