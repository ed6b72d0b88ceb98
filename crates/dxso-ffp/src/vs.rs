//! The vertex shader generator: transform, vertex blending, lighting, texture coordinate
//! generation and transforms, vertex fog and point size, as vs_3_0.

use crate::asm::{a0, c, od, r, rd, v, Asm, Src};
use crate::d3d::{fog, light, mcs, tci};
use crate::fvf::{ElementType, Position};
use crate::key::{VertexFog, VsKey};
use crate::layout::*;
use dxso::{DeclUsage, Opcode as O, RegisterType, Shader, Version};

/// Input registers by meaning.
pub(crate) const IN_POSITION: u16 = 0;
pub(crate) const IN_WEIGHT: u16 = 1;
pub(crate) const IN_INDICES: u16 = 2;
pub(crate) const IN_NORMAL: u16 = 3;
pub(crate) const IN_PSIZE: u16 = 4;
pub(crate) const IN_DIFFUSE: u16 = 5;
pub(crate) const IN_SPECULAR: u16 = 6;
pub(crate) const IN_TEX0: u16 = 7;

/// Output registers by meaning: position and colours first, then the fog depth, the point
/// size and each sampling stage's coordinates numbered in that order as present.
const OUT_POSITION: u16 = 0;
const OUT_DIFFUSE: u16 = 1;
const OUT_SPECULAR: u16 = 2;

/// The output registers of the optional outputs.
struct Outputs {
    fog_depth: u16,
    psize: u16,
    /// By position in [`VsKey::tex`].
    tex: Vec<u16>,
}

/// The vs_3_0 output registers one key needs (at most 12).
pub(crate) fn output_count(key: &VsKey) -> usize {
    3 + usize::from(key.table_fog) + usize::from(key.point_size) + key.tex.len()
}

/// `c240`: (0, 0.5, 1, 2).
const K0: u16 = VS_LITERALS;
/// `c241`: (blend register stride, the same for D3DCOLOR indices (x 255.001953), log2(e), tiny).
const K1: u16 = VS_LITERALS + 1;

