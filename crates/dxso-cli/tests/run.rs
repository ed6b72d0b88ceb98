//! `dxso run` on shaders a new user writes by hand, and `dxso bench exec`.

mod common;

use serde_json::Value;
use std::path::PathBuf;

fn tmp(name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxso-run-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p
}

fn json(args: &[&str]) -> Value {
    let out = common::run(args, None);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON value")
}

const VS: &str = "vs_2_0
dcl_position v0
dcl_texcoord v1
m4x4 oPos, v0, c0
mul oT0, v1, c4.x
mov oFog, v0.z
";

#[test]
fn vertex_shader_from_assembly() {
    let vs = tmp("vs.asm", VS.as_bytes());
    let p = vs.to_str().unwrap();
    let v = json(&[
        "run",
        p,
        "--json",
        "--input",
        "v0=1,2,3,1",
        "--input",
        "v1=0.5,0.25",
        "--const",
        "c0=1,0,0,0",
        "--const",
        "c1=0,2,0,0",
        "--const",
        "c2=0,0,1,0",
        "--const",
        "c3=0,0,0,1",
        "--const",
        "c4=2",
    ]);
    assert_eq!(
        v["outputs"]["oPos"],
        serde_json::json!([1.0, 4.0, 3.0, 1.0])
    );
    assert_eq!(v["outputs"]["oT0"], serde_json::json!([1.0, 0.5, 0.0, 0.0]));
    assert_eq!(
        v["outputs"]["oFog"],
        serde_json::json!([3.0, 0.0, 0.0, 0.0])
    );
    assert!(v.get("discarded").is_none());
    // The text form lists the same registers.
    let out = common::run(&["run", p, "--input", "v0=1,2,3,1"], None);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("oPos") && text.contains("oT0") && text.contains("3, 0, 0, 0"),
        "{text}"
    );
}

#[test]
fn bytecode_and_constants_of_every_kind() {
    let src = "vs_2_0\ndcl_position v0\ndefi i0, 3, 0, 0, 0\nmov r0, c0\nrep i0\nadd r0, r0, c1\nendrep\nif b0\nmul r0, r0, c2\nendif\nmov oPos, r0\n";
    let shader = dxso_text::parse(src).unwrap();
    let bin = tmp("loop.dxso", &dxso::encode(&shader));
    let p = bin.to_str().unwrap();
    let v = json(&[
        "run",
        p,
        "--json",
        "--const",
        "c1=1,1,1,1",
        "--const",
        "c2=2,2,2,2",
        "--const",
        "b0=true",
    ]);
    assert_eq!(
        v["outputs"]["oPos"],
        serde_json::json!([6.0, 6.0, 6.0, 6.0])
    );
    // defi i0 takes precedence over the command line's i0.
    let v = json(&[
        "run",
        p,
        "--json",
        "--const",
        "c1=1,1,1,1",
        "--const",
        "i0=10,0,0,0",
    ]);
    assert_eq!(
        v["outputs"]["oPos"],
        serde_json::json!([3.0, 3.0, 3.0, 3.0])
    );
}

#[test]
fn pixel_shader_with_a_png_texture_and_sampler_states() {
    // A 2x1 PNG: red, green.
    let mut png_bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut png_bytes, 2, 1);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().unwrap();
        w.write_image_data(&[255, 0, 0, 255, 0, 255, 0, 255])
            .unwrap();
    }
    let tex = tmp("tex.png", &png_bytes);
    let ps = tmp(
        "ps.asm",
        b"ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\ntexkill t0\nmov oC0, r0\n",
    );
    let (t, p) = (
        format!("s0={}", tex.display()),
        ps.to_str().unwrap().to_string(),
    );
    let v = json(&[
        "run",
        &p,
        "--json",
        "--input",
        "t0=0.75,0.5",
        "--texture",
        &t,
    ]);
    assert_eq!(v["outputs"]["oC0"], serde_json::json!([0.0, 1.0, 0.0, 1.0]));
    assert_eq!(v["discarded"], false);
    // Linear filtering between the two texel centres, clamped at the edge.
    let v = json(&[
        "run",
        &p,
        "--json",
        "--input",
        "t0=0.5,0.5",
        "--texture",
        &t,
        "--sampler",
        "s0=magfilter=linear,addressu=clamp",
    ]);
    assert_eq!(v["outputs"]["oC0"], serde_json::json!([0.5, 0.5, 0.0, 1.0]));
    let v = json(&[
        "run",
        &p,
        "--json",
        "--input",
        "t0=0.5,0.5,0,-1",
        "--texture",
        &t,
    ]);
    assert_eq!(v["discarded"], true);
}

