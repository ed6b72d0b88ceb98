struct FragmentOutput {
    @location(0) oC0_color0_: vec4<f32>,
}

struct Constants {
    c: array<vec4<f32>, 224>,
}

const c16_: vec4<f32> = vec4<f32>(0f, 1f, -1f, 0.3f);
const c17_: vec4<f32> = vec4<f32>(0.000000059604645f, 0.000015258789f, 0.00390625f, 1f);
const c18_: vec4<f32> = vec4<f32>(6.2831855f, -3.1415927f, -0.001f, -90f);
const c20_: vec4<f32> = vec4<f32>(0.125f, 0.000017673015f, 0.45454547f, 0f);

@group(1) @binding(0) 
var<uniform> constants: Constants;
@group(1) @binding(9) 
var texture4_: texture_2d<f32>;
@group(1) @binding(10) 
var sampler4_: sampler;

@fragment 
fn main(@location(3) v2_texcoord1_: vec4<f32>, @location(4) v3_texcoord2_: vec4<f32>, @location(5) v4_texcoord3_: vec4<f32>, @location(6) v5_texcoord4_: vec4<f32>, @location(7) v6_texcoord5_: vec4<f32>, @location(9) v1_texcoord7_: vec4<f32>, @location(22) v0_normal0_: vec4<f32>) -> FragmentOutput {
    var r0_: vec4<f32>;
    var r1_: vec4<f32>;
    var r2_: vec4<f32>;
    var r4_: vec4<f32>;
    var r3_: vec4<f32>;
    var oC0_: vec4<f32>;

    let _e10 = constants.c[14];
    let _e13 = dot(_e10.xyz, v1_texcoord7_.xyz);
    let _e15 = constants.c[15];
    let _e18 = dot(_e15.xyz, v1_texcoord7_.xyz);
    let _e20 = select(_e18, _e13, (_e13 >= _e18));
    let _e22 = constants.c[12];
    let _e25 = dot(_e22.xyz, v1_texcoord7_.xyz);
    let _e27 = constants.c[13];
    let _e30 = dot(_e27.xyz, v1_texcoord7_.xyz);
    let _e32 = select(_e30, _e25, (_e25 >= _e30));
    let _e34 = select(_e20, _e32, (_e32 >= _e20));
    r0_ = vec4<f32>(_e13, _e25, _e30, _e34);
    r1_.x = _e20;
    r1_.y = _e32;
    if (_e25 == _e34) {
        let _e45 = vec4<f32>(_e13, (1f / v2_texcoord1_.w), _e30, _e34);
        let _e47 = (_e45.yyyy * v2_texcoord1_);
        let _e50 = r1_;
        let _e53 = vec4<f32>(_e47.x, _e47.y, _e50.z, _e50.w);
        let _e62 = select(_e53, select(c16_.yyyy, c16_.xxxx, (-(_e53) >= vec4(0f))), vec4<bool>(true, true, false, false));
        let _e70 = ((v2_texcoord1_.xxyw * _e45.yyyy) + c16_.zzzz);
        let _e74 = vec4<f32>((_e62.y * _e62.x), _e70.y, _e70.z, _e62.w);
        let _e80 = select(_e74, select(c16_.yyyy, c16_.xxxx, (_e74 >= vec4(0f))), vec4<bool>(false, true, true, false));
        let _e85 = ((_e80.z * _e80.y) * _e80.x);
        let _e89 = vec4<f32>(_e80.x, (_e85 * 0.3f), _e80.z, _e80.w);
        r0_.y = _e85;
        r1_ = select(_e89, -(_e89.yyyy), vec4<bool>(true, false, true, false));
        r2_ = v2_texcoord1_;
    } else {
        let _e96 = r0_;
        let _e100 = (-(_e96.wwww) + _e96.xzzw);
        let _e102 = (1f / v4_texcoord3_.w);
        let _e114 = select(c16_.yyyy, c16_.xxxx, (((v4_texcoord3_ * vec4<f32>(_e100.x, _e100.y, _e102, _e100.w).zzzz) + c16_.zzzz) >= vec4(0f)));
        let _e117 = (_e114.y * _e114.x);
        let _e120 = r1_;
        let _e124 = vec4<f32>(_e120.x, _e120.y, _e120.z, (1f / v5_texcoord4_.w));
        let _e132 = select(c16_.yyyy, c16_.xxxx, (((v5_texcoord4_ * _e124.wwww) + c16_.zzzz) >= vec4(0f)));
        let _e141 = (vec4<f32>(_e100.x, _e100.y, _e102, _e117).zzzz * v4_texcoord3_.xxyw);
        let _e145 = vec4<f32>((_e132.y * _e132.x), _e141.y, _e141.z, _e132.w);
        let _e151 = select(_e145, select(c16_.yyyy, c16_.xxxx, (-(_e145) >= vec4(0f))), vec4<bool>(false, true, true, false));
        let _e159 = (_e124.wwww * v5_texcoord4_.xyxy);
        let _e164 = vec4<f32>(_e100.x, _e100.y, _e159.z, _e159.w);
        let _e171 = select(_e164, select(c16_.yyyy, c16_.xxxx, (-(_e164) >= vec4(0f))), vec4<bool>(false, false, true, true));
        let _e176 = (_e151.x * (_e171.w * _e171.z));
        let _e179 = r4_;
        let _e183 = vec4<f32>(_e179.x, _e179.y, ((_e117 * (_e151.z * _e151.y)) * 0.3f), _e179.w);
        let _e186 = select(_e183, -(_e183.zzzz), vec4<bool>(true, true, false, false));
        let _e188 = vec4<f32>((_e176 * 0.3f), _e151.y, _e151.z, _e151.w);
        let _e201 = (1f / v3_texcoord2_.w);
        let _e207 = select(_e186, (vec4<f32>(_e171.x, _e171.y, _e201, _e171.w).zzzz * v3_texcoord2_), vec4<bool>(true, true, false, false));
        let _e213 = select(_e207, select(c16_.yyyy, c16_.xxxx, (-(_e207) >= vec4(0f))), vec4<bool>(true, true, false, false));
        let _e216 = (_e213.y * _e213.x);
        let _e224 = select(_e213, ((v3_texcoord2_ * vec4<f32>(_e171.x, _e171.y, _e201, _e216).zzzz) + c16_.zzzz), vec4<bool>(true, true, false, false));
        let _e229 = select(_e224, select(c16_.yyyy, c16_.xxxx, (_e224 >= vec4(0f))), vec4<bool>(true, true, false, false));
        let _e236 = vec4<f32>(_e171.x, _e171.y, ((_e229.y * _e229.x) * _e216), _e216);
        let _e240 = select(_e229, (_e236.zzzz * c16_.wwww), vec4<bool>(true, true, false, false));
        let _e248 = vec4<f32>(_e240.x, _e240.y, -(_e240.y), _e240.w);
        let _e257 = select(v5_texcoord4_, v4_texcoord3_, (-(abs(_e236.xxxx)) >= vec4(0f)));
        r0_ = _e236;
        r1_ = select(_e124, select(select(select(_e188, -(_e188.xxxx), vec4<bool>(false, true, true, false)), _e186, (-(abs(vec4<f32>(_e171.x, _e171.y, _e176, _e171.w).xxxx)) >= vec4(0f))), _e248, (-(abs(_e236.yyyy)) >= vec4(0f))), vec4<bool>(true, true, true, false));
        r2_ = select(_e257, v3_texcoord2_, (-(abs(_e236.yyyy)) >= vec4(0f)));
        r3_ = _e257;
        r4_ = _e248;
    }
    let _e264 = r2_;
    let _e268 = r0_;
    let _e272 = vec4<f32>((1f / _e264.w), _e268.y, _e268.z, _e268.w);
    let _e278 = select(_e272, ((_e264.xxyw * -(_e272.xxxx)) + c16_.yyyy), vec4<bool>(false, true, true, false));
    let _e283 = select(_e278, select(c16_.yyyy, c16_.xxxx, (_e278 >= vec4(0f))), vec4<bool>(false, true, true, false));
    let _e288 = (dot(_e283.yz, _e283.yz) + 0f);
    let _e291 = constants.c[0];
    let _e294 = (_e264.z + -(_e291.x));
    let _e297 = (_e291.z * _e291.w);
    let _e302 = select(_e264, (vec4<f32>(_e283.x, _e288, _e294, _e297).xxxx * _e264), vec4<bool>(true, true, false, false));
    let _e306 = textureSample(texture4_, sampler4_, _e302.xy);
    let _e311 = ((-(_e294) + dot(_e306, c17_)) * _e297);
    let _e316 = select(c16_.yyyy, c16_.xxxx, (_e302.xyxy >= vec4(0f)));
    let _e319 = vec4<f32>(_e311, _e288, _e316.z, _e316.w);
    let _e324 = vec4<f32>(_e311, _e288, (dot(_e319.zw, _e319.zw) + 0f), _e316.w);
    let _e330 = select(_e324, select(c16_.yyyy, c16_.xxxx, (-(_e324) >= vec4(0f))), vec4<bool>(false, true, true, false));
    let _e336 = (_e330.x * 1.442695f);
    let _e340 = select(exp2(_e336), _e336, !((_e336 == _e336)));
    let _e346 = select(1f, select(0f, saturate(_e340), (_e340 == _e340)), (-((_e330.z + _e330.y)) >= 0f));
    let _e348 = constants.c[11];
    let _e353 = ((_e348.w * 0.0027777778f) + 0.5f);
    let _e359 = (((_e353 - floor(_e353)) * 6.2831855f) + -3.1415927f);
    let _e360 = cos(_e359);
    let _e366 = inverseSqrt(abs(dot(v6_texcoord5_.xyz, v6_texcoord5_.xyz)));
    let _e368 = constants.c[6];
    let _e370 = abs(_e368.w);
    let _e374 = (_e368.xxyz + -(v6_texcoord5_.xxyz));
    let _e378 = vec4<f32>(_e360, _e374.y, _e374.z, _e374.w);
    let _e383 = inverseSqrt(abs(dot(_e378.yzw, _e378.yzw)));
    let _e384 = r1_;
    let _e392 = select(_e306, (vec4<f32>(_e384.x, _e384.y, _e384.z, _e383).wwww * _e378.yzww), vec4<bool>(true, true, true, false));
    let _e393 = (1f / _e383);
    let _e404 = constants.c[10];
    let _e405 = _e404.xyz;
    let _e406 = dot(_e405, _e405);
    let _e410 = (_e404 * select(inverseSqrt(_e406), 0f, (_e406 == 0f)));
    let _e416 = r4_;
    let _e420 = dot(-(_e392.xyz), vec4<f32>(_e410.x, _e410.y, _e410.z, _e416.w).xyz);
    let _e428 = (vec4<f32>(_e346, _e366, _e370, _e348.w).wwww + c18_);
    let _e435 = ((select(_e404.w, _e428.z, (_e428.z < _e404.w)) * 0.0027777778f) + 0.5f);
    let _e439 = (((_e435 - floor(_e435)) * 6.2831855f) + -3.1415927f);
    let _e445 = ((1f / (-(_e360) + cos(_e439))) * (-(_e360) + select(0f, _e420, (_e420 >= 0f))));
    let _e450 = select(select(0f, saturate(_e445), (_e445 == _e445)), 1f, (_e428.w >= 0f));
    let _e451 = (_e450 * (1f / (((_e393 * _e393) * _e348.z) + ((_e348.y * _e393) + _e348.x))));
    let _e452 = _e368.xyz;
    let _e453 = dot(_e452, _e452);
    let _e457 = (_e368 * select(inverseSqrt(_e453), 0f, (_e453 == 0f)));
    let _e462 = vec4<f32>(_e457.x, _e457.y, _e457.z, _e416.w);
    let _e463 = -(_e462);
    let _e476 = select(vec4<f32>(_e392.x, _e392.y, _e392.z, _e451), vec4<f32>(_e463.x, _e463.y, _e463.z, 1f), (-(vec4<f32>(_e346, _e366, _e370, _e450).zzzz) >= vec4(0f)));
    let _e479 = dot(v0_normal0_.xyz, _e476.xyz);
    let _e481 = vec4<f32>(_e346, _e366, (_e479 + _e479), _e450);
    let _e486 = select(_e476, ((_e481.zzzz * v0_normal0_) + -(_e476)), vec4<bool>(true, true, true, false));
    let _e493 = dot(_e486.xyz, -(select(_e462, (_e481.yyyy * v6_texcoord5_), vec4<bool>(true, true, true, false)).xyz));
    let _e495 = select(0f, _e493, (_e493 >= 0f));
    let _e497 = constants.c[5];
    let _e499 = abs(_e495);
    let _e527 = vec4<f32>(_e479, (((2f + _e497.w) * (select(select(select(pow(_e499, _e497.w), select(_e499, (1f / _e499), (_e497.w < 0f)), (_e499 == 0f)), (_e499 + _e497.w), (!((_e499 == _e499)) || !((_e497.w == _e497.w)))), 1f, ((_e497.w == 0f) || (_e499 == 1f))) * select(0f, 1f, (_e479 >= 0f)))) * 0.125f), _e392.z, _e451).xyxy;
    let _e528 = c16_.xxxx;
    let _e530 = select(_e528, _e527, (_e527 >= _e528));
    let _e534 = vec4<f32>(_e346, _e366, _e530.z, _e530.w);
    let _e536 = select(_e534, (_e486.wwww * _e534), vec4<bool>(false, false, true, true));
    let _e538 = constants.c[9];
    let _e545 = constants.c[8];
    let _e549 = constants.c[4];
    let _e555 = constants.c[2];
    let _e561 = select(_e536, (_e536.xxxx * (((((_e545.wwww * _e545) * _e549) * _e536.zzzz) + (_e536.wwww * ((_e538.wwww * _e538) * _e497))) * _e555).xyyz), vec4<bool>(true, false, true, true));
    let _e563 = constants.c[7];
    let _e567 = constants.c[3];
    let _e568 = ((_e563.wwww * _e563) * _e567);
    let _e573 = select(_e561, ((_e568.xyyz * _e555.xyyz) + _e561), vec4<bool>(true, false, true, true));
    let _e592 = select(_e573, (vec4<f32>(log2(abs(abs(_e573.x))), log2(abs(abs(_e573.z))), log2(abs(abs(_e573.w))), _e568.w).xyyz * c20_.zzzz), vec4<bool>(true, false, true, true));
    let _e614 = constants.c[1];
    let _e621 = select(_e592, ((vec4<f32>(_e384.x, _e384.y, _e384.z, _e495).xyyz * _e614.yyyy) + vec4<f32>(select(exp2(_e592.x), _e592.x, !((_e592.x == _e592.x))), select(exp2(_e592.z), _e592.z, !((_e592.z == _e592.z))), select(exp2(_e592.w), _e592.w, !((_e592.w == _e592.w))), _e568.w).xyyz), vec4<bool>(true, false, true, true));
    let _e623 = (1f / _e621.y);
    let _e626 = ((_e623 * _e623) * 0.000017673015f);
    let _e635 = vec4<f32>(_e621.x, (1f / select(exp2(_e626), _e626, !((_e626 == _e626)))), _e621.z, _e621.w);
    let _e638 = (_e635.xzww * _e635.yyyy);
    return FragmentOutput(vec4<f32>(_e638.x, _e638.y, _e638.z, 1f));
}
