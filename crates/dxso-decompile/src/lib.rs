//! # dxso-decompile
//!
//! Direct3D 9 shader bytecode (vs_1_1..vs_3_0, ps_1_1..ps_3_0) to HLSL in the Direct3D 9
//! dialect, with the entry point `main`: uniforms with the constant table's names, types and
//! registers, input and output structs by semantic, structured control flow, and expressions
//! instead of register traffic. The output is meant to compile back (`dxso compile`, fxc) to a
//! shader that computes the same outputs; ps_1_x shaders decompile to HLSL for ps_2_0.
//!
//! [`decompile_effect`] writes a whole fx_2_0 effect as `.fx` source around its decompiled
//! shaders.
//!
//! ```
//! let bytes = dxso_text::assemble("ps_2_0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n").unwrap();
//! let shader = dxso::decode(&bytes).unwrap();
//! let hlsl = dxso_decompile::decompile(&shader, &dxso_decompile::Options::default()).unwrap();
//! assert!(hlsl.contains("tex2D(s0, i.texcoord0.xy)"));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod effect;
mod emit;
mod fold;
mod literal;
mod signature;
mod uniforms;

use dxso::analysis::register_key;
use dxso::{Instruction, Opcode, RegisterType as RT, Shader, ShaderInfo};
pub use effect::{decompile_effect, EffectShader, EffectSource};
use emit::Emitter;
use std::collections::{BTreeMap, BTreeSet};

/// How to decompile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Fold single-use values into their use and recognise idioms (`mul`, `normalize`); off,
    /// every instruction is one statement on register-named locals.
    pub readable: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { readable: true }
    }
}

/// Why a shader cannot be decompiled.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The shader is not valid (the validator's report).
    #[error("the shader is not valid: {0}")]
    Invalid(String),
    /// The shader uses something HLSL cannot express.
    #[error("cannot express in HLSL: {what}")]
    Unsupported {
        /// What.
        what: String,
    },
}

/// The registers a function touches, as locals or parameters.
#[derive(Clone, Debug, Default)]
struct Touches {
    regs: BTreeSet<(RT, u32)>,
    inputs: bool,
    outputs: bool,
    loop_counter: bool,
}

