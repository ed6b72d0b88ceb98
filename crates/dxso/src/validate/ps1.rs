//! ps_1_x sequencing: co-issue pairs, ps_1_4 phases, texture instructions before arithmetic,
//! texm3x2/texm3x3 sequences, texture register order, and ps_1_4 texld/texcrd operands.

use super::{is_declaration, is_texture_op, At, Cx, Operand, Profile, Rule};
use crate::opcode::Opcode;
use crate::param::{SrcModifier, Swizzle};
use crate::register::{Register, RegisterType as R};

pub(super) fn check(cx: &mut Cx<'_>) {
    let p = cx.p();
    if !p.is_ps1() {
        return;
    }
    let insts = cx.insts.clone();
    coissue(cx, &insts);
    if p != Profile::Ps14 {
        write_masks(cx, &insts);
    }
    if p == Profile::Ps14 {
        phases(cx, &insts);
    } else {
        tex_sequences(cx, &insts);
    }
}

fn is_arith(op: Opcode) -> bool {
    !is_texture_op(op) && !is_declaration(op) && op != Opcode::Phase && op != Opcode::Nop
}

/// ps_1_1-ps_1_3 split colour and alpha: arithmetic writes `.xyzw`, `.xyz` or `.w`, and `dp3`
/// only `.xyz` or `.xyzw`.
fn write_masks(cx: &mut Cx<'_>, insts: &[At<'_>]) {
    for at in insts {
        let (op, Some(dst)) = (at.inst.opcode, at.inst.dst) else {
            continue;
        };
        if !is_arith(op) {
            continue;
        }
        let allowed: &[u8] = if op == Opcode::Dp3 {
            &[0xF, 0x7]
        } else {
            &[0xF, 0x7, 0x8]
        };
        if !allowed.contains(&(dst.mask.0 & 0xF)) {
            cx.at(
                Rule::Ps1WriteMask,
                at,
                Operand::Dst,
                Some(dst.register),
                format!(
                    "{} in {} writes {:?}; only .xyzw, .xyz{} are allowed",
                    cx.mnemonic(at.inst),
                    cx.version,
                    dst.mask,
                    if op == Opcode::Dp3 { "" } else { " and .w" }
                ),
            );
        }
    }
}

fn coissue(cx: &mut Cx<'_>, insts: &[At<'_>]) {
    for (i, at) in insts.iter().enumerate() {
        if !at.inst.coissue {
            continue;
        }
        let prev = i.checked_sub(1).map(|j| insts[j]);
        let msg = match (prev, at.inst.dst) {
            (_, None) => {
                Some("only an arithmetic instruction with a destination is co-issued".into())
            }
            _ if !is_arith(at.inst.opcode) => {
                Some(format!("{} cannot be co-issued", cx.mnemonic(at.inst)))
            }
            (None, _) => Some("a co-issued instruction needs an instruction before it".into()),
            (Some(pr), Some(d)) => match pr.inst.dst {
                _ if pr.inst.coissue => Some("at most two instructions are co-issued".to_string()),
                _ if !is_arith(pr.inst.opcode) => {
                    Some("a co-issued instruction pairs with an arithmetic instruction".to_string())
                }
                None => Some(
                    "a co-issued instruction pairs with an instruction that writes".to_string(),
                ),
                Some(pd) => {
                    let (a, b) = (pd.mask.0 & 0xF, d.mask.0 & 0xF);
                    let split = (a == 8 && b & 8 == 0) || (b == 8 && a & 8 == 0);
                    (!split || a & b != 0).then(|| {
                        "a co-issued pair splits colour (.rgb) and alpha (.a) writes".to_string()
                    })
                }
            },
        };
        if let Some(msg) = msg {
            cx.at(Rule::CoissuePairing, at, Operand::Instruction, None, msg);
        }
    }
}

fn phases(cx: &mut Cx<'_>, insts: &[At<'_>]) {
    let mut phase_seen = false;
    let mut arith_seen = false;
    for at in insts {
        let op = at.inst.opcode;
        if op == Opcode::Phase {
            if phase_seen {
                cx.at(
                    Rule::PhaseOrder,
                    at,
                    Operand::Instruction,
                    None,
                    "ps_1_4 has at most one phase instruction",
                );
            }
            phase_seen = true;
            arith_seen = false;
            continue;
        }
        if is_texture_op(op) && arith_seen {
            cx.at(
                Rule::PhaseOrder,
                at,
                Operand::Instruction,
                None,
                "in a ps_1_4 phase, texture instructions come before arithmetic instructions",
            );
        }
        if is_arith(op) {
            arith_seen = true;
        }
        if matches!(op, Opcode::Tex | Opcode::TexCoord) {
            ps14_tex_operands(cx, at, phase_seen);
        }
    }
}

