//! The entry point's input and output structs: one field per semantic, from the `dcl` tokens
//! and the version's fixed registers.

use dxso::analysis::RegisterKey;
use dxso::{DeclUsage, Opcode, RegisterType as RT, Shader, ShaderInfo};
use std::collections::BTreeMap;

/// One field of the input or output struct.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Field {
    /// The field's name (`position`, `texcoord1`).
    pub name: String,
    /// The semantic (`POSITION`, `TEXCOORD1`).
    pub semantic: String,
    /// 1-4 components.
    pub width: u8,
}

/// The entry point's signature.
#[derive(Debug, Default)]
pub(crate) struct Signature {
    /// Input fields.
    pub inputs: Vec<Field>,
    /// Input registers by key: the field's index.
    pub input_regs: BTreeMap<RegisterKey, usize>,
    /// Output fields.
    pub outputs: Vec<Field>,
    /// Output registers by key: the field's index.
    pub output_regs: BTreeMap<RegisterKey, usize>,
}

fn field_name(usage: DeclUsage, index: u8) -> String {
    match usage {
        DeclUsage::TexCoord | DeclUsage::Color => format!("{}{index}", usage.name()),
        _ if index == 0 => usage.name().to_string(),
        _ => format!("{}{index}", usage.name()),
    }
}

fn semantic(usage: DeclUsage, index: u8) -> String {
    let name = match usage {
        DeclUsage::PositionT => "POSITIONT".to_string(),
        u => u.name().to_ascii_uppercase(),
    };
    format!("{name}{index}")
}

fn push(fields: &mut Vec<Field>, name: String, semantic: String, width: u8) -> usize {
    if let Some(k) = fields.iter().position(|f| f.semantic == semantic) {
        return k;
    }
    // Two registers with one name (`position` twice) get distinct field names.
    let mut name = name;
    while fields.iter().any(|f| f.name == name) {
        name.push('_');
    }
    fields.push(Field {
        name,
        semantic,
        width,
    });
    fields.len() - 1
}

/// Writes per output register: the components written anywhere.
fn written_masks(shader: &Shader) -> BTreeMap<RegisterKey, u8> {
    let mut out = BTreeMap::new();
    for inst in shader.instructions() {
        if inst.opcode == Opcode::Dcl {
            continue;
        }
        if let Some(d) = inst.dst {
            *out.entry(dxso::analysis::register_key(d.register))
                .or_insert(0) |= d.mask.0;
        }
    }
    out
}

fn width_of(mask: u8) -> u8 {
    (8 - mask.leading_zeros() as u8).max(1)
}

/// Builds the signature of a valid shader.
pub(crate) fn build(shader: &Shader, info: &ShaderInfo) -> Signature {
    let v = shader.version;
    let mut s = Signature::default();
    let ps1 = v.is_pixel() && v.major == 1;
    if ps1 {
        for n in 0..2u32 {
            if info.read.contains(&(RT::Input, n)) {
                let k = push(&mut s.inputs, format!("color{n}"), format!("COLOR{n}"), 4);
                s.input_regs.insert((RT::Input, n), k);
            }
        }
        // Texture-coordinate sets: the stages texture instructions read, and in ps_1_4 the t#
        // sources.
        let mut sets: Vec<u32> = info.texcoords.iter().copied().collect();
        if v.minor >= 4 {
            sets.extend(
                info.read
                    .iter()
                    .filter(|(t, _)| *t == RT::Addr)
                    .map(|(_, n)| *n),
            );
        }
        sets.sort_unstable();
        sets.dedup();
        for n in sets {
            let k = push(
                &mut s.inputs,
                format!("texcoord{n}"),
                format!("TEXCOORD{n}"),
                4,
            );
            // Keyed as a pseudo register: texture coordinate set n.
            s.input_regs.insert((RT::Output, n), k);
            if v.minor >= 4 {
                s.input_regs.insert((RT::Addr, n), k);
            }
        }
        let k = push(&mut s.outputs, "color0".into(), "COLOR0".into(), 4);
        s.output_regs.insert((RT::Temp, 0), k);
        if info.writes_depth {
            let k = push(&mut s.outputs, "depth".into(), "DEPTH".into(), 1);
            s.output_regs.insert((RT::DepthOut, 0), k);
        }
        return s;
    }
    for (key, decls) in &info.inputs {
        let Some(d) = decls.first() else { continue };
        let k = push(
            &mut s.inputs,
            field_name(d.usage, d.index),
            semantic(d.usage, d.index),
            4,
        );
        s.input_regs.insert(*key, k);
    }
    if v.is_pixel() {
        // vPos and vFace: declared or read (the declaration is what a reader expects).
        let misc = |n: u16| {
            shader.instructions().any(|i| {
                i.dst
                    .iter()
                    .any(|d| d.register == dxso::Register::new(RT::MiscType, n))
                    || i.srcs
                        .iter()
                        .any(|s| s.register == dxso::Register::new(RT::MiscType, n))
            })
        };
        for (n, name, sem, width) in [(0u16, "vpos", "VPOS", 2u8), (1, "vface", "VFACE", 1)] {
            if misc(n) {
                let key = (RT::MiscType, n as u32);
                s.input_regs.remove(&key);
                let k = push(&mut s.inputs, name.into(), sem.into(), width);
                s.input_regs.insert(key, k);
            }
        }
    }
    let masks = written_masks(shader);
    for (key, mask) in &masks {
        let (name, sem, width) = match key.0 {
            RT::RastOut => match key.1 {
                0 => ("position".to_string(), "POSITION".to_string(), 4),
                1 => ("fog".into(), "FOG".into(), 1),
                _ => ("psize".into(), "PSIZE".into(), 1),
            },
            RT::AttrOut => (format!("color{}", key.1), format!("COLOR{}", key.1), 4),
            RT::Output if v.major >= 3 => {
                let Some(d) = info.outputs.get(&key.1).and_then(|d| d.first()) else {
                    continue;
                };
                let width = if d.usage == DeclUsage::Position {
                    4
                } else {
                    width_of(d.mask | mask)
                };
                (
                    field_name(d.usage, d.index),
                    if d.usage == DeclUsage::Position && d.index == 0 {
                        "POSITION".to_string()
                    } else {
                        semantic(d.usage, d.index)
                    },
                    width,
                )
            }
            RT::Output => (
                format!("texcoord{}", key.1),
                format!("TEXCOORD{}", key.1),
                width_of(*mask),
            ),
            RT::ColorOut => (format!("color{}", key.1), format!("COLOR{}", key.1), 4),
            RT::DepthOut => ("depth".into(), "DEPTH".into(), 1),
            _ => continue,
        };
        let k = push(&mut s.outputs, name, sem, width);
        s.output_regs.insert(*key, k);
    }
    s
}
