#version 450 core
struct FragmentOutput {
    vec4 oC0_color0_;
};
struct Constants {
    vec4 c[224];
};
const vec4 c12_ = vec4(1.0, 0.0, 0.5, 0.0);

layout(std140, binding = 0) uniform Constants_block_0Fragment { Constants _group_1_binding_0_fs; };

layout(binding = 1) uniform sampler2D _group_1_binding_3_fs;

layout(binding = 0) uniform sampler2D _group_1_binding_1_fs;

layout(location = 2) smooth in vec4 _vs2fs_location2;
layout(location = 3) smooth in vec4 _vs2fs_location3;
layout(location = 4) smooth in vec4 _vs2fs_location4;
layout(location = 5) smooth in vec4 _vs2fs_location5;
layout(location = 0) out vec4 _fs2p_location0;

void main() {
    vec4 t0_texcoord0_ = _vs2fs_location2;
    vec4 t1_texcoord1_ = _vs2fs_location3;
    vec4 t2_texcoord2_ = _vs2fs_location4;
    vec4 t3_texcoord3_ = _vs2fs_location5;
    vec4 r0_ = vec4(0.0);
    vec4 r1_ = vec4(0.0);
    vec4 r3_ = vec4(0.0);
    vec4 _e8 = _group_1_binding_0_fs.c[10];
    vec4 _e9 = (-(t1_texcoord1_) + _e8);
    vec4 _e14 = r0_;
    vec4 _e16 = vec4(_e9.x, _e9.y, _e9.z, _e14.w);
    vec3 _e17 = _e16.xyz;
    float _e18 = dot(_e17, _e17);
    vec4 _e23 = (_e16 * ((_e18 == 0.0) ? 0.0 : inversesqrt(_e18)));
    vec3 _e27 = t2_texcoord2_.xyz;
    float _e28 = dot(_e27, _e27);
    vec4 _e34 = mix(_e16, (t2_texcoord2_ * ((_e28 == 0.0) ? 0.0 : inversesqrt(_e28))), bvec4(true, true, true, false));
    vec4 _e36 = r1_;
    vec4 _e38 = vec4(_e23.x, _e23.y, _e23.z, _e36.w);
    float _e42 = dot(-(_e38.xyz), _e34.xyz);
    vec4 _e47 = vec4(_e34.x, _e34.y, _e34.z, (_e42 + _e42));
    vec4 _e52 = ((_e47 * -(_e47.wwww)) + -(_e38));
    float _e59 = (-(abs(dot(_e38.xyz, _e47.xyz))) + 1.0);
    vec4 _e63 = _group_1_binding_0_fs.c[1];
    float _e77 = (_e52.z + 1.0);
    float _e82 = (1.0 / inversesqrt(abs(((_e77 * _e77) + ((_e52.x * _e52.x) + (_e52.y * _e52.y))))));
    float _e84 = (1.0 / (_e82 + _e82));
    vec4 _e91 = r3_;
    vec4 _e98 = texture(_group_1_binding_3_fs, vec2(vec4(((_e52.x * _e84) + 0.5), ((_e52.y * _e84) + 0.5), _e91.z, _e91.w).xy));
    vec4 _e102 = texture(_group_1_binding_1_fs, vec2(t0_texcoord0_.xy));
    vec4 _e104 = _group_1_binding_0_fs.c[4];
    vec4 _e110 = vec4(_e34.x, _e34.y, _e34.z, (((_e63.y == 0.0) ? 1.0 : pow(abs(((_e59 >= 0.0) ? _e59 : 0.0)), _e63.y)) * _e63.x));
    vec4 _e114 = _group_1_binding_0_fs.c[5];
    vec4 _e120 = _group_1_binding_0_fs.c[6];
    vec4 _e126 = vec4(dot(-(_e104.xyz), _e110.xyz), dot(-(_e114.xyz), _e110.xyz), dot(-(_e120.xyz), _e110.xyz), _e91.w);
    vec4 _e133 = mix(_e110, mix(c12_.yyyy, c12_.xxxx, greaterThanEqual(_e126, vec4(0.0))), bvec4(true, true, true, false));
    vec4 _e135 = mix(_e133, (_e126 * _e133), bvec4(true, true, true, false));
    vec4 _e138 = _group_1_binding_0_fs.c[8];
    vec4 _e142 = _group_1_binding_0_fs.c[7];
    vec4 _e147 = _group_1_binding_0_fs.c[9];
    vec4 _e150 = mix(_e135, ((_e135.zzzz * _e147) + ((_e135.xxxx * _e142) + (_e135.yyyy * _e138))), bvec4(true, true, true, false));
    vec4 _e152 = _group_1_binding_0_fs.c[2];
    vec4 _e154 = _group_1_binding_0_fs.c[3];
    vec4 _e157 = mix(_e150, ((_e150 * _e152) + _e154), bvec4(true, true, true, false));
    vec4 _e158 = (_e102 * t3_texcoord3_);
    vec4 _e160 = mix(_e157, (_e157 * _e158), bvec4(true, true, true, false));
    vec4 _e165 = mix(_e98, ((_e98 * _e158.wwww) + -(_e160)), bvec4(true, true, true, false));
    vec4 _e173 = vec4(_e165.x, _e165.y, _e165.z, (_e165.w * _e158.w));
    vec4 _e177 = _group_1_binding_0_fs.c[0];
    vec4 _e180 = ((_e177 * _e173.wwww) + ((_e160.wwww * _e173) + _e160));
    vec4 _e182 = _group_1_binding_0_fs.c[11];
    FragmentOutput _tmp_return = FragmentOutput(mix(_e158, ((t1_texcoord1_.wwww * ((_e182 * _e158.wwww) + -(_e180))) + _e180), bvec4(true, true, true, false)));
    _fs2p_location0 = _tmp_return.oC0_color0_;
    return;
}

