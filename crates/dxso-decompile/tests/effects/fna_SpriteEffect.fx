// Decompiled by dxso from an fx_2_0 effect.

struct PS0_INPUT
{
    float4 color0 : COLOR0;
    float4 texcoord0 : TEXCOORD0;
};

struct PS0_OUTPUT
{
    float4 color0 : COLOR0;
};

PS0_OUTPUT PS0(PS0_INPUT i);

struct VS1_INPUT
{
    float4 color0 : COLOR0;
    float4 texcoord0 : TEXCOORD0;
    float4 position : POSITION0;
};

struct VS1_OUTPUT
{
    float4 position : POSITION;
    float4 color0 : COLOR0;
    float2 texcoord0 : TEXCOORD0;
};

VS1_OUTPUT VS1(VS1_INPUT i);

// Parameters

texture2D Texture;
sampler TextureSampler = sampler_state
{
    Texture = (Texture);
};
float4x4 MatrixTransform;

// Shader #0: ps_2_0 (SpriteBatch.0.PixelShader)

PS0_OUTPUT PS0(PS0_INPUT i)
{
    PS0_OUTPUT o;
    o.color0 = tex2D(TextureSampler, i.texcoord0.xy) * i.color0;
    return o;
}

// Shader #1: vs_2_0 (SpriteBatch.0.VertexShader)

VS1_OUTPUT VS1(VS1_INPUT i)
{
    VS1_OUTPUT o;
    o.position = mul(i.position, MatrixTransform);
    o.color0 = i.color0;
    o.texcoord0 = i.texcoord0.xy;
    return o;
}

technique SpriteBatch
{
    pass
    {
        VertexShader = compile vs_2_0 VS1();
        PixelShader = compile ps_2_0 PS0();
    }
}

