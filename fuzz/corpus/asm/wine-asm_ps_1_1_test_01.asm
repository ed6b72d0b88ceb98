    ps_1_1
    mov_d4 r0, r1

// approximately 1 instruction slot used
