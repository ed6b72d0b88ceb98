    ps_2_0
    dcl t0.xy
    add r0, r1, t0
    mov oC0, r0
