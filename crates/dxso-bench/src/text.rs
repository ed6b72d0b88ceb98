use crate::measure::{corpus_blobs, measure_pair, BenchArgs};
use crate::session::Session;
use anyhow::Result;
use serde_json::json;
use std::fmt::Write as _;
use std::hint::black_box;
use std::process::ExitCode;

/// Text throughput over the corpus: dxso's disassembler against MojoShader's `d3d` profile, and
/// dxso's assembler against MojoShader's assembler on the same listings.
///
/// Disassembly: `decode` + `print` of every corpus shader, against `MOJOSHADER_parse("d3d")` of
/// the same bytes (MB/s of bytecode). Assembly: dxso's listing of every shader is the input to
/// both dxso's assembler (one `dxso_text::Assembler` for every listing, as a caller with many
/// texts keeps one) and `MOJOSHADER_assemble`, each text to bytecode (dxso's bytes
/// are those of `parse` + `encode`, with the CTAB rebuilt from the listing's header; MojoShader
/// ignores the header and writes its own creator comment); both are timed on the listings
/// MojoShader accepts (MB/s of text). `ratio` is the smaller of the two dxso/MojoShader
/// ratios; both are reported. dxso and MojoShader passes alternate so that both see the same
/// machine load.
/// MojoShader is measured only in builds with the `peer-mojoshader` feature; without it every
/// listing is measured, the MojoShader figures and the ratios are null, and the table says so.
///
/// Example:
///   cargo run --release -p dxso-bench --features peer-mojoshader -- text --json
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
        let shaders: Vec<(Vec<u8>, dxso::Shader)> = blobs
            .iter()
            .filter_map(|(_, b)| dxso::decode(b).ok().map(|s| (b.clone(), s)))
            .collect();
        let listings: Vec<String> = shaders.iter().map(|(_, s)| dxso_text::print(s)).collect();
        let asm_inputs = mojo_accepts(&listings);
        let dxso_asm_ok = asm_inputs
            .iter()
            .filter(|t| dxso_text::assemble(t).is_ok())
            .count();
        let bytecode: usize = shaders.iter().map(|(b, _)| b.len()).sum();
        let text: usize = asm_inputs.iter().map(|t| t.len()).sum();

        let disasm_dxso = || {
            for (b, _) in &shaders {
                if let Ok(s) = dxso::decode(black_box(b)) {
                    black_box(dxso_text::print(&s));
                }
            }
        };
        let mut assembler = dxso_text::Assembler::new();
        let asm_dxso = || {
            for t in &asm_inputs {
                black_box(assembler.assemble(black_box(t)).ok());
            }
        };
        let (dxso_disasm, mojo_disasm) =
            measure_pair(&self.args, disasm_dxso, mojo_disasm_pass(&shaders));
        let (dxso_asm, mojo_asm) = measure_pair(&self.args, asm_dxso, mojo_asm_pass(&asm_inputs));
        let mb_bin = bytecode as f64 / 1e6;
        let mb_text = text as f64 / 1e6;
        let disasm_ratio = mojo_disasm.map(|m| dxso_disasm / m);
        let asm_ratio = mojo_asm.map(|m| dxso_asm / m);
        let ratio = match (disasm_ratio, asm_ratio) {
            (Some(a), Some(b)) => Some(a.min(b)),
            _ => None,
        };
        if s.json {
            let j = json!({
                "bench": "text",
                "shaders": shaders.len(),
                "bytecode_bytes": bytecode,
                "asm_listings": asm_inputs.len(),
                "asm_listings_filtered_by_mojoshader": dxso_peer_linked(),
                "asm_listings_dxso_accepts": dxso_asm_ok,
                "asm_text_bytes": text,
                "dxso": {
                    "disasm_mb_per_s": dxso_disasm * mb_bin,
                    "disasm_shaders_per_s": dxso_disasm * shaders.len() as f64,
                    "asm_mb_per_s": dxso_asm * mb_text,
                    "asm_listings_per_s": dxso_asm * asm_inputs.len() as f64,
                },
                "mojoshader": mojo_disasm.zip(mojo_asm).map(|(d, a)| json!({
                    "disasm_mb_per_s": d * mb_bin,
                    "asm_mb_per_s": a * mb_text,
                    "profile": "d3d",
                })),
                "disasm_ratio": disasm_ratio,
                "asm_ratio": asm_ratio,
                "ratio": ratio,
            });
            s.print_json(&j)?;
        } else {
            let listings = if dxso_peer_linked() {
                "listings MojoShader assembles"
            } else {
                "listings (MojoShader is not in this build: all of them)"
            };
            writeln!(out,
                "text: {} shaders ({:.2} MB bytecode); {} {listings} ({:.2} MB text, dxso assembles {})",
                shaders.len(),
                mb_bin,
                asm_inputs.len(),
                mb_text,
                dxso_asm_ok
            )?;
            writeln!(out, "{:<36} {:>12}", "implementation", "MB/s")?;
            writeln!(
                out,
                "{:<36} {:>12.1}",
                "dxso decode + print",
                dxso_disasm * mb_bin
            )?;
            row(
                &mut out,
                "MojoShader parse (d3d)",
                mojo_disasm.map(|m| m * mb_bin),
            )?;
            writeln!(
                out,
                "{:<36} {:>12.1}",
                "dxso assemble (text to bytes)",
                dxso_asm * mb_text
            )?;
            row(
                &mut out,
                "MojoShader assemble (text to bytes)",
                mojo_asm.map(|m| m * mb_text),
            )?;
            match (disasm_ratio, asm_ratio, ratio) {
                (Some(d), Some(a), Some(r)) => writeln!(
                    out,
                    "ratio (dxso / MojoShader): disassembly {d:.1}x, assembly {a:.1}x, min {r:.1}x"
                )?,
                _ => writeln!(out, "ratio: n/a (build with --features peer-mojoshader)")?,
            }
        }
        s.print(&out)?;
        Ok(ExitCode::SUCCESS)
    }
}

