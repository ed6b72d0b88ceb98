use crate::input::InputArg;
use crate::output::OutputArg;
use crate::session::Session;
use anyhow::{Context, Result};
use dxso_naga::layout::{ConstantBufferLayout, Resource};
use dxso_naga::{Options, Reflection, Slot, Target, TargetBinding, TargetReflection, WriteOptions};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::process::ExitCode;

/// Translate a shader to WGSL, SPIR-V, GLSL, GLSL ES, MSL or HLSL (through a naga module).
///
/// Reads raw bytecode, fxc /Fh C headers and assembly text (assembled first). The module is
/// validated by naga before it is written. Inputs, outputs, constants and textures are where
/// dxso-naga's layout puts them (its crate documentation; `--reflect` prints them for one
/// shader): one bind group (0 for vertex shaders, 1 for pixel shaders), the constant buffer at
/// binding 0, texture and sampler of s<n> at 1 + 2n and 2 + 2n, varyings at locations by usage.
/// `--reflect` also says where the --to target's code binds each resource (GLSL before 4.20 and
/// GLSL ES 3.00: by name), with the CTAB constants (name, type, registers, default) beside.
/// `spirv` is binary (refused on a terminal without `-o -`); `spirv-asm` is its disassembly.
/// Under --json: `{"target", "code" (or "words" for spirv), "reflection"}`.
///
/// Examples:
///   dxso translate shader.dxso --to wgsl
///   dxso translate shader.asm --to glsl -o shader.frag
///   dxso translate shader.dxso --to spirv -o shader.spv
///   dxso translate shader.dxso --to spirv-asm
///   dxso translate shader.dxso --reflect          (locations, constants, samplers)
///   dxso translate vs.dxso --to hlsl --vertex-as-compute --json
///
/// Exit status: 0 on success, 1 when the input cannot be decoded or assembled, or the
/// translation fails, 2 on usage and I/O errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    input: InputArg,
    #[command(flatten)]
    output: OutputArg,
    /// The language to write.
    #[arg(long, value_enum, default_value_t = To::Wgsl)]
    to: To,
    /// Print where the inputs, outputs, constants and samplers are instead of the code.
    #[arg(long)]
    reflect: bool,
    /// Emit a vertex shader as a compute entry point over storage buffers.
    #[arg(long)]
    vertex_as_compute: bool,
    /// The bind group of every resource (default: 0 vertex, 1 pixel).
    #[arg(long, value_name = "N")]
    bind_group: Option<u32>,
    /// Move the position by half a pixel (Direct3D 9's pixel centres) using the constant
    /// buffer's viewport member.
    #[arg(long)]
    half_pixel_offset: bool,
    /// Desktop GLSL version for --to glsl (140, 150, 330, 400-460).
    #[arg(long, default_value_t = 450, value_parser = glsl_version)]
    glsl_version: u16,
    /// GLSL ES version for --to glsl-es (300, 310, 320).
    #[arg(long, default_value_t = 310, value_parser = glsl_es_version)]
    glsl_es_version: u16,
    /// Write the position in naga's (Direct3D's) clip space even for SPIR-V and GLSL, instead
    /// of flipping y for Vulkan and remapping depth for OpenGL.
    #[arg(long)]
    keep_coordinate_space: bool,
    #[command(flatten)]
    float_rules: crate::float_rules::FloatRuleArgs,
    #[command(flatten)]
    runtime: super::validate::RuntimeArg,
}

fn version_in(s: &str, known: &[u16]) -> std::result::Result<u16, String> {
    s.parse::<u16>()
        .ok()
        .filter(|v| known.contains(v))
        .ok_or_else(|| format!("dxso writes versions {known:?}"))
}

/// `--glsl-version`: one of the desktop versions dxso writes.
fn glsl_version(s: &str) -> std::result::Result<u16, String> {
    version_in(s, &dxso_naga::GLSL_VERSIONS)
}

/// `--glsl-es-version`: one of the GLSL ES versions dxso writes.
fn glsl_es_version(s: &str) -> std::result::Result<u16, String> {
    version_in(s, &dxso_naga::GLSL_ES_VERSIONS)
}

/// `--to`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum To {
    Wgsl,
    Spirv,
    SpirvAsm,
    Glsl,
    GlslEs,
    Msl,
    Hlsl,
}

