    ps_2_0
    def c11, 1, 0, 0, 0
    dcl t0.xyz  // pin<0,1>
    dcl t1  // pin<2,3,4,5>
    dcl t2.xyz  // pin<6,7,8>
    dcl t3  // pin<9,10,11,12>
    dcl_2d s0
    dcl_cube s1

#line 93 "D:\Microsoft\DirectXTK\Src\Shaders\EnvironmentMapEffect.fx"
    nrm r0.xyz, t2  // ::worldNormal<0,1,2>
    add r1.xyz, -t1, c10
    nrm r2.xyz, r1  // ::eyeVector<0,1,2>

#line 99
    dp3 r0.w, -r2, r0
    add r0.w, r0.w, r0.w
    mad r1.xyz, r0, -r0.w, -r2  // ::envcoord<0,1,2>

#line 90
    texld r2, t0, s0

#line 101
    texld r1, r1, s1

#line 34 "D:\Microsoft\DirectXTK\Src\Shaders\Lighting.fxh"
    dp3 r3.x, -c4, r0  // ::dotL<0>
    dp3 r3.y, -c5, r0  // ::dotL<1>
    dp3 r3.z, -c6, r0  // ::dotL<2>

#line 37
    cmp r0.xyz, r3, c11.x, c11.y  // ::zeroL<0,1,2>
    mul r0.xyz, r3, r0  // ::diffuse<0,1,2>

#line 44
    mul r3.xyz, r0.y, c8
    mad r3.xyz, r0.x, c7, r3
    mad r0.xyz, r0.z, c9, r3
    mov r3.xyz, c2  // Parameters::DiffuseColor<0,1,2>
    mad r0.xyz, r0, r3, c3  // ::result<0,1,2>

#line 90 "D:\Microsoft\DirectXTK\Src\Shaders\EnvironmentMapEffect.fx"
    mul r2, r2, t3  // ::color<0,1,2,3>

#line 97
    mul r0.xyz, r0, r2  // ::color<0,1,2>

#line 109
    mad r1.xyz, r1, r2.w, -r0
    mad r0.xyz, c1.x, r1, r0  // ::color<0,1,2>

#line 101
    mul r0.w, r1.w, r2.w  // ::envmap<3>

#line 110
    mad r2.xyz, c0, r0.w, r0  // ::color<0,1,2>
    mov oC0, r2  // ::PSEnvMapPixelLightingNoFog<0,1,2,3>

// approximately 29 instruction slots used (2 texture, 27 arithmetic)
