struct FragmentOutput {
    float4 r0_color0_ : SV_Target0;
};

struct Constants {
    float4 c[224];
};

cbuffer constants : register(b0, space1) { Constants constants; }
Texture2D<float4> texture0_ : register(t1, space1);
SamplerState nagaSamplerHeap[2048]: register(s0, space0);
SamplerComparisonState nagaComparisonSamplerHeap[2048]: register(s0, space1);
StructuredBuffer<uint> nagaGroup1SamplerIndexArray : register(t1, space255);
static const SamplerState sampler0_ = nagaSamplerHeap[nagaGroup1SamplerIndexArray[2]];
Texture2D<float4> texture1_ : register(t3, space1);
static const SamplerState sampler1_ = nagaSamplerHeap[nagaGroup1SamplerIndexArray[4]];

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
    float4 _e18 = ((_e8.xxxx * _e14.xxxx) + _e14.yyyy);
    float4 _e26 = (bool4(true, true, false, false) ? ((_e18 == _e18) ? clamp(_e18, (-8.0).xxxx, (8.0).xxxx) : (0.0).xxxx) : _e8);
    float4 _e30 = texture1_.Sample(sampler1_, _e26.xy);
    float4 _e34 = constants.c[6];
    float4 _e35 = clamp(_e34, (-1.0).xxxx, (1.0).xxxx);
    float _e37 = (-(v0_color0_.w) + _e35.w);
    float _e46 = dot(_e30.xyz, _e35.xyz);
    float _e50 = (((_e46 == _e46) ? clamp(_e46, -8.0, 8.0) : 0.0) * v0_color0_.w);
    float4 _e57 = float4(_e26.x, _e26.y, _e26.z, ((_e37 == _e37) ? clamp(_e37, -8.0, 8.0) : 0.0));
    float4 _e60 = r2_;
    float4 _e67 = ((_e57.wwww * _e30) + float4(_e60.x, _e60.y, _e60.z, ((_e50 == _e50) ? clamp(_e50, -8.0, 8.0) : 0.0)).wwww);
    float4 _e72 = (bool4(true, true, true, false) ? ((_e67 == _e67) ? clamp(_e67, (-8.0).xxxx, (8.0).xxxx) : (0.0).xxxx) : _e57);
    float4 _e75 = ((_e72 * v1_color1_.wwww) + v1_color1_);
    float4 _e80 = (bool4(true, true, true, false) ? ((_e75 == _e75) ? clamp(_e75, (-8.0).xxxx, (8.0).xxxx) : (0.0).xxxx) : _e72);
    float4 _e87 = float4(_e80.x, _e80.y, _e80.z, ((_e30.w == _e30.w) ? clamp(_e30.w, -8.0, 8.0) : 0.0));
    float4 _e88 = (_e87 * v0_color0_);
    const FragmentOutput fragmentoutput = ConstructFragmentOutput((bool4(true, true, true, false) ? ((_e88 == _e88) ? clamp(_e88, (-8.0).xxxx, (8.0).xxxx) : (0.0).xxxx) : _e87));
    return fragmentoutput;
}
