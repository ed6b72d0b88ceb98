//! Instructions to HLSL statements: one statement per instruction, on `float4` locals named
//! after the registers, with component-wise swizzles and masks.

use crate::literal::literal;
use crate::signature::Signature;
use crate::uniforms::Uniforms;
use crate::Error;
use dxso::analysis::register_key;
use dxso::{
    Comparison, DstParam, Instruction, Opcode, Register, RegisterType as RT, ShaderInfo,
    SrcModifier, SrcParam, TexldMode, TextureType, Version,
};
use std::collections::BTreeSet;

const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

/// The components `comps` as a swizzle suffix (`.xy`), empty for the identity on `width`.
pub(crate) fn swizzle(comps: &[u8], width: u8) -> String {
    if comps.len() == width as usize && comps.iter().enumerate().all(|(i, c)| *c as usize == i) {
        return String::new();
    }
    let mut s = String::from(".");
    s.extend(comps.iter().map(|c| COMPONENTS[*c as usize & 3]));
    s
}

fn vector_literal(vals: &[f32]) -> String {
    if vals.len() == 1 {
        return literal(vals[0]);
    }
    let parts: Vec<String> = vals
        .iter()
        .map(|v| {
            if v.is_finite() {
                format!("{v:?}")
            } else {
                literal(*v)
            }
        })
        .collect();
    format!("float{}({})", vals.len(), parts.join(", "))
}

fn float_type(n: usize) -> String {
    if n == 1 {
        "float".into()
    } else {
        format!("float{n}")
    }
}

/// The decompiler's state over one shader.
pub(crate) struct Emitter<'a> {
    pub version: Version,
    pub info: &'a ShaderInfo,
    pub uniforms: &'a Uniforms,
    pub sig: &'a Signature,
    /// Lines of the function being written.
    pub lines: Vec<String>,
    pub indent: usize,
    /// Loop counters in use (for unique names).
    pub loop_depth: usize,
    /// `texm3x2pad`/`texm3x3pad` dot products pending for the next instruction.
    pub pads: Vec<String>,
    /// The `return` statement of the function being written.
    pub ret: String,
    /// Locals the functions use (register keys).
    pub locals: BTreeSet<(RT, u32)>,
    /// `true` while writing the entry point.
    pub in_main: bool,
    /// The arguments of each subroutine's call.
    pub call_args: std::collections::BTreeMap<u32, String>,
    /// The loop counters of the enclosing `loop`s (the innermost is `aL`'s value).
    pub al_stack: Vec<String>,
    /// Recognise idioms over several instructions (`mul`).
    pub idioms: bool,
}

impl<'a> Emitter<'a> {
    /// Appends a statement at the current indentation.
    pub(crate) fn push(&mut self, s: String) {
        self.line(s)
    }

    fn line(&mut self, s: String) {
        let pad = "    ".repeat(self.indent);
        self.lines.push(format!("{pad}{s}"));
    }

    fn ps1(&self) -> bool {
        self.version.is_pixel() && self.version.major == 1
    }

    /// The base expression and width of a register read (no swizzle), or a literal.
    fn base(&self, src: &SrcParam) -> Result<Base, Error> {
        let r = src.register;
        let key = register_key(r);
        let v = self.version;
        Ok(match r.ty {
            RT::Temp => Base::expr(format!("r{}", r.num), 4),
            RT::Input | RT::MiscType => {
                let k = if self.ps1() {
                    (RT::Input, r.num as u32)
                } else {
                    key
                };
                if let Some(rel) = src.relative.filter(|_| r.ty == RT::Input) {
                    // `v[aL + n]`: the entry point copies the inputs into the array `v_`.
                    let index = self.relative_index(rel)?;
                    let e = if r.num == 0 {
                        format!("v_[{index}]")
                    } else {
                        format!("v_[{index} + {}]", r.num)
                    };
                    return Ok(Base::expr(e, 4));
                }
                match self.sig.input_regs.get(&k) {
                    Some(&f) => {
                        let field = &self.sig.inputs[f];
                        let mut b = Base::expr(format!("i.{}", field.name), field.width);
                        // vFace is one value every component reads.
                        b.replicated = r.ty == RT::MiscType && r.num == 1;
                        b
                    }
                    None => Base::lit([0.0; 4]),
                }
            }
            RT::Addr if v.is_pixel() => {
                if v.major == 1 && v.minor < 4 {
                    Base::expr(format!("t{}", r.num), 4)
                } else {
                    match self.sig.input_regs.get(&key) {
                        Some(&f) => {
                            let field = &self.sig.inputs[f];
                            Base::expr(format!("i.{}", field.name), field.width)
                        }
                        None => Base::lit([0.0; 4]),
                    }
                }
            }
            RT::Addr => Base::expr("a0".into(), 4),
            RT::Loop => Base::expr(self.al(), 1),
            RT::Predicate => Base::expr("p0".into(), 4),
            t if t.is_float_const() => {
                let n = r.index();
                if let Some(rel) = src.relative {
                    let index = self.relative_index(rel)?;
                    let Some(flat) = self
                        .uniforms
                        .flats
                        .iter()
                        .find(|f| n >= f.base && n < f.base + f.count.max(1))
                        .or_else(|| self.uniforms.flats.iter().find(|f| f.base == n))
                    else {
                        return Err(Error::Unsupported {
                            what: format!("relative read of c{n} outside any array"),
                        });
                    };
                    let off = n - flat.base;
                    let e = if off == 0 {
                        format!("{}[{index}]", flat.name)
                    } else {
                        format!("{}[{index} + {off}]", flat.name)
                    };
                    return Ok(self.clamp_ps1(Base::expr(e, 4)));
                }
                if let Some(bits) = self.info.float_defs.get(&n) {
                    let mut vals = bits.map(f32::from_bits);
                    if self.ps1() {
                        vals = vals.map(|x| x.clamp(-1.0, 1.0));
                    }
                    return Ok(Base::lit(vals));
                }
                match self.uniforms.floats.get(&n) {
                    Some(view) => self.clamp_ps1(Base::expr(view.expr.clone(), view.width)),
                    None => Base::lit([0.0; 4]),
                }
            }
            _ => {
                return Err(Error::Unsupported {
                    what: format!("register {} as a source", r.name(v)),
                })
            }
        })
    }

