// pow, exp2, log2, rsqrt, abs folded into a source modifier.
float4 c;

float4 main(float4 t : TEXCOORD0) : COLOR
{
    return float4(pow(abs(t.x), c.x), exp2(t.y), log2(abs(t.z)), rsqrt(abs(t.w)));
}