/// Decompiles a shader to HLSL source with the entry point `main`.
pub fn decompile(shader: &Shader, options: &Options) -> Result<String, Error> {
    let info = dxso::analyze(shader).map_err(|r| {
        Error::Invalid(
            r.diagnostics
                .first()
                .map(|d| d.to_string())
                .unwrap_or_else(|| "invalid".into()),
        )
    })?;
    let v = shader.version;
    let insts: Vec<&Instruction> = shader.instructions().collect();
    let table = shader.constant_table().and_then(Result::ok);
    let needs = needs(&insts, &info);
    let uniforms = uniforms::build(table.as_ref(), &needs);
    let sig = signature::build(shader, &info);
    let ps1 = v.is_pixel() && v.major == 1;
    let (input_ty, output_ty) = if v.is_vertex() {
        ("VS_INPUT", "VS_OUTPUT")
    } else {
        ("PS_INPUT", "PS_OUTPUT")
    };

    // What each function touches, its callees' included.
    let mut touches: BTreeMap<Option<u32>, Touches> = BTreeMap::new();
    let mut ranges: Vec<(Option<u32>, std::ops::Range<usize>)> = vec![(None, info.main.clone())];
    ranges.extend(info.subroutines.iter().map(|(k, r)| (Some(*k), r.clone())));
    for (k, r) in &ranges {
        touches.insert(*k, touched(&insts[r.clone()], v, &sig));
    }
    // Close over calls (the call graph is acyclic in a valid shader; bounded passes anyway).
    for _ in 0..info.subroutines.len() + 1 {
        for (caller, callees) in &info.calls {
            let mut add = Touches::default();
            for c in callees {
                if let Some(t) = touches.get(&Some(*c)) {
                    add.regs.extend(t.regs.iter().copied());
                    add.inputs |= t.inputs;
                    add.outputs |= t.outputs;
                    add.loop_counter |= t.loop_counter;
                }
            }
            if let Some(t) = touches.get_mut(caller) {
                t.regs.extend(add.regs);
                t.inputs |= add.inputs;
                t.outputs |= add.outputs;
                t.loop_counter |= add.loop_counter;
            }
        }
    }
    let params = |k: u32| -> Vec<(String, String)> {
        let t = &touches[&Some(k)];
        let mut p = Vec::new();
        if t.inputs && !sig.inputs.is_empty() {
            p.push((format!("{input_ty} i"), "i".to_string()));
        }
        if t.outputs {
            p.push((format!("inout {output_ty} o"), "o".into()));
        }
        for (ty, n) in &t.regs {
            let (decl, name) = local(*ty, *n, v);
            p.push((format!("inout {decl}"), name));
        }
        if t.loop_counter {
            p.push(("int aL".into(), "aL".into()));
        }
        p
    };
    let mut call_args: BTreeMap<u32, String> = BTreeMap::new();
    for k in info.subroutines.keys() {
        let args: Vec<String> = params(*k).into_iter().map(|(_, n)| n).collect();
        call_args.insert(*k, args.join(", "));
    }

    let mut out = String::new();
    out.push_str(&format!("// Decompiled by dxso from a {v} shader.\n"));
    if ps1 {
        out.push_str(
            "// ps_1_x: compile for ps_2_0; constants read clamped to [-1, 1] as ps_1_x does.\n",
        );
    }
    out.push('\n');
    for t in &uniforms.types {
        out.push_str(t);
        out.push_str("\n\n");
    }
    for m in &info.bump_stages {
        out.push_str(&format!(
            "// Texture stage {m}'s bump-environment state (D3DTSS_BUMPENVMAT00..11, LSCALE, LOFFSET).\nfloat4 BumpEnvMat{m};\nfloat2 BumpEnvLum{m};\n"
        ));
    }
    for d in &uniforms.decls {
        out.push_str(d);
        out.push('\n');
    }
    if !uniforms.decls.is_empty() {
        out.push('\n');
    }
    if !sig.inputs.is_empty() {
        out.push_str(&format!("struct {input_ty}\n{{\n"));
        for f in &sig.inputs {
            out.push_str(&format!(
                "    {} {} : {};\n",
                vec_type(f.width),
                f.name,
                f.semantic
            ));
        }
        out.push_str("};\n\n");
    }
    let mut outputs = sig.outputs.clone();
    if outputs.is_empty() {
        outputs.push(signature::Field {
            name: if v.is_vertex() { "position" } else { "color0" }.into(),
            semantic: if v.is_vertex() { "POSITION" } else { "COLOR0" }.into(),
            width: 4,
        });
    }
    out.push_str(&format!("struct {output_ty}\n{{\n"));
    for f in &outputs {
        out.push_str(&format!(
            "    {} {} : {};\n",
            vec_type(f.width),
            f.name,
            f.semantic
        ));
    }
    out.push_str("};\n\n");

    let mut em = Emitter {
        version: v,
        info: &info,
        uniforms: &uniforms,
        sig: &sig,
        lines: Vec::new(),
        indent: 1,
        loop_depth: 0,
        pads: Vec::new(),
        ret: "return;".into(),
        locals: BTreeSet::new(),
        in_main: false,
        call_args,
        al_stack: Vec::new(),
        idioms: options.readable,
    };
    // Subroutines, callees before callers.
    let mut order = Vec::new();
    let mut seen = BTreeSet::new();
    fn visit(k: u32, info: &ShaderInfo, seen: &mut BTreeSet<u32>, order: &mut Vec<u32>) {
        if !seen.insert(k) {
            return;
        }
        for c in info.calls.get(&Some(k)).into_iter().flatten() {
            visit(*c, info, seen, order);
        }
        order.push(k);
    }
    for c in info.calls.get(&None).into_iter().flatten() {
        visit(*c, &info, &mut seen, &mut order);
    }
    for k in order {
        let Some(range) = info.subroutines.get(&k).cloned() else {
            continue;
        };
        em.lines.clear();
        em.indent = 1;
        em.ret = "return;".into();
        em.in_main = false;
        em.al_stack = if touches[&Some(k)].loop_counter {
            vec!["aL".into()]
        } else {
            Vec::new()
        };
        body(&mut em, &insts, range)?;
        if touches[&Some(k)].inputs {
            if let Some(line) = input_array(&info, &sig) {
                em.lines.insert(0, line);
            }
        }
        let ps: Vec<String> = params(k).into_iter().map(|(d, _)| d).collect();
        out.push_str(&format!("void l{k}({})\n{{\n", ps.join(", ")));
        let lines = if options.readable {
            fold::fold(std::mem::take(&mut em.lines), true)
        } else {
            fold::strip(std::mem::take(&mut em.lines))
        };
        for l in lines {
            out.push_str(&l);
            out.push('\n');
        }
        out.push_str("}\n\n");
    }

    // The entry point.
    em.lines.clear();
    em.indent = 1;
    em.in_main = true;
    em.ret = "return o;".into();
    em.al_stack.clear();
    body(&mut em, &insts, info.main.clone())?;
    if ps1 {
        em.lines.push("    o.color0 = r0;".into());
    }
    em.lines.push("    return o;".into());
    let mut all_regs: BTreeSet<(RT, u32)> = BTreeSet::new();
    for t in touches.values() {
        all_regs.extend(t.regs.iter().copied());
    }
    all_regs.extend(em.locals.iter().copied());
    if ps1 {
        all_regs.insert((RT::Temp, 0));
    }
    let mut head = Vec::new();
    head.push(format!("    {output_ty} o;"));
    let covered = top_level_writes(&insts[info.main.clone()], &sig, ps1);
    let mut body_lines = if options.readable {
        fold::fold(std::mem::take(&mut em.lines), false)
    } else {
        fold::strip(std::mem::take(&mut em.lines))
    };
    if options.readable {
        let names: Vec<String> = all_regs.iter().map(|(t, n)| local(*t, *n, v).1).collect();
        body_lines = fold::drop_dead_locals(body_lines, &names);
    }
    // ps_1_x's result is r0: in readable output r0 is the colour output itself, without a
    // copy at the end.
    if ps1 && options.readable && body_lines.iter().any(|l| fold::mentions(l, "r0")) {
        for l in body_lines.iter_mut() {
            *l = fold::replace_word(l, "r0", "o.color0");
        }
        body_lines.retain(|l| l != "    o.color0 = o.color0;");
        if !merge_zero_fill(&mut body_lines, "color0", 4) {
            head.push("    o.color0 = 0;".into());
        }
    }
    for (k, f) in outputs.iter().enumerate() {
        let full = (1u8 << f.width) - 1;
        if covered.get(&k).copied().unwrap_or(0) & full != full
            && !(options.readable && merge_zero_fill(&mut body_lines, &f.name, f.width))
        {
            head.push(format!("    o.{} = 0;", f.name));
        }
    }
    for (ty, n) in &all_regs {
        let (decl, name) = local(*ty, *n, v);
        // Folding may leave a register unused.
        if !body_lines.iter().any(|l| fold::mentions(l, &name)) {
            continue;
        }
        let init = if *ty == RT::Predicate { "false" } else { "0" };
        head.push(format!("    {decl} = {init};"));
    }
    if let Some(line) = input_array(&info, &sig) {
        head.push(line);
    }
    let input_param = if sig.inputs.is_empty() {
        String::new()
    } else {
        format!("{input_ty} i")
    };
    out.push_str(&format!("{output_ty} main({input_param})\n{{\n"));
    for l in head.into_iter().chain(body_lines) {
        out.push_str(&l);
        out.push('\n');
    }
    out.push_str("}\n");
    if fold::mentions(&out, uniforms::INPUT_PLACEHOLDER) {
        // A table entry is named `i`, like the input struct: the struct becomes `input`.
        // Struct members keep their names (`int i;` of a uniform struct).
        let input = if fold::mentions(&out, "input") {
            "input_"
        } else {
            "input"
        };
        let mut renamed = String::with_capacity(out.len() + 64);
        let mut in_struct = false;
        for line in out.lines() {
            if line.starts_with("struct ") {
                in_struct = true;
            } else if line == "};" {
                in_struct = false;
            }
            let line = if in_struct {
                line.to_string()
            } else {
                fold::replace_word(line, uniforms::INPUT, input)
            };
            renamed.push_str(&fold::replace_word(
                &line,
                uniforms::INPUT_PLACEHOLDER,
                uniforms::INPUT,
            ));
            renamed.push('\n');
        }
        out = renamed;
    }
    Ok(out)
}

