//! The negative suite: for every rule, a shader built with the model that breaks exactly that
//! rule and gets exactly that rule id; and per-version baselines that validate clean.

use super::*;
use crate::instruction::{DclToken, DeclUsage, Extra, TextureType};
use crate::opcode::Opcode::{self, *};
use crate::param::{
    DstParam, Relative, RelativeToken, ResultModifiers, Shift, SrcModifier, SrcParam, Swizzle,
    WriteMask,
};
use crate::register::{Register, RegisterType as T};
use crate::{Comment, Version};

fn reg(ty: T, n: u16) -> Register {
    Register::new(ty, n)
}
fn d(ty: T, n: u16) -> DstParam {
    DstParam::new(reg(ty, n), WriteMask::ALL)
}
fn dm(ty: T, n: u16, mask: WriteMask) -> DstParam {
    DstParam::new(reg(ty, n), mask)
}
fn s(ty: T, n: u16) -> SrcParam {
    SrcParam::new(reg(ty, n), Swizzle::IDENTITY)
}
fn sw(ty: T, n: u16, swizzle: Swizzle) -> SrcParam {
    SrcParam::new(reg(ty, n), swizzle)
}
fn sm(ty: T, n: u16, m: SrcModifier) -> SrcParam {
    SrcParam {
        modifier: m,
        ..s(ty, n)
    }
}
fn i(op: Opcode, dst: Option<DstParam>, srcs: &[SrcParam]) -> Instruction {
    let mut inst = Instruction::new(op);
    inst.dst = dst;
    for x in srcs {
        inst.srcs.push(*x).expect("at most four sources");
    }
    inst
}
fn op(o: Opcode, dst: DstParam, srcs: &[SrcParam]) -> Instruction {
    i(o, Some(dst), srcs)
}
fn dcl(token: DclToken, dst: DstParam) -> Instruction {
    let mut inst = i(Dcl, Some(dst), &[]);
    inst.extra = Extra::Dcl(token);
    inst
}
fn dcl_plain(dst: DstParam) -> Instruction {
    dcl(DclToken::default(), dst)
}
fn dcl_2d(n: u16) -> Instruction {
    dcl(DclToken::sampler(TextureType::Texture2D), d(T::Sampler, n))
}
fn pos(ty: T, n: u16) -> Instruction {
    dcl(DclToken::usage(DeclUsage::Position, 0), d(ty, n))
}
fn with(mut inst: Instruction, f: impl FnOnce(&mut Instruction)) -> Instruction {
    f(&mut inst);
    inst
}
fn shader(v: Version, insts: Vec<Instruction>) -> Shader {
    let mut sh = Shader::new(v);
    sh.items = insts.into_iter().map(Item::Instruction).collect();
    sh
}

const VS11: Version = Version::vs(1, 1);
const VS20: Version = Version::vs(2, 0);
const VS2X: Version = Version::vs(2, 1);
const VS30: Version = Version::vs(3, 0);
const PS11: Version = Version::ps(1, 1);
const PS14: Version = Version::ps(1, 4);
const PS20: Version = Version::ps(2, 0);
const PS2X: Version = Version::ps(2, 1);
const PS30: Version = Version::ps(3, 0);

/// A valid vs_1_1/vs_2_0/vs_2_x body: `dcl_position v0; mov oPos, v0`.
fn vs(v: Version, extra: Vec<Instruction>) -> Shader {
    let mut body = vec![
        pos(T::Input, 0),
        op(Mov, d(T::RastOut, 0), &[s(T::Input, 0)]),
    ];
    body.extend(extra);
    shader(v, body)
}
/// A valid vs_3_0 body: `dcl_position v0; dcl_position o0; mov o0, v0`.
fn vs3(extra: Vec<Instruction>) -> Shader {
    let mut body = vec![
        pos(T::Input, 0),
        pos(T::Output, 0),
        op(Mov, d(T::Output, 0), &[s(T::Input, 0)]),
    ];
    body.extend(extra);
    shader(VS30, body)
}
/// A valid ps_2_0/ps_2_x body: `dcl t0; dcl_2d s0; texld r0, t0, s0; mov oC0, r0`.
fn ps2(v: Version, extra: Vec<Instruction>) -> Shader {
    let mut body = vec![
        dcl_plain(d(T::Addr, 0)),
        dcl_2d(0),
        op(Tex, d(T::Temp, 0), &[s(T::Addr, 0), s(T::Sampler, 0)]),
        op(Mov, d(T::ColorOut, 0), &[s(T::Temp, 0)]),
    ];
    body.extend(extra);
    shader(v, body)
}
/// A valid ps_3_0 body: `dcl_texcoord v0; dcl_2d s0; texld r0, v0, s0; mov oC0, r0`.
fn ps3(extra: Vec<Instruction>) -> Shader {
    let mut body = vec![
        dcl(DclToken::usage(DeclUsage::TexCoord, 0), d(T::Input, 0)),
        dcl_2d(0),
        op(Tex, d(T::Temp, 0), &[s(T::Input, 0), s(T::Sampler, 0)]),
        op(Mov, d(T::ColorOut, 0), &[s(T::Temp, 0)]),
    ];
    body.extend(extra);
    shader(PS30, body)
}
/// A valid ps_1_1 body: `tex t0; mov r0, t0`, texture instructions first.
fn ps11(tex: Vec<Instruction>, arith: Vec<Instruction>) -> Shader {
    let mut body = vec![op(Tex, d(T::Addr, 0), &[])];
    body.extend(tex);
    body.push(op(Mov, d(T::Temp, 0), &[s(T::Addr, 0)]));
    body.extend(arith);
    shader(PS11, body)
}
/// A valid ps_1_4 body: `texld r0, t0; mov r0, r0`.
fn ps14(extra: Vec<Instruction>) -> Shader {
    let mut body = vec![
        op(Tex, d(T::Temp, 0), &[s(T::Addr, 0)]),
        op(Mov, d(T::Temp, 0), &[s(T::Temp, 0)]),
    ];
    body.extend(extra);
    shader(PS14, body)
}

