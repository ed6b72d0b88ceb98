//! Validation and naga's writers.

use crate::bindings::{bindings, varyings, TargetReflection};
use crate::layout::Resource;
use crate::{Error, Reflection, Stage, Translation};
use naga::valid::{Capabilities, ValidationFlags, Validator};

/// An output language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// WGSL.
    Wgsl,
    /// SPIR-V words (binary).
    SpirV,
    /// GLSL for desktop OpenGL ([`WriteOptions::glsl_version`], default 4.50 core).
    Glsl,
    /// GLSL ES ([`WriteOptions::glsl_es_version`], default 3.10).
    GlslEs,
    /// Metal Shading Language.
    Msl,
    /// HLSL ([`WriteOptions::hlsl_shader_model`], default 5.1).
    Hlsl,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 6] = [
        Target::Wgsl,
        Target::SpirV,
        Target::Glsl,
        Target::GlslEs,
        Target::Msl,
        Target::Hlsl,
    ];

    /// The target's name (`wgsl`, `spirv`, `glsl`, `glsl-es`, `msl`, `hlsl`).
    pub const fn name(self) -> &'static str {
        match self {
            Target::Wgsl => "wgsl",
            Target::SpirV => "spirv",
            Target::Glsl => "glsl",
            Target::GlslEs => "glsl-es",
            Target::Msl => "msl",
            Target::Hlsl => "hlsl",
        }
    }
}

/// The desktop GLSL versions dxso writes ([`WriteOptions::glsl_version`]).
pub const GLSL_VERSIONS: [u16; 10] = [140, 150, 330, 400, 410, 420, 430, 440, 450, 460];
/// The GLSL ES versions dxso writes ([`WriteOptions::glsl_es_version`]).
pub const GLSL_ES_VERSIONS: [u16; 3] = [300, 310, 320];

/// Options of the writers.
#[derive(Clone, Debug, PartialEq)]
pub struct WriteOptions {
    /// Let the SPIR-V and GLSL writers convert naga's (Direct3D's) clip space to the target's:
    /// y flipped for Vulkan, depth remapped for OpenGL. On by default.
    pub adjust_coordinate_space: bool,
    /// Desktop GLSL version (default 450).
    pub glsl_version: u16,
    /// GLSL ES version (default 310).
    pub glsl_es_version: u16,
    /// HLSL shader model as (major, minor) (default 5.1).
    pub hlsl_shader_model: (u8, u8),
    /// SPIR-V version as (major, minor) (default 1.0).
    pub spirv_version: (u8, u8),
    /// Name SPIR-V objects (OpName); off by default so output does not depend on the build.
    pub spirv_debug_names: bool,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            adjust_coordinate_space: true,
            glsl_version: 450,
            glsl_es_version: 310,
            hlsl_shader_model: (5, 1),
            spirv_version: (1, 0),
            spirv_debug_names: false,
        }
    }
}

/// What a writer produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// Source text (every target but SPIR-V).
    Text(String),
    /// SPIR-V words.
    Words(Vec<u32>),
}

impl Output {
    /// The text, for text targets.
    pub fn text(&self) -> Option<&str> {
        match self {
            Output::Text(t) => Some(t),
            Output::Words(_) => None,
        }
    }

    /// The SPIR-V words, for [`Target::SpirV`].
    pub fn words(&self) -> Option<&[u32]> {
        match self {
            Output::Words(w) => Some(w),
            Output::Text(_) => None,
        }
    }

    /// The output as bytes (SPIR-V little-endian).
    pub fn into_bytes(self) -> Vec<u8> {
        match self {
            Output::Text(t) => t.into_bytes(),
            Output::Words(w) => w.iter().flat_map(|w| w.to_le_bytes()).collect(),
        }
    }
}

/// The validator configuration used for every module: every check, the uniformity analysis
/// included. naga's analysis checks barriers but (by design, in naga 30) not derivatives or
/// implicit-level sampling in fragment shaders; WGSL's rules, which tint applies, do, and the
/// translation moves those out of flow control where their operands allow (`hoist`).
pub fn validator() -> Validator {
    Validator::new(ValidationFlags::all(), Capabilities::empty())
}

/// Validates `module` with `validator` (which keeps its tables' allocations between modules;
/// `validate` resets it first).
pub(crate) fn validate(
    validator: &mut Validator,
    module: &naga::Module,
) -> Result<naga::valid::ModuleInfo, Error> {
    validator.validate(module).map_err(|e| {
        let mut message = e.as_inner().to_string();
        let mut source = std::error::Error::source(e.as_inner());
        while let Some(s) = source {
            message.push_str(": ");
            message.push_str(&s.to_string());
            source = s.source();
        }
        Error::Validation(message)
    })
}

