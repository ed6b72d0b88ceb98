    ps_1_3
    texcoord t0

// approximately 1 instruction slot used (1 texture, 0 arithmetic)