#[test]
fn ps_1_x_result_is_oc0_and_many_vertices() {
    let ps = tmp("ps11.asm", b"ps_1_1\ntexcoord t0\nmul_x2 r0, t0, c0\n");
    let v = json(&[
        "run",
        ps.to_str().unwrap(),
        "--json",
        "--input",
        "t0=0.25,0.75,2,0",
        "--const",
        "c0=1,1,1,1",
    ]);
    // texcoord saturates t0 to (0.25, 0.75, 1, 1); by default the arithmetic keeps its range,
    // as current drivers do (MaxPixelShaderValue FLT_MAX), so _x2 gives values past 1.
    assert_eq!(v["outputs"]["oC0"], serde_json::json!([0.5, 1.5, 2.0, 2.0]));
    let early = json(&[
        "run",
        ps.to_str().unwrap(),
        "--json",
        "--input",
        "t0=0.25,0.75,2,0",
        "--const",
        "c0=1,1,1,1",
        "--ps1-range",
        "early",
    ]);
    // Early hardware clamps ps_1_1 results to [-1, 1].
    assert_eq!(
        early["outputs"]["oC0"],
        serde_json::json!([0.5, 1.0, 1.0, 1.0])
    );

    let vs = tmp("vs2.asm", VS.as_bytes());
    let sets = tmp(
        "sets.json",
        br#"[{"v0": [1, 2, 3, 1]}, {"v0": [4, 5, 6, 1], "v1": [1, 1]}]"#,
    );
    let v = json(&[
        "run",
        vs.to_str().unwrap(),
        "--json",
        "--vertices",
        sets.to_str().unwrap(),
        "--const",
        "c4=3",
    ]);
    let arr = v.as_array().unwrap();
    assert_eq!(arr.len(), 2);
    assert_eq!(
        arr[1]["outputs"]["oFog"],
        serde_json::json!([6.0, 0.0, 0.0, 0.0])
    );
    assert_eq!(
        arr[1]["outputs"]["oT0"],
        serde_json::json!([3.0, 3.0, 0.0, 0.0])
    );
}

#[test]
fn non_finite_values_print_as_strings() {
    let vs = tmp("inf.asm", b"vs_2_0\ndcl_position v0\nrcp r0.x, c0.x\nrcp r0.y, c0.y\nlog r0.z, c0.x\nmul r0.w, r0.x, c0.x\nmov oPos, r0\n");
    let v = json(&["run", vs.to_str().unwrap(), "--json", "--const", "c0=0,-0"]);
    assert_eq!(
        v["outputs"]["oPos"],
        serde_json::json!(["inf", "-inf", "-inf", "nan"])
    );
}

