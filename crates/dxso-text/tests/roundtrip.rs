//! Round trips through text over the corpus:
//! - every shader: `parse(print(decode(b)))` encodes to `b` without its comment blocks (a
//!   listing carries no CTAB bytes);
//! - every assembler pair (`.src.asm` beside `.dxso`: Wine's tests, SDL's D3DXAssembleShader
//!   output) assembles to exactly the expected bytes.

use dxso::{decode, encode, Item};

fn without_comments(mut shader: dxso::Shader) -> Vec<u8> {
    shader.items.retain(|i| !matches!(i, Item::Comment(_)));
    encode(&shader)
}

#[test]
fn corpus_shaders_round_trip_through_text() {
    let Some(dir) = dxso_corpus::corpus_or_skip("corpus_shaders_round_trip_through_text") else {
        return;
    };
    let entries = dxso_corpus::entries(&dir);
    let mut misses = Vec::new();
    for e in &entries {
        let shader = decode(&e.bytes()).unwrap();
        let listing = dxso_text::print(&shader);
        let want = without_comments(shader);
        match dxso_text::parse(&listing) {
            Ok(back) if encode(&back) == want => {}
            Ok(back) => {
                let (w, g) = (dxso::decode(&want).unwrap(), back);
                let diff = w
                    .items
                    .iter()
                    .zip(&g.items)
                    .position(|(a, b)| a != b)
                    .map(|i| {
                        format!(
                            "item {i}: want {:?}\n      got {:?}",
                            w.items[i], g.items[i]
                        )
                    })
                    .unwrap_or_else(|| "lengths differ".into());
                misses.push(format!("{}: bytes differ at {diff}", e.rel));
            }
            Err(d) => misses.push(format!("{}: {d}", e.rel)),
        }
    }
    let n = entries.len();
    println!(
        "shaders round-tripped through text: {}/{n}",
        n - misses.len()
    );
    for m in misses.iter().take(40) {
        println!("  {m}");
    }
    assert!(
        misses.is_empty(),
        "{} shader(s) do not round-trip",
        misses.len()
    );
}

#[test]
fn assembler_pairs_give_the_expected_bytes() {
    let Some(dir) = dxso_corpus::corpus_or_skip("assembler_pairs_give_the_expected_bytes") else {
        return;
    };
    let (mut total, mut misses) = (0, Vec::new());
    for e in dxso_corpus::entries(&dir) {
        let Some(src) = e.sibling("src.asm") else {
            continue;
        };
        total += 1;
        let text = std::fs::read_to_string(&src).unwrap();
        let want = e.bytes();
        match dxso_text::parse(&text) {
            Ok(s) => {
                let got = encode(&s);
                if got != want {
                    let words = |b: &[u8]| {
                        b.chunks(4)
                            .map(|c| {
                                format!("{:08x}", u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                            })
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    misses.push(format!(
                        "{}:\n      want {}\n      got  {}",
                        e.rel,
                        words(&want),
                        words(&got)
                    ));
                }
            }
            Err(d) => misses.push(format!("{}: {d}", e.rel)),
        }
    }
    println!(
        "assembler pairs giving the expected bytes: {}/{total}",
        total - misses.len()
    );
    for m in &misses {
        println!("  {m}");
    }
    assert!(
        misses.is_empty(),
        "expected all {total} assembler pairs to give their bytes; found {} that differ (listed \
         above)",
        misses.len()
    );
}
