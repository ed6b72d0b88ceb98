//! Operand rules: which register files exist, which may be read or written and by whom, index
//! limits, relative addressing, reserved bits, source and result modifiers, swizzles, and
//! predication.

use super::{is_declaration, is_texture_op, At, Cx, Operand, Profile, Rule};
use crate::opcode::Opcode;
use crate::param::{DstParam, Relative, SrcModifier, SrcParam, Swizzle};
use crate::register::{Register, RegisterType};

/// What an operand position accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// An ordinary value: the version's readable (source) or writable (destination) files.
    Value,
    /// A fixed role: one of these register types.
    Only(&'static [RegisterType]),
    /// Checked elsewhere (dcl destinations, def destinations).
    Elsewhere,
}

use RegisterType as R;

fn dst_role(op: Opcode, p: Profile) -> Role {
    use Opcode::*;
    match op {
        Dcl | Def | DefI | DefB => Role::Elsewhere,
        SetP => Role::Only(&[R::Predicate]),
        TexKill => Role::Elsewhere,
        TexCoord | Tex | TexBem | TexBemL | TexReg2Ar | TexReg2Gb | TexM3x2Pad | TexM3x2Tex
        | TexM3x3Pad | TexM3x3Tex | TexM3x3Diff | TexM3x3Spec | TexM3x3VSpec | TexReg2Rgb
        | TexDp3Tex | TexM3x2Depth | TexDp3 | TexM3x3
            if p.is_ps11_13() =>
        {
            Role::Only(&[R::Addr])
        }
        TexCoord | Tex | TexDepth | Bem if p == Profile::Ps14 => Role::Only(&[R::Temp]),
        // ps_3_0 and vs_3_0 texture loads may write any writable register: fxc writes oC0
        // directly, and the Direct3D 9 runtime creates `texldl o1, c0.x, s0` in vs_3_0 (Wine's
        // test_vertex_texture reads the texel back on Windows).
        Tex | TexLdl | TexLdd if !matches!(p, Profile::Ps30 | Profile::Vs30) => {
            Role::Only(&[R::Temp])
        }
        _ if p == Profile::Ps14 => Role::Only(&[R::Temp]),
        _ => Role::Value,
    }
}

fn src_role(op: Opcode, n: usize, p: Profile) -> Role {
    use Opcode::*;
    match (op, n) {
        (Loop, 0) => Role::Only(&[R::Loop]),
        (Loop, 1) | (Rep, 0) => Role::Only(&[R::ConstInt]),
        (If, 0) => Role::Only(&[R::ConstBool, R::Predicate]),
        (Call, 0) | (CallNz, 0) | (Label, 0) => Role::Only(&[R::Label]),
        (CallNz, 1) => Role::Only(&[R::ConstBool, R::Predicate]),
        (BreakP, 0) => Role::Only(&[R::Predicate]),
        (Tex, 1) | (TexLdl, 1) | (TexLdd, 1) => Role::Only(&[R::Sampler]),
        (Tex, 0) | (TexCoord, 0) if p == Profile::Ps14 => Role::Elsewhere,
        (TexM3x3Spec, 1) if p.is_ps11_13() => Role::Only(&[R::Const]),
        (
            TexBem | TexBemL | TexReg2Ar | TexReg2Gb | TexM3x2Pad | TexM3x2Tex | TexM3x3Pad
            | TexM3x3Tex | TexM3x3Diff | TexM3x3Spec | TexM3x3VSpec | TexReg2Rgb | TexDp3Tex
            | TexM3x2Depth | TexDp3 | TexM3x3,
            0,
        ) if p.is_ps11_13() => Role::Only(&[R::Addr]),
        _ => Role::Value,
    }
}

/// Types whose operands take no modifier (only `!` on p0).
fn is_resource(ty: RegisterType) -> bool {
    matches!(
        ty,
        R::Sampler | R::Label | R::ConstBool | R::ConstInt | R::Loop | R::Predicate
    )
}

