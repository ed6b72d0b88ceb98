//! The fixed-function commands: built from JSON, parsed with their DDK layouts, recorded by the
//! device, described back; hostile records are errors.

use dxso_dp2::command::{parse, Op, ParseErrorKind};
use dxso_dp2::describe::{build, describe};
use dxso_dp2::device::{rs, tss};
use dxso_dp2::{Device, Limits, RunError};

const JSON: &str = r#"{"commands": [
  {"op": "SETVERTEXSHADER", "fvf": ["XYZ", "NORMAL", "DIFFUSE", "TEX1", "TEXCOORDSIZE3(0)"]},
  {"op": "SETTRANSFORM", "type": "WORLDMATRIX(5)", "matrix": [2,0,0,0, 0,2,0,0, 0,0,2,0, 1,2,3,1]},
  {"op": "SETTRANSFORM", "type": "VIEW", "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,5,1]},
  {"op": "MULTIPLYTRANSFORM", "type": "VIEW", "matrix": [2,0,0,0, 0,2,0,0, 0,0,2,0, 0,0,0,1]},
  {"op": "SETMATERIAL", "diffuse": [1, 0.5, 0.25, 1], "ambient": [0.1, 0.2, 0.3, 0.4], "power": 8},
  {"op": "CREATELIGHT", "index": 3},
  {"op": "SETLIGHT", "index": 3, "light": {"type": "SPOT", "diffuse": [1,1,1,1],
     "position": [0, 1, 2], "direction": [0, 0, 1], "range": 100, "falloff": 1,
     "attenuation0": 1, "attenuation1": 0.5, "attenuation2": 0.25, "theta": 0.5, "phi": 1.0}},
  {"op": "SETLIGHT", "index": 3, "enable": true},
  {"op": "SETCLIPPLANE", "index": 2, "plane": [0, 1, 0, -0.5]},
  {"op": "RENDERSTATE", "state": "FOGTABLEMODE", "value": "LINEAR"},
  {"op": "RENDERSTATE", "state": "DIFFUSEMATERIALSOURCE", "value": "MATERIAL"},
  {"op": "TEXTURESTAGESTATE", "stage": 1, "state": "COLOROP", "value": "DOTPRODUCT3"},
  {"op": "TEXTURESTAGESTATE", "stage": 1, "state": "COLORARG1", "value": "TFACTOR"}
]}"#;

#[test]
fn fixed_function_commands_reach_the_device() {
    let capture = build(JSON).unwrap();
    let commands = parse(&capture.commands).unwrap();
    let ops: Vec<Op> = commands.iter().map(|c| c.op).collect();
    assert!(ops.contains(&Op::SetLight) && ops.contains(&Op::MultiplyTransform));
    // SETLIGHT with data: 8 + 104 bytes.
    let set_light = commands.iter().find(|c| c.op == Op::SetLight).unwrap();
    let next = commands
        .iter()
        .find(|c| c.offset > set_light.offset)
        .unwrap();
    assert_eq!(next.offset - set_light.offset, 4 + 8 + 104);
    let mut device = Device::new(Limits::default());
    device.run_capture(&capture).unwrap();
    let s = device.ffp_state();
    assert_eq!(device.fvf(), Some(0x2 | 0x10 | 0x40 | 0x100 | 0x10000));
    assert_eq!(s.transform(256 + 5)[12..15], [1.0, 2.0, 3.0]);
    // MULTIPLYTRANSFORM: M * current.
    assert_eq!(s.transform(2)[0], 2.0);
    assert_eq!(s.transform(2)[14], 5.0);
    assert_eq!(s.material.diffuse, [1.0, 0.5, 0.25, 1.0]);
    assert_eq!(s.material.power, 8.0);
    let l = s.lights[&3];
    assert_eq!(
        (l.ty, l.range, l.attenuation2, l.phi),
        (2, 100.0, 0.25, 1.0)
    );
    assert_eq!(s.enabled_lights, vec![3]);
    assert_eq!(s.clip_planes[2], [0.0, 1.0, 0.0, -0.5]);
    assert_eq!(s.rs(dxso_ffp::d3d::rs::FOGTABLEMODE), 3);
    assert_eq!(s.rs(dxso_ffp::d3d::rs::DIFFUSEMATERIALSOURCE), 0);
    assert_eq!(s.stages[1].color_op, 24);
    assert_eq!(s.stages[1].color_args[1], 3);
    // Described and built again: the same bytes.
    let again = build(&describe(&capture).unwrap().to_string()).unwrap();
    assert_eq!(again.commands, capture.commands);
}

