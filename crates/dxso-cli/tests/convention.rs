//! The convention every subcommand shares: the same bad input gives the same exit status in
//! every command (0 success, 1 bad input, 2 usage or I/O), `--json` puts exactly one JSON
//! document on standard output whatever happens, inputs are named by what they are, folders
//! holding nothing to read are errors, and what a run ignores, clamps or converts is said.

mod common;

use common::{run, scratch, text};
use std::path::{Path, PathBuf};

/// One command line per subcommand that reads an input, `{}` standing for the input.
const COMMANDS: &[&[&str]] = &[
    &["info", "{}"],
    &["dump", "{}"],
    &["disasm", "{}"],
    &["asm", "{}", "-o", "{out}"],
    &["compile", "{}", "-T", "ps_2_0", "-o", "{out}"],
    &["decompile", "{}"],
    &["validate", "{}"],
    &["reencode", "{}", "-o", "{out}"],
    &["convert", "--from", "d3d8", "{}", "-o", "{out}"],
    &["fx", "info", "{}"],
    &["fx", "extract", "{}", "-o", "{out}"],
    &["fx", "eval", "{}"],
    &["fx", "decompile", "{}"],
    &["run", "{}"],
    &["dp2", "dump", "{}"],
    &["dp2", "run", "{}"],
    &["dp2", "build", "{}", "-o", "{out}"],
    &["tessellate", "{}", "-o", "{out}"],
    &["ffp", "{}"],
    &["render", "{}", "-o", "{out}"],
];

fn args(command: &[&str], input: &Path, out: &Path) -> Vec<String> {
    command
        .iter()
        .map(|a| match *a {
            "{}" => input.display().to_string(),
            "{out}" => out.display().to_string(),
            a => a.to_string(),
        })
        .collect()
}

/// The bad inputs and the status each must give in every command.
fn bad_inputs(dir: &Path) -> Vec<(&'static str, PathBuf, i32)> {
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    };
    vec![
        ("a missing file", dir.join("missing.dxso"), 2),
        ("an empty file", write("empty.dxso", b""), 1),
        (
            "a PNG image",
            write("picture.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01"),
            1,
        ),
        (
            "DXBC bytecode",
            write("sm4.dxso", b"DXBC\0\0\0\0\0\0\0\0"),
            1,
        ),
    ]
}

/// Whether the document's error (the run's, or a batch's for one of its inputs) says `status`.
fn says_status(v: &serde_json::Value, status: i32) -> bool {
    let per_input = ["files", "errors"].iter().any(|list| {
        v[list]
            .as_array()
            .is_some_and(|l| l.iter().any(|o| o["error"]["exit_status"] == status))
    });
    v["error"]["exit_status"] == status || per_input
}

