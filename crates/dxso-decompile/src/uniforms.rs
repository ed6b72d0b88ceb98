//! Uniform declarations: the constant table's names, types and registers, and stable names for
//! the registers no table entry covers.

use crate::literal::literal;
use dxso::ctab::{Constant, ConstantTable, ParameterClass, ParameterType, RegisterSet, TypeInfo};
use dxso::TextureType;
use std::collections::{BTreeMap, BTreeSet};

/// How one float-constant register is spelled.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RegView {
    /// An expression of the register's value (`World[2]`, `transpose(Bones[1])[0]`, `Light`).
    pub expr: String,
    /// How many components the expression has (1-4); the others read as 0.
    pub width: u8,
    /// The constant the register belongs to.
    pub owner: usize,
}

/// A constant declared as a flat array of registers because the shader indexes it relatively.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FlatArray {
    /// The declared name.
    pub name: String,
    /// The first register.
    pub base: u32,
    /// The number of registers.
    pub count: u32,
}

/// Every uniform of the decompiled shader.
#[derive(Debug, Default)]
pub(crate) struct Uniforms {
    /// The declarations, in register order, each a full line without the newline.
    pub decls: Vec<String>,
    /// Struct type declarations the uniforms need.
    pub types: Vec<String>,
    /// Float registers by index.
    pub floats: BTreeMap<u32, RegView>,
    /// Flat arrays (for relative addressing), by first register.
    pub flats: Vec<FlatArray>,
    /// `i#` names.
    pub ints: BTreeMap<u32, String>,
    /// `b#` names.
    pub bools: BTreeMap<u32, String>,
    /// `s#` names and types.
    pub samplers: BTreeMap<u32, (String, TextureType)>,
    /// Names of the constant table's entries (for the readability measure).
    pub names: Vec<String>,
}

/// `true` when `s` can be an HLSL identifier.
pub(crate) fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !RESERVED.contains(&s)
}

/// The name the decompiler gives the entry point's input struct.
pub(crate) const INPUT: &str = "i";
/// What a table entry named like the input struct ([`INPUT`]) is called until the decompiler
/// renames the struct (to `input`) and gives the entry its own name back.
pub(crate) const INPUT_PLACEHOLDER: &str = "ctab_i_";

/// Names the decompiler gives its own variables and functions (fine as struct members).
const OWN: &[&str] = &["main", "i", "o", "aL", "a0", "p0"];

/// Names the decompiler's own code uses or HLSL reserves.
const RESERVED: &[&str] = &[
    "main", "i", "o", "aL", "a0", "p0", "float", "int", "bool", "half", "return", "if", "else",
    "for", "while", "do", "break", "continue", "struct", "in", "out", "inout", "static", "const",
    "uniform", "sampler", "texture", "true", "false", "discard", "register", "void",
];

fn float_type(rows: u16, cols: u16, class: ParameterClass, ty: Option<ParameterType>) -> String {
    let base = match ty {
        Some(ParameterType::Bool) => "bool",
        Some(ParameterType::Int) => "int",
        _ => "float",
    };
    match class {
        ParameterClass::Scalar => base.to_string(),
        ParameterClass::Vector => format!("{base}{}", cols.clamp(1, 4)),
        ParameterClass::MatrixRows => {
            format!("row_major {base}{}x{}", rows.clamp(1, 4), cols.clamp(1, 4))
        }
        _ => format!(
            "column_major {base}{}x{}",
            rows.clamp(1, 4),
            cols.clamp(1, 4)
        ),
    }
}

/// Lays out `ty` (one element when `single`) from `expr`: one view per register.
fn layout(ty: &TypeInfo, expr: &str, single: bool, owner: usize, out: &mut Vec<RegView>) {
    if !single && ty.elements > 1 {
        for e in 0..ty.elements {
            layout(ty, &format!("{expr}[{e}]"), true, owner, out);
        }
        return;
    }
    match ty.class() {
        Some(ParameterClass::Scalar) => out.push(RegView {
            expr: expr.to_string(),
            width: 1,
            owner,
        }),
        Some(ParameterClass::Vector) => out.push(RegView {
            expr: expr.to_string(),
            width: ty.columns.clamp(1, 4) as u8,
            owner,
        }),
        Some(ParameterClass::MatrixRows) => {
            for r in 0..ty.rows.clamp(1, 4) {
                out.push(RegView {
                    expr: format!("{expr}[{r}]"),
                    width: ty.columns.clamp(1, 4) as u8,
                    owner,
                })
            }
        }
        Some(ParameterClass::MatrixColumns) => {
            for c in 0..ty.columns.clamp(1, 4) {
                out.push(RegView {
                    expr: format!("transpose({expr})[{c}]"),
                    width: ty.rows.clamp(1, 4) as u8,
                    owner,
                })
            }
        }
        Some(ParameterClass::Struct) => {
            for m in &ty.members {
                layout(
                    &m.ty,
                    &format!("{expr}.{}", m.name.as_str()),
                    false,
                    owner,
                    out,
                );
            }
        }
        _ => {}
    }
}