#[test]
fn ffp_state_numbers_match_the_device_tables() {
    use dxso_ffp::d3d::{rs as f, tss as t};
    for (n, name) in [
        (f::LIGHTING, "LIGHTING"),
        (f::AMBIENT, "AMBIENT"),
        (f::FOGVERTEXMODE, "FOGVERTEXMODE"),
        (f::COLORVERTEX, "COLORVERTEX"),
        (f::LOCALVIEWER, "LOCALVIEWER"),
        (f::VERTEXBLEND, "VERTEXBLEND"),
        (f::POINTSIZE, "POINTSIZE"),
        (f::POINTSIZE_MIN, "POINTSIZE_MIN"),
        (f::POINTSIZE_MAX, "POINTSIZE_MAX"),
        (f::POINTSCALE_C, "POINTSCALE_C"),
        (f::INDEXEDVERTEXBLENDENABLE, "INDEXEDVERTEXBLENDENABLE"),
        (f::TWEENFACTOR, "TWEENFACTOR"),
        (f::TEXTUREFACTOR, "TEXTUREFACTOR"),
        (f::RANGEFOGENABLE, "RANGEFOGENABLE"),
    ] {
        assert_eq!(rs::info(n).map(|i| i.name), Some(name), "{n}");
    }
    // Every default the generator assumes is the device's.
    for &(n, v) in dxso_ffp::state::RENDER_STATE_DEFAULTS {
        assert_eq!(
            rs::info(n).and_then(|i| i.default),
            Some(v),
            "render state {n}"
        );
    }
    for (n, name) in [
        (t::COLOROP, "COLOROP"),
        (t::ALPHAARG0, "ALPHAARG0"),
        (t::RESULTARG, "RESULTARG"),
        (t::CONSTANT, "CONSTANT"),
        (t::TEXCOORDINDEX, "TEXCOORDINDEX"),
        (t::BUMPENVLOFFSET, "BUMPENVLOFFSET"),
        (t::TEXTURETRANSFORMFLAGS, "TEXTURETRANSFORMFLAGS"),
    ] {
        assert_eq!(tss::info(n).map(|i| i.name), Some(name), "{n}");
    }
}

fn run(json: &str) -> Result<(), RunError> {
    let capture = build(json).unwrap();
    Device::new(Limits::default())
        .run_capture(&capture)
        .map(|_| ())
}

#[test]
fn hostile_fixed_function_records_are_errors() {
    let e = run(r#"{"commands": [{"op": "SETVERTEXSHADER", "fvf": 3}]}"#).unwrap_err();
    assert!(e.to_string().contains("FVF code 0x3"), "{e}");
    let e = run(r#"{"commands": [{"op": "SETTRANSFORM", "type": 7, "matrix": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}]}"#)
        .unwrap_err();
    assert!(e.to_string().contains("transform type 7"), "{e}");
    let e = run(r#"{"commands": [{"op": "SETCLIPPLANE", "index": 6, "plane": [0,0,0,0]}]}"#)
        .unwrap_err();
    assert!(e.to_string().contains("clip plane 6"), "{e}");
    let e =
        run(r#"{"commands": [{"op": "SETLIGHT", "index": 99999, "enable": true}]}"#).unwrap_err();
    assert!(e.to_string().contains("light index 99999"), "{e}");
    // A SETLIGHT data type with no known size.
    let bytes = [34u8, 0, 1, 0, 0, 0, 0, 0, 9, 0, 0, 0];
    let err = parse(&bytes).unwrap_err();
    assert_eq!(err.kind, ParseErrorKind::BadLightDataType(9));
    // Truncated light data.
    let bytes = [34u8, 0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0];
    assert!(matches!(
        parse(&bytes).unwrap_err().kind,
        ParseErrorKind::Truncated { .. }
    ));
}
