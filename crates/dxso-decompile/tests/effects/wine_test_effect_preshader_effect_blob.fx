// Decompiled by dxso from an fx_2_0 effect.

struct PS0_INPUT
{
    float4 texcoord0 : TEXCOORD0;
    float4 color0 : COLOR0;
};

struct PS0_OUTPUT
{
    float4 color0 : COLOR0;
};

PS0_OUTPUT PS0(PS0_INPUT i);

struct VS1_Struct1
{
    float3 v1;
    float fv;
    float4 v2;
};

struct VS1_Struct2
{
    float3 v1;
    float fv;
    float4 v2;
};

struct VS1_Struct3
{
    float3 v1;
    float fv;
    float4 v2;
};

struct VS1_Struct4
{
    VS1_Struct3 ts[2];
};

struct VS1_INPUT
{
    float4 position : POSITION0;
};

struct VS1_OUTPUT
{
    float4 position : POSITION;
    float2 texcoord0 : TEXCOORD0;
    float4 color0 : COLOR0;
};

VS1_OUTPUT VS1(VS1_INPUT i);

struct VS2_OUTPUT
{
    float4 position : POSITION;
    float2 texcoord0 : TEXCOORD0;
    float4 color0 : COLOR0;
};

VS2_OUTPUT VS2();

struct VS3_OUTPUT
{
    float4 position : POSITION;
};

VS3_OUTPUT VS3();

struct VS4_OUTPUT
{
    float4 position : POSITION;
};

VS4_OUTPUT VS4();

struct VS5_OUTPUT
{
    float4 position : POSITION;
};

VS5_OUTPUT VS5();

// Parameters

float4 g_Pos1;
float4 g_Pos2;
float4 g_Selector[3] = { 0.0, 0.0, 0.0, 0.0, 10.0, 10.0, 10.0, 10.0, 5001.0, 5002.0, 5003.0, 5004.0 };
float4 opvect1 = { 0.0, -0.0, -2.2, 3.4028235e38 };
float4 opvect2 = { 1.0, 2.0, -3.0, 4.0 };
float4 opvect3 = { 0.0, -0.0, -2.2, 3.4028235e38 };
float4 vect_sampler = { 1.0, 2.0, 3.0, 4.0 };
float3 vec3 = { 1001.0, 1002.0, 1003.0 };
int4 g_iVect = { 4, 3, 2, 1 };
VertexShader vs_arr[3] = { compile vs_2_0 VS3(), compile vs_2_0 VS4(), compile vs_2_0 VS5() };
float4x4 m4x4 = { 11.0, 12.0, 13.0, 14.0, 21.0, 22.0, 23.0, 24.0, 31.0, 32.0, 33.0, 34.0, 41.0, 42.0, 43.0, 44.0 };
float4x3 m4x3row = { 11.0, 12.0, 13.0, 21.0, 22.0, 23.0, 31.0, 32.0, 33.0, 41.0, 42.0, 43.0 };
float3x4 m3x4row = { 11.0, 12.0, 13.0, 14.0, 21.0, 22.0, 23.0, 24.0, 31.0, 32.0, 33.0, 34.0 };
float4x3 m4x3column = { 11.0, 12.0, 13.0, 21.0, 22.0, 23.0, 31.0, 32.0, 33.0, 41.0, 42.0, 43.0 };
float3x4 m3x4column = { 11.0, 12.0, 13.0, 14.0, 21.0, 22.0, 23.0, 24.0, 31.0, 32.0, 33.0, 34.0 };
float2x2 m2x2row = { 11.0, 12.0, 21.0, 22.0 };
float2x2 m2x2column = { 11.0, 12.0, 21.0, 22.0 };
float2x3 m2x3row = { 11.0, 12.0, 13.0, 21.0, 22.0, 23.0 };
float2x3 m2x3column = { 11.0, 12.0, 13.0, 21.0, 22.0, 23.0 };
float3x2 m3x2row = { 11.0, 12.0, 21.0, 22.0, 31.0, 32.0 };
float3x2 m3x2column = { 11.0, 12.0, 21.0, 22.0, 31.0, 32.0 };
bool2x3 mb2x3row = { true, false, true, false, true, true };
bool2x3 mb2x3column = { true, false, true, false, true, true };
struct { float3 v1; float fv; float4 v2; } ts1[1] = { 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0 };
shared struct { float3 v1; float fv; float4 v2; } ts2[2] = { 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0 };
struct { struct { float3 v1; float fv; float4 v2; } ts[2]; } ts3 = { 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0 };
float arr1[1] = { 91.0 };
shared float arr2[2] = { 92.0, 93.0 };
texture2D tex1;
texture2D tex2;
sampler sampler1 = sampler_state
{
    Texture = (tex1);
    MinFilter = (g_iVect.y);
    MagFilter = (vect_sampler.y + vect_sampler.x);
};
sampler samplers_array[2] = {
    sampler_state
    {
        MinFilter = POINT;
        MagFilter = (vect_sampler.x);
    },
    sampler_state
    {
        MinFilter = LINEAR;
        MagFilter = (vect_sampler.y);
    }
};
shared VertexShader vs_arr2[2] = { compile vs_3_0 VS1(), compile vs_3_0 VS2() };
PixelShader ps_arr[1] = { compile ps_3_0 PS0() };

