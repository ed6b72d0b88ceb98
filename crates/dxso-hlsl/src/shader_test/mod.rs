//! A runner for vkd3d's `.shader_test` files, restricted to what Direct3D 9 runs: the shader
//! models 2.0 and 3.0.
//!
//! The format (vkd3d's `tests/shader_runner.c` reads it) is a sequence of sections:
//! `[require]` narrows the shader-model range (`shader model >= 3.0`, `shader model < 4.0`) and
//! names capabilities and compile options; `[pixel shader]` and `[vertex shader]` hold HLSL,
//! with `fail(...)`, `todo(...)` and `notimpl(...)` qualifiers over shader models;
//! `[sampler N]` and `[srv N]` (or `[texture N]`) describe samplers and textures; `[test]`
//! holds directives: `uniform OFFSET TYPE VALUES`, `draw quad`, `probe (X, Y) rgba (...) ULPS`
//! and the like, each optionally behind `todo(...)`, `bug(...)` or `if(...)`.
//!
//! This runner does what vkd3d's Direct3D 9 runner does, with dxso in place of fxc and
//! Direct3D: a file's shaders compile at the lowest model its requirements allow (`ps_2_0`
//! unless `shader model >= 3.0`), `draw quad` runs the vertex shader (vkd3d's pass-through one
//! when the file gives none) on a triangle covering the 640x480 target and the pixel shader
//! on dxso-exec at every probed pixel, uniforms fill `c#` registers from offset 0 as
//! `SetPixelShaderConstantF` does, and probes compare within the stated ULPs. `todo` and `bug`
//! markers are vkd3d's own expectations of itself and are ignored: every probe must hold.
//!
//! Two kinds of result come out of a file: **compile checks** (every HLSL shader section at
//! each of models 2.0 and 3.0 that its requirements allow: it compiles, or it fails where the
//! section says `fail`) and **tests** (every `[test]` section that applies: all its probes
//! hold). What the runner does not model (vertex buffers, render targets other than the
//! default, fixed-function state, integer formats) fails the test with a cause saying so, so
//! that it is counted, not hidden.

mod draw;

use crate::{compile, MatrixPacking, Options, Profile, Source};
use draw::{Draw, Framebuffer, TextureDesc};
use std::collections::BTreeMap;

/// The outcome of one check.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// It held.
    Pass,
    /// It did not; the cause, in a form that groups (no names or numbers of one test).
    Fail {
        /// The cause's group.
        cause: String,
        /// The particulars.
        detail: String,
    },
}

/// One compile check or test.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// The 1-based line of the section header.
    pub line: usize,
    /// The shader model (`2.0` or `3.0`).
    pub model: &'static str,
    /// The outcome.
    pub status: Status,
}

/// The results of one file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FileReport {
    /// Compile checks of HLSL shader sections.
    pub compiles: Vec<Check>,
    /// `[test]` sections run.
    pub tests: Vec<Check>,
    /// `[test]` sections that do not apply to shader models 2 and 3 (their requirements
    /// exclude them, or their shader is expected not to compile there).
    pub skipped: usize,
}

/// Why a file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct FormatError {
    /// The 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// vkd3d's shader models, in order; the runner uses the first two.
const MODELS: [&str; 8] = ["2.0", "3.0", "4.0", "4.1", "5.0", "5.1", "6.0", "6.2"];

/// Capabilities Direct3D 9 has (the others exclude a block).
const D3D9_CAPS: [&str; 3] = ["clip-planes", "fog", "point-size"];

/// Reads a shader model (`3.0`, or `4` for `4.0`) at the start of `s`.
fn model_at(s: &str) -> Option<(usize, &str)> {
    for (i, m) in MODELS.iter().enumerate() {
        if let Some(rest) = s.strip_prefix(m) {
            return Some((i, rest));
        }
        let b = s.as_bytes();
        if m.ends_with(".0")
            && b.first() == m.as_bytes().first()
            && !matches!(b.get(1), Some(b'.' | b'0'..=b'9'))
        {
            return Some((i, &s[1..]));
        }
    }
    None
}

