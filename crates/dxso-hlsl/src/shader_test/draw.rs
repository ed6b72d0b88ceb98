//! The part of a Direct3D 9 draw a `.shader_test` probe sees: the vertex shader over the
//! three vertices of vkd3d's full-screen triangle, perspective-correct interpolation of its
//! outputs to each probed pixel's centre, the pixel shader on dxso-exec in 2x2 quads (so that
//! derivatives see their neighbours), and a render target that remembers clears and draws
//! rather than pixels, evaluated only where a probe reads.

use crate::equivalence::{shader_inputs, shader_outputs};
use dxso::{DeclUsage, Shader};
use dxso_exec::{
    AddressMode, Dimension, Filter, Format, InputRegister, MipLevel, OutputRegister, PixelShader,
    QuadBatch, Resources, Sampler, Texture, VertexBatch, VertexShader,
};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// The default render target's width (vkd3d's `RENDER_TARGET_WIDTH`).
pub const WIDTH: u32 = 640;
/// The default render target's height.
pub const HEIGHT: u32 = 480;

/// `draw quad`'s triangle, which covers the whole target.
const QUAD: [[f32; 2]; 3] = [[-2.0, -2.0], [-2.0, 4.0], [4.0, -2.0]];

/// Why a draw cannot be set up.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DrawError {
    /// A shader dxso-exec cannot run.
    #[error("exec: {0}")]
    Exec(String),
    /// A resource this runner does not model.
    #[error("runner: {0} not modelled")]
    Unmodelled(String),
    /// The vertex shader writes no position.
    #[error("the vertex shader writes no POSITION")]
    NoPosition,
}

impl DrawError {
    /// The cause's group.
    pub fn cause(&self) -> String {
        match self {
            DrawError::Exec(_) => "exec: shader does not run".into(),
            DrawError::Unmodelled(what) => format!("runner: {what} not modelled"),
            DrawError::NoPosition => "compile: the vertex shader writes no POSITION".into(),
        }
    }
}

/// A `[srv N]` or `[texture N]` section.
#[derive(Clone, Debug, PartialEq)]
pub struct TextureDesc {
    /// The slot (the sampler it binds to in Direct3D 9).
    pub slot: usize,
    dimension: Dimension,
    size: [u32; 3],
    levels: u32,
    format: Format,
    data: Vec<u32>,
    /// What this runner cannot model about it.
    unmodelled: Option<String>,
}

impl TextureDesc {
    /// A texture at `slot`, 1x1 RGBA32F until its directives say otherwise.
    pub fn new(slot: usize) -> Self {
        TextureDesc {
            slot,
            dimension: Dimension::D2,
            size: [1, 1, 1],
            levels: 1,
            format: Format::Rgba32Float,
            data: Vec::new(),
            unmodelled: None,
        }
    }

    /// Reads one line of the section.
    pub fn directive(&mut self, line: &str) -> Result<(), String> {
        let l = line.trim();
        if let Some(r) = l.strip_prefix("size") {
            let inner = r.trim().trim_start_matches('(').trim_end_matches(')');
            let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
            let num = |s: &str| s.parse::<u32>().map_err(|_| format!("bad size '{l}'"));
            match parts[..] {
                ["2d", w, h] => {
                    self.size = [num(w)?, num(h)?, 1];
                }
                ["3d", w, h, d] => {
                    self.dimension = Dimension::Volume;
                    self.size = [num(w)?, num(h)?, num(d)?];
                }
                ["cube", w] => {
                    self.dimension = Dimension::Cube;
                    self.size = [num(w)?, num(w)?, 6];
                }
                _ => self.unmodelled = Some(format!("texture size '{inner}'")),
            }
        } else if let Some(r) = l.strip_prefix("levels") {
            self.levels = r.trim().parse().map_err(|_| format!("bad levels '{l}'"))?;
        } else if let Some(r) = l.strip_prefix("format") {
            match r.trim() {
                "r32g32b32a32-float" => self.format = Format::Rgba32Float,
                "r32g32-float" => self.format = Format::Rg32Float,
                "r32-float" => self.format = Format::R32Float,
                f => self.unmodelled = Some(format!("texture format {f}")),
            }
        } else {
            for w in l.split_whitespace() {
                // vkd3d reads a number with a point as a float and one without as the bits.
                let bits = if w.contains('.') {
                    super::parse_f32(w).map(f32::to_bits)
                } else {
                    super::parse_int(w).map(|v| v as u32)
                };
                match bits {
                    Some(b) => self.data.push(b),
                    // `stride`, `format` spellings of buffers and the like.
                    None => {
                        self.unmodelled = Some(format!("resource directive '{l}'"));
                        return Ok(());
                    }
                }
            }
        }
        Ok(())
    }