// Shader #0: ps_3_0 (ps_arr[0])

PS0_OUTPUT PS0(PS0_INPUT i)
{
    PS0_OUTPUT o;
    float4 r0 = 0;
    float4 r1 = 0;
    float4 r2 = 0;
    float4 r3 = 0;
    float4 r4 = 0;
    r1.x = 0.0;
    r2.x = dot(i.color0.xy, transpose(m2x2column)[0]) + r1.x;
    r2.y = dot(i.color0.xy, transpose(m2x2column)[1]) + r1.x;
    r0.xy = mul(i.color0.xy, m2x2row) + i.color0.xy + r2.xy;
    r0.zw = i.color0.zz * m3x2row[2] + (i.color0.xx * m3x2row[0] + m3x2row[1] * i.color0.yy);
    r0.xy = r0.zw + r0.xy + mul(i.color0.xyz, m3x2column);
    r1.yzw = i.color0.xxx * m2x3row[0] + m2x3row[1] * i.color0.yyy;
    r0.z = i.color0.z;
    r2.x = dot(i.color0.xy, transpose(m2x3column)[0]) + r1.x;
    r2.y = dot(i.color0.xy, transpose(m2x3column)[1]) + r1.x;
    r2.z = dot(i.color0.xy, transpose(m2x3column)[2]) + r1.x;
    r0.xyz = r0.xyz + r1.yzw + r2.xyz;
    r3.xyz = r0.xyz;
    for (int k0 = 0; k0 < g_iVect; k0++)
    {
        r3.xyz = r2.xyz + r3.xyz;
    }
    if (mb2x3row[4])
    {
        r3.w = i.color0.w;
        r0 = frac(r3 * float4(0.15915494, 0.15915494, 0.15915494, 0.15915494) + float4(0.25, 0.25, 0.25, 0.25)) * float4(6.2831855, 6.2831855, 6.2831855, 6.2831855) + float4(-3.1415927, -3.1415927, -3.1415927, -3.1415927);
        r0 = r0 * r0;
        r2 = r0 * float4(-2.523985e-7, -2.523985e-7, -2.523985e-7, -2.523985e-7) + float4(2.47609e-5, 2.47609e-5, 2.47609e-5, 2.47609e-5);
        r2 = r0 * (r0 * r2 + float4(-0.0013888397, -0.0013888397, -0.0013888397, -0.0013888397)) + float4(0.04166664, 0.04166664, 0.04166664, 0.04166664);
        r0 = r0 * (r0 * r2 + float4(-0.5, -0.5, -0.5, -0.5)) + r3 + float4(1.0, 1.0, 1.0, 1.0);
        r2 = frac(r0 * float4(0.15915494, 0.15915494, 0.15915494, 0.15915494) + float4(0.5, 0.5, 0.5, 0.5)) * float4(6.2831855, 6.2831855, 6.2831855, 6.2831855) + float4(-3.1415927, -3.1415927, -3.1415927, -3.1415927);
        r2 = r2 * r2;
        r4 = r2 * float4(-2.523985e-7, -2.523985e-7, -2.523985e-7, -2.523985e-7) + float4(2.47609e-5, 2.47609e-5, 2.47609e-5, 2.47609e-5);
        r4 = r2 * (r2 * r4 + float4(-0.0013888397, -0.0013888397, -0.0013888397, -0.0013888397)) + float4(0.04166664, 0.04166664, 0.04166664, 0.04166664);
        r4 = r2 * r4 + float4(-0.5, -0.5, -0.5, -0.5);
        r3 = r2 * r4 + r0 + float4(1.0, 1.0, 1.0, 1.0);
        r0.x = dot(r3.xy, transpose(m2x3column)[0]) + r1.x;
        r0.y = dot(r3.xy, transpose(m2x3column)[1]) + r1.x;
        r0.z = dot(r3.xy, transpose(m2x3column)[2]) + r1.x;
        r0.xyz = r0.xyz + r3.xyz;
        r1.yzw = r0.xxx * m2x3row[0] + r0.yyy * m2x3row[1];
        r3.xyz = r0.xyz + r1.yzw;
        r0.xy = mul(r3.xyz, m3x2column) + r3.xy;
        r0.zw = r0.yy * m3x2row[1];
        r0.zw = r3.zz * m3x2row[2] + (r0.xx * m3x2row[0] + r0.zw);
        r3.xy = r0.zw + r0.xy;
    }
    else
    {
        r3.w = i.color0.w;
    }
    if (mb2x3column)
    {
        r0 = frac(r3 * float4(0.15915494, 0.15915494, 0.15915494, 0.15915494) + float4(0.25, 0.25, 0.25, 0.25)) * float4(6.2831855, 6.2831855, 6.2831855, 6.2831855) + float4(-3.1415927, -3.1415927, -3.1415927, -3.1415927);
        r0 = r0 * r0;
        r2 = r0 * float4(-2.523985e-7, -2.523985e-7, -2.523985e-7, -2.523985e-7) + float4(2.47609e-5, 2.47609e-5, 2.47609e-5, 2.47609e-5);
        r2 = r0 * (r0 * r2 + float4(-0.0013888397, -0.0013888397, -0.0013888397, -0.0013888397)) + float4(0.04166664, 0.04166664, 0.04166664, 0.04166664);
        r0 = r0 * (r0 * r2 + float4(-0.5, -0.5, -0.5, -0.5)) + r3 + float4(1.0, 1.0, 1.0, 1.0);
        r2 = frac(r0 * float4(0.15915494, 0.15915494, 0.15915494, 0.15915494) + float4(0.5, 0.5, 0.5, 0.5)) * float4(6.2831855, 6.2831855, 6.2831855, 6.2831855) + float4(-3.1415927, -3.1415927, -3.1415927, -3.1415927);
        r2 = r2 * r2;
        r4 = r2 * float4(-2.523985e-7, -2.523985e-7, -2.523985e-7, -2.523985e-7) + float4(2.47609e-5, 2.47609e-5, 2.47609e-5, 2.47609e-5);
        r4 = r2 * (r2 * r4 + float4(-0.0013888397, -0.0013888397, -0.0013888397, -0.0013888397)) + float4(0.04166664, 0.04166664, 0.04166664, 0.04166664);
        r4 = r2 * r4 + float4(-0.5, -0.5, -0.5, -0.5);
        r3 = r2 * r4 + r0 + float4(1.0, 1.0, 1.0, 1.0);
        r0.x = dot(r3.xy, transpose(m2x3column)[0]) + r1.x;
        r0.y = dot(r3.xy, transpose(m2x3column)[1]) + r1.x;
        r0.z = dot(r3.xy, transpose(m2x3column)[2]) + r1.x;
        r0.xyz = r0.xyz + r3.xyz;
        r1.xyz = mul(r0.xy, m2x3row);
        r3.xyz = r0.xyz + r1.xyz;
        r0.xy = mul(r3.xyz, m3x2column) + r3.xy;
        r0.zw = r0.yy * m3x2row[1];
        r0.zw = r3.zz * m3x2row[2] + (r0.xx * m3x2row[0] + r0.zw);
        r3.xy = r0.zw + r0.xy;
    }
    o.color0 = tex2D(sampler1, i.texcoord0.xy) + r3 + tex2D(samplers_array, i.texcoord0.xy);
    return o;
}

