//! Translation to one target per input. The first byte chooses: bit 0 a shader to decode
//! (0, the rest zero-padded to whole DWORDs) or, through dxso-smith, a random valid program
//! (1), so that both hostile tokens and deep, well-formed programs reach the translator; bits
//! 1-3 the options; bits 4-7 the writer (one per input keeps the target fast). Whatever decodes
//! must translate or fail with a typed error, never panic; a shader `dxso::validate` accepts on
//! a device with 256 vertex shader constants (the translation's constant buffer) must
//! translate, but for software shaders reading constants past that buffer (a typed refusal);
//! every module the translator returns must have passed naga's validator and be written by the
//! chosen writer: a validation or writer failure of our own output is a crash.

use arbitrary::{Arbitrary, Unstructured};
use dxso_naga::{Error, Options, Target};

/// The refusal of a float constant past the translation's constant buffer.
const CONSTANT_PAST_BUFFER: &str = "float constant register beyond the constant buffer";

fn check(shader: &dxso::Shader, options: &Options, target: Target) {
    // vs_2_0 constants past c255 are valid on devices with more (a caps-dependent warning);
    // the translation's layout has 256 and refuses them with a typed error.
    let limits = dxso::validate::Options {
        max_vertex_constants: Some(dxso_naga::layout::float_constants(true)),
        ..Default::default()
    };
    let valid = dxso::validate_with(shader, &limits).is_valid();
    match dxso_naga::translate(shader, options) {
        Ok(t) => {
            if let Err(e) = t.write(target, &Default::default()) {
                panic!("{} of a validated module failed: {e}", target.name());
            }
        }
        Err(e @ (Error::Validation(_) | Error::Write { .. })) => {
            panic!("our own module is wrong: {e}")
        }
        Err(Error::Instruction { rule, .. })
            if shader.version.is_software() && rule == CONSTANT_PAST_BUFFER => {}
        // The translation validates with the minimum limits; the caps above only widen them.
        Err(Error::Invalid(_)) if !dxso::validate(shader).is_valid() => {}
        Err(e) if valid => panic!("a valid shader did not translate: {e}"),
        Err(_) => {}
    }
}

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let options = Options {
        vertex_as_compute: selector & 2 != 0,
        pixel_inputs_from_buffer: selector & 4 != 0,
        pixel_status_location: (selector & 8 != 0).then_some(7),
        ..Options::default()
    };
    let target = Target::ALL[usize::from(selector >> 4) % Target::ALL.len()];
    if selector & 1 == 0 {
        if let Ok(shader) = dxso::decode(&crate::input::padded(rest)) {
            check(&shader, &options, target);
        }
        return;
    }
    let mut u = Unstructured::new(rest);
    if let Ok(program) = dxso_smith::ConfiguredShader::arbitrary(&mut u) {
        check(program.shader.shader(), &options, target);
    }
}
