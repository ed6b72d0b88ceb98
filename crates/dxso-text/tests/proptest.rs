//! Random shaders that text can express: print, parse, and get the same shader back.

use dxso::{
    DclToken, DeclUsage, DstParam, Extra, Instruction, Item, Opcode, Register, RegisterType,
    Relative, RelativeToken, ResultModifiers, Shader, Shift, SrcModifier, SrcParam, Swizzle,
    TextureType, Version, WriteMask,
};
use proptest::prelude::*;

const VERSIONS: &[Version] = &[
    Version::vs(1, 1),
    Version::vs(2, 0),
    Version::vs(2, 1),
    Version::vs(3, 0),
    Version::ps(1, 1),
    Version::ps(1, 3),
    Version::ps(1, 4),
    Version::ps(2, 0),
    Version::ps(2, 1),
    Version::ps(3, 0),
];

/// Register files a source or destination can name in `v`, with their index ranges.
fn files(v: Version, dst: bool) -> Vec<(RegisterType, u16)> {
    use RegisterType::*;
    let mut f = vec![(Temp, 32), (Input, 16), (Const, 2047)];
    if v.is_vertex() {
        f.push((Addr, 1));
        if v.major < 3 {
            f.extend([(RastOut, 3), (AttrOut, 2), (Output, 8)]);
        } else {
            f.push((Output, 12));
        }
    } else {
        f.extend([(Addr, 8), (ColorOut, 4), (DepthOut, 1)]);
        if v.major >= 3 {
            f.push((MiscType, 2));
        }
    }
    if v.major >= 2 {
        f.extend([
            (ConstInt, 16),
            (ConstBool, 16),
            (Sampler, 16),
            (Const2, 2047),
        ]);
    }
    if dst {
        f.retain(|(t, _)| !matches!(t, ConstInt | ConstBool | Sampler | Const2 | MiscType));
    }
    f
}

fn register(v: Version, dst: bool) -> impl Strategy<Value = Register> {
    prop::sample::select(files(v, dst))
        .prop_flat_map(|(ty, n)| (0..n).prop_map(move |num| Register::new(ty, num)))
}

fn relative(v: Version, reg: Register) -> BoxedStrategy<Option<Relative>> {
    let relative_ok = reg.ty.is_float_const() || (v.major >= 3 && reg.ty == RegisterType::Input);
    if !relative_ok {
        return Just(None).boxed();
    }
    if v.is_sm1() {
        return if v.is_vertex() {
            prop_oneof![Just(None), Just(Some(Relative::Implicit))].boxed()
        } else {
            Just(None).boxed()
        };
    }
    let a0 = (0u8..4).prop_map(|c| {
        Some(Relative::Token(RelativeToken::new(
            Register::new(RegisterType::Addr, 0),
            c,
        )))
    });
    let al = Just(Some(Relative::Token(RelativeToken {
        register: Register::new(RegisterType::Loop, 0),
        swizzle: Swizzle::IDENTITY,
        modifier: 0,
        reserved: 0,
    })));
    if v.is_vertex() {
        prop_oneof![Just(None), a0, al].boxed()
    } else {
        prop_oneof![Just(None), al].boxed()
    }
}

fn src(v: Version) -> impl Strategy<Value = SrcParam> {
    register(v, false).prop_flat_map(move |reg| {
        let modifiers: Vec<SrcModifier> = match reg.ty {
            RegisterType::ConstBool => vec![SrcModifier::None, SrcModifier::Not],
            _ => (0..=12).filter_map(SrcModifier::from_raw).collect(),
        };
        (
            relative(v, reg),
            any::<u8>(),
            prop::sample::select(modifiers),
        )
            .prop_map(move |(relative, swz, modifier)| SrcParam {
                register: reg,
                relative,
                swizzle: Swizzle(swz),
                modifier,
                reserved: 0,
            })
    })
}

fn dst(v: Version) -> impl Strategy<Value = DstParam> {
    (register(v, true), 1u8..16, 0u8..4, -3i8..4).prop_map(move |(reg, mask, m, shift)| {
        let mut d = DstParam::new(reg, WriteMask(mask));
        d.modifiers = ResultModifiers(m);
        if v.is_pixel() && v.is_sm1() {
            d.shift = Shift(shift);
        }
        d
    })
}

