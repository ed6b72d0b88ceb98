    vs_2_0
    call l2047

// approximately 2 instruction slots used
