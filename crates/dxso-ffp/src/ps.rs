//! The pixel shader generator: the texture-stage cascade, specular add and fog, as ps_3_0.

use crate::asm::{c, oc0, r, rd, v, Asm, Dst, Src};
use crate::d3d::{ta, top};
use crate::key::{PixelFog, PsKey, StageKey};
use crate::layout::*;
use crate::state::TextureKind;
use dxso::{DeclUsage, Opcode as O, RegisterType, Shader, TextureType, Version};

pub(crate) const IN_DIFFUSE: u16 = 0;
pub(crate) const IN_SPECULAR: u16 = 1;
pub(crate) const IN_FOG_DEPTH: u16 = 2;
pub(crate) const IN_TEX0: u16 = 3;

/// `c30`: (0, 0.5, 1, 2).
const K0: u16 = PS_LITERALS;
/// `c31`: (-1, log2(e), 4, 0).
const K1: u16 = PS_LITERALS + 1;

struct Regs {
    current: u16,
    temp: u16,
    /// Each stage's sampled colour, when it samples.
    tex: Vec<Option<u16>>,
}

/// The ps_3_0 of `key`.
pub fn generate(key: &PsKey) -> Shader {
    let mut a = Asm::new(Version::ps(3, 0));
    a.def(K0, [0.0, 0.5, 1.0, 2.0]);
    a.def(K1, [-1.0, std::f32::consts::LOG2_E, 4.0, 0.0]);
    a.dcl(RegisterType::Input, IN_DIFFUSE, DeclUsage::Color, 0, "xyzw");
    a.dcl(
        RegisterType::Input,
        IN_SPECULAR,
        DeclUsage::Color,
        1,
        "xyzw",
    );
    if matches!(key.fog, PixelFog::Table { .. }) {
        a.dcl(RegisterType::Input, IN_FOG_DEPTH, DeclUsage::Fog, 0, "xyzw");
    }
    let mut input = IN_TEX0;
    let mut coords = Vec::new();
    for (n, s) in key.stages.iter().enumerate() {
        if let Some(kind) = s.texture {
            a.dcl(
                RegisterType::Input,
                input,
                DeclUsage::TexCoord,
                n as u8,
                "xyzw",
            );
            a.dcl_sampler(
                n as u16,
                match kind {
                    TextureKind::Flat => TextureType::Texture2D,
                    TextureKind::Cube => TextureType::Cube,
                    TextureKind::Volume => TextureType::Volume,
                },
            );
            coords.push(Some(input));
            input += 1;
        } else {
            coords.push(None);
        }
    }
    let mut regs = Regs {
        current: a.temp(),
        temp: a.temp(),
        tex: vec![None; key.stages.len()],
    };
    a.op(O::Mov, rd(regs.current), &[v(IN_DIFFUSE)]);
    a.op(O::Mov, rd(regs.temp), &[c(K0).s("x")]);
    let res = a.temp();
    let args = [a.temp(), a.temp(), a.temp()];
    let scratch = a.temp();
    for (n, s) in key.stages.iter().enumerate() {
        // Sample the stage's texture, its coordinates perturbed by a bump-mapping stage before.
        if let Some(input) = coords[n] {
            let t = a.temp();
            let prev = n.checked_sub(1).map(|p| key.stages[p]);
            let bump =
                prev.filter(|p| matches!(p.color_op, top::BUMPENVMAP | top::BUMPENVMAPLUMINANCE));
            match (bump, regs.tex[n.saturating_sub(1)]) {
                (Some(p), Some(du)) if n > 0 => {
                    // (u, v) += (du, dv) * [M00 M01; M10 M11] of the bump stage.
                    let m = c(PS_BUMP_MATRIX + n as u16 - 1);
                    a.op(O::Mov, rd(scratch), &[v(input)]);
                    a.op(
                        O::Mad,
                        rd(scratch).m("x"),
                        &[r(du).s("x"), m.s("x"), r(scratch).s("x")],
                    );
                    a.op(
                        O::Mad,
                        rd(scratch).m("x"),
                        &[r(du).s("y"), m.s("z"), r(scratch).s("x")],
                    );
                    a.op(
                        O::Mad,
                        rd(scratch).m("y"),
                        &[r(du).s("x"), m.s("y"), r(scratch).s("y")],
                    );
                    a.op(
                        O::Mad,
                        rd(scratch).m("y"),
                        &[r(du).s("y"), m.s("w"), r(scratch).s("y")],
                    );
                    a.texld(rd(t), r(scratch), n as u16, false);
                    if p.color_op == top::BUMPENVMAPLUMINANCE {
                        let l = c(PS_BUMP_LUMINANCE + n as u16 - 1);
                        a.op(
                            O::Mad,
                            rd(scratch).m("x").sat(),
                            &[r(du).s("z"), l.s("x"), l.s("y")],
                        );
                        a.op(O::Mul, rd(t).m("xyz"), &[r(t), r(scratch).s("x")]);
                    }
                }
                _ => a.texld(rd(t), v(input), n as u16, s.projected),
            }
            regs.tex[n] = Some(t);
        }
        stage(&mut a, key, n, s, &regs, res, args, scratch);
        let dst = if s.result_temp {
            regs.temp
        } else {
            regs.current
        };
        a.op(O::Mov, rd(dst), &[r(res)]);
    }
    if key.specular {
        a.op(
            O::Add,
            rd(regs.current).m("xyz").sat(),
            &[r(regs.current), v(IN_SPECULAR)],
        );
    }
    match key.fog {
        PixelFog::None => {}
        PixelFog::Vertex => {
            a.op(
                O::Lrp,
                rd(regs.current).m("xyz"),
                &[v(IN_SPECULAR).s("w"), r(regs.current), c(PS_FOG_COLOR)],
            );
        }
        PixelFog::Table { mode, w } => {
            let d = a.temp();
            if w {
                a.op(O::Mov, rd(d).m("x"), &[v(IN_FOG_DEPTH).s("y")]);
            } else {
                a.op(O::Rcp, rd(d).m("y"), &[v(IN_FOG_DEPTH).s("y")]);
                a.op(O::Mul, rd(d).m("x"), &[v(IN_FOG_DEPTH).s("x"), r(d).s("y")]);
            }
            crate::vs::fog_factor(&mut a, mode, d, c(PS_FOG), c(K1).s("y"));
            a.op(
                O::Lrp,
                rd(regs.current).m("xyz"),
                &[r(d).s("x"), r(regs.current), c(PS_FOG_COLOR)],
            );
        }
    }
    a.op(O::Mov, oc0(), &[r(regs.current)]);
    a.finish()
}

