struct FragmentOutput {
    @location(0) r0_color0_: vec4<f32>,
}

struct Constants {
    c: array<vec4<f32>, 224>,
}

const c3_: vec4<f32> = vec4<f32>(0.5f, 0.5f, 0.5f, 0f);
const c0_: vec4<f32> = vec4<f32>(1f, 0f, 0f, 0f);

@group(1) @binding(0) 
var<uniform> constants: Constants;

@fragment 
fn main(@location(2) t0_texcoord0_: vec4<f32>) -> FragmentOutput {
    let _e8 = (select(saturate(t0_texcoord0_), vec4(1f), vec4<bool>(false, false, false, true)) - c3_);
    let _e18 = constants.c[1];
    let _e20 = clamp(_e18, vec4(-1f), vec4(1f));
    let _e22 = constants.c[2];
    return FragmentOutput(vec4<f32>(_e20.x, _e20.y, _e20.z, vec4(dot(_e8.xyz, (c0_ + c0_).xyz)).w));
}
