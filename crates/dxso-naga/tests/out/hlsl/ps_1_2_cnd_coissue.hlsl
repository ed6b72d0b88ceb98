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
    float4 _e6 = (bool4(false, false, false, true) ? (1.0).xxxx : saturate(t0_texcoord0_));
    float4 _e13 = (((_e6 == _e6) ? clamp(_e6, (-1.0).xxxx, (1.0).xxxx) : (0.0).xxxx) - c3_);
    float4 _e16 = ((_e13 == _e13) ? clamp(_e13, (-1.0).xxxx, (1.0).xxxx) : (0.0).xxxx);
    float4 _e18 = (c0_ + c0_);
    float _e24 = dot(_e16.xyz, ((_e18 == _e18) ? clamp(_e18, (-1.0).xxxx, (1.0).xxxx) : (0.0).xxxx).xyz);
    float4 _e35 = constants.c[1];
    float4 _e36 = clamp(_e35, (-1.0).xxxx, (1.0).xxxx);
    float4 _e38 = constants.c[2];
    float4 _e45 = ((_e36 == _e36) ? clamp(_e36, (-1.0).xxxx, (1.0).xxxx) : (0.0).xxxx);
    const FragmentOutput fragmentoutput = ConstructFragmentOutput(float4(_e45.x, _e45.y, _e45.z, (((((_e24 == _e24) ? clamp(_e24, -1.0, 1.0) : 0.0)).xxxx.w == (((_e24 == _e24) ? clamp(_e24, -1.0, 1.0) : 0.0)).xxxx.w) ? clamp((((_e24 == _e24) ? clamp(_e24, -1.0, 1.0) : 0.0)).xxxx.w, -1.0, 1.0) : 0.0)));
    return fragmentoutput;
}
