struct VertexOutput {
    @builtin(position) o0_position0_: vec4<f32>,
    @location(2) o1_texcoord0_: vec4<f32>,
}

struct Constants {
    c: array<vec4<f32>, 256>,
    i: array<vec4<i32>, 16>,
}

const c100_: vec4<f32> = vec4<f32>(0f, 0.5f, 1f, 0f);

@group(0) @binding(0) 
var<uniform> constants: Constants;
@group(0) @binding(1) 
var texture0_: texture_2d<f32>;
@group(0) @binding(2) 
var sampler0_: sampler;

@vertex 
fn main(@location(0) v0_position0_: vec4<f32>, @location(1) v1_texcoord0_: vec4<f32>) -> VertexOutput {
    var r0_: vec4<f32>;
    var count: i32;
    var aL_outer: i32;
    var aL: i32;
    var o0_: vec4<f32>;

    r0_ = c100_.xxxx;
    let _e15 = aL;
    aL_outer = _e15;
    aL = vec4<i32>(4i, 0i, 1i, 0i).y;
    count = clamp(vec4<i32>(4i, 0i, 1i, 0i).x, 0i, 255i);
    loop {
        let _e18 = count;
        if (_e18 <= 0i) {
            break;
        }
        let _e20 = r0_;
        let _e21 = aL;
        let _e22 = (_e21 + 0i);
        let _e23 = clamp(_e22, 0i, 255i);
        let _e26 = constants.c[_e23];
        r0_ = (_e20 + select(vec4(0f), select(_e26, c100_, (_e23 == 100i)), (_e23 == _e22)));
        continuing {
            let _e33 = count;
            count = (_e33 - 1i);
            let _e36 = aL;
            aL = (_e36 + vec4<i32>(4i, 0i, 1i, 0i).z);
        }
    }
    let _e38 = aL_outer;
    aL = _e38;
    let _e43 = textureSampleLevel(texture0_, sampler0_, v1_texcoord0_.xy, v1_texcoord0_.w);
    let _e44 = r0_;
    let _e47 = constants.c[10];
    let _e50 = constants.c[11];
    let _e53 = constants.c[12];
    let _e56 = constants.c[13];
    return VertexOutput(vec4<f32>(dot(v0_position0_, _e47), dot(v0_position0_, _e50), dot(v0_position0_, _e53), dot(v0_position0_, _e56)), (_e43 * _e44));
}
