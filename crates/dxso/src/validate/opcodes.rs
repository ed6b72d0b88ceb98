//! Instruction-level rules: the opcode table's version gates and shapes, reserved and control
//! bits, slot limits, the constant table, and the restrictions each opcode's reference page states.

use super::{is_declaration, At, Cx, Operand, Profile, Rule};
use crate::instruction::{Extra, Item};
use crate::opcode::{Opcode, Operands};
use crate::param::{SrcModifier, WriteMask};
use crate::register::RegisterType;

pub(super) fn check(cx: &mut Cx<'_>) {
    let insts = cx.insts.clone();
    for at in insts.iter() {
        structure(cx, at);
        restrictions(cx, at);
    }
    slots_check(cx);
    constant_table(cx);
}

fn structure(cx: &mut Cx<'_>, at: &At<'_>) {
    let inst = at.inst;
    let info = inst.opcode.info();
    let v = cx.version;
    let name = cx.mnemonic(inst);
    if !info.allowed_in(v) {
        cx.at(
            Rule::OpcodeNotAllowed,
            at,
            Operand::Instruction,
            None,
            format!("{name} is not available in {v}"),
        );
    }
    let expected = info.operands(v);
    let actual = inst.operands();
    if expected != actual {
        cx.at(
            Rule::OperandShape,
            at,
            Operand::Instruction,
            None,
            format!(
                "{name} takes {} in {v}, found {}",
                describe(expected),
                describe(actual)
            ),
        );
    }
    if inst.reserved || (v.is_sm1() && inst.sm1_length != 0) {
        cx.at(
            Rule::InstructionReserved,
            at,
            Operand::Instruction,
            None,
            format!(
                "reserved bits set in the instruction token (bit 29: {}, length field in shader model 1: {})",
                inst.reserved as u8, inst.sm1_length
            ),
        );
    }
    let control_ok = match inst.opcode {
        Opcode::Ifc | Opcode::BreakC | Opcode::SetP => {
            inst.comparison().is_some() && inst.control < 8
        }
        Opcode::Tex if !v.is_sm1() => inst.control <= 2,
        _ => inst.control == 0,
    };
    if !control_ok {
        cx.at(
            Rule::ControlField,
            at,
            Operand::Instruction,
            None,
            format!(
                "{name} has control field {:#x}, which it does not allow in {v}",
                inst.control
            ),
        );
    }
}

/// Operands in words: "a destination and 2 sources".
fn describe(ops: Operands) -> String {
    let plural = |n: u8| if n == 1 { "" } else { "s" };
    match ops {
        Operands::None => "no operands".into(),
        Operands::DstSrc(0) => "a destination".into(),
        Operands::DstSrc(n) => format!("a destination and {n} source{}", plural(n)),
        Operands::Src(n) => format!("{n} source{}", plural(n)),
        Operands::Dcl => "a usage token and a destination".into(),
        Operands::Def => "a destination and 4 floats".into(),
        Operands::DefI => "a destination and 4 integers".into(),
        Operands::DefB => "a destination and a boolean".into(),
    }
}

fn replicate(cx: &mut Cx<'_>, at: &At<'_>, n: usize) {
    if let Some(s) = at.inst.srcs.get(n) {
        if s.swizzle.replicated().is_none() {
            let name = cx.mnemonic(at.inst);
            cx.at(
                Rule::ReplicateSwizzle,
                at,
                Operand::Src(n as u8),
                Some(s.register),
                format!("{name} source {n} must select one component (.x, .y, .z or .w)"),
            );
        }
    }
}

