    ps_3_0
    texkill v0

// approximately 1 instruction slot used
