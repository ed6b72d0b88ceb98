3sampler2D Image : register(s0);
sampler1D Palette : register(s1);
float4 PaletteMod : register(c2);
float4 White : register(c6);		// Preloaded with (1,1,1,0)

float4 main (float2 texCoord : TEXCOORD0, float4 Flash : COLOR0, float4 InvFlash : COLOR1) : COLOR
{
	float index = tex2D (Image, texCoord).x;
	index = index * PaletteMod.x + PaletteMod.y;
	float4 rgb = tex1D (Palette, index);
	rgb.xyz = White.xyz - rgb.xyz;
	return Flash + rgb * InvFlash;
}