/// The vs_3_0 of `key`.
pub fn generate(key: &VsKey) -> Shader {
    let mut a = Asm::new(Version::vs(3, 0));
    a.def(K0, [0.0, 0.5, 1.0, 2.0]);
    a.def(
        K1,
        [
            VS_BLEND_SIZE as f32,
            VS_BLEND_SIZE as f32 * 255.001_95,
            std::f32::consts::LOG2_E,
            1.0e-20,
        ],
    );
    let fvf = &key.fvf;
    // Inputs.
    let pos_usage = if fvf.position == Position::Xyzrhw {
        DeclUsage::PositionT
    } else {
        DeclUsage::Position
    };
    a.dcl(RegisterType::Input, IN_POSITION, pos_usage, 0, "xyzw");
    if fvf.weights() > 0 {
        a.dcl(
            RegisterType::Input,
            IN_WEIGHT,
            DeclUsage::BlendWeight,
            0,
            "xyzw",
        );
    }
    if fvf.indices.is_some() {
        a.dcl(
            RegisterType::Input,
            IN_INDICES,
            DeclUsage::BlendIndices,
            0,
            "xyzw",
        );
    }
    if fvf.normal {
        a.dcl(RegisterType::Input, IN_NORMAL, DeclUsage::Normal, 0, "xyzw");
    }
    if fvf.psize {
        a.dcl(RegisterType::Input, IN_PSIZE, DeclUsage::PSize, 0, "xyzw");
    }
    if fvf.diffuse {
        a.dcl(RegisterType::Input, IN_DIFFUSE, DeclUsage::Color, 0, "xyzw");
    }
    if fvf.specular {
        a.dcl(
            RegisterType::Input,
            IN_SPECULAR,
            DeclUsage::Color,
            1,
            "xyzw",
        );
    }
    for i in 0..fvf.tex.len() as u16 {
        a.dcl(
            RegisterType::Input,
            IN_TEX0 + i,
            DeclUsage::TexCoord,
            i as u8,
            "xyzw",
        );
    }
    // Outputs.
    let mut next = 3;
    let mut take = |on: bool| {
        next += u16::from(on);
        next - u16::from(on)
    };
    let outs = Outputs {
        fog_depth: take(key.table_fog),
        psize: take(key.point_size),
        tex: key.tex.iter().map(|_| take(true)).collect(),
    };
    a.dcl(
        RegisterType::Output,
        OUT_POSITION,
        DeclUsage::Position,
        0,
        "xyzw",
    );
    a.dcl(
        RegisterType::Output,
        OUT_DIFFUSE,
        DeclUsage::Color,
        0,
        "xyzw",
    );
    a.dcl(
        RegisterType::Output,
        OUT_SPECULAR,
        DeclUsage::Color,
        1,
        "xyzw",
    );
    if key.table_fog {
        a.dcl(
            RegisterType::Output,
            outs.fog_depth,
            DeclUsage::Fog,
            0,
            "xyzw",
        );
    }
    for (t, &o) in key.tex.iter().zip(&outs.tex) {
        a.dcl(
            RegisterType::Output,
            o,
            DeclUsage::TexCoord,
            t.stage,
            "xyzw",
        );
    }
    if key.point_size {
        a.dcl(RegisterType::Output, outs.psize, DeclUsage::PSize, 0, "x");
    }

    let diffuse_in = if fvf.diffuse {
        v(IN_DIFFUSE)
    } else {
        c(K0).s("z")
    };
    // A missing specular colour is black with alpha 1 (no fog when its alpha is the factor).
    let specular_in = if fvf.specular {
        v(IN_SPECULAR)
    } else {
        c(K0).s("xxxz")
    };

    if fvf.position == Position::Xyzrhw {
        pretransformed(&mut a, key, &outs, diffuse_in, specular_in);
        return a.finish();
    }

    // Camera-space position (w = 1) and normal.
    let p = a.temp();
    let n = a.temp();
    blend(&mut a, key, p, n);
    if fvf.normal && key.normalize {
        a.op(O::Nrm, rd(n).m("xyz"), &[r(n)]);
    }
    // Clip-space position.
    for (i, m) in ["x", "y", "z", "w"].into_iter().enumerate() {
        a.op(
            O::Dp4,
            od(OUT_POSITION).m(m),
            &[r(p), c(VS_PROJECTION + i as u16)],
        );
    }
    if key.table_fog {
        let t = a.temp();
        for (i, m) in ["x", "y"].into_iter().enumerate() {
            a.op(O::Dp4, rd(t).m(m), &[r(p), c(VS_PROJECTION + 2 + i as u16)]);
        }
        a.op(O::Mov, od(outs.fog_depth).m("xy"), &[r(t)]);
        a.op(O::Mov, od(outs.fog_depth).m("zw"), &[c(K0).s("x")]);
    }

    // Colours.
    let spec = a.temp();
    if key.lighting {
        lighting(&mut a, key, p, n, spec, diffuse_in, specular_in);
    } else {
        a.op(O::Mov, od(OUT_DIFFUSE), &[diffuse_in]);
        a.op(O::Mov, rd(spec), &[specular_in]);
    }

    // Vertex fog into the specular alpha.
    match key.fog {
        VertexFog::None | VertexFog::Specular => {}
        VertexFog::Computed { mode, range } => {
            let d = a.temp();
            if range {
                a.op(O::Dp3, rd(d).m("x"), &[r(p), r(p)]);
                a.op(O::Rsq, rd(d).m("y"), &[r(d).s("x")]);
                a.op(O::Mul, rd(d).m("x"), &[r(d).s("x"), r(d).s("y")]);
            } else {
                a.op(O::Mov, rd(d).m("x"), &[r(p).s("z")]);
            }
            fog_factor(&mut a, mode, d, c(VS_FOG), c(K1).s("z"));
            a.op(O::Mov, rd(spec).m("w"), &[r(d).s("x")]);
        }
    }
    a.op(O::Mov, od(OUT_SPECULAR), &[r(spec)]);

    texcoords(&mut a, key, &outs, p, n);

    if key.point_size {
        let s = a.temp();
        let size = if key.fvf.psize {
            v(IN_PSIZE).s("x")
        } else {
            c(VS_POINT).s("x")
        };
        a.op(O::Mov, rd(s).m("x"), &[size]);
        if key.point_scale {
            // size * height * sqrt(1 / (A + B d + C d^2)), d the camera-space distance.
            a.op(O::Dp3, rd(s).m("y"), &[r(p), r(p)]);
            a.op(O::Rsq, rd(s).m("z"), &[r(s).s("y")]);
            a.op(O::Mul, rd(s).m("z"), &[r(s).s("y"), r(s).s("z")]);
            a.op(
                O::Mul,
                rd(s).m("w"),
                &[c(VS_POINT_SCALE).s("z"), r(s).s("y")],
            );
            a.op(
                O::Mad,
                rd(s).m("w"),
                &[c(VS_POINT_SCALE).s("y"), r(s).s("z"), r(s).s("w")],
            );
            a.op(
                O::Add,
                rd(s).m("w"),
                &[c(VS_POINT_SCALE).s("x"), r(s).s("w")],
            );
            a.op(O::Rsq, rd(s).m("w"), &[r(s).s("w")]);
            a.op(O::Mul, rd(s).m("x"), &[r(s).s("x"), r(s).s("w")]);
            a.op(O::Mul, rd(s).m("x"), &[r(s).s("x"), c(VS_POINT).s("w")]);
        }
        a.op(O::Max, rd(s).m("x"), &[r(s).s("x"), c(VS_POINT).s("y")]);
        a.op(
            O::Min,
            od(outs.psize).m("x"),
            &[r(s).s("x"), c(VS_POINT).s("z")],
        );
    }
    a.finish()
}

