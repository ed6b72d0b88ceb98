#version 310 es

precision highp float;
precision highp int;

struct FragmentOutput {
    vec4 oC0_color0_;
};
layout(binding = 0) uniform highp sampler2D _group_1_binding_1_fs;

layout(location = 0) smooth in vec4 _vs2fs_location0;
layout(location = 2) smooth in vec4 _vs2fs_location2;
layout(location = 0) out vec4 _fs2p_location0;

void main() {
    vec4 v1_color0_ = _vs2fs_location0;
    vec4 v0_texcoord0_ = _vs2fs_location2;
    bool killed = false;
    vec4 r0_ = vec4(0.0);
    vec4 r1_ = vec4(0.0);
    vec4 r2_ = vec4(0.0);
    killed = false;
    vec4 _e7 = texture(_group_1_binding_1_fs, vec2(v0_texcoord0_.xy));
    vec4 _e9 = dFdx(v0_texcoord0_.xyxy);
    vec4 _e11 = dFdy(v0_texcoord0_.xyxy);
    r0_ = _e7;
    if ((_e7.w > 0.5)) {
        r0_ = mix(_e7, (_e9 + _e11), bvec4(true, true, false, false));
        r1_ = _e9;
        r2_ = _e11;
    } else {
        bool _e24 = killed;
        killed = (_e24 || any(lessThan(v1_color0_, vec4(0.0))));
    }
    vec4 _e26 = r0_;
    bool _e28 = killed;
    if (_e28) {
        discard;
    }
    FragmentOutput _tmp_return = FragmentOutput((_e26 * v1_color0_));
    _fs2p_location0 = _tmp_return.oC0_color0_;
    return;
}

