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
    let _e65 = abs(select(0f, _e59, (_e59 >= 0f)));
    let _e91 = (_e52.z + 1f);
    let _e96 = (1f / inverseSqrt(abs(((_e91 * _e91) + ((_e52.x * _e52.x) + (_e52.y * _e52.y))))));
    let _e98 = (1f / (_e96 + _e96));
    let _e105 = r3_;
    let _e112 = textureSample(texture1_, sampler1_, vec4<f32>(((_e52.x * _e98) + 0.5f), ((_e52.y * _e98) + 0.5f), _e105.z, _e105.w).xy);
    let _e116 = textureSample(texture0_, sampler0_, t0_texcoord0_.xy);
    let _e118 = constants.c[4];
    let _e124 = vec4<f32>(_e34.x, _e34.y, _e34.z, (select(select(select(pow(_e65, _e63.y), select(_e65, (1f / _e65), (_e63.y < 0f)), (_e65 == 0f)), (_e65 + _e63.y), (!((_e65 == _e65)) || !((_e63.y == _e63.y)))), 1f, ((_e63.y == 0f) || (_e65 == 1f))) * _e63.x));
    let _e128 = constants.c[5];
    let _e134 = constants.c[6];
    let _e140 = vec4<f32>(dot(-(_e118.xyz), _e124.xyz), dot(-(_e128.xyz), _e124.xyz), dot(-(_e134.xyz), _e124.xyz), _e105.w);
    let _e147 = select(_e124, select(c12_.yyyy, c12_.xxxx, (_e140 >= vec4(0f))), vec4<bool>(true, true, true, false));
    let _e149 = select(_e147, (_e140 * _e147), vec4<bool>(true, true, true, false));
    let _e152 = constants.c[8];
    let _e156 = constants.c[7];
    let _e161 = constants.c[9];
    let _e164 = select(_e149, ((_e149.zzzz * _e161) + ((_e149.xxxx * _e156) + (_e149.yyyy * _e152))), vec4<bool>(true, true, true, false));
    let _e166 = constants.c[2];
    let _e168 = constants.c[3];
    let _e171 = select(_e164, ((_e164 * _e166) + _e168), vec4<bool>(true, true, true, false));
    let _e172 = (_e116 * t3_texcoord3_);
    let _e174 = select(_e171, (_e171 * _e172), vec4<bool>(true, true, true, false));
    let _e179 = select(_e112, ((_e112 * _e172.wwww) + -(_e174)), vec4<bool>(true, true, true, false));
    let _e187 = vec4<f32>(_e179.x, _e179.y, _e179.z, (_e179.w * _e172.w));
    let _e191 = constants.c[0];
    let _e194 = ((_e191 * _e187.wwww) + ((_e174.wwww * _e187) + _e174));
    let _e196 = constants.c[11];
    return FragmentOutput(select(_e172, ((t1_texcoord1_.wwww * ((_e196 * _e172.wwww) + -(_e194))) + _e194), vec4<bool>(true, true, true, false)));
}
