//! Interpolation, depth, alpha test, blending, clipping, points, lines, indexed draws, and
//! tile parallelism, with Rust shaders.
mod common;

use common::*;
use dxso_dp2::command::{Clear, Op};
use dxso_dp2::device::rs;
use dxso_dp2::enums::{Blend, BlendOp, CmpFunc};
use dxso_dp2::CaptureBuilder;
use dxso_render::Quad;
use dxso_render::{FnPixel, Image, RenderError, RenderLimits, Renderer};
use std::sync::Arc;

fn render(w: u32, h: u32, b: &CaptureBuilder) -> Image {
    let mut r = renderer(w, h, payload_colour());
    r.render_capture(&b.finish()).unwrap();
    r.image()
}

#[test]
fn derivatives_of_a_linear_input_are_its_exact_slope() {
    // TEXCOORD0.x = 0.25 sx + 0.125 sy + 3 at every vertex (w = 1): linear on the screen.
    let (w, h) = (32, 32);
    let f = |sx: f32, sy: f32| [0.25 * sx + 0.125 * sy + 3.0, -0.5 * sx, 0.0, 1.0];
    let p = |sx: f32, sy: f32| screen(sx, sy, w, h, 0.5, f(sx, sy));
    let mut b = stream(&[p(1.0, 1.0), p(30.0, 2.0), p(3.0, 29.0)]);
    triangles(&mut b, 1);
    let ps = Arc::new(FnPixel::new(vec![TEX0], |q: &Quad<'_>| {
        let t = &q.inputs[0];
        // Fine derivatives as the pixel shader sees them: right - left, bottom - top.
        let dsx = t[1][0] - t[0][0];
        let dsy = t[2][0] - t[0][0];
        let dsx_y = t[1][1] - t[0][1];
        let exact = dsx == 0.25 && dsy == 0.125 && dsx_y == -0.5;
        // And the helper lanes hold the same plane: the value at each lane is exact.
        let at =
            (0..4).all(|l| t[l][0] == 0.25 * q.positions[l][0] + 0.125 * q.positions[l][1] + 3.0);
        [Some(if exact && at {
            [0.0, 1.0, 0.0, 1.0]
        } else {
            [1.0, 0.0, 0.0, 1.0]
        }); 4]
    }));
    let mut r = renderer(w, h, ps);
    r.render_capture(&b.finish()).unwrap();
    let img = r.image();
    let (mut green, mut red) = (0, 0);
    for px in &img.pixels {
        match px {
            [0, 255, 0, 255] => green += 1,
            [255, 0, 0, 255] => red += 1,
            _ => {}
        }
    }
    println!("derivatives exact on {green} pixels, wrong on {red}");
    assert!(green > 300 && red == 0, "green {green}, red {red}");
}

#[test]
fn inputs_are_perspective_correct() {
    // A quad receding in depth: w runs 1 (bottom) to 4 (top). The payload u runs 0 to 1 across
    // it; at a pixel, u = (u/w lerp) / (1/w lerp).
    let (w, h) = (64, 64);
    let near = |x: f32, u: f32| v(x, -1.0, 0.0, 1.0, [u, 0.0, 0.0, 1.0]);
    let far = |x: f32, u: f32| v(4.0 * x, 4.0, 3.0, 4.0, [u, 1.0, 0.0, 1.0]);
    let quad = [
        near(-1.0, 0.0),
        near(1.0, 1.0),
        far(1.0, 1.0),
        near(-1.0, 0.0),
        far(1.0, 1.0),
        far(-1.0, 0.0),
    ];
    let mut b = stream(&quad);
    triangles(&mut b, 2);
    let img = render(w, h, &b);
    // Screen row y sits at NDC ny = 1 - 2y/64 = t-interpolated: the v payload (0 near, 1 far)
    // is perspective-correct when v = (t / 4) / ((1 - t) + t / 4) with t the screen fraction.
    for y in [8u32, 24, 40, 56] {
        let ny = 1.0 - 2.0 * y as f64 / h as f64;
        let t = (ny + 1.0) / 2.0;
        let expected = (t / 4.0) / ((1.0 - t) + t / 4.0);
        let got = img.get(32, y)[1] as f64 / 255.0;
        assert!(
            (got - expected).abs() <= 1.0 / 255.0,
            "row {y}: {got} vs {expected}"
        );
    }
}

