//! One embedded shader as functions of the effect: the decompiled HLSL with its entry point,
//! structs and subroutines renamed after the shader (`VS0`, `VS0_INPUT`, `VS0_l2`), its
//! uniforms mapped to the effect's parameters by name, and the constants its preshader
//! computes assigned from expressions of the parameters at the top of the entry point.

use super::expr;
use crate::{decompile, Error, Options};
use dxso_fx::{Effect, EmbeddedShader};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// One decompiled shader of an effect.
#[derive(Clone, Debug)]
pub struct EffectShader {
    /// Its position in [`Effect::shaders`].
    pub index: usize,
    /// Where the effect holds it (the parameter, or the technique, pass and state).
    pub name: String,
    /// The entry point's name (`VS0`, `PS1`).
    pub entry: String,
    /// The profile of its `compile` (ps_1_x shaders decompile for ps_2_0, vs_1_1 for vs_2_0).
    pub profile: String,
    /// The original shader's version.
    pub version: dxso::Version,
    /// The shader as a stand-alone HLSL source: the parameters it reads declared as plain
    /// uniforms, then its functions as the effect has them.
    pub hlsl: String,
    /// Whether its preshader was folded into expressions (`None`: it has none).
    pub preshader_folded: Option<bool>,
    pub(crate) head: String,
    pub(crate) body: String,
}

/// The profile a decompiled shader is compiled for.
fn profile(v: dxso::Version) -> String {
    let k = if v.is_vertex() { "vs" } else { "ps" };
    match (v.major, v.minor) {
        (1, _) => format!("{k}_2_0"),
        (2, 0) => format!("{k}_2_0"),
        (2, _) => format!("{k}_2_a"),
        _ => format!("{k}_3_0"),
    }
}

/// A top-level uniform declaration of the decompiled text.
struct Decl {
    line: usize,
    name: String,
    /// `c`, `b`, `i`, `s`, or none for declarations without a register.
    set: Option<char>,
    register: u32,
    count: u32,
    /// The declared element type (`float4`).
    ty: String,
}

fn parse_decl(line: usize, text: &str) -> Option<Decl> {
    if text.starts_with(char::is_whitespace)
        || text.starts_with("//")
        || text.starts_with("struct")
        || !text.ends_with(';')
        || text.starts_with('}')
    {
        return None;
    }
    let body = text.trim_end_matches(';');
    let (left, reg) = match body.split_once(" : register(") {
        Some((l, r)) => (l, Some(r.trim_end_matches(')'))),
        None => (body, None),
    };
    let (ty, var) = left.rsplit_once(' ')?;
    let (name, count) = match var.split_once('[') {
        Some((n, c)) => (n, c.trim_end_matches(']').parse().ok()?),
        None => (var, 1),
    };
    let (set, register) = match reg {
        Some(r) => {
            let mut chars = r.chars();
            let set = chars.next()?;
            (Some(set), chars.as_str().parse().ok()?)
        }
        None => (None, 0),
    };
    Some(Decl {
        line,
        name: name.to_string(),
        set,
        register,
        count,
        ty: ty.to_string(),
    })
}

/// `true` when the decompiled declaration can be the effect's parameter itself: same name, and
/// not a parameter the shader reads as a flat array of registers (relative addressing) unless
/// the parameter is one.
fn maps_to_parameter(effect: &Effect, d: &Decl) -> bool {
    let Some((_, p)) = effect.parameter(&d.name) else {
        return false;
    };
    let flat = d.set == Some('c') && d.ty == "float4" && d.count > 1;
    if flat {
        return p.ty.class_raw == 1 && p.ty.columns() == 4 && p.ty.elements > 0;
    }
    true
}

/// Renames identifiers by `map`, leaving member names (after `.`) alone.
fn rename(text: &str, map: &BTreeMap<String, String>) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let bytes = text.as_bytes();
    let mut k = 0;
    while k < bytes.len() {
        let c = bytes[k];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = k;
            while k < bytes.len() && (bytes[k].is_ascii_alphanumeric() || bytes[k] == b'_') {
                k += 1;
            }
            let word = &text[start..k];
            let member = start > 0 && bytes[start - 1] == b'.';
            match map.get(word) {
                Some(new) if !member => out.push_str(new),
                _ => out.push_str(word),
            }
        } else if c.is_ascii_digit() {
            // A number (`1.0e5`, `0x1f`) is not an identifier, whatever letters it holds.
            let start = k;
            while k < bytes.len() && (bytes[k].is_ascii_alphanumeric() || bytes[k] == b'.') {
                k += 1;
            }
            out.push_str(&text[start..k]);
        } else {
            let ch = text[k..].chars().next().unwrap_or(' ');
            out.push(ch);
            k += ch.len_utf8();
        }
    }
    out
}

