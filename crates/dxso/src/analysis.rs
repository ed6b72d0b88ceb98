//! What a back end needs to know about a valid shader before it emits code, computed once.
//!
//! [`analyze`] validates a shader and, when it is valid, returns its [`ShaderInfo`]: the
//! declarations, the `def` values, the registers read, written and relatively addressed, the
//! main program and its subroutines with the call graph, loop nesting, and which texture,
//! discard and derivative features the shader uses. A back end takes the info instead of
//! validating and scanning the shader again, and may rely on the shader being valid: that is the
//! one precondition every back end shares.

use crate::instruction::{DeclUsage, Extra, Instruction, Item, Shader, TextureType};
use crate::opcode::Opcode;
use crate::param::Relative;
use crate::register::{Register, RegisterType};
use crate::validate::{validate_with, Options, Report};
use crate::version::Version;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

/// A register as the analysis keys it: its file, with the four float-constant files merged into
/// [`RegisterType::Const`], and its index (offset by the file's base for the merged files).
pub type RegisterKey = (RegisterType, u32);

/// The key of a register (see [`RegisterKey`]).
pub fn register_key(r: Register) -> RegisterKey {
    let ty = if r.ty.is_float_const() {
        RegisterType::Const
    } else {
        r.ty
    };
    (ty, r.index())
}

/// One declaration of an input or output register: its semantic and the components it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declaration {
    /// The usage. ps_2_x declares `v#` and `t#` without one: they are `Color` and `TexCoord`
    /// with the register's number as the index.
    pub usage: DeclUsage,
    /// The usage index.
    pub index: u8,
    /// The write mask of the declaration (the components it covers).
    pub mask: u8,
    /// Interpolated at the centroid (`_centroid`).
    pub centroid: bool,
}

/// The analysis of a valid shader (see the module documentation). Instruction positions count
/// instructions only, in stream order ([`ShaderInfo::items`] maps them to [`Shader::items`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ShaderInfo {
    /// The shader's version.
    pub version: Version,
    /// Every instruction's index in [`Shader::items`], by instruction position.
    pub items: Vec<usize>,
    /// Input declarations by register (`v#`, and ps_3_0's and ps_2_x's `t#`); several when
    /// one register packs several semantics.
    pub inputs: BTreeMap<RegisterKey, Vec<Declaration>>,
    /// vs_3_0 output declarations by `o#` number.
    pub outputs: BTreeMap<u32, Vec<Declaration>>,
    /// Declared samplers and their texture types.
    pub samplers: BTreeMap<u32, TextureType>,
    /// `def` values (bit patterns) by `c#` number.
    pub float_defs: BTreeMap<u32, [u32; 4]>,
    /// `defi` values by `i#` number.
    pub int_defs: BTreeMap<u32, [i32; 4]>,
    /// `defb` values by `b#` number.
    pub bool_defs: BTreeMap<u32, bool>,
    /// Registers read as sources, predicates, relative-address registers, or (`texkill`) as the
    /// destination an instruction reads.
    pub read: BTreeSet<RegisterKey>,
    /// Registers written.
    pub written: BTreeSet<RegisterKey>,
    /// Register files read or written with relative addressing.
    pub relative: BTreeSet<RegisterType>,
    /// ps_1_x: texture-coordinate stages the texture instructions read.
    pub texcoords: BTreeSet<u32>,
    /// Samplers (ps_1_x: stages) that instructions sample.
    pub sampled: BTreeSet<u32>,
    /// ps_1_x stages a bump-environment instruction (`texbem`, `texbeml`, `bem`) targets.
    pub bump_stages: BTreeSet<u32>,
    /// Some instruction discards the pixel (`texkill`).
    pub discards: bool,
    /// Some instruction takes screen-space derivatives (`dsx`, `dsy`, or a pixel shader's
    /// implicit-level texture sample).
    pub derivatives: bool,
    /// The shader writes the depth (`oDepth`, `texdepth`, `texm3x2depth`).
    pub writes_depth: bool,
    /// The main program: instruction positions before the first `label`.
    pub main: Range<usize>,
    /// Subroutines by label number: the positions of their instructions (after the `label`).
    pub subroutines: BTreeMap<u32, Range<usize>>,
    /// The labels the main program (`None`) and each subroutine call.
    pub calls: BTreeMap<Option<u32>, BTreeSet<u32>>,
    /// The deepest nesting of `loop` and `rep` blocks.
    pub max_loop_depth: u32,
}

impl ShaderInfo {
    /// `true` when the shader calls a subroutine.
    pub fn has_subroutines(&self) -> bool {
        self.calls.values().any(|c| !c.is_empty())
    }

    /// `true` when `register` is read (see [`ShaderInfo::read`]).
    pub fn reads(&self, register: Register) -> bool {
        self.read.contains(&register_key(register))
    }

