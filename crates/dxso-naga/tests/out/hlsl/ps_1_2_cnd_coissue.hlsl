struct FragmentOutput {
    float4 r0_color0_ : SV_Target0;
};

struct Constants {
    float4 c[224];
};

static const float4 c3_ = float4(0.5, 0.5, 0.5, 0.0);
static const float4 c0_ = float4(1.0, 0.0, 0.0, 0.0);

cbuffer constants : register(b0, space1) { Constants constants; }

struct FragmentInput_main {
    float4 t0_texcoord0_1 : LOC2;
};

FragmentOutput ConstructFragmentOutput(float4 arg0) {
    FragmentOutput ret = (FragmentOutput)0;
    ret.r0_color0_ = arg0;
    return ret;
}

FragmentOutput main(FragmentInput_main fragmentinput_main)
{
    float4 t0_texcoord0_ = fragmentinput_main.t0_texcoord0_1;
    float4 _e8 = ((bool4(false, false, false, true) ? (1.0).xxxx : saturate(t0_texcoord0_)) - c3_);
    float4 _e18 = constants.c[1];
    float4 _e20 = clamp(_e18, (-1.0).xxxx, (1.0).xxxx);
    float4 _e22 = constants.c[2];
    const FragmentOutput fragmentoutput = ConstructFragmentOutput(float4(_e20.x, _e20.y, _e20.z, (dot(_e8.xyz, (c0_ + c0_).xyz)).xxxx.w));
    return fragmentoutput;
}
