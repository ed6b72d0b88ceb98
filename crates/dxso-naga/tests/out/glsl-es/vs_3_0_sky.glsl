#version 310 es

precision highp float;
precision highp int;

struct VertexOutput {
    vec4 o0_position0_;
    vec4 o1_texcoord0_;
    vec4 o2_texcoord1_;
    vec4 o3_texcoord2_;
};
struct Constants {
    vec4 c[256];
};
const vec4 c14_ = vec4(-2.0, 3.1415927, 1.442695, 0.0);
const vec4 c15_ = vec4(3.2404542, -1.5371385, -0.4985314, 0.0);
const vec4 c16_ = vec4(-0.969266, 1.8760108, 0.041556, 0.0);
const vec4 c17_ = vec4(0.0556434, -0.2040259, 1.0572252, 0.0);
const vec4 c18_ = vec4(1.0, 0.0, 0.0, 0.0);

layout(std140, binding = 0) uniform Constants_block_0Vertex { Constants _group_0_binding_0_vs; };

layout(location = 0) in vec4 _p2vs_location0;
layout(location = 2) smooth out vec4 _vs2fs_location2;
layout(location = 3) smooth out vec4 _vs2fs_location3;
layout(location = 4) smooth out vec4 _vs2fs_location4;

void main() {
    vec4 v0_position0_ = _p2vs_location0;
    vec4 r2_ = vec4(0.0);
    vec4 r3_ = vec4(0.0);
    vec4 r5_ = vec4(0.0);
    vec4 o1_ = vec4(0.0);
    vec4 o2_ = vec4(0.0);
    vec4 o3_ = vec4(0.0);
    vec4 _e4 = _group_0_binding_0_vs.c[9];
    vec3 _e5 = _e4.xyz;
    float _e6 = dot(_e5, _e5);
    vec4 _e11 = (_e4 * ((_e6 == 0.0) ? 0.0 : inversesqrt(_e6)));
    float _e33 = (((((((abs(_e11.y) * -0.0187293) + 0.074261) * abs(_e11.y)) + -0.2121144) * abs(_e11.y)) + 1.5707288) * (1.0 / inversesqrt(abs((-(abs(_e11.y)) + 1.0)))));
    vec4 _e48 = _group_0_binding_0_vs.c[3];
    vec4 _e52 = ((vec4(_e11.x, _e11.y, _e11.z, ((((_e33 * -2.0) + 3.1415927) * ((_e11.y < -(_e11.y)) ? 1.0 : 0.0)) + _e33)).wwww * _e48) * c14_.zzzz);
    float _e54 = exp2(_e52.x);
    float _e56 = exp2(_e52.y);
    vec4 _e60 = _group_0_binding_0_vs.c[2];
    vec4 _e62 = r2_;
    vec4 _e67 = vec4(_e11.x, _e11.y, _e11.z, 1.0);
    vec4 _e70 = ((_e60 * vec4(_e54, _e56, exp2(_e52.z), _e62.w)) + _e67.wwww);
    vec4 _e73 = _group_0_binding_0_vs.c[4];
    vec4 _e77 = vec4(_e70.x, _e70.y, _e70.z, (_e11.y * _e11.y));
    vec4 _e86 = _group_0_binding_0_vs.c[1];
    vec4 _e87 = (vec4(_e54, _e56, 1.442695, _e62.w).zzzz * _e86);
    vec4 _e95 = _group_0_binding_0_vs.c[0];
    vec4 _e97 = r3_;
    vec4 _e102 = ((_e95 * vec4(exp2(_e87.x), exp2(_e87.y), exp2(_e87.z), _e97.w)) + _e67.wwww);
    vec4 _e103 = (((_e73 * _e77.wwww) + _e77) * _e102);
    float _e105 = (1.0 / _e103.x);
    vec4 _e107 = _group_0_binding_0_vs.c[6];
    vec4 _e111 = _group_0_binding_0_vs.c[5];
    vec4 _e114 = ((_e111 * v0_position0_.xxxx) + (_e107 * v0_position0_.yyyy));
    vec4 _e116 = _group_0_binding_0_vs.c[7];
    vec4 _e121 = _group_0_binding_0_vs.c[8];
    vec4 _e122 = ((_e114 + _e116) + _e121);
    vec4 _e123 = ((_e114 + -(_e116)) + _e121);
    vec4 _e143 = mix(_e122, ((_e122 * vec4((1.0 / _e122.w), _e103.y, _e103.z, _e103.w).xxxx) + -((vec4((1.0 / _e123.w), _e103.y, _e103.z, _e103.w).xxxx * _e123))), bvec4(true, true, true, false));
    vec3 _e144 = _e143.xyz;
    float _e145 = dot(_e144, _e144);
    vec4 _e149 = (_e143 * ((_e145 == 0.0) ? 0.0 : inversesqrt(_e145)));
    float _e151 = abs(_e149.y);
    vec4 _e154 = vec4(_e149.x, _e149.y, _e149.z, _e151);
    float _e157 = dot(_e154.xwz, _e67.xyz);
    vec4 _e158 = _e154.xwzw;
    vec4 _e171 = ((vec4(_e157, (1.0 / ((_e151 >= 0.001) ? _e151 : 0.001)), _e11.z, 1.0).yyyy * _e86) * c14_.zzzz);
    float _e174 = ((_e157 >= -0.9999) ? _e157 : -0.9999);
    float _e177 = ((_e174 < 0.9999) ? _e174 : 0.9999);
    float _e193 = ((1.0 / inversesqrt(abs((-(abs(_e177)) + 1.0)))) * ((((((abs(_e177) * -0.0187293) + 0.074261) * abs(_e177)) + -0.2121144) * abs(_e177)) + 1.5707288));
    float _e195 = ((_e193 * -2.0) + 3.1415927);
    vec4 _e202 = vec4((_e177 * _e177), ((_e195 * ((_e177 < -(_e177)) ? 1.0 : 0.0)) + _e193), _e195, 1.0);
    vec4 _e206 = ((_e202.yyyy * _e48) * c14_.zzzz);
    vec4 _e214 = r5_;
    vec4 _e219 = ((_e60 * vec4(exp2(_e206.x), exp2(_e206.y), exp2(_e206.z), _e214.w)) + _e202.wwww);
    vec4 _e223 = mix(_e202, ((_e73 * _e202.xxxx) + _e219), bvec4(true, true, true, false));
    vec4 _e235 = (_e223 * ((_e95 * vec4(exp2(_e171.x), exp2(_e171.y), exp2(_e171.z), _e219.w)) + _e223.wwww));
    vec4 _e237 = _group_0_binding_0_vs.c[10];
    vec4 _e247 = vec4(_e235.x, _e235.y, _e235.z, (1.0 / ((_e237.y + _e237.x) + _e237.z)));
    vec4 _e249 = (_e247.wwww * _e237);
    vec4 _e254 = (_e247 * vec4(_e249.x, _e249.y, _e237.y, _e249.w));
    float _e258 = ((_e254.x * -(_e105)) + 1.0);
    float _e260 = (1.0 / _e103.y);
    vec4 _e270 = (vec4(_e254.x, _e254.y, _e254.z, _e258).xzyw * vec4(_e105, _e260, (1.0 / _e103.z), _e102.w).xzyw);
    float _e278 = (1.0 / _e270.z);
    vec4 _e286 = _group_0_binding_0_vs.c[11];
    vec4 _e288 = (vec4((_e278 * (_e270.y * _e270.x)), _e270.y, (_e278 * (_e270.y * ((_e254.y * -(_e260)) + _e258))), _e270.w) * _e286.zzzz);
    vec4 _e294 = vec4(_e288.x, _e288.y, _e288.z, _e258);
    vec4 _e314 = o1_;
    vec4 _e319 = o2_;
    vec4 _e323 = o3_;
    VertexOutput _tmp_return = VertexOutput(((v0_position0_.xyxx * c18_.xxyy) + c18_.yyxx), vec4(v0_position0_.x, v0_position0_.y, _e314.z, _e314.w), vec4(dot(c15_.xyz, _e294.xyz), dot(c16_.xyz, _e294.xyz), dot(c17_.xyz, _e294.xyz), _e319.w), vec4(_e158.x, _e158.y, _e158.z, _e323.w));
    gl_Position = _tmp_return.o0_position0_;
    _vs2fs_location2 = _tmp_return.o1_texcoord0_;
    _vs2fs_location3 = _tmp_return.o2_texcoord1_;
    _vs2fs_location4 = _tmp_return.o3_texcoord2_;
    gl_Position.yz = vec2(-gl_Position.y, gl_Position.z * 2.0 - gl_Position.w);
    return;
}

