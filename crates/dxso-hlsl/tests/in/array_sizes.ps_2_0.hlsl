// Array sizes from constant expressions and from the initialiser.
static const int size = 2 + 1;
static const float table[size * 2] = {1, 2, 3, 4, 5, 6};
float4 pick;

float4 main() : COLOR
{
    float2 pairs[][2] = {10, 20, 30, 40, 50, 60, 70, 80};
    float4 quads[] = {table[1], table[5], 7, 8, 9, 10, 11, 12};
    return quads[1] + float4(pairs[1][1], pairs[0][1]) + pick;
}
