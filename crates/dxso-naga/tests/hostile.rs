//! Inputs the fuzz target `translate` found: each must end in a typed error or a module
//! naga accepts, never a validation failure of our own output.

/// ps_3_0 declaring `dcl_usage14 v1` (no such usage) beside `dcl_texcoord v0`: the unknown
/// usage reads as texture coordinate 0, the slot v0 has.
#[test]
fn two_inputs_at_one_varying_slot_are_a_typed_error() {
    let bytes = include_bytes!("data/usage14_as_texcoord0.dxso");
    let shader = dxso::decode(bytes).expect("decodes");
    match dxso_naga::translate(&shader, &dxso_naga::Options::default()) {
        Err(dxso_naga::Error::SharedSlot { first, second }) => {
            assert_eq!((first.as_str(), second.as_str()), ("v0", "v1"));
        }
        other => panic!("expected SharedSlot, got {other:?}"),
    }
}
