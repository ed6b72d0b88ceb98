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
Texture2D<float4> texture4_ : register(t9, space1);
SamplerState nagaSamplerHeap[2048]: register(s0, space0);
SamplerComparisonState nagaComparisonSamplerHeap[2048]: register(s0, space1);
StructuredBuffer<uint> nagaGroup1SamplerIndexArray : register(t1, space255);
static const SamplerState sampler4_ = nagaSamplerHeap[nagaGroup1SamplerIndexArray[10]];

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
    float _e336 = (_e330.x * 1.442695);
    float _e340 = (!((_e336 == _e336)) ? _e336 : exp2(_e336));
    float _e346 = ((-((_e330.z + _e330.y)) >= 0.0) ? ((_e340 == _e340) ? saturate(_e340) : 0.0) : 1.0);
    float4 _e348 = constants.c[11];
    float _e353 = ((_e348.w * 0.0027777778) + 0.5);
    float _e359 = (((_e353 - floor(_e353)) * 6.2831855) + -3.1415927);
    float _e360 = cos(_e359);
    float _e366 = rsqrt(abs(dot(v6_texcoord5_.xyz, v6_texcoord5_.xyz)));
    float4 _e368 = constants.c[6];
    float _e370 = abs(_e368.w);
    float4 _e374 = (_e368.xxyz + -(v6_texcoord5_.xxyz));
    float4 _e378 = float4(_e360, _e374.y, _e374.z, _e374.w);
    float _e383 = rsqrt(abs(dot(_e378.yzw, _e378.yzw)));
    float4 _e384 = r1_;
    float4 _e392 = (bool4(true, true, true, false) ? (float4(_e384.x, _e384.y, _e384.z, _e383).wwww * _e378.yzww) : _e306);
    float _e393 = (1.0 / _e383);
    float4 _e404 = constants.c[10];
    float3 _e405 = _e404.xyz;
    float _e406 = dot(_e405, _e405);
    float4 _e410 = (_e404 * ((_e406 == 0.0) ? 0.0 : rsqrt(_e406)));
    float4 _e416 = r4_;
    float _e420 = dot(-(_e392.xyz), float4(_e410.x, _e410.y, _e410.z, _e416.w).xyz);
    float4 _e428 = (float4(_e346, _e366, _e370, _e348.w).wwww + c18_);
    float _e435 = ((((_e428.z < _e404.w) ? _e428.z : _e404.w) * 0.0027777778) + 0.5);
    float _e439 = (((_e435 - floor(_e435)) * 6.2831855) + -3.1415927);
    float _e445 = ((1.0 / (-(_e360) + cos(_e439))) * (-(_e360) + ((_e420 >= 0.0) ? _e420 : 0.0)));
    float _e450 = ((_e428.w >= 0.0) ? 1.0 : ((_e445 == _e445) ? saturate(_e445) : 0.0));
    float _e451 = (_e450 * (1.0 / (((_e393 * _e393) * _e348.z) + ((_e348.y * _e393) + _e348.x))));
    float3 _e452 = _e368.xyz;
    float _e453 = dot(_e452, _e452);
    float4 _e457 = (_e368 * ((_e453 == 0.0) ? 0.0 : rsqrt(_e453)));
    float4 _e462 = float4(_e457.x, _e457.y, _e457.z, _e416.w);
    float4 _e463 = -(_e462);
    float4 _e476 = ((-(float4(_e346, _e366, _e370, _e450).zzzz) >= (0.0).xxxx) ? float4(_e463.x, _e463.y, _e463.z, 1.0) : float4(_e392.x, _e392.y, _e392.z, _e451));
    float _e479 = dot(v0_normal0_.xyz, _e476.xyz);
    float4 _e481 = float4(_e346, _e366, (_e479 + _e479), _e450);
    float4 _e486 = (bool4(true, true, true, false) ? ((_e481.zzzz * v0_normal0_) + -(_e476)) : _e476);
    float _e493 = dot(_e486.xyz, -((bool4(true, true, true, false) ? (_e481.yyyy * v6_texcoord5_) : _e462).xyz));
    float _e495 = ((_e493 >= 0.0) ? _e493 : 0.0);
    float4 _e497 = constants.c[5];
    float _e499 = abs(_e495);
    float4 _e527 = float4(_e479, (((2.0 + _e497.w) * ((((_e497.w == 0.0) || (_e499 == 1.0)) ? 1.0 : ((!((_e499 == _e499)) || !((_e497.w == _e497.w))) ? (_e499 + _e497.w) : ((_e499 == 0.0) ? ((_e497.w < 0.0) ? (1.0 / _e499) : _e499) : pow(_e499, _e497.w)))) * ((_e479 >= 0.0) ? 1.0 : 0.0))) * 0.125), _e392.z, _e451).xyxy;
    float4 _e528 = c16_.xxxx;
    float4 _e530 = ((_e527 >= _e528) ? _e527 : _e528);
    float4 _e534 = float4(_e346, _e366, _e530.z, _e530.w);
    float4 _e536 = (bool4(false, false, true, true) ? (_e486.wwww * _e534) : _e534);
    float4 _e538 = constants.c[9];
    float4 _e545 = constants.c[8];
    float4 _e549 = constants.c[4];
    float4 _e555 = constants.c[2];
    float4 _e561 = (bool4(true, false, true, true) ? (_e536.xxxx * (((((_e545.wwww * _e545) * _e549) * _e536.zzzz) + (_e536.wwww * ((_e538.wwww * _e538) * _e497))) * _e555).xyyz) : _e536);
    float4 _e563 = constants.c[7];
    float4 _e567 = constants.c[3];
    float4 _e568 = ((_e563.wwww * _e563) * _e567);
    float4 _e573 = (bool4(true, false, true, true) ? ((_e568.xyyz * _e555.xyyz) + _e561) : _e561);
    float4 _e592 = (bool4(true, false, true, true) ? (float4(log2(abs(abs(_e573.x))), log2(abs(abs(_e573.z))), log2(abs(abs(_e573.w))), _e568.w).xyyz * c20_.zzzz) : _e573);
    float4 _e614 = constants.c[1];
    float4 _e621 = (bool4(true, false, true, true) ? ((float4(_e384.x, _e384.y, _e384.z, _e495).xyyz * _e614.yyyy) + float4((!((_e592.x == _e592.x)) ? _e592.x : exp2(_e592.x)), (!((_e592.z == _e592.z)) ? _e592.z : exp2(_e592.z)), (!((_e592.w == _e592.w)) ? _e592.w : exp2(_e592.w)), _e568.w).xyyz) : _e592);
    float _e623 = (1.0 / _e621.y);
    float _e626 = ((_e623 * _e623) * 1.7673015e-5);
    float4 _e635 = float4(_e621.x, (1.0 / (!((_e626 == _e626)) ? _e626 : exp2(_e626))), _e621.z, _e621.w);
    float4 _e638 = (_e635.xzww * _e635.yyyy);
    const FragmentOutput fragmentoutput = ConstructFragmentOutput(float4(_e638.x, _e638.y, _e638.z, 1.0));
    return fragmentoutput;
}
