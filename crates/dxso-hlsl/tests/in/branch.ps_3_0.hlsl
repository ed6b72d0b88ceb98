// A dynamic branch in ps_3_0.
float4 c;

float4 main(float4 t : TEXCOORD0) : COLOR
{
    float4 r;
    [branch] if (t.x > c.x)
        r = t * 2.0;
    else
        r = c;
    return r;
}
