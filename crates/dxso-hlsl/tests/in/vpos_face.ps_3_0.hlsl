// vPos and vFace inputs of ps_3_0.
float4 main(float2 p : VPOS, float face : VFACE) : COLOR
{
    return float4(p * 0.01, face > 0 ? 1.0 : 0.0, 1.0);
}
