// An element of an integer register array counts a rep loop (rep i2).
int counts[3] : register(i0);
float4 step;

float4 main(float4 p : POSITION) : POSITION
{
    float4 r = p;
    for (int k = 0; k < counts[2]; k++)
        r += step;
    return r;
}
