// A dynamic loop over an integer uniform: rep counted by an integer constant register in ps_3_0.
float4 c;
int n : register(i0);

float4 main(float4 t : TEXCOORD0) : COLOR
{
    float4 r = 0;
    [loop] for (int i = 0; i < n; i++)
    {
        r += c * t;
        t *= 0.5;
    }
    return r;
}
