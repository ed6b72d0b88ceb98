mod compare;
mod names;

use crate::input::InputArg;
use crate::report::CliError;
use crate::session::Session;
use anyhow::{Context, Result};
use dxso_exec::{
    Dimension, InputRegister, Options, OutputRegister, Outputs, PixelShader, QuadBatch, Resources,
    Sampler, Texture, VertexBatch, VertexShader,
};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use names::Names;
use std::sync::Arc;

/// Run a shader on the CPU interpreter, the JIT or a Vulkan device and print its outputs
/// (docs/SEMANTICS.md defines every result).
///
/// Reads raw bytecode, fxc /Fh C headers and assembly text (assembled first). A vertex shader
/// runs once with the inputs given (registers not given read 0); a pixel shader runs one 2x2
/// quad with the same inputs in all four pixels and prints the first. Every output register
/// the shader writes is printed with four components (oPos, oD0, oT0, o0, oFog, oPts, oC0..oC3,
/// oDepth; ps_1_x prints its result r0 as oC0), and for pixel shaders whether texkill discarded
/// the pixel. Under --json: `{"outputs": {"oPos": [x, y, z, w], ...}, "discarded": false}`
/// (non-finite values as the strings "nan", "inf", "-inf"); with --vertices, a JSON array of
/// those, one per input set.
///
/// --input REG=x,y,z,w  (v0..v15, t0..t7, vPos, vFace; missing components are 0), or by the
///   semantic the shader's dcl gives: --input TEXCOORD0=0.5,0.5 (POSITION, NORMAL, COLOR1, ...;
///   no index means 0; ps_1_x-2_x read TEXCOORDn from tn and COLORn from vn, ps_3_0 VPOS, VFACE)
/// --const c0=x,y,z,w   --const i0=a,b,c,d   --const b0=true, or by the name in the shader's
///   constant table: --const WorldViewProj=... fills the constant's registers in order from
///   its first, four values per register (x, y, z, w; a column-major matrix gives its
///   columns, as fxc lays them out), at most four per register of its range; bool constants
///   take one true/false per register. A register form (c3, i0, b1) is read as the register.
/// --texture s0=FILE.png (RGBA8; also .dds: uncompressed RGBA8, R32F, RG32F, RGBA32F, R16F,
///                        RGBA16F, with mip levels, cube maps and volumes); the sampler by
///                        register or by its constant-table name (--texture DiffuseMap=wood.png)
/// --sampler s0=addressu=clamp,magfilter=linear,...  (by register or constant-table name)
///   D3DSAMPLERSTATETYPE names (addressu, addressv, addressw, bordercolor, magfilter,
///   minfilter, mipfilter, mipmaplodbias, maxmiplevel, srgbtexture) with D3D value names (wrap, mirror, clamp, border, mirroronce;
///   none, point, linear); also the texture stage states ps_1_x reads (bumpenvmat00, 01, 10,
///   11, bumpenvlscale, bumpenvloffset, texturetransformflags) and type=2d|cube|volume for
///   samplers the shader does not declare (ps_1_x).
///
/// Examples:
///   dxso run vs.asm --input v0=1,2,3,1 --const c0=1,0,0,0
///   dxso run ps.dxso --input t0=0.5,0.5 --texture s0=wood.png --sampler s0=magfilter=linear
///   dxso run skin.vso --const i0=4,0,1,0 --const b0=true --json
///   dxso run vs.asm --vertices vertices.json    ([{"v0": [1, 2, 3, 1]}, {"v0": [0, 0, 0, 1]}])
///   dxso run vs.asm --input v0=1,2,3,1 --engine vulkan   (the same outputs from a Vulkan
///                                             device; without one it says so and exits 1)
///   dxso run ps.dxso --compare interp,jit,vulkan   (every engine on the same inputs; prints
///                                             each difference by register and component)
///
/// --compare runs the listed engines on the same inputs and compares every output register
/// and component with the first engine's: bit for bit (NaN for NaN) between CPU engines,
/// within the tolerance of the shader's loosest operation class for Vulkan, NaN and infinity
/// only with themselves (docs/SEMANTICS.md section 16 lists where a GPU may differ). Vulkan
/// is skipped, with a note saying so, when there is no adapter. Under --json:
/// `{"engines": [...], "skipped": [...], "agree": bool, "comparisons": [{"left", "right",
/// "tolerance", "agree", "differences": [{"register", "invocation", "component", "left",
/// "right", "kind"}], "discards", "registers"}], "outputs": {ENGINE: result}}`.
///
/// Exit status: 0 when the shader ran (and, with --compare, the engines agree), 1 when the
/// input is bad (cannot be decoded, assembled or validated, a texture is not a PNG, an
/// invocation exceeds the budget, no Vulkan device for --engine vulkan) or the compared
/// engines differ, 2 on usage errors (a value that breaks its option's rule) and I/O errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    input: InputArg,
    /// An input register or semantic: REG=x,y,z,w or TEXCOORD0=x,y,z,w (repeatable).
    #[arg(long = "input", value_name = "REG=X,Y,Z,W")]
    inputs: Vec<String>,
    /// A constant by register or CTAB name: cN=x,y,z,w, iN=a,b,c,d, bN=true|false,
    /// NAME=v0,v1,... (repeatable).
    #[arg(long = "const", value_name = "REG=VALUES")]
    consts: Vec<String>,
    /// A texture: sN=FILE or SAMPLER=FILE (.png or .dds; repeatable).
    #[arg(long = "texture", value_name = "sN=FILE")]
    textures: Vec<String>,
    /// Sampler and stage states: sN=state=value,... or SAMPLER=state=value,... (repeatable).
    #[arg(long = "sampler", value_name = "sN=STATE=VALUE,...")]
    samplers: Vec<String>,
    /// Many invocations: a JSON array of input sets (`[{"v0": [x, y, z, w]}, ...]`).
    #[arg(long, value_name = "FILE.json")]
    vertices: Option<PathBuf>,
    /// Instructions one invocation may execute.
    #[arg(long, default_value_t = Options::DEFAULT_BUDGET)]
    budget: u64,
    #[command(flatten)]
    float_rules: crate::float_rules::FloatRuleArgs,
    #[command(flatten)]
    runtime: super::validate::RuntimeArg,
    #[command(flatten)]
    printed: crate::output::PrintedArg,
    /// What runs the shader: the interpreter, the JIT's native code (vector or scalar), or a
    /// Vulkan device through the naga translation; `cpu` is the default CPU engine (the JIT
    /// when built with it). Every engine gives the same outputs.
    #[arg(long, value_enum, default_value_t)]
    engine: crate::engine::Engine,
    /// Run several engines on the same inputs and print where their outputs differ:
    /// ENGINE,ENGINE,... (interp, jit, jit-scalar, vulkan).
    #[arg(long, value_enum, value_delimiter = ',', num_args = 1, value_name = "ENGINES", conflicts_with = "engine")]
    compare: Vec<crate::engine::Engine>,
    /// Do not validate the shader before running it (nor list the validator's findings);
    /// the engines still refuse what they cannot run.
    #[arg(long)]
    no_validate: bool,
}

