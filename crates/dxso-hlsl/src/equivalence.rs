//! A differential equivalence checker: runs two shaders of the same kind on dxso-exec with the
//! same random inputs and compares their outputs.
//!
//! The shaders may allocate registers differently, so everything is matched by meaning:
//! inputs by semantic (the `dcl` usage and index; in ps_2_x `t#` is `TEXCOORD#` and `v#` is
//! `COLOR#`), constants and samplers by their constant-table names, outputs by semantic (in
//! vs_1_1-vs_2_x `oPos` is `POSITION`, `oD#` `COLOR#`, `oT#` `TEXCOORD#`; in ps `oC#` is
//! `COLOR#`; ps_1_x reads `v0`, `v1` as `COLOR0`, `COLOR1` and coordinate set `#` as `TEXCOORD#`,
//! and its result `r0` is `COLOR0`). Both shaders get the same random texture per sampler name (bilinear filtering,
//! so a coordinate that differs by rounding reads a value that differs as little). Outputs are
//! compared on the lanes the reference writes, within [`Tolerance`]; NaN equals NaN.

pub mod effect;

use dxso::ctab::{ConstantTable, RegisterSet};
use dxso::{DeclUsage, Opcode, RegisterType as RT, Shader, TextureType};
use dxso_exec::{
    Filter, InputRegister, OutputRegister, Outputs, PixelShader, QuadBatch, Resources, Sampler,
    Texture, VertexBatch, VertexShader,
};
use std::collections::HashMap;
use std::sync::Arc;

/// How close two outputs must be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Absolute difference allowed.
    pub absolute: f32,
    /// Difference allowed relative to the larger magnitude.
    pub relative: f32,
}

impl Default for Tolerance {
    /// 1e-3 absolute or relative: the precision fxc's reordering of float math and the
    /// hardware's `rcp`/`rsq`/`exp`/`log` approximations leave.
    fn default() -> Self {
        Tolerance {
            absolute: 1e-3,
            relative: 1e-3,
        }
    }
}

impl Tolerance {
    fn close(&self, a: f32, b: f32) -> bool {
        if a.is_nan() && b.is_nan() {
            return true;
        }
        if a == b {
            return true;
        }
        let d = (a - b).abs();
        d <= self.absolute || d <= self.relative * a.abs().max(b.abs())
    }
}

/// Why two shaders are not equivalent, or could not be compared.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Mismatch {
    /// One is a vertex shader, the other a pixel shader.
    #[error("the shaders are of different kinds ({0} and {1})")]
    Kind(String, String),
    /// A shader cannot run.
    #[error("{which} shader does not run: {why}")]
    Run {
        /// `reference` or `candidate`.
        which: &'static str,
        /// The executor's error.
        why: String,
    },
    /// The candidate lacks an output the reference writes.
    #[error("the candidate does not write {0}")]
    MissingOutput(String),
    /// The candidate lacks a constant or sampler the reference reads.
    #[error("the candidate has no constant named '{0}'")]
    MissingConstant(String),
    /// An output differs.
    #[error("{output} lane {lane} of invocation {invocation}: reference {reference}, candidate {candidate}")]
    Value {
        /// The output semantic.
        output: String,
        /// The lane (0-3).
        lane: usize,
        /// The invocation.
        invocation: usize,
        /// The reference's value.
        reference: f32,
        /// The candidate's value.
        candidate: f32,
    },
    /// The shaders discard different pixels.
    #[error("pixel {0} is discarded by one shader and not the other")]
    Discard(usize),
}

/// What a comparison covered.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Coverage {
    /// Invocations run.
    pub invocations: usize,
    /// Outputs compared (by semantic).
    pub outputs: Vec<String>,
    /// Constants and samplers matched by name.
    pub names: usize,
}

