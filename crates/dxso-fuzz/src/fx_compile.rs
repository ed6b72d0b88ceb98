//! Any text as an effect source: `dxso_hlsl::effect::compile_effect` returns an fx_2_0 effect
//! or diagnostics, never panics or runs away. A compiled effect encodes, parses back to the
//! same effect, and every error carries an fxc-style line that names a location.

use dxso_hlsl::effect::compile_effect;
use dxso_hlsl::{Options, Profile, Source};

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let source = Source::new("fuzz.fx", String::from_utf8_lossy(data).into_owned());
    let options = Options::new("main", Profile::Vs20);
    match compile_effect(&source, &options) {
        Ok(out) => {
            let bytes = out.bytes();
            let back = dxso_fx::Effect::parse(&bytes).expect("the written effect parses");
            assert_eq!(back, out.effect, "the written effect reads back different");
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
