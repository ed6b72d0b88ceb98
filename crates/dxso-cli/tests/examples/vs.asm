// Transforms the position by the matrix in c0-c3 and passes the colour in c4 on.
vs_2_0
dcl_position v0
m4x4 oPos, v0, c0
mov oD0, c4
