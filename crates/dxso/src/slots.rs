//! Instruction slots: what a shader costs against its version's instruction limits, and what
//! fxc prints in its footer `// approximately N instruction slots used (T texture, A arithmetic)`.
//!
//! The validator checks the limits with these counts and `dxso-text` prints the footer from them,
//! so the rules live here once. They follow the "instruction slots" column of Microsoft's
//! instruction tables and were checked against every corpus listing with a footer:
//! - declarations and constants (`dcl`, `def*`), `label`, `phase` and comments take no slot, and
//!   the second instruction of a ps_1_x co-issued pair shares its partner's slot;
//! - macros take the slots of their expansion: `m4x4`/`m3x4` 4, `m4x3`/`m3x3` 3, `m3x2` 2;
//!   `nrm`, `pow`, `sgn` and `lit` 3; `crs`, `dp2add`, `dsx`, `dsy` 2; `sincos` 8;
//! - flow control: `if`, `if_cc`, `loop`, `rep`, `callnz`, `break_cc`, `breakp` 3; `call`,
//!   `endloop`, `endrep` 2; everything else 1 (`exp`, `log` and `lrp` too, as fxc counts them);
//! - texture slots exist in pixel shaders only: every texture-address instruction in ps_1_x
//!   (`texkill` included), and the sampling instructions (`texld*`) from ps_2_0 on, where
//!   `texkill` counts as arithmetic.

use crate::instruction::Shader;
use crate::opcode::Opcode;
use crate::version::Version;

/// Texture and arithmetic slot counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SlotCount {
    /// Slots of texture instructions (pixel shaders).
    pub texture: u32,
    /// Slots of everything else that executes.
    pub arithmetic: u32,
}

impl SlotCount {
    /// Texture plus arithmetic.
    pub fn total(self) -> u32 {
        self.texture + self.arithmetic
    }
}

/// The slots one instruction takes (0 for those that do not execute). Co-issue is the caller's
/// business: see [`count`].
pub const fn instruction_slots(op: Opcode) -> u32 {
    use Opcode::*;
    match op {
        Dcl | Def | DefI | DefB | Label | Phase => 0,
        M4x4 | M3x4 => 4,
        M4x3 | M3x3 | Nrm | Pow | Sgn | Lit => 3,
        M3x2 | Crs | Dp2Add | Dsx | Dsy => 2,
        SinCos => 8,
        If | Ifc | Loop | Rep | CallNz | BreakC | BreakP => 3,
        Call | EndLoop | EndRep => 2,
        _ => 1,
    }
}

/// `true` for the ps_1_x texture-address instructions (`texcoord`, `texkill`, `tex`, `texbem`,
/// the `texm3x*` family, ...): they come before arithmetic in ps_1_x and use texture slots.
pub const fn is_texture_address(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        TexCoord
            | TexKill
            | Tex
            | TexBem
            | TexBemL
            | TexReg2Ar
            | TexReg2Gb
            | TexReg2Rgb
            | TexM3x2Pad
            | TexM3x2Tex
            | TexM3x3Pad
            | TexM3x3Tex
            | TexM3x3Diff
            | TexM3x3Spec
            | TexM3x3VSpec
            | TexDp3Tex
            | TexM3x2Depth
            | TexDp3
            | TexM3x3
            | TexDepth
    )
}

/// `true` when `op` counts against the texture slots in `version`.
pub fn is_texture(op: Opcode, version: Version) -> bool {
    if !version.is_pixel() {
        false
    } else if version.is_sm1() {
        is_texture_address(op)
    } else {
        samples_texture(op)
    }
}

/// `true` for the instructions that count against the texture slots from ps_2_0 on.
const fn samples_texture(op: Opcode) -> bool {
    matches!(op, Opcode::Tex | Opcode::TexLdd | Opcode::TexLdl)
}

/// In [`SLOTS`]: the opcode is a ps_1_x texture-address instruction.
const TEXTURE_ADDRESS: u8 = 0x10;
/// In [`SLOTS`]: the opcode samples a texture from ps_2_0 on.
const TEXTURE_SAMPLE: u8 = 0x20;