impl To {
    fn target(self) -> Target {
        match self {
            To::Wgsl => Target::Wgsl,
            To::Spirv | To::SpirvAsm => Target::SpirV,
            To::Glsl => Target::Glsl,
            To::GlslEs => Target::GlslEs,
            To::Msl => Target::Msl,
            To::Hlsl => Target::Hlsl,
        }
    }

    fn name(self) -> &'static str {
        match self {
            To::SpirvAsm => "spirv-asm",
            t => t.target().name(),
        }
    }
}

/// The SPIR-V words as text (rspirv's disassembler).
fn disassemble(words: &[u32]) -> Result<String> {
    use rspirv::binary::Disassemble;
    let module = rspirv::dr::load_words(words)
        .map_err(|e| anyhow::anyhow!("reading back the SPIR-V: {e}"))?;
    Ok(module.disassemble() + "\n")
}

fn slot_name(slot: Slot) -> String {
    match slot {
        Slot::Location(l) => format!("location {l}"),
        Slot::Position => "built-in position".into(),
        Slot::FrontFacing => "built-in front_facing".into(),
        Slot::FragDepth => "built-in frag_depth".into(),
    }
}

/// The CTAB constants a resource holds: the float, int and bool constants for the constant
/// buffer, the sampler constants covering `s<n>` for its texture and sampler state.
fn ctab_of(
    resource: Resource,
    ctab: &[dxso::ctab::Constant],
) -> impl Iterator<Item = &dxso::ctab::Constant> {
    use dxso::ctab::RegisterSet;
    ctab.iter().filter(move |c| match (resource, c.register_set()) {
        (Resource::Constants, Some(RegisterSet::Float4 | RegisterSet::Int4 | RegisterSet::Bool)) => {
            true
        }
        (Resource::Texture(n) | Resource::Sampler(n), Some(RegisterSet::Sampler)) => {
            let first = u32::from(c.register_index);
            (first..first + u32::from(c.register_count.max(1))).contains(&n)
        }
        _ => false,
    })
}

fn resource_name(r: Resource) -> String {
    match r {
        Resource::Constants => "constants".into(),
        Resource::Texture(n) => format!("texture s{n}"),
        Resource::Sampler(n) => format!("sampler s{n}"),
        Resource::Inputs => "inputs".into(),
        Resource::Outputs => "outputs".into(),
    }
}

/// A CTAB constant: its name, HLSL type, registers (`c4..c7`) and default value.
struct CtabEntry {
    name: String,
    ty: String,
    registers: String,
    /// The byte offset of the first register in the constant buffer.
    offset: Option<u32>,
    default: Option<Vec<f32>>,
}

fn ctab_entry(c: &dxso::ctab::Constant, l: &ConstantBufferLayout) -> CtabEntry {
    use dxso::ctab::RegisterSet;
    let set = c.register_set();
    let prefix = set.map_or("?", |s| s.prefix());
    let first = u32::from(c.register_index);
    let last = first + u32::from(c.register_count.max(1)) - 1;
    let registers = if last == first {
        format!("{prefix}{first}")
    } else {
        format!("{prefix}{first}..{prefix}{last}")
    };
    let mut ty = String::new();
    dxso_text::print::header::write_type_name(&mut ty, &c.ty);
    if c.ty.elements > 1 {
        ty.push_str(&format!("[{}]", c.ty.elements));
    }
    // Where the first register sits in the constant buffer (layout's table).
    let offset = match set {
        Some(RegisterSet::Float4) if first < l.float_count => Some(l.floats + 16 * first),
        Some(RegisterSet::Int4) if first < dxso_naga::layout::INT_CONSTANTS => {
            Some(l.ints + 16 * first)
        }
        Some(RegisterSet::Bool) if first < dxso_naga::layout::BOOL_CONSTANTS => {
            Some(l.bools + 4 * first)
        }
        _ => None,
    };
    CtabEntry {
        name: c.name.as_str().into_owned(),
        ty,
        registers,
        offset,
        default: c
            .default_value
            .as_ref()
            .map(|d| d.iter().map(|&w| f32::from_bits(w)).collect()),
    }
}

fn bindings_json(
    bindings: &[TargetBinding],
    ctab: &[dxso::ctab::Constant],
    l: &ConstantBufferLayout,
) -> Value {
    bindings
        .iter()
        .map(|b| {
            json!({
                "resource": resource_name(b.resource),
                "group": b.group,
                "binding": b.binding,
                "place": b.place,
                "name": b.name,
                "ctab": ctab_of(b.resource, ctab).map(|c| {
                    let e = ctab_entry(c, l);
                    json!({"name": e.name, "type": e.ty, "registers": e.registers, "offset": e.offset, "default": e.default})
                }).collect::<Vec<_>>(),
            })
        })
        .collect()
}

