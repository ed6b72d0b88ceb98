struct VertexOutput {
    @builtin(position) oPos_position0_: vec4<f32>,
    @location(0) oD0_color0_: vec4<f32>,
    @location(2) oT0_texcoord0_: vec4<f32>,
}

struct Constants {
    c: array<vec4<f32>, 256>,
    i: array<vec4<i32>, 16>,
}

const c11_: vec4<f32> = vec4<f32>(3f, 0f, 1f, 0f);

@group(0) @binding(0) 
var<uniform> constants: Constants;

@vertex 
fn main(@location(0) v0_position0_: vec4<f32>, @location(1) v1_normal0_: vec4<f32>, @location(2) v2_texcoord0_: vec4<f32>, @location(3) v3_color0_: vec4<f32>, @location(4) v4_blendweight0_: vec4<f32>, @location(5) v5_blendindices0_: vec4<f32>) -> VertexOutput {
    var r4_: vec4<f32>;
    var r2_: vec4<f32>;
    var r3_: vec4<f32>;
    var r1_: vec4<f32>;
    var r0_: vec4<f32>;
    var a0_: vec4<i32>;
    var count: i32;
    var r5_: vec4<f32>;
    var count_1: i32;
    var count_2: i32;
    var oT0_: vec4<f32>;

    let _e12 = (v5_blendindices0_ * c11_.xxxx);
    let _e20 = i32((floor((abs(_e12.x) + 0.5f)) * sign(_e12.x)));
    let _e23 = (_e20 + 43i);
    let _e26 = clamp(_e23, 0i, 255i);
    let _e29 = constants.c[_e26];
    let _e38 = (_e20 + 41i);
    let _e39 = clamp(_e38, 0i, 255i);
    let _e42 = constants.c[_e39];
    let _e48 = (_e20 + 42i);
    let _e49 = clamp(_e48, 0i, 255i);
    let _e52 = constants.c[_e49];
    let _e57 = (_e20 + 43i);
    let _e58 = clamp(_e57, 0i, 255i);
    let _e61 = constants.c[_e58];
    let _e67 = (_e20 + 41i);
    let _e68 = clamp(_e67, 0i, 255i);
    let _e71 = constants.c[_e68];
    let _e78 = (_e20 + 42i);
    let _e79 = clamp(_e78, 0i, 255i);
    let _e82 = constants.c[_e79];
    let _e94 = i32((floor((abs(_e12.y) + 0.5f)) * sign(_e12.y)));
    let _e96 = (_e94 + 43i);
    let _e97 = clamp(_e96, 0i, 255i);
    let _e100 = constants.c[_e97];
    let _e106 = (_e94 + 41i);
    let _e107 = clamp(_e106, 0i, 255i);
    let _e110 = constants.c[_e107];
    let _e115 = (_e94 + 42i);
    let _e116 = clamp(_e115, 0i, 255i);
    let _e119 = constants.c[_e116];
    let _e124 = (_e94 + 43i);
    let _e125 = clamp(_e124, 0i, 255i);
    let _e128 = constants.c[_e125];
    let _e134 = r4_;
    let _e136 = vec4<f32>(dot(v0_position0_, select(vec4(0f), select(_e110, c11_, (_e107 == 11i)), (_e107 == _e106))), dot(v0_position0_, select(vec4(0f), select(_e119, c11_, (_e116 == 11i)), (_e116 == _e115))), dot(v0_position0_, select(vec4(0f), select(_e128, c11_, (_e125 == 11i)), (_e125 == _e124))), _e134.w);
    let _e140 = select(_e136, (_e136 * v4_blendweight0_.yyyy), vec4<bool>(true, true, true, false));
    let _e142 = r2_;
    let _e144 = vec4<f32>(dot(v0_position0_, select(vec4(0f), select(_e42, c11_, (_e39 == 11i)), (_e39 == _e38))), dot(v0_position0_, select(vec4(0f), select(_e52, c11_, (_e49 == 11i)), (_e49 == _e48))), dot(v0_position0_, select(vec4(0f), select(_e61, c11_, (_e58 == 11i)), (_e58 == _e57))), _e142.w);
    let _e148 = select(_e144, ((_e144 * v4_blendweight0_.xxxx) + _e140), vec4<bool>(true, true, true, false));
    let _e150 = (_e94 + 41i);
    let _e151 = clamp(_e150, 0i, 255i);
    let _e154 = constants.c[_e151];
    let _e161 = (_e94 + 42i);
    let _e162 = clamp(_e161, 0i, 255i);
    let _e165 = constants.c[_e162];
    let _e172 = r3_;
    let _e174 = vec4<f32>(dot(v1_normal0_.xyz, select(vec4(0f), select(_e154, c11_, (_e151 == 11i)), (_e151 == _e150)).xyz), dot(v1_normal0_.xyz, select(vec4(0f), select(_e165, c11_, (_e162 == 11i)), (_e162 == _e161)).xyz), dot(v1_normal0_.xyz, select(vec4(0f), select(_e100, c11_, (_e97 == 11i)), (_e97 == _e96)).xyz), _e172.w);
    let _e177 = select(_e174, (_e174 * v4_blendweight0_.yyyy), vec4<bool>(true, true, true, false));
    let _e179 = r1_;
    let _e181 = vec4<f32>(dot(v1_normal0_.xyz, select(vec4(0f), select(_e71, c11_, (_e68 == 11i)), (_e68 == _e67)).xyz), dot(v1_normal0_.xyz, select(vec4(0f), select(_e82, c11_, (_e79 == 11i)), (_e79 == _e78)).xyz), dot(v1_normal0_.xyz, select(vec4(0f), select(_e29, c11_, (_e26 == 11i)), (_e26 == _e23)).xyz), _e179.w);
    let _e185 = select(_e181, ((_e181 * v4_blendweight0_.xxxx) + _e177), vec4<bool>(true, true, true, false));
    let _e192 = i32((floor((abs(_e12.z) + 0.5f)) * sign(_e12.z)));
    let _e194 = (_e192 + 43i);
    let _e195 = clamp(_e194, 0i, 255i);
    let _e198 = constants.c[_e195];
    let _e204 = (_e192 + 41i);
    let _e205 = clamp(_e204, 0i, 255i);
    let _e208 = constants.c[_e205];
    let _e213 = (_e192 + 42i);
    let _e214 = clamp(_e213, 0i, 255i);
    let _e217 = constants.c[_e214];
    let _e222 = (_e192 + 43i);
    let _e223 = clamp(_e222, 0i, 255i);
    let _e226 = constants.c[_e223];
    let _e236 = select(_e148, ((vec4<f32>(dot(v0_position0_, select(vec4(0f), select(_e208, c11_, (_e205 == 11i)), (_e205 == _e204))), dot(v0_position0_, select(vec4(0f), select(_e217, c11_, (_e214 == 11i)), (_e214 == _e213))), dot(v0_position0_, select(vec4(0f), select(_e226, c11_, (_e223 == 11i)), (_e223 == _e222))), _e177.w) * v4_blendweight0_.zzzz) + _e148), vec4<bool>(true, true, true, false));
    let _e238 = (_e192 + 41i);
    let _e239 = clamp(_e238, 0i, 255i);
    let _e242 = constants.c[_e239];
    let _e249 = (_e192 + 42i);
    let _e250 = clamp(_e249, 0i, 255i);
    let _e253 = constants.c[_e250];
    let _e260 = vec4<f32>(dot(v1_normal0_.xyz, select(vec4(0f), select(_e242, c11_, (_e239 == 11i)), (_e239 == _e238)).xyz), dot(v1_normal0_.xyz, select(vec4(0f), select(_e253, c11_, (_e250 == 11i)), (_e250 == _e249)).xyz), dot(v1_normal0_.xyz, select(vec4(0f), select(_e198, c11_, (_e195 == 11i)), (_e195 == _e194)).xyz), _e12.w);
    let _e264 = select(_e260, ((_e260 * v4_blendweight0_.zzzz) + _e185), vec4<bool>(true, true, true, false));
    let _e271 = i32((floor((abs(_e264.w) + 0.5f)) * sign(_e264.w)));
    let _e273 = (_e271 + 43i);
    let _e274 = clamp(_e273, 0i, 255i);
    let _e277 = constants.c[_e274];
    let _e283 = (_e271 + 41i);
    let _e284 = clamp(_e283, 0i, 255i);
    let _e287 = constants.c[_e284];
    let _e292 = (_e271 + 42i);
    let _e293 = clamp(_e292, 0i, 255i);
    let _e296 = constants.c[_e293];
    let _e301 = (_e271 + 43i);
    let _e302 = clamp(_e301, 0i, 255i);
    let _e305 = constants.c[_e302];
    let _e311 = vec4<f32>(dot(v0_position0_, select(vec4(0f), select(_e287, c11_, (_e284 == 11i)), (_e284 == _e283))), dot(v0_position0_, select(vec4(0f), select(_e296, c11_, (_e293 == 11i)), (_e293 == _e292))), dot(v0_position0_, select(vec4(0f), select(_e305, c11_, (_e302 == 11i)), (_e302 == _e301))), _e177.w);
    let _e315 = select(_e236, ((_e311 * v4_blendweight0_.wwww) + _e236), vec4<bool>(true, true, true, false));
    let _e317 = (_e271 + 41i);
    let _e318 = clamp(_e317, 0i, 255i);
    let _e321 = constants.c[_e318];
    let _e328 = (_e271 + 42i);
    let _e329 = clamp(_e328, 0i, 255i);
    let _e332 = constants.c[_e329];
    let _e339 = vec4<f32>(dot(v1_normal0_.xyz, select(vec4(0f), select(_e321, c11_, (_e318 == 11i)), (_e318 == _e317)).xyz), dot(v1_normal0_.xyz, select(vec4(0f), select(_e332, c11_, (_e329 == 11i)), (_e329 == _e328)).xyz), dot(v1_normal0_.xyz, select(vec4(0f), select(_e277, c11_, (_e274 == 11i)), (_e274 == _e273)).xyz), _e185.w);
    let _e342 = ((_e339 * v4_blendweight0_.wwww) + _e264);
    let _e345 = constants.c[5];
    let _e347 = select(_e339, (_e315.yyyy * _e345), vec4<bool>(true, true, true, false));
    let _e349 = constants.c[4];
    let _e353 = select(_e347, ((_e349 * _e315.xxxx) + _e347), vec4<bool>(true, true, true, false));
    let _e355 = constants.c[6];
    let _e359 = select(_e353, ((_e355 * _e315.zzzz) + _e353), vec4<bool>(true, true, true, false));
    let _e361 = constants.c[7];
    let _e366 = constants.c[9];
    let _e368 = select(_e311, (_e342.yyyy * _e366), vec4<bool>(true, true, true, false));
    let _e370 = constants.c[8];
    let _e377 = select(_e342, ((_e370.xyzz * _e342.xxxx) + _e368.xyzz), vec4<bool>(true, true, false, true));
    let _e379 = constants.c[10];
    let _e383 = ((_e379 * _e377.zzzz) + _e377.xyww);
    let _e385 = constants.c[13];
    let _e388 = constants.c[15];
    let _e392 = vec4<f32>(_e385.x, _e368.y, _e368.z, _e368.w);
    let _e396 = select(_e392, ((_e388 * _e392.xxxx) + v3_color0_), vec4<bool>(true, true, true, false));
    let _e400 = constants.i[0];
    r0_ = vec4<f32>(_e383.x, _e383.y, _e383.z, 0f);
    r1_ = select(_e359, (_e359 + _e361), vec4<bool>(true, true, true, false));
    r2_ = _e315;
    r3_ = _e396;
    r4_ = select(_e140, _e396, vec4<bool>(true, true, true, false));
    a0_.x = _e271;
    count = clamp(_e400.x, 0i, 255i);
    loop {
        let _e411 = count;
        if (_e411 <= 0i) {
            break;
        }
        let _e413 = r0_;
        let _e416 = constants.c[16];
        let _e420 = ((_e413.w + _e416.x) * 3f);
        let _e426 = i32((floor((abs(_e420) + 0.5f)) * sign(_e420)));
        let _e429 = (_e426 + 19i);
        let _e430 = clamp(_e429, 0i, 255i);
        let _e433 = constants.c[_e430];
        let _e439 = dot(_e413.xyz, -(select(vec4(0f), select(_e433, c11_, (_e430 == 11i)), (_e430 == _e429)).xyz));
        let _e442 = r1_;
        let _e446 = vec4<f32>(_e442.x, _e442.y, _e442.z, select(0f, _e439, (_e439 >= 0f)));
        let _e449 = (_e426 + 17i);
        let _e450 = clamp(_e449, 0i, 255i);
        let _e453 = constants.c[_e450];
        let _e457 = (_e446.wwww * select(vec4(0f), select(_e453, c11_, (_e450 == 11i)), (_e450 == _e449)));
        let _e462 = r5_;
        let _e464 = vec4<f32>(_e457.x, _e457.y, _e457.z, _e462.w);
        let _e466 = r4_;
        r0_.w = (_e413.w + 1f);
        r1_ = _e446;
        r4_ = select(_e466, ((_e464 * _e385.zzzz) + _e466), vec4<bool>(true, true, true, false));
        r5_ = _e464;
        a0_.x = _e426;
        continuing {
            let _e474 = count;
            count = (_e474 - 1i);
        }
    }
    let _e477 = r4_;
    let _e482 = constants.i[1];
    r0_.w = 0f;
    r3_.x = _e477.x;
    r3_.y = _e477.y;
    r3_.z = _e477.z;
    count_1 = clamp(_e482.x, 0i, 255i);
    loop {
        let _e490 = count_1;
        if (_e490 <= 0i) {
            break;
        }
        let _e492 = r0_;
        let _e495 = constants.c[16];
        let _e498 = ((_e492.w + _e495.y) * 3f);
        let _e504 = i32((floor((abs(_e498) + 0.5f)) * sign(_e498)));
        let _e505 = r1_;
        let _e511 = (_e504 + 18i);
        let _e512 = clamp(_e511, 0i, 255i);
        let _e515 = constants.c[_e512];
        let _e520 = (vec4<f32>(_e505.x, _e505.y, _e505.z, _e498) + -(select(vec4(0f), select(_e515, c11_, (_e512 == 11i)), (_e512 == _e511))));
        let _e524 = r5_;
        let _e526 = vec4<f32>(_e520.x, _e520.y, _e520.z, _e524.w);
        let _e531 = inverseSqrt(abs(dot(_e526.xyz, _e526.xyz)));
        let _e538 = select(_e526, (vec4<f32>(_e505.x, _e505.y, _e505.z, _e531).wwww * _e526), vec4<bool>(true, true, true, false));
        let _e542 = dot(_e492.xyz, -(_e538.xyz));
        let _e545 = r2_;
        let _e551 = (_e504 + 17i);
        let _e552 = clamp(_e551, 0i, 255i);
        let _e555 = constants.c[_e552];
        let _e560 = select(_e538, (vec4<f32>(_e545.x, _e545.y, _e545.z, select(0f, _e542, (_e542 >= 0f))).wwww * select(vec4(0f), select(_e555, c11_, (_e552 == 11i)), (_e552 == _e551))), vec4<bool>(true, true, true, false));
        let _e562 = (_e504 + 17i);
        let _e563 = clamp(_e562, 0i, 255i);
        let _e566 = constants.c[_e563];
        let _e571 = (1f / select(vec4(0f), select(_e566, c11_, (_e563 == 11i)), (_e563 == _e562)).w);
        let _e574 = (((1f / _e531) * -(_e571)) + 1f);
        let _e580 = vec4<f32>(_e505.x, _e505.y, _e505.z, select(0f, _e574, (_e574 >= 0f)));
        let _e583 = select(_e560, (_e580.wwww * _e560), vec4<bool>(true, true, true, false));
        let _e585 = r3_;
        r0_.w = (_e492.w + 1f);
        r1_ = _e580;
        r2_.w = _e571;
        r3_ = select(_e585, ((_e583 * _e385.zzzz) + _e585), vec4<bool>(true, true, true, false));
        r5_ = _e583;
        a0_.x = _e504;
        continuing {
            let _e593 = count_1;
            count_1 = (_e593 - 1i);
        }
    }
    let _e595 = r3_;
    let _e600 = constants.i[2];
    r0_.w = 0f;
    r4_.x = _e595.x;
    r4_.y = _e595.y;
    r4_.z = _e595.z;
    count_2 = clamp(_e600.x, 0i, 255i);
    loop {
        let _e608 = count_2;
        if (_e608 <= 0i) {
            break;
        }
        let _e610 = r0_;
        let _e613 = constants.c[16];
        let _e616 = ((_e610.w + _e613.z) * 3f);
        let _e622 = i32((floor((abs(_e616) + 0.5f)) * sign(_e616)));
        let _e623 = r1_;
        let _e628 = (_e622 + 18i);
        let _e629 = clamp(_e628, 0i, 255i);
        let _e632 = constants.c[_e629];
        let _e637 = (vec4<f32>(_e623.x, _e623.y, _e623.z, _e616) + -(select(vec4(0f), select(_e632, c11_, (_e629 == 11i)), (_e629 == _e628))));
        let _e641 = r5_;
        let _e643 = vec4<f32>(_e637.x, _e637.y, _e637.z, _e641.w);
        let _e648 = inverseSqrt(abs(dot(_e643.xyz, _e643.xyz)));
        let _e655 = select(_e643, (vec4<f32>(_e623.x, _e623.y, _e623.z, _e648).wwww * _e643), vec4<bool>(true, true, true, false));
        let _e659 = dot(_e610.xyz, -(_e655.xyz));
        let _e661 = (_e622 + 19i);
        let _e662 = clamp(_e661, 0i, 255i);
        let _e665 = constants.c[_e662];
        let _e672 = select(0f, _e659, (_e659 >= 0f));
        let _e673 = (_e622 + 18i);
        let _e674 = clamp(_e673, 0i, 255i);
        let _e677 = constants.c[_e674];
        let _e683 = (_e622 + 18i);
        let _e684 = clamp(_e683, 0i, 255i);
        let _e687 = constants.c[_e684];
        let _e694 = ((dot(_e655.xyz, select(vec4(0f), select(_e665, c11_, (_e662 == 11i)), (_e662 == _e661)).xyz) + select(vec4(0f), select(_e677, c11_, (_e674 == 11i)), (_e674 == _e673)).w) * (1f / (1f + select(vec4(0f), select(_e687, c11_, (_e684 == 11i)), (_e684 == _e683)).w)));
        let _e700 = (_e622 + 19i);
        let _e701 = clamp(_e700, 0i, 255i);
        let _e704 = constants.c[_e701];
        let _e710 = select(select(vec4(0f), select(_e704, c11_, (_e701 == 11i)), (_e701 == _e700)).w, _e694, (_e694 >= select(vec4(0f), select(_e704, c11_, (_e701 == 11i)), (_e701 == _e700)).w));
        let _e712 = r2_;
        let _e718 = (_e622 + 17i);
        let _e719 = clamp(_e718, 0i, 255i);
        let _e722 = constants.c[_e719];
        let _e726 = (vec4<f32>(_e712.x, _e712.y, _e712.z, (((select(0f, 1f, (_e694 < 0f)) * -(_e672)) + _e672) * _e710)).wwww * select(vec4(0f), select(_e722, c11_, (_e719 == 11i)), (_e719 == _e718)));
        let _e731 = (_e622 + 17i);
        let _e732 = clamp(_e731, 0i, 255i);
        let _e735 = constants.c[_e732];
        let _e740 = (1f / select(vec4(0f), select(_e735, c11_, (_e732 == 11i)), (_e732 == _e731)).w);
        let _e743 = (((1f / _e648) * -(_e740)) + 1f);
        let _e749 = vec4<f32>(_e623.x, _e623.y, _e623.z, select(0f, _e743, (_e743 >= 0f)));
        let _e752 = vec4<f32>(_e726.x, _e726.y, _e726.z, _e655.w);
        let _e754 = select(_e752, (_e749.wwww * _e752), vec4<bool>(true, true, true, false));
        let _e756 = r4_;
        r0_.w = (_e610.w + 1f);
        r1_ = _e749;
        r2_.w = _e740;
        r3_.w = _e710;
        r4_ = select(_e756, ((_e754 * _e385.zzzz) + _e756), vec4<bool>(true, true, true, false));
        r5_ = _e754;
        a0_.x = _e622;
        continuing {
            let _e765 = count_2;
            count_2 = (_e765 - 1i);
        }
    }
    let _e768 = r4_;
    let _e772 = vec4<f32>(_e768.x, _e768.y, _e768.z, v3_color0_.w);
    let _e773 = c11_.yyyy;
    let _e775 = select(_e773, _e772, (_e772 >= _e773));
    let _e776 = c11_.zzzz;
    let _e780 = constants.c[12];
    let _e782 = r2_;
    let _e785 = constants.c[1];
    let _e788 = constants.c[0];
    let _e793 = constants.c[2];
    let _e798 = constants.c[3];
    let _e799 = (((_e793 * _e782.zzzz) + ((_e788 * _e782.xxxx) + (_e782.yyyy * _e785))) + _e798);
    let _e802 = constants.c[14];
    let _e807 = ((_e799.w + -(_e802.y)) * _e802.z);
    let _e810 = select(_e802.w, _e807, (_e807 >= _e802.w));
    let _e816 = oT0_;
    return VertexOutput(_e799, (select(_e776, _e775, (_e775 < _e776)) * _e780), vec4<f32>(v2_texcoord0_.x, v2_texcoord0_.y, select(1f, _e810, (_e810 < 1f)), _e816.w));
}