/// Pre-transformed vertices: screen position back to clip space, colours and coordinates as
/// given.
fn pretransformed(a: &mut Asm, key: &VsKey, outs: &Outputs, diffuse: Src, specular: Src) {
    let t = a.temp();
    // w = 1 / rhw; clip = ndc * w. An rhw of 0 (or below) draws as a tiny positive one, as
    // hardware rasterises pre-transformed vertices whatever their rhw.
    a.op(O::Max, rd(t).m("w"), &[v(IN_POSITION).s("w"), c(K1).s("w")]);
    a.op(O::Rcp, rd(t).m("w"), &[r(t).s("w")]);
    a.op(
        O::Mad,
        rd(t).m("xyz"),
        &[v(IN_POSITION), c(VS_VIEWPORT_SCALE), c(VS_VIEWPORT_OFFSET)],
    );
    a.op(O::Mul, od(OUT_POSITION).m("xyz"), &[r(t), r(t).s("w")]);
    a.op(O::Mov, od(OUT_POSITION).m("w"), &[r(t).s("w")]);
    if key.table_fog {
        // Table fog of pre-transformed vertices reads their z.
        a.op(
            O::Mul,
            od(outs.fog_depth).m("x"),
            &[v(IN_POSITION).s("z"), r(t).s("w")],
        );
        a.op(O::Mov, od(outs.fog_depth).m("y"), &[r(t).s("w")]);
        a.op(O::Mov, od(outs.fog_depth).m("zw"), &[c(K0).s("x")]);
    }
    a.op(O::Mov, od(OUT_DIFFUSE), &[diffuse]);
    a.op(O::Mov, od(OUT_SPECULAR), &[specular]);
    for (tk, &o) in key.tex.iter().zip(&outs.tex) {
        let dst = od(o);
        if (tk.set as usize) < key.fvf.tex.len() {
            a.op(O::Mov, dst, &[v(IN_TEX0 + tk.set as u16)]);
        } else {
            a.op(O::Mov, dst, &[c(K0).s("xxxz")]);
        }
    }
    if key.point_size {
        a.op(O::Mov, od(outs.psize).m("x"), &[v(IN_PSIZE).s("x")]);
    }
}

