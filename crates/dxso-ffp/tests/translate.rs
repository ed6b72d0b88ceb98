//! Generated shaders translate through dxso-naga into validated naga modules (the path to
//! Vulkan and lavapipe), over a sample of states from every area.

use dxso_ffp::samples::states;
use dxso_ffp::{generate, ShaderKey};

#[test]
fn generated_shaders_translate_to_valid_naga_modules() {
    let options = dxso_naga::Options::default();
    let mut n = 0;
    for (name, state) in states() {
        let key = ShaderKey::from_state(&state).unwrap_or_else(|e| panic!("{name}: {e}"));
        let g = generate(&key).unwrap();
        for (stage, shader) in [("vs", &g.vs), ("ps", &g.ps)] {
            dxso_naga::translate(shader, &options)
                .unwrap_or_else(|e| panic!("{name} {stage}: {e}"));
            n += 1;
        }
    }
    assert!(n >= 56, "{n} shaders");
}
