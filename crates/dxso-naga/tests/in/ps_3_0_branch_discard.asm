    ps_3_0
    def c0, 0.5, 0, 1, -1
    dcl_texcoord0 v0.xy
    dcl_color v1
    dcl_2d s0
    texld r0, v0, s0
    if_gt r0.w, c0.x
      dsx r1, v0.xyxy
      dsy r2, v0.xyxy
      add r0.xy, r1, r2
    else
      texkill v1
    endif
    mul oC0, r0, v1
