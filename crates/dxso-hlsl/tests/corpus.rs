//! Compiles the HLSL sources of the corpus (`hlsl/CASES.tsv`, the vs/ps 2_0-3_0 rows) and
//! checks each result against fxc's blob: it compiles, validates, and runs equivalently on
//! dxso-exec (inputs by semantic, constants and samplers by name). Prints the failures by
//! cause and the instruction-count ratio against fxc; the counts may only go up.
//!
//! `DXSO_HLSL_ROW=substring` prints the listings of the matching rows.
//!
//! `CASES.tsv` has no vs_1_1 rows: the second test compiles the sources of its vs_2_0 rows whose
//! fxc blob has no flow control as vs_1_1 too, and checks each against dxso's vs_2_0 build of
//! the same source (and against fxc's vs_2_0 blob) on dxso-exec.

use dxso_hlsl::equivalence::{check, Tolerance};
use dxso_hlsl::{compile, FileIncludes, Options, Profile, Source};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Rows that must compile (the floor).
const FLOOR_COMPILED: usize = 148;
/// Rows whose output must validate.
const FLOOR_VALID: usize = 148;
/// Rows that must run equivalently to fxc's blob.
const FLOOR_EQUIVALENT: usize = 148;
/// The median ratio of dxso's instruction count to fxc's over the validated rows may not
/// rise above this.
const CEILING_MEDIAN: f64 = 1.0;

/// vs_2_0 rows without flow control that must compile as vs_1_1 (of 11: one source does not
/// parse, two skin with 64 bones, past vs_1_1's 96 constants).
const FLOOR_VS11_COMPILED: usize = 8;
/// Of those, the ones that must run as dxso's vs_2_0 build runs.
const FLOOR_VS11_EQUIVALENT: usize = 8;

/// A row of `CASES.tsv`: the blob, the source's path, and the options fxc was given.
struct Row {
    blob: String,
    path: std::path::PathBuf,
    profile: String,
    options: Options,
}

fn rows(hlsl: &std::path::Path) -> Vec<Row> {
    let table = std::fs::read_to_string(hlsl.join("CASES.tsv")).expect("CASES.tsv");
    let mut out = Vec::new();
    for line in table.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let (blob, source, entry, profile, defines, flags) = (f[0], f[1], f[2], f[3], f[4], f[5]);
        let Ok(p) = profile.parse::<Profile>() else {
            continue;
        };
        let mut options = Options::new(entry, p);
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
        out.push(Row {
            blob: blob.to_string(),
            path: hlsl.join(source),
            profile: profile.to_string(),
            options,
        });
    }
    out
}

