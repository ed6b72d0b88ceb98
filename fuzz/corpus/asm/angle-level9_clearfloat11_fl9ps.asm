    ps_2_x
    mov oC0, c0
    mov oC1, c0
    mov oC2, c0
    mov oC3, c0
    mov oDepth, c1.x

// approximately 5 instruction slots used
