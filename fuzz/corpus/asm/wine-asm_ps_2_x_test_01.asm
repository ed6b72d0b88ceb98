    ps_2_x
    dsx r0, r0

// approximately 2 instruction slots used
