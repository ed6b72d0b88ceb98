//! DBUG debug tables. The input is a shader (seed with the corpus's DBUG shaders:
//! `cargo fuzz run dbug corpus/directxtk-level9`) or, when it does not decode, the
//! bytes of a table after its FOURCC. Parsing never panics; a table that parses re-encodes to the
//! same payload, reads back the same from a fresh layout, and checks against the code without
//! panicking; the debug lines change nothing for the assembler: whenever the listing without
//! them assembles, the listing with them (`#line` directives, annotations) assembles to the same
//! shader. (Whether every decodable shader's listing assembles is the printer's and assembler's
//! business, not this target's.)
#![no_main]

use dxso::dbug::{DebugInfo, DBUG_FOURCC};
use libfuzzer_sys::fuzz_target;

fn table(payload: &[u32], shader: Option<&dxso::Shader>) {
    let Ok(info) = DebugInfo::parse(payload) else {
        return;
    };
    assert_eq!(info.to_words(), payload, "re-encoding differs");
    let fresh = DebugInfo {
        layout: None,
        ..info.clone()
    };
    let mut back = DebugInfo::parse(&fresh.to_words()).expect("a fresh layout parses");
    back.layout = None;
    assert_eq!(back, fresh, "a fresh layout reads back differently");
    let _ = info.writes_by_instruction();
    if let Some(shader) = shader {
        let _ = info.check(shader);
    }
}

fuzz_target!(|data: &[u8]| {
    match dxso::decode(data) {
        Ok(shader) => {
            for c in shader.comments() {
                table(&c.data, Some(&shader));
            }
            let plain = dxso_text::PrintOptions {
                debug: false,
                ..Default::default()
            };
            if let Ok(code) = dxso_text::parse(&dxso_text::print_with(&shader, &plain)) {
                let listing = dxso_text::print(&shader);
                let back = dxso_text::parse(&listing)
                    .unwrap_or_else(|e| panic!("listing does not assemble: {e}\n{listing}"));
                assert_eq!(back, code, "listing:\n{listing}");
            }
        }
        Err(_) => {
            let mut payload = vec![DBUG_FOURCC];
            payload.extend(data.chunks(4).map(|c| {
                let mut w = [0u8; 4];
                w[..c.len()].copy_from_slice(c);
                u32::from_le_bytes(w)
            }));
            table(&payload, None);
        }
    }
});