/// Says when the JIT, asked for, runs the shader on the interpreter instead.
#[cfg(feature = "jit")]
fn note_fallback(name: &str, compiled: Option<&dxso_exec::jit::Compiled>) {
    if let Some(why) = compiled.and_then(|c| c.fallback_reason()) {
        log::warn!("{name}: the JIT runs this shader on the interpreter: {why}");
    }
}

fn usage(msg: String) -> anyhow::Error {
    CliError::Usage(msg).into()
}

fn split_assignment<'a>(arg: &'a str, what: &str) -> Result<(&'a str, &'a str)> {
    arg.split_once('=')
        .map(|(a, b)| (a.trim(), b.trim()))
        .ok_or_else(|| usage(format!("{what} `{arg}`: expected NAME=VALUE")))
}

fn floats(values: &str, what: &str) -> Result<[f32; 4]> {
    let mut out = [0f32; 4];
    let parts: Vec<&str> = values.split(',').map(str::trim).collect();
    if parts.len() > 4 || parts.iter().any(|p| p.is_empty()) {
        return Err(usage(format!(
            "{what}: expected 1 to 4 comma-separated numbers, got `{values}`"
        )));
    }
    for (o, p) in out.iter_mut().zip(&parts) {
        *o = p
            .parse()
            .map_err(|_| usage(format!("{what}: `{p}` is not a number")))?;
    }
    Ok(out)
}

