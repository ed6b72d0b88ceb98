//! Decompiles every valid corpus shader, compiles the HLSL back with dxso-hlsl for the shader's
//! profile (ps_1_x for ps_2_0) and checks the result is equivalent to the original on
//! dxso-exec; prints the counts, the failures by cause and the readability measure. The floors
//! may only go up.
//!
//! `DXSO_DECOMPILE_SHOW=substring` prints the HLSL of the matching shaders;
//! `DXSO_DECOMPILE_FAILURES=1` prints every failure with its whole message.

mod support;

use std::collections::BTreeMap;
use support::Outcome;

const FLOOR_DECOMPILED: usize = 1189;
const FLOOR_COMPILED: usize = 1189;
/// Decompiled shaders meeting all three readability criteria (see [`readability`]).
const FLOOR_READABLE: usize = 1136;
const FLOOR_EQUIVALENT: usize = 1188;

#[test]
fn corpus_decompiles_compiles_and_round_trips() {
    let Some(dir) = dxso_corpus::corpus_or_skip("corpus_decompiles") else {
        return;
    };
    let show = std::env::var("DXSO_DECOMPILE_SHOW").ok();
    let (mut valid, mut decompiled, mut compiled, mut equivalent) = (0, 0, 0, 0);
    let (mut named, mut no_registers, mut short, mut readable) = (0, 0, 0, 0);
    let mut causes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for e in dxso_corpus::entries(&dir) {
        let Ok(shader) = dxso::decode(&e.bytes()) else {
            continue;
        };
        if !dxso::validate(&shader).is_valid() {
            continue;
        }
        valid += 1;
        let outcome = support::round_trip(&shader);
        let (stage, why, hlsl) = match outcome {
            Outcome::Decompile(w) => ("decompile", w, None),
            Outcome::Compile(h, w) => {
                decompiled += 1;
                ("compile", w, Some(h))
            }
            Outcome::Equivalence(h, w) => {
                decompiled += 1;
                compiled += 1;
                ("equivalence", w, Some(h))
            }
            Outcome::Equivalent(h) => {
                decompiled += 1;
                compiled += 1;
                equivalent += 1;
                ("", String::new(), Some(h))
            }
        };
        if let Some(h) = &hlsl {
            if std::env::var_os("DXSO_DECOMPILE_LONG").is_some() {
                print!("{} ", e.rel);
            }
            let r = readability(&shader, h);
            named += r.0 as usize;
            no_registers += r.1 as usize;
            short += r.2 as usize;
            readable += (r.0 && r.1 && r.2) as usize;
        }
        if show.as_deref().is_some_and(|s| e.rel.contains(s)) {
            println!(
                "==== {}\n{}\n{stage} {why}",
                e.rel,
                hlsl.unwrap_or_default()
            );
        }
        if !stage.is_empty() {
            if std::env::var_os("DXSO_DECOMPILE_FAILURES").is_some() {
                println!("FAIL {} {stage}: {why}", e.rel);
            }
            let cause: String = why
                .chars()
                .map(|c| if c.is_ascii_digit() { '#' } else { c })
                .take(90)
                .collect();
            causes
                .entry(format!("{stage}: {cause}"))
                .or_default()
                .push(e.rel.clone());
        }
    }
    println!(
        "valid {valid}, decompiled {decompiled}, compiled {compiled}, equivalent {equivalent}"
    );
    println!(
        "readability: {readable} of {decompiled} meet all three: every CTAB constant named {named}, \
         no register name where a CTAB name exists {no_registers}, no more statements than \
         instructions {short}"
    );
    let mut sorted: Vec<_> = causes.into_iter().collect();
    sorted.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
    for (cause, files) in sorted {
        println!("{:5} {cause}  (e.g. {})", files.len(), files[0]);
    }
    assert!(decompiled >= FLOOR_DECOMPILED);
    assert!(compiled >= FLOOR_COMPILED);
    assert!(equivalent >= FLOOR_EQUIVALENT);
    assert!(readable >= FLOOR_READABLE);
}

/// The readability criteria: (every constant-table entry's name appears in the HLSL, no
/// uniform is declared under a register name where a table entry covers the register, the
/// functions have no more statements than the shader has instructions besides declarations).
fn readability(shader: &dxso::Shader, hlsl: &str) -> (bool, bool, bool) {
    use dxso::ctab::RegisterSet;
    let table = shader.constant_table().and_then(Result::ok);
    let constants = table.map(|t| t.constants).unwrap_or_default();
    let words: std::collections::HashSet<&str> = hlsl
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    let named = constants
        .iter()
        .all(|c| words.contains(c.name.as_str().as_ref()));
    let covered = |set: char, n: u32| {
        constants.iter().any(|c| {
            let s = match c.register_set() {
                Some(RegisterSet::Float4) => 'c',
                Some(RegisterSet::Int4) => 'i',
                Some(RegisterSet::Bool) => 'b',
                Some(RegisterSet::Sampler) => 's',
                None => '?',
            };
            s == set
                && n >= c.register_index as u32
                && n < c.register_index as u32 + c.register_count.max(1) as u32
        })
    };
    let mut no_registers = true;
    for line in hlsl.lines().filter(|l| l.contains(" : register(")) {
        let name = line
            .split(" : register(")
            .next()
            .and_then(|d| d.split_whitespace().last())
            .unwrap_or("");
        let base = name.split('[').next().unwrap_or("").trim_end_matches('_');
        let mut chars = base.chars();
        let (Some(set), digits) = (chars.next(), chars.as_str()) else {
            continue;
        };
        if "cibs".contains(set) && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
        {
            if let Ok(n) = digits.parse() {
                if covered(set, n) {
                    no_registers = false;
                }
            }
        }
    }
    let instructions = shader
        .instructions()
        .filter(|i| {
            !matches!(
                i.opcode,
                dxso::Opcode::Dcl | dxso::Opcode::Def | dxso::Opcode::DefI | dxso::Opcode::DefB
            )
        })
        .count();
    let mut in_function = false;
    let mut statements = 0;
    let mut previous = "";
    for line in hlsl.lines() {
        let after = std::mem::replace(&mut previous, line);
        if line == "{" {
            // A function's body, not a struct's fields.
            in_function = after.contains('(');
        } else if line == "}" || line == "};" {
            in_function = false;
        } else if in_function {
            let t = line.trim();
            let declaration = t.starts_with("float4 r")
                || t.starts_with("float4 a0")
                || t.starts_with("float4 t")
                || t.starts_with("bool4 p0")
                || t.ends_with(" o;")
                || t.starts_with("return");
            if t.ends_with(';') && !declaration {
                statements += 1;
            }
        }
    }
    if std::env::var_os("DXSO_DECOMPILE_LONG").is_some() && statements > instructions {
        println!("long: {statements} statements, {instructions} instructions");
    }
    (named, no_registers, statements <= instructions)
}
