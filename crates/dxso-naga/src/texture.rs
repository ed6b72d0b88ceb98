//! Texture instructions: `texld` and its modes, `texldl`, `texldd`, `texkill`, and the
//! ps_1_x family (`tex`, `texcoord`, `texbem`, `texreg2*`, `texm3x2*`, `texm3x3*`, `texdp3*`,
//! `texdepth`, `bem`).

use crate::body::{Body, Reg, Value};
use crate::reflect::Stage;
use crate::semantics;
use crate::Error;
use dxso::{Instruction, Opcode, RegisterType, SrcParam, TexldMode, TextureType};
use naga::{
    BinaryOperator as B, Expression, Handle, MathFunction as M, SampleLevel, Statement, VectorSize,
};

type H = Handle<Expression>;

/// How the level of detail is chosen.
enum Level {
    Auto,
    Bias(H),
    Exact(H),
    Gradient(H, H),
}

impl Body<'_> {
    /// Lowers a texture instruction; `false` when `inst` is not one.
    pub(crate) fn texture(&mut self, inst: &Instruction) -> Result<bool, Error> {
        use Opcode::*;
        let v = self.plan.version;
        if v.is_pixel() && v.major < 2 {
            return self.texture_ps1(inst);
        }
        let srcs = &inst.srcs;
        let (coord, sampler) = match (srcs.first(), srcs.get(1)) {
            (Some(c), Some(s)) => (c, s),
            _ if matches!(inst.opcode, Tex | TexLdl | TexLdd) => {
                return Err(self.err("texture instruction without coordinates and sampler"))
            }
            _ => return Ok(false),
        };
        let n = sampler.register.index();
        let c = self.src4(coord)?;
        let level = match inst.opcode {
            Tex => match inst.texld_mode() {
                Some(TexldMode::Bias) => Level::Bias(self.index(c, 3)),
                _ => Level::Auto,
            },
            TexLdl => Level::Exact(self.index(c, 3)),
            TexLdd => {
                let (Some(dx), Some(dy)) = (srcs.get(2), srcs.get(3)) else {
                    return Err(self.err("texldd without gradients"));
                };
                Level::Gradient(self.src4(dx)?, self.src4(dy)?)
            }
            _ => return Ok(false),
        };
        let project = inst.texld_mode() == Some(TexldMode::Project) && inst.opcode == Tex;
        let mut result = self.sample(n, c, project, level)?;
        if !sampler.swizzle.is_identity() {
            result = self.swizzle(result, VectorSize::Quad, sampler.swizzle.components());
        }
        self.write(inst, Value::Vec4(result))?;
        Ok(true)
    }

    /// The texture type sampler `n` samples.
    fn texture_type(&self, n: u32) -> TextureType {
        self.plan.sampler_type(n)
    }

    /// Samples sampler `n` at the coordinates in `c` (a `vec4`, of which the texture type
    /// uses 2 or 3 components), divided by `c.w` when `project`.
    fn sample(&mut self, n: u32, c: H, project: bool, level: Level) -> Result<H, Error> {
        if n >= 16 {
            return Err(self.err("sampler register out of range"));
        }
        let tt = self.texture_type(n);
        let size = match tt {
            TextureType::Cube | TextureType::Volume => VectorSize::Tri,
            _ => VectorSize::Bi,
        };
        let mut coord = self.swizzle(c, size, [0, 1, 2, 3]);
        if project {
            let w = self.index(c, 3);
            let w = self.e(Expression::Splat { size, value: w });
            coord = self.bin(B::Divide, coord, w);
        }
        let level = match level {
            Level::Auto => {
                if self.plan.stage != Stage::Fragment {
                    return Err(self.err("implicit-level sampling outside a pixel shader"));
                }
                SampleLevel::Auto
            }
            Level::Bias(b) => {
                if self.plan.stage != Stage::Fragment {
                    return Err(self.err("biased sampling outside a pixel shader"));
                }
                SampleLevel::Bias(b)
            }
            Level::Exact(l) => SampleLevel::Exact(l),
            Level::Gradient(x, y) => {
                let x = self.swizzle(x, size, [0, 1, 2, 3]);
                let y = self.swizzle(y, size, [0, 1, 2, 3]);
                SampleLevel::Gradient { x, y }
            }
        };
        let (t, s) = self.m.image(n, tt);
        let image = self.func.pre(Expression::GlobalVariable(t));
        let sampler = self.func.pre(Expression::GlobalVariable(s));
        Ok(self.e(Expression::ImageSample {
            image,
            sampler,
            gather: None,
            coordinate: coord,
            array_index: None,
            offset: None,
            level,
            depth_ref: None,
            clamp_to_edge: false,
        }))
    }

    /// `texkill`: remembers that the pixel is discarded when any of x, y, z is negative;
    /// the discard happens at the end of the program, so the pixel's quad neighbours keep
    /// their derivatives.
    pub(crate) fn texkill(&mut self, inst: &Instruction) -> Result<(), Error> {
        let Some(dst) = inst.dst else {
            return Err(self.err("texkill without a register"));
        };
        let v = self.plan.version;
        let reg = if v.is_pixel() && v.major < 2 && dst.register.ty == RegisterType::Addr {
            Reg::TexCoord(dst.register.index())
        } else {
            let (ty, n) = dxso::analysis::register_key(dst.register);
            self.readable(ty)?;
            self.plan.source_reg(ty, n)
        };
        let value = self.read_reg(reg)?;
        let components = semantics::texkill_components(v);
        let size = if components == 3 {
            VectorSize::Tri
        } else {
            VectorSize::Quad
        };
        let x = if components == 3 {
            self.swizzle(value, size, [0, 1, 2, 3])
        } else {
            value
        };
        let zero = self.fconst_w(0.0, Some(size));
        let mut neg = self.bin(B::Less, x, zero);
        if let Some(p) = &inst.predicate {
            // Only the components whose predicate component is true are tested.
            let mut cond = self.predicate4(p)?;
            if components == 3 {
                cond = self.swizzle(cond, size, [0, 1, 2, 3]);
            }
            let no = self.func.bool(false);
            let none = self.e(Expression::Splat { size, value: no });
            neg = self.select(cond, neg, none);
        }
        let any = self.e(Expression::Relational {
            fun: naga::RelationalFunction::Any,
            argument: neg,
        });
        let p = self.reg_ptr(Reg::Killed);
        let old = self.load(p);
        let now = self.bin(B::LogicalOr, old, any);
        self.store(p, now);
        Ok(())
    }

    /// Ends the program of a pixel shader that may discard.
    pub(crate) fn discard_if_killed(&mut self) {
        let p = self.reg_ptr(Reg::Killed);
        let k = self.load(p);
        let mut accept = naga::Block::new();
        accept.push(Statement::Kill, naga::Span::UNDEFINED);
        self.func.stmt(Statement::If {
            condition: k,
            accept,
            reject: naga::Block::new(),
        });
    }

    fn texture_ps1(&mut self, inst: &Instruction) -> Result<bool, Error> {
        use Opcode::*;
        let Some(dst) = inst.dst else {
            return Ok(false);
        };
        let stage = dst.register.index();
        let ps14 = self.plan.version.minor >= 4;
        let src0 = inst.srcs.first();
        let need_src = |b: &Self| -> Result<&SrcParam, Error> {
            src0.ok_or_else(|| b.err("missing source operand"))
        };
        let result = match inst.opcode {
            Tex if ps14 => {
                let c = self.src4(need_src(self)?)?;
                self.sample(stage, c, false, Level::Auto)?
            }
            TexCoord if ps14 => self.src4(need_src(self)?)?,
            Tex => {
                let c = self.projected_coords(stage)?;
                self.sample(stage, c, false, Level::Auto)?
            }
            TexCoord => {
                let c = self.read_reg(Reg::TexCoord(stage))?;
                let sat = self.math1(M::Saturate, c);
                let one = self.fconst(1.0, crate::body::Lanes::All);
                let w = self.m.mask(0b1000);
                let w = self.constant(w);
                self.select(w, one, sat)
            }
            TexBem | TexBemL => {
                let src = self.src4(need_src(self)?)?;
                let tc = self.projected_coords(stage)?;
                let coords = self.bump(stage, tc, src)?;
                let mut r = self.sample(stage, coords, false, Level::Auto)?;
                if inst.opcode == TexBemL {
                    r = self.luminance(stage, r, src);
                }
                r
            }
            TexReg2Ar | TexReg2Gb | TexReg2Rgb => {
                let src = self.src4(need_src(self)?)?;
                let comps = match inst.opcode {
                    TexReg2Ar => [3, 0, 0, 0],
                    TexReg2Gb => [1, 2, 2, 2],
                    _ => [0, 1, 2, 2],
                };
                let c = self.swizzle(src, VectorSize::Quad, comps);
                self.sample(stage, c, false, Level::Auto)?
            }
            TexM3x2Pad | TexM3x3Pad => {
                let d = self.row_dot(stage, need_src(self)?)?;
                self.pads.push(d);
                return Ok(true);
            }
            TexM3x2Tex | TexM3x2Depth | TexDp3Tex | TexDp3 => {
                let d = self.row_dot(stage, need_src(self)?)?;
                let zero = self.func.f32(0.0);
                match inst.opcode {
                    TexM3x2Tex => {
                        let u = self.take_pad(1)?[0];
                        let c = self.compose4(vec![u, d, zero, zero]);
                        self.sample(stage, c, false, Level::Auto)?
                    }
                    TexM3x2Depth => {
                        let z = self.take_pad(1)?[0];
                        self.write_depth_ratio(z, d);
                        return Ok(true);
                    }
                    TexDp3Tex => {
                        let c = self.compose4(vec![d, zero, zero, zero]);
                        self.sample(stage, c, false, Level::Auto)?
                    }
                    _ => self.splat(d),
                }
            }
            TexM3x3Tex | TexM3x3 | TexM3x3Spec | TexM3x3VSpec => {
                let w = self.row_dot(stage, need_src(self)?)?;
                let uv = self.take_pad(2)?;
                let one = self.func.f32(1.0);
                let n = self.compose4(vec![uv[0], uv[1], w, one]);
                match inst.opcode {
                    TexM3x3 => n,
                    TexM3x3Tex => self.sample(stage, n, false, Level::Auto)?,
                    _ => {
                        let eye = if inst.opcode == TexM3x3Spec {
                            let Some(e) = inst.srcs.get(1) else {
                                return Err(self.err("texm3x3spec without an eye vector"));
                            };
                            self.src4(e)?
                        } else {
                            let mut ws = Vec::with_capacity(4);
                            for s in [stage.saturating_sub(2), stage.saturating_sub(1), stage] {
                                let tc = self.read_reg(Reg::TexCoord(s))?;
                                ws.push(self.index(tc, 3));
                            }
                            ws.push(one);
                            self.compose4(ws)
                        };
                        let r = self.reflect(n, eye);
                        self.sample(stage, r, false, Level::Auto)?
                    }
                }
            }
            TexDepth => {
                // depth = clamp01(r5.x / min(r5.y, 1)) (SEMANTICS 8).
                let r = self.read_reg(Reg::File(RegisterType::Temp, dst.register.index()))?;
                let x = self.index(r, 0);
                let y = self.index(r, 1);
                let one = self.func.f32(1.0);
                let y = self.math2(M::Min, y, one);
                let q = self.bin(B::Divide, x, y);
                let d = self.clamp01(q);
                self.write_depth(d);
                return Ok(true);
            }
            Bem => {
                let (Some(a), Some(b)) = (inst.srcs.first(), inst.srcs.get(1)) else {
                    return Err(self.err("missing source operand"));
                };
                let a = self.src4(a)?;
                let b = self.src4(b)?;
                self.bump(stage, a, b)?
            }
            _ => return Ok(false),
        };
        self.write(inst, Value::Vec4(result))?;
        Ok(true)
    }

    /// `dot(texcoord[stage].xyz, src.xyz)`: one row of a ps_1_x texture matrix.
    fn row_dot(&mut self, stage: u32, src: &SrcParam) -> Result<H, Error> {
        let tc = self.read_reg(Reg::TexCoord(stage))?;
        let tc = self.swizzle(tc, VectorSize::Tri, [0, 1, 2, 3]);
        let s = self.src_n(src, VectorSize::Tri)?;
        Ok(self.dot(tc, s, 3))
    }

    fn take_pad(&mut self, n: usize) -> Result<Vec<H>, Error> {
        if self.pads.len() < n {
            return Err(self.err("texture matrix instruction without its pad instructions"));
        }
        let at = self.pads.len() - n;
        Ok(self.pads.split_off(at))
    }

    /// `base.xy + bumpenv[stage] * src.xy` (texbem, bem): `(M00 M10; M01 M11)`.
    fn bump(&mut self, stage: u32, base: H, src: H) -> Result<H, Error> {
        if stage >= crate::layout::BUMP_STAGES {
            return Err(self.err("bump-environment stage out of range"));
        }
        let env = self.member(3);
        let p = self.index(env, stage);
        let m = self.load(p);
        let (m00, m01, m10, m11) = (
            self.index(m, 0),
            self.index(m, 1),
            self.index(m, 2),
            self.index(m, 3),
        );
        let sx = self.index(src, 0);
        let sy = self.index(src, 1);
        let bx = self.index(base, 0);
        let by = self.index(base, 1);
        let a = self.product(m00, sx, None);
        let b = self.product(m10, sy, None);
        let u = self.bin(B::Add, bx, a);
        let u = self.bin(B::Add, u, b);
        let c = self.product(m01, sx, None);
        let d = self.product(m11, sy, None);
        let v = self.bin(B::Add, by, c);
        let v = self.bin(B::Add, v, d);
        let zero = self.func.f32(0.0);
        Ok(self.compose4(vec![u, v, zero, zero]))
    }

    /// `texbeml`: every component scaled by `src.z * scale + offset`, not clamped.
    fn luminance(&mut self, stage: u32, color: H, src: H) -> H {
        let lum = self.member(4);
        let p = self.index(lum, stage);
        let l = self.load(p);
        let scale = self.index(l, 0);
        let offset = self.index(l, 1);
        let z = self.index(src, 2);
        let m = self.product(z, scale, None);
        let f = self.bin(B::Add, m, offset);
        self.product_by_scalar(color, f, VectorSize::Quad)
    }

    /// The coordinates of ps_1_1-1_3 stage `stage`, divided by the component the stage's
    /// projection names (`D3DTTFF_PROJECTED`).
    fn projected_coords(&mut self, stage: u32) -> Result<H, Error> {
        let tc = self.read_reg(Reg::TexCoord(stage))?;
        let divisor = self
            .plan
            .options
            .ps1_projection
            .get(stage as usize)
            .copied()
            .flatten();
        Ok(match divisor {
            Some(c) => {
                let d = self.index(tc, (c & 3) as u32);
                let d = self.splat(d);
                self.bin(B::Divide, tc, d)
            }
            None => tc,
        })
    }

    /// `clamp(x, 0, 1)` with NaN giving 0.
    fn clamp01(&mut self, x: H) -> H {
        let s = self.math1(M::Saturate, x);
        let ordered = self.bin(B::Equal, x, x);
        let zero = self.func.f32(0.0);
        self.select(ordered, s, zero)
    }

    fn write_depth(&mut self, d: H) {
        let p = self.reg_ptr(Reg::File(RegisterType::DepthOut, 0));
        self.store(p, d);
    }

    /// `2 n (n.e) / (n.n) - e`.
    fn reflect(&mut self, n: H, e: H) -> H {
        let n3 = self.swizzle(n, VectorSize::Tri, [0, 1, 2, 3]);
        let e3 = self.swizzle(e, VectorSize::Tri, [0, 1, 2, 3]);
        let ne = self.dot(n3, e3, 3);
        let nn = self.dot(n3, n3, 3);
        let two = self.func.f32(2.0);
        let k = self.bin(B::Multiply, two, ne);
        let k = self.bin(B::Divide, k, nn);
        let kn = self.product_by_scalar(n3, k, VectorSize::Tri);
        let r = self.bin(B::Subtract, kn, e3);
        let one = self.func.f32(1.0);
        self.compose4(vec![r, one])
    }

    /// `oDepth = w == 0 ? 1 : clamp01(z / w)` (texm3x2depth).
    fn write_depth_ratio(&mut self, z: H, w: H) {
        let zero = self.func.f32(0.0);
        let one = self.func.f32(1.0);
        let q = self.bin(B::Divide, z, w);
        let q = self.clamp01(q);
        let is_zero = self.bin(B::Equal, w, zero);
        let d = self.select(is_zero, one, q);
        self.write_depth(d);
    }
}