fn row(out: &mut String, name: &str, v: Option<f64>) -> std::fmt::Result {
    match v {
        Some(v) => writeln!(out, "{name:<36} {v:>12.1}"),
        None => writeln!(out, "{name:<36} {:>12}", "n/a"),
    }
}

/// Whether MojoShader is measured in this build.
fn dxso_peer_linked() -> bool {
    cfg!(feature = "peer-mojoshader")
}

#[cfg(feature = "peer-mojoshader")]
fn mojo_accepts(listings: &[String]) -> Vec<String> {
    listings
        .iter()
        .filter(|t| !crashes_mojoshader(t))
        .filter(|t| dxso_peer::mojoshader::assemble(t).error.is_none())
        .cloned()
        .collect()
}

/// MojoShader's assembler (hg 1314) dereferences a null pointer on shader model 1 relative
/// addressing (`c0[a0.x]` in vs_1_1); such listings are left out of the comparison.
#[cfg(feature = "peer-mojoshader")]
fn crashes_mojoshader(listing: &str) -> bool {
    let sm1 = listing
        .lines()
        .find(|l| l.starts_with("    "))
        .is_some_and(|v| v.contains("_1_"));
    sm1 && listing.contains("[a0")
}

#[cfg(not(feature = "peer-mojoshader"))]
fn mojo_accepts(listings: &[String]) -> Vec<String> {
    listings.to_vec()
}

#[cfg(feature = "peer-mojoshader")]
fn mojo_disasm_pass(shaders: &[(Vec<u8>, dxso::Shader)]) -> Option<Box<dyn FnMut() + '_>> {
    Some(Box::new(move || {
        for (b, _) in shaders {
            black_box(dxso_peer::mojoshader::parse("d3d", black_box(b)));
        }
    }))
}

#[cfg(feature = "peer-mojoshader")]
fn mojo_asm_pass(listings: &[String]) -> Option<Box<dyn FnMut() + '_>> {
    Some(Box::new(move || {
        for t in listings {
            black_box(dxso_peer::mojoshader::assemble(black_box(t)));
        }
    }))
}

#[cfg(not(feature = "peer-mojoshader"))]
fn mojo_disasm_pass(_: &[(Vec<u8>, dxso::Shader)]) -> Option<Box<dyn FnMut() + '_>> {
    None
}

#[cfg(not(feature = "peer-mojoshader"))]
fn mojo_asm_pass(_: &[String]) -> Option<Box<dyn FnMut() + '_>> {
    None
}
