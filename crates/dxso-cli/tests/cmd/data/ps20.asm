    ps_2_0
    def c1, 0.5, 0.25, 1, 0
    dcl t0.xy
    dcl_2d s0
    texld r0, t0, s0
    mul r0, r0, c0
    mad r0.xyz, r0, c1.x, c1.y
    mov oC0, r0
