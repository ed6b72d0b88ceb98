#version 450 core
struct VertexOutput {
    vec4 o0_position0_;
    vec4 o1_texcoord0_;
};
struct Constants {
    vec4 c[256];
    ivec4 i[16];
};
const vec4 c100_ = vec4(0.0, 0.5, 1.0, 0.0);

layout(std140, binding = 0) uniform Constants_block_0Vertex { Constants _group_0_binding_0_vs; };

layout(binding = 0) uniform sampler2D _group_0_binding_1_vs;

layout(location = 0) in vec4 _p2vs_location0;
layout(location = 1) in vec4 _p2vs_location1;
layout(location = 2) smooth out vec4 _vs2fs_location2;

void main() {
    vec4 v0_position0_ = _p2vs_location0;
    vec4 v1_texcoord0_ = _p2vs_location1;
    vec4 r0_ = vec4(0.0);
    int count = 0;
    int aL_outer = 0;
    int aL = 0;
    vec4 o0_ = vec4(0.0);
    r0_ = c100_.xxxx;
    int _e15 = aL;
    aL_outer = _e15;
    aL = ivec4(4, 0, 1, 0).y;
    count = min(max(ivec4(4, 0, 1, 0).x, 0), 255);
    bool loop_init = true;
    while(true) {
        if (!loop_init) {
            int _e33 = count;
            count = (_e33 - 1);
            int _e36 = aL;
            aL = (_e36 + ivec4(4, 0, 1, 0).z);
        }
        loop_init = false;
        int _e18 = count;
        if ((_e18 <= 0)) {
            break;
        }
        vec4 _e20 = r0_;
        int _e21 = aL;
        int _e22 = (_e21 + 0);
        int _e23 = min(max(_e22, 0), 255);
        vec4 _e26 = _group_0_binding_0_vs.c[_e23];
        r0_ = (_e20 + ((_e23 == _e22) ? ((_e23 == 100) ? c100_ : _e26) : vec4(0.0)));
    }
    int _e38 = aL_outer;
    aL = _e38;
    vec4 _e43 = textureLod(_group_0_binding_1_vs, vec2(v1_texcoord0_.xy), v1_texcoord0_.w);
    vec4 _e44 = r0_;
    vec4 _e47 = _group_0_binding_0_vs.c[10];
    vec4 _e50 = _group_0_binding_0_vs.c[11];
    vec4 _e53 = _group_0_binding_0_vs.c[12];
    vec4 _e56 = _group_0_binding_0_vs.c[13];
    VertexOutput _tmp_return = VertexOutput(vec4(dot(v0_position0_, _e47), dot(v0_position0_, _e50), dot(v0_position0_, _e53), dot(v0_position0_, _e56)), (_e43 * _e44));
    gl_Position = _tmp_return.o0_position0_;
    _vs2fs_location2 = _tmp_return.o1_texcoord0_;
    gl_Position.yz = vec2(-gl_Position.y, gl_Position.z * 2.0 - gl_Position.w);
    return;
}