fn write_err(target: Target) -> impl Fn(String) -> Error {
    move |message| Error::Write {
        target: target.name(),
        message,
    }
}

impl Translation {
    /// Writes the module in `target`'s language.
    pub fn write(&self, target: Target, options: &WriteOptions) -> Result<Output, Error> {
        self.write_with_bindings(target, options).map(|(o, _)| o)
    }

    /// Writes the module in `target`'s language, with where the code binds each resource and
    /// places each input and output.
    pub fn write_with_bindings(
        &self,
        target: Target,
        options: &WriteOptions,
    ) -> Result<(Output, TargetReflection), Error> {
        write(&self.module, &self.info, &self.reflection, target, options)
    }
}

fn naga_stage(stage: Stage) -> naga::ShaderStage {
    match stage {
        Stage::Vertex => naga::ShaderStage::Vertex,
        Stage::Fragment => naga::ShaderStage::Fragment,
        Stage::Compute => naga::ShaderStage::Compute,
    }
}

/// Writes a validated module.
pub(crate) fn write(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    reflection: &Reflection,
    target: Target,
    options: &WriteOptions,
) -> Result<(Output, TargetReflection), Error> {
    let err = write_err(target);
    let plain = |o: Output| {
        let r = TargetReflection {
            bindings: bindings(module, info, target, None),
            varyings: varyings(module, target, None),
        };
        (o, r)
    };
    let stage = naga_stage(reflection.stage);
    let entry = reflection.entry_point.clone();
    match target {
        Target::Wgsl => {
            naga::back::wgsl::write_string(module, info, naga::back::wgsl::WriterFlags::empty())
                .map(|t| plain(Output::Text(t)))
                .map_err(|e| err(e.to_string()))
        }
        Target::SpirV => {
            use naga::back::spv;
            let mut flags = spv::WriterFlags::empty();
            if options.adjust_coordinate_space {
                flags |= spv::WriterFlags::ADJUST_COORDINATE_SPACE;
            }
            if options.spirv_debug_names {
                flags |= spv::WriterFlags::DEBUG;
            }
            let opts = spv::Options {
                lang_version: options.spirv_version,
                flags,
                ..Default::default()
            };
            let pipeline = spv::PipelineOptions {
                shader_stage: stage,
                entry_point: entry,
            };
            spv::write_vec(module, info, &opts, Some(&pipeline))
                .map(|w| plain(Output::Words(w)))
                .map_err(|e| err(e.to_string()))
        }
        Target::Glsl | Target::GlslEs => {
            use naga::back::glsl;
            let (v, known) = if target == Target::Glsl {
                (options.glsl_version, &GLSL_VERSIONS[..])
            } else {
                (options.glsl_es_version, &GLSL_ES_VERSIONS[..])
            };
            if !known.contains(&v) {
                return Err(err(format!(
                    "version {v} is not one dxso writes ({known:?})"
                )));
            }
            let version = if target == Target::Glsl {
                glsl::Version::Desktop(options.glsl_version)
            } else {
                glsl::Version::new_gles(options.glsl_es_version)
            };
            let mut writer_flags = glsl::WriterFlags::empty();
            if options.adjust_coordinate_space {
                writer_flags |= glsl::WriterFlags::ADJUST_COORDINATE_SPACE;
            }
            let opts = glsl::Options {
                version,
                writer_flags,
                binding_map: glsl_binding_map(module),
                ..Default::default()
            };
            let pipeline = glsl::PipelineOptions {
                shader_stage: stage,
                entry_point: entry,
                multiview: None,
            };
            let mut out = String::with_capacity(text_capacity(module));
            let mut w = glsl::Writer::new(
                &mut out,
                module,
                info,
                &opts,
                &pipeline,
                naga::proc::BoundsCheckPolicies::default(),
            )
            .map_err(|e| err(e.to_string()))?;
            let names = w.write().map_err(|e| err(e.to_string()))?;
            if let glsl::Version::Desktop(v @ ..150) = version {
                // naga names a profile, which only GLSL 1.50 and later have.
                out = out.replacen(&format!("#version {v} core"), &format!("#version {v}"), 1);
            }
            let explicit = crate::bindings::glsl_has_bindings(target, v);
            let r = TargetReflection {
                bindings: bindings(module, info, target, Some((&names, explicit))),
                varyings: varyings(module, target, Some(version)),
            };
            Ok((Output::Text(out), r))
        }
        Target::Msl => {
            use naga::back::msl;
            let opts = msl::Options {
                lang_version: (2, 1),
                per_entry_point_map: [(entry.clone(), msl_resources(module))].into(),
                fake_missing_bindings: false,
                ..Default::default()
            };
            let pipeline = msl::PipelineOptions {
                entry_point: Some((stage, entry)),
                ..Default::default()
            };
            msl::write_string(module, info, &opts, &pipeline)
                .map(|(s, _)| plain(Output::Text(s)))
                .map_err(|e| err(e.to_string()))
        }
        Target::Hlsl => {
            use naga::back::hlsl;
            let sm = match options.hlsl_shader_model {
                (5, 0) => hlsl::ShaderModel::V5_0,
                (6, 0) => hlsl::ShaderModel::V6_0,
                _ => hlsl::ShaderModel::V5_1,
            };
            if reflection.bind_group >= u32::from(crate::layout::HLSL_SAMPLER_INDEX_SPACE) {
                return Err(err(format!(
                    "bind group {} is past the register spaces HLSL has beside the sampler \
                     index buffers' {}",
                    reflection.bind_group,
                    crate::layout::HLSL_SAMPLER_INDEX_SPACE
                )));
            }
            let (binding_map, sampler_buffer_binding_map) = hlsl_bindings(module);
            let opts = hlsl::Options {
                shader_model: sm,
                binding_map,
                sampler_buffer_binding_map,
                fake_missing_bindings: false,
                ..Default::default()
            };
            let pipeline = hlsl::PipelineOptions {
                entry_point: Some((stage, entry)),
            };
            let mut out = String::with_capacity(text_capacity(module));
            let mut w = hlsl::Writer::new(&mut out, &opts, &pipeline);
            w.write(module, info, None)
                .map_err(|e| err(e.to_string()))?;
            Ok(plain(Output::Text(out)))
        }
    }
}

