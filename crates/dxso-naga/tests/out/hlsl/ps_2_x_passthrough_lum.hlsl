struct FragmentOutput {
    float4 oC0_color0_ : SV_Target0;
};

static const float4 c0_ = float4(1.0, 0.0, 0.0, 0.0);

Texture2D<float4> texture0_ : register(t0, space1);
SamplerState nagaSamplerHeap[2048]: register(s0, space0);
SamplerComparisonState nagaComparisonSamplerHeap[2048]: register(s0, space1);
StructuredBuffer<uint> nagaGroup1SamplerIndexArray : register(t1, space255);
static const SamplerState sampler0_ = nagaSamplerHeap[nagaGroup1SamplerIndexArray[0]];

struct FragmentInput_main {
    float4 t0_texcoord0_1 : LOC2;
};

FragmentOutput ConstructFragmentOutput(float4 arg0) {
    FragmentOutput ret = (FragmentOutput)0;
    ret.oC0_color0_ = arg0;
    return ret;
}

FragmentOutput main(FragmentInput_main fragmentinput_main)
{
    float4 t0_texcoord0_ = fragmentinput_main.t0_texcoord0_1;
    float4 _e4 = texture0_.Sample(sampler0_, t0_texcoord0_.xy);
    const FragmentOutput fragmentoutput = ConstructFragmentOutput(((_e4.xxxx * c0_.xxxy) + c0_.yyyx));
    return fragmentoutput;
}
