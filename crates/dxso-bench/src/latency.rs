use crate::measure::{corpus_blobs, measure_pair, BenchArgs};
use crate::session::Session;
use anyhow::Result;
use serde_json::json;
use std::fmt::Write as _;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Per-shader latencies over the valid corpus shaders: what a game waits for when it creates a
/// shader (an emulator translating it, a renderer JIT-compiling it), one thread.
///
/// For each shader, each step is timed alone (repeated until it has run for `--per-shader`
/// microseconds, the fastest repetition kept); the table gives the median and the 99th
/// percentile over the shaders. Steps: `validate` (the decoded shader), `translate GLSL` and
/// `translate SPIR-V` (a kept `dxso_naga::Translator`: build, validate, write), the same two
/// through MojoShader (`peer-mojoshader` builds), `JIT compile` (Cranelift, once per shader:
/// its own compile timer), `JIT cache hit` (a `JitCache` that holds the shader's code) and
/// `JIT tiered start` (`VertexShader::tiered`/`PixelShader::tiered`: lowering, a cache lookup
/// and a queued background compile; what a draw with a new shader waits for before it runs on
/// the interpreter, timed once per shader) beside `interpreter setup` (validation and
/// lowering alone, its floor, also timed once per shader).
///
/// The JSON's top level carries `spirv_ratio` (whole-corpus SPIR-V throughput, dxso /
/// MojoShader, in alternating passes of this run; also `ratio`), `spirv_median_us`,
/// `jit_compile_median_us`, `jit_compile_p99_us`, `jit_cache_hit_median_us`,
/// `jit_tiered_start_median_us`, `jit_tiered_start_p99_us` and `validate_median_us`.
///
/// Example:
///   cargo run --release -p dxso-bench --features peer-mojoshader -- latency --json
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    args: BenchArgs,
    /// Microseconds to repeat each step on each shader (its fastest run is kept).
    #[arg(long, default_value_t = 200.0)]
    per_shader: f64,
    /// Internal: translate the valid shaders from this index on with MojoShader's SPIR-V
    /// profile, naming each before it starts (the parent process learns which abort).
    #[arg(long, hide = true)]
    probe_mojo_spirv: Option<usize>,
}

/// The fastest of repeated runs of `step`, repeated until `budget` has passed (at least twice).
fn fastest(budget: Duration, mut step: impl FnMut()) -> Duration {
    let mut best = Duration::MAX;
    let start = Instant::now();
    let mut runs = 0;
    while runs < 2 || start.elapsed() < budget {
        let t = Instant::now();
        step();
        best = best.min(t.elapsed());
        runs += 1;
        if runs >= 10_000 {
            break;
        }
    }
    best
}

/// Median and 99th percentile, in microseconds, of per-shader times (`None`: no times).
fn spread(mut times: Vec<Duration>) -> Option<(f64, f64)> {
    if times.is_empty() {
        return None;
    }
    times.sort();
    let at = |q: f64| {
        let i = ((times.len() - 1) as f64 * q).round() as usize;
        times[i].as_secs_f64() * 1e6
    };
    Some((at(0.5), at(0.99)))
}

type Tr = std::cell::RefCell<dxso_naga::Translator>;

/// One dxso translation to `target`: the output's size, `None` when it fails.
fn translate(tr: &Tr, shader: &dxso::Shader, target: dxso_naga::Target) -> Option<usize> {
    let t = tr
        .borrow_mut()
        .translate(shader, &dxso_naga::Options::default())
        .ok()?;
    let out = t.write(target, &dxso_naga::WriteOptions::default()).ok()?;
    Some(out.text().map_or(0, str::len))
}

/// One row of the table: a step's per-shader median and p99, and how many shaders it ran on.
struct Row {
    name: &'static str,
    shaders: usize,
    spread: Option<(f64, f64)>,
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        let shaders: Vec<(Vec<u8>, dxso::Shader)> = corpus_blobs(&self.args.corpus_dir()?)?
            .into_iter()
            .filter_map(|(_, b)| {
                let sh = dxso::decode(&b).ok()?;
                dxso::validate(&sh).is_valid().then_some((b, sh))
            })
            .collect();
        if let Some(from) = self.probe_mojo_spirv {
            return probe_mojo_spirv(&shaders, from);
        }
        let survives = mojo_spirv_survivors(&self.args, shaders.len())?;
        let budget = Duration::from_secs_f64(self.per_shader.clamp(1.0, 1e6) * 1e-6);
        let tr = Tr::default();
        let mut rows = Vec::new();

