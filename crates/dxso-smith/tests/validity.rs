//! Every generated program is valid: thousands of programs per version, over the default
//! configuration, the differential preset and feature subsets, all accepted by `dxso::validate`
//! with no warning either. Prints the counts per version and which opcodes appeared.

use dxso::{validate, Opcode, Version};
use dxso_smith::{Config, Shader, ALL_VERSIONS};
use std::collections::BTreeMap;

/// Programs per version per configuration.
const PER_VERSION: u64 = 400;

fn configs() -> Vec<(&'static str, Config)> {
    let minimal = Config {
        arithmetic: false,
        swizzles: false,
        source_modifiers: false,
        write_masks: false,
        result_modifiers: false,
        ps1_modifiers: false,
        coissue: false,
        predication: false,
        flow_control: false,
        subroutines: false,
        relative_addressing: false,
        textures: false,
        derivatives: false,
        discard: false,
        defined_constants: false,
        transcendentals: false,
        multiple_render_targets: false,
        depth_output: false,
        ..Config::default()
    };
    vec![
        ("default", Config::default()),
        ("differential", Config::differential()),
        (
            "large",
            Config {
                max_instructions: 200,
                max_nesting: 6,
                ..Config::default()
            },
        ),
        ("minimal", minimal),
        (
            "no-flow",
            Config {
                flow_control: false,
                subroutines: false,
                ..Config::default()
            },
        ),
        (
            "tiny",
            Config {
                max_instructions: 1,
                ..Config::default()
            },
        ),
    ]
}

#[test]
fn every_generated_program_is_valid() {
    let mut total = 0u64;
    let mut failures: Vec<String> = Vec::new();
    let mut warnings: Vec<String> = Vec::new();
    let mut per_version: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    let mut coverage: BTreeMap<String, u64> = BTreeMap::new();
    let mut feature_counts: BTreeMap<&'static str, u64> = BTreeMap::new();
    for (name, base) in configs() {
        for v in ALL_VERSIONS {
            let config = base.clone().with_version(v);
            for seed in 0..PER_VERSION {
                let program = Shader::from_seed(seed ^ (v.to_token() as u64) << 20, &config);
                let shader = program.shader();
                assert_eq!(shader.version, v);
                total += 1;
                let report = validate(shader);
                let e = per_version.entry(v.to_string()).or_default();
                e.0 += 1;
                for inst in shader.instructions() {
                    let mn = mnemonic(inst, v);
                    *coverage.entry(format!("{v} {mn}")).or_default() += 1;
                }
                for f in features(shader) {
                    *feature_counts.entry(f).or_default() += 1;
                }
                if report.is_valid() {
                    e.1 += 1;
                } else if failures
                    .iter()
                    .filter(|f: &&String| f.contains(&format!("] {v} ")))
                    .count()
                    < 2
                {
                    let errs: Vec<String> = report.errors().map(|d| d.to_string()).collect();
                    failures.push(format!(
                        "[{name}] {v} seed {seed}:\n  {}\n{}",
                        errs.join("\n  "),
                        dxso_text::print(shader)
                    ));
                }
                if report.is_valid() && report.warnings().next().is_some() && warnings.len() < 6 {
                    let w: Vec<String> = report.warnings().map(|d| d.to_string()).collect();
                    warnings.push(format!(
                        "[{name}] {v} seed {seed}:\n  {}\n{}",
                        w.join("\n  "),
                        dxso_text::print(shader)
                    ));
                }
            }
        }
    }
    let valid: u64 = per_version.values().map(|e| e.1).sum();
    println!(
        "generated {total} programs, {valid} valid ({:.2}%)",
        100.0 * valid as f64 / total as f64
    );
    for (v, (n, ok)) in &per_version {
        println!("  {v}: {ok}/{n} valid");
    }
    print_coverage(&coverage);
    println!("programs using each feature:");
    for (f, n) in &feature_counts {
        println!("  {f}: {n}");
    }
    for f in FEATURES {
        assert!(
            feature_counts.get(f).copied().unwrap_or(0) > 0,
            "expected some program to use {f}, found none"
        );
    }
    for f in &failures {
        println!("INVALID {f}");
    }
    for w in &warnings {
        println!("WARNING {w}");
    }
    assert!(
        failures.is_empty(),
        "expected {total} valid programs, found {valid}"
    );
    assert!(
        warnings.is_empty(),
        "valid programs with validator warnings (see above)"
    );
}

fn mnemonic(inst: &dxso::Instruction, v: Version) -> String {
    let base = inst.opcode.info().mnemonic_for(v).to_string();
    match inst.opcode {
        Opcode::Tex if !v.is_sm1() => match inst.control {
            1 => "texldp".into(),
            2 => "texldb".into(),
            _ => base,
        },
        Opcode::Ifc => "ifc".into(),
        Opcode::BreakC => "breakc".into(),
        _ if inst.predicate.is_some() => format!("({base})"),
        _ => base,
    }
}