/// A qualifier's argument `(a & b | c)`: the models it selects (a bit per model; tags select
/// none of Direct3D 9's, but as vkd3d does for shader qualifiers they leave the mask alone)
/// and whether it holds at `model`.
fn qualifier(args: &str, model: usize) -> Result<(u32, bool), String> {
    let mut mask = 0u32;
    let mut holds = false;
    for conj in args.split('|') {
        let mut m = !0u32;
        let mut h = true;
        for term in conj.split('&') {
            let t = term.trim();
            if let Some(r) = t.strip_prefix("sm>=") {
                let (x, _) = model_at(r.trim()).ok_or_else(|| format!("bad model in '{t}'"))?;
                m &= !((1u32 << x) - 1);
                h &= model >= x;
            } else if let Some(r) = t.strip_prefix("sm<") {
                let (x, _) = model_at(r.trim()).ok_or_else(|| format!("bad model in '{t}'"))?;
                m &= (1u32 << x) - 1;
                h &= model < x;
            } else if let Some(tag) = t.strip_prefix('!') {
                // No tag names Direct3D 9: a negated tag holds.
                let _ = tag;
            } else if !t.is_empty() {
                h = false;
            }
        }
        mask |= m;
        holds |= h;
    }
    Ok((mask, holds))
}

/// Splits `word(args)` or `word` off the front of `s` (after spaces).
fn take_word<'a>(s: &'a str, word: &str) -> Option<(Option<&'a str>, &'a str)> {
    let t = s.trim_start();
    let rest = t.strip_prefix(word)?;
    if let Some(r) = rest.strip_prefix('(') {
        let end = r.find(')')?;
        Some((Some(&r[..end]), &r[end + 1..]))
    } else if rest.is_empty() || rest.starts_with(|c: char| c.is_whitespace() || c == ']') {
        Some((None, rest))
    } else {
        None
    }
}

/// A shader section.
#[derive(Clone, Debug)]
struct ShaderSection {
    line: usize,
    /// HLSL text, or `None` for bytecode given in hex.
    source: Option<String>,
    /// Bytecode from a `d3dbc-hex` section.
    bytecode: Option<Vec<u8>>,
    /// Models at which compilation must fail.
    fail: u32,
}

/// The requirement block in force.
#[derive(Clone, Debug)]
struct Require {
    min: usize,
    max: usize,
    caps_ok: bool,
    row_major: Option<bool>,
    backcompat: bool,
}

impl Default for Require {
    fn default() -> Self {
        Require {
            min: 0,
            max: 1,
            caps_ok: true,
            row_major: None,
            backcompat: false,
        }
    }
}

impl Require {
    fn applies(&self) -> bool {
        self.caps_ok && self.min <= self.max
    }

    fn directive(&mut self, line: &str) {
        let l = line.trim();
        if let Some(r) = l.strip_prefix("shader model >=") {
            if let Some((m, _)) = model_at(r.trim()) {
                self.min = self.min.max(m);
            }
        } else if let Some(r) = l.strip_prefix("shader model <") {
            match model_at(r.trim()) {
                Some((0, _)) | None => self.caps_ok = false,
                Some((m, _)) => self.max = self.max.min(m - 1),
            }
        } else if let Some(r) = l.strip_prefix("options:") {
            for o in r.split_whitespace() {
                match o {
                    // With both flags, column-major wins (as vkd3d's suite expects of fxc).
                    "row-major" => self.row_major = Some(self.row_major != Some(false)),
                    "column-major" => self.row_major = Some(false),
                    "backcompat" => self.backcompat = true,
                    _ => self.caps_ok = false,
                }
            }
        } else if !D3D9_CAPS.contains(&l) {
            // A capability Direct3D 9 lacks (float64, int64, wave ops, formats...).
            self.caps_ok = false;
        }
    }
}

/// Which kind of section the lines belong to.
enum State {
    None,
    Require,
    Shader {
        vertex: bool,
        section: ShaderSection,
    },
    Texture(TextureDesc),
    Sampler(usize, draw::SamplerDesc),
    Test {
        line: usize,
        lines: Vec<(usize, String)>,
    },
    /// A section this runner does not read (compute shaders, effects, preprocessor checks...)
    /// or does not model (vertex buffers, render targets): its name.
    Ignored(String),
}

