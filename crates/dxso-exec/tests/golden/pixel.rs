//! Pixel shaders: ps_1_x modifiers, shifts, ranges, co-issue and texture instructions; ps_2_0+
//! sampling, texkill, depth, derivatives on quads and divergent flow per pixel
//! (`docs/SEMANTICS.md` 3, 4, 8, 9.5, 10, 12).

use super::harness::{checker, Case};
use dxso_exec::*;
use std::sync::Arc;

fn rgba32f(texels: &[[f32; 4]], w: u32, h: u32) -> Texture {
    let data = texels
        .iter()
        .flatten()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    Texture::new_2d(Format::Rgba32Float, w, h, data).unwrap()
}

fn cube(faces: [[u8; 4]; 6]) -> Texture {
    Texture::new(
        Dimension::Cube,
        Format::Rgba8Unorm,
        vec![MipLevel {
            width: 1,
            height: 1,
            depth: 6,
            data: faces.iter().flatten().copied().collect(),
        }],
    )
    .unwrap()
}

fn stage(bump: [f32; 4], lscale: f32, loffset: f32) -> StageState {
    StageState {
        bump_env_mat: bump,
        bump_env_lscale: lscale,
        bump_env_loffset: loffset,
        texture_transform_flags: 0,
    }
}

const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
const BLUE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];
const WHITE: [f32; 4] = [1.0; 4];

