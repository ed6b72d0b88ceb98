//! Golden images: small scenes and the demo frame, rendered with shaders assembled from the
//! repository's text and run by dxso-exec, against reference PNGs that were rendered once,
//! looked at, and committed. A pixel may differ by at most 2/255 per channel, except next to
//! an edge of the reference (where one rounding can move a pixel across the edge); those are
//! counted and capped. `DXSO_BLESS=1` rewrites the references. Every picture is rendered twice,
//! with the executor's interpreter and with its JIT, which must agree to the bit.

use dxso_exec::Engine;
use dxso_render::teapot::{Scene, PIXEL_SHADER, VERTEX_SHADER};
use dxso_render::{ExecEngine, Image, PixelStage, RenderLimits, Renderer, VertexStage};
use std::path::PathBuf;
use std::sync::Arc;

fn here(p: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(p)
}

fn assemble(text: &str) -> dxso::Shader {
    dxso_text::parse(text).unwrap_or_else(|d| panic!("{d}"))
}

fn scene_asm(name: &str) -> dxso::Shader {
    assemble(&std::fs::read_to_string(here(&format!("scenes/{name}"))).unwrap())
}

/// Renders with the interpreter and with the JIT (vector code); the two pictures must be the
/// same bytes. Returns the interpreter's.
fn on_both_engines(name: &str, render: impl Fn(&ExecEngine) -> Image) -> Image {
    let interpreter = render(&ExecEngine::with_engine(Engine::Interpreter));
    let jit = render(&ExecEngine::with_engine(Engine::Jit));
    let differing = (interpreter.pixels.iter())
        .zip(&jit.pixels)
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(
        (differing, jit.pixels.len()),
        (0, interpreter.pixels.len()),
        "{name}: the JIT's picture differs from the interpreter's in {differing} pixels"
    );
    // The JIT engine starts tiered (draws on the interpreter while their shaders compile);
    // waiting for the compiles gives the same picture.
    #[cfg(feature = "jit")]
    {
        let waiting = render(&ExecEngine::with_engine(Engine::Jit).waiting_for_compiles(true));
        assert!(
            waiting.pixels == jit.pixels,
            "{name}: the JIT's picture differs when it waits for its compiles"
        );
    }
    println!(
        "{name}: JIT and interpreter agree on {} pixels",
        jit.pixels.len()
    );
    interpreter
}

fn render_scene(json: &str, ps: &str, size: u32, engine: &ExecEngine) -> Image {
    let capture = dxso_dp2::describe::build(
        &std::fs::read_to_string(here(&format!("scenes/{json}"))).unwrap(),
    )
    .unwrap();
    let vs: Arc<dyn VertexStage> = Arc::new(engine.vertex(&scene_asm("colour.vs.asm")).unwrap());
    let ps: Arc<dyn PixelStage> = Arc::new(engine.pixel(&scene_asm(ps)).unwrap());
    let mut r = Renderer::new(size, size, Some(engine), RenderLimits::default())
        .unwrap()
        .with_shaders(Some(vs), Some(ps));
    r.render_capture(&capture).unwrap();
    r.image()
}

fn differs(a: [u8; 4], b: [u8; 4], by: u8) -> bool {
    a.iter().zip(b).any(|(x, y)| x.abs_diff(y) > by)
}

