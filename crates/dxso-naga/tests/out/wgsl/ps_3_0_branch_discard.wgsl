struct FragmentOutput {
    @location(0) oC0_color0_: vec4<f32>,
}

@group(1) @binding(1) 
var texture0_: texture_2d<f32>;
@group(1) @binding(2) 
var sampler0_: sampler;

@fragment 
fn main(@location(0) v1_color0_: vec4<f32>, @location(2) v0_texcoord0_: vec4<f32>) -> FragmentOutput {
    var killed: bool;
    var r0_: vec4<f32>;
    var r1_: vec4<f32>;
    var r2_: vec4<f32>;

    killed = false;
    let _e7 = textureSample(texture0_, sampler0_, v0_texcoord0_.xy);
    let _e9 = dpdxFine(v0_texcoord0_.xyxy);
    let _e11 = dpdyFine(v0_texcoord0_.xyxy);
    r0_ = _e7;
    if (_e7.w > 0.5f) {
        r0_ = select(_e7, (_e9 + _e11), vec4<bool>(true, true, false, false));
        r1_ = _e9;
        r2_ = _e11;
    } else {
        let _e24 = killed;
        killed = (_e24 || any((v1_color0_ < vec4(0f))));
    }
    let _e26 = r0_;
    let _e28 = killed;
    if _e28 {
        discard;
    }
    return FragmentOutput((_e26 * v1_color0_));
}
