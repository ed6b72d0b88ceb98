    vs_1_1

// approximately 0 instruction slots used
