struct VertexOutput {
    float4 oPos_position0_ : SV_Position;
    float4 oD0_color0_ : LOC0;
    float4 oT0_texcoord0_ : LOC2;
};

struct Constants {
    float4 c[256];
    int4 i[16];
};

static const float4 c11_ = float4(3.0, 0.0, 1.0, 0.0);

cbuffer constants : register(b0) { Constants constants; }

struct VertexOutput_main {
    float4 oD0_color0_ : LOC0;
    float4 oT0_texcoord0_ : LOC2;
    float4 oPos_position0_ : SV_Position;
};

VertexOutput ConstructVertexOutput(float4 arg0, float4 arg1, float4 arg2) {
    VertexOutput ret = (VertexOutput)0;
    ret.oPos_position0_ = arg0;
    ret.oD0_color0_ = arg1;
    ret.oT0_texcoord0_ = arg2;
    return ret;
}

int naga_f2i32(float value) {
    return int(clamp(value, -2147483600.0, 2147483500.0));
}

VertexOutput_main main(float4 v0_position0_ : LOC0, float4 v1_normal0_ : LOC1, float4 v2_texcoord0_ : LOC2, float4 v3_color0_ : LOC3, float4 v4_blendweight0_ : LOC4, float4 v5_blendindices0_ : LOC5)
{
    float4 r4_ = (float4)0;
    float4 r2_ = (float4)0;
    float4 r3_ = (float4)0;
    float4 r1_ = (float4)0;
    float4 r0_ = (float4)0;
    int4 a0_ = (int4)0;
    int count = (int)0;
    float4 r5_ = (float4)0;
    int count_1 = (int)0;
    int count_2 = (int)0;
    float4 oT0_ = (float4)0;

    float4 _e12 = (v5_blendindices0_ * c11_.xxxx);
    int _e20 = naga_f2i32((floor((abs(_e12.x) + 0.5)) * sign(_e12.x)));
    int _e23 = asint(asuint(_e20) + asuint(int(43)));
    int _e26 = clamp(_e23, int(0), int(255));
    float4 _e29 = constants.c[_e26];
    int _e38 = asint(asuint(_e20) + asuint(int(41)));
    int _e39 = clamp(_e38, int(0), int(255));
    float4 _e42 = constants.c[_e39];
    int _e48 = asint(asuint(_e20) + asuint(int(42)));
    int _e49 = clamp(_e48, int(0), int(255));
    float4 _e52 = constants.c[_e49];
    int _e57 = asint(asuint(_e20) + asuint(int(43)));
    int _e58 = clamp(_e57, int(0), int(255));
    float4 _e61 = constants.c[_e58];
    int _e67 = asint(asuint(_e20) + asuint(int(41)));
    int _e68 = clamp(_e67, int(0), int(255));
    float4 _e71 = constants.c[_e68];
    int _e78 = asint(asuint(_e20) + asuint(int(42)));
    int _e79 = clamp(_e78, int(0), int(255));
    float4 _e82 = constants.c[_e79];
    int _e94 = naga_f2i32((floor((abs(_e12.y) + 0.5)) * sign(_e12.y)));
    int _e96 = asint(asuint(_e94) + asuint(int(43)));
    int _e97 = clamp(_e96, int(0), int(255));
    float4 _e100 = constants.c[_e97];
    int _e106 = asint(asuint(_e94) + asuint(int(41)));
    int _e107 = clamp(_e106, int(0), int(255));
    float4 _e110 = constants.c[_e107];
    int _e115 = asint(asuint(_e94) + asuint(int(42)));
    int _e116 = clamp(_e115, int(0), int(255));
    float4 _e119 = constants.c[_e116];
    int _e124 = asint(asuint(_e94) + asuint(int(43)));
    int _e125 = clamp(_e124, int(0), int(255));
    float4 _e128 = constants.c[_e125];
    float4 _e134 = r4_;
    float4 _e136 = float4(dot(v0_position0_, ((_e107 == _e106) ? ((_e107 == int(11)) ? c11_ : _e110) : (0.0).xxxx)), dot(v0_position0_, ((_e116 == _e115) ? ((_e116 == int(11)) ? c11_ : _e119) : (0.0).xxxx)), dot(v0_position0_, ((_e125 == _e124) ? ((_e125 == int(11)) ? c11_ : _e128) : (0.0).xxxx)), _e134.w);
    float4 _e140 = (bool4(true, true, true, false) ? (_e136 * v4_blendweight0_.yyyy) : _e136);
    float4 _e142 = r2_;
    float4 _e144 = float4(dot(v0_position0_, ((_e39 == _e38) ? ((_e39 == int(11)) ? c11_ : _e42) : (0.0).xxxx)), dot(v0_position0_, ((_e49 == _e48) ? ((_e49 == int(11)) ? c11_ : _e52) : (0.0).xxxx)), dot(v0_position0_, ((_e58 == _e57) ? ((_e58 == int(11)) ? c11_ : _e61) : (0.0).xxxx)), _e142.w);
    float4 _e148 = (bool4(true, true, true, false) ? ((_e144 * v4_blendweight0_.xxxx) + _e140) : _e144);
    int _e150 = asint(asuint(_e94) + asuint(int(41)));
    int _e151 = clamp(_e150, int(0), int(255));
    float4 _e154 = constants.c[_e151];
    int _e161 = asint(asuint(_e94) + asuint(int(42)));
    int _e162 = clamp(_e161, int(0), int(255));
    float4 _e165 = constants.c[_e162];
    float4 _e172 = r3_;
    float4 _e174 = float4(dot(v1_normal0_.xyz, ((_e151 == _e150) ? ((_e151 == int(11)) ? c11_ : _e154) : (0.0).xxxx).xyz), dot(v1_normal0_.xyz, ((_e162 == _e161) ? ((_e162 == int(11)) ? c11_ : _e165) : (0.0).xxxx).xyz), dot(v1_normal0_.xyz, ((_e97 == _e96) ? ((_e97 == int(11)) ? c11_ : _e100) : (0.0).xxxx).xyz), _e172.w);
    float4 _e177 = (bool4(true, true, true, false) ? (_e174 * v4_blendweight0_.yyyy) : _e174);
    float4 _e179 = r1_;
    float4 _e181 = float4(dot(v1_normal0_.xyz, ((_e68 == _e67) ? ((_e68 == int(11)) ? c11_ : _e71) : (0.0).xxxx).xyz), dot(v1_normal0_.xyz, ((_e79 == _e78) ? ((_e79 == int(11)) ? c11_ : _e82) : (0.0).xxxx).xyz), dot(v1_normal0_.xyz, ((_e26 == _e23) ? ((_e26 == int(11)) ? c11_ : _e29) : (0.0).xxxx).xyz), _e179.w);
    float4 _e185 = (bool4(true, true, true, false) ? ((_e181 * v4_blendweight0_.xxxx) + _e177) : _e181);
    int _e192 = naga_f2i32((floor((abs(_e12.z) + 0.5)) * sign(_e12.z)));
    int _e194 = asint(asuint(_e192) + asuint(int(43)));
    int _e195 = clamp(_e194, int(0), int(255));
    float4 _e198 = constants.c[_e195];
    int _e204 = asint(asuint(_e192) + asuint(int(41)));
    int _e205 = clamp(_e204, int(0), int(255));
    float4 _e208 = constants.c[_e205];
    int _e213 = asint(asuint(_e192) + asuint(int(42)));
    int _e214 = clamp(_e213, int(0), int(255));
    float4 _e217 = constants.c[_e214];
    int _e222 = asint(asuint(_e192) + asuint(int(43)));
    int _e223 = clamp(_e222, int(0), int(255));
    float4 _e226 = constants.c[_e223];
    float4 _e236 = (bool4(true, true, true, false) ? ((float4(dot(v0_position0_, ((_e205 == _e204) ? ((_e205 == int(11)) ? c11_ : _e208) : (0.0).xxxx)), dot(v0_position0_, ((_e214 == _e213) ? ((_e214 == int(11)) ? c11_ : _e217) : (0.0).xxxx)), dot(v0_position0_, ((_e223 == _e222) ? ((_e223 == int(11)) ? c11_ : _e226) : (0.0).xxxx)), _e177.w) * v4_blendweight0_.zzzz) + _e148) : _e148);
    int _e238 = asint(asuint(_e192) + asuint(int(41)));
    int _e239 = clamp(_e238, int(0), int(255));
    float4 _e242 = constants.c[_e239];
    int _e249 = asint(asuint(_e192) + asuint(int(42)));
    int _e250 = clamp(_e249, int(0), int(255));
    float4 _e253 = constants.c[_e250];
    float4 _e260 = float4(dot(v1_normal0_.xyz, ((_e239 == _e238) ? ((_e239 == int(11)) ? c11_ : _e242) : (0.0).xxxx).xyz), dot(v1_normal0_.xyz, ((_e250 == _e249) ? ((_e250 == int(11)) ? c11_ : _e253) : (0.0).xxxx).xyz), dot(v1_normal0_.xyz, ((_e195 == _e194) ? ((_e195 == int(11)) ? c11_ : _e198) : (0.0).xxxx).xyz), _e12.w);
    float4 _e264 = (bool4(true, true, true, false) ? ((_e260 * v4_blendweight0_.zzzz) + _e185) : _e260);
    int _e271 = naga_f2i32((floor((abs(_e264.w) + 0.5)) * sign(_e264.w)));
    int _e273 = asint(asuint(_e271) + asuint(int(43)));
    int _e274 = clamp(_e273, int(0), int(255));
    float4 _e277 = constants.c[_e274];
    int _e283 = asint(asuint(_e271) + asuint(int(41)));
    int _e284 = clamp(_e283, int(0), int(255));
    float4 _e287 = constants.c[_e284];
    int _e292 = asint(asuint(_e271) + asuint(int(42)));
    int _e293 = clamp(_e292, int(0), int(255));
    float4 _e296 = constants.c[_e293];
    int _e301 = asint(asuint(_e271) + asuint(int(43)));
    int _e302 = clamp(_e301, int(0), int(255));
    float4 _e305 = constants.c[_e302];
    float4 _e311 = float4(dot(v0_position0_, ((_e284 == _e283) ? ((_e284 == int(11)) ? c11_ : _e287) : (0.0).xxxx)), dot(v0_position0_, ((_e293 == _e292) ? ((_e293 == int(11)) ? c11_ : _e296) : (0.0).xxxx)), dot(v0_position0_, ((_e302 == _e301) ? ((_e302 == int(11)) ? c11_ : _e305) : (0.0).xxxx)), _e177.w);
    float4 _e315 = (bool4(true, true, true, false) ? ((_e311 * v4_blendweight0_.wwww) + _e236) : _e236);
    int _e317 = asint(asuint(_e271) + asuint(int(41)));
    int _e318 = clamp(_e317, int(0), int(255));
    float4 _e321 = constants.c[_e318];
    int _e328 = asint(asuint(_e271) + asuint(int(42)));
    int _e329 = clamp(_e328, int(0), int(255));
    float4 _e332 = constants.c[_e329];
    float4 _e339 = float4(dot(v1_normal0_.xyz, ((_e318 == _e317) ? ((_e318 == int(11)) ? c11_ : _e321) : (0.0).xxxx).xyz), dot(v1_normal0_.xyz, ((_e329 == _e328) ? ((_e329 == int(11)) ? c11_ : _e332) : (0.0).xxxx).xyz), dot(v1_normal0_.xyz, ((_e274 == _e273) ? ((_e274 == int(11)) ? c11_ : _e277) : (0.0).xxxx).xyz), _e185.w);
    float4 _e342 = ((_e339 * v4_blendweight0_.wwww) + _e264);
    float4 _e345 = constants.c[5];
    float4 _e347 = (bool4(true, true, true, false) ? (_e315.yyyy * _e345) : _e339);
    float4 _e349 = constants.c[4];
    float4 _e353 = (bool4(true, true, true, false) ? ((_e349 * _e315.xxxx) + _e347) : _e347);
    float4 _e355 = constants.c[6];
    float4 _e359 = (bool4(true, true, true, false) ? ((_e355 * _e315.zzzz) + _e353) : _e353);
    float4 _e361 = constants.c[7];
    float4 _e366 = constants.c[9];
    float4 _e368 = (bool4(true, true, true, false) ? (_e342.yyyy * _e366) : _e311);
    float4 _e370 = constants.c[8];
    float4 _e377 = (bool4(true, true, false, true) ? ((_e370.xyzz * _e342.xxxx) + _e368.xyzz) : _e342);
    float4 _e379 = constants.c[10];
    float4 _e383 = ((_e379 * _e377.zzzz) + _e377.xyww);
    float4 _e385 = constants.c[13];
    float4 _e388 = constants.c[15];
    float4 _e392 = float4(_e385.x, _e368.y, _e368.z, _e368.w);
    float4 _e396 = (bool4(true, true, true, false) ? ((_e388 * _e392.xxxx) + v3_color0_) : _e392);
    int4 _e400 = constants.i[0];
    r0_ = float4(_e383.x, _e383.y, _e383.z, 0.0);
    r1_ = (bool4(true, true, true, false) ? (_e359 + _e361) : _e359);
    r2_ = _e315;
    r3_ = _e396;
    r4_ = (bool4(true, true, true, false) ? _e396 : _e140);
    a0_.x = _e271;
    count = clamp(_e400.x, int(0), int(255));
    uint2 loop_bound = uint2(4294967295u, 4294967295u);
    bool loop_init = true;
    while(true) {
        if (all(loop_bound == uint2(0u, 0u))) { break; }
        loop_bound -= uint2(loop_bound.y == 0u, 1u);
        if (!loop_init) {
            int _e474 = count;
            count = asint(asuint(_e474) - asuint(int(1)));
        }
        loop_init = false;
        int _e411 = count;
        if ((_e411 <= int(0))) {
            break;
        }
        float4 _e413 = r0_;
        float4 _e416 = constants.c[16];
        float _e420 = ((_e413.w + _e416.x) * 3.0);
        int _e426 = naga_f2i32((floor((abs(_e420) + 0.5)) * sign(_e420)));
        int _e429 = asint(asuint(_e426) + asuint(int(19)));
        int _e430 = clamp(_e429, int(0), int(255));
        float4 _e433 = constants.c[_e430];
        float _e439 = dot(_e413.xyz, -(((_e430 == _e429) ? ((_e430 == int(11)) ? c11_ : _e433) : (0.0).xxxx).xyz));
        float4 _e442 = r1_;
        float4 _e446 = float4(_e442.x, _e442.y, _e442.z, ((_e439 >= 0.0) ? _e439 : 0.0));
        int _e449 = asint(asuint(_e426) + asuint(int(17)));
        int _e450 = clamp(_e449, int(0), int(255));
        float4 _e453 = constants.c[_e450];
        float4 _e457 = (_e446.wwww * ((_e450 == _e449) ? ((_e450 == int(11)) ? c11_ : _e453) : (0.0).xxxx));
        float4 _e462 = r5_;
        float4 _e464 = float4(_e457.x, _e457.y, _e457.z, _e462.w);
        float4 _e466 = r4_;
        r0_.w = (_e413.w + 1.0);
        r1_ = _e446;
        r4_ = (bool4(true, true, true, false) ? ((_e464 * _e385.zzzz) + _e466) : _e466);
        r5_ = _e464;
        a0_.x = _e426;
    }
    float4 _e477 = r4_;
    int4 _e482 = constants.i[1];
    r0_.w = 0.0;
    r3_.x = _e477.x;
    r3_.y = _e477.y;
    r3_.z = _e477.z;
    count_1 = clamp(_e482.x, int(0), int(255));
    uint2 loop_bound_1 = uint2(4294967295u, 4294967295u);
    bool loop_init_1 = true;
    while(true) {
        if (all(loop_bound_1 == uint2(0u, 0u))) { break; }
        loop_bound_1 -= uint2(loop_bound_1.y == 0u, 1u);
        if (!loop_init_1) {
            int _e593 = count_1;
            count_1 = asint(asuint(_e593) - asuint(int(1)));
        }
        loop_init_1 = false;
        int _e490 = count_1;
        if ((_e490 <= int(0))) {
            break;
        }
        float4 _e492 = r0_;
        float4 _e495 = constants.c[16];
        float _e498 = ((_e492.w + _e495.y) * 3.0);
        int _e504 = naga_f2i32((floor((abs(_e498) + 0.5)) * sign(_e498)));
        float4 _e505 = r1_;
        int _e511 = asint(asuint(_e504) + asuint(int(18)));
        int _e512 = clamp(_e511, int(0), int(255));
        float4 _e515 = constants.c[_e512];
        float4 _e520 = (float4(_e505.x, _e505.y, _e505.z, _e498) + -(((_e512 == _e511) ? ((_e512 == int(11)) ? c11_ : _e515) : (0.0).xxxx)));
        float4 _e524 = r5_;
        float4 _e526 = float4(_e520.x, _e520.y, _e520.z, _e524.w);
        float _e531 = rsqrt(abs(dot(_e526.xyz, _e526.xyz)));
        float4 _e538 = (bool4(true, true, true, false) ? (float4(_e505.x, _e505.y, _e505.z, _e531).wwww * _e526) : _e526);
        float _e542 = dot(_e492.xyz, -(_e538.xyz));
        float4 _e545 = r2_;
        int _e551 = asint(asuint(_e504) + asuint(int(17)));
        int _e552 = clamp(_e551, int(0), int(255));
        float4 _e555 = constants.c[_e552];
        float4 _e560 = (bool4(true, true, true, false) ? (float4(_e545.x, _e545.y, _e545.z, ((_e542 >= 0.0) ? _e542 : 0.0)).wwww * ((_e552 == _e551) ? ((_e552 == int(11)) ? c11_ : _e555) : (0.0).xxxx)) : _e538);
        int _e562 = asint(asuint(_e504) + asuint(int(17)));
        int _e563 = clamp(_e562, int(0), int(255));
        float4 _e566 = constants.c[_e563];
        float _e571 = (1.0 / ((_e563 == _e562) ? ((_e563 == int(11)) ? c11_ : _e566) : (0.0).xxxx).w);
        float _e574 = (((1.0 / _e531) * -(_e571)) + 1.0);
        float4 _e580 = float4(_e505.x, _e505.y, _e505.z, ((_e574 >= 0.0) ? _e574 : 0.0));
        float4 _e583 = (bool4(true, true, true, false) ? (_e580.wwww * _e560) : _e560);
        float4 _e585 = r3_;
        r0_.w = (_e492.w + 1.0);
        r1_ = _e580;
        r2_.w = _e571;
        r3_ = (bool4(true, true, true, false) ? ((_e583 * _e385.zzzz) + _e585) : _e585);
        r5_ = _e583;
        a0_.x = _e504;
    }
    float4 _e595 = r3_;
    int4 _e600 = constants.i[2];
    r0_.w = 0.0;
    r4_.x = _e595.x;
    r4_.y = _e595.y;
    r4_.z = _e595.z;
    count_2 = clamp(_e600.x, int(0), int(255));
    uint2 loop_bound_2 = uint2(4294967295u, 4294967295u);
    bool loop_init_2 = true;
    while(true) {
        if (all(loop_bound_2 == uint2(0u, 0u))) { break; }
        loop_bound_2 -= uint2(loop_bound_2.y == 0u, 1u);
        if (!loop_init_2) {
            int _e765 = count_2;
            count_2 = asint(asuint(_e765) - asuint(int(1)));
        }
        loop_init_2 = false;
        int _e608 = count_2;
        if ((_e608 <= int(0))) {
            break;
        }
        float4 _e610 = r0_;
        float4 _e613 = constants.c[16];
        float _e616 = ((_e610.w + _e613.z) * 3.0);
        int _e622 = naga_f2i32((floor((abs(_e616) + 0.5)) * sign(_e616)));
        float4 _e623 = r1_;
        int _e628 = asint(asuint(_e622) + asuint(int(18)));
        int _e629 = clamp(_e628, int(0), int(255));
        float4 _e632 = constants.c[_e629];
        float4 _e637 = (float4(_e623.x, _e623.y, _e623.z, _e616) + -(((_e629 == _e628) ? ((_e629 == int(11)) ? c11_ : _e632) : (0.0).xxxx)));
        float4 _e641 = r5_;
        float4 _e643 = float4(_e637.x, _e637.y, _e637.z, _e641.w);
        float _e648 = rsqrt(abs(dot(_e643.xyz, _e643.xyz)));
        float4 _e655 = (bool4(true, true, true, false) ? (float4(_e623.x, _e623.y, _e623.z, _e648).wwww * _e643) : _e643);
        float _e659 = dot(_e610.xyz, -(_e655.xyz));
        int _e661 = asint(asuint(_e622) + asuint(int(19)));
        int _e662 = clamp(_e661, int(0), int(255));
        float4 _e665 = constants.c[_e662];
        float _e672 = ((_e659 >= 0.0) ? _e659 : 0.0);
        int _e673 = asint(asuint(_e622) + asuint(int(18)));
        int _e674 = clamp(_e673, int(0), int(255));
        float4 _e677 = constants.c[_e674];
        int _e683 = asint(asuint(_e622) + asuint(int(18)));
        int _e684 = clamp(_e683, int(0), int(255));
        float4 _e687 = constants.c[_e684];
        float _e694 = ((dot(_e655.xyz, ((_e662 == _e661) ? ((_e662 == int(11)) ? c11_ : _e665) : (0.0).xxxx).xyz) + ((_e674 == _e673) ? ((_e674 == int(11)) ? c11_ : _e677) : (0.0).xxxx).w) * (1.0 / (1.0 + ((_e684 == _e683) ? ((_e684 == int(11)) ? c11_ : _e687) : (0.0).xxxx).w)));
        int _e700 = asint(asuint(_e622) + asuint(int(19)));
        int _e701 = clamp(_e700, int(0), int(255));
        float4 _e704 = constants.c[_e701];
        float _e710 = ((_e694 >= ((_e701 == _e700) ? ((_e701 == int(11)) ? c11_ : _e704) : (0.0).xxxx).w) ? _e694 : ((_e701 == _e700) ? ((_e701 == int(11)) ? c11_ : _e704) : (0.0).xxxx).w);
        float4 _e712 = r2_;
        int _e718 = asint(asuint(_e622) + asuint(int(17)));
        int _e719 = clamp(_e718, int(0), int(255));
        float4 _e722 = constants.c[_e719];
        float4 _e726 = (float4(_e712.x, _e712.y, _e712.z, (((((_e694 < 0.0) ? 1.0 : 0.0) * -(_e672)) + _e672) * _e710)).wwww * ((_e719 == _e718) ? ((_e719 == int(11)) ? c11_ : _e722) : (0.0).xxxx));
        int _e731 = asint(asuint(_e622) + asuint(int(17)));
        int _e732 = clamp(_e731, int(0), int(255));
        float4 _e735 = constants.c[_e732];
        float _e740 = (1.0 / ((_e732 == _e731) ? ((_e732 == int(11)) ? c11_ : _e735) : (0.0).xxxx).w);
        float _e743 = (((1.0 / _e648) * -(_e740)) + 1.0);
        float4 _e749 = float4(_e623.x, _e623.y, _e623.z, ((_e743 >= 0.0) ? _e743 : 0.0));
        float4 _e752 = float4(_e726.x, _e726.y, _e726.z, _e655.w);
        float4 _e754 = (bool4(true, true, true, false) ? (_e749.wwww * _e752) : _e752);
        float4 _e756 = r4_;
        r0_.w = (_e610.w + 1.0);
        r1_ = _e749;
        r2_.w = _e740;
        r3_.w = _e710;
        r4_ = (bool4(true, true, true, false) ? ((_e754 * _e385.zzzz) + _e756) : _e756);
        r5_ = _e754;
        a0_.x = _e622;
    }
    float4 _e768 = r4_;
    float4 _e772 = float4(_e768.x, _e768.y, _e768.z, v3_color0_.w);
    float4 _e773 = c11_.yyyy;
    float4 _e775 = ((_e772 >= _e773) ? _e772 : _e773);
    float4 _e776 = c11_.zzzz;
    float4 _e780 = constants.c[12];
    float4 _e782 = r2_;
    float4 _e785 = constants.c[1];
    float4 _e788 = constants.c[0];
    float4 _e793 = constants.c[2];
    float4 _e798 = constants.c[3];
    float4 _e799 = (((_e793 * _e782.zzzz) + ((_e788 * _e782.xxxx) + (_e782.yyyy * _e785))) + _e798);
    float4 _e802 = constants.c[14];
    float _e807 = ((_e799.w + -(_e802.y)) * _e802.z);
    float _e810 = ((_e807 >= _e802.w) ? _e807 : _e802.w);
    float4 _e816 = oT0_;
    const VertexOutput vertexoutput = ConstructVertexOutput(_e799, (((_e775 < _e776) ? _e775 : _e776) * _e780), float4(v2_texcoord0_.x, v2_texcoord0_.y, ((_e810 < 1.0) ? _e810 : 1.0), _e816.w));
    const VertexOutput_main vertexoutput_1 = { vertexoutput.oD0_color0_, vertexoutput.oT0_texcoord0_, vertexoutput.oPos_position0_ };
    return vertexoutput_1;
}
