    ps_2_0
    def c12, 1, 0, 0.5, 0
    dcl t0.xyz  // pin<0,1>
    dcl t1  // pin<2,3,4,5>
    dcl t2.xyz  // pin<6,7,8>
    dcl t3  // pin<9,10,11,12>
    dcl_2d s0
    dcl_2d s1

#line 122 "D:\Microsoft\DirectXTK\Src\Shaders\EnvironmentMapEffect.fx"
    add r0.xyz, -t1, c10
    nrm r1.xyz, r0  // ::eyeVector<0,1,2>
    nrm r0.xyz, t2  // ::worldNormal<0,1,2>

#line 129
    dp3 r0.w, -r1, r0
    add r0.w, r0.w, r0.w
    mad r2.xyz, r0, -r0.w, -r1  // ::r<0,1,2>

#line 54
    dp3 r0.w, r1, r0  // ::viewAngle<0>
    abs r0.w, r0.w
    add r0.w, -r0.w, c12.x
    max r2.w, r0.w, c12.y
    pow r0.w, r2.w, c1.y
    mul r0.w, r0.w, c1.x  // ::ComputeFresnelFactor<0>

#line 130
    mul r2.w, r2.y, r2.y
    mad r2.w, r2.x, r2.x, r2.w
    add r1.x, r2.z, c12.x
    mad r1.x, r1.x, r1.x, r2.w
    rsq r1.x, r1.x
    rcp r1.x, r1.x
    add r1.x, r1.x, r1.x  // ::m<0>
    rcp r1.x, r1.x
    mad r3.x, r2.x, r1.x, c12.z  // ::envcoord<0>
    mad r3.y, r2.y, r1.x, c12.z  // ::envcoord<1>
    texld r1, r3, s1

#line 120
    texld r2, t0, s0

#line 34 "D:\Microsoft\DirectXTK\Src\Shaders\Lighting.fxh"
    dp3 r3.x, -c4, r0  // ::dotL<0>
    dp3 r3.y, -c5, r0  // ::dotL<1>
    dp3 r3.z, -c6, r0  // ::dotL<2>

#line 37
    cmp r0.xyz, r3, c12.x, c12.y  // ::zeroL<0,1,2>
    mul r0.xyz, r3, r0  // ::diffuse<0,1,2>

#line 44
    mul r3.xyz, r0.y, c8
    mad r3.xyz, r0.x, c7, r3
    mad r0.xyz, r0.z, c9, r3
    mov r3.xyz, c2  // Parameters::DiffuseColor<0,1,2>
    mad r0.xyz, r0, r3, c3  // ::result<0,1,2>

#line 120 "D:\Microsoft\DirectXTK\Src\Shaders\EnvironmentMapEffect.fx"
    mul r2, r2, t3  // ::color<0,1,2,3>

#line 127
    mul r0.xyz, r0, r2  // ::color<0,1,2>

#line 141
    mad r1.xyz, r1, r2.w, -r0

#line 133
    mul r1.w, r1.w, r2.w  // ::envmap<3>

#line 141
    mad r0.xyz, r0.w, r1, r0  // ::color<0,1,2>
    mad r0.xyz, c0, r1.w, r0  // ::color<0,1,2>

#line 18 "D:\Microsoft\DirectXTK\Src\Shaders\Common.fxh"
    mad r1.xyz, c11, r2.w, -r0
    mad r2.xyz, t1.w, r1, r0  // ApplyFog::color<0,1,2>
    mov oC0, r2  // ::PSEnvMapSpherePixelLightingFresnel<0,1,2,3>

// approximately 49 instruction slots used (2 texture, 47 arithmetic)
