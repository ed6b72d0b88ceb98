// A loop unrolled over a uniform array.
float4 c[4];

float4 main(float4 t : TEXCOORD0) : COLOR
{
    float4 r = 0;
    [unroll] for (int i = 0; i < 4; i++)
        r += c[i] * t[i];
    return r;
}
