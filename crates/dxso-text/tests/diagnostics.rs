//! One case per diagnostic rule: the text, the rule reported, and the exact text its span
//! covers (and its line and column).

use dxso_text::{parse, parse_with, parse_with_warnings, ParseOptions, Rule};
use std::collections::HashMap;
use std::path::Path;

/// (name, source, rule, text under the span, line, column)
const CASES: &[(&str, &str, Rule, &str, u32, u32)] = &[
    (
        "unknown mnemonic",
        "vs_2_0\nmvo r0, r1\n",
        Rule::UnknownMnemonic,
        "mvo",
        2,
        1,
    ),
    (
        "register of another stage",
        "vs_2_0\nmov r0, t0\n",
        Rule::RegisterNotInVersion,
        "t0",
        2,
        9,
    ),
    (
        "vs_3_0 output before 3_0",
        "vs_2_0\nmov o0, r0\n",
        Rule::RegisterNotInVersion,
        "o0",
        2,
        5,
    ),
    (
        "oT in vs_3_0",
        "vs_3_0\nmov oT0, r0\n",
        Rule::RegisterNotInVersion,
        "oT0",
        2,
        5,
    ),
    (
        "not a register",
        "ps_2_0\nmov r0, q0\n",
        Rule::BadRegister,
        "q0",
        2,
        9,
    ),
    (
        "register index too large",
        "vs_2_0\nmov r0, r4096\n",
        Rule::RegisterIndex,
        "r4096",
        2,
        9,
    ),
    (
        "bad instruction modifier",
        "ps_2_0\nmov_foo r0, r1\n",
        Rule::BadModifier,
        "mov_foo",
        2,
        1,
    ),
    (
        "modifier on a destination register",
        "ps_2_0\nmov r0_sat, r1\n",
        Rule::BadModifier,
        "r0_sat",
        2,
        5,
    ),
    (
        "bad source modifier",
        "ps_1_4\nmov r0, -r1_dz\n",
        Rule::BadSourceModifier,
        "-r1_dz",
        2,
        9,
    ),
    (
        "missing operand",
        "vs_2_0\nadd r0, r1\n",
        Rule::MissingOperand,
        "",
        2,
        11,
    ),
    (
        "extra operand",
        "vs_2_0\nmov r0, r1, r2\n",
        Rule::ExtraOperand,
        ", r2",
        2,
        11,
    ),
    (
        "bad swizzle",
        "vs_2_0\nmov r0, r1.xyzq\n",
        Rule::BadSwizzle,
        "xyzq",
        2,
        12,
    ),
    (
        "swizzle too long",
        "vs_2_0\nmov r0, r1.xyzwx\n",
        Rule::BadSwizzle,
        "xyzwx",
        2,
        12,
    ),
    (
        "write mask out of order",
        "vs_2_0\nmov r0.yx, r1\n",
        Rule::BadWriteMask,
        "yx",
        2,
        8,
    ),
    (
        "bad relative address",
        "vs_2_0\nmov r0, c[r1.x]\n",
        Rule::BadRelativeAddress,
        "r1",
        2,
        11,
    ),
    (
        "bad number",
        "vs_2_0\ndef c0, 1, 2, 3, 1e\n",
        Rule::UnexpectedToken,
        "e",
        2,
        19,
    ),
    (
        "bad defb value",
        "vs_2_0\ndefb b0, maybe\n",
        Rule::BadNumber,
        "maybe",
        2,
        10,
    ),
    (
        "missing version",
        "mov r0, r1\n",
        Rule::MissingVersion,
        "mov r0, r1",
        1,
        1,
    ),
    (
        "bad version",
        "vs_4_0\nnop\n",
        Rule::BadVersion,
        "vs_4_0",
        1,
        1,
    ),
    (
        "unexpected character",
        "vs_2_0\nmov r0, @r1\n",
        Rule::BadRegister,
        "@",
        2,
        9,
    ),
    (
        "setp without comparison",
        "vs_2_x\nsetp p0, r0, r1\n",
        Rule::BadModifier,
        "setp",
        2,
        1,
    ),
    (
        "unterminated #if",
        "vs_2_0\n#ifdef X\nnop\n",
        Rule::UnterminatedConditional,
        "ifdef",
        2,
        2,
    ),
    (
        "#endif without #if",
        "vs_2_0\n#endif\n",
        Rule::UnmatchedConditional,
        "endif",
        2,
        2,
    ),
    (
        "#else twice",
        "vs_2_0\n#if 1\n#else\n#else\n#endif\n",
        Rule::UnmatchedConditional,
        "else",
        4,
        2,
    ),
    (
        "bad #if expression",
        "vs_2_0\n#if 1 +\n#endif\n",
        Rule::BadExpression,
        "if",
        2,
        2,
    ),
    (
        "division by zero in #if",
        "vs_2_0\n#if 1 / 0\n#endif\n",
        Rule::BadExpression,
        "/",
        2,
        7,
    ),
    (
        "unknown directive",
        "vs_2_0\n#frobnicate\n",
        Rule::BadDirective,
        "frobnicate",
        2,
        2,
    ),
    (
        "macro argument count",
        "#define F(a, b) a + b\nvs_2_0\nmov r0, c[F(1)]\n",
        Rule::MacroArguments,
        "F",
        3,
        11,
    ),
    (
        "self-referential macro stays",
        "#define R R\nvs_2_0\nmov R, r1\n",
        Rule::BadRegister,
        "R",
        3,
        5,
    ),
    (
        "#error",
        "vs_2_0\n#error stop here\n",
        Rule::ErrorDirective,
        "error",
        2,
        2,
    ),
    (
        "strictness off by default",
        "ps_2_0\ndefb b0, true\nmov r0, q\n",
        Rule::BadRegister,
        "q",
        3,
        9,
    ),
];

