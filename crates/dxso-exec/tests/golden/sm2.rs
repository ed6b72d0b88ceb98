//! Shader model 2 and 3 pixel shaders and vertex texture fetch: sampling, LOD, sampler states,
//! texkill, depth, derivatives over quads, divergent flow per pixel.

use super::harness::{checker, ramp, Case};
use dxso_exec::*;
use std::sync::Arc;

const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
const BLUE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];
const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
const WHITE: [f32; 4] = [1.0; 4];

fn with_state(t: Texture, f: impl FnOnce(&mut SamplerState)) -> Sampler {
    let mut s = Sampler::new(Arc::new(t));
    f(&mut s.state);
    s
}

fn point_mips(t: Texture) -> Sampler {
    with_state(t, |s| s.mip_filter = Filter::Point)
}

/// Texture coordinates a quarter texel of the 4x4 ramp apart... one texel per pixel.
fn texel_steps() -> [[f32; 4]; 4] {
    [
        [0.125, 0.125, 0.0, 0.0],
        [0.375, 0.125, 0.0, 0.0],
        [0.125, 0.375, 0.0, 0.0],
        [0.375, 0.375, 0.0, 0.0],
    ]
}

const PS20: &str = "ps_2_0\ndcl t0\ndcl_2d s0\n";
const PS30: &str = "ps_3_0\ndcl_texcoord v0\ndcl_2d s0\n";