/// The HLSL type of `ty` (struct types are added to `types`), without array brackets.
fn type_name(ty: &TypeInfo, types: &mut Vec<String>, counter: &mut usize) -> Option<String> {
    let class = ty.class()?;
    Some(match class {
        ParameterClass::Struct => {
            let mut fields = Vec::new();
            for m in &ty.members {
                let t = type_name(&m.ty, types, counter)?;
                let name = m.name.as_str();
                // A member is read after `.`: only HLSL's own words are out, not the names
                // the decompiler gives its variables.
                if !is_identifier(&name) && !OWN.contains(&name.as_ref()) {
                    return None;
                }
                let arr = if m.ty.elements > 1 {
                    format!("[{}]", m.ty.elements)
                } else {
                    String::new()
                };
                fields.push(format!("    {t} {name}{arr};"));
            }
            *counter += 1;
            let name = format!("Struct{}", *counter);
            types.push(format!("struct {name}\n{{\n{}\n}};", fields.join("\n")));
            name
        }
        ParameterClass::Object => return None,
        _ => float_type(ty.rows, ty.columns, class, ty.ty()),
    })
}

/// The sampler's texture type: the `dcl`'s (what the bytecode samples; fxc declares a
/// `sampler1D` as `dcl_2d`), else the table's (shader model 1 declares none).
fn sampler_type(ty: Option<ParameterType>, declared: Option<TextureType>) -> TextureType {
    if let Some(d) = declared.filter(|d| *d != TextureType::Unknown) {
        return d;
    }
    match ty {
        Some(ParameterType::SamplerCube) => TextureType::Cube,
        Some(ParameterType::Sampler3D) => TextureType::Volume,
        Some(ParameterType::Sampler1D) => TextureType::Texture1D,
        Some(ParameterType::Sampler2D) => TextureType::Texture2D,
        _ => declared.unwrap_or(TextureType::Texture2D),
    }
}

/// The HLSL sampler type of a texture type.
pub(crate) fn sampler_keyword(t: TextureType) -> &'static str {
    match t {
        TextureType::Cube => "samplerCUBE",
        TextureType::Volume => "sampler3D",
        TextureType::Texture1D => "sampler1D",
        _ => "sampler2D",
    }
}

/// What the shader reads, as [`build`] needs it.
pub(crate) struct Needs {
    /// Float registers read directly (not `def`ed).
    pub floats: BTreeSet<u32>,
    /// Float registers read relatively, as ranges `[base, base + span)`; the span is the most
    /// the shader's own structure says (the constant's size when a table entry covers `base`).
    pub relative_bases: BTreeSet<u32>,
    /// `i#` read (not `defi`ed).
    pub ints: BTreeSet<u32>,
    /// `b#` read (not `defb`ed).
    pub bools: BTreeSet<u32>,
    /// Samplers used and their declared types.
    pub samplers: BTreeMap<u32, Option<TextureType>>,
    /// The float-constant file size (for a flat array without a table entry).
    pub float_file: u32,
    /// `def` values (bit patterns) by register.
    pub defs: BTreeMap<u32, [u32; 4]>,
}

