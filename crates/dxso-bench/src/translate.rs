use crate::measure::{corpus_blobs, measure_alternating, measure_pair, BenchArgs};
use crate::session::Session;
use anyhow::Result;
use serde_json::json;
use std::fmt::Write as _;
use std::hint::black_box;
use std::process::ExitCode;

/// Translation to GLSL over the corpus: dxso (decode, build the naga module, validate it, write
/// GLSL) against MojoShader's `glsl` profile on the same shaders, in alternating passes.
///
/// The shaders are the corpus shaders `dxso::validate` accepts. `ratio` is dxso's shaders per
/// second divided by MojoShader's; MojoShader is measured only in builds with the
/// `peer-mojoshader` feature (otherwise its figures and the ratio are null). The table also
/// says how many shaders each side failed to translate. MojoShader gives up early on the
/// shaders it fails, so the same pair is measured again on the shaders both translate
/// (`both_translate` in the JSON).
///
/// With `--float-rules`, the bench measures instead what "0 * anything = 0"
/// (`zero_times_anything`, docs/SEMANTICS.md 5.1) costs the translation: the GLSL bytes
/// emitted and the shaders per second, IEEE products against the mode, in alternating passes.
///
/// Example:
///   cargo run --release -p dxso-bench --features peer-mojoshader -- translate --json
///   cargo run --release -p dxso-bench -- translate --float-rules
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    args: BenchArgs,
    /// Measure the cost of zero_times_anything in the translation instead of the peer pair.
    #[arg(long)]
    float_rules: bool,
}

/// The translator every measured pass reuses, as an emulator translating a game's shaders would.
type Tr = std::cell::RefCell<dxso_naga::Translator>;

/// One dxso translation: bytes to validated GLSL.
fn translate(tr: &Tr, bytes: &[u8]) -> Option<usize> {
    translate_with(tr, bytes, false)
}

/// One dxso translation with or without "0 * anything = 0": the GLSL's length.
fn translate_with(tr: &Tr, bytes: &[u8], zero_times_anything: bool) -> Option<usize> {
    let shader = dxso::decode(bytes).ok()?;
    let options = dxso_naga::Options {
        zero_times_anything,
        ..dxso_naga::Options::default()
    };
    let t = tr.borrow_mut().translate(&shader, &options).ok()?;
    let glsl = t
        .write(dxso_naga::Target::Glsl, &dxso_naga::WriteOptions::default())
        .ok()?;
    Some(glsl.text().map_or(0, str::len))
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        let blobs: Vec<(String, Vec<u8>)> = corpus_blobs(&self.args.corpus_dir()?)?
            .into_iter()
            .filter(|(_, b)| dxso::decode(b).is_ok_and(|sh| dxso::validate(&sh).is_valid()))
            .collect();
        if self.float_rules {
            return float_rules(s, &self.args, &blobs);
        }
        let tr = Tr::default();
        let dxso_failures = blobs
            .iter()
            .filter(|(_, b)| translate(&tr, b).is_none())
            .count();
        let mojo_failures = mojo_failures(&blobs);
        let (dxso_passes, mojo_passes) = measure_pair(
            &self.args,
            || {
                for (_, b) in &blobs {
                    black_box(translate(&tr, black_box(b)));
                }
            },
            mojo_pass(&blobs),
        );
        let n = blobs.len() as f64;
        let ratio = mojo_passes.map(|m| dxso_passes / m);
        let common = both_translate(&self.args, &blobs);
        if s.json {
            let j = json!({
                "bench": "translate",
                "shaders": blobs.len(),
                "dxso": { "shaders_per_s": dxso_passes * n, "failures": dxso_failures, "target": "glsl 450, validated" },
                "mojoshader": mojo_passes.map(|m| json!({ "shaders_per_s": m * n, "failures": mojo_failures, "profile": "glsl" })),
                "ratio": ratio,
                "both_translate": common.map(|c| json!({
                    "shaders": c.shaders,
                    "dxso_shaders_per_s": c.dxso_per_s,
                    "mojoshader_shaders_per_s": c.mojo_per_s,
                    "ratio": c.dxso_per_s / c.mojo_per_s,
                })),
            });
            s.print_json(&j)?;
            return Ok(ExitCode::SUCCESS);
        }
        let mut out = String::new();
        writeln!(
            out,
            "translate to GLSL: {} valid corpus shaders",
            blobs.len()
        )?;
        writeln!(
            out,
            "{:<34} {:>12} {:>10}",
            "implementation", "shaders/s", "failures"
        )?;
        writeln!(
            out,
            "{:<34} {:>12.0} {:>10}",
            "dxso-naga (build, validate, write)",
            dxso_passes * n,
            dxso_failures
        )?;
        match (mojo_passes, mojo_failures) {
            (Some(m), Some(f)) => writeln!(
                out,
                "{:<34} {:>12.0} {:>10}",
                "MojoShader (glsl profile)",
                m * n,
                f
            )?,
            _ => writeln!(
                out,
                "{:<34} {:>12} {:>10}",
                "MojoShader (glsl profile)", "n/a", "n/a"
            )?,
        }
        match ratio {
            Some(r) => writeln!(out, "ratio (dxso / MojoShader): {r:.2}x")?,
            None => writeln!(out, "ratio: n/a (build with --features peer-mojoshader)")?,
        }
        if let Some(c) = common {
            writeln!(
                out,
                "on the {} shaders both translate: dxso {:.0}/s, MojoShader {:.0}/s, ratio {:.2}x",
                c.shaders,
                c.dxso_per_s,
                c.mojo_per_s,
                c.dxso_per_s / c.mojo_per_s
            )?;
        }
        s.print(&out)?;
        Ok(ExitCode::SUCCESS)
    }
}

