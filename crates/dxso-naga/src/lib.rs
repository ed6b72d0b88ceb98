//! # dxso-naga
//!
//! Translates a Direct3D 9 shader ([`dxso::Shader`]) into a [`naga::Module`] with one entry
//! point, and from there into WGSL, SPIR-V, GLSL, GLSL ES, MSL and HLSL through naga's
//! writers. Every module passes naga's validator before it is written.
//!
//! ```
//! let shader = dxso::decode(&dxso::encode(&dxso::Shader::new(dxso::Version::ps(2, 0))))?;
//! let translation = dxso_naga::translate(&shader, &dxso_naga::Options::default())?;
//! let wgsl = translation.write(dxso_naga::Target::Wgsl, &Default::default())?;
//! assert!(wgsl.text().unwrap().contains("@fragment"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! What each instruction computes follows `docs/SEMANTICS.md`, the definition the CPU
//! executor (`dxso-exec`) follows too; the choices it makes where Direct3D 9 leaves room are
//! collected in one module of this crate. Where a translated shader finds its inputs,
//! outputs, constants and textures is documented in [`layout`]; [`Reflection`] says it per
//! shader, and [`Translation::write_with_bindings`] in each target's terms
//! ([`TargetReflection`]).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod arith;
mod back;
mod bindings;
mod body;
mod dest;
mod entry;
mod flow;
mod func;
mod hoist;
pub mod layout;
mod live;
mod module;
mod options;
mod products;
mod reflect;
mod semantics;
mod source;
mod texture;

pub use back::{validator, Output, Target, WriteOptions, GLSL_ES_VERSIONS, GLSL_VERSIONS};
pub use bindings::{TargetBinding, TargetReflection, TargetVarying};
pub use options::{ClipSpace, DepthRange, Options, Ps1Range};
pub use reflect::{Reflection, SamplerBinding, Slot, Stage, Varying};

use body::{Body, Regs};
use dxso::{Opcode, RegisterType, Shader, TextureType, Version};
use naga::FastHashMap as HashMap;
use std::cell::RefCell;

/// Why a shader could not be translated or written.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An instruction the translation cannot express.
    #[error("item {item} ({opcode}): {rule}")]
    Instruction {
        /// The index of the instruction in [`Shader::items`].
        item: usize,
        /// Its mnemonic.
        opcode: &'static str,
        /// The rule it breaks.
        rule: &'static str,
    },
    /// An input or output register beyond what the stage interface holds.
    #[error("register {register} is beyond the stage interface")]
    Register {
        /// The register as written in assembly.
        register: String,
    },
    /// Two inputs or two outputs with the same meaning (usage and index), so the same slot.
    #[error("registers {first} and {second} have the same usage and index (one varying slot)")]
    SharedSlot {
        /// The first register as written in assembly.
        first: String,
        /// The second.
        second: String,
    },
    /// The shader is not valid: the validator's findings (the first error is shown).
    #[error("the shader is not valid: {}", first_error(.0))]
    Invalid(Box<dxso::Report>),
    /// The shader's version is not one of vs_1_1..vs_3_0, ps_1_1..ps_3_0 or a software version.
    #[error("version {0} is not translated")]
    Version(String),
    /// naga's validator rejected the module: a bug in the translation.
    #[error("naga validation failed: {0}")]
    Validation(String),
    /// A naga writer failed.
    #[error("{target} writer: {message}")]
    Write {
        /// The target.
        target: &'static str,
        /// naga's message.
        message: String,
    },
}

impl Error {
    pub(crate) fn at(item: usize, opcode: Opcode, rule: &'static str) -> Self {
        Error::Instruction {
            item,
            opcode: opcode.info().mnemonic,
            rule,
        }
    }
}

/// A translated shader: the naga module, its validation info and its reflection.
#[derive(Debug)]
pub struct Translation {
    /// The module, with one entry point.
    pub module: naga::Module,
    /// naga's validation result for the module.
    pub info: naga::valid::ModuleInfo,
    /// Where the entry point's inputs, outputs and resources are.
    pub reflection: Reflection,
}