/// Declares every uniform the shader needs.
pub(crate) fn build(table: Option<&ConstantTable>, needs: &Needs) -> Uniforms {
    let mut u = Uniforms::default();
    let mut counter = 0;
    let mut taken: BTreeSet<String> = BTreeSet::new();
    let constants: Vec<&Constant> = table
        .map(|t| t.constants.iter().collect())
        .unwrap_or_default();
    // Table entries whose registers the shader addresses relatively become flat arrays.
    let relative_owner = |c: &Constant| {
        let (lo, hi) = (
            c.register_index as u32,
            c.register_index as u32 + c.register_count as u32,
        );
        needs.relative_bases.iter().any(|b| *b >= lo && *b < hi)
    };
    let mut decls: Vec<(u32, u8, String)> = Vec::new();
    for (owner, c) in constants.iter().enumerate() {
        let mut name = c.name.as_str().into_owned();
        if name == INPUT {
            // The entry point's input struct is `i`; the decompiler renames it afterwards
            // (see [`INPUT_PLACEHOLDER`]) so the table entry keeps its name.
            name = INPUT_PLACEHOLDER.to_string();
        }
        if !is_identifier(&name) || taken.contains(&name) {
            continue;
        }
        let reg = c.register_index as u32;
        let arr = if c.ty.elements > 1 {
            format!("[{}]", c.ty.elements)
        } else {
            String::new()
        };
        match c.register_set() {
            Some(RegisterSet::Float4) => {
                if relative_owner(c) || c.ty.class() == Some(ParameterClass::Object) {
                    if c.ty.class() == Some(ParameterClass::Vector)
                        && c.ty.columns == 4
                        && c.ty.elements as u32 >= c.register_count as u32
                    {
                        // A plain float4 array is already flat.
                    }
                    let count = c.register_count.max(1) as u32;
                    for k in 0..count {
                        u.floats.insert(
                            reg + k,
                            RegView {
                                expr: format!("{name}[{k}]"),
                                width: 4,
                                owner,
                            },
                        );
                    }
                    u.flats.push(FlatArray {
                        name: name.clone(),
                        base: reg,
                        count,
                    });
                    decls.push((
                        reg,
                        0,
                        format!("float4 {name}[{count}] : register(c{reg});"),
                    ));
                } else {
                    // fxc trims a matrix to the registers the shader reads too: declare the
                    // columns (rows) the table covers so the next constant keeps its register.
                    let mut ty = c.ty.clone();
                    if ty.elements <= 1 {
                        let n = c.register_count.max(1);
                        match ty.class() {
                            Some(ParameterClass::MatrixColumns) if n < ty.columns => ty.columns = n,
                            Some(ParameterClass::MatrixRows) if n < ty.rows => ty.rows = n,
                            Some(ParameterClass::Struct) => {
                                // And a struct to the members whose registers the table covers.
                                let mut used = 0;
                                let keep = ty
                                    .members
                                    .iter()
                                    .take_while(|m| {
                                        let mut regs = Vec::new();
                                        layout(&m.ty, "", false, owner, &mut regs);
                                        used += regs.len();
                                        used <= n as usize
                                    })
                                    .count();
                                if keep > 0 {
                                    ty.members.truncate(keep);
                                }
                            }
                            _ => {}
                        }
                    }
                    let Some(t) = type_name(&ty, &mut u.types, &mut counter) else {
                        continue;
                    };
                    // fxc trims an array to the registers the shader uses; declare only the
                    // elements the table covers so the compiler places it the same way.
                    let mut one = Vec::new();
                    layout(&c.ty, &name, true, owner, &mut one);
                    let per = one.len().max(1);
                    let covered = (c.register_count as usize).div_ceil(per);
                    let arr = if c.ty.elements > 1 {
                        format!("[{}]", covered.min(c.ty.elements as usize).max(1))
                    } else {
                        arr
                    };
                    let mut views = Vec::new();
                    layout(&c.ty, &name, false, owner, &mut views);
                    for (k, v) in views
                        .into_iter()
                        .take(c.register_count as usize)
                        .enumerate()
                    {
                        u.floats.insert(reg + k as u32, v);
                    }
                    decls.push((reg, 0, format!("{t} {name}{arr} : register(c{reg});")));
                }
            }
            Some(set @ (RegisterSet::Int4 | RegisterSet::Bool)) => {
                // One register per scalar: arrays, vectors and matrices of them are declared
                // as flat arrays over their registers.
                let (ty, prefix, order) = if set == RegisterSet::Int4 {
                    ("int", 'i', 1)
                } else {
                    ("bool", 'b', 2)
                };
                let count = c.register_count.max(1) as u32;
                for k in 0..count {
                    let n = if count > 1 {
                        format!("{name}[{k}]")
                    } else {
                        name.clone()
                    };
                    if set == RegisterSet::Int4 {
                        u.ints.insert(reg + k, n);
                    } else {
                        u.bools.insert(reg + k, n);
                    }
                }
                let arr = if count > 1 {
                    format!("[{count}]")
                } else {
                    String::new()
                };
                decls.push((
                    reg,
                    order,
                    format!("{ty} {name}{arr} : register({prefix}{reg});"),
                ));
            }
            Some(RegisterSet::Sampler) => {
                let count = c.register_count.max(1) as u32;
                let mut first = None;
                for k in 0..count {
                    let ty =
                        sampler_type(c.ty.ty(), needs.samplers.get(&(reg + k)).copied().flatten());
                    first.get_or_insert(ty);
                    let n = if count > 1 && c.ty.elements > 1 {
                        format!("{name}[{k}]")
                    } else {
                        name.clone()
                    };
                    u.samplers.insert(reg + k, (n, ty));
                }
                let kw = sampler_keyword(first.unwrap_or(TextureType::Texture2D));
                let arr = if count > 1 && c.ty.elements > 1 {
                    arr.clone()
                } else {
                    String::new()
                };
                decls.push((reg, 3, format!("{kw} {name}{arr} : register(s{reg});")));
            }
            None => continue,
        }
        taken.insert(name.clone());
        u.names.push(name);
    }
    // Relative reads no table entry covers: one flat array from the lowest such base to the
    // highest register read there directly or relatively (the table that would say more is
    // absent, so nothing sets the registers past it by name anyway).
    let uncovered: Vec<u32> = needs
        .relative_bases
        .iter()
        .copied()
        .filter(|b| !u.floats.contains_key(b))
        .collect();
    if let (Some(&lo), Some(&top)) = (uncovered.first(), uncovered.last()) {
        let direct = needs.floats.range(lo..).next_back().map_or(lo, |r| *r);
        let mut end = top.max(direct) + 1;
        if let Some((&k, _)) = u.floats.range(lo..).next() {
            end = end.min(k);
        }
        let mut end = end.min(needs.float_file.max(lo + 1));
        // A run of `def`s read relatively: the values are the shader's own, so the array is
        // a constant one holding them, as far as the run goes (the index is only known at
        // run time).
        let defined = (lo..end).all(|k| needs.defs.contains_key(&k));
        if defined {
            while needs.defs.contains_key(&end) && end < needs.float_file {
                end += 1;
            }
        }
        let name = unique(format!("c{lo}_"), &taken);
        for k in lo..end {
            u.floats.insert(
                k,
                RegView {
                    expr: format!("{name}[{}]", k - lo),
                    width: 4,
                    owner: usize::MAX,
                },
            );
        }
        u.flats.push(FlatArray {
            name: name.clone(),
            base: lo,
            count: end - lo,
        });
        let decl = if defined {
            let rows: Vec<String> = (lo..end)
                .map(|k| {
                    let v = needs.defs[&k].map(|b| literal(f32::from_bits(b)));
                    format!("float4({})", v.join(", "))
                })
                .collect();
            format!(
                "static const float4 {name}[{}] = {{ {} }};",
                end - lo,
                rows.join(", ")
            )
        } else if (lo..end).any(|k| needs.defs.contains_key(&k)) {
            // Some registers are the application's, some the shader's `def`s: a uniform whose
            // defaults are the `def` values (what a runtime loads with the table's defaults).
            let rows: Vec<String> = (lo..end)
                .map(|k| {
                    let v = needs
                        .defs
                        .get(&k)
                        .copied()
                        .unwrap_or_default()
                        .map(|b| literal(f32::from_bits(b)));
                    format!("float4({})", v.join(", "))
                })
                .collect();
            format!(
                "float4 {name}[{}] : register(c{lo}) = {{ {} }};",
                end - lo,
                rows.join(", ")
            )
        } else {
            format!("float4 {name}[{}] : register(c{lo});", end - lo)
        };
        decls.push((lo, 0, decl));
        taken.insert(name);
    }
    for &r in &needs.floats {
        if u.floats.contains_key(&r) {
            continue;
        }
        let name = unique(format!("c{r}"), &taken);
        u.floats.insert(
            r,
            RegView {
                expr: name.clone(),
                width: 4,
                owner: usize::MAX,
            },
        );
        decls.push((r, 0, format!("float4 {name} : register(c{r});")));
        taken.insert(name);
    }
    for &r in &needs.ints {
        if let std::collections::btree_map::Entry::Vacant(slot) = u.ints.entry(r) {
            let name = unique(format!("i{r}"), &taken);
            decls.push((r, 1, format!("int {name} : register(i{r});")));
            slot.insert(name.clone());
            taken.insert(name);
        }
    }
    for &r in &needs.bools {
        if let std::collections::btree_map::Entry::Vacant(slot) = u.bools.entry(r) {
            let name = unique(format!("b{r}"), &taken);
            decls.push((r, 2, format!("bool {name} : register(b{r});")));
            slot.insert(name.clone());
            taken.insert(name);
        }
    }
    for (&r, &ty) in &needs.samplers {
        if let std::collections::btree_map::Entry::Vacant(slot) = u.samplers.entry(r) {
            let name = unique(format!("s{r}"), &taken);
            let ty = ty.unwrap_or(TextureType::Texture2D);
            decls.push((
                r,
                3,
                format!("{} {name} : register(s{r});", sampler_keyword(ty)),
            ));
            slot.insert((name.clone(), ty));
            taken.insert(name);
        }
    }
    decls.sort_by_key(|(r, set, _)| (*set, *r));
    u.decls = decls.into_iter().map(|(_, _, d)| d).collect();
    u
}

fn unique(mut name: String, taken: &BTreeSet<String>) -> String {
    while taken.contains(&name) {
        name.push('_');
    }
    name
}