#[test]
fn errors_and_usage() {
    let vs = tmp("vs3.asm", VS.as_bytes());
    let p = vs.to_str().unwrap();
    for bad in [
        vec!["--input", "v0=1,2,3,4,5"],
        vec!["--input", "q0=1"],
        vec!["--const", "c0=x"],
        vec!["--const", "b0=maybe"],
        vec!["--sampler", "s0=addressu=sideways"],
        vec!["--sampler", "s0=frobnicate=1"],
        vec!["--texture", "s0=picture.gif"],
    ] {
        let mut args = vec!["run", p];
        args.extend(bad.iter().copied());
        let out = common::run(&args, None);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{bad:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // A shader the validator rejects (vs_2_0 has no dsx) is bad input.
    let bad = tmp(
        "bad.asm",
        b"vs_2_0\ndcl_position v0\ndsx r0, v0\nmov oPos, r0\n",
    );
    let out = common::run(&["run", bad.to_str().unwrap()], None);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A runaway loop hits the budget.
    let lp = tmp("loop.asm", b"vs_2_x\ndcl_position v0\ndefi i0, 255, 0, 0, 0\nmov r0, c0\nrep i0\nrep i0\nadd r0, r0, c0\nendrep\nendrep\nmov oPos, r0\n");
    let out = common::run(&["run", lp.to_str().unwrap(), "--budget", "1000"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("budget"));
    // A texture file that cannot be read is an I/O error, as in every command.
    let missing = common::run(&["run", p, "--texture", "s0=/nonexistent/t.png"], None);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn every_cpu_engine_prints_the_same_json() {
    // A loop, a texture-free ps_3_0 with texkill, and ps_1_x ranges: one vocabulary for
    // --engine, one JSON for every engine (`cpu` is the default CPU engine).
    let vs = tmp(
        "engines.vs.asm",
        b"vs_3_0\ndcl_position v0\ndcl_position o0\ndefi i0, 3, 0, 1, 0\nmov r0, v0\nrep i0\nmad r0, r0, c0, c1\nendrep\nexp r1.x, r0.y\nmov o0, r0\nmov o0.w, r1.x\n",
    );
    let ps = tmp(
        "engines.ps.asm",
        b"ps_3_0\ndcl_texcoord0 v0\nadd r0, v0, c0\ntexkill r0\nrsq r1.x, r0.z\nmul oC0, r0, r1.x\n",
    );
    let ps14 = tmp(
        "engines.ps14.asm",
        b"ps_1_4\ntexcrd r0.xyz, t0\nmul_x4 r0, r0, c0\nadd_sat r0, r0, -c1\n",
    );
    let cases: [(&PathBuf, &[&str]); 3] = [
        (
            &vs,
            &[
                "--input",
                "v0=1,2,3,1",
                "--const",
                "c0=0.5,2,-1,1",
                "--const",
                "c1=0.25,0,1,0",
            ],
        ),
        (
            &ps,
            &["--input", "v0=0.5,-1,2,0", "--const", "c0=0,1.5,0,0"],
        ),
        (
            &ps14,
            &[
                "--input",
                "t0=0.3,0.6,0.9,1",
                "--const",
                "c0=0.5,1,0.25,1",
                "--const",
                "c1=0.5,0,0,0",
            ],
        ),
    ];
    for (file, args) in cases {
        let mut outputs = Vec::new();
        for engine in ["interpreter", "jit", "jit-scalar", "cpu"] {
            let mut all = vec!["run", file.to_str().unwrap(), "--json", "--engine", engine];
            all.extend_from_slice(args);
            outputs.push((engine, json(&all)));
        }
        assert!(outputs[0].1["outputs"]
            .as_object()
            .is_some_and(|o| !o.is_empty()));
        for (engine, v) in &outputs[1..] {
            assert_eq!(
                v,
                &outputs[0].1,
                "{}: {engine} against the interpreter",
                file.display()
            );
        }
    }
    let bad = common::run(&["run", vs.to_str().unwrap(), "--engine", "gpu"], None);
    assert_eq!(bad.status.code(), Some(2));
}

/// `inf - inf`: every engine of this page gives NaN, and a GPU compiler that folds `a - a`
/// into 0 (lavapipe's does: docs/SEMANTICS.md section 16) gives 0. Whatever the device, the
/// exit status and the report agree: 0 and `"agree": true`, or 1 with every difference listed
/// by register and component; without an adapter Vulkan is skipped with its reason.
#[test]
fn compare_exits_1_exactly_when_engines_differ() {
    let ps = tmp("minus.asm", b"ps_3_0\nadd r0, c0, -c0\nmov oC0, r0\n");
    let out = common::run(
        &[
            "--json",
            "run",
            ps.to_str().unwrap(),
            "--const",
            "c0=inf,inf,inf,inf",
            "--compare",
            "interp,jit,vulkan",
        ],
        None,
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON value");
    let agree = v["agree"].as_bool().unwrap();
    assert_eq!(out.status.code(), Some(if agree { 0 } else { 1 }), "{v}");
    let comparisons = v["comparisons"].as_array().unwrap();
    assert_eq!(comparisons[0]["right"], "jit");
    assert_eq!(
        comparisons[0]["agree"], true,
        "CPU engines agree bit for bit"
    );
    assert_eq!(v["outputs"]["interpreter"]["outputs"]["oC0"][0], "nan");
    match v["skipped"].as_array().unwrap().as_slice() {
        [] => {
            let c = &comparisons[1];
            assert_eq!(c["right"], "vulkan");
            for d in c["differences"].as_array().unwrap() {
                assert_eq!(d["register"], "oC0");
                assert_eq!(d["left"], "nan");
                assert!(d["kind"].as_str().unwrap().starts_with("nan-vs-"), "{d}");
            }
        }
        [s] => {
            assert_eq!(s["engine"], "vulkan");
            assert!(agree);
            assert!(String::from_utf8_lossy(&out.stderr).contains("vulkan skipped"));
        }
        more => panic!("{more:?}"),
    }
}