fn print_coverage(coverage: &BTreeMap<String, u64>) {
    let mut by_version: BTreeMap<&str, Vec<(&str, u64)>> = BTreeMap::new();
    for (k, n) in coverage {
        let (v, m) = k.split_once(' ').unwrap_or((k, ""));
        by_version.entry(v).or_default().push((m, *n));
    }
    println!("instruction kinds per version:");
    for (v, list) in by_version {
        let items: Vec<String> = list.iter().map(|(m, n)| format!("{m} {n}")).collect();
        println!("  {v} ({} kinds): {}", list.len(), items.join(", "));
    }
}

/// Every feature the generator promises; each must show up somewhere.
const FEATURES: &[&str] = &[
    "relative c[a0]",
    "relative c[aL]",
    "relative v[aL]",
    "relative v[a0]",
    "relative o[aL]",
    "predicated instruction",
    "co-issue",
    "result shift",
    "_sat",
    "_pp",
    "_centroid",
    "negate",
    "_abs",
    "_bias/_bx2/1-/_x2",
    "_dz/_dw",
    "swizzle",
    "partial write mask",
    "nested blocks (depth 3+)",
    "subroutine called twice",
    "nested call",
    "else",
    "ps_1_4 phase",
    "def NaN/inf",
];

fn relative(out: &mut Vec<&'static str>, r: Option<dxso::Relative>, file: &str) {
    match r {
        Some(dxso::Relative::Token(t)) => {
            let al = t.register.ty == dxso::RegisterType::Loop;
            out.push(match (file, al) {
                ("c", false) => "relative c[a0]",
                ("c", true) => "relative c[aL]",
                ("v", false) => "relative v[a0]",
                ("v", true) => "relative v[aL]",
                _ => "relative o[aL]",
            });
        }
        Some(dxso::Relative::Implicit) => out.push("relative c[a0]"),
        None => {}
    }
}

fn features(shader: &dxso::Shader) -> Vec<&'static str> {
    use dxso::{RegisterType as R, SrcModifier as M};
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut deepest = 0usize;
    let mut calls: BTreeMap<u16, u32> = BTreeMap::new();
    let mut in_label = false;
    for inst in shader.instructions() {
        if let Some(d) = inst.dst {
            relative(&mut out, d.relative, "o");
            if d.shift.0 != 0 {
                out.push("result shift");
            }
            if d.modifiers.saturate() {
                out.push("_sat");
            }
            if d.modifiers.partial_precision() {
                out.push("_pp");
            }
            if d.modifiers.centroid() {
                out.push("_centroid");
            }
            if d.mask.0 != 0xF && inst.opcode != Opcode::Dcl {
                out.push("partial write mask");
            }
        }
        for s in &inst.srcs {
            let file = if s.register.ty == R::Input { "v" } else { "c" };
            relative(&mut out, s.relative, file);
            match s.modifier {
                M::Neg => out.push("negate"),
                M::Abs | M::AbsNeg => out.push("_abs"),
                M::Bias | M::BiasNeg | M::Sign | M::SignNeg | M::Comp | M::X2 | M::X2Neg => {
                    out.push("_bias/_bx2/1-/_x2")
                }
                M::Dz | M::Dw => out.push("_dz/_dw"),
                _ => {}
            }
            if !s.swizzle.is_identity() && s.swizzle.replicated().is_none() {
                out.push("swizzle");
            }
        }
        if inst.predicate.is_some() {
            out.push("predicated instruction");
        }
        if inst.coissue {
            out.push("co-issue");
        }
        match inst.opcode {
            Opcode::If | Opcode::Ifc | Opcode::Loop | Opcode::Rep => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            Opcode::EndIf | Opcode::EndLoop | Opcode::EndRep => depth -= 1,
            Opcode::Else => out.push("else"),
            Opcode::Phase => out.push("ps_1_4 phase"),
            Opcode::Label => in_label = true,
            Opcode::Call | Opcode::CallNz => {
                *calls.entry(inst.srcs[0].register.num).or_default() += 1;
                if in_label {
                    out.push("nested call");
                }
            }
            Opcode::Def => {
                if let dxso::Extra::Def(bits) = inst.extra {
                    if bits.iter().any(|b| !f32::from_bits(*b).is_finite()) {
                        out.push("def NaN/inf");
                    }
                }
            }
            _ => {}
        }
    }
    if deepest >= 3 {
        out.push("nested blocks (depth 3+)");
    }
    if calls.values().any(|n| *n >= 2) {
        out.push("subroutine called twice");
    }
    out.sort();
    out.dedup();
    out
}
