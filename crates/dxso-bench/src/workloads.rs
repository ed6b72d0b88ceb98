//! The two benchmark workloads and their hand-written equivalents.
//!
//! [`SKINNING_VS`] (vs_3_0: four bones through relative addressing, `m4x3`, per-vertex
//! lighting) and [`LIGHTING_PS`] (ps_3_0: an albedo and a normal-map sample, a loop over four
//! point lights) are assembly text; [`skinning_baseline`] and [`lighting_baseline`] compute the
//! same math written by hand in Rust, structure of arrays, in the same order of operations, so
//! their outputs equal the interpreter's bit for bit (a test checks it). `dxso bench exec` and
//! the criterion bench measure one against the other; the baselines are the practical limit an
//! interpreter is compared with.

use dxso_exec::io::{Attribute, InputRegister, OutputRegister, Outputs, QuadBatch, VertexBatch};
use dxso_exec::math;
use dxso_exec::sampler::{sample_lanes, Filter, Lod, Sampler};
use dxso_exec::texture::{Format, Texture};
use dxso_exec::Resources;
use dxso_smith::SplitMix64;
use rayon::prelude::*;
use std::sync::Arc;

/// The skinning vertex shader (assembly).
pub const SKINNING_VS: &str = include_str!("workloads/skinning.vs.asm");
/// The lighting pixel shader (assembly).
pub const LIGHTING_PS: &str = include_str!("workloads/lighting.ps.asm");

/// Bones in the skinning palette.
pub const BONES: usize = 32;

/// Lanes the baselines process at once.
const L: usize = 8;
type V = [f32; L];

/// Invocations per parallel job (as the interpreter's).
const JOB: usize = 2048;

struct Rng(SplitMix64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
    fn signed(&mut self) -> f32 {
        self.unit() * 2.0 - 1.0
    }
}

/// `vertices` skinned vertices and the constants (view-projection, light, bone palette).
pub fn skinning_inputs(vertices: usize) -> (VertexBatch, Resources) {
    let mut rng = Rng(SplitMix64(1));
    let mut batch = VertexBatch::new(vertices);
    let mut pos = Vec::with_capacity(vertices);
    let mut weights = Vec::with_capacity(vertices);
    let mut indices = Vec::with_capacity(vertices);
    let mut normals = Vec::with_capacity(vertices);
    let mut uvs = Vec::with_capacity(vertices);
    for _ in 0..vertices {
        pos.push([rng.signed(), rng.signed(), rng.signed(), 1.0]);
        let w = [rng.unit(), rng.unit(), rng.unit(), rng.unit()];
        let sum: f32 = w.iter().sum();
        weights.push(w.map(|x| x / sum));
        indices.push([0; 4].map(|_| (rng.next() % BONES as u64) as f32));
        normals.push([rng.signed(), rng.signed(), rng.signed(), 0.0]);
        uvs.push([rng.unit(), rng.unit(), 0.0, 0.0]);
    }
    batch.set(InputRegister::V(0), pos);
    batch.set(InputRegister::V(1), weights);
    batch.set(InputRegister::V(2), indices);
    batch.set(InputRegister::V(3), normals);
    batch.set(InputRegister::V(4), uvs);
    let mut res = Resources::default();
    let f = &mut res.constants.float;
    f.resize(10 + 3 * BONES, [0.0; 4]);
    f[0] = [1.2, 0.0, 0.0, 0.0];
    f[1] = [0.0, 1.6, 0.0, 0.0];
    f[2] = [0.0, 0.0, 1.0, -0.1];
    f[3] = [0.0, 0.0, 1.0, 0.0];
    f[4] = [0.577, -0.577, 0.577, 0.0];
    f[5] = [0.9, 0.8, 0.7, 1.0];
    f[6] = [0.1, 0.1, 0.15, 0.0];
    for b in 0..BONES {
        for r in 0..3 {
            let mut row = [
                rng.signed() * 0.1,
                rng.signed() * 0.1,
                rng.signed() * 0.1,
                rng.signed(),
            ];
            row[r] += 1.0;
            f[10 + 3 * b + r] = row;
        }
    }
    (batch, res)
}

