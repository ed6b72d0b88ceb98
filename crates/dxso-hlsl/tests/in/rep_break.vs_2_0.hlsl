// A loop counted by an integer constant with a break: the body is flattened under the mask and
// whether the loop was left is carried across iterations; only the lanes the loop reads of a
// variable are carried.
int count : register(i0);
float4 lights[8];

void main(float4 pos : POSITION, out float4 opos : POSITION, out float4 col : COLOR0)
{
    float4 acc = 0;
    float k = 0;
    for (int i = 0; i < count; i++)
    {
        acc.xyz += lights[i].xyz * pos.x;
        if (acc.x > 4) break;
        k += 1;
    }
    opos = pos;
    col = float4(acc.xyz, k);
}
