// Constant registers in fxc's order: only the part read is reserved (e: 5 of 6, a: 1 of its 2
// columns), the larger first (e in c0-c4, then b, then a), each in the lowest free registers
// around a bound uniform's whole range, kept though unread (d in c6-c9: b goes to c10, a to c5).
float4x2 a;
float4x2 b;
float4x4 d : register(c6);
float2 e[6];

float4 main() : COLOR
{
    return float4(a[0].x, a[1].x, b[0].y, e[4].x);
}
