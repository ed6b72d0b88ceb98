//! Any bytes (zero-padded to whole DWORDs): `decode` returns `Ok` or `Err`, never panics; the
//! streaming `Reader` (what `dxso dump` walks) yields the same items or stops at the same error;
//! a decoded shader re-encodes to the same bytes, and every CTAB and DBUG table that parses
//! re-encodes to the same payload.

/// The shader as `Reader` yields it, item by item.
fn decode_streaming(data: &[u8]) -> Result<dxso::Shader, dxso::DecodeError> {
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
        decode_streaming(data),
        "decode and the streaming Reader differ"
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
