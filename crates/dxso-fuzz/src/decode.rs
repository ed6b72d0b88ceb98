//! Any bytes (zero-padded to whole DWORDs): `decode` returns `Ok` or `Err`, never panics; it gives what the general
//! per-item decoder (`Reader`, which `decode`'s fast path falls back to) gives, the same shader
//! or the same error; a decoded shader re-encodes to the same bytes, and every CTAB and DBUG
//! table that parses re-encodes to the same payload.

/// The general decoder alone.
fn decode_general(data: &[u8]) -> Result<dxso::Shader, dxso::DecodeError> {
    let words = dxso::decode::words_of(data)?;
    let mut reader = dxso::Reader::new(&words)?;
    let mut items = Vec::new();
    while let Some((_, item)) = reader.next_item()? {
        items.push(item);
    }
    Ok(dxso::Shader {
        version: reader.version(),
        items,
    })
}

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let data: &[u8] = &crate::input::padded(data);
    let decoded = dxso::decode(data);
    assert_eq!(
        decoded,
        decode_general(data),
        "the fast path and the general decoder differ"
    );
    if let Ok(shader) = decoded {
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
}
