    ps_1_2
    mov r1, c1
    add r0, r1, c2

// approximately 2 instruction slots used
