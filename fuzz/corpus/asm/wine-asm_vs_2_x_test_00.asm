    vs_2_x
    rep i0
      break
    endrep

// approximately 6 instruction slots used