/// What the lowering knows about the whole shader.
pub(crate) struct Plan<'a> {
    pub(crate) version: Version,
    pub(crate) options: &'a Options,
    /// The shader's analysis, from its validation.
    pub(crate) info: dxso::ShaderInfo,
    /// Which temporary components are read again after each instruction of main.
    pub(crate) live: live::Liveness,
    pub(crate) stage: Stage,
    pub(crate) float_constants: u32,
    /// `def` registers and values, ascending.
    pub(crate) defs_sorted: Vec<(u32, [u32; 4])>,
    /// Subroutines already built, by label.
    pub(crate) functions: RefCell<HashMap<u32, naga::Handle<naga::Function>>>,
}

impl Plan<'_> {
    /// The register a source of file `ty` index `n` reads.
    pub(crate) fn source_reg(&self, ty: RegisterType, n: u32) -> body::Reg {
        let v = self.version;
        if v.is_pixel() && ty == RegisterType::Addr && !(v.major < 2 && v.minor < 4) {
            return body::Reg::TexCoord(n);
        }
        body::Reg::File(ty, n)
    }

    /// A `def` value as the shader reads it (ps_1_x clamps constants to [-1, 1]).
    pub(crate) fn def_value(&self, bits: [u32; 4]) -> [u32; 4] {
        match semantics::ps1_constant_range(self.version) {
            Some(m) => bits.map(|b| f32::from_bits(b).clamp(-m, m).to_bits()),
            None => bits,
        }
    }

    /// The texture type sampler `n` samples.
    pub(crate) fn sampler_type(&self, n: u32) -> TextureType {
        let v = self.version;
        if v.is_pixel() && v.major < 2 {
            return self
                .options
                .ps1_texture_types
                .get(n as usize)
                .copied()
                .unwrap_or(TextureType::Texture2D);
        }
        match self.info.samplers.get(&n) {
            Some(TextureType::Cube) => TextureType::Cube,
            Some(TextureType::Volume) => TextureType::Volume,
            _ => TextureType::Texture2D,
        }
    }
}

/// The first error of a report, as the validator prints it.
fn first_error(report: &dxso::Report) -> String {
    report
        .errors()
        .next()
        .map_or_else(|| "no error".to_string(), ToString::to_string)
}

/// The hardware version a software version behaves as (`vs_2_sw` as `vs_2_x`, `vs_3_sw` as
/// `vs_3_0`, the same for pixel shaders); other versions unchanged. Only the constant file
/// differs, and the translation's constant buffer has the hardware size whatever the version:
/// a software shader reading a float constant past it is refused with a typed error.
fn hardware_version(v: dxso::Version) -> dxso::Version {
    match (v.is_software(), v.major) {
        (true, 2) => dxso::Version::new(v.kind, 2, 1),
        (true, 3) => dxso::Version::new(v.kind, 3, 0),
        _ => v,
    }
}

/// Translates `shader` into a validated naga module. The shader must be valid
/// ([`dxso::analyze`] decides, and its analysis drives the translation); an invalid one gives
/// [`Error::Invalid`]. Software versions translate as the hardware version they extend.
///
/// A caller translating many shaders keeps a [`Translator`] instead, which reuses naga's
/// validator between them.
pub fn translate(shader: &Shader, options: &Options) -> Result<Translation, Error> {
    Translator::new().translate(shader, options)
}

/// Translates shaders one after another, keeping what can be reused between them (naga's
/// validator and its tables' allocations). One per thread: it is `Send`, not shared.
pub struct Translator {
    validator: naga::valid::Validator,
}

impl Default for Translator {
    fn default() -> Self {
        Translator::new()
    }
}

impl std::fmt::Debug for Translator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Translator").finish_non_exhaustive()
    }
}

impl Translator {
    /// A translator with naga's validator configured as [`validator`] says.
    pub fn new() -> Self {
        Translator {
            validator: back::validator(),
        }
    }

    /// Translates `shader` as [`translate`] does.
    pub fn translate(&mut self, shader: &Shader, options: &Options) -> Result<Translation, Error> {
        translate_with(&mut self.validator, shader, options)
    }
}

