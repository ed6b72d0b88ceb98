#version 450 core
struct VertexOutput {
    vec4 oPos_position0_;
    vec4 oT0_texcoord0_;
};
struct Constants {
    vec4 c[256];
};
const vec4 c1_ = vec4(1.0, 0.0, 0.0, 0.0);

layout(std140, binding = 0) uniform Constants_block_0Vertex { Constants _group_0_binding_0_vs; };

layout(location = 0) in vec4 _p2vs_location0;
layout(location = 1) in vec4 _p2vs_location1;
layout(location = 2) smooth out vec4 _vs2fs_location2;

void main() {
    vec4 v0_texcoord0_ = _p2vs_location0;
    vec4 v1_texcoord1_ = _p2vs_location1;
    vec4 oPos = vec4(0.0);
    vec4 _e5 = _group_0_binding_0_vs.c[0];
    vec4 _e6 = (v0_texcoord0_ + _e5);
    vec4 _e14 = ((v0_texcoord0_.zzzz * c1_.xyxy) + c1_.xyyx);
    VertexOutput _tmp_return = VertexOutput(vec4(_e6.x, _e6.y, _e14.z, _e14.w), v1_texcoord1_);
    gl_Position = _tmp_return.oPos_position0_;
    _vs2fs_location2 = _tmp_return.oT0_texcoord0_;
    gl_Position.yz = vec2(-gl_Position.y, gl_Position.z * 2.0 - gl_Position.w);
    return;
}

