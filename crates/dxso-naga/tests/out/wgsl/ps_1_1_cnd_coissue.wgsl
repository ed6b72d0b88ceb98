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
    let _e6 = select(saturate(t0_texcoord0_), vec4(1f), vec4<bool>(false, false, false, true));
    let _e13 = (select(vec4(0f), clamp(_e6, vec4(-1f), vec4(1f)), (_e6 == _e6)) - c3_);
    let _e16 = select(vec4(0f), clamp(_e13, vec4(-1f), vec4(1f)), (_e13 == _e13));
    let _e18 = (c0_ + c0_);
    let _e24 = dot(_e16.xyz, select(vec4(0f), clamp(_e18, vec4(-1f), vec4(1f)), (_e18 == _e18)).xyz);
    let _e35 = constants.c[1];
    let _e36 = clamp(_e35, vec4(-1f), vec4(1f));
    let _e38 = constants.c[2];
    let _e45 = select(vec4(0f), clamp(_e36, vec4(-1f), vec4(1f)), (_e36 == _e36));
    return FragmentOutput(vec4<f32>(_e45.x, _e45.y, _e45.z, select(0f, clamp(vec4(select(0f, clamp(_e24, -1f, 1f), (_e24 == _e24))).w, -1f, 1f), (vec4(select(0f, clamp(_e24, -1f, 1f), (_e24 == _e24))).w == vec4(select(0f, clamp(_e24, -1f, 1f), (_e24 == _e24))).w))));
}
