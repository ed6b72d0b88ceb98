//! Every rule the decoder enforces, broken by a hand-made stream: the error names the rule and
//! the DWORD where it is broken, and the streaming `Reader` stops at the same place.

use dxso::{DecodeError, DecodeErrorKind as K, Reader};

const VS_1_1: u32 = 0xFFFE_0101;
const VS_2_0: u32 = 0xFFFE_0200;
const VS_3_0: u32 = 0xFFFE_0300;
const END: u32 = 0x0000_FFFF;
/// `r0` with all components written.
const DST: u32 = 0x800F_0000;
/// `r0` read as `.xyzw`.
const SRC: u32 = 0x80E4_0000;

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The error of `decode`, checked against the one `Reader` meets.
fn error(words: &[u32]) -> DecodeError {
    let err = dxso::decode(&bytes(words)).expect_err("the stream breaks a rule");
    let streamed = (|| -> Result<(), DecodeError> {
        let mut reader = Reader::new(words)?;
        while reader.next_item()?.is_some() {}
        Ok(())
    })();
    assert_eq!(streamed, Err(err.clone()), "Reader on {words:08x?}");
    err
}

fn at(dword: usize, kind: K) -> DecodeError {
    DecodeError { dword, kind }
}

#[test]
fn stream_structure() {
    assert_eq!(
        dxso::decode(&[0, 0, 0xFE, 0xFF, 0]),
        Err(at(1, K::UnalignedLength(5)))
    );
    assert_eq!(error(&[]), at(0, K::Empty));
    assert_eq!(error(&[0x1234_5678]), at(0, K::BadVersion(0x1234_5678)));
    assert_eq!(error(&[VS_2_0]), at(1, K::MissingEnd));
    assert_eq!(error(&[VS_2_0, END, 0, 0]), at(2, K::TrailingData(2)));
    assert_eq!(
        error(&[VS_2_0, 0x0001_FFFF]),
        at(1, K::MalformedEnd(0x0001_FFFF))
    );
    assert_eq!(
        error(&[VS_2_0, 0x0003_FFFE, 1, END]),
        at(
            1,
            K::Truncated {
                what: "comment",
                needed: 3,
                available: 2
            }
        )
    );
}

#[test]
fn instruction_tokens() {
    assert_eq!(
        error(&[VS_2_0, 0x8000_0001, DST, SRC, END]),
        at(1, K::InstructionBit31(0x8000_0001))
    );
    // 49..=63 and 97.. are no opcodes, below and above the table's 128 rows.
    assert_eq!(error(&[VS_2_0, 49, END]), at(1, K::UnknownOpcode(49)));
    assert_eq!(error(&[VS_2_0, 200, END]), at(1, K::UnknownOpcode(200)));
    assert_eq!(
        error(&[VS_2_0, 0x0300_0001, DST]),
        at(
            1,
            K::Truncated {
                what: "instruction",
                needed: 3,
                available: 1
            }
        )
    );
    // A missing end token after the last instruction.
    assert_eq!(
        error(&[VS_2_0, 0x0200_0001, DST, SRC]),
        at(4, K::MissingEnd)
    );
}

#[test]
fn length_fields() {
    let mismatch = |mnemonic, field, reason| K::LengthMismatch {
        mnemonic,
        field,
        reason,
    };
    // `dcl` with room for its usage token only: the destination is past the length.
    assert_eq!(
        error(&[VS_2_0, 0x0100_001F, 0x8000_0000, DST, END]),
        at(3, mismatch("dcl", 1, "the operands need more"))
    );
    assert_eq!(
        error(&[VS_2_0, 0x0300_0001, DST, SRC, SRC, END]),
        at(
            1,
            mismatch(
                "mov",
                3,
                "that gives a source count the opcode does not take"
            )
        )
    );
    assert_eq!(
        error(&[VS_2_0, 0x0600_0001, DST, SRC, SRC, SRC, SRC, SRC, END]),
        at(1, mismatch("mov", 6, "no opcode takes more than 4 sources"))
    );
    // A relative-address token the length field does not count.
    assert_eq!(
        error(&[VS_3_0, 0x0200_0001, DST, SRC | 0x2000, 0xB000_0000, END]),
        at(4, mismatch("mov", 2, "the operands need more"))
    );
}

