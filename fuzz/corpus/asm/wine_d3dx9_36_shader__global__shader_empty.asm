    vs_2_0

// approximately 0 instruction slots used
