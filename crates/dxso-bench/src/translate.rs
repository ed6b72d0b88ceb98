use crate::measure::{corpus_blobs, measure_pair, BenchArgs};
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
/// Example:
///   cargo run --release -p dxso-bench --features peer-mojoshader -- translate --json
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    args: BenchArgs,
}

/// One dxso translation: bytes to validated GLSL.
fn translate(bytes: &[u8]) -> Option<usize> {
    let shader = dxso::decode(bytes).ok()?;
    let t = dxso_naga::translate(&shader, &dxso_naga::Options::default()).ok()?;
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
        let dxso_failures = blobs.iter().filter(|(_, b)| translate(b).is_none()).count();
        let mojo_failures = mojo_failures(&blobs);
        let (dxso_passes, mojo_passes) = measure_pair(
            &self.args,
            || {
                for (_, b) in &blobs {
                    black_box(translate(black_box(b)));
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

/// The pair measured on the shaders MojoShader translates too.
struct Common {
    shaders: usize,
    dxso_per_s: f64,
    mojo_per_s: f64,
}

#[cfg(feature = "peer-mojoshader")]
fn both_translate(args: &BenchArgs, blobs: &[(String, Vec<u8>)]) -> Option<Common> {
    let common: Vec<(String, Vec<u8>)> = blobs
        .iter()
        .filter(|(_, b)| dxso_peer::mojoshader::glsl(b).error.is_none() && translate(b).is_some())
        .cloned()
        .collect();
    let (d, m) = measure_pair(
        args,
        || {
            for (_, b) in &common {
                black_box(translate(black_box(b)));
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