#[test]
fn every_rule_reports_its_span() {
    let mut checked = 0;
    for (name, text, rule, under, line, column) in CASES {
        let err = match parse(text) {
            Ok(s) => panic!("{name}: assembled to {s:?}"),
            Err(e) => e,
        };
        let d = &err.errors[0];
        assert_eq!(d.rule, *rule, "{name}: {err}");
        assert_eq!(&text[d.span.clone()], *under, "{name}: {d}");
        assert_eq!((d.line, d.column), (*line, *column), "{name}: {d}");
        checked += 1;
    }
    println!("diagnostic cases: {checked}/{}", CASES.len());
}

#[test]
fn several_errors_in_one_run() {
    let err = parse("vs_2_0\nmvo r0, r1\nmov r0, t0\nnop\nadd r0\n").unwrap_err();
    let rules: Vec<Rule> = err.errors.iter().map(|d| d.rule).collect();
    assert_eq!(
        rules,
        [
            Rule::UnknownMnemonic,
            Rule::RegisterNotInVersion,
            Rule::MissingOperand
        ]
    );
    assert_eq!(
        err.errors.iter().map(|d| d.line).collect::<Vec<_>>(),
        [2, 3, 5]
    );
}

#[test]
fn strict_mode_checks_opcodes_against_the_version() {
    let options = ParseOptions {
        strict: true,
        ..Default::default()
    };
    let err = parse_with("ps_2_0\ndefb b0, true\n", &options).unwrap_err();
    assert_eq!(err.errors[0].rule, Rule::OpcodeNotInVersion);
    assert!(parse("ps_2_0\ndefb b0, true\n").is_ok());
}

