// The demo's vertex shader: transforms the tessellated teapot to clip space and hands the
// pixel shader the world position, the world normal and the patch's (u, v).
//   c0-c3   world-view-projection, one row per register
//   c4-c6   world (rows x, y, z)
//   c8-c10  the world's rotation, for normals
vs_3_0
def c20, 0.0, 1.0, 0.0, 0.0
dcl_position v0
dcl_normal v1
dcl_texcoord v2
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord1 o2
dcl_texcoord2 o3
dp4 o0.x, v0, c0
dp4 o0.y, v0, c1
dp4 o0.z, v0, c2
dp4 o0.w, v0, c3
dp4 o1.x, v0, c4
dp4 o1.y, v0, c5
dp4 o1.z, v0, c6
mov o1.w, c20.y
dp3 o2.x, v1, c8
dp3 o2.y, v1, c9
dp3 o2.z, v1, c10
mov o2.w, c20.x
mov o3, v2
