struct VertexOutput {
    @builtin(position) oPos_position0_: vec4<f32>,
    @location(0) oD0_color0_: vec4<f32>,
    @location(10) oFog_fog0_: vec4<f32>,
}

const c0_: vec4<f32> = vec4<f32>(-1.25f, 0f, -0.9f, 0f);

@vertex 
fn main(@location(0) v0_position0_: vec4<f32>, @location(1) v1_color0_: vec4<f32>) -> VertexOutput {
    var oFog: vec4<f32>;

    let _e11 = oFog;
    return VertexOutput(v0_position0_, v1_color0_, vec4<f32>(((v0_position0_.zzzz + c0_.zzzz).xxxx * c0_.xxxx).x, _e11.y, _e11.z, _e11.w));
}
