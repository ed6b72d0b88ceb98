#version 310 es

precision highp float;
precision highp int;

struct FragmentOutput {
    vec4 oC0_color0_;
};
struct Constants {
    vec4 c[224];
};
const vec4 c12_ = vec4(1.0, 0.0, 0.5, 0.0);

layout(std140, binding = 0) uniform Constants_block_0Fragment { Constants _group_1_binding_0_fs; };

layout(binding = 1) uniform highp sampler2D _group_1_binding_3_fs;

layout(binding = 0) uniform highp sampler2D _group_1_binding_1_fs;

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
    float _e65 = abs(((_e59 >= 0.0) ? _e59 : 0.0));
    float _e91 = (_e52.z + 1.0);
    float _e96 = (1.0 / inversesqrt(abs(((_e91 * _e91) + ((_e52.x * _e52.x) + (_e52.y * _e52.y))))));
    float _e98 = (1.0 / (_e96 + _e96));
    vec4 _e105 = r3_;
    vec4 _e112 = texture(_group_1_binding_3_fs, vec2(vec4(((_e52.x * _e98) + 0.5), ((_e52.y * _e98) + 0.5), _e105.z, _e105.w).xy));
    vec4 _e116 = texture(_group_1_binding_1_fs, vec2(t0_texcoord0_.xy));
    vec4 _e118 = _group_1_binding_0_fs.c[4];
    vec4 _e124 = vec4(_e34.x, _e34.y, _e34.z, ((((_e63.y == 0.0) || (_e65 == 1.0)) ? 1.0 : ((!((_e65 == _e65)) || !((_e63.y == _e63.y))) ? (_e65 + _e63.y) : ((_e65 == 0.0) ? ((_e63.y < 0.0) ? (1.0 / _e65) : _e65) : pow(_e65, _e63.y)))) * _e63.x));
    vec4 _e128 = _group_1_binding_0_fs.c[5];
    vec4 _e134 = _group_1_binding_0_fs.c[6];
    vec4 _e140 = vec4(dot(-(_e118.xyz), _e124.xyz), dot(-(_e128.xyz), _e124.xyz), dot(-(_e134.xyz), _e124.xyz), _e105.w);
    vec4 _e147 = mix(_e124, mix(c12_.yyyy, c12_.xxxx, greaterThanEqual(_e140, vec4(0.0))), bvec4(true, true, true, false));
    vec4 _e149 = mix(_e147, (_e140 * _e147), bvec4(true, true, true, false));
    vec4 _e152 = _group_1_binding_0_fs.c[8];
    vec4 _e156 = _group_1_binding_0_fs.c[7];
    vec4 _e161 = _group_1_binding_0_fs.c[9];
    vec4 _e164 = mix(_e149, ((_e149.zzzz * _e161) + ((_e149.xxxx * _e156) + (_e149.yyyy * _e152))), bvec4(true, true, true, false));
    vec4 _e166 = _group_1_binding_0_fs.c[2];
    vec4 _e168 = _group_1_binding_0_fs.c[3];
    vec4 _e171 = mix(_e164, ((_e164 * _e166) + _e168), bvec4(true, true, true, false));
    vec4 _e172 = (_e116 * t3_texcoord3_);
    vec4 _e174 = mix(_e171, (_e171 * _e172), bvec4(true, true, true, false));
    vec4 _e179 = mix(_e112, ((_e112 * _e172.wwww) + -(_e174)), bvec4(true, true, true, false));
    vec4 _e187 = vec4(_e179.x, _e179.y, _e179.z, (_e179.w * _e172.w));
    vec4 _e191 = _group_1_binding_0_fs.c[0];
    vec4 _e194 = ((_e191 * _e187.wwww) + ((_e174.wwww * _e187) + _e174));
    vec4 _e196 = _group_1_binding_0_fs.c[11];
    FragmentOutput _tmp_return = FragmentOutput(mix(_e172, ((t1_texcoord1_.wwww * ((_e196 * _e172.wwww) + -(_e194))) + _e194), bvec4(true, true, true, false)));
    _fs2p_location0 = _tmp_return.oC0_color0_;
    return;
}