fn virtual_files(files: &'static [(&'static str, &'static str)]) -> ParseOptions<'static> {
    let map: HashMap<&'static str, &'static str> = files.iter().copied().collect();
    ParseOptions {
        path: Some("/virtual/main.asm".into()),
        include_reader: Some(Box::new(move |p: &Path| {
            map.get(p.to_str().unwrap_or(""))
                .map(|s| s.to_string())
                .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"))
        })),
        ..Default::default()
    }
}

#[test]
fn includes_that_multiply_stop_at_the_limit() {
    // Every file includes two others, 30 levels deep: no cycle, 2^30 inclusions.
    let options = ParseOptions {
        include_reader: Some(Box::new(|path: &Path| {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let level: usize = name.trim_start_matches('l').parse().unwrap_or(0);
            let next = format!("l{}", level + 1);
            Ok(if level < 30 {
                format!("#include \"{next}\"\n#include \"{next}\"\n")
            } else {
                "nop\n".to_string()
            })
        })),
        ..Default::default()
    };
    let started = std::time::Instant::now();
    let err = parse_with("vs_2_0\n#include \"l0\"\n", &options).unwrap_err();
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    assert_eq!(err.errors[0].rule, Rule::TooManyIncludes, "{err}");
}

#[test]
fn include_cycle_is_reported_at_the_include() {
    let options = virtual_files(&[
        ("/virtual/main.asm", ""),
        ("/virtual/a.inc", "#include \"b.inc\"\n"),
        ("/virtual/b.inc", "#include \"a.inc\"\n"),
    ]);
    let text = "vs_2_0\n#include \"a.inc\"\nnop\n";
    let err = parse_with(text, &options).unwrap_err();
    let d = &err.errors[0];
    assert_eq!(d.rule, Rule::IncludeCycle, "{err}");
    assert_eq!(d.file, "b.inc");
    assert_eq!((d.line, d.column), (1, 2));
    let self_include = virtual_files(&[("/virtual/main.asm", "")]);
    let err = parse_with("vs_2_0\n#include \"main.asm\"\n", &self_include).unwrap_err();
    assert_eq!(err.errors[0].rule, Rule::IncludeCycle);
}

#[test]
fn includes_resolve_relative_to_the_including_file() {
    let options = virtual_files(&[
        (
            "/virtual/lib/common.inc",
            "#include \"more.inc\"\n#define SRC c1\n",
        ),
        ("/virtual/lib/more.inc", "#define DST r0\n"),
    ]);
    let s = parse_with(
        "vs_2_0\n#include \"lib/common.inc\"\nmov DST, SRC\n",
        &options,
    )
    .unwrap();
    assert_eq!(s, parse("vs_2_0\nmov r0, c1\n").unwrap());
    let missing = parse_with("vs_2_0\n#include \"nope.inc\"\n", &options).unwrap_err();
    assert_eq!(missing.errors[0].rule, Rule::IncludeNotFound);
}

#[test]
fn line_directive_renames_and_renumbers() {
    let err = parse("vs_2_0\n#line 100 \"shader.fx\"\nmvo r0, r1\n").unwrap_err();
    let d = &err.errors[0];
    assert_eq!((d.file.as_str(), d.line), ("shader.fx", 100));
}

#[test]
fn preprocessor_features() {
    let text = "#define ONE 1\n#define ADD(a, b) add a, b, c0\n#define CAT(a, b) a##b\n\
                #if defined(ONE) && ONE * 2 == 2 && !defined NOPE\nvs.1.1\n#elif 1\nvs_2_0\n#endif\n\
                #ifndef ONE\nnop\n#else\nADD(r0, r1)\n#endif\nmov r0, CAT(c, 7)\n#undef ONE\n#ifdef ONE\nnop\n#endif\n";
    let s = parse(text).unwrap();
    assert_eq!(s, parse("vs_1_1\nadd r0, r1, c0\nmov r0, c7\n").unwrap());
}

#[test]
fn diagnostics_render_with_miette() {
    let err = parse("vs_2_0\nmov r0, r1.xyzq\n").unwrap_err();
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor());
    let mut out = String::new();
    handler.render_report(&mut out, &err.errors[0]).unwrap();
    assert!(out.contains("dxso::asm::bad_swizzle"), "{out}");
    assert!(out.contains("mov r0, r1.xyzq"), "{out}");
}

#[test]
fn special_float_spellings_round_trip() {
    let s = parse("ps_2_0\ndef c0, 1.#INF, -1.#INF, 1.#QNAN, -1.#IND\n").unwrap();
    let listing = dxso_text::print(&s);
    assert!(
        listing.contains("def c0, 1.#INF, -1.#INF, 1.#QNAN, -1.#IND"),
        "{listing}"
    );
    assert_eq!(parse(&listing).unwrap(), s);
    let big = parse("ps_2_0\ndef c0, 1e39, 0, 0, 0\n").unwrap();
    assert_eq!(parse(&dxso_text::print(&big)).unwrap(), big);
}

// Text as editors save it (byte-order mark, CRLF line ends) and `#include` search folders.

const LF: &str =
    "vs_1_1\ndcl_position v0\nmov oPos, v0 // comment\n#define X 1\n#if X\nmov oD0, v0\n#endif\n";

#[test]
fn byte_order_mark_and_crlf_are_accepted() {
    let want = parse(LF).unwrap();
    let crlf = LF.replace('\n', "\r\n");
    assert_eq!(parse(&crlf).unwrap(), want);
    assert_eq!(parse(&format!("\u{feff}{LF}")).unwrap(), want);
    assert_eq!(parse(&format!("\u{feff}{crlf}")).unwrap(), want);
    // Lines and columns still count from the first character after the mark.
    let err = parse("\u{feff}vs_1_1\r\nmvo r0, r1\r\n").unwrap_err();
    assert_eq!((err.errors[0].line, err.errors[0].column), (2, 1));
}

