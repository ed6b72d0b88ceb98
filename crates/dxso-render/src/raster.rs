//! One tile at a time: rasterise the primitives binned to it in 2x2 quads, interpolate every
//! pixel-shader input on all four lanes, run the pixel shader on batches of quads, and merge
//! the results in primitive order (alpha test, stencil and depth tests, blending, colour write
//! mask).
//!
//! Quads are aligned to even target coordinates. A covered lane whose depth already fails a
//! test that can only get stricter within a draw (LESS, LESSEQUAL, GREATER, GREATEREQUAL,
//! NEVER) is dropped before shading when the shader cannot change depth and no stencil test
//! runs (a failing pixel still applies the stencil's z-fail operation); every surviving lane
//! is tested again when it is merged, so the picture is the one strict in-order processing
//! gives.

use crate::output::{merge, Merge};
use crate::setup::{Interp, Prim};
use crate::shading::{PixelInputs, PixelOutputs, PixelProgram, ShadeError};
use crate::state::DrawState;
use crate::target::{ClearJob, Tile};
use dxso_dp2::enums::CmpFunc;

/// Quads per pixel-shader batch.
pub const BATCH_QUADS: usize = 64;

/// A draw ready for the tiles.
pub struct DrawJob {
    /// Its fixed-function state.
    pub state: DrawState,
    /// The primitives, in order.
    pub prims: Vec<Prim>,
    /// Pixel-shader inputs per lane.
    pub inputs: usize,
    /// Inputs saturated after interpolation (colours of shader models 1 and 2).
    pub clamp: Vec<bool>,
    /// Whether the shader writes oDepth.
    pub writes_depth: bool,
    /// Whether the pixel shader must run (colour, alpha test, depth output or discard matter).
    pub shade: bool,
    /// The input (after the pixel shader's own) carrying the vertex shader's oFog, for fog
    /// blended after the shader.
    pub fog_input: Option<usize>,
}

/// What a tile does, in stream order.
pub enum Job {
    /// A CLEAR.
    Clear(ClearJob),
    /// A draw; its pixel program is bound by the caller.
    Draw(Box<DrawJob>),
}

/// Counts from rendering tiles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TileStats {
    /// Covered pixels sent to the pixel shader.
    pub pixels_shaded: u64,
    /// Quads shaded (four lanes each, helpers included).
    pub quads_shaded: u64,
    /// Covered pixels that reached the depth test (with or without shading).
    pub pixels_rasterised: u64,
    /// Pixels written to the target.
    pub pixels_written: u64,
}

impl std::ops::AddAssign for TileStats {
    fn add_assign(&mut self, o: TileStats) {
        self.pixels_shaded += o.pixels_shaded;
        self.quads_shaded += o.quads_shaded;
        self.pixels_rasterised += o.pixels_rasterised;
        self.pixels_written += o.pixels_written;
    }
}

/// Quads waiting for the pixel shader, with what merging needs.
struct Batch {
    inputs: Vec<Vec<[f32; 4]>>,
    positions: Vec<[f32; 2]>,
    faces: Vec<f32>,
    covered: Vec<bool>,
    depths: Vec<f32>,
    out: PixelOutputs,
}

impl Batch {
    fn new(inputs: usize) -> Batch {
        Batch {
            inputs: vec![Vec::with_capacity(4 * BATCH_QUADS); inputs],
            positions: Vec::with_capacity(4 * BATCH_QUADS),
            faces: Vec::with_capacity(4 * BATCH_QUADS),
            covered: Vec::with_capacity(4 * BATCH_QUADS),
            depths: Vec::with_capacity(4 * BATCH_QUADS),
            out: PixelOutputs::default(),
        }
    }

    fn lanes(&self) -> usize {
        self.covered.len()
    }

    fn clear(&mut self) {
        self.inputs.iter_mut().for_each(Vec::clear);
        self.positions.clear();
        self.faces.clear();
        self.covered.clear();
        self.depths.clear();
    }
}

fn monotonic(f: CmpFunc) -> bool {
    matches!(
        f,
        CmpFunc::Less
            | CmpFunc::LessEqual
            | CmpFunc::Greater
            | CmpFunc::GreaterEqual
            | CmpFunc::Never
    )
}

