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
    float _e65 = abs(((_e59 >= 0.0) ? _e59 : 0.0));
    float _e91 = (_e52.z + 1.0);
    float _e96 = (1.0 / rsqrt(abs(((_e91 * _e91) + ((_e52.x * _e52.x) + (_e52.y * _e52.y))))));
    float _e98 = (1.0 / (_e96 + _e96));
    float4 _e105 = r3_;
    float4 _e112 = texture1_.Sample(sampler1_, float4(((_e52.x * _e98) + 0.5), ((_e52.y * _e98) + 0.5), _e105.z, _e105.w).xy);
    float4 _e116 = texture0_.Sample(sampler0_, t0_texcoord0_.xy);
    float4 _e118 = constants.c[4];
    float4 _e124 = float4(_e34.x, _e34.y, _e34.z, ((((_e63.y == 0.0) || (_e65 == 1.0)) ? 1.0 : ((!((_e65 == _e65)) || !((_e63.y == _e63.y))) ? (_e65 + _e63.y) : ((_e65 == 0.0) ? ((_e63.y < 0.0) ? (1.0 / _e65) : _e65) : pow(_e65, _e63.y)))) * _e63.x));
    float4 _e128 = constants.c[5];
    float4 _e134 = constants.c[6];
    float4 _e140 = float4(dot(-(_e118.xyz), _e124.xyz), dot(-(_e128.xyz), _e124.xyz), dot(-(_e134.xyz), _e124.xyz), _e105.w);
    float4 _e147 = (bool4(true, true, true, false) ? ((_e140 >= (0.0).xxxx) ? c12_.xxxx : c12_.yyyy) : _e124);
    float4 _e149 = (bool4(true, true, true, false) ? (_e140 * _e147) : _e147);
    float4 _e152 = constants.c[8];
    float4 _e156 = constants.c[7];
    float4 _e161 = constants.c[9];
    float4 _e164 = (bool4(true, true, true, false) ? ((_e149.zzzz * _e161) + ((_e149.xxxx * _e156) + (_e149.yyyy * _e152))) : _e149);
    float4 _e166 = constants.c[2];
    float4 _e168 = constants.c[3];
    float4 _e171 = (bool4(true, true, true, false) ? ((_e164 * _e166) + _e168) : _e164);
    float4 _e172 = (_e116 * t3_texcoord3_);
    float4 _e174 = (bool4(true, true, true, false) ? (_e171 * _e172) : _e171);
    float4 _e179 = (bool4(true, true, true, false) ? ((_e112 * _e172.wwww) + -(_e174)) : _e112);
    float4 _e187 = float4(_e179.x, _e179.y, _e179.z, (_e179.w * _e172.w));
    float4 _e191 = constants.c[0];
    float4 _e194 = ((_e191 * _e187.wwww) + ((_e174.wwww * _e187) + _e174));
    float4 _e196 = constants.c[11];
    const FragmentOutput fragmentoutput = ConstructFragmentOutput((bool4(true, true, true, false) ? ((t1_texcoord1_.wwww * ((_e196 * _e172.wwww) + -(_e194))) + _e194) : _e172));
    return fragmentoutput;
}
