// What vs_1_1 lacks, lowered: abs as max(x, -x), pow as exp(y * log(x)), a select as
// slt arithmetic (add and mad, no lrp or cmp), frac through expp's .y, a loop unrolled.
float4 k;
float4 j;

void main(float4 pos : POSITION, float4 n : NORMAL,
          out float4 opos : POSITION, out float4 col : COLOR0)
{
    opos = pos;
    float4 a = 0;
    for (int i = 0; i < 2; i++)
        a += abs(n - k) * i;
    col = pos.x < k.x ? a : j;
    col.w = pow(abs(n.w), k.w) + frac(pos.y);
}
