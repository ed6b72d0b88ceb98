// Branches on boolean constant registers stay static flow control (`if b#`, `else`, `endif`):
// the variables a branch changes are carried in registers across the block.
bool useFog : register(b0);
bool lights[2] : register(b1);
float4x4 wvp;
float4 fog;
float4 light;

float3 shade(float3 n)
{
    return saturate(dot(n, light.xyz)) * light.w;
}

void main(float4 p : POSITION, float3 n : NORMAL, out float4 o : POSITION, out float4 c : COLOR0,
          out float f : FOG)
{
    o = mul(wvp, p);
    c = float4(0.1, 0.1, 0.1, 1);
    if (lights[1])
        c.rgb += shade(n);
    if (useFog)
        f = (fog.x - o.z) * fog.y;
    else
        f = 1;
}
