//! The single-pass assembler ([`super::fast`], with the constant table rebuilt as the full
//! path does: [`super::fast_path`]), to a shader ([`super::sink::Items`]) and to bytes
//! ([`super::sink::Bytes`]), and the full path ([`super::parse_full`], then `encode`) give the
//! same shader and the same bytes for every text the single-pass assembler accepts, and the
//! single-pass assembler gives up (so the full path runs) on everything else, for both
//! outputs alike. [`crate::assemble_with`] gives the full path's diagnostics where it fails.

use super::sink::Bytes;
use super::{assemble_with, fast_path, fast_shader, parse_full, Assembler, ParseOptions};
use proptest::prelude::*;

/// `fast` agrees with the full path on `text`, to a shader and to bytes, with the words
/// `seen` remembers of the texts before; returns whether `fast` took it.
fn agree_after(seen: &mut Assembler, text: &str, strict: bool, what: &str) -> bool {
    let options = ParseOptions {
        strict,
        ..Default::default()
    };
    let full = parse_full(text, &options, None).map(|(s, warnings)| {
        // The single pass gives up on what warns: warnings come from the full path alone.
        if !warnings.is_empty() {
            assert!(
                fast_shader(text, &options, &mut seen.shaders).is_none(),
                "{what}: {warnings:?}"
            );
        }
        s
    });
    let mut bytes = Bytes::new();
    let bytes = fast_path(text, &options, &mut seen.bytes, &mut bytes).map(|()| bytes.finish());
    let taken = match fast_shader(text, &options, &mut seen.shaders) {
        Some(shader) => {
            match &full {
                Ok(s) => assert_eq!(&shader, s, "{what}: the paths disagree\n{text}"),
                Err(e) => panic!("{what}: the full path fails ({e}) where the fast one gives\n{shader:?}\n{text}"),
            }
            true
        }
        None => false,
    };
    assert_eq!(
        bytes.is_some(),
        taken,
        "{what}: the single-pass path takes the text to one output only\n{text}"
    );
    if let (Some(bytes), Ok(s)) = (&bytes, &full) {
        assert_eq!(
            bytes,
            &dxso::encode(s),
            "{what}: the bytes differ from the full path's\n{text}"
        );
    }
    // The public entry point: the full path's bytes, or its diagnostics.
    match (assemble_with(text, &options), &full) {
        (Ok(b), Ok(s)) => assert_eq!(b, dxso::encode(s), "{what}: assemble_with\n{text}"),
        (Err(got), Err(want)) => assert_eq!(
            &got, want,
            "{what}: assemble_with reports otherwise\n{text}"
        ),
        (got, want) => panic!(
            "{what}: assemble_with gives {:?} where the full path gives {:?}\n{text}",
            got.map(|_| "bytes"),
            want.as_ref().map(|_| "a shader")
        ),
    }
    taken
}

/// [`agree_after`] with nothing seen before.
fn agree(text: &str, strict: bool, what: &str) -> bool {
    agree_after(&mut Assembler::new(), text, strict, what)
}

#[test]
fn single_pass_assembler_agrees_with_the_full_path_on_the_corpus() {
    let Some(dir) = dxso_corpus::corpus_or_skip("single_pass_assembler_agrees") else {
        return;
    };
    let (mut texts, mut fast_taken) = (0, 0);
    // One assembler for the corpus: each text reads words the texts before it left in the
    // tables, as a caller's assembler does.
    let mut seen = Assembler::new();
    for e in dxso_corpus::entries(&dir) {
        let mut inputs = Vec::new();
        if let Ok(shader) = dxso::decode(&e.bytes()) {
            inputs.push(("listing", crate::print(&shader)));
        }
        for suffix in ["ms.asm", "src.asm"] {
            if let Some(p) = e.sibling(suffix) {
                inputs.push((suffix, std::fs::read_to_string(p).expect("corpus text")));
            }
        }
        for (what, text) in inputs {
            for strict in [false, true] {
                texts += 1;
                fast_taken +=
                    agree_after(&mut seen, &text, strict, &format!("{} ({what})", e.rel)) as usize;
            }
        }
    }
    println!(
        "single-pass assembler: {fast_taken}/{texts} corpus texts taken, every one the same \
         shader and the same bytes as the full path ({texts}/{texts} texts: assemble_with gives \
         the full path's bytes or diagnostics)"
    );
    // Every listing dxso prints needs no preprocessor; only hand-written sources may.
    assert!(
        fast_taken * 10 >= texts * 9,
        "expected at least 90% of {texts} texts on the single-pass path, found {fast_taken}"
    );
}

