struct FragmentOutput {
    float4 oC0_color0_ : SV_Target0;
};

struct Constants {
    float4 c[224];
};

static const float4 c12_ = float4(1.0, 0.0, 0.5, 0.0);

cbuffer constants : register(b0, space1) { Constants constants; }
Texture2D<float4> texture1_ : register(t1, space1);
SamplerState nagaSamplerHeap[2048]: register(s0, space0);
SamplerComparisonState nagaComparisonSamplerHeap[2048]: register(s0, space1);
StructuredBuffer<uint> nagaGroup1SamplerIndexArray : register(t1, space255);
static const SamplerState sampler1_ = nagaSamplerHeap[nagaGroup1SamplerIndexArray[1]];
Texture2D<float4> texture0_ : register(t0, space1);
static const SamplerState sampler0_ = nagaSamplerHeap[nagaGroup1SamplerIndexArray[0]];

struct FragmentInput_main {
    float4 t0_texcoord0_1 : LOC2;
    float4 t1_texcoord1_1 : LOC3;
    float4 t2_texcoord2_1 : LOC4;
    float4 t3_texcoord3_1 : LOC5;
};

FragmentOutput ConstructFragmentOutput(float4 arg0) {
    FragmentOutput ret = (FragmentOutput)0;
    ret.oC0_color0_ = arg0;
    return ret;
}

FragmentOutput main(FragmentInput_main fragmentinput_main)
{
    float4 t0_texcoord0_ = fragmentinput_main.t0_texcoord0_1;
    float4 t1_texcoord1_ = fragmentinput_main.t1_texcoord1_1;
    float4 t2_texcoord2_ = fragmentinput_main.t2_texcoord2_1;
    float4 t3_texcoord3_ = fragmentinput_main.t3_texcoord3_1;
    float4 r0_ = (float4)0;
    float4 r1_ = (float4)0;
    float4 r3_ = (float4)0;

    float4 _e8 = constants.c[10];
    float4 _e9 = (-(t1_texcoord1_) + _e8);
    float4 _e14 = r0_;
    float4 _e16 = float4(_e9.x, _e9.y, _e9.z, _e14.w);
    float3 _e17 = _e16.xyz;
    float _e18 = dot(_e17, _e17);
    float4 _e23 = (_e16 * ((_e18 == 0.0) ? 0.0 : rsqrt(_e18)));
    float3 _e27 = t2_texcoord2_.xyz;
    float _e28 = dot(_e27, _e27);
    float4 _e34 = (bool4(true, true, true, false) ? (t2_texcoord2_ * ((_e28 == 0.0) ? 0.0 : rsqrt(_e28))) : _e16);
    float4 _e36 = r1_;
    float4 _e38 = float4(_e23.x, _e23.y, _e23.z, _e36.w);
    float _e42 = dot(-(_e38.xyz), _e34.xyz);
    float4 _e47 = float4(_e34.x, _e34.y, _e34.z, (_e42 + _e42));
    float4 _e52 = ((_e47 * -(_e47.wwww)) + -(_e38));
    float _e59 = (-(abs(dot(_e38.xyz, _e47.xyz))) + 1.0);
    float4 _e63 = constants.c[1];
    float _e77 = (_e52.z + 1.0);
    float _e82 = (1.0 / rsqrt(abs(((_e77 * _e77) + ((_e52.x * _e52.x) + (_e52.y * _e52.y))))));
    float _e84 = (1.0 / (_e82 + _e82));
    float4 _e91 = r3_;
    float4 _e98 = texture1_.Sample(sampler1_, float4(((_e52.x * _e84) + 0.5), ((_e52.y * _e84) + 0.5), _e91.z, _e91.w).xy);
    float4 _e102 = texture0_.Sample(sampler0_, t0_texcoord0_.xy);
    float4 _e104 = constants.c[4];
    float4 _e110 = float4(_e34.x, _e34.y, _e34.z, (((_e63.y == 0.0) ? 1.0 : pow(abs(((_e59 >= 0.0) ? _e59 : 0.0)), _e63.y)) * _e63.x));
    float4 _e114 = constants.c[5];
    float4 _e120 = constants.c[6];
    float4 _e126 = float4(dot(-(_e104.xyz), _e110.xyz), dot(-(_e114.xyz), _e110.xyz), dot(-(_e120.xyz), _e110.xyz), _e91.w);
    float4 _e133 = (bool4(true, true, true, false) ? ((_e126 >= (0.0).xxxx) ? c12_.xxxx : c12_.yyyy) : _e110);
    float4 _e135 = (bool4(true, true, true, false) ? (_e126 * _e133) : _e133);
    float4 _e138 = constants.c[8];
    float4 _e142 = constants.c[7];
    float4 _e147 = constants.c[9];
    float4 _e150 = (bool4(true, true, true, false) ? ((_e135.zzzz * _e147) + ((_e135.xxxx * _e142) + (_e135.yyyy * _e138))) : _e135);
    float4 _e152 = constants.c[2];
    float4 _e154 = constants.c[3];
    float4 _e157 = (bool4(true, true, true, false) ? ((_e150 * _e152) + _e154) : _e150);
    float4 _e158 = (_e102 * t3_texcoord3_);
    float4 _e160 = (bool4(true, true, true, false) ? (_e157 * _e158) : _e157);
    float4 _e165 = (bool4(true, true, true, false) ? ((_e98 * _e158.wwww) + -(_e160)) : _e98);
    float4 _e173 = float4(_e165.x, _e165.y, _e165.z, (_e165.w * _e158.w));
    float4 _e177 = constants.c[0];
    float4 _e180 = ((_e177 * _e173.wwww) + ((_e160.wwww * _e173) + _e160));
    float4 _e182 = constants.c[11];
    const FragmentOutput fragmentoutput = ConstructFragmentOutput((bool4(true, true, true, false) ? ((t1_texcoord1_.wwww * ((_e182 * _e158.wwww) + -(_e180))) + _e180) : _e158));
    return fragmentoutput;
}
