// isinf compares the magnitude with the largest finite float; `precise` qualifies a
// declaration but is no keyword (a uniform may take the name).
float4 precise;
precise float4 v;

float4 main() : COLOR
{
    precise float4 r = isinf(1.0 / v) + precise;
    return r;
}
