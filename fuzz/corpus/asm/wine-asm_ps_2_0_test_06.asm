    ps_2_0
    texkill t0

// approximately 1 instruction slot used