fn two_overlapping(func: CmpFunc) -> [u8; 4] {
    let (w, h) = (8, 8);
    let red = [1.0, 0.0, 0.0, 1.0];
    let blue = [0.0, 0.0, 1.0, 1.0];
    let tri = |z: f32, c| {
        [
            ndc(-3.0, -3.0, z, c),
            ndc(-3.0, 3.0, z, c),
            ndc(3.0, 3.0, z, c),
            ndc(-3.0, -3.0, z, c),
            ndc(3.0, 3.0, z, c),
            ndc(3.0, -3.0, z, c),
        ]
    };
    let mut verts = tri(0.5, red).to_vec();
    verts.extend(tri(0.25, blue));
    let mut b = stream(&verts);
    b.render_state(rs::ZFUNC, func as u32);
    // The first quad always lands (the buffer starts at 1.0 and GREATER-style tests are given
    // a cleared depth of 0.4 instead).
    b.clear(&Clear {
        flags: 3,
        color: 0,
        depth: 0.5,
        stencil: 0,
        rects: vec![],
    })
    .unwrap();
    b.draw_primitive(Op::DrawPrimitive, 4, 0, 2);
    b.draw_primitive(Op::DrawPrimitive, 4, 6, 2);
    render(w, h, &b).get(4, 4)
}

#[test]
fn all_eight_depth_functions() {
    // Depth starts at 0.5; red arrives at 0.5, then blue at 0.25.
    let black = [0, 0, 0, 0];
    let red = [255, 0, 0, 255];
    let blue = [0, 0, 255, 255];
    let cases = [
        (CmpFunc::Never, black),
        (CmpFunc::Less, blue),
        (CmpFunc::Equal, red),
        (CmpFunc::LessEqual, blue),
        (CmpFunc::Greater, black),
        (CmpFunc::NotEqual, blue),
        (CmpFunc::GreaterEqual, red),
        (CmpFunc::Always, blue),
    ];
    for (func, expected) in cases {
        assert_eq!(two_overlapping(func), expected, "{func:?}");
    }
}

fn one_pixel_blend(setup: impl Fn(&mut CaptureBuilder), dst: [f32; 4], src: [f32; 4]) -> [u8; 4] {
    let full = |c| {
        [
            ndc(-3.0, -3.0, 0.5, c),
            ndc(-3.0, 3.0, 0.5, c),
            ndc(3.0, 3.0, 0.5, c),
        ]
    };
    let mut verts = full(dst).to_vec();
    verts.extend(full(src));
    let mut b = stream(&verts);
    b.render_state(rs::ZENABLE, 0);
    b.draw_primitive(Op::DrawPrimitive, 4, 0, 1);
    setup(&mut b);
    b.draw_primitive(Op::DrawPrimitive, 4, 3, 1);
    render(4, 4, &b).get(1, 1)
}

#[test]
fn blend_factors_and_operations() {
    let dst = [0.2, 0.4, 0.6, 0.8];
    let src = [0.6, 0.5, 0.2, 0.25];
    let byte = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    let q = |c: [f32; 4]| c.map(byte);
    // The destination as stored (bytes), read back as the blender sees it.
    let d = q(dst).map(|b| b as f32 / 255.0);
    let cases: Vec<(Blend, Blend, BlendOp, [f32; 4])> = vec![
        (
            Blend::SrcAlpha,
            Blend::InvSrcAlpha,
            BlendOp::Add,
            std::array::from_fn(|c| src[c] * src[3] + d[c] * (1.0 - src[3])),
        ),
        (
            Blend::One,
            Blend::One,
            BlendOp::Add,
            std::array::from_fn(|c| src[c] + d[c]),
        ),
        (
            Blend::One,
            Blend::One,
            BlendOp::Subtract,
            std::array::from_fn(|c| src[c] - d[c]),
        ),
        (
            Blend::One,
            Blend::One,
            BlendOp::RevSubtract,
            std::array::from_fn(|c| d[c] - src[c]),
        ),
        (
            Blend::Zero,
            Blend::Zero,
            BlendOp::Min,
            std::array::from_fn(|c| src[c].min(d[c])),
        ),
        (
            Blend::Zero,
            Blend::Zero,
            BlendOp::Max,
            std::array::from_fn(|c| src[c].max(d[c])),
        ),
        (
            Blend::DestColor,
            Blend::Zero,
            BlendOp::Add,
            std::array::from_fn(|c| src[c] * d[c]),
        ),
        (
            Blend::InvDestAlpha,
            Blend::DestAlpha,
            BlendOp::Add,
            std::array::from_fn(|c| src[c] * (1.0 - d[3]) + d[c] * d[3]),
        ),
        (
            Blend::SrcColor,
            Blend::InvSrcColor,
            BlendOp::Add,
            std::array::from_fn(|c| src[c] * src[c] + d[c] * (1.0 - src[c])),
        ),
        (
            Blend::SrcAlphaSat,
            Blend::One,
            BlendOp::Add,
            std::array::from_fn(|c| {
                if c < 3 {
                    src[c] * src[3].min(1.0 - d[3]) + d[c]
                } else {
                    src[3] + d[3]
                }
            }),
        ),
        (Blend::BlendFactor, Blend::InvBlendFactor, BlendOp::Add, {
            let k = [
                0x11 as f32 / 255.0,
                0x22 as f32 / 255.0,
                0x33 as f32 / 255.0,
                0x44 as f32 / 255.0,
            ];
            std::array::from_fn(|c| src[c] * k[c] + d[c] * (1.0 - k[c]))
        }),
    ];
    for (s, dd, op, expected) in cases {
        let got = one_pixel_blend(
            |b| {
                b.render_state(rs::ALPHABLENDENABLE, 1)
                    .render_state(rs::SRCBLEND, s as u32)
                    .render_state(rs::DESTBLEND, dd as u32)
                    .render_state(rs::BLENDOP, op as u32)
                    .render_state(rs::BLENDFACTOR, 0x4411_2233);
            },
            dst,
            src,
        );
        let want = q(expected);
        for c in 0..4 {
            assert!(
                got[c].abs_diff(want[c]) <= 1,
                "{s:?} {dd:?} {op:?}: {got:?} vs {want:?}"
            );
        }
    }
    // Separate alpha: colour ONE/ZERO, alpha ZERO/ONE keeps the destination's alpha.
    let got = one_pixel_blend(
        |b| {
            b.render_state(rs::ALPHABLENDENABLE, 1)
                .render_state(rs::SEPARATEALPHABLENDENABLE, 1)
                .render_state(rs::SRCBLENDALPHA, Blend::Zero as u32)
                .render_state(rs::DESTBLENDALPHA, Blend::One as u32);
        },
        dst,
        src,
    );
    assert_eq!(
        got,
        [byte(src[0]), byte(src[1]), byte(src[2]), byte(dst[3])]
    );
}