fn input(attrs: &[Attribute], r: InputRegister, n: usize) -> &[[f32; 4]] {
    attrs
        .iter()
        .find(|a| a.register == r && a.values.len() == n)
        .map_or(&[], |a| &a.values[..])
}

fn prepare(out: &mut Outputs, n: usize, regs: &[OutputRegister]) {
    out.count = n;
    out.registers.truncate(regs.len());
    for (i, r) in regs.iter().enumerate() {
        match out.registers.get_mut(i) {
            Some(slot) => {
                slot.0 = *r;
                slot.1.resize(n, [0.0; 4]);
            }
            None => out.registers.push((*r, vec![[0.0; 4]; n])),
        }
    }
    out.discarded.clear();
}

#[inline(always)]
fn load(src: &[[f32; 4]], base: usize, n: usize, c: usize) -> V {
    std::array::from_fn(|l| if l < n { src[base + l][c] } else { 0.0 })
}

#[inline(always)]
fn lanes(f: impl Fn(usize) -> f32) -> V {
    std::array::from_fn(f)
}

/// The skinning shader written by hand: the same operations in the same order.
pub fn skinning_baseline(batch: &VertexBatch, res: &Resources, out: &mut Outputs) {
    let n = batch.count;
    let pos = input(&batch.inputs, InputRegister::V(0), n);
    let wts = input(&batch.inputs, InputRegister::V(1), n);
    let idx = input(&batch.inputs, InputRegister::V(2), n);
    let nrm = input(&batch.inputs, InputRegister::V(3), n);
    let uv = input(&batch.inputs, InputRegister::V(4), n);
    // 256 registers and the zero register out-of-range reads land on.
    let mut consts = vec![[0f32; 4]; 257];
    for (d, s) in consts.iter_mut().zip(&res.constants.float) {
        *d = *s;
    }
    prepare(
        out,
        n,
        &[
            OutputRegister::O(0),
            OutputRegister::O(1),
            OutputRegister::O(2),
        ],
    );
    if pos.is_empty() || wts.is_empty() || idx.is_empty() || nrm.is_empty() || uv.is_empty() {
        return;
    }
    let c = &consts;
    let [o0, o1, o2] = &mut out.registers[..] else {
        return;
    };
    let (o0, o1, o2) = (&mut o0.1, &mut o1.1, &mut o2.1);
    type Chunk<'a> = &'a mut [[f32; 4]];
    let job = |(j, ((o0, o1), o2)): (usize, ((Chunk<'_>, Chunk<'_>), Chunk<'_>))| {
        let start = j * JOB;
        let mut done = 0;
        while done < o0.len() {
            let base = start + done;
            let m = L.min(o0.len() - done);
            let (mut p, mut w, mut q, mut ix) = (
                [[0f32; L]; 4],
                [[0f32; L]; 4],
                [[0f32; L]; 4],
                [[0f32; L]; 4],
            );
            for l in 0..m {
                for k in 0..4 {
                    p[k][l] = pos[base + l][k];
                    w[k][l] = wts[base + l][k];
                    q[k][l] = nrm[base + l][k];
                    ix[k][l] = idx[base + l][k];
                }
            }
            let mut r1 = [[0f32; L]; 3];
            let mut r2 = [[0f32; L]; 3];
            for k in 0..4 {
                // The bone's three rows, gathered per lane (register 256 reads zero).
                let mut rows = [[[0f32; L]; 4]; 3];
                for l in 0..L {
                    let a = 10 + math::round_address(ix[k][l] * 3.0) as i64;
                    for (r, row) in rows.iter_mut().enumerate() {
                        let i = a + r as i64;
                        let i = if (0..256).contains(&i) {
                            i as usize
                        } else {
                            256
                        };
                        for cc in 0..4 {
                            row[cc][l] = c[i][cc];
                        }
                    }
                }
                for (r, m) in rows.iter().enumerate() {
                    for l in 0..L {
                        let pp = p[0][l] * m[0][l]
                            + p[1][l] * m[1][l]
                            + p[2][l] * m[2][l]
                            + p[3][l] * m[3][l];
                        let nn = q[0][l] * m[0][l] + q[1][l] * m[1][l] + q[2][l] * m[2][l];
                        if k == 0 {
                            r1[r][l] = pp * w[k][l];
                            r2[r][l] = nn * w[k][l];
                        } else {
                            r1[r][l] += pp * w[k][l];
                            r2[r][l] += nn * w[k][l];
                        }
                    }
                }
            }
            let mut vp = [[0f32; L]; 4];
            for (r, v) in vp.iter_mut().enumerate() {
                for l in 0..L {
                    v[l] = r1[0][l] * c[r][0]
                        + r1[1][l] * c[r][1]
                        + r1[2][l] * c[r][2]
                        + 1.0 * c[r][3];
                }
            }
            let (lx, ly, lz) = (-c[4][0], -c[4][1], -c[4][2]);
            let mut d = [0f32; L];
            for l in 0..L {
                let len = r2[0][l] * r2[0][l] + r2[1][l] * r2[1][l] + r2[2][l] * r2[2][l];
                let f = math::nrm_factor(len);
                let (x, y, z) = (r2[0][l] * f, r2[1][l] * f, r2[2][l] * f);
                d[l] = math::max(x * lx + y * ly + z * lz, 0.0);
            }
            for l in 0..m {
                let i = done + l;
                o0[i] = [vp[0][l], vp[1][l], vp[2][l], vp[3][l]];
                o1[i] = [
                    c[5][0] * d[l] + c[6][0],
                    c[5][1] * d[l] + c[6][1],
                    c[5][2] * d[l] + c[6][2],
                    c[5][3] * d[l] + c[6][3],
                ];
                o2[i] = uv[base + l];
            }
            done += m;
        }
    };
    o0.par_chunks_mut(JOB)
        .zip(o1.par_chunks_mut(JOB))
        .zip(o2.par_chunks_mut(JOB))
        .enumerate()
        .for_each(job);
}

/// Side of the square the lighting workload's pixels cover.
fn grid_width(quads: usize) -> usize {
    let pixels = quads * 4;
    let mut w = (pixels as f64).sqrt() as usize;
    w += w % 2;
    w.max(2)
}

fn texture(rng: &mut Rng, size: u32) -> Texture {
    let mut data = Vec::with_capacity((size * size * 4) as usize);
    for y in 0..size {
        for x in 0..size {
            let v = ((x ^ y) & 0xFF) as u8;
            data.extend([v, (rng.next() & 0xFF) as u8, 255 - v, 255]);
        }
    }
    Texture::new_2d(Format::Rgba8Unorm, size, size, data).expect("sizes match")
}

/// `quads` 2x2 quads covering a square of the screen, with albedo and normal-map textures
/// (256x256 RGBA8, bilinear, wrap) and four lights.
pub fn lighting_inputs(quads: usize) -> (QuadBatch, Resources) {
    let mut rng = Rng(SplitMix64(2));
    let width = grid_width(quads);
    let mut batch = QuadBatch::new(quads);
    let (mut uv, mut world, mut normal) = (Vec::new(), Vec::new(), Vec::new());
    for q in 0..quads {
        let (qx, qy) = ((2 * q) % width, 2 * ((2 * q) / width));
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let (x, y) = ((qx + dx) as f32, (qy + dy) as f32);
            uv.push([(x + 0.5) / 300.0, (y + 0.5) / 300.0, 0.0, 0.0]);
            world.push([
                x * 0.05 - 4.0,
                y * 0.05 - 4.0,
                1.0 + 0.1 * (x * 0.01).sin(),
                0.0,
            ]);
            normal.push([0.1 * rng.signed(), 0.1 * rng.signed(), 1.0, 0.0]);
        }
    }
    batch.set(InputRegister::V(0), uv);
    batch.set(InputRegister::V(1), world);
    batch.set(InputRegister::V(2), normal);
    let mut res = Resources::default();
    let f = &mut res.constants.float;
    f.resize(24, [0.0; 4]);
    for k in 0..4 {
        f[10 + k] = [
            rng.signed() * 4.0,
            rng.signed() * 4.0,
            2.0 + rng.unit(),
            0.0,
        ];
        f[20 + k] = [rng.unit(), rng.unit(), rng.unit(), 1.0];
    }
    for _ in 0..2 {
        let mut s = Sampler::new(Arc::new(texture(&mut rng, 256)));
        s.state.mag_filter = Filter::Linear;
        s.state.min_filter = Filter::Linear;
        res.samplers.push(s);
    }
    (batch, res)
}