pub fn cases() -> Vec<Case> {
    let ps20 = |body: &str| format!("{PS20}{body}\nmov oC0, r0\n");
    let ps30 = |body: &str| format!("{PS30}{body}\nmov oC0, r0\n");
    let volume = {
        // 2x2x2: slice 0 red, slice 1 blue.
        let mut data = Vec::new();
        for z in 0..2 {
            for _ in 0..4 {
                data.extend(if z == 0 {
                    [255, 0, 0, 255]
                } else {
                    [0, 0, 255, 255]
                });
            }
        }
        Texture::new(
            Dimension::Volume,
            Format::Rgba8Unorm,
            vec![MipLevel {
                width: 2,
                height: 2,
                depth: 2,
                data,
            }],
        )
        .unwrap()
    };
    vec![
        Case::ps("texld", &ps20("texld r0, t0, s0")).input("t0", [0.75, 0.75, 0.0, 0.0]).texture(0, checker()).expect("oC0", WHITE),
        Case::ps("texldp divides by w", &ps20("texldp r0, t0, s0")).input("t0", [1.5, 0.5, 0.0, 2.0]).texture(0, checker()).expect("oC0", GREEN),
        Case::ps("texld wraps by default", &ps20("texld r0, t0, s0")).input("t0", [-0.25, 1.25, 0.0, 0.0]).texture(0, checker()).expect("oC0", GREEN),
        Case::ps("clamp addressing", &ps20("texld r0, t0, s0")).input("t0", [-0.25, 1.25, 0.0, 0.0])
            .sampler(0, with_state(checker(), |s| { s.address_u = AddressMode::Clamp; s.address_v = AddressMode::Clamp; }))
            .expect("oC0", BLUE),
        Case::ps("mirror addressing", &ps20("texld r0, t0, s0")).input("t0", [1.25, 0.25, 0.0, 0.0])
            .sampler(0, with_state(checker(), |s| s.address_u = AddressMode::Mirror))
            .expect("oC0", GREEN),
        Case::ps("border addressing reads the border colour", &ps20("texld r0, t0, s0")).input("t0", [1.25, 0.25, 0.0, 0.0])
            .sampler(0, with_state(checker(), |s| { s.address_u = AddressMode::Border; s.border_color = 0x8000_FF00; }))
            .expect("oC0", [0.0, 1.0, 0.0, 128.0 / 255.0]),
        Case::ps("mirroronce addressing", &ps20("texld r0, t0, s0")).input("t0", [-0.25, 0.25, 0.0, 0.0])
            .sampler(0, with_state(checker(), |s| s.address_u = AddressMode::MirrorOnce))
            .expect("oC0", RED),
        Case::ps("linear filtering blends four texels", &ps20("texld r0, t0, s0")).input("t0", [0.5, 0.25, 0.0, 0.0])
            .sampler(0, with_state(checker(), |s| { s.mag_filter = Filter::Linear; s.address_u = AddressMode::Clamp; s.address_v = AddressMode::Clamp; }))
            .expect("oC0", [0.5, 0.5, 0.0, 1.0]),
        Case::ps("srgbtexture decodes colour, not alpha", &ps20("texld r0, t0, s0")).input("t0", [0.0; 4])
            .sampler(0, with_state(Texture::new_2d(Format::Rgba8Unorm, 1, 1, vec![10, 255, 0, 10]).unwrap(), |s| s.srgb_texture = true))
            .expect("oC0", [(10.0f32 / 255.0) / 12.92, 1.0, 0.0, 10.0 / 255.0]),
        Case::ps("implicit LOD: one texel per pixel is level 0", &ps20("texld r0, t0, s0")).pixels("t0", texel_steps())
            .sampler(0, point_mips(ramp()))
            .expect_pixels("oC0", [[0.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [10.0, 1.0, 1.0, 1.0], [11.0, 1.0, 1.0, 1.0]]),
        Case::ps("texldb: a bias of 1 picks level 1", &ps20("texldb r0, t0, s0")).pixels("t0", texel_steps().map(|t| [t[0], t[1], 0.0, 1.0]))
            .sampler(0, point_mips(ramp()))
            .expect("oC0", [5.5, 1.0, 1.0, 1.0]),
        Case::ps("mipmaplodbias", &ps20("texld r0, t0, s0")).pixels("t0", texel_steps())
            .sampler(0, with_state(ramp(), |s| { s.mip_filter = Filter::Point; s.mip_lod_bias = 1.0; }))
            .expect("oC0", [5.5, 1.0, 1.0, 1.0]),
        Case::ps("mipfilter none samples level 0", &ps20("texld r0, t0, s0")).pixels("t0", texel_steps().map(|t| [t[0] * 4.0, t[1] * 4.0, 0.0, 0.0]))
            .sampler(0, with_state(ramp(), |s| s.address_u = AddressMode::Clamp))
            .expect_pixels("oC0", [[22.0, 1.0, 1.0, 1.0], [23.0, 1.0, 1.0, 1.0], [22.0, 1.0, 1.0, 1.0], [23.0, 1.0, 1.0, 1.0]]),
        Case::ps("texldl explicit LOD 2", &ps30("texldl r0, c0, s0")).float(0, [0.125, 0.125, 0.0, 2.0])
            .sampler(0, point_mips(ramp())).expect("oC0", [16.5, 1.0, 1.0, 1.0]),
        Case::ps("texldl with linear mip filtering", &ps30("texldl r0, c0, s0")).float(0, [0.125, 0.125, 0.0, 0.5])
            .sampler(0, with_state(ramp(), |s| s.mip_filter = Filter::Linear)).expect("oC0", [2.75, 1.0, 1.0, 1.0]),
        Case::ps("maxmiplevel keeps LOD 0 on level 1", &ps30("texldl r0, c0, s0")).float(0, [0.125, 0.125, 0.0, 0.0])
            .sampler(0, with_state(ramp(), |s| { s.mip_filter = Filter::Point; s.max_mip_level = 1; })).expect("oC0", [5.5, 1.0, 1.0, 1.0]),
        Case::ps("texldl beyond the chain uses the last level", &ps30("texldl r0, c0, s0")).float(0, [0.9, 0.9, 0.0, 9.0])
            .sampler(0, point_mips(ramp())).expect("oC0", [16.5, 1.0, 1.0, 1.0]),
        Case::ps("texldd explicit gradients", &ps30("texldd r0, v0, s0, c0, c1")).input("v0", [0.125, 0.125, 0.0, 0.0])
            .float(0, [0.5, 0.0, 0.0, 0.0]).float(1, [0.0; 4])
            .sampler(0, point_mips(ramp())).expect("oC0", [5.5, 1.0, 1.0, 1.0]),
        Case::ps("texldd with dsx/dsy equals texld", &ps30("texld r1, v0, s0\ndsx r2, v0\ndsy r3, v0\ntexldd r4, v0, s0, r2, r3\nsub r0, r4, r1"))
            .pixels("v0", texel_steps().map(|t| [t[0] * 2.0, t[1] * 3.0, 0.0, 0.0]))
            .sampler(0, with_state(ramp(), |s| s.mip_filter = Filter::Linear)).expect("oC0", [0.0; 4]),
        Case::ps("sampler swizzle applies to the result (ps_3_0)", &ps30("texld r0, v0, s0.wzyx")).input("v0", [0.75, 0.25, 0.0, 0.0])
            .texture(0, checker()).expect("oC0", [1.0, 0.0, 1.0, 0.0]),
        Case::ps("volume texture", "ps_2_0\ndcl t0\ndcl_volume s0\ntexld r0, t0, s0\nmov oC0, r0\n").input("t0", [0.25, 0.25, 0.75, 0.0])
            .texture(0, volume.clone()).expect("oC0", BLUE),
        Case::ps("cube texture", "ps_2_0\ndcl t0\ndcl_cube s0\ntexld r0, t0, s0\nmov oC0, r0\n").input("t0", [0.0, 0.0, -1.0, 0.0])
            .texture(0, Texture::new(Dimension::Cube, Format::R32Float, vec![MipLevel { width: 1, height: 1, depth: 6, data: (0..6).flat_map(|i| (i as f32).to_le_bytes()).collect() }]).unwrap())
            .expect("oC0", [5.0, 1.0, 1.0, 1.0]),
        Case::ps("texkill from ps_2_0 tests all four components", "ps_2_0\ndcl t0\ntexkill t0\nmov oC0, c0\n")
            .pixels("t0", [[0.0; 4], [0.0, 0.0, 0.0, -1.0], [-0.5, 0.0, 0.0, 0.0], [1.0; 4]])
            .discarded([false, true, true, false]),
        Case::ps("uncovered pixels are discarded", "ps_2_0\nmov oC0, c0\n").coverage([true, false, true, true])
            .float(0, [1.0; 4]).discarded([false, true, false, false]).expect("oC0", [1.0; 4]),
        Case::ps("oDepth", "ps_2_0\nmov oC0, c0\nmov oDepth, c0.y\n").float(0, [1.0, 0.25, 0.0, 0.0]).expect("oDepth", [0.25, 0.0, 0.0, 0.0]),
        Case::ps("two render targets", "ps_2_0\nmov oC0, c0\nmov oC1, c1\n").float(0, [1.0; 4]).float(1, [0.5; 4])
            .expect("oC0", [1.0; 4]).expect("oC1", [0.5; 4]).not_written("oC2"),
        Case::ps("dp2add", &ps20("dp2add r0, c0, c1, c2.z")).float(0, [1.0, 2.0, 9.0, 9.0]).float(1, [3.0, 4.0, 9.0, 9.0]).float(2, [0.0, 0.0, 0.5, 0.0])
            .expect("oC0", [11.5; 4]),
        Case::ps("cmp", &ps20("cmp r0, c0, c1, c2")).float(0, [0.0, -0.0, -1.0, f32::NAN]).float(1, [1.0; 4]).float(2, [2.0; 4])
            .expect("oC0", [1.0, 1.0, 2.0, 2.0]),
        Case::ps("_pp computes at full precision", &ps20("mul_pp r0, c0, c1")).float(0, [1.0 / 3.0; 4]).float(1, [3.0; 4])
            .expect("oC0", [(1.0f32 / 3.0) * 3.0; 4]),
        Case::ps("dsx and dsy over the quad", "ps_2_x\ndcl t0\ndsx r1, t0\ndsy r2, t0\nmov r0.xz, r1.xxyy\nmov r0.yw, r2.xxyy\nmov oC0, r0\n")
            .pixels("t0", [[0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 10.0, 0.0, 0.0], [3.0, 10.0, 0.0, 0.0]])
            .expect_pixels("oC0", [[1.0, 0.0, 0.0, 10.0], [1.0, 2.0, 0.0, 10.0], [3.0, 0.0, 0.0, 10.0], [3.0, 2.0, 0.0, 10.0]]),
        Case::ps("dsx inside a branch sees the inactive pixels' registers", &ps30("def c1, 0, 0, 0, 0\ndef c2, 7, 7, 7, 7\nmov r2, c1\nif_lt v0.x, c0.x\nmov r2, v0\ndsx r3, r2\nelse\nmov r3, c2\nendif\nmov r0, r3"))
            .pixels("v0", [[1.0; 4], [5.0; 4], [2.0; 4], [6.0; 4]]).float(0, [3.0; 4])
            .expect_pixels("oC0", [[-1.0; 4], [7.0; 4], [-2.0; 4], [7.0; 4]]),
        Case::ps("if / else per pixel", &ps30("def c1, 1, 1, 1, 1\ndef c2, 2, 2, 2, 2\nif_gt v0.x, c0.x\nmov r0, c1\nelse\nmov r0, c2\nendif"))
            .pixels("v0", [[0.0; 4], [5.0; 4], [1.0; 4], [9.0; 4]]).float(0, [3.0; 4])
            .expect_pixels("oC0", [[2.0; 4], [1.0; 4], [2.0; 4], [1.0; 4]]),
        Case::ps("break per pixel", &ps30("defi i0, 5, 0, 0, 0\ndef c1, 1, 0, 0, 0\nmov r0, c1.y\nrep i0\nadd r0.x, r0.x, c1.x\nbreak_ge r0.x, v0.x\nendrep"))
            .pixels("v0", [[1.0; 4], [2.0; 4], [3.0; 4], [10.0; 4]])
            .expect_pixels("oC0", [[1.0, 0.0, 0.0, 0.0], [2.0, 0.0, 0.0, 0.0], [3.0, 0.0, 0.0, 0.0], [5.0, 0.0, 0.0, 0.0]]),
        Case::ps("break inside if inside a loop: the others finish the body", &ps30("defi i0, 3, 0, 0, 0\ndef c1, 1, 0, 0, 0\nmov r0, c1.y\nrep i0\nif_lt v0.x, c0.x\nbreak\nendif\nadd r0.x, r0.x, c1.x\nendrep"))
            .pixels("v0", [[1.0; 4], [5.0; 4], [1.0; 4], [5.0; 4]]).float(0, [3.0; 4])
            .expect_pixels("oC0", [[0.0; 4], [3.0, 0.0, 0.0, 0.0], [0.0; 4], [3.0, 0.0, 0.0, 0.0]]),
        Case::ps("predication per pixel", &ps30("def c1, 1, 1, 1, 1\nmov r0, c0\nsetp_lt p0, v0, c0\n(p0) mov r0, c1"))
            .pixels("v0", [[0.0, 5.0, 0.0, 5.0], [5.0; 4], [0.0; 4], [1.0, 1.0, 9.0, 9.0]]).float(0, [3.0; 4])
            .expect_pixels("oC0", [[1.0, 3.0, 1.0, 3.0], [3.0; 4], [1.0; 4], [1.0, 1.0, 3.0, 3.0]]),
        Case::ps("callnz p0 per pixel", "ps_3_0\ndcl_texcoord v0\ndef c1, 1, 1, 1, 1\nmov r0, c0\nsetp_lt p0, v0, c0\ncallnz l0, p0.x\nmov oC0, r0\nret\nlabel l0\nmov r0, c1\nret\n")
            .pixels("v0", [[0.0; 4], [5.0; 4], [0.0; 4], [5.0; 4]]).float(0, [3.0; 4])
            .expect_pixels("oC0", [[1.0; 4], [3.0; 4], [1.0; 4], [3.0; 4]]),
        Case::ps("texkill in a branch discards only the pixels that took it", &ps30("mov r0, c0\nif_lt v0.x, c0.x\ntexkill v0\nendif"))
            .pixels("v0", [[-1.0; 4], [-2.0; 4], [1.0; 4], [-3.0; 4]]).float(0, [-1.5; 4])
            .discarded([false, true, false, true]),
        Case::ps("loop over constants with aL (ps_3_0)", &ps30("defi i0, 3, 0, 1, 0\nmov r0, c10\nloop aL, i0\nadd r0, r0, c[aL]\nendloop"))
            .float(0, [1.0; 4]).float(1, [2.0; 4]).float(2, [4.0; 4]).expect("oC0", [7.0; 4]),
        Case::ps("vPos and vFace", "ps_3_0\ndcl vPos.xy\ndcl vFace\ndef c0, 1, -1, 0, 0\nmov r0.xy, vPos\ncmp r0.z, vFace, c0.x, c0.y\nmov r0.w, c0.z\nmov oC0, r0\n")
            .pixels("vPos", [[10.0, 20.0, 0.0, 0.0], [11.0, 20.0, 0.0, 0.0], [10.0, 21.0, 0.0, 0.0], [11.0, 21.0, 0.0, 0.0]])
            .input("vFace", [-1.0; 4])
            .expect_pixels("oC0", [[10.0, 20.0, -1.0, 0.0], [11.0, 20.0, -1.0, 0.0], [10.0, 21.0, -1.0, 0.0], [11.0, 21.0, -1.0, 0.0]]),
        Case::vs("vertex texture fetch (vs_3_0 texldl)", "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_2d s1\ntexldl r0, v0, s1\nmov o0, r0\n")
            .input("v0", [0.125, 0.125, 0.0, 1.0]).sampler(1, point_mips(ramp())).expect("o0", [5.5, 1.0, 1.0, 1.0]),
        Case::ps("a texture of the wrong type is an error, not a read", "ps_2_0\ndcl t0\ndcl_cube s0\ntexld r0, t0, s0\nmov oC0, r0\n")
            .texture(0, checker()).fails("samples a cube texture, the bound texture is 2d"),
    ]
}
