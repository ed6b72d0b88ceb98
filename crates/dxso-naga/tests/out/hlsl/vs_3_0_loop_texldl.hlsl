struct VertexOutput {
    float4 o0_position0_ : SV_Position;
    float4 o1_texcoord0_ : LOC2;
};

struct Constants {
    float4 c[256];
    int4 i[16];
};

static const float4 c100_ = float4(0.0, 0.5, 1.0, 0.0);

cbuffer constants : register(b0) { Constants constants; }
Texture2D<float4> texture0_ : register(t0);
SamplerState nagaSamplerHeap[2048]: register(s0, space0);
SamplerComparisonState nagaComparisonSamplerHeap[2048]: register(s0, space1);
StructuredBuffer<uint> nagaGroup0SamplerIndexArray : register(t0, space255);
static const SamplerState sampler0_ = nagaSamplerHeap[nagaGroup0SamplerIndexArray[0]];

struct VertexOutput_main {
    float4 o1_texcoord0_ : LOC2;
    float4 o0_position0_ : SV_Position;
};

VertexOutput ConstructVertexOutput(float4 arg0, float4 arg1) {
    VertexOutput ret = (VertexOutput)0;
    ret.o0_position0_ = arg0;
    ret.o1_texcoord0_ = arg1;
    return ret;
}

VertexOutput_main main(float4 v0_position0_ : LOC0, float4 v1_texcoord0_ : LOC1)
{
    float4 r0_ = (float4)0;
    int count = (int)0;
    int aL_outer = (int)0;
    int aL = (int)0;
    float4 o0_ = (float4)0;

    r0_ = c100_.xxxx;
    int _e15 = aL;
    aL_outer = _e15;
    aL = int4(int(4), int(0), int(1), int(0)).y;
    count = clamp(int4(int(4), int(0), int(1), int(0)).x, int(0), int(255));
    uint2 loop_bound = uint2(4294967295u, 4294967295u);
    bool loop_init = true;
    while(true) {
        if (all(loop_bound == uint2(0u, 0u))) { break; }
        loop_bound -= uint2(loop_bound.y == 0u, 1u);
        if (!loop_init) {
            int _e33 = count;
            count = asint(asuint(_e33) - asuint(int(1)));
            int _e36 = aL;
            aL = asint(asuint(_e36) + asuint(int4(int(4), int(0), int(1), int(0)).z));
        }
        loop_init = false;
        int _e18 = count;
        if ((_e18 <= int(0))) {
            break;
        }
        float4 _e20 = r0_;
        int _e21 = aL;
        int _e22 = asint(asuint(_e21) + asuint(int(0)));
        int _e23 = clamp(_e22, int(0), int(255));
        float4 _e26 = constants.c[_e23];
        r0_ = (_e20 + ((_e23 == _e22) ? ((_e23 == int(100)) ? c100_ : _e26) : (0.0).xxxx));
    }
    int _e38 = aL_outer;
    aL = _e38;
    float4 _e43 = texture0_.SampleLevel(sampler0_, v1_texcoord0_.xy, v1_texcoord0_.w);
    float4 _e44 = r0_;
    float4 _e47 = constants.c[10];
    float4 _e50 = constants.c[11];
    float4 _e53 = constants.c[12];
    float4 _e56 = constants.c[13];
    const VertexOutput vertexoutput = ConstructVertexOutput(float4(dot(v0_position0_, _e47), dot(v0_position0_, _e50), dot(v0_position0_, _e53), dot(v0_position0_, _e56)), (_e43 * _e44));
    const VertexOutput_main vertexoutput_1 = { vertexoutput.o1_texcoord0_, vertexoutput.o0_position0_ };
    return vertexoutput_1;
}
