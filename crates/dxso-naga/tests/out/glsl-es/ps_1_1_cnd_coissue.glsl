#version 310 es

precision highp float;
precision highp int;

struct FragmentOutput {
    vec4 r0_color0_;
};
struct Constants {
    vec4 c[224];
};
const vec4 c3_ = vec4(0.5, 0.5, 0.5, 0.0);
const vec4 c0_ = vec4(1.0, 0.0, 0.0, 0.0);

layout(std140, binding = 0) uniform Constants_block_0Fragment { Constants _group_1_binding_0_fs; };

layout(location = 2) smooth in vec4 _vs2fs_location2;
layout(location = 0) out vec4 _fs2p_location0;

void main() {
    vec4 t0_texcoord0_ = _vs2fs_location2;
    vec4 _e6 = mix(clamp(t0_texcoord0_, vec4(0.0), vec4(1.0)), vec4(1.0), bvec4(false, false, false, true));
    vec4 _e13 = (mix(vec4(0.0), clamp(_e6, vec4(-1.0), vec4(1.0)), equal(_e6, _e6)) - c3_);
    vec4 _e16 = mix(vec4(0.0), clamp(_e13, vec4(-1.0), vec4(1.0)), equal(_e13, _e13));
    vec4 _e18 = (c0_ + c0_);
    float _e24 = dot(_e16.xyz, mix(vec4(0.0), clamp(_e18, vec4(-1.0), vec4(1.0)), equal(_e18, _e18)).xyz);
    vec4 _e35 = _group_1_binding_0_fs.c[1];
    vec4 _e36 = clamp(_e35, vec4(-1.0), vec4(1.0));
    vec4 _e38 = _group_1_binding_0_fs.c[2];
    vec4 _e45 = mix(vec4(0.0), clamp(_e36, vec4(-1.0), vec4(1.0)), equal(_e36, _e36));
    FragmentOutput _tmp_return = FragmentOutput(vec4(_e45.x, _e45.y, _e45.z, ((vec4(((_e24 == _e24) ? clamp(_e24, -1.0, 1.0) : 0.0)).w == vec4(((_e24 == _e24) ? clamp(_e24, -1.0, 1.0) : 0.0)).w) ? clamp(vec4(((_e24 == _e24) ? clamp(_e24, -1.0, 1.0) : 0.0)).w, -1.0, 1.0) : 0.0)));
    _fs2p_location0 = _tmp_return.r0_color0_;
    return;
}