    fn al(&self) -> String {
        self.al_stack.last().cloned().unwrap_or_else(|| "aL".into())
    }

    fn clamp_ps1(&self, b: Base) -> Base {
        if self.ps1() {
            let w = b.width;
            let e = format!("clamp({}, -1, 1)", b.text);
            Base::expr(e, w)
        } else {
            b
        }
    }

    fn relative_index(&self, rel: dxso::Relative) -> Result<String, Error> {
        match rel {
            dxso::Relative::Token(t) => {
                let c = COMPONENTS[t.swizzle.get(0) as usize & 3];
                Ok(match t.register.ty {
                    RT::Loop => self.al(),
                    _ => format!("a0.{c}"),
                })
            }
            // Shader model 1 addresses with a0.x.
            dxso::Relative::Implicit => Ok("a0.x".into()),
        }
    }

    /// The source `src` read at the components `lanes` (destination lanes, before swizzle).
    pub(crate) fn src(&self, src: &SrcParam, lanes: &[u8]) -> Result<String, Error> {
        let comps: Vec<u8> = lanes.iter().map(|l| src.swizzle.get(*l as usize)).collect();
        self.src_comps(src, &comps)
    }

    /// The source `src` at the register components `comps` (after swizzle), with its modifier.
    fn src_comps(&self, src: &SrcParam, comps: &[u8]) -> Result<String, Error> {
        let base = self.base(src)?;
        let n = comps.len();
        let replicated: Vec<u8>;
        let comps = if base.replicated {
            replicated = vec![0; n];
            &replicated[..]
        } else {
            comps
        };
        if let Some(vals) = base.lit {
            let mut out: Vec<f32> = comps.iter().map(|c| vals[*c as usize & 3]).collect();
            for x in &mut out {
                *x = apply_modifier(src.modifier, *x);
            }
            return Ok(vector_literal(&out));
        }
        let mut e = if comps.iter().all(|c| *c < base.width) {
            format!("{}{}", base.text, swizzle(comps, base.width))
        } else if base.width == 1 && comps.iter().all(|c| *c == 0) {
            base.text.clone()
        } else {
            // Components past the value's width read as 0.
            let mut parts = Vec::new();
            for c in comps {
                if *c < base.width {
                    parts.push(if base.width == 1 {
                        base.text.clone()
                    } else {
                        format!("{}.{}", base.text, COMPONENTS[*c as usize])
                    });
                } else {
                    parts.push("0".into());
                }
            }
            if n == 1 {
                parts.remove(0)
            } else {
                format!("float{n}({})", parts.join(", "))
            }
        };
        if base.width == 1 && n > 1 && comps.iter().all(|c| *c == 0) {
            e = format!("({})({})", float_type(n), base.text);
        }
        if matches!(src.modifier, SrcModifier::Dz | SrcModifier::Dw) {
            let d = if src.modifier == SrcModifier::Dz {
                'z'
            } else {
                'w'
            };
            let full = base.text.clone();
            let divided = format!("({full} / {full}.{d})");
            return Ok(format!("{divided}{}", swizzle(comps, 4)));
        }
        Ok(match src.modifier {
            SrcModifier::None | SrcModifier::Not => e,
            SrcModifier::Neg => format!("-{e}"),
            SrcModifier::Bias => format!("({e} - 0.5)"),
            SrcModifier::BiasNeg => format!("-({e} - 0.5)"),
            SrcModifier::Sign => format!("(2 * {e} - 1)"),
            SrcModifier::SignNeg => format!("-(2 * {e} - 1)"),
            SrcModifier::Comp => format!("(1 - {e})"),
            SrcModifier::X2 => format!("(2 * {e})"),
            SrcModifier::X2Neg => format!("-(2 * {e})"),
            SrcModifier::Abs => format!("abs({e})"),
            SrcModifier::AbsNeg => format!("-abs({e})"),
            SrcModifier::Dz | SrcModifier::Dw => unreachable!("handled above"),
        })
    }

    /// A scalar source (component `.x` of the swizzled value).
    fn scalar(&self, src: &SrcParam) -> Result<String, Error> {
        self.src(src, &[0])
    }

    /// The destination's lvalue (without mask) and width.
    fn dst_base(&mut self, d: &DstParam) -> Result<(String, u8), Error> {
        let r = d.register;
        let key = register_key(r);
        let v = self.version;
        if d.relative.is_some() {
            return Err(Error::Unsupported {
                what: "relative addressing of outputs".into(),
            });
        }
        Ok(match r.ty {
            RT::Temp => {
                self.locals.insert((RT::Temp, r.num as u32));
                (format!("r{}", r.num), 4)
            }
            RT::Addr if v.is_pixel() => {
                self.locals.insert((RT::Addr, r.num as u32));
                (format!("t{}", r.num), 4)
            }
            RT::Addr => {
                self.locals.insert((RT::Addr, 0));
                ("a0".into(), 4)
            }
            RT::Predicate => {
                self.locals.insert((RT::Predicate, 0));
                ("p0".into(), 4)
            }
            RT::RastOut | RT::AttrOut | RT::Output | RT::ColorOut | RT::DepthOut => {
                match self.sig.output_regs.get(&key) {
                    Some(&f) => {
                        let field = &self.sig.outputs[f];
                        (format!("o.{}", field.name), field.width)
                    }
                    None => {
                        return Err(Error::Unsupported {
                            what: format!("output {} without a declaration", r.name(v)),
                        })
                    }
                }
            }
            _ => {
                return Err(Error::Unsupported {
                    what: format!("register {} as a destination", r.name(v)),
                })
            }
        })
    }

