// Relative addressing in vs_1_1: mov a0.x (which floors, so the index gets + 0.5) and c[a0.x + n].
float4 bones[16];

float4 main(float4 pos : POSITION, float4 idx : BLENDINDICES) : POSITION
{
    return pos + bones[(int)idx.x];
}