/// Renders `entries` ((job, primitive) pairs in stream order; a clear has `u32::MAX`) into
/// `tile`. `programs[j]` is job `j`'s bound pixel program (for draws that shade).
pub fn render_tile(
    tile: &mut Tile,
    jobs: &[&Job],
    programs: &[Option<Box<dyn PixelProgram + '_>>],
    entries: &[(u32, u32)],
) -> Result<TileStats, ShadeError> {
    let mut stats = TileStats::default();
    let mut rasterised = 0;
    let mut batch: Option<(usize, Batch)> = None;
    for &(j, p) in entries {
        let j = j as usize;
        if batch.as_ref().is_some_and(|(bj, _)| *bj != j) {
            let (bj, mut b) = batch.take().expect("checked");
            flush(tile, jobs, programs, bj, &mut b, &mut stats)?;
        }
        match jobs[j] {
            Job::Clear(c) => c.apply(tile),
            Job::Draw(d) => {
                let prim = &d.prims[p as usize];
                if d.shade {
                    let (_, b) = batch.get_or_insert_with(|| (j, Batch::new(d.inputs)));
                    rasterise(tile, d, prim, &mut rasterised, |tile, quad| {
                        push(b, d, prim, quad);
                        if b.lanes() >= 4 * BATCH_QUADS {
                            flush(tile, jobs, programs, j, b, &mut stats)?;
                        }
                        Ok(())
                    })?;
                } else {
                    rasterise(tile, d, prim, &mut rasterised, |tile, quad| {
                        for l in 0..4 {
                            if quad.covered[l] {
                                let m = Merge {
                                    color: None,
                                    depth: quad.depth[l],
                                    ccw: prim.face < 0.0,
                                };
                                if merge(tile, quad.pixels[l], &d.state, m) {
                                    stats.pixels_written += 1;
                                }
                            }
                        }
                        Ok(())
                    })?;
                }
            }
        }
    }
    if let Some((bj, mut b)) = batch {
        flush(tile, jobs, programs, bj, &mut b, &mut stats)?;
    }
    stats.pixels_rasterised = rasterised;
    Ok(stats)
}

/// One rasterised quad: its origin, which lanes are covered, their depths and tile indices.
struct QuadCover {
    x: i32,
    y: i32,
    covered: [bool; 4],
    depth: [f32; 4],
    pixels: [usize; 4],
}

fn lane_xy(x: i32, y: i32, lane: usize) -> (i32, i32) {
    (x + (lane & 1) as i32, y + (lane >> 1) as i32)
}

/// Walks the quads of `prim` inside `tile`, handing each one with a covered lane to `emit`.
fn rasterise(
    tile: &mut Tile,
    d: &DrawJob,
    prim: &Prim,
    rasterised: &mut u64,
    mut emit: impl FnMut(&mut Tile, &QuadCover) -> Result<(), ShadeError>,
) -> Result<(), ShadeError> {
    let (tx0, ty0) = (tile.x as i32, tile.y as i32);
    let (tx1, ty1) = (tx0 + tile.width as i32, ty0 + tile.height as i32);
    let [bx0, by0, bx1, by1] = prim.bounds;
    // The scissor rectangle narrows the walk; lanes left of it (quads start on even columns)
    // are tested below.
    let [sx0, sy0, sx1, sy1] = d
        .state
        .scissor
        .unwrap_or([i32::MIN, i32::MIN, i32::MAX, i32::MAX]);
    let (x0, y0) = (bx0.max(tx0).max(sx0) & !1, by0.max(ty0).max(sy0) & !1);
    let (x1, y1) = (bx1.min(tx1).min(sx1), by1.min(ty1).min(sy1));
    // A pixel failing the depth test still runs the stencil's z-fail operation.
    let early = d
        .state
        .depth_test
        .filter(|&f| monotonic(f) && !d.writes_depth && d.state.stencil.is_none());
    let [ox, oy] = prim.origin;
    // Depth bias: the constant plus the slope factor times the primitive's largest depth
    // slope (0 for points, whose depth is constant).
    let [bias, slope] = d.state.depth_bias;
    let bias = bias + slope * prim.z.dx.abs().max(prim.z.dy.abs());
    let mut y = y0;
    while y < y1 {
        let mut x = x0;
        while x < x1 {
            let mut q = QuadCover {
                x,
                y,
                covered: [false; 4],
                depth: [0.0; 4],
                pixels: [0; 4],
            };
            let mut any = false;
            for l in 0..4 {
                let (i, j) = lane_xy(x, y, l);
                if i < x1 && j < y1 && i >= sx0 && j >= sy0 && prim.covers(i, j) {
                    let (dx, dy) = ((i as f64 - ox) as f32, (j as f64 - oy) as f32);
                    let z = match d.state.w_buffer {
                        // W-buffering: w at the pixel over the far plane's w.
                        Some(w_far) => crate::output::saturate(1.0 / prim.inv_w.at(dx, dy) / w_far),
                        None => {
                            // The viewport's range may run either way (MinZ > MaxZ is allowed).
                            let (lo, hi) = (d.state.viewport.min_z, d.state.viewport.max_z);
                            let z = prim.z.at(dx, dy);
                            let z = if bias != 0.0 {
                                crate::output::saturate(z + bias)
                            } else {
                                z
                            };
                            z.max(lo.min(hi)).min(lo.max(hi))
                        }
                    };
                    let pixel = tile.index(i as u32, j as u32);
                    *rasterised += 1;
                    if early.is_some_and(|f| !f.passes(z, tile.depth[pixel])) {
                        continue;
                    }
                    q.covered[l] = true;
                    q.depth[l] = z;
                    q.pixels[l] = pixel;
                    any = true;
                }
            }
            if any {
                emit(tile, &q)?;
            }
            x += 2;
        }
        y += 2;
    }
    Ok(())
}

/// Interpolates every input of `prim` on the four lanes of `quad` into the batch.
fn push(b: &mut Batch, d: &DrawJob, prim: &Prim, quad: &QuadCover) {
    let [ox, oy] = prim.origin;
    for l in 0..4 {
        let (i, j) = lane_xy(quad.x, quad.y, l);
        let (dx, dy) = ((i as f64 - ox) as f32, (j as f64 - oy) as f32);
        // w at the lane (from the 1/w plane): a product per component instead of a division.
        let w = 1.0 / prim.inv_w.at(dx, dy);
        for (k, input) in b.inputs.iter_mut().enumerate() {
            let planes = &prim.varyings[4 * k..4 * k + 4];
            let mut v: [f32; 4] = std::array::from_fn(|c| planes[c].at(dx, dy));
            if prim.interp[k] == Interp::Perspective {
                v = v.map(|c| c * w);
            }
            if d.clamp[k] {
                v = v.map(|c| if c.is_nan() { 0.0 } else { c.clamp(0.0, 1.0) });
            }
            input.push(v);
        }
        b.positions.push([i as f32, j as f32]);
        b.faces.push(prim.face);
        b.covered.push(quad.covered[l]);
        b.depths.push(quad.depth[l]);
    }
}

fn flush(
    tile: &mut Tile,
    jobs: &[&Job],
    programs: &[Option<Box<dyn PixelProgram + '_>>],
    j: usize,
    b: &mut Batch,
    stats: &mut TileStats,
) -> Result<(), ShadeError> {
    let lanes = b.lanes();
    if lanes == 0 {
        return Ok(());
    }
    let Job::Draw(d) = jobs[j] else {
        b.clear();
        return Ok(());
    };
    let program = programs[j].as_ref().ok_or_else(|| ShadeError {
        stage: "pixel",
        message: "no pixel program was bound for a draw that shades".into(),
    })?;
    let inputs: Vec<&[[f32; 4]]> = b.inputs.iter().map(Vec::as_slice).collect();
    b.out.colors.clear();
    b.out.colors.resize(lanes, [0.0; 4]);
    b.out.depths.clear();
    b.out.depths.resize(lanes, 0.0);
    b.out.discarded.clear();
    b.out.discarded.resize(lanes, false);
    program.run(
        &PixelInputs {
            lanes,
            inputs: &inputs,
            positions: &b.positions,
            faces: &b.faces,
            covered: &b.covered,
        },
        &mut b.out,
    )?;
    stats.quads_shaded += (lanes / 4) as u64;
    for l in 0..lanes {
        if !b.covered[l] {
            continue;
        }
        stats.pixels_shaded += 1;
        if b.out.discarded[l] {
            continue;
        }
        let [i, jy] = b.positions[l];
        let depth = if d.writes_depth {
            let z = b.out.depths[l];
            if z.is_nan() {
                0.0
            } else {
                z.clamp(0.0, 1.0)
            }
        } else {
            b.depths[l]
        };
        let pixel = tile.index(i as u32, jy as u32);
        let mut color = b.out.colors[l];
        if let Some(fog) = &d.state.post_fog {
            let f = match d.fog_input {
                Some(k) => b.inputs[k][l][0],
                None => fog.table_factor(b.depths[l]),
            };
            color = fog.blend(color.map(crate::output::saturate), f);
        }
        let m = Merge {
            color: Some(color),
            depth,
            ccw: b.faces[l] < 0.0,
        };
        if merge(tile, pixel, &d.state, m) {
            stats.pixels_written += 1;
        }
    }
    b.clear();
    Ok(())
}
