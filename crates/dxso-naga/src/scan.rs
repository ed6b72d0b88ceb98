//! The pass before lowering: declarations, `def` values, which registers are read, written
//! and relatively addressed, and where the main program and its subroutines begin.

use crate::Error;
use dxso::{
    DeclUsage, Extra, Instruction, Item, Opcode, Register, RegisterType, Relative, Shader,
    TextureType, Version,
};
use naga::FastHashMap as HashMap;
use std::collections::{BTreeMap, BTreeSet};

/// A declared input or output register component range.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Decl {
    pub(crate) usage: DeclUsage,
    pub(crate) index: u8,
    pub(crate) mask: u8,
    pub(crate) centroid: bool,
}

/// What the lowering needs to know before it starts.
#[derive(Default)]
pub(crate) struct Scan {
    /// Input declarations by register (`v#`, and `t#` in ps_2_x), several when packed.
    pub(crate) inputs: BTreeMap<(RegisterType, u32), Vec<Decl>>,
    /// vs_3_0 output declarations by `o#`.
    pub(crate) outputs: BTreeMap<u32, Vec<Decl>>,
    /// Sampler declarations.
    pub(crate) samplers: BTreeMap<u32, TextureType>,
    pub(crate) defs: HashMap<u32, [u32; 4]>,
    pub(crate) defis: HashMap<u32, [i32; 4]>,
    pub(crate) defbs: HashMap<u32, bool>,
    /// Registers read, normalised (`c` files merged, index with the file offset).
    pub(crate) read: BTreeSet<(RegisterType, u32)>,
    pub(crate) written: BTreeSet<(RegisterType, u32)>,
    /// Register files read or written with relative addressing.
    pub(crate) relative: BTreeSet<RegisterType>,
    /// Texture-coordinate stages read by ps_1_x texture instructions.
    pub(crate) texcoords: BTreeSet<u32>,
    /// Samplers used by texture instructions (ps_1_x: the stage).
    pub(crate) sampled: BTreeSet<u32>,
    pub(crate) bump_stages: BTreeSet<u32>,
    pub(crate) discards: bool,
    pub(crate) derivatives: bool,
    pub(crate) writes_depth: bool,
    /// The main program: instruction indices into [`Scan::instructions`].
    pub(crate) main: std::ops::Range<usize>,
    /// Subroutines by label number: their instruction range (after the `label`).
    pub(crate) subroutines: BTreeMap<u32, std::ops::Range<usize>>,
    /// Labels each subroutine (and main, as `None`) calls.
    pub(crate) calls: BTreeMap<Option<u32>, BTreeSet<u32>>,
}

impl Scan {
    pub(crate) fn has_subroutines(&self) -> bool {
        self.calls.values().any(|c| !c.is_empty())
    }
}

/// The normalised key of a register: `c` files merged.
pub(crate) fn key(r: Register) -> (RegisterType, u32) {
    let ty = if r.ty.is_float_const() {
        RegisterType::Const
    } else {
        r.ty
    };
    (ty, r.index())
}

/// Instructions of the shader with their item indices.
pub(crate) fn instructions(shader: &Shader) -> Vec<(usize, &Instruction)> {
    shader
        .items
        .iter()
        .enumerate()
        .filter_map(|(i, item)| match item {
            Item::Instruction(inst) => Some((i, inst)),
            Item::Comment(_) => None,
        })
        .collect()
}

pub(crate) fn scan(version: Version, insts: &[(usize, &Instruction)]) -> Result<Scan, Error> {
    let mut s = Scan::default();
    let ps1 = version.is_pixel() && version.major < 2;
    let mut current: Option<u32> = None;
    let mut main_end = insts.len();
    let mut sub_start: Option<(u32, usize)> = None;
    s.calls.insert(None, BTreeSet::new());
    for (pos, &(item, inst)) in insts.iter().enumerate() {
        let err = |rule: &'static str| Error::at(item, inst.opcode, rule);
        match inst.opcode {
            Opcode::Label => {
                let Some(l) = inst.srcs.first() else {
                    return Err(err("label without a label register"));
                };
                if current.is_none() && main_end == insts.len() {
                    main_end = pos;
                }
                if let Some((prev, start)) = sub_start.take() {
                    s.subroutines.insert(prev, start..pos);
                }
                let n = l.register.index();
                if s.subroutines.contains_key(&n) {
                    return Err(err("label defined twice"));
                }
                current = Some(n);
                sub_start = Some((n, pos + 1));
                s.calls.entry(current).or_default();
                continue;
            }
            Opcode::Call | Opcode::CallNz => {
                let Some(l) = inst.srcs.first() else {
                    return Err(err("call without a label"));
                };
                s.calls
                    .entry(current)
                    .or_default()
                    .insert(l.register.index());
            }
            Opcode::Dcl => {
                scan_dcl(&mut s, version, inst);
                continue;
            }
            Opcode::Def => {
                if let (Some(d), Extra::Def(bits)) = (inst.dst, inst.extra) {
                    s.defs.insert(d.register.index(), bits);
                }
                continue;
            }
            Opcode::DefI => {
                if let (Some(d), Extra::DefI(v)) = (inst.dst, inst.extra) {
                    s.defis.insert(d.register.index(), v);
                }
                continue;
            }
            Opcode::DefB => {
                if let (Some(d), Extra::DefB(v)) = (inst.dst, inst.extra) {
                    s.defbs.insert(d.register.index(), v != 0);
                }
                continue;
            }
            Opcode::TexKill => {
                s.discards = true;
                // texkill reads its "destination".
                if let Some(d) = inst.dst {
                    s.read.insert(key(d.register));
                }
            }
            Opcode::Dsx | Opcode::Dsy => s.derivatives = true,
            Opcode::TexBem | Opcode::TexBemL | Opcode::Bem => {
                if let Some(d) = inst.dst {
                    s.bump_stages.insert(d.register.index());
                }
            }
            Opcode::TexM3x2Depth | Opcode::TexDepth => s.writes_depth = true,
            _ => {}
        }
        if let Some(d) = inst.dst {
            if d.relative.is_some() {
                s.relative.insert(key(d.register).0);
            }
            s.written.insert(key(d.register));
            if d.register.ty == RegisterType::DepthOut {
                s.writes_depth = true;
            }
        }
        for src in inst.srcs.iter().chain(inst.predicate.iter()) {
            s.read.insert(key(src.register));
            match src.relative {
                Some(Relative::Token(t)) => {
                    s.relative.insert(key(src.register).0);
                    s.read.insert(key(t.register));
                }
                Some(Relative::Implicit) => {
                    s.relative.insert(key(src.register).0);
                    s.read.insert((RegisterType::Addr, 0));
                }
                None => {}
            }
        }
        if let Some(Relative::Token(t)) = inst.dst.and_then(|d| d.relative) {
            s.read.insert(key(t.register));
        }
        scan_texture(&mut s, version, ps1, inst);
    }
    if let Some((prev, start)) = sub_start {
        s.subroutines.insert(prev, start..insts.len());
    }
    s.main = 0..main_end;
    for callees in s.calls.values() {
        for c in callees {
            if !s.subroutines.contains_key(c) {
                let (item, inst) = insts
                    .iter()
                    .find(|(_, i)| {
                        matches!(i.opcode, Opcode::Call | Opcode::CallNz)
                            && i.srcs.first().map(|l| l.register.index()) == Some(*c)
                    })
                    .copied()
                    .unwrap_or((0, insts[0].1));
                return Err(Error::at(
                    item,
                    inst.opcode,
                    "call to a label that is not defined",
                ));
            }
        }
    }
    Ok(s)
}

