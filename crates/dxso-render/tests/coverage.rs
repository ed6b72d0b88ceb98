//! The fill rule: triangles that tile the screen cover every pixel exactly once, checked with
//! additive blending (a pixel covered twice would read 2).
mod common;

use common::*;
use dxso_render::Image;

const ONE: [f32; 4] = [1.0 / 255.0, 1.0 / 255.0, 1.0 / 255.0, 1.0 / 255.0];

fn render_once(w: u32, h: u32, tris: &[[V; 3]]) -> Image {
    let flat: Vec<V> = tris.iter().flatten().copied().collect();
    let mut b = stream(&flat);
    additive(&mut b);
    triangles(&mut b, tris.len() as u32);
    let mut r = renderer(w, h, payload_colour());
    r.render_capture(&b.finish()).unwrap();
    r.image()
}

fn assert_once(img: &Image, what: &str) {
    let mut counts = [0usize; 4];
    for y in 0..img.height {
        for x in 0..img.width {
            let p = img.get(x, y);
            counts[(p[0] as usize).min(3)] += 1;
            assert_eq!(p[0], 1, "{what}: pixel ({x}, {y}) covered {} times", p[0]);
        }
    }
    println!("{what}: {} pixels, each covered once", counts[1]);
}

/// Vertex (i, j) of a grid over the screen, moved by a deterministic sub-pixel jitter (on the
/// border it stays on the screen edge so the grid covers the whole screen).
fn grid_point(i: u32, j: u32, n: u32, m: u32, w: u32, h: u32) -> V {
    let jitter = |k: u32| ((k * 7919 + 13) % 17) as f32 / 17.0 - 0.5;
    let mut sx = i as f32 * w as f32 / n as f32;
    let mut sy = j as f32 * h as f32 / m as f32;
    if i > 0 && i < n {
        sx += jitter(i * 31 + j) * 1.5;
    }
    if j > 0 && j < m {
        sy += jitter(j * 17 + i * 3);
    }
    // Some vertices exactly on pixel centres and half-pixel positions: the ties the rule decides.
    if (i + j) % 3 == 0 && i > 0 && i < n {
        sx = sx.round();
    }
    if (i + 2 * j) % 5 == 0 && j > 0 && j < m {
        sy = sy.floor() + 0.5;
    }
    screen(sx - 0.5, sy - 0.5, w, h, 0.5, ONE)
}

#[test]
fn a_jittered_grid_covers_every_pixel_once() {
    let (w, h, n, m) = (97, 61, 9, 7);
    let mut tris = Vec::new();
    for j in 0..m {
        for i in 0..n {
            let a = grid_point(i, j, n, m, w, h);
            let b = grid_point(i + 1, j, n, m, w, h);
            let c = grid_point(i, j + 1, n, m, w, h);
            let d = grid_point(i + 1, j + 1, n, m, w, h);
            // Alternate the diagonal and the winding: culling is off.
            if (i + j) % 2 == 0 {
                tris.push([a, b, d]);
                tris.push([a, d, c]);
            } else {
                tris.push([a, c, b]);
                tris.push([b, c, d]);
            }
        }
    }
    assert_once(&render_once(w, h, &tris), "grid");
}

#[test]
fn a_fan_around_one_vertex_covers_every_pixel_once() {
    let (w, h) = (64, 48);
    // The screen's border runs through x = -0.5 and y = -0.5 (the left and top edges of the
    // first pixels) and x = w - 0.5, y = h - 0.5.
    let centre = screen(20.25, 17.5, w, h, 0.5, ONE);
    let mut ring = Vec::new();
    for k in 0..=32 {
        let t = k as f32 / 32.0;
        ring.push(screen(-0.5 + t * w as f32, -0.5, w, h, 0.5, ONE));
    }
    for k in 1..=24 {
        let t = k as f32 / 24.0;
        ring.push(screen(w as f32 - 0.5, -0.5 + t * h as f32, w, h, 0.5, ONE));
    }
    for k in 1..=32 {
        let t = k as f32 / 32.0;
        ring.push(screen(
            w as f32 - 0.5 - t * w as f32,
            h as f32 - 0.5,
            w,
            h,
            0.5,
            ONE,
        ));
    }
    for k in 1..=24 {
        let t = k as f32 / 24.0;
        ring.push(screen(-0.5, h as f32 - 0.5 - t * h as f32, w, h, 0.5, ONE));
    }
    let tris: Vec<[V; 3]> = ring.windows(2).map(|p| [centre, p[0], p[1]]).collect();
    assert_once(&render_once(w, h, &tris), "fan");
}

#[test]
fn a_full_screen_quad_covers_exactly_the_target() {
    // NDC -1..1 runs from the centre of the first column to the right edge through column
    // 16: the left and top edges pass through pixel centres and are in (top-left rule), the
    // right and bottom ones are out, so each pixel is covered once. The same holds for the
    // quad moved half a pixel up and left (edges between pixels).
    let (w, h) = (16, 8);
    let q = |x: f32, y: f32| screen(x, y, w, h, 0.5, ONE);
    let img = render_once(
        w,
        h,
        &[
            [q(-0.5, -0.5), q(15.5, -0.5), q(15.5, 7.5)],
            [q(-0.5, -0.5), q(15.5, 7.5), q(-0.5, 7.5)],
        ],
    );
    assert_once(&img, "half-pixel quad");
    let n = |x: f32, y: f32| ndc(x, y, 0.5, ONE);
    let img = render_once(
        w,
        h,
        &[
            [n(-1.0, 1.0), n(1.0, 1.0), n(1.0, -1.0)],
            [n(-1.0, 1.0), n(1.0, -1.0), n(-1.0, -1.0)],
        ],
    );
    for y in 0..h {
        for x in 0..w {
            assert_eq!(img.get(x, y)[0], 1, "({x}, {y})");
        }
    }
}
