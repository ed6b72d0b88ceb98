//! The trace of shader runs (`dxso_render::trace`): the same whatever the thread count, no
//! change to the picture, and replaying a run on the executor gives what the renderer used.

use dxso_render::teapot::Scene;
use dxso_render::trace::{RunInputs, Trace, TraceLimits};
use dxso_render::{ExecEngine, Image, RenderLimits, Renderer};
use std::sync::Arc;

/// The demo's fixed-function teapot (lit, textured, fogged, patches) at 96 x 96 on `threads`
/// threads, recording into a new trace when `traced`.
fn teapot(threads: usize, traced: bool) -> (Image, Arc<Trace>) {
    let trace = Arc::new(Trace::with_limits(TraceLimits {
        quad_stride: 3,
        max_vertices: 1 << 16,
        max_quads: 1 << 16,
    }));
    let engine = if traced {
        ExecEngine::default().traced(Arc::clone(&trace))
    } else {
        ExecEngine::default()
    };
    let scene = Scene {
        size: [96, 96],
        ..Scene::default()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let image = pool.install(|| {
        let mut r = Renderer::new(96, 96, Some(&engine), RenderLimits::default()).unwrap();
        r.render_capture(&scene.capture_fixed_function()).unwrap();
        r.image()
    });
    (image, trace)
}

#[test]
fn a_trace_does_not_depend_on_threads_nor_change_the_picture() {
    let (plain, untouched) = teapot(4, false);
    assert!(untouched.runs().is_empty() && untouched.shaders().is_empty());
    let (one, a) = teapot(1, true);
    let (four, b) = teapot(4, true);
    assert_eq!(plain, one);
    assert_eq!(plain, four);
    let runs = a.runs();
    assert_eq!(runs, b.runs());
    assert_eq!(a.shaders(), b.shaders());
    let quads = runs
        .iter()
        .filter_map(|r| match &r.inputs {
            RunInputs::Quads(q) => Some(q.quads),
            RunInputs::Vertices(_) => None,
        })
        .sum::<usize>();
    assert!(quads > 100, "{quads} quads recorded");
    assert!(runs.iter().all(|r| r.dropped == 0));
}

#[test]
fn replayed_pixel_runs_give_the_pictures_colours() {
    // A Gouraud-shaded pre-transformed quad without shaders: every covered pixel of every
    // recorded quad, replayed on the executor, has a colour of the picture (within a step).
    let f = |x: f32| x.to_bits();
    let vertices: Vec<u32> = [
        (0.0, 0.0, 0xffff0000u32),
        (32.0, 0.0, 0xff00ff00),
        (0.0, 32.0, 0xff0000ff),
        (32.0, 32.0, 0xffffffff),
    ]
    .iter()
    .flat_map(|&(x, y, c)| [f(x), f(y), f(0.5), f(1.0), c])
    .collect();
    let json = serde_json::json!({
        "buffers": [{"handle": 1, "u32": vertices}],
        "commands": [
            {"op": "RENDERSTATE", "state": "ZENABLE", "value": false},
            {"op": "RENDERSTATE", "state": "CULLMODE", "value": "NONE"},
            {"op": "SETVERTEXSHADER", "fvf": ["XYZRHW", "DIFFUSE"]},
            {"op": "SETSTREAMSOURCE", "stream": 0, "buffer": 1, "stride": 20},
            {"op": "DRAWPRIMITIVE", "primitive_type": 5, "start": 0, "primitive_count": 2},
        ]
    });
    let capture = dxso_dp2::describe::build(&json.to_string()).unwrap();
    let trace = Arc::new(Trace::with_limits(TraceLimits {
        quad_stride: 1,
        ..TraceLimits::default()
    }));
    let engine = ExecEngine::default().traced(Arc::clone(&trace));
    let mut r = Renderer::new(32, 32, Some(&engine), RenderLimits::default()).unwrap();
    r.render_capture(&capture).unwrap();
    let image = r.image();
    let colours: Vec<[u8; 4]> = (0..32)
        .flat_map(|y| (0..32).map(move |x| (x, y)))
        .map(|(x, y)| image.get(x, y))
        .collect();
    let mut checked = 0;
    for run in trace.runs() {
        let RunInputs::Quads(q) = &run.inputs else {
            continue;
        };
        let out = dxso_exec::PixelShader::new(&run.shader)
            .unwrap()
            .run(q, &run.resources)
            .unwrap();
        let c = out.get(dxso_exec::OutputRegister::Target(0)).unwrap();
        for (p, colour) in c.iter().enumerate() {
            if out.discarded[p] {
                continue;
            }
            let bytes = colour.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as i32);
            assert!(
                colours
                    .iter()
                    .any(|k| (0..4).all(|i| (k[i] as i32 - bytes[i]).abs() <= 1)),
                "{bytes:?} is not in the picture"
            );
            checked += 1;
        }
    }
    // Both triangles' covered pixels: the whole target, the shared edge's quads twice.
    assert!(checked >= 32 * 32, "{checked} pixels replayed");
}