        let times = shaders
            .iter()
            .map(|(_, sh)| fastest(budget, || drop(black_box(dxso::validate(black_box(sh))))))
            .collect::<Vec<_>>();
        rows.push(Row {
            name: "validate",
            shaders: times.len(),
            spread: spread(times),
        });
        for (name, target) in [
            ("translate GLSL (dxso)", dxso_naga::Target::Glsl),
            ("translate SPIR-V (dxso)", dxso_naga::Target::SpirV),
        ] {
            let times: Vec<Duration> = shaders
                .iter()
                .filter(|(_, sh)| translate(&tr, sh, target).is_some())
                .map(|(_, sh)| {
                    fastest(budget, || {
                        black_box(translate(&tr, sh, target));
                    })
                })
                .collect();
            rows.push(Row {
                name,
                shaders: times.len(),
                spread: spread(times),
            });
        }
        rows.extend(peer_rows(&shaders, &survives, budget));
        rows.extend(jit_rows(&shaders, budget));

        // Whole-corpus SPIR-V throughput, dxso against MojoShader in alternating passes.
        let (dxso_passes, mojo_passes) = measure_pair(
            &self.args,
            || {
                for (_, sh) in &shaders {
                    black_box(translate(&tr, sh, dxso_naga::Target::SpirV));
                }
            },
            mojo_spirv_pass(&shaders, &survives),
        );
        let spirv_ratio = mojo_passes.map(|m| dxso_passes / m);
        let find = |name: &str| rows.iter().find(|r| r.name == name).and_then(|r| r.spread);
        if s.json {
            let steps: serde_json::Map<String, serde_json::Value> = rows
                .iter()
                .map(|r| {
                    (
                        r.name.to_string(),
                        json!({
                            "shaders": r.shaders,
                            "median_us": r.spread.map(|x| x.0),
                            "p99_us": r.spread.map(|x| x.1),
                        }),
                    )
                })
                .collect();
            let n = shaders.len() as f64;
            s.print_json(&json!({
                "bench": "latency",
                "shaders": shaders.len(),
                "ratio": spirv_ratio,
                "spirv_ratio": spirv_ratio,
                "spirv_median_us": find("translate SPIR-V (dxso)").map(|x| x.0),
                "jit_compile_median_us": find("JIT compile").map(|x| x.0),
                "jit_compile_p99_us": find("JIT compile").map(|x| x.1),
                "jit_cache_hit_median_us": find("JIT cache hit").map(|x| x.0),
                "jit_tiered_start_median_us": find("JIT tiered start").map(|x| x.0),
                "jit_tiered_start_p99_us": find("JIT tiered start").map(|x| x.1),
                "validate_median_us": find("validate").map(|x| x.0),
                "spirv_corpus": {
                    "dxso_shaders_per_s": dxso_passes * n,
                    "mojoshader_shaders_per_s": mojo_passes.map(|m| m * n),
                },
                "steps": steps,
            }))?;
            return Ok(ExitCode::SUCCESS);
        }
        let mut out = String::new();
        writeln!(
            out,
            "latency: {} valid corpus shaders, one thread, fastest of repeats per shader",
            shaders.len()
        )?;
        writeln!(
            out,
            "{:<28} {:>8} {:>12} {:>12}",
            "step", "shaders", "median us", "p99 us"
        )?;
        for r in &rows {
            match r.spread {
                Some((m, p)) => writeln!(
                    out,
                    "{:<28} {:>8} {:>12.1} {:>12.1}",
                    r.name, r.shaders, m, p
                )?,
                None => writeln!(
                    out,
                    "{:<28} {:>8} {:>12} {:>12}",
                    r.name, r.shaders, "n/a", "n/a"
                )?,
            }
        }
        match spirv_ratio {
            Some(r) => writeln!(
                out,
                "spirv_ratio (whole corpus to SPIR-V, dxso / MojoShader): {r:.2}x"
            )?,
            None => writeln!(
                out,
                "spirv_ratio: n/a (build with --features peer-mojoshader)"
            )?,
        }
        s.print(&out)?;
        Ok(ExitCode::SUCCESS)
    }
}

