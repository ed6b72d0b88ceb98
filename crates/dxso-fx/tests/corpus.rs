//! Every corpus effect parses, re-encodes bit-exact, and has the counts the corpus README
//! records; every embedded shader decodes.

use dxso_fx::Effect;

#[test]
fn corpus_effects_parse_and_reencode() {
    let Some(dir) = dxso_corpus::corpus_or_skip("corpus_effects_parse_and_reencode") else {
        return;
    };
    let effects = dxso_corpus::effects(&dir);
    assert_eq!(
        effects.len(),
        37,
        "the README lists 37 effects, found {}",
        effects.len()
    );
    let mut ok = 0;
    let mut failures = Vec::new();
    for e in &effects {
        let bytes = e.bytes();
        let effect = match Effect::parse(&bytes) {
            Ok(effect) => effect,
            Err(err) => {
                failures.push(format!("{}: {err}", e.name));
                continue;
            }
        };
        let counts = (
            effect.parameters.len(),
            effect.techniques.len(),
            effect.pass_count(),
            effect.shaders().count(),
        );
        let expected = (e.parameters, e.techniques, e.passes, e.shaders);
        if counts != expected {
            failures.push(format!(
                "{}: (parameters, techniques, passes, shaders) expected {expected:?}, found {counts:?}",
                e.name
            ));
            continue;
        }
        if effect.encode() != bytes {
            failures.push(format!("{}: re-encoding differs", e.name));
            continue;
        }
        ok += 1;
    }
    println!(
        "corpus effects: {ok}/{} parse, match the README counts and re-encode bit-exact",
        effects.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn prsi_ranges_are_the_registers_preshaders_write() {
    let Some(dir) = dxso_corpus::corpus_or_skip("prsi_ranges_are_the_registers_preshaders_write")
    else {
        return;
    };
    let mut preshaders = 0;
    for e in dxso_corpus::effects(&dir) {
        let effect = Effect::parse(&e.bytes()).unwrap();
        for (source, sh) in effect.shaders() {
            let Some(program) = sh.preshader() else {
                continue;
            };
            let program = program.unwrap();
            let ranges = program
                .register_ranges()
                .unwrap_or_else(|| panic!("{} {source:?}: PRSI of another layout", e.name));
            // The registers the instructions write, per file (float, bool, int).
            let mut written: [std::collections::BTreeSet<u32>; 3] = Default::default();
            for ins in program.instructions() {
                let r = ins.output.register;
                let file = match r.table {
                    dxso_fx::program::Table::Output => 0,
                    dxso_fx::program::Table::BoolOutput => 1,
                    dxso_fx::program::Table::IntOutput => 2,
                    _ => continue,
                };
                written[file].insert(r.index());
            }
            for (file, written) in written.iter().enumerate() {
                let listed: std::collections::BTreeSet<u32> = ranges.ranges[file]
                    .iter()
                    .flat_map(|&(first, n)| first..first + n)
                    .collect();
                assert_eq!(&listed, written, "{} {source:?}: file {file}", e.name);
            }
            preshaders += 1;
        }
    }
    println!(
        "PRSI ranges: {preshaders}/{preshaders} preshaders list exactly the registers they write"
    );
    assert_eq!(
        preshaders, 41,
        "the corpus README counts 41 shaders with a preshader"
    );
}

#[test]
fn non_square_matrices_are_not_transposed() {
    // MojoShader reads columns first for every class and reports SkinnedEffect's float4x3
    // Bones as 3x4; native d3dx9 reads vectors columns-first and matrices rows-first.
    let Some(dir) = dxso_corpus::corpus_or_skip("non_square_matrices_are_not_transposed") else {
        return;
    };
    let bytes = std::fs::read(dir.join("effects/fna_SkinnedEffect.fxb")).unwrap();
    let effect = Effect::parse(&bytes).unwrap();
    let (_, bones) = effect.parameter("Bones").unwrap();
    assert_eq!(
        (
            bones.ty.class_name().as_ref(),
            bones.ty.rows(),
            bones.ty.columns(),
            bones.ty.elements
        ),
        ("matrix_rows", 4, 3, 72)
    );
}
