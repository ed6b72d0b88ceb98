//! Shared by the corpus test and the round-trip example: the profile a decompiled shader
//! compiles for, and one shader's round trip.

#![allow(dead_code)]

use dxso_hlsl::equivalence::{check, Tolerance};
use dxso_hlsl::{compile, Options, Profile, Source};

/// The profile to compile a decompiled `version` shader for (ps_1_x as ps_2_0).
pub fn profile(v: dxso::Version) -> Profile {
    match (v.is_vertex(), v.major, v.minor) {
        (true, 1, _) => Profile::Vs11,
        (true, 2, 0) => Profile::Vs20,
        (true, 2, _) => Profile::Vs2x,
        (true, _, _) => Profile::Vs30,
        (false, 1, _) => Profile::Ps20,
        (false, 2, 0) => Profile::Ps20,
        (false, 2, _) => Profile::Ps2x,
        _ => Profile::Ps30,
    }
}

/// How far one shader's round trip got.
#[derive(Debug)]
pub enum Outcome {
    /// Decompiling failed.
    Decompile(String),
    /// Compiling the HLSL failed.
    Compile(String, String),
    /// The recompiled shader is not equivalent.
    Equivalence(String, String),
    /// Equivalent.
    Equivalent(String),
}

/// Decompiles, compiles and compares `shader`.
pub fn round_trip(shader: &dxso::Shader) -> Outcome {
    let hlsl = match dxso_decompile::decompile(shader, &dxso_decompile::Options::default()) {
        Ok(h) => h,
        Err(e) => return Outcome::Decompile(e.to_string()),
    };
    let src = Source::new("decompiled.hlsl", hlsl.clone());
    let out = match compile(&src, &Options::new("main", profile(shader.version))) {
        Ok(o) => o,
        Err(e) => {
            let first = e
                .errors()
                .next()
                .map(|d| format!("{} {}", d.code.name(), d.message))
                .unwrap_or_default();
            return Outcome::Compile(hlsl, first);
        }
    };
    let candidate = with_defaults(shader, &rename_by_register(shader, &out.shader));
    match check(shader, &candidate, 64, 1, Tolerance::default()) {
        Ok(_) => Outcome::Equivalent(hlsl),
        Err(e) => Outcome::Equivalence(hlsl, e.to_string()),
    }
}

/// `true` when `name` can be an HLSL identifier.
fn is_identifier(name: &[u8]) -> bool {
    matches!(name.first(), Some(c) if c.is_ascii_alphabetic() || *c == b'_')
        && name.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// The candidate with the reference's constant-table names where those cannot be HLSL
/// identifiers (`theSampler+theTextureU`, as effect compilers name a sampler with its
/// texture): the decompiled HLSL declares such an entry under a register name bound to the
/// same register, so the checker, which matches constants by name, pairs them by register set
/// and first register instead.
pub fn rename_by_register(reference: &dxso::Shader, candidate: &dxso::Shader) -> dxso::Shader {
    let Some(Ok(rt)) = reference.constant_table() else {
        return candidate.clone();
    };
    let mut out = candidate.clone();
    for item in &mut out.items {
        let dxso::Item::Comment(c) = item else {
            continue;
        };
        if !dxso::ctab::is_ctab(&c.data) {
            continue;
        }
        let Ok(mut ct) = dxso::ctab::ConstantTable::parse(&c.data) else {
            continue;
        };
        let mut changed = false;
        for r in rt.constants.iter().filter(|r| !is_identifier(&r.name.0)) {
            if ct.constants.iter().any(|x| x.name == r.name) {
                continue;
            }
            if let Some(x) = ct.constants.iter_mut().find(|x| {
                x.register_set_raw == r.register_set_raw && x.register_index == r.register_index
            }) {
                x.name = r.name.clone();
                changed = true;
            }
        }
        if changed {
            ct.layout = None;
            c.data = ct.to_words();
        }
    }
    out
}

/// The candidate with the default values of its table entries that the reference's table does
/// not name loaded as `def`s, as a runtime that sets a table's defaults would: the decompiled
/// HLSL gives the `def` constants the original reads through relative addressing as the
/// defaults of the flat array it declares, and the checker sets constants only by name.
pub fn with_defaults(reference: &dxso::Shader, candidate: &dxso::Shader) -> dxso::Shader {
    let names: Vec<Vec<u8>> = match reference.constant_table() {
        Some(Ok(t)) => t.constants.iter().map(|c| c.name.0.clone()).collect(),
        _ => Vec::new(),
    };
    let Some(Ok(ct)) = candidate.constant_table() else {
        return candidate.clone();
    };
    let mut defs = Vec::new();
    for c in &ct.constants {
        let (Some(values), Some(dxso::ctab::RegisterSet::Float4)) =
            (&c.default_value, c.register_set())
        else {
            continue;
        };
        if names.contains(&c.name.0) {
            continue;
        }
        for (k, v) in values.chunks_exact(4).enumerate() {
            let mut def = dxso::Instruction::new(dxso::Opcode::Def);
            def.dst = Some(dxso::DstParam::new(
                dxso::Register::new(dxso::RegisterType::Const, c.register_index + k as u16),
                dxso::WriteMask::ALL,
            ));
            def.extra = dxso::Extra::Def([v[0], v[1], v[2], v[3]]);
            defs.push(dxso::Item::Instruction(def));
        }
    }
    let mut out = candidate.clone();
    out.items.splice(0..0, defs);
    out
}