fn type_name(ty: RegisterType) -> &'static str {
    match ty {
        R::Temp => "temp",
        R::Input => "input",
        R::Const | R::Const2 | R::Const3 | R::Const4 => "float constant",
        R::Addr => "address/texture",
        R::RastOut => "rasterizer output",
        R::AttrOut => "colour output",
        R::Output => "texture-coordinate/output",
        R::ConstInt => "integer constant",
        R::ColorOut => "colour output",
        R::DepthOut => "depth output",
        R::Sampler => "sampler",
        R::ConstBool => "boolean constant",
        R::Loop => "loop counter",
        R::TempFloat16 => "half temp",
        R::MiscType => "vPos/vFace",
        R::Label => "label",
        R::Predicate => "predicate",
    }
}

pub(super) fn check(cx: &mut Cx<'_>) {
    let insts = cx.insts.clone();
    let p = cx.p();
    for at in insts.iter() {
        let inst = at.inst;
        if inst.coissue && !p.is_ps1() {
            cx.at(
                Rule::CoissueNotAllowed,
                at,
                Operand::Instruction,
                None,
                format!("co-issue exists only in ps_1_x, not {}", cx.version),
            );
        }
        if let Some(dst) = inst.dst {
            register(
                cx,
                at,
                Operand::Dst,
                dst.register,
                dst_role(inst.opcode, p),
                true,
            );
            dst_param(cx, at, &dst);
        }
        if let Some(pred) = inst.predicate {
            predicate(cx, at, &pred);
        }
        for (n, s) in inst.srcs.iter().enumerate() {
            let op = Operand::Src(n as u8);
            register(cx, at, op, s.register, src_role(inst.opcode, n, p), false);
            src_param(cx, at, op, s);
        }
    }
}

/// Register availability, direction, role and index.
fn register(cx: &mut Cx<'_>, at: &At<'_>, op: Operand, reg: Register, role: Role, write: bool) {
    let p = cx.p();
    let Some(mut file) = p.file(reg.ty, cx.software) else {
        cx.at(
            Rule::RegisterUnavailable,
            at,
            op,
            Some(reg),
            format!("{} has no {} registers", cx.version, type_name(reg.ty)),
        );
        return;
    };
    if reg.ty == R::Const && matches!(p, Profile::Vs11 | Profile::Vs20 | Profile::Vs2x) {
        if let Some(n) = cx.options.max_vertex_constants {
            file.count = file.count.max(n);
        }
    }
    match role {
        Role::Value if write && !file.write => {
            // a0 is writable but only by mov/mova: that is V0404's business.
            cx.at(
                Rule::DstNotWritable,
                at,
                op,
                Some(reg),
                format!(
                    "{} cannot write a {} register",
                    cx.mnemonic(at.inst),
                    type_name(reg.ty)
                ),
            );
        }
        Role::Value if !write && !file.read => {
            cx.at(
                Rule::SrcNotReadable,
                at,
                op,
                Some(reg),
                format!(
                    "{} cannot read a {} register",
                    cx.mnemonic(at.inst),
                    type_name(reg.ty)
                ),
            );
        }
        Role::Only(types) if !types.contains(&reg.ty) => {
            let want: Vec<&str> = types.iter().map(|t| type_name(*t)).collect();
            cx.at(
                Rule::OperandRegisterType,
                at,
                op,
                Some(reg),
                format!(
                    "{} {op} must be a {} register",
                    cx.mnemonic(at.inst),
                    want.join(" or ")
                ),
            );
        }
        _ => {}
    }
    let index = match reg.ty {
        R::Const2 | R::Const3 | R::Const4 => reg.num as u32,
        _ => reg.index(),
    };
    // vs_2_0/vs_2_x: past the 256 every device has, the limit is the device's
    // MaxVertexShaderConst. Unless the caller names a device, that is a warning, not an error:
    // fxc compiles such shaders (librw's skinning shader uses c297).
    let caps_dependent = reg.ty == R::Const
        && matches!(p, Profile::Vs20 | Profile::Vs2x)
        && cx.options.max_vertex_constants.is_none();
    if caps_dependent && index >= file.count && index < 8192 {
        cx.at(
            Rule::ConstantNeedsCaps,
            at,
            op,
            Some(reg),
            format!(
                "{} guarantees {} float constants; c{index} needs MaxVertexShaderConst > {index}",
                cx.version, file.count
            ),
        );
        return;
    }
    if index >= file.count {
        cx.at(
            Rule::RegisterIndex,
            at,
            op,
            Some(reg),
            format!(
                "{} has {} {} registers (0-{})",
                cx.version,
                file.count,
                type_name(reg.ty),
                file.count - 1
            ),
        );
    }
}