/// [`instruction_slots`] (low four bits) and the texture classes of [`is_texture`], by
/// [`Opcode::index`]: the printer counts slots for every listing footer, and one lookup per
/// instruction costs less than the matches.
const SLOTS: [u8; Opcode::ALL.len()] = {
    let mut table = [0u8; Opcode::ALL.len()];
    let mut i = 0;
    while i < Opcode::ALL.len() {
        let op = Opcode::ALL[i];
        let mut entry = instruction_slots(op) as u8;
        if is_texture_address(op) {
            entry |= TEXTURE_ADDRESS;
        }
        if samples_texture(op) {
            entry |= TEXTURE_SAMPLE;
        }
        table[op.index()] = entry;
        i += 1;
    }
    table
};

/// Counts the slots of a whole shader (all ps_1_4 phases together).
pub fn count(shader: &Shader) -> SlotCount {
    let version = shader.version;
    // The class that counts as texture in this version (none in vertex shaders).
    let texture = match (version.is_pixel(), version.is_sm1()) {
        (false, _) => 0,
        (true, true) => TEXTURE_ADDRESS,
        (true, false) => TEXTURE_SAMPLE,
    };
    let mut n = SlotCount::default();
    for inst in shader.instructions() {
        if inst.coissue {
            continue;
        }
        let entry = SLOTS[inst.opcode.index()];
        let slots = (entry & 0xF) as u32;
        if entry & texture != 0 {
            n.texture += slots;
        } else {
            n.arithmetic += slots;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_agrees_with_the_rules() {
        let versions = [
            Version::vs(1, 1),
            Version::vs(3, 0),
            Version::ps(1, 4),
            Version::ps(2, 0),
            Version::ps(3, 0),
        ];
        for &op in Opcode::ALL {
            for version in versions {
                let n = count(&shader(version, &[op]));
                let slots = instruction_slots(op);
                let expected = if is_texture(op, version) {
                    SlotCount {
                        texture: slots,
                        arithmetic: 0,
                    }
                } else {
                    SlotCount {
                        texture: 0,
                        arithmetic: slots,
                    }
                };
                assert_eq!(n, expected, "{op:?} in {version}");
            }
        }
    }
    use crate::instruction::{Instruction, Item};

    fn shader(version: Version, ops: &[Opcode]) -> Shader {
        Shader {
            version,
            items: ops
                .iter()
                .map(|&op| Item::Instruction(Instruction::new(op)))
                .collect(),
        }
    }

    #[test]
    fn declarations_are_free_and_macros_expand() {
        use Opcode::*;
        let s = shader(Version::vs(2, 0), &[Dcl, Def, M4x4, Nrm, SinCos, Mov]);
        assert_eq!(
            count(&s),
            SlotCount {
                texture: 0,
                arithmetic: 4 + 3 + 8 + 1
            }
        );
    }

    #[test]
    fn texture_slots_per_version() {
        use Opcode::*;
        let ps11 = shader(Version::ps(1, 1), &[Tex, TexKill, Mov]);
        assert_eq!(
            count(&ps11),
            SlotCount {
                texture: 2,
                arithmetic: 1
            }
        );
        let ps20 = shader(Version::ps(2, 0), &[Tex, TexKill, Mov]);
        assert_eq!(
            count(&ps20),
            SlotCount {
                texture: 1,
                arithmetic: 2
            }
        );
        let vs30 = shader(Version::vs(3, 0), &[TexLdl, Mov]);
        assert_eq!(
            count(&vs30),
            SlotCount {
                texture: 0,
                arithmetic: 2
            }
        );
    }

    #[test]
    fn coissued_instructions_share_a_slot() {
        let mut s = shader(Version::ps(1, 1), &[Opcode::Mov, Opcode::Mov]);
        if let Item::Instruction(i) = &mut s.items[1] {
            i.coissue = true;
        }
        assert_eq!(count(&s).total(), 1);
    }
}