/// Compares `candidate` with `reference` over `invocations` random invocations from `seed`.
pub fn check(
    reference: &Shader,
    candidate: &Shader,
    invocations: usize,
    seed: u64,
    tolerance: Tolerance,
) -> Result<Coverage, Mismatch> {
    let (rv, cv) = (reference.version, candidate.version);
    if rv.is_vertex() != cv.is_vertex() {
        return Err(Mismatch::Kind(rv.to_string(), cv.to_string()));
    }
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    // Inputs by semantic.
    let ref_inputs = inputs(reference);
    let cand_inputs = inputs(candidate);
    let quads = invocations.div_ceil(4).max(1);
    let count = if rv.is_vertex() {
        invocations.max(1)
    } else {
        quads * 4
    };
    let mut values: HashMap<(DeclUsage, u8), Vec<[f32; 4]>> = HashMap::new();
    for (sem, _) in ref_inputs.iter().chain(&cand_inputs) {
        values.entry(*sem).or_insert_with(|| {
            (0..count)
                .map(|_| {
                    let colour = sem.0 == DeclUsage::Color;
                    // vFace is one value: a read through any lane sees it.
                    if *sem == (DeclUsage::PositionT, 1) {
                        return [rng.signed() * 2.0; 4];
                    }
                    // Blend indices are whole numbers as UBYTE4 vertex data gives them, small
                    // enough that the relative reads they drive stay inside the arrays they
                    // index: a read outside a constant array is undefined in Direct3D 9, and
                    // two compilers may lay the registers around it out differently.
                    if sem.0 == DeclUsage::BlendIndices {
                        return std::array::from_fn(|_| (rng.unit() * 4.0).floor().min(3.0));
                    }
                    std::array::from_fn(|_| {
                        if colour {
                            rng.unit()
                        } else {
                            rng.signed() * 2.0
                        }
                    })
                })
                .collect()
        });
    }
    // Constants and samplers by name.
    let rt = table(reference);
    let ct = table(candidate);
    let mut rres = Resources::default();
    let mut cres = Resources::default();
    rres.constants.float = vec![[0.0; 4]; 8192];
    cres.constants.float = vec![[0.0; 4]; 8192];
    rres.constants.int = vec![[0; 4]; 16];
    cres.constants.int = vec![[0; 4]; 16];
    rres.constants.bool = vec![false; 16];
    cres.constants.bool = vec![false; 16];
    rres.samplers = vec![Sampler::default(); 16];
    cres.samplers = vec![Sampler::default(); 16];
    let mut names = 0;
    let rtypes = sampler_types(reference);
    // The float values given to each named constant, register by register, for the
    // preshaders (which read parameters by name through their own tables).
    let mut float_values: HashMap<String, Vec<[f32; 4]>> = HashMap::new();
    let rpres = preshader(reference);
    let cpres = preshader(candidate);
    let in_preshader = |p: &Option<dxso_fx::Program>, name: &dxso::ctab::CtabString| {
        p.as_ref()
            .and_then(|p| p.constant_table())
            .is_some_and(|t| t.constants.iter().any(|x| &x.name == name))
    };
    for c in &rt.constants {
        let name = c.name.as_str().into_owned();
        let Some(cc) = ct.constants.iter().find(|x| x.name == c.name) else {
            if c.register_set() == Some(RegisterSet::Float4) && in_preshader(&cpres, &c.name) {
                // The candidate computes from it in its preshader only.
                let mut values = Vec::new();
                for k in 0..c.register_count {
                    let v: [f32; 4] = std::array::from_fn(|_| rng.signed() * 2.0);
                    set(
                        &mut rres.constants.float,
                        (c.register_index + k) as usize,
                        v,
                    );
                    values.push(v);
                }
                float_values.insert(name, values);
                continue;
            }
            // A constant the reference never reads cannot change its outputs; a compiler
            // drops it from the candidate's table.
            if reads_constant(reference, c) {
                return Err(Mismatch::MissingConstant(name));
            }
            continue;
        };
        names += 1;
        match c.register_set() {
            Some(RegisterSet::Float4) => {
                let mut values = Vec::new();
                for k in 0..c.register_count.min(cc.register_count) {
                    let v: [f32; 4] = std::array::from_fn(|_| rng.signed() * 2.0);
                    set(
                        &mut rres.constants.float,
                        (c.register_index + k) as usize,
                        v,
                    );
                    set(
                        &mut cres.constants.float,
                        (cc.register_index + k) as usize,
                        v,
                    );
                    values.push(v);
                }
                float_values.insert(name, values);
            }
            Some(RegisterSet::Int4) => {
                for k in 0..c.register_count.min(cc.register_count) {
                    let v: [i32; 4] = std::array::from_fn(|_| (rng.next() % 8) as i32);
                    set(&mut rres.constants.int, (c.register_index + k) as usize, v);
                    set(&mut cres.constants.int, (cc.register_index + k) as usize, v);
                }
            }
            Some(RegisterSet::Bool) => {
                for k in 0..c.register_count.min(cc.register_count) {
                    let v = rng.next() & 1 == 1;
                    set(&mut rres.constants.bool, (c.register_index + k) as usize, v);
                    set(
                        &mut cres.constants.bool,
                        (cc.register_index + k) as usize,
                        v,
                    );
                }
            }
            Some(RegisterSet::Sampler) => {
                for k in 0..c.register_count.min(cc.register_count) {
                    let ty = rtypes
                        .get(&(c.register_index + k))
                        .copied()
                        .unwrap_or(TextureType::Texture2D);
                    let s = random_sampler(&mut rng, ty);
                    set(
                        &mut rres.samplers,
                        (c.register_index + k) as usize,
                        s.clone(),
                    );
                    set(&mut cres.samplers, (cc.register_index + k) as usize, s);
                }
            }
            None => {}
        }
    }
    if rpres.is_some() || cpres.is_some() {
        // The reference's preshader first: its inputs by name, new names taking new values.
        let written = match &rpres {
            Some(p) => run_preshader(p, &mut float_values, &mut rng, &mut rres),
            None => Vec::new(),
        };
        // Float constants only the candidate's table names take the values given to their
        // names (the reference computes from them in its preshader), or, for registers the
        // reference's preshader fills (a table entry named after its register, as a
        // decompiler writes it), the values it computed.
        for cc in &ct.constants {
            let name = cc.name.as_str().into_owned();
            if cc.register_set() != Some(RegisterSet::Float4)
                || rt.constants.iter().any(|c| c.name == cc.name)
            {
                continue;
            }
            let known = float_values.get(&name).cloned();
            let mut values = Vec::new();
            for k in 0..cc.register_count {
                let r = (cc.register_index + k) as usize;
                let v = if known.is_none() && written.contains(&r) {
                    rres.constants.float.get(r).copied().unwrap_or([0.0; 4])
                } else {
                    match known.as_ref().and_then(|v| v.get(k as usize)) {
                        Some(v) => *v,
                        None => std::array::from_fn(|_| rng.signed() * 2.0),
                    }
                };
                set(&mut cres.constants.float, r, v);
                values.push(v);
            }
            float_values.entry(name).or_insert(values);
        }
        if let Some(p) = &cpres {
            run_preshader(p, &mut float_values, &mut rng, &mut cres);
        }
    }
    let (rout, cout) = if rv.is_vertex() {
        let run = |s: &Shader, ins: &[((DeclUsage, u8), InputRegister)], res: &Resources, which| {
            let vs = VertexShader::new(s).map_err(|e| Mismatch::Run {
                which,
                why: e.to_string(),
            })?;
            let mut b = VertexBatch::new(count);
            for (sem, reg) in ins {
                b.set(*reg, values[sem].clone());
            }
            vs.run(&b, res).map_err(|e| Mismatch::Run {
                which,
                why: e.to_string(),
            })
        };
        (
            run(reference, &ref_inputs, &rres, "reference")?,
            run(candidate, &cand_inputs, &cres, "candidate")?,
        )
    } else {
        let run = |s: &Shader, ins: &[((DeclUsage, u8), InputRegister)], res: &Resources, which| {
            let ps = PixelShader::new(s).map_err(|e| Mismatch::Run {
                which,
                why: e.to_string(),
            })?;
            let mut b = QuadBatch::new(quads);
            for (sem, reg) in ins {
                b.set(*reg, values[sem].clone());
            }
            ps.run(&b, res).map_err(|e| Mismatch::Run {
                which,
                why: e.to_string(),
            })
        };
        (
            run(reference, &ref_inputs, &rres, "reference")?,
            run(candidate, &cand_inputs, &cres, "candidate")?,
        )
    };
    let mut coverage = Coverage {
        invocations: count,
        outputs: Vec::new(),
        names,
    };
    let ref_outs = outputs(reference);
    let cand_outs = outputs(candidate);
    for (sem, (reg, mask)) in &ref_outs {
        let label = format!("{}{}", sem.0.name().to_ascii_uppercase(), sem.1);
        let Some((creg, _)) = cand_outs.get(sem) else {
            return Err(Mismatch::MissingOutput(label));
        };
        let a = rout
            .get(*reg)
            .ok_or_else(|| Mismatch::MissingOutput(label.clone()))?;
        let b = cout
            .get(*creg)
            .ok_or_else(|| Mismatch::MissingOutput(label.clone()))?;
        for inv in 0..count {
            if !rv.is_vertex() && (discarded(&rout, inv) || discarded(&cout, inv)) {
                continue;
            }
            for lane in 0..4 {
                if mask & (1 << lane) == 0 {
                    continue;
                }
                let (x, y) = (a[inv][lane], b[inv][lane]);
                if !tolerance.close(x, y) {
                    return Err(Mismatch::Value {
                        output: label,
                        lane,
                        invocation: inv,
                        reference: x,
                        candidate: y,
                    });
                }
            }
        }
        coverage.outputs.push(label);
    }
    if !rv.is_vertex() {
        for inv in 0..count {
            if discarded(&rout, inv) != discarded(&cout, inv) {
                return Err(Mismatch::Discard(inv));
            }
        }
    }
    Ok(coverage)
}