/// Camera-space position into `p` (w = 1) and normal into `n`, blending world matrices.
fn blend(a: &mut Asm, key: &VsKey, p: u16, n: u16) {
    let has_normal = key.fvf.normal;
    let count = key.blend_matrices as u16;
    if count == 1 && !key.indexed {
        // w too: a world or view matrix that is not affine gives w != 1.
        a.op(
            O::Dp4,
            rd(p).m("w"),
            &[v(IN_POSITION), c(VS_BLEND_MATRICES + 3)],
        );
        for (i, m) in ["x", "y", "z"].into_iter().enumerate() {
            a.op(
                O::Dp4,
                rd(p).m(m),
                &[v(IN_POSITION), c(VS_BLEND_MATRICES + i as u16)],
            );
            if has_normal {
                a.op(
                    O::Dp3,
                    rd(n).m(m),
                    &[v(IN_NORMAL), c(VS_BLEND_MATRICES + 4 + i as u16)],
                );
            }
        }

        if !has_normal {
            a.op(O::Mov, rd(n), &[c(K0).s("x")]);
        }
        return;
    }
    let w = a.temp();
    let t = a.temp();
    let idx = a.temp();
    // Weights: the first count - 1 from the vertex, the last 1 - their sum.
    a.op(O::Mov, rd(w).m("w"), &[c(K0).s("z")]);
    for i in 0..count - 1 {
        let comp = ["x", "y", "z"][i as usize];
        a.op(O::Mov, rd(w).m(comp), &[v(IN_WEIGHT).s(comp)]);
        a.op(
            O::Add,
            rd(w).m("w"),
            &[r(w).s("w"), v(IN_WEIGHT).s(comp).neg()],
        );
    }
    if key.indexed {
        let (swz, scale) = match key.fvf.indices {
            // D3DCOLOR indices arrive as BGRA bytes read in 0..1.
            Some(ElementType::D3dColor) => ("zyxw", c(K1).s("y")),
            _ => ("xyzw", c(K1).s("x")),
        };
        a.op(O::Mul, rd(idx), &[v(IN_INDICES).s(swz), scale]);
    }
    a.op(O::Mov, rd(p), &[c(K0).s("x")]);
    a.op(O::Mov, rd(n), &[c(K0).s("x")]);
    for i in 0..count {
        let weight = r(w).s(["x", "y", "z", "w"][if i == count - 1 { 3 } else { i as usize }]);
        let base = |k: u16| -> Src {
            if key.indexed {
                c(VS_BLEND_MATRICES + k).rel_a0(0)
            } else {
                c(VS_BLEND_MATRICES + VS_BLEND_SIZE * i + k)
            }
        };
        if key.indexed {
            a.op(
                O::MovA,
                a0().m("x"),
                &[r(idx).s(["x", "y", "z", "w"][i as usize])],
            );
        }
        for (k, m) in ["x", "y", "z"].into_iter().enumerate() {
            a.op(O::Dp4, rd(t).m(m), &[v(IN_POSITION), base(k as u16)]);
        }
        a.op(O::Mad, rd(p).m("xyz"), &[r(t), weight, r(p)]);
        if has_normal {
            for (k, m) in ["x", "y", "z"].into_iter().enumerate() {
                a.op(O::Dp3, rd(t).m(m), &[v(IN_NORMAL), base(4 + k as u16)]);
            }
            a.op(O::Mad, rd(n).m("xyz"), &[r(t), weight, r(n)]);
        }
    }
    a.op(O::Mov, rd(p).m("w"), &[c(K0).s("z")]);
}