/// The file's running state.
struct Runner {
    require: Require,
    vertex: Option<ShaderSection>,
    pixel: Option<ShaderSection>,
    textures: BTreeMap<usize, TextureDesc>,
    samplers: BTreeMap<usize, draw::SamplerDesc>,
    /// Resource sections this runner does not model, given while a block applied.
    unmodelled: Option<String>,
    report: FileReport,
}

/// Runs one `.shader_test` file.
pub fn run_file(text: &str) -> Result<FileReport, FormatError> {
    let mut r = Runner {
        require: Require::default(),
        vertex: None,
        pixel: None,
        textures: BTreeMap::new(),
        samplers: BTreeMap::new(),
        unmodelled: None,
        report: FileReport::default(),
    };
    let mut state = State::None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim_end();
        if line.starts_with('[') {
            r.finish(std::mem::replace(&mut state, State::None))?;
            state = r.open(line, n)?;
            continue;
        }
        if line.starts_with('%') {
            continue;
        }
        match &mut state {
            State::Shader { section, .. } => {
                if let Some(b) = &mut section.bytecode {
                    hex_line(line, b).map_err(|message| FormatError { line: n, message })?;
                } else if let Some(s) = &mut section.source {
                    s.push_str(raw);
                    s.push('\n');
                }
            }
            _ if line.trim().is_empty() => {}
            State::None => {}
            State::Require => r.require.directive(line),
            State::Texture(t) => t
                .directive(line)
                .map_err(|message| FormatError { line: n, message })?,
            State::Sampler(_, s) => s.directive(line),
            State::Test { lines, .. } => lines.push((n, line.to_string())),
            State::Ignored(_) => {}
        }
    }
    r.finish(state)?;
    Ok(r.report)
}

/// Appends the DWORDs of a `d3dbc-hex` line (a `%` starts a comment).
fn hex_line(line: &str, out: &mut Vec<u8>) -> Result<(), String> {
    let text = line.split('%').next().unwrap_or("");
    for w in text.split_whitespace() {
        let v = u32::from_str_radix(w.trim_start_matches("0x"), 16)
            .map_err(|_| format!("'{w}' is not a hexadecimal DWORD"))?;
        out.extend_from_slice(&v.to_le_bytes());
    }
    Ok(())
}

impl Runner {
    fn open(&mut self, header: &str, line: usize) -> Result<State, FormatError> {
        let inner = header
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .ok_or_else(|| FormatError {
                line,
                message: format!("malformed section header '{header}'"),
            })?;
        let err = |message: String| FormatError { line, message };
        if inner == "require" {
            self.require = Require::default();
            return Ok(State::Require);
        }
        for (prefix, vertex) in [("pixel shader", false), ("vertex shader", true)] {
            let Some(mut rest) = inner.strip_prefix(prefix) else {
                continue;
            };
            let mut section = ShaderSection {
                line,
                source: Some(String::new()),
                bytecode: None,
                fail: 0,
            };
            let mut other_format = false;
            while !rest.trim().is_empty() {
                if let Some((args, r)) = take_word(rest, "fail") {
                    section.fail |= match args {
                        Some(a) => qualifier(a, 0).map_err(err)?.0,
                        None => !0,
                    };
                    rest = r;
                } else if let Some((_, r)) =
                    take_word(rest, "todo").or_else(|| take_word(rest, "notimpl"))
                {
                    rest = r;
                } else if let Some((_, r)) = take_word(rest, "d3dbc-hex") {
                    section.source = None;
                    section.bytecode = Some(Vec::new());
                    rest = r;
                } else if let Some((_, r)) =
                    take_word(rest, "dxbc-tpf-hex").or_else(|| take_word(rest, "dxbc-dxil-hex"))
                {
                    other_format = true;
                    rest = r;
                } else {
                    return Err(err(format!("unknown shader qualifier in '{header}'")));
                }
            }
            if other_format {
                return Ok(State::Ignored(inner.to_string()));
            }
            return Ok(State::Shader { vertex, section });
        }
        if inner == "test" {
            return Ok(State::Test {
                line,
                lines: Vec::new(),
            });
        }
        let mut words = inner.split_whitespace();
        let kind = words.next().unwrap_or("");
        let index: Option<usize> = words.next().and_then(|w| w.parse().ok());
        match (kind, index) {
            ("srv" | "texture", Some(i)) => return Ok(State::Texture(TextureDesc::new(i))),
            ("sampler", Some(i)) => return Ok(State::Sampler(i, draw::SamplerDesc::default())),
            _ => {}
        }
        Ok(State::Ignored(inner.to_string()))
    }

