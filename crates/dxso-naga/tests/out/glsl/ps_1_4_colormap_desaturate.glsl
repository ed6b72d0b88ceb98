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
    vec4 _e18 = ((_e8.xxxx * _e14.xxxx) + _e14.yyyy);
    vec4 _e26 = mix(_e8, mix(vec4(0.0), clamp(_e18, vec4(-8.0), vec4(8.0)), equal(_e18, _e18)), bvec4(true, true, false, false));
    vec4 _e30 = texture(_group_1_binding_3_fs, vec2(_e26.xy));
    vec4 _e34 = _group_1_binding_0_fs.c[6];
    vec4 _e35 = clamp(_e34, vec4(-1.0), vec4(1.0));
    float _e37 = (-(v0_color0_.w) + _e35.w);
    float _e46 = dot(_e30.xyz, _e35.xyz);
    float _e50 = (((_e46 == _e46) ? clamp(_e46, -8.0, 8.0) : 0.0) * v0_color0_.w);
    vec4 _e57 = vec4(_e26.x, _e26.y, _e26.z, ((_e37 == _e37) ? clamp(_e37, -8.0, 8.0) : 0.0));
    vec4 _e60 = r2_;
    vec4 _e67 = ((_e57.wwww * _e30) + vec4(_e60.x, _e60.y, _e60.z, ((_e50 == _e50) ? clamp(_e50, -8.0, 8.0) : 0.0)).wwww);
    vec4 _e72 = mix(_e57, mix(vec4(0.0), clamp(_e67, vec4(-8.0), vec4(8.0)), equal(_e67, _e67)), bvec4(true, true, true, false));
    vec4 _e75 = ((_e72 * v1_color1_.wwww) + v1_color1_);
    vec4 _e80 = mix(_e72, mix(vec4(0.0), clamp(_e75, vec4(-8.0), vec4(8.0)), equal(_e75, _e75)), bvec4(true, true, true, false));
    vec4 _e87 = vec4(_e80.x, _e80.y, _e80.z, ((_e30.w == _e30.w) ? clamp(_e30.w, -8.0, 8.0) : 0.0));
    vec4 _e88 = (_e87 * v0_color0_);
    FragmentOutput _tmp_return = FragmentOutput(mix(_e87, mix(vec4(0.0), clamp(_e88, vec4(-8.0), vec4(8.0)), equal(_e88, _e88)), bvec4(true, true, true, false)));
    _fs2p_location0 = _tmp_return.r0_color0_;
    return;
}

