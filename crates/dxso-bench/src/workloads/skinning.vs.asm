// Skinning benchmark: 4 bones through relative addressing (3 rows each, m4x3), then
// per-vertex lighting: one directional light and an ambient term.
//
// c0-c3    view-projection matrix (rows)
// c4       light direction (xyz, pointing from the light)
// c5       light colour
// c6       ambient colour
// c10..    bone palette, 3 rows per bone
vs_3_0
dcl_position v0
dcl_blendweight v1
dcl_blendindices v2
dcl_normal v3
dcl_texcoord v4
dcl_position o0
dcl_color o1
dcl_texcoord o2
def c8, 3, 0, 1, 0
mul r0, v2, c8.x
mova a0, r0
m4x3 r1.xyz, v0, c[a0.x + 10]
m3x3 r2.xyz, v3, c[a0.x + 10]
mul r1.xyz, r1, v1.x
mul r2.xyz, r2, v1.x
m4x3 r3.xyz, v0, c[a0.y + 10]
m3x3 r4.xyz, v3, c[a0.y + 10]
mad r1.xyz, r3, v1.y, r1
mad r2.xyz, r4, v1.y, r2
m4x3 r3.xyz, v0, c[a0.z + 10]
m3x3 r4.xyz, v3, c[a0.z + 10]
mad r1.xyz, r3, v1.z, r1
mad r2.xyz, r4, v1.z, r2
m4x3 r3.xyz, v0, c[a0.w + 10]
m3x3 r4.xyz, v3, c[a0.w + 10]
mad r1.xyz, r3, v1.w, r1
mad r2.xyz, r4, v1.w, r2
mov r1.w, c8.z
m4x4 o0, r1, c0
nrm r5.xyz, r2
dp3 r6.x, r5, -c4
max r6.x, r6.x, c8.y
mad o1, c5, r6.x, c6
mov o2, v4
