struct FragmentOutput {
    float4 r0_color0_ : SV_Target0;
};

struct Constants {
    float4 c[224];
};

cbuffer constants : register(b0, space1) { Constants constants; }
Texture2D<float4> texture0_ : register(t0, space1);
SamplerState nagaSamplerHeap[2048]: register(s0, space0);
SamplerComparisonState nagaComparisonSamplerHeap[2048]: register(s0, space1);
StructuredBuffer<uint> nagaGroup1SamplerIndexArray : register(t1, space255);
static const SamplerState sampler0_ = nagaSamplerHeap[nagaGroup1SamplerIndexArray[0]];
Texture2D<float4> texture1_ : register(t1, space1);
static const SamplerState sampler1_ = nagaSamplerHeap[nagaGroup1SamplerIndexArray[1]];

struct FragmentInput_main {
    float4 v0_color0_1 : LOC0;
    float4 v1_color1_1 : LOC1;
    float4 t0_texcoord0_1 : LOC2;
};

FragmentOutput ConstructFragmentOutput(float4 arg0) {
    FragmentOutput ret = (FragmentOutput)0;
    ret.r0_color0_ = arg0;
    return ret;
}

FragmentOutput main(FragmentInput_main fragmentinput_main)
{
    float4 v0_color0_ = fragmentinput_main.v0_color0_1;
    float4 v1_color1_ = fragmentinput_main.v1_color1_1;
    float4 t0_texcoord0_ = fragmentinput_main.t0_texcoord0_1;
    float4 r2_ = (float4)0;

    float4 _e8 = texture0_.Sample(sampler0_, t0_texcoord0_.xy);
    float4 _e11 = constants.c[2];
    float4 _e14 = clamp(_e11, (-1.0).xxxx, (1.0).xxxx);
    float4 _e20 = (bool4(true, true, false, false) ? ((_e8.xxxx * _e14.xxxx) + _e14.yyyy) : _e8);
    float4 _e24 = texture1_.Sample(sampler1_, _e20.xy);
    float4 _e28 = constants.c[6];
    float4 _e29 = clamp(_e28, (-1.0).xxxx, (1.0).xxxx);
    float4 _e39 = float4(_e20.x, _e20.y, _e20.z, (-(v0_color0_.w) + _e29.w));
    float4 _e42 = r2_;
    float4 _e51 = (bool4(true, true, true, false) ? ((_e39.wwww * _e24) + float4(_e42.x, _e42.y, _e42.z, (dot(_e24.xyz, _e29.xyz) * v0_color0_.w)).wwww) : _e39);
    float4 _e56 = (bool4(true, true, true, false) ? ((_e51 * v1_color1_.wwww) + v1_color1_) : _e51);
    float4 _e60 = float4(_e56.x, _e56.y, _e56.z, _e24.w);
    const FragmentOutput fragmentoutput = ConstructFragmentOutput((bool4(true, true, true, false) ? (_e60 * v0_color0_) : _e60));
    return fragmentoutput;
}
