struct VertexOutput {
    float4 o0_position0_ : SV_Position;
    float4 o1_texcoord0_ : LOC2;
    float4 o2_texcoord1_ : LOC3;
    float4 o3_texcoord2_ : LOC4;
};

struct Constants {
    float4 c[256];
};

static const float4 c14_ = float4(-2.0, 3.1415927, 1.442695, 0.0);
static const float4 c15_ = float4(3.2404542, -1.5371385, -0.4985314, 0.0);
static const float4 c16_ = float4(-0.969266, 1.8760108, 0.041556, 0.0);
static const float4 c17_ = float4(0.0556434, -0.2040259, 1.0572252, 0.0);
static const float4 c18_ = float4(1.0, 0.0, 0.0, 0.0);

cbuffer constants : register(b0) { Constants constants; }

struct VertexOutput_main {
    float4 o1_texcoord0_ : LOC2;
    float4 o2_texcoord1_ : LOC3;
    float4 o3_texcoord2_ : LOC4;
    float4 o0_position0_ : SV_Position;
};

VertexOutput ConstructVertexOutput(float4 arg0, float4 arg1, float4 arg2, float4 arg3) {
    VertexOutput ret = (VertexOutput)0;
    ret.o0_position0_ = arg0;
    ret.o1_texcoord0_ = arg1;
    ret.o2_texcoord1_ = arg2;
    ret.o3_texcoord2_ = arg3;
    return ret;
}

