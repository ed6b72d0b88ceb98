float4 Color : DIFFUSE < string UIName = "Color"; float Max = 2; > = {1, 0, 0, 1};
float4x4 WorldViewProj : WORLDVIEWPROJECTION;
texture2D Tex;
sampler Samp : register(s0) = sampler_state { Texture = (Tex); MinFilter = Linear; AddressU = Clamp; };
float4 VS0(float4 p : POSITION) : POSITION { return mul(p, WorldViewProj); }
float4 VS1(float4 p : POSITION) : POSITION { return p; }
float4 PS(float2 t : TEXCOORD0) : COLOR { return tex2D(Samp, t) * Color; }
VertexShader VSArray[2] = { compile vs_2_0 VS0(), compile vs_2_0 VS1() };
int VSIndices[4] = { 0, 1, 1, 0 };
int ShaderIndex = 0;
technique T < int Order = 1; >
{
    pass P0
    {
        ZEnable = true; CullMode = None; SrcBlend = SrcAlpha; DestBlend = InvSrcAlpha;
        VertexShader = (VSArray[VSIndices[ShaderIndex]]);
        PixelShader = compile ps_2_0 PS();
    }
}