/// Pieces of instruction lines in the spellings the assembler accepts, and near misses.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec![
            "mov", "add", "mad", "mul", "dp3", "dp4", "texld", "texldp", "texkill", "dcl",
            "dcl_texcoord1", "dcl_2d", "dcl_position", "def", "defi", "defb", "if", "if_gt",
            "endif", "else", "rep", "endrep", "sincos", "sgn", "nrm", "rcp", "mul_sat",
            "mad_pp", "add_x2", "mov_sat_pp", "cmp", "lrp", "m4x4", "setp_gt", "texcrd", "tex",
            "break_ne", "loop", "endloop", "call", "label", "ret", "phase", "nop", "MOV", "Mad",
        ]).prop_map(String::from),
        4 => prop::sample::select(vec![
            "r0", "r1", "r12", "c0", "c7", "c255", "c2047", "c4000", "v0", "v3", "t0", "t1",
            "s0", "s3", "oPos", "oC0", "oT1", "oD0", "o0", "o3", "a0", "aL", "i0", "b1", "p0",
            "l0", "vPos", "vFace", "oDepth", "oFog", "oPts", "R0", "C3", "OPOS", "r0_bx2",
            "t0_bias", "c1_abs", "r2_x2", "v0_dz", "r99999", "c", "x1", "r0x",
        ]).prop_map(String::from),
        2 => prop::sample::select(vec![
            ".x", ".xyzw", ".xy", ".wzyx", ".w", ".rgba", ".xz", ".zx", ".xx", ".xyzwx", ". x",
            ".5", ".",
        ]).prop_map(String::from),
        2 => prop::sample::select(vec![
            "1", "0.5", "-1", "1e-005", "9.99999975e-005", ".5", "1.", "017", "0x10", "1u",
            "1.5f", "true", "false", "1.#INF", "-1.#QNAN", "255",
        ]).prop_map(String::from),
        3 => prop::sample::select(vec![
            ",", ", ", " , ", "-", "!", "1-", "+", "(", ")", "[", "]", "[a0.x]", "[aL]",
            "[a0.x + 4]", " ", "  ", "\t",
        ]).prop_map(String::from),
        1 => prop::sample::select(vec![
            "// comment", "; comment", "/* c */", "#", "#define X r0", "\\", "\"s\"", "\r",
            "é", "\u{0}", "$",
        ]).prop_map(String::from),
    ]
}

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        // Well-formed lines, mostly.
        12 => (
            prop::sample::select(vec![
                ("mov", 2), ("add", 3), ("mad", 4), ("mul_sat", 3), ("dp3", 3), ("cmp", 4),
                ("rcp", 2), ("texkill", 1), ("mad_pp", 4), ("mov_x2", 2),
            ]),
            proptest::collection::vec(
                (
                    prop::sample::select(vec!["", "", "", "-", "1-", "!"]),
                    prop::sample::select(vec![
                        "r0", "r1", "c3", "v0", "r5", "c12", "r2_bx2", "c1_abs", "t0", "oC0",
                    ]),
                    prop::sample::select(vec!["", ".x", ".xyz", ".wzyx", ".y", ".xw"]),
                ),
                4,
            ),
            prop::sample::select(vec!["", " ", "    ", "\t", "  + "]),
            prop::sample::select(vec!["", " // c", " ; c", "  ", " +", "+ // c"]),
        )
            .prop_map(|((mn, n), ops, indent, tail)| {
                let ops: Vec<String> = ops[..n]
                    .iter()
                    .enumerate()
                    .map(|(i, (m, r, s))| if i == 0 { format!("{r}{s}") } else { format!("{m}{r}{s}") })
                    .collect();
                format!("{indent}{mn} {}{tail}", ops.join(", "))
            }),
        // `#line` directives, which the single-pass assembler skips, and others, which it leaves
        // to the full path.
        2 => prop::sample::select(vec![
            "#line 7", "#line 12 \"f.fx\"", "  # line 3 \"a b.fx\" // c", "#line 1u", "#line",
            "#line 4 \"x\" y", "#line 0x10", "#pragma x", "#", "#line 99999999999",
        ]).prop_map(String::from),
        // Anything made of the pieces.
        1 => proptest::collection::vec(word(), 0..8).prop_map(|w| w.join(" ")),
        1 => proptest::collection::vec(word(), 0..8).prop_map(|w| w.concat()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn single_pass_assembler_agrees_with_the_full_path(
        version in prop::sample::select(vec![
            "vs_1_1", "vs_2_0", "vs_2_x", "vs_3_0", "ps_1_1", "ps_1_4", "ps_2_0", "ps_2_x",
            "ps_3_0", "ps.1.3", "VS_3_0", "vs_3_sw", "ps_9_9", "",
        ]),
        lines in proptest::collection::vec(line(), 0..12),
        strict in any::<bool>(),
        crlf in any::<bool>(),
    ) {
        let end = if crlf { "\r\n" } else { "\n" };
        let mut text = format!("{version}{end}");
        for l in &lines {
            text.push_str(l);
            text.push_str(end);
        }
        agree(&text, strict, "random text");
    }
}

