//! Every corpus effect decompiled to `.fx`, compiled back with dxso-hlsl's effect compiler
//! (`-T fx_2_0`), and compared with the original by the effects' checks
//! (`dxso_hlsl::equivalence::effect::compare_effects`: parameters, techniques, passes, states
//! by value or by evaluation, every embedded shader by the differential checker). Prints each
//! effect's counts with `--nocapture`; the counts may only go up.

use dxso_hlsl::effect::compile_effect;
use dxso_hlsl::equivalence::effect::compare_effects;
use dxso_hlsl::{Options, Profile, Source};

/// Effects whose decompiled source compiles back.
const FLOOR_COMPILED: usize = 27;
/// Effects that come back matching in every parameter, technique, pass, state and shader.
const FLOOR_MATCHING: usize = 21;

#[test]
fn decompiled_effects_compile_back_to_equivalent_effects() {
    let Some(root) = dxso_corpus::corpus_or_skip("effects") else {
        return;
    };
    let dir = root.join("effects");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "fxb"))
        .collect();
    files.sort();
    let (mut compiled, mut matching) = (0, 0);
    let mut lines = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let original = dxso_fx::Effect::parse(&std::fs::read(path).unwrap()).unwrap();
        let fx = dxso_decompile::decompile_effect(&original, &dxso_decompile::Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let source = Source::new(&name, fx.text.clone());
        let back = match compile_effect(&source, &Options::new("main", Profile::Vs20)) {
            Ok(back) => back,
            Err(d) => {
                let first = d.0.first().map(ToString::to_string).unwrap_or_default();
                lines.push(format!("{name}: does not compile: {first}"));
                continue;
            }
        };
        compiled += 1;
        let r = compare_effects(&original, &back.effect);
        if r.all_match() {
            matching += 1;
        }
        lines.push(format!(
            "{name}: {r}{}",
            r.notes
                .first()
                .map(|n| format!("; first difference: {n}"))
                .unwrap_or_default()
        ));
    }
    for l in &lines {
        eprintln!("{l}");
    }
    eprintln!(
        "{} effects: {compiled} compile back, {matching} match the original in everything",
        files.len()
    );
    assert!(compiled >= FLOOR_COMPILED, "{compiled} < {FLOOR_COMPILED}");
    assert!(matching >= FLOOR_MATCHING, "{matching} < {FLOOR_MATCHING}");
}