fn translate_with(
    validator: &mut naga::valid::Validator,
    shader: &Shader,
    options: &Options,
) -> Result<Translation, Error> {
    let v = hardware_version(shader.version);
    let known = matches!(
        (v.kind, v.major, v.minor),
        (dxso::ShaderKind::Vertex, 1, 1)
            | (dxso::ShaderKind::Vertex, 2, 0 | 1)
            | (dxso::ShaderKind::Vertex, 3, 0)
            | (dxso::ShaderKind::Pixel, 1, 0..=4)
            | (dxso::ShaderKind::Pixel, 2, 0 | 1)
            | (dxso::ShaderKind::Pixel, 3, 0)
    );
    if !known {
        return Err(Error::Version(v.to_string()));
    }
    let info = dxso::analyze(shader).map_err(|report| Error::Invalid(Box::new(report)))?;
    let insts: Vec<(usize, &dxso::Instruction)> = info
        .items
        .iter()
        .copied()
        .zip(shader.instructions())
        .collect();
    let stage = match (v.is_vertex(), options.vertex_as_compute) {
        (true, true) => Stage::Compute,
        (true, false) => Stage::Vertex,
        (false, _) => Stage::Fragment,
    };
    let group = options
        .bind_group
        .unwrap_or(if v.is_vertex() { 0 } else { 1 });
    let defs_sorted: Vec<(u32, [u32; 4])> = info.float_defs.iter().map(|(&k, &v)| (k, v)).collect();
    let live = live::liveness(v, &insts, info.main.clone());
    let plan = Plan {
        live,
        defs_sorted,
        version: v,
        options,
        float_constants: layout::float_constants(v.is_vertex()),
        info,
        stage,
        functions: RefCell::new(HashMap::default()),
    };
    let mut m = module::ModuleCtx::new(group, v.is_vertex(), constant_members(&plan));
    let mut regs = Regs {
        private: plan.info.has_subroutines(),
        ..Regs::default()
    };
    for label in call_order(&plan.info).map_err(|rule| Error::at(0, Opcode::Call, rule))? {
        let range = plan.info.subroutines[&label].clone();
        let mut body = Body::new(&mut m, &plan, &mut regs, &format!("l{label}"));
        body.declare_arrays();
        body.lower(&insts[range], &mut |b| {
            b.exit_stmt(naga::Statement::Return { value: None })
        })?;
        body.exit_stmt(naga::Statement::Return { value: None })?;
        let f = body.func.finish();
        let h = m.module.functions.append(f, naga::Span::UNDEFINED);
        plan.functions.borrow_mut().insert(label, h);
    }
    let inputs = entry::inputs(&plan)?;
    let outputs = entry::outputs(&plan)?;
    let mut body = Body::new(&mut m, &plan, &mut regs, &options.entry_point);
    body.declare_arrays();
    let interface = body.prologue(inputs, outputs)?;
    let members = used_members(&plan);
    body.prepare_members(&members);
    body.lower(&insts[plan.info.main.clone()], &mut |b| {
        b.epilogue(&interface)
    })?;
    body.epilogue(&interface)?;
    body.set_result(&interface);
    let function = body.func.finish();
    let naga_stage = match stage {
        Stage::Vertex => naga::ShaderStage::Vertex,
        Stage::Fragment => naga::ShaderStage::Fragment,
        Stage::Compute => naga::ShaderStage::Compute,
    };
    m.module.entry_points.push(naga::EntryPoint {
        name: options.entry_point.clone(),
        stage: naga_stage,
        early_depth_test: None,
        workgroup_size: if stage == Stage::Compute {
            [layout::COMPUTE_WORKGROUP_SIZE, 1, 1]
        } else {
            [0, 0, 0]
        },
        workgroup_size_overrides: None,
        function,
        mesh_info: None,
        task_payload: None,
        incoming_ray_payload: None,
    });
    let reflection = reflect_of(&plan, &m, &interface, group);
    let module = m.module;
    let info = back::validate(validator, &module)?;
    Ok(Translation {
        module,
        info,
        reflection,
    })
}

/// The constant-buffer members the main program reads, prepared in its first block.
/// How many leading members of the constant buffer the shader may read (1 `c` .. 6
/// `viewport`, in [`body::Body::member`]'s numbering).
fn constant_members(plan: &Plan) -> usize {
    let s = &plan.info;
    let reads = |ty| s.read.iter().any(|&(t, _)| t == ty);
    if plan.options.clip.half_pixel_offset && plan.stage != Stage::Compute {
        6
    } else if !s.bump_stages.is_empty() {
        5
    } else if reads(RegisterType::ConstBool) {
        3
    } else if reads(RegisterType::ConstInt) {
        2
    } else {
        1
    }
}

