//! `decode` takes a fast path for the common shader model 2+ instructions and leaves everything
//! else to the general decoder; [`dxso::Reader`] uses the general decoder alone. The two must
//! agree on every stream: the same shader, or the same error at the same DWORD.

use dxso::opcode::{Operands, TABLE};
use dxso::{DecodeError, Item, Reader, Shader};
use proptest::prelude::*;

/// Decodes through the general per-item reader only.
fn decode_general(words: &[u32]) -> Result<Shader, DecodeError> {
    let mut reader = Reader::new(words)?;
    let mut items = Vec::new();
    while let Some((_, item)) = reader.next_item()? {
        items.push(item);
    }
    Ok(Shader {
        version: reader.version(),
        items,
    })
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn fast_path_agrees_with_the_general_decoder_on_the_corpus() {
    let Some(dir) = dxso_corpus::corpus_or_skip("fast_path_agrees_with_the_general_decoder") else {
        return;
    };
    let entries = dxso_corpus::entries(&dir);
    let (mut same, mut instructions, mut flips) = (0, 0, 0);
    for e in &entries {
        let bytes = e.bytes();
        let mut w = words(&bytes);
        let fast = dxso::decode_words(&w);
        assert_eq!(fast, decode_general(&w), "{}", e.rel);
        if let Ok(s) = &fast {
            instructions += s
                .items
                .iter()
                .filter(|i| matches!(i, Item::Instruction(_)))
                .count();
        }
        same += 1;
        // Every single-bit flip of the first 16 instruction-stream DWORDs: corrupt tokens must
        // fall back to the general decoder and get its answer.
        for bit in 32..(w.len().min(17) * 32) {
            w[bit / 32] ^= 1 << (bit % 32);
            assert_eq!(
                dxso::decode_words(&w),
                decode_general(&w),
                "{} with bit {bit} flipped",
                e.rel
            );
            w[bit / 32] ^= 1 << (bit % 32);
            flips += 1;
        }
    }
    println!(
        "fast path: {same}/{} shaders ({instructions} instructions) and {flips} bit flips decode \
         the same as the general decoder",
        entries.len()
    );
    assert_eq!(
        same,
        entries.len(),
        "expected every corpus shader to be compared"
    );
}

/// A parameter token: mostly the common case (bit 31, no relative bit, a register type and a
/// modifier in range), sometimes any bits with bit 31, sometimes any bits.
fn param() -> impl Strategy<Value = u32> {
    (any::<u32>(), 0u32..16).prop_map(|(bits, kind)| match kind {
        0..=13 => {
            let ty = bits % 20;
            (bits & 0x0DFF_07FF) | 0x8000_0000 | (ty & 7) << 28 | (ty & 0x18) << 8
        }
        14 => bits | 0x8000_0000,
        _ => bits,
    })
}

/// One instruction: usually an opcode of the table with the parameters its shader model 3 shape
/// takes and a length field that counts them; now and then any opcode value, another
/// parameter count, another length field, the predicate, co-issue and reserved bits.
fn instruction() -> impl Strategy<Value = Vec<u32>> {
    (
        0..TABLE.len(),
        prop_oneof![8 => Just(None), 1 => any::<u16>().prop_map(Some)],
        prop_oneof![8 => Just(None), 1 => (0usize..7).prop_map(Some)],
        proptest::collection::vec(param(), 7),
        prop_oneof![8 => Just(None), 1 => (0u32..16).prop_map(Some)],
        any::<u8>(),
        prop_oneof![8 => Just(0u32), 1 => 0u32..8],
    )
        .prop_map(|(row, raw_op, count, params, len, control, top)| {
            let info = &TABLE[row];
            let op = raw_op.map_or(info.opcode.raw(), |r| r) as u32;
            let shape = info.operands(dxso::Version::ps(3, 0));
            let count = count.unwrap_or(match shape {
                Operands::DstSrc(n) => 1 + n as usize,
                Operands::Src(n) => n as usize,
                other => other.token_count() as usize,
            });
            let len = len.unwrap_or(count as u32);
            let mut w = vec![op | (control as u32) << 16 | len << 24 | top << 28];
            w.extend(&params[..count]);
            w
        })
}

/// Shader model 2+ token streams of instructions, comments and stray DWORDs.
fn body() -> impl Strategy<Value = Vec<u32>> {
    let comment = proptest::collection::vec(any::<u32>(), 0..6).prop_map(|data| {
        let mut w = vec![0xFFFE | (data.len() as u32) << 16];
        w.extend(data);
        w
    });
    proptest::collection::vec(
        prop_oneof![16 => instruction(), 1 => comment, 1 => any::<u32>().prop_map(|w| vec![w])],
        0..24,
    )
    .prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn fast_path_agrees_with_the_general_decoder(
        pixel in any::<bool>(),
        (major, minor) in prop_oneof![Just((2u8, 0u8)), Just((2, 1)), Just((3, 0)), Just((3, 0xFF)), Just((1, 1))],
        body in body(),
        end in any::<bool>(),
    ) {
        let version = if pixel { dxso::Version::ps(major, minor) } else { dxso::Version::vs(major, minor) };
        let mut w = vec![version.to_token()];
        w.extend(body);
        if end {
            w.push(0x0000_FFFF);
        }
        prop_assert_eq!(dxso::decode_words(&w), decode_general(&w));
    }
}
