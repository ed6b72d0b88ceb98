// Temporaries by lanes: the scalars share one register's lanes, saturate is the _sat of the
// instruction computing the value, and a vector read reversed (`.zyx`) is computed in the
// lanes that let ps_2_0 read it (`.wzyx`).
float3 light[3];
float3 tint;
float power;

float4 main(float3 n : TEXCOORD0, float3 v : TEXCOORD1) : COLOR0
{
    float3 nn = normalize(n);
    float a = saturate(dot(nn, light[0]));
    float b = saturate(dot(nn, light[1]));
    float c = saturate(dot(nn, light[2]));
    float s = pow(saturate(dot(normalize(v), nn)), power);
    float3 rev = (tint * a).zyx * v.zyx + b;
    return float4(rev.zyx * c + s, a * b);
}