/// An output field the shader writes only in part starts as zero. When the first statement to
/// touch it is an unconditional write of some contiguous components
/// (`o.color0.x = e;`), that write becomes the whole field with zeros around (`o.color0 =
/// float4(e, 0, 0, 0);`) instead of a separate zero fill; returns whether it did.
fn merge_zero_fill(lines: &mut [String], field: &str, width: u8) -> bool {
    const XYZW: &str = "xyzw";
    let target = format!("o.{field}");
    for line in lines.iter_mut() {
        let top = line.starts_with("    ") && !line[4..].starts_with(char::is_whitespace);
        if top {
            // A whole write first: nothing to fill.
            if let Some(expr) = line[4..].strip_prefix(&format!("{target} = ")) {
                return !fold::mentions(expr, &target);
            }
            if let Some(rest) = line[4..].strip_prefix(&format!("{target}.")) {
                let Some((mask, expr)) = rest.split_once(" = ") else {
                    return false;
                };
                let Some(expr) = expr.strip_suffix(';') else {
                    return false;
                };
                let first = mask.chars().next().and_then(|c| XYZW.find(c));
                let (Some(first), true) = (first, XYZW[first.unwrap_or(0)..].starts_with(mask))
                else {
                    return false;
                };
                let n = mask.len();
                if mask.is_empty() || first + n > width as usize || fold::mentions(expr, &target) {
                    return false;
                }
                // A plain swizzle of `n` lanes already has the width; anything else is cast.
                let swizzled = expr.rsplit_once('.').is_some_and(|(base, sw)| {
                    sw.len() == n
                        && sw.bytes().all(|c| b"xyzw".contains(&c))
                        && base
                            .bytes()
                            .all(|c| c.is_ascii_alphanumeric() || b"_.[]".contains(&c))
                });
                let value = if n == 1 || swizzled {
                    expr.to_string()
                } else {
                    format!("(float{n})({expr})")
                };
                let mut parts: Vec<String> = vec!["0".into(); first];
                parts.push(value);
                parts.extend(std::iter::repeat("0".to_string()).take(width as usize - first - n));
                *line = format!("    {target} = float{width}({});", parts.join(", "));
                return true;
            }
        }
        // Anything else that touches the field, or hands the whole output to a function, or a
        // return, comes first: keep the zero fill.
        let hands_over = line.match_indices('o').any(|(k, _)| {
            let b = line.as_bytes();
            let before = k == 0
                || !(b[k - 1].is_ascii_alphanumeric() || b[k - 1] == b'_' || b[k - 1] == b'.');
            let after = b.get(k + 1).map_or(true, |c| {
                !(c.is_ascii_alphanumeric() || *c == b'_' || *c == b'.')
            });
            before && after
        });
        if fold::mentions(line, &target) || hands_over || line.trim_start().starts_with("return") {
            return false;
        }
    }
    false
}

