//! Every DBUG debug table in the corpus parses, re-encodes bit-exact (with its recorded
//! layout), describes the code it sits in (one record per instruction, at that instruction's
//! byte offset), and survives a fresh layout with the same content.

use dxso::dbug::{is_dbug, DebugInfo};
use dxso::decode;

#[test]
fn corpus_debug_tables_round_trip() {
    let Some(dir) = dxso_corpus::corpus_or_skip("corpus_debug_tables_round_trip") else {
        return;
    };
    let (mut blocks, mut exact, mut consistent, mut fresh_same) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for e in dxso_corpus::entries(&dir) {
        let shader = decode(&e.bytes()).unwrap();
        for c in shader.comments().filter(|c| is_dbug(&c.data)) {
            blocks += 1;
            let info = match DebugInfo::parse(&c.data) {
                Ok(info) => info,
                Err(err) => {
                    failures.push(format!("{}: {err}", e.rel));
                    continue;
                }
            };
            if info.to_words() == c.data {
                exact += 1;
            } else {
                failures.push(format!("{}: re-encoding differs", e.rel));
            }
            match info.check(&shader) {
                Ok(()) => consistent += 1,
                Err(m) => failures.push(format!("{}: {m}", e.rel)),
            }
            let fresh = DebugInfo {
                layout: None,
                ..info.clone()
            };
            if DebugInfo::parse_without_layout(&c.data).as_ref() != Ok(&fresh) {
                failures.push(format!("{}: read without layout differs", e.rel));
            }
            match DebugInfo::parse(&fresh.to_words()) {
                Ok(mut back) => {
                    back.layout = None;
                    if back == fresh {
                        fresh_same += 1;
                    } else {
                        failures.push(format!("{}: fresh layout reads back differently", e.rel));
                    }
                }
                Err(err) => failures.push(format!("{}: fresh layout: {err}", e.rel)),
            }
        }
    }
    println!(
        "DBUG tables: {exact}/{blocks} re-encode bit-exact, {consistent}/{blocks} match their code, \
         {fresh_same}/{blocks} read back the same from a fresh layout"
    );
    for f in &failures {
        println!("  {f}");
    }
    assert!(failures.is_empty(), "{} failure(s)", failures.len());
    // The directxtk-level9 set (built with /Zi) is the corpus's only source of DBUG blocks.
    assert_eq!(blocks, 121, "expected 121 DBUG blocks, found {blocks}");
}
