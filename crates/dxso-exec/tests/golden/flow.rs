//! Address registers, relative addressing, constants and flow control in vertex shaders
//! (`docs/SEMANTICS.md` 5.6, 6, 7, 9, 11).

use super::harness::Case;
use dxso_exec::Options;

/// A shader whose main program is `main` (then `mov oPos, r0`) followed by subroutines.
fn vs_subs(version: &str, main: &str, subs: &str) -> String {
    let body = vs(version, main);
    format!("{body}ret\n{subs}\n")
}

fn vs(version: &str, body: &str) -> String {
    let out = if version == "vs_3_0" { "o0" } else { "oPos" };
    let dcl_out = if version == "vs_3_0" {
        "dcl_position o0\n"
    } else {
        ""
    };
    format!("{version}\ndcl_position v0\n{dcl_out}mov r0, c20\n{body}\nmov {out}, r0\n")
}

pub fn cases() -> Vec<Case> {
    let counting = |n: usize| {
        let mut c = Case::vs("", "");
        for i in 0..8 {
            c = c.float(i, [i as f32 + 1.0, 10.0 * (i as f32 + 1.0), 0.0, 0.0]);
        }
        c.float(n, [0.0; 4])
    };
    let with = |base: Case, name: &str, src: String| Case {
        name: name.to_string(),
        src,
        ..base
    };
    vec![
        // Address register.
        Case::vs("vs_1_1 mov a0 floors", "vs_1_1\ndcl_position v0\nmov a0.x, c0.x\nmov oPos, c[a0.x + 2]\n")
            .float(0, [1.7, 0.0, 0.0, 0.0]).float(3, [3.0; 4]).float(2, [2.0; 4])
            .expect("oPos", [3.0; 4]),
        Case::vs("vs_1_1 mov a0 floors negatives", "vs_1_1\ndcl_position v0\nmov a0.x, c0.x\nmov oPos, c[a0.x + 2]\n")
            .float(0, [-0.5, 0.0, 0.0, 0.0]).float(1, [1.0; 4]).float(2, [2.0; 4])
            .expect("oPos", [1.0; 4]),
        Case::vs("mova rounds halves away from zero", &vs("vs_2_0", "mova a0.x, c0.x\nmov r0.x, c[a0.x + 4].x\nmova a0.x, c0.y\nmov r0.y, c[a0.x + 4].x\nmova a0.x, c0.z\nmov r0.z, c[a0.x + 4].x"))
            .float(0, [1.5, -1.5, 2.5, 0.0])
            .float(2, [2.0; 4]).float(6, [6.0; 4]).float(7, [7.0; 4])
            .expect("oPos", [6.0, 2.0, 7.0, 0.0]),
        Case::vs("mova writes several components", &vs("vs_2_0", "mova a0.xy, c0\nmov r0, c[a0.y + 1]\nadd r0, r0, c[a0.x]"))
            .float(0, [1.4, 2.6, 0.0, 0.0]).float(1, [1.0; 4]).float(4, [4.0; 4])
            .expect("oPos", [5.0; 4]),
        Case::vs("relative read out of range is 0", &vs("vs_2_0", "mova a0.x, c0.x\nmov r0.xy, c[a0.x + 1]\nmova a0.x, c0.y\nmov r0.zw, c[a0.x + 1]"))
            .float(0, [300.0, -5.0, 0.0, 0.0]).float(20, [9.0; 4])
            .expect("oPos", [0.0; 4]),
        Case::vs("relative read at the last register", &vs("vs_2_0", "mova a0.x, c0.x\nmov r0, c[a0.x + 5]"))
            .float(0, [250.0, 0.0, 0.0, 0.0]).float(255, [4.0, 3.0, 2.0, 1.0])
            .expect("oPos", [4.0, 3.0, 2.0, 1.0]),
        Case::vs("def takes precedence over the caller's constant", &vs("vs_2_0", "def c5, 1, 2, 3, 4\nmov r0, c5"))
            .float(5, [9.0; 4])
            .expect("oPos", [1.0, 2.0, 3.0, 4.0]),
        Case::vs("relative reads see def values", &vs("vs_2_0", "def c5, 1, 2, 3, 4\nmova a0.x, c0.x\nmov r0, c[a0.x + 4]"))
            .float(0, [1.0, 0.0, 0.0, 0.0]).float(5, [9.0; 4])
            .expect("oPos", [1.0, 2.0, 3.0, 4.0]),
        Case::vs("relative inputs v[aL] (vs_3_0)", "vs_3_0\ndcl_position v0\ndcl_normal v1\ndcl_texcoord v2\ndcl_position o0\ndefi i0, 3, 0, 1, 0\nmov r0, c20\nloop aL, i0\nadd r0, r0, v[aL]\nendloop\nmov o0, r0\n")
            .input("v0", [1.0, 0.0, 0.0, 0.0]).input("v1", [0.0, 2.0, 0.0, 0.0]).input("v2", [0.0, 0.0, 3.0, 0.0])
            .expect("o0", [1.0, 2.0, 3.0, 0.0]),
        Case::vs("relative outputs o[aL] (vs_3_0)", "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord o1\ndcl_texcoord1 o2\ndefi i0, 3, 0, 1, 0\nloop aL, i0\nmov o[aL], c[aL + 4]\nendloop\n")
            .float(4, [4.0; 4]).float(5, [5.0; 4]).float(6, [6.0; 4])
            .expect("o0", [4.0; 4]).expect("o1", [5.0; 4]).expect("o2", [6.0; 4]),
        // Flow control.
        Case::vs("if b0 true", &vs("vs_2_0", "if b0\nmov r0, c1\nelse\nmov r0, c2\nendif"))
            .boolean(0, true).float(1, [1.0; 4]).float(2, [2.0; 4]).expect("oPos", [1.0; 4]),
        Case::vs("if b0 false runs else", &vs("vs_2_0", "if b0\nmov r0, c1\nelse\nmov r0, c2\nendif"))
            .boolean(0, false).float(1, [1.0; 4]).float(2, [2.0; 4]).expect("oPos", [2.0; 4]),
        Case::vs("defb takes precedence", &vs("vs_2_0", "defb b3, true\nif b3\nmov r0, c1\nendif"))
            .boolean(3, false).float(1, [1.0; 4]).expect("oPos", [1.0; 4]),
        Case::vs("ifc (if_lt)", &vs("vs_2_x", "if_lt c0.x, c0.y\nmov r0, c1\nelse\nmov r0, c2\nendif"))
            .float(0, [1.0, 2.0, 0.0, 0.0]).float(1, [1.0; 4]).float(2, [2.0; 4]).expect("oPos", [1.0; 4]),
        Case::vs("if_ne with NaN is taken, if_eq is not", &vs("vs_2_x", "if_ne c0.x, c0.x\nadd r0.x, r0.x, c1.x\nendif\nif_eq c0.x, c0.x\nadd r0.y, r0.y, c1.x\nendif"))
            .float(0, [f32::NAN, 0.0, 0.0, 0.0]).float(1, [1.0; 4]).expect("oPos", [1.0, 0.0, 0.0, 0.0]),
        Case::vs("nested if", &vs("vs_2_0", "if b0\nif b1\nmov r0, c1\nelse\nmov r0, c2\nendif\nendif"))
            .boolean(0, true).boolean(1, false).float(1, [1.0; 4]).float(2, [2.0; 4]).expect("oPos", [2.0; 4]),
        with(counting(20), "loop sums c[aL]: start 1, step 2", vs("vs_2_0", "loop aL, i0\nadd r0, r0, c[aL]\nendloop"))
            .int(0, [3, 1, 2, 0])
            .expect("oPos", [2.0 + 4.0 + 6.0, 20.0 + 40.0 + 60.0, 0.0, 0.0]),
        with(counting(20), "loop with a negative step", vs("vs_2_0", "loop aL, i0\nadd r0, r0, c[aL]\nendloop"))
            .int(0, [3, 5, -2, 0])
            .expect("oPos", [6.0 + 4.0 + 2.0, 120.0, 0.0, 0.0]),
        Case::vs("loop count 0 skips the body", &vs("vs_2_0", "loop aL, i0\nadd r0, r0, c1\nendloop"))
            .int(0, [0, 0, 1, 0]).float(1, [1.0; 4]).expect("oPos", [0.0; 4]),
        Case::vs("caller loop counts clamp to 0..255", &vs("vs_2_0", "rep i0\nadd r0.x, r0.x, c1.x\nendrep\nrep i1\nadd r0.y, r0.y, c1.x\nendrep"))
            .int(0, [-4, 0, 0, 0]).int(1, [1000, 0, 0, 0]).float(1, [1.0; 4]).expect("oPos", [0.0, 255.0, 0.0, 0.0]),
        Case::vs("rep", &vs("vs_2_0", "rep i0\nadd r0, r0, c1\nendrep"))
            .int(0, [4, 0, 0, 0]).float(1, [0.5; 4]).expect("oPos", [2.0; 4]),
        Case::vs("defi takes precedence", &vs("vs_2_0", "defi i0, 2, 0, 0, 0\nrep i0\nadd r0, r0, c1\nendrep"))
            .int(0, [10, 0, 0, 0]).float(1, [1.0; 4]).expect("oPos", [2.0; 4]),
        Case::vs("nested loops: aL is the innermost loop's, then the outer one's again", &vs("vs_2_x", "loop aL, i0\nloop aL, i1\nadd r0.x, r0.x, c[aL].x\nendloop\nadd r0.y, r0.y, c[aL].x\nendloop"))
            .int(0, [2, 0, 1, 0]).int(1, [2, 4, 1, 0])
            .float(0, [1.0; 4]).float(1, [2.0; 4]).float(4, [10.0; 4]).float(5, [20.0; 4])
            .expect("oPos", [60.0, 3.0, 0.0, 0.0]),
        Case::vs("breakc leaves the loop", &vs("vs_2_x", "loop aL, i0\nadd r0.x, r0.x, c1.x\nbreak_ge r0.x, c0.x\nendloop"))
            .int(0, [10, 0, 1, 0]).float(0, [3.0; 4]).float(1, [1.0; 4]).expect("oPos", [3.0, 0.0, 0.0, 0.0]),
        Case::vs("break inside if", &vs("vs_2_x", "rep i0\nadd r0.x, r0.x, c1.x\nif b0\nbreak\nendif\nadd r0.y, r0.y, c1.x\nendrep"))
            .int(0, [5, 0, 0, 0]).boolean(0, true).float(1, [1.0; 4]).expect("oPos", [1.0, 0.0, 0.0, 0.0]),
        Case::vs("breakp", &vs("vs_2_x", "setp_gt p0, c0, c1\nrep i0\nadd r0.x, r0.x, c1.y\nbreakp p0.y\nendrep\nrep i0\nadd r0.y, r0.y, c1.y\nbreakp !p0.x\nendrep"))
            .int(0, [4, 0, 0, 0]).float(0, [0.0, 5.0, 0.0, 0.0]).float(1, [0.0, 1.0, 0.0, 0.0])
            .expect("oPos", [1.0, 1.0, 0.0, 0.0]),
        Case::vs("call and ret", &vs_subs("vs_2_0", "call l1\nadd r0, r0, c2", "label l1\nmov r0, c1\nret"))
            .float(1, [1.0; 4]).float(2, [2.0; 4]).expect("oPos", [3.0; 4]),
        Case::vs("callnz b0", &vs_subs("vs_2_0", "callnz l1, b0\ncallnz l2, b1", "label l1\nadd r0.x, r0.x, c1.x\nret\nlabel l2\nadd r0.y, r0.y, c1.x\nret"))
            .boolean(0, false).boolean(1, true).float(1, [1.0; 4]).expect("oPos", [0.0, 1.0, 0.0, 0.0]),
        Case::vs("callnz p0", &vs_subs("vs_2_x", "setp_lt p0, c0, c1\ncallnz l1, p0.x\ncallnz l2, p0.y", "label l1\nadd r0.x, r0.x, c2.x\nret\nlabel l2\nadd r0.y, r0.y, c2.x\nret"))
            .float(0, [0.0, 1.0, 0.0, 0.0]).float(1, [1.0, 0.0, 0.0, 0.0]).float(2, [1.0; 4])
            .expect("oPos", [1.0, 0.0, 0.0, 0.0]),
        Case::vs("nested calls", &vs_subs("vs_2_x", "call l1", "label l1\nadd r0, r0, c1\ncall l2\nret\nlabel l2\nmul r0, r0, c2\nret"))
            .float(1, [1.0; 4]).float(2, [3.0; 4]).expect("oPos", [3.0; 4]),
        with(counting(20), "aL in a subroutine is the caller's", vs_subs("vs_2_0", "loop aL, i0\ncall l1\nendloop", "label l1\nadd r0, r0, c[aL]\nret"))
            .int(0, [2, 3, 1, 0])
            .expect("oPos", [4.0 + 5.0, 90.0, 0.0, 0.0]),
        Case::vs("loop inside a subroutine, break leaves only it", &vs_subs("vs_2_x", "rep i1\ncall l1\nendrep", "label l1\nrep i0\nadd r0.x, r0.x, c1.x\nbreak\nendrep\nadd r0.y, r0.y, c1.x\nret"))
            .int(0, [5, 0, 0, 0]).int(1, [2, 0, 0, 0]).float(1, [1.0; 4]).expect("oPos", [2.0, 2.0, 0.0, 0.0]),
        Case::vs("predicated writes per component", &vs("vs_2_x", "setp_gt p0, c0, c1\n(p0) mov r0, c2\n(!p0) add r0, r0, c3"))
            .float(0, [1.0, 0.0, 1.0, 0.0]).float(1, [0.0; 4]).float(2, [2.0; 4]).float(3, [3.0; 4]).float(20, [9.0; 4])
            .expect("oPos", [2.0, 12.0, 2.0, 12.0]),
        Case::vs("predicate swizzle", &vs("vs_2_x", "setp_gt p0, c0, c1\n(p0.y) mov r0, c2"))
            .float(0, [0.0, 1.0, 0.0, 0.0]).float(1, [0.0; 4]).float(2, [2.0; 4]).float(20, [9.0; 4])
            .expect("oPos", [2.0; 4]),
        Case::vs("setp comparisons", &vs("vs_2_x", "setp_eq p0.x, c0.x, c1.x\nsetp_ne p0.y, c0.x, c1.x\nsetp_le p0.z, c0.x, c1.x\nsetp_ge p0.w, c0.x, c1.x\n(p0) mov r0, c2"))
            .float(0, [1.0; 4]).float(1, [1.0; 4]).float(2, [5.0; 4])
            .expect("oPos", [5.0, 0.0, 5.0, 5.0]),
        Case::vs("predicated mova", &vs("vs_2_x", "setp_gt p0, c0, c1\nmova a0.x, c3.x\n(p0.x) mova a0.x, c3.y\nmov r0, c[a0.x + 4]"))
            .float(0, [0.0; 4]).float(1, [1.0; 4]).float(3, [0.0, 1.0, 0.0, 0.0]).float(4, [4.0; 4]).float(5, [5.0; 4])
            .expect("oPos", [4.0; 4]),
        Case::vs("the budget stops a long loop", &vs("vs_2_x", "rep i0\nrep i0\nrep i0\nadd r0, r0, c1\nendrep\nendrep\nendrep"))
            .int(0, [255, 0, 0, 0]).float(1, [1.0; 4])
            .options(Options { budget: 1000, ..Options::default() })
            .budget_error(),
        Case::vs("within the budget", &vs("vs_2_0", "rep i0\nadd r0, r0, c1\nendrep"))
            .int(0, [10, 0, 0, 0]).float(1, [1.0; 4])
            .options(Options { budget: 22, ..Options::default() })
            .expect("oPos", [10.0; 4]),
        Case::vs("one instruction over the budget", &vs("vs_2_0", "rep i0\nadd r0, r0, c1\nendrep"))
            .int(0, [10, 0, 0, 0]).float(1, [1.0; 4])
            .options(Options { budget: 21, ..Options::default() })
            .budget_error(),
        Case::vs("vs_1_1 outputs: oFog and oPts are scalars", "vs_1_1\ndcl_position v0\nmov oPos, v0\nmov oFog, c0.y\nmov oPts, c0.z\nmov oD0, c1\nmov oT3, c1.wzyx\n")
            .input("v0", [1.0, 2.0, 3.0, 4.0]).float(0, [5.0, 6.0, 7.0, 8.0]).float(1, [0.1, 0.2, 0.3, 0.4])
            .expect("oPos", [1.0, 2.0, 3.0, 4.0]).expect("oFog", [6.0, 0.0, 0.0, 0.0]).expect("oPts", [7.0, 0.0, 0.0, 0.0])
            .expect("oD0", [0.1, 0.2, 0.3, 0.4]).expect("oT3", [0.4, 0.3, 0.2, 0.1]).not_written("oD1"),
        Case::vs("vs_1_1 expp: (2^floor, frac, 2^x, 1)", "vs_1_1\ndcl_position v0\nexpp r0, c0.x\nmov oPos, r0\nexpp r1.xyw, c0.y\nmov oD0, r1\n")
            .float(0, [3.0, 2.5, 0.0, 0.0])
            .expect("oPos", [8.0, 0.0, 8.0, 1.0]).expect("oD0", [4.0, 0.5, 0.0, 1.0]),
        Case::vs("vs_1_1 frc .xy", "vs_1_1\ndcl_position v0\nfrc r0.xy, c0\nmov oPos, r0\n")
            .float(0, [1.25, -1.25, 0.0, 0.0]).expect("oPos", [0.25, 0.75, 0.0, 0.0]),
    ]
}