fn register_number(name: &str, prefix: char, what: &str, limit: usize) -> Result<usize> {
    let n: usize = name[prefix.len_utf8()..]
        .parse()
        .map_err(|_| usage(format!("{what}: `{name}` is not a register")))?;
    if n >= limit {
        return Err(usage(format!(
            "{what}: {name} is past the last register ({prefix}{})",
            limit - 1
        )));
    }
    Ok(n)
}

fn parse_input(arg: &str, names: &Names) -> Result<(InputRegister, [f32; 4])> {
    let (reg, values) = split_assignment(arg, "--input")?;
    let register = InputRegister::parse(reg)
        .or_else(|| names.input(reg))
        .ok_or_else(|| {
            usage(format!(
                "--input: `{reg}` is neither an input register (v0..v15, t0..t7, vPos, vFace) nor a semantic the shader declares ({})",
                names.semantics()
            ))
        })?;
    Ok((register, floats(values, &format!("--input {reg}"))?))
}

/// `c12`, `i0`, `b3` (any case): a register form, which wins over a CTAB name.
fn is_register_form(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some('c' | 'C' | 'i' | 'I' | 'b' | 'B'))
        && !chars.as_str().is_empty()
        && chars.all(|c| c.is_ascii_digit())
}

fn float_register(res: &mut Resources, n: usize) -> &mut [f32; 4] {
    let f = &mut res.constants.float;
    if f.len() <= n {
        f.resize(n + 1, [0.0; 4]);
    }
    &mut f[n]
}

fn int_register(res: &mut Resources, n: usize) -> &mut [i32; 4] {
    let f = &mut res.constants.int;
    if f.len() <= n {
        f.resize(n + 1, [0; 4]);
    }
    &mut f[n]
}

fn bool_register(res: &mut Resources, n: usize) -> &mut bool {
    let f = &mut res.constants.bool;
    if f.len() <= n {
        f.resize(n + 1, false);
    }
    &mut f[n]
}

fn ints(values: &str, what: &str, most: usize) -> Result<Vec<i32>> {
    let parts: Vec<&str> = values.split(',').map(str::trim).collect();
    if parts.len() > most || parts.iter().any(|p| p.is_empty()) {
        return Err(usage(format!(
            "{what}: expected 1 to {most} comma-separated integers, got `{values}`"
        )));
    }
    parts
        .iter()
        .map(|p| {
            p.parse()
                .map_err(|_| usage(format!("{what}: `{p}` is not an integer")))
        })
        .collect()
}

fn boolean(v: &str, what: &str) -> Result<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        other => Err(usage(format!("{what}: `{other}` is not true or false"))),
    }
}

fn parse_const(arg: &str, res: &mut Resources, names: &Names) -> Result<()> {
    let (reg, values) = split_assignment(arg, "--const")?;
    if !is_register_form(reg) {
        return parse_named_const(reg, values, res, names);
    }
    let lower = reg.to_ascii_lowercase();
    let what = format!("--const {reg}");
    match lower.chars().next() {
        Some('c') => {
            let n = register_number(&lower, 'c', &what, Options::MAX_FLOAT_CONSTANTS as usize)?;
            *float_register(res, n) = floats(values, &what)?;
        }
        Some('i') => {
            let n = register_number(&lower, 'i', &what, 16)?;
            let mut v = [0i32; 4];
            for (o, x) in v.iter_mut().zip(ints(values, &what, 4)?) {
                *o = x;
            }
            *int_register(res, n) = v;
        }
        _ => {
            let n = register_number(&lower, 'b', &what, 16)?;
            *bool_register(res, n) = boolean(values, &what)?;
        }
    }
    Ok(())
}

