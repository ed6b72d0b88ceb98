//! Hostile streams end in a typed error or a picture, never a panic or unbounded work.
mod common;
mod wine;

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

/// A fixed-function scene rendered under the small limits: the error's text, or the pixel at
/// the centre.
fn ffp(s: &wine::Scene) -> Result<[u8; 4], String> {
    ffp_after(&[], s)
}

/// [`ffp`] with `prefix` (raw commands) run first.
fn ffp_after(prefix: &[u8], s: &wine::Scene) -> Result<[u8; 4], String> {
    let mut capture = dxso_dp2::describe::build(&s.json()).map_err(|e| e.to_string())?;
    capture.commands.splice(0..0, prefix.iter().copied());
    let engine = ExecEngine::default();
    let mut r = Renderer::new(16, 16, Some(&engine), RenderLimits::small()).unwrap();
    r.render_capture(&capture).map_err(|e| e.to_string())?;
    Ok(r.image().get(8, 8))
}

/// A lit, shaderless full-screen quad after `setup`.
fn ffp_quad(setup: impl FnOnce(&mut wine::Scene)) -> wine::Scene {
    use serde_json::json;
    let mut s = wine::Scene::new();
    s.op(json!({"op": "CLEAR", "flags": ["TARGET"], "color": 0xff0000ff_u32}))
        .fvf(&["XYZ", "NORMAL", "DIFFUSE"]);
    setup(&mut s);
    let v: Vec<u32> = [(-1.0f32, -1.0f32), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)]
        .iter()
        .flat_map(|&(x, y)| {
            [x, y, 0.5, 0.0, 0.0, -1.0]
                .map(f32::to_bits)
                .into_iter()
                .chain([0xff00ff00])
        })
        .collect();
    s.draw(5, 2, &v, 28);
    s
}