// Shader #1: vs_3_0 (vs_arr2[0])

VS1_OUTPUT VS1(VS1_INPUT i)
{
    // Computed from the parameters (the preshader).
    float4 VS1_c33 = float4((((0.5 < g_Selector[1].y ? 1.0 : 0.0) * ((-(((-3.0) * g_Pos2.x) + 4.0)) + (((-2.0) * g_Pos1.x) + 4.0))) + (((-3.0) * g_Pos2.x) + 4.0)), (((0.5 < g_Selector[1].y ? 1.0 : 0.0) * ((-(((-3.0) * g_Pos2.y) + 5.0)) + (((-2.0) * g_Pos1.y) + 5.0))) + (((-3.0) * g_Pos2.y) + 5.0)), (((0.5 < g_Selector[1].y ? 1.0 : 0.0) * ((-(((-3.0) * g_Pos2.z) + 6.0)) + (((-2.0) * g_Pos1.z) + 6.0))) + (((-3.0) * g_Pos2.z) + 6.0)), (((0.5 < g_Selector[1].y ? 1.0 : 0.0) * ((-(((-3.0) * g_Pos2.w) + 7.0)) + (((-2.0) * g_Pos1.w) + 7.0))) + (((-3.0) * g_Pos2.w) + 7.0)));
    VS1_OUTPUT o;
    float4 r0 = 0;
    float4 r1 = 0;
    r0.xyz = mul(i.position, m4x3column);
    r0.w = 0.0;
    r0 = r0 + mul(i.position.xyz, m3x4column) + mul(i.position.xyz, m3x4row);
    r0.xyz = r0.xyz + mul(i.position, m4x3row);
    r1.x = dot(i.position, ts1.v2);
    r0 = i.position * (float4)(ts2[1].fv) + (i.position * (float4)(ts1.fv) + r0 + r1.xxxx);
    r1.x = dot(i.position, ts2[1].v2);
    r0 = i.position * (float4)(ts3.ts[1].fv) + (i.position * (float4)(arr2[1]) + (i.position * (float4)(arr1) + (r0 + r1.xxxx)));
    r1.x = dot(i.position, ts3.ts[1].v2);
    o.color0 = r0 + r1.xxxx + tex2Dlod(sampler1, g_Pos1) + tex2Dlod(samplers_array[1], g_Pos1);
    o.position = VS1_c33;
    o.texcoord0 = float2(0.0, 0.0);
    return o;
}

