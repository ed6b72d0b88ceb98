// A matrix condition (or matrix operands) selects component by component, the result taking
// the operands' type; a one-component condition selects the whole value.
float2x2 cond;
float2x2 a;
float2x2 b;
float1x1 one;
float4 u, v;

float4 main() : COLOR
{
    float2x2 m = cond ? a : b;
    return float4(m[0], m[1]) + (one ? u : v);
}
