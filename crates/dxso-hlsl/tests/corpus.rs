//! Compiles the HLSL sources of the corpus (`hlsl/CASES.tsv`, the vs/ps 2_0-3_0 rows) and
//! checks each result against fxc's blob: it compiles, validates, and runs equivalently on
//! dxso-exec (inputs by semantic, constants and samplers by name). Prints the failures by
//! cause and the instruction-count ratio against fxc; the counts may only go up.
//!
//! `DXSO_HLSL_ROW=substring` prints the listings of the matching rows.

use dxso_hlsl::equivalence::{check, Tolerance};
use dxso_hlsl::{compile, FileIncludes, Options, Profile, Source};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Rows that must compile (the floor).
const FLOOR_COMPILED: usize = 143;
/// Rows whose output must validate.
const FLOOR_VALID: usize = 143;
/// Rows that must run equivalently to fxc's blob.
const FLOOR_EQUIVALENT: usize = 143;

fn instruction_count(s: &dxso::Shader) -> usize {
    s.instructions()
        .filter(|i| {
            !matches!(
                i.opcode,
                dxso::Opcode::Dcl | dxso::Opcode::Def | dxso::Opcode::DefI | dxso::Opcode::DefB
            )
        })
        .count()
}

#[test]
fn corpus_sources_compile_equivalently() {
    let Some(corpus) = dxso_corpus::corpus_or_skip("corpus_sources_compile_equivalently") else {
        return;
    };
    let hlsl = corpus.join("hlsl");
    let table = std::fs::read_to_string(hlsl.join("CASES.tsv")).expect("CASES.tsv");
    let show = std::env::var("DXSO_HLSL_ROW").ok();
    let (mut rows, mut compiled, mut valid, mut equivalent) = (0, 0, 0, 0);
    let mut causes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut ratios = Vec::new();
    for line in table.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let (blob, source, entry, profile, defines, flags) = (f[0], f[1], f[2], f[3], f[4], f[5]);
        if !matches!(profile, "vs_2_0" | "vs_3_0" | "ps_2_0" | "ps_3_0") {
            continue;
        }
        rows += 1;
        let path = hlsl.join(source);
        let text = std::fs::read_to_string(&path).expect("source");
        let mut options = Options::new(entry, profile.parse::<Profile>().expect("profile"));
        options.defines = defines
            .split_whitespace()
            .map(|d| match d.split_once('=') {
                Some((k, v)) => (k.to_string(), v.to_string()),
                None => (d.to_string(), "1".to_string()),
            })
            .collect();
        if flags.contains("/Zpr") {
            options.packing = dxso_hlsl::MatrixPacking::RowMajor;
        }
        options.includes = Arc::new(FileIncludes::default());
        let src = Source::new(path.to_string_lossy(), text);
        let out = match compile(&src, &options) {
            Ok(o) => o,
            Err(e) => {
                let first = e
                    .errors()
                    .next()
                    .map(|d| {
                        format!(
                            "{} {} at {}:{}:{}",
                            d.code.name(),
                            d.message,
                            d.loc.file.rsplit('/').next().unwrap_or(""),
                            d.loc.line,
                            d.loc.col
                        )
                    })
                    .unwrap_or_default();
                let cause = first.split(':').next().unwrap_or("").to_string();
                causes
                    .entry(format!("compile: {cause}"))
                    .or_default()
                    .push(format!("{blob}: {first}"));
                continue;
            }
        };
        compiled += 1;
        let reference =
            dxso::decode(&std::fs::read(corpus.join(blob)).expect("blob")).expect("blob decodes");
        if show.as_deref().is_some_and(|s| blob.contains(s)) {
            println!(
                "== {blob}\n{}\n-- fxc\n{}",
                dxso_text::print(&out.shader),
                dxso_text::print(&reference)
            );
        }
        let report = dxso::validate(&out.shader);
        if !report.is_valid() {
            let e = report
                .errors()
                .next()
                .map(|d| d.to_string())
                .unwrap_or_default();
            causes
                .entry("validate".into())
                .or_default()
                .push(format!("{blob}: {e}"));
            continue;
        }
        valid += 1;
        ratios.push(
            instruction_count(&out.shader) as f64 / instruction_count(&reference).max(1) as f64,
        );
        match check(&reference, &out.shader, 64, 1, Tolerance::default()) {
            Ok(_) => equivalent += 1,
            Err(m) => {
                let kind = format!("{m:?}");
                let kind = kind.split(['(', ' ', '{']).next().unwrap_or("").to_string();
                causes
                    .entry(format!("equivalence: {kind}"))
                    .or_default()
                    .push(format!("{blob}: {m}"));
            }
        }
    }
    for (cause, list) in &causes {
        println!("{} x {cause}", list.len());
        for l in list {
            println!("    {l}");
        }
    }
    ratios.sort_by(f64::total_cmp);
    let median = ratios.get(ratios.len() / 2).copied().unwrap_or(0.0);
    let worst = ratios.last().copied().unwrap_or(0.0);
    println!("rows {rows}: compiled {compiled}, validated {valid}, equivalent {equivalent}");
    println!(
        "instruction ratio vs fxc over {} validated rows: median {median:.3}, worst {worst:.3}",
        ratios.len()
    );
    assert!(
        compiled >= FLOOR_COMPILED,
        "compiled {compiled} < floor {FLOOR_COMPILED}"
    );
    assert!(
        valid >= FLOOR_VALID,
        "validated {valid} < floor {FLOOR_VALID}"
    );
    assert!(
        equivalent >= FLOOR_EQUIVALENT,
        "equivalent {equivalent} < floor {FLOOR_EQUIVALENT}"
    );
}
