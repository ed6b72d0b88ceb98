//! What effects add to the shader language, compiled and run: assembly blocks, string values,
//! shared parameters, literal arguments to compiled entry points, and state values computed
//! from parameters (evaluated by dxso-fx's runtime as d3dx9 evaluates them).

use dxso_fx::runtime::{Numbers, Runtime, StateValue};
use dxso_fx::Effect;
use dxso_hlsl::effect::compile_effect;
use dxso_hlsl::{Options, Profile, Source};

fn compile(text: &str) -> Result<Effect, dxso_hlsl::Diagnostics> {
    let c = compile_effect(
        &Source::new("t.fx", text),
        &Options::new("main", Profile::Vs20),
    )?;
    let back = Effect::parse(&c.bytes()).expect("the written effect parses");
    assert_eq!(back, c.effect);
    Ok(back)
}

fn floats(e: &Effect, state: usize) -> Vec<f32> {
    let pass = Runtime::new(e).pass(0, 0).unwrap();
    match &pass.states[state].value {
        Ok(StateValue::Numbers(Numbers::Floats(f))) => f.clone(),
        other => panic!("state {state}: {other:?}"),
    }
}

#[test]
fn assembly_blocks_become_shaders() {
    let e = compile(
        "VertexShader v[2] = { asm { vs_1_0\n def c0, 1, 1, 1, 1\n mov oPos, c0 }, \
         asm { vs_2_0\n dcl_position v0\n mov oPos, v0.xyzw } };\n\
         technique T { pass P { VertexShader = (v[1]); \
         PixelShader = asm { ps_2_0\n def c0, 0.5, 0, 0, 1\n mov oC0, c0 }; } }",
    )
    .unwrap();
    let versions: Vec<String> = e
        .shaders()
        .map(|(_, s)| s.shader.version.to_string())
        .collect();
    // Direct3D 9 has no vs_1_0: the effect compiler writes it as vs_1_1.
    assert_eq!(versions, ["vs_1_1", "vs_2_0", "ps_2_0"]);
}

#[test]
fn assembly_errors_name_the_source_line() {
    let err =
        compile("technique T { pass P {\n VertexShader = asm {\n vs_2_0\n mov oPos, q9\n }; } }")
            .unwrap_err();
    let first = err.errors().next().unwrap().to_string();
    assert!(first.starts_with("t.fx(4,"), "{first}");
    let err = compile("technique T { pass P { PixelShader = asm { vs_2_0\n dcl_position v0\n mov oPos, v0\n }; } }")
        .unwrap_err();
    assert!(err.to_string().contains("pixel shader state"), "{err}");
}

#[test]
fn strings_and_shared_parameters() {
    let e = compile(
        "string s = \"test\"; string s2[2] = {\"a\", \"b\"}; shared float f[1]; \
         technique T { pass P { } }",
    )
    .unwrap();
    assert_eq!(e.parameters.len(), 3);
    assert_eq!(e.parameters[0].value.objects().unwrap().len(), 1);
    assert_eq!(e.parameters[1].value.objects().unwrap().len(), 2);
    assert_eq!(e.parameters[2].flags, 1, "shared");
    let described = format!("{:?}", e.objects);
    assert!(
        described.contains(&format!("{:?}", b"test\0".to_vec())),
        "{described}"
    );
}

