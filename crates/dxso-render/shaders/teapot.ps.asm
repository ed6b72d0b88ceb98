// The demo's pixel shader: per-pixel Blinn-Phong lighting of a two-sided surface with a
// procedural texture: 4 x 4 soft-edged checks of two glazes over each patch, and a rim of sky
// light where the surface turns away from the eye. The teapot's patches wind counter-clockwise
// around their outward normals, which Direct3D (clockwise front faces) sees as back faces: the
// outside arrives with vFace < 0, and the inside (seen through the spout and the lid gap) with
// vFace > 0 has its normal turned towards the viewer.
//   c0  eye position (world)       c1  direction towards the light (unit)
//   c2  first glaze                c3  second glaze
//   c4  ambient, diffuse, specular, shininess
//   c5  rim (sky) colour
ps_3_0
def c10, 0.0, 1.0, 0.5, 4.0
def c11, 20.0, 0.0, 0.0, 0.0
dcl_texcoord0 v0.xyz
dcl_texcoord1 v1.xyz
dcl_texcoord2 v2.xy
dcl vFace
// N, flipped on the inside.
nrm r0.xyz, v1
cmp r0.xyz, vFace, -r0, r0
// V = normalize(eye - p).
add r1.xyz, c0, -v0
nrm r1.xyz, r1
// Diffuse: saturate(N.L); specular: saturate(N.H) ^ shininess.
dp3_sat r2.x, r0, c1
add r3.xyz, r1, c1
nrm r3.xyz, r3
dp3_sat r2.y, r0, r3
pow r2.z, r2.y, c4.w
// The checks: the sign of (frac(4u) - 1/2)(frac(4v) - 1/2), through a steep ramp.
mul r4.xy, v2, c10.w
frc r4.xy, r4
add r4.xy, r4, -c10.z
mul r4.z, r4.x, r4.y
mad_sat r4.z, r4.z, c11.x, c10.z
lrp r5.xyz, r4.z, c2, c3
// Lit glaze plus highlight.
mad r6.xyz, r2.x, c4.y, c4.x
mul r6.xyz, r5, r6
mad r6.xyz, r2.z, c4.z, r6
// Rim: (1 - N.V)^2 of the sky colour.
dp3_sat r7.x, r0, r1
add r7.x, c10.y, -r7.x
mul r7.x, r7.x, r7.x
mad oC0.xyz, r7.x, c5, r6
mov oC0.w, c10.y