/// The register an argument selects, with its modifiers applied into `into` when it has any.
fn arg(a: &mut Asm, n: usize, value: u32, regs: &Regs, into: u16) -> Src {
    let src = match value & ta::SELECTMASK {
        ta::DIFFUSE => v(IN_DIFFUSE),
        ta::CURRENT => r(regs.current),
        ta::TEXTURE => match regs.tex[n] {
            Some(t) => r(t),
            // No texture bound: the texture reads opaque white.
            None => c(K0).s("z"),
        },
        ta::TFACTOR => c(PS_TFACTOR),
        ta::SPECULAR => v(IN_SPECULAR),
        ta::TEMP => r(regs.temp),
        _ => c(PS_STAGE_CONSTANT + n as u16),
    };
    let src = if value & ta::ALPHAREPLICATE != 0 {
        src.s("w")
    } else {
        src
    };
    if value & ta::COMPLEMENT != 0 {
        a.op(O::Add, rd(into), &[c(K0).s("z"), src.neg()]);
        r(into)
    } else {
        src
    }
}

/// One stage: colour op into `res.xyz`, alpha op into `res.w`, saturated.
#[allow(clippy::too_many_arguments)]
fn stage(
    a: &mut Asm,
    key: &PsKey,
    n: usize,
    s: &StageKey,
    regs: &Regs,
    res: u16,
    args: [u16; 3],
    scratch: u16,
) {
    let _ = key;
    // Alpha first only reads inputs; both channels are written into `res`.
    let channel = |a: &mut Asm, op: u32, argv: [u32; 3], mask: &str| {
        let srcs: Vec<Src> = (0..3).map(|i| arg(a, n, argv[i], regs, args[i])).collect();
        let (a0, a1, a2) = (srcs[0], srcs[1], srcs[2]);
        let d = rd(res).m(mask);
        let sat = d.sat();
        let alpha_of = |src: u32| -> Src {
            match src {
                ta::DIFFUSE => v(IN_DIFFUSE).s("w"),
                ta::TEXTURE => match regs.tex[n] {
                    Some(t) => r(t).s("w"),
                    None => c(K0).s("z"),
                },
                ta::TFACTOR => c(PS_TFACTOR).s("w"),
                _ => r(regs.current).s("w"),
            }
        };
        operation(
            a,
            op,
            d,
            sat,
            a0,
            a1,
            a2,
            scratch,
            r(regs.current),
            alpha_of,
        );
    };
    let color_op = s.color_op;
    channel(a, color_op, s.color_args, "xyz");
    if color_op == top::DOTPRODUCT3 {
        // The dot product goes to all four channels.
        a.op(O::Mov, rd(res).m("w"), &[r(res).s("x")]);
    } else if s.alpha_op == top::DISABLE {
        a.op(O::Mov, rd(res).m("w"), &[r(regs.current).s("w")]);
    } else {
        channel(a, s.alpha_op, s.alpha_args, "w");
    }
}