    fn finish(&mut self, state: State) -> Result<(), FormatError> {
        match state {
            State::None | State::Require => {}
            State::Shader { vertex, section } => {
                if self.require.applies() && section.source.is_some() {
                    let (lo, hi) = (self.require.min, self.require.max);
                    for (model, name) in MODELS.iter().enumerate().take(hi + 1).skip(lo) {
                        let status = match (
                            self.compile(&section, vertex, model),
                            section.fail & (1 << model) != 0,
                        ) {
                            (Ok(_), false) | (Err(_), true) => Status::Pass,
                            (Ok(_), true) => Status::Fail {
                                cause: "compiles where fxc fails".into(),
                                detail: String::new(),
                            },
                            (Err(e), false) => Status::Fail {
                                cause: compile_cause(&e),
                                detail: e,
                            },
                        };
                        self.report.compiles.push(Check {
                            line: section.line,
                            model: name,
                            status,
                        });
                    }
                }
                if vertex {
                    self.vertex = Some(section);
                } else {
                    self.pixel = Some(section);
                }
            }
            State::Texture(t) => {
                if self.require.applies() {
                    self.textures.insert(t.slot, t);
                }
            }
            State::Sampler(i, s) => {
                if self.require.applies() {
                    self.samplers.insert(i, s);
                }
            }
            State::Ignored(name) => {
                let resource = ["vb", "rtv", "dsv", "uav", "input layout"]
                    .iter()
                    .any(|p| name.starts_with(p));
                if resource && self.require.applies() {
                    let kind = name.split_whitespace().next().unwrap_or("");
                    self.unmodelled = Some(format!("[{kind}] sections"));
                }
            }
            State::Test { line, lines } => self.test(line, &lines),
        }
        Ok(())
    }

    fn options(&self, vertex: bool, model: usize) -> Options {
        let profile = match (vertex, model) {
            (true, 0) => Profile::Vs20,
            (true, _) => Profile::Vs30,
            (false, 0) => Profile::Ps20,
            (false, _) => Profile::Ps30,
        };
        let mut o = Options::new("main", profile);
        if self.require.row_major == Some(true) {
            o.packing = MatrixPacking::RowMajor;
        }
        o.backwards_compatibility = self.require.backcompat;
        o
    }

    /// Compiles (or decodes) a section for `model`; the error is fxc-style text.
    fn compile(
        &self,
        section: &ShaderSection,
        vertex: bool,
        model: usize,
    ) -> Result<dxso::Shader, String> {
        if let Some(b) = &section.bytecode {
            return dxso::decode(b).map_err(|e| format!("bytecode: {e}"));
        }
        let text = section.source.as_deref().unwrap_or("");
        let src = Source::new("shader.hlsl", text);
        match compile(&src, &self.options(vertex, model)) {
            Ok(c) => {
                let report = dxso::validate(&c.shader);
                if let Some(d) = report.errors().next() {
                    return Err(format!("validation: {d}"));
                }
                Ok(c.shader)
            }
            Err(d) => Err(d
                .errors()
                .next()
                .map(|e| e.to_string())
                .unwrap_or_else(|| "no diagnostic".into())),
        }
    }

    fn test(&mut self, line: usize, lines: &[(usize, String)]) {
        if !self.require.applies() {
            self.report.skipped += 1;
            return;
        }
        let model = self.require.min;
        let expected_failure = |s: &Option<ShaderSection>| {
            s.as_ref()
                .is_some_and(|s| s.fail & (1 << model) != 0 && s.source.is_some())
        };
        if expected_failure(&self.pixel) || expected_failure(&self.vertex) {
            self.report.skipped += 1;
            return;
        }
        let status = self.run_test(model, lines);
        self.report.tests.push(Check {
            line,
            model: MODELS[model],
            status,
        });
    }

