//! The table of golden cases: each is a shader written in assembly, its inputs and the outputs
//! computed by hand from `docs/SEMANTICS.md`.

use dxso_exec::*;
use std::sync::Arc;

/// What a case expects.
#[derive(Clone)]
pub enum Expect {
    /// An output register, per pixel (one entry for vertex shaders or uniform quads).
    Output(OutputRegister, Vec<[f32; 4]>),
    /// The discard mask of the quad.
    Discarded([bool; 4]),
    /// The run fails with a budget error.
    Budget,
    /// The output register is not written.
    NotWritten(OutputRegister),
    /// The run fails with an error whose message contains this.
    Fails(&'static str),
}

/// One golden case.
#[derive(Clone)]
pub struct Case {
    pub name: String,
    pub src: String,
    pub pixel: bool,
    pub inputs: Vec<(InputRegister, Vec<[f32; 4]>)>,
    pub resources: Resources,
    pub options: Options,
    pub expect: Vec<Expect>,
    pub coverage: Vec<bool>,
}

fn reg(name: &str) -> InputRegister {
    InputRegister::parse(name).unwrap_or_else(|| panic!("bad input register {name}"))
}

fn out_reg(name: &str) -> OutputRegister {
    use OutputRegister as O;
    let num = |p: &str| name[p.len()..].parse::<u8>().expect("register number");
    match name {
        "oPos" => O::Pos,
        "oFog" => O::Fog,
        "oPts" => O::PointSize,
        "oDepth" => O::Depth,
        n if n.starts_with("oD") => O::Color(num("oD")),
        n if n.starts_with("oT") => O::TexCoord(num("oT")),
        n if n.starts_with("oC") => O::Target(num("oC")),
        n if n.starts_with('o') => O::O(num("o")),
        _ => panic!("bad output register {name}"),
    }
}

impl Case {
    fn new(name: &str, src: &str, pixel: bool) -> Self {
        Case {
            name: name.to_string(),
            src: src.to_string(),
            pixel,
            inputs: Vec::new(),
            resources: Resources::default(),
            options: Options::default(),
            expect: Vec::new(),
            coverage: Vec::new(),
        }
    }

    /// Per-pixel coverage of the quad.
    pub fn coverage(mut self, c: [bool; 4]) -> Self {
        self.coverage = c.to_vec();
        self
    }

    /// A vertex shader case (one invocation).
    pub fn vs(name: &str, src: &str) -> Self {
        Case::new(name, src, false)
    }

    /// A pixel shader case (one quad).
    pub fn ps(name: &str, src: &str) -> Self {
        Case::new(name, src, true)
    }

    /// The same input in every invocation.
    pub fn input(mut self, r: &str, v: [f32; 4]) -> Self {
        self.inputs.push((reg(r), vec![v]));
        self
    }

    /// One input value per pixel of the quad.
    pub fn pixels(mut self, r: &str, v: [[f32; 4]; 4]) -> Self {
        self.inputs.push((reg(r), v.to_vec()));
        self
    }

    pub fn float(mut self, i: usize, v: [f32; 4]) -> Self {
        let f = &mut self.resources.constants.float;
        if f.len() <= i {
            f.resize(i + 1, [0.0; 4]);
        }
        f[i] = v;
        self
    }

    pub fn int(mut self, i: usize, v: [i32; 4]) -> Self {
        let f = &mut self.resources.constants.int;
        if f.len() <= i {
            f.resize(i + 1, [0; 4]);
        }
        f[i] = v;
        self
    }

    pub fn boolean(mut self, i: usize, v: bool) -> Self {
        let f = &mut self.resources.constants.bool;
        if f.len() <= i {
            f.resize(i + 1, false);
        }
        f[i] = v;
        self
    }

    pub fn sampler(mut self, i: usize, s: Sampler) -> Self {
        let f = &mut self.resources.samplers;
        if f.len() <= i {
            f.resize(i + 1, Sampler::default());
        }
        f[i] = s;
        self
    }

    pub fn texture(self, i: usize, t: Texture) -> Self {
        self.sampler(i, Sampler::new(Arc::new(t)))
    }

