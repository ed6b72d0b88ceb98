//! The footer `// approximately N instruction slots used`, with `(T texture, A arithmetic)`
//! for shaders that use texture slots (pixel shaders, and vs_3_0 with `texldl`). The counting rules are `dxso::slots`' (shared with
//! the validator's slot limits); this module only spells the line.

use dxso::Shader;

/// Appends the footer line.
pub fn write_footer(out: &mut String, shader: &Shader) {
    let n = dxso::slots::count(shader);
    let total = n.total();
    let plural = if total == 1 { "slot" } else { "slots" };
    out.push_str("// approximately ");
    super::push_u32(out, total);
    out.push_str(" instruction ");
    out.push_str(plural);
    out.push_str(" used");
    // Shaders without texture instructions print the total alone.
    if n.texture > 0 {
        out.push_str(" (");
        super::push_u32(out, n.texture);
        out.push_str(" texture, ");
        super::push_u32(out, n.arithmetic);
        out.push_str(" arithmetic)");
    }
    out.push('\n');
}
