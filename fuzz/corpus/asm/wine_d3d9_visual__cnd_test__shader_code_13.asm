    ps_1_3
    def c0, 1, 0, 0, 0
    texcoord t0
    mov r0, t0
    dp3 r1, r0, c0
    mov r0.w, r1.w
    cnd r0, r0.w, c1, c2

// approximately 5 instruction slots used (1 texture, 4 arithmetic)
