//! Any text: `parse` returns `Ok` or `Err`, never panics or hangs; an assembled shader prints
//! to a listing that assembles back to the same shader.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // Includes resolve to nothing: the fuzzer must not read the file system.
    let options = dxso_text::ParseOptions {
        include_reader: Some(Box::new(|_| {
            Err(std::io::Error::new(std::io::ErrorKind::NotFound, "fuzzing"))
        })),
        ..Default::default()
    };
    if let Ok(shader) = dxso_text::parse_with(&text, &options) {
        let listing = dxso_text::print(&shader);
        let again = dxso_text::parse(&listing)
            .unwrap_or_else(|e| panic!("listing does not assemble: {e}\n{listing}"));
        assert_eq!(again, shader, "listing:\n{listing}");
    }
});