/// Decompiles the `index`-th shader of `effect`.
pub(crate) fn build(
    effect: &Effect,
    index: usize,
    name: &str,
    sh: &EmbeddedShader,
    options: &Options,
) -> Result<EffectShader, Error> {
    let v = sh.shader.version;
    let entry = format!("{}{index}", if v.is_vertex() { "VS" } else { "PS" });
    let hlsl = decompile(&sh.shader, options)?;
    let lines: Vec<&str> = hlsl.lines().collect();

    // What to rename.
    let mut map: BTreeMap<String, String> = BTreeMap::new();
    for s in ["VS_INPUT", "PS_INPUT"] {
        map.insert(s.into(), format!("{entry}_INPUT"));
    }
    for s in ["VS_OUTPUT", "PS_OUTPUT"] {
        map.insert(s.into(), format!("{entry}_OUTPUT"));
    }
    map.insert("main".into(), entry.clone());
    for l in &lines {
        if let Some(rest) = l.strip_prefix("void ") {
            if let Some((f, _)) = rest.split_once('(') {
                map.insert(f.to_string(), format!("{entry}_{f}"));
            }
        }
        if let Some(s) = l.strip_prefix("struct ") {
            let s = s.trim();
            if !s.is_empty() && !map.contains_key(s) {
                map.insert(s.to_string(), format!("{entry}_{s}"));
            }
        }
    }
    let decls: Vec<Decl> = lines
        .iter()
        .enumerate()
        .filter_map(|(k, l)| parse_decl(k, l))
        .collect();
    let mut mapped: BTreeSet<usize> = BTreeSet::new();
    for d in &decls {
        if maps_to_parameter(effect, d) {
            mapped.insert(d.line);
        } else {
            map.insert(d.name.clone(), format!("{entry}_{}", d.name));
        }
    }

    // The preshader: constants computed from parameters.
    let mut statics: BTreeMap<usize, String> = BTreeMap::new();
    let mut assigns: Vec<String> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let mut inputs: BTreeSet<String> = BTreeSet::new();
    let preshader_folded = match sh.preshader() {
        None => None,
        Some(Err(e)) => {
            notes.push(format!("// The preshader cannot be read: {e}"));
            Some(false)
        }
        Some(Ok(program)) => {
            let folded = expr::fold(&program);
            let mut ok = folded.is_some();
            if let Some(f) = &folded {
                let mut by_decl: BTreeMap<usize, BTreeMap<u32, Vec<String>>> = BTreeMap::new();
                let units: Vec<(char, u32, u32, &String)> = f
                    .floats
                    .iter()
                    .map(|(u, e)| ('c', u / 4, u % 4, e))
                    .chain(f.ints.iter().map(|(u, e)| ('i', u / 4, u % 4, e)))
                    .chain(f.bools.iter().map(|(r, e)| ('b', *r, 0, e)))
                    .collect();
                for (set, reg, comp, e) in units {
                    let d = decls.iter().position(|d| {
                        d.set == Some(set)
                            && !mapped.contains(&d.line)
                            && (d.register..d.register.saturating_add(d.count)).contains(&reg)
                    });
                    // A register the shader does not read needs nothing.
                    let Some(d) = d else {
                        continue;
                    };
                    let width = match (set, decls[d].ty.as_str()) {
                        ('c', "float4") | ('i', "int4") => 4,
                        ('b', "bool") => 1,
                        _ => {
                            ok = false;
                            break;
                        }
                    };
                    let slot = by_decl
                        .entry(d)
                        .or_default()
                        .entry(reg - decls[d].register)
                        .or_insert_with(|| vec!["0".to_string(); width]);
                    if let Some(x) = slot.get_mut(comp as usize) {
                        *x = match set {
                            'b' => format!("{} != 0", expr::parenthesised(e)),
                            'i' => format!("(int){}", expr::parenthesised(e)),
                            _ => e.clone(),
                        };
                    }
                }
                if let Some(t) = program.constant_table() {
                    for c in &t.constants {
                        inputs.insert(c.name.as_str().into_owned());
                    }
                }
                if ok {
                    // Locals of the entry point when nothing else reads them; statics when
                    // a subroutine does (HLSL lets a function assign a static global).
                    let subroutines = lines.iter().any(|l| l.starts_with("void "));
                    for (d, regs) in by_decl {
                        let decl = &decls[d];
                        let name = &map[&decl.name];
                        let arr = if decl.count > 1 {
                            format!("[{}]", decl.count)
                        } else {
                            String::new()
                        };
                        let value = |comps: &[String]| {
                            if comps.len() == 1 {
                                comps[0].clone()
                            } else {
                                simplify_vector(&decl.ty, comps)
                            }
                        };
                        if subroutines {
                            statics.insert(
                                decl.line,
                                format!(
                                    "// Computed from the parameters (the preshader).\nstatic {} {name}{arr};",
                                    decl.ty
                                ),
                            );
                        } else {
                            statics.insert(decl.line, String::new());
                            if decl.count > 1 {
                                assigns.push(format!("    {} {name}{arr};", decl.ty));
                            } else if let Some((_, comps)) = regs.iter().next() {
                                assigns.push(format!("    {} {name} = {};", decl.ty, value(comps)));
                                continue;
                            }
                        }
                        for (r, comps) in &regs {
                            let at = if decl.count > 1 {
                                format!("{name}[{r}]")
                            } else {
                                name.clone()
                            };
                            assigns.push(format!("    {at} = {};", value(comps)));
                        }
                    }
                    if !assigns.is_empty() {
                        assigns.insert(
                            0,
                            "    // Computed from the parameters (the preshader).".into(),
                        );
                    }
                }
            }
            if !ok {
                statics.clear();
                assigns.clear();
                inputs.clear();
                notes.push("// The preshader, not folded into expressions:".into());
                for l in program.listing().lines() {
                    notes.push(format!("//   {}", l.trim_start_matches("// ")));
                }
            }
            Some(ok)
        }
    };

    // Split the text: structs and the prototype go ahead of the parameters.
    let mut head = String::new();
    let mut body = String::new();
    let mut standalone_decls = String::new();
    let _ = writeln!(body, "// Shader #{index}: {} ({name})\n", sh.shader.version);
    for n in &notes {
        body.push_str(n);
        body.push('\n');
    }
    let entry_head = |l: &str| l.contains(" main(") && !l.starts_with(char::is_whitespace);
    let mut k = 0;
    let mut in_entry = false;
    while k < lines.len() {
        let l = lines[k];
        if k == 0 && l.starts_with("// Decompiled by dxso") {
            k += 1;
            continue;
        }
        if l.starts_with("struct ") {
            let mut block = String::new();
            while k < lines.len() {
                block.push_str(lines[k]);
                block.push('\n');
                if lines[k] == "};" {
                    break;
                }
                k += 1;
            }
            head.push_str(&rename(&block, &map));
            head.push('\n');
            k += 1;
            continue;
        }
        if mapped.contains(&k) {
            standalone_decls.push_str(&rename(l, &map));
            standalone_decls.push('\n');
            k += 1;
            continue;
        }
        if let Some(s) = statics.get(&k) {
            if !s.is_empty() {
                body.push_str(s);
                body.push('\n');
            }
            k += 1;
            continue;
        }
        if entry_head(l) {
            let proto = rename(l, &map);
            let _ = writeln!(head, "{proto};\n");
            in_entry = true;
        }
        body.push_str(&rename(l, &map));
        body.push('\n');
        if in_entry && l == "{" {
            in_entry = false;
            for a in &assigns {
                body.push_str(a);
                body.push('\n');
            }
        }
        k += 1;
    }
    body.push('\n');
    let body = squeeze_blank_lines(&body);

    // The parameters the preshader expressions read that the shader does not declare.
    for n in &inputs {
        if !decls
            .iter()
            .any(|d| &d.name == n && mapped.contains(&d.line))
        {
            if let Some((_, p)) = effect.parameter(n) {
                let _ = writeln!(standalone_decls, "{};", super::plain_declaration(&p.ty));
            }
        }
    }
    let standalone = format!("{head}{standalone_decls}\n{body}");
    Ok(EffectShader {
        index,
        name: name.to_string(),
        entry,
        profile: profile(v),
        version: v,
        hlsl: standalone,
        preshader_folded,
        head,
        body,
    })
}

