// Casts between structs, arrays and vectors go component by component (each converted to its
// lane's type), a scalar fills every lane, and list initialisers convert per lane too.
struct apple
{
    float3 aa;
    int bb;
    float cc;
};

struct pair
{
    apple a;
    int2 n;
};

float k;

float4 main() : COLOR
{
    apple a = {5, 6, 7, 8.8, k};
    float f[4] = (float[4]) a;
    pair p = (pair) k;
    int3 i = (int3) a;
    return float4(f[3], f[2], p.n.y, i.x + a.cc);
}