/// When the shader addresses inputs relatively: the declaration of `v_`, the inputs by
/// register number.
fn input_array(info: &ShaderInfo, sig: &signature::Signature) -> Option<String> {
    if !info.relative.contains(&RT::Input) {
        return None;
    }
    let n = sig
        .input_regs
        .keys()
        .filter(|(t, _)| *t == RT::Input)
        .map(|(_, n)| n + 1)
        .max()
        .unwrap_or(1);
    let items: Vec<String> = (0..n)
        .map(|k| match sig.input_regs.get(&(RT::Input, k)) {
            Some(&f) if sig.inputs[f].width == 4 => format!("i.{}", sig.inputs[f].name),
            _ => "float4(0, 0, 0, 0)".into(),
        })
        .collect();
    Some(format!("    float4 v_[{n}] = {{ {} }};", items.join(", ")))
}

fn vec_type(w: u8) -> String {
    if w <= 1 {
        "float".into()
    } else {
        format!("float{w}")
    }
}

/// The declaration and name of a register local.
fn local(ty: RT, n: u32, v: dxso::Version) -> (String, String) {
    match ty {
        RT::Temp => (format!("float4 r{n}"), format!("r{n}")),
        RT::Addr if v.is_pixel() => (format!("float4 t{n}"), format!("t{n}")),
        RT::Addr => ("float4 a0".into(), "a0".into()),
        RT::Predicate => ("bool4 p0".into(), "p0".into()),
        _ => (format!("float4 x{n}"), format!("x{n}")),
    }
}