/// Relative addressing of an operand: where it is allowed and its token.
fn relative(
    cx: &mut Cx<'_>,
    at: &At<'_>,
    op: Operand,
    reg: Register,
    rel: Option<Relative>,
    is_dst: bool,
) {
    let Some(rel) = rel else { return };
    let p = cx.p();
    let sm1 = cx.version.is_sm1();
    let allowed = match (is_dst, reg.ty) {
        (true, R::Output) => p == Profile::Vs30,
        (true, _) => false,
        (false, t) if t.is_float_const() => p.is_vertex() || p == Profile::Ps30,
        (false, R::Input) => p.is_sm3(),
        _ => false,
    };
    if !allowed {
        cx.at(
            Rule::RelativeNotAllowed,
            at,
            op,
            Some(reg),
            format!(
                "{} does not allow relative addressing of this operand",
                cx.version
            ),
        );
        return;
    }
    match rel {
        Relative::Implicit if !sm1 => cx.at(
            Rule::RelativeNotAllowed,
            at,
            op,
            Some(reg),
            "shader model 2 and later name the address register in an extra token",
        ),
        Relative::Token(_) if sm1 => cx.at(
            Rule::RelativeNotAllowed,
            at,
            op,
            Some(reg),
            "shader model 1 has no relative-address token (the address is a0.x)",
        ),
        Relative::Token(t) => {
            let ok_reg = match t.register.ty {
                R::Addr => p.is_vertex(),
                R::Loop => p.file(R::Loop, false).is_some(),
                _ => false,
            } && t.register.num == 0;
            if !ok_reg || t.modifier != 0 {
                cx.at(
                    Rule::RelativeToken,
                    at,
                    op,
                    Some(t.register),
                    "the relative address is a0 or aL with no modifier",
                );
            }
            if t.reserved != 0 {
                cx.at(
                    Rule::ParamReserved,
                    at,
                    op,
                    Some(reg),
                    format!(
                        "reserved bits of the relative-address token are set ({:#x})",
                        t.reserved
                    ),
                );
            }
        }
        Relative::Implicit => {}
    }
}

