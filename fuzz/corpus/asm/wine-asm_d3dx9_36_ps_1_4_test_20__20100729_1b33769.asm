    ps_1_4
    texkill t0

// approximately 1 instruction slot used (1 texture, 0 arithmetic)
