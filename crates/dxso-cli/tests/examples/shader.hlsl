// A pixel shader (main) and a vertex shader (vs_main) for the compile examples.
sampler2D Diffuse : register(s0);
float4 Tint;
float4x4 WorldViewProj;
float4 FogColor;

float4 main(float2 uv : TEXCOORD0) : COLOR
{
    return tex2D(Diffuse, uv) * Tint;
}

void vs_main(float4 position : POSITION, out float4 oPos : POSITION, out float4 oColor : COLOR0)
{
    oPos = mul(position, WorldViewProj);
#ifdef FOG
    oColor = FogColor;
#else
    oColor = 1;
#endif
}
