//! Any bytes: `decode` returns `Ok` or `Err`, never panics; a decoded shader re-encodes to the
//! same bytes and decodes to the same model.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(shader) = dxso::decode(data) {
        let bytes = dxso::encode(&shader);
        assert_eq!(bytes, data, "re-encoding differs");
        if let Some(Ok(table)) = shader.constant_table() {
            let _ = table.to_words();
        }
    }
});
