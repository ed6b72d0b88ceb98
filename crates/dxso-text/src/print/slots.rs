//! The footer `// approximately N instruction slots used`, with `(T texture, A arithmetic)`
//! for shaders that use texture slots (pixel shaders, and vs_3_0 with `texldl`). The counting
//! rules are `dxso::slots`' (shared with the validator's slot limits); this module only spells
//! the line.

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

#[cfg(test)]
mod tests {
    /// The footer of `text`'s listing.
    fn footer(text: &str) -> String {
        let shader = crate::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let mut out = String::new();
        super::write_footer(&mut out, &shader);
        out
    }

    #[test]
    fn footers_count_slots_as_microsoft_does() {
        let cases = [
            // vs_3_0 texldl: two texture slots, and the split printed.
            (
                "vs_3_0\ndcl_position v0\ndcl_2d s0\ndcl_position o0\ntexldl r0, v0, s0\nmov o0, r0\n",
                "3 instruction slots used (2 texture, 1 arithmetic)",
            ),
            // ... and a vertex shader without it prints the total alone.
            (
                "vs_3_0\ndcl_position v0\ndcl_position o0\nmov o0, v0\n",
                "1 instruction slot used",
            ),
            // ps_3_0: if_comp and break_comp 3, loop 3, endloop 2, texldd and texldl 2 texture.
            (
                "ps_3_0\ndcl_texcoord v0\ndcl_2d s0\ndefi i0, 4, 0, 1, 0\nloop aL, i0\nbreak_gt v0.x, c0.x\nendloop\nif_lt v0.y, c0.y\ntexldd r0, v0, s0, v0, v0\nendif\ntexldl r1, v0, s0\nadd oC0, r0, r1\n",
                "17 instruction slots used (4 texture, 13 arithmetic)",
            ),
            // lrp: 1 in ps_2_0 (fxc's footers), 2 from ps_2_x on.
            (
                "ps_2_0\ndcl t0\nlrp r0, t0, t0, t0\nmov oC0, r0\n",
                "2 instruction slots used",
            ),
            (
                "ps_2_x\ndcl t0\nlrp r0, t0, t0, t0\nmov oC0, r0\n",
                "3 instruction slots used",
            ),
            // vs_1_1 expands frc into 3 slots and exp/log into 10.
            (
                "vs_1_1\ndcl_position v0\nfrc r0, v0\nexp r1, v0.x\nlog r1.y, v0.x\nmov oPos, r0\n",
                "24 instruction slots used",
            ),
            // ps_1_x: cmp 2 in ps_1_3, nop free, a co-issued pair one slot, texbeml 1 + 1.
            (
                "ps_1_3\ntex t0\ntexbeml t1, t0\ncmp r0, t0, t1, v0\nnop\nmul r0.rgb, r0, t1 +\nmov r0.a, t1.a\n",
                "6 instruction slots used (2 texture, 4 arithmetic)",
            ),
            // bem 2 in ps_1_4.
            (
                "ps_1_4\ntexld r0, t0\ntexld r1, t1\nbem r2.rg, r0, r1\nmov r0, r2\n",
                "5 instruction slots used (2 texture, 3 arithmetic)",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(footer(text), format!("// approximately {want}\n"), "{text}");
        }
    }
}