    fn build(&self) -> Result<Texture, DrawError> {
        if let Some(u) = &self.unmodelled {
            return Err(DrawError::Unmodelled(u.clone()));
        }
        let lanes = self.format.texel_size() / 4;
        let mut levels = Vec::new();
        let mut at = 0usize;
        let [w0, h0, d0] = self.size;
        for l in 0..self.levels.max(1) {
            let w = (w0 >> l).max(1);
            let h = (h0 >> l).max(1);
            let d = if self.dimension == Dimension::Volume {
                (d0 >> l).max(1)
            } else {
                d0
            };
            let n = (w * h * d) as usize * lanes;
            let mut data = Vec::with_capacity(n * 4);
            for i in 0..n {
                let v = self.data.get(at + i).copied().unwrap_or(0);
                data.extend_from_slice(&v.to_le_bytes());
            }
            at += n;
            levels.push(MipLevel {
                width: w,
                height: h,
                depth: d,
                data,
            });
        }
        Texture::new(self.dimension, self.format, levels)
            .map_err(|e| DrawError::Unmodelled(format!("texture ({e})")))
    }
}

/// A `[sampler N]` section.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SamplerDesc {
    filter: Option<[Filter; 3]>,
    address: Option<[AddressMode; 3]>,
    comparison: bool,
}

impl SamplerDesc {
    /// Reads one line of the section.
    pub fn directive(&mut self, line: &str) {
        let mut w = line.split_whitespace();
        match w.next() {
            Some("filter") => {
                let f: Vec<Filter> = w
                    .map(|x| {
                        if x == "linear" {
                            Filter::Linear
                        } else {
                            Filter::Point
                        }
                    })
                    .collect();
                if f.len() == 3 {
                    self.filter = Some([f[0], f[1], f[2]]);
                }
            }
            Some("address") => {
                let a: Vec<AddressMode> = w
                    .map(|x| match x {
                        "border" => AddressMode::Border,
                        "clamp" => AddressMode::Clamp,
                        "mirror_once" => AddressMode::MirrorOnce,
                        "mirror" => AddressMode::Mirror,
                        _ => AddressMode::Wrap,
                    })
                    .collect();
                if a.len() == 3 {
                    self.address = Some([a[0], a[1], a[2]]);
                }
            }
            Some("comparison") => self.comparison = true,
            _ => {}
        }
    }
}

/// A draw ready to shade pixels: the vertices' outputs and the pixel shader's bindings.
pub struct Draw {
    ps: PixelShader,
    ps_inputs: Vec<((DeclUsage, u8), InputRegister)>,
    /// Clip-space positions of the three vertices.
    clip: [[f32; 4]; 3],
    /// The vertex outputs by semantic, one value per vertex.
    varyings: HashMap<(DeclUsage, u8), [[f32; 4]; 3]>,
    resources: Resources,
}

