//! Instruction slots: what a shader costs against its version's instruction limits, and what
//! fxc prints in its footer `// approximately N instruction slots used (T texture, A arithmetic)`.
//!
//! The counts are data in the opcode table ([`crate::opcode::OpcodeInfo::slots`], one
//! [`crate::opcode::SlotRule`] list per opcode); this module adds them up, so the validator's
//! limits and `dxso-text`'s footer read the same numbers. docs/VALIDATION.md ("Instruction
//! slots") lists them with their sources. Beyond the table, one rule: the second instruction
//! of a ps_1_x co-issued pair shares its partner's slot.

use crate::instruction::Shader;
use crate::opcode::Opcode;
use crate::version::Version;

/// Texture and arithmetic slot counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SlotCount {
    /// Slots of texture instructions (pixel shaders, and `texldl` in vertex shaders).
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

/// The slots one `op` instruction takes in `version` (zero for those that do not execute).
/// Co-issue is the caller's business: see [`count`].
pub fn cost(op: Opcode, version: Version) -> SlotCount {
    let (texture, arithmetic) = op.info().slots(version);
    SlotCount {
        texture: texture as u32,
        arithmetic: arithmetic as u32,
    }
}

/// `true` when `op` takes texture slots in `version`.
pub fn is_texture(op: Opcode, version: Version) -> bool {
    cost(op, version).texture > 0
}

/// `true` for the ps_1_x texture-address instructions (`texcoord`, `texkill`, `tex`, `texbem`,
/// the `texm3x*` family, ...): they come before arithmetic in ps_1_x. These are the opcodes
/// that take a texture slot in ps_1_1.
pub fn is_texture_address(op: Opcode) -> bool {
    is_texture(op, Version::ps(1, 1))
}

/// Counts the slots of a whole shader (all ps_1_4 phases together).
pub fn count(shader: &Shader) -> SlotCount {
    let version = shader.version;
    let mut n = SlotCount::default();
    for inst in shader.instructions() {
        if inst.coissue {
            continue;
        }
        let c = cost(inst.opcode, version);
        n.texture += c.texture;
        n.arithmetic += c.arithmetic;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
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

    fn slots(version: Version, ops: &[Opcode]) -> (u32, u32) {
        let n = count(&shader(version, ops));
        (n.texture, n.arithmetic)
    }

    #[test]
    fn declarations_are_free_and_macros_expand() {
        use Opcode::*;
        let ops = [Dcl, Def, M4x4, Nrm, SinCos, Mov];
        assert_eq!(slots(Version::vs(2, 0), &ops), (0, 4 + 3 + 8 + 1));
    }

    #[test]
    fn texture_slots_per_version() {
        use Opcode::*;
        assert_eq!(slots(Version::ps(1, 1), &[Tex, TexKill, Mov]), (2, 1));
        assert_eq!(slots(Version::ps(2, 0), &[Tex, TexKill, Mov]), (1, 2));
        assert_eq!(slots(Version::ps(1, 3), &[TexBemL]), (1, 1));
    }

    #[test]
    fn sampling_with_lod_or_gradients_takes_two_texture_slots() {
        use Opcode::*;
        assert_eq!(slots(Version::ps(3, 0), &[TexLdl, TexLdd, Mov]), (4, 1));
        assert_eq!(slots(Version::ps(2, 1), &[TexLdd]), (2, 0));
        // Vertex texture fetch is the one texture instruction of a vertex shader.
        assert_eq!(slots(Version::vs(3, 0), &[TexLdl, Mov]), (2, 1));
    }

    #[test]
    fn comparisons_in_flow_control_take_three_slots() {
        use Opcode::*;
        let ops = [Ifc, BreakC, EndIf];
        assert_eq!(slots(Version::ps(3, 0), &ops), (0, 7));
        assert_eq!(slots(Version::vs(2, 1), &ops), (0, 7));
    }

    #[test]
    fn macro_counts_depend_on_the_version() {
        use Opcode::*;
        // lrp: one slot up to shader model 2.0, two from 2_x on.
        assert_eq!(slots(Version::ps(1, 4), &[Lrp]), (0, 1));
        assert_eq!(slots(Version::ps(2, 0), &[Lrp]), (0, 1));
        assert_eq!(slots(Version::vs(2, 0), &[Lrp]), (0, 1));
        assert_eq!(slots(Version::ps(2, 1), &[Lrp]), (0, 2));
        assert_eq!(slots(Version::ps(3, 0), &[Lrp]), (0, 2));
        assert_eq!(slots(Version::vs(3, 0), &[Lrp]), (0, 2));
        // vs_1_1 expands frc, exp and log; lit is one slot there and three later.
        assert_eq!(
            slots(Version::vs(1, 1), &[Frc, Exp, Log, Lit]),
            (0, 3 + 10 + 10 + 1)
        );
        assert_eq!(
            slots(Version::vs(2, 0), &[Frc, Exp, Log, Lit]),
            (0, 1 + 1 + 1 + 3)
        );
        // ps_1_2 and ps_1_3 spend two slots on cmp and dp4, ps_1_4 one; bem takes two.
        assert_eq!(slots(Version::ps(1, 3), &[Cmp, Dp4]), (0, 4));
        assert_eq!(slots(Version::ps(1, 4), &[Cmp, Dp4, Bem]), (0, 4));
        // nop takes no slot in ps_1_x.
        assert_eq!(slots(Version::ps(1, 1), &[Nop]), (0, 0));
        assert_eq!(slots(Version::ps(2, 0), &[Nop]), (0, 1));
    }

    #[test]
    fn coissued_instructions_share_a_slot() {
        let mut s = shader(Version::ps(1, 1), &[Opcode::Mov, Opcode::Mov]);
        if let Item::Instruction(i) = &mut s.items[1] {
            i.coissue = true;
        }
        assert_eq!(count(&s).total(), 1);
    }

    #[test]
    fn texture_address_instructions_are_the_ps_1_x_texture_class() {
        use Opcode::*;
        for op in [
            TexCoord,
            TexKill,
            Tex,
            TexBem,
            TexBemL,
            TexM3x3VSpec,
            TexDepth,
            TexDp3,
        ] {
            assert!(is_texture_address(op), "{op:?}");
        }
        for op in [Mov, Cnd, Bem, TexLdl, TexLdd, Phase] {
            assert!(!is_texture_address(op), "{op:?}");
        }
    }
}
