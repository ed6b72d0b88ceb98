//! The footer `// approximately N instruction slots used`, with `(T texture, A arithmetic)`
//! for pixel shaders.
//!
//! The rules, worked out from the corpus listings (fxc 9.15 to 10.1, D3DX, level 9):
//! - Declarations and constants (`dcl`, `def`, `defi`, `defb`), `phase`, and comments take no
//!   slot; every other instruction takes at least one.
//! - A co-issued instruction (`+`) shares the slot of the instruction it pairs with.
//! - Texture slots (pixel shaders): `tex`/`texld`/`texldp`/`texldb`/`texldd`/`texldl`, ps_1_x
//!   `texcoord`/`texcrd` and every `tex*` addressing op; `texkill` counts as arithmetic.
//! - Macros take the slots of their expansion ([`instruction_slots`]); `exp`, `log` and `lrp`
//!   take one slot (vs_2_0 and ps_2_0 listings), `nrm` three.
//! - Pixel shaders without a texture instruction print the total alone.

use dxso::{Instruction, Opcode, Shader, Version};

/// Texture and arithmetic slot counts of a shader.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SlotCount {
    /// Slots of texture instructions.
    pub texture: u32,
    /// Slots of everything else.
    pub arithmetic: u32,
}

impl SlotCount {
    /// Both kinds together.
    pub fn total(self) -> u32 {
        self.texture + self.arithmetic
    }
}

/// Counts the slots of `shader`.
pub fn count(shader: &Shader) -> SlotCount {
    let mut n = SlotCount::default();
    for inst in shader.instructions() {
        if inst.coissue {
            continue;
        }
        let slots = instruction_slots(inst, shader.version);
        if is_texture(inst.opcode, shader.version) {
            n.texture += slots;
        } else {
            n.arithmetic += slots;
        }
    }
    n
}

/// `true` for the instructions counted as texture slots.
pub fn is_texture(op: Opcode, version: Version) -> bool {
    use Opcode::*;
    if !version.is_pixel() {
        return matches!(op, Tex | TexLdl);
    }
    matches!(
        op,
        Tex | TexLdd
            | TexLdl
            | TexCoord
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

/// The slots one instruction takes in `version`.
pub fn instruction_slots(inst: &Instruction, version: Version) -> u32 {
    use Opcode::*;
    match inst.opcode {
        Dcl | Def | DefI | DefB | Phase | Label => 0,
        // Flow control, as the D3D9 documentation counts it (rep/endrep and loop/endloop
        // pairs take 5 slots together in every corpus listing).
        Rep | Loop | If | Ifc | CallNz | BreakC | BreakP => 3,
        EndRep | EndLoop | Call => 2,
        M4x4 | M3x4 => 4,
        M4x3 | M3x3 => 3,
        M3x2 => 2,
        Nrm | Pow | Crs | Lit | Sgn => 3,
        SinCos => 8,
        Dp2Add if version.is_pixel() => 2,
        _ => 1,
    }
}

/// Appends the footer line.
pub fn write_footer(out: &mut String, shader: &Shader) {
    let n = count(shader);
    let total = n.total();
    let plural = if total == 1 { "slot" } else { "slots" };
    out.push_str("// approximately ");
    super::push_u32(out, total);
    out.push_str(" instruction ");
    out.push_str(plural);
    out.push_str(" used");
    // Pixel shaders without texture instructions print the total alone.
    if shader.version.is_pixel() && n.texture > 0 {
        out.push_str(" (");
        super::push_u32(out, n.texture);
        out.push_str(" texture, ");
        super::push_u32(out, n.arithmetic);
        out.push_str(" arithmetic)");
    }
    out.push('\n');
}
