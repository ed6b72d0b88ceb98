3Texture2D theTexture : register(t0);
SamplerState theSampler = sampler_state
{
 addressU = Clamp;
 addressV = Clamp;
 mipfilter = NONE;
 minfilter = LINEAR;
 magfilter = LINEAR;
};
float4 texSize : register(c1);

float4 cubic(float v)
{
    float4 n = float4(1.0, 2.0, 3.0, 4.0) - v;
    float4 s = n * n * n;
    float x = s.x;
    float y = s.y - 4.0 * s.x;
    float z = s.z - 4.0 * s.y + 6.0 * s.x;
    float w = 6.0 - x - y - z;
    return float4(x, y, z, w);
}

float4 BicubicBSpline(in Texture2D<float4> tex, in SamplerState linearSampler, in float2 uv, in float2 texscale )
{
 float2 texcoord = uv * texscale;
 float2 fxy = frac(texcoord);
 texcoord -= fxy;

 float4 xcubic = cubic(fxy.x);
 float4 ycubic = cubic(fxy.y);

 float4 c = float4(texcoord.x - 0.5, texcoord.x + 1.5, texcoord.y - 0.5, texcoord.y + 1.5);
 float4 s = float4(xcubic.x + xcubic.y, xcubic.z + xcubic.w, ycubic.x + ycubic.y, ycubic.z + ycubic.w);
 float4 offset = c + float4(xcubic.y, xcubic.w, ycubic.y, ycubic.w) / s;

 float4 sample0 = tex.Sample(linearSampler,float2(offset.x, offset.z) * (1/texscale)); 
 float4 sample1 = tex.Sample(linearSampler,float2(offset.y, offset.z) * (1/texscale)); 
 float4 sample2 = tex.Sample(linearSampler,float2(offset.x, offset.w) * (1/texscale)); 
 float4 sample3 = tex.Sample(linearSampler,float2(offset.y, offset.w) * (1/texscale)); 

 float sx = s.x / (s.x + s.y);
 float sy = s.z / (s.z + s.w);

 return lerp( lerp(sample3, sample2, sx), lerp(sample1, sample0, sx), sy);
}

struct PixelShaderInput
{
 float4 pos : SV_POSITION;
 float2 tex : TEXCOORD0;
 float4 color : COLOR0;
};

float4 main(PixelShaderInput input) : SV_TARGET
{
 float width = texSize[0];
 float height = texSize[1];
 //theTexture.GetDimensions(width,height);
 float2 size = float2(width,height);
 float4 res = BicubicBSpline(theTexture, theSampler, input.tex, size);
 return res * input.color;
 //return theTexture.Sample(theSampler, input.tex) * input.color;
}
