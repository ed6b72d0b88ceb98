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
    let _e57 = select(exp2(_e52.x), _e52.x, !((_e52.x == _e52.x)));
    let _e62 = select(exp2(_e52.y), _e52.y, !((_e52.y == _e52.y)));
    let _e69 = constants.c[2];
    let _e71 = r2_;
    let _e76 = vec4<f32>(_e11.x, _e11.y, _e11.z, 1f);
    let _e79 = ((_e69 * vec4<f32>(_e57, _e62, select(exp2(_e52.z), _e52.z, !((_e52.z == _e52.z))), _e71.w)) + _e76.wwww);
    let _e82 = constants.c[4];
    let _e86 = vec4<f32>(_e79.x, _e79.y, _e79.z, (_e11.y * _e11.y));
    let _e95 = constants.c[1];
    let _e96 = (vec4<f32>(_e57, _e62, 1.442695f, _e71.w).zzzz * _e95);
    let _e113 = constants.c[0];
    let _e115 = r3_;
    let _e120 = ((_e113 * vec4<f32>(select(exp2(_e96.x), _e96.x, !((_e96.x == _e96.x))), select(exp2(_e96.y), _e96.y, !((_e96.y == _e96.y))), select(exp2(_e96.z), _e96.z, !((_e96.z == _e96.z))), _e115.w)) + _e76.wwww);
    let _e121 = (((_e82 * _e86.wwww) + _e86) * _e120);
    let _e123 = (1f / _e121.x);
    let _e125 = constants.c[6];
    let _e129 = constants.c[5];
    let _e132 = ((_e129 * v0_position0_.xxxx) + (_e125 * v0_position0_.yyyy));
    let _e134 = constants.c[7];
    let _e139 = constants.c[8];
    let _e140 = ((_e132 + _e134) + _e139);
    let _e141 = ((_e132 + -(_e134)) + _e139);
    let _e161 = select(_e140, ((_e140 * vec4<f32>((1f / _e140.w), _e121.y, _e121.z, _e121.w).xxxx) + -((vec4<f32>((1f / _e141.w), _e121.y, _e121.z, _e121.w).xxxx * _e141))), vec4<bool>(true, true, true, false));
    let _e162 = _e161.xyz;
    let _e163 = dot(_e162, _e162);
    let _e167 = (_e161 * select(inverseSqrt(_e163), 0f, (_e163 == 0f)));
    let _e169 = abs(_e167.y);
    let _e172 = vec4<f32>(_e167.x, _e167.y, _e167.z, _e169);
    let _e175 = dot(_e172.xwz, _e76.xyz);
    let _e176 = _e172.xwzw;
    let _e189 = ((vec4<f32>(_e175, (1f / select(0.001f, _e169, (_e169 >= 0.001f))), _e11.z, 1f).yyyy * _e95) * c14_.zzzz);
    let _e192 = select(-0.9999f, _e175, (_e175 >= -0.9999f));
    let _e195 = select(0.9999f, _e192, (_e192 < 0.9999f));
    let _e211 = ((1f / inverseSqrt(abs((-(abs(_e195)) + 1f)))) * ((((((abs(_e195) * -0.0187293f) + 0.074261f) * abs(_e195)) + -0.2121144f) * abs(_e195)) + 1.5707288f));
    let _e213 = ((_e211 * -2f) + 3.1415927f);
    let _e220 = vec4<f32>((_e195 * _e195), ((_e213 * select(0f, 1f, (_e195 < -(_e195)))) + _e211), _e213, 1f);
    let _e224 = ((_e220.yyyy * _e48) * c14_.zzzz);
    let _e241 = r5_;
    let _e246 = ((_e69 * vec4<f32>(select(exp2(_e224.x), _e224.x, !((_e224.x == _e224.x))), select(exp2(_e224.y), _e224.y, !((_e224.y == _e224.y))), select(exp2(_e224.z), _e224.z, !((_e224.z == _e224.z))), _e241.w)) + _e220.wwww);
    let _e250 = select(_e220, ((_e82 * _e220.xxxx) + _e246), vec4<bool>(true, true, true, false));
    let _e271 = (_e250 * ((_e113 * vec4<f32>(select(exp2(_e189.x), _e189.x, !((_e189.x == _e189.x))), select(exp2(_e189.y), _e189.y, !((_e189.y == _e189.y))), select(exp2(_e189.z), _e189.z, !((_e189.z == _e189.z))), _e246.w)) + _e250.wwww));
    let _e273 = constants.c[10];
    let _e283 = vec4<f32>(_e271.x, _e271.y, _e271.z, (1f / ((_e273.y + _e273.x) + _e273.z)));
    let _e285 = (_e283.wwww * _e273);
    let _e290 = (_e283 * vec4<f32>(_e285.x, _e285.y, _e273.y, _e285.w));
    let _e294 = ((_e290.x * -(_e123)) + 1f);
    let _e296 = (1f / _e121.y);
    let _e306 = (vec4<f32>(_e290.x, _e290.y, _e290.z, _e294).xzyw * vec4<f32>(_e123, _e296, (1f / _e121.z), _e120.w).xzyw);
    let _e314 = (1f / _e306.z);
    let _e322 = constants.c[11];
    let _e324 = (vec4<f32>((_e314 * (_e306.y * _e306.x)), _e306.y, (_e314 * (_e306.y * ((_e290.y * -(_e296)) + _e294))), _e306.w) * _e322.zzzz);
    let _e330 = vec4<f32>(_e324.x, _e324.y, _e324.z, _e294);
    let _e350 = o1_;
    let _e355 = o2_;
    let _e359 = o3_;
    return VertexOutput(((v0_position0_.xyxx * c18_.xxyy) + c18_.yyxx), vec4<f32>(v0_position0_.x, v0_position0_.y, _e350.z, _e350.w), vec4<f32>(dot(c15_.xyz, _e330.xyz), dot(c16_.xyz, _e330.xyz), dot(c17_.xyz, _e330.xyz), _e355.w), vec4<f32>(_e176.x, _e176.y, _e176.z, _e359.w));
}
