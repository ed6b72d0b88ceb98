    ps_1_4
    phase

// approximately 0 instruction slots used
