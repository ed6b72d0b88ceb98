#version 450 core
struct FragmentOutput {
    vec4 oC0_color0_;
};
const vec4 c0_ = vec4(1.0, 0.0, 0.0, 0.0);

layout(binding = 0) uniform sampler2D _group_1_binding_1_fs;

layout(location = 2) smooth in vec4 _vs2fs_location2;
layout(location = 0) out vec4 _fs2p_location0;

void main() {
    vec4 t0_texcoord0_ = _vs2fs_location2;
    vec4 _e4 = texture(_group_1_binding_1_fs, vec2(t0_texcoord0_.xy));
    FragmentOutput _tmp_return = FragmentOutput(((_e4.xxxx * c0_.xxxy) + c0_.yyyx));
    _fs2p_location0 = _tmp_return.oC0_color0_;
    return;
}

