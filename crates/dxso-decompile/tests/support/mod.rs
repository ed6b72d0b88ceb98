//! Shared by the corpus test and the round-trip example: the profile a decompiled shader
//! compiles for, and one shader's round trip.

#![allow(dead_code)]

use dxso_hlsl::equivalence::{check, Tolerance};
use dxso_hlsl::{compile, Options, Profile, Source};

/// The profile to compile a decompiled `version` shader for (ps_1_x as ps_2_0).
pub fn profile(v: dxso::Version) -> Profile {
    match (v.is_vertex(), v.major, v.minor) {
        (true, 1, _) => Profile::Vs20,
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
    match check(shader, &out.shader, 64, 1, Tolerance::default()) {
        Ok(_) => Outcome::Equivalent(hlsl),
        Err(e) => Outcome::Equivalence(hlsl, e.to_string()),
    }
}
