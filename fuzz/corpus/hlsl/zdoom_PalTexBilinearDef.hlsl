3sampler2D Image : register(s0);
sampler2D Palette : register(s1);
float4 PaletteMod : register(c2);

//#define texture_size_x 512.0f
//#define texture_size_y 256.0f
//#define texel_size_x 1.0f / 512.0f
//#define texel_size_y 1.0f / 256.0f

// texture_size_x, texture_size_y, 0, texel_size_x
float4 size_a : register(c3);

// 0, texel_size_y, texel_size_y, texel_size_x
float4 size_b : register(c4);

float4 main (float2 texCoord : TEXCOORD0, float4 Flash : COLOR0, float4 InvFlash : COLOR1) : COLOR
{
	float2 f = frac (texCoord.xy * size_a/*float2(texture_size_x, texture_size_y)*/);

	float4 t00 = tex2D(Image, texCoord);
	float4 t10 = tex2D(Image, texCoord + size_a.wz/*float2(texel_size_x, 0)*/);

	t00.x = t00.x * PaletteMod.x + PaletteMod.y;
	t10.x = t10.x * PaletteMod.x + PaletteMod.y;

	float4 c00 = tex2D(Palette, t00);
	float4 c10 = tex2D(Palette, t10);

	float4 cA = lerp(c00, c10, f.x);

	float4 t01 = tex2D(Image, texCoord + size_b.xy/*float2(0, texel_size_y)*/);
	float4 t11 = tex2D(Image, texCoord + size_b.wz/*float2(texel_size_x, texel_size_y)*/);

	t01.x = t01.x * PaletteMod.x + PaletteMod.y;
	t11.x = t11.x * PaletteMod.x + PaletteMod.y;

	float4 c01 = tex2D(Palette, t01);
	float4 c11 = tex2D(Palette, t11);

	float4 cB = lerp(c01, c11, f.x);

	return Flash + lerp(cA, cB, f.y) * InvFlash;
}