/// A guess at the length of a written module, so the text grows without copies.
fn text_capacity(module: &naga::Module) -> usize {
    let exprs: usize = module
        .entry_points
        .iter()
        .map(|e| e.function.expressions.len())
        .sum();
    2048 + 48 * exprs
}

/// The resources of `module` (its bound globals), with their bindings.
fn resources(
    module: &naga::Module,
) -> impl Iterator<Item = (naga::ResourceBinding, Resource)> + '_ {
    module.global_variables.iter().filter_map(|(_, g)| {
        let rb = g.binding?;
        Some((rb, Resource::at(rb.binding)?))
    })
}

/// GLSL has no bind groups: textures and samplers become combined samplers, bound at the
/// sampler register number ([`Resource::glsl`]).
fn glsl_binding_map(module: &naga::Module) -> naga::back::glsl::BindingMap {
    resources(module).map(|(rb, r)| (rb, r.glsl())).collect()
}

/// Every resource at its MSL slot ([`Resource::msl`]).
fn msl_resources(module: &naga::Module) -> naga::back::msl::EntryPointResources {
    use naga::back::msl::{BindSamplerTarget, BindTarget, EntryPointResources};
    let mut out = EntryPointResources {
        sizes_buffer: Some(crate::layout::MSL_SIZES_BUFFER),
        ..Default::default()
    };
    for (rb, r) in resources(module) {
        let (kind, slot) = r.msl();
        let mut t = BindTarget {
            mutable: r == Resource::Outputs,
            ..Default::default()
        };
        match kind {
            "texture" => t.texture = Some(slot),
            "sampler" => t.sampler = Some(BindSamplerTarget::Resource(slot)),
            _ => t.buffer = Some(slot),
        }
        out.resources.insert(rb, t);
    }
    out
}

fn hlsl_target(space: u8, register: u32) -> naga::back::hlsl::BindTarget {
    naga::back::hlsl::BindTarget {
        space,
        register,
        binding_array_size: None,
        dynamic_storage_buffer_offsets_index: None,
        restrict_indexing: false,
    }
}

/// Every resource at its HLSL register ([`Resource::hlsl`]), and each group's sampler index
/// buffer.
fn hlsl_bindings(
    module: &naga::Module,
) -> (
    naga::back::hlsl::BindingMap,
    naga::back::hlsl::SamplerIndexBufferBindingMap,
) {
    let mut map = naga::back::hlsl::BindingMap::default();
    let mut samplers = naga::back::hlsl::SamplerIndexBufferBindingMap::default();
    for (rb, r) in resources(module) {
        let space = rb.group as u8;
        map.insert(rb, hlsl_target(space, r.hlsl().1));
        samplers.insert(
            naga::back::hlsl::SamplerIndexBufferKey { group: rb.group },
            hlsl_target(crate::layout::HLSL_SAMPLER_INDEX_SPACE, rb.group),
        );
    }
    (map, samplers)
}