fn ps14_tex_operands(cx: &mut Cx<'_>, at: &At<'_>, phase2: bool) {
    let inst = at.inst;
    let Some(s) = inst.srcs.first() else { return };
    let texld = inst.opcode == Opcode::Tex;
    let ty_ok = s.register.ty == R::Addr || (texld && phase2 && s.register.ty == R::Temp);
    let sw_ok = matches!(s.swizzle.0, 0xE4 | 0xA4 | 0xF4)
        || (s.swizzle == Swizzle::new(0, 1, 2, 2))
        || (s.swizzle == Swizzle::new(0, 1, 3, 3));
    let mod_ok = matches!(
        s.modifier,
        SrcModifier::None | SrcModifier::Dz | SrcModifier::Dw
    );
    if !ty_ok || !sw_ok || !mod_ok {
        cx.at(
            Rule::Ps14TexOperands,
            at,
            Operand::Src(0),
            Some(s.register),
            format!(
                "{} reads a texture register (or a temp in phase 2 for texld) as .xyz or .xyw, with only _dz/_dw",
                cx.mnemonic(inst)
            ),
        );
    }
}

fn tex_sequences(cx: &mut Cx<'_>, insts: &[At<'_>]) {
    use Opcode::*;
    let mut arith_seen = false;
    let mut written: Vec<u16> = Vec::new();
    // Pads waiting for their final instruction: (kind rows, pads so far, last dst).
    let mut pending: Option<(u8, u8, u16)> = None;
    for at in insts {
        let op = at.inst.opcode;
        if is_declaration(op) {
            continue;
        }
        if is_texture_op(op) && arith_seen {
            cx.at(
                Rule::TexOpOrder,
                at,
                Operand::Instruction,
                None,
                "texture instructions come before arithmetic instructions",
            );
        }
        if is_arith(op) {
            arith_seen = true;
        }
        let dst = at.inst.dst.map(|d| d.register);
        let dnum = dst.map(|r| r.num).unwrap_or(0);
        // texm3x2/texm3x3 sequences.
        let (rows, is_pad) = match op {
            TexM3x2Pad => (2, true),
            TexM3x3Pad => (3, true),
            TexM3x2Tex | TexM3x2Depth => (2, false),
            TexM3x3Tex | TexM3x3Spec | TexM3x3VSpec | TexM3x3 | TexM3x3Diff => (3, false),
            _ => (0, false),
        };
        let seq_err = |cx: &mut Cx<'_>, msg: &str| {
            cx.at(
                Rule::TexMatrixSequence,
                at,
                Operand::Instruction,
                dst,
                msg.to_string(),
            );
        };
        match (pending, rows, is_pad) {
            (None, 0, _) => {}
            (None, r, true) => pending = Some((r, 1, dnum)),
            (None, _, false) => seq_err(
                cx,
                "a texm3x2/texm3x3 operation without its pad instructions",
            ),
            (Some((r, n, last)), rr, pad) if rr == r && last.checked_add(1) == Some(dnum) => {
                if pad && n + 1 < r {
                    pending = Some((r, n + 1, dnum));
                } else if !pad && n + 1 == r {
                    pending = None;
                } else {
                    seq_err(
                        cx,
                        "wrong number of pad instructions before a texm3x2/texm3x3 operation",
                    );
                    pending = None;
                }
            }
            (Some(_), _, _) => {
                seq_err(cx, "a texm3x2pad/texm3x3pad sequence is broken (next instruction, next texture register)");
                pending = if is_pad { Some((rows, 1, dnum)) } else { None };
            }
        }
        // Texture register order and single writes.
        if is_texture_op(op) && op != TexKill {
            if let Some(r) = dst.filter(|r| r.ty == R::Addr) {
                if let Some(s) = at.inst.srcs.first().filter(|s| s.register.ty == R::Addr) {
                    if s.register.num >= r.num {
                        cx.at(
                            Rule::TexRegisterOrder,
                            at,
                            Operand::Src(0),
                            Some(s.register),
                            "a texture instruction reads a lower texture register than it writes",
                        );
                    }
                }
                if written.contains(&r.num) {
                    cx.at(
                        Rule::TexRegisterOrder,
                        at,
                        Operand::Dst,
                        Some(Register::new(R::Addr, r.num)),
                        "this texture register is already written by a texture instruction",
                    );
                }
                written.push(r.num);
            }
        }
    }
    if pending.is_some() {
        if let Some(last) = insts.last() {
            cx.at(
                Rule::TexMatrixSequence,
                last,
                Operand::Instruction,
                None,
                "a texm3x2pad/texm3x3pad sequence is not finished",
            );
        }
    }
}