/// `--const NAME=...`: the values fill the named constant's registers in order.
fn parse_named_const(name: &str, values: &str, res: &mut Resources, names: &Names) -> Result<()> {
    use dxso::ctab::RegisterSet;
    let what = format!("--const {name}");
    let c = names.constant(name).ok_or_else(|| {
        usage(format!(
            "{what}: not a register (c#, i#, b#) and not a constant of the shader ({})",
            names.list(&[RegisterSet::Float4, RegisterSet::Int4, RegisterSet::Bool])
        ))
    })?;
    let (count, range) = names::range(c);
    let first = c.register_index as usize;
    let parts: Vec<&str> = values.split(',').map(str::trim).collect();
    let per = if c.register_set() == Some(RegisterSet::Bool) {
        1
    } else {
        4
    };
    if parts.len() > per * count || parts.iter().any(|p| p.is_empty()) {
        return Err(usage(format!(
            "{what}: {name} is {range}, which holds 1 to {} comma-separated values ({per} per register), got `{values}`",
            per * count
        )));
    }
    match c.register_set() {
        Some(RegisterSet::Float4) => {
            if first + count > Options::MAX_FLOAT_CONSTANTS as usize {
                return Err(usage(format!("{what}: {range} is past the last float constant")));
            }
            for (k, p) in parts.iter().enumerate() {
                let v: f32 = p
                    .parse()
                    .map_err(|_| usage(format!("{what}: `{p}` is not a number")))?;
                float_register(res, first + k / 4)[k % 4] = v;
            }
        }
        Some(RegisterSet::Int4) => {
            for (k, p) in parts.iter().enumerate() {
                let v: i32 = p
                    .parse()
                    .map_err(|_| usage(format!("{what}: `{p}` is not an integer")))?;
                if first + k / 4 >= 16 {
                    return Err(usage(format!("{what}: {range} is past i15")));
                }
                int_register(res, first + k / 4)[k % 4] = v;
            }
        }
        Some(RegisterSet::Bool) => {
            for (k, p) in parts.iter().enumerate() {
                if first + k >= 16 {
                    return Err(usage(format!("{what}: {range} is past b15")));
                }
                *bool_register(res, first + k) = boolean(p, &what)?;
            }
        }
        _ => {
            return Err(usage(format!(
                "{what}: {name} is a sampler ({range}); give it a texture with --texture {name}=FILE"
            )))
        }
    }
    Ok(())
}

fn sampler_index(name: &str, what: &str, names: &Names) -> Result<usize> {
    if let Some(i) = names.sampler(name) {
        return Ok(i);
    }
    let lower = name.to_ascii_lowercase();
    if !lower.starts_with('s') || lower.len() < 2 || !lower[1..].bytes().all(|b| b.is_ascii_digit()) {
        return Err(usage(format!(
            "{what}: `{name}` is neither a sampler register (s0..s15) nor a sampler of the shader ({})",
            names.list(&[dxso::ctab::RegisterSet::Sampler])
        )));
    }
    register_number(&lower, 's', what, 16)
}

fn binding(res: &mut Resources, i: usize) -> &mut Sampler {
    if res.samplers.len() <= i {
        res.samplers.resize(i + 1, Sampler::default());
    }
    &mut res.samplers[i]
}

