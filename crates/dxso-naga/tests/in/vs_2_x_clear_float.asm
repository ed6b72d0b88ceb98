    vs_2_x
    def c1, 1, 0, 0, 0
    dcl_texcoord v0
    dcl_texcoord1 v1
    add oPos.xy, v0, c0
    mad oPos.zw, v0.z, c1.xyxy, c1.xyyx
    mov oT0, v1

// approximately 3 instruction slots used