    /// Writes `value` (an expression over the lanes of `d`'s mask, in order) to `d`, with the
    /// result shift, saturation and the predicate.
    fn assign(&mut self, inst: &Instruction, d: &DstParam, value: String) -> Result<(), Error> {
        let (base, width) = self.dst_base(d)?;
        let lanes = lanes(d.mask.0);
        let lanes: Vec<u8> = lanes.into_iter().filter(|l| *l < width).collect();
        if lanes.is_empty() {
            return Ok(());
        }
        let mut value = value;
        // The shift scales the whole result: a sum is parenthesised first.
        let scaled = |v: &str| {
            let atom = v
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '[' | ']'));
            if atom {
                v.to_string()
            } else {
                format!("({})", strip_parens(v))
            }
        };
        match d.shift.0 {
            0 => {}
            s if s > 0 => value = format!("{} * {}", scaled(&value), 1u32 << s),
            s => value = format!("{} / {}", scaled(&value), 1u32 << (-s)),
        }
        if d.modifiers.saturate() {
            value = format!("saturate({})", strip_parens(&value));
        }
        let target = format!("{base}{}", swizzle(&lanes, width));
        if lanes.len() > 1 && scalar_result(inst.opcode) {
            // A scalar the assignment replicates; the folding pass reads the marker.
            value = format!("{SCALAR}{value}");
        }
        if let Some(p) = &inst.predicate {
            let cond = self.src(p, &lanes)?;
            let (a, b) = if p.modifier == SrcModifier::Not {
                (target.clone(), format!("({value})"))
            } else {
                (format!("({value})"), target.clone())
            };
            self.line(format!("{target} = ({cond} ? {a} : {b});"));
        } else {
            self.line(format!("{target} = {};", strip_parens(&value)));
        }
        Ok(())
    }

    fn sampler(&self, r: Register) -> (String, TextureType) {
        match self.uniforms.samplers.get(&r.index()) {
            Some((n, t)) => (n.clone(), *t),
            None => (format!("s{}", r.index()), TextureType::Texture2D),
        }
    }

    fn sample(&self, stage: Register, coord4: &str, mode: &str, extra: &[String]) -> String {
        let (name, ty) = self.sampler(stage);
        let (suffix, n) = match ty {
            TextureType::Cube => ("CUBE", 3),
            TextureType::Volume => ("3D", 3),
            TextureType::Texture1D => ("1D", 1),
            _ => ("2D", 2),
        };
        let sw = &".xyz"[..n + 1];
        match mode {
            "" => format!("tex{suffix}({name}, {coord4}{sw})"),
            "grad" => format!(
                "tex{suffix}grad({name}, {coord4}{sw}, {}{sw}, {}{sw})",
                extra[0], extra[1]
            ),
            m => format!("tex{suffix}{m}({name}, {coord4})"),
        }
    }

    /// The full four-component value of `src` as a coordinate (`float4`, swizzle applied).
    fn coord(&self, src: &SrcParam) -> Result<String, Error> {
        let e = self.src(src, &[0, 1, 2, 3])?;
        Ok(paren(&e))
    }

    /// Emits one non-structural instruction.
    pub(crate) fn instruction(&mut self, inst: &Instruction) -> Result<(), Error> {
        use Opcode as O;
        let s = &inst.srcs;
        let Some(d) = inst.dst else {
            return self.no_dst(inst);
        };
        let l = lanes(d.mask.0);
        let n = l.len();
        let value = match inst.opcode {
            O::Dcl | O::Def | O::DefI | O::DefB => return Ok(()),
            O::Mov if d.register.ty == RT::Addr && self.version.is_vertex() => {
                if self.version.major == 1 {
                    format!("floor({})", self.src(&s[0], &l)?)
                } else {
                    format!("round({})", self.src(&s[0], &l)?)
                }
            }
            O::MovA => format!("round({})", self.src(&s[0], &l)?),
            O::Mov => self.src(&s[0], &l)?,
            O::Add => format!("{} + {}", self.src(&s[0], &l)?, self.src(&s[1], &l)?),
            O::Sub => format!(
                "{} - {}",
                self.src(&s[0], &l)?,
                paren(&self.src(&s[1], &l)?)
            ),
            O::Mul => format!(
                "{} * {}",
                paren(&self.src(&s[0], &l)?),
                paren(&self.src(&s[1], &l)?)
            ),
            O::Mad => format!(
                "{} * {} + {}",
                paren(&self.src(&s[0], &l)?),
                paren(&self.src(&s[1], &l)?),
                self.src(&s[2], &l)?
            ),
            O::Min => format!("min({}, {})", self.src(&s[0], &l)?, self.src(&s[1], &l)?),
            O::Max => format!("max({}, {})", self.src(&s[0], &l)?, self.src(&s[1], &l)?),
            O::Slt => format!(
                "({} < {} ? {} : {})",
                self.src(&s[0], &l)?,
                self.src(&s[1], &l)?,
                vector_literal(&vec![1.0; n]),
                vector_literal(&vec![0.0; n])
            ),
            O::Sge => format!(
                "({} >= {} ? {} : {})",
                self.src(&s[0], &l)?,
                self.src(&s[1], &l)?,
                vector_literal(&vec![1.0; n]),
                vector_literal(&vec![0.0; n])
            ),
            O::Cmp => format!(
                "({} >= 0 ? {} : {})",
                self.src(&s[0], &l)?,
                self.src(&s[1], &l)?,
                self.src(&s[2], &l)?
            ),
            O::Cnd => {
                if inst.coissue && self.version.minor < 4 {
                    self.src(&s[1], &l)?
                } else {
                    format!(
                        "({} > 0.5 ? {} : {})",
                        self.src(&s[0], &l)?,
                        self.src(&s[1], &l)?,
                        self.src(&s[2], &l)?
                    )
                }
            }
            O::Lrp => format!(
                "lerp({}, {}, {})",
                self.src(&s[2], &l)?,
                self.src(&s[1], &l)?,
                self.src(&s[0], &l)?
            ),
            O::Abs => format!("abs({})", self.src(&s[0], &l)?),
            O::Frc => format!("frac({})", self.src(&s[0], &l)?),
            O::Sgn => format!("sign({})", self.src(&s[0], &l)?),
            O::Dsx => format!("ddx({})", self.src(&s[0], &l)?),
            O::Dsy => format!("ddy({})", self.src(&s[0], &l)?),
            O::Rcp => format!("1 / {}", paren(&self.scalar(&s[0])?)),
            O::Rsq => format!("rsqrt({})", self.scalar(&s[0])?),
            O::Exp => format!("exp2({})", self.scalar(&s[0])?),
            O::Log | O::LogP => format!("log2({})", self.scalar(&s[0])?),
            O::ExpP if self.version.major >= 2 => format!("exp2({})", self.scalar(&s[0])?),
            O::ExpP => {
                let x = self.scalar(&s[0])?;
                let parts = [
                    format!("exp2(floor({x}))"),
                    format!("frac({x})"),
                    format!("exp2({x})"),
                    "1".to_string(),
                ];
                construct(&l, &parts)
            }
            O::Pow => format!("pow({}, {})", self.scalar(&s[0])?, self.scalar(&s[1])?),
            O::Dp3 => format!(
                "dot({}, {})",
                self.src(&s[0], &[0, 1, 2])?,
                self.src(&s[1], &[0, 1, 2])?
            ),
            O::Dp4 => format!(
                "dot({}, {})",
                self.src(&s[0], &[0, 1, 2, 3])?,
                self.src(&s[1], &[0, 1, 2, 3])?
            ),
            O::Dp2Add => format!(
                "dot({}, {}) + {}",
                self.src(&s[0], &[0, 1])?,
                self.src(&s[1], &[0, 1])?,
                self.scalar(&s[2])?
            ),
            O::M4x4 | O::M4x3 | O::M3x4 | O::M3x3 | O::M3x2 => {
                let (k, rows): (u8, u8) = match inst.opcode {
                    O::M4x4 => (4, 4),
                    O::M4x3 => (4, 3),
                    O::M3x4 => (3, 4),
                    O::M3x3 => (3, 3),
                    _ => (3, 2),
                };
                let cs: Vec<u8> = (0..k).collect();
                let a = self.src(&s[0], &cs)?;
                if let Some(m) = self
                    .idioms
                    .then(|| self.matrix_product(&s[1], k, rows, &a))
                    .flatten()
                {
                    format!("{m}{}", swizzle(&l, rows))
                } else {
                    let mut parts = Vec::new();
                    for lane in 0..4u8 {
                        let mut row = s[1];
                        row.register.num = row.register.num.wrapping_add(lane as u16);
                        parts.push(format!("dot({a}, {})", self.src(&row, &cs)?));
                    }
                    construct(&l, &parts)
                }
            }
            O::Crs => {
                let a = self.src(&s[0], &[0, 1, 2])?;
                let b = self.src(&s[1], &[0, 1, 2])?;
                format!("cross({a}, {b}){}", swizzle(&l, 3))
            }
            O::Nrm => {
                let a = self.src(&s[0], &[0, 1, 2, 3])?;
                let a3 = self.src(&s[0], &[0, 1, 2])?;
                if l.iter().all(|c| *c < 3) {
                    format!("normalize({a3}){}", swizzle(&l, 3))
                } else {
                    format!("({a} * rsqrt(dot({a3}, {a3}))){}", swizzle(&l, 4))
                }
            }
            O::SinCos => {
                let x = self.scalar(&s[0])?;
                let parts = [
                    format!("cos({x})"),
                    format!("sin({x})"),
                    "0".into(),
                    "0".into(),
                ];
                construct(&l, &parts)
            }
            O::Lit => {
                let a = |c: u8| self.src_comps(&s[0], &[s[0].swizzle.get(c as usize)]);
                let (x, y, w) = (a(0)?, a(1)?, a(3)?);
                let parts = [
                    "1".to_string(),
                    format!("max({x}, 0)"),
                    format!(
                        "({x} > 0 ? ({y} > 0 ? pow({y}, clamp({w}, -127.9961, 127.9961)) : 0) : 0)"
                    ),
                    "1".to_string(),
                ];
                construct(&l, &parts)
            }
            O::Dst => {
                let a = |c: u8| self.src_comps(&s[0], &[s[0].swizzle.get(c as usize)]);
                let b = |c: u8| self.src_comps(&s[1], &[s[1].swizzle.get(c as usize)]);
                let parts = [
                    "1".to_string(),
                    format!("{} * {}", paren(&a(1)?), paren(&b(1)?)),
                    a(2)?,
                    b(3)?,
                ];
                construct(&l, &parts)
            }
            O::Tex if self.ps1() && self.version.minor < 4 => {
                // tex t(m): sample stage m at tc(m).
                let tc = self.texcoord(d.register.num as u32);
                self.sample(Register::new(RT::Sampler, d.register.num), &tc, "", &[])
            }
            O::Tex if self.ps1() => {
                let c = self.coord(&s[0])?;
                self.sample(Register::new(RT::Sampler, d.register.num), &c, "", &[])
            }
            O::Tex => {
                let c = self.coord(&s[0])?;
                let mode = match inst.texld_mode() {
                    Some(TexldMode::Project) => "proj",
                    Some(TexldMode::Bias) => "bias",
                    _ => "",
                };
                let v = self.sample(s[1].register, &c, mode, &[]);
                format!("{v}{}", swizzle(&sampler_lanes(&s[1], &l), 4))
            }
            O::TexLdl => {
                let c = self.coord(&s[0])?;
                let v = self.sample(s[1].register, &c, "lod", &[]);
                format!("{v}{}", swizzle(&sampler_lanes(&s[1], &l), 4))
            }
            O::TexLdd => {
                let c = self.coord(&s[0])?;
                let dx = self.coord(&s[2])?;
                let dy = self.coord(&s[3])?;
                let v = self.sample(s[1].register, &c, "grad", &[dx, dy]);
                format!("{v}{}", swizzle(&sampler_lanes(&s[1], &l), 4))
            }
            O::TexCoord if self.version.minor >= 4 => self.src(&s[0], &l)?,
            O::TexCoord => {
                let tc = self.texcoord(d.register.num as u32);
                construct(
                    &l,
                    &[
                        format!("saturate({tc}.x)"),
                        format!("saturate({tc}.y)"),
                        format!("saturate({tc}.z)"),
                        "1".into(),
                    ],
                )
            }
            O::TexReg2Ar | O::TexReg2Gb | O::TexReg2Rgb => {
                let t = self.src(&s[0], &[0, 1, 2, 3])?;
                let t = paren(&t);
                let c = match inst.opcode {
                    O::TexReg2Ar => format!("float4({t}.w, {t}.x, 0, 0)"),
                    O::TexReg2Gb => format!("float4({t}.y, {t}.z, 0, 0)"),
                    _ => format!("float4({t}.xyz, 0)"),
                };
                self.sample(Register::new(RT::Sampler, d.register.num), &c, "", &[])
            }
            O::TexM3x2Pad | O::TexM3x3Pad => {
                let tc = self.texcoord(d.register.num as u32);
                let t = self.src(&s[0], &[0, 1, 2])?;
                self.pads.push(format!("dot({tc}.xyz, {t})"));
                return Ok(());
            }
            O::TexM3x2Tex
            | O::TexM3x3Tex
            | O::TexM3x3
            | O::TexM3x3Spec
            | O::TexM3x3VSpec
            | O::TexDp3Tex
            | O::TexDp3 => {
                let tc = self.texcoord(d.register.num as u32);
                let t = self.src(&s[0], &[0, 1, 2])?;
                let last = format!("dot({tc}.xyz, {t})");
                let mut pads = std::mem::take(&mut self.pads);
                pads.push(last);
                let stage = Register::new(RT::Sampler, d.register.num);
                match inst.opcode {
                    O::TexM3x2Tex => {
                        let c = format!("float4({}, 0, 0)", pads.join(", "));
                        self.sample(stage, &c, "", &[])
                    }
                    O::TexM3x3Tex => {
                        let c = format!("float4({}, 0)", pads.join(", "));
                        self.sample(stage, &c, "", &[])
                    }
                    O::TexM3x3 => format!("float4({}, 1)", pads.join(", ")),
                    O::TexDp3 => last_of(&pads),
                    O::TexDp3Tex => {
                        let c = format!("float4({}, 0, 0, 0)", last_of(&pads));
                        self.sample(stage, &c, "", &[])
                    }
                    _ => {
                        let nn = format!("float3({})", pads.join(", "));
                        let e = if inst.opcode == O::TexM3x3Spec {
                            self.src(&s[1], &[0, 1, 2])?
                        } else {
                            let m = d.register.num as u32;
                            format!(
                                "float3({}.w, {}.w, {}.w)",
                                self.texcoord(m.saturating_sub(2)),
                                self.texcoord(m.saturating_sub(1)),
                                self.texcoord(m)
                            )
                        };
                        let c = format!(
                            "float4((2 * dot({nn}, {e})) / dot({nn}, {nn}) * {nn} - {e}, 0)"
                        );
                        self.sample(stage, &c, "", &[])
                    }
                }
            }
            O::TexBem | O::TexBemL => {
                // The stage's bump-environment matrix is texture stage state; the HLSL reads it
                // from the uniforms `BumpEnvMat#` (M00 M01 M10 M11) and `BumpEnvLum#` (scale,
                // offset) the application sets.
                let m = d.register.num;
                let tc = self.texcoord(m as u32);
                let t = paren(&self.src(&s[0], &[0, 1, 2, 3])?);
                let c = format!(
                    "float4({tc}.xy + {t}.x * BumpEnvMat{m}.xy + {t}.y * BumpEnvMat{m}.zw, 0, 0)"
                );
                let v = self.sample(Register::new(RT::Sampler, m), &c, "", &[]);
                if inst.opcode == O::TexBemL {
                    format!("{v} * ({t}.z * BumpEnvLum{m}.x + BumpEnvLum{m}.y)")
                } else {
                    v
                }
            }
            O::Bem => {
                let m = d.register.num;
                let a = self.src(&s[0], &[0, 1])?;
                let b = paren(&self.src(&s[1], &[0, 1, 2, 3])?);
                let v = format!("{a} + {b}.x * BumpEnvMat{m}.xy + {b}.y * BumpEnvMat{m}.zw");
                if l.iter().all(|c| *c < 2) {
                    format!("({v}){}", swizzle(&l, 2))
                } else {
                    // Only .xy have a result; the other lanes get 0.
                    let parts = [
                        format!("({v}).x"),
                        format!("({v}).y"),
                        "0".into(),
                        "0".into(),
                    ];
                    construct(&l, &parts)
                }
            }
            O::TexDepth | O::TexM3x2Depth => {
                let depth = match self.sig.output_regs.get(&(RT::DepthOut, 0)) {
                    Some(&f) => format!("o.{}", self.sig.outputs[f].name),
                    None => return Ok(()),
                };
                let value = if inst.opcode == O::TexDepth {
                    let r = format!("r{}", d.register.num);
                    format!("saturate({r}.x / min({r}.y, 1.0))")
                } else {
                    let tc = self.texcoord(d.register.num as u32);
                    let t = self.src(&s[0], &[0, 1, 2])?;
                    let u = std::mem::take(&mut self.pads)
                        .pop()
                        .unwrap_or_else(|| "0".into());
                    let w = format!("dot({tc}.xyz, {t})");
                    format!("({w} == 0 ? 1.0 : saturate({u} / {w}))")
                };
                self.line(format!("{depth} = {value};"));
                return Ok(());
            }
            O::SetP => {
                let op = comparison(inst.comparison().unwrap_or(Comparison::Eq));
                let value = format!("{} {op} {}", self.src(&s[0], &l)?, self.src(&s[1], &l)?);
                let (base, _) = self.dst_base(&d)?;
                self.line(format!("{base}{} = {value};", swizzle(&l, 4)));
                return Ok(());
            }
            O::TexKill => return self.no_dst(inst),
            other => {
                return Err(Error::Unsupported {
                    what: other.info().mnemonic.to_string(),
                })
            }
        };
        let _ = n;
        self.assign(inst, &d, value)
    }

    /// `mul(a, M)` (or `mul(M, a)`) when the `rows` registers from `m` are the columns (rows)
    /// of one constant-table matrix whose inner dimension is `k`; the product's first `rows`
    /// components are the instruction's results.
    fn matrix_product(&self, m: &SrcParam, k: u8, rows: u8, a: &str) -> Option<String> {
        if m.relative.is_some()
            || m.modifier != SrcModifier::None
            || !m.swizzle.is_identity()
            || !m.register.ty.is_float_const()
            || self.ps1()
        {
            return None;
        }
        let base = m.register.index();
        let mut name: Option<(String, bool)> = None;
        for j in 0..rows as u32 {
            let view = self.uniforms.floats.get(&(base + j))?;
            if self.info.float_defs.contains_key(&(base + j)) || view.width != k {
                return None;
            }
            let (n, columns) = if let Some(rest) = view.expr.strip_prefix("transpose(") {
                let n = rest.strip_suffix(&format!(")[{j}]"))?;
                (n.to_string(), true)
            } else {
                (
                    view.expr.strip_suffix(&format!("[{j}]"))?.to_string(),
                    false,
                )
            };
            match &name {
                None => name = Some((n, columns)),
                Some(prev) if *prev == (n.clone(), columns) => {}
                _ => return None,
            }
        }
        let (n, columns) = name?;
        // The product has as many components as the matrix has columns (rows); the
        // instruction's are the first `rows` of them.
        let first = self.uniforms.floats.get(&base)?;
        let _ = first;
        let total = self
            .uniforms
            .floats
            .range(base..)
            .take_while(|(_, v)| {
                v.expr.starts_with(&format!("transpose({n})["))
                    || v.expr.starts_with(&format!("{n}["))
            })
            .count() as u8;
        let product = if columns {
            format!("mul({a}, {n})")
        } else {
            format!("mul({n}, {a})")
        };
        Some(if total > rows {
            format!("{product}{}", swizzle(&(0..rows).collect::<Vec<u8>>(), 4))
        } else {
            product
        })
    }

    /// The matrix and row (column) index a constant register is, when the table says:
    /// (`name`, index, `true` for a column of a column-major matrix).
    fn matrix_register(&self, src: &SrcParam) -> Option<(String, u32, bool)> {
        if src.relative.is_some() || src.modifier != SrcModifier::None || self.ps1() {
            return None;
        }
        let n = src.register.index();
        if !src.register.ty.is_float_const() || self.info.float_defs.contains_key(&n) {
            return None;
        }
        let view = self.uniforms.floats.get(&n)?;
        let (name, rest, columns) = match view.expr.strip_prefix("transpose(") {
            Some(r) => {
                let (name, rest) = r.split_once(")[")?;
                (name, rest, true)
            }
            None => {
                let (name, rest) = view.expr.rsplit_once('[')?;
                (name, rest, false)
            }
        };
        let j: u32 = rest.strip_suffix(']')?.parse().ok()?;
        if name.contains('[') && !columns {
            return None;
        }
        Some((name.to_string(), j, columns))
    }

    /// A run of `mul`/`mad` (and a last `add`) from `insts[0]` that sums the columns (rows) of
    /// one table matrix scaled by one vector's components, as fxc writes `mul(M, v)` for a
    /// column-major `M` (`mul(v, M)` for a row-major one): the length of the run, the last
    /// instruction's destination, and the product. `dead_after` says whether the run's
    /// register is dead after the run (when the last instruction writes elsewhere).
    pub(crate) fn product_chain(
        &self,
        insts: &[&Instruction],
        dead_after: &dyn Fn(usize, Register, u8) -> bool,
    ) -> Option<(usize, DstParam, String)> {
        use Opcode as O;
        let first = insts.first()?;
        if first.opcode != O::Mul {
            return None;
        }
        let d = first.dst?;
        let mask = d.mask.0;
        let l = lanes(mask);
        let plain_dst = |x: &DstParam| {
            x.modifiers.0 & 1 == 0 && x.shift.0 == 0 && x.relative.is_none() && x.mask.0 == mask
        };
        if !plain_dst(&d) || d.register.ty != RT::Temp {
            return None;
        }
        let lanes_identity = |s: &SrcParam| l.iter().all(|c| s.swizzle.get(*c as usize) == *c);
        // One term: (matrix, index, columns, vector register, component).
        let term = |a: &SrcParam, b: &SrcParam| {
            for (c, v) in [(a, b), (b, a)] {
                if let Some((m, j, cols)) = self.matrix_register(c) {
                    let k = v.swizzle.replicated()?;
                    if lanes_identity(c)
                        && v.modifier == SrcModifier::None
                        && v.relative.is_none()
                        && k as u32 == j
                    {
                        return Some((m, j, cols, v.register));
                    }
                }
            }
            None
        };
        let acc_ok = |s: &SrcParam| {
            s.register == d.register
                && s.modifier == SrcModifier::None
                && s.relative.is_none()
                && lanes_identity(s)
        };
        let (m, j0, cols, vreg) = term(first.srcs.first()?, first.srcs.get(1)?)?;
        if vreg == d.register || first.predicate.is_some() {
            return None;
        }
        let mut seen = vec![j0];
        let mut len = 1;
        let mut last_dst = d;
        let mut affine = None;
        for inst in &insts[1..] {
            if inst.predicate.is_some() || len >= 4 {
                break;
            }
            let Some(x) = inst.dst else { break };
            if !plain_dst(&x) {
                break;
            }
            let next = match inst.opcode {
                O::Mad if acc_ok(&inst.srcs[2]) => {
                    term(&inst.srcs[0], &inst.srcs[1]).map(|t| (t.0, t.1, t.2, Some(t.3)))
                }
                O::Add => {
                    let (a, b) = (&inst.srcs[0], &inst.srcs[1]);
                    let c = if acc_ok(a) {
                        b
                    } else if acc_ok(b) {
                        a
                    } else {
                        break;
                    };
                    self.matrix_register(c)
                        .filter(|_| lanes_identity(c))
                        .map(|t| (t.0, t.1, t.2, None))
                }
                _ => None,
            };
            let Some((m2, j, c2, v2)) = next else { break };
            if m2 != m || c2 != cols || seen.contains(&j) || v2.is_some_and(|v| v != vreg) {
                break;
            }
            seen.push(j);
            len += 1;
            last_dst = x;
            if v2.is_none() {
                affine = Some(j);
                break;
            }
            if x.register != d.register {
                break;
            }
        }
        let n = seen.len() as u32;
        if n < 2 || !(0..n).all(|k| seen.contains(&k)) {
            return None;
        }
        // The affine term must be the last component; every register of the matrix is used.
        if affine.is_some_and(|j| j != n - 1) {
            return None;
        }
        let total = self
            .uniforms
            .floats
            .values()
            .filter(|v| {
                if cols {
                    v.expr.starts_with(&format!("transpose({m})["))
                } else {
                    v.expr.starts_with(&format!("{m}[")) && !v.expr[m.len() + 1..].contains('[')
                }
            })
            .count() as u32;
        if total != n {
            return None;
        }
        if last_dst.register != d.register && !dead_after(len, d.register, mask) {
            return None;
        }
        let src = SrcParam::new(vreg, dxso::Swizzle::IDENTITY);
        let v = if affine.is_some() {
            let comps: Vec<u8> = (0..n as u8 - 1).collect();
            let e = self.src_comps(&src, &comps).ok()?;
            if n == 2 {
                format!("float2({e}, 1)")
            } else {
                format!("float{n}({e}, 1)")
            }
        } else {
            let comps: Vec<u8> = (0..n as u8).collect();
            self.src_comps(&src, &comps).ok()?
        };
        let width = self
            .uniforms
            .floats
            .values()
            .find(|x| {
                x.expr.starts_with(&format!("transpose({m})["))
                    || x.expr.starts_with(&format!("{m}["))
            })?
            .width;
        if l.iter().any(|c| *c >= width) {
            return None;
        }
        let product = if cols {
            format!("mul({m}, {v})")
        } else {
            format!("mul({v}, {m})")
        };
        Some((len, last_dst, format!("{product}{}", swizzle(&l, width))))
    }

    /// Writes a value computed elsewhere (an idiom over several instructions) to `d`.
    pub(crate) fn assign_value(&mut self, d: &DstParam, value: String) -> Result<(), Error> {
        let inst = Instruction::new(Opcode::Mov);
        self.assign(&inst, d, value)
    }

    /// The interpolated texture coordinate set `n` (ps_1_x).
    fn texcoord(&self, n: u32) -> String {
        match self
            .sig
            .input_regs
            .get(&(RT::Output, n))
            .or_else(|| self.sig.input_regs.get(&(RT::Addr, n)))
        {
            Some(&f) => format!("i.{}", self.sig.inputs[f].name),
            None => "float4(0, 0, 0, 0)".into(),
        }
    }

    fn no_dst(&mut self, inst: &Instruction) -> Result<(), Error> {
        match inst.opcode {
            Opcode::Nop | Opcode::Phase => Ok(()),
            Opcode::TexKill => {
                let Some(d) = inst.dst else { return Ok(()) };
                let r = d.register;
                let value = if self.ps1() && r.ty == RT::Addr {
                    format!("{}.xyz", self.texcoord(r.num as u32))
                } else if matches!(r.ty, RT::Input | RT::MiscType) {
                    let src = SrcParam::new(r, dxso::Swizzle::IDENTITY);
                    let l = if self.ps1() {
                        vec![0, 1, 2]
                    } else {
                        lanes(d.mask.0)
                    };
                    self.src(&src, &l)?
                } else {
                    let (b, w) = if r.ty == RT::Addr {
                        let key = register_key(r);
                        match self.sig.input_regs.get(&key) {
                            Some(&f) => (format!("i.{}", self.sig.inputs[f].name), 4),
                            // An undeclared coordinate reads 0.
                            None => ("float4(0.0, 0.0, 0.0, 0.0)".to_string(), 4),
                        }
                    } else {
                        self.dst_base(&d)?
                    };
                    if self.ps1() {
                        format!("{b}.xyz")
                    } else {
                        format!("{b}{}", swizzle(&lanes(d.mask.0), w))
                    }
                };
                self.line(format!("clip({value});"));
                Ok(())
            }
            other => Err(Error::Unsupported {
                what: other.info().mnemonic.to_string(),
            }),
        }
    }

    /// A condition of `if`, `breakc`, `callnz`, ... as an HLSL boolean expression.
    pub(crate) fn condition(&self, inst: &Instruction) -> Result<String, Error> {
        if let Some(cmp) = inst.comparison() {
            let a = self.scalar(&inst.srcs[0])?;
            let b = self.scalar(&inst.srcs[1])?;
            return Ok(format!("{a} {} {b}", comparison(cmp)));
        }
        let src = inst.srcs.last().ok_or_else(|| Error::Unsupported {
            what: "a condition without a source".into(),
        })?;
        match src.register.ty {
            RT::ConstBool => {
                let n = src.register.index();
                if let Some(v) = self.info.bool_defs.get(&n) {
                    return Ok(if *v { "true" } else { "false" }.into());
                }
                Ok(self
                    .uniforms
                    .bools
                    .get(&n)
                    .cloned()
                    .unwrap_or_else(|| format!("b{n}")))
            }
            RT::Predicate => {
                let c = COMPONENTS[src.swizzle.get(0) as usize & 3];
                Ok(if src.modifier == SrcModifier::Not {
                    format!("!p0.{c}")
                } else {
                    format!("p0.{c}")
                })
            }
            _ => Err(Error::Unsupported {
                what: "a condition on this register".into(),
            }),
        }
    }
}

