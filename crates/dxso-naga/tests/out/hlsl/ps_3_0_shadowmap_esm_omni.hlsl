struct FragmentOutput {
    float4 oC0_color0_ : SV_Target0;
};

struct Constants {
    float4 c[224];
};

static const float4 c16_ = float4(0.0, 1.0, -1.0, 0.3);
static const float4 c17_ = float4(5.9604645e-8, 1.5258789e-5, 0.00390625, 1.0);
static const float4 c18_ = float4(6.2831855, -3.1415927, -0.001, -90.0);
static const float4 c20_ = float4(0.125, 1.7673015e-5, 0.45454547, 0.0);

cbuffer constants : register(b0, space1) { Constants constants; }
Texture2D<float4> texture4_ : register(t4, space1);
SamplerState nagaSamplerHeap[2048]: register(s0, space0);
SamplerComparisonState nagaComparisonSamplerHeap[2048]: register(s0, space1);
StructuredBuffer<uint> nagaGroup1SamplerIndexArray : register(t1, space255);
static const SamplerState sampler4_ = nagaSamplerHeap[nagaGroup1SamplerIndexArray[4]];

struct FragmentInput_main {
    float4 v2_texcoord1_1 : LOC3;
    float4 v3_texcoord2_1 : LOC4;
    float4 v4_texcoord3_1 : LOC5;
    float4 v5_texcoord4_1 : LOC6;
    float4 v6_texcoord5_1 : LOC7;
    float4 v1_texcoord7_1 : LOC9;
    float4 v0_normal0_1 : LOC22;
};

FragmentOutput ConstructFragmentOutput(float4 arg0) {
    FragmentOutput ret = (FragmentOutput)0;
    ret.oC0_color0_ = arg0;
    return ret;
}