    fn run_test(&self, model: usize, lines: &[(usize, String)]) -> Status {
        let fail = |cause: &str, detail: String| Status::Fail {
            cause: cause.to_string(),
            detail,
        };
        if let Some(what) = &self.unmodelled {
            return fail(&format!("runner: {what} not modelled"), String::new());
        }
        let mut uniforms: Vec<u32> = Vec::new();
        let mut fb = Framebuffer::new(draw::WIDTH, draw::HEIGHT);
        for (n, text) in lines {
            // Prefixes: `todo(...)` and `bug(...)` are vkd3d's expectations of itself;
            // `if(...)` limits a directive to some models.
            let mut rest = text.as_str();
            let mut skip = false;
            loop {
                if let Some((_, r)) = take_word(rest, "todo").or_else(|| take_word(rest, "bug")) {
                    rest = r;
                } else if let Some((args, r)) = take_word(rest, "if") {
                    let holds = match args.map(|a| qualifier(a, model)) {
                        Some(Ok((_, h))) => h,
                        Some(Err(e)) => return fail("format", format!("line {n}: {e}")),
                        None => true,
                    };
                    skip |= !holds;
                    rest = r;
                } else {
                    break;
                }
            }
            if skip {
                continue;
            }
            let d = rest.trim();
            if let Some(r) = d.strip_prefix("uniform ") {
                if let Err(e) = set_uniform(&mut uniforms, r) {
                    return fail(
                        "runner: uniform type not modelled",
                        format!("line {n}: {e}"),
                    );
                }
            } else if d == "draw quad" {
                let vs = match &self.vertex {
                    Some(s) => self.compile(s, true, model),
                    None => self.compile(&default_vertex_shader(), true, model),
                };
                let ps = match &self.pixel {
                    Some(s) => self.compile(s, false, model),
                    None => return fail("format", format!("line {n}: no pixel shader")),
                };
                let (vs, ps) = match (vs, ps) {
                    (Ok(v), Ok(p)) => (v, p),
                    (Err(e), _) | (_, Err(e)) => return fail(&compile_cause(&e), e),
                };
                let constants: Vec<[f32; 4]> = uniforms
                    .chunks(4)
                    .map(|c| {
                        std::array::from_fn(|i| f32::from_bits(c.get(i).copied().unwrap_or(0)))
                    })
                    .collect();
                match Draw::new(vs, ps, constants, &self.textures, &self.samplers) {
                    Ok(d) => fb.draw(d),
                    Err(e) => return fail(&e.cause(), e.to_string()),
                }
            } else if let Some(r) = d.strip_prefix("clear rtv") {
                let v: Vec<f32> = r
                    .split_whitespace()
                    .skip(1)
                    .filter_map(|x| x.parse().ok())
                    .collect();
                if v.len() != 4 {
                    return fail("format", format!("line {n}: '{d}'"));
                }
                fb.clear([v[0], v[1], v[2], v[3]]);
            } else if let Some(r) = d.strip_prefix("probe") {
                match probe(&fb, r) {
                    Ok(None) => {}
                    Ok(Some(detail)) => {
                        let cause = if detail.starts_with("within 1e-4") {
                            "probe: value within 1e-4 but beyond the stated ulps"
                        } else if detail.starts_with("run:") {
                            "exec: shader does not run"
                        } else {
                            "probe: wrong value"
                        };
                        return fail(cause, format!("line {n}: {detail}"));
                    }
                    Err(e) => return fail(&e, format!("line {n}: '{d}'")),
                }
            } else {
                let word: String = d
                    .split(|c: char| c.is_ascii_digit() || c == '(')
                    .next()
                    .unwrap_or(d)
                    .trim()
                    .to_string();
                return fail(
                    &format!("runner: directive '{word}' not modelled"),
                    format!("line {n}: '{d}'"),
                );
            }
        }
        Status::Pass
    }
}

/// vkd3d's vertex shader for `draw quad` when the file gives none.
fn default_vertex_shader() -> ShaderSection {
    ShaderSection {
        line: 0,
        source: Some(
            "float4 main(float4 pos : position) : sv_position\n{\n    return pos;\n}\n".into(),
        ),
        bytecode: None,
        fail: 0,
    }
}