fn bindings_text(
    out: &mut String,
    what: &str,
    placed: &TargetReflection,
    ctab: &[dxso::ctab::Constant],
    l: &ConstantBufferLayout,
) -> Result<()> {
    writeln!(out, "  in {what}:")?;
    for v in &placed.varyings {
        write!(
            out,
            "    {:<12} location {}: {}",
            if v.output { "output" } else { "input" },
            v.location,
            v.place
        )?;
        match &v.name {
            Some(n) => writeln!(out, " `{n}`")?,
            None => writeln!(out)?,
        }
    }
    for b in &placed.bindings {
        write!(
            out,
            "    {:<12} group {} binding {}: {}",
            resource_name(b.resource),
            b.group,
            b.binding,
            b.place
        )?;
        match &b.name {
            Some(n) => writeln!(out, " `{n}`")?,
            None => writeln!(out)?,
        }
        for c in ctab_of(b.resource, ctab) {
            let e = ctab_entry(c, l);
            write!(out, "      {} {} : {}", e.ty, e.name, e.registers)?;
            if let Some(o) = e.offset {
                write!(out, " (offset {o})")?;
            }
            // Long defaults in short: all zero, or the first register and the count (--json
            // gives them all).
            match e.default {
                Some(d) if d.iter().all(|&x| x == 0.0) => writeln!(out, " = 0")?,
                Some(d) if d.len() > 4 => {
                    writeln!(out, " = {:?}.. ({} values)", &d[..4], d.len())?
                }
                Some(d) => writeln!(out, " = {d:?}")?,
                None => writeln!(out)?,
            }
        }
    }
    Ok(())
}

fn reflection_json(r: &Reflection, version: dxso::Version) -> Value {
    let varyings = |v: &[dxso_naga::Varying]| -> Vec<Value> {
        v.iter()
            .map(|v| {
                json!({
                    "register": v.register.name(version),
                    "usage": v.usage.name(),
                    "usage_index": v.usage_index,
                    "slot": slot_name(v.slot),
                })
            })
            .collect()
    };
    let l = dxso_naga::layout::constant_buffer_layout(version.is_vertex());
    json!({
        "stage": format!("{:?}", r.stage).to_lowercase(),
        "entry_point": r.entry_point,
        "bind_group": r.bind_group,
        "inputs": varyings(&r.inputs),
        "outputs": varyings(&r.outputs),
        "constant_buffer": {
            "binding": dxso_naga::layout::CONSTANT_BUFFER_BINDING,
            "size": l.size,
            "float_offset": l.floats, "float_count": l.float_count,
            "int_offset": l.ints, "bool_offset": l.bools,
            "bumpenv_offset": l.bumpenv, "bumplum_offset": l.bumplum, "viewport_offset": l.viewport,
        },
        "float_constants": r.float_constants,
        "float_constants_relative": r.float_constants_relative,
        "int_constants": r.int_constants,
        "bool_constants": r.bool_constants,
        "bump_stages": r.bump_stages,
        "samplers": r.samplers.iter().map(|s| json!({
            "sampler": s.sampler,
            "texture_type": s.texture_type.name(),
            "texture_binding": s.texture_binding,
            "sampler_binding": s.sampler_binding,
        })).collect::<Vec<_>>(),
        "discards": r.discards,
        "derivatives": r.derivatives,
    })
}

