//! Hostile effect sources: every one gets diagnostics (with a place and a rule), never a panic.

use dxso_hlsl::effect::compile_effect;
use dxso_hlsl::{Options, Profile, Source};

fn compile(text: &str) -> Result<dxso_hlsl::effect::CompiledEffect, dxso_hlsl::Diagnostics> {
    compile_effect(
        &Source::new("h.fx", text),
        &Options::new("main", Profile::Vs20),
    )
}

#[test]
fn hostile_effects_get_errors() {
    let deep = format!(
        "technique T {{ pass {{ ZEnable = {}1{}; }} }}",
        "(".repeat(500),
        ")".repeat(500)
    );
    let cases: Vec<String> = vec![
        "technique".into(),
        "technique T {".into(),
        "technique T { pass P { ZEnable = 1 } }".into(),
        "technique T { pass P { NoSuchState = 1; } }".into(),
        "technique T { pass P { CullMode = Sideways; } }".into(),
        "technique T { pass P { MinFilter = Linear; } }".into(),
        "technique T { pass P { VertexShader = compile vs_9_9 main(); } }".into(),
        "technique T { pass P { VertexShader = compile ps_2_0 main(); } }".into(),
        "technique T { pass P { VertexShader = compile vs_2_0 missing(); } }".into(),
        "technique T { pass P { PixelShader = (Nothing[Index]); } }".into(),
        "int I; technique T { pass P { PixelShader = (I[I]); } }".into(),
        "PixelShader A[2]; texture t; technique T { pass P { PixelShader = (A[t + 1]); } }".into(),
        "PixelShader A[2]; float4 I; technique T { pass P { PixelShader = (A[I.xy + 1]); } }"
            .into(),
        "PixelShader A[2]; float4 I; technique T { pass P { PixelShader = (A[I]); } }".into(),
        "PixelShader A[4294967295];".into(),
        "float4 x[65536][65536];".into(),
        "float x < float y = ; >;".into(),
        "float x < string s = 1; >;".into(),
        "sampler s = sampler_state { Texture = <>; };".into(),
        "sampler s = sampler_state { Texture = <nothing>; };".into(),
        "VertexShader v = asm { vs_2_0\n bogus r0 };".into(),
        "VertexShader v = asm { ps_2_0\n mov oC0, c0 };".into(),
        "VertexShader v = asm { vs_2_0".into(),
        "float4 c = { foo(), 1 };".into(),
        "technique T { pass P { ZEnable[99999999999] = 1; } }".into(),
        deep,
    ];
    for text in &cases {
        let e = match compile(text) {
            Ok(_) => panic!("compiled: {text}"),
            Err(e) => e,
        };
        let first = e.errors().next().expect("an error");
        assert!(first.to_string().contains("h.fx("), "{text}: {first}");
    }
}

#[test]
fn a_small_effect_compiles_and_reads_back() {
    let text = include_str!("../../../fuzz/corpus/fx_compile/selector.fx");
    let c = compile(text).unwrap();
    let e = dxso_fx::Effect::parse(&c.bytes()).unwrap();
    assert_eq!(e, c.effect);
    assert_eq!(e.parameters.len(), 7);
    let color = &e.parameters[0];
    assert_eq!(color.semantic().as_deref(), Some("DIFFUSE"));
    assert_eq!(color.annotations.len(), 2);
    assert_eq!(
        color.value.data().unwrap(),
        &[1f32.to_bits(), 0, 0, 1f32.to_bits()]
    );
    let pass = &e.techniques[0].passes[0];
    let names: Vec<_> = pass.states.iter().map(|s| s.info().name).collect();
    assert_eq!(
        names,
        [
            "ZEnable",
            "CullMode",
            "SrcBlend",
            "DestBlend",
            "VertexShader",
            "PixelShader"
        ]
    );
    let values: Vec<_> = pass.states[..4]
        .iter()
        .map(|s| s.value.data().unwrap()[0])
        .collect();
    assert_eq!(values, [1, 1, 5, 6]);
    // The selector picks VSArray[VSIndices[ShaderIndex]] in the runtime view.
    let mut rt = dxso_fx::Runtime::new(&e);
    for (index, want) in [(0, "VSArray[0]"), (1, "VSArray[1]"), (3, "VSArray[0]")] {
        rt.set_ints("ShaderIndex", &[index]).unwrap();
        let view = rt.pass(0, 0).unwrap();
        let vs = view.vertex_shader.as_ref().expect("a vertex shader");
        assert_eq!(dxso_fx::describe::shader_name(&e, vs.shader.source), want);
    }
}
