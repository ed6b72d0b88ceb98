//! Any bytes as an fx_2_0 effect: parsing returns `Ok` or `Err` and never panics; what parses
//! re-encodes to the same bytes, survives a fresh layout, evaluates every pass, and decompiles
//! to `.fx` source or says why not. The same bytes as a bare FX program evaluate in both
//! precisions (programs have no loops, so this always ends).

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    if let Ok(effect) = dxso_fx::Effect::parse(data) {
        assert_eq!(effect.encode(), data, "re-encoding differs");
        let fresh = effect.encode_fresh();
        let again = dxso_fx::Effect::parse(&fresh).expect("a fresh layout parses");
        assert_eq!(again, effect, "a fresh layout parses to another effect");
        let rt = dxso_fx::Runtime::new(&effect);
        for (t, tech) in effect.techniques.iter().enumerate() {
            for p in 0..tech.passes.len() {
                let _ = rt.pass(t, p);
            }
        }
        let _ = dxso_decompile::decompile_effect(&effect, &dxso_decompile::Options::default());
    }
    if let Ok(program) = dxso_fx::Program::parse(data, 0) {
        assert_eq!(dxso_fx::bytes_of(&program.to_words()), data);
        for precision in [dxso_fx::Precision::Native, dxso_fx::Precision::Float32] {
            let mut out = dxso_fx::Registers::default();
            let inputs = dxso_fx::eval::Bank::new(4);
            dxso_fx::eval::execute(&program, &inputs, &mut out, precision);
        }
    }
}