fn dst_param(cx: &mut Cx<'_>, at: &At<'_>, dst: &DstParam) {
    let p = cx.p();
    let op = Operand::Dst;
    let reg = dst.register;
    let inst = at.inst;
    let is_dcl = inst.opcode == Opcode::Dcl;
    if dst.reserved != 0 {
        cx.at(
            Rule::ParamReserved,
            at,
            op,
            Some(reg),
            format!(
                "bits 14-15 of the destination are set ({:#x})",
                dst.reserved
            ),
        );
    }
    relative(cx, at, op, reg, dst.relative, true);
    if dst.mask.0 == 0 && !is_dcl && !is_declaration(inst.opcode) {
        cx.at(
            Rule::EmptyWriteMask,
            at,
            op,
            Some(reg),
            "the write mask is empty",
        );
    }
    if dst.shift.0 != 0 {
        // ps_1_1-1_3 scale by x2, x4, d2; ps_1_4 adds x8, d4, d8; arithmetic instructions only.
        let allowed: &[i8] = match p {
            Profile::Ps11 | Profile::Ps12 | Profile::Ps13 => &[1, 2, -1],
            Profile::Ps14 => &[1, 2, 3, -1, -2, -3],
            _ => &[],
        };
        let on_arith = !is_declaration(inst.opcode) && !is_texture_op(inst.opcode);
        if !allowed.contains(&dst.shift.0) || !on_arith {
            let why = if !p.is_ps1() {
                "exists only in ps_1_x".to_string()
            } else if !on_arith {
                "applies only to arithmetic instructions".to_string()
            } else {
                format!("is not available in {}", cx.version)
            };
            cx.at(
                Rule::ShiftNotAllowed,
                at,
                op,
                Some(reg),
                format!("result shift {} {why}", shift_name(dst.shift.0)),
            );
        }
    }
    let m = dst.modifiers;
    if m.0 & 0x8 != 0 {
        cx.at(
            Rule::ResultModifierReserved,
            at,
            op,
            Some(reg),
            "the reserved result-modifier bit 23 is set",
        );
    }
    if m.saturate() {
        use Opcode::*;
        let why = if matches!(p, Profile::Vs11 | Profile::Vs20 | Profile::Vs2x) {
            Some(format!("_sat does not exist in {}", cx.version))
        } else if is_declaration(inst.opcode) {
            Some("_sat does not apply to declarations".to_string())
        } else if matches!(inst.opcode, Frc | SinCos) || is_texture_op(inst.opcode) {
            Some(format!("{} takes no _sat", cx.mnemonic(inst)))
        } else if matches!(reg.ty, R::Predicate) || (reg.ty == R::Addr && p.is_vertex()) {
            Some("_sat does not apply to p0 or a0".to_string())
        } else if matches!(p, Profile::Ps20 | Profile::Ps2x)
            && matches!(reg.ty, R::ColorOut | R::DepthOut)
        {
            Some("ps_2_0 and ps_2_x take no _sat on writes to output registers".to_string())
        } else {
            None
        };
        if let Some(why) = why {
            cx.at(Rule::SaturateNotAllowed, at, op, Some(reg), why);
        }
    }
    if m.partial_precision() && (p.is_vertex() || p.is_ps1()) {
        cx.at(
            Rule::PartialPrecisionNotAllowed,
            at,
            op,
            Some(reg),
            format!("_pp does not exist in {}", cx.version),
        );
    }
    if m.centroid() {
        let ok = is_dcl
            && matches!(p, Profile::Ps20 | Profile::Ps2x | Profile::Ps30)
            && matches!(reg.ty, R::Input | R::Addr);
        if !ok {
            cx.at(
                Rule::CentroidNotAllowed,
                at,
                op,
                Some(reg),
                "_centroid is allowed only on input and texture declarations of ps_2_0 and later",
            );
        }
    }
}

fn src_param(cx: &mut Cx<'_>, at: &At<'_>, op: Operand, s: &SrcParam) {
    let p = cx.p();
    let reg = s.register;
    if s.reserved != 0 {
        cx.at(
            Rule::ParamReserved,
            at,
            op,
            Some(reg),
            format!("bits 14-15 of the source are set ({:#x})", s.reserved),
        );
    }
    relative(cx, at, op, reg, s.relative, false);
    source_modifier(cx, at, op, s);
    // Swizzles in ps_1_x and ps_2_0.
    let sw = s.swizzle;
    let ps14_tex = p == Profile::Ps14 && matches!(at.inst.opcode, Opcode::Tex | Opcode::TexCoord);
    let ok = match p {
        _ if is_resource(reg.ty) => true,
        _ if ps14_tex => true,
        // .b replicate only when the instruction writes alpha alone.
        Profile::Ps11 | Profile::Ps12 | Profile::Ps13 => {
            sw.is_identity()
                || sw == Swizzle::W
                || (sw == Swizzle::Z && at.inst.dst.is_some_and(|d| d.mask.0 & 0xF == 8))
        }
        Profile::Ps14 => sw.is_identity() || sw.replicated().is_some(),
        Profile::Ps20 => {
            sw.is_identity() || sw.replicated().is_some() || matches!(sw.0, 0xC9 | 0xD2 | 0x1B)
        }
        _ => true,
    };
    if !ok {
        cx.at(
            Rule::SwizzleNotAllowed,
            at,
            op,
            Some(reg),
            format!("{:?} is not a swizzle {} supports", sw, cx.version),
        );
    }
}

