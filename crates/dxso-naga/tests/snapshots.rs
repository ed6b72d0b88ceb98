//! WGSL snapshots (insta) of one representative corpus shader per version: for each version,
//! the valid shader that uses the most distinct opcodes (ties broken by path).

use std::collections::{BTreeMap, BTreeSet};

#[test]
fn wgsl_of_one_shader_per_version() {
    let Some(dir) = dxso_corpus::corpus_or_skip("wgsl_of_one_shader_per_version") else {
        return;
    };
    let mut best: BTreeMap<String, (usize, String, dxso::Shader)> = BTreeMap::new();
    for e in dxso_corpus::entries(&dir) {
        let Ok(shader) = dxso::decode(&e.bytes()) else {
            continue;
        };
        if !dxso::validate(&shader).is_valid() {
            continue;
        }
        let distinct: BTreeSet<_> = shader.instructions().map(|i| i.opcode).collect();
        let version = shader.version.to_string();
        let better = match best.get(&version) {
            None => true,
            Some((n, rel, _)) => distinct.len() > *n || (distinct.len() == *n && e.rel < *rel),
        };
        if better {
            best.insert(version, (distinct.len(), e.rel.clone(), shader));
        }
    }
    assert!(
        best.len() >= 11,
        "expected a shader of each of the 11 versions, found {}",
        best.len()
    );
    for (version, (_, rel, shader)) in best {
        let t = dxso_naga::translate(&shader, &dxso_naga::Options::default())
            .unwrap_or_else(|e| panic!("{rel}: {e}"));
        let wgsl = t
            .write(dxso_naga::Target::Wgsl, &dxso_naga::WriteOptions::default())
            .unwrap();
        insta::with_settings!({ description => rel.clone(), omit_expression => true }, {
            insta::assert_snapshot!(version, wgsl.text().unwrap());
        });
    }
}