    pub fn options(mut self, o: Options) -> Self {
        self.options = o;
        self
    }

    pub fn expect(mut self, r: &str, v: [f32; 4]) -> Self {
        self.expect.push(Expect::Output(out_reg(r), vec![v]));
        self
    }

    pub fn expect_pixels(mut self, r: &str, v: [[f32; 4]; 4]) -> Self {
        self.expect.push(Expect::Output(out_reg(r), v.to_vec()));
        self
    }

    pub fn discarded(mut self, d: [bool; 4]) -> Self {
        self.expect.push(Expect::Discarded(d));
        self
    }

    pub fn budget_error(mut self) -> Self {
        self.expect.push(Expect::Budget);
        self
    }

    pub fn fails(mut self, message: &'static str) -> Self {
        self.expect.push(Expect::Fails(message));
        self
    }

    pub fn not_written(mut self, r: &str) -> Self {
        self.expect.push(Expect::NotWritten(out_reg(r)));
        self
    }

    /// Runs the case; `Err` describes the first mismatch.
    pub fn check(&self) -> Result<(), String> {
        let shader = dxso_text::parse::parse(&self.src).map_err(|e| format!("assembly: {e}"))?;
        let result = if self.pixel {
            let ps =
                PixelShader::with_options(&shader, &self.options).map_err(|e| e.to_string())?;
            let mut batch = QuadBatch::new(1);
            batch.coverage = self.coverage.clone();
            for (r, v) in &self.inputs {
                let values = if v.len() == 1 {
                    vec![v[0]; 4]
                } else {
                    v.clone()
                };
                batch.set(*r, values);
            }
            ps.run(&batch, &self.resources)
        } else {
            let vs =
                VertexShader::with_options(&shader, &self.options).map_err(|e| e.to_string())?;
            let mut batch = VertexBatch::new(1);
            for (r, v) in &self.inputs {
                batch.set(*r, v.clone());
            }
            vs.run(&batch, &self.resources)
        };
        let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
        for e in &self.expect {
            match (e, &result) {
                (Expect::Budget, Err(ExecError::Budget { .. })) => {}
                (Expect::Budget, other) => {
                    return Err(format!("expected a budget error, got {other:?}"))
                }
                (Expect::Fails(m), Err(err)) if err.to_string().contains(m) => {}
                (Expect::Fails(m), other) => {
                    return Err(format!("expected an error `{m}`, got {other:?}"))
                }
                (_, Err(err)) => return Err(format!("run failed: {err}")),
                (Expect::Output(r, want), Ok(out)) => {
                    let got = out.get(*r).ok_or_else(|| format!("{r} not written"))?;
                    for (p, g) in got.iter().enumerate() {
                        let w = if want.len() == 1 { want[0] } else { want[p] };
                        if !(0..4).all(|c| same(g[c], w[c])) {
                            return Err(format!("{r} (invocation {p}): got {g:?}, expected {w:?}"));
                        }
                    }
                }
                (Expect::Discarded(want), Ok(out)) => {
                    if out.discarded != want {
                        return Err(format!("discarded {:?}, expected {want:?}", out.discarded));
                    }
                }
                (Expect::NotWritten(r), Ok(out)) => {
                    if out.get(*r).is_some() {
                        return Err(format!("{r} is written"));
                    }
                }
            }
        }
        Ok(())
    }
}

/// A 2x2 RGBA8 texture: red, green / blue, white.
pub fn checker() -> Texture {
    let data = vec![
        255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255,
    ];
    Texture::new_2d(Format::Rgba8Unorm, 2, 2, data).unwrap()
}

/// A 4x4 R32F texture whose texel (x, y) is `x + 10 y`, with its mip chain.
pub fn ramp() -> Texture {
    let mut data = Vec::new();
    for y in 0..4 {
        for x in 0..4 {
            data.extend(((x + 10 * y) as f32).to_le_bytes());
        }
    }
    Texture::new_2d(Format::R32Float, 4, 4, data)
        .unwrap()
        .with_mip_chain()
}
