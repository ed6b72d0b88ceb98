    vs_3_0
    dcl_2d s0

// approximately 0 instruction slots used
