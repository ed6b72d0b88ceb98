//! Hostile streams end in a typed error or a picture, never a panic or unbounded work.
mod common;

use common::*;
use dxso::DeclUsage;
use dxso_dp2::command::Op;
use dxso_dp2::decl::{DeclMethod, DeclType, VertexElement};
use dxso_dp2::device::rs;
use dxso_dp2::{CaptureBuilder, Limits};
use dxso_render::{ExecEngine, RenderError, RenderLimits, Renderer};

fn run(
    w: u32,
    h: u32,
    b: &CaptureBuilder,
    limits: RenderLimits,
) -> Result<Vec<[u8; 4]>, RenderError> {
    let mut r = Renderer::new(w, h, None, limits)?
        .with_shaders(Some(passthrough()), Some(payload_colour()));
    r.render_capture(&b.finish())?;
    Ok(r.image().pixels)
}

#[test]
fn absurd_targets_and_viewports_are_errors() {
    assert!(matches!(
        Renderer::new(100_000, 4, None, RenderLimits::default()),
        Err(RenderError::BadTargetSize { width: 100_000, .. })
    ));
    assert!(Renderer::new(0, 4, None, RenderLimits::default()).is_err());
    for vp in [
        [0, 0, u32::MAX, u32::MAX],
        [u32::MAX - 1, 0, 5, 5],
        [0, 0, 0, 4],
        [4, 4, 5, 1],
    ] {
        let mut b = stream(&[ndc(0.0, 0.0, 0.5, [1.0; 4]); 3]);
        b.viewport(vp);
        triangles(&mut b, 1);
        let e = run(8, 8, &b, RenderLimits::default()).unwrap_err();
        assert!(matches!(e, RenderError::BadViewport { .. }), "{vp:?}: {e}");
    }
    let mut b = stream(&[ndc(0.0, 0.0, 0.5, [1.0; 4]); 3]);
    b.zrange(f32::NAN, 1.0);
    triangles(&mut b, 1);
    assert!(matches!(
        run(8, 8, &b, RenderLimits::default()),
        Err(RenderError::BadZRange(_))
    ));
    let mut b = stream(&[ndc(0.0, 0.0, 0.5, [1.0; 4]); 3]);
    b.render_state(rs::ZFUNC, 99);
    triangles(&mut b, 1);
    let e = run(8, 8, &b, RenderLimits::default()).unwrap_err();
    assert_eq!(
        e,
        RenderError::BadState {
            state: "ZFUNC",
            value: 99
        }
    );
    assert!(e.to_string().contains("ZFUNC"));
}

#[test]
fn nan_and_infinite_positions_draw_nothing() {
    let c = [1.0; 4];
    let nan = f32::NAN;
    let inf = f32::INFINITY;
    let mut verts = Vec::new();
    for bad in [nan, inf, -inf] {
        verts.extend([
            v(bad, 0.0, 0.5, 1.0, c),
            ndc(1.0, 0.0, 0.5, c),
            ndc(0.0, 1.0, 0.5, c),
        ]);
        verts.extend([
            v(0.0, 0.0, 0.5, bad, c),
            ndc(1.0, 0.0, 0.5, c),
            ndc(0.0, 1.0, 0.5, c),
        ]);
        verts.extend([
            v(0.0, 0.0, bad, 1.0, c),
            ndc(1.0, 0.0, 0.5, c),
            ndc(0.0, 1.0, 0.5, c),
        ]);
    }
    // w = 0 and negative w everywhere: behind the eye.
    verts.extend([
        v(0.0, 0.0, 0.0, 0.0, c),
        v(1.0, 0.0, 0.0, 0.0, c),
        v(0.0, 1.0, 0.0, 0.0, c),
    ]);
    verts.extend([
        v(0.0, 0.0, 0.5, -1.0, c),
        v(1.0, 0.0, 0.5, -1.0, c),
        v(0.0, 1.0, 0.5, -1.0, c),
    ]);
    // Enormous but finite coordinates: clipped to the guard band.
    verts.extend([
        ndc(-3e38, -3e38, 0.5, c),
        ndc(3e38, -3e38, 0.5, c),
        ndc(0.0, 3e38, 0.5, [0.0, 1.0, 0.0, 1.0]),
    ]);
    let n = verts.len() as u32 / 3;
    let mut b = stream(&verts);
    triangles(&mut b, n);
    b.draw_primitive(Op::DrawPrimitive, 2, 0, n * 3 / 2);
    b.render_state_f32(rs::POINTSIZE, f32::MAX);
    b.draw_primitive(Op::DrawPrimitive, 1, 0, n * 3);
    let pixels = run(16, 16, &b, RenderLimits::default()).unwrap();
    assert!(pixels.iter().any(|p| p[3] == 255));
    // Point sizes with MIN above MAX, and a viewport depth range that runs backwards.
    let mut b = stream(&[ndc(0.0, 0.0, 0.5, c)]);
    b.render_state_f32(rs::POINTSIZE_MIN, 10.0)
        .render_state_f32(rs::POINTSIZE_MAX, 1.0);
    b.zrange(1.0, 0.0);
    b.draw_primitive(Op::DrawPrimitive, 1, 0, 1);
    run(4, 4, &b, RenderLimits::default()).unwrap();
    // A NaN point size is a bad state, named.
    let mut b = stream(&[ndc(0.0, 0.0, 0.5, c)]);
    b.render_state_f32(rs::POINTSIZE, f32::NAN);
    b.draw_primitive(Op::DrawPrimitive, 1, 0, 1);
    assert!(matches!(
        run(4, 4, &b, RenderLimits::default()),
        Err(RenderError::BadState {
            state: "POINTSIZE",
            ..
        })
    ));
}