// Shader #2: vs_3_0 (vs_arr2[1])

VS2_OUTPUT VS2()
{
    // Computed from the parameters (the preshader).
    float4 VS2_c0 = g_Pos1;
    VS2_OUTPUT o;
    o.position = VS2_c0;
    o.texcoord0 = float2(0.0, 0.0);
    o.color0 = float4(0.0, 0.0, 0.0, 0.0);
    return o;
}

// Shader #3: vs_1_1 (vs_arr[0])

VS3_OUTPUT VS3()
{
    VS3_OUTPUT o;
    o.position = float4(1.0, 1.0, 1.0, 1.0);
    return o;
}

// Shader #4: vs_1_1 (vs_arr[1])

VS4_OUTPUT VS4()
{
    VS4_OUTPUT o;
    o.position = float4(2.0, 2.0, 2.0, 2.0);
    return o;
}

// Shader #5: vs_2_0 (vs_arr[2])

VS5_OUTPUT VS5()
{
    VS5_OUTPUT o;
    o.position = float4(3.0, 3.0, 3.0, 3.0);
    return o;
}

technique tech0
{
    pass p0
    {
        VertexShader = (vs_arr2[(g_iVect.w + (-1.0))]);
        PixelShader = (ps_arr[(g_iVect.w + (-1.0))]);
        LightEnable[0] = TRUE;
        LightEnable[1] = TRUE;
        LightEnable[2] = TRUE;
        LightEnable[3] = TRUE;
        LightEnable[4] = TRUE;
        LightEnable[5] = TRUE;
        LightEnable[6] = TRUE;
        LightEnable[7] = TRUE;
        LightType[0] = 1;
        LightType[1] = 1;
        LightType[2] = 1;
        LightType[3] = 1;
        LightType[4] = 1;
        LightType[5] = 1;
        LightType[6] = 1;
        LightType[7] = 1;
        LightDiffuse[0] = (float4((1.0 / opvect1.x), (1.0 / opvect1.y), (1.0 / opvect1.z), (1.0 / opvect1.w)));
        LightDiffuse[1] = (float4(rsqrt(abs(opvect1.x)), rsqrt(abs(opvect1.y)), rsqrt(abs(opvect1.z)), rsqrt(abs(opvect1.w))));
        LightDiffuse[2] = (float4((opvect1.x * opvect2.x), (opvect1.y * opvect2.y), (opvect1.z * opvect2.z), (opvect1.w * opvect2.w)));
        LightDiffuse[3] = (float4((opvect1.x + opvect2.x), (opvect1.y + opvect2.y), (opvect1.z + opvect2.z), (opvect1.w + opvect2.w)));
        LightDiffuse[4] = (float4((opvect1.x < opvect2.x ? 1.0 : 0.0), (opvect1.y < opvect2.y ? 1.0 : 0.0), (opvect1.z < opvect2.z ? 1.0 : 0.0), (opvect1.w < opvect2.w ? 1.0 : 0.0)));
        LightDiffuse[5] = (float4((opvect1.x >= opvect2.x ? 1.0 : 0.0), (opvect1.y >= opvect2.y ? 1.0 : 0.0), (opvect1.z >= opvect2.z ? 1.0 : 0.0), (opvect1.w >= opvect2.w ? 1.0 : 0.0)));
        LightDiffuse[6] = (float4((-opvect1.x), (-opvect1.y), (-opvect1.z), (-opvect1.w)));
        LightDiffuse[7] = (float4((1.0 / opvect1.x), (1.0 / opvect1.y), (1.0 / opvect1.z), (1.0 / opvect1.w)));
        LightAmbient[0] = (float4(frac(opvect1.x), frac(opvect1.y), frac(opvect1.z), frac(opvect1.w)));
        LightAmbient[1] = (float4(min(opvect1.x, opvect2.x), min(opvect1.y, opvect2.y), min(opvect1.z, opvect2.z), min(opvect1.w, opvect2.w)));
        LightAmbient[2] = (float4(max(opvect1.x, opvect2.x), max(opvect1.y, opvect2.y), max(opvect1.z, opvect2.z), max(opvect1.w, opvect2.w)));
        LightAmbient[3] = (float4(sin(opvect1.x), sin(opvect1.y), sin(opvect1.z), sin(opvect1.w)));
        LightAmbient[4] = (float4(cos(opvect1.x), cos(opvect1.y), cos(opvect1.z), cos(opvect1.w)));
        LightAmbient[5] = (float4((0.01 * (1.0 / opvect1.x)), (0.01 * (1.0 / opvect1.y)), (0.01 * (1.0 / opvect1.z)), (0.01 * (1.0 / opvect1.w))));
        LightAmbient[6] = (float4(0.0, (opvect1.x * opvect2.x + opvect1.y * opvect2.y + opvect1.z * opvect2.z + opvect1.w * opvect2.w), (opvect2.x * opvect2.x + opvect2.y * opvect2.y + opvect2.z * opvect2.z + opvect2.w * opvect2.w), 0.0));
        LightAmbient[7] = (float4(((-opvect3.x) + ((1e-12 * opvect2.x) + opvect1.x)), ((-opvect3.y) + ((1e-12 * opvect2.y) + opvect1.y)), ((-opvect3.z) + ((1e-12 * opvect2.z) + opvect1.z)), ((-opvect3.w) + ((1e-12 * opvect2.w) + opvect1.w))));
        LightSpecular[0] = (float4(((opvect1.x * opvect2.y) + (opvect1.z * opvect2.x)), (opvect1.z * opvect2.x + opvect1.z * opvect2.y + opvect1.x * opvect2.z), (opvect1.z * opvect2.x + opvect1.z * opvect2.x + opvect1.z * opvect2.y + opvect1.x * opvect2.y), 0.0));
        // Not folded into an expression; the program:
        //   g_Selector           c0 3
        //   g_iVect              c10 1
        //   opvect1              c8 1
        //   opvect2              c9 1
        //   expression
        //   dot oc0.x, c8.xyzw, imm[11 + c10.z].xyzw
        //   frc r0.x, c9.y
        //   neg r1.x, r0.x
        //   add r0.x, c9.y, (1)
        //   add r2.x, r0.x, r1.x
        //   dot oc0.y, c10.xyzw, imm[11 + r2.x].xyzw
        //   add oc0.z, c[4 + c10.w].x, c[7 + c10.w].y
        //   add oc0.w, c[0 + c10.x].y, c[0 + c10.w].x
        LightSpecular[1] = float4(0.0, 0.0, 0.0, 0.0);
        // Not folded into an expression; the program:
        //   g_iVect              c11 1
        //   m4x4                 c6 4
        //   ts3                  c0 6
        //   vec3                 c10 1
        //   expression
        //   dot r0.x, c6.xyzw, imm[15 + c11.z].xyzw
        //   dot r0.y, c7.xyzw, imm[15 + c11.z].xyzw
        //   dot r0.z, c8.xyzw, imm[15 + c11.z].xyzw
        //   dot r0.w, c9.xyzw, imm[15 + c11.z].xyzw
        //   add r1.x, c11.w, c11.w
        //   dot r2.x, c6.xyzw, imm[12 + r1.x].xyzw
        //   dot r2.y, c7.xyzw, imm[12 + r1.x].xyzw
        //   dot r2.z, c8.xyzw, imm[12 + r1.x].xyzw
        //   dot r2.w, c9.xyzw, imm[12 + r1.x].xyzw
        //   dot oc0.x, r0.xyzw, r2.xyzw
        //   dot oc0.z, c10.xyz, imm[12 + c11.z].xyz
        //   d3ds_dotswiz oc0.w, (1), (2), (3), imm[12 + c11.w].x, imm[12 + c11.w].y, imm[12 + c11.w].z
        //   mul r0.x, c11.x, (3)
        //   mov oc0.y, c[1 + r0.x].x
        LightSpecular[2] = float4(0.0, 0.0, 0.0, 0.0);
        FogEnable = TRUE;
        // Not folded into an expression; the program:
        //   ts2                  c0 2
        //   expression
        //   mov oc0.x, c1.x
        FogDensity = 0.0;
        // Not folded into an expression; the program:
        //   ts2                  c0 5
        //   expression
        //   mov oc0.x, c4.x
        FogStart = 0.0;
        // Not folded into an expression; the program:
        //   ts3                  c0 2
        //   expression
        //   mov oc0.x, c1.x
        PointScale_A = 0.0;
        // Not folded into an expression; the program:
        //   ts3                  c0 5
        //   expression
        //   mov oc0.x, c4.x
        PointScale_B = 0.0;
    }
    pass p1
    {
        VertexShader = (vs_arr[g_iVect.z]);
    }
}

