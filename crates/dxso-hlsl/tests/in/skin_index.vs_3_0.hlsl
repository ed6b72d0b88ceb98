// Relative addressing: a constant array indexed by a vertex attribute (mova and c[a0.x]).
float4 bones[16];

float4 main(float4 pos : POSITION, float4 idx : BLENDINDICES) : POSITION
{
    return pos + bones[(int)idx.x];
}