/// Which valid shaders MojoShader's SPIR-V profile translates without aborting the process
/// (its assertions fail on some inputs): a child process runs them in order, naming each
/// before it starts, and is started again after the one it died on.
fn mojo_spirv_survivors(args: &BenchArgs, count: usize) -> Result<Vec<bool>> {
    let mut survives = vec![true; count];
    if !cfg!(feature = "peer-mojoshader") {
        return Ok(survives);
    }
    let exe = std::env::current_exe()?;
    let corpus = args.corpus_dir()?;
    let mut from = 0;
    while from < count {
        let out = std::process::Command::new(&exe)
            .arg("latency")
            .arg("--corpus")
            .arg(&corpus)
            .arg("--probe-mojo-spirv")
            .arg(from.to_string())
            .stderr(std::process::Stdio::null())
            .output()?;
        let text = String::from_utf8_lossy(&out.stdout);
        let last = text
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix("start ")?.parse::<usize>().ok());
        if out.status.success() {
            break;
        }
        match last {
            Some(i) if i >= from && i < count => {
                survives[i] = false;
                from = i + 1;
            }
            _ => anyhow::bail!("the MojoShader probe failed before its first shader"),
        }
    }
    Ok(survives)
}

#[cfg(feature = "peer-mojoshader")]
fn probe_mojo_spirv(shaders: &[(Vec<u8>, dxso::Shader)], from: usize) -> Result<ExitCode> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    for (i, (b, _)) in shaders.iter().enumerate().skip(from) {
        writeln!(out, "start {i}")?;
        out.flush()?;
        black_box(dxso_peer::mojoshader::parse("spirv", b));
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "peer-mojoshader"))]
fn probe_mojo_spirv(_: &[(Vec<u8>, dxso::Shader)], _: usize) -> Result<ExitCode> {
    anyhow::bail!("built without the peer-mojoshader feature")
}

#[cfg(feature = "peer-mojoshader")]
fn peer_rows(shaders: &[(Vec<u8>, dxso::Shader)], survives: &[bool], budget: Duration) -> Vec<Row> {
    [
        ("translate GLSL (MojoShader)", "glsl"),
        ("translate SPIR-V (MojoShader)", "spirv"),
    ]
    .into_iter()
    .map(|(name, profile)| {
        let times: Vec<Duration> = shaders
            .iter()
            .zip(survives)
            .filter(|&(_, &ok)| ok || profile != "spirv")
            .map(|(s, _)| s)
            .filter(|(b, _)| dxso_peer::mojoshader::parse(profile, b).error.is_none())
            .map(|(b, _)| {
                fastest(budget, || {
                    drop(black_box(dxso_peer::mojoshader::parse(
                        profile,
                        black_box(b),
                    )))
                })
            })
            .collect();
        Row {
            name,
            shaders: times.len(),
            spread: spread(times),
        }
    })
    .collect()
}

#[cfg(not(feature = "peer-mojoshader"))]
fn peer_rows(_: &[(Vec<u8>, dxso::Shader)], _: &[bool], _: Duration) -> Vec<Row> {
    Vec::new()
}

#[cfg(feature = "peer-mojoshader")]
fn mojo_spirv_pass<'a>(
    shaders: &'a [(Vec<u8>, dxso::Shader)],
    survives: &'a [bool],
) -> Option<Box<dyn FnMut() + 'a>> {
    Some(Box::new(move || {
        for ((b, _), _) in shaders.iter().zip(survives).filter(|(_, &ok)| ok) {
            black_box(dxso_peer::mojoshader::parse("spirv", black_box(b)));
        }
    }))
}

#[cfg(not(feature = "peer-mojoshader"))]
fn mojo_spirv_pass<'a>(
    _: &'a [(Vec<u8>, dxso::Shader)],
    _: &'a [bool],
) -> Option<Box<dyn FnMut() + 'a>> {
    None
}

/// The plan of a valid shader, lowered for the JIT.
#[cfg(feature = "jit")]
fn plan_of(shader: &dxso::Shader) -> Option<dxso_exec::plan::Plan> {
    use dxso_exec::{Engine, Options, PixelShader, VertexShader};
    let options = Options {
        engine: Engine::Interpreter,
        ..Options::default()
    };
    if shader.version.is_vertex() {
        VertexShader::with_options(shader, &options)
            .ok()
            .map(|s| s.plan().clone())
    } else {
        PixelShader::with_options(shader, &options)
            .ok()
            .map(|s| s.plan().clone())
    }
}