fn parse_sampler(arg: &str, res: &mut Resources, names: &Names) -> Result<()> {
    let (name, states) = split_assignment(arg, "--sampler")?;
    let i = sampler_index(name, "--sampler", names)?;
    let b = binding(res, i);
    for state in states.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (k, v) = split_assignment(state, &format!("--sampler {name}"))?;
        let key = k.to_ascii_lowercase();
        let key = key.strip_prefix("d3dtss_").unwrap_or(&key);
        let num = |v: &str| -> Result<f32> {
            v.parse()
                .map_err(|_| usage(format!("--sampler {name}: {k} takes a number, got `{v}`")))
        };
        match key {
            "type" => {
                b.dimension = Some(match v.to_ascii_lowercase().as_str() {
                    "2d" => Dimension::D2,
                    "cube" => Dimension::Cube,
                    "volume" => Dimension::Volume,
                    _ => return Err(usage(format!("--sampler {name}: type is 2d, cube or volume, got `{v}`"))),
                })
            }
            "bumpenvmat00" => b.stage.bump_env_mat[0] = num(v)?,
            "bumpenvmat01" => b.stage.bump_env_mat[1] = num(v)?,
            "bumpenvmat10" => b.stage.bump_env_mat[2] = num(v)?,
            "bumpenvmat11" => b.stage.bump_env_mat[3] = num(v)?,
            "bumpenvlscale" => b.stage.bump_env_lscale = num(v)?,
            "bumpenvloffset" => b.stage.bump_env_loffset = num(v)?,
            "texturetransformflags" => {
                b.stage.texture_transform_flags = v.parse().map_err(|_| {
                    usage(format!("--sampler {name}: texturetransformflags takes an integer (4 | 256 = count 4, projected)"))
                })?
            }
            _ => b
                .state
                .set(k, v)
                .map_err(|e| usage(format!("--sampler {name}: {e}")))?,
        }
    }
    Ok(())
}

/// Reads a PNG as RGBA8 (any bit depth and colour type, converted).
fn read_png(path: &Path) -> Result<Texture> {
    let file = std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder
        .read_info()
        .with_context(|| format!("decoding {}", path.display()))?;
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader
        .next_frame(&mut buf)
        .with_context(|| format!("decoding {}", path.display()))?;
    let pixels = &buf[..info.buffer_size()];
    let rgba: Vec<u8> = match info.color_type {
        png::ColorType::Rgba => pixels.to_vec(),
        png::ColorType::Rgb => pixels
            .chunks(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        png::ColorType::Grayscale => pixels.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::GrayscaleAlpha => pixels
            .chunks(2)
            .flat_map(|p| [p[0], p[0], p[0], p[1]])
            .collect(),
        png::ColorType::Indexed => anyhow::bail!(
            "{}: palette images are expanded by the decoder; this one was not",
            path.display()
        ),
    };
    Texture::new_2d(dxso_exec::Format::Rgba8Unorm, info.width, info.height, rgba)
        .with_context(|| path.display().to_string())
}

fn parse_texture(arg: &str, res: &mut Resources, names: &Names) -> Result<()> {
    let (name, file) = split_assignment(arg, "--texture")?;
    let i = sampler_index(name, "--texture", names)?;
    let path = Path::new(file);
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let texture = match ext.as_deref() {
        Some("png") => read_png(path)?,
        Some("dds") => {
            let bytes =
                std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
            dxso_exec::dds::read(&bytes).with_context(|| format!("reading {}", path.display()))?
        }
        _ => {
            return Err(usage(format!(
                "--texture {name}: {file} is neither .png nor .dds"
            )))
        }
    };
    binding(res, i).texture = Some(Arc::new(texture));
    Ok(())
}

/// One input set of `--vertices`.
fn parse_input_set(v: &Value, k: usize, names: &Names) -> Result<Vec<(InputRegister, [f32; 4])>> {
    let obj = v
        .as_object()
        .ok_or_else(|| anyhow::anyhow!("--vertices: element {k} is not an object of registers"))?;
    let mut out = Vec::new();
    for (reg, values) in obj {
        let register = InputRegister::parse(reg)
            .or_else(|| names.input(reg))
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "--vertices: element {k}: `{reg}` is neither an input register nor a semantic the shader declares"
                )
            })?;
        let arr = values.as_array().filter(|a| a.len() <= 4).ok_or_else(|| {
            anyhow::anyhow!("--vertices: element {k}: {reg} is not an array of up to 4 numbers")
        })?;
        let mut v = [0f32; 4];
        for (o, x) in v.iter_mut().zip(arr) {
            *o = x.as_f64().ok_or_else(|| {
                anyhow::anyhow!("--vertices: element {k}: {reg} holds a non-number")
            })? as f32;
        }
        out.push((register, v));
    }
    Ok(out)
}

