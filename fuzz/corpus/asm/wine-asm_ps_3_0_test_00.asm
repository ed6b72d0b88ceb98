    ps_3_0
    mov r0, c0

// approximately 1 instruction slot used
