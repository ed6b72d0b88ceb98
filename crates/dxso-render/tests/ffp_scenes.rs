//! Fixed-function scenes beyond Wine's ports: every texture-stage operation against the
//! formulas of docs/SEMANTICS.md, texture coordinate generation, vertex blending, alpha test,
//! and the interpreter and the JIT agreeing to the bit on every scene's generated shaders.

pub mod wine;

use dxso_exec::Engine;
use dxso_render::ExecEngine;
use serde_json::json;
use wine::{f, pixel, Scene, IDENTITY};

/// A full-screen pre-transformed quad (strip) with a diffuse colour, a specular colour and one
/// texture coordinate pair.
fn screen_quad(diffuse: u32, specular: u32) -> Vec<u32> {
    [(0.0, 0.0), (160.0, 0.0), (0.0, 120.0), (160.0, 120.0)]
        .iter()
        .flat_map(|&(x, y)| {
            [
                f(x),
                f(y),
                f(0.5),
                f(1.0),
                diffuse,
                specular,
                f(0.5),
                f(0.5),
            ]
        })
        .collect()
}

fn rgba(c: u32) -> [f32; 4] {
    let b = |s: u32| ((c >> s) & 0xff) as f32 / 255.0;
    [b(16), b(8), b(0), b(24)]
}

/// One op on one channel with the arguments of the test below.
#[allow(clippy::too_many_arguments)]
fn expected(
    op: &str,
    a0: f32,
    a1: f32,
    a2: f32,
    a1_alpha: f32,
    d_alpha: f32,
    t_alpha: f32,
    f_alpha: f32,
    cur_alpha: f32,
) -> f32 {
    let v = match op {
        "SELECTARG1" | "PREMODULATE" => a1,
        "SELECTARG2" => a2,
        "MODULATE" => a1 * a2,
        "MODULATE2X" => 2.0 * a1 * a2,
        "MODULATE4X" => 4.0 * a1 * a2,
        "ADD" => a1 + a2,
        "ADDSIGNED" => a1 + a2 - 0.5,
        "ADDSIGNED2X" => 2.0 * (a1 + a2 - 0.5),
        "SUBTRACT" => a1 - a2,
        "ADDSMOOTH" => a1 + a2 - a1 * a2,
        "BLENDDIFFUSEALPHA" => a1 * d_alpha + a2 * (1.0 - d_alpha),
        "BLENDTEXTUREALPHA" => a1 * t_alpha + a2 * (1.0 - t_alpha),
        "BLENDFACTORALPHA" => a1 * f_alpha + a2 * (1.0 - f_alpha),
        "BLENDCURRENTALPHA" => a1 * cur_alpha + a2 * (1.0 - cur_alpha),
        "BLENDTEXTUREALPHAPM" => a1 + a2 * (1.0 - t_alpha),
        "MODULATEALPHA_ADDCOLOR" => a1 + a1_alpha * a2,
        "MODULATECOLOR_ADDALPHA" => a1 * a2 + a1_alpha,
        "MODULATEINVALPHA_ADDCOLOR" => (1.0 - a1_alpha) * a2 + a1,
        "MODULATEINVCOLOR_ADDALPHA" => (1.0 - a1) * a2 + a1_alpha,
        "MULTIPLYADD" => a0 + a1 * a2,
        "LERP" => a0 * a1 + (1.0 - a0) * a2,
        other => panic!("{other}"),
    };
    v.clamp(0.0, 1.0)
}

const OPS: [&str; 21] = [
    "SELECTARG1",
    "SELECTARG2",
    "MODULATE",
    "MODULATE2X",
    "MODULATE4X",
    "ADD",
    "ADDSIGNED",
    "ADDSIGNED2X",
    "SUBTRACT",
    "ADDSMOOTH",
    "BLENDDIFFUSEALPHA",
    "BLENDTEXTUREALPHA",
    "BLENDFACTORALPHA",
    "BLENDTEXTUREALPHAPM",
    "BLENDCURRENTALPHA",
    "PREMODULATE",
    "MODULATEALPHA_ADDCOLOR",
    "MODULATECOLOR_ADDALPHA",
    "MODULATEINVALPHA_ADDCOLOR",
    "MODULATEINVCOLOR_ADDALPHA",
    "MULTIPLYADD",
];

const TEXEL: u32 = 0x80_40_c0_20;
const DIFFUSE: u32 = 0x60_30_90_f0;
const TFACTOR: u32 = 0xa0_c0_20_60;

/// Stage 0: COLOROP `op` with ARG0 TFACTOR, ARG1 TEXTURE, ARG2 DIFFUSE.
fn op_scene(op: &str) -> Scene {
    let mut s = Scene::new();
    s.clear(0)
        .fvf(&["XYZRHW", "DIFFUSE", "SPECULAR", "TEX1"])
        .texture(0, 1, 1, &[TEXEL])
        .rs("TEXTUREFACTOR", json!(TFACTOR))
        .tss(0, "COLOROP", json!(op))
        .tss(0, "COLORARG0", json!("TFACTOR"))
        .tss(0, "COLORARG1", json!("TEXTURE"))
        .tss(0, "COLORARG2", json!("DIFFUSE"))
        .tss(0, "ALPHAOP", json!("SELECTARG2"))
        .tss(0, "ALPHAARG2", json!("DIFFUSE"))
        .draw(5, 2, &screen_quad(DIFFUSE, 0), 32);
    s
}

