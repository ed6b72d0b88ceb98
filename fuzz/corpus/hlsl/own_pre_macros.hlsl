3#define SQ(x) ((x) * (x))
#if defined(FOO) || 1
#define K 2
#else
#error no
#endif
static const float arr[3] = { 1, 2, 3 };
typedef float4 col;
col main(float2 t : TEXCOORD0) : COLOR { return SQ(t.x) * K * arr[1]; }