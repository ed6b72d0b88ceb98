//! Any bytes: `decode` returns `Ok` or `Err`, never panics; a decoded shader re-encodes to the
//! same bytes, and every CTAB and DBUG table that parses re-encodes to the same payload.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(shader) = dxso::decode(data) {
        assert_eq!(dxso::encode(&shader), data, "re-encoding differs");
        for c in shader.comments() {
            if let Ok(table) = dxso::ConstantTable::parse(&c.data) {
                assert_eq!(table.to_words(), c.data, "CTAB re-encoding differs");
            }
            if let Ok(table) = dxso::DebugInfo::parse(&c.data) {
                assert_eq!(table.to_words(), c.data, "DBUG re-encoding differs");
            }
        }
    }
});