/// `true` when `s` may read a register of `c` (any relative read of its file counts).
fn reads_constant(s: &Shader, c: &dxso::ctab::Constant) -> bool {
    let file = |t: RT| match c.register_set() {
        Some(RegisterSet::Float4) => t.is_float_const(),
        Some(RegisterSet::Int4) => t == RT::ConstInt,
        Some(RegisterSet::Bool) => t == RT::ConstBool,
        Some(RegisterSet::Sampler) => t == RT::Sampler,
        None => false,
    };
    let (lo, hi) = (
        c.register_index as u32,
        c.register_index as u32 + c.register_count.max(1) as u32,
    );
    let ps1 = s.version.is_pixel() && s.version.major == 1;
    s.instructions().any(|i| {
        if matches!(
            i.opcode,
            Opcode::Dcl | Opcode::Def | Opcode::DefI | Opcode::DefB
        ) {
            return false;
        }
        // ps_1_x texture instructions sample the stage their destination names.
        if ps1 && c.register_set() == Some(RegisterSet::Sampler) {
            if let Some(d) = i.dst {
                if (lo..hi).contains(&(d.register.num as u32)) {
                    return true;
                }
            }
        }
        i.srcs.iter().any(|src| {
            file(src.register.ty)
                && (src.relative.is_some() || (lo..hi).contains(&src.register.index()))
        })
    })
}

