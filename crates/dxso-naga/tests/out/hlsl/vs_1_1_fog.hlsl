struct VertexOutput {
    float4 oPos_position0_ : SV_Position;
    float4 oD0_color0_ : LOC0;
    float4 oFog_fog0_ : LOC10;
};

static const float4 c0_ = float4(-1.25, 0.0, -0.9, 0.0);

struct VertexOutput_main {
    float4 oD0_color0_ : LOC0;
    float4 oFog_fog0_ : LOC10;
    float4 oPos_position0_ : SV_Position;
};

VertexOutput ConstructVertexOutput(float4 arg0, float4 arg1, float4 arg2) {
    VertexOutput ret = (VertexOutput)0;
    ret.oPos_position0_ = arg0;
    ret.oD0_color0_ = arg1;
    ret.oFog_fog0_ = arg2;
    return ret;
}

VertexOutput_main main(float4 v0_position0_ : LOC0, float4 v1_color0_ : LOC1)
{
    float4 oFog = (float4)0;

    float4 _e11 = oFog;
    const VertexOutput vertexoutput = ConstructVertexOutput(v0_position0_, v1_color0_, float4(((v0_position0_.zzzz + c0_.zzzz).xxxx * c0_.xxxx).x, _e11.y, _e11.z, _e11.w));
    const VertexOutput_main vertexoutput_1 = { vertexoutput.oD0_color0_, vertexoutput.oFog_fog0_, vertexoutput.oPos_position0_ };
    return vertexoutput_1;
}
