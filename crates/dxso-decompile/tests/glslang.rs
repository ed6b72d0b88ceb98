//! An independent compiler's view: every decompiled corpus shader through glslang's HLSL front
//! end (`glslangValidator -D --hlsl-dx9-compatible`), counting the accepted ones. Skips with a
//! message when glslangValidator is not installed. The floor may only go up.

use std::process::Command;

const FLOOR_ACCEPTED: usize = 1189;

#[test]
fn glslang_accepts_decompiled_corpus() {
    if Command::new("glslangValidator")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("glslang_accepts_decompiled_corpus: glslangValidator is not installed, skipping");
        return;
    }
    let Some(dir) = dxso_corpus::corpus_or_skip("glslang_accepts_decompiled_corpus") else {
        return;
    };
    let tmp = std::env::temp_dir().join(format!("dxso-decompile-glslang-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let (mut decompiled, mut accepted) = (0, 0);
    let mut failures: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for e in dxso_corpus::entries(&dir) {
        let Ok(shader) = dxso::decode(&e.bytes()) else {
            continue;
        };
        if !dxso::validate(&shader).is_valid() {
            continue;
        }
        let Ok(hlsl) = dxso_decompile::decompile(&shader, &dxso_decompile::Options::default())
        else {
            continue;
        };
        decompiled += 1;
        let path = tmp.join("shader.hlsl");
        std::fs::write(&path, &hlsl).expect("write");
        let stage = if shader.version.is_vertex() {
            "vert"
        } else {
            "frag"
        };
        let out = Command::new("glslangValidator")
            .args([
                "-D",
                "--hlsl-dx9-compatible",
                "-S",
                stage,
                "-e",
                "main",
                "-V",
            ])
            .arg(&path)
            .args(["-o", "/dev/null"])
            .output()
            .expect("glslangValidator runs");
        if out.status.success() {
            accepted += 1;
        } else {
            let text = String::from_utf8_lossy(&out.stdout);
            let first = text
                .lines()
                .find(|l| l.starts_with("ERROR:"))
                .unwrap_or("")
                .split(':')
                .skip(3)
                .collect::<Vec<_>>()
                .join(":");
            let cause: String = first
                .chars()
                .map(|c| if c.is_ascii_digit() { '#' } else { c })
                .take(90)
                .collect();
            failures.entry(cause).or_default().push(e.rel.clone());
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    println!("glslang: {accepted} of {decompiled} decompiled shaders accepted");
    let mut sorted: Vec<_> = failures.into_iter().collect();
    sorted.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
    for (cause, files) in sorted {
        println!("{:5} {cause}  (e.g. {})", files.len(), files[0]);
    }
    assert!(accepted >= FLOOR_ACCEPTED);
}