fn restrictions(cx: &mut Cx<'_>, at: &At<'_>) {
    use Opcode::*;
    let inst = at.inst;
    let p = cx.p();
    let name = cx.mnemonic(inst);
    match inst.opcode {
        // Direct3D 8 reads `.w` of whatever swizzle the scalar instructions carry (Wine's d3d8
        // test_scalar_instructions, recorded on Windows).
        Rcp | Rsq | Exp | Log | ExpP | LogP if cx.options.runtime == super::Runtime::D3d8 => {}
        Rcp | Rsq | Exp | Log | ExpP | LogP | BreakP => replicate(cx, at, 0),
        Pow | Ifc | BreakC => {
            replicate(cx, at, 0);
            replicate(cx, at, 1);
        }
        Dp2Add => replicate(cx, at, 2),
        SinCos => replicate(cx, at, 0),
        _ => {}
    }
    // Matrix macros: destination mask and the matrix source.
    let matrix_mask = match inst.opcode {
        M4x4 | M3x4 => Some(WriteMask::ALL),
        M4x3 | M3x3 => Some(WriteMask::XYZ),
        M3x2 => Some(WriteMask::XY),
        _ => None,
    };
    if let (Some(mask), Some(dst)) = (matrix_mask, inst.dst) {
        // The expansion writes one row at a time: the vector it multiplies must survive.
        if let Some(v) = inst.srcs.first() {
            if v.register == dst.register && v.relative.is_none() && dst.relative.is_none() {
                cx.at(
                    Rule::MacroDstSource,
                    at,
                    Operand::Dst,
                    Some(dst.register),
                    format!("{name} writes the register it reads as its vector source"),
                );
            }
        }
        if dst.mask != mask {
            cx.at(
                Rule::MatrixDstMask,
                at,
                Operand::Dst,
                Some(dst.register),
                format!("{name} must write {:?}, not {:?}", mask, dst.mask),
            );
        }
        if let Some(m) = inst.srcs.get(1) {
            let negated = matches!(
                m.modifier,
                SrcModifier::Neg
                    | SrcModifier::BiasNeg
                    | SrcModifier::SignNeg
                    | SrcModifier::X2Neg
                    | SrcModifier::AbsNeg
            );
            if !m.swizzle.is_identity() || negated {
                cx.at(
                    Rule::MatrixSource,
                    at,
                    Operand::Src(1),
                    Some(m.register),
                    format!("the matrix source of {name} takes no swizzle and no negate"),
                );
            }
        }
    }
    if let (Crs, Some(dst)) = (inst.opcode, inst.dst) {
        if dst.mask.0 & 0x8 != 0 || dst.mask.0 == 0 {
            cx.at(
                Rule::MatrixDstMask,
                at,
                Operand::Dst,
                Some(dst.register),
                format!("crs writes a subset of .xyz, not {:?}", dst.mask),
            );
        }
    }
    // The address register.
    if p.is_vertex() {
        if let Some(dst) = inst.dst {
            let is_a0 = dst.register.ty == RegisterType::Addr;
            let msg = match (inst.opcode, is_a0) {
                (MovA, false) => Some("mova writes only the address register a0".to_string()),
                (Mov, true) if p == Profile::Vs11 && dst.mask != WriteMask::X => {
                    Some("mov writes a0.x only in vs_1_1".to_string())
                }
                (Mov, true) if p != Profile::Vs11 => {
                    Some("from vs_2_0 the address register is written by mova, not mov".into())
                }
                (Mov | MovA, true) => None,
                (_, true) if !is_declaration(inst.opcode) => {
                    Some(format!("{name} cannot write the address register"))
                }
                _ => None,
            };
            if let Some(msg) = msg {
                cx.at(
                    Rule::AddressWrite,
                    at,
                    Operand::Dst,
                    Some(dst.register),
                    msg,
                );
            }
        }
    }
    // def, defi, defb.
    if let Some(dst) = inst.dst {
        let want = match inst.extra {
            Extra::Def(_) => Some((dst.register.ty.is_float_const(), "c#")),
            Extra::DefI(_) => Some((dst.register.ty == RegisterType::ConstInt, "i#")),
            Extra::DefB(_) => Some((dst.register.ty == RegisterType::ConstBool, "b#")),
            _ => None,
        };
        if let Some((false, reg)) = want {
            cx.at(
                Rule::DefRegisterType,
                at,
                Operand::Dst,
                Some(dst.register),
                format!("{name} defines a {reg} register"),
            );
        }
    }
    // frc in vs_1_1.
    if let (Frc, Profile::Vs11, Some(dst)) = (inst.opcode, p, inst.dst) {
        if dst.mask != WriteMask::Y && dst.mask != WriteMask::XY {
            cx.at(
                Rule::FrcMask,
                at,
                Operand::Dst,
                Some(dst.register),
                format!("frc in vs_1_1 writes .y or .xy, not {:?}", dst.mask),
            );
        }
    }
    // sincos and sgn forms.
    if let (SinCos, Some(dst)) = (inst.opcode, inst.dst) {
        if !matches!(dst.mask.0, 1..=3) || dst.register.ty != RegisterType::Temp {
            cx.at(
                Rule::SinCosForm,
                at,
                Operand::Dst,
                Some(dst.register),
                "sincos writes .x, .y or .xy of a temp register",
            );
        }
        for n in 1..inst.srcs.len().min(3) {
            let s = inst.srcs[n];
            if !s.register.ty.is_float_const() {
                cx.at(
                    Rule::SinCosForm,
                    at,
                    Operand::Src(n as u8),
                    Some(s.register),
                    "sincos reads its series constants from float constant registers",
                );
            }
        }
    }
    if inst.opcode == Sgn {
        for n in 1..inst.srcs.len().min(3) {
            let s = inst.srcs[n];
            if s.register.ty != RegisterType::Temp {
                cx.at(
                    Rule::SinCosForm,
                    at,
                    Operand::Src(n as u8),
                    Some(s.register),
                    "sgn's scratch sources 1 and 2 are temp registers",
                );
            }
        }
    }
    // texkill.
    if let (TexKill, Some(dst)) = (inst.opcode, inst.dst) {
        let ty_ok = match dst.register.ty {
            RegisterType::Addr => true,
            RegisterType::Temp => p != Profile::Ps11 && p != Profile::Ps12 && p != Profile::Ps13,
            RegisterType::Input => p == Profile::Ps30,
            _ => false,
        };
        if !ty_ok {
            cx.at(
                Rule::TexKill,
                at,
                Operand::Dst,
                Some(dst.register),
                "texkill names a texture or temp register",
            );
        } else if !dst.mask.is_full() {
            cx.at(
                Rule::TexKill,
                at,
                Operand::Dst,
                Some(dst.register),
                "texkill takes a full write mask",
            );
        }
    }
    // cnd in ps_1_1-1_3.
    if inst.opcode == Cnd && p.is_ps11_13() {
        if let Some(s) = inst.srcs.first() {
            let r0a = s.register.ty == RegisterType::Temp
                && s.register.num == 0
                && s.swizzle.replicated() == Some(3)
                && s.relative.is_none();
            if !r0a {
                cx.at(
                    Rule::CndSource,
                    at,
                    Operand::Src(0),
                    Some(s.register),
                    "cnd in ps_1_1-ps_1_3 reads its condition from r0.a",
                );
            }
        }
    }
    // texld in ps_2_0 / ps_2_x.
    if inst.opcode == Tex && matches!(p, Profile::Ps20 | Profile::Ps2x) {
        texld_2x(cx, at);
    }
}

