    ps_2_x
    dsy r0, r0

// approximately 2 instruction slots used
