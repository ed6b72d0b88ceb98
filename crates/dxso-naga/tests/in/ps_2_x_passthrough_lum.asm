    ps_2_x
    def c0, 1, 0, 0, 0
    dcl t0.xy
    dcl_2d s0
    texld r0, t0, s0
    mad r0, r0.x, c0.xxxy, c0.yyyx
    mov oC0, r0

// approximately 3 instruction slots used (1 texture, 2 arithmetic)