/// Inputs the fuzz target `render` crashed on, fixed since (`tests/data/`).
const FUZZ_FOUND: &[&str] = &["fuzz-render-denormal-w.bin"];

#[test]
fn fuzz_found_inputs_replay_without_panicking() {
    // Inputs the fuzz target `render` found, replayed the way it runs them: the bytes as the
    // vertex buffer and as commands after a preamble of declaration, stream and shaders.
    // fuzz-render-denormal-w.bin: a clipped vertex with w near the smallest float whose
    // screen y overflowed the snapped fixed-point coordinates.
    let vs = "vs_2_0\ndcl_position v0\ndcl_color v1\ndcl_texcoord v2\nmov oPos, v0\nmov oD0, v1\nmov oT0, v2\n";
    let ps =
        "ps_2_0\ndcl v0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nadd r0, r0, v0\nmov oC0, r0\n";
    let asm = |t: &str| dxso::encode(&dxso_text::parse(t).unwrap());
    for name in FUZZ_FOUND {
        let data = std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/data")
                .join(name),
        )
        .unwrap();
        let size = 1 + data[0] as u32 % 48;
        let e = |offset, ty: DeclType, usage: DeclUsage| VertexElement {
            stream: 0,
            offset,
            ty: ty as u8,
            method: DeclMethod::Default as u8,
            usage: usage as u8,
            usage_index: 0,
        };
        let mut b = CaptureBuilder::new();
        b.buffer(1, data.clone());
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
        .create_shader(Op::CreateVertexShaderFunc, 1, &asm(vs))
        .create_shader(Op::CreatePixelShader, 2, &asm(ps))
        .handle_op(Op::SetVertexShaderFunc, 1)
        .handle_op(Op::SetPixelShader, 2);
        let mut capture = b.finish();
        capture.commands.extend_from_slice(&data);
        let engine = ExecEngine::default();
        let mut r = Renderer::new(size, size, Some(&engine), RenderLimits::small()).unwrap();
        let result = r.render_capture(&capture);
        println!("{name}: {result:?}");
    }
}

/// A strip of `n` triangles, each a sliver a hundredth of a pixel wide.
fn slivers(n: u32) -> CaptureBuilder {
    let verts: Vec<V> = (0..n + 2)
        .map(|k| {
            let x = (k / 2) as f32 * 1e-4 - 0.9;
            let y = if k % 2 == 0 { -0.9 } else { 0.9 };
            ndc(x, y, 0.5, [1.0; 4])
        })
        .collect();
    let mut b = stream(&verts);
    b.draw_primitive(Op::DrawPrimitive, 5, 0, n);
    b
}

#[test]
fn a_million_tiny_triangles_are_bounded() {
    let n = 1 << 20;
    // With the default device limits the strip is refused before anything is allocated for it
    // (3 vertices per triangle once the strip is a list: over the per-draw cap).
    let e = run(64, 64, &slivers(n), RenderLimits::default()).unwrap_err();
    assert!(matches!(e, RenderError::Device(_)), "{e}");
    println!("default limits: {e}");
    // With room for them, they are drawn, within the pixel-test cap or stopped by it.
    let mut limits = RenderLimits {
        device: Limits {
            max_draw_vertices: 4 << 20,
            max_total_vertices: 4 << 20,
            ..Limits::default()
        },
        ..RenderLimits::default()
    };
    let start = std::time::Instant::now();
    match run(64, 64, &slivers(n), limits) {
        Ok(pixels) => println!(
            "1,048,576 slivers drawn in {:?}: {} pixels lit",
            start.elapsed(),
            pixels.iter().filter(|p| p[0] != 0).count()
        ),
        Err(e) => {
            assert!(matches!(e, RenderError::TooManyPixels { .. }), "{e}");
            println!(
                "1,048,576 slivers stopped by the pixel cap after {:?}: {e}",
                start.elapsed()
            );
        }
    }
    limits.max_pixel_tests = 1 << 16;
    assert!(matches!(
        run(64, 64, &slivers(n), limits),
        Err(RenderError::TooManyPixels { .. })
    ));
}

#[test]
fn full_screen_triangles_past_the_pixel_cap_are_an_error() {
    let c = [1.0; 4];
    let tri = [
        ndc(-3.0, -3.0, 0.5, c),
        ndc(-3.0, 3.0, 0.5, c),
        ndc(3.0, 0.0, 0.5, c),
    ];
    let verts: Vec<V> = (0..64).flat_map(|_| tri).collect();
    let mut b = stream(&verts);
    triangles(&mut b, 64);
    let mut limits = RenderLimits::small();
    limits.max_pixel_tests = 63 * 256 * 256;
    let e = run(256, 256, &b, limits).unwrap_err();
    assert!(
        matches!(e, RenderError::TooManyPixels { max, .. } if max == 63 * 65536),
        "{e}"
    );
}