/// The single-pass path starts after the header the CTAB reader walked; a header line the
/// assembler would not have skipped itself (space it does not count as space before `//`, a
/// carriage return in a blank line) must still be read by the assembler or make it give up.
#[test]
fn header_lines_the_assembler_would_not_skip_are_not_skipped() {
    let header = "//\n// Generated by X\n//\n// Parameters:\n//\n//   float4 c;\n//\n//\n\
                  // Registers:\n//\n//   Name Reg Size\n//   ---- --- ----\n//   c    c0     1\n//\n";
    let body = "    vs_2_0\n    mov oPos, c0\n";
    for odd in [
        "\u{a0}// no-break space before the comment\n",
        "\u{3000}\n",
        "\r// a carriage return first\n",
        " \r\r\n",
        "\x0b\x0c// vertical tab and form feed\n",
        " \t \r\n",
        "\u{feff}// a byte-order mark inside the text\n",
    ] {
        for text in [
            format!("{odd}{header}{body}"),
            format!("{header}{odd}{body}"),
        ] {
            agree(&text, false, &format!("{odd:?}"));
        }
    }
    // The plain header is skipped and the table still comes back.
    assert!(agree(&format!("{header}{body}"), false, "plain header"));
}

/// Lines longer than the cursor's buffer (blank, comments, `#line`, instructions padded with
/// space) are read through the line parser or skipped, with the same result as the full path;
/// the single-pass path still takes the text.
#[test]
fn lines_longer_than_the_line_buffer_agree() {
    #[derive(Clone, Copy, PartialEq)]
    enum Kind {
        /// Blank or a comment: skipped anywhere.
        Skipped,
        /// An instruction: assembled after the version (before it, the text is wrong).
        Instruction,
        /// A directive: the full path's.
        Directive,
    }
    let pad = " ".repeat(300);
    for (line, kind) in [
        (format!("// {}", "x".repeat(300)), Kind::Skipped),
        (pad.clone(), Kind::Skipped),
        (
            format!("    mad r0.xyz,{pad}r1, c2.x, r3"),
            Kind::Instruction,
        ),
        (format!("{pad}mov oC0, r0 // {pad}"), Kind::Instruction),
        (format!("#line 3{pad}"), Kind::Directive),
        (format!("{pad}#define X"), Kind::Directive),
    ] {
        for before_version in [false, true] {
            let text = if before_version {
                format!("{line}\nps_2_0\nmov r0, c0\n")
            } else {
                format!("ps_2_0\n{line}\nmov r0, c0\n")
            };
            let fast = match kind {
                Kind::Skipped => true,
                Kind::Instruction => !before_version,
                Kind::Directive => false,
            };
            assert_eq!(
                agree(&text, false, &format!("{line:.40}")),
                fast,
                "{line:.40} (before the version: {before_version})"
            );
        }
    }
}

/// A line the cursor gives up on before its mnemonic (a predicate) after one it gave up on
/// after it (a relative address): each goes through the line parser, and neither undoes an
/// instruction already written (found by the generated-listing proptest in
/// `tests/assemble.rs`).
#[test]
fn a_line_given_up_on_drops_only_what_it_began() {
    for text in [
        "vs_2_x\nsge oT2.xyz, c24[a0.x].xywy, -v0\n(!p0) mad r4.y, c16, c16, v0\nmov r0, c0\n",
        "vs_2_x\nmov r0, c0\n(p0) mov r1, c1\n(p0) mov r2, c2\n",
        "vs_2_x\nmov r0, c0[a0.x]\nmov r1, c1[a0.x]\n(p0.x) nop\n",
    ] {
        assert!(agree(text, false, text), "{text}");
    }
}

/// A register number too long for 32 bits is the full path's error, not an overflow in the
/// single-pass reader (found by the `asm` fuzz target).
#[test]
fn register_numbers_longer_than_32_bits_give_up() {
    for text in [
        "ps_2_0\nmov r0, c99999999999\n",
        "ps_2_0\nmov r99999999999999999999, c0\n",
        "vs_2_0\nmov oT99999999999, v0\n",
        "vs_2_0\nmov r0, c[a0.x + 99999999999]\n",
    ] {
        assert!(!agree(text, false, text), "{text}");
    }
}