VertexOutput_main main(float4 v0_position0_ : LOC0)
{
    float4 r2_ = (float4)0;
    float4 r3_ = (float4)0;
    float4 r5_ = (float4)0;
    float4 o1_ = (float4)0;
    float4 o2_ = (float4)0;
    float4 o3_ = (float4)0;

    float4 _e4 = constants.c[9];
    float3 _e5 = _e4.xyz;
    float _e6 = dot(_e5, _e5);
    float4 _e11 = (_e4 * ((_e6 == 0.0) ? 0.0 : rsqrt(_e6)));
    float _e33 = (((((((abs(_e11.y) * -0.0187293) + 0.074261) * abs(_e11.y)) + -0.2121144) * abs(_e11.y)) + 1.5707288) * (1.0 / rsqrt(abs((-(abs(_e11.y)) + 1.0)))));
    float4 _e48 = constants.c[3];
    float4 _e52 = ((float4(_e11.x, _e11.y, _e11.z, ((((_e33 * -2.0) + 3.1415927) * ((_e11.y < -(_e11.y)) ? 1.0 : 0.0)) + _e33)).wwww * _e48) * c14_.zzzz);
    float _e57 = (!((_e52.x == _e52.x)) ? _e52.x : exp2(_e52.x));
    float _e62 = (!((_e52.y == _e52.y)) ? _e52.y : exp2(_e52.y));
    float4 _e69 = constants.c[2];
    float4 _e71 = r2_;
    float4 _e76 = float4(_e11.x, _e11.y, _e11.z, 1.0);
    float4 _e79 = ((_e69 * float4(_e57, _e62, (!((_e52.z == _e52.z)) ? _e52.z : exp2(_e52.z)), _e71.w)) + _e76.wwww);
    float4 _e82 = constants.c[4];
    float4 _e86 = float4(_e79.x, _e79.y, _e79.z, (_e11.y * _e11.y));
    float4 _e95 = constants.c[1];
    float4 _e96 = (float4(_e57, _e62, 1.442695, _e71.w).zzzz * _e95);
    float4 _e113 = constants.c[0];
    float4 _e115 = r3_;
    float4 _e120 = ((_e113 * float4((!((_e96.x == _e96.x)) ? _e96.x : exp2(_e96.x)), (!((_e96.y == _e96.y)) ? _e96.y : exp2(_e96.y)), (!((_e96.z == _e96.z)) ? _e96.z : exp2(_e96.z)), _e115.w)) + _e76.wwww);
    float4 _e121 = (((_e82 * _e86.wwww) + _e86) * _e120);
    float _e123 = (1.0 / _e121.x);
    float4 _e125 = constants.c[6];
    float4 _e129 = constants.c[5];
    float4 _e132 = ((_e129 * v0_position0_.xxxx) + (_e125 * v0_position0_.yyyy));
    float4 _e134 = constants.c[7];
    float4 _e139 = constants.c[8];
    float4 _e140 = ((_e132 + _e134) + _e139);
    float4 _e141 = ((_e132 + -(_e134)) + _e139);
    float4 _e161 = (bool4(true, true, true, false) ? ((_e140 * float4((1.0 / _e140.w), _e121.y, _e121.z, _e121.w).xxxx) + -((float4((1.0 / _e141.w), _e121.y, _e121.z, _e121.w).xxxx * _e141))) : _e140);
    float3 _e162 = _e161.xyz;
    float _e163 = dot(_e162, _e162);
    float4 _e167 = (_e161 * ((_e163 == 0.0) ? 0.0 : rsqrt(_e163)));
    float _e169 = abs(_e167.y);
    float4 _e172 = float4(_e167.x, _e167.y, _e167.z, _e169);
    float _e175 = dot(_e172.xwz, _e76.xyz);
    float4 _e176 = _e172.xwzw;
    float4 _e189 = ((float4(_e175, (1.0 / ((_e169 >= 0.001) ? _e169 : 0.001)), _e11.z, 1.0).yyyy * _e95) * c14_.zzzz);
    float _e192 = ((_e175 >= -0.9999) ? _e175 : -0.9999);
    float _e195 = ((_e192 < 0.9999) ? _e192 : 0.9999);
    float _e211 = ((1.0 / rsqrt(abs((-(abs(_e195)) + 1.0)))) * ((((((abs(_e195) * -0.0187293) + 0.074261) * abs(_e195)) + -0.2121144) * abs(_e195)) + 1.5707288));
    float _e213 = ((_e211 * -2.0) + 3.1415927);
    float4 _e220 = float4((_e195 * _e195), ((_e213 * ((_e195 < -(_e195)) ? 1.0 : 0.0)) + _e211), _e213, 1.0);
    float4 _e224 = ((_e220.yyyy * _e48) * c14_.zzzz);
    float4 _e241 = r5_;
    float4 _e246 = ((_e69 * float4((!((_e224.x == _e224.x)) ? _e224.x : exp2(_e224.x)), (!((_e224.y == _e224.y)) ? _e224.y : exp2(_e224.y)), (!((_e224.z == _e224.z)) ? _e224.z : exp2(_e224.z)), _e241.w)) + _e220.wwww);
    float4 _e250 = (bool4(true, true, true, false) ? ((_e82 * _e220.xxxx) + _e246) : _e220);
    float4 _e271 = (_e250 * ((_e113 * float4((!((_e189.x == _e189.x)) ? _e189.x : exp2(_e189.x)), (!((_e189.y == _e189.y)) ? _e189.y : exp2(_e189.y)), (!((_e189.z == _e189.z)) ? _e189.z : exp2(_e189.z)), _e246.w)) + _e250.wwww));
    float4 _e273 = constants.c[10];
    float4 _e283 = float4(_e271.x, _e271.y, _e271.z, (1.0 / ((_e273.y + _e273.x) + _e273.z)));
    float4 _e285 = (_e283.wwww * _e273);
    float4 _e290 = (_e283 * float4(_e285.x, _e285.y, _e273.y, _e285.w));
    float _e294 = ((_e290.x * -(_e123)) + 1.0);
    float _e296 = (1.0 / _e121.y);
    float4 _e306 = (float4(_e290.x, _e290.y, _e290.z, _e294).xzyw * float4(_e123, _e296, (1.0 / _e121.z), _e120.w).xzyw);
    float _e314 = (1.0 / _e306.z);
    float4 _e322 = constants.c[11];
    float4 _e324 = (float4((_e314 * (_e306.y * _e306.x)), _e306.y, (_e314 * (_e306.y * ((_e290.y * -(_e296)) + _e294))), _e306.w) * _e322.zzzz);
    float4 _e330 = float4(_e324.x, _e324.y, _e324.z, _e294);
    float4 _e350 = o1_;
    float4 _e355 = o2_;
    float4 _e359 = o3_;
    const VertexOutput vertexoutput = ConstructVertexOutput(((v0_position0_.xyxx * c18_.xxyy) + c18_.yyxx), float4(v0_position0_.x, v0_position0_.y, _e350.z, _e350.w), float4(dot(c15_.xyz, _e330.xyz), dot(c16_.xyz, _e330.xyz), dot(c17_.xyz, _e330.xyz), _e355.w), float4(_e176.x, _e176.y, _e176.z, _e359.w));
    const VertexOutput_main vertexoutput_1 = { vertexoutput.o1_texcoord0_, vertexoutput.o2_texcoord1_, vertexoutput.o3_texcoord2_, vertexoutput.o0_position0_ };
    return vertexoutput_1;
}