#[test]
fn state_values_computed_from_parameters() {
    let e = compile(
        "float4 c = {1, 2, 3, 4}; float k : register(c5) = 0.5; float a[3] = {10, 20, 30}; \
         int i = 2; float4x4 m = {1,0,0,0, 0,2,0,0, 0,0,3,0, 0,0,0,4};\n\
         technique T { pass P {\n\
           LightDiffuse[0] = c * 2 + 1;\n\
           LightAmbient[0] = float4(c.wz, k, -k);\n\
           FogDensity = exp(c.x) + log(c.y);\n\
           FogStart = a[i] + a[1];\n\
           LightSpecular[0] = float4(dot(c.xy, c.zw), min(c.x, k), abs(-k), c.y >= c.x);\n\
           ViewTransform = (m);\n\
           PointScale_A = k;\n\
           VertexShaderConstant4[2] = 1;\n\
         } }",
    )
    .unwrap();
    assert_eq!(floats(&e, 0), [3.0, 5.0, 7.0, 9.0]);
    assert_eq!(floats(&e, 1), [4.0, 3.0, 0.5, -0.5]);
    let fog = floats(&e, 2)[0];
    assert!((fog - (1f32.exp() + 2f32.ln())).abs() < 1e-5, "{fog}");
    assert_eq!(floats(&e, 3), [50.0]);
    assert_eq!(floats(&e, 4), [11.0, 0.5, 0.5, 1.0]);
    let m = floats(&e, 5);
    assert_eq!((m[0], m[5], m[10], m[15], m[1]), (1.0, 2.0, 3.0, 4.0, 0.0));
    assert_eq!(floats(&e, 6), [0.5]);
    // Shader constants are floats whatever literal sets them.
    assert_eq!(floats(&e, 7), [1.0]);
    // A new value of a parameter changes the state.
    let mut rt = Runtime::new(&e);
    rt.set_floats("c", &[0.0, 0.0, 0.0, -1.0]).unwrap();
    match &rt.pass(0, 0).unwrap().states[0].value {
        Ok(StateValue::Numbers(Numbers::Floats(f))) => assert_eq!(f, &[1.0, 1.0, 1.0, -1.0]),
        other => panic!("{other:?}"),
    }
    // `register(c5)` places the input as fxc does; others take the first free registers.
    let mut k_registers = Vec::new();
    for r in &e.resources {
        if let dxso_fx::Payload::Expression(p) = &r.payload {
            for c in &p.constant_table().unwrap().constants {
                if c.name.as_str() == "k" {
                    k_registers.push(c.register_index);
                }
            }
        }
    }
    assert!(!k_registers.is_empty());
    assert!(k_registers.iter().all(|&r| r == 5), "{k_registers:?}");
}

