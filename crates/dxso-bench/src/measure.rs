//! The measuring loop every benchmark shares, and the corpus it reads.
//!
//! A figure is always a ratio against a baseline measured in the same run, in alternation, so
//! both sides see the same machine load.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Options every benchmark shares.
#[derive(clap::Args, Clone, Debug)]
pub struct BenchArgs {
    /// The shader corpus (default: `$DXSO_CORPUS`, else the repository's `corpus/`).
    #[arg(long)]
    pub corpus: Option<PathBuf>,
    /// Seconds to spend on each measured side.
    #[arg(long, default_value_t = 1.0)]
    pub seconds: f64,
}

impl BenchArgs {
    /// The corpus folder.
    pub fn corpus_dir(&self) -> Result<PathBuf> {
        let dir = self
            .corpus
            .clone()
            .or_else(|| std::env::var_os("DXSO_CORPUS").map(PathBuf::from))
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus"));
        anyhow::ensure!(
            dir.is_dir(),
            "corpus folder {} not found (use --corpus)",
            dir.display()
        );
        Ok(dir)
    }

    /// The budget per measured side.
    pub fn budget(&self) -> Duration {
        Duration::from_secs_f64(self.seconds.clamp(0.01, 600.0))
    }
}

/// Every `*.dxso` under `dir` (one level of source folders), sorted by path.
pub fn corpus_blobs(dir: &Path) -> Result<Vec<(String, Vec<u8>)>> {
    let mut out = Vec::new();
    for source in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let source = source?.path();
        if !source.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&source)? {
            let p = f?.path();
            if p.extension().is_some_and(|e| e == "dxso") {
                let name = p.strip_prefix(dir).unwrap_or(&p).display().to_string();
                out.push((name, std::fs::read(&p)?));
            }
        }
    }
    out.sort();
    anyhow::ensure!(
        !out.is_empty(),
        "no shaders under {}: the corpus holds source folders of *.dxso files (use --corpus)",
        dir.display()
    );
    Ok(out)
}

/// Runs `pass` (one pass over the whole input) until `budget` is spent, at least three times;
/// returns the passes per second of the fastest third of the passes (robust to noise).
pub fn measure(budget: Duration, mut pass: impl FnMut()) -> f64 {
    pass(); // warm-up
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < 3 || start.elapsed() < budget {
        let t = Instant::now();
        pass();
        times.push(t.elapsed().as_secs_f64());
        if times.len() >= 100_000 {
            break;
        }
    }
    times.sort_by(|a, b| a.total_cmp(b));
    let best = &times[..times.len().div_ceil(3)];
    let mean = best.iter().sum::<f64>() / best.len() as f64;
    1.0 / mean.max(1e-12)
}

/// Passes per second of `ours` and of `theirs` (when present), measured in alternation so
/// that both see the same machine load; each figure is the mean of its fastest third.
pub fn measure_pair(
    args: &BenchArgs,
    ours: impl FnMut(),
    theirs: Option<Box<dyn FnMut() + '_>>,
) -> (f64, Option<f64>) {
    measure_pair_within(args.budget(), ours, theirs)
}

/// [`measure_pair`] with `budget` per side.
pub fn measure_pair_within(
    budget: Duration,
    mut ours: impl FnMut(),
    theirs: Option<Box<dyn FnMut() + '_>>,
) -> (f64, Option<f64>) {
    let Some(mut theirs) = theirs else {
        return (measure(budget, ours), None);
    };
    let rates = measure_alternating(budget, &mut [&mut ours, &mut *theirs]);
    (rates[0], Some(rates[1]))
}

/// Passes per second of each side, measured in alternation (one pass of each in turn, for
/// `budget` per side) so that all see the same machine load; each figure is the mean of that
/// side's fastest third.
pub fn measure_alternating(budget: Duration, sides: &mut [&mut dyn FnMut()]) -> Vec<f64> {
    for side in sides.iter_mut() {
        side(); // warm-up
    }
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); sides.len()];
    let start = std::time::Instant::now();
    let budget = budget * sides.len() as u32;
    while times[0].len() < 3 || start.elapsed() < budget {
        for (side, t) in sides.iter_mut().zip(&mut times) {
            let at = std::time::Instant::now();
            side();
            t.push(at.elapsed().as_secs_f64());
        }
        if times[0].len() >= 100_000 {
            break;
        }
    }
    times
        .into_iter()
        .map(|mut v| {
            v.sort_by(|x, y| x.total_cmp(y));
            let best = &v[..v.len().div_ceil(3)];
            1.0 / (best.iter().sum::<f64>() / best.len() as f64).max(1e-12)
        })
        .collect()
}
