//! Which components of the temporary registers are live (read again before they are
//! overwritten) after each instruction, so that a masked write whose untouched components
//! are dead can write the whole register: no merge with the old value, no load of it.
//!
//! The analysis is a backward pass over the instruction list that is exact in straight-line
//! code and gives up at anything else: flow control, calls, `phase`, co-issued pairs,
//! relative addressing of a temporary, predication and every instruction whose reads are not
//! the components its sources' swizzles select (the `m4x4` family reads the registers after
//! its source; the ps_1_x texture family reads registers it names as destinations) make
//! every component live.

use dxso::{Instruction, Opcode, RegisterType, Version};

/// Temporaries tracked: r0..r31, four bits each.
const TRACKED: u32 = 32;
const ALL: u128 = u128::MAX;

/// The live components of the temporaries after each instruction, by item index.
#[derive(Default)]
pub(crate) struct Liveness {
    after: Vec<u128>,
}

impl Liveness {
    /// Components of `r<n>` that may be read after the instruction at `item`, as a
    /// four-bit mask (all four when the analysis does not know).
    pub(crate) fn after(&self, item: usize, n: u32) -> u8 {
        if n >= TRACKED {
            return 0xF;
        }
        let set = self.after.get(item).copied().unwrap_or(ALL);
        ((set >> (4 * n)) & 0xF) as u8
    }
}

/// The liveness of the main program `insts[main]` (everything else is left unknown).
pub(crate) fn liveness(
    version: Version,
    insts: &[(usize, &Instruction)],
    main: std::ops::Range<usize>,
) -> Liveness {
    let items = insts.last().map_or(0, |(item, _)| item + 1);
    let mut after = vec![ALL; items];
    // At the end of the program only ps_1_x's r0, the colour output, is read.
    let ps1 = version.is_pixel() && version.major < 2;
    let mut live: u128 = if ps1 { 0xF } else { 0 };
    let main = &insts[main.start.min(insts.len())..main.end.min(insts.len())];
    for (pos, &(item, inst)) in main.iter().enumerate().rev() {
        let paired = inst.coissue || main.get(pos + 1).is_some_and(|(_, n)| n.coissue);
        after[item] = live;
        live = match reads(version, inst) {
            Some(reads) if !paired => (live & !kills(inst)) | reads,
            _ => ALL,
        };
    }
    Liveness { after }
}

/// The temporary components `inst` overwrites unconditionally.
fn kills(inst: &Instruction) -> u128 {
    match inst.dst {
        Some(d)
            if inst.predicate.is_none()
                && d.relative.is_none()
                && d.register.ty == RegisterType::Temp
                && u32::from(d.register.num) < TRACKED =>
        {
            u128::from(d.mask.0 & 0xF) << (4 * u32::from(d.register.num))
        }
        _ => 0,
    }
}

/// The temporary components `inst` reads, or `None` when the analysis must give up.
fn reads(version: Version, inst: &Instruction) -> Option<u128> {
    use Opcode::*;
    // Per-lane instructions read, of each source, the components their swizzle selects for
    // the lanes the mask writes; the others read whatever their swizzles select.
    let per_lane = match inst.opcode {
        Nop | Dcl | Def | DefI | DefB => return Some(0),
        Mov | Add | Sub | Mad | Mul | Min | Max | Slt | Sge | Lrp | Frc | Abs | Cnd | Cmp | Dsx
        | Dsy | Sgn | MovA | SetP => true,
        Rcp | Rsq | Exp | Log | ExpP | LogP | Pow | Dp3 | Dp4 | Lit | Dst | Crs | Nrm | SinCos
        | Dp2Add | TexLdd | TexLdl => false,
        // ps_2_0 and later `texld*` read their coordinates through the swizzle; ps_1_x `tex`
        // reads registers by stage.
        Tex if version.major >= 2 => false,
        _ => return None,
    };
    if inst.predicate.is_some() {
        // The old value is merged back: the destination is read.
        return None;
    }
    let lanes = match inst.dst {
        Some(d) if d.relative.is_some() => return None,
        Some(d) if per_lane => d.mask.0 & 0xF,
        _ => 0xF,
    };
    let mut set = 0u128;
    for src in inst.srcs.iter() {
        if src.register.ty != RegisterType::Temp {
            continue;
        }
        let n = u32::from(src.register.num);
        if n >= TRACKED || src.relative.is_some() {
            return None;
        }
        let comps = (0..4)
            .filter(|lane| lanes & (1 << lane) != 0)
            .fold(0u8, |m, lane| m | 1 << src.swizzle.get(lane));
        set |= u128::from(comps) << (4 * n);
    }
    Some(set)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxso::{DstParam, Register, SrcParam, Swizzle, WriteMask};

    fn r(n: u16) -> Register {
        Register::new(RegisterType::Temp, n)
    }

    fn inst(op: Opcode, dst: Register, mask: u8, srcs: &[SrcParam]) -> Instruction {
        let mut i = Instruction::new(op);
        i.dst = Some(DstParam::new(dst, WriteMask(mask)));
        i.srcs = dxso::Sources::from_slice(srcs).expect("few sources");
        i
    }

    fn run(version: Version, insts: &[Instruction]) -> Liveness {
        let list: Vec<(usize, &Instruction)> = insts.iter().enumerate().collect();
        liveness(version, &list, 0..list.len())
    }

    #[test]
    fn per_lane_reads_follow_the_mask_and_the_swizzle() {
        let c0 = SrcParam::new(Register::new(RegisterType::Const, 0), Swizzle::IDENTITY);
        let insts = [
            inst(Opcode::Mul, r(0), 0x7, &[c0, c0]),
            // r0.xyz is read (identity swizzle, .xyz mask): r0.w is dead after the mul.
            inst(
                Opcode::Add,
                r(1),
                0x7,
                &[SrcParam::new(r(0), Swizzle::IDENTITY), c0],
            ),
            inst(Opcode::Mov, r(2), 0xF, &[SrcParam::new(r(1), Swizzle::W)]),
        ];
        let l = run(Version::vs(2, 0), &insts);
        assert_eq!(l.after(0, 0), 0x7);
        assert_eq!(l.after(1, 1), 0x8, "mov r2, r1.w reads only w");
        assert_eq!(l.after(2, 2), 0, "temporaries are dead at the end");
    }

    #[test]
    fn flow_control_and_unknown_instructions_make_everything_live() {
        let c0 = SrcParam::new(Register::new(RegisterType::Const, 0), Swizzle::IDENTITY);
        let insts = [
            inst(Opcode::Mul, r(0), 0x7, &[c0, c0]),
            inst(Opcode::M4x4, r(1), 0xF, &[c0, c0]),
            inst(Opcode::Mul, r(3), 0x1, &[c0, c0]),
            Instruction::new(Opcode::Ret),
        ];
        let l = run(Version::vs(2, 0), &insts);
        assert_eq!(l.after(0, 0), 0xF, "m4x4 reads registers it does not name");
        assert_eq!(l.after(2, 3), 0xF, "ret leaves everything live");
        assert_eq!(l.after(9, 0), 0xF, "unknown items are all live");
    }

    #[test]
    fn ps_1_x_keeps_r0_live_at_the_end() {
        let c0 = SrcParam::new(Register::new(RegisterType::Const, 0), Swizzle::IDENTITY);
        let insts = [inst(Opcode::Mov, r(0), 0x7, &[c0])];
        assert_eq!(run(Version::ps(1, 1), &insts).after(0, 0), 0xF);
        assert_eq!(run(Version::ps(2, 0), &insts).after(0, 0), 0);
    }
}