#[test]
fn hostile_fixed_function_states_are_errors_or_pictures() {
    use serde_json::json;
    // NaN matrices (D3DTS_VIEW 2, PROJECTION 3, WORLD 256), set by raw records since JSON has
    // no NaN: every vertex is dropped, the clear stays.
    let nan_transform = |ty: u32| {
        let mut bytes = ty.to_le_bytes().to_vec();
        bytes.extend(std::iter::repeat_n(f32::NAN.to_le_bytes(), 16).flatten());
        let mut b = CaptureBuilder::new();
        b.command(Op::SetTransform, 1, &bytes);
        b.finish().commands
    };
    for ty in [256, 2, 3] {
        let s = ffp_quad(|_| {});
        assert_eq!(
            ffp_after(&nan_transform(ty), &s),
            Ok([0, 0, 255, 255]),
            "NaN {ty}"
        );
    }
    // ... and where a matrix must be inverted, an error naming the state.
    let s = ffp_quad(|s| {
        s.rs("CLIPPLANEENABLE", json!(1));
    });
    assert!(ffp_after(&nan_transform(2), &s)
        .unwrap_err()
        .contains("CLIPPLANEENABLE"));
    let s = ffp_quad(|s| {
        s.rs("ZENABLE", json!("USEW"));
    });
    assert!(ffp_after(&nan_transform(3), &s)
        .unwrap_err()
        .contains("USEW"));
    // Lighting with no light at all: black (no ambient, no emissive).
    let s = ffp_quad(|s| {
        s.rs("LIGHTING", json!(true));
    });
    assert_eq!(ffp(&s), Ok([0, 0, 0, 255]));
    // More enabled lights than the pipeline has: an error naming the lights.
    let s = ffp_quad(|s| {
        for i in 0..64 {
            s.light(
                i,
                json!({"type": "DIRECTIONAL", "diffuse": [1.0, 1.0, 1.0, 1.0],
                "direction": [0.0, 0.0, 1.0]}),
            )
            .light_enable(i, true);
        }
    });
    assert!(ffp(&s).unwrap_err().to_lowercase().contains("light"));
    // Bad FVF codes.
    for code in [0xFFFF_FFFFu32, 0x0F02, 0x4006, 0x0902] {
        let mut s = wine::Scene::new();
        s.op(json!({"op": "SETVERTEXSHADER", "fvf": code}));
        s.draw(4, 1, &[0; 27], 36);
        let e = ffp(&s).unwrap_err();
        assert!(e.contains("FVF"), "{code:#x}: {e}");
    }
    // Values outside their enumerations, named.
    for (state, value, name) in [
        ("STENCILFUNC", 0u32, "STENCILFUNC"),
        ("STENCILFAIL", 9, "STENCILFAIL"),
        ("STENCILZFAIL", 0, "STENCILZFAIL"),
        ("CCW_STENCILPASS", 99, "CCW_STENCILPASS"),
        ("FILLMODE", 0, "FILLMODE"),
        ("FILLMODE", 4, "FILLMODE"),
        ("DEPTHBIAS", f32::NAN.to_bits(), "DEPTHBIAS"),
        (
            "SLOPESCALEDEPTHBIAS",
            f32::INFINITY.to_bits(),
            "SLOPESCALEDEPTHBIAS",
        ),
    ] {
        let s = ffp_quad(|s| {
            s.rs("STENCILENABLE", json!(true))
                .rs("TWOSIDEDSTENCILMODE", json!(true))
                .rs(state, json!(value));
        });
        let e = ffp(&s).unwrap_err();
        assert!(e.contains(name), "{state} = {value:#x}: {e}");
    }
    // A NaN clip plane clips everything; huge stencil references keep their low byte.
    let mut plane = 5u32.to_le_bytes().to_vec();
    plane.extend(
        [f32::NAN, 0.0, 0.0, 0.0]
            .iter()
            .flat_map(|v| v.to_le_bytes()),
    );
    let mut b = CaptureBuilder::new();
    b.command(Op::SetClipPlane, 1, &plane);
    let s = ffp_quad(|s| {
        s.rs("CLIPPLANEENABLE", json!(0xFFFF_FFFFu32));
    });
    assert_eq!(ffp_after(&b.finish().commands, &s), Ok([0, 0, 255, 255]));
    // (The quad is lit by no light: black where it draws.)
    for (reference, want) in [
        (0xFFFF_FF00u32, [0, 0, 0, 255]),
        (0xFFFF_FF01, [0, 0, 255, 255]),
    ] {
        let s = ffp_quad(|s| {
            s.rs("STENCILENABLE", json!(true))
                .rs("STENCILREF", json!(reference))
                .rs("STENCILFUNC", json!("EQUAL"));
        });
        assert_eq!(ffp(&s), Ok(want), "reference {reference:#x}");
    }
    // Wireframe and point fill of triangles far outside the viewport, huge point sizes.
    for mode in ["WIREFRAME", "POINT"] {
        let s = ffp_quad(|s| {
            s.rs("FILLMODE", json!(mode))
                .rsf("POINTSIZE", 1.0e30)
                .rsf("POINTSIZE_MAX", f32::MAX)
                .transform("WORLD", {
                    let mut m = wine::IDENTITY;
                    m[0] = 1.0e30;
                    m
                });
        });
        assert!(ffp(&s).is_ok(), "{mode}");
    }
}

/// The render fuzz target's seed for the output-merger states (two-sided stencil, W-buffering,
/// sRGB writes, depth bias, a user clip plane, solid, wireframe and point fill, point sprites)
/// renders: the fuzzer starts from streams that reach every new path.
#[test]
fn the_fixed_function_state_seed_renders() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/corpus/render/ffp_states.dp2"
    );
    let capture = dxso_dp2::Capture::parse(&std::fs::read(path).unwrap()).unwrap();
    let engine = ExecEngine::default();
    let mut r = Renderer::new(32, 32, Some(&engine), RenderLimits::small()).unwrap();
    r.render_capture(&capture).unwrap();
    assert_eq!(r.stats().draws, 3);
    assert!(r.stats().pixels_written > 0);
}