    /// `true` when `register` is written.
    pub fn writes(&self, register: Register) -> bool {
        self.written.contains(&register_key(register))
    }
}

/// Validates `shader` with the minimum limits of its version and, when it is valid, analyses
/// it. An invalid shader gives its [`Report`].
pub fn analyze(shader: &Shader) -> Result<ShaderInfo, Report> {
    analyze_with(shader, &Options::default())
}

/// [`analyze`] with limits raised to a device's capabilities.
pub fn analyze_with(shader: &Shader, options: &Options) -> Result<ShaderInfo, Report> {
    let report = validate_with(shader, options);
    if !report.is_valid() {
        return Err(report);
    }
    Ok(compute(shader))
}

/// The analysis proper; the shader is valid, so labels are unique, calls name labels, and
/// blocks nest.
fn compute(shader: &Shader) -> ShaderInfo {
    let version = shader.version;
    let items: Vec<usize> = shader
        .items
        .iter()
        .enumerate()
        .filter_map(|(i, item)| matches!(item, Item::Instruction(_)).then_some(i))
        .collect();
    let count = items.len();
    let mut info = ShaderInfo {
        version,
        items,
        inputs: BTreeMap::new(),
        outputs: BTreeMap::new(),
        samplers: BTreeMap::new(),
        float_defs: BTreeMap::new(),
        int_defs: BTreeMap::new(),
        bool_defs: BTreeMap::new(),
        read: BTreeSet::new(),
        written: BTreeSet::new(),
        relative: BTreeSet::new(),
        texcoords: BTreeSet::new(),
        sampled: BTreeSet::new(),
        bump_stages: BTreeSet::new(),
        discards: false,
        derivatives: false,
        writes_depth: false,
        main: 0..count,
        subroutines: BTreeMap::new(),
        calls: BTreeMap::new(),
        max_loop_depth: 0,
    };
    let mut current: Option<u32> = None;
    let mut main_end = count;
    let mut subroutine_start: Option<(u32, usize)> = None;
    let mut loop_depth = 0u32;
    info.calls.insert(None, BTreeSet::new());
    for (pos, inst) in shader.instructions().enumerate() {
        match inst.opcode {
            Opcode::Label => {
                let Some(label) = inst.srcs.first() else {
                    continue;
                };
                if current.is_none() {
                    main_end = main_end.min(pos);
                }
                if let Some((previous, start)) = subroutine_start.take() {
                    info.subroutines.insert(previous, start..pos);
                }
                let n = label.register.index();
                current = Some(n);
                subroutine_start = Some((n, pos + 1));
                info.calls.entry(current).or_default();
                continue;
            }
            Opcode::Call | Opcode::CallNz => {
                if let Some(label) = inst.srcs.first() {
                    info.calls
                        .entry(current)
                        .or_default()
                        .insert(label.register.index());
                }
            }
            Opcode::Loop | Opcode::Rep => {
                loop_depth += 1;
                info.max_loop_depth = info.max_loop_depth.max(loop_depth);
            }
            Opcode::EndLoop | Opcode::EndRep => loop_depth = loop_depth.saturating_sub(1),
            Opcode::Dcl => {
                declaration(&mut info, inst);
                continue;
            }
            Opcode::Def => {
                if let (Some(d), Extra::Def(bits)) = (inst.dst, inst.extra) {
                    info.float_defs.insert(d.register.index(), bits);
                }
                continue;
            }
            Opcode::DefI => {
                if let (Some(d), Extra::DefI(v)) = (inst.dst, inst.extra) {
                    info.int_defs.insert(d.register.index(), v);
                }
                continue;
            }
            Opcode::DefB => {
                if let (Some(d), Extra::DefB(v)) = (inst.dst, inst.extra) {
                    info.bool_defs.insert(d.register.index(), v != 0);
                }
                continue;
            }
            Opcode::TexKill => {
                info.discards = true;
                // texkill reads the register in its destination slot.
                if let Some(d) = inst.dst {
                    info.read.insert(register_key(d.register));
                }
            }
            Opcode::Dsx | Opcode::Dsy => info.derivatives = true,
            Opcode::TexBem | Opcode::TexBemL | Opcode::Bem => {
                if let Some(d) = inst.dst {
                    info.bump_stages.insert(d.register.index());
                }
            }
            Opcode::TexM3x2Depth | Opcode::TexDepth => info.writes_depth = true,
            _ => {}
        }
        operands(&mut info, inst);
        texture_use(&mut info, inst);
    }
    if let Some((previous, start)) = subroutine_start {
        info.subroutines.insert(previous, start..count);
    }
    info.main = 0..main_end;
    info
}