fn arithmetic(v: Version) -> impl Strategy<Value = Instruction> {
    let ops: Vec<Opcode> = [
        Opcode::Mov,
        Opcode::Add,
        Opcode::Mad,
        Opcode::Mul,
        Opcode::Dp3,
        Opcode::Dp4,
        Opcode::Min,
        Opcode::Max,
        Opcode::Rcp,
        Opcode::Lrp,
        Opcode::Cmp,
        Opcode::Nop,
        Opcode::Rep,
        Opcode::EndRep,
        Opcode::If,
        Opcode::Ifc,
        Opcode::Else,
        Opcode::SetP,
        Opcode::Tex,
        Opcode::TexKill,
        Opcode::Phase,
        Opcode::Loop,
        Opcode::Call,
    ]
    .into_iter()
    .filter(|o| o.info().allowed_in(v))
    .collect();
    (
        prop::sample::select(ops),
        dst(v),
        prop::collection::vec(src(v), 4),
        1u8..7,
        0u8..3,
        any::<bool>(),
        prop::option::of((any::<bool>(), 0u8..4)),
    )
        .prop_map(move |(op, d, srcs, cmp, texmode, coissue, pred)| {
            let mut inst = Instruction::new(op);
            let shape = op.operands(v);
            if shape.has_dst() {
                inst.dst = Some(d);
            }
            for s in srcs.into_iter().take(shape.src_count() as usize) {
                let _ = inst.srcs.push(s);
            }
            if op.has_comparison() {
                inst.control = cmp;
            }
            if op == Opcode::Tex && v.at_least(2, 0) {
                inst.control = texmode;
            }
            inst.coissue = coissue && v.is_pixel() && v.is_sm1();
            if let Some((not, c)) = pred.filter(|_| v.at_least(2, 1)) {
                let mut p = SrcParam::new(
                    Register::new(RegisterType::Predicate, 0),
                    Swizzle::replicate(c),
                );
                if not {
                    p.modifier = SrcModifier::Not;
                }
                inst.predicate = Some(p);
            }
            inst
        })
}

fn declaration(v: Version) -> impl Strategy<Value = Instruction> {
    (
        0u16..16,
        any::<[u32; 4]>(),
        any::<[i32; 4]>(),
        any::<bool>(),
        0usize..14,
        0u8..16,
        2u8..5,
        0u8..4,
    )
        .prop_map(move |(n, bits, ints, b, usage, index, tex, pick)| {
            let bits = bits.map(|x| {
                if f32::from_bits(x).is_finite() {
                    x
                } else {
                    x & 0x3FFF_FFFF
                }
            });
            let (op, reg, extra) = match pick {
                0 => (
                    Opcode::Def,
                    Register::new(RegisterType::Const, n),
                    Extra::Def(bits),
                ),
                1 if v.major >= 2 => (
                    Opcode::DefI,
                    Register::new(RegisterType::ConstInt, n),
                    Extra::DefI(ints),
                ),
                2 if v.major >= 2 => (
                    Opcode::DefB,
                    Register::new(RegisterType::ConstBool, n),
                    Extra::DefB(b as u32),
                ),
                3 if v.major >= 2 && pick % 2 == 1 => (
                    Opcode::Dcl,
                    Register::new(RegisterType::Sampler, n),
                    Extra::Dcl(DclToken::sampler(TextureType::from_raw(tex).unwrap())),
                ),
                _ if v.is_vertex() || v.major >= 2 => (
                    Opcode::Dcl,
                    Register::new(RegisterType::Input, n),
                    Extra::Dcl(DclToken::usage(DeclUsage::ALL[usage], index)),
                ),
                _ => (
                    Opcode::Def,
                    Register::new(RegisterType::Const, n),
                    Extra::Def(bits),
                ),
            };
            let mut inst = Instruction::new(op);
            inst.dst = Some(DstParam::new(reg, WriteMask::ALL));
            inst.extra = extra;
            inst
        })
}

fn shader() -> impl Strategy<Value = Shader> {
    prop::sample::select(VERSIONS).prop_flat_map(|v| {
        prop::collection::vec(prop_oneof![3 => arithmetic(v), 1 => declaration(v)], 0..24).prop_map(
            move |insts| Shader {
                version: v,
                items: insts.into_iter().map(Item::Instruction).collect(),
            },
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn print_then_parse_gives_the_shader_back(shader in shader()) {
        let listing = dxso_text::print(&shader);
        let back = dxso_text::parse(&listing).map_err(|e| TestCaseError::fail(format!("{e}\n{listing}")))?;
        prop_assert_eq!(back, shader, "{}", listing);
    }

    #[test]
    fn parse_never_panics(text in "[ -~\n]{0,200}") {
        let _ = dxso_text::parse(&text);
    }
}