#[test]
fn include_searches_the_file_folder_then_the_include_folders() {
    const FILES: &[(&str, &str)] = &[
        ("/inc/a/common.inc", "#define FROM_A 1\n"),
        ("/inc/b/common.inc", "#define FROM_B 1\n"),
        ("/inc/b/only_b.inc", "\u{feff}mov oD0, v0\r\n"),
        ("/virtual/local.inc", "#define LOCAL 1\n"),
    ];
    let text = "vs_1_1\n#include \"local.inc\"\n#include \"common.inc\"\n#include <only_b.inc>\n\
                #if LOCAL && FROM_A && !defined(FROM_B)\nmov oPos, v0\n#endif\n";
    let with_dirs = |dirs: &[&str]| {
        let mut options = virtual_files(FILES);
        options.include_dirs = dirs.iter().map(Into::into).collect();
        options
    };
    let shader = parse_with(text, &with_dirs(&["/inc/a", "/inc/b"])).unwrap();
    assert_eq!(shader.instructions().count(), 2);
    // Without the folders the include is not found, and the message says where it looked.
    let err = parse_with(text, &with_dirs(&[])).unwrap_err();
    assert_eq!(err.errors[0].rule, Rule::IncludeNotFound);
    let err = parse_with(
        "vs_1_1\n#include \"nowhere.inc\"\n",
        &with_dirs(&["/inc/a"]),
    )
    .unwrap_err();
    assert!(
        err.errors[0].message.contains("searched /virtual, /inc/a"),
        "{}",
        err.errors[0].message
    );
}

/// Microsoft's header for one constant, `a` in c0, with `extra` after the register table.
fn header_then(extra: &str) -> String {
    format!(
        "//\n// Generated by Microsoft (R) HLSL Shader Compiler 9.29.952.3111\n//\n// Parameters:\n//\n//   float4 a;\n//\n//\n// Registers:\n//\n//   Name         Reg   Size\n//   ------------ ----- ----\n//   a            c0       1\n{extra}//\n\n    ps_2_0\n    mov oC0, c0\n"
    )
}

#[test]
fn a_header_that_is_microsofts_table_gives_a_ctab_without_warnings() {
    let text = header_then("");
    let (shader, warnings) = parse_with_warnings(&text, &ParseOptions::default()).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let table = shader.constant_table().expect("a CTAB").expect("it parses");
    assert_eq!(table.constants.len(), 1);
}

#[test]
fn headers_holding_more_than_the_table_assemble_without_it_and_warn_at_the_line() {
    let cases = [
        (
            "a note after the register table",
            header_then("//\n// The tint is set once per frame.\n"),
            "The tint is set once per frame.",
            15,
        ),
        (
            "annotated constant uploads",
            header_then("//   SetPixelShaderConstantF(0, tint, 1)\n"),
            "SetPixelShaderConstantF(0, tint, 1)",
            14,
        ),
        (
            "a register row without a declaration",
            header_then("//   b            c1       1\n"),
            "b            c1       1",
            14,
        ),
        (
            "a parameter name as a word of prose",
            "//\n// Generated by hand\n//\n// Parameters:\n//\n//   a is the tint, see below\n//\n//\n// Registers:\n//\n//   Name Reg Size\n//   ---- --- ----\n//   a    c0     1\n//\n    ps_2_0\n    mov oC0, c0\n"
                .to_string(),
            "a is the tint, see below",
            6,
        ),
    ];
    for (name, text, under, line) in &cases {
        let (shader, warnings) = match parse_with_warnings(text, &ParseOptions::default()) {
            Ok(r) => r,
            Err(e) => panic!("{name}: {e}"),
        };
        assert!(
            shader.constant_table().is_none(),
            "{name}: a CTAB came back"
        );
        assert_eq!(shader.instructions().count(), 1, "{name}");
        let [w] = &warnings[..] else {
            panic!("{name}: {warnings:?}");
        };
        assert_eq!(w.rule, Rule::ConstantTable, "{name}");
        assert!(w.rule.is_warning(), "{name}");
        assert_eq!(w.line, *line, "{name}: {w}");
        let named = text.lines().nth(*line as usize - 1).unwrap();
        assert!(named.contains(under), "{name}: {w}");
        assert!(named.contains(&text[w.span.clone()]), "{name}: {w}");
        // The bytes path assembles the same shader, and `parse` alone does not fail.
        let bytes = dxso_text::assemble(text).unwrap();
        assert_eq!(bytes, dxso::encode(&shader), "{name}");
        assert!(parse(text).is_ok(), "{name}");
    }
}
