    ps_2_0
    mov r0, t0

// approximately 1 instruction slot used
