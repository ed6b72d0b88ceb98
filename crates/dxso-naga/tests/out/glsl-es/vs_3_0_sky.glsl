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
    float _e57 = (!((_e52.x == _e52.x)) ? _e52.x : exp2(_e52.x));
    float _e62 = (!((_e52.y == _e52.y)) ? _e52.y : exp2(_e52.y));
    vec4 _e69 = _group_0_binding_0_vs.c[2];
    vec4 _e71 = r2_;
    vec4 _e76 = vec4(_e11.x, _e11.y, _e11.z, 1.0);
    vec4 _e79 = ((_e69 * vec4(_e57, _e62, (!((_e52.z == _e52.z)) ? _e52.z : exp2(_e52.z)), _e71.w)) + _e76.wwww);
    vec4 _e82 = _group_0_binding_0_vs.c[4];
    vec4 _e86 = vec4(_e79.x, _e79.y, _e79.z, (_e11.y * _e11.y));
    vec4 _e95 = _group_0_binding_0_vs.c[1];
    vec4 _e96 = (vec4(_e57, _e62, 1.442695, _e71.w).zzzz * _e95);
    vec4 _e113 = _group_0_binding_0_vs.c[0];
    vec4 _e115 = r3_;
    vec4 _e120 = ((_e113 * vec4((!((_e96.x == _e96.x)) ? _e96.x : exp2(_e96.x)), (!((_e96.y == _e96.y)) ? _e96.y : exp2(_e96.y)), (!((_e96.z == _e96.z)) ? _e96.z : exp2(_e96.z)), _e115.w)) + _e76.wwww);
    vec4 _e121 = (((_e82 * _e86.wwww) + _e86) * _e120);
    float _e123 = (1.0 / _e121.x);
    vec4 _e125 = _group_0_binding_0_vs.c[6];
    vec4 _e129 = _group_0_binding_0_vs.c[5];
    vec4 _e132 = ((_e129 * v0_position0_.xxxx) + (_e125 * v0_position0_.yyyy));
    vec4 _e134 = _group_0_binding_0_vs.c[7];
    vec4 _e139 = _group_0_binding_0_vs.c[8];
    vec4 _e140 = ((_e132 + _e134) + _e139);
    vec4 _e141 = ((_e132 + -(_e134)) + _e139);
    vec4 _e161 = mix(_e140, ((_e140 * vec4((1.0 / _e140.w), _e121.y, _e121.z, _e121.w).xxxx) + -((vec4((1.0 / _e141.w), _e121.y, _e121.z, _e121.w).xxxx * _e141))), bvec4(true, true, true, false));
    vec3 _e162 = _e161.xyz;
    float _e163 = dot(_e162, _e162);
    vec4 _e167 = (_e161 * ((_e163 == 0.0) ? 0.0 : inversesqrt(_e163)));
    float _e169 = abs(_e167.y);
    vec4 _e172 = vec4(_e167.x, _e167.y, _e167.z, _e169);
    float _e175 = dot(_e172.xwz, _e76.xyz);
    vec4 _e176 = _e172.xwzw;
    vec4 _e189 = ((vec4(_e175, (1.0 / ((_e169 >= 0.001) ? _e169 : 0.001)), _e11.z, 1.0).yyyy * _e95) * c14_.zzzz);
    float _e192 = ((_e175 >= -0.9999) ? _e175 : -0.9999);
    float _e195 = ((_e192 < 0.9999) ? _e192 : 0.9999);
    float _e211 = ((1.0 / inversesqrt(abs((-(abs(_e195)) + 1.0)))) * ((((((abs(_e195) * -0.0187293) + 0.074261) * abs(_e195)) + -0.2121144) * abs(_e195)) + 1.5707288));
    float _e213 = ((_e211 * -2.0) + 3.1415927);
    vec4 _e220 = vec4((_e195 * _e195), ((_e213 * ((_e195 < -(_e195)) ? 1.0 : 0.0)) + _e211), _e213, 1.0);
    vec4 _e224 = ((_e220.yyyy * _e48) * c14_.zzzz);
    vec4 _e241 = r5_;
    vec4 _e246 = ((_e69 * vec4((!((_e224.x == _e224.x)) ? _e224.x : exp2(_e224.x)), (!((_e224.y == _e224.y)) ? _e224.y : exp2(_e224.y)), (!((_e224.z == _e224.z)) ? _e224.z : exp2(_e224.z)), _e241.w)) + _e220.wwww);
    vec4 _e250 = mix(_e220, ((_e82 * _e220.xxxx) + _e246), bvec4(true, true, true, false));
    vec4 _e271 = (_e250 * ((_e113 * vec4((!((_e189.x == _e189.x)) ? _e189.x : exp2(_e189.x)), (!((_e189.y == _e189.y)) ? _e189.y : exp2(_e189.y)), (!((_e189.z == _e189.z)) ? _e189.z : exp2(_e189.z)), _e246.w)) + _e250.wwww));
    vec4 _e273 = _group_0_binding_0_vs.c[10];
    vec4 _e283 = vec4(_e271.x, _e271.y, _e271.z, (1.0 / ((_e273.y + _e273.x) + _e273.z)));
    vec4 _e285 = (_e283.wwww * _e273);
    vec4 _e290 = (_e283 * vec4(_e285.x, _e285.y, _e273.y, _e285.w));
    float _e294 = ((_e290.x * -(_e123)) + 1.0);
    float _e296 = (1.0 / _e121.y);
    vec4 _e306 = (vec4(_e290.x, _e290.y, _e290.z, _e294).xzyw * vec4(_e123, _e296, (1.0 / _e121.z), _e120.w).xzyw);
    float _e314 = (1.0 / _e306.z);
    vec4 _e322 = _group_0_binding_0_vs.c[11];
    vec4 _e324 = (vec4((_e314 * (_e306.y * _e306.x)), _e306.y, (_e314 * (_e306.y * ((_e290.y * -(_e296)) + _e294))), _e306.w) * _e322.zzzz);
    vec4 _e330 = vec4(_e324.x, _e324.y, _e324.z, _e294);
    vec4 _e350 = o1_;
    vec4 _e355 = o2_;
    vec4 _e359 = o3_;
    VertexOutput _tmp_return = VertexOutput(((v0_position0_.xyxx * c18_.xxyy) + c18_.yyxx), vec4(v0_position0_.x, v0_position0_.y, _e350.z, _e350.w), vec4(dot(c15_.xyz, _e330.xyz), dot(c16_.xyz, _e330.xyz), dot(c17_.xyz, _e330.xyz), _e355.w), vec4(_e176.x, _e176.y, _e176.z, _e359.w));
    gl_Position = _tmp_return.o0_position0_;
    _vs2fs_location2 = _tmp_return.o1_texcoord0_;
    _vs2fs_location3 = _tmp_return.o2_texcoord1_;
    _vs2fs_location4 = _tmp_return.o3_texcoord2_;
    gl_Position.yz = vec2(-gl_Position.y, gl_Position.z * 2.0 - gl_Position.w);
    return;
}