fn source_modifier(cx: &mut Cx<'_>, at: &At<'_>, op: Operand, s: &SrcParam) {
    use SrcModifier::*;
    let p = cx.p();
    let reg = s.register;
    let m = s.modifier;
    if m == None {
        return;
    }
    if m == Not {
        if reg.ty != R::Predicate {
            cx.at(
                Rule::NotModifierNotPredicate,
                at,
                op,
                Some(reg),
                "! applies only to the predicate register",
            );
        }
        return;
    }
    if is_resource(reg.ty) {
        cx.at(
            Rule::ResourceModifier,
            at,
            op,
            Some(reg),
            format!("a {} operand takes no source modifier", type_name(reg.ty)),
        );
        return;
    }
    match m {
        Bias | BiasNeg | Sign | SignNeg | Comp if !p.is_ps1() => cx.at(
            Rule::SrcModifierNotAllowed,
            at,
            op,
            Some(reg),
            format!("source modifier {m:?} exists only in ps_1_x"),
        ),
        X2 | X2Neg | Dz | Dw if p != Profile::Ps14 => cx.at(
            Rule::SrcModifierNotAllowed,
            at,
            op,
            Some(reg),
            format!("source modifier {m:?} exists only in ps_1_4"),
        ),
        Abs | AbsNeg if !p.is_sm3() => cx.at(
            Rule::AbsNotAllowed,
            at,
            op,
            Some(reg),
            format!("_abs exists only in shader model 3, not {}", cx.version),
        ),
        _ => {}
    }
}

fn predicate(cx: &mut Cx<'_>, at: &At<'_>, pred: &SrcParam) {
    use Opcode::*;
    let p = cx.p();
    let op = Operand::Predicate;
    let name = cx.mnemonic(at.inst);
    let msg = if !p.has_predicate() {
        Some(format!("{} has no predicate register", cx.version))
    } else if matches!(
        at.inst.opcode,
        Dcl | Def
            | DefI
            | DefB
            | Label
            | Call
            | CallNz
            | Loop
            | EndLoop
            | Rep
            | EndRep
            | If
            | Ifc
            | Else
            | EndIf
            | Ret
            | Phase
            | SetP
            | BreakP
            | BreakC
            | Break
    ) {
        Some(format!("{name} cannot be predicated"))
    } else if pred.register != Register::new(R::Predicate, 0)
        || !matches!(pred.modifier, SrcModifier::None | SrcModifier::Not)
        || pred.relative.is_some()
    {
        Some("the predicate is p0, with no modifier but !".to_string())
    } else {
        None
    };
    if let Some(msg) = msg {
        cx.at(Rule::Predication, at, op, Some(pred.register), msg);
    }
    if pred.reserved != 0 {
        cx.at(
            Rule::ParamReserved,
            at,
            op,
            Some(pred.register),
            "bits 14-15 of the predicate token are set",
        );
    }
}

fn shift_name(shift: i8) -> String {
    match shift {
        s if s > 0 => format!("_x{}", 1u32 << s.min(7)),
        s => format!("_d{}", 1u32 << (-(s as i32)).min(8)),
    }
}