/// Marks a value that is one scalar replicated over the destination's lanes; removed before
/// the text is returned.
pub(crate) const SCALAR: char = '\u{1}';

fn scalar_result(op: Opcode) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::Rcp
            | O::Rsq
            | O::Exp
            | O::Log
            | O::LogP
            | O::Pow
            | O::Dp3
            | O::Dp4
            | O::Dp2Add
            | O::TexDp3
    )
}

fn last_of(v: &[String]) -> String {
    v.last().cloned().unwrap_or_default()
}

fn comparison(c: Comparison) -> &'static str {
    match c {
        Comparison::Gt => ">",
        Comparison::Eq => "==",
        Comparison::Ge => ">=",
        Comparison::Lt => "<",
        Comparison::Ne => "!=",
        Comparison::Le => "<=",
    }
}

/// A sampler source's swizzle applied to the destination lanes.
fn sampler_lanes(s: &SrcParam, l: &[u8]) -> Vec<u8> {
    l.iter().map(|c| s.swizzle.get(*c as usize)).collect()
}

/// The vector of `parts[lane]` for each lane.
fn construct(l: &[u8], parts: &[String]) -> String {
    if l.len() == 1 {
        return parts[l[0] as usize].clone();
    }
    let sel: Vec<String> = l.iter().map(|c| parts[*c as usize].clone()).collect();
    format!("float{}({})", l.len(), sel.join(", "))
}