impl Draw {
    /// Runs `vs` over the triangle and prepares `ps`.
    pub fn new(
        vs: Shader,
        ps: Shader,
        constants: Vec<[f32; 4]>,
        textures: &BTreeMap<usize, TextureDesc>,
        samplers: &BTreeMap<usize, SamplerDesc>,
    ) -> Result<Draw, DrawError> {
        let mut resources = Resources::default();
        resources.constants.float = constants;
        resources
            .constants
            .float
            .resize(256.max(resources.constants.float.len()), [0.0; 4]);
        resources.constants.int = vec![[0; 4]; 16];
        resources.constants.bool = vec![false; 16];
        resources.samplers = vec![Sampler::default(); 16];
        for (slot, t) in textures {
            let Some(s) = resources.samplers.get_mut(*slot) else {
                return Err(DrawError::Unmodelled("texture slots above 15".into()));
            };
            s.texture = Some(Arc::new(t.build()?));
        }
        for (slot, d) in samplers {
            let Some(s) = resources.samplers.get_mut(*slot) else {
                return Err(DrawError::Unmodelled("sampler slots above 15".into()));
            };
            if d.comparison {
                return Err(DrawError::Unmodelled("comparison samplers".into()));
            }
            if let Some([min, mag, mip]) = d.filter {
                s.state.min_filter = min;
                s.state.mag_filter = mag;
                s.state.mip_filter = mip;
            }
            if let Some([u, v, w]) = d.address {
                s.state.address_u = u;
                s.state.address_v = v;
                s.state.address_w = w;
            }
        }
        let vsx = VertexShader::new(&vs).map_err(|e| DrawError::Exec(e.to_string()))?;
        let mut batch = VertexBatch::new(3);
        for (sem, reg) in shader_inputs(&vs) {
            if sem == (DeclUsage::Position, 0) {
                batch.set(reg, QUAD.iter().map(|p| [p[0], p[1], 0.0, 1.0]).collect());
            }
        }
        let out = vsx
            .run(&batch, &resources)
            .map_err(|e| DrawError::Exec(e.to_string()))?;
        let sm2 = vs.version.major < 3;
        let mut varyings = HashMap::new();
        let mut clip = None;
        for (sem, (reg, _)) in shader_outputs(&vs) {
            let Some(v) = out.get(reg) else { continue };
            let mut vals = [v[0], v[1], v[2]];
            if sem == (DeclUsage::Position, 0) {
                clip = Some(vals);
                continue;
            }
            if sm2 && sem.0 == DeclUsage::Color {
                // Direct3D 9 clamps vs_1_1-vs_2_x colour outputs to [0, 1].
                for x in vals.iter_mut().flatten() {
                    *x = x.clamp(0.0, 1.0);
                }
            }
            if matches!(reg, OutputRegister::Fog | OutputRegister::PointSize) {
                continue;
            }
            varyings.insert(sem, vals);
        }
        let clip = clip.ok_or(DrawError::NoPosition)?;
        let psx = PixelShader::new(&ps).map_err(|e| DrawError::Exec(e.to_string()))?;
        Ok(Draw {
            ps: psx,
            ps_inputs: shader_inputs(&ps),
            clip,
            varyings,
            resources,
        })
    }

