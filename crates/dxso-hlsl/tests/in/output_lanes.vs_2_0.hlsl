// An output gathered from an input and one value computed late is written lane by lane into
// its output register at the end: no temporary holds the input's copy meanwhile.
float4x4 wvp;
float4 fog;

struct VS_OUT
{
    float4 pos : POSITION;
    float3 tex : TEXCOORD0;
};

VS_OUT main(float4 p : POSITION, float2 t : TEXCOORD0)
{
    VS_OUT o;
    o.tex.xy = t;
    o.pos = mul(wvp, p);
    o.tex.z = saturate((o.pos.w - fog.x) * fog.y);
    return o;
}