/// Records what an instruction's destination, sources and predicate read and write.
fn operands(info: &mut ShaderInfo, inst: &Instruction) {
    if let Some(d) = inst.dst {
        let key = register_key(d.register);
        info.written.insert(key);
        if d.register.ty == RegisterType::DepthOut {
            info.writes_depth = true;
        }
        match d.relative {
            Some(Relative::Token(t)) => {
                info.relative.insert(key.0);
                info.read.insert(register_key(t.register));
            }
            Some(Relative::Implicit) => {
                info.relative.insert(key.0);
            }
            None => {}
        }
    }
    for src in inst.srcs.iter().chain(inst.predicate.iter()) {
        let key = register_key(src.register);
        info.read.insert(key);
        match src.relative {
            Some(Relative::Token(t)) => {
                info.relative.insert(key.0);
                info.read.insert(register_key(t.register));
            }
            Some(Relative::Implicit) => {
                // vs_1_1 addresses constants through a0.x without a token.
                info.relative.insert(key.0);
                info.read.insert((RegisterType::Addr, 0));
            }
            None => {}
        }
    }
}

/// A `dcl` of an input, an output or a sampler.
fn declaration(info: &mut ShaderInfo, inst: &Instruction) {
    let (Some(dst), Some(token)) = (inst.dst, inst.dcl()) else {
        return;
    };
    let version = info.version;
    let r = dst.register;
    if r.ty == RegisterType::Sampler {
        info.samplers.insert(
            r.index(),
            token.texture_type().unwrap_or(TextureType::Texture2D),
        );
        return;
    }
    // ps_2_x declares v# and t# without a usage: those registers have fixed meanings.
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
    let declaration = Declaration {
        usage,
        index,
        mask: dst.mask.0 & 0xF,
        centroid: dst.modifiers.centroid(),
    };
    match r.ty {
        RegisterType::Input => info
            .inputs
            .entry(register_key(r))
            .or_default()
            .push(declaration),
        // In pixel shaders the `a#` encoding is `t#`.
        RegisterType::Addr if version.is_pixel() => info
            .inputs
            .entry(register_key(r))
            .or_default()
            .push(declaration),
        RegisterType::Output if version.is_vertex() => {
            info.outputs.entry(r.index()).or_default().push(declaration)
        }
        _ => {}
    }
}