#[test]
fn color_write_mask_and_alpha_test() {
    let dst = [0.2, 0.4, 0.6, 0.8];
    let src = [0.6, 0.5, 0.2, 0.25];
    let got = one_pixel_blend(
        |b| {
            b.render_state(rs::COLORWRITEENABLE, 0b0101);
        },
        dst,
        src,
    );
    assert_eq!(got, [153, 102, 51, 204]);
    // Alpha 0.25 is 64 as a byte.
    for (func, reference, passes) in [
        (CmpFunc::Greater, 63, true),
        (CmpFunc::Greater, 64, false),
        (CmpFunc::GreaterEqual, 64, true),
        (CmpFunc::Less, 64, false),
        (CmpFunc::Less, 65, true),
        (CmpFunc::Equal, 64, true),
        (CmpFunc::NotEqual, 64, false),
        (CmpFunc::Never, 0, false),
    ] {
        let got = one_pixel_blend(
            |b| {
                b.render_state(rs::ALPHATESTENABLE, 1)
                    .render_state(rs::ALPHAFUNC, func as u32)
                    .render_state(rs::ALPHAREF, reference);
            },
            dst,
            src,
        );
        assert_eq!(
            got == [153, 128, 51, 64],
            passes,
            "{func:?} {reference}: {got:?}"
        );
    }
}

#[test]
fn clipping_at_near_and_far_and_the_guard_band() {
    let (w, h) = (32, 32);
    let c = [1.0, 1.0, 1.0, 1.0];
    // A triangle reaching behind the eye (z < 0 at one vertex) is cut at z = 0; one beyond the
    // far plane is cut at z = w; both keep the part in front.
    let mut b = stream(&[
        v(-1.0, -1.0, -1.0, 1.0, c),
        v(1.0, -1.0, 0.5, 1.0, c),
        v(-1.0, 1.0, 0.5, 1.0, c),
        v(-1.0, -1.0, 2.0, 1.0, c),
        v(1.0, 1.0, 0.5, 1.0, c),
        v(1.0, -1.0, 0.5, 1.0, c),
    ]);
    b.render_state(rs::ZENABLE, 0);
    triangles(&mut b, 2);
    let img = render(w, h, &b);
    let lit = img.pixels.iter().filter(|p| p[0] == 255).count();
    assert!(lit > 100 && lit < 32 * 32, "{lit} pixels");
    // Both triangles lose the bottom-left corner where their first vertex is: the near cut
    // keeps x + y > -2/3 of the first, the far cut x > 1/3 of the second.
    assert_eq!(img.get(0, 31), [0, 0, 0, 0]);
    assert_eq!(img.get(16, 30), [0, 0, 0, 0]);
    assert_eq!(img.get(2, 4), [255, 255, 255, 255]);
    assert_eq!(img.get(28, 20), [255, 255, 255, 255]);
    // A huge triangle (far past the guard band) still fills the screen exactly.
    let mut b = stream(&[
        ndc(-1e6, -1e6, 0.5, c),
        ndc(1e6, -1e6, 0.5, c),
        ndc(0.0, 1e6, 0.5, c),
    ]);
    triangles(&mut b, 1);
    let img = render(w, h, &b);
    assert!(img.pixels.iter().all(|p| *p == [255; 4]));
}