    /// Shades `pixels`: per pixel, its colour, or `None` where the triangle does not cover it
    /// or the shader discards it.
    fn shade(&self, pixels: &[(u32, u32)]) -> Result<Vec<Option<[f32; 4]>>, String> {
        // Quads containing the pixels, in first-seen order.
        let mut quads: Vec<(u32, u32)> = Vec::new();
        let mut index: HashMap<(u32, u32), usize> = HashMap::new();
        for &(x, y) in pixels {
            let q = (x & !1, y & !1);
            index.entry(q).or_insert_with(|| {
                quads.push(q);
                quads.len() - 1
            });
        }
        let n = quads.len() * 4;
        let mut weights = Vec::with_capacity(n);
        let mut covered = Vec::with_capacity(n);
        let mut pos = Vec::with_capacity(n);
        for &(qx, qy) in &quads {
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let (x, y) = (qx + dx, qy + dy);
                let (w, inside) = self.barycentric(x as f32 + 0.5, y as f32 + 0.5);
                weights.push(w);
                covered.push(inside);
                pos.push([x as f32, y as f32, 0.0, 0.0]);
            }
        }
        let face = if self.area() > 0.0 { 1.0 } else { -1.0 };
        let mut batch = QuadBatch::new(quads.len());
        for (sem, reg) in &self.ps_inputs {
            let values: Vec<[f32; 4]> = match reg {
                InputRegister::Pos => pos.clone(),
                InputRegister::Face => vec![[face, 0.0, 0.0, 0.0]; n],
                _ => match self.varyings.get(sem) {
                    Some(v) => weights
                        .iter()
                        .map(|b| {
                            std::array::from_fn(|i| {
                                // As a rasteriser's plane equation: a value equal at
                                // the three vertices interpolates to itself exactly.
                                v[0][i] + b[1] * (v[1][i] - v[0][i]) + b[2] * (v[2][i] - v[0][i])
                            })
                        })
                        .collect(),
                    None => vec![[0.0; 4]; n],
                },
            };
            batch.set(*reg, values);
        }
        batch.coverage = covered;
        let out = self
            .ps
            .run(&batch, &self.resources)
            .map_err(|e| e.to_string())?;
        let colour = out.get(OutputRegister::Target(0));
        Ok(pixels
            .iter()
            .map(|&(x, y)| {
                let q = index[&(x & !1, y & !1)];
                let i = q * 4 + (x & 1) as usize + 2 * (y & 1) as usize;
                if out.discarded.get(i).copied().unwrap_or(false) {
                    return None;
                }
                Some(colour.map_or([0.0; 4], |c| c[i]))
            })
            .collect())
    }

    /// The vertices in pixel coordinates (x right, y down) and their `1/w`.
    fn screen(&self) -> [[f32; 3]; 3] {
        self.clip.map(|c| {
            let w = if c[3] == 0.0 { f32::MIN_POSITIVE } else { c[3] };
            [
                (c[0] / w + 1.0) * 0.5 * WIDTH as f32,
                (1.0 - c[1] / w) * 0.5 * HEIGHT as f32,
                1.0 / w,
            ]
        })
    }

    /// Twice the signed area in pixel coordinates: positive when the vertices run clockwise on
    /// screen, Direct3D 9's front face.
    fn area(&self) -> f32 {
        let [a, b, c] = self.screen();
        (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    }

    /// Perspective-correct weights of the vertices at a point, and whether it is inside.
    fn barycentric(&self, x: f32, y: f32) -> ([f32; 3], bool) {
        let [a, b, c] = self.screen();
        let area = self.area();
        if area == 0.0 {
            return ([0.0; 3], false);
        }
        let edge =
            |p: [f32; 3], q: [f32; 3]| (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
        let l = [edge(b, c) / area, edge(c, a) / area, edge(a, b) / area];
        let inside = l.iter().all(|&v| v >= 0.0);
        let p = [l[0] * a[2], l[1] * b[2], l[2] * c[2]];
        let sum = p[0] + p[1] + p[2];
        if sum == 0.0 {
            return (l, inside);
        }
        (p.map(|v| v / sum), inside)
    }
}

/// What the target holds: clears and draws in order, evaluated where a probe reads.
pub struct Framebuffer {
    width: u32,
    height: u32,
    layers: Vec<Layer>,
}

enum Layer {
    Clear([f32; 4]),
    Draw(Box<Draw>),
}

/// Pixels read with their values.
pub type Pixels = Vec<((u32, u32), [f32; 4])>;

impl Framebuffer {
    /// A target of this size, cleared to zero.
    pub fn new(width: u32, height: u32) -> Self {
        Framebuffer {
            width,
            height,
            layers: vec![Layer::Clear([0.0; 4])],
        }
    }

    /// `clear rtv 0`.
    pub fn clear(&mut self, v: [f32; 4]) {
        self.layers.clear();
        self.layers.push(Layer::Clear(v));
    }

    /// Adds a draw.
    pub fn draw(&mut self, d: Draw) {
        self.layers.push(Layer::Draw(Box::new(d)));
    }

    /// The pixels of the rectangle `[left, right) x [top, bottom)` (clipped to the target);
    /// the error is why a pixel shader did not run.
    pub fn read(&self, left: u32, top: u32, right: u32, bottom: u32) -> Result<Pixels, String> {
        let mut pending: Vec<(u32, u32)> = Vec::new();
        for y in top..bottom.min(self.height) {
            for x in left..right.min(self.width) {
                pending.push((x, y));
            }
        }
        let mut done: Vec<((u32, u32), [f32; 4])> = Vec::with_capacity(pending.len());
        for layer in self.layers.iter().rev() {
            if pending.is_empty() {
                break;
            }
            match layer {
                Layer::Clear(v) => {
                    done.extend(pending.drain(..).map(|p| (p, *v)));
                }
                Layer::Draw(d) => {
                    let shaded = d.shade(&pending)?;
                    let mut still = Vec::new();
                    for (p, v) in pending.drain(..).zip(shaded) {
                        match v {
                            Some(v) => done.push((p, v)),
                            None => still.push(p),
                        }
                    }
                    pending = still;
                }
            }
        }
        done.sort_by_key(|&((x, y), _)| (y, x));
        Ok(done)
    }
}