/// Which samplers and (ps_1_x) texture-coordinate stages a texture instruction uses.
fn texture_use(info: &mut ShaderInfo, inst: &Instruction) {
    use Opcode::*;
    let version = info.version;
    let stage = inst.dst.map(|d| d.register.index()).unwrap_or(0);
    let ps1 = version.is_pixel() && version.major < 2;
    if !ps1 {
        if matches!(inst.opcode, Tex | TexLdd | TexLdl) {
            if let Some(sampler) = inst.srcs.get(1) {
                info.sampled.insert(sampler.register.index());
            }
            if inst.opcode == Tex && version.is_pixel() {
                info.derivatives = true;
            }
        }
        return;
    }
    if version.minor >= 4 {
        // ps_1_4: t# are coordinates read as sources; texld samples the stage of its dst.
        let coordinates = match inst.opcode {
            Tex | TexCoord => inst.srcs.first().map(|s| s.register),
            TexKill => inst.dst.map(|d| d.register),
            _ => None,
        };
        if let Some(r) = coordinates.filter(|r| r.ty == RegisterType::Addr) {
            info.texcoords.insert(r.index());
        }
        if inst.opcode == Tex {
            info.sampled.insert(stage);
            info.derivatives = true;
        }
        return;
    }
    let stage_use = inst.opcode.info().ps1_stage;
    if stage_use.samples {
        info.sampled.insert(stage);
        info.derivatives = true;
    }
    if stage_use.reads_coordinates {
        info.texcoords.insert(stage);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instruction::DclToken;
    use crate::param::{DstParam, RelativeToken, SrcParam, Swizzle, WriteMask};
    use crate::register::RegisterType as T;

    fn reg(ty: T, n: u16) -> Register {
        Register::new(ty, n)
    }
    fn dst(ty: T, n: u16, mask: WriteMask) -> Option<DstParam> {
        Some(DstParam::new(reg(ty, n), mask))
    }
    fn src(ty: T, n: u16) -> SrcParam {
        SrcParam::new(reg(ty, n), Swizzle::IDENTITY)
    }
    fn inst(op: Opcode, dst: Option<DstParam>, srcs: &[SrcParam], extra: Extra) -> Instruction {
        let mut i = Instruction::new(op);
        i.dst = dst;
        i.extra = extra;
        for s in srcs {
            i.srcs.push(*s).unwrap();
        }
        i
    }
    fn shader(version: Version, insts: Vec<Instruction>) -> Shader {
        let mut s = Shader::new(version);
        s.items = insts.into_iter().map(Item::Instruction).collect();
        s
    }

    #[test]
    fn an_invalid_shader_gives_its_report() {
        // ps_2_0 reading t0 without declaring it.
        let s = shader(
            Version::ps(2, 0),
            vec![inst(
                Opcode::Mov,
                dst(T::ColorOut, 0, WriteMask::ALL),
                &[src(T::Addr, 0)],
                Extra::None,
            )],
        );
        let report = analyze(&s).unwrap_err();
        assert!(!report.is_valid());
    }

    #[test]
    fn declarations_defs_reads_and_writes() {
        let xy = WriteMask(0b0011);
        let s = shader(
            Version::ps(2, 0),
            vec![
                inst(
                    Opcode::Def,
                    dst(T::Const, 1, WriteMask::ALL),
                    &[],
                    Extra::Def([0x3F80_0000, 0, 0, 0x3F00_0000]),
                ),
                inst(
                    Opcode::Dcl,
                    dst(T::Addr, 0, xy),
                    &[],
                    Extra::Dcl(DclToken::default()),
                ),
                inst(
                    Opcode::Dcl,
                    dst(T::Sampler, 0, WriteMask::ALL),
                    &[],
                    Extra::Dcl(DclToken::sampler(TextureType::Texture2D)),
                ),
                inst(
                    Opcode::Tex,
                    dst(T::Temp, 0, WriteMask::ALL),
                    &[src(T::Addr, 0), src(T::Sampler, 0)],
                    Extra::None,
                ),
                inst(
                    Opcode::Mul,
                    dst(T::ColorOut, 0, WriteMask::ALL),
                    &[src(T::Temp, 0), src(T::Const, 1)],
                    Extra::None,
                ),
            ],
        );
        let info = analyze(&s).unwrap_or_else(|r| panic!("{:?}", r.diagnostics));
        assert_eq!(info.float_defs[&1], [0x3F80_0000, 0, 0, 0x3F00_0000]);
        let t0 = &info.inputs[&(T::Addr, 0)];
        assert_eq!(t0[0].usage, DeclUsage::TexCoord);
        assert_eq!(t0[0].mask, 0b0011);
        assert_eq!(info.samplers[&0], TextureType::Texture2D);
        assert!(info.sampled.contains(&0));
        assert!(
            info.derivatives,
            "an implicit-level sample in a pixel shader"
        );
        assert!(info.reads(reg(T::Const, 1)));
        assert!(info.writes(reg(T::ColorOut, 0)));
        assert!(!info.discards && !info.has_subroutines());
        assert_eq!(info.main, 0..5);
        assert_eq!(info.items, vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn subroutines_calls_and_loops() {
        let all = WriteMask::ALL;
        let relative = SrcParam {
            relative: Some(Relative::Token(RelativeToken::new(reg(T::Loop, 0), 0))),
            ..src(T::Const, 0)
        };
        let s = shader(
            Version::vs(2, 0),
            vec![
                inst(
                    Opcode::DefI,
                    dst(T::ConstInt, 0, all),
                    &[],
                    Extra::DefI([2, 0, 1, 0]),
                ),
                inst(
                    Opcode::Dcl,
                    dst(T::Input, 0, all),
                    &[],
                    Extra::Dcl(DclToken::usage(DeclUsage::Position, 0)),
                ),
                inst(
                    Opcode::Mov,
                    dst(T::RastOut, 0, all),
                    &[src(T::Input, 0)],
                    Extra::None,
                ),
                inst(
                    Opcode::Loop,
                    None,
                    &[src(T::Loop, 0), src(T::ConstInt, 0)],
                    Extra::None,
                ),
                inst(Opcode::Call, None, &[src(T::Label, 1)], Extra::None),
                inst(Opcode::EndLoop, None, &[], Extra::None),
                inst(Opcode::Ret, None, &[], Extra::None),
                inst(Opcode::Label, None, &[src(T::Label, 1)], Extra::None),
                inst(
                    Opcode::Add,
                    dst(T::Temp, 0, all),
                    &[src(T::Input, 0), relative],
                    Extra::None,
                ),
                inst(Opcode::Ret, None, &[], Extra::None),
            ],
        );
        let info = analyze(&s).unwrap_or_else(|r| panic!("{:?}", r.diagnostics));
        assert_eq!(info.max_loop_depth, 1);
        assert_eq!(info.calls[&None], BTreeSet::from([1]));
        assert!(info.has_subroutines());
        assert_eq!(info.main, 0..7);
        assert_eq!(info.subroutines[&1], 8..10);
        assert!(info.relative.contains(&T::Const));
        assert!(info.read.contains(&(T::Loop, 0)));
        assert_eq!(info.inputs[&(T::Input, 0)][0].usage, DeclUsage::Position);
    }
}
