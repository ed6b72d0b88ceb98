//! Hostile sources end in an error, never a panic or a stack overflow. Time is bounded by the
//! compiler's work budget (a count of evaluations and token copies, not a clock), which the
//! `Code::Limit` errors below show was reached.

use dxso_hlsl::{compile, fuzz_compile, Code, IncludeHandler, Options, Profile, Source};
use std::sync::Arc;

fn error_of(src: &str) -> Code {
    let r = compile(
        &Source::new("h.hlsl", src),
        &Options::new("main", Profile::Ps30),
    );
    let e = r.expect_err("hostile input must not compile");
    let code = e.errors().next().expect("an error").code;
    code
}

#[test]
fn deep_nesting() {
    let parens = format!(
        "float4 main() : COLOR {{ return {}1{}; }}",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    assert_eq!(error_of(&parens), Code::Limit);
    let blocks = format!(
        "float4 main() : COLOR {{ {} return 1; {} }}",
        "{".repeat(100_000),
        "}".repeat(100_000)
    );
    assert_eq!(error_of(&blocks), Code::Limit);
    let unary = format!(
        "float4 main() : COLOR {{ return {}1; }}",
        "-".repeat(100_000)
    );
    assert_eq!(error_of(&unary), Code::Limit);
    let ifs = format!("{}\n1", "#if 1\n".repeat(10_000));
    assert_eq!(error_of(&ifs), Code::Limit);
}

#[test]
fn huge_and_endless_loops() {
    assert_eq!(error_of("float4 main() : COLOR { float x = 0; for (int i = 0; i < 100000000; i++) x += i; return x; }"), Code::UnrollLimit);
    assert_eq!(
        error_of(
            "float4 c; float4 main() : COLOR { float x = 0; while (true) x += c.x; return x; }"
        ),
        Code::UnrollLimit
    );
    assert_eq!(error_of("float4 c; float4 main() : COLOR { float x = 0; do { x += c.x; } while (x < 1e30); return x; }"), Code::UnrollLimit);
    // Nested loops multiply: the work budget ends them.
    let nested = "float4 c; float4 main() : COLOR { float x = 0;\n\
        for (int i = 0; i < 1000; i++) for (int j = 0; j < 1000; j++) for (int k = 0; k < 1000; k++) x += c.x * i;\n\
        return x; }";
    assert_eq!(error_of(nested), Code::Limit);
}

#[test]
fn recursion_and_call_explosion() {
    assert_eq!(
        error_of("float f(float x) { return f(x) + 1; } float4 main() : COLOR { return f(1); }"),
        Code::Recursion
    );
    assert_eq!(error_of("float g(float x); float f(float x) { return g(x); } float g(float x) { return f(x); } float4 main() : COLOR { return f(1); }"), Code::Recursion);
    // Each level calls the one below twice: 2^40 inlined calls without a budget.
    let mut src = String::from("float4 c; float f0(float x) { return x * c.x; }\n");
    for i in 1..40 {
        src.push_str(&format!(
            "float f{i}(float x) {{ return f{}(x) + f{}(x + 1); }}\n",
            i - 1,
            i - 1
        ));
    }
    src.push_str("float4 main() : COLOR { return f39(1); }");
    assert_eq!(error_of(&src), Code::Limit);
}

#[test]
fn macro_bombs() {
    let mut src = String::from("#define A0 x\n");
    for i in 1..40 {
        src.push_str(&format!("#define A{i} A{} A{}\n", i - 1, i - 1));
    }
    src.push_str("A39");
    assert_eq!(error_of(&src), Code::Preprocessor);
    assert!(matches!(
        error_of("#define F(x) F(x F(x))\nF(1)"),
        Code::Syntax | Code::Undeclared
    ));
}

struct SelfInclude;

impl IncludeHandler for SelfInclude {
    fn open(&self, name: &str, _: Option<&str>, _: bool) -> Result<(String, String), String> {
        Ok((name.to_string(), "#include \"self.h\"\n".to_string()))
    }
}

#[test]
fn include_cycles() {
    let mut o = Options::new("main", Profile::Ps20);
    o.includes = Arc::new(SelfInclude);
    let e = compile(&Source::new("a.hlsl", "#include \"self.h\"\n"), &o).unwrap_err();
    let code = e.errors().next().unwrap().code;
    assert_eq!(code, Code::Limit);
}

#[test]
fn arbitrary_bytes_never_panic() {
    // A deterministic sweep of byte soup and truncated real programs.
    let program = b"struct V { float4 p : POSITION; float2 t : TEXCOORD0; }; sampler2D s; float4 c[4];\n\
        float4 main(V v) : COLOR { float4 x = tex2D(s, v.t) * c[1]; if (x.x > 0.5) discard; [unroll] for (int i = 0; i < 3; i++) x += c[i]; return saturate(x); }";
    for cut in 0..program.len() {
        fuzz_compile(&program[..cut]);
    }
    let alphabet: &[u8] =
        b" \n{}()[];,.+-*/<>=!&|?:#abcdefxyzw0123456789float4mainCOLORreturnifforwhile";
    let mut state = 0x1234_5678_9abc_def0u64;
    for _ in 0..2000 {
        let len = (state % 200) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                alphabet[(state % alphabet.len() as u64) as usize]
            })
            .collect();
        fuzz_compile(&bytes);
    }
    assert!(fuzz_compile(b"float4 main() : COLOR { return 1; }") >= 1);
}

#[test]
fn huge_sizes_and_offsets_end_in_errors() {
    // Whatever each gives (an error or a shader), it must not panic or overflow.
    let srcs = [
        "float4x4 a[65536]; float4x4 b[65536]; float4 main() : COLOR { return a[65535][3] + b[65535][3]; }",
        "float a : register(c4294967295[4294967295]); float4 main() : COLOR { return a; }",
        "float a : register(c0[1e300]); float4 main() : COLOR { return a; }",
        "static const int n = 65536 * 65536; float a[n]; float4 main() : COLOR { return a[0]; }",
        "float4 main() : COLOR { float4 a[] = {1, 2, 3}; return a[0]; }",
        "float4 main() : COLOR { float a[][] = {1, 2}; return a[0][0]; }",
        "float4 main() : COLOR { float4 x = 0; for (int i = 0; i < 3; i += 0) { x += 1; if (x.x > 2) break; } return x; }",
    ];
    for src in srcs {
        for profile in [
            Profile::Ps20,
            Profile::Ps30,
            Profile::Vs11,
            Profile::Vs20,
            Profile::Vs30,
        ] {
            let _ = compile(&Source::new("h.hlsl", src), &Options::new("main", profile));
        }
    }
}

#[test]
fn vs11_lowering_stays_bounded() {
    // Each sin is a dozen vs_1_1 operations and each frac one per lane: a long unrolled loop of
    // them ends in an error (slots), in bounded time.
    let src = "float4 c; float4 main(float4 v : POSITION) : POSITION { float4 x = v;\n\
        for (int i = 0; i < 1000; i++) x = sin(x) * c + frac(x * i); return x; }";
    let e = compile(
        &Source::new("h.hlsl", src),
        &Options::new("main", Profile::Vs11),
    )
    .expect_err("far past 128 slots");
    let code = e.errors().next().expect("an error").code;
    assert!(matches!(code, Code::TooManySlots | Code::Limit), "{e}");
}