/// One `D3DTOP` into `d` (its saturated form `sat`).
#[allow(clippy::too_many_arguments)]
fn operation(
    a: &mut Asm,
    op: u32,
    d: Dst,
    sat: Dst,
    a0: Src,
    a1: Src,
    a2: Src,
    scratch: u16,
    current: Src,
    alpha_of: impl Fn(u32) -> Src,
) {
    let half = c(K0).s("y");
    let one = c(K0).s("z");
    match op {
        top::SELECTARG1 | top::PREMODULATE => a.op(O::Mov, sat, &[a1]),
        top::SELECTARG2 => a.op(O::Mov, sat, &[a2]),
        top::MODULATE => a.op(O::Mul, sat, &[a1, a2]),
        top::MODULATE2X | top::MODULATE4X => {
            a.op(O::Mul, d, &[a1, a2]);
            let k = if op == top::MODULATE2X {
                c(K0).s("w")
            } else {
                c(K1).s("z")
            };
            a.op(O::Mul, sat, &[r(d.0.register.num), k]);
        }
        top::ADD => a.op(O::Add, sat, &[a1, a2]),
        top::ADDSIGNED => {
            a.op(O::Add, d, &[a1, a2]);
            a.op(O::Add, sat, &[r(d.0.register.num), half.neg()]);
        }
        top::ADDSIGNED2X => {
            a.op(O::Add, d, &[a1, a2]);
            a.op(O::Add, d, &[r(d.0.register.num), half.neg()]);
            a.op(O::Add, sat, &[r(d.0.register.num), r(d.0.register.num)]);
        }
        top::SUBTRACT => a.op(O::Add, sat, &[a1, a2.neg()]),
        top::ADDSMOOTH => {
            // a1 + a2 - a1 a2 = a1 + a2 (1 - a1)
            a.op(O::Add, rd(scratch), &[one, a1.neg()]);
            a.op(O::Mad, sat, &[a2, r(scratch), a1]);
        }
        top::BLENDDIFFUSEALPHA
        | top::BLENDTEXTUREALPHA
        | top::BLENDFACTORALPHA
        | top::BLENDCURRENTALPHA => {
            let alpha = alpha_of(match op {
                top::BLENDDIFFUSEALPHA => ta::DIFFUSE,
                top::BLENDTEXTUREALPHA => ta::TEXTURE,
                top::BLENDFACTORALPHA => ta::TFACTOR,
                _ => ta::CURRENT,
            });
            a.op(O::Lrp, sat, &[alpha, a1, a2]);
        }
        top::BLENDTEXTUREALPHAPM => {
            // a1 + a2 (1 - texture alpha)
            a.op(O::Add, rd(scratch), &[one, alpha_of(ta::TEXTURE).neg()]);
            a.op(O::Mad, sat, &[a2, r(scratch), a1]);
        }
        top::MODULATEALPHA_ADDCOLOR => a.op(O::Mad, sat, &[a1.s("w"), a2, a1]),
        top::MODULATECOLOR_ADDALPHA => a.op(O::Mad, sat, &[a1, a2, a1.s("w")]),
        top::MODULATEINVALPHA_ADDCOLOR => {
            a.op(O::Add, rd(scratch), &[one, a1.s("w").neg()]);
            a.op(O::Mad, sat, &[r(scratch), a2, a1]);
        }
        top::MODULATEINVCOLOR_ADDALPHA => {
            a.op(O::Add, rd(scratch), &[one, a1.neg()]);
            a.op(O::Mad, sat, &[r(scratch), a2, a1.s("w")]);
        }
        top::BUMPENVMAP | top::BUMPENVMAPLUMINANCE => {
            // The stage perturbs the next stage's coordinates; its own result is CURRENT.
            a.op(O::Mov, sat, &[current]);
        }
        top::DOTPRODUCT3 => {
            // 4 (a1 - 0.5).(a2 - 0.5) = (2 a1 - 1).(2 a2 - 1)
            let two = c(K0).s("w");
            let minus_one = c(K1).s("x");
            a.op(O::Mad, rd(scratch).m("xyz"), &[a1, two, minus_one]);
            let s2 = a.temp();
            a.op(O::Mad, rd(s2).m("xyz"), &[a2, two, minus_one]);
            a.op(O::Dp3, sat, &[r(scratch), r(s2)]);
        }
        top::MULTIPLYADD => a.op(O::Mad, sat, &[a1, a2, a0]),
        _ => a.op(O::Lrp, sat, &[a0, a1, a2]),
    }
}
