// A literal colour: one def, one mov.
float4 main() : COLOR
{
    return float4(1.0, 0.5, 0.25, 1.0);
}