/// The written lanes of a mask, in order.
pub(crate) fn lanes(mask: u8) -> Vec<u8> {
    (0..4).filter(|i| mask & (1 << i) != 0).collect()
}

fn apply_modifier(m: SrcModifier, x: f32) -> f32 {
    match m {
        SrcModifier::Neg => -x,
        SrcModifier::Bias => x - 0.5,
        SrcModifier::BiasNeg => -(x - 0.5),
        SrcModifier::Sign => 2.0 * x - 1.0,
        SrcModifier::SignNeg => -(2.0 * x - 1.0),
        SrcModifier::Comp => 1.0 - x,
        SrcModifier::X2 => 2.0 * x,
        SrcModifier::X2Neg => -(2.0 * x),
        SrcModifier::Abs => x.abs(),
        SrcModifier::AbsNeg => -x.abs(),
        _ => x,
    }
}

/// Wraps an expression in parentheses unless it is atomic.
pub(crate) fn paren(e: &str) -> String {
    if is_atomic(e) {
        e.to_string()
    } else {
        format!("({e})")
    }
}

fn is_atomic(e: &str) -> bool {
    if e.starts_with('(') && matching_close(e) == Some(e.len() - 1) {
        return true;
    }
    let mut depth = 0i32;
    for (k, ch) in e.char_indices() {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ' ' | '?' | '+' | '*' | '/' | '<' | '>' | '=' if depth == 0 => return false,
            '-' if depth == 0 && k > 0 => return false,
            _ => {}
        }
    }
    !e.starts_with('-')
}

fn matching_close(e: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (k, ch) in e.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

fn strip_parens(e: &str) -> &str {
    if e.starts_with('(') && matching_close(e) == Some(e.len() - 1) {
        &e[1..e.len() - 1]
    } else {
        e
    }
}

/// A register's value before swizzle.
struct Base {
    text: String,
    width: u8,
    lit: Option<[f32; 4]>,
    /// Every component reads the one value (`vFace`).
    replicated: bool,
}

impl Base {
    fn expr(text: String, width: u8) -> Self {
        Base {
            text,
            width,
            lit: None,
            replicated: false,
        }
    }
    fn lit(v: [f32; 4]) -> Self {
        Base {
            text: String::new(),
            width: 4,
            lit: Some(v),
            replicated: false,
        }
    }
}
