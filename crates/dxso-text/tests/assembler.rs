//! One [`dxso_text::Assembler`] kept over many texts gives what the free functions give for
//! each text alone: the words it remembers from the texts before change nothing.

use dxso_text::{Assembler, ParseOptions};

/// Shows a result for comparison (diagnostics by their text).
fn shown<T: std::fmt::Debug>(r: Result<T, dxso_text::Diagnostics>) -> String {
    match r {
        Ok(v) => format!("{v:?}"),
        Err(d) => format!("error: {d}"),
    }
}

#[test]
fn an_assembler_kept_over_the_corpus_gives_what_each_text_alone_gives() {
    let Some(dir) = dxso_corpus::corpus_or_skip("an_assembler_kept_over_the_corpus") else {
        return;
    };
    let mut texts = Vec::new();
    for e in dxso_corpus::entries(&dir) {
        if let Ok(shader) = dxso::decode(&e.bytes()) {
            texts.push(dxso_text::print(&shader));
        }
        for suffix in ["ms.asm", "src.asm"] {
            if let Some(p) = e.sibling(suffix) {
                texts.push(std::fs::read_to_string(p).expect("corpus text"));
            }
        }
    }
    let mut assembler = Assembler::new();
    let mut assembled = 0;
    // Texts of every version interleaved, strictly and not: contexts follow each other in
    // the assembler's tables.
    for strict in [false, true] {
        let options = ParseOptions {
            strict,
            ..Default::default()
        };
        for text in &texts {
            let bytes = assembler.assemble_with(text, &options);
            assembled += bytes.is_ok() as usize;
            assert_eq!(
                shown(bytes),
                shown(dxso_text::assemble_with(text, &options)),
                "assemble_with, strict {strict}:\n{text}"
            );
            assert_eq!(
                shown(assembler.parse_with(text, &options)),
                shown(dxso_text::parse_with(text, &options)),
                "parse_with, strict {strict}:\n{text}"
            );
        }
    }
    assert!(
        assembled * 10 >= texts.len() * 2 * 9,
        "{assembled} of {}",
        texts.len() * 2
    );
}

#[test]
fn the_short_forms_are_the_default_options() {
    let text = "vs_2_0\ndcl_position v0\nmov oPos, v0\n";
    let mut assembler = Assembler::default();
    let bytes = assembler.assemble(text).expect("assembles");
    assert_eq!(bytes, dxso_text::assemble(text).expect("assembles"));
    let shader = assembler.parse(text).expect("assembles");
    assert_eq!(dxso::encode(&shader), bytes);
    let (again, warnings) = assembler
        .assemble_with_warnings(text, &ParseOptions::default())
        .expect("assembles");
    assert_eq!((again, warnings.len()), (bytes, 0));
    let (shader_again, _) = assembler
        .parse_with_warnings(text, &ParseOptions::default())
        .expect("assembles");
    assert_eq!(shader_again, shader);
    assert!(assembler.assemble("vs_2_0\nmov oPos, q0\n").is_err());
}
