//! `dxso translate` and `dxso run --engine vulkan` on shaders written by hand.
#![cfg(feature = "translate")]

mod common;

use std::process::Output;

fn dxso(args: &[&str], stdin: Option<&[u8]>) -> Output {
    common::run(args, stdin)
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

const VS: &str = "vs_2_0\ndcl_position v0\ndcl_texcoord v1\nm4x4 oPos, v0, c0\nmov oT0, v1\n";
const PS: &str = "ps_2_0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nmul oC0, r0, c0\n";

#[test]
fn translate_writes_every_target() {
    for (to, marker) in [
        ("wgsl", "@vertex"),
        ("glsl", "#version 450"),
        ("glsl-es", "#version 310 es"),
        ("msl", "metal"),
        ("hlsl", "VertexOutput"),
        ("spirv-asm", "OpEntryPoint Vertex"),
    ] {
        let out = dxso(&["translate", "--to", to], Some(VS.as_bytes()));
        assert!(out.status.success(), "{to}: {}", text(&out.stderr));
        assert!(
            text(&out.stdout).contains(marker),
            "{to}: no `{marker}` in\n{}",
            text(&out.stdout)
        );
    }
}

#[test]
fn spirv_is_binary_with_the_magic_number() {
    let out = dxso(
        &["translate", "--to", "spirv", "-o", "-"],
        Some(PS.as_bytes()),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(&out.stdout[..4], &0x0723_0203u32.to_le_bytes());
}

#[test]
fn reflect_names_locations_constants_and_samplers() {
    let out = dxso(&["translate", "--reflect"], Some(PS.as_bytes()));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let t = text(&out.stdout);
    assert!(
        t.contains("t0") && t.contains("texcoord0") && t.contains("location 2"),
        "{t}"
    );
    assert!(
        t.contains("sampler s0 2d: texture binding 1, sampler binding 2"),
        "{t}"
    );
    let out = dxso(&["translate", "--reflect", "--json"], Some(PS.as_bytes()));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The shared JSON style: one line when standard output is not a terminal.
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1);
    assert_eq!(j["reflection"]["bind_group"], 1);
    assert_eq!(j["reflection"]["float_constants"], serde_json::json!([0]));
    assert_eq!(j["reflection"]["samplers"][0]["texture_type"], "2d");
}

/// A corpus shader with a constant table: bgfx's deferred combine (4 samplers, `u_params`).
fn combine() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../corpus/bgfx/fs_sss_deferred_combine.dxso"
    )
    .into()
}

#[test]
fn reflect_gives_each_targets_bindings_with_ctab_names() {
    let file = combine();
    for (args, expected) in [
        (
            &["--to", "glsl", "--glsl-version", "330"][..],
            &[
                "in glsl 330:",
                "input        location 2: by name `_vs2fs_location2`",
                "output       location 0: location = 0 `_fs2p_location0`",
                "texture s0   group 1 binding 1: by name `_group_1_binding_1_fs`",
                "sampler2D s_color : s0",
                "float4[12] u_params : c0..c6 (offset 0)",
            ][..],
        ),
        (
            &["--to", "glsl-es", "--glsl-es-version", "310"][..],
            &["texture s1   group 1 binding 3: binding = 1 `_group_1_binding_3_fs`"][..],
        ),
        (
            &["--to", "msl"][..],
            &["[[texture(2)]]", "[[sampler(3)]]", "[[buffer(0)]]"][..],
        ),
        (
            &["--to", "hlsl"][..],
            &["register(b0, space1)", "nagaGroup1SamplerIndexArray[3]"][..],
        ),
        (&["--to", "spirv"][..], &["set 1 binding 8"][..]),
        (&[][..], &["@group(1) @binding(7)"][..]),
    ] {
        let mut a = vec!["translate", "--reflect", file.as_str()];
        a.extend_from_slice(args);
        let out = dxso(&a, None);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        let t = text(&out.stdout);
        for e in expected {
            assert!(t.contains(e), "{args:?}: no `{e}` in\n{t}");
        }
    }
    let out = dxso(&["translate", "--reflect", "--json", &file], None);
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let b = &j["reflection"]["bindings"];
    assert_eq!(b[0]["resource"], "constants");
    assert_eq!(b[0]["ctab"][0]["name"], "u_params");
    assert_eq!(b[0]["ctab"][0]["registers"], "c0..c6");
    assert_eq!(b[0]["ctab"][0]["offset"], 0);
    assert_eq!(b[1]["place"], "@group(1) @binding(1)");
    assert_eq!(b[1]["ctab"][0]["type"], "sampler2D");
}

#[test]
fn glsl_versions_dxso_does_not_write_are_usage_errors() {
    let out = dxso(
        &["translate", "--to", "glsl", "--glsl-version", "130"],
        Some(PS.as_bytes()),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("140, 150, 330"),
        "{}",
        text(&out.stderr)
    );
    let out = dxso(
        &["translate", "--to", "glsl", "--glsl-version", "140"],
        Some(PS.as_bytes()),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("#version 140\n"));
}

#[test]
fn translate_rejects_bad_input_and_usage() {
    let out = dxso(&["translate"], Some(b"vs_2_0\nnot_an_instruction r0\n"));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let out = dxso(&["translate", "--to", "pascal"], Some(VS.as_bytes()));
    assert_eq!(out.status.code(), Some(2));
}

/// The Vulkan engine gives what the CPU engine gives, for a shader written by hand; without a
/// Vulkan device it says so and exits 1 (a failure in CI, where lavapipe is installed).
#[test]
#[cfg(feature = "vulkan")]
fn run_on_vulkan_matches_the_cpu() {
    let asm = "vs_2_0\ndcl_position v0\nmul r0, v0, c0\nrcp r1.x, c0.w\nmad oPos, r0, r1.x, c1\nmov oT0, v0.wzyx\n";
    let args = |engine: &'static str| {
        vec![
            "run",
            "--input",
            "v0=1,2,3,1",
            "--const",
            "c0=2,0.5,-1,4",
            "--const",
            "c1=0,0,0,1",
            "--json",
            "--engine",
            engine,
        ]
    };
    let cpu = dxso(&args("cpu"), Some(asm.as_bytes()));
    assert!(cpu.status.success(), "{}", text(&cpu.stderr));
    let gpu = dxso(&args("vulkan"), Some(asm.as_bytes()));
    if gpu.status.code() == Some(1) && text(&gpu.stderr).contains("Vulkan") {
        let msg = format!("NO VULKAN DEVICE: {}", text(&gpu.stderr));
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{msg}");
        eprintln!("{msg}");
        return;
    }
    assert!(gpu.status.success(), "{}", text(&gpu.stderr));
    assert_eq!(text(&cpu.stdout), text(&gpu.stdout));
    let ps = "ps_3_0\ndcl_texcoord0 v0\nadd r0, v0, c0\ntexkill r0\nmov oC0, r0\n";
    let args = |engine: &'static str| {
        vec![
            "run",
            "--input",
            "v0=0.5,-1,2,0",
            "--const",
            "c0=0,0.5,0,0",
            "--json",
            "--engine",
            engine,
        ]
    };
    let cpu = dxso(&args("cpu"), Some(ps.as_bytes()));
    let gpu = dxso(&args("vulkan"), Some(ps.as_bytes()));
    assert!(gpu.status.success(), "{}", text(&gpu.stderr));
    assert_eq!(text(&cpu.stdout), text(&gpu.stdout));
    assert!(
        text(&gpu.stdout).contains("\"discarded\":true"),
        "{}",
        text(&gpu.stdout)
    );
}
