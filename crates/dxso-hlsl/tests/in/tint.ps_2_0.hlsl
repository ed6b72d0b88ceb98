// A texture read scaled by a uniform: texld and mul.
sampler2D tex;
float4 tint;

float4 main(float2 uv : TEXCOORD0) : COLOR
{
    return tex2D(tex, uv) * tint;
}
