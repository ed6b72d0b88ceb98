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
    float _e54 = exp2(_e52.x);
    float _e56 = exp2(_e52.y);
    float4 _e60 = constants.c[2];
    float4 _e62 = r2_;
    float4 _e67 = float4(_e11.x, _e11.y, _e11.z, 1.0);
    float4 _e70 = ((_e60 * float4(_e54, _e56, exp2(_e52.z), _e62.w)) + _e67.wwww);
    float4 _e73 = constants.c[4];
    float4 _e77 = float4(_e70.x, _e70.y, _e70.z, (_e11.y * _e11.y));
    float4 _e86 = constants.c[1];
    float4 _e87 = (float4(_e54, _e56, 1.442695, _e62.w).zzzz * _e86);
    float4 _e95 = constants.c[0];
    float4 _e97 = r3_;
    float4 _e102 = ((_e95 * float4(exp2(_e87.x), exp2(_e87.y), exp2(_e87.z), _e97.w)) + _e67.wwww);
    float4 _e103 = (((_e73 * _e77.wwww) + _e77) * _e102);
    float _e105 = (1.0 / _e103.x);
    float4 _e107 = constants.c[6];
    float4 _e111 = constants.c[5];
    float4 _e114 = ((_e111 * v0_position0_.xxxx) + (_e107 * v0_position0_.yyyy));
    float4 _e116 = constants.c[7];
    float4 _e121 = constants.c[8];
    float4 _e122 = ((_e114 + _e116) + _e121);
    float4 _e123 = ((_e114 + -(_e116)) + _e121);
    float4 _e143 = (bool4(true, true, true, false) ? ((_e122 * float4((1.0 / _e122.w), _e103.y, _e103.z, _e103.w).xxxx) + -((float4((1.0 / _e123.w), _e103.y, _e103.z, _e103.w).xxxx * _e123))) : _e122);
    float3 _e144 = _e143.xyz;
    float _e145 = dot(_e144, _e144);
    float4 _e149 = (_e143 * ((_e145 == 0.0) ? 0.0 : rsqrt(_e145)));
    float _e151 = abs(_e149.y);
    float4 _e154 = float4(_e149.x, _e149.y, _e149.z, _e151);
    float _e157 = dot(_e154.xwz, _e67.xyz);
    float4 _e158 = _e154.xwzw;
    float4 _e171 = ((float4(_e157, (1.0 / ((_e151 >= 0.001) ? _e151 : 0.001)), _e11.z, 1.0).yyyy * _e86) * c14_.zzzz);
    float _e174 = ((_e157 >= -0.9999) ? _e157 : -0.9999);
    float _e177 = ((_e174 < 0.9999) ? _e174 : 0.9999);
    float _e193 = ((1.0 / rsqrt(abs((-(abs(_e177)) + 1.0)))) * ((((((abs(_e177) * -0.0187293) + 0.074261) * abs(_e177)) + -0.2121144) * abs(_e177)) + 1.5707288));
    float _e195 = ((_e193 * -2.0) + 3.1415927);
    float4 _e202 = float4((_e177 * _e177), ((_e195 * ((_e177 < -(_e177)) ? 1.0 : 0.0)) + _e193), _e195, 1.0);
    float4 _e206 = ((_e202.yyyy * _e48) * c14_.zzzz);
    float4 _e214 = r5_;
    float4 _e219 = ((_e60 * float4(exp2(_e206.x), exp2(_e206.y), exp2(_e206.z), _e214.w)) + _e202.wwww);
    float4 _e223 = (bool4(true, true, true, false) ? ((_e73 * _e202.xxxx) + _e219) : _e202);
    float4 _e235 = (_e223 * ((_e95 * float4(exp2(_e171.x), exp2(_e171.y), exp2(_e171.z), _e219.w)) + _e223.wwww));
    float4 _e237 = constants.c[10];
    float4 _e247 = float4(_e235.x, _e235.y, _e235.z, (1.0 / ((_e237.y + _e237.x) + _e237.z)));
    float4 _e249 = (_e247.wwww * _e237);
    float4 _e254 = (_e247 * float4(_e249.x, _e249.y, _e237.y, _e249.w));
    float _e258 = ((_e254.x * -(_e105)) + 1.0);
    float _e260 = (1.0 / _e103.y);
    float4 _e270 = (float4(_e254.x, _e254.y, _e254.z, _e258).xzyw * float4(_e105, _e260, (1.0 / _e103.z), _e102.w).xzyw);
    float _e278 = (1.0 / _e270.z);
    float4 _e286 = constants.c[11];
    float4 _e288 = (float4((_e278 * (_e270.y * _e270.x)), _e270.y, (_e278 * (_e270.y * ((_e254.y * -(_e260)) + _e258))), _e270.w) * _e286.zzzz);
    float4 _e294 = float4(_e288.x, _e288.y, _e288.z, _e258);
    float4 _e314 = o1_;
    float4 _e319 = o2_;
    float4 _e323 = o3_;
    const VertexOutput vertexoutput = ConstructVertexOutput(((v0_position0_.xyxx * c18_.xxyy) + c18_.yyxx), float4(v0_position0_.x, v0_position0_.y, _e314.z, _e314.w), float4(dot(c15_.xyz, _e294.xyz), dot(c16_.xyz, _e294.xyz), dot(c17_.xyz, _e294.xyz), _e319.w), float4(_e158.x, _e158.y, _e158.z, _e323.w));
    const VertexOutput_main vertexoutput_1 = { vertexoutput.o1_texcoord0_, vertexoutput.o2_texcoord1_, vertexoutput.o3_texcoord2_, vertexoutput.o0_position0_ };
    return vertexoutput_1;
}
