//! Translation to every target. The bytes are either a shader to decode (first byte even) or,
//! through dxso-smith, a random valid program (first byte odd), so that both hostile tokens
//! and deep, well-formed programs reach the translator. Whatever decodes must translate or
//! fail with a typed error, never panic; a shader `dxso::validate` accepts on a device with
//! 256 vertex shader constants (the translation's constant buffer) must translate;
//! and every module the translator returns must have passed naga's validator and be written
//! by every writer: a validation or writer failure of our own output is a crash.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use dxso_naga::{Error, Options, Target};
use libfuzzer_sys::fuzz_target;

fn check(shader: &dxso::Shader, options: &Options) {
    // vs_2_0 constants past c255 are valid on devices with more (a caps-dependent warning);
    // the translation's layout has 256 and refuses them with a typed error.
    let limits = dxso::validate::Options {
        max_vertex_constants: Some(dxso_naga::layout::float_constants(true)),
    };
    let valid = dxso::validate_with(shader, &limits).is_valid();
    match dxso_naga::translate(shader, options) {
        Ok(t) => {
            for target in Target::ALL {
                if let Err(e) = t.write(target, &Default::default()) {
                    panic!("{} of a validated module failed: {e}", target.name());
                }
            }
        }
        Err(e @ (Error::Validation(_) | Error::Write { .. })) => {
            panic!("our own module is wrong: {e}")
        }
        Err(e) if valid => panic!("a valid shader did not translate: {e}"),
        Err(_) => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let options = Options {
        vertex_as_compute: selector & 2 != 0,
        pixel_inputs_from_buffer: selector & 4 != 0,
        pixel_status_location: (selector & 8 != 0).then_some(7),
        ..Options::default()
    };
    if selector & 1 == 0 {
        if let Ok(shader) = dxso::decode(rest) {
            check(&shader, &options);
        }
        return;
    }
    let mut u = Unstructured::new(rest);
    if let Ok(program) = dxso_smith::ConfiguredShader::arbitrary(&mut u) {
        check(program.shader.shader(), &options);
    }
});
