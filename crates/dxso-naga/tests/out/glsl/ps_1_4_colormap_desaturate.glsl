#version 450 core
struct FragmentOutput {
    vec4 r0_color0_;
};
struct Constants {
    vec4 c[224];
};
layout(std140, binding = 0) uniform Constants_block_0Fragment { Constants _group_1_binding_0_fs; };

layout(binding = 0) uniform sampler2D _group_1_binding_1_fs;

layout(binding = 1) uniform sampler2D _group_1_binding_3_fs;

layout(location = 0) smooth in vec4 _vs2fs_location0;
layout(location = 1) smooth in vec4 _vs2fs_location1;
layout(location = 2) smooth in vec4 _vs2fs_location2;
layout(location = 0) out vec4 _fs2p_location0;

void main() {
    vec4 v0_color0_ = _vs2fs_location0;
    vec4 v1_color1_ = _vs2fs_location1;
    vec4 t0_texcoord0_ = _vs2fs_location2;
    vec4 r2_ = vec4(0.0);
    vec4 _e8 = texture(_group_1_binding_1_fs, vec2(t0_texcoord0_.xy));
    vec4 _e11 = _group_1_binding_0_fs.c[2];
    vec4 _e14 = clamp(_e11, vec4(-1.0), vec4(1.0));
    vec4 _e20 = mix(_e8, ((_e8.xxxx * _e14.xxxx) + _e14.yyyy), bvec4(true, true, false, false));
    vec4 _e24 = texture(_group_1_binding_3_fs, vec2(_e20.xy));
    vec4 _e28 = _group_1_binding_0_fs.c[6];
    vec4 _e29 = clamp(_e28, vec4(-1.0), vec4(1.0));
    vec4 _e39 = vec4(_e20.x, _e20.y, _e20.z, (-(v0_color0_.w) + _e29.w));
    vec4 _e42 = r2_;
    vec4 _e51 = mix(_e39, ((_e39.wwww * _e24) + vec4(_e42.x, _e42.y, _e42.z, (dot(_e24.xyz, _e29.xyz) * v0_color0_.w)).wwww), bvec4(true, true, true, false));
    vec4 _e56 = mix(_e51, ((_e51 * v1_color1_.wwww) + v1_color1_), bvec4(true, true, true, false));
    vec4 _e60 = vec4(_e56.x, _e56.y, _e56.z, _e24.w);
    FragmentOutput _tmp_return = FragmentOutput(mix(_e60, (_e60 * v0_color0_), bvec4(true, true, true, false)));
    _fs2p_location0 = _tmp_return.r0_color0_;
    return;
}

