//! Any bytes (zero-padded to whole DWORDs): a shader that decodes validates without panicking, every diagnostic points inside
//! the stream, and validation is deterministic.

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let data: &[u8] = &crate::input::padded(data);
    if let Ok(shader) = dxso::decode(data) {
        let report = dxso::validate(&shader);
        let dwords = data.len() / 4;
        for d in &report.diagnostics {
            assert!(
                d.offset < dwords,
                "diagnostic offset {} past {dwords} DWORDs",
                d.offset
            );
            let _ = d.to_string();
        }
        assert_eq!(report, dxso::validate(&shader));
    }
}