/// The lighting shader written by hand: the same operations in the same order (texture lookups
/// through the same sampling function).
pub fn lighting_baseline(batch: &QuadBatch, res: &Resources, out: &mut Outputs) {
    let n = batch.pixels();
    let uv = input(&batch.inputs, InputRegister::V(0), n);
    let world = input(&batch.inputs, InputRegister::V(1), n);
    let normal = input(&batch.inputs, InputRegister::V(2), n);
    prepare(out, n, &[OutputRegister::Target(0)]);
    out.discarded.resize(n, false);
    if uv.is_empty() || world.is_empty() || normal.is_empty() || res.samplers.len() < 2 {
        return;
    }
    let c = |i: usize| res.constants.float.get(i).copied().unwrap_or([0.0; 4]);
    let lights: [[[f32; 4]; 2]; 4] = std::array::from_fn(|k| [c(10 + k), c(20 + k)]);
    let (s0, s1) = (&res.samplers[0], &res.samplers[1]);
    let o = &mut out.registers[0].1;
    o.par_chunks_mut(JOB).enumerate().for_each(|(j, o)| {
        let start = j * JOB;
        let mut done = 0;
        while done < o.len() {
            let base = start + done;
            let m = L.min(o.len() - done);
            let u = load(uv, base, m, 0);
            let v = load(uv, base, m, 1);
            let w = load(uv, base, m, 2);
            let mut t0 = [[0f32; L]; 4];
            let mut t1 = [[0f32; L]; 4];
            let mask = (1u64 << m) - 1;
            {
                let [a, b, cc, d] = &mut t0;
                sample_lanes(
                    s0.texture.as_deref(),
                    &s0.state,
                    [&u, &v, &w],
                    Lod::Implicit(None),
                    mask,
                    [a, b, cc, d],
                );
                let [a, b, cc, d] = &mut t1;
                sample_lanes(
                    s1.texture.as_deref(),
                    &s1.state,
                    [&u, &v, &w],
                    Lod::Implicit(None),
                    mask,
                    [a, b, cc, d],
                );
            }
            let p: [V; 3] = std::array::from_fn(|k| load(world, base, m, k));
            let nn: [V; 3] = std::array::from_fn(|k| load(normal, base, m, k));
            let r1: [V; 3] = std::array::from_fn(|k| lanes(|l| (t1[k][l] * 2.0 + -1.0) + nn[k][l]));
            let len = lanes(|l| r1[0][l] * r1[0][l] + r1[1][l] * r1[1][l] + r1[2][l] * r1[2][l]);
            let f = lanes(|l| math::nrm_factor(len[l]));
            let r2: [V; 3] = std::array::from_fn(|k| lanes(|l| r1[k][l] * f[l]));
            let mut r3 = [[0f32; L]; 3];
            for [lp, lc] in &lights {
                let r4: [V; 3] = std::array::from_fn(|k| lanes(|l| lp[k] + -p[k][l]));
                let d2 = lanes(|l| r4[0][l] * r4[0][l] + r4[1][l] * r4[1][l] + r4[2][l] * r4[2][l]);
                let inv = lanes(|l| math::rsq(d2[l]));
                let r4: [V; 3] = std::array::from_fn(|k| lanes(|l| r4[k][l] * inv[l]));
                let ndl = lanes(|l| {
                    math::saturate(r2[0][l] * r4[0][l] + r2[1][l] * r4[1][l] + r2[2][l] * r4[2][l])
                });
                let att = lanes(|l| math::rcp(d2[l] + 1.0));
                let s = lanes(|l| ndl[l] * att[l]);
                for k in 0..3 {
                    for l in 0..L {
                        r3[k][l] += lc[k] * s[l];
                    }
                }
            }
            for l in 0..m {
                o[done + l] = [
                    t0[0][l] * r3[0][l],
                    t0[1][l] * r3[1][l],
                    t0[2][l] * r3[2][l],
                    t0[3][l],
                ];
            }
            done += m;
        }
    });
}
