// sin and cos of one angle in vs_1_1: no sincos, a range reduction through expp and a series.
float4 angle;

float4 main(float4 pos : POSITION) : POSITION
{
    float s = sin(angle.x);
    float c = cos(angle.x);
    return pos * float4(s, c, 1.0, 1.0);
}