fn reflection_text(r: &Reflection, version: dxso::Version) -> Result<String> {
    let mut out = String::new();
    writeln!(
        out,
        "{version}: {:?} entry point `{}`, bind group {}",
        r.stage, r.entry_point, r.bind_group
    )?;
    for (what, list) in [("input", &r.inputs), ("output", &r.outputs)] {
        for v in list {
            writeln!(
                out,
                "  {what:<7} {:<7} {}{:<3} {}",
                v.register.name(version),
                v.usage.name(),
                v.usage_index,
                slot_name(v.slot)
            )?;
        }
    }
    let l = dxso_naga::layout::constant_buffer_layout(version.is_vertex());
    writeln!(
        out,
        "  constants: binding {}, {} bytes (c at {}, i at {}, b at {}); reads c{:?}{}, i{:?}, b{:?}",
        dxso_naga::layout::CONSTANT_BUFFER_BINDING,
        l.size,
        l.floats,
        l.ints,
        l.bools,
        r.float_constants,
        if r.float_constants_relative { " and any by relative addressing" } else { "" },
        r.int_constants,
        r.bool_constants
    )?;
    for s in &r.samplers {
        writeln!(
            out,
            "  sampler s{} {}: texture binding {}, sampler binding {}",
            s.sampler,
            s.texture_type.name(),
            s.texture_binding,
            s.sampler_binding
        )?;
    }
    Ok(out)
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        let inputs: Vec<&std::path::Path> = self.input.file.iter().map(|p| p.as_path()).collect();
        self.output.check(&inputs, &[])?;
        let (_, shader) = self.input.read_or_assemble(s)?;
        let shader = self.runtime.as_d3d9(shader)?;
        let name = self
            .input
            .file
            .as_ref()
            .map_or("<stdin>".to_string(), |f| f.display().to_string());
        let options = Options {
            vertex_as_compute: self.vertex_as_compute,
            bind_group: self.bind_group,
            ps1_range: self.float_rules.naga_range(),
            zero_times_anything: self.float_rules.zero_times_anything,
            clip: dxso_naga::ClipSpace {
                half_pixel_offset: self.half_pixel_offset,
                ..Default::default()
            },
            ..Options::default()
        };
        let t = dxso_naga::translate(&shader, &options).with_context(|| name.clone())?;
        let version = shader.version;
        let write = WriteOptions {
            glsl_version: self.glsl_version,
            glsl_es_version: self.glsl_es_version,
            adjust_coordinate_space: !self.keep_coordinate_space,
            ..WriteOptions::default()
        };
        let (code, placed) = t
            .write_with_bindings(self.to.target(), &write)
            .with_context(|| format!("{name}: writing {}", self.to.name()))?;
        // A table that cannot be read leaves the bindings without CTAB names.
        let ctab = match shader.constant_table() {
            Some(Ok(table)) => table.constants,
            _ => Vec::new(),
        };
        let cb = dxso_naga::layout::constant_buffer_layout(version.is_vertex());
        let what = match self.to {
            To::Glsl => format!("glsl {}", self.glsl_version),
            To::GlslEs => format!("glsl-es {}", self.glsl_es_version),
            t => t.name().to_string(),
        };
        if self.reflect && !s.json {
            let mut text = reflection_text(&t.reflection, version)?;
            bindings_text(&mut text, &what, &placed, &ctab, &cb)?;
            self.output.write_text(s, text.as_bytes())?;
            return Ok(ExitCode::SUCCESS);
        }
        if s.json {
            let mut reflection = reflection_json(&t.reflection, version);
            reflection["bindings"] = bindings_json(&placed.bindings, &ctab, &cb);
            reflection["varyings"] = placed
                .varyings
                .iter()
                .map(|v| {
                    json!({
                        "direction": if v.output { "output" } else { "input" },
                        "location": v.location,
                        "place": v.place,
                        "name": v.name,
                    })
                })
                .collect::<Vec<_>>()
                .into();
            let mut j = json!({ "target": self.to.name(), "reflection": reflection });
            match self.to {
                To::Glsl => j["glsl_version"] = json!(self.glsl_version),
                To::GlslEs => j["glsl_es_version"] = json!(self.glsl_es_version),
                _ => {}
            }
            match (self.to, code) {
                (_, _) if self.reflect => {}
                (To::SpirvAsm, dxso_naga::Output::Words(w)) => j["code"] = json!(disassemble(&w)?),
                (_, dxso_naga::Output::Words(w)) => j["words"] = json!(w),
                (_, dxso_naga::Output::Text(text)) => j["code"] = json!(text),
            }
            // The shared JSON style: pretty on a terminal, one line otherwise (files too).
            if self.output.is_stdout() {
                s.print_json(&j)?;
            } else {
                self.output.write_text(s, format!("{j}\n").as_bytes())?;
            }
            return Ok(ExitCode::SUCCESS);
        }
        match (self.to, code) {
            (To::SpirvAsm, dxso_naga::Output::Words(w)) => {
                self.output.write_text(s, disassemble(&w)?.as_bytes())?
            }
            (_, dxso_naga::Output::Words(w)) => {
                let bytes: Vec<u8> = w.iter().flat_map(|w| w.to_le_bytes()).collect();
                self.output.write_binary(s, &bytes)?
            }
            (_, dxso_naga::Output::Text(text)) => self.output.write_text(s, text.as_bytes())?,
        }
        Ok(ExitCode::SUCCESS)
    }
}
