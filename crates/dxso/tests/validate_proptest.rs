//! `validate` on arbitrary models (not only what `decode` produces: hand-built shaders can hold
//! shapes, relative encodings and register numbers no stream has): it never panics, every
//! diagnostic points inside the encoded stream, and the result is deterministic.

use dxso::{
    validate, Comment, DclToken, DstParam, Extra, Instruction, Item, Opcode, Register,
    RegisterType, Relative, RelativeToken, ResultModifiers, Shader, Shift, SrcModifier, SrcParam,
    Swizzle, Version, WriteMask,
};
use proptest::prelude::*;

fn register() -> impl Strategy<Value = Register> {
    (
        0..=RegisterType::MAX_RAW,
        prop_oneof![0u16..16, 0u16..=u16::MAX],
    )
        .prop_map(|(t, n)| Register::new(RegisterType::from_raw(t).unwrap(), n))
}

fn relative() -> impl Strategy<Value = Option<Relative>> {
    prop_oneof![
        4 => Just(None),
        1 => Just(Some(Relative::Implicit)),
        1 => (register(), 0u8..4, 0u8..16, 0u8..8).prop_map(|(r, c, m, res)| {
            Some(Relative::Token(RelativeToken { modifier: m, reserved: res, ..RelativeToken::new(r, c) }))
        }),
    ]
}

fn dst() -> impl Strategy<Value = DstParam> {
    (register(), relative(), 0u8..16, 0u8..16, 0u8..16, 0u8..4).prop_map(
        |(r, rel, m, rm, sh, res)| DstParam {
            register: r,
            relative: rel,
            mask: WriteMask(m),
            modifiers: ResultModifiers(rm),
            shift: Shift::from_raw(sh),
            reserved: res,
        },
    )
}

fn src() -> impl Strategy<Value = SrcParam> {
    (register(), relative(), any::<u8>(), 0u8..14, 0u8..4).prop_map(|(r, rel, sw, m, res)| {
        SrcParam {
            register: r,
            relative: rel,
            swizzle: Swizzle(sw),
            modifier: SrcModifier::from_raw(m).unwrap(),
            reserved: res,
        }
    })
}

fn instruction() -> impl Strategy<Value = Instruction> {
    (
        0..Opcode::ALL.len(),
        any::<u8>(),
        any::<bool>(),
        any::<bool>(),
        0u8..16,
        proptest::option::of(dst()),
        proptest::option::weighted(0.2, src()),
        proptest::collection::vec(src(), 0..=4),
        0u8..5,
        any::<u32>(),
    )
        .prop_map(
            |(op, control, coissue, reserved, len, dst, pred, srcs, extra, bits)| {
                let mut inst = Instruction::new(Opcode::ALL[op]);
                inst.control = control;
                inst.coissue = coissue;
                inst.reserved = reserved;
                inst.sm1_length = len;
                inst.dst = dst;
                inst.predicate = pred;
                for s in srcs {
                    let _ = inst.srcs.push(s);
                }
                inst.extra = match extra {
                    1 => Extra::Dcl(DclToken::from_token(bits)),
                    2 => Extra::Def([bits; 4]),
                    3 => Extra::DefI([bits as i32; 4]),
                    4 => Extra::DefB(bits),
                    _ => Extra::None,
                };
                inst
            },
        )
}

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
        (any::<bool>(), any::<u8>(), any::<u8>()).prop_map(|(v, a, b)| if v {
            Version::vs(a, b)
        } else {
            Version::ps(a, b)
        }),
    ]
}

fn shader() -> impl Strategy<Value = Shader> {
    (
        version(),
        proptest::collection::vec(
            prop_oneof![
                9 => instruction().prop_map(Item::Instruction),
                1 => proptest::collection::vec(any::<u32>(), 0..8).prop_map(|data| Item::Comment(Comment { data })),
            ],
            0..40,
        ),
    )
        .prop_map(|(version, items)| Shader { version, items })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn never_panics_and_points_inside(sh in shader()) {
        let report = validate(&sh);
        let words = dxso::encode_words(&sh);
        for d in &report.diagnostics {
            prop_assert!(d.offset < words.len(), "{d} past {} DWORDs", words.len());
            if let Some(item) = d.item {
                prop_assert!(item < sh.items.len());
            }
        }
        prop_assert_eq!(report, validate(&sh));
    }
}

#[test]
fn long_call_chains_do_not_overflow() {
    // main calls l0, l0 calls l1, ... 20000 deep: reported, not a stack overflow.
    let label = |n: u16| {
        SrcParam::new(
            Register::new(RegisterType::Label, n % 2048),
            Swizzle::IDENTITY,
        )
    };
    let mut items = Vec::new();
    let call = |n| {
        let mut c = Instruction::new(Opcode::Call);
        c.srcs.push(label(n)).unwrap();
        Item::Instruction(c)
    };
    items.push(call(0));
    items.push(Item::Instruction(Instruction::new(Opcode::Ret)));
    for n in 0..20_000u16 {
        let mut l = Instruction::new(Opcode::Label);
        l.srcs.push(label(n)).unwrap();
        items.push(Item::Instruction(l));
        items.push(call(n + 1));
        items.push(Item::Instruction(Instruction::new(Opcode::Ret)));
    }
    let sh = Shader {
        version: Version::vs(3, 0),
        items,
    };
    let report = validate(&sh);
    assert!(report.rules().contains(&dxso::Rule::NestingDepth));
}