/// Compares with `tests/golden/NAME.png`.
pub fn golden(name: &str, img: &Image) {
    let path = here(&format!("golden/{name}.png"));
    if std::env::var_os("DXSO_BLESS").is_some() {
        std::fs::write(&path, img.to_png().unwrap()).unwrap();
    }
    let reference = Image::from_png(
        &std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .unwrap();
    assert_eq!(
        (img.width, img.height),
        (reference.width, reference.height),
        "{name}: size"
    );
    let (w, h) = (img.width as i64, img.height as i64);
    let (mut edge, mut worst) = (0usize, 0u8);
    for y in 0..h {
        for x in 0..w {
            let (a, b) = (
                img.get(x as u32, y as u32),
                reference.get(x as u32, y as u32),
            );
            let d = a
                .iter()
                .zip(b)
                .map(|(p, q)| p.abs_diff(q))
                .max()
                .unwrap_or(0);
            worst = worst.max(d);
            if d <= 2 {
                continue;
            }
            let near_edge = (-1..=1).any(|dy| {
                (-1..=1).any(|dx| {
                    let (nx, ny) = (x + dx, y + dy);
                    nx >= 0
                        && ny >= 0
                        && nx < w
                        && ny < h
                        && differs(reference.get(nx as u32, ny as u32), b, 16)
                })
            });
            assert!(
                near_edge,
                "{name}: pixel ({x}, {y}) is {a:?}, the reference {b:?}, away from any edge"
            );
            edge += 1;
        }
    }
    let cap = (w * h) as usize / 100;
    assert!(edge <= cap, "{name}: {edge} edge pixels differ (cap {cap})");
    println!(
        "{name}: {}x{} matches (largest difference {worst}, {edge} edge pixels beyond 2/255)",
        w, h
    );
}

#[test]
fn depth_overlapping_triangles() {
    golden(
        "depth",
        &on_both_engines("depth", |e| {
            render_scene("depth.json", "colour.ps.asm", 128, e)
        }),
    );
}

#[test]
fn triangle_clipped_at_the_near_plane() {
    golden(
        "clipped",
        &on_both_engines("clipped", |e| {
            render_scene("clipped.json", "colour.ps.asm", 128, e)
        }),
    );
}

#[test]
fn blending() {
    golden(
        "blend",
        &on_both_engines("blend", |e| {
            render_scene("blend.json", "colour.ps.asm", 128, e)
        }),
    );
}

#[test]
fn textured_quad_in_perspective() {
    golden(
        "texture",
        &on_both_engines("texture", |e| {
            render_scene("texture.json", "texture.ps.asm", 128, e)
        }),
    );
}

#[test]
fn demo_frame() {
    let vs = dxso::encode(&assemble(VERTEX_SHADER));
    let ps = dxso::encode(&assemble(PIXEL_SHADER));
    let scene = Scene {
        size: [256, 256],
        ..Scene::default()
    };
    let image = on_both_engines("teapot", |engine| {
        let mut r = Renderer::new(256, 256, Some(engine), RenderLimits::default()).unwrap();
        r.render_capture(&scene.capture(&vs, &ps)).unwrap();
        let stats = r.stats();
        assert_eq!((stats.patches, stats.cache_hits), (64, 32));
        r.image()
    });
    golden("teapot", &image);
}

/// The demo's fixed-function teapot (two lights, a two-stage texture cascade, specular, vertex
/// fog), drawn by the generated shaders on both engines.
#[test]
fn teapot_fixed_function() {
    let scene = Scene {
        size: [256, 256],
        ..Scene::default()
    };
    let image = on_both_engines("teapot_ffp", |engine| {
        let mut r = Renderer::new(256, 256, Some(engine), RenderLimits::default()).unwrap();
        r.render_capture(&scene.capture_fixed_function()).unwrap();
        let stats = r.stats();
        assert_eq!((stats.patches, stats.cache_hits), (64, 32));
        r.image()
    });
    golden("teapot_ffp", &image);
}

#[test]
fn dsx_and_dsy_give_the_exact_slope() {
    // TEXCOORD0 = (sx / 8 + sy / 16, -sx / 4) on the screen (w = 1): dsx(t.x) = 1/8,
    // dsy(t.x) = 1/16, dsx(t.y) = -1/4 exactly; the shader writes them / 4 (+ 0.5).
    let size = 64u32;
    let v = |sx: f32, sy: f32| {
        let (x, y) = (2.0 * sx / size as f32 - 1.0, 1.0 - 2.0 * sy / size as f32);
        vec![
            x,
            y,
            0.5,
            1.0,
            1.0,
            1.0,
            1.0,
            1.0,
            sx / 8.0 + sy / 16.0,
            -sx / 4.0,
        ]
    };
    let verts: Vec<f32> = [v(2.0, 3.0), v(61.0, 5.0), v(30.0, 60.0)].concat();
    let json = serde_json_text(&verts);
    let capture = dxso_dp2::describe::build(&json).unwrap();
    let img = on_both_engines("derivatives", |engine| {
        let vs: Arc<dyn VertexStage> =
            Arc::new(engine.vertex(&scene_asm("colour.vs.asm")).unwrap());
        // The pixel shader is ps_3_0; the vertex shader's oT0 reaches it as TEXCOORD0.
        let ps: Arc<dyn PixelStage> =
            Arc::new(engine.pixel(&scene_asm("derivatives.ps.asm")).unwrap());
        let mut r = Renderer::new(size, size, Some(engine), RenderLimits::default())
            .unwrap()
            .with_shaders(Some(vs), Some(ps));
        r.render_capture(&capture).unwrap();
        r.image()
    });
    let expected = [
        (0.125f32 / 4.0 * 255.0).round() as u8,
        (0.0625f32 / 4.0 * 255.0).round() as u8,
        ((-0.25f32 / 4.0 + 0.5) * 255.0).round() as u8,
        255,
    ];
    let lit: Vec<[u8; 4]> = img.pixels.iter().copied().filter(|p| p[3] == 255).collect();
    assert!(lit.len() > 1000, "{} pixels", lit.len());
    assert!(
        lit.iter().all(|p| *p == expected),
        "expected {expected:?} everywhere"
    );
    println!("dsx/dsy exact on {} pixels", lit.len());
}

/// A one-triangle scene description for the derivative test.
fn serde_json_text(floats: &[f32]) -> String {
    let list: Vec<String> = floats.iter().map(|f| format!("{f}")).collect();
    format!(
        r#"{{"buffers": [{{"handle": 1, "f32": [{}]}}],
 "commands": [
  {{"op": "CREATEVERTEXSHADERDECL", "handle": 1, "elements": [
    {{"offset": 0, "type": "FLOAT4", "usage": "POSITION"}},
    {{"offset": 16, "type": "FLOAT4", "usage": "COLOR"}},
    {{"offset": 32, "type": "FLOAT2", "usage": "TEXCOORD"}}]}},
  {{"op": "SETVERTEXSHADERDECL", "handle": 1}},
  {{"op": "SETSTREAMSOURCE", "stream": 0, "buffer": 1, "stride": 40}},
  {{"op": "RENDERSTATE", "state": "CULLMODE", "value": "NONE"}},
  {{"op": "DRAWPRIMITIVE", "primitive_type": 4, "start": 0, "primitive_count": 1}}]}}"#,
        list.join(", ")
    )
}

