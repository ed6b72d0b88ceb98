// A counted loop left early under a runtime condition still unrolls to its known trip count
// (the lanes that broke are masked), and a loop whose body always returns ends after one pass.
float f;

float4 main(float t : TEXCOORD0) : COLOR
{
    float x = 0;
    int i;
    for (i = 0; i < 4; i++)
    {
        x += i;
        if (t > f)
            break;
    }
    if (f < 0.5)
    {
        for (;;)
        {
            x *= 2;
            return float4(x, i, 0, 1);
        }
    }
    return float4(x, i, 1, 1);
}
