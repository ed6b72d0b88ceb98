// lrp and frc.
float4 a;
float4 b;

float4 main(float4 t : TEXCOORD0) : COLOR
{
    return lerp(a, b, frac(t.x * 4.0));
}
