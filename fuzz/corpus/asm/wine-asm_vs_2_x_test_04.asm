    vs_2_x
    if p0.x
    else
    endif

// approximately 5 instruction slots used
