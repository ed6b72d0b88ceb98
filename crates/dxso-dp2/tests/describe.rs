//! `describe` is the inverse of `build`: a capture described and built again is the same
//! capture, so `dxso dp2 dump --json` output can be edited and fed to `dxso dp2 build`.

use dxso_dp2::describe::{build, describe};

fn round_trip(capture: &dxso_dp2::Capture) {
    let description = describe(capture).expect("the capture parses");
    let again = build(&description.to_string()).expect("the description builds");
    assert_eq!(
        again.to_bytes(),
        capture.to_bytes(),
        "described as {description:#}"
    );
}

#[test]
fn the_teapot_comes_back_byte_for_byte() {
    for segments in [1.0, 8.0, 7.5] {
        round_trip(&dxso_dp2::teapot::capture(segments));
    }
}

#[test]
fn every_op_of_a_described_capture_comes_back() {
    let json = r#"{"buffers": [{"handle": 1, "f32": [0, 0, 0, 1, 0, 0, 0, 1, 0]},
                              {"handle": 2, "u16": [0, 1, 2]}],
     "commands": [
       {"op": "CREATEVERTEXSHADERDECL", "handle": 1, "elements": [
          {"stream": 0, "offset": 0, "type": "FLOAT3", "method": "DEFAULT", "usage": "POSITION"},
          {"type": "FLOAT3", "method": "CROSSUV", "usage": "NORMAL", "usage_index": 1}]},
       {"op": "SETVERTEXSHADERDECL", "handle": 1},
       {"op": "SETSTREAMSOURCE", "stream": 0, "buffer": 1, "stride": 12},
       {"op": "SETSTREAMSOURCE2", "stream": 1, "buffer": 1, "offset": 12, "stride": 12},
       {"op": "SETINDICES", "buffer": 2, "stride": 2},
       {"op": "RENDERSTATE", "state": "PATCHSEGMENTS", "float": 4.5},
       {"op": "RENDERSTATE", "state": 7, "value": 1},
       {"op": "VIEWPORTINFO", "x": 0, "y": 0, "width": 640, "height": 480},
       {"op": "ZRANGE", "min": 0.0, "max": 1.0},
       {"op": "SETVERTEXSHADERCONST", "register": 4, "values": [[1, 2, 3, 4.5]]},
       {"op": "SETVERTEXSHADERCONSTI", "register": 0, "values": [[4, 0, 1, -1]]},
       {"op": "SETPIXELSHADERCONSTB", "register": 2, "values": [true, false]},
       {"op": "CREATEVERTEXSHADERFUNC", "handle": 3,
        "tokens": [4294836481, 65535]},
       {"op": "DRAWPRIMITIVE", "primitive_type": 4, "start": 0, "primitive_count": 1},
       {"op": "DRAWINDEXEDPRIMITIVE", "primitive_type": 4, "base_vertex": -1, "min_index": 0,
        "num_vertices": 3, "start_index": 0, "primitive_count": 1},
       {"op": "DRAWRECTPATCH", "handle": 7, "segments": [4, 4, 4, 4],
        "info": {"start_vertex_offset_width": 0, "start_vertex_offset_height": 0,
                 "width": 2, "height": 2, "stride": 2, "basis": 0, "degree": 1}},
       {"op": "DRAWRECTPATCH", "handle": 7},
       {"op": "DRAWTRIPATCH", "handle": 9, "segments": [2, 2, 2],
        "info": {"start_vertex_offset": 0, "num_vertices": 3, "basis": 0, "degree": 1}}
     ]}"#;
    let capture = build(json).unwrap();
    round_trip(&capture);
    let text = describe(&capture).unwrap().to_string();
    assert!(text.contains(r#""state":"PATCHSEGMENTS""#), "{text}");
    assert!(text.contains(r#""usage":"NORMAL""#), "{text}");
}

#[test]
fn a_misspelt_key_is_named_with_the_key_it_meant() {
    let err = build(r#"{"commands": [{"op": "DRAWRECTPATCH", "handel": 1}]}"#).unwrap_err();
    assert_eq!(err.place, "commands[0] (DRAWRECTPATCH)");
    assert_eq!(err.message, "unknown key `handel` (did you mean `handle`?)");
    let err = build(
        r#"{"commands": [{"op": "CREATEVERTEXSHADERDECL", "handle": 1, "elements": [
            {"stream": 0, "ofset": 0, "type": "FLOAT3", "usage": "POSITION"}]}]}"#,
    )
    .unwrap_err();
    assert_eq!(
        err.place,
        "commands[0] (CREATEVERTEXSHADERDECL) elements[0]"
    );
    assert_eq!(err.message, "unknown key `ofset` (did you mean `offset`?)");
    let err = build(r#"{"buffers": [], "comands": []}"#).unwrap_err();
    assert_eq!(err.place, "document");
    assert_eq!(
        err.message,
        "unknown key `comands` (did you mean `commands`?)"
    );
    // A key far from every known one is named without a guess.
    let err = build(r#"{"buffers": [{"handle": 1, "u16": [0], "colour": 3}]}"#).unwrap_err();
    assert_eq!(err.message, "unknown key `colour`");
}
