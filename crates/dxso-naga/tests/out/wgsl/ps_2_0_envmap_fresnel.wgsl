struct FragmentOutput {
    @location(0) oC0_color0_: vec4<f32>,
}

struct Constants {
    c: array<vec4<f32>, 224>,
}

const c12_: vec4<f32> = vec4<f32>(1f, 0f, 0.5f, 0f);

@group(1) @binding(0) 
var<uniform> constants: Constants;
@group(1) @binding(3) 
var texture1_: texture_2d<f32>;
@group(1) @binding(4) 
var sampler1_: sampler;
@group(1) @binding(1) 
var texture0_: texture_2d<f32>;
@group(1) @binding(2) 
var sampler0_: sampler;

@fragment 
fn main(@location(2) t0_texcoord0_: vec4<f32>, @location(3) t1_texcoord1_: vec4<f32>, @location(4) t2_texcoord2_: vec4<f32>, @location(5) t3_texcoord3_: vec4<f32>) -> FragmentOutput {
    var r0_: vec4<f32>;
    var r1_: vec4<f32>;
    var r3_: vec4<f32>;

    let _e8 = constants.c[10];
    let _e9 = (-(t1_texcoord1_) + _e8);
    let _e14 = r0_;
    let _e16 = vec4<f32>(_e9.x, _e9.y, _e9.z, _e14.w);
    let _e17 = _e16.xyz;
    let _e18 = dot(_e17, _e17);
    let _e23 = (_e16 * select(inverseSqrt(_e18), 0f, (_e18 == 0f)));
    let _e27 = t2_texcoord2_.xyz;
    let _e28 = dot(_e27, _e27);
    let _e34 = select(_e16, (t2_texcoord2_ * select(inverseSqrt(_e28), 0f, (_e28 == 0f))), vec4<bool>(true, true, true, false));
    let _e36 = r1_;
    let _e38 = vec4<f32>(_e23.x, _e23.y, _e23.z, _e36.w);
    let _e42 = dot(-(_e38.xyz), _e34.xyz);
    let _e47 = vec4<f32>(_e34.x, _e34.y, _e34.z, (_e42 + _e42));
    let _e52 = ((_e47 * -(_e47.wwww)) + -(_e38));
    let _e59 = (-(abs(dot(_e38.xyz, _e47.xyz))) + 1f);
    let _e63 = constants.c[1];
    let _e77 = (_e52.z + 1f);
    let _e82 = (1f / inverseSqrt(abs(((_e77 * _e77) + ((_e52.x * _e52.x) + (_e52.y * _e52.y))))));
    let _e84 = (1f / (_e82 + _e82));
    let _e91 = r3_;
    let _e98 = textureSample(texture1_, sampler1_, vec4<f32>(((_e52.x * _e84) + 0.5f), ((_e52.y * _e84) + 0.5f), _e91.z, _e91.w).xy);
    let _e102 = textureSample(texture0_, sampler0_, t0_texcoord0_.xy);
    let _e104 = constants.c[4];
    let _e110 = vec4<f32>(_e34.x, _e34.y, _e34.z, (select(pow(abs(select(0f, _e59, (_e59 >= 0f))), _e63.y), 1f, (_e63.y == 0f)) * _e63.x));
    let _e114 = constants.c[5];
    let _e120 = constants.c[6];
    let _e126 = vec4<f32>(dot(-(_e104.xyz), _e110.xyz), dot(-(_e114.xyz), _e110.xyz), dot(-(_e120.xyz), _e110.xyz), _e91.w);
    let _e133 = select(_e110, select(c12_.yyyy, c12_.xxxx, (_e126 >= vec4(0f))), vec4<bool>(true, true, true, false));
    let _e135 = select(_e133, (_e126 * _e133), vec4<bool>(true, true, true, false));
    let _e138 = constants.c[8];
    let _e142 = constants.c[7];
    let _e147 = constants.c[9];
    let _e150 = select(_e135, ((_e135.zzzz * _e147) + ((_e135.xxxx * _e142) + (_e135.yyyy * _e138))), vec4<bool>(true, true, true, false));
    let _e152 = constants.c[2];
    let _e154 = constants.c[3];
    let _e157 = select(_e150, ((_e150 * _e152) + _e154), vec4<bool>(true, true, true, false));
    let _e158 = (_e102 * t3_texcoord3_);
    let _e160 = select(_e157, (_e157 * _e158), vec4<bool>(true, true, true, false));
    let _e165 = select(_e98, ((_e98 * _e158.wwww) + -(_e160)), vec4<bool>(true, true, true, false));
    let _e173 = vec4<f32>(_e165.x, _e165.y, _e165.z, (_e165.w * _e158.w));
    let _e177 = constants.c[0];
    let _e180 = ((_e177 * _e173.wwww) + ((_e160.wwww * _e173) + _e160));
    let _e182 = constants.c[11];
    return FragmentOutput(select(_e158, ((t1_texcoord1_.wwww * ((_e182 * _e158.wwww) + -(_e180))) + _e180), vec4<bool>(true, true, true, false)));
}
