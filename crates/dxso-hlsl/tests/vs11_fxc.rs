//! vs_1_1 against fxc's own vs_1_1 output: two vertex shaders whose fxc listings Microsoft's
//! Direct3D 9 documentation prints (its effects performance page: a lit, animated vertex
//! shader and a lit one), assembled here and run against dxso's vs_1_1 build of the same source
//! on dxso-exec. Registers are bound as fxc placed them, so fxc's listing gets dxso's constant
//! table and the checker matches constants by name.

use dxso::{Item, Shader};
use dxso_hlsl::equivalence::{check, Tolerance};
use dxso_hlsl::{compile, Options, Profile, Source};

/// dxso's vs_1_1 build of `source` and fxc's `listing` with dxso's constant table.
fn pair(source: &str, entry: &str, listing: &str) -> (Shader, Shader) {
    let ours = compile(
        &Source::new("fxc.hlsl", source),
        &Options::new(entry, Profile::Vs11),
    )
    .unwrap_or_else(|e| panic!("{e}"))
    .shader;
    assert!(dxso::validate(&ours).is_valid());
    let mut fxc = dxso_text::parse(listing).expect("fxc's listing assembles");
    let ctab = ours
        .items
        .iter()
        .find(|i| matches!(i, Item::Comment(_)))
        .cloned()
        .expect("a constant table");
    fxc.items.insert(0, ctab);
    (fxc, ours)
}

fn slots(s: &Shader) -> u32 {
    dxso::slots::count(s).total()
}

#[test]
fn animated_lighting_with_sin_matches_fxc() {
    let source = "
float4x4 g_mWorldViewProjection : register(c0);
float4x4 g_mWorld : register(c4);
float4 g_MaterialAmbientColor : register(c7);
float4 g_MaterialDiffuseColor : register(c8);
float3 g_LightDir : register(c9);
float4 g_LightAmbient : register(c10);
float4 g_LightDiffuse : register(c11);
float g_fTime : register(c12);

struct VS_OUTPUT { float4 Position : POSITION; float4 Diffuse : COLOR0; float2 TextureUV : TEXCOORD0; };

VS_OUTPUT RenderSceneVS(float4 vPos : POSITION, float3 vNormal : NORMAL, float2 vTexCoord0 : TEXCOORD0)
{
    VS_OUTPUT o;
    float4 p = vPos;
    p.x += sin(g_fTime) * vPos.x * 0.5;
    o.Position = mul(p, g_mWorldViewProjection);
    float3 n = normalize(mul(vNormal, (float3x3)g_mWorld));
    o.Diffuse.rgb = g_MaterialDiffuseColor.rgb * g_LightDiffuse.rgb * max(0, dot(n, g_LightDir))
        + g_MaterialAmbientColor.rgb * g_LightAmbient.rgb;
    o.Diffuse.a = 1.0;
    o.TextureUV = vTexCoord0;
    return o;
}
";
    // fxc /T vs_1_1 /E RenderSceneVS: 34 slots.
    let listing = "vs_1_1
def c13, 0.159154937, 0.25, 6.28318548, -3.14159274
def c14, -2.52398507e-007, 2.47609005e-005, -0.00138883968, 0.0416666418
def c15, -0.5, 1, 0.5, 0
dcl_position v0
dcl_normal v1
dcl_texcoord v2
mov r0.w, c12.x
mad r0.w, r0.w, c13.x, c13.y
expp r3.y, r0.w
mov r0.w, r3.y
mad r0.w, r0.w, c13.z, c13.w
mul r0.w, r0.w, r0.w
mad r1.w, r0.w, c14.x, c14.y
mad r1.w, r0.w, r1.w, c14.z
mad r1.w, r0.w, r1.w, c14.w
mad r1.w, r0.w, r1.w, c15.x
mad r0.w, r0.w, r1.w, c15.y
mul r0.w, r0.w, v0.x
mul r0.x, r0.w, c15.z
dp3 r1.x, v1, c4
dp3 r1.y, v1, c5
dp3 r1.z, v1, c6
mov r0.yzw, c15.w
dp3 r2.x, r1, r1
add r0, r0, v0
rsq r1.w, r2.x
dp4 oPos.x, r0, c0
mul r1.xyz, r1, r1.w
dp4 oPos.y, r0, c1
dp3 r1.x, r1, c9
dp4 oPos.z, r0, c2
max r1.w, r1.x, c15.w
mov r1.xyz, c8
mul r1.xyz, r1, c11
mov r2.xyz, c7
mul r2.xyz, r2, c10
dp4 oPos.w, r0, c3
mad oD0.xyz, r1, r1.w, r2
mov oD0.w, c15.y
mov oT0.xy, v2
";
    let (fxc, ours) = pair(source, "RenderSceneVS", listing);
    assert_eq!(slots(&fxc), 34);
    // Both run fxc's sine series (dxso's is the same polynomial), so they agree closely.
    let tolerance = Tolerance {
        absolute: 1e-4,
        relative: 1e-4,
    };
    for seed in 1..5 {
        if let Err(m) = check(&fxc, &ours, 256, seed, tolerance) {
            panic!("{m}\n{}", dxso_text::print(&ours));
        }
    }
    // One slot fewer than fxc's 34 (fxc copies the fraction out of `expp`'s `.y`), the same
    // `def`s.
    assert!(
        slots(&ours) <= 33,
        "{} slots\n{}",
        slots(&ours),
        dxso_text::print(&ours)
    );
}

#[test]
fn lighting_matches_fxc() {
    let source = "
float4x4 g_mWorldViewProjection : register(c0);
float4x4 g_mWorldInverse : register(c4);
float3 g_LightDir : register(c7);

struct VS_OUTPUT { float4 Position : POSITION; float2 TextureUV : TEXCOORD0; float4 Diffuse : COLOR0; };

VS_OUTPUT RenderSceneVS(float4 vPos : POSITION, float3 vNormal : NORMAL, float2 vTexCoord0 : TEXCOORD0)
{
    VS_OUTPUT o;
    o.Position = mul(vPos, g_mWorldViewProjection);
    float3 l = normalize(mul(g_LightDir, (float3x3)g_mWorldInverse));
    o.Diffuse = max(0, dot(vNormal, l));
    o.TextureUV = vTexCoord0;
    return o;
}
";
    // fxc /T vs_1_1: 14 slots.
    let listing = "vs_1_1
def c8, 0, 0, 0, 0
dcl_position v0
dcl_normal v1
dcl_texcoord v2
mov r1.xyz, c7
dp3 r0.x, r1, c4
dp3 r0.y, r1, c5
dp3 r0.z, r1, c6
dp4 oPos.x, v0, c0
dp3 r1.x, r0, r0
dp4 oPos.y, v0, c1
rsq r0.w, r1.x
dp4 oPos.z, v0, c2
mul r0.xyz, r0, r0.w
dp4 oPos.w, v0, c3
dp3 r0.x, v1, r0
max oD0, r0.x, c8.x
mov oT0.xy, v2
";
    let (fxc, ours) = pair(source, "RenderSceneVS", listing);
    assert_eq!(slots(&fxc), 14);
    for seed in 1..5 {
        if let Err(m) = check(&fxc, &ours, 256, seed, Tolerance::default()) {
            panic!("{m}\n{}", dxso_text::print(&ours));
        }
    }
    // fxc's 14: `oPos` and `oD0` written by the instructions computing them.
    assert!(
        slots(&ours) <= 14,
        "{} slots\n{}",
        slots(&ours),
        dxso_text::print(&ours)
    );
}
