    vs_1_1
    nop

// approximately 1 instruction slot used
