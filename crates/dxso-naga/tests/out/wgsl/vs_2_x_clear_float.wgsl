struct VertexOutput {
    @builtin(position) oPos_position0_: vec4<f32>,
    @location(2) oT0_texcoord0_: vec4<f32>,
}

struct Constants {
    c: array<vec4<f32>, 256>,
}

const c1_: vec4<f32> = vec4<f32>(1f, 0f, 0f, 0f);

@group(0) @binding(0) 
var<uniform> constants: Constants;

@vertex 
fn main(@location(0) v0_texcoord0_: vec4<f32>, @location(1) v1_texcoord1_: vec4<f32>) -> VertexOutput {
    var oPos: vec4<f32>;

    let _e5 = constants.c[0];
    let _e6 = (v0_texcoord0_ + _e5);
    let _e14 = ((v0_texcoord0_.zzzz * c1_.xyxy) + c1_.xyyx);
    return VertexOutput(vec4<f32>(_e6.x, _e6.y, _e14.z, _e14.w), v1_texcoord1_);
}