/// The group a compile error falls in: its code and message with quoted names and numbers
/// taken out.
fn compile_cause(e: &str) -> String {
    let body = match e.find(": error ") {
        Some(i) => &e[i + 2..],
        None => e,
    };
    let mut out = String::new();
    let mut quoted = false;
    for c in body.chars() {
        if c == '\'' {
            quoted = !quoted;
            if quoted {
                out.push_str("'…");
            } else {
                out.push('\'');
            }
            continue;
        }
        if !quoted {
            out.push(c);
        }
    }
    format!("compile: {out}")
}

/// `OFFSET TYPE VALUES`: writes the values' bits at float offset OFFSET.
fn set_uniform(u: &mut Vec<u32>, r: &str) -> Result<(), String> {
    let mut w = r.split_whitespace();
    let offset: usize = w
        .next()
        .and_then(|x| x.parse().ok())
        .ok_or_else(|| format!("bad offset in '{r}'"))?;
    let ty = w.next().unwrap_or("");
    let values: Vec<&str> = w.collect();
    let bits: Vec<u32> = match ty {
        "float4" | "float" => values
            .iter()
            .map(|v| parse_f32(v).map(f32::to_bits))
            .collect::<Option<_>>()
            .ok_or_else(|| format!("bad float in '{r}'"))?,
        "int4" | "int" => values
            .iter()
            .map(|v| parse_int(v).map(|x| x as u32))
            .collect::<Option<_>>()
            .ok_or_else(|| format!("bad int in '{r}'"))?,
        "uint4" | "uint" => values
            .iter()
            .map(|v| parse_int(v).map(|x| x as u32))
            .collect::<Option<_>>()
            .ok_or_else(|| format!("bad uint in '{r}'"))?,
        _ => return Err(format!("uniform type '{ty}'")),
    };
    let want = if ty.ends_with('4') { 4 } else { 1 };
    if bits.len() < want {
        return Err(format!("too few values in '{r}'"));
    }
    if offset > 4096 {
        return Err(format!("offset {offset} out of range"));
    }
    let end = offset + want;
    if u.len() < end.next_multiple_of(4) {
        u.resize(end.next_multiple_of(4), 0);
    }
    u[offset..end].copy_from_slice(&bits[..want]);
    Ok(())
}

fn parse_f32(s: &str) -> Option<f32> {
    let s = s.trim().trim_end_matches(',');
    let lower = s.to_ascii_lowercase();
    match lower.trim_start_matches(['-', '+']) {
        "inf" | "infinity" => {
            return Some(if lower.starts_with('-') {
                f32::NEG_INFINITY
            } else {
                f32::INFINITY
            })
        }
        "nan" => return Some(f32::NAN),
        _ => {}
    }
    if let Some(h) = lower.strip_prefix("0x") {
        return u32::from_str_radix(h, 16).ok().map(f32::from_bits);
    }
    s.trim_end_matches('f').parse().ok()
}

fn parse_int(s: &str) -> Option<i64> {
    let s = s.trim().trim_end_matches(',');
    let (neg, t) = match s.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, s),
    };
    let v = match t.strip_prefix("0x") {
        Some(h) => i64::from_str_radix(h, 16).ok()?,
        None => t.parse().ok()?,
    };
    Some(if neg { -v } else { v })
}

/// vkd3d's float comparison: the bit patterns, ordered as integers, differ by at most `ulps`.
fn ulps_close(a: f32, b: f32, ulps: u32) -> bool {
    let key = |f: f32| {
        let i = f.to_bits() as i32;
        if i < 0 {
            i64::from(i32::MIN) - i64::from(i)
        } else {
            i64::from(i)
        }
    };
    (key(a) - key(b)).unsigned_abs() <= u64::from(ulps)
}

