//! Declared before use (inputs, samplers) and read before written (temps, a warning).

use super::{Cx, Operand, Profile, Rule};
use crate::opcode::Opcode;
use crate::param::Relative;
use crate::register::{Register, RegisterType as R};
use rustc_hash::FxHashMap as HashMap;

pub(super) fn check(cx: &mut Cx<'_>) {
    let p = cx.p();
    let insts = cx.insts.clone();
    let mut declared: HashMap<Register, u8> = HashMap::default();
    for at in insts.iter() {
        if let (Opcode::Dcl, Some(d), Some(tok)) = (at.inst.opcode, at.inst.dst, at.inst.dcl()) {
            declared.insert(d.register, tok.texture_type_raw);
        }
    }
    // Under Direct3D 8 the vertex declaration binds v0-v15 by register.
    let inputs_need_dcl = (p.is_vertex() && cx.options.runtime == super::Runtime::D3d9)
        || matches!(p, Profile::Ps20 | Profile::Ps2x | Profile::Ps30);
    let mut written: HashMap<u16, u8> = HashMap::default();
    let mut warned: Vec<u16> = Vec::new();
    let mut in_subroutine = false;
    for at in insts.iter() {
        let inst = at.inst;
        if inst.opcode == Opcode::Label {
            in_subroutine = true;
        }
        if inst.opcode == Opcode::Dcl {
            continue;
        }
        for (n, s) in inst.srcs.iter().enumerate() {
            let reg = s.register;
            let op = Operand::Src(n as u8);
            let relative = matches!(s.relative, Some(Relative::Token(_)));
            let is_input = match reg.ty {
                R::Input | R::MiscType => true,
                R::Addr => matches!(p, Profile::Ps20 | Profile::Ps2x),
                _ => false,
            };
            // A register the version lacks (or past its file) is V0201/V0204's business.
            let exists = p
                .file(reg.ty, cx.software)
                .is_some_and(|f| reg.index() < f.count);
            if inputs_need_dcl && is_input && !relative && exists && !declared.contains_key(&reg) {
                cx.at(
                    Rule::UndeclaredInput,
                    at,
                    op,
                    Some(reg),
                    "this input is read but never declared",
                );
            }
            if reg.ty == R::Sampler && exists && !declared.contains_key(&reg) {
                cx.at(
                    Rule::UndeclaredSampler,
                    at,
                    op,
                    Some(reg),
                    "this sampler is used but never declared",
                );
            }
            if reg.ty == R::Temp && !in_subroutine && !p.is_ps1() {
                let need = read_components(inst.opcode, n, inst, &declared);
                let have = written.get(&reg.num).copied().unwrap_or(0);
                if need & !have != 0 && !warned.contains(&reg.num) {
                    warned.push(reg.num);
                    cx.at(
                        Rule::TempUninitialized,
                        at,
                        op,
                        Some(reg),
                        "components of this temp are read before any instruction writes them",
                    );
                }
            }
        }
        if let Some(d) = inst.dst {
            if d.register.ty == R::Temp {
                let mask = match inst.opcode {
                    // texkill names its register as a destination but only reads it.
                    Opcode::TexKill => 0,
                    _ => d.mask.0 & 0xF,
                };
                *written.entry(d.register.num).or_insert(0) |= mask;
            }
        }
    }
}

