// clip becomes texkill.
sampler2D s;

float4 main(float2 uv : TEXCOORD0) : COLOR
{
    float4 c = tex2D(s, uv);
    clip(c.a - 0.5);
    return c;
}
