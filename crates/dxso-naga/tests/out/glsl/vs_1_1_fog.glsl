#version 450 core
struct VertexOutput {
    vec4 oPos_position0_;
    vec4 oD0_color0_;
    vec4 oFog_fog0_;
};
const vec4 c0_ = vec4(-1.25, 0.0, -0.9, 0.0);

layout(location = 0) in vec4 _p2vs_location0;
layout(location = 1) in vec4 _p2vs_location1;
layout(location = 0) smooth out vec4 _vs2fs_location0;
layout(location = 10) smooth out vec4 _vs2fs_location10;

void main() {
    vec4 v0_position0_ = _p2vs_location0;
    vec4 v1_color0_ = _p2vs_location1;
    vec4 oFog = vec4(0.0);
    vec4 _e11 = oFog;
    VertexOutput _tmp_return = VertexOutput(v0_position0_, v1_color0_, vec4(((v0_position0_.zzzz + c0_.zzzz).xxxx * c0_.xxxx).x, _e11.y, _e11.z, _e11.w));
    gl_Position = _tmp_return.oPos_position0_;
    _vs2fs_location0 = _tmp_return.oD0_color0_;
    _vs2fs_location10 = _tmp_return.oFog_fog0_;
    gl_Position.yz = vec2(-gl_Position.y, gl_Position.z * 2.0 - gl_Position.w);
    return;
}