/// A vector of components: the parameter itself when they are its components in order
/// (`g_Pos1.x, g_Pos1.y, ...` is `g_Pos1`), else the constructor.
fn simplify_vector(ty: &str, comps: &[String]) -> String {
    const XYZW: [&str; 4] = ["x", "y", "z", "w"];
    if let Some(base) = comps[0].strip_suffix(".x") {
        let whole = comps.len() == 4
            && comps
                .iter()
                .enumerate()
                .all(|(k, c)| c.strip_suffix(&format!(".{}", XYZW[k])) == Some(base));
        if whole
            && base
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_[]".contains(c))
        {
            return base.to_string();
        }
    }
    format!("{ty}({})", comps.join(", "))
}

/// At most one empty line in a row (removed declarations leave runs of them).
fn squeeze_blank_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = false;
    for l in text.lines() {
        if l.trim().is_empty() {
            if blank {
                continue;
            }
            blank = true;
        } else {
            blank = false;
        }
        out.push_str(l);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rename_leaves_members_and_numbers() {
        let mut m = BTreeMap::new();
        m.insert("main".to_string(), "VS0".to_string());
        m.insert("e5".to_string(), "X".to_string());
        assert_eq!(rename("o.main = main(1.0e5);", &m), "o.main = VS0(1.0e5);");
    }

    #[test]
    fn declarations_parse() {
        let d = parse_decl(3, "float4 c_[4] : register(c12);").unwrap();
        assert_eq!(
            (d.name.as_str(), d.set, d.register, d.count),
            ("c_", Some('c'), 12, 4)
        );
        let d = parse_decl(0, "row_major float4x4 World : register(c0);").unwrap();
        assert_eq!(
            (d.ty.as_str(), d.name.as_str()),
            ("row_major float4x4", "World")
        );
        assert!(parse_decl(0, "    float4 r0 = 0;").is_none());
    }
}
