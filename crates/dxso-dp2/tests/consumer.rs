//! What a consumer (a rasteriser) sees: clears and draws in stream order with the state as of
//! each command, textures and sampler states, primitive types, whole vertex elements, and the
//! JSON description of all of it.
mod common;

use common::*;
use dxso_dp2::command::{Clear, Op};
use dxso_dp2::decl::{DeclMethod, DeclType, DeclUsage};
use dxso_dp2::device::{rs, tss, Consumer, ExecErrorKind, RunError};
use dxso_dp2::enums::{CmpFunc, PrimitiveType};
use dxso_dp2::texture::{Texture, TextureFormat};
use dxso_dp2::{describe, Capture, CaptureBuilder, Device, DrawReport, Limits};

/// Records what happened, with the state each event saw.
#[derive(Default)]
struct Log(Vec<String>);

impl Consumer for Log {
    type Error = RunError;

    fn clear(&mut self, device: &Device, offset: usize, clear: &Clear) -> Result<(), RunError> {
        self.0.push(format!(
            "clear@{offset} flags {} rects {:?} viewport {:?}",
            clear.flags,
            clear.rects,
            device.viewport().0
        ));
        Ok(())
    }

    fn draw(&mut self, device: &Device, draw: DrawReport) -> Result<(), RunError> {
        let zfunc = device.render_state(rs::ZFUNC).and_then(CmpFunc::from_u32);
        self.0.push(format!(
            "draw {} {} vertices zfunc {:?} texture {:?} minfilter {:?}",
            draw.primitive.name(),
            draw.vertices(),
            zfunc,
            device.texture(0).map(|(h, t)| (h, t.width())),
            device.texture_stage_state(0, tss::MINFILTER),
        ));
        Ok(())
    }
}

