//! Inputs the fuzz target `translate` found: each must end in a typed error or a module
//! naga accepts, never a validation failure of our own output.

/// ps_3_0 declaring `dcl_usage14 v1` (no such usage) beside `dcl_texcoord v0`: the shader is
/// invalid, so the translation refuses it with the validator's rule instead of guessing a slot.
#[test]
fn an_unknown_usage_is_refused_with_the_validators_rule() {
    let bytes = include_bytes!("data/usage14_as_texcoord0.dxso");
    let shader = dxso::decode(bytes).expect("decodes");
    match dxso_naga::translate(&shader, &dxso_naga::Options::default()) {
        Err(dxso_naga::Error::Invalid(report)) => {
            assert!(
                report.rules().contains(&dxso::Rule::DclUsage),
                "{:?}",
                report.rules()
            );
        }
        other => panic!("expected Invalid, got {other:?}"),
    }
}
