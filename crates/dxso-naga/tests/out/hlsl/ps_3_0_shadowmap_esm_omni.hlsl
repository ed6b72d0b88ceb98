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
    float _e336 = (_e330.x * 1.442695);
    float _e340 = (!((_e336 == _e336)) ? _e336 : exp2(_e336));
    float _e346 = ((-((_e330.z + _e330.y)) >= 0.0) ? ((_e340 == _e340) ? saturate(_e340) : 0.0) : 1.0);
    float4 _e348 = constants.c[11];
    float _e353 = ((_e348.w * 0.0027777778) + 0.5);
    float _e356 = abs(_e353);
    float _e366 = (((((_e356 * 0.5) <= 1.7014117e38) ? (_e353 - floor(_e353)) : sqrt(-(_e356))) * 6.2831855) + -3.1415927);
    float _e367 = cos(_e366);
    float _e373 = rsqrt(abs(dot(v6_texcoord5_.xyz, v6_texcoord5_.xyz)));
    float4 _e375 = constants.c[6];
    float _e377 = abs(_e375.w);
    float4 _e381 = (_e375.xxyz + -(v6_texcoord5_.xxyz));
    float4 _e385 = float4(_e367, _e381.y, _e381.z, _e381.w);
    float _e390 = rsqrt(abs(dot(_e385.yzw, _e385.yzw)));
    float4 _e391 = r1_;
    float4 _e399 = (bool4(true, true, true, false) ? (float4(_e391.x, _e391.y, _e391.z, _e390).wwww * _e385.yzww) : _e306);
    float _e400 = (1.0 / _e390);
    float4 _e411 = constants.c[10];
    float3 _e412 = _e411.xyz;
    float _e413 = dot(_e412, _e412);
    float4 _e417 = (_e411 * ((_e413 == 0.0) ? 0.0 : rsqrt(_e413)));
    float4 _e423 = r4_;
    float _e427 = dot(-(_e399.xyz), float4(_e417.x, _e417.y, _e417.z, _e423.w).xyz);
    float4 _e435 = (float4(_e346, _e373, _e377, _e348.w).wwww + c18_);
    float _e442 = ((((_e435.z < _e411.w) ? _e435.z : _e411.w) * 0.0027777778) + 0.5);
    float _e445 = abs(_e442);
    float _e452 = (((((_e445 * 0.5) <= 1.7014117e38) ? (_e442 - floor(_e442)) : sqrt(-(_e445))) * 6.2831855) + -3.1415927);
    float _e458 = ((1.0 / (-(_e367) + cos(_e452))) * (-(_e367) + ((_e427 >= 0.0) ? _e427 : 0.0)));
    float _e463 = ((_e435.w >= 0.0) ? 1.0 : ((_e458 == _e458) ? saturate(_e458) : 0.0));
    float _e464 = (_e463 * (1.0 / (((_e400 * _e400) * _e348.z) + ((_e348.y * _e400) + _e348.x))));
    float3 _e465 = _e375.xyz;
    float _e466 = dot(_e465, _e465);
    float4 _e470 = (_e375 * ((_e466 == 0.0) ? 0.0 : rsqrt(_e466)));
    float4 _e475 = float4(_e470.x, _e470.y, _e470.z, _e423.w);
    float4 _e476 = -(_e475);
    float4 _e489 = ((-(float4(_e346, _e373, _e377, _e463).zzzz) >= (0.0).xxxx) ? float4(_e476.x, _e476.y, _e476.z, 1.0) : float4(_e399.x, _e399.y, _e399.z, _e464));
    float _e492 = dot(v0_normal0_.xyz, _e489.xyz);
    float4 _e494 = float4(_e346, _e373, (_e492 + _e492), _e463);
    float4 _e499 = (bool4(true, true, true, false) ? ((_e494.zzzz * v0_normal0_) + -(_e489)) : _e489);
    float _e506 = dot(_e499.xyz, -((bool4(true, true, true, false) ? (_e494.yyyy * v6_texcoord5_) : _e475).xyz));
    float _e508 = ((_e506 >= 0.0) ? _e506 : 0.0);
    float4 _e510 = constants.c[5];
    float _e512 = abs(_e508);
    float4 _e540 = float4(_e492, (((2.0 + _e510.w) * ((((_e510.w == 0.0) || (_e512 == 1.0)) ? 1.0 : ((!((_e512 == _e512)) || !((_e510.w == _e510.w))) ? (_e512 + _e510.w) : ((_e512 == 0.0) ? ((_e510.w < 0.0) ? (1.0 / _e512) : _e512) : pow(_e512, _e510.w)))) * ((_e492 >= 0.0) ? 1.0 : 0.0))) * 0.125), _e399.z, _e464).xyxy;
    float4 _e541 = c16_.xxxx;
    float4 _e543 = ((_e540 >= _e541) ? _e540 : _e541);
    float4 _e547 = float4(_e346, _e373, _e543.z, _e543.w);
    float4 _e549 = (bool4(false, false, true, true) ? (_e499.wwww * _e547) : _e547);
    float4 _e551 = constants.c[9];
    float4 _e558 = constants.c[8];
    float4 _e562 = constants.c[4];
    float4 _e568 = constants.c[2];
    float4 _e574 = (bool4(true, false, true, true) ? (_e549.xxxx * (((((_e558.wwww * _e558) * _e562) * _e549.zzzz) + (_e549.wwww * ((_e551.wwww * _e551) * _e510))) * _e568).xyyz) : _e549);
    float4 _e576 = constants.c[7];
    float4 _e580 = constants.c[3];
    float4 _e581 = ((_e576.wwww * _e576) * _e580);
    float4 _e586 = (bool4(true, false, true, true) ? ((_e581.xyyz * _e568.xyyz) + _e574) : _e574);
    float4 _e605 = (bool4(true, false, true, true) ? (float4(log2(abs(abs(_e586.x))), log2(abs(abs(_e586.z))), log2(abs(abs(_e586.w))), _e581.w).xyyz * c20_.zzzz) : _e586);
    float4 _e627 = constants.c[1];
    float4 _e634 = (bool4(true, false, true, true) ? ((float4(_e391.x, _e391.y, _e391.z, _e508).xyyz * _e627.yyyy) + float4((!((_e605.x == _e605.x)) ? _e605.x : exp2(_e605.x)), (!((_e605.z == _e605.z)) ? _e605.z : exp2(_e605.z)), (!((_e605.w == _e605.w)) ? _e605.w : exp2(_e605.w)), _e581.w).xyyz) : _e605);
    float _e636 = (1.0 / _e634.y);
    float _e639 = ((_e636 * _e636) * 1.7673015e-5);
    float4 _e648 = float4(_e634.x, (1.0 / (!((_e639 == _e639)) ? _e639 : exp2(_e639))), _e634.z, _e634.w);
    float4 _e651 = (_e648.xzww * _e648.yyyy);
    const FragmentOutput fragmentoutput = ConstructFragmentOutput(float4(_e651.x, _e651.y, _e651.z, 1.0));
    return fragmentoutput;
}