/// The components of source `n` an instruction reads, as a mask over the register.
fn read_components(
    op: Opcode,
    n: usize,
    inst: &crate::Instruction,
    declared: &HashMap<Register, u8>,
) -> u8 {
    use Opcode::*;
    let Some(s) = inst.srcs.get(n) else { return 0 };
    let sw = s.swizzle;
    let lanes: u8 = match (op, n) {
        (Dp3, _) | (M3x3 | M3x2 | M3x4, 0) | (Crs, _) => 0b0111,
        (Dp4, _) | (M4x4 | M4x3, 0) => 0xF,
        (M4x4 | M4x3 | M3x4 | M3x3 | M3x2, _) => 0xF,
        (Dp2Add, 0 | 1) => 0b0011,
        (Nrm, _) => 0b0111,
        (Tex | TexLdl | TexLdd, 0) => {
            // The coordinate components the sampler's dimension needs (w for texldp/texldb/texldl).
            let dims = inst
                .srcs
                .get(1)
                .and_then(|s| declared.get(&s.register))
                .map(|t| if *t == 2 { 0b0011 } else { 0b0111 })
                .unwrap_or(0b0011);
            let w = if op == TexLdl || inst.control != 0 {
                0b1000
            } else {
                0
            };
            dims | w
        }
        (TexLdd, _) => 0b0011,
        // lit: x and w of the result are 1; y is max(src.x, 0); z reads x, y and w.
        (Lit, _) => {
            let m = inst.dst.map(|d| d.mask.0).unwrap_or(0xF);
            (if m & 0b0110 != 0 { 0b0001 } else { 0 }) | if m & 0b0100 != 0 { 0b1010 } else { 0 }
        }
        // dst: (1, src0.y * src1.y, src0.z, src1.w).
        (Dst, _) => {
            let m = inst.dst.map(|d| d.mask.0).unwrap_or(0xF);
            let own = if n == 0 { 0b0100 } else { 0b1000 };
            (m & 0b0010) | (m & own)
        }
        _ => inst.dst.map(|d| d.mask.0 & 0xF).unwrap_or(0xF),
    };
    let mut need = 0u8;
    for lane in 0..4 {
        if lanes & (1 << lane) != 0 {
            need |= 1 << sw.get(lane);
        }
    }
    need
}

#[cfg(test)]
mod tests {
    use crate::{
        validate, DclToken, DeclUsage, DstParam, Extra, Instruction, Item, Opcode, Register,
        RegisterType as R, Rule, Shader, SrcParam, Swizzle, Version, WriteMask,
    };

    fn inst(op: Opcode, dst: (R, u16, u8), srcs: &[(R, u16)]) -> Instruction {
        let mut i = Instruction::new(op);
        i.dst = Some(DstParam::new(Register::new(dst.0, dst.1), WriteMask(dst.2)));
        for &(ty, n) in srcs {
            let _ = i
                .srcs
                .push(SrcParam::new(Register::new(ty, n), Swizzle::IDENTITY));
        }
        i
    }

    /// vs_2_0: `r1` written on `written`, then `op r0.mask, r1[, r1]`.
    fn uninitialized_read(op: Opcode, mask: u8, written: u8) -> bool {
        let mut dcl = inst(Opcode::Dcl, (R::Input, 0, 0xF), &[]);
        dcl.extra = Extra::Dcl(DclToken::usage(DeclUsage::Position, 0));
        let srcs: &[(R, u16)] = if op == Opcode::Dst {
            &[(R::Temp, 1), (R::Temp, 1)]
        } else {
            &[(R::Temp, 1)]
        };
        let body = [
            dcl,
            inst(Opcode::Mov, (R::Temp, 1, written), &[(R::Input, 0)]),
            inst(op, (R::Temp, 0, mask), srcs),
            inst(Opcode::Mov, (R::RastOut, 0, 0xF), &[(R::Input, 0)]),
        ];
        let mut sh = Shader::new(Version::vs(2, 0));
        sh.items = body.into_iter().map(Item::Instruction).collect();
        validate(&sh).rules().contains(&Rule::TempUninitialized)
    }

    #[test]
    fn lit_reads_x_y_w_by_result_component() {
        // lit r0.y reads src.x only; r0.x and r0.w are constants.
        assert!(!uninitialized_read(Opcode::Lit, 0b0010, 0b0001));
        assert!(uninitialized_read(Opcode::Lit, 0b0010, 0b0010));
        assert!(!uninitialized_read(Opcode::Lit, 0b1001, 0b0000));
        // lit r0.z reads x, y and w, not z.
        assert!(!uninitialized_read(Opcode::Lit, 0b0100, 0b1011));
        assert!(uninitialized_read(Opcode::Lit, 0b0100, 0b0011));
    }

    #[test]
    fn dst_reads_y_z_w_by_result_component() {
        // dst r0.x is 1: nothing read.
        assert!(!uninitialized_read(Opcode::Dst, 0b0001, 0b0000));
        // dst r0.y reads src0.y and src1.y; r0.z src0.z; r0.w src1.w.
        assert!(!uninitialized_read(Opcode::Dst, 0b0010, 0b0010));
        assert!(!uninitialized_read(Opcode::Dst, 0b1110, 0b1110));
        assert!(uninitialized_read(Opcode::Dst, 0b1110, 0b0110));
    }
}