fn discarded(o: &Outputs, i: usize) -> bool {
    o.discarded.get(i).copied().unwrap_or(false)
}

/// The program in `s`'s `PRES` comment, if it has one that reads.
fn preshader(s: &Shader) -> Option<dxso_fx::Program> {
    let c = s
        .comments()
        .find(|c| c.data.first() == Some(&dxso_fx::program::PRES_FOURCC))?;
    dxso_fx::Program::parse_words(&c.data[1..], 0).ok()
}

/// Runs a preshader with its inputs taken by name from `values` (new names get random
/// values) and writes its outputs into `res`'s constants, as the effect runtime does; returns
/// the float registers written.
fn run_preshader(
    p: &dxso_fx::Program,
    values: &mut HashMap<String, Vec<[f32; 4]>>,
    rng: &mut Rng,
    res: &mut Resources,
) -> Vec<usize> {
    let mut inputs = dxso_fx::eval::Bank::new(4);
    if let Some(t) = p.constant_table() {
        for c in &t.constants {
            let name = c.name.as_str().into_owned();
            let v = values.entry(name).or_insert_with(|| {
                (0..c.register_count)
                    .map(|_| std::array::from_fn(|_| rng.signed() * 2.0))
                    .collect()
            });
            for k in 0..c.register_count as usize {
                let x = v.get(k).copied().unwrap_or([0.0; 4]);
                for (lane, f) in x.iter().enumerate() {
                    inputs.set(4 * (c.register_index as usize + k) + lane, *f);
                }
            }
        }
    }
    let mut out = dxso_fx::eval::Registers::default();
    dxso_fx::eval::execute(p, &inputs, &mut out, dxso_fx::eval::Precision::Native);
    for r in out.floats.written() {
        if let Some(slot) = res.constants.float.get_mut(r) {
            for (lane, v) in out.floats.register(r).iter().enumerate().take(4) {
                slot[lane] = *v;
            }
        }
    }
    for r in out.ints.written() {
        if let Some(slot) = res.constants.int.get_mut(r) {
            for (lane, v) in out.ints.register(r).iter().enumerate().take(4) {
                slot[lane] = *v;
            }
        }
    }
    for r in out.bools.written() {
        if let Some(slot) = res.constants.bool.get_mut(r) {
            *slot = out.bools.get(r);
        }
    }
    out.floats.written().collect()
}

