//! Any text as an HLSL source: `dxso_hlsl::compile` returns a shader or diagnostics, never
//! panics, overflows its stack or runs away (the compiler's work budget ends hostile inputs).
//! The first byte picks the profile (so the seeds and the mutations reach every code
//! generator); the rest is the source, compiled with the entry point `main`. A compiled shader
//! validates under its version's rules, encodes and decodes back to the same shader, and a
//! second compilation gives the same bytes; every error carries an fxc-style line that names a
//! location.

use dxso_hlsl::{compile, Options, Profile, Source};

/// The profiles the first byte chooses from.
const PROFILES: [Profile; 6] = [
    Profile::Vs20,
    Profile::Vs2x,
    Profile::Vs30,
    Profile::Ps20,
    Profile::Ps2x,
    Profile::Ps30,
];

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let Some((&pick, text)) = data.split_first() else {
        return;
    };
    let profile = PROFILES[usize::from(pick) % PROFILES.len()];
    let source = Source::new("fuzz.hlsl", String::from_utf8_lossy(text).into_owned());
    let options = Options::new("main", profile);
    match compile(&source, &options) {
        Ok(out) => {
            let report = dxso::validate(&out.shader);
            assert!(
                report.is_valid(),
                "{profile:?}: the compiled shader does not validate: {:?}\n{}",
                report.errors().collect::<Vec<_>>(),
                source.text
            );
            let bytes = out.bytes();
            let back = dxso::decode(&bytes).expect("the encoded shader decodes");
            assert_eq!(back, out.shader, "encode/decode changes the shader");
            let again = compile(&source, &options).expect("the second compilation succeeds");
            assert_eq!(again.bytes(), bytes, "compilation is not deterministic");
        }
        Err(diagnostics) => {
            let first = diagnostics
                .errors()
                .next()
                .expect("a failed compilation reports an error");
            let line = first.to_string();
            assert!(
                line.contains(": error "),
                "an error without fxc's form: {line}"
            );
        }
    }
}
