// Diffuse lighting in vs_1_1: normalize as dp3/rsq/mul, saturate as max/min (no nrm, no _sat).
float4x4 wvp;
float3 light_dir;
float4 diffuse;

void main(float4 pos : POSITION, float3 n : NORMAL,
          out float4 opos : POSITION, out float4 col : COLOR0)
{
    opos = mul(pos, wvp);
    col = diffuse * saturate(dot(normalize(n), -light_dir));
}
