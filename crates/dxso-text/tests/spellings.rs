//! Spellings of Microsoft's shader assemblers (psa/vsa and D3DXAssembleShader) for ps_1_x and
//! vs_1_1 sources: each hand-written text assembles to the bytes of its canonical spelling,
//! through both the single-pass and the full path.

use dxso_text::{assemble, parse};

/// `text` and `canonical` assemble to the same bytes, by `assemble` and by `parse` then encode.
fn same(text: &str, canonical: &str) {
    let want = assemble(canonical).unwrap_or_else(|e| panic!("{canonical}: {e}"));
    let got = assemble(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(got, want, "{text}");
    let parsed = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(dxso::encode(&parsed), want, "{text}: parse");
}

#[test]
fn a_plus_ending_a_line_co_issues_the_next_instruction() {
    let leading = "ps_1_1\ntex t0\nmul_x2 r0.rgb, r0, t0\n+ mov r0.a, t0.a\n";
    same(
        "ps_1_1\ntex t0\nmul_x2 r0.rgb, r0, t0 +\nmov r0.a, t0.a\n",
        leading,
    );
    // With a comment after the `+`, blank lines and comment lines before the partner, and
    // both marks at once.
    same(
        "ps.1.1\ntex t0\nmul_x2 r0.rgb, r0, t0 + // pair\n\n// alpha\nmov r0.a, t0.a\n",
        leading,
    );
    same(
        "ps_1_1\ntex t0\nmul_x2 r0.rgb, r0, t0+\n+mov r0.a, t0.a\n",
        leading,
    );
    // Only the next instruction is co-issued.
    let shader =
        parse("ps_1_3\ntex t0\nmul r0.rgb, t0, v0 +\nmov r0.a, v0.a\nadd r0, r0, c0\n").unwrap();
    let marks: Vec<bool> = shader.instructions().map(|i| i.coissue).collect();
    assert_eq!(marks, [false, false, true, false]);
}

#[test]
fn a_plus_ending_the_last_instruction_is_an_error_at_the_plus() {
    let err = parse("ps_1_1\ntex t0\nmul r0.rgb, t0, v0 +\n").unwrap_err();
    let [e] = &err.errors[..] else {
        panic!("{err}");
    };
    assert_eq!((e.line, e.column), (3, 20), "{e}");
    assert!(e.message.contains("co-issue"), "{e}");
    assert_eq!(
        assemble("ps_1_1\ntex t0\nmul r0.rgb, t0, v0 +\n").unwrap_err(),
        err
    );
}

#[test]
fn older_spellings_assemble_as_their_listing_forms() {
    let cases = [
        // Version statements with dots, as DirectX 8 wrote them; any case.
        (
            "vs.1.1\ndcl_position v0\nmov oPos, v0\n",
            "vs_1_1\ndcl_position v0\nmov oPos, v0\n",
        ),
        ("PS.1.4\ntexld r0, t0\n", "ps_1_4\ntexld r0, t0\n"),
        (
            "VS_1_1\nDCL_POSITION V0\nMOV OPOS, V0.XYZW\n",
            "vs_1_1\ndcl_position v0\nmov oPos, v0\n",
        ),
        // Constants in brackets, absolute and relative, offsets on either side of a0.x.
        ("vs_1_1\nmov oPos, c[5]\n", "vs_1_1\nmov oPos, c5\n"),
        (
            "vs_1_1\nmov oPos, c[2 + a0.x + 3]\n",
            "vs_1_1\nmov oPos, c[a0.x + 5]\n",
        ),
        (
            "vs_1_1\nmov oPos, c5[a0.x]\n",
            "vs_1_1\nmov oPos, c[a0.x + 5]\n",
        ),
        // Invert with blanks, `;` comments, C float suffixes.
        (
            "ps_1_1\ntex t0 ; sample\nmul r0, t0, 1 - t0\n",
            "ps_1_1\ntex t0\nmul r0, t0, 1-t0\n",
        ),
        (
            "ps_1_1\ndef c0, 1.0f, .5f, -.5, 1\nmov r0, c0\n",
            "ps_1_1\ndef c0, 1, 0.5, -0.5, 1\nmov r0, c0\n",
        ),
        // ps_1_4's projective-divide aliases and colour selectors.
        (
            "ps_1_4\ntexld r0, t0_da.rga\n",
            "ps_1_4\ntexld r0, t0_dw.xyw\n",
        ),
        (
            "ps_1_4\ntexcrd r0.rg, t0_da.rga\n",
            "ps_1_4\ntexcrd r0.xy, t0_dw.xyw\n",
        ),
    ];
    for (text, canonical) in cases {
        same(text, canonical);
    }
}