fn texld_2x(cx: &mut Cx<'_>, at: &At<'_>) {
    let inst = at.inst;
    if let Some(dst) = inst.dst {
        if !dst.mask.is_full() {
            cx.at(
                Rule::TexldOperands,
                at,
                Operand::Dst,
                Some(dst.register),
                "texld writes all of its destination (.xyzw) in ps_2_0 and ps_2_x",
            );
        }
    }
    if let Some(c) = inst.srcs.first() {
        let ty_ok = matches!(c.register.ty, RegisterType::Temp | RegisterType::Addr);
        if !ty_ok || !c.swizzle.is_identity() || c.modifier != SrcModifier::None {
            cx.at(
                Rule::TexldOperands,
                at,
                Operand::Src(0),
                Some(c.register),
                "texld reads its coordinate from t# or r# with no modifier or swizzle in ps_2_0 and ps_2_x",
            );
        }
    }
    if let Some(smp) = inst.srcs.get(1) {
        if !smp.swizzle.is_identity() {
            cx.at(
                Rule::TexldOperands,
                at,
                Operand::Src(1),
                Some(smp.register),
                "the sampler of texld takes no swizzle in ps_2_0 and ps_2_x",
            );
        }
    }
}

fn slots_check(cx: &mut Cx<'_>) {
    let p = cx.p();
    let (tex_max, arith_max) = p.slots(cx.software);
    let mut tex = 0u32;
    let mut arith = 0u32;
    let mut over: Option<(usize, &'static str)> = None;
    let insts = cx.insts.clone();
    for at in insts.iter() {
        let op = at.inst.opcode;
        if op == Opcode::Phase {
            // ps_1_4 counts each phase on its own.
            tex = 0;
            arith = 0;
            continue;
        }
        if is_declaration(op) || op == Opcode::Label || at.inst.coissue {
            continue;
        }
        let cost = crate::slots::cost(op, cx.version);
        // Versions without a texture limit count every slot against the one total.
        let (t, a) = match tex_max {
            0 => (0, cost.total()),
            _ => (cost.texture, cost.arithmetic),
        };
        tex += t;
        arith += a;
        if tex > tex_max && t > 0 && over.is_none() {
            over = Some((at.index, "texture"));
        }
        if arith > arith_max && a > 0 && over.is_none() {
            over = Some((
                at.index,
                if tex_max > 0 {
                    "arithmetic"
                } else {
                    "instruction"
                },
            ));
        }
    }
    if let Some((index, kind)) = over {
        let at = insts[index];
        let limit = if kind == "texture" {
            tex_max
        } else {
            arith_max
        };
        cx.at(
            Rule::SlotLimit,
            &at,
            Operand::Instruction,
            None,
            format!(
                "this instruction passes the {} limit of {limit} {kind} slots",
                p.name()
            ),
        );
    }
}

fn constant_table(cx: &mut Cx<'_>) {
    for k in 0..cx.comments.len() {
        let (item, offset) = cx.comments[k];
        let Item::Comment(c) = &cx.shader.items[item] else {
            continue;
        };
        if !crate::ctab::is_ctab(&c.data) {
            continue;
        }
        // The in-place reader accepts what `ConstantTable::parse` accepts, with its errors,
        // without building the table.
        if let Err(e) = crate::table_view::ConstantTableView::parse(&c.data) {
            cx.push(
                Rule::ConstantTable,
                None,
                offset,
                Some(Operand::Comment),
                None,
                format!("the CTAB comment does not parse: {e}"),
            );
            let last = cx.diags_mut_last();
            last.item = Some(item);
        }
    }
}
