// Lighting benchmark: an albedo and a normal-map sample, then a loop over point lights with
// distance attenuation.
//
// v0        texture coordinates
// v1        world position
// v2        world normal
// c10..c13  light positions
// c20..c23  light colours
// s0        albedo, s1 normal map
ps_3_0
dcl_texcoord v0
dcl_texcoord1 v1.xyz
dcl_texcoord2 v2.xyz
dcl_2d s0
dcl_2d s1
defi i0, 4, 0, 1, 0
def c0, 0, 1, 2, -1
texld r0, v0, s0
texld r1, v0, s1
mad r1.xyz, r1, c0.z, c0.w
add r1.xyz, r1, v2
nrm r2.xyz, r1
mov r3.xyz, c0.x
loop aL, i0
add r4.xyz, c[aL + 10], -v1
dp3 r4.w, r4, r4
rsq r5.w, r4.w
mul r4.xyz, r4, r5.w
dp3_sat r5.x, r2, r4
add r5.y, r4.w, c0.y
rcp r5.y, r5.y
mul r5.x, r5.x, r5.y
mad r3.xyz, c[aL + 20], r5.x, r3
endloop
mul r0.xyz, r0, r3
mov oC0, r0
