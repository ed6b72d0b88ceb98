//! A harness for fixed-function checks ported from Wine's d3d9 visual tests: a scene is a DP2
//! stream described in JSON (the words of `dxso dp2 build`), rendered without shaders into a
//! 160 x 120 target (Wine's 640 x 480 at a quarter: probes and pre-transformed positions are
//! divided by 4), and probed as 0x00RRGGBB like Wine's `getPixelColor`.
#![allow(dead_code)]

use dxso_render::trace::Trace;
use dxso_render::{ExecEngine, Image, RenderLimits, Renderer};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::sync::Arc;

thread_local! {
    /// The trace every render of this thread records into, and the renders so far (see
    /// [`tracing`]).
    static TRACING: RefCell<Option<(Arc<Trace>, usize)>> = const { RefCell::new(None) };
}

/// Runs `f` (a scene test) with every render it makes through this harness recording into
/// `trace`; returns how many renders it made. Another crate includes the scene tests to replay
/// what their shaders ran on (dxso-gpu's differential test of the scenes).
pub fn tracing(trace: &Arc<Trace>, f: impl FnOnce()) -> usize {
    TRACING.with(|t| *t.borrow_mut() = Some((Arc::clone(trace), 0)));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    let renders = TRACING.with(|t| t.borrow_mut().take().map_or(0, |(_, n)| n));
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
    renders
}

/// `engine`, recording into the thread's trace when [`tracing`] is on.
pub fn engine_from(engine: &ExecEngine) -> ExecEngine {
    TRACING.with(|t| match &mut *t.borrow_mut() {
        Some((trace, renders)) => {
            *renders += 1;
            engine.clone().traced(Arc::clone(trace))
        }
        None => engine.clone(),
    })
}

/// The default engine (recording when [`tracing`] is on): what every render of the scene
/// tests uses unless it chooses an engine.
pub fn engine() -> ExecEngine {
    engine_from(&ExecEngine::default())
}

/// Target size: Wine's 640 x 480 divided by [`SCALE`].
pub const W: u32 = 160;
/// Target height.
pub const H: u32 = 120;
/// Wine's coordinates per target pixel.
pub const SCALE: f32 = 4.0;

pub const IDENTITY: [f32; 16] = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// A float as its bits, for vertex buffers of mixed floats and D3DCOLORs.
pub fn f(x: f32) -> u32 {
    x.to_bits()
}

/// A DP2 stream under construction, as JSON.
#[derive(Default)]
pub struct Scene {
    buffers: Vec<Value>,
    commands: Vec<Value>,
    next: u32,
}

impl Scene {
    /// A scene with Wine's usual device setup: no depth test, no culling, no clipping of
    /// their own, every transform the identity.
    pub fn new() -> Scene {
        let mut s = Scene {
            next: 1,
            ..Scene::default()
        };
        s.rs("ZENABLE", json!(false));
        s.rs("CULLMODE", json!("NONE"));
        s
    }

    pub fn op(&mut self, v: Value) -> &mut Self {
        self.commands.push(v);
        self
    }

    pub fn rs(&mut self, state: &str, value: Value) -> &mut Self {
        self.op(json!({"op": "RENDERSTATE", "state": state, "value": value}))
    }

    pub fn rsf(&mut self, state: &str, value: f32) -> &mut Self {
        self.op(json!({"op": "RENDERSTATE", "state": state, "float": value}))
    }

    pub fn tss(&mut self, stage: u32, state: &str, value: Value) -> &mut Self {
        self.op(json!({"op": "TEXTURESTAGESTATE", "stage": stage, "state": state, "value": value}))
    }

    pub fn tssf(&mut self, stage: u32, state: &str, value: f32) -> &mut Self {
        self.op(json!({"op": "TEXTURESTAGESTATE", "stage": stage, "state": state, "float": value}))
    }

    pub fn fvf(&mut self, names: &[&str]) -> &mut Self {
        self.op(json!({"op": "SETVERTEXSHADER", "fvf": names}))
    }

    pub fn transform(&mut self, ty: &str, m: [f32; 16]) -> &mut Self {
        self.op(json!({"op": "SETTRANSFORM", "type": ty, "matrix": m}))
    }

