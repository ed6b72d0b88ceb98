vs_1_1
mov oPos, v0
mov oD0, v1
mov oT0.xy, v2
