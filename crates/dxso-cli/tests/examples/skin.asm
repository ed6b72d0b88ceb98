// Adds c[aL] for i0's count of loop iterations, then c8 when b0 is set.
vs_3_0
dcl_position v0
dcl_position o0
mov r0, v0
loop aL, i0
add r0, r0, c0[aL]
endloop
if b0
add r0, r0, c8
endif
mov o0, r0
