//! `assemble` (text to bytes) against `parse` then `encode` on generated programs' listings:
//! the same bytes for every listing, and for damaged listings the same bytes or the same
//! diagnostics.

use dxso_smith::{Config, Shader};
use proptest::prelude::*;

/// `assemble(text)` is `encode(parse(text))`, or fails with the same diagnostics.
fn same_as_parse_then_encode(text: &str) -> Result<bool, TestCaseError> {
    match (dxso_text::assemble(text), dxso_text::parse(text)) {
        (Ok(bytes), Ok(shader)) => {
            prop_assert_eq!(bytes, dxso::encode(&shader), "{}", text);
            Ok(true)
        }
        (Err(got), Err(want)) => {
            prop_assert_eq!(got, want, "{}", text);
            Ok(false)
        }
        (got, want) => Err(TestCaseError::fail(format!(
            "assemble: {:?}, parse: {:?}\n{text}",
            got.map(|b| b.len()),
            want.map(|s| s.items.len())
        ))),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn assemble_gives_the_bytes_of_parse_then_encode(
        seed in any::<u64>(),
        differential in any::<bool>(),
    ) {
        let config = if differential { Config::differential() } else { Config::default() };
        let program = Shader::from_seed(seed, &config);
        let listing = dxso_text::print(program.shader());
        prop_assert!(same_as_parse_then_encode(&listing)?, "the listing does not assemble\n{}", listing);
    }

    #[test]
    fn damaged_listings_give_the_same_bytes_or_the_same_diagnostics(
        seed in any::<u64>(),
        at in any::<prop::sample::Index>(),
        damage in prop::sample::select(vec![
            "", "x", ",", ".", "_sat", " r0", "#define A", "/*", "\\", "1.#INF", "[a0.x]",
            "-", "\n", "\nfoo\n", "c99999", ";", "(p0.x)", "\r", "é", "\0",
        ]),
        cut in 0usize..4,
    ) {
        let program = Shader::from_seed(seed, &Config::default());
        let listing = dxso_text::print(program.shader());
        let mut at = at.index(listing.len() + 1);
        while !listing.is_char_boundary(at) {
            at -= 1;
        }
        let end = (at + cut).min(listing.len());
        let end = (end..=listing.len()).find(|&e| listing.is_char_boundary(e)).unwrap_or(listing.len());
        let text = format!("{}{damage}{}", &listing[..at], &listing[end..]);
        same_as_parse_then_encode(&text)?;
    }
}
