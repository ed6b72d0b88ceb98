struct FragmentOutput {
    @location(0) oC0_color0_: vec4<f32>,
}

const c0_: vec4<f32> = vec4<f32>(1f, 0f, 0f, 0f);

@group(1) @binding(1) 
var texture0_: texture_2d<f32>;
@group(1) @binding(2) 
var sampler0_: sampler;

@fragment 
fn main(@location(2) t0_texcoord0_: vec4<f32>) -> FragmentOutput {
    let _e4 = textureSample(texture0_, sampler0_, t0_texcoord0_.xy);
    return FragmentOutput(((_e4.xxxx * c0_.xxxy) + c0_.yyyx));
}
