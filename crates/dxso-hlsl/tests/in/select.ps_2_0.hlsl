// A comparison flattened to cmp in a profile without flow control.
float4 a;
float4 b;

float4 main(float4 t : TEXCOORD0) : COLOR
{
    return t.x > 0.5 ? a : b;
}
