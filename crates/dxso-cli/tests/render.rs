//! `dxso render` draws a user's stream built with `dxso dp2 build` from JSON, and `dxso demo`
//! writes the teapot image.
use std::path::{Path, PathBuf};
use std::process::Command;

fn dxso(args: &[&str], dir: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dxso"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn render_tests(p: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../dxso-render/tests")
        .join(p)
        .display()
        .to_string()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxso-render-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn render_draws_a_stream_built_from_json() {
    let dir = temp("json");
    let (code, _, err) = dxso(
        &[
            "dp2",
            "build",
            &render_tests("scenes/depth.json"),
            "-o",
            "depth.dp2",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    let vs = render_tests("scenes/colour.vs.asm");
    let ps = render_tests("scenes/colour.ps.asm");
    let render = |before: &[&str], after: &[&str]| {
        let mut args = before.to_vec();
        args.extend([
            "render",
            "depth.dp2",
            "--vs",
            vs.as_str(),
            "--ps",
            ps.as_str(),
        ]);
        args.extend(after);
        dxso(&args, &dir)
    };
    let (code, out, err) = render(&[], &["--size", "128x128", "-o", "depth.png"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("pixels:") && out.contains("draws: 1"), "{out}");
    // The library's golden image of the same scene, pixel for pixel.
    let png = std::fs::read(dir.join("depth.png")).unwrap();
    let golden = std::fs::read(render_tests("golden/depth.png")).unwrap();
    let decode = |b: &[u8]| dxso_render::Image::from_png(b).unwrap();
    assert_eq!(decode(&png), decode(&golden));
    // The interpreter draws the same picture as the JIT (the default), byte for byte.
    let (code, _, err) = render(
        &[],
        &[
            "--size",
            "128x128",
            "--engine",
            "interpreter",
            "-o",
            "depth-interpreter.png",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let interpreted = std::fs::read(dir.join("depth-interpreter.png")).unwrap();
    assert_eq!(decode(&interpreted), decode(&png));
    // The software pipeline does not run on Vulkan.
    let (code, _, err) = render(&[], &["--engine", "vulkan", "-o", "v.png"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--engine vulkan"), "{err}");
    // --json
    let (code, out, _) = render(&["--json"], &["-o", "d.png"]);
    assert_eq!(code, 0);
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(j["pixels_shaded"].as_u64().unwrap() > 1000, "{j}");
}

#[test]
fn render_errors_are_bad_input() {
    let dir = temp("errors");
    // No shader in the stream and none given: the fixed-function pipeline draws it.
    let (code, _, _) = dxso(
        &[
            "dp2",
            "build",
            &render_tests("scenes/depth.json"),
            "-o",
            "d.dp2",
        ],
        &dir,
    );
    assert_eq!(code, 0);
    let (code, _, err) = dxso(&["render", "d.dp2", "-o", "x.png"], &dir);
    assert_eq!(code, 0, "{err}");
    assert!(dir.join("x.png").exists());
    // A fixed-function state the generator refuses is bad input naming the state.
    std::fs::write(
        dir.join("tween.json"),
        r#"{"buffers": [{"handle": 1, "f32": [0, 0, 0.5, 0.5, 1, 0, 0.5, 0.5, 0, 1, 0.5, 0.5]}],
           "commands": [{"op": "SETVERTEXSHADER", "fvf": ["XYZB1"]},
             {"op": "SETSTREAMSOURCE", "stream": 0, "buffer": 1, "stride": 16},
             {"op": "RENDERSTATE", "state": "VERTEXBLEND", "value": 255},
             {"op": "DRAWPRIMITIVE", "primitive_type": 4, "start": 0, "primitive_count": 1}]}"#,
    )
    .unwrap();
    let (code, _, err) = dxso(&["dp2", "build", "tween.json", "-o", "tween.dp2"], &dir);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = dxso(&["render", "tween.dp2", "-o", "t.png"], &dir);
    assert_eq!(code, 1);
    assert!(err.contains("TWEENING"), "{err}");
    // A bad size is a usage error.
    let (code, _, _) = dxso(&["render", "d.dp2", "--size", "0x5", "-o", "x.png"], &dir);
    assert_eq!(code, 2);
    // Not a capture.
    std::fs::write(dir.join("junk.dp2"), b"DP2F\x02\0\0\0").unwrap();
    let (code, _, err) = dxso(&["render", "junk.dp2", "-o", "junk.png"], &dir);
    assert_eq!(code, 1, "{err}");
}

#[test]
fn demo_writes_the_teapot_image() {
    let dir = temp("demo");
    let (code, out, err) = dxso(&["demo", "--size", "128x96", "-o", "pot.png"], &dir);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("32 from the patch cache") && out.contains("wrote pot.png"),
        "{out}"
    );
    let img = dxso_render::Image::from_png(&std::fs::read(dir.join("pot.png")).unwrap()).unwrap();
    assert_eq!((img.width, img.height), (128, 96));
    let background = img.get(0, 0);
    let teapot = img.pixels.iter().filter(|p| **p != background).count();
    assert!(teapot > 128 * 96 / 10, "{teapot} teapot pixels");
    // The fixed-function teapot beside it.
    assert!(out.contains("wrote pot-ffp.png"), "{out}");
    let ffp =
        dxso_render::Image::from_png(&std::fs::read(dir.join("pot-ffp.png")).unwrap()).unwrap();
    let lit = ffp.pixels.iter().filter(|p| **p != background).count();
    assert!(lit > 128 * 96 / 10, "{lit} fixed-function teapot pixels");
    let (code, out, err) = dxso(
        &[
            "demo",
            "--size",
            "128x96",
            "--engine",
            "interpreter",
            "-o",
            "pot-interpreter.png",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("shaders on the interpreter"), "{out}");
    let interpreted =
        dxso_render::Image::from_png(&std::fs::read(dir.join("pot-interpreter.png")).unwrap())
            .unwrap();
    assert_eq!(
        interpreted, img,
        "the interpreter's teapot against the JIT's"
    );
    let (code, out, _) = dxso(&["demo", "--engine", "vulkan", "-o", "v.png"], &dir);
    assert_eq!(
        (code, out.as_str()),
        (2, ""),
        "a usage error before any output"
    );
    let (code, out, err) = dxso(
        &["demo", "--size", "32x32", "--frames", "3", "-o", "turn.png"],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("wrote 3 frames"), "{out}");
    for k in 0..3 {
        assert!(dir.join(format!("turn-00{k}.png")).exists());
    }
}
