struct FragmentOutput {
    float4 oC0_color0_ : SV_Target0;
};

Texture2D<float4> texture0_ : register(t0, space1);
SamplerState nagaSamplerHeap[2048]: register(s0, space0);
SamplerComparisonState nagaComparisonSamplerHeap[2048]: register(s0, space1);
StructuredBuffer<uint> nagaGroup1SamplerIndexArray : register(t1, space255);
static const SamplerState sampler0_ = nagaSamplerHeap[nagaGroup1SamplerIndexArray[0]];

struct FragmentInput_main {
    float4 v1_color0_1 : LOC0;
    float4 v0_texcoord0_1 : LOC2;
};

FragmentOutput ConstructFragmentOutput(float4 arg0) {
    FragmentOutput ret = (FragmentOutput)0;
    ret.oC0_color0_ = arg0;
    return ret;
}

FragmentOutput main(FragmentInput_main fragmentinput_main)
{
    float4 v1_color0_ = fragmentinput_main.v1_color0_1;
    float4 v0_texcoord0_ = fragmentinput_main.v0_texcoord0_1;
    bool killed = (bool)0;
    float4 r0_ = (float4)0;
    float4 r1_ = (float4)0;
    float4 r2_ = (float4)0;

    killed = false;
    float4 _e7 = texture0_.Sample(sampler0_, v0_texcoord0_.xy);
    float4 _e9 = ddx_fine(v0_texcoord0_.xyxy);
    float4 _e11 = ddy_fine(v0_texcoord0_.xyxy);
    r0_ = _e7;
    if ((_e7.w > 0.5)) {
        r0_ = (bool4(true, true, false, false) ? (_e9 + _e11) : _e7);
        r1_ = _e9;
        r2_ = _e11;
    } else {
        bool _e24 = killed;
        killed = (_e24 || any((v1_color0_ < (0.0).xxxx)));
    }
    float4 _e26 = r0_;
    bool _e28 = killed;
    if (_e28) {
        discard;
    }
    const FragmentOutput fragmentoutput = ConstructFragmentOutput((_e26 * v1_color0_));
    return fragmentoutput;
}