fn used_members(plan: &Plan) -> Vec<u32> {
    let s = &plan.info;
    let mut out = Vec::new();
    let floats = s
        .read
        .iter()
        .any(|&(t, n)| t == RegisterType::Const && !s.float_defs.contains_key(&n));
    if floats || s.relative.contains(&RegisterType::Const) {
        out.push(0);
    }
    if s.read
        .iter()
        .any(|&(t, n)| t == RegisterType::ConstInt && !s.int_defs.contains_key(&n))
    {
        out.push(1);
    }
    if s.read
        .iter()
        .any(|&(t, n)| t == RegisterType::ConstBool && !s.bool_defs.contains_key(&n))
    {
        out.push(2);
    }
    out
}

/// Subroutines in the order naga needs: callees before callers. `Err` on recursion.
fn call_order(info: &dxso::ShaderInfo) -> Result<Vec<u32>, &'static str> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Visiting,
        Done,
    }
    fn visit(
        l: u32,
        info: &dxso::ShaderInfo,
        marks: &mut HashMap<u32, Mark>,
        out: &mut Vec<u32>,
        depth: usize,
    ) -> Result<(), &'static str> {
        match marks.get(&l) {
            Some(Mark::Done) => return Ok(()),
            Some(Mark::Visiting) => return Err("recursive subroutine call"),
            None => {}
        }
        if depth > 64 {
            return Err("subroutine calls nested too deeply");
        }
        marks.insert(l, Mark::Visiting);
        if let Some(callees) = info.calls.get(&Some(l)) {
            for &c in callees {
                visit(c, info, marks, out, depth + 1)?;
            }
        }
        marks.insert(l, Mark::Done);
        out.push(l);
        Ok(())
    }
    let mut marks = HashMap::default();
    let mut out = Vec::new();
    if let Some(callees) = info.calls.get(&None) {
        for &c in callees {
            visit(c, info, &mut marks, &mut out, 0)?;
        }
    }
    Ok(out)
}