/// The cost of "0 * anything = 0" in the translation: GLSL bytes and shaders per second.
fn float_rules(s: &Session, args: &BenchArgs, blobs: &[(String, Vec<u8>)]) -> Result<ExitCode> {
    let tr = Tr::default();
    let bytes = |zta: bool| -> (usize, usize) {
        let sizes: Vec<Option<usize>> = blobs
            .iter()
            .map(|(_, b)| translate_with(&tr, b, zta))
            .collect();
        (
            sizes.iter().flatten().sum(),
            sizes.iter().filter(|x| x.is_none()).count(),
        )
    };
    let ((ieee_bytes, ieee_failures), (zta_bytes, zta_failures)) = (bytes(false), bytes(true));
    let mut ieee = || {
        for (_, b) in blobs {
            black_box(translate_with(&tr, black_box(b), false));
        }
    };
    let mut zta = || {
        for (_, b) in blobs {
            black_box(translate_with(&tr, black_box(b), true));
        }
    };
    let rates = measure_alternating(args.budget(), &mut [&mut ieee, &mut zta]);
    let n = blobs.len() as f64;
    let (ieee_rate, zta_rate) = (rates[0] * n, rates[1] * n);
    if s.json {
        s.print_json(&json!({
            "bench": "translate --float-rules",
            "shaders": blobs.len(),
            "ieee": { "glsl_bytes": ieee_bytes, "shaders_per_s": ieee_rate, "failures": ieee_failures },
            "zero_times_anything": { "glsl_bytes": zta_bytes, "shaders_per_s": zta_rate, "failures": zta_failures },
            "bytes_ratio": zta_bytes as f64 / ieee_bytes as f64,
            "speed_ratio": zta_rate / ieee_rate,
        }))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = String::new();
    writeln!(
        out,
        "translate to GLSL, float rules: {} valid corpus shaders",
        blobs.len()
    )?;
    writeln!(
        out,
        "{:<22} {:>12} {:>12} {:>10}",
        "products", "GLSL bytes", "shaders/s", "failures"
    )?;
    writeln!(
        out,
        "{:<22} {:>12} {:>12.0} {:>10}",
        "IEEE", ieee_bytes, ieee_rate, ieee_failures
    )?;
    writeln!(
        out,
        "{:<22} {:>12} {:>12.0} {:>10}",
        "zero_times_anything", zta_bytes, zta_rate, zta_failures
    )?;
    writeln!(
        out,
        "zero_times_anything: {:.2}x the GLSL, {:.2}x the speed",
        zta_bytes as f64 / ieee_bytes as f64,
        zta_rate / ieee_rate
    )?;
    s.print(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// The pair measured on the shaders MojoShader translates too.
struct Common {
    shaders: usize,
    dxso_per_s: f64,
    mojo_per_s: f64,
}

#[cfg(feature = "peer-mojoshader")]
fn both_translate(args: &BenchArgs, blobs: &[(String, Vec<u8>)]) -> Option<Common> {
    let tr = Tr::default();
    let common: Vec<(String, Vec<u8>)> = blobs
        .iter()
        .filter(|(_, b)| {
            dxso_peer::mojoshader::glsl(b).error.is_none() && translate(&tr, b).is_some()
        })
        .cloned()
        .collect();
    let (d, m) = measure_pair(
        args,
        || {
            for (_, b) in &common {
                black_box(translate(&tr, black_box(b)));
            }
        },
        mojo_pass(&common),
    );
    let n = common.len() as f64;
    Some(Common {
        shaders: common.len(),
        dxso_per_s: d * n,
        mojo_per_s: m? * n,
    })
}

#[cfg(not(feature = "peer-mojoshader"))]
fn both_translate(_: &BenchArgs, _: &[(String, Vec<u8>)]) -> Option<Common> {
    None
}

#[cfg(feature = "peer-mojoshader")]
fn mojo_failures(blobs: &[(String, Vec<u8>)]) -> Option<usize> {
    Some(
        blobs
            .iter()
            .filter(|(_, b)| dxso_peer::mojoshader::glsl(b).error.is_some())
            .count(),
    )
}

#[cfg(not(feature = "peer-mojoshader"))]
fn mojo_failures(_: &[(String, Vec<u8>)]) -> Option<usize> {
    None
}

#[cfg(feature = "peer-mojoshader")]
fn mojo_pass(blobs: &[(String, Vec<u8>)]) -> Option<Box<dyn FnMut() + '_>> {
    Some(Box::new(move || {
        for (_, b) in blobs {
            black_box(dxso_peer::mojoshader::glsl(black_box(b)));
        }
    }))
}

#[cfg(not(feature = "peer-mojoshader"))]
fn mojo_pass(_: &[(String, Vec<u8>)]) -> Option<Box<dyn FnMut() + '_>> {
    None
}
