//! Any text: `parse` returns `Ok` or `Err`, never panics or hangs; the single-pass assembler
//! (tried when no macro is defined) and the full path (forced by defining one the text does not
//! use) accept the same texts and give the same shaders; `assemble_with` (text straight to
//! bytes) gives the bytes of `encode` of that shader, or the same diagnostics; an assembled
//! shader prints to a lossless listing that assembles back to the same bytes, and (unless the
//! text gave comment blocks as `// dxso:` lines) to Microsoft's listing that assembles back to
//! the same shader.

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    // Includes resolve to nothing: the fuzzer must not read the file system.
    let options = dxso_text::ParseOptions {
        include_reader: Some(Box::new(|_| {
            Err(std::io::Error::new(std::io::ErrorKind::NotFound, "fuzzing"))
        })),
        ..Default::default()
    };
    let parsed = dxso_text::parse_with(&text, &options);
    match (dxso_text::assemble_with(&text, &options), &parsed) {
        (Ok(bytes), Ok(shader)) => {
            assert_eq!(
                bytes,
                dxso::encode(shader),
                "assemble_with and parse + encode differ"
            )
        }
        (Err(a), Err(b)) => assert_eq!(&a, b, "assemble_with and parse report differently"),
        (a, b) => panic!(
            "assemble_with and parse disagree: {:?} / {:?}",
            a.is_ok(),
            b.is_ok()
        ),
    }
    const UNUSED: &str = "DXSO_FUZZ_FULL_PATH";
    if !text.contains(UNUSED) {
        let full = dxso_text::parse_with(
            &text,
            &dxso_text::ParseOptions {
                include_reader: Some(Box::new(|_| {
                    Err(std::io::Error::new(std::io::ErrorKind::NotFound, "fuzzing"))
                })),
                defines: vec![(UNUSED.into(), "1".into())],
                ..Default::default()
            },
        );
        match (&parsed, &full) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "the paths give different shaders"),
            (Err(_), Err(_)) => {}
            _ => panic!(
                "one path assembles and the other does not: {:?} / {:?}",
                parsed.is_ok(),
                full.is_ok()
            ),
        }
    }
    if let Ok(shader) = parsed {
        // The lossless listing, which keeps every comment block (the text may give some as
        // `// dxso:` lines), always gives the bytes back.
        let lossless = dxso_text::PrintOptions {
            lossless: true,
            ..Default::default()
        };
        let listing = dxso_text::print_with(&shader, &lossless);
        let again = dxso_text::parse(&listing)
            .unwrap_or_else(|e| panic!("lossless listing does not assemble: {e}\n{listing}"));
        assert_eq!(
            dxso::encode(&again),
            dxso::encode(&shader),
            "listing:\n{listing}"
        );
        // Microsoft's listing keeps what it shows: the instructions and a CTAB rebuilt from
        // the header (not blocks the text gave as `// dxso:` lines).
        if text.contains("dxso:") {
            return;
        }
        let listing = dxso_text::print(&shader);
        let again = dxso_text::parse(&listing)
            .unwrap_or_else(|e| panic!("listing does not assemble: {e}\n{listing}"));
        assert_eq!(again, shader, "listing:\n{listing}");
    }
}