fn rel(src: SrcParam, address: Register) -> SrcParam {
    SrcParam {
        relative: Some(Relative::Token(RelativeToken::new(address, 0))),
        ..src
    }
}

fn baselines() -> Vec<(&'static str, Shader)> {
    vec![
        ("vs_1_1", vs(VS11, vec![])),
        ("vs_2_0", vs(VS20, vec![])),
        ("vs_2_x", vs(VS2X, vec![])),
        ("vs_3_0", vs3(vec![])),
        ("ps_1_1", ps11(vec![], vec![])),
        ("ps_1_4", ps14(vec![])),
        ("ps_2_0", ps2(PS20, vec![])),
        ("ps_2_x", ps2(PS2X, vec![])),
        ("ps_3_0", ps3(vec![])),
    ]
}

/// One case per rule: the shader breaks exactly that rule.
fn cases() -> Vec<(Rule, Shader)> {
    use Rule as R;
    let ctab_bad = Comment {
        data: vec![0x4241_5443, 0x1c, 0xa9, 0xfffe_0300, 0],
    };
    let mut with_ctab = vs3(vec![]);
    with_ctab.items.insert(0, Item::Comment(ctab_bad));
    let r0 = || s(T::Temp, 0);
    let oc0 = || d(T::ColorOut, 0);
    vec![
        (R::UnsupportedVersion, shader(Version::ps(1, 0), vec![])),
        (
            R::OpcodeNotAllowed,
            ps2(PS20, vec![op(Slt, d(T::Temp, 1), &[r0(), r0()])]),
        ),
        (
            R::OperandShape,
            vs3(vec![op(
                SinCos,
                dm(T::Temp, 0, WriteMask::XY),
                &[sw(T::Input, 0, Swizzle::X), s(T::Const, 0), s(T::Const, 1)],
            )]),
        ),
        (
            R::InstructionReserved,
            ps2(
                PS20,
                vec![with(op(Mov, oc0(), &[r0()]), |x| x.reserved = true)],
            ),
        ),
        (
            R::ControlField,
            ps2(PS20, vec![with(op(Mov, oc0(), &[r0()]), |x| x.control = 1)]),
        ),
        (
            R::SlotLimit,
            ps11(
                vec![],
                (0..8)
                    .map(|_| op(Mov, d(T::Temp, 0), &[s(T::Addr, 0)]))
                    .collect(),
            ),
        ),
        (R::ConstantTable, with_ctab),
        (
            R::RegisterUnavailable,
            ps2(PS20, vec![op(Mov, d(T::Temp, 1), &[s(T::ConstInt, 0)])]),
        ),
        (
            R::DstNotWritable,
            vs(VS20, vec![op(Mov, d(T::Const, 0), &[s(T::Input, 0)])]),
        ),
        (
            R::SrcNotReadable,
            vs(VS20, vec![op(Mov, d(T::RastOut, 0), &[s(T::AttrOut, 0)])]),
        ),
        (
            R::RegisterIndex,
            ps2(PS20, vec![op(Mov, oc0(), &[s(T::Const, 32)])]),
        ),
        (
            R::ConstantNeedsCaps,
            vs(VS20, vec![op(Mov, d(T::Temp, 0), &[s(T::Const, 297)])]),
        ),
        (
            R::OperandRegisterType,
            ps2(
                PS20,
                vec![op(Tex, d(T::Temp, 1), &[s(T::Addr, 0), s(T::Addr, 0)])],
            ),
        ),
        (
            R::ParamReserved,
            ps2(
                PS20,
                vec![op(
                    Mov,
                    DstParam {
                        reserved: 1,
                        ..oc0()
                    },
                    &[r0()],
                )],
            ),
        ),
        (
            R::RelativeNotAllowed,
            ps2(
                PS20,
                vec![op(Mov, oc0(), &[rel(s(T::Const, 0), reg(T::Addr, 0))])],
            ),
        ),
        (
            R::RelativeToken,
            vs(
                VS20,
                vec![op(
                    Mov,
                    d(T::RastOut, 0),
                    &[rel(s(T::Const, 0), reg(T::Temp, 0))],
                )],
            ),
        ),
        (
            R::EmptyWriteMask,
            ps2(
                PS20,
                vec![op(Mov, dm(T::ColorOut, 0, WriteMask::NONE), &[r0()])],
            ),
        ),
        (
            R::ShiftNotAllowed,
            ps2(
                PS20,
                vec![op(
                    Mov,
                    DstParam {
                        shift: Shift(1),
                        ..oc0()
                    },
                    &[r0()],
                )],
            ),
        ),
        (
            R::SaturateNotAllowed,
            vs(
                VS20,
                vec![op(
                    Mov,
                    DstParam {
                        modifiers: ResultModifiers::SATURATE,
                        ..d(T::RastOut, 0)
                    },
                    &[s(T::Input, 0)],
                )],
            ),
        ),
        (
            R::PartialPrecisionNotAllowed,
            vs(
                VS20,
                vec![op(
                    Mov,
                    DstParam {
                        modifiers: ResultModifiers::PARTIAL_PRECISION,
                        ..d(T::RastOut, 0)
                    },
                    &[s(T::Input, 0)],
                )],
            ),
        ),
        (
            R::CentroidNotAllowed,
            ps2(
                PS20,
                vec![op(
                    Mov,
                    DstParam {
                        modifiers: ResultModifiers::CENTROID,
                        ..oc0()
                    },
                    &[r0()],
                )],
            ),
        ),
        (
            R::ResultModifierReserved,
            ps2(
                PS20,
                vec![op(
                    Mov,
                    DstParam {
                        modifiers: ResultModifiers(8),
                        ..oc0()
                    },
                    &[r0()],
                )],
            ),
        ),
        (
            R::SrcModifierNotAllowed,
            ps2(
                PS20,
                vec![op(Mov, oc0(), &[sm(T::Temp, 0, SrcModifier::Bias)])],
            ),
        ),
        (
            R::AbsNotAllowed,
            ps2(
                PS20,
                vec![op(Mov, oc0(), &[sm(T::Temp, 0, SrcModifier::Abs)])],
            ),
        ),
        (
            R::NotModifierNotPredicate,
            ps2(
                PS20,
                vec![op(Mov, oc0(), &[sm(T::Temp, 0, SrcModifier::Not)])],
            ),
        ),
        (
            R::SwizzleNotAllowed,
            ps2(
                PS20,
                vec![op(Mov, oc0(), &[sw(T::Temp, 0, Swizzle::new(1, 0, 2, 3))])],
            ),
        ),
        (
            R::ReplicateSwizzle,
            ps2(PS20, vec![op(Rcp, d(T::Temp, 1), &[r0()])]),
        ),
        (
            R::MatrixDstMask,
            vs(
                VS20,
                vec![op(
                    M4x4,
                    dm(T::RastOut, 0, WriteMask::XYZ),
                    &[s(T::Input, 0), s(T::Const, 0)],
                )],
            ),
        ),
        (
            R::MatrixSource,
            vs(
                VS20,
                vec![op(
                    M4x4,
                    d(T::RastOut, 0),
                    &[s(T::Input, 0), sm(T::Const, 0, SrcModifier::Neg)],
                )],
            ),
        ),
        (
            R::AddressWrite,
            vs(
                VS20,
                vec![op(
                    Mov,
                    dm(T::Addr, 0, WriteMask::X),
                    &[sw(T::Input, 0, Swizzle::X)],
                )],
            ),
        ),
        (
            R::DefRegisterType,
            vs(
                VS20,
                vec![with(i(Def, Some(d(T::Temp, 0)), &[]), |x| {
                    x.extra = Extra::Def([0; 4])
                })],
            ),
        ),
        (
            R::FrcMask,
            vs(
                VS11,
                vec![op(Frc, dm(T::Temp, 0, WriteMask::X), &[s(T::Input, 0)])],
            ),
        ),
        (
            R::SinCosForm,
            vs3(vec![op(
                SinCos,
                dm(T::Temp, 0, WriteMask::Z),
                &[sw(T::Input, 0, Swizzle::X)],
            )]),
        ),
        (
            R::TexKill,
            ps2(PS20, vec![op(TexKill, dm(T::Temp, 0, WriteMask::XY), &[])]),
        ),
        (
            R::ResourceModifier,
            ps2(
                PS20,
                vec![op(
                    Tex,
                    d(T::Temp, 1),
                    &[s(T::Addr, 0), sm(T::Sampler, 0, SrcModifier::Neg)],
                )],
            ),
        ),
        (
            R::Ps1WriteMask,
            ps11(
                vec![],
                vec![op(
                    Add,
                    dm(T::Temp, 0, WriteMask::XY),
                    &[s(T::Addr, 0), s(T::Addr, 0)],
                )],
            ),
        ),
        (
            R::MacroDstSource,
            vs(
                VS20,
                vec![
                    op(Mov, d(T::Temp, 0), &[s(T::Input, 0)]),
                    op(M4x4, d(T::Temp, 0), &[s(T::Temp, 0), s(T::Const, 0)]),
                ],
            ),
        ),
        (
            R::CndSource,
            ps11(
                vec![],
                vec![op(
                    Cnd,
                    d(T::Temp, 0),
                    &[s(T::Temp, 1), s(T::Addr, 0), s(T::Addr, 0)],
                )],
            ),
        ),
        (
            R::Ps14TexOperands,
            shader(
                PS14,
                vec![
                    op(Tex, d(T::Temp, 0), &[s(T::Addr, 0)]),
                    op(Tex, d(T::Temp, 1), &[s(T::Const, 0)]),
                    op(Mov, d(T::Temp, 0), &[s(T::Temp, 0)]),
                ],
            ),
        ),
        (
            R::DclReserved,
            ps2(PS20, vec![]).tap(|sh| {
                sh.items[0] =
                    Item::Instruction(dcl(DclToken::usage(DeclUsage::TexCoord, 0), d(T::Addr, 0)))
            }),
        ),
        (
            R::DclRegisterType,
            ps2(PS20, vec![]).tap(|sh| {
                sh.items
                    .insert(0, Item::Instruction(dcl_plain(d(T::ColorOut, 1))))
            }),
        ),
        (
            R::DclUsage,
            ps3(vec![]).tap(|sh| {
                sh.items.insert(
                    0,
                    Item::Instruction(dcl(
                        DclToken {
                            usage_raw: 14,
                            ..DclToken::usage(DeclUsage::TexCoord, 8)
                        },
                        d(T::Input, 1),
                    )),
                )
            }),
        ),
        (
            R::DclSamplerType,
            ps2(PS20, vec![]).tap(|sh| {
                sh.items.insert(
                    0,
                    Item::Instruction(dcl(
                        DclToken::sampler(TextureType::Texture1D),
                        d(T::Sampler, 1),
                    )),
                )
            }),
        ),
        (
            R::DclDuplicate,
            ps2(PS20, vec![]).tap(|sh| {
                sh.items
                    .insert(0, Item::Instruction(dcl_plain(d(T::Addr, 0))))
            }),
        ),
        (
            R::DclMask,
            ps2(PS20, vec![]).tap(|sh| {
                sh.items.insert(
                    0,
                    Item::Instruction(dcl_plain(dm(T::Addr, 1, WriteMask::NONE))),
                )
            }),
        ),
        (
            R::TexldOperands,
            ps2(
                PS20,
                vec![op(
                    Tex,
                    d(T::Temp, 1),
                    &[sw(T::Addr, 0, Swizzle::X), s(T::Sampler, 0)],
                )],
            ),
        ),
        (R::DclPlacement, ps2(PS20, vec![dcl_plain(d(T::Addr, 1))])),
        (
            R::OutputNotDeclared,
            vs3(vec![op(Mov, d(T::Output, 1), &[s(T::Input, 0)])]),
        ),
        (
            R::UndeclaredInput,
            ps2(PS20, vec![op(Mov, oc0(), &[s(T::Input, 0)])]),
        ),
        (
            R::UndeclaredSampler,
            ps2(
                PS20,
                vec![op(Tex, d(T::Temp, 1), &[s(T::Addr, 0), s(T::Sampler, 1)])],
            ),
        ),
        (
            R::TempUninitialized,
            ps2(PS20, vec![op(Mov, oc0(), &[s(T::Temp, 5)])]),
        ),
        (
            R::Predication,
            ps2(
                PS20,
                vec![with(op(Mov, oc0(), &[r0()]), |x| {
                    x.predicate = Some(s(T::Predicate, 0))
                })],
            ),
        ),
        (R::UnmatchedBlock, vs(VS20, vec![Instruction::new(EndIf)])),
        (
            R::UnclosedBlock,
            vs(VS20, vec![i(If, None, &[s(T::ConstBool, 0)])]),
        ),
        (R::BreakOutsideLoop, vs(VS2X, vec![Instruction::new(Break)])),
        (
            R::LabelRedefined,
            vs(
                VS20,
                vec![
                    Instruction::new(Ret),
                    i(Label, None, &[s(T::Label, 0)]),
                    Instruction::new(Ret),
                    i(Label, None, &[s(T::Label, 0)]),
                    Instruction::new(Ret),
                ],
            ),
        ),
        (
            R::CallTarget,
            vs(
                VS20,
                vec![i(Call, None, &[s(T::Label, 1)]), Instruction::new(Ret)],
            ),
        ),
        (
            R::RetPlacement,
            vs(
                VS20,
                vec![i(Label, None, &[s(T::Label, 0)]), Instruction::new(Ret)],
            ),
        ),
        (
            R::NestingDepth,
            vs(
                VS20,
                vec![
                    i(Rep, None, &[s(T::ConstInt, 0)]),
                    i(Rep, None, &[s(T::ConstInt, 0)]),
                    Instruction::new(EndRep),
                    Instruction::new(EndRep),
                ],
            ),
        ),
        (
            R::LoopCount,
            vs(
                VS20,
                vec![
                    with(i(DefI, Some(d(T::ConstInt, 0)), &[]), |x| {
                        x.extra = Extra::DefI([300, 0, 0, 0])
                    }),
                    i(Rep, None, &[s(T::ConstInt, 0)]),
                    Instruction::new(EndRep),
                ],
            ),
        ),
        (
            R::LoopCounterOutsideLoop,
            vs(
                VS20,
                vec![op(
                    Mov,
                    d(T::Temp, 0),
                    &[rel(s(T::Const, 0), reg(T::Loop, 0))],
                )],
            ),
        ),
        (
            R::StaticFlowCount,
            vs(
                VS20,
                (0..17)
                    .flat_map(|_| [i(If, None, &[s(T::ConstBool, 0)]), Instruction::new(EndIf)])
                    .collect(),
            ),
        ),
        (
            R::CoissueNotAllowed,
            ps2(
                PS20,
                vec![with(op(Mov, oc0(), &[r0()]), |x| x.coissue = true)],
            ),
        ),
        (
            R::CoissuePairing,
            ps11(
                vec![],
                vec![with(op(Mov, d(T::Temp, 0), &[s(T::Addr, 0)]), |x| {
                    x.coissue = true
                })],
            ),
        ),
        (
            R::PhaseOrder,
            ps14(vec![Instruction::new(Phase), Instruction::new(Phase)]),
        ),
        (
            R::TexOpOrder,
            ps11(vec![], vec![op(Tex, d(T::Addr, 1), &[])]),
        ),
        (
            R::TexMatrixSequence,
            ps11(
                vec![op(TexM3x2Pad, d(T::Addr, 1), &[s(T::Addr, 0)])],
                vec![],
            ),
        ),
        (
            R::TexRegisterOrder,
            ps11(
                vec![
                    op(Tex, d(T::Addr, 2), &[]),
                    op(TexBem, d(T::Addr, 1), &[s(T::Addr, 2)]),
                ],
                vec![],
            ),
        ),
    ]
}

