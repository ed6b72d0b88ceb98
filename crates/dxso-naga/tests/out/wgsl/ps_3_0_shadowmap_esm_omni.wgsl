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
    let _e356 = abs(_e353);
    let _e366 = ((select(sqrt(-(_e356)), (_e353 - floor(_e353)), ((_e356 * 0.5f) <= 170141170000000000000000000000000000000f)) * 6.2831855f) + -3.1415927f);
    let _e367 = cos(_e366);
    let _e373 = inverseSqrt(abs(dot(v6_texcoord5_.xyz, v6_texcoord5_.xyz)));
    let _e375 = constants.c[6];
    let _e377 = abs(_e375.w);
    let _e381 = (_e375.xxyz + -(v6_texcoord5_.xxyz));
    let _e385 = vec4<f32>(_e367, _e381.y, _e381.z, _e381.w);
    let _e390 = inverseSqrt(abs(dot(_e385.yzw, _e385.yzw)));
    let _e391 = r1_;
    let _e399 = select(_e306, (vec4<f32>(_e391.x, _e391.y, _e391.z, _e390).wwww * _e385.yzww), vec4<bool>(true, true, true, false));
    let _e400 = (1f / _e390);
    let _e411 = constants.c[10];
    let _e412 = _e411.xyz;
    let _e413 = dot(_e412, _e412);
    let _e417 = (_e411 * select(inverseSqrt(_e413), 0f, (_e413 == 0f)));
    let _e423 = r4_;
    let _e427 = dot(-(_e399.xyz), vec4<f32>(_e417.x, _e417.y, _e417.z, _e423.w).xyz);
    let _e435 = (vec4<f32>(_e346, _e373, _e377, _e348.w).wwww + c18_);
    let _e442 = ((select(_e411.w, _e435.z, (_e435.z < _e411.w)) * 0.0027777778f) + 0.5f);
    let _e445 = abs(_e442);
    let _e452 = ((select(sqrt(-(_e445)), (_e442 - floor(_e442)), ((_e445 * 0.5f) <= 170141170000000000000000000000000000000f)) * 6.2831855f) + -3.1415927f);
    let _e458 = ((1f / (-(_e367) + cos(_e452))) * (-(_e367) + select(0f, _e427, (_e427 >= 0f))));
    let _e463 = select(select(0f, saturate(_e458), (_e458 == _e458)), 1f, (_e435.w >= 0f));
    let _e464 = (_e463 * (1f / (((_e400 * _e400) * _e348.z) + ((_e348.y * _e400) + _e348.x))));
    let _e465 = _e375.xyz;
    let _e466 = dot(_e465, _e465);
    let _e470 = (_e375 * select(inverseSqrt(_e466), 0f, (_e466 == 0f)));
    let _e475 = vec4<f32>(_e470.x, _e470.y, _e470.z, _e423.w);
    let _e476 = -(_e475);
    let _e489 = select(vec4<f32>(_e399.x, _e399.y, _e399.z, _e464), vec4<f32>(_e476.x, _e476.y, _e476.z, 1f), (-(vec4<f32>(_e346, _e373, _e377, _e463).zzzz) >= vec4(0f)));
    let _e492 = dot(v0_normal0_.xyz, _e489.xyz);
    let _e494 = vec4<f32>(_e346, _e373, (_e492 + _e492), _e463);
    let _e499 = select(_e489, ((_e494.zzzz * v0_normal0_) + -(_e489)), vec4<bool>(true, true, true, false));
    let _e506 = dot(_e499.xyz, -(select(_e475, (_e494.yyyy * v6_texcoord5_), vec4<bool>(true, true, true, false)).xyz));
    let _e508 = select(0f, _e506, (_e506 >= 0f));
    let _e510 = constants.c[5];
    let _e512 = abs(_e508);
    let _e540 = vec4<f32>(_e492, (((2f + _e510.w) * (select(select(select(pow(_e512, _e510.w), select(_e512, (1f / _e512), (_e510.w < 0f)), (_e512 == 0f)), (_e512 + _e510.w), (!((_e512 == _e512)) || !((_e510.w == _e510.w)))), 1f, ((_e510.w == 0f) || (_e512 == 1f))) * select(0f, 1f, (_e492 >= 0f)))) * 0.125f), _e399.z, _e464).xyxy;
    let _e541 = c16_.xxxx;
    let _e543 = select(_e541, _e540, (_e540 >= _e541));
    let _e547 = vec4<f32>(_e346, _e373, _e543.z, _e543.w);
    let _e549 = select(_e547, (_e499.wwww * _e547), vec4<bool>(false, false, true, true));
    let _e551 = constants.c[9];
    let _e558 = constants.c[8];
    let _e562 = constants.c[4];
    let _e568 = constants.c[2];
    let _e574 = select(_e549, (_e549.xxxx * (((((_e558.wwww * _e558) * _e562) * _e549.zzzz) + (_e549.wwww * ((_e551.wwww * _e551) * _e510))) * _e568).xyyz), vec4<bool>(true, false, true, true));
    let _e576 = constants.c[7];
    let _e580 = constants.c[3];
    let _e581 = ((_e576.wwww * _e576) * _e580);
    let _e586 = select(_e574, ((_e581.xyyz * _e568.xyyz) + _e574), vec4<bool>(true, false, true, true));
    let _e605 = select(_e586, (vec4<f32>(log2(abs(abs(_e586.x))), log2(abs(abs(_e586.z))), log2(abs(abs(_e586.w))), _e581.w).xyyz * c20_.zzzz), vec4<bool>(true, false, true, true));
    let _e627 = constants.c[1];
    let _e634 = select(_e605, ((vec4<f32>(_e391.x, _e391.y, _e391.z, _e508).xyyz * _e627.yyyy) + vec4<f32>(select(exp2(_e605.x), _e605.x, !((_e605.x == _e605.x))), select(exp2(_e605.z), _e605.z, !((_e605.z == _e605.z))), select(exp2(_e605.w), _e605.w, !((_e605.w == _e605.w))), _e581.w).xyyz), vec4<bool>(true, false, true, true));
    let _e636 = (1f / _e634.y);
    let _e639 = ((_e636 * _e636) * 0.000017673015f);
    let _e648 = vec4<f32>(_e634.x, (1f / select(exp2(_e639), _e639, !((_e639 == _e639)))), _e634.z, _e634.w);
    let _e651 = (_e648.xzww * _e648.yyyy);
    return FragmentOutput(vec4<f32>(_e651.x, _e651.y, _e651.z, 1f));
}
