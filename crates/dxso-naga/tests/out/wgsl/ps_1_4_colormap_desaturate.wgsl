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
    let _e18 = ((_e8.xxxx * _e14.xxxx) + _e14.yyyy);
    let _e26 = select(_e8, select(vec4(0f), clamp(_e18, vec4(-8f), vec4(8f)), (_e18 == _e18)), vec4<bool>(true, true, false, false));
    let _e30 = textureSample(texture1_, sampler1_, _e26.xy);
    let _e34 = constants.c[6];
    let _e35 = clamp(_e34, vec4(-1f), vec4(1f));
    let _e37 = (-(v0_color0_.w) + _e35.w);
    let _e46 = dot(_e30.xyz, _e35.xyz);
    let _e50 = (select(0f, clamp(_e46, -8f, 8f), (_e46 == _e46)) * v0_color0_.w);
    let _e57 = vec4<f32>(_e26.x, _e26.y, _e26.z, select(0f, clamp(_e37, -8f, 8f), (_e37 == _e37)));
    let _e60 = r2_;
    let _e67 = ((_e57.wwww * _e30) + vec4<f32>(_e60.x, _e60.y, _e60.z, select(0f, clamp(_e50, -8f, 8f), (_e50 == _e50))).wwww);
    let _e72 = select(_e57, select(vec4(0f), clamp(_e67, vec4(-8f), vec4(8f)), (_e67 == _e67)), vec4<bool>(true, true, true, false));
    let _e75 = ((_e72 * v1_color1_.wwww) + v1_color1_);
    let _e80 = select(_e72, select(vec4(0f), clamp(_e75, vec4(-8f), vec4(8f)), (_e75 == _e75)), vec4<bool>(true, true, true, false));
    let _e87 = vec4<f32>(_e80.x, _e80.y, _e80.z, select(0f, clamp(_e30.w, -8f, 8f), (_e30.w == _e30.w)));
    let _e88 = (_e87 * v0_color0_);
    return FragmentOutput(select(_e87, select(vec4(0f), clamp(_e88, vec4(-8f), vec4(8f)), (_e88 == _e88)), vec4<bool>(true, true, true, false)));
}