fn triangle_capture() -> CaptureBuilder {
    let mut b = CaptureBuilder::new();
    b.float_buffer(1, &floats(&[[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]));
    b.create_vertex_decl(1, &position_decl()[..1])
        .set_vertex_decl(1)
        .set_stream_source(0, 1, 12);
    b
}

#[test]
fn consumer_sees_clears_and_draws_in_order_with_their_state() {
    let mut b = triangle_capture();
    let texels: Vec<u8> = vec![0xFF; 2 * 2 * 4];
    b.texture(9, TextureFormat::A8R8G8B8, [2, 2], 1, &texels);
    b.viewport([0, 0, 64, 32]);
    b.clear(&Clear {
        flags: 1,
        color: 0xFF00_00FF,
        depth: 1.0,
        stencil: 0,
        rects: vec![[0, 0, 8, 8]],
    })
    .unwrap();
    b.draw_primitive(Op::DrawPrimitive, 4, 0, 1);
    b.render_state(rs::ZFUNC, CmpFunc::Greater as u32);
    b.texture_stage_state(0, tss::TEXTUREMAP as u16, 9);
    b.texture_stage_state(0, tss::MINFILTER as u16, 2);
    b.draw_primitive(Op::DrawPrimitive, 3, 0, 2);
    let mut log = Log::default();
    Device::new(Limits::default())
        .run_capture_with(&b.finish(), &mut log)
        .unwrap();
    let clear_at = log.0[0].clone();
    assert!(clear_at.starts_with("clear@"), "{clear_at}");
    assert_eq!(
        log.0[1..],
        [
            "draw TRIANGLELIST 3 vertices zfunc Some(LessEqual) texture None minfilter Some(1)",
            "draw LINESTRIP 3 vertices zfunc Some(Greater) texture Some((9, 2)) minfilter Some(2)",
        ]
    );
    assert!(clear_at.ends_with("flags 1 rects [[0, 0, 8, 8]] viewport Some([0, 0, 64, 32])"));
}

#[test]
fn render_states_start_at_direct3d_9_defaults() {
    let d = Device::new(Limits::default());
    assert_eq!(d.render_state(rs::ZENABLE), Some(1));
    assert_eq!(d.render_state(rs::CULLMODE), Some(3));
    assert_eq!(d.render_state(rs::ZFUNC), Some(CmpFunc::LessEqual as u32));
    assert_eq!(d.render_state(rs::COLORWRITEENABLE), Some(0xF));
    assert_eq!(d.render_state(rs::PATCHSEGMENTS), Some(1.0f32.to_bits()));
    assert_eq!(d.render_state(rs::DELETERTPATCH), None);
    assert_eq!(d.texture_stage_state(3, tss::ADDRESSU), Some(1));
    assert_eq!(d.texture_stage_state(3, tss::MIPFILTER), Some(0));
}

#[test]
fn address_sets_u_and_v() {
    let mut b = CaptureBuilder::new();
    b.texture_stage_state(2, tss::ADDRESS as u16, 3);
    let mut d = Device::new(Limits::default());
    d.run_capture(&b.finish()).unwrap();
    assert_eq!(d.texture_stage_state(2, tss::ADDRESSU), Some(3));
    assert_eq!(d.texture_stage_state(2, tss::ADDRESSV), Some(3));
    assert_eq!(d.texture_stage_state(2, tss::ADDRESSW), Some(1));
}

#[test]
fn bad_texture_bindings_are_errors() {
    let run = |b: &CaptureBuilder| match Device::new(Limits::default()).run_capture(&b.finish()) {
        Err(RunError::Exec(e)) => e.kind,
        other => panic!("expected an execution error, got {other:?}"),
    };
    let mut b = CaptureBuilder::new();
    b.texture_stage_state(16, 0, 1);
    assert_eq!(run(&b), ExecErrorKind::NoSuchStage(16));
    let mut b = CaptureBuilder::new();
    b.texture_stage_state(0, 0, 5);
    assert_eq!(run(&b), ExecErrorKind::NoSuchBuffer(5));
    let mut b = CaptureBuilder::new();
    b.buffer(5, vec![1, 2, 3, 4]);
    b.texture_stage_state(0, 0, 5);
    assert!(matches!(
        run(&b),
        ExecErrorKind::BadTexture { handle: 5, .. }
    ));
    // A vertex-texture stage takes a texture; 0 unbinds.
    let mut b = CaptureBuilder::new();
    b.texture(5, TextureFormat::L8, [1, 1], 1, &[7]);
    b.texture_stage_state(257, 0, 5);
    let mut d = Device::new(Limits::default());
    d.run_capture(&b.finish()).unwrap();
    assert_eq!(d.texture(257).map(|(h, _)| h), Some(5));
    let mut b = CaptureBuilder::new();
    b.texture_stage_state(257, 0, 0);
    d.run_capture(&b.finish()).unwrap();
    assert!(d.texture(257).is_none());
}

#[test]
fn wide_elements_stay_whole_in_attributes() {
    let mut b = CaptureBuilder::new();
    b.float_buffer(
        1,
        &[
            0.0, 0.0, 0.0, 2.0, 0.5, 0.25, 0.125, /**/ 1.0, 0.0, 0.0, 4.0, 1.0, 1.0, 1.0,
        ],
    );
    b.create_vertex_decl(
        1,
        &[
            element(
                0,
                DeclType::Float4,
                DeclMethod::Default,
                DeclUsage::Position,
                0,
            ),
            element(
                16,
                DeclType::Float3,
                DeclMethod::Default,
                DeclUsage::TexCoord,
                0,
            ),
        ],
    )
    .set_vertex_decl(1)
    .set_stream_source(0, 1, 28)
    .draw_primitive(Op::DrawPrimitive, 2, 0, 1);
    let draws = Device::new(Limits::default())
        .run_capture(&b.finish())
        .unwrap();
    let m = &draws[0].mesh;
    assert_eq!(draws[0].primitive, PrimitiveType::LineList);
    assert_eq!(m.positions, [[0.0; 3], [1.0, 0.0, 0.0]]);
    let pos = m
        .attribute(DeclUsage::Position as u8, 0)
        .expect("FLOAT4 kept");
    assert_eq!(pos.values[1], [1.0, 0.0, 0.0, 4.0]);
    let uv = m
        .attribute(DeclUsage::TexCoord as u8, 0)
        .expect("FLOAT3 kept");
    assert_eq!(uv.values[0], [0.5, 0.25, 0.125, 1.0]);
    assert_eq!(m.uvs[0], [0.5, 0.25]);
}

#[test]
fn json_takes_names_rects_stage_states_and_textures() {
    let json = r#"{
      "buffers": [
        {"handle": 1, "f32": [0, 0, 0, 1, 0, 0, 0, 1, 0]},
        {"handle": 9, "texture": {"format": "A8R8G8B8", "width": 2, "height": 1},
         "u32": [4278190335, 4278255360]}],
      "commands": [
        {"op": "RENDERSTATE", "state": "D3DRS_ZFUNC", "value": "GREATER"},
        {"op": "RENDERSTATE", "state": "ZENABLE", "value": false},
        {"op": "RENDERSTATE", "state": "CULLMODE", "value": "D3DCULL_NONE"},
        {"op": "RENDERSTATE", "state": 164, "float": 2.5},
        {"op": "TEXTURESTAGESTATE", "stage": 0, "state": "TEXTUREMAP", "value": 9},
        {"op": "TEXTURESTAGESTATE", "stage": 0, "state": "D3DSAMP_ADDRESSU", "value": "CLAMP"},
        {"op": "CLEAR", "flags": ["TARGET", "ZBUFFER"], "color": 255, "rects": [[1, 2, 3, 4], [5, 6, 7, 8]]}]}"#;
    let capture = describe::build(json).unwrap();
    let mut d = Device::new(Limits::default());
    let mut log = Log::default();
    d.run_capture_with(&capture, &mut log).unwrap();
    assert_eq!(d.render_state(rs::ZFUNC), Some(5));
    assert_eq!(d.render_state(rs::ZENABLE), Some(0));
    assert_eq!(d.render_state(rs::CULLMODE), Some(1));
    assert_eq!(d.render_state(rs::PATCHSEGMENTS), Some(2.5f32.to_bits()));
    assert_eq!(d.texture_stage_state(0, tss::ADDRESSU), Some(3));
    let (_, t) = d.texture(0).unwrap();
    assert_eq!(t.decode_level(0)[0], [0.0, 0.0, 1.0, 1.0]);
    assert!(
        log.0[0].contains("flags 3 rects [[1, 2, 3, 4], [5, 6, 7, 8]]"),
        "{:?}",
        log.0
    );
    let bytes = capture.to_bytes();
    assert_eq!(Capture::parse(&bytes).unwrap(), capture);
    assert_eq!(
        Texture::parse(capture.buffer(9).unwrap()).unwrap().width(),
        2
    );
}

#[test]
fn json_errors_name_the_place() {
    let err = |json: &str| describe::build(json).unwrap_err().to_string();
    let e = err(r#"{"commands": [{"op": "RENDERSTATE", "state": "ZFUNC", "value": "SOMETIMES"}]}"#);
    assert!(
        e.contains("commands[0] (RENDERSTATE)") && e.contains("SOMETIMES"),
        "{e}"
    );
    let e = err(r#"{"commands": [{"op": "RENDERSTATE", "state": "NOSUCHSTATE", "value": 1}]}"#);
    assert!(e.contains("not a render state"), "{e}");
    let e = err(
        r#"{"buffers": [{"handle": 2, "texture": {"format": "A8R8G8B8", "width": 2, "height": 2}, "u32": [1]}]}"#,
    );
    assert!(
        e.contains("buffers[2]") || e.contains("buffers[0] texture"),
        "{e}"
    );
    assert!(e.contains("need 16 bytes"), "{e}");
    let e = err(r#"{"commands": [{"op": "CLEAR", "flags": 1, "rects": [[1, 2, 3]]}]}"#);
    assert!(e.contains("[left, top, right, bottom]"), "{e}");
}