#[cfg(feature = "jit")]
fn jit_rows(shaders: &[(Vec<u8>, dxso::Shader)], budget: Duration) -> Vec<Row> {
    use dxso_exec::jit::{compile, JitCache, Mode};
    let plans: Vec<_> = shaders.iter().filter_map(|(_, sh)| plan_of(sh)).collect();
    let mode = Mode::native();
    // Compiling is slow enough to time once per shader, by the compiler's own timer.
    let compile_times: Vec<Duration> = plans
        .iter()
        .map(|p| compile(p, mode).compile_time())
        .collect();
    let cache = JitCache::new(plans.len().max(1));
    for p in &plans {
        cache.get_or_compile(p, mode);
    }
    let hit_times: Vec<Duration> = plans
        .iter()
        .map(|p| {
            fastest(budget, || {
                drop(black_box(cache.get_or_compile(black_box(p), mode)))
            })
        })
        .collect();
    // A tiered start: lowering, a cache lookup and a queued compile; what a draw with a new
    // shader waits for before it runs (on the interpreter). Each shader gets a fresh cache, and
    // its background compile ends before the next shader's clock starts.
    // The interpreter's setup (validation and lowering) beside it: the floor of a tiered start.
    let setup_times: Vec<Duration> = shaders
        .iter()
        .filter(|(_, sh)| plan_of(sh).is_some())
        .map(|(_, sh)| {
            // Once, as the tiered start below is timed (a first run, caches cold).
            let t = Instant::now();
            drop(black_box(plan_of(black_box(sh))));
            t.elapsed()
        })
        .collect();
    let start_times: Vec<Duration> = shaders
        .iter()
        .filter(|(_, sh)| plan_of(sh).is_some())
        .map(|(_, sh)| {
            let tiering = std::sync::Arc::new(dxso_exec::jit::Tiering::new(1));
            let options = dxso_exec::Options {
                engine: dxso_exec::Engine::Jit,
                ..dxso_exec::Options::default()
            };
            let t = Instant::now();
            let started = if sh.version.is_vertex() {
                dxso_exec::VertexShader::tiered(sh, &options, &tiering).map(drop)
            } else {
                dxso_exec::PixelShader::tiered(sh, &options, &tiering).map(drop)
            };
            let elapsed = t.elapsed();
            drop(black_box(started));
            tiering.wait_idle();
            // The compile thread lets go of the cache before the next clock starts, so freeing
            // this shader's code never overlaps another shader's start.
            while std::sync::Arc::strong_count(&tiering) > 1 {
                std::thread::yield_now();
            }
            elapsed
        })
        .collect();
    vec![
        Row {
            name: "interpreter setup",
            shaders: setup_times.len(),
            spread: spread(setup_times),
        },
        Row {
            name: "JIT tiered start",
            shaders: start_times.len(),
            spread: spread(start_times),
        },
        Row {
            name: "JIT compile",
            shaders: compile_times.len(),
            spread: spread(compile_times),
        },
        Row {
            name: "JIT cache hit",
            shaders: hit_times.len(),
            spread: spread(hit_times),
        },
    ]
}

#[cfg(not(feature = "jit"))]
fn jit_rows(_: &[(Vec<u8>, dxso::Shader)], _: Duration) -> Vec<Row> {
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_takes_the_median_and_the_99th_percentile() {
        let times: Vec<Duration> = (1..=101).rev().map(Duration::from_micros).collect();
        let (median, p99) = spread(times).expect("times");
        assert_eq!(median, 51.0);
        assert_eq!(p99, 100.0);
        assert_eq!(spread(Vec::new()), None);
    }

    #[test]
    fn fastest_keeps_the_shortest_run() {
        let mut n = 0u64;
        let best = fastest(Duration::from_micros(10), || {
            n += 1;
            std::thread::sleep(Duration::from_micros(if n == 2 { 1 } else { 300 }));
        });
        assert!(best < Duration::from_micros(300), "{best:?}");
        assert!(n >= 2);
    }
}