/// One invocation's outputs by register.
type Registers = BTreeMap<OutputRegister, [f32; 4]>;

fn number(x: f32) -> Value {
    if x.is_finite() {
        json!(x)
    } else if x.is_nan() {
        json!("nan")
    } else if x > 0.0 {
        json!("inf")
    } else {
        json!("-inf")
    }
}

fn result_json(outputs: &Registers, discarded: Option<bool>) -> Value {
    let mut o = Map::new();
    for (r, v) in outputs {
        o.insert(
            r.to_string(),
            Value::Array(v.iter().map(|&x| number(x)).collect()),
        );
    }
    let mut m = Map::new();
    m.insert("outputs".into(), Value::Object(o));
    if let Some(d) = discarded {
        m.insert("discarded".into(), json!(d));
    }
    Value::Object(m)
}

fn result_text(outputs: &Registers, discarded: Option<bool>) -> String {
    let mut s = String::new();
    for (r, v) in outputs {
        s.push_str(&format!(
            "{:<7} = {}, {}, {}, {}\n",
            r.to_string(),
            v[0],
            v[1],
            v[2],
            v[3]
        ));
    }
    if let Some(d) = discarded {
        s.push_str(&format!("discarded: {}\n", if d { "yes" } else { "no" }));
    }
    s
}

/// The outputs of invocation `i`.
fn outputs_of(out: &Outputs, i: usize) -> Registers {
    out.registers.iter().map(|(r, v)| (*r, v[i])).collect()
}

/// One run's inputs: the input sets, the registers they set, and the resources.
struct Run {
    sets: Vec<Vec<(InputRegister, [f32; 4])>>,
    registers: Vec<InputRegister>,
    res: Resources,
}

impl Run {
    fn value(set: &[(InputRegister, [f32; 4])], r: InputRegister) -> [f32; 4] {
        set.iter()
            .rev()
            .find(|(x, _)| *x == r)
            .map_or([0.0; 4], |(_, v)| *v)
    }

    /// Runs the shader on `engine`; the outputs keep one invocation per input set (the first
    /// pixel of each quad of a pixel shader: all four read the same inputs).
    fn execute(
        &self,
        engine: crate::engine::Engine,
        shader: &dxso::Shader,
        options: &Options,
        name: &str,
    ) -> Result<Outputs> {
        let options = Options {
            engine: engine.cpu(),
            ..*options
        };
        let sets = &self.sets;
        let out = if shader.version.is_vertex() {
            let vs = VertexShader::with_options(shader, &options).with_context(|| name.to_string())?;
            #[cfg(feature = "jit")]
            if engine != crate::engine::Engine::Interpreter {
                note_fallback(name, vs.compiled());
            }
            let mut batch = VertexBatch::new(sets.len());
            for &r in &self.registers {
                batch.set(r, sets.iter().map(|set| Self::value(set, r)).collect());
            }
            crate::engine::run_vertex(engine, &vs, shader, &batch, &self.res, &options)
        } else {
            let ps = PixelShader::with_options(shader, &options).with_context(|| name.to_string())?;
            #[cfg(feature = "jit")]
            if engine != crate::engine::Engine::Interpreter {
                note_fallback(name, ps.compiled());
            }
            let mut batch = QuadBatch::new(sets.len());
            for &r in &self.registers {
                batch.set(
                    r,
                    sets.iter().flat_map(|set| [Self::value(set, r); 4]).collect(),
                );
            }
            crate::engine::run_pixel(engine, &ps, shader, &batch, &self.res, &options)
        };
        let out = out.with_context(|| name.to_string())?;
        let stride = if shader.version.is_vertex() { 1 } else { 4 };
        Ok(Outputs {
            count: sets.len(),
            registers: out
                .registers
                .iter()
                .map(|(r, v)| (*r, v.iter().step_by(stride).copied().collect()))
                .collect(),
            discarded: out.discarded.iter().step_by(stride).copied().collect(),
        })
    }
}

