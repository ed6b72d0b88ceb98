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
    let _e337 = exp2((_e330.x * 1.442695f));
    let _e343 = select(1f, select(0f, saturate(_e337), (_e337 == _e337)), (-((_e330.z + _e330.y)) >= 0f));
    let _e345 = constants.c[11];
    let _e350 = ((_e345.w * 0.0027777778f) + 0.5f);
    let _e356 = (((_e350 - floor(_e350)) * 6.2831855f) + -3.1415927f);
    let _e357 = cos(_e356);
    let _e363 = inverseSqrt(abs(dot(v6_texcoord5_.xyz, v6_texcoord5_.xyz)));
    let _e365 = constants.c[6];
    let _e367 = abs(_e365.w);
    let _e371 = (_e365.xxyz + -(v6_texcoord5_.xxyz));
    let _e375 = vec4<f32>(_e357, _e371.y, _e371.z, _e371.w);
    let _e380 = inverseSqrt(abs(dot(_e375.yzw, _e375.yzw)));
    let _e381 = r1_;
    let _e389 = select(_e306, (vec4<f32>(_e381.x, _e381.y, _e381.z, _e380).wwww * _e375.yzww), vec4<bool>(true, true, true, false));
    let _e390 = (1f / _e380);
    let _e401 = constants.c[10];
    let _e402 = _e401.xyz;
    let _e403 = dot(_e402, _e402);
    let _e407 = (_e401 * select(inverseSqrt(_e403), 0f, (_e403 == 0f)));
    let _e413 = r4_;
    let _e417 = dot(-(_e389.xyz), vec4<f32>(_e407.x, _e407.y, _e407.z, _e413.w).xyz);
    let _e425 = (vec4<f32>(_e343, _e363, _e367, _e345.w).wwww + c18_);
    let _e432 = ((select(_e401.w, _e425.z, (_e425.z < _e401.w)) * 0.0027777778f) + 0.5f);
    let _e436 = (((_e432 - floor(_e432)) * 6.2831855f) + -3.1415927f);
    let _e442 = ((1f / (-(_e357) + cos(_e436))) * (-(_e357) + select(0f, _e417, (_e417 >= 0f))));
    let _e447 = select(select(0f, saturate(_e442), (_e442 == _e442)), 1f, (_e425.w >= 0f));
    let _e448 = (_e447 * (1f / (((_e390 * _e390) * _e345.z) + ((_e345.y * _e390) + _e345.x))));
    let _e449 = _e365.xyz;
    let _e450 = dot(_e449, _e449);
    let _e454 = (_e365 * select(inverseSqrt(_e450), 0f, (_e450 == 0f)));
    let _e459 = vec4<f32>(_e454.x, _e454.y, _e454.z, _e413.w);
    let _e460 = -(_e459);
    let _e473 = select(vec4<f32>(_e389.x, _e389.y, _e389.z, _e448), vec4<f32>(_e460.x, _e460.y, _e460.z, 1f), (-(vec4<f32>(_e343, _e363, _e367, _e447).zzzz) >= vec4(0f)));
    let _e476 = dot(v0_normal0_.xyz, _e473.xyz);
    let _e478 = vec4<f32>(_e343, _e363, (_e476 + _e476), _e447);
    let _e483 = select(_e473, ((_e478.zzzz * v0_normal0_) + -(_e473)), vec4<bool>(true, true, true, false));
    let _e490 = dot(_e483.xyz, -(select(_e459, (_e478.yyyy * v6_texcoord5_), vec4<bool>(true, true, true, false)).xyz));
    let _e492 = select(0f, _e490, (_e490 >= 0f));
    let _e494 = constants.c[5];
    let _e510 = vec4<f32>(_e476, (((2f + _e494.w) * (select(pow(abs(_e492), _e494.w), 1f, (_e494.w == 0f)) * select(0f, 1f, (_e476 >= 0f)))) * 0.125f), _e389.z, _e448).xyxy;
    let _e511 = c16_.xxxx;
    let _e513 = select(_e511, _e510, (_e510 >= _e511));
    let _e517 = vec4<f32>(_e343, _e363, _e513.z, _e513.w);
    let _e519 = select(_e517, (_e483.wwww * _e517), vec4<bool>(false, false, true, true));
    let _e521 = constants.c[9];
    let _e528 = constants.c[8];
    let _e532 = constants.c[4];
    let _e538 = constants.c[2];
    let _e544 = select(_e519, (_e519.xxxx * (((((_e528.wwww * _e528) * _e532) * _e519.zzzz) + (_e519.wwww * ((_e521.wwww * _e521) * _e494))) * _e538).xyyz), vec4<bool>(true, false, true, true));
    let _e546 = constants.c[7];
    let _e550 = constants.c[3];
    let _e551 = ((_e546.wwww * _e546) * _e550);
    let _e556 = select(_e544, ((_e551.xyyz * _e538.xyyz) + _e544), vec4<bool>(true, false, true, true));
    let _e575 = select(_e556, (vec4<f32>(log2(abs(abs(_e556.x))), log2(abs(abs(_e556.z))), log2(abs(abs(_e556.w))), _e551.w).xyyz * c20_.zzzz), vec4<bool>(true, false, true, true));
    let _e588 = constants.c[1];
    let _e595 = select(_e575, ((vec4<f32>(_e381.x, _e381.y, _e381.z, _e492).xyyz * _e588.yyyy) + vec4<f32>(exp2(_e575.x), exp2(_e575.z), exp2(_e575.w), _e551.w).xyyz), vec4<bool>(true, false, true, true));
    let _e597 = (1f / _e595.y);
    let _e606 = vec4<f32>(_e595.x, (1f / exp2(((_e597 * _e597) * 0.000017673015f))), _e595.z, _e595.w);
    let _e609 = (_e606.xzww * _e606.yyyy);
    return FragmentOutput(vec4<f32>(_e609.x, _e609.y, _e609.z, 1f));
}
