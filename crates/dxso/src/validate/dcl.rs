//! Declaration rules: the usage token's reserved bits per register kind, which
//! registers a version declares, usages and indices, sampler types, duplicates, masks,
//! placement, and vs_3_0 outputs declared before they are written.

use super::{is_declaration, At, Cx, Operand, Profile, Rule};
use crate::instruction::{DclToken, DeclUsage};
use crate::opcode::Opcode;
use crate::param::Relative;
use crate::register::{Register, RegisterType as R};
use rustc_hash::FxHashMap as HashMap;

pub(super) fn check(cx: &mut Cx<'_>) {
    let p = cx.p();
    let insts = cx.insts.clone();
    // Declared masks per register, and usage/index pairs per register file.
    let mut masks: HashMap<Register, u8> = HashMap::default();
    let mut usages: HashMap<(R, u8, u8), Register> = HashMap::default();
    let mut first_code: Option<usize> = None;
    for at in insts.iter() {
        let inst = at.inst;
        if inst.opcode != Opcode::Dcl {
            if first_code.is_none() && !is_declaration(inst.opcode) {
                first_code = Some(at.index);
            }
            continue;
        }
        let (Some(d), Some(dst)) = (inst.dcl(), inst.dst) else {
            continue;
        };
        if let Some(code) = first_code {
            cx.at(
                Rule::DclPlacement,
                at,
                Operand::Instruction,
                Some(dst.register),
                format!("dcl after instruction {code}: declarations come first"),
            );
        }
        let reg = dst.register;
        if !declarable(p, reg.ty) {
            cx.at(
                Rule::DclRegisterType,
                at,
                Operand::Dst,
                Some(reg),
                format!("{} does not declare this register type", cx.version),
            );
            continue;
        }
        reserved(cx, at, p, reg, d);
        usage(cx, at, p, reg, d);
        if reg.ty == R::Sampler && !matches!(d.texture_type_raw, 2..=4) {
            cx.at(
                Rule::DclSamplerType,
                at,
                Operand::DclUsage,
                Some(reg),
                format!(
                    "sampler type {} is not 2d (2), cube (3) or volume (4)",
                    d.texture_type_raw
                ),
            );
        }
        // Masks.
        let mask = dst.mask.0 & 0xF;
        if reg.ty != R::Sampler && mask == 0 {
            cx.at(
                Rule::DclMask,
                at,
                Operand::Dst,
                Some(reg),
                "the declaration declares no component",
            );
        }
        if reg.ty == R::MiscType {
            let full = reg.num != 1 || mask == 0xF;
            if !full || dst.modifiers.0 != 0 || dst.shift.0 != 0 {
                cx.at(
                    Rule::DclMask,
                    at,
                    Operand::Dst,
                    Some(reg),
                    "vFace takes a full write mask, vPos and vFace no result modifier or shift",
                );
            }
        }
        // Duplicates: components of one register, and a usage/index pair in one file.
        let key_mask = if reg.ty == R::Sampler { 0xF } else { mask };
        let prev = masks.entry(reg).or_insert(0);
        if *prev & key_mask != 0 {
            cx.at(
                Rule::DclDuplicate,
                at,
                Operand::Dst,
                Some(reg),
                "this register (or these components) is already declared",
            );
        }
        *prev |= key_mask;
        if has_usage(p, reg.ty) {
            if let Some(other) = usages.insert((reg.ty, d.usage_raw, d.usage_index), reg) {
                if other != reg {
                    let u = d.decl_usage().map(DeclUsage::name).unwrap_or("unknown");
                    cx.at(
                        Rule::DclDuplicate,
                        at,
                        Operand::DclUsage,
                        Some(reg),
                        format!(
                            "usage {u}{} is already declared on another register",
                            d.usage_index
                        ),
                    );
                }
            }
        }
    }
    if p == Profile::Vs30 {
        outputs_declared(cx, &insts, &masks);
    }
}

/// The register types a version declares with dcl.
fn declarable(p: Profile, ty: R) -> bool {
    use Profile::*;
    match p {
        Vs11 | Vs20 | Vs2x => ty == R::Input,
        Vs30 => matches!(ty, R::Input | R::Output | R::Sampler),
        Ps20 | Ps2x => matches!(ty, R::Input | R::Addr | R::Sampler),
        Ps30 => matches!(ty, R::Input | R::Sampler | R::MiscType),
        _ => false,
    }
}

/// Whether the usage fields mean something for this register.
fn has_usage(p: Profile, ty: R) -> bool {
    match ty {
        R::Input => p.is_vertex() || p == Profile::Ps30,
        R::Output => true,
        _ => false,
    }
}

fn reserved(cx: &mut Cx<'_>, at: &At<'_>, p: Profile, reg: Register, d: DclToken) {
    let mut bad = d.reserved;
    if reg.ty == R::Sampler {
        // [26:0] reserved: no usage for a sampler.
        bad |= d.usage_raw as u32 | (d.usage_index as u32) << 16;
    } else {
        bad |= (d.texture_type_raw as u32) << 27;
        if !has_usage(p, reg.ty) {
            // ps_2_x inputs and texture registers, vPos and vFace: [30:0] reserved.
            bad |= d.usage_raw as u32 | (d.usage_index as u32) << 16;
        }
    }
    if bad != 0 {
        cx.at(
            Rule::DclReserved,
            at,
            Operand::DclUsage,
            Some(reg),
            format!("reserved bits of the dcl token are set ({bad:#010x})"),
        );
    }
}

/// The usage must be a `D3DDECLUSAGE` value. Its index is the token's four-bit field
/// (0-15), and every index is valid for every usage and register file: Microsoft's pages give
/// vertex inputs 0-15 and let vs_3_0 outputs and ps_3_0 inputs use any usage with an index, and
/// fxc declares ps_3_0 inputs such as `dcl_texcoord8` and `dcl_color2` (docs/VALIDATION.md,
/// V0503).
fn usage(cx: &mut Cx<'_>, at: &At<'_>, p: Profile, reg: Register, d: DclToken) {
    if !has_usage(p, reg.ty) || d.decl_usage().is_some() {
        return;
    }
    cx.at(
        Rule::DclUsage,
        at,
        Operand::DclUsage,
        Some(reg),
        format!("usage {} is not a D3DDECLUSAGE value", d.usage_raw),
    );
}

fn outputs_declared(cx: &mut Cx<'_>, insts: &[At<'_>], masks: &HashMap<Register, u8>) {
    for at in insts {
        let inst = at.inst;
        if inst.opcode == Opcode::Dcl {
            continue;
        }
        let Some(dst) = inst.dst else { continue };
        if dst.register.ty != R::Output
            || dst.register.num >= 12
            || matches!(dst.relative, Some(Relative::Token(_)))
        {
            continue;
        }
        let declared = masks.get(&dst.register).copied().unwrap_or(0);
        if dst.mask.0 & !declared & 0xF != 0 {
            cx.at(
                Rule::OutputNotDeclared,
                at,
                Operand::Dst,
                Some(dst.register),
                "vs_3_0 writes an output component that no dcl declares",
            );
        }
    }
}
