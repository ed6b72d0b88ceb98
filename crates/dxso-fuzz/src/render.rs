//! Any bytes through the renderer, two ways: as a whole `.dp2` file, and as commands (and a
//! vertex buffer) appended to a preamble that sets up a declaration, a stream and a pair of
//! shaders, so that draws, states, clears, viewports and textures are reached. Rendering
//! returns `Ok` or `Err`, never panics, and stays within the small limits.

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
}