#[test]
fn parameter_tokens() {
    assert_eq!(
        error(&[VS_2_0, 0x0200_0001, 0x000F_0000, SRC, END]),
        at(
            2,
            K::ParameterBit31 {
                what: "destination",
                token: 0x000F_0000
            }
        )
    );
    assert_eq!(
        error(&[VS_2_0, 0x0200_0001, DST, 0x00E4_0000, END]),
        at(
            3,
            K::ParameterBit31 {
                what: "source",
                token: 0x00E4_0000
            }
        )
    );
    assert_eq!(
        error(&[VS_2_0, 0x0200_001F, 0x0000_0000, DST, END]),
        at(
            2,
            K::ParameterBit31 {
                what: "dcl usage",
                token: 0
            }
        )
    );
    // Register type 31: 7 in bits 28-30, 3 in bits 11-12.
    assert_eq!(
        error(&[VS_2_0, 0x0200_0001, 0xF00F_1800, SRC, END]),
        at(2, K::UnknownRegisterType(31))
    );
    assert_eq!(
        error(&[VS_2_0, 0x0200_0001, DST, 0xF0E4_1800, END]),
        at(3, K::UnknownRegisterType(31))
    );
    // Source modifier 14, then 15 on the predicate of a predicated `mov`.
    assert_eq!(
        error(&[VS_2_0, 0x0200_0001, DST, 0x8EE4_0000, END]),
        at(3, K::UnknownSourceModifier(14))
    );
    assert_eq!(
        error(&[VS_3_0, 0x1300_0001, DST, 0xBFE4_1000, SRC, END]),
        at(3, K::UnknownSourceModifier(15))
    );
    // The relative-address token of `c[a0.x]`: bit 31 clear, then an unknown register type.
    assert_eq!(
        error(&[VS_3_0, 0x0300_0001, DST, 0xA0E4_2000, 0x3000_0000, END]),
        at(
            4,
            K::ParameterBit31 {
                what: "relative address",
                token: 0x3000_0000
            }
        )
    );
    assert_eq!(
        error(&[VS_3_0, 0x0300_0001, DST, 0xA0E4_2000, 0xF000_1800, END]),
        at(4, K::UnknownRegisterType(31))
    );
}

#[test]
fn shader_model_1_reads_operands_to_the_end_of_the_stream() {
    // No length field: a `mov` cut after its destination runs out of stream.
    assert_eq!(
        error(&[VS_1_1, 0x0000_0001, DST]),
        at(
            3,
            K::Truncated {
                what: "source",
                needed: 1,
                available: 0
            }
        )
    );
    // The relative bit alone: no extra token follows.
    let shader = dxso::decode(&bytes(&[VS_1_1, 0x0000_0001, DST, 0xA0E4_2000, END])).unwrap();
    let inst = shader.instructions().next().unwrap();
    assert_eq!(inst.srcs[0].relative, Some(dxso::Relative::Implicit));
}

#[test]
fn relative_and_predicated_operands_decode() {
    // vs_3_0: mov r0, c[a0.x] then (p0.x) mov r0, r0.
    let words = [
        VS_3_0,
        0x0300_0001,
        DST,
        0xA0E4_2000,
        0xB000_0000,
        0x1300_0001,
        DST,
        0xB000_1000,
        SRC,
        END,
    ];
    let shader = dxso::decode(&bytes(&words)).unwrap();
    let insts: Vec<_> = shader.instructions().collect();
    let Some(dxso::Relative::Token(rel)) = insts[0].srcs[0].relative else {
        panic!("c[a0.x] is relatively addressed: {:?}", insts[0]);
    };
    assert_eq!(rel.register.ty, dxso::RegisterType::Addr);
    assert!(insts[1].predicate.is_some());
    assert_eq!(insts[1].srcs.len(), 1);
    assert_eq!(dxso::encode_words(&shader), words);
}

#[test]
fn messages_name_the_dword_and_byte() {
    assert_eq!(
        error(&[VS_2_0, 0x0200_0001, DST, 0x8EE4_0000, END]).to_string(),
        "at DWORD 3 (byte 0xc): source modifier 14 is not a D3DSPSM_* value"
    );
}