/// The material colour `which` (0 diffuse, 1 specular, 2 ambient, 3 emissive) by its source.
fn material(key: &VsKey, which: usize, diffuse: Src, specular: Src) -> Src {
    let reg = [0, 2, 1, 3][which];
    match key.sources[which] {
        mcs::COLOR1 => diffuse,
        mcs::COLOR2 => specular,
        _ => c(VS_MATERIAL + reg),
    }
}

/// Lights every enabled light; writes the diffuse output and the specular colour into `spec`.
fn lighting(a: &mut Asm, key: &VsKey, p: u16, n: u16, spec: u16, diffuse: Src, specular: Src) {
    let amb = a.temp();
    let dif = a.temp();
    let spc = a.temp();
    let l = a.temp(); // direction to the light
    let t = a.temp(); // x: distance^2, y: 1/distance, z: distance, w: attenuation * spot
    let lit = a.temp();
    let h = a.temp();
    a.op(O::Mov, rd(amb), &[c(K0).s("x")]);
    a.op(O::Mov, rd(dif), &[c(K0).s("x")]);
    a.op(O::Mov, rd(spc), &[c(K0).s("x")]);
    let eye = a.temp();
    if key.specular && key.local_viewer {
        // Direction from the vertex to the camera.
        a.op(O::Nrm, rd(eye).m("xyz"), &[r(p).neg()]);
    }
    for (i, &ty) in key.lights.iter().enumerate() {
        let base = VS_LIGHTS + VS_LIGHT_SIZE * i as u16;
        let (ld, ls, la, lp, ldir, lparam, latt) = (
            c(base),
            c(base + 1),
            c(base + 2),
            c(base + 3),
            c(base + 4),
            c(base + 5),
            c(base + 6),
        );
        if ty == light::DIRECTIONAL {
            a.op(O::Mov, rd(l).m("xyz"), &[ldir]);
            a.op(O::Mov, rd(t).m("w"), &[c(K0).s("z")]);
        } else {
            a.op(O::Add, rd(l).m("xyz"), &[lp, r(p).neg()]);
            a.op(O::Dp3, rd(t).m("x"), &[r(l), r(l)]);
            a.op(O::Rsq, rd(t).m("y"), &[r(t).s("x")]);
            a.op(O::Mul, rd(l).m("xyz"), &[r(l), r(t).s("y")]);
            a.op(O::Mul, rd(t).m("z"), &[r(t).s("x"), r(t).s("y")]);
            // 1 / (a0 + a1 d + a2 d^2), zero beyond the range.
            a.op(
                O::Mad,
                rd(t).m("w"),
                &[latt.s("z"), r(t).s("x"), latt.s("x")],
            );
            a.op(
                O::Mad,
                rd(t).m("w"),
                &[latt.s("y"), r(t).s("z"), r(t).s("w")],
            );
            a.op(O::Rcp, rd(t).m("w"), &[r(t).s("w")]);
            a.op(O::Sge, rd(h).m("x"), &[lparam.s("x"), r(t).s("z")]);
            a.op(O::Mul, rd(t).m("w"), &[r(t).s("w"), r(h).s("x")]);
            if ty == light::SPOT {
                // rho = cos of the angle between the spot direction and the light-to-vertex
                // direction; ((rho - cos(phi/2)) / (cos(theta/2) - cos(phi/2)))^falloff,
                // saturated, zero outside the outer cone.
                a.op(O::Dp3, rd(h).m("x"), &[r(l).neg(), ldir]);
                a.op(O::Add, rd(h).m("y"), &[r(h).s("x"), latt.s("w").neg()]);
                a.op(O::Slt, rd(h).m("w"), &[c(K0).s("x"), r(h).s("y")]);
                let sat = crate::asm::rd(h).m("y").sat();
                a.op(O::Mul, sat, &[r(h).s("y"), lparam.s("w")]);
                a.op(O::Max, rd(h).m("y"), &[r(h).s("y"), c(K1).s("w")]);
                a.op(O::Pow, rd(h).m("z"), &[r(h).s("y"), lparam.s("y")]);
                a.op(O::Mul, rd(h).m("z"), &[r(h).s("z"), r(h).s("w")]);
                a.op(O::Mul, rd(t).m("w"), &[r(t).s("w"), r(h).s("z")]);
            }
        }
        // lit: y = max(N.L, 0), z = (N.L > 0 and N.H > 0) ? (N.H)^power : 0.
        a.op(O::Dp3, rd(lit).m("x"), &[r(n), r(l)]);
        if key.specular {
            if key.local_viewer {
                a.op(O::Add, rd(h).m("xyz"), &[r(l), r(eye)]);
            } else {
                // The camera infinitely far away: the direction to it is (0, 0, -1).
                a.op(O::Add, rd(h).m("xyz"), &[r(l), c(K0).s("xxzx").neg()]);
            }
            a.op(O::Nrm, rd(h).m("xyz"), &[r(h)]);
            a.op(O::Dp3, rd(lit).m("y"), &[r(n), r(h)]);
        } else {
            a.op(O::Mov, rd(lit).m("y"), &[c(K0).s("x")]);
        }
        a.op(O::Mov, rd(lit).m("w"), &[c(VS_POWER).s("x")]);
        a.op(O::Lit, rd(lit), &[r(lit)]);
        a.op(O::Mul, rd(lit), &[r(lit), r(t).s("w")]);
        a.op(O::Mad, rd(amb).m("xyz"), &[la, r(t).s("w"), r(amb)]);
        a.op(O::Mad, rd(dif).m("xyz"), &[ld, r(lit).s("y"), r(dif)]);
        if key.specular {
            a.op(O::Mad, rd(spc).m("xyz"), &[ls, r(lit).s("z"), r(spc)]);
        }
    }
    let md = material(key, 0, diffuse, specular);
    let ms = material(key, 1, diffuse, specular);
    let ma = material(key, 2, diffuse, specular);
    let me = material(key, 3, diffuse, specular);
    // diffuse = emissive + Ma (ambient + lights' ambient) + Md * lights' diffuse; alpha = Md.a.
    let out = a.temp();
    a.op(O::Add, rd(amb).m("xyz"), &[r(amb), c(VS_AMBIENT)]);
    a.op(O::Mad, rd(out).m("xyz"), &[ma, r(amb), me]);
    a.op(O::Mad, rd(out).m("xyz"), &[md, r(dif), r(out)]);
    a.op(O::Mov, rd(out).m("w"), &[md.s("w")]);
    a.op(O::Mov, od(OUT_DIFFUSE).sat(), &[r(out)]);
    if key.specular {
        a.op(O::Mul, rd(spec).m("xyz").sat(), &[ms, r(spc)]);
    } else {
        a.op(O::Mov, rd(spec).m("xyz"), &[c(K0).s("x")]);
    }
    a.op(O::Mov, rd(spec).m("w"), &[specular.s("w")]);
}

