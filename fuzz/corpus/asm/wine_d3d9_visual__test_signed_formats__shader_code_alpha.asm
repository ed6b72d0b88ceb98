    ps_1_1
    def c0, 0.5, 0.5, 0.5, 0.5
    def c1, 1, 1, 0, 1
    def c2, 0, 0, 1, 0
    tex t0
    mad r0.xyz, t0.w, c0, c0
    sub r0.w, -t0.w, c0
    cnd r0.w, r0.w, c1.w, c2.w
    mul r1.xyz, c1, r0
    mad r0.xyz, r0.w, c2, r1

// approximately 6 instruction slots used (1 texture, 5 arithmetic)
