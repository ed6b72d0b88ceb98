    ps_1_1
    def c0, 1, 0, 0, 0
    def c3, 0.5, 0.5, 0.5, 0
    texcoord t0
    mov r0, t0
    sub r0, r0, c3
    add r1, c0, c0
    dp3 r1, r0, r1
    mov r0.w, r1.w
  + cnd r0.xyz, r0.w, c1, c2

// approximately 6 instruction slots used (1 texture, 5 arithmetic)
