    vs_1_1
    dcl_position v0
    mul r0, v0.x, c0
    mad r0, v0.y, c1, r0
    mad r0, v0.z, c2, r0
    mad oPos, v0.w, c3, r0
    mov oT0, v0
    mov oT1, v0

// approximately 6 instruction slots used