FragmentOutput main(FragmentInput_main fragmentinput_main)
{
    float4 v2_texcoord1_ = fragmentinput_main.v2_texcoord1_1;
    float4 v3_texcoord2_ = fragmentinput_main.v3_texcoord2_1;
    float4 v4_texcoord3_ = fragmentinput_main.v4_texcoord3_1;
    float4 v5_texcoord4_ = fragmentinput_main.v5_texcoord4_1;
    float4 v6_texcoord5_ = fragmentinput_main.v6_texcoord5_1;
    float4 v1_texcoord7_ = fragmentinput_main.v1_texcoord7_1;
    float4 v0_normal0_ = fragmentinput_main.v0_normal0_1;
    float4 r0_ = (float4)0;
    float4 r1_ = (float4)0;
    float4 r2_ = (float4)0;
    float4 r4_ = (float4)0;
    float4 r3_ = (float4)0;
    float4 oC0_ = (float4)0;

    float4 _e10 = constants.c[14];
    float _e13 = dot(_e10.xyz, v1_texcoord7_.xyz);
    float4 _e15 = constants.c[15];
    float _e18 = dot(_e15.xyz, v1_texcoord7_.xyz);
    float _e20 = ((_e13 >= _e18) ? _e13 : _e18);
    float4 _e22 = constants.c[12];
    float _e25 = dot(_e22.xyz, v1_texcoord7_.xyz);
    float4 _e27 = constants.c[13];
    float _e30 = dot(_e27.xyz, v1_texcoord7_.xyz);
    float _e32 = ((_e25 >= _e30) ? _e25 : _e30);
    float _e34 = ((_e32 >= _e20) ? _e32 : _e20);
    r0_ = float4(_e13, _e25, _e30, _e34);
    r1_.x = _e20;
    r1_.y = _e32;
    if ((_e25 == _e34)) {
        float4 _e45 = float4(_e13, (1.0 / v2_texcoord1_.w), _e30, _e34);
        float4 _e47 = (_e45.yyyy * v2_texcoord1_);
        float4 _e50 = r1_;
        float4 _e53 = float4(_e47.x, _e47.y, _e50.z, _e50.w);
        float4 _e62 = (bool4(true, true, false, false) ? ((-(_e53) >= (0.0).xxxx) ? c16_.xxxx : c16_.yyyy) : _e53);
        float4 _e70 = ((v2_texcoord1_.xxyw * _e45.yyyy) + c16_.zzzz);
        float4 _e74 = float4((_e62.y * _e62.x), _e70.y, _e70.z, _e62.w);
        float4 _e80 = (bool4(false, true, true, false) ? ((_e74 >= (0.0).xxxx) ? c16_.xxxx : c16_.yyyy) : _e74);
        float _e85 = ((_e80.z * _e80.y) * _e80.x);
        float4 _e89 = float4(_e80.x, (_e85 * 0.3), _e80.z, _e80.w);
        r0_.y = _e85;
        r1_ = (bool4(true, false, true, false) ? -(_e89.yyyy) : _e89);
        r2_ = v2_texcoord1_;
    } else {
        float4 _e96 = r0_;
        float4 _e100 = (-(_e96.wwww) + _e96.xzzw);
        float _e102 = (1.0 / v4_texcoord3_.w);
        float4 _e114 = ((((v4_texcoord3_ * float4(_e100.x, _e100.y, _e102, _e100.w).zzzz) + c16_.zzzz) >= (0.0).xxxx) ? c16_.xxxx : c16_.yyyy);
        float _e117 = (_e114.y * _e114.x);
        float4 _e120 = r1_;
        float4 _e124 = float4(_e120.x, _e120.y, _e120.z, (1.0 / v5_texcoord4_.w));
        float4 _e132 = ((((v5_texcoord4_ * _e124.wwww) + c16_.zzzz) >= (0.0).xxxx) ? c16_.xxxx : c16_.yyyy);
        float4 _e141 = (float4(_e100.x, _e100.y, _e102, _e117).zzzz * v4_texcoord3_.xxyw);
        float4 _e145 = float4((_e132.y * _e132.x), _e141.y, _e141.z, _e132.w);
        float4 _e151 = (bool4(false, true, true, false) ? ((-(_e145) >= (0.0).xxxx) ? c16_.xxxx : c16_.yyyy) : _e145);
        float4 _e159 = (_e124.wwww * v5_texcoord4_.xyxy);
        float4 _e164 = float4(_e100.x, _e100.y, _e159.z, _e159.w);
        float4 _e171 = (bool4(false, false, true, true) ? ((-(_e164) >= (0.0).xxxx) ? c16_.xxxx : c16_.yyyy) : _e164);
        float _e176 = (_e151.x * (_e171.w * _e171.z));
        float4 _e179 = r4_;
        float4 _e183 = float4(_e179.x, _e179.y, ((_e117 * (_e151.z * _e151.y)) * 0.3), _e179.w);
        float4 _e186 = (bool4(true, true, false, false) ? -(_e183.zzzz) : _e183);
        float4 _e188 = float4((_e176 * 0.3), _e151.y, _e151.z, _e151.w);
        float _e201 = (1.0 / v3_texcoord2_.w);
        float4 _e207 = (bool4(true, true, false, false) ? (float4(_e171.x, _e171.y, _e201, _e171.w).zzzz * v3_texcoord2_) : _e186);
        float4 _e213 = (bool4(true, true, false, false) ? ((-(_e207) >= (0.0).xxxx) ? c16_.xxxx : c16_.yyyy) : _e207);
        float _e216 = (_e213.y * _e213.x);
        float4 _e224 = (bool4(true, true, false, false) ? ((v3_texcoord2_ * float4(_e171.x, _e171.y, _e201, _e216).zzzz) + c16_.zzzz) : _e213);
        float4 _e229 = (bool4(true, true, false, false) ? ((_e224 >= (0.0).xxxx) ? c16_.xxxx : c16_.yyyy) : _e224);
        float4 _e236 = float4(_e171.x, _e171.y, ((_e229.y * _e229.x) * _e216), _e216);
        float4 _e240 = (bool4(true, true, false, false) ? (_e236.zzzz * c16_.wwww) : _e229);
        float4 _e248 = float4(_e240.x, _e240.y, -(_e240.y), _e240.w);
        float4 _e257 = ((-(abs(_e236.xxxx)) >= (0.0).xxxx) ? v4_texcoord3_ : v5_texcoord4_);
        r0_ = _e236;
        r1_ = (bool4(true, true, true, false) ? ((-(abs(_e236.yyyy)) >= (0.0).xxxx) ? _e248 : ((-(abs(float4(_e171.x, _e171.y, _e176, _e171.w).xxxx)) >= (0.0).xxxx) ? _e186 : (bool4(false, true, true, false) ? -(_e188.xxxx) : _e188))) : _e124);
        r2_ = ((-(abs(_e236.yyyy)) >= (0.0).xxxx) ? v3_texcoord2_ : _e257);
        r3_ = _e257;
        r4_ = _e248;
    }
    float4 _e264 = r2_;
    float4 _e268 = r0_;
    float4 _e272 = float4((1.0 / _e264.w), _e268.y, _e268.z, _e268.w);
    float4 _e278 = (bool4(false, true, true, false) ? ((_e264.xxyw * -(_e272.xxxx)) + c16_.yyyy) : _e272);
    float4 _e283 = (bool4(false, true, true, false) ? ((_e278 >= (0.0).xxxx) ? c16_.xxxx : c16_.yyyy) : _e278);
    float _e288 = (dot(_e283.yz, _e283.yz) + 0.0);
    float4 _e291 = constants.c[0];
    float _e294 = (_e264.z + -(_e291.x));
    float _e297 = (_e291.z * _e291.w);
    float4 _e302 = (bool4(true, true, false, false) ? (float4(_e283.x, _e288, _e294, _e297).xxxx * _e264) : _e264);
    float4 _e306 = texture4_.Sample(sampler4_, _e302.xy);
    float _e311 = ((-(_e294) + dot(_e306, c17_)) * _e297);
    float4 _e316 = ((_e302.xyxy >= (0.0).xxxx) ? c16_.xxxx : c16_.yyyy);
    float4 _e319 = float4(_e311, _e288, _e316.z, _e316.w);
    float4 _e324 = float4(_e311, _e288, (dot(_e319.zw, _e319.zw) + 0.0), _e316.w);
    float4 _e330 = (bool4(false, true, true, false) ? ((-(_e324) >= (0.0).xxxx) ? c16_.xxxx : c16_.yyyy) : _e324);
    float _e337 = exp2((_e330.x * 1.442695));
    float _e343 = ((-((_e330.z + _e330.y)) >= 0.0) ? ((_e337 == _e337) ? saturate(_e337) : 0.0) : 1.0);
    float4 _e345 = constants.c[11];
    float _e350 = ((_e345.w * 0.0027777778) + 0.5);
    float _e356 = (((_e350 - floor(_e350)) * 6.2831855) + -3.1415927);
    float _e357 = cos(_e356);
    float _e363 = rsqrt(abs(dot(v6_texcoord5_.xyz, v6_texcoord5_.xyz)));
    float4 _e365 = constants.c[6];
    float _e367 = abs(_e365.w);
    float4 _e371 = (_e365.xxyz + -(v6_texcoord5_.xxyz));
    float4 _e375 = float4(_e357, _e371.y, _e371.z, _e371.w);
    float _e380 = rsqrt(abs(dot(_e375.yzw, _e375.yzw)));
    float4 _e381 = r1_;
    float4 _e389 = (bool4(true, true, true, false) ? (float4(_e381.x, _e381.y, _e381.z, _e380).wwww * _e375.yzww) : _e306);
    float _e390 = (1.0 / _e380);
    float4 _e401 = constants.c[10];
    float3 _e402 = _e401.xyz;
    float _e403 = dot(_e402, _e402);
    float4 _e407 = (_e401 * ((_e403 == 0.0) ? 0.0 : rsqrt(_e403)));
    float4 _e413 = r4_;
    float _e417 = dot(-(_e389.xyz), float4(_e407.x, _e407.y, _e407.z, _e413.w).xyz);
    float4 _e425 = (float4(_e343, _e363, _e367, _e345.w).wwww + c18_);
    float _e432 = ((((_e425.z < _e401.w) ? _e425.z : _e401.w) * 0.0027777778) + 0.5);
    float _e436 = (((_e432 - floor(_e432)) * 6.2831855) + -3.1415927);
    float _e442 = ((1.0 / (-(_e357) + cos(_e436))) * (-(_e357) + ((_e417 >= 0.0) ? _e417 : 0.0)));
    float _e447 = ((_e425.w >= 0.0) ? 1.0 : ((_e442 == _e442) ? saturate(_e442) : 0.0));
    float _e448 = (_e447 * (1.0 / (((_e390 * _e390) * _e345.z) + ((_e345.y * _e390) + _e345.x))));
    float3 _e449 = _e365.xyz;
    float _e450 = dot(_e449, _e449);
    float4 _e454 = (_e365 * ((_e450 == 0.0) ? 0.0 : rsqrt(_e450)));
    float4 _e459 = float4(_e454.x, _e454.y, _e454.z, _e413.w);
    float4 _e460 = -(_e459);
    float4 _e473 = ((-(float4(_e343, _e363, _e367, _e447).zzzz) >= (0.0).xxxx) ? float4(_e460.x, _e460.y, _e460.z, 1.0) : float4(_e389.x, _e389.y, _e389.z, _e448));
    float _e476 = dot(v0_normal0_.xyz, _e473.xyz);
    float4 _e478 = float4(_e343, _e363, (_e476 + _e476), _e447);
    float4 _e483 = (bool4(true, true, true, false) ? ((_e478.zzzz * v0_normal0_) + -(_e473)) : _e473);
    float _e490 = dot(_e483.xyz, -((bool4(true, true, true, false) ? (_e478.yyyy * v6_texcoord5_) : _e459).xyz));
    float _e492 = ((_e490 >= 0.0) ? _e490 : 0.0);
    float4 _e494 = constants.c[5];
    float4 _e510 = float4(_e476, (((2.0 + _e494.w) * (((_e494.w == 0.0) ? 1.0 : pow(abs(_e492), _e494.w)) * ((_e476 >= 0.0) ? 1.0 : 0.0))) * 0.125), _e389.z, _e448).xyxy;
    float4 _e511 = c16_.xxxx;
    float4 _e513 = ((_e510 >= _e511) ? _e510 : _e511);
    float4 _e517 = float4(_e343, _e363, _e513.z, _e513.w);
    float4 _e519 = (bool4(false, false, true, true) ? (_e483.wwww * _e517) : _e517);
    float4 _e521 = constants.c[9];
    float4 _e528 = constants.c[8];
    float4 _e532 = constants.c[4];
    float4 _e538 = constants.c[2];
    float4 _e544 = (bool4(true, false, true, true) ? (_e519.xxxx * (((((_e528.wwww * _e528) * _e532) * _e519.zzzz) + (_e519.wwww * ((_e521.wwww * _e521) * _e494))) * _e538).xyyz) : _e519);
    float4 _e546 = constants.c[7];
    float4 _e550 = constants.c[3];
    float4 _e551 = ((_e546.wwww * _e546) * _e550);
    float4 _e556 = (bool4(true, false, true, true) ? ((_e551.xyyz * _e538.xyyz) + _e544) : _e544);
    float4 _e575 = (bool4(true, false, true, true) ? (float4(log2(abs(abs(_e556.x))), log2(abs(abs(_e556.z))), log2(abs(abs(_e556.w))), _e551.w).xyyz * c20_.zzzz) : _e556);
    float4 _e588 = constants.c[1];
    float4 _e595 = (bool4(true, false, true, true) ? ((float4(_e381.x, _e381.y, _e381.z, _e492).xyyz * _e588.yyyy) + float4(exp2(_e575.x), exp2(_e575.z), exp2(_e575.w), _e551.w).xyyz) : _e575);
    float _e597 = (1.0 / _e595.y);
    float4 _e606 = float4(_e595.x, (1.0 / exp2(((_e597 * _e597) * 1.7673015e-5))), _e595.z, _e595.w);
    float4 _e609 = (_e606.xzww * _e606.yyyy);
    const FragmentOutput fragmentoutput = ConstructFragmentOutput(float4(_e609.x, _e609.y, _e609.z, 1.0));
    return fragmentoutput;
}
