    vs_1_1
    dcl_position v0
    dcl_color v1
    def c0, -1.25, 0, -0.899999976, 0
    mov oPos, v0
    mov oD0, v1
    add r0, v0.z, c0.z
    mul oFog, r0.x, c0.x

// approximately 4 instruction slots used
