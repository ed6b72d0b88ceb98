struct VertexOutput {
    @builtin(position) o0_position0_: vec4<f32>,
    @location(2) o1_texcoord0_: vec4<f32>,
    @location(3) o2_texcoord1_: vec4<f32>,
    @location(4) o3_texcoord2_: vec4<f32>,
}

struct Constants {
    c: array<vec4<f32>, 256>,
}

const c14_: vec4<f32> = vec4<f32>(-2f, 3.1415927f, 1.442695f, 0f);
const c15_: vec4<f32> = vec4<f32>(3.2404542f, -1.5371385f, -0.4985314f, 0f);
const c16_: vec4<f32> = vec4<f32>(-0.969266f, 1.8760108f, 0.041556f, 0f);
const c17_: vec4<f32> = vec4<f32>(0.0556434f, -0.2040259f, 1.0572252f, 0f);
const c18_: vec4<f32> = vec4<f32>(1f, 0f, 0f, 0f);

@group(0) @binding(0) 
var<uniform> constants: Constants;

@vertex 
fn main(@location(0) v0_position0_: vec4<f32>) -> VertexOutput {
    var r2_: vec4<f32>;
    var r3_: vec4<f32>;
    var r5_: vec4<f32>;
    var o1_: vec4<f32>;
    var o2_: vec4<f32>;
    var o3_: vec4<f32>;

    let _e4 = constants.c[9];
    let _e5 = _e4.xyz;
    let _e6 = dot(_e5, _e5);
    let _e11 = (_e4 * select(inverseSqrt(_e6), 0f, (_e6 == 0f)));
    let _e33 = (((((((abs(_e11.y) * -0.0187293f) + 0.074261f) * abs(_e11.y)) + -0.2121144f) * abs(_e11.y)) + 1.5707288f) * (1f / inverseSqrt(abs((-(abs(_e11.y)) + 1f)))));
    let _e48 = constants.c[3];
    let _e52 = ((vec4<f32>(_e11.x, _e11.y, _e11.z, ((((_e33 * -2f) + 3.1415927f) * select(0f, 1f, (_e11.y < -(_e11.y)))) + _e33)).wwww * _e48) * c14_.zzzz);
    let _e54 = exp2(_e52.x);
    let _e56 = exp2(_e52.y);
    let _e60 = constants.c[2];
    let _e62 = r2_;
    let _e67 = vec4<f32>(_e11.x, _e11.y, _e11.z, 1f);
    let _e70 = ((_e60 * vec4<f32>(_e54, _e56, exp2(_e52.z), _e62.w)) + _e67.wwww);
    let _e73 = constants.c[4];
    let _e77 = vec4<f32>(_e70.x, _e70.y, _e70.z, (_e11.y * _e11.y));
    let _e86 = constants.c[1];
    let _e87 = (vec4<f32>(_e54, _e56, 1.442695f, _e62.w).zzzz * _e86);
    let _e95 = constants.c[0];
    let _e97 = r3_;
    let _e102 = ((_e95 * vec4<f32>(exp2(_e87.x), exp2(_e87.y), exp2(_e87.z), _e97.w)) + _e67.wwww);
    let _e103 = (((_e73 * _e77.wwww) + _e77) * _e102);
    let _e105 = (1f / _e103.x);
    let _e107 = constants.c[6];
    let _e111 = constants.c[5];
    let _e114 = ((_e111 * v0_position0_.xxxx) + (_e107 * v0_position0_.yyyy));
    let _e116 = constants.c[7];
    let _e121 = constants.c[8];
    let _e122 = ((_e114 + _e116) + _e121);
    let _e123 = ((_e114 + -(_e116)) + _e121);
    let _e143 = select(_e122, ((_e122 * vec4<f32>((1f / _e122.w), _e103.y, _e103.z, _e103.w).xxxx) + -((vec4<f32>((1f / _e123.w), _e103.y, _e103.z, _e103.w).xxxx * _e123))), vec4<bool>(true, true, true, false));
    let _e144 = _e143.xyz;
    let _e145 = dot(_e144, _e144);
    let _e149 = (_e143 * select(inverseSqrt(_e145), 0f, (_e145 == 0f)));
    let _e151 = abs(_e149.y);
    let _e154 = vec4<f32>(_e149.x, _e149.y, _e149.z, _e151);
    let _e157 = dot(_e154.xwz, _e67.xyz);
    let _e158 = _e154.xwzw;
    let _e171 = ((vec4<f32>(_e157, (1f / select(0.001f, _e151, (_e151 >= 0.001f))), _e11.z, 1f).yyyy * _e86) * c14_.zzzz);
    let _e174 = select(-0.9999f, _e157, (_e157 >= -0.9999f));
    let _e177 = select(0.9999f, _e174, (_e174 < 0.9999f));
    let _e193 = ((1f / inverseSqrt(abs((-(abs(_e177)) + 1f)))) * ((((((abs(_e177) * -0.0187293f) + 0.074261f) * abs(_e177)) + -0.2121144f) * abs(_e177)) + 1.5707288f));
    let _e195 = ((_e193 * -2f) + 3.1415927f);
    let _e202 = vec4<f32>((_e177 * _e177), ((_e195 * select(0f, 1f, (_e177 < -(_e177)))) + _e193), _e195, 1f);
    let _e206 = ((_e202.yyyy * _e48) * c14_.zzzz);
    let _e214 = r5_;
    let _e219 = ((_e60 * vec4<f32>(exp2(_e206.x), exp2(_e206.y), exp2(_e206.z), _e214.w)) + _e202.wwww);
    let _e223 = select(_e202, ((_e73 * _e202.xxxx) + _e219), vec4<bool>(true, true, true, false));
    let _e235 = (_e223 * ((_e95 * vec4<f32>(exp2(_e171.x), exp2(_e171.y), exp2(_e171.z), _e219.w)) + _e223.wwww));
    let _e237 = constants.c[10];
    let _e247 = vec4<f32>(_e235.x, _e235.y, _e235.z, (1f / ((_e237.y + _e237.x) + _e237.z)));
    let _e249 = (_e247.wwww * _e237);
    let _e254 = (_e247 * vec4<f32>(_e249.x, _e249.y, _e237.y, _e249.w));
    let _e258 = ((_e254.x * -(_e105)) + 1f);
    let _e260 = (1f / _e103.y);
    let _e270 = (vec4<f32>(_e254.x, _e254.y, _e254.z, _e258).xzyw * vec4<f32>(_e105, _e260, (1f / _e103.z), _e102.w).xzyw);
    let _e278 = (1f / _e270.z);
    let _e286 = constants.c[11];
    let _e288 = (vec4<f32>((_e278 * (_e270.y * _e270.x)), _e270.y, (_e278 * (_e270.y * ((_e254.y * -(_e260)) + _e258))), _e270.w) * _e286.zzzz);
    let _e294 = vec4<f32>(_e288.x, _e288.y, _e288.z, _e258);
    let _e314 = o1_;
    let _e319 = o2_;
    let _e323 = o3_;
    return VertexOutput(((v0_position0_.xyxx * c18_.xxyy) + c18_.yyxx), vec4<f32>(v0_position0_.x, v0_position0_.y, _e314.z, _e314.w), vec4<f32>(dot(c15_.xyz, _e294.xyz), dot(c16_.xyz, _e294.xyz), dot(c17_.xyz, _e294.xyz), _e319.w), vec4<f32>(_e158.x, _e158.y, _e158.z, _e323.w));
}
