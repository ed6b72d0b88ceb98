struct FragmentOutput {
    @location(0) r0_color0_: vec4<f32>,
}

struct Constants {
    c: array<vec4<f32>, 224>,
}

@group(1) @binding(0) 
var<uniform> constants: Constants;
@group(1) @binding(1) 
var texture0_: texture_2d<f32>;
@group(1) @binding(2) 
var sampler0_: sampler;
@group(1) @binding(3) 
var texture1_: texture_2d<f32>;
@group(1) @binding(4) 
var sampler1_: sampler;

@fragment 
fn main(@location(0) v0_color0_: vec4<f32>, @location(1) v1_color1_: vec4<f32>, @location(2) t0_texcoord0_: vec4<f32>) -> FragmentOutput {
    var r2_: vec4<f32>;

    let _e8 = textureSample(texture0_, sampler0_, t0_texcoord0_.xy);
    let _e11 = constants.c[2];
    let _e14 = clamp(_e11, vec4(-1f), vec4(1f));
    let _e20 = select(_e8, ((_e8.xxxx * _e14.xxxx) + _e14.yyyy), vec4<bool>(true, true, false, false));
    let _e24 = textureSample(texture1_, sampler1_, _e20.xy);
    let _e28 = constants.c[6];
    let _e29 = clamp(_e28, vec4(-1f), vec4(1f));
    let _e39 = vec4<f32>(_e20.x, _e20.y, _e20.z, (-(v0_color0_.w) + _e29.w));
    let _e42 = r2_;
    let _e51 = select(_e39, ((_e39.wwww * _e24) + vec4<f32>(_e42.x, _e42.y, _e42.z, (dot(_e24.xyz, _e29.xyz) * v0_color0_.w)).wwww), vec4<bool>(true, true, true, false));
    let _e56 = select(_e51, ((_e51 * v1_color1_.wwww) + v1_color1_), vec4<bool>(true, true, true, false));
    let _e60 = vec4<f32>(_e56.x, _e56.y, _e56.z, _e24.w);
    return FragmentOutput(select(_e60, (_e60 * v0_color0_), vec4<bool>(true, true, true, false)));
}