#[test]
fn points_lines_and_indexed_draws() {
    let (w, h) = (16, 16);
    let c = [1.0, 1.0, 1.0, 1.0];
    let p = |x: f32, y: f32| screen(x, y, w, h, 0.5, c);
    let mut b = stream(&[p(2.0, 3.0), p(5.0, 5.0), p(2.0, 10.0), p(12.0, 12.0)]);
    b.draw_primitive(Op::DrawPrimitive, 1, 0, 2);
    b.draw_primitive(Op::DrawPrimitive, 2, 2, 1);
    let img = render(w, h, &b);
    let lit: Vec<(u32, u32)> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| img.get(x, y)[0] == 255)
        .collect();
    // Two points, and a line of 11 pixels (10 columns and the last pixel).
    assert!(lit.contains(&(2, 3)) && lit.contains(&(5, 5)));
    assert!(lit.contains(&(2, 10)) && lit.contains(&(12, 12)) && lit.contains(&(7, 11)));
    assert_eq!(lit.len(), 2 + 11, "{lit:?}");
    // Indexed: a quad from four vertices and six 16-bit indices.
    let q = |x: f32, y: f32| screen(x, y, w, h, 0.5, c);
    let mut b = stream(&[q(-0.5, -0.5), q(7.5, -0.5), q(7.5, 7.5), q(-0.5, 7.5)]);
    let indices: Vec<u8> = [0u16, 1, 2, 0, 2, 3]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    b.buffer(2, indices).set_indices(2, 2);
    b.draw_indexed_primitive(Op::DrawIndexedPrimitive, 4, 0, 0, 4, 0, 2);
    let img = render(w, h, &b);
    let lit = img.pixels.iter().filter(|p| p[0] == 255).count();
    assert_eq!(lit, 64);
}

#[test]
fn the_picture_does_not_depend_on_the_thread_count() {
    let (w, h) = (200, 120);
    let mut verts = Vec::new();
    for k in 0..60 {
        let t = k as f32 * 0.37;
        let c = [t.sin() * 0.5 + 0.5, t.cos() * 0.5 + 0.5, 0.3, 0.6];
        let (x, y) = (t.sin() * 0.7, (t * 1.3).cos() * 0.7);
        verts.extend([
            ndc(x - 0.4, y - 0.3, 0.2 + 0.01 * k as f32, c),
            ndc(x + 0.1, y + 0.5, 0.9, c),
            ndc(x + 0.5, y - 0.4, 0.4, c),
        ]);
    }
    let mut b = stream(&verts);
    b.render_state(rs::ALPHABLENDENABLE, 1)
        .render_state(rs::SRCBLEND, Blend::SrcAlpha as u32)
        .render_state(rs::DESTBLEND, Blend::InvSrcAlpha as u32);
    triangles(&mut b, 60);
    let capture = b.finish();
    let with = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                let mut r = renderer(w, h, payload_colour());
                r.render_capture(&capture).unwrap();
                r.image()
            })
    };
    let one = with(1);
    assert_eq!(one, with(2));
    assert_eq!(one, with(5));
    assert!(one.pixels.iter().any(|p| p[3] != 0));
}

#[test]
fn clears_take_their_rectangles_or_the_viewport() {
    let mut b = CaptureBuilder::new();
    b.viewport([2, 2, 4, 4]);
    b.clear(&Clear {
        flags: 1,
        color: 0xFF00_FF00,
        depth: 1.0,
        stencil: 0,
        rects: vec![],
    })
    .unwrap();
    b.clear(&Clear {
        flags: 1,
        color: 0xFFFF_0000,
        depth: 1.0,
        stencil: 0,
        rects: vec![[0, 0, 1, 8], [-5, 7, 100, 100]],
    })
    .unwrap();
    let img = render(8, 8, &b);
    assert_eq!(img.get(3, 3), [0, 255, 0, 255]);
    assert_eq!(img.get(1, 1), [0, 0, 0, 0]);
    assert_eq!(img.get(0, 4), [255, 0, 0, 255]);
    assert_eq!(img.get(7, 7), [255, 0, 0, 255]);
}

#[test]
fn draws_without_shaders_are_errors() {
    let mut b = stream(&[ndc(0.0, 0.0, 0.5, [0.0; 4]); 3]);
    triangles(&mut b, 1);
    let mut r = Renderer::new(4, 4, None, RenderLimits::default()).unwrap();
    assert!(matches!(
        r.render_capture(&b.finish()),
        Err(RenderError::NoShader {
            stage: "vertex",
            ..
        })
    ));
}
