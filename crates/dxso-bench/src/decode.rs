use crate::measure::{corpus_blobs, measure_pair, BenchArgs};
use crate::session::Session;
use anyhow::Result;
use serde_json::json;
use std::fmt::Write as _;
use std::hint::black_box;
use std::process::ExitCode;

/// Decode throughput over the corpus: dxso's `decode` against MojoShader's parser (profile `d3d`).
///
/// `ratio` is dxso's MB/s divided by MojoShader's. MojoShader is measured only in builds with the
/// `peer-mojoshader` feature; otherwise its figures and the ratio are null.
///
/// Example:
///   cargo run --release -p dxso-bench --features peer-mojoshader -- decode --json
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    args: BenchArgs,
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        let mut out = String::new();
        let blobs = corpus_blobs(&self.args.corpus_dir()?)?;
        let bytes: usize = blobs.iter().map(|(_, b)| b.len()).sum();
        let mut failures = 0;
        for (_, b) in &blobs {
            failures += dxso::decode(b).is_err() as usize;
        }
        // Passes alternate with MojoShader's so that both see the same machine load.
        let (dxso_passes, mojo_passes) = measure_pair(
            &self.args,
            || {
                for (_, b) in &blobs {
                    let _ = black_box(dxso::decode(black_box(b)));
                }
            },
            mojo_pass(&blobs),
        );
        let mb = bytes as f64 / 1e6;
        let n = blobs.len() as f64;
        let ratio = mojo_passes.map(|m| dxso_passes / m);
        if s.json {
            let j = json!({
                "bench": "decode",
                "shaders": blobs.len(),
                "bytes": bytes,
                "decode_errors": failures,
                "dxso": { "mb_per_s": dxso_passes * mb, "shaders_per_s": dxso_passes * n },
                "mojoshader": mojo_passes.map(|m| json!({ "mb_per_s": m * mb, "shaders_per_s": m * n, "profile": "d3d" })),
                "ratio": ratio,
            });
            s.print_json(&j)?;
        } else {
            writeln!(
                out,
                "decode: {} shaders, {:.2} MB, {failures} decode errors",
                blobs.len(),
                mb
            )?;
            writeln!(
                out,
                "{:<24} {:>12} {:>14}",
                "implementation", "MB/s", "shaders/s"
            )?;
            writeln!(
                out,
                "{:<24} {:>12.1} {:>14.0}",
                "dxso decode",
                dxso_passes * mb,
                dxso_passes * n
            )?;
            match mojo_passes {
                Some(m) => writeln!(
                    out,
                    "{:<24} {:>12.1} {:>14.0}",
                    "MojoShader parse (d3d)",
                    m * mb,
                    m * n
                )?,
                None => writeln!(
                    out,
                    "{:<24} {:>12} {:>14}",
                    "MojoShader parse (d3d)", "n/a", "n/a"
                )?,
            }
            match ratio {
                Some(r) => writeln!(out, "ratio (dxso / MojoShader): {r:.1}x")?,
                None => writeln!(out, "ratio: n/a (build with --features peer-mojoshader)")?,
            }
        }
        s.print(&out)?;
        Ok(ExitCode::SUCCESS)
    }
}

#[cfg(feature = "peer-mojoshader")]
fn mojo_pass(blobs: &[(String, Vec<u8>)]) -> Option<Box<dyn FnMut() + '_>> {
    Some(Box::new(move || {
        for (_, b) in blobs {
            black_box(dxso_peer::mojoshader::parse("d3d", black_box(b)));
        }
    }))
}

#[cfg(not(feature = "peer-mojoshader"))]
fn mojo_pass(_: &[(String, Vec<u8>)]) -> Option<Box<dyn FnMut() + '_>> {
    None
}