/// Every invocation's result as JSON (one object, or an array with --vertices).
fn results_json(out: &Outputs, many: bool) -> Value {
    let one = |k: usize| {
        result_json(
            &outputs_of(out, k),
            (!out.discarded.is_empty()).then(|| out.discarded[k]),
        )
    };
    if many {
        Value::Array((0..out.count).map(one).collect())
    } else {
        one(0)
    }
}

/// Every invocation's result as text.
fn results_text(out: &Outputs, many: bool, pixel: bool) -> String {
    let mut text = String::new();
    for k in 0..out.count {
        if many {
            text.push_str(&format!("{}[{k}]\n", if pixel { "quad" } else { "vertex" }));
        }
        let d = (!out.discarded.is_empty()).then(|| out.discarded[k]);
        text.push_str(&result_text(&outputs_of(out, k), d));
    }
    text
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        self.printed.apply(s, &self.input.file.iter().map(|p| p.as_path()).collect::<Vec<_>>())?;
        let (_, shader) = self.input.read_or_assemble(s)?;
        let name = self
            .input
            .file
            .as_ref()
            .map_or("<stdin>".to_string(), |f| f.display().to_string());
        let shader = self.runtime.as_d3d9(shader)?;
        let shader = if self.no_validate {
            shader
        } else {
            let report = dxso::validate(&shader);
            s.stderr(&super::validate::findings(s, &name, &report, None));
            if let Some(first) = report.errors().next() {
                anyhow::bail!(
                    "{name}: the shader is invalid: {first} ({} error(s)); no engine runs it",
                    report.errors().count()
                );
            }
            shader
        };
        let options = Options {
            budget: self.budget,
            zero_times_anything: self.float_rules.zero_times_anything,
            ps1_range: self.float_rules.exec_range(),
            ..Options::default()
        };
        let names = Names::of(&shader);
        let mut res = Resources::default();
        for c in &self.consts {
            parse_const(c, &mut res, &names)?;
        }
        for t in &self.textures {
            parse_texture(t, &mut res, &names)?;
        }
        for sm in &self.samplers {
            parse_sampler(sm, &mut res, &names)?;
        }
        let sets: Vec<Vec<(InputRegister, [f32; 4])>> = match &self.vertices {
            Some(path) => {
                if !self.inputs.is_empty() {
                    return Err(usage("--vertices and --input exclude each other".into()));
                }
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("reading {}", path.display()))?;
                let v: Value = serde_json::from_str(&text)
                    .with_context(|| format!("{} is not JSON", path.display()))?;
                let arr = v.as_array().ok_or_else(|| {
                    anyhow::anyhow!("{}: expected a JSON array of input sets", path.display())
                })?;
                arr.iter()
                    .enumerate()
                    .map(|(k, v)| parse_input_set(v, k, &names))
                    .collect::<Result<_>>()?
            }
            None => vec![self
                .inputs
                .iter()
                .map(|i| parse_input(i, &names))
                .collect::<Result<_>>()?],
        };
        let mut registers: Vec<InputRegister> = sets.iter().flatten().map(|(r, _)| *r).collect();
        registers.sort();
        registers.dedup();
        let run = Run {
            sets,
            registers,
            res,
        };
        let many = self.vertices.is_some();
        if !self.compare.is_empty() {
            return compare::run(s, &self.compare, &run, &shader, &options, &name, many);
        }
        let out = run.execute(self.engine, &shader, &options, &name)?;
        if s.json {
            s.print_json(&results_json(&out, many))?;
        } else {
            s.print(&results_text(&out, many, shader.version.is_pixel()))?;
        }
        Ok(ExitCode::SUCCESS)
    }
}