/// The registers, inputs and outputs `insts` touch.
fn touched(insts: &[&Instruction], v: dxso::Version, sig: &signature::Signature) -> Touches {
    let mut t = Touches::default();
    let ps13 = v.is_pixel() && v.major == 1 && v.minor < 4;
    let reg = |r: dxso::Register, t: &mut Touches| match r.ty {
        RT::Temp | RT::Predicate => {
            t.regs.insert((r.ty, r.num as u32));
        }
        RT::Addr if v.is_vertex() || ps13 => {
            t.regs.insert((r.ty, r.num as u32));
        }
        RT::Addr | RT::Input | RT::MiscType => t.inputs = true,
        RT::Loop => t.loop_counter = true,
        RT::RastOut | RT::AttrOut | RT::Output | RT::ColorOut | RT::DepthOut => t.outputs = true,
        _ => {}
    };
    for i in insts {
        if i.opcode == Opcode::Dcl {
            continue;
        }
        if let Some(d) = i.dst {
            reg(d.register, &mut t);
        }
        for s in i.srcs.iter().chain(i.predicate.iter()) {
            reg(s.register, &mut t);
            if let Some(dxso::Relative::Token(rt)) = s.relative {
                reg(rt.register, &mut t);
            } else if s.relative.is_some() && v.is_vertex() {
                t.regs.insert((RT::Addr, 0));
            }
        }
        if ps13 && i.dst.is_some() {
            // Texture instructions read interpolated coordinates.
            t.inputs = true;
        }
    }
    let _ = sig;
    t
}

/// The components of each output field that unpredicated top-level instructions write.
fn top_level_writes(
    insts: &[&Instruction],
    sig: &signature::Signature,
    ps1: bool,
) -> BTreeMap<usize, u8> {
    let mut depth = 0i32;
    let mut out = BTreeMap::new();
    if ps1 {
        out.insert(0, 0xF);
    }
    for i in insts {
        match i.opcode {
            Opcode::If | Opcode::Ifc | Opcode::Loop | Opcode::Rep => depth += 1,
            Opcode::EndIf | Opcode::EndLoop | Opcode::EndRep => depth -= 1,
            _ => {}
        }
        if depth != 0 || i.predicate.is_some() || i.opcode == Opcode::Dcl {
            continue;
        }
        if let Some(d) = i.dst {
            if let Some(&f) = sig.output_regs.get(&register_key(d.register)) {
                let m = if matches!(d.register.ty, RT::RastOut | RT::DepthOut)
                    && d.register.num != 0
                    || d.register.ty == RT::DepthOut
                {
                    1
                } else {
                    d.mask.0
                };
                *out.entry(f).or_insert(0) |= m;
            }
        }
    }
    out
}