    pub fn material(&mut self, m: Value) -> &mut Self {
        let mut o = m;
        o["op"] = json!("SETMATERIAL");
        self.op(o)
    }

    pub fn light(&mut self, index: u32, light: Value) -> &mut Self {
        self.op(json!({"op": "SETLIGHT", "index": index, "light": light}))
    }

    pub fn light_enable(&mut self, index: u32, on: bool) -> &mut Self {
        self.op(json!({"op": "SETLIGHT", "index": index, "enable": on}))
    }

    pub fn clear(&mut self, color: u32) -> &mut Self {
        self.op(
            json!({"op": "CLEAR", "flags": ["TARGET", "ZBUFFER"], "color": color, "depth": 1.0}),
        )
    }

    /// A 2D texture of A8R8G8B8 texels (one DWORD each, rows top to bottom) bound to `stage`.
    pub fn texture(&mut self, stage: u32, width: u32, height: u32, texels: &[u32]) -> &mut Self {
        let h = self.next;
        self.next += 1;
        let bytes: Vec<u8> = texels.iter().flat_map(|t| t.to_le_bytes()).collect();
        self.buffers.push(json!({"handle": h, "bytes": bytes,
            "texture": {"format": "A8R8G8B8", "width": width, "height": height}}));
        self.tss(stage, "TEXTUREMAP", json!(h))
    }

    fn buffer_u32(&mut self, data: &[u32]) -> u32 {
        let h = self.next;
        self.next += 1;
        self.buffers.push(json!({"handle": h, "u32": data}));
        h
    }

    /// DrawPrimitiveUP: `count` primitives of `primitive_type` from `data` (`stride` bytes a
    /// vertex).
    pub fn draw(
        &mut self,
        primitive_type: u32,
        count: u32,
        data: &[u32],
        stride: u32,
    ) -> &mut Self {
        let h = self.buffer_u32(data);
        self.op(json!({"op": "SETSTREAMSOURCE", "stream": 0, "buffer": h, "stride": stride}));
        self.op(
            json!({"op": "DRAWPRIMITIVE", "primitive_type": primitive_type, "start": 0,
            "primitive_count": count}),
        )
    }

    /// DrawIndexedPrimitiveUP of a triangle list.
    pub fn draw_indexed(&mut self, indices: &[u16], data: &[u32], stride: u32) -> &mut Self {
        let vertices = data.len() as u32 * 4 / stride;
        let h = self.buffer_u32(data);
        let i = self.next;
        self.next += 1;
        self.buffers.push(json!({"handle": i, "u16": indices}));
        self.op(json!({"op": "SETSTREAMSOURCE", "stream": 0, "buffer": h, "stride": stride}));
        self.op(json!({"op": "SETINDICES", "buffer": i, "stride": 2}));
        self.op(
            json!({"op": "DRAWINDEXEDPRIMITIVE", "primitive_type": 4, "base_vertex": 0,
            "min_index": 0, "num_vertices": vertices, "start_index": 0,
            "primitive_count": indices.len() / 3}),
        )
    }

    /// The JSON description.
    pub fn json(&self) -> String {
        json!({"buffers": self.buffers, "commands": self.commands}).to_string()
    }

    /// Rendered with `engine`.
    pub fn render_with(&self, engine: &ExecEngine) -> Image {
        let capture = dxso_dp2::describe::build(&self.json()).expect("the scene builds");
        let engine = engine_from(engine);
        let mut r = Renderer::new(W, H, Some(&engine), RenderLimits::default()).unwrap();
        r.render_capture(&capture).expect("the scene renders");
        r.image()
    }

    /// Rendered at Wine's full 640 x 480 (for probes a quarter-size target cannot resolve; the
    /// scene's pre-transformed positions are then in Wine's units).
    pub fn render_full(&self) -> Image {
        let engine = engine();
        let capture = dxso_dp2::describe::build(&self.json()).expect("the scene builds");
        let mut r = Renderer::new(640, 480, Some(&engine), RenderLimits::default()).unwrap();
        r.render_capture(&capture).expect("the scene renders");
        r.image()
    }

    /// Rendered with the default engine.
    pub fn render(&self) -> Image {
        self.render_with(&ExecEngine::default())
    }