fn scan_dcl(s: &mut Scan, version: Version, inst: &Instruction) {
    let (Some(dst), Some(token)) = (inst.dst, inst.dcl()) else {
        return;
    };
    let r = dst.register;
    if r.ty == RegisterType::Sampler {
        s.samplers.insert(
            r.index(),
            token.texture_type().unwrap_or(TextureType::Texture2D),
        );
        return;
    }
    // ps_2_x declares v#/t# without a usage: those registers have fixed meanings.
    let fixed = version.is_pixel() && version.major < 3;
    let (usage, index) = if fixed {
        match r.ty {
            RegisterType::Input => (DeclUsage::Color, r.num as u8),
            _ => (DeclUsage::TexCoord, r.num as u8),
        }
    } else {
        (
            token.decl_usage().unwrap_or(DeclUsage::TexCoord),
            token.usage_index,
        )
    };
    let decl = Decl {
        usage,
        index,
        mask: dst.mask.0 & 0xF,
        centroid: dst.modifiers.centroid(),
    };
    match r.ty {
        RegisterType::Input => s.inputs.entry(key(r)).or_default().push(decl),
        RegisterType::Addr if version.is_pixel() => s.inputs.entry(key(r)).or_default().push(decl),
        RegisterType::Output if version.is_vertex() => {
            s.outputs.entry(r.index()).or_default().push(decl)
        }
        _ => {}
    }
}

fn scan_texture(s: &mut Scan, version: Version, ps1: bool, inst: &Instruction) {
    use Opcode::*;
    let stage = inst.dst.map(|d| d.register.index()).unwrap_or(0);
    if !ps1 {
        if matches!(inst.opcode, Tex | TexLdd | TexLdl) {
            if let Some(sampler) = inst.srcs.get(1) {
                s.sampled.insert(sampler.register.index());
            }
            if inst.opcode == Tex && version.is_pixel() {
                s.derivatives = true;
            }
        }
        return;
    }
    if version.minor >= 4 {
        // ps_1_4: t# are coordinates read as sources; texld samples the stage of its dst.
        let coords = inst.srcs.first().copied().or(match inst.opcode {
            TexKill => inst
                .dst
                .map(|d| dxso::SrcParam::new(d.register, dxso::Swizzle::IDENTITY)),
            _ => None,
        });
        if let Some(src) = coords {
            if src.register.ty == RegisterType::Addr
                && matches!(inst.opcode, Tex | TexCoord | TexKill)
            {
                s.texcoords.insert(src.register.index());
            }
        }
        if inst.opcode == Tex {
            s.sampled.insert(stage);
            s.derivatives = true;
        }
        return;
    }
    let samples = matches!(
        inst.opcode,
        Tex | TexBem
            | TexBemL
            | TexReg2Ar
            | TexReg2Gb
            | TexReg2Rgb
            | TexM3x2Tex
            | TexM3x3Tex
            | TexM3x3Spec
            | TexM3x3VSpec
            | TexDp3Tex
    );
    let reads_coords = matches!(
        inst.opcode,
        TexKill
            | TexCoord
            | Tex
            | TexBem
            | TexBemL
            | TexM3x2Pad
            | TexM3x2Tex
            | TexM3x3Pad
            | TexM3x3Tex
            | TexM3x3Spec
            | TexM3x3VSpec
            | TexM3x3
            | TexM3x2Depth
            | TexDp3Tex
            | TexDp3
            | TexM3x3Diff
    );
    if samples {
        s.sampled.insert(stage);
        s.derivatives = true;
    }
    if reads_coords {
        s.texcoords.insert(stage);
    }
}