/// Writes the statements of the instructions at `range`.
fn body(
    em: &mut Emitter,
    insts: &[&Instruction],
    range: std::ops::Range<usize>,
) -> Result<(), Error> {
    let last = range.end.saturating_sub(1);
    let range_end = range.end;
    let mut skip = 0usize;
    for pos in range {
        let inst = insts[pos];
        match inst.opcode {
            Opcode::Rep | Opcode::Loop => {
                let src = inst.srcs.last().copied().unwrap_or_default();
                let n = src.register.index();
                let k = format!("k{}", em.loop_depth);
                em.loop_depth += 1;
                let (count, start, step) = match em.info.int_defs.get(&n) {
                    Some(v) => (v[0].to_string(), v[1], v[2]),
                    None => (
                        em.uniforms
                            .ints
                            .get(&n)
                            .cloned()
                            .unwrap_or_else(|| format!("i{n}")),
                        0,
                        1,
                    ),
                };
                em.push(format!("for (int {k} = 0; {k} < {count}; {k}++)"));
                em.push("{".into());
                em.indent += 1;
                if inst.opcode == Opcode::Loop {
                    let name = if em.al_stack.is_empty() {
                        "aL".to_string()
                    } else {
                        format!("aL{}", em.al_stack.len())
                    };
                    let e = match (start, step) {
                        (0, 1) => k.clone(),
                        (s, 1) => format!("{s} + {k}"),
                        (0, st) => format!("{k} * {st}"),
                        (s, st) => format!("{s} + {k} * {st}"),
                    };
                    em.push(format!("int {name} = {e};"));
                    em.al_stack.push(name);
                }
            }
            Opcode::EndRep | Opcode::EndLoop => {
                if inst.opcode == Opcode::EndLoop {
                    em.al_stack.pop();
                }
                em.loop_depth = em.loop_depth.saturating_sub(1);
                em.indent = em.indent.saturating_sub(1).max(1);
                em.push("}".into());
            }
            Opcode::If | Opcode::Ifc => {
                let c = em.condition(inst)?;
                em.push(format!("if ({c})"));
                em.push("{".into());
                em.indent += 1;
            }
            Opcode::Else => {
                em.indent = em.indent.saturating_sub(1).max(1);
                em.push("}".into());
                em.push("else".into());
                em.push("{".into());
                em.indent += 1;
            }
            Opcode::EndIf => {
                em.indent = em.indent.saturating_sub(1).max(1);
                em.push("}".into());
            }
            Opcode::Break => em.push("break;".into()),
            Opcode::BreakC | Opcode::BreakP => {
                let c = em.condition(inst)?;
                em.push(format!("if ({c}) break;"));
            }
            Opcode::Call | Opcode::CallNz => {
                let label = inst.srcs.first().map_or(0, |s| s.register.index());
                // The loop counter the callee reads is the innermost enclosing loop's (0
                // outside every loop: Direct3D leaves it undefined there).
                let al = em.al_stack.last().cloned().unwrap_or_else(|| "0".into());
                let args = em
                    .call_args
                    .get(&label)
                    .map(|a| {
                        a.split(", ")
                            .map(|x| if x == "aL" { al.as_str() } else { x })
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .unwrap_or_default();
                let call = format!("l{label}({args});");
                if inst.opcode == Opcode::CallNz {
                    let c = em.condition(inst)?;
                    em.push(format!("if ({c}) {call}"));
                } else {
                    em.push(call);
                }
            }
            Opcode::Ret => {
                if pos != last {
                    let r = em.ret.clone();
                    em.push(r);
                }
            }
            Opcode::Label => {}
            Opcode::Dp4 | Opcode::Dp3 if skip == 0 && em.idioms => {
                match dot_run(insts, pos, range_end) {
                    Some((m, n)) => {
                        skip = n - 1;
                        em.instruction(&m)?;
                    }
                    None => em.instruction(inst)?,
                }
            }
            _ if skip > 0 => skip -= 1,
            Opcode::Mul if em.idioms => {
                let dead = |len: usize, reg: dxso::Register, mask: u8| {
                    em.loop_depth == 0
                        && register_dead(&insts[pos + len..range_end], reg, mask, em.in_main)
                };
                match em.product_chain(&insts[pos..range_end], &dead) {
                    Some((len, d, value)) => {
                        skip = len - 1;
                        em.assign_value(&d, value)?;
                    }
                    None => em.instruction(inst)?,
                }
            }
            _ => em.instruction(inst)?,
        }
    }
    Ok(())
}

/// `true` when no instruction of `rest` reads the lanes `mask` of `reg` before writing them,
/// and no control flow comes first (straight-line code to the end of the function, where the
/// lanes are dead when `at_end`).
fn register_dead(rest: &[&Instruction], reg: dxso::Register, mask: u8, at_end: bool) -> bool {
    let mut live = mask;
    for i in rest {
        if !matches!(
            i.opcode,
            Opcode::Mov
                | Opcode::Add
                | Opcode::Sub
                | Opcode::Mul
                | Opcode::Mad
                | Opcode::Dp3
                | Opcode::Dp4
                | Opcode::Min
                | Opcode::Max
                | Opcode::Rcp
                | Opcode::Rsq
                | Opcode::MovA
                | Opcode::Nrm
                | Opcode::Tex
                | Opcode::TexLdl
                | Opcode::Ret
        ) {
            return false;
        }
        // The lanes of `reg` each source reads (all four where the operation mixes lanes).
        let componentwise = matches!(
            i.opcode,
            Opcode::Mov
                | Opcode::Add
                | Opcode::Sub
                | Opcode::Mul
                | Opcode::Mad
                | Opcode::Min
                | Opcode::Max
        );
        let dst_mask = i.dst.map_or(0xF, |d| d.mask.0);
        for s in i.srcs.iter().chain(i.predicate.iter()) {
            if s.relative
                .is_some_and(|r| matches!(r, dxso::Relative::Token(t) if t.register == reg))
            {
                return false;
            }
            if s.register == reg {
                let read = if componentwise {
                    (0..4)
                        .filter(|l| dst_mask & (1 << l) != 0)
                        .fold(0u8, |m, l| m | 1 << s.swizzle.get(l))
                } else {
                    0xF
                };
                if read & live != 0 {
                    return false;
                }
            }
        }
        if let Some(d) = i.dst {
            if d.register == reg && i.predicate.is_none() {
                live &= !d.mask.0;
                if live == 0 {
                    return true;
                }
            }
        }
    }
    // The end of the function: the entry point's temporaries die, a subroutine's do not.
    at_end
}

/// A run of `dp4` (`dp3`) at `pos` writing `.x`, `.y`, `.z` (`.w`) of one register from one
/// vector and consecutive constant registers: the `m4x4`-family instruction it computes and the
/// run's length.
fn dot_run(insts: &[&Instruction], pos: usize, end: usize) -> Option<(Instruction, usize)> {
    let first = insts[pos];
    let d = first.dst?;
    let a = *first.srcs.first()?;
    let m = *first.srcs.get(1)?;
    if first.predicate.is_some()
        || d.modifiers.0 != 0
        || d.shift.0 != 0
        || d.mask.0 != 1
        || !m.register.ty.is_float_const()
        || m.relative.is_some()
        || a.register == d.register
    {
        return None;
    }
    let mut n = 1;
    while pos + n < end && n < 4 {
        let i = insts[pos + n];
        let ok = i.opcode == first.opcode
            && i.predicate.is_none()
            && i.dst.is_some_and(|x| {
                x.register == d.register
                    && x.mask.0 == 1 << n
                    && x.modifiers.0 == 0
                    && x.shift.0 == 0
            })
            && i.srcs.first() == Some(&a)
            && i.srcs.get(1).is_some_and(|x| {
                x.register.ty == m.register.ty
                    && x.register.num == m.register.num + n as u16
                    && x.relative.is_none()
                    && x.swizzle == m.swizzle
                    && x.modifier == m.modifier
            });
        if !ok {
            break;
        }
        n += 1;
    }
    let opcode = match (first.opcode, n) {
        (Opcode::Dp4, 4) => Opcode::M4x4,
        (Opcode::Dp4, 3) => Opcode::M4x3,
        (Opcode::Dp3, 4) => Opcode::M3x4,
        (Opcode::Dp3, 3) => Opcode::M3x3,
        (Opcode::Dp3, 2) => Opcode::M3x2,
        _ => return None,
    };
    let mut out = *first;
    out.opcode = opcode;
    let mut dst = d;
    dst.mask = dxso::WriteMask((1u8 << n) - 1);
    out.dst = Some(dst);
    Some((out, n))
}

/// The registers the shader reads that need uniform declarations.
fn needs(insts: &[&Instruction], info: &ShaderInfo) -> uniforms::Needs {
    let v = info.version;
    let mut n = uniforms::Needs {
        floats: BTreeSet::new(),
        relative_bases: BTreeSet::new(),
        ints: BTreeSet::new(),
        bools: BTreeSet::new(),
        samplers: BTreeMap::new(),
        defs: info.float_defs.clone(),
        float_file: if v.is_vertex() {
            256
        } else if v.major == 3 {
            224
        } else {
            32
        },
    };
    for inst in insts {
        if matches!(
            inst.opcode,
            Opcode::Dcl | Opcode::Def | Opcode::DefI | Opcode::DefB
        ) {
            continue;
        }
        let rows = match inst.opcode {
            Opcode::M4x4 | Opcode::M3x4 => 4,
            Opcode::M4x3 | Opcode::M3x3 => 3,
            Opcode::M3x2 => 2,
            _ => 1,
        };
        for (k, s) in inst.srcs.iter().enumerate() {
            let r = s.register;
            let span = if k == 1 { rows } else { 1 };
            if r.ty.is_float_const() {
                for j in 0..span {
                    let idx = r.index() + j;
                    if s.relative.is_some() {
                        n.relative_bases.insert(idx);
                    } else if !info.float_defs.contains_key(&idx) {
                        n.floats.insert(idx);
                    }
                }
            } else if r.ty == RT::ConstInt && !info.int_defs.contains_key(&r.index()) {
                n.ints.insert(r.index());
            } else if r.ty == RT::ConstBool && !info.bool_defs.contains_key(&r.index()) {
                n.bools.insert(r.index());
            } else if r.ty == RT::Sampler {
                n.samplers
                    .insert(r.index(), info.samplers.get(&r.index()).copied());
            }
        }
        // ps_1_x texture instructions sample the stage their destination names.
        if v.is_pixel() && v.major == 1 {
            if let Some(d) = inst.dst {
                if is_ps1_sampling(inst.opcode) {
                    n.samplers.insert(d.register.num as u32, None);
                }
            }
        }
    }
    // Reads of the constant file through relative addressing only need the bases (the
    // flat-array declaration covers the rest).
    n
}

fn is_ps1_sampling(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Tex
            | Opcode::TexBem
            | Opcode::TexBemL
            | Opcode::TexReg2Ar
            | Opcode::TexReg2Gb
            | Opcode::TexReg2Rgb
            | Opcode::TexM3x2Tex
            | Opcode::TexM3x3Tex
            | Opcode::TexM3x3Spec
            | Opcode::TexM3x3VSpec
            | Opcode::TexDp3Tex
    )
}

// The README's examples run as doctests, so the crate's front page stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

#[cfg(test)]
mod tests {
    use super::merge_zero_fill;

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_first_partial_write_takes_the_zero_fill() {
        let mut body = lines(&["    o.position = i.position;", "    o.color0.yz = c0.xy;"]);
        assert!(merge_zero_fill(&mut body, "color0", 4));
        assert_eq!(body[1], "    o.color0 = float4(0, c0.xy, 0);");
        // Not when something else touches the field first, or the output is handed over.
        let mut body = lines(&["    if (b)", "    {", "        o.color0.x = 1.0;", "    }"]);
        assert!(!merge_zero_fill(&mut body, "color0", 4));
        let mut body = lines(&["    l1(i, o);", "    o.color0.x = 1.0;"]);
        assert!(!merge_zero_fill(&mut body, "color0", 4));
        // A whole first write needs no fill.
        let mut body = lines(&["    o.color0 = c0;"]);
        assert!(merge_zero_fill(&mut body, "color0", 4));
    }

    #[test]
    fn a_result_shift_scales_the_whole_result() {
        let s = dxso_text::parse("ps_1_4\ntexld r0, t0\nmad_x2 r0, r0, c0, v0\n").unwrap();
        let hlsl = crate::decompile(&s, &crate::Options::default()).unwrap();
        assert!(hlsl.contains("+ i.color0) * 2"), "{hlsl}");
    }
}