fn set<T>(v: &mut [T], i: usize, x: T) {
    if let Some(slot) = v.get_mut(i) {
        *slot = x;
    }
}

fn table(s: &Shader) -> ConstantTable {
    s.constant_table().and_then(Result::ok).unwrap_or_default()
}

/// The declared inputs: semantic and register.
pub(crate) fn shader_inputs(s: &Shader) -> Vec<((DeclUsage, u8), InputRegister)> {
    inputs(s)
}

/// The outputs written: semantic, register and the lanes written.
pub(crate) fn shader_outputs(s: &Shader) -> HashMap<(DeclUsage, u8), (OutputRegister, u8)> {
    outputs(s)
}

fn inputs(s: &Shader) -> Vec<((DeclUsage, u8), InputRegister)> {
    let ps2 = s.version.is_pixel() && s.version.major == 2;
    let mut out = Vec::new();
    if s.version.is_pixel() && s.version.major == 1 {
        // ps_1_x declares nothing: v0 and v1 are the colours, and texture instructions read
        // the coordinate sets.
        for n in 0..2u8 {
            out.push(((DeclUsage::Color, n), InputRegister::V(n)));
        }
        for n in 0..8u8 {
            out.push(((DeclUsage::TexCoord, n), InputRegister::T(n)));
        }
        return out;
    }
    for i in s.instructions() {
        if i.opcode != Opcode::Dcl {
            continue;
        }
        let (Some(d), Some(dcl)) = (i.dst, i.dcl()) else {
            continue;
        };
        let r = d.register;
        let entry = match r.ty {
            RT::Input if ps2 => (
                (DeclUsage::Color, r.num as u8),
                InputRegister::V(r.num as u8),
            ),
            RT::Addr if ps2 => (
                (DeclUsage::TexCoord, r.num as u8),
                InputRegister::T(r.num as u8),
            ),
            RT::Input => match dcl.decl_usage() {
                Some(u) => ((u, dcl.usage_index), InputRegister::V(r.num as u8)),
                None => continue,
            },
            RT::MiscType if r.num == 0 => ((DeclUsage::PositionT, 0), InputRegister::Pos),
            RT::MiscType => ((DeclUsage::PositionT, 1), InputRegister::Face),
            _ => continue,
        };
        out.push(entry);
    }
    out
}

