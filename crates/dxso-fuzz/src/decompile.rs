//! The decompiler against generated programs: from the fuzzer's bytes, a valid program of any
//! version (`dxso-smith`). Decompiling must not panic and must either give HLSL or say what
//! HLSL cannot express; the HLSL must then compile with dxso-hlsl without a panic (a compile
//! error is a limitation of the compiler or the decompiler, counted by the round-trip tests,
//! not a finding here), and a compiled shader must validate.

use arbitrary::{Arbitrary, Unstructured};

/// The profile the decompiled HLSL of `v` compiles for (shader model 1 as 2_0).
fn profile(v: dxso::Version) -> dxso_hlsl::Profile {
    use dxso_hlsl::Profile;
    match (v.is_vertex(), v.major, v.minor) {
        (true, 3, _) => Profile::Vs30,
        (true, 2, 0) | (true, 1, _) => Profile::Vs20,
        (true, _, _) => Profile::Vs2x,
        (false, 3, _) => Profile::Ps30,
        (false, 2, m) if m > 0 => Profile::Ps2x,
        _ => Profile::Ps20,
    }
}

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(program) = dxso_smith::ConfiguredShader::arbitrary(&mut u) else {
        return;
    };
    let shader = program.shader.shader();
    let hlsl = match dxso_decompile::decompile(shader, &dxso_decompile::Options::default()) {
        Ok(h) => h,
        Err(dxso_decompile::Error::Unsupported { .. }) => return,
        Err(e) => panic!(
            "a valid program does not decompile: {e}\n{}",
            dxso_text::print(shader)
        ),
    };
    let source = dxso_hlsl::Source::new("decompiled.hlsl", hlsl.clone());
    let options = dxso_hlsl::Options::new("main", profile(shader.version));
    if let Ok(compiled) = dxso_hlsl::compile(&source, &options) {
        let report = dxso::validate(&compiled.shader);
        assert!(
            report.is_valid(),
            "the recompiled shader does not validate: {:?}\n{hlsl}",
            report.diagnostics
        );
    }
}