    /// The whole target (colour, depth and stencil) rendered with the default engine.
    pub fn render_target(&self) -> dxso_render::Target {
        let engine = engine();
        let capture = dxso_dp2::describe::build(&self.json()).expect("the scene builds");
        let mut r = Renderer::new(W, H, Some(&engine), RenderLimits::default()).unwrap();
        r.render_capture(&capture).expect("the scene renders");
        r.target().clone()
    }

    /// CLEAR of the colour, depth and stencil buffers.
    pub fn clear_all(&mut self, color: u32, depth: f32, stencil: u32) -> &mut Self {
        self.op(
            json!({"op": "CLEAR", "flags": ["TARGET", "ZBUFFER", "STENCIL"],
            "color": color, "depth": depth, "stencil": stencil}),
        )
    }
}

/// Wine's `getPixelColor` at Wine's (x, y): 0x00RRGGBB.
pub fn pixel(img: &Image, x: u32, y: u32) -> u32 {
    let [r, g, b, _] = img.get(
        ((x as f32 / SCALE) as u32).min(W - 1),
        ((y as f32 / SCALE) as u32).min(H - 1),
    );
    (r as u32) << 16 | (g as u32) << 8 | b as u32
}

/// Checks probes `(label, x, y, expected, max_diff)` on a full-size ([`Scene::render_full`])
/// image.
pub fn assert_probes_full(img: &Image, checks: &[(&str, u32, u32, u32, u32)]) {
    let failed: Vec<String> = checks
        .iter()
        .filter_map(|&(label, x, y, want, diff)| {
            let [r, g, b, _] = img.get(x, y);
            let got = (r as u32) << 16 | (g as u32) << 8 | b as u32;
            (!color_match(got, want, diff))
                .then(|| format!("{label} at ({x}, {y}): got {got:#08x}, expected {want:#08x}"))
        })
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Wine's `color_match`.
pub fn color_match(a: u32, b: u32, max_diff: u32) -> bool {
    (0..4).all(|i| ((a >> (8 * i)) & 0xFF).abs_diff((b >> (8 * i)) & 0xFF) <= max_diff)
}

/// Checks probes `(label, x, y, expected, max_diff)`; returns the failures as messages.
pub fn probes(img: &Image, checks: &[(&str, u32, u32, u32, u32)]) -> Vec<String> {
    checks
        .iter()
        .filter_map(|&(label, x, y, want, diff)| {
            let got = pixel(img, x, y);
            (!color_match(got, want, diff))
                .then(|| format!("{label} at ({x}, {y}): got {got:#08x}, expected {want:#08x}"))
        })
        .collect()
}

/// Asserts every probe passes.
pub fn assert_probes(img: &Image, checks: &[(&str, u32, u32, u32, u32)]) {
    let failed = probes(img, checks);
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// `TESTS`, every named function with its name, and a test of the harness calling each (the
/// functions of a scene test file are plain `pub fn`s: see [`tracing`]).
// Other test files share the harness but not their tests.
#[allow(unused_macros)]
macro_rules! scene_tests {
    ($($name:ident),* $(,)?) => {
        /// Every test of this file, by name.
        pub const TESTS: &[(&str, fn())] = &[$((stringify!($name), $name)),*];

        mod harness {
            $(
                #[test]
                fn $name() {
                    super::$name()
                }
            )*
        }
    };
}
#[allow(unused_imports)]
pub(crate) use scene_tests;

/// Asserts that `tests` names every `pub fn` of `source` (the text of a scene test file, whose
/// tests are its only `pub fn`s) and that no test hides from the list behind a test attribute.
pub fn check_listed(source: &str, tests: &[(&str, fn())]) {
    let mut found: Vec<&str> = source
        .split("\npub fn ")
        .skip(1)
        .filter_map(|rest| rest.split('(').next())
        .collect();
    let mut listed: Vec<&str> = tests.iter().map(|(n, _)| *n).collect();
    found.sort_unstable();
    listed.sort_unstable();
    assert_eq!(found, listed, "the TESTS list and the file's tests");
    assert!(
        !source.contains(concat!("#[", "test]")),
        "a test attribute: a crate including the file without the harness would not run it"
    );
}