fn reflect_of(
    plan: &Plan,
    m: &module::ModuleCtx,
    interface: &entry::Interface,
    group: u32,
) -> Reflection {
    let s = &plan.info;
    let set = |ty: RegisterType, defined: &dyn Fn(u32) -> bool| -> Vec<u32> {
        s.read
            .iter()
            .filter(|&&(t, n)| t == ty && !defined(n))
            .map(|&(_, n)| n)
            .collect()
    };
    let mut samplers: Vec<SamplerBinding> = m
        .images
        .iter()
        .map(|(&n, &(_, _, texture_type))| SamplerBinding {
            sampler: n,
            texture_type,
            texture_binding: layout::texture_binding(n),
            sampler_binding: layout::sampler_binding(n),
        })
        .collect();
    samplers.sort_by_key(|s| s.sampler);
    let mut inputs: Vec<Varying> = Vec::new();
    for i in &interface.inputs {
        if !inputs.contains(&i.varying) {
            inputs.push(i.varying);
        }
    }
    Reflection {
        stage: plan.stage,
        entry_point: plan.options.entry_point.clone(),
        bind_group: group,
        inputs,
        outputs: interface.outputs.iter().map(|o| o.varying).collect(),
        float_constants: set(RegisterType::Const, &|n| s.float_defs.contains_key(&n)),
        float_constants_relative: s.relative.contains(&RegisterType::Const),
        int_constants: set(RegisterType::ConstInt, &|n| s.int_defs.contains_key(&n)),
        bool_constants: set(RegisterType::ConstBool, &|n| s.bool_defs.contains_key(&n)),
        bump_stages: s.bump_stages.iter().copied().collect(),
        samplers,
        discards: s.discards,
        derivatives: s.derivatives,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxso::{DstParam, Extra, Instruction, Item, Register, SrcParam, Swizzle, WriteMask};

    #[test]
    fn def_values_naga_has_no_literal_for_translate_to_every_target() {
        let mut s = Shader::new(Version::ps(2, 0));
        let c0 = Register::new(RegisterType::Const, 0);
        let mut def = Instruction::new(Opcode::Def);
        def.dst = Some(DstParam::new(c0, WriteMask::ALL));
        def.extra = Extra::Def([
            f32::NAN.to_bits(),
            f32::INFINITY.to_bits(),
            f32::NEG_INFINITY.to_bits(),
            1.0f32.to_bits(),
        ]);
        s.items.push(Item::Instruction(def));
        // The whole vector, then one component (read as a scalar).
        for (mask, swizzle) in [
            (WriteMask::ALL, Swizzle::IDENTITY),
            (WriteMask::X, Swizzle::Y),
        ] {
            let mut mov = Instruction::new(Opcode::Mov);
            mov.dst = Some(DstParam::new(
                Register::new(RegisterType::ColorOut, 0),
                mask,
            ));
            mov.srcs =
                dxso::Sources::from_slice(&[SrcParam::new(c0, swizzle)]).expect("one source");
            s.items.push(Item::Instruction(mov));
        }
        let t = translate(&s, &Options::default()).expect("translates and validates");
        for target in Target::ALL {
            t.write(target, &WriteOptions::default())
                .unwrap_or_else(|e| panic!("{}: {e}", target.name()));
        }
    }

    #[test]
    fn software_versions_translate_as_their_hardware_version() {
        for kind in [dxso::ShaderKind::Vertex, dxso::ShaderKind::Pixel] {
            for major in [2, 3] {
                let s = Shader::new(Version::new(kind, major, Version::SOFTWARE_MINOR));
                let t = translate(&s, &Options::default())
                    .unwrap_or_else(|e| panic!("{}: {e}", s.version));
                assert_eq!(t.module.entry_points.len(), 1);
            }
        }
    }

    #[test]
    fn software_constants_past_the_buffer_are_a_typed_error() {
        let mut s = Shader::new(Version::vs(2, Version::SOFTWARE_MINOR));
        let mut mov = Instruction::new(Opcode::Mov);
        mov.dst = Some(DstParam::new(
            Register::new(RegisterType::RastOut, 0),
            WriteMask::ALL,
        ));
        mov.srcs = dxso::Sources::from_slice(&[SrcParam::new(
            Register::new(RegisterType::Const, 300),
            Swizzle::IDENTITY,
        )])
        .expect("one source");
        s.items.push(Item::Instruction(mov));
        match translate(&s, &Options::default()) {
            Err(Error::Instruction { rule, .. }) => {
                assert_eq!(rule, "float constant register beyond the constant buffer")
            }
            other => panic!("expected a typed refusal, got {other:?}"),
        }
    }

    fn mov(dst: Register, src: SrcParam) -> Item {
        let mut mov = Instruction::new(Opcode::Mov);
        mov.dst = Some(DstParam::new(dst, WriteMask::ALL));
        mov.srcs = dxso::Sources::from_slice(&[src]).expect("one source");
        Item::Instruction(mov)
    }

    #[test]
    fn output_registers_read_as_sources_are_a_typed_error() {
        let r0 = Register::new(RegisterType::Temp, 0);
        let cases = [
            (
                Version::ps(3, 0),
                Register::new(RegisterType::DepthOut, 0),
                Swizzle::X,
            ),
            (
                Version::ps(3, 0),
                Register::new(RegisterType::DepthOut, 0),
                Swizzle::IDENTITY,
            ),
            (
                Version::ps(2, 0),
                Register::new(RegisterType::ColorOut, 0),
                Swizzle::IDENTITY,
            ),
            (
                Version::vs(2, 0),
                Register::new(RegisterType::RastOut, 0),
                Swizzle::IDENTITY,
            ),
            (
                Version::vs(1, 1),
                Register::new(RegisterType::AttrOut, 0),
                Swizzle::replicate(1),
            ),
        ];
        for (version, output, swizzle) in cases {
            let mut s = Shader::new(version);
            s.items.push(mov(r0, SrcParam::new(output, swizzle)));
            // The validator refuses the read before the translation sees it; the translation's
            // own check (OUTPUT_READ) stands behind it.
            match translate(&s, &Options::default()) {
                Err(Error::Invalid(report)) => assert!(!report.is_valid()),
                Err(Error::Instruction { rule, .. }) => assert_eq!(rule, source::OUTPUT_READ),
                other => {
                    panic!("{version} reading {output:?}: expected a typed refusal, got {other:?}")
                }
            }
        }
    }
}

// The README's examples run as doctests, so the crate's front page stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
