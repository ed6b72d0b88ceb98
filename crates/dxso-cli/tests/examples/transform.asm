// Position in clip space, colour and texture coordinates passed through.
vs_2_0
dcl_position v0
dcl_color v1
dcl_texcoord v2
mov oPos, v0
mov oD0, v1
mov oT0, v2