pub fn cases() -> Vec<Case> {
    let faces = [
        [10, 0, 0, 255],
        [20, 0, 0, 255],
        [30, 0, 0, 255],
        [40, 0, 0, 255],
        [50, 0, 0, 255],
        [60, 0, 0, 255],
    ];
    let face = |i: usize| [faces[i][0] as f32 / 255.0, 0.0, 0.0, 1.0];
    let ident = stage([1.0, 0.0, 0.0, 1.0], 0.0, 0.0);
    let bump_source = Arc::new(rgba32f(&[[0.25, 0.5, 0.5, 1.0]], 1, 1));
    let vec_source = Arc::new(rgba32f(&[[1.0, 0.5, 0.75, 0.25]], 1, 1));
    let normal_z = Arc::new(rgba32f(&[[0.0, 0.0, 1.0, 1.0]], 1, 1));
    vec![
        // ps_1_1 - ps_1_3.
        Case::ps("ps_1_1 tex samples stage 0 at t0", "ps_1_1\ntex t0\nmov r0, t0\n")
            .input("t0", [0.25, 0.25, 0.0, 1.0]).texture(0, checker()).expect("oC0", RED),
        Case::ps("ps_1_1 tex of an unbound stage is (0, 0, 0, 1)", "ps_1_1\ntex t0\nmov r0, t0\n")
            .input("t0", [0.25, 0.25, 0.0, 1.0]).expect("oC0", [0.0, 0.0, 0.0, 1.0]),
        Case::ps("ps_1_1 projected stage divides by w", "ps_1_1\ntex t0\nmov r0, t0\n")
            .input("t0", [0.5, 0.5, 0.0, 2.0])
            .sampler(0, Sampler { texture: Some(Arc::new(checker())), stage: StageState { texture_transform_flags: 4 | StageState::PROJECTED, ..StageState::default() }, ..Sampler::default() })
            .expect("oC0", RED),
        Case::ps("texcoord clamps to [0, 1] with w = 1", "ps_1_1\ntexcoord t0\nmov r0, t0\n")
            .input("t0", [1.5, -0.5, 0.25, 7.0]).expect("oC0", [1.0, 0.0, 0.25, 1.0]),
        // The default range is current drivers' (MaxPixelShaderValue FLT_MAX: no clamp); the
        // early hardware's [-1, 1] is an option.
        Case::ps("_x2 shift, no range clamp by default", "ps_1_1\nmul_x2 r0, v0, c0\n")
            .input("v0", [0.5, 0.25, 0.75, 1.0]).float(0, [1.0, 1.0, 1.0, 0.5]).expect("oC0", [1.0, 0.5, 1.5, 1.0]),
        Case::ps("_x2 shift then the early hardware's clamp to [-1, 1]", "ps_1_1\nmul_x2 r0, v0, c0\n")
            .input("v0", [0.5, 0.25, 0.75, 1.0]).float(0, [1.0, 1.0, 1.0, 0.5])
            .options(Options { ps1_range: Ps1Range::EarlyHardware, ..Options::default() })
            .expect("oC0", [1.0, 0.5, 1.0, 1.0]),
        Case::ps("two colours of 1 added, times 0.25: 0.5 as drivers give", "ps_1_1\ndef c0, 0.25, 0.25, 0.25, 0.25\nadd r0, v0, v1\nmul r0, r0, c0\n")
            .input("v0", [1.0; 4]).input("v1", [1.0; 4]).expect("oC0", [0.5; 4]),
        Case::ps("the same with the early hardware's range: 0.25", "ps_1_1\ndef c0, 0.25, 0.25, 0.25, 0.25\nadd r0, v0, v1\nmul r0, r0, c0\n")
            .input("v0", [1.0; 4]).input("v1", [1.0; 4])
            .options(Options { ps1_range: Ps1Range::EarlyHardware, ..Options::default() })
            .expect("oC0", [0.25; 4]),
        Case::ps("ps_1_4 early hardware clamps to [-8, 8]", "ps_1_4\nadd_x4 r0, c0, c0\n")
            .float(0, [1.0, 0.5, -1.0, 0.0])
            .options(Options { ps1_range: Ps1Range::EarlyHardware, ..Options::default() })
            .expect("oC0", [8.0, 4.0, -8.0, 0.0]),
        Case::ps("_d2 shift", "ps_1_1\nmov_d2 r0, v0\n").input("v0", [0.5, 0.25, 1.0, -1.0]).expect("oC0", [0.25, 0.125, 0.5, -0.5]),
        // Constants are clamped when read whatever the range (Wine's constant_clamp_ps_test);
        // their sum is not (drivers' range).
        Case::ps("constants clamp to [-1, 1]", "ps_1_1\ndef c1, 3, -3, 0.5, 0\nadd r0, c0, c1\n")
            .float(0, [2.0, -0.5, 0.25, 0.0]).expect("oC0", [2.0, -1.5, 0.75, 0.0]),
        Case::ps("MaxPixelShaderValue option", "ps_1_1\nadd_x2 r0, c0, c0\n")
            .float(0, [1.0, 0.5, -1.0, 0.0])
            .options(Options { ps1_range: Ps1Range::Limit(2.0), ..Options::default() })
            .expect("oC0", [2.0, 2.0, -2.0, 0.0]),
        Case::ps("_bias and 1- modifiers", "ps_1_1\nadd r0, v0_bias, 1-v1\n")
            .input("v0", [1.0, 0.5, 0.0, 0.25]).input("v1", [0.25, 0.5, 1.0, 0.0]).expect("oC0", [1.25, 0.5, -0.5, 0.75]),
        Case::ps("_bx2 and -_bx2", "ps_1_1\nmov r0.rgb, v0_bx2\n+mov r0.a, -v1_bx2\n")
            .input("v0", [1.0, 0.5, 0.0, 0.0]).input("v1", [0.0, 0.0, 0.0, 0.75]).expect("oC0", [1.0, 0.0, -1.0, -0.5]),
        Case::ps("cnd reads r0.a", "ps_1_1\nmov r0, v0\ncnd r0, r0.a, c0, c1\n")
            .input("v0", [0.0, 0.0, 0.0, 0.75]).float(0, [0.1, 0.2, 0.3, 0.4]).float(1, [0.5; 4]).expect("oC0", [0.1, 0.2, 0.3, 0.4]),
        Case::ps("cnd: 0.5 is not greater than 0.5", "ps_1_1\nmov r0, v0\ncnd r0, r0.a, c0, c1\n")
            .input("v0", [0.0, 0.0, 0.0, 0.5]).float(0, [0.1; 4]).float(1, [0.5; 4]).expect("oC0", [0.5; 4]),
        Case::ps("co-issued cnd yields its second source", "ps_1_1\nmov r0, v0\nmov r1.rgb, c2\n+cnd r1.a, r0.a, c0, c1\nmov r0, r1\n")
            .input("v0", [0.0; 4]).float(0, [0.25; 4]).float(1, [0.75; 4]).float(2, [0.5; 4]).expect("oC0", [0.5, 0.5, 0.5, 0.25]),
        Case::ps("co-issued pair reads before it writes", "ps_1_1\nmov r0, c0\nmov r0.rgb, c1\n+mov r0.a, r0.b\n")
            .float(0, [0.1, 0.2, 0.3, 0.4]).float(1, [0.5, 0.6, 0.7, 0.8]).expect("oC0", [0.5, 0.6, 0.7, 0.3]),
        Case::ps("lrp, mad, sub, dp3", "ps_1_1\nlrp r0, c0, c1, c2\nmad r1, c1, c2, -c0\nsub r1, r1, c2\ndp3 r1.rgb, r1, c2\n+mov r0.a, r1.b\n")
            .float(0, [0.5, 0.25, 0.0, 1.0]).float(1, [1.0, 1.0, 1.0, 0.0]).float(2, [0.5, 0.5, 0.5, 0.5])
            .expect("oC0", [0.75, 0.625, 0.5, 0.0]),
        Case::ps("ps_1_2 dp4 and cmp", "ps_1_2\ndp4 r1, c0, c1\ncmp r0, c0, c1, r1\n")
            .float(0, [0.5, -0.5, 0.0, -0.0]).float(1, [0.5, 0.5, 1.0, 1.0]).expect("oC0", [0.5, 0.0, 1.0, 1.0]),
        Case::ps("texkill: any of xyz below zero discards (ps_1_x)", "ps_1_1\ntexkill t0\nmov r0, v0\n")
            .pixels("t0", [[0.5; 4], [0.5, -0.1, 0.5, 1.0], [0.5, 0.5, 0.5, -1.0], [0.0, 0.0, -0.0, 0.0]])
            .discarded([false, true, false, false]),
        Case::ps("texbem: coordinates plus the bump matrix times t(n).rg", "ps_1_1\ntex t0\ntexbem t1, t0\nmov r0, t1\n")
            .input("t1", [0.0, 0.0, 0.0, 1.0])
            .sampler(0, Sampler { texture: Some(bump_source.clone()), ..Sampler::default() })
            .sampler(1, Sampler { texture: Some(Arc::new(checker())), stage: ident, ..Sampler::default() })
            .expect("oC0", BLUE),
        Case::ps("texbem with a rotating matrix", "ps_1_1\ntex t0\ntexbem t1, t0\nmov r0, t1\n")
            .input("t1", [0.0, 0.0, 0.0, 1.0])
            .sampler(0, Sampler { texture: Some(bump_source.clone()), ..Sampler::default() })
            .sampler(1, Sampler { texture: Some(Arc::new(checker())), stage: stage([0.0, 0.0, 1.5, 0.0], 0.0, 0.0), ..Sampler::default() })
            .expect("oC0", GREEN),
        Case::ps("texbeml scales by t(n).b * lscale + loffset", "ps_1_1\ntex t0\ntexbeml t1, t0\nmov r0, t1\n")
            .input("t1", [0.0, 0.0, 0.0, 1.0])
            .sampler(0, Sampler { texture: Some(bump_source.clone()), ..Sampler::default() })
            .sampler(1, Sampler { texture: Some(Arc::new(checker())), stage: stage([1.0, 0.0, 0.0, 1.0], 0.5, 0.25), ..Sampler::default() })
            .expect("oC0", [0.0, 0.0, 0.5, 0.5]),
        Case::ps("texreg2ar samples at (a, r)", "ps_1_1\ntex t0\ntexreg2ar t1, t0\nmov r0, t1\n")
            .sampler(0, Sampler { texture: Some(vec_source.clone()), ..Sampler::default() })
            .texture(1, checker()).expect("oC0", RED),
        Case::ps("texreg2gb samples at (g, b)", "ps_1_1\ntex t0\ntexreg2gb t1, t0\nmov r0, t1\n")
            .sampler(0, Sampler { texture: Some(vec_source.clone()), ..Sampler::default() })
            .texture(1, checker()).expect("oC0", WHITE),
        Case::ps("texm3x2pad, texm3x2tex", "ps_1_1\ntex t0\ntexm3x2pad t1, t0\ntexm3x2tex t2, t0\nmov r0, t2\n")
            .input("t1", [0.5, 0.0, 0.0, 0.0]).input("t2", [0.0, 0.0, 3.0, 0.0])
            .sampler(0, Sampler { texture: Some(vec_source.clone()), ..Sampler::default() })
            .texture(2, checker()).expect("oC0", GREEN),
        Case::ps("texm3x2depth writes depth u / w", "ps_1_3\ntex t0\ntexm3x2pad t1, t0\ntexm3x2depth t2, t0\nmov r0, t0\n")
            .input("t1", [0.5, 0.0, 0.0, 0.0]).input("t2", [2.0, 0.0, 0.0, 0.0])
            .sampler(0, Sampler { texture: Some(vec_source.clone()), ..Sampler::default() })
            .expect("oDepth", [0.25, 0.0, 0.0, 0.0]),
        Case::ps("texm3x2depth of w = 0 is 1", "ps_1_3\ntex t0\ntexm3x2pad t1, t0\ntexm3x2depth t2, t0\nmov r0, t0\n")
            .input("t1", [0.5, 0.0, 0.0, 0.0]).input("t2", [0.0; 4])
            .sampler(0, Sampler { texture: Some(vec_source.clone()), ..Sampler::default() })
            .expect("oDepth", [1.0, 0.0, 0.0, 0.0]),
        Case::ps("texm3x3 writes (u, v, w, 1)", "ps_1_2\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3 t3, t0\nmov r0, t3\n")
            .input("t1", [1.0, 0.0, 0.0, 0.0]).input("t2", [0.0, 1.0, 0.0, 0.0]).input("t3", [0.0, 0.0, 1.0, 0.0])
            .sampler(0, Sampler { texture: Some(vec_source.clone()), ..Sampler::default() })
            .expect("oC0", [1.0, 0.5, 0.75, 1.0]),
        Case::ps("texm3x3tex samples a cube", "ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3tex t3, t0\nmov r0, t3\n")
            .input("t1", [0.0, 0.0, 1.0, 0.0]).input("t2", [0.0; 4]).input("t3", [0.0; 4])
            .sampler(0, Sampler { texture: Some(vec_source.clone()), ..Sampler::default() })
            .sampler(3, Sampler { texture: Some(Arc::new(cube(faces))), dimension: Some(Dimension::Cube), ..Sampler::default() })
            .expect("oC0", face(0)),
        Case::ps("texm3x3spec reflects the eye vector", "ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3spec t3, t0, c0\nmov r0, t3\n")
            .input("t1", [1.0, 0.0, 0.0, 0.0]).input("t2", [0.0, 1.0, 0.0, 0.0]).input("t3", [0.0, 0.0, 1.0, 0.0])
            .float(0, [1.0, 0.0, 0.5, 0.0])
            .sampler(0, Sampler { texture: Some(normal_z.clone()), ..Sampler::default() })
            .sampler(3, Sampler { texture: Some(Arc::new(cube(faces))), dimension: Some(Dimension::Cube), ..Sampler::default() })
            .expect("oC0", face(1)),
        Case::ps("texm3x3vspec takes the eye vector from the coordinates' w", "ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3vspec t3, t0\nmov r0, t3\n")
            .input("t1", [1.0, 0.0, 0.0, 0.0]).input("t2", [0.0, 1.0, 0.0, 1.0]).input("t3", [0.0, 0.0, 1.0, 0.25])
            .sampler(0, Sampler { texture: Some(normal_z.clone()), ..Sampler::default() })
            .sampler(3, Sampler { texture: Some(Arc::new(cube(faces))), dimension: Some(Dimension::Cube), ..Sampler::default() })
            .expect("oC0", face(3)),
        Case::ps("texdp3tex samples at (dot, 0)", "ps_1_2\ntex t0\ntexdp3tex t1, t0\nmov r0, t1\n")
            .input("t1", [0.6, 0.0, 0.0, 0.0])
            .sampler(0, Sampler { texture: Some(vec_source.clone()), ..Sampler::default() })
            .texture(1, checker()).expect("oC0", GREEN),
        Case::ps("texreg2rgb samples at (r, g, b)", "ps_1_2\ntex t0\ntexreg2rgb t1, t0\nmov r0, t1\n")
            .sampler(0, Sampler { texture: Some(vec_source.clone()), ..Sampler::default() })
            .sampler(1, Sampler { texture: Some(Arc::new(cube(faces))), dimension: Some(Dimension::Cube), ..Sampler::default() })
            .expect("oC0", face(0)),
        Case::ps("texdp3 replicates the dot product", "ps_1_2\ntex t0\ntexdp3 t1, t0\nmov r0, t1\n")
            .input("t1", [0.5, 0.5, 0.0, 0.0])
            .sampler(0, Sampler { texture: Some(vec_source.clone()), ..Sampler::default() })
            .expect("oC0", [0.75; 4]),
        Case::ps("nop does nothing; arithmetic clamps what texture instructions do not", "ps_1_2\ntex t0\ntexdp3 t1, t0\nnop\nmov r0, t1\n")
            .input("t1", [1.0, 1.0, 0.0, 0.0])
            .sampler(0, Sampler { texture: Some(vec_source.clone()), ..Sampler::default() })
            .options(Options { ps1_range: Ps1Range::EarlyHardware, ..Options::default() })
            .expect("oC0", [1.0; 4]),
        // ps_1_4.
        Case::ps("ps_1_4 texld, _dz divides by z", "ps_1_4\ntexld r0, t0_dz.xyz\n")
            .input("t0", [0.5, 1.5, 2.0, 0.0]).texture(0, checker()).expect("oC0", BLUE),
        Case::ps("ps_1_4 texcrd _dw", "ps_1_4\ntexcrd r0.rgb, t0_dw.xyw\nmov r0.a, c0.a\n")
            .input("t0", [1.0, 2.0, 9.0, 4.0]).float(0, [0.5; 4]).expect("oC0", [0.25, 0.5, 1.0, 0.5]),
        Case::ps("ps_1_4 texcrd is not clamped", "ps_1_4\ntexcrd r0.rgb, t0\nmov r0.a, c0.a\n")
            .input("t0", [3.0, -2.0, 0.5, 0.0]).float(0, [0.5; 4]).expect("oC0", [3.0, -2.0, 0.5, 0.5]),
        Case::ps("ps_1_4 phase 2 dependent read", "ps_1_4\ntexcrd r1.rgb, t0\nphase\ntexld r0, r1\n")
            .input("t0", [0.75, 0.25, 0.0, 0.0]).texture(0, checker()).expect("oC0", GREEN),
        Case::ps("ps_1_4 range is 8", "ps_1_4\nmul_x8 r0, c0, c0\n")
            .float(0, [1.0, 0.5, -1.0, 0.25]).expect("oC0", [8.0, 2.0, 8.0, 0.5]),
        Case::ps("ps_1_4 cnd compares per component", "ps_1_4\ncnd r0, c0, c1, c2\n")
            .float(0, [0.75, 0.25, 0.5, 1.0]).float(1, [1.0; 4]).float(2, [-1.0; 4]).expect("oC0", [1.0, -1.0, -1.0, 1.0]),
        Case::ps("ps_1_4 bem", "ps_1_4\nbem r1.rg, c0, c1\nmov r0, r1\n")
            .float(0, [0.5, 0.25, 0.0, 0.0]).float(1, [0.5, 0.25, 0.0, 0.0])
            .sampler(1, Sampler { stage: stage([1.0, 0.5, 2.0, 0.0], 0.0, 0.0), ..Sampler::default() })
            .expect("oC0", [1.5, 0.5, 0.0, 0.0]),
        Case::ps("ps_1_4 texdepth", "ps_1_4\ntexcrd r5.rgb, t0\nphase\nmov r0, c0\n")
            .input("t0", [0.5, 2.0, 0.0, 0.0]).float(0, [0.0; 4]).not_written("oDepth"),
        Case::ps("ps_1_4 texdepth writes clamp(x / min(y, 1))", "ps_1_4\ntexcrd r5.rgb, t0\ntexdepth r5\nphase\nmov r0, c0\n")
            .input("t0", [0.5, 2.0, 0.0, 0.0]).float(0, [0.0; 4]).expect("oDepth", [0.5, 0.0, 0.0, 0.0]),
        Case::ps("ps_1_4 texkill of r# tests the register", "ps_1_4\ntexcrd r1.rgb, t0\ntexkill r1\nmov r0, c0\n")
            .pixels("t0", [[0.0; 4], [-1.0, 0.0, 0.0, 0.0], [0.0; 4], [0.0, 0.0, -2.0, 0.0]])
            .discarded([false, true, false, true]),
    ]
}