/// More cases: other ways to break the same rules (each still breaks exactly one rule).
fn variants() -> Vec<(Rule, Shader)> {
    use Rule as R;
    let r0 = || s(T::Temp, 0);
    let oc0 = || d(T::ColorOut, 0);
    let cmp = |o: Opcode, c: u8, srcs: &[SrcParam]| with(i(o, None, srcs), |x| x.control = c);
    let vs_out = |o: Opcode, srcs: &[SrcParam]| vs(VS2X, vec![op(o, d(T::Temp, 1), srcs)]);
    vec![
        (
            R::OpcodeNotAllowed,
            vs(
                VS11,
                vec![op(
                    Lrp,
                    d(T::Temp, 0),
                    &[s(T::Input, 0), s(T::Input, 0), s(T::Input, 0)],
                )],
            ),
        ),
        (
            R::OperandShape,
            ps2(
                PS2X,
                vec![op(
                    SinCos,
                    dm(T::Temp, 1, WriteMask::XY),
                    &[sw(T::Temp, 0, Swizzle::X)],
                )],
            ),
        ),
        (
            R::ControlField,
            ps2(
                PS20,
                vec![with(
                    op(Tex, d(T::Temp, 1), &[s(T::Addr, 0), s(T::Sampler, 0)]),
                    |x| x.control = 3,
                )],
            ),
        ),
        (
            R::ControlField,
            vs(
                VS2X,
                vec![
                    cmp(
                        Ifc,
                        0,
                        &[sw(T::Input, 0, Swizzle::X), sw(T::Input, 0, Swizzle::Y)],
                    ),
                    Instruction::new(EndIf),
                ],
            ),
        ),
        (
            R::RegisterUnavailable,
            vs3(vec![op(Mov, d(T::RastOut, 0), &[s(T::Input, 0)])]),
        ),
        (
            R::RegisterUnavailable,
            ps2(PS20, vec![op(Mov, d(T::Temp, 1), &[s(T::MiscType, 1)])]),
        ),
        (
            R::RegisterIndex,
            vs3(vec![op(Mov, d(T::Output, 12), &[s(T::Input, 0)])]),
        ),
        (
            R::RegisterIndex,
            ps2(
                PS2X,
                vec![i(If, None, &[s(T::ConstBool, 16)]), Instruction::new(EndIf)],
            ),
        ),
        (
            R::RegisterIndex,
            vs(VS11, vec![op(Mov, d(T::Temp, 12), &[s(T::Input, 0)])]),
        ),
        (
            R::OperandRegisterType,
            vs(
                VS20,
                vec![
                    i(Loop, None, &[s(T::ConstInt, 0), s(T::ConstInt, 0)]),
                    Instruction::new(EndLoop),
                ],
            ),
        ),
        (
            R::OperandRegisterType,
            vs(
                VS20,
                vec![i(If, None, &[s(T::Input, 0)]), Instruction::new(EndIf)],
            ),
        ),
        (
            R::OperandRegisterType,
            vs(
                VS2X,
                vec![with(
                    op(SetP, d(T::Temp, 1), &[s(T::Input, 0), s(T::Input, 0)]),
                    |x| x.control = 1,
                )],
            ),
        ),
        (
            R::ReplicateSwizzle,
            vs_out(Pow, &[sw(T::Input, 0, Swizzle::X), s(T::Input, 0)]),
        ),
        (R::ReplicateSwizzle, vs_out(Rsq, &[s(T::Input, 0)])),
        (R::ReplicateSwizzle, vs_out(ExpP, &[s(T::Input, 0)])),
        (
            R::ReplicateSwizzle,
            vs(
                VS2X,
                vec![
                    cmp(Ifc, 1, &[s(T::Input, 0), sw(T::Input, 0, Swizzle::Y)]),
                    Instruction::new(EndIf),
                ],
            ),
        ),
        (
            R::ReplicateSwizzle,
            ps2(PS20, vec![op(Dp2Add, d(T::Temp, 1), &[r0(), r0(), r0()])]),
        ),
        (
            R::MatrixDstMask,
            vs(
                VS20,
                vec![op(
                    M3x2,
                    dm(T::Temp, 0, WriteMask::XYZ),
                    &[s(T::Input, 0), s(T::Const, 0)],
                )],
            ),
        ),
        (
            R::MatrixDstMask,
            vs(
                VS20,
                vec![op(Crs, d(T::Temp, 0), &[s(T::Input, 0), s(T::Input, 0)])],
            ),
        ),
        (
            R::MatrixSource,
            vs(
                VS20,
                vec![op(
                    M3x3,
                    dm(T::Temp, 0, WriteMask::XYZ),
                    &[s(T::Input, 0), sw(T::Const, 0, Swizzle::X)],
                )],
            ),
        ),
        (
            R::AddressWrite,
            vs(VS20, vec![op(MovA, d(T::Temp, 0), &[s(T::Input, 0)])]),
        ),
        (
            R::AddressWrite,
            vs(VS11, vec![op(Mov, d(T::Addr, 0), &[s(T::Input, 0)])]),
        ),
        (
            R::DefRegisterType,
            vs(
                VS20,
                vec![with(i(DefI, Some(d(T::Const, 0)), &[]), |x| {
                    x.extra = Extra::DefI([0; 4])
                })],
            ),
        ),
        (
            R::DefRegisterType,
            vs(
                VS20,
                vec![with(i(DefB, Some(d(T::ConstInt, 0)), &[]), |x| {
                    x.extra = Extra::DefB(1)
                })],
            ),
        ),
        (
            R::SinCosForm,
            ps2(
                PS20,
                vec![op(
                    SinCos,
                    dm(T::Temp, 1, WriteMask::XY),
                    &[sw(T::Temp, 0, Swizzle::X), r0(), r0()],
                )],
            ),
        ),
        (
            R::SinCosForm,
            vs(
                VS2X,
                vec![op(
                    Sgn,
                    d(T::Temp, 0),
                    &[s(T::Input, 0), s(T::Const, 0), s(T::Const, 1)],
                )],
            ),
        ),
        (
            R::TexKill,
            ps2(PS20, vec![op(TexKill, d(T::Const, 0), &[])]),
        ),
        (
            R::ResourceModifier,
            vs(
                VS20,
                vec![
                    i(Rep, None, &[sm(T::ConstInt, 0, SrcModifier::Neg)]),
                    Instruction::new(EndRep),
                ],
            ),
        ),
        (
            R::DclReserved,
            ps2(PS20, vec![]).tap(|sh| {
                sh.items[1] = Item::Instruction(dcl(
                    DclToken {
                        usage_raw: 5,
                        ..DclToken::sampler(TextureType::Texture2D)
                    },
                    d(T::Sampler, 0),
                ))
            }),
        ),
        (
            R::DclReserved,
            vs(VS20, vec![]).tap(|sh| {
                sh.items[0] = Item::Instruction(dcl(
                    DclToken {
                        reserved: 1 << 5,
                        ..DclToken::usage(DeclUsage::Position, 0)
                    },
                    d(T::Input, 0),
                ))
            }),
        ),
        (
            R::DclRegisterType,
            vs(VS20, vec![]).tap(|sh| {
                sh.items.insert(
                    0,
                    Item::Instruction(dcl(
                        DclToken::usage(DeclUsage::TexCoord, 0),
                        d(T::Output, 0),
                    )),
                )
            }),
        ),
        (
            R::DclDuplicate,
            vs(VS20, vec![]).tap(|sh| sh.items.insert(1, Item::Instruction(pos(T::Input, 1)))),
        ),
        (
            R::DclMask,
            ps3(vec![]).tap(|sh| {
                sh.items.insert(
                    0,
                    Item::Instruction(dcl_plain(dm(T::MiscType, 1, WriteMask::X))),
                )
            }),
        ),
        (
            R::UndeclaredInput,
            ps3(vec![op(Mov, d(T::Temp, 1), &[s(T::MiscType, 1)])]),
        ),
        (
            R::UndeclaredInput,
            ps2(PS20, vec![op(Mov, d(T::Temp, 1), &[s(T::Addr, 1)])]),
        ),
        (
            R::UndeclaredInput,
            vs(VS20, vec![op(Mov, d(T::Temp, 1), &[s(T::Input, 3)])]),
        ),
        (
            R::Predication,
            ps2(
                PS2X,
                vec![
                    with(i(If, None, &[s(T::ConstBool, 0)]), |x| {
                        x.predicate = Some(s(T::Predicate, 0))
                    }),
                    Instruction::new(EndIf),
                ],
            ),
        ),
        (
            R::Predication,
            ps2(
                PS2X,
                vec![with(op(Mov, oc0(), &[r0()]), |x| {
                    x.predicate = Some(sm(T::Predicate, 0, SrcModifier::Neg))
                })],
            ),
        ),
        (
            R::UnmatchedBlock,
            vs(
                VS20,
                vec![
                    i(Rep, None, &[s(T::ConstInt, 0)]),
                    Instruction::new(EndLoop),
                ],
            ),
        ),
        (
            R::UnmatchedBlock,
            vs(
                VS20,
                vec![
                    i(If, None, &[s(T::ConstBool, 0)]),
                    Instruction::new(Else),
                    Instruction::new(Else),
                    Instruction::new(EndIf),
                ],
            ),
        ),
        (
            R::UnclosedBlock,
            vs(
                VS20,
                vec![i(Loop, None, &[s(T::Loop, 0), s(T::ConstInt, 0)])],
            ),
        ),
        (
            R::BreakOutsideLoop,
            ps2(
                PS2X,
                vec![cmp(
                    BreakC,
                    1,
                    &[sw(T::Temp, 0, Swizzle::X), sw(T::Temp, 0, Swizzle::Y)],
                )],
            ),
        ),
        (
            R::NestingDepth,
            vs(
                VS2X,
                vec![
                    Instruction::new(Ret),
                    i(Label, None, &[s(T::Label, 0)]),
                    i(Call, None, &[s(T::Label, 0)]),
                    Instruction::new(Ret),
                ],
            ),
        ),
        (
            R::NestingDepth,
            vs(
                VS20,
                vec![
                    i(Call, None, &[s(T::Label, 0)]),
                    Instruction::new(Ret),
                    i(Label, None, &[s(T::Label, 0)]),
                    i(Call, None, &[s(T::Label, 1)]),
                    Instruction::new(Ret),
                    i(Label, None, &[s(T::Label, 1)]),
                    Instruction::new(Ret),
                ],
            ),
        ),
        (
            R::LoopCount,
            vs(
                VS20,
                vec![
                    with(i(DefI, Some(d(T::ConstInt, 0)), &[]), |x| {
                        x.extra = Extra::DefI([4, 0, 200, 0])
                    }),
                    i(Loop, None, &[s(T::Loop, 0), s(T::ConstInt, 0)]),
                    Instruction::new(EndLoop),
                ],
            ),
        ),
        (
            R::CoissuePairing,
            // ps_1_4, whose arbitrary masks leave only the pairing rule broken.
            ps14(vec![
                op(Mov, dm(T::Temp, 1, WriteMask::XYZ), &[s(T::Temp, 0)]),
                with(
                    op(Mov, dm(T::Temp, 1, WriteMask(0xC)), &[s(T::Temp, 0)]),
                    |x| x.coissue = true,
                ),
            ]),
        ),
        (
            R::PhaseOrder,
            ps14(vec![op(Tex, d(T::Temp, 1), &[s(T::Addr, 1)])]),
        ),
        (
            R::TexMatrixSequence,
            ps11(
                vec![op(TexM3x3Tex, d(T::Addr, 1), &[s(T::Addr, 0)])],
                vec![],
            ),
        ),
        (
            R::TexMatrixSequence,
            ps11(
                vec![
                    op(TexM3x3Pad, d(T::Addr, 1), &[s(T::Addr, 0)]),
                    op(TexM3x3Tex, d(T::Addr, 2), &[s(T::Addr, 0)]),
                ],
                vec![],
            ),
        ),
        (
            R::TexRegisterOrder,
            ps11(vec![op(TexCoord, d(T::Addr, 0), &[])], vec![]),
        ),
    ]
}

