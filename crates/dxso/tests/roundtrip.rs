//! Property tests: random valid shaders survive `encode` then `decode` unchanged, and any token
//! stream that decodes re-encodes to the same bytes.

use dxso::opcode::{Operands, TABLE};
use dxso::{
    Comment, DclToken, DstParam, Extra, Instruction, Item, Register, RegisterType, Relative,
    RelativeToken, ResultModifiers, Shader, Shift, SrcModifier, SrcParam, Swizzle, Version,
    WriteMask,
};
use proptest::prelude::*;

fn version() -> impl Strategy<Value = Version> {
    prop_oneof![
        Just(Version::vs(1, 1)),
        Just(Version::vs(2, 0)),
        Just(Version::vs(2, 1)),
        Just(Version::vs(3, 0)),
        Just(Version::vs(3, 0xFF)),
        Just(Version::ps(1, 1)),
        Just(Version::ps(1, 3)),
        Just(Version::ps(1, 4)),
        Just(Version::ps(2, 0)),
        Just(Version::ps(2, 1)),
        Just(Version::ps(3, 0)),
    ]
}

fn register() -> impl Strategy<Value = Register> {
    (0..=RegisterType::MAX_RAW, 0u16..=Register::MAX_NUM)
        .prop_map(|(t, n)| Register::new(RegisterType::from_raw(t).unwrap(), n))
}

fn relative(sm1: bool) -> BoxedStrategy<Option<Relative>> {
    if sm1 {
        prop_oneof![Just(None), Just(Some(Relative::Implicit))].boxed()
    } else {
        prop_oneof![
            3 => Just(None),
            1 => (prop_oneof![Just(RegisterType::Addr), Just(RegisterType::Loop)], 0u8..4)
                .prop_map(|(ty, c)| Some(Relative::Token(RelativeToken::new(Register::new(ty, 0), c)))),
        ]
        .boxed()
    }
}

fn src(sm1: bool) -> impl Strategy<Value = SrcParam> {
    (register(), relative(sm1), any::<u8>(), 0u8..=13, 0u8..4).prop_map(
        |(register, relative, swizzle, modifier, reserved)| SrcParam {
            register,
            relative,
            swizzle: Swizzle(swizzle),
            modifier: SrcModifier::from_raw(modifier).unwrap(),
            reserved,
        },
    )
}

fn dst(sm1: bool) -> impl Strategy<Value = DstParam> {
    (register(), relative(sm1), 0u8..16, 0u8..16, 0u8..16, 0u8..4).prop_map(
        |(register, relative, mask, mods, shift, reserved)| DstParam {
            register,
            relative,
            mask: WriteMask(mask),
            modifiers: ResultModifiers(mods),
            shift: Shift::from_raw(shift),
            reserved,
        },
    )
}

fn instruction(version: Version) -> impl Strategy<Value = Instruction> {
    let sm1 = version.is_sm1();
    (
        0..TABLE.len(),
        any::<u8>(),
        any::<bool>(),
        any::<bool>(),
        0u8..16,
        dst(sm1),
        proptest::option::of(src(sm1)),
        proptest::collection::vec(src(sm1), 4),
        any::<[u32; 4]>(),
    )
        .prop_map(
            move |(row, control, coissue, reserved, sm1_length, d, pred, srcs, imm)| {
                let info = &TABLE[row];
                let mut inst = Instruction::new(info.opcode);
                inst.control = control;
                inst.coissue = coissue;
                inst.reserved = reserved;
                inst.sm1_length = if sm1 { sm1_length } else { 0 };
                inst.predicate = pred;
                let ops = info.operands(version);
                match ops {
                    Operands::Dcl => {
                        inst.dst = Some(d);
                        inst.extra = Extra::Dcl(DclToken::from_token(imm[0] | 1 << 31));
                    }
                    Operands::Def => {
                        inst.dst = Some(d);
                        inst.extra = Extra::Def(imm);
                    }
                    Operands::DefI => {
                        inst.dst = Some(d);
                        inst.extra = Extra::DefI(imm.map(|x| x as i32));
                    }
                    Operands::DefB => {
                        inst.dst = Some(d);
                        inst.extra = Extra::DefB(imm[0]);
                    }
                    Operands::DstSrc(_) => inst.dst = Some(d),
                    Operands::None | Operands::Src(_) => {}
                }
                let n = ops.src_count() as usize;
                inst.srcs = dxso::Sources::from_slice(&srcs[..n]).unwrap();
                inst
            },
        )
}

fn shader() -> impl Strategy<Value = Shader> {
    version().prop_flat_map(|v| {
        proptest::collection::vec(
            prop_oneof![
                8 => instruction(v).prop_map(Item::Instruction),
                1 => proptest::collection::vec(any::<u32>(), 0..12)
                    .prop_map(|data| Item::Comment(Comment { data })),
            ],
            0..40,
        )
        .prop_map(move |items| Shader { version: v, items })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn model_survives_encode_decode(s in shader()) {
        let bytes = dxso::encode(&s);
        let back = dxso::decode(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back, &s);
        prop_assert_eq!(dxso::encode(&back), bytes);
    }

    #[test]
    fn bytes_that_decode_re_encode_exactly(
        v in version(),
        body in proptest::collection::vec(
            prop_oneof![any::<u32>(), 0u32..100, (0u32..100).prop_map(|x| x | 0x8000_0000)],
            0..24,
        ),
    ) {
        let mut words = vec![v.to_token()];
        words.extend(body);
        words.push(0x0000_FFFF);
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        if let Ok(s) = dxso::decode(&bytes) {
            prop_assert_eq!(dxso::encode(&s), bytes);
        }
    }
}
