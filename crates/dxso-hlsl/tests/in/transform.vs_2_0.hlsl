// The world-view-projection transform: four dp4 (column-major packing), texcoord passed on.
float4x4 wvp;

struct VOut
{
    float4 pos : POSITION;
    float2 uv : TEXCOORD0;
};

VOut main(float4 pos : POSITION, float2 uv : TEXCOORD0)
{
    VOut o;
    o.pos = mul(pos, wvp);
    o.uv = uv;
    return o;
}
