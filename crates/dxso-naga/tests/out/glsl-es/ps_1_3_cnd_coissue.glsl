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
    vec4 _e8 = (mix(clamp(t0_texcoord0_, vec4(0.0), vec4(1.0)), vec4(1.0), bvec4(false, false, false, true)) - c3_);
    vec4 _e18 = _group_1_binding_0_fs.c[1];
    vec4 _e20 = clamp(_e18, vec4(-1.0), vec4(1.0));
    vec4 _e22 = _group_1_binding_0_fs.c[2];
    FragmentOutput _tmp_return = FragmentOutput(vec4(_e20.x, _e20.y, _e20.z, vec4(dot(_e8.xyz, (c0_ + c0_).xyz)).w));
    _fs2p_location0 = _tmp_return.r0_color0_;
    return;
}