/// The fog factor of the distance in `d.x`, into `d.x` (saturated).
pub(crate) fn fog_factor(a: &mut Asm, mode: u32, d: u16, params: Src, log2e: Src) {
    match mode {
        fog::LINEAR => {
            a.op(O::Add, rd(d).m("x"), &[params.s("y"), r(d).s("x").neg()]);
            a.op(O::Mul, rd(d).m("x").sat(), &[r(d).s("x"), params.s("w")]);
        }
        fog::EXP => {
            a.op(O::Mul, rd(d).m("x"), &[r(d).s("x"), params.s("z")]);
            a.op(O::Mul, rd(d).m("x"), &[r(d).s("x"), log2e]);
            a.op(O::Exp, rd(d).m("x").sat(), &[r(d).s("x").neg()]);
        }
        _ => {
            a.op(O::Mul, rd(d).m("x"), &[r(d).s("x"), params.s("z")]);
            a.op(O::Mul, rd(d).m("x"), &[r(d).s("x"), r(d).s("x")]);
            a.op(O::Mul, rd(d).m("x"), &[r(d).s("x"), log2e]);
            a.op(O::Exp, rd(d).m("x").sat(), &[r(d).s("x").neg()]);
        }
    }
}

/// Texture coordinates of every sampling stage: passed through or generated, then transformed.
fn texcoords(a: &mut Asm, key: &VsKey, outs: &Outputs, p: u16, n: u16) {
    if key.tex.is_empty() {
        return;
    }
    let t = a.temp();
    let rv = a.temp();
    let o = a.temp();
    for (tk, &out) in key.tex.iter().zip(&outs.tex) {
        // The coordinates as a 4-vector in `t`, and how many components they have.
        let comps = match tk.generate {
            tci::PASSTHRU => {
                if let Some(&k) = key.fvf.tex.get(tk.set as usize) {
                    a.op(O::Mov, rd(t), &[v(IN_TEX0 + tk.set as u16)]);
                    k
                } else {
                    a.op(O::Mov, rd(t), &[c(K0).s("xxxz")]);
                    2
                }
            }
            tci::CAMERASPACENORMAL => {
                a.op(O::Mov, rd(t).m("xyz"), &[r(n)]);
                3
            }
            tci::CAMERASPACEPOSITION => {
                a.op(O::Mov, rd(t).m("xyz"), &[r(p)]);
                3
            }
            _ => {
                // R = I - 2 (N.I) N, I the direction from the camera to the vertex.
                if key.local_viewer {
                    a.op(O::Nrm, rd(rv).m("xyz"), &[r(p)]);
                } else {
                    a.op(O::Mov, rd(rv).m("xyz"), &[c(K0).s("xxz")]);
                }
                a.op(O::Dp3, rd(rv).m("w"), &[r(n), r(rv)]);
                a.op(O::Add, rd(rv).m("w"), &[r(rv).s("w"), r(rv).s("w")]);
                a.op(O::Mad, rd(t).m("xyz"), &[r(n), r(rv).s("w").neg(), r(rv)]);
                if tk.generate == tci::SPHEREMAP {
                    // u, v = R.xy / m + 0.5 with m = 2 |R - (0, 0, 1)|.
                    a.op(O::Add, rd(rv).m("xyz"), &[r(t), c(K0).s("xxz").neg()]);
                    a.op(O::Dp3, rd(rv).m("w"), &[r(rv), r(rv)]);
                    a.op(O::Rsq, rd(rv).m("w"), &[r(rv).s("w")]);
                    a.op(O::Mul, rd(rv).m("w"), &[r(rv).s("w"), c(K0).s("y")]);
                    a.op(O::Mad, rd(t).m("xy"), &[r(t), r(rv).s("w"), c(K0).s("y")]);
                    a.op(O::Mov, rd(t).m("z"), &[c(K0).s("x")]);
                }
                3
            }
        };
        // Missing components: the first is 1 (so the row after the last component is the
        // translation), the rest 0; generated vectors have w = 1.
        let comps = comps.min(4);
        if comps < 4 {
            let fill = ["x", "y", "z", "w"];
            a.op(O::Mov, rd(t).m(fill[comps as usize]), &[c(K0).s("z")]);
            for f in fill.iter().skip(comps as usize + 1) {
                a.op(O::Mov, rd(t).m(f), &[c(K0).s("x")]);
            }
        }
        let dst = od(out);
        if tk.count == 0 {
            a.op(O::Mov, dst, &[r(t)]);
            continue;
        }
        let m = VS_TEXTURE_MATRICES + 4 * tk.stage as u16;
        for (i, comp) in ["x", "y", "z", "w"].into_iter().enumerate() {
            a.op(O::Dp4, rd(o).m(comp), &[r(t), c(m + i as u16)]);
        }
        if tk.projected {
            // texldp divides by w: move the last counted component there.
            let last = ["x", "y", "z", "w"][tk.count as usize - 1];
            a.op(O::Mov, rd(o).m("w"), &[r(o).s(last)]);
        }
        a.op(O::Mov, dst, &[r(o)]);
    }
}
