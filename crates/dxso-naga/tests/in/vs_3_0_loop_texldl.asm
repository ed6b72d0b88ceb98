    vs_3_0
    defi i0, 4, 0, 1, 0
    def c100, 0, 0.5, 1, 0
    dcl_position v0
    dcl_texcoord v1
    dcl_2d s0
    dcl_position o0
    dcl_texcoord o1
    mov r0, c100.x
    loop aL, i0
      add r0, r0, c0[aL]
    endloop
    texldl r1, v1, s0
    mul o1, r1, r0
    dp4 o0.x, v0, c10
    dp4 o0.y, v0, c11
    dp4 o0.z, v0, c12
    dp4 o0.w, v0, c13