/// A probe: `Ok(None)` when it holds, `Ok(Some(why))` when a value differs, `Err(cause)` when
/// the runner cannot read it.
fn probe(fb: &Framebuffer, r: &str) -> Result<Option<String>, String> {
    let mut s = r.trim_start();
    if let Some(t) = s.strip_prefix("rtv") {
        let t = t.trim_start();
        let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if &t[..digits] != "0" {
            return Err("runner: render targets other than 0 not modelled".into());
        }
        s = t[digits..].trim_start();
    } else if s.starts_with("uav") || s.starts_with("dsv") {
        return Err("runner: probe of a UAV or depth buffer not modelled".into());
    }
    let s = s.strip_prefix('(').ok_or("format")?;
    let end = s.find(')').ok_or("format")?;
    let coords: Vec<u32> = s[..end]
        .split(',')
        .map(|x| x.trim().parse())
        .collect::<Result<_, _>>()
        .map_err(|_| "format".to_string())?;
    let (l, t, rgt, b) = match coords[..] {
        [l, t, r, b] => (l, t, r, b),
        [x, y] | [x, y, _] => (x, y, x + 1, y + 1),
        [x] => (x, 0, x + 1, 1),
        _ => return Err("format".into()),
    };
    let rest = s[end + 1..].trim_start();
    let (lanes, body) = if let Some(b) = rest.strip_prefix("rgba") {
        (4, b)
    } else if let Some(b) = rest.strip_prefix("f32") {
        (0, b)
    } else {
        return Err("runner: integer or 64-bit probe formats not modelled".into());
    };
    let body = body.trim_start().strip_prefix('(').ok_or("format")?;
    let close = body.find(')').ok_or("format")?;
    let want: Vec<f32> = body[..close]
        .split(',')
        .map(parse_f32)
        .collect::<Option<_>>()
        .ok_or("format")?;
    let lanes = if lanes == 0 { want.len() } else { lanes };
    if want.len() < lanes || !matches!(lanes, 1 | 2 | 4) {
        return Err("format".into());
    }
    let ulps: u32 = body[close + 1..].trim().parse().unwrap_or(0);
    let got = match fb.read(l, t, rgt.max(l + 1), b.max(t + 1)) {
        Ok(v) => v,
        Err(e) => return Ok(Some(format!("run: {e}"))),
    };
    let mut near = true;
    for ((x, y), v) in got {
        let ok = (0..lanes).all(|i| ulps_close(v[i], want[i], ulps));
        if !ok {
            near &= (0..lanes).all(|i| {
                let d = (v[i] - want[i]).abs();
                d <= 1e-4 || d <= 1e-4 * want[i].abs()
            });
            let prefix = if near { "within 1e-4: " } else { "" };
            return Ok(Some(format!(
                "{prefix}({x}, {y}) is {:?}, expected {:?} ({ulps} ulps)",
                &v[..lanes],
                &want[..lanes]
            )));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qualifiers_select_models() {
        assert!(qualifier("sm<4", 1).unwrap().1);
        assert!(!qualifier("sm>=3", 0).unwrap().1);
        assert!(qualifier("sm>=3", 1).unwrap().1);
        assert!(qualifier("sm<3 | sm>=6", 0).unwrap().1);
        assert!(!qualifier("msl & sm>=6", 1).unwrap().1);
        assert_eq!(qualifier("sm<2", 0).unwrap().0 & 3, 0);
        assert_eq!(qualifier("sm<3", 0).unwrap().0 & 3, 1);
    }

    #[test]
    fn ulps_follow_vkd3d() {
        assert!(ulps_close(1.0, 1.0, 0));
        assert!(!ulps_close(1.0, f32::from_bits(1.0f32.to_bits() + 1), 0));
        assert!(ulps_close(1.0, f32::from_bits(1.0f32.to_bits() + 1), 1));
        assert!(ulps_close(0.0, -0.0, 0));
    }

    #[test]
    fn uniforms_fill_registers() {
        let mut u = Vec::new();
        set_uniform(&mut u, "4 float 2.5").unwrap();
        assert_eq!(u.len(), 8);
        assert_eq!(f32::from_bits(u[4]), 2.5);
        set_uniform(&mut u, "0 float4 1 2 3 4").unwrap();
        assert_eq!(f32::from_bits(u[3]), 4.0);
        assert!(set_uniform(&mut u, "0 double2 1 2").is_err());
    }

    #[test]
    fn causes_group_without_names() {
        assert_eq!(
            compile_cause("shader.hlsl(3,5-7): error X3004: undeclared identifier 'foo'"),
            "compile: error X3004: undeclared identifier '…'"
        );
    }
}