/// Renders a full-screen triangle whose vertex colour is `colour`, through `ps` (assembly).
fn full_screen(ps: &str, colour: [f32; 4], size: u32) -> Image {
    let c = colour.map(|v| format!("{v}")).join(", ");
    let verts =
        format!("-1, 1, 0.5, 1, {c}, 0, 0,  3, 1, 0.5, 1, {c}, 0, 0,  -1, -3, 0.5, 1, {c}, 0, 0");
    let json = serde_json_text(&[]).replace("\"f32\": []", &format!("\"f32\": [{verts}]"));
    let capture = dxso_dp2::describe::build(&json).unwrap();
    on_both_engines("full screen", |engine| {
        let vs: Arc<dyn VertexStage> =
            Arc::new(engine.vertex(&scene_asm("colour.vs.asm")).unwrap());
        let ps: Arc<dyn PixelStage> = Arc::new(engine.pixel(&assemble(ps)).unwrap());
        let mut r = Renderer::new(size, size, Some(engine), RenderLimits::default())
            .unwrap()
            .with_shaders(Some(vs), Some(ps));
        r.render_capture(&capture).unwrap();
        r.image()
    })
}

#[test]
fn colour_inputs_are_saturated_before_shader_model_3() {
    // Colour (2, -1, 0.5, 1) times 1/4: ps_1_1 and ps_2_0 read the colour saturated to
    // (1, 0, 0.5, 1), ps_3_0 reads it as the vertex shader wrote it.
    let times_quarter = |version: &str, input: &str, out: &str| {
        format!("{version}\ndef c0, 0.25, 0.25, 0.25, 0.25\n{input}mul {out}, v0, c0\n")
    };
    let colour = [2.0, -1.0, 0.5, 1.0];
    let byte = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    let clamped = [byte(0.25), 0, byte(0.125), byte(0.25)];
    let ps11 = full_screen(&times_quarter("ps_1_1", "", "r0"), colour, 8);
    assert_eq!(ps11.get(4, 4), clamped);
    let ps20 = full_screen(&times_quarter("ps_2_0", "dcl v0\n", "oC0"), colour, 8);
    assert_eq!(ps20.get(4, 4), clamped);
    let ps30 = full_screen(&times_quarter("ps_3_0", "dcl_color v0\n", "oC0"), colour, 8);
    assert_eq!(ps30.get(4, 4), [byte(0.5), 0, byte(0.125), byte(0.25)]);
}

#[test]
fn vpos_is_the_pixel_and_vface_the_side() {
    // Colour = (x / 64, y / 64, vFace > 0 ? 1 : 0, 1); the full-screen triangle is clockwise
    // on the screen (front-facing).
    let ps = "ps_3_0\ndef c0, 0.015625, 0.0, 1.0, 0.0\ndcl vPos.xy\ndcl vFace\nmul r0.xy, vPos, c0.x\ncmp r0.z, vFace, c0.z, c0.y\nmov r0.w, c0.z\nmov oC0, r0\n";
    let img = full_screen(ps, [1.0; 4], 64);
    for (x, y) in [(0u32, 0u32), (17, 5), (63, 63), (40, 2)] {
        let p = img.get(x, y);
        assert_eq!(
            p,
            [
                (x as f32 / 64.0 * 255.0).round() as u8,
                (y as f32 / 64.0 * 255.0).round() as u8,
                255,
                255
            ],
            "({x}, {y})"
        );
    }
}