/// The outputs written: semantic, register and the lanes written.
fn outputs(s: &Shader) -> HashMap<(DeclUsage, u8), (OutputRegister, u8)> {
    let v = s.version;
    let mut decl: HashMap<u16, (DeclUsage, u8)> = HashMap::new();
    let mut out: HashMap<(DeclUsage, u8), (OutputRegister, u8)> = HashMap::new();
    if v.is_pixel() && v.major == 1 {
        // The colour result of ps_1_x is r0 at the end.
        out.insert((DeclUsage::Color, 0), (OutputRegister::Target(0), 0xF));
    }
    for i in s.instructions() {
        let Some(d) = i.dst else { continue };
        let r = d.register;
        if i.opcode == Opcode::Dcl {
            if r.ty == RT::Output && v.is_vertex() && v.major >= 3 {
                if let Some(u) = i.dcl().and_then(|x| x.decl_usage()) {
                    decl.insert(r.num, (u, i.dcl().map_or(0, |x| x.usage_index)));
                }
            }
            continue;
        }
        let (sem, reg) = match r.ty {
            RT::ColorOut => (
                (DeclUsage::Color, r.num as u8),
                OutputRegister::Target(r.num as u8),
            ),
            RT::DepthOut => ((DeclUsage::Depth, 0), OutputRegister::Depth),
            RT::RastOut => match r.num {
                0 => ((DeclUsage::Position, 0), OutputRegister::Pos),
                1 => ((DeclUsage::Fog, 0), OutputRegister::Fog),
                _ => ((DeclUsage::PSize, 0), OutputRegister::PointSize),
            },
            RT::AttrOut => (
                (DeclUsage::Color, r.num as u8),
                OutputRegister::Color(r.num as u8),
            ),
            RT::Output if v.major >= 3 => match decl.get(&r.num) {
                Some(sem) => (*sem, OutputRegister::O(r.num as u8)),
                None => continue,
            },
            RT::Output => (
                (DeclUsage::TexCoord, r.num as u8),
                OutputRegister::TexCoord(r.num as u8),
            ),
            _ => continue,
        };
        let mask = if matches!(r.ty, RT::DepthOut | RT::RastOut) && r.num != 0 {
            1
        } else {
            d.mask.0
        };
        out.entry(sem).or_insert((reg, 0)).1 |= mask;
    }
    out
}

fn sampler_types(s: &Shader) -> HashMap<u16, TextureType> {
    s.instructions()
        .filter(|i| i.opcode == Opcode::Dcl)
        .filter_map(|i| {
            let d = i.dst?;
            if d.register.ty != RT::Sampler {
                return None;
            }
            Some((d.register.num, i.dcl()?.texture_type()?))
        })
        .collect()
}

fn random_sampler(rng: &mut Rng, ty: TextureType) -> Sampler {
    use dxso_exec::{Dimension, Format, MipLevel};
    let (dim, w, h, d) = match ty {
        TextureType::Cube => (Dimension::Cube, 8, 8, 6),
        TextureType::Volume => (Dimension::Volume, 8, 8, 8),
        _ => (Dimension::D2, 16, 16, 1),
    };
    let texels = (w * h * d) as usize;
    let mut data = Vec::with_capacity(texels * 16);
    for _ in 0..texels * 4 {
        data.extend_from_slice(&rng.unit().to_le_bytes());
    }
    let texture = Texture::new(
        dim,
        Format::Rgba32Float,
        vec![MipLevel {
            width: w,
            height: h,
            depth: d,
            data,
        }],
    )
    .expect("a well-formed random texture");
    let mut s = Sampler::new(Arc::new(texture));
    s.state.mag_filter = Filter::Linear;
    s.state.min_filter = Filter::Linear;
    s
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
    fn signed(&mut self) -> f32 {
        self.unit() * 2.0 - 1.0
    }
}