/// The first error of a failed compilation, with its place.
fn first_error(e: &dxso_hlsl::Diagnostics) -> String {
    e.errors()
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
        .unwrap_or_default()
}

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
    let show = std::env::var("DXSO_HLSL_ROW").ok();
    let (mut rows, mut compiled, mut valid, mut equivalent) = (0, 0, 0, 0);
    let mut causes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut ratios = Vec::new();
    for row in self::rows(&hlsl) {
        let (blob, options) = (row.blob.as_str(), &row.options);
        if !matches!(
            row.profile.as_str(),
            "vs_2_0" | "vs_3_0" | "ps_2_0" | "ps_3_0"
        ) {
            continue;
        }
        rows += 1;
        let text = std::fs::read_to_string(&row.path).expect("source");
        let src = Source::new(row.path.to_string_lossy(), text);
        let out = match compile(&src, options) {
            Ok(o) => o,
            Err(e) => {
                let first = first_error(&e);
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
    assert!(
        median <= CEILING_MEDIAN + 5e-4,
        "median {median:.3} > ceiling {CEILING_MEDIAN}"
    );
}

#[test]
fn vs20_sources_compile_as_vs11() {
    let Some(corpus) = dxso_corpus::corpus_or_skip("vs20_sources_compile_as_vs11") else {
        return;
    };
    let hlsl = corpus.join("hlsl");
    let show = std::env::var("DXSO_HLSL_ROW").ok();
    let flow = |s: &dxso::Shader| {
        s.instructions().any(|i| {
            matches!(
                i.opcode,
                dxso::Opcode::Rep
                    | dxso::Opcode::Loop
                    | dxso::Opcode::If
                    | dxso::Opcode::Ifc
                    | dxso::Opcode::Call
                    | dxso::Opcode::CallNz
            )
        })
    };
    let (mut rows, mut fit, mut compiled, mut valid, mut equivalent, mut equivalent_fxc) =
        (0, 0, 0, 0, 0, 0);
    let mut causes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut ratios = Vec::new();
    for row in self::rows(&hlsl) {
        if row.profile != "vs_2_0" {
            continue;
        }
        rows += 1;
        let blob = row.blob.as_str();
        let fxc =
            dxso::decode(&std::fs::read(corpus.join(blob)).expect("blob")).expect("blob decodes");
        let text = std::fs::read_to_string(&row.path).expect("source");
        let src = Source::new(row.path.to_string_lossy(), text);
        let mut options = row.options.clone();
        options.profile = Profile::Vs11;
        let out = compile(&src, &options);
        if flow(&fxc) {
            // vs_1_1 has no flow control: these must be refused, not miscompiled.
            if let Ok(o) = &out {
                assert!(
                    !dxso::validate(&o.shader).is_valid() || !flow(&o.shader),
                    "{blob}: flow control in vs_1_1"
                );
            }
            causes
                .entry("flow control in fxc's vs_2_0 blob".into())
                .or_default()
                .push(format!(
                    "{blob}: {}",
                    out.as_ref()
                        .err()
                        .map(first_error)
                        .unwrap_or_else(|| "compiled without it".into())
                ));
            continue;
        }
        fit += 1;
        let out = match out {
            Ok(o) => o,
            Err(e) => {
                let first = first_error(&e);
                let cause = first.split(':').next().unwrap_or("").to_string();
                causes
                    .entry(format!("compile: {cause}"))
                    .or_default()
                    .push(format!("{blob}: {first}"));
                continue;
            }
        };
        compiled += 1;
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
        let vs20 = match compile(&src, &row.options) {
            Ok(o) => o.shader,
            Err(e) => {
                causes
                    .entry("reference: dxso's vs_2_0 does not compile".into())
                    .or_default()
                    .push(format!("{blob}: {}", first_error(&e)));
                continue;
            }
        };
        if show.as_deref().is_some_and(|s| blob.contains(s)) {
            println!(
                "== {blob}\n{}\n-- dxso vs_2_0\n{}",
                dxso_text::print(&out.shader),
                dxso_text::print(&vs20)
            );
        }
        ratios.push(
            dxso::slots::count(&out.shader).total() as f64
                / dxso::slots::count(&vs20).total().max(1) as f64,
        );
        match check(&vs20, &out.shader, 64, 1, Tolerance::default()) {
            Ok(_) => equivalent += 1,
            Err(m) => {
                causes
                    .entry("equivalence with dxso's vs_2_0".into())
                    .or_default()
                    .push(format!("{blob}: {m}"));
            }
        }
        match check(&fxc, &out.shader, 64, 1, Tolerance::default()) {
            Ok(_) => equivalent_fxc += 1,
            Err(m) => {
                causes
                    .entry("equivalence with fxc's vs_2_0 blob".into())
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
    println!(
        "vs_2_0 rows {rows}: {fit} without flow control; as vs_1_1 compiled {compiled}, validated {valid}, equivalent to dxso's vs_2_0 {equivalent}, to fxc's vs_2_0 blob {equivalent_fxc}"
    );
    println!(
        "slot ratio vs_1_1 / dxso's vs_2_0 over {} rows: median {median:.3}, worst {worst:.3}",
        ratios.len()
    );
    assert!(
        compiled >= FLOOR_VS11_COMPILED,
        "vs_1_1 compiled {compiled} < floor {FLOOR_VS11_COMPILED}"
    );
    assert!(
        equivalent >= FLOOR_VS11_EQUIVALENT,
        "vs_1_1 equivalent {equivalent} < floor {FLOOR_VS11_EQUIVALENT}"
    );
}
