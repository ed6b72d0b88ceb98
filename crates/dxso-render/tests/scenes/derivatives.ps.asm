// Writes the screen-space derivatives of the first texture coordinate: red = dsx(t.x) / 4,
// green = dsy(t.x) / 4, blue = dsx(t.y) / 4 + 0.5.
ps_3_0
def c0, 0.25, 0.5, 1.0, 0.0
dcl_texcoord v0.xy
dsx r0, v0
dsy r1, v0
mul r2.x, r0.x, c0.x
mul r2.y, r1.x, c0.x
mad r2.z, r0.y, c0.x, c0.y
mov r2.w, c0.z
mov oC0, r2
