// A row-major matrix: mul becomes mad chains rather than dp4.
row_major float4x4 m;

float4 main(float4 pos : POSITION) : POSITION
{
    return mul(pos, m);
}
