//! Any bytes through the renderer, three ways: as a whole `.dp2` file, and as commands (and a
//! vertex buffer) appended to two preambles: one that sets up a declaration, a stream and a
//! pair of shaders, and one that sets an FVF, a light and a texture stage and binds no shader,
//! so that the fixed-function pipeline's generated shaders run; draws, states, clears,
//! viewports, textures, transforms, lights, materials, clip planes and every output-merger
//! state (stencil, W-buffering, sRGB writes, depth bias, fill modes) are reached (the seed
//! `ffp_states.dp2` sets them all). Rendering returns `Ok`
//! or `Err`, never panics, and stays within the small limits.

use dxso_dp2::command::Op;
use dxso_dp2::decl::{DeclMethod, DeclType, DeclUsage, VertexElement};
use dxso_dp2::{Capture, CaptureBuilder};
use dxso_render::{ExecEngine, RenderLimits, Renderer};
use std::sync::OnceLock;

const VS: &str = "vs_2_0\ndcl_position v0\ndcl_color v1\ndcl_texcoord v2\nmov oPos, v0\nmov oD0, v1\nmov oT0, v2\n";
const PS: &str =
    "ps_2_0\ndcl v0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nadd r0, r0, v0\nmov oC0, r0\n";

fn preamble() -> &'static (Vec<u8>, Vec<u8>) {
    static SHADERS: OnceLock<(Vec<u8>, Vec<u8>)> = OnceLock::new();
    SHADERS.get_or_init(|| {
        let asm = |t: &str| dxso::encode(&dxso_text::parse(t).expect("the fuzz shaders assemble"));
        (asm(VS), asm(PS))
    })
}

fn render(capture: &Capture, size: u32) {
    let engine = ExecEngine::new(dxso_exec::Options {
        budget: 1 << 12,
        ..dxso_exec::Options::default()
    });
    if let Ok(mut r) = Renderer::new(size, size, Some(&engine), RenderLimits::small()) {
        let _ = r.render_capture(capture);
    }
}

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let size = 1 + data.first().copied().unwrap_or(0) as u32 % 48;
    if let Ok(capture) = Capture::parse(data) {
        render(&capture, size);
    }
    let (vs, ps) = preamble();
    let e = |offset, ty: DeclType, usage: DeclUsage| VertexElement {
        stream: 0,
        offset,
        ty: ty as u8,
        method: DeclMethod::Default as u8,
        usage: usage as u8,
        usage_index: 0,
    };
    let mut b = CaptureBuilder::new();
    b.buffer(1, data.to_vec());
    b.create_vertex_decl(
        1,
        &[
            e(0, DeclType::Float4, DeclUsage::Position),
            e(16, DeclType::D3dColor, DeclUsage::Color),
            e(20, DeclType::Float2, DeclUsage::TexCoord),
        ],
    )
    .set_vertex_decl(1)
    .set_stream_source(0, 1, 28)
    .create_shader(Op::CreateVertexShaderFunc, 1, vs)
    .create_shader(Op::CreatePixelShader, 2, ps)
    .handle_op(Op::SetVertexShaderFunc, 1)
    .handle_op(Op::SetPixelShader, 2);
    let mut capture = b.finish();
    capture.commands.extend_from_slice(data);
    render(&capture, size);

    // The fixed-function pipeline: XYZ | NORMAL | DIFFUSE | TEX1 (36 bytes), one light.
    let mut b = CaptureBuilder::new();
    b.buffer(1, data.to_vec());
    let light = [
        0u32,
        2,
        3,
        0x3F80_0000,
        0x3F80_0000,
        0x3F80_0000,
        0x3F80_0000,
    ];
    let mut light_bytes: Vec<u8> = light.iter().flat_map(|w| w.to_le_bytes()).collect();
    light_bytes.resize(8 + 104, 0);
    b.handle_op(Op::SetVertexShader, 0x2 | 0x10 | 0x40 | 0x100)
        .set_stream_source(0, 1, 36)
        .command(Op::SetLight, 1, &light_bytes)
        .command(Op::SetLight, 1, &[0, 0, 0, 0, 0, 0, 0, 0]);
    let mut capture = b.finish();
    capture.commands.extend_from_slice(data);
    render(&capture, size);
}
