//! Scenes for the pipeline tests: vertices in clip space with one TEXCOORD0 payload, passed
//! through by a Rust vertex shader.
#![allow(dead_code)]

use dxso::DeclUsage;
use dxso_dp2::command::Op;
use dxso_dp2::decl::{DeclMethod, DeclType, VertexElement};
use dxso_dp2::device::rs;
use dxso_dp2::CaptureBuilder;
use dxso_render::Quad;
use dxso_render::{FnPixel, FnVertex, PixelStage, RenderLimits, Renderer, Semantic, VertexStage};
use std::sync::Arc;

pub const TEX0: Semantic = Semantic::new(DeclUsage::TexCoord, 0);

/// A vertex: clip-space position and a payload.
#[derive(Clone, Copy, Debug)]
pub struct V {
    pub pos: [f32; 4],
    pub data: [f32; 4],
}

pub fn v(x: f32, y: f32, z: f32, w: f32, data: [f32; 4]) -> V {
    V {
        pos: [x, y, z, w],
        data,
    }
}

/// A vertex at NDC (x, y, z) with w = 1.
pub fn ndc(x: f32, y: f32, z: f32, data: [f32; 4]) -> V {
    v(x, y, z, 1.0, data)
}

/// A vertex at screen position (sx, sy) of a `w` x `h` target (pixel centres at integers).
pub fn screen(sx: f32, sy: f32, w: u32, h: u32, z: f32, data: [f32; 4]) -> V {
    ndc(
        2.0 * sx / w as f32 - 1.0,
        1.0 - 2.0 * sy / h as f32,
        z,
        data,
    )
}

/// A stream that sets up a POSITION FLOAT4 + TEXCOORD0 FLOAT4 declaration over `vertices`.
pub fn stream(vertices: &[V]) -> CaptureBuilder {
    let mut b = CaptureBuilder::new();
    let floats: Vec<f32> = vertices
        .iter()
        .flat_map(|v| v.pos.into_iter().chain(v.data))
        .collect();
    b.float_buffer(1, &floats);
    let e = |offset, usage: DeclUsage| VertexElement {
        stream: 0,
        offset,
        ty: DeclType::Float4 as u8,
        method: DeclMethod::Default as u8,
        usage: usage as u8,
        usage_index: 0,
    };
    b.create_vertex_decl(1, &[e(0, DeclUsage::Position), e(16, DeclUsage::TexCoord)])
        .set_vertex_decl(1)
        .set_stream_source(0, 1, 32)
        .render_state(rs::CULLMODE, 1);
    b
}

/// A triangle list over every vertex of the stream.
pub fn triangles(b: &mut CaptureBuilder, count: u32) {
    b.draw_primitive(Op::DrawPrimitive, 4, 0, count);
}

pub fn passthrough() -> Arc<dyn VertexStage> {
    Arc::new(FnVertex::new(
        vec![Semantic::POSITION, TEX0],
        vec![TEX0],
        |v, _| (v[0], vec![v[1]]),
    ))
}

/// A pixel shader returning its TEXCOORD0 as the colour.
pub fn payload_colour() -> Arc<dyn PixelStage> {
    Arc::new(FnPixel::new(vec![TEX0], |q: &Quad<'_>| {
        std::array::from_fn(|l| Some(q.inputs[0][l]))
    }))
}

pub fn renderer(w: u32, h: u32, ps: Arc<dyn PixelStage>) -> Renderer<'static> {
    Renderer::new(w, h, None, RenderLimits::default())
        .unwrap()
        .with_shaders(Some(passthrough()), Some(ps))
}

/// Additive blending ONE + ONE.
pub fn additive(b: &mut CaptureBuilder) {
    b.render_state(rs::ALPHABLENDENABLE, 1)
        .render_state(rs::SRCBLEND, 2)
        .render_state(rs::DESTBLEND, 2)
        .render_state(rs::ZENABLE, 0);
}