#[test]
fn variants_break_exactly_their_rule() {
    let mut failures = Vec::new();
    let all = variants();
    for (n, (rule, sh)) in all.iter().enumerate() {
        let report = validate(sh);
        if report.rules() != vec![*rule] {
            let lines: Vec<String> = report.diagnostics.iter().map(|d| d.to_string()).collect();
            failures.push(format!(
                "variant {n} {} {rule:?}: got {:?}\n    {}",
                rule.id(),
                report.rules(),
                lines.join("\n    ")
            ));
        }
    }
    println!("variants: {} more cases", all.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

trait Tap: Sized {
    fn tap(self, f: impl FnOnce(&mut Self)) -> Self;
}
impl Tap for Shader {
    fn tap(mut self, f: impl FnOnce(&mut Self)) -> Self {
        f(&mut self);
        self
    }
}

#[test]
fn baselines_are_clean() {
    for (name, sh) in baselines() {
        let report = validate(&sh);
        assert!(
            report.diagnostics.is_empty(),
            "{name}: {:#?}",
            report.diagnostics
        );
    }
}

#[test]
fn every_rule_has_a_case_that_breaks_exactly_it() {
    let mut cases = cases();
    // Checked under the Direct3D 8 runtime: a vs_1_1 body with its `dcl_position v0`.
    cases.push((Rule::D3d8Dcl, vs(VS11, vec![])));
    let d3d8 = Options {
        runtime: Runtime::D3d8,
        ..Options::default()
    };
    let mut failures = Vec::new();
    for (rule, sh) in &cases {
        let report = if *rule == Rule::D3d8Dcl {
            validate_with(sh, &d3d8)
        } else {
            validate(sh)
        };
        let got = report.rules();
        if got != vec![*rule] {
            let lines: Vec<String> = report.diagnostics.iter().map(|d| d.to_string()).collect();
            failures.push(format!(
                "{} {rule:?}: got {:?}\n    {}",
                rule.id(),
                got,
                lines.join("\n    ")
            ));
        }
        if rule.severity() == Severity::Error {
            assert!(!report.is_valid(), "{rule:?}");
        }
    }
    for rule in Rule::ALL {
        if !cases.iter().any(|(r, _)| r == rule) {
            failures.push(format!("{} {rule:?}: no case", rule.id()));
        }
    }
    println!(
        "negative suite: {} cases for {} rules",
        cases.len(),
        Rule::ALL.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn device_caps_decide_vs_2_0_constants() {
    let sh = vs(VS20, vec![op(Mov, d(T::Temp, 0), &[s(T::Const, 297)])]);
    // No device named: a warning, the shader stays valid.
    let report = validate(&sh);
    assert!(report.is_valid());
    assert_eq!(report.rules(), vec![Rule::ConstantNeedsCaps]);
    // A device with too few constants: an error.
    let small = Options {
        max_vertex_constants: Some(256),
        ..Options::default()
    };
    assert_eq!(
        validate_with(&sh, &small).rules(),
        vec![Rule::RegisterIndex]
    );
    // A device with enough: clean.
    let big = Options {
        max_vertex_constants: Some(298),
        ..Options::default()
    };
    assert!(validate_with(&sh, &big).diagnostics.is_empty());
    // vs_1_1 keeps the guaranteed 96 by default.
    let old = vs(VS11, vec![op(Mov, d(T::Temp, 0), &[s(T::Const, 96)])]);
    assert_eq!(validate(&old).rules(), vec![Rule::RegisterIndex]);
}

#[test]
fn ps1_write_masks_split_colour_and_alpha() {
    let with_mask = |o: Opcode, m: WriteMask, v: Version| {
        let mut sh = ps11(
            vec![],
            vec![op(o, dm(T::Temp, 1, m), &[s(T::Addr, 0), s(T::Addr, 0)])],
        );
        sh.version = v;
        validate(&sh).rules().contains(&Rule::Ps1WriteMask)
    };
    for m in [WriteMask::ALL, WriteMask::XYZ, WriteMask::W] {
        assert!(!with_mask(Add, m, PS11), "{m:?}");
    }
    assert!(with_mask(Add, WriteMask::X, PS11));
    assert!(with_mask(Add, WriteMask(0b1010), Version::ps(1, 3)));
    assert!(!with_mask(Dp3, WriteMask::XYZ, PS11));
    assert!(with_mask(Dp3, WriteMask::W, PS11));
    // ps_1_4 allows any mask.
    let sh = ps14(vec![op(
        Add,
        dm(T::Temp, 1, WriteMask::XY),
        &[s(T::Temp, 0), s(T::Temp, 0)],
    )]);
    assert!(!validate(&sh).rules().contains(&Rule::Ps1WriteMask));
}

#[test]
fn matrix_macros_keep_their_vector_source() {
    let m = |dst: u16, src: u16| {
        let sh = vs(
            VS20,
            vec![
                op(Mov, d(T::Temp, src), &[s(T::Input, 0)]),
                op(M4x4, d(T::Temp, dst), &[s(T::Temp, src), s(T::Const, 0)]),
            ],
        );
        validate(&sh).rules().contains(&Rule::MacroDstSource)
    };
    assert!(m(1, 1));
    assert!(!m(2, 1));
}

#[test]
fn offsets_follow_the_encoding() {
    // ps_2_0: version, dcl(3), dcl(3), texld(4), mov(3): the bad source of the next mov is at
    // 1 + 3 + 3 + 4 + 3 + 2 = 16.
    let sh = ps2(PS20, vec![op(Mov, d(T::ColorOut, 0), &[s(T::Const, 32)])]);
    let report = validate(&sh);
    let diag = report.errors().next().expect("an error");
    assert_eq!(diag.rule, Rule::RegisterIndex);
    assert_eq!(diag.offset, 16);
    assert_eq!(diag.instruction, Some(4));
    assert_eq!(diag.item, Some(4));
    assert_eq!(diag.operand, Some(Operand::Src(0)));
    assert_eq!(diag.register.as_deref(), Some("c32"));
    let words = crate::encode_words(&sh);
    assert_eq!(
        words[16],
        sh.instructions().nth(4).unwrap().srcs[0].to_token()
    );
}

#[test]
fn docs_table_matches_the_rules() {
    let doc = include_str!("../../../../docs/VALIDATION.md");
    let start =
        doc.find("<!-- rules:begin -->").expect("begin marker") + "<!-- rules:begin -->\n".len();
    let end = doc.find("<!-- rules:end -->").expect("end marker");
    let expected = rules_markdown();
    if doc[start..end] != expected {
        panic!("docs/VALIDATION.md is out of date; the table should be:\n{expected}");
    }
}

#[test]
fn rule_ids_are_unique_and_ordered() {
    let ids: Vec<&str> = Rule::ALL.iter().map(|r| r.id()).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(ids, sorted);
}

#[test]
fn every_usage_index_is_valid_in_every_register_file() {
    use DeclUsage::*;
    // ps_3_0 inputs: fxc declares texcoord8 and up, colour 2 and up, and any other usage.
    let mut inputs = Vec::new();
    for (n, (usage, index)) in [(TexCoord, 8), (TexCoord, 15), (Color, 2), (Normal, 9)]
        .into_iter()
        .enumerate()
    {
        inputs.push(dcl(
            DclToken::usage(usage, index),
            d(T::Input, n as u16 + 1),
        ));
    }
    let report = validate(&ps3(vec![]).tap(|sh| {
        for (k, inst) in inputs.into_iter().enumerate() {
            sh.items.insert(k, Item::Instruction(inst));
        }
    }));
    assert!(report.diagnostics.is_empty(), "{:#?}", report.diagnostics);
    // Vertex inputs take 0-15 (Microsoft's dcl_usage input page), vs_3_0 outputs likewise.
    let report = validate(&vs3(vec![]).tap(|sh| {
        sh.items.insert(
            0,
            Item::Instruction(dcl(DclToken::usage(BlendWeight, 15), d(T::Input, 3))),
        );
        sh.items.insert(
            0,
            Item::Instruction(dcl(DclToken::usage(TexCoord, 12), d(T::Output, 5))),
        );
    }));
    assert!(report.diagnostics.is_empty(), "{:#?}", report.diagnostics);
}

#[test]
fn vs_3_0_texldl_may_write_an_output_but_ps_2_0_texld_may_not() {
    // Wine's test_vertex_texture: Windows creates `texldl o1, c0.x, s0` in vs_3_0.
    let texldl = |dst: DstParam| {
        shader(
            VS30,
            vec![
                pos(T::Input, 0),
                pos(T::Output, 0),
                dcl(DclToken::usage(DeclUsage::Color, 0), d(T::Output, 1)),
                dcl_2d(0),
                op(Mov, d(T::Output, 0), &[s(T::Input, 0)]),
                op(Mov, d(T::Output, 1), &[s(T::Input, 0)]),
                op(
                    TexLdl,
                    dst,
                    &[sw(T::Const, 0, Swizzle::X), s(T::Sampler, 0)],
                ),
            ],
        )
    };
    let report = validate(&texldl(d(T::Output, 1)));
    assert!(report.is_valid(), "{report:?}");
    assert!(validate(&texldl(d(T::Temp, 1))).is_valid());
    // ps_2_0 texld still writes only a temp.
    let sh = ps2(
        PS20,
        vec![op(
            Tex,
            d(T::ColorOut, 0),
            &[s(T::Addr, 0), s(T::Sampler, 0)],
        )],
    );
    assert!(validate(&sh).rules().contains(&Rule::OperandRegisterType));
}

#[test]
fn direct3d8_reads_inputs_undeclared_and_scalar_w_but_only_its_versions() {
    let d3d8 = Options {
        runtime: Runtime::D3d8,
        ..Options::default()
    };
    // `mov oPos, v0; rcp r0, c0` with no dcl: Direct3D 8, not Direct3D 9.
    let sh = shader(
        Version::vs(1, 0),
        vec![
            op(Mov, d(T::RastOut, 0), &[s(T::Input, 0)]),
            op(Rcp, d(T::Temp, 0), &[s(T::Const, 0)]),
        ],
    );
    assert!(validate_with(&sh, &d3d8).is_valid());
    assert_eq!(validate(&sh).rules(), vec![Rule::UnsupportedVersion]);
    let sh11 = Shader {
        version: Version::vs(1, 1),
        ..sh.clone()
    };
    assert_eq!(
        validate(&sh11).rules(),
        vec![Rule::ReplicateSwizzle, Rule::UndeclaredInput]
    );
    // Direct3D 8 has no vs_2_0.
    let sh20 = Shader {
        version: VS20,
        ..sh
    };
    assert_eq!(
        validate_with(&sh20, &d3d8).rules(),
        vec![Rule::UnsupportedVersion]
    );
}
