struct VertexOutput {
    float4 oPos_position0_ : SV_Position;
    float4 oT0_texcoord0_ : LOC2;
};

struct Constants {
    float4 c[256];
};

static const float4 c1_ = float4(1.0, 0.0, 0.0, 0.0);

cbuffer constants : register(b0) { Constants constants; }

struct VertexOutput_main {
    float4 oT0_texcoord0_ : LOC2;
    float4 oPos_position0_ : SV_Position;
};

VertexOutput ConstructVertexOutput(float4 arg0, float4 arg1) {
    VertexOutput ret = (VertexOutput)0;
    ret.oPos_position0_ = arg0;
    ret.oT0_texcoord0_ = arg1;
    return ret;
}

VertexOutput_main main(float4 v0_texcoord0_ : LOC0, float4 v1_texcoord1_ : LOC1)
{
    float4 oPos = (float4)0;

    float4 _e5 = constants.c[0];
    float4 _e6 = (v0_texcoord0_ + _e5);
    float4 _e14 = ((v0_texcoord0_.zzzz * c1_.xyxy) + c1_.xyyx);
    const VertexOutput vertexoutput = ConstructVertexOutput(float4(_e6.x, _e6.y, _e14.z, _e14.w), v1_texcoord1_);
    const VertexOutput_main vertexoutput_1 = { vertexoutput.oT0_texcoord0_, vertexoutput.oPos_position0_ };
    return vertexoutput_1;
}