pub fn every_texture_op_matches_its_formula() {
    let (t, d, k) = (rgba(TEXEL), rgba(DIFFUSE), rgba(TFACTOR));
    let mut failures = Vec::new();
    for op in OPS.iter().chain(&["LERP", "DOTPRODUCT3"]) {
        let img = op_scene(op).render();
        let got = pixel(&img, 320, 240);
        let want: Vec<f32> = if *op == "DOTPRODUCT3" {
            let dot: f32 = (0..3).map(|i| (t[i] - 0.5) * (d[i] - 0.5)).sum::<f32>() * 4.0;
            vec![dot.clamp(0.0, 1.0); 3]
        } else {
            (0..3)
                .map(|i| expected(op, k[i], t[i], d[i], t[3], d[3], t[3], k[3], d[3]))
                .collect()
        };
        let want = want
            .iter()
            .fold(0u32, |acc, &x| acc << 8 | (x * 255.0).round() as u32);
        if !wine::color_match(got, want, 1) {
            failures.push(format!("{op}: got {got:#08x}, expected {want:#08x}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

pub fn argument_modifiers_temp_and_constant() {
    // Stage 0 writes COMPLEMENT(TEXTURE) to TEMP; stage 1 adds TEMP to the stage's CONSTANT's
    // replicated alpha; stage 2 selects CURRENT (still the diffuse colour) times TEMP.
    let mut s = Scene::new();
    s.clear(0)
        .fvf(&["XYZRHW", "DIFFUSE", "SPECULAR", "TEX1"])
        .texture(0, 1, 1, &[0xff_ff_80_00])
        .tss(0, "COLOROP", json!("SELECTARG1"))
        .tss(0, "COLORARG1", json!(0x12))
        .tss(0, "RESULTARG", json!("TEMP"))
        .tss(1, "COLOROP", json!("ADD"))
        .tss(1, "COLORARG1", json!("TEMP"))
        .tss(1, "COLORARG2", json!(0x26))
        .tss(1, "CONSTANT", json!(0x40_00_00_00u32))
        .tss(1, "RESULTARG", json!("TEMP"))
        .tss(2, "COLOROP", json!("MODULATE"))
        .tss(2, "COLORARG1", json!("CURRENT"))
        .tss(2, "COLORARG2", json!("TEMP"))
        .draw(5, 2, &screen_quad(0xff_80_80_80, 0), 32);
    // TEMP = (0, 0.498, 1) + 0.251 = (0.251, 0.749, 1); times diffuse 0.502.
    let got = pixel(&s.render(), 320, 240);
    assert!(wine::color_match(got, 0x00_20_60_80, 1), "{got:#08x}");
}

pub fn specular_add_and_alpha_test() {
    let mut s = Scene::new();
    s.clear(0xff0000ff)
        .fvf(&["XYZRHW", "DIFFUSE", "SPECULAR", "TEX1"])
        .tss(0, "COLOROP", json!("SELECTARG1"))
        .tss(0, "COLORARG1", json!("DIFFUSE"))
        .tss(0, "ALPHAOP", json!("SELECTARG1"))
        .tss(0, "ALPHAARG1", json!("DIFFUSE"))
        .rs("SPECULARENABLE", json!(true))
        .draw(5, 2, &screen_quad(0x80_40_00_00, 0x00_00_40_00), 32);
    assert!(wine::color_match(
        pixel(&s.render(), 320, 240),
        0x00_40_40_00,
        1
    ));
    // Alpha test GREATER 0x80 keeps the clear colour for a diffuse alpha of 0x80.
    s.rs("ALPHATESTENABLE", json!(true))
        .rs("ALPHAFUNC", json!("GREATER"))
        .rs("ALPHAREF", json!(0x80))
        .clear(0xff0000ff)
        .draw(5, 2, &screen_quad(0x80_ff_00_00, 0), 32);
    assert_eq!(pixel(&s.render(), 320, 240), 0x00_00_00_ff);
}

pub fn bump_env_map_perturbs_the_next_stage() {
    // Stage 0: a bump map of (du, dv) = (0.5, 0) (texel bytes as unsigned 0..1); matrix 0.5
    // moves stage 1's u by 0.25 from 0.5 to 0.75, into the right half of a 2 x 1 texture.
    let mut s = Scene::new();
    s.clear(0)
        .fvf(&["XYZRHW", "DIFFUSE", "SPECULAR", "TEX1"])
        .texture(0, 1, 1, &[0xff_80_00_00])
        .texture(1, 2, 1, &[0xff_ff_00_00, 0xff_00_ff_00])
        .tss(1, "MINFILTER", json!("POINT"))
        .tss(1, "MAGFILTER", json!("POINT"))
        .tss(0, "COLOROP", json!("BUMPENVMAP"))
        .tssf(0, "BUMPENVMAT00", 0.5)
        .tss(1, "COLOROP", json!("SELECTARG1"))
        .tss(1, "COLORARG1", json!("TEXTURE"))
        .tss(1, "TEXCOORDINDEX", json!(0))
        .draw(5, 2, &screen_quad(0xffffffff, 0), 32);
    let got = pixel(&s.render(), 320, 240);
    assert_eq!(got, 0x00_00_ff_00, "the right texel");
}

/// Vertices (position, normal) of a quad at z = 0.5 facing the camera.
fn quad_with_normal(normal: [f32; 3]) -> Vec<u32> {
    [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)]
        .iter()
        .flat_map(|&(x, y)| [f(x), f(y), f(0.5), f(normal[0]), f(normal[1]), f(normal[2])])
        .collect()
}

pub fn camera_space_normal_generation_with_a_texture_transform() {
    // TCI CAMERASPACENORMAL with COUNT2: the normal (0.25, 0.75, 0) selects the texel of a
    // 2 x 2 texture at (0.25, 0.75): bottom left.
    let mut s = Scene::new();
    s.clear(0)
        .rs("LIGHTING", json!(false))
        .fvf(&["XYZ", "NORMAL"])
        .texture(0, 2, 2, &[0xffff0000, 0xff00ff00, 0xff0000ff, 0xffffffff])
        .tss(0, "MINFILTER", json!("POINT"))
        .tss(0, "MAGFILTER", json!("POINT"))
        .tss(0, "COLOROP", json!("SELECTARG1"))
        .tss(0, "TEXCOORDINDEX", json!(0x10000))
        .tss(0, "TEXTURETRANSFORMFLAGS", json!(2))
        .transform("TEXTURE0", IDENTITY)
        .draw(5, 2, &quad_with_normal([0.25, 0.75, 0.0]), 24);
    assert_eq!(pixel(&s.render(), 320, 240), 0x00_00_00_ff);
}

pub fn vertex_blending_mixes_two_world_matrices() {
    // XYZB1: one weight, two matrices; world 1 moves x by +2, weight 0.75 for world 0 moves
    // the quad's left half out: x' = x + 2 * 0.25 = x + 0.5.
    let mut world1 = IDENTITY;
    world1[12] = 2.0;
    let mut s = Scene::new();
    s.clear(0xff000000)
        .rs("LIGHTING", json!(false))
        .rs("VERTEXBLEND", json!(1))
        .transform("WORLD1", world1)
        .fvf(&["XYZB1", "DIFFUSE"]);
    let v: Vec<u32> = [(-1.0, -1.0), (-1.0, 1.0), (0.0, -1.0), (0.0, 1.0)]
        .iter()
        .flat_map(|&(x, y)| [f(x), f(y), f(0.5), f(0.75), 0xff00ff00])
        .collect();
    s.draw(5, 2, &v, 20);
    let img = s.render();
    assert_eq!(
        pixel(&img, 100, 240),
        0,
        "x = -0.7 is left of the moved quad"
    );
    assert_eq!(pixel(&img, 300, 240), 0x0000ff00, "x = -0.06 is inside it");
}

/// Every scene of this file and a sample of Wine's, on the interpreter and the JIT: the same
/// pixels.
pub fn generated_shaders_agree_on_interpreter_and_jit() {
    let mut scenes: Vec<(String, Scene)> = OPS
        .iter()
        .chain(&["LERP", "DOTPRODUCT3"])
        .map(|op| (op.to_string(), op_scene(op)))
        .collect();
    let mut lit = Scene::new();
    lit.fvf(&["XYZ", "NORMAL"])
        .rs("SPECULARENABLE", json!(true))
        .material(json!({"diffuse": [0.5, 0.5, 1.0, 1.0], "specular": [1.0, 1.0, 1.0, 1.0], "power": 12.0}))
        .light(0, json!({"type": "SPOT", "diffuse": [1.0, 0.5, 0.25, 1.0], "specular": [1.0, 1.0, 1.0, 1.0],
            "position": [0.2, 0.1, -0.5], "direction": [0.0, 0.0, 1.0], "range": 10.0, "falloff": 2.0,
            "attenuation0": 0.5, "attenuation1": 0.5, "theta": 0.4, "phi": 1.2}))
        .light_enable(0, true)
        .light(1, json!({"type": "POINT", "diffuse": [0.0, 0.5, 0.0, 1.0], "position": [-0.5, 0.5, -0.2],
            "range": 3.0, "attenuation0": 1.0, "attenuation2": 0.5}))
        .light_enable(1, true)
        .rs("FOGENABLE", json!(true))
        .rs("FOGVERTEXMODE", json!("EXP2"))
        .rsf("FOGDENSITY", 0.8)
        .rs("FOGCOLOR", json!(0xff336699u32))
        .clear(0)
        .draw(5, 2, &quad_with_normal([0.1, -0.2, -1.0]), 24);
    scenes.push(("lit and fogged".into(), lit));
    let interpreter = ExecEngine::with_engine(Engine::Interpreter);
    let jit = ExecEngine::with_engine(Engine::Jit);
    for (name, scene) in &scenes {
        let a = scene.render_with(&interpreter);
        let b = scene.render_with(&jit);
        let differ = (0..wine::H)
            .flat_map(|y| (0..wine::W).map(move |x| (x, y)))
            .filter(|&(x, y)| a.get(x, y) != b.get(x, y))
            .count();
        assert_eq!(differ, 0, "{name}: {differ} pixels differ");
        // DOTPRODUCT3 of these colours is negative: black, alpha 0, like the clear.
        assert!(
            name == "DOTPRODUCT3"
                || (0..wine::H).any(|y| (0..wine::W).any(|x| a.get(x, y) != [0, 0, 0, 0])),
            "{name} draws something"
        );
    }
}

/// Hostile fixed-function states: errors naming the state, or a picture, never a panic.
pub fn hostile_fixed_function_states_are_errors_not_panics() {
    let render = |s: &Scene| -> Result<(), String> {
        let capture = dxso_dp2::describe::build(&s.json()).map_err(|e| e.to_string())?;
        let engine = wine::engine();
        let mut r = dxso_render::Renderer::new(16, 16, Some(&engine), Default::default())
            .map_err(|e| e.to_string())?;
        r.render_capture(&capture).map_err(|e| e.to_string())
    };
    let base = || {
        let mut s = Scene::new();
        s.fvf(&["XYZ", "NORMAL"]).clear(0);
        s
    };
    let draw = |s: &mut Scene| {
        s.draw(5, 2, &quad_with_normal([0.0, 0.0, -1.0]), 24);
    };
    // Matrices whose products overflow to infinities and NaNs (JSON has no NaN): the picture
    // may be empty, but the render finishes.
    let mut s = base();
    s.transform("WORLD", [f32::MAX; 16]);
    s.transform("PROJECTION", [-f32::MAX; 16]);
    draw(&mut s);
    assert!(render(&s).is_ok());
    // Nine lights: more than the pipeline runs at once.
    let mut s = base();
    for i in 0..9 {
        s.light_enable(i, true);
    }
    draw(&mut s);
    let e = render(&s).unwrap_err();
    assert!(e.contains("9 lights"), "{e}");
    // No lights with lighting on: ambient and emissive only.
    let mut s = base();
    draw(&mut s);
    assert!(render(&s).is_ok());
    // A light type that does not exist.
    let mut s = base();
    s.light(0, json!({"type": 7})).light_enable(0, true);
    draw(&mut s);
    let e = render(&s).unwrap_err();
    assert!(e.contains("light type"), "{e}");
    // A huge light index is refused by the device.
    let mut s = base();
    s.light_enable(1 << 30, true);
    assert!(render(&s).unwrap_err().contains("light index"));
    // Bad FVF codes.
    for fvf in [1u32, 0x2000, 0x0F02, 0x1002] {
        let mut s = Scene::new();
        s.op(json!({"op": "SETVERTEXSHADER", "fvf": fvf}));
        let e = render(&s).unwrap_err();
        assert!(e.contains("FVF code"), "{fvf:#x}: {e}");
    }
    // An unknown texture op, a tweening blend, user clip planes with a singular projection:
    // named.
    for (what, name) in [
        ("COLOROP", "COLOROP"),
        ("VERTEXBLEND", "TWEENING"),
        ("CLIPPLANEENABLE", "CLIPPLANEENABLE"),
    ] {
        let mut s = base();
        match what {
            "COLOROP" => {
                s.tss(0, "COLOROP", json!(99));
            }
            "VERTEXBLEND" => {
                s.fvf(&["XYZB1", "NORMAL"]).rs("VERTEXBLEND", json!(255));
            }
            _ => {
                // World-space planes cannot reach clip space through a singular projection.
                s.rs("CLIPPLANEENABLE", json!(1))
                    .transform("PROJECTION", [0.0; 16]);
            }
        }
        if what == "VERTEXBLEND" {
            let v: Vec<u32> = [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)]
                .iter()
                .flat_map(|&(x, y)| [f(x), f(y), f(0.5), f(0.5), f(0.0), f(0.0), f(-1.0)])
                .collect();
            s.draw(5, 2, &v, 28);
        } else {
            draw(&mut s);
        }
        let e = render(&s).unwrap_err();
        assert!(e.contains(name), "{what}: {e}");
    }
    // NaN fog (by its bits) and extreme material values draw.
    let mut s = base();
    s.rs("FOGENABLE", json!(true))
        .rs("FOGVERTEXMODE", json!("LINEAR"))
        .rs("FOGSTART", json!(f32::NAN.to_bits()))
        .material(json!({"power": f32::MAX}));
    draw(&mut s);
    assert!(render(&s).is_ok());
}

/// A pre-transformed quad over pixels `x0..x1` x `y0..y1` at depth `z`, clockwise triangles
/// (or counter-clockwise with `ccw`).
fn rhw_quad(s: &mut Scene, [x0, y0, x1, y1]: [f32; 4], z: f32, color: u32, ccw: bool) {
    s.fvf(&["XYZRHW", "DIFFUSE"]);
    let corners = if ccw {
        [(x0, y0), (x0, y1), (x1, y0), (x1, y1)]
    } else {
        [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]
    };
    let v: Vec<u32> = corners
        .iter()
        .flat_map(|&(x, y)| [f(x), f(y), f(z), f(1.0), color])
        .collect();
    s.draw(5, 2, &v, 20);
}

/// Every D3DSTENCILOP on the fail, z-fail and pass paths, with a write mask, against the
/// table of the D3DSTENCILOP page, read back from the stencil buffer.
pub fn stencil_every_op_on_every_path() {
    let ops = [
        "KEEP", "ZERO", "REPLACE", "INCRSAT", "DECRSAT", "INVERT", "INCR", "DECR",
    ];
    let expect = |op: &str, v: u8, reference: u8| -> u8 {
        match op {
            "KEEP" => v,
            "ZERO" => 0,
            "REPLACE" => reference,
            "INCRSAT" => v.saturating_add(1),
            "DECRSAT" => v.saturating_sub(1),
            "INVERT" => !v,
            "INCR" => v.wrapping_add(1),
            _ => v.wrapping_sub(1),
        }
    };
    for start in [0u8, 0x7f, 0xff] {
        for write_mask in [0xffu8, 0x0f] {
            for path in ["STENCILFAIL", "STENCILZFAIL", "STENCILPASS"] {
                let mut s = Scene::new();
                s.rs("ZENABLE", json!(true))
                    .clear_all(0xff000000, 0.5, start as u32);
                s.rs("STENCILENABLE", json!(true))
                    .rs("STENCILREF", json!(0x15a))
                    .rs("STENCILWRITEMASK", json!(write_mask as u32 | 0xff00))
                    .rs(
                        "STENCILFUNC",
                        json!(if path == "STENCILFAIL" {
                            "NEVER"
                        } else {
                            "ALWAYS"
                        }),
                    )
                    .rs(
                        "ZFUNC",
                        json!(if path == "STENCILZFAIL" {
                            "NEVER"
                        } else {
                            "ALWAYS"
                        }),
                    );
                // One column per op, each with the op on `path` and INVERT on the others (so a
                // wrong path shows).
                for (k, op) in ops.iter().enumerate() {
                    for p in ["STENCILFAIL", "STENCILZFAIL", "STENCILPASS"] {
                        s.rs(p, json!(if p == path { *op } else { "INVERT" }));
                    }
                    let x = 20.0 * k as f32;
                    rhw_quad(&mut s, [x, 0.0, x + 20.0, 120.0], 0.2, 0xff00ff00, false);
                }
                let t = s.render_target();
                for (k, op) in ops.iter().enumerate() {
                    let full = expect(op, start, 0x5a);
                    let want = (start & !write_mask) | (full & write_mask);
                    let got = t.stencil(20 * k as u32 + 10, 60);
                    assert_eq!(
                        got, want,
                        "{op} on {path}, from {start:#x}, mask {write_mask:#x}"
                    );
                }
            }
        }
    }
}

/// Every D3DCMPFUNC as the stencil test, with STENCILMASK applied to both sides: a green quad
/// shows where the test passes.
pub fn stencil_every_func_with_mask() {
    let funcs = [
        "NEVER",
        "LESS",
        "EQUAL",
        "LESSEQUAL",
        "GREATER",
        "NOTEQUAL",
        "GREATEREQUAL",
        "ALWAYS",
    ];
    // The buffer holds 0xA5; the mask 0x0F makes it 5; the references are 4, 5 and 6 after the
    // mask (their high bits differ from the buffer's, and the mask hides them).
    for reference in [0x34u32, 0x45, 0x56] {
        let mut s = Scene::new();
        s.clear_all(0xff000000, 1.0, 0xa5)
            .rs("STENCILENABLE", json!(true))
            .rs("STENCILMASK", json!(0x0f))
            .rs("STENCILREF", json!(reference));
        for (k, func) in funcs.iter().enumerate() {
            s.rs("STENCILFUNC", json!(*func));
            let x = 20.0 * k as f32;
            rhw_quad(&mut s, [x, 0.0, x + 20.0, 120.0], 0.5, 0xff00ff00, false);
        }
        let img = s.render();
        let (r, b) = (reference & 0xf, 5u32);
        for (k, func) in funcs.iter().enumerate() {
            let passes = match *func {
                "NEVER" => false,
                "LESS" => r < b,
                "EQUAL" => r == b,
                "LESSEQUAL" => r <= b,
                "GREATER" => r > b,
                "NOTEQUAL" => r != b,
                "GREATEREQUAL" => r >= b,
                _ => true,
            };
            let got = pixel(&img, 4 * (20 * k as u32 + 10), 240);
            let want = if passes { 0x0000ff00 } else { 0 };
            assert_eq!(got, want, "{func} with reference {reference:#x}");
        }
    }
}

/// Two-sided stencil on pre-transformed triangles: clockwise ones take STENCILPASS,
/// counter-clockwise ones CCW_STENCILPASS; with the mode off both take STENCILPASS. A stencil
/// clear inside a rectangle leaves the rest.
pub fn stencil_two_sided_and_clear_rect() {
    for two_sided in [true, false] {
        let mut s = Scene::new();
        s.clear_all(0xff000000, 1.0, 0x10)
            .op(json!({"op": "CLEAR", "flags": ["STENCIL"], "stencil": 0x40,
                "rects": [[0, 100, 160, 120]]}))
            .rs("STENCILENABLE", json!(true))
            .rs("TWOSIDEDSTENCILMODE", json!(two_sided))
            .rs("STENCILFUNC", json!("ALWAYS"))
            .rs("CCW_STENCILFUNC", json!("ALWAYS"))
            .rs("STENCILPASS", json!("INCR"))
            .rs("CCW_STENCILPASS", json!("DECR"));
        rhw_quad(&mut s, [0.0, 0.0, 80.0, 60.0], 0.5, 0xffff0000, false);
        rhw_quad(&mut s, [80.0, 0.0, 160.0, 60.0], 0.5, 0xffff0000, true);
        let t = s.render_target();
        assert_eq!(t.stencil(40, 30), 0x11, "clockwise");
        assert_eq!(
            t.stencil(120, 30),
            if two_sided { 0x0f } else { 0x11 },
            "counter-clockwise, two-sided {two_sided}"
        );
        assert_eq!(t.stencil(40, 80), 0x10, "untouched");
        assert_eq!(t.stencil(40, 110), 0x40, "cleared rectangle");
    }
}

/// FILLMODE WIREFRAME draws a triangle's edges (the inside keeps the clear colour), POINT its
/// vertices; both cull as solid triangles do.
pub fn fill_modes_wireframe_and_point() {
    for (mode, cull) in [
        ("WIREFRAME", "NONE"),
        ("POINT", "NONE"),
        ("WIREFRAME", "CW"),
    ] {
        let mut s = Scene::new();
        s.clear_all(0xff000000, 1.0, 0)
            .rs("FILLMODE", json!(mode))
            .rs("CULLMODE", json!(cull));
        rhw_quad(&mut s, [20.5, 20.5, 140.5, 100.5], 0.5, 0xff00ff00, false);
        let img = s.render();
        let green = 0x0000ff00;
        let at = |x: u32, y: u32| pixel(&img, 4 * x, 4 * y);
        if cull == "CW" {
            // The quad's triangles are clockwise: nothing is drawn.
            assert_eq!(at(80, 20), 0, "{mode} culled");
            continue;
        }
        assert_eq!(at(80, 60), 0, "{mode}: the inside is not filled");
        assert_eq!(at(20, 20), green, "{mode}: a corner");
        if mode == "WIREFRAME" {
            assert_eq!(at(80, 20), green, "top edge");
            assert_eq!(at(20, 60), green, "left edge");
        } else {
            assert_eq!(at(80, 20), 0, "no edge between the points");
            assert_eq!(at(140, 100), green, "the far corner");
        }
    }
}

/// SRGBWRITEENABLE encodes the written colour (0.5 becomes 0xbc, 0.25 0x89; alpha as it is);
/// blending reads the stored value.
pub fn srgb_write_encodes_after_blending() {
    let mut s = Scene::new();
    s.clear_all(0xff000000, 1.0, 0)
        .rs("SRGBWRITEENABLE", json!(true))
        // Stage 0's alpha is the diffuse alpha.
        .tss(0, "ALPHAOP", json!("SELECTARG1"))
        .tss(0, "ALPHAARG1", json!("DIFFUSE"));
    rhw_quad(&mut s, [0.0, 0.0, 80.0, 120.0], 0.5, 0x80804000, false);
    s.rs("ALPHABLENDENABLE", json!(true))
        .rs("SRCBLEND", json!("ONE"))
        .rs("DESTBLEND", json!("ZERO"));
    rhw_quad(&mut s, [80.0, 0.0, 160.0, 120.0], 0.5, 0x80804000, false);
    let img = s.render();
    for x in [40, 120] {
        let [r, g, b, a] = img.get(x, 60);
        assert_eq!([r, g, b, a], [0xbc, 0x89, 0, 0x80], "x = {x}");
    }
}

/// User clip planes: a shaderless draw's plane is in world space (the view translation moves
/// the clipped half with the geometry), and CLIPPLANEENABLE picks which of the planes apply.
pub fn user_clip_planes_in_world_space() {
    for (view_dx, enable, edge) in [(0.0f32, 1u32, 80u32), (0.5, 1, 120), (0.0, 2, 0)] {
        let mut s = Scene::new();
        let mut view = IDENTITY;
        view[12] = view_dx;
        s.transform("WORLD", IDENTITY)
            .transform("VIEW", view)
            .transform("PROJECTION", IDENTITY)
            .rs("LIGHTING", json!(false))
            .clear_all(0xff000000, 1.0, 0)
            // Plane 0 keeps world x >= 0; plane 1 keeps everything.
            .op(json!({"op": "SETCLIPPLANE", "index": 0, "plane": [1.0, 0.0, 0.0, 0.0]}))
            .op(json!({"op": "SETCLIPPLANE", "index": 1, "plane": [0.0, 0.0, 0.0, 1.0]}))
            .rs("CLIPPLANEENABLE", json!(enable))
            .fvf(&["XYZ", "DIFFUSE"]);
        let v: Vec<u32> = [(-2.0, -1.0), (2.0, -1.0), (-2.0, 1.0), (2.0, 1.0)]
            .iter()
            .flat_map(|&(x, y)| [f(x), f(y), f(0.5), 0xff00ff00])
            .collect();
        s.draw(5, 2, &v, 16);
        let img = s.render();
        // World x = 0 lands at screen column 80 + 80 * view_dx.
        for x in [2u32, 40, 78, 82, 118, 122, 158] {
            let want = if x >= edge { 0x0000ff00 } else { 0 };
            assert_eq!(
                pixel(&img, 4 * x, 240),
                want,
                "view dx {view_dx}, column {x}"
            );
        }
    }
}

/// ZENABLE USEW: depth is w over the far plane's w. Two overlapping quads at view depths 2
/// and 4 with a perspective projection (near 1, far 10): the nearer one wins whatever the
/// drawing order, and the stored depth is w / 10.
pub fn w_buffer_orders_by_w() {
    let (near, far) = (1.0f32, 10.0f32);
    let q = far / (far - near);
    let proj = [
        1.0,
        0.0,
        0.0,
        0.0,
        0.0,
        1.0,
        0.0,
        0.0,
        0.0,
        0.0,
        q,
        1.0,
        0.0,
        0.0,
        -q * near,
        0.0,
    ];
    for order in [[2.0f32, 4.0], [4.0, 2.0]] {
        let mut s = Scene::new();
        s.transform("WORLD", IDENTITY)
            .transform("VIEW", IDENTITY)
            .transform("PROJECTION", proj)
            .rs("LIGHTING", json!(false))
            .rs("ZENABLE", json!("USEW"))
            .clear_all(0xff000000, 1.0, 0)
            .fvf(&["XYZ", "DIFFUSE"]);
        for z in order {
            let c = if z == 2.0 { 0xff00ff00 } else { 0xffff0000 };
            let v: Vec<u32> = [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)]
                .iter()
                .flat_map(|&(x, y)| [f(x * z), f(y * z), f(z), c])
                .collect();
            s.draw(5, 2, &v, 16);
        }
        let t = s.render_target();
        let (color, depth) = t.pixel(80, 60);
        assert_eq!(color, [0, 255, 0, 255], "order {order:?}");
        assert!((depth - 0.2).abs() < 1e-5, "depth {depth}");
    }
    // An orthographic projection has no far w: refused, naming the state.
    let mut s = Scene::new();
    s.rs("ZENABLE", json!("USEW")).fvf(&["XYZ", "DIFFUSE"]);
    let v: Vec<u32> = [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0)]
        .iter()
        .flat_map(|&(x, y)| [f(x), f(y), f(0.5), 0xff00ff00])
        .collect();
    s.draw(4, 1, &v, 16);
    let capture = dxso_dp2::describe::build(&s.json()).unwrap();
    let engine = wine::engine();
    let mut r = dxso_render::Renderer::new(16, 16, Some(&engine), Default::default()).unwrap();
    let e = r.render_capture(&capture).unwrap_err().to_string();
    assert!(e.contains("USEW"), "{e}");
}

/// A shaderless point at the centre of the target (identity transforms) in a clear target.
fn centre_point(s: &mut Scene) {
    s.transform("WORLD", IDENTITY)
        .transform("VIEW", IDENTITY)
        .transform("PROJECTION", IDENTITY)
        .rs("LIGHTING", json!(false))
        .fvf(&["XYZ"]);
    s.draw(1, 1, &[f(0.0), f(0.0), f(0.5)], 12);
}

/// POINTSPRITEENABLE: texture coordinates run (0, 0) at the sprite's top left to (1, 1) at
/// its bottom right, so a 2x2 texture shows its four texels in the four quarters.
pub fn point_sprite_spans_the_texture() {
    let mut s = Scene::new();
    s.clear_all(0xff000000, 1.0, 0)
        .texture(0, 2, 2, &[0xffff0000, 0xff00ff00, 0xff0000ff, 0xffffffff])
        .rs("POINTSPRITEENABLE", json!(true))
        .rsf("POINTSIZE", 16.0);
    centre_point(&mut s);
    let img = s.render();
    let at = |x: u32, y: u32| pixel(&img, 4 * x, 4 * y);
    assert_eq!(at(76, 56), 0x00ff0000, "top left");
    assert_eq!(at(84, 56), 0x0000ff00, "top right");
    assert_eq!(at(76, 64), 0x000000ff, "bottom left");
    assert_eq!(at(84, 64), 0x00ffffff, "bottom right");
    assert_eq!(at(70, 60), 0, "outside");
}

/// POINTSCALEENABLE: size = POINTSIZE x viewport height x sqrt(1 / (A + B d + C d^2)), d the
/// camera-space distance, then clamped to POINTSIZE_MIN..POINTSIZE_MAX.
pub fn point_scale_and_size_clamp() {
    // 0.1 x 120 x sqrt(1 / (16 x 0.25)) = 6 pixels; POINTSIZE_MAX 4 makes it 4.
    for (max, inside, outside) in [
        (64.0f32, [78u32, 82], [75u32, 85]),
        (4.0, [79, 81], [77, 83]),
    ] {
        let mut s = Scene::new();
        s.clear_all(0xff000000, 1.0, 0)
            .rs("POINTSCALEENABLE", json!(true))
            .rsf("POINTSCALE_A", 0.0)
            .rsf("POINTSCALE_B", 0.0)
            .rsf("POINTSCALE_C", 16.0)
            .rsf("POINTSIZE", 0.1)
            .rsf("POINTSIZE_MAX", max);
        centre_point(&mut s);
        let img = s.render();
        for x in inside {
            assert_eq!(pixel(&img, 4 * x, 240), 0x00ffffff, "max {max}: column {x}");
        }
        for x in outside {
            assert_eq!(pixel(&img, 4 * x, 240), 0, "max {max}: column {x}");
        }
    }
}

/// DEPTHBIAS moves a coplanar second draw in front (LESS passes with a negative bias);
/// SLOPESCALEDEPTHBIAS scales the primitive's depth slope, 0 on a flat quad.
pub fn depth_bias_resolves_coplanar_draws() {
    for (bias, slope, want) in [
        (0.0f32, 0.0f32, [0u8, 255, 0, 255]),
        (-0.01, 0.0, [255, 0, 0, 255]),
        (0.0, -100.0, [0, 255, 0, 255]),
    ] {
        let mut s = Scene::new();
        s.rs("ZENABLE", json!(true))
            .rs("ZFUNC", json!("LESS"))
            .clear_all(0xff000000, 1.0, 0);
        rhw_quad(&mut s, [0.0, 0.0, 160.0, 120.0], 0.5, 0xff00ff00, false);
        s.rsf("DEPTHBIAS", bias).rsf("SLOPESCALEDEPTHBIAS", slope);
        rhw_quad(&mut s, [0.0, 0.0, 160.0, 120.0], 0.5, 0xffff0000, false);
        let t = s.render_target();
        assert_eq!(t.pixel(80, 60).0, want, "bias {bias}, slope {slope}");
    }
}

/// D3DRS_WRAPn: with WRAP0's u bit, u from 0.9 to 0.1 across the target goes the short way
/// (0.9 to 1.1) instead of back through 0.5; a 4-texel texture (red, green, blue, white) shows
/// which. A value outside the four bits is an error naming the state.
pub fn wrap_takes_the_short_way_round() {
    for wrap in [0u32, 1] {
        let mut s = Scene::new();
        s.clear_all(0xff000000, 1.0, 0)
            .texture(0, 4, 1, &[0xffff0000, 0xff00ff00, 0xff0000ff, 0xffffffff])
            .rs("WRAP0", json!(wrap))
            .fvf(&["XYZRHW", "TEX1"]);
        let v: Vec<u32> = [
            (0.0, 0.0, 0.9),
            (160.0, 0.0, 0.1),
            (0.0, 120.0, 0.9),
            (160.0, 120.0, 0.1),
        ]
        .iter()
        .flat_map(|&(x, y, u)| [f(x), f(y), f(0.5), f(1.0), f(u), f(0.5)])
        .collect();
        s.draw(5, 2, &v, 24);
        let img = s.render();
        let at = |x: u32| pixel(&img, 4 * x, 240);
        let want = if wrap == 0 {
            [0x00ffffff, 0x000000ff, 0x0000ff00, 0x00ff0000]
        } else {
            [0x00ffffff, 0x00ffffff, 0x00ff0000, 0x00ff0000]
        };
        for (x, w) in [20u32, 60, 100, 140].into_iter().zip(want) {
            assert_eq!(at(x), w, "WRAP0 = {wrap}, column {x}");
        }
    }
    let mut s = Scene::new();
    s.rs("WRAP3", json!(0x10));
    rhw_quad(&mut s, [0.0, 0.0, 16.0, 16.0], 0.5, 0xff00ff00, false);
    let capture = dxso_dp2::describe::build(&s.json()).unwrap();
    let engine = wine::engine();
    let mut r = dxso_render::Renderer::new(16, 16, Some(&engine), Default::default()).unwrap();
    let e = r.render_capture(&capture).unwrap_err().to_string();
    assert!(e.contains("WRAP3"), "{e}");
}

/// SCISSORTESTENABLE with SETSCISSORRECT: draws and clears stay inside the rectangle (right
/// and bottom exclusive); with the test off the rectangle does nothing; with no rectangle set
/// the whole target is inside.
pub fn scissor_rect_limits_draws_and_clears() {
    for (enable, rect) in [
        (true, Some([41, 31, 119, 89])),
        (false, Some([41, 31, 119, 89])),
        (true, None),
    ] {
        let mut s = Scene::new();
        s.clear_all(0xff000000, 1.0, 0);
        if let Some(r) = rect {
            s.op(json!({"op": "SETSCISSORRECT", "rect": r}));
        }
        s.rs("SCISSORTESTENABLE", json!(enable));
        s.op(json!({"op": "CLEAR", "flags": ["TARGET"], "color": 0xff0000ffu32}));
        rhw_quad(&mut s, [0.0, 0.0, 160.0, 60.0], 0.5, 0xff00ff00, false);
        let t = s.render_target();
        let at = |x: u32, y: u32| t.pixel(x, y).0;
        let (blue, green, black) = ([0, 0, 255, 255], [0, 255, 0, 255], [0, 0, 0, 255]);
        let scissored = enable && rect.is_some();
        let what = format!("enable {enable}, rect {rect:?}");
        assert_eq!(at(41, 31), green, "{what}: inside, top left");
        assert_eq!(at(118, 59), green, "{what}: inside, the quad's last row");
        assert_eq!(at(118, 88), blue, "{what}: inside, cleared");
        for (x, y) in [(40, 31), (41, 30), (119, 40), (60, 89)] {
            let want = if scissored {
                black
            } else if y < 60 {
                green
            } else {
                blue
            };
            assert_eq!(at(x, y), want, "{what}: ({x}, {y})");
        }
    }
}

/// Shader tokens from assembly.
fn tokens(text: &str) -> Vec<u32> {
    let bytes = dxso::encode(&dxso_text::parse(text).unwrap_or_else(|d| panic!("{d}")));
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// FOGENABLE after a pixel shader: with a ps_3_0 the shader does its own fog and Direct3D 9
/// blends none; before ps_3_0 fog is blended into the shader's colour: table fog from the
/// pixel's depth (LINEAR 0..1 at z 0.5: half), vertex fog from the vertex shader's oFog (0.25),
/// and vertex fog without an oFog is an error naming it.
pub fn fog_after_a_pixel_shader() {
    let vs3 = "vs_3_0\ndcl_position v0\ndcl_position o0\nmov o0, v0\n";
    let vs2 = "vs_2_0\ndcl_position v0\ndef c0, 0.25, 0, 0, 0\nmov oPos, v0\nmov oFog, c0.x\n";
    let vs2_no_fog = "vs_2_0\ndcl_position v0\nmov oPos, v0\n";
    let ps3 = "ps_3_0\ndef c0, 0, 1, 0, 1\nmov oC0, c0\n";
    let ps2 = "ps_2_0\ndef c0, 0, 1, 0, 1\nmov oC0, c0\n";
    for (vs, ps, table, want) in [
        (vs3, ps3, "LINEAR", Ok([0u8, 255, 0, 255])),
        (vs2, ps2, "LINEAR", Ok([128, 128, 0, 255])),
        (vs2, ps2, "NONE", Ok([191, 64, 0, 255])),
        (vs2_no_fog, ps2, "NONE", Err("oFog")),
    ] {
        let mut s = Scene::new();
        s.clear_all(0xff000000, 1.0, 0)
            .rs("FOGENABLE", json!(true))
            .rs("FOGTABLEMODE", json!(table))
            .rsf("FOGSTART", 0.0)
            .rsf("FOGEND", 1.0)
            .rs("FOGCOLOR", json!(0xffff0000u32))
            .fvf(&["XYZ"])
            .op(json!({"op": "CREATEVERTEXSHADERFUNC", "handle": 1, "tokens": tokens(vs)}))
            .op(json!({"op": "SETVERTEXSHADERFUNC", "handle": 1}))
            .op(json!({"op": "CREATEPIXELSHADER", "handle": 2, "tokens": tokens(ps)}))
            .op(json!({"op": "SETPIXELSHADER", "handle": 2}));
        let v: Vec<u32> = [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)]
            .iter()
            .flat_map(|&(x, y)| [f(x), f(y), f(0.5)])
            .collect();
        s.draw(5, 2, &v, 12);
        let capture = dxso_dp2::describe::build(&s.json()).unwrap();
        let engine = wine::engine();
        let mut r = dxso_render::Renderer::new(16, 16, Some(&engine), Default::default()).unwrap();
        match (r.render_capture(&capture), want) {
            (Ok(()), Ok(c)) => assert_eq!(r.image().get(8, 8), c, "{ps} table {table}"),
            (Err(e), Err(name)) => assert!(e.to_string().contains(name), "{e}"),
            (got, _) => panic!("{vs} {ps} table {table}: {got:?}"),
        }
    }
}

// The tests: plain functions, so that another crate including this file without the test
// harness (dxso-gpu's differential test of the scenes' shaders) can run them all from `TESTS`.
wine::scene_tests!(
    every_texture_op_matches_its_formula,
    argument_modifiers_temp_and_constant,
    specular_add_and_alpha_test,
    bump_env_map_perturbs_the_next_stage,
    camera_space_normal_generation_with_a_texture_transform,
    vertex_blending_mixes_two_world_matrices,
    generated_shaders_agree_on_interpreter_and_jit,
    hostile_fixed_function_states_are_errors_not_panics,
    stencil_every_op_on_every_path,
    stencil_every_func_with_mask,
    stencil_two_sided_and_clear_rect,
    fill_modes_wireframe_and_point,
    srgb_write_encodes_after_blending,
    user_clip_planes_in_world_space,
    w_buffer_orders_by_w,
    point_sprite_spans_the_texture,
    point_scale_and_size_clamp,
    depth_bias_resolves_coplanar_draws,
    wrap_takes_the_short_way_round,
    scissor_rect_limits_draws_and_clears,
    fog_after_a_pixel_shader,
    every_test_is_listed,
);

/// Every `pub fn` of this file is a test in `TESTS`.
pub fn every_test_is_listed() {
    wine::check_listed(include_str!("ffp_scenes.rs"), TESTS);
}