#[test]
fn the_same_bad_input_gives_the_same_status_and_one_json_document_in_every_command() {
    let dir = scratch("convention-bad");
    let mut failures = Vec::new();
    for (what, input, status) in bad_inputs(&dir) {
        for command in COMMANDS {
            let out = dir.join("out.bin");
            let argv = args(command, &input, &out);
            let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
            let plain = run(&argv, None);
            if plain.status.code() != Some(status) {
                failures.push(format!(
                    "{what}: `dxso {}` exited {:?}, not {status}: {}",
                    argv.join(" "),
                    plain.status.code(),
                    text(&plain.stderr)
                ));
            }
            let mut with_json = argv.clone();
            with_json.push("--json");
            let json = run(&with_json, None);
            match serde_json::from_slice::<serde_json::Value>(&json.stdout) {
                Ok(v) if says_status(&v, status) => {}
                Ok(v) => failures.push(format!(
                    "{what}: `dxso {}`: the document's error does not say exit {status}: {v}",
                    with_json.join(" ")
                )),
                Err(e) => failures.push(format!(
                    "{what}: `dxso {}`: standard output is not one JSON document ({e}): {}",
                    with_json.join(" "),
                    text(&json.stdout)
                )),
            }
            assert!(
                !out.exists(),
                "{what}: `dxso {}` wrote a file",
                argv.join(" ")
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn inputs_are_named_by_what_they_are() {
    let dir = scratch("convention-kinds");
    for (name, bytes, says) in [
        (
            "picture.png",
            &b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"[..],
            "picture.png is a PNG image",
        ),
        (
            "notes.txt",
            b"some words here\n",
            "notes.txt is text without a shader version statement",
        ),
        (
            "shader.hlsl",
            b"float4 main() : COLOR { return 0; }\n",
            "shader.hlsl is HLSL source; use `dxso compile",
        ),
        (
            "sm4.cso",
            b"DXBC\0\0\0\0",
            "sm4.cso is Direct3D 10+ bytecode (DXBC; dxso reads Direct3D 9's)",
        ),
    ] {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        let out = run(&["disasm", p.to_str().unwrap()], None);
        assert_eq!(out.status.code(), Some(1), "{name}");
        assert!(
            text(&out.stderr).contains(says),
            "{name}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn a_folder_holding_nothing_to_read_is_an_error_and_skipped_files_are_counted() {
    let dir = scratch("convention-folders");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let notes = dir.join("notes");
    std::fs::create_dir_all(&notes).unwrap();
    std::fs::write(notes.join("readme.txt"), "words").unwrap();
    for command in ["info", "disasm", "validate", "reencode", "decompile"] {
        for folder in [&empty, &notes] {
            let out = run(&[command, folder.to_str().unwrap()], None);
            assert_eq!(out.status.code(), Some(1), "{command} {}", folder.display());
            assert!(
                text(&out.stderr).contains("no input: the folders given hold no *.dxso"),
                "{command}: {}",
                text(&out.stderr)
            );
        }
    }
    let out = run(&["validate", notes.to_str().unwrap()], None);
    assert!(
        text(&out.stderr).contains("1 other file(s) skipped; --ext takes other extensions"),
        "{}",
        text(&out.stderr)
    );
    // --ext picks other extensions; the bytes still say what a file is. The default takes the
    // extensions fxc and engines use for bytecode.
    let shaders = dir.join("shaders");
    std::fs::create_dir_all(&shaders).unwrap();
    let ps = common::assemble("ps_2_0\nmov oC0, c0\n");
    for name in ["a.fxo", "b.cso", "c.bin", "d.shader"] {
        std::fs::write(shaders.join(name), &ps).unwrap();
    }
    let out = run(&["validate", "--json", shaders.to_str().unwrap()], None);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["summary"]["files"], 3, "{v}");
    let out = run(
        &[
            "validate",
            "--json",
            "--ext",
            "shader",
            shaders.to_str().unwrap(),
        ],
        None,
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["summary"]["files"], 1, "{v}");
}

#[test]
fn a_file_cut_short_still_lists_what_decodes() {
    let dir = scratch("convention-cut");
    let ps = common::assemble("ps_2_0\ndef c1, 0.5, 0.25, 1, 0\ndcl t0.xy\nmov oC0, t0\n");
    let cut = dir.join("cut.dxso");
    std::fs::write(&cut, &ps[..ps.len() - 10]).unwrap();
    let out = run(&["disasm", cut.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    let listing = text(&out.stdout);
    assert!(listing.contains("def c1, 0.5, 0.25, 1, 0"), "{listing}");
    assert!(listing.contains("// cut short:"), "{listing}");
    assert!(
        text(&out.stderr).contains("error: decoding"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn json_inputs_name_a_misspelt_key_and_the_place_json_breaks() {
    let dir = scratch("convention-json");
    let patch = dir.join("patch.json");
    std::fs::write(
        &patch,
        r#"{"basis": "bspline", "degre": 3, "width": 4, "height": 4, "segments": [2, 2, 2, 2], "control_points": []}"#,
    )
    .unwrap();
    let out = run(&["tessellate", patch.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("unknown field `degre`")
            && text(&out.stderr).contains("(did you mean `degree`?)"),
        "{}",
        text(&out.stderr)
    );
    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{\"commands\": [\n  {\"op\": \"CLEAR\",, }\n]}").unwrap();
    for command in [&["dp2", "build"][..], &["ffp"][..], &["tessellate"][..]] {
        let mut argv = command.to_vec();
        argv.push(broken.to_str().unwrap());
        let out = run(&argv, None);
        assert_eq!(out.status.code(), Some(1), "{command:?}");
        assert!(
            text(&out.stderr).contains("is not valid JSON: ")
                && text(&out.stderr).contains("at line 2 column"),
            "{command:?}: {}",
            text(&out.stderr)
        );
    }
    let misspelt = dir.join("misspelt.json");
    std::fs::write(&misspelt, r#"{"comands": []}"#).unwrap();
    let out = run(
        &["dp2", "build", misspelt.to_str().unwrap(), "-o", "-"],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("it has `comands` where a DP2 description has `commands`"),
        "{}",
        text(&out.stderr)
    );
    let dp2 = dir.join("draw.json");
    std::fs::write(
        &dp2,
        r#"{"commands": [{"op": "DRAWRECTPATCH", "handel": 1}]}"#,
    )
    .unwrap();
    let out = run(&["dp2", "build", dp2.to_str().unwrap(), "-o", "-"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("unknown key `handel` (did you mean `handle`?)"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn what_a_run_ignores_clamps_or_converts_is_said() {
    let dir = scratch("convention-warnings");
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let examples = manifest.join("tests/examples");
    let scenes = manifest.join("../dxso-render/tests/scenes");
    // Segment counts past the device's range are clamped.
    let patch = std::fs::read_to_string(manifest.join("tests/data/bspline_patch.json"))
        .unwrap()
        .replace(
            "\"segments\": [3, 2, 5, 2]",
            "\"segments\": [300, 2, 5, 0.5]",
        );
    let p = dir.join("patch.json");
    std::fs::write(&p, patch).unwrap();
    let out = run(&["tessellate", p.to_str().unwrap()], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("warning: ") && text(&out.stderr).contains("clamped"),
        "{}",
        text(&out.stderr)
    );
    // A patch draw of a handle neither cached nor given with its info is ignored, as drivers do.
    let draw = dir.join("draw.json");
    std::fs::write(
        &draw,
        r#"{"commands": [{"op": "DRAWRECTPATCH", "handle": 9, "segments": [2, 2, 2, 2]}]}"#,
    )
    .unwrap();
    let out = run(&["dp2", "run", draw.to_str().unwrap()], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("(handle 9): the handle is not cached"),
        "{}",
        text(&out.stderr)
    );
    // Parameter values converted on the way in.
    let fxb = examples.join("BasicEffect.fxb");
    let out = run(
        &[
            "fx",
            "eval",
            fxb.to_str().unwrap(),
            "--set",
            "ShaderIndex=1.5",
            "--set",
            "WorldViewProj=1,0,0",
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("--set ShaderIndex: value 0 (1.5) is truncated to 1 (an int)"),
        "{err}"
    );
    assert!(
        err.contains(
            "--set WorldViewProj: 3 of its 16 values given; the other 13 keep their values"
        ),
        "{err}"
    );
    // A draw whose every triangle CULLMODE culls.
    let scene: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(scenes.join("depth.json")).unwrap()).unwrap();
    let mut culled = scene.clone();
    let commands = culled["commands"].as_array_mut().unwrap();
    let draw_at = commands
        .iter()
        .position(|c| c["op"] == "DRAWPRIMITIVE")
        .unwrap();
    commands.insert(
        draw_at,
        serde_json::json!({"op": "RENDERSTATE", "state": "CULLMODE", "value": "CW"}),
    );
    let scene_json = dir.join("culled.json");
    std::fs::write(&scene_json, culled.to_string()).unwrap();
    let capture = dir.join("culled.dp2");
    let out = run(
        &[
            "dp2",
            "build",
            scene_json.to_str().unwrap(),
            "-o",
            capture.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let png = dir.join("culled.png");
    let out = run(
        &[
            "render",
            capture.to_str().unwrap(),
            "--vs",
            scenes.join("colour.vs.asm").to_str().unwrap(),
            "--ps",
            scenes.join("colour.ps.asm").to_str().unwrap(),
            "-o",
            png.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("1 draw(s) drew nothing: every triangle faced away"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn quoted_input_appears_as_it_was_written() {
    let out = run(
        &["asm", "-", "-o", "-"],
        Some(b"Some Words  here\nmov oC0, c0\n"),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("found `Some Words  here`"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["asm", "-", "-o", "-"], Some(b"PS_9_9\nmov oC0, c0\n"));
    assert!(
        text(&out.stderr).contains("`PS_9_9` is not a shader version"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn every_command_that_prints_takes_o_for_a_file() {
    let dir = scratch("convention-o");
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/examples");
    let ps = dir.join("ps.dxso");
    std::fs::write(&ps, common::assemble("ps_2_0\nmov oC0, c0\n")).unwrap();
    let vs = dir.join("vs.asm");
    std::fs::write(&vs, "vs_2_0\ndcl_position v0\nmov oPos, v0\n").unwrap();
    let e = |name: &str| examples.join(name).display().to_string();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scene = manifest
        .join("../dxso-render/tests/scenes/depth.json")
        .display()
        .to_string();
    let state = manifest
        .join("tests/data/ffp_state.json")
        .display()
        .to_string();
    let ps = ps.display().to_string();
    let vs = vs.display().to_string();
    let cases: Vec<Vec<String>> = vec![
        vec!["info".into(), ps.clone()],
        vec!["dump".into(), ps.clone()],
        vec!["validate".into(), ps.clone()],
        vec!["validate".into(), "--rules".into()],
        vec![
            "run".into(),
            vs.clone(),
            "--input".into(),
            "v0=1,2,3,1".into(),
        ],
        vec!["fx".into(), "info".into(), e("BasicEffect.fxb")],
        vec!["fx".into(), "eval".into(), e("BasicEffect.fxb")],
        vec!["dp2".into(), "dump".into(), scene.clone()],
        vec!["dp2".into(), "run".into(), scene.clone()],
        vec!["ffp".into(), state],
        vec!["completions".into(), "bash".into()],
        vec!["manpage".into()],
    ];
    for (k, case) in cases.iter().enumerate() {
        for json in [false, true] {
            let file = dir.join(format!("out{k}-{json}.txt"));
            let mut argv: Vec<&str> = case.iter().map(String::as_str).collect();
            argv.extend(["-o", file.to_str().unwrap()]);
            if json {
                argv.push("--json");
            }
            let out = run(&argv, None);
            assert!(out.status.success(), "{argv:?}: {}", text(&out.stderr));
            assert!(
                out.stdout.is_empty(),
                "{argv:?} printed: {}",
                text(&out.stdout)
            );
            let written = std::fs::read(&file).unwrap();
            assert!(!written.is_empty(), "{argv:?} wrote nothing");
            if json {
                serde_json::from_slice::<serde_json::Value>(&written)
                    .unwrap_or_else(|e| panic!("{argv:?}: {e}"));
            }
        }
    }
    // Never over an input.
    let out = run(&["dump", &ps, "-o", &ps], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("never writes over its input"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn verbosity_never_reaches_standard_output_and_option_values_are_checked_early() {
    let dir = scratch("convention-verbose");
    let ps = dir.join("ps.dxso");
    std::fs::write(&ps, common::assemble("ps_2_0\nmov oC0, c0\n")).unwrap();
    let ps = ps.to_str().unwrap();
    let quiet = run(&["disasm", ps], None);
    for v in ["-v", "-vv"] {
        let loud = run(&["disasm", ps, v], None);
        assert_eq!(loud.stdout, quiet.stdout, "{v}");
        assert!(
            text(&loud.stderr).contains(" ms "),
            "{v}: {}",
            text(&loud.stderr)
        );
    }
    if cfg!(feature = "translate") {
        let quiet = run(&["translate", ps], None);
        let loud = run(&["translate", ps, "-vv"], None);
        assert_eq!(loud.stdout, quiet.stdout);
        // naga's own log lines only at -vvv.
        assert!(
            !text(&loud.stderr).contains("naga"),
            "{}",
            text(&loud.stderr)
        );
        let out = run(
            &["translate", ps, "--to", "glsl", "--glsl-version", "130"],
            None,
        );
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("dxso writes versions [140, 150, 330"),
            "{}",
            text(&out.stderr)
        );
    }
}
