    ps_1_1
    texcoord t0
    mov r0, t0

// approximately 2 instruction slots used (1 texture, 1 arithmetic)
