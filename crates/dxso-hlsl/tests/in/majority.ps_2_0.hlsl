// Matrix majority: a typedef made after a pragma keeps that pragma's majority, struct members
// take the majority where the struct is defined, a pragma may sit inside a function, and an
// unknown pragma argument is ignored.
#pragma pack_matrix(row_major)
typedef float2x2 rows_t;
struct S
{
    float2x2 m;
};
#pragma pack_matrix(column_major)
uniform rows_t r;
uniform S s;
uniform float2x2 c;
#pragma pack_matrix(VALUE)

float4 main() : COLOR
{
#pragma pack_matrix(row_major)
    return float4(r[0], s.m[1]) + c[0].xyxy;
}