#[test]
fn literal_arguments_fill_uniform_parameters() {
    let e = compile(
        "float4 VS(float4 p : POSITION, uniform float scale, uniform bool flip) : POSITION \
         { return flip ? -p * scale : p * scale; }\n\
         VertexShader v[2] = { compile vs_2_0 VS(2, true), compile vs_2_0 VS(3, false) };\n\
         technique T { pass P { VertexShader = (v[0]); } }",
    )
    .unwrap();
    let shaders: Vec<_> = e.shaders().map(|(_, s)| s.shader.clone()).collect();
    assert_eq!(shaders.len(), 2);
    // The arguments are compile-time values: no constant table entry for them.
    for s in &shaders {
        let names: Vec<String> = s
            .constant_table()
            .and_then(|t| t.ok())
            .map(|t| {
                t.constants
                    .iter()
                    .map(|c| c.name.as_str().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        assert!(names.iter().all(|n| !n.contains("scale")), "{names:?}");
    }
    let err = compile(
        "float4 VS(float4 p : POSITION, uniform float s) : POSITION { return p * s; }\n\
         technique T { pass P { VertexShader = compile vs_2_0 VS(1, 2); } }",
    )
    .unwrap_err();
    assert!(err.to_string().contains("uniform argument"), "{err}");
}

#[test]
fn hostile_state_expressions_get_errors() {
    let long = format!(
        "float x; technique T {{ pass P {{ FogDensity = {}x; }} }}",
        "x + ".repeat(6000)
    );
    for text in [
        "texture t; technique T { pass P { FogDensity = t * 2; } }".to_string(),
        "float a[2]; technique T { pass P { FogDensity = a[7]; } }".into(),
        "float4 c; technique T { pass P { FogDensity = c.q; } }".into(),
        "float4 c; technique T { pass P { FogDensity = noise(c); } }".into(),
        "float4 c; technique T { pass P { FogDensity = dot(c, c.xy); } }".into(),
        "technique T { pass P { VertexShader = asm { vs_2_0 mov oPos, v0 ".into(),
        long,
    ] {
        match compile(&text) {
            Ok(_) => panic!("compiled: {}", &text[..text.len().min(80)]),
            Err(e) => {
                let first = e.errors().next().unwrap().to_string();
                assert!(first.contains("t.fx("), "{first}");
            }
        }
    }
}

#[test]
fn run_time_indices_choose_components_and_rows() {
    let e = compile(
        "float4 v = {10, 20, 30, 40}; int4 iv = {3, 1, 2, 0}; \
         float4x4 m = {1,2,3,4, 5,6,7,8, 9,10,11,12, 13,14,15,16};\n\
         technique T { pass P {\n\
           LightDiffuse[0] = float4(v[iv.x], v[iv.y], float3(7, 8, 9)[iv.z], v[2]);\n\
           LightAmbient[0] = m[iv.y + 1];\n\
         } }",
    )
    .unwrap();
    assert_eq!(floats(&e, 0), [40.0, 20.0, 9.0, 30.0]);
    assert_eq!(floats(&e, 1), [9.0, 10.0, 11.0, 12.0]);
}

#[test]
fn uniform_only_work_moves_to_a_preshader() {
    let src = "float4 Scale; float4 Offset; float Angle;\n\
         float4 VS(float4 p : POSITION) : POSITION \
         { float4 k = Scale * 2 + Offset * rsqrt(Angle); return p * k + float4(sin(Angle), cos(Angle), 0, 1) * k.x; }\n\
         technique T { pass P { VertexShader = compile vs_2_0 VS(); } }";
    let with = compile_effect(
        &Source::new("t.fx", src),
        &Options::new("main", Profile::Vs20),
    )
    .unwrap();
    let mut off = Options::new("main", Profile::Vs20);
    off.preshaders = false;
    let without = compile_effect(&Source::new("t.fx", src), &off).unwrap();
    let shader =
        |e: &dxso_hlsl::effect::CompiledEffect| e.effect.shaders().next().unwrap().1.clone();
    let (a, b) = (shader(&with), shader(&without));
    assert!(a.has_preshader() && !b.has_preshader());
    let count = |s: &dxso_fx::EmbeddedShader| s.shader.instructions().count();
    assert!(count(&a) < count(&b), "{} vs {}", count(&a), count(&b));
    assert!(dxso::validate(&a.shader).is_valid());
    // The same outputs for random parameters: the checker runs the preshader.
    dxso_hlsl::equivalence::check(&b.shader, &a.shader, 64, 3, Default::default()).unwrap();
    dxso_hlsl::equivalence::check(&a.shader, &b.shader, 64, 4, Default::default()).unwrap();
    // The parameters only the preshader reads leave the shader's table.
    let names: Vec<String> = a
        .shader
        .constant_table()
        .and_then(|t| t.ok())
        .map(|t| {
            t.constants
                .iter()
                .map(|c| c.name.as_str().into_owned())
                .collect()
        })
        .unwrap_or_default();
    assert!(!names.contains(&"Angle".to_string()), "{names:?}");
    // The effect reads back, and the runtime fills the preshader's registers.
    let e = Effect::parse(&with.bytes()).unwrap();
    let mut rt = Runtime::new(&e);
    rt.set_floats("Scale", &[1.0, 2.0, 3.0, 4.0]).unwrap();
    rt.set_floats("Offset", &[0.0; 4]).unwrap();
    rt.set_floats("Angle", &[1.0]).unwrap();
    let pass = rt.pass(0, 0).unwrap();
    let vs = pass.vertex_shader.expect("a vertex shader");
    let regs = format!("{vs:?}");
    assert!(regs.contains("2.0") || regs.contains("8.0"), "{regs}");
}
