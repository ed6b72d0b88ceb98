//! Direct3D 8 bytecode to Direct3D 9 bytecode, as a Direct3D 9 runtime needs it (what
//! d3d8to9 and DXVK's d3d8 do when an application creates a Direct3D 8 shader).
//!
//! Direct3D 8 vertex shaders carry no `dcl`: the vertex declaration passed to
//! `CreateVertexShader` binds the stream elements to v0-v15 by register. Direct3D 9 needs a
//! `dcl_<usage><index>` for every input read, so the conversion adds one per input, with the
//! usage either given (one per register, `--decl position,normal,texcoord0`) or the register's
//! `D3DVSDE_*` meaning (v0 position, v1 blendweight, v2 blendindices, v3 normal, v4 psize, v5
//! diffuse, v6 specular, v7-v14 texcoord0-7, v15 position1). The scalar instructions of
//! Direct3D 8 read `.w` of whatever swizzle they carry (Wine's d3d8 `test_scalar_instructions`,
//! recorded on Windows); Direct3D 9 wants a replicate swizzle, so the conversion writes that
//! component replicated. vs_1_0 and ps_1_0 become vs_1_1 and ps_1_1, whose rules they follow.

use crate::instruction::{DclToken, DeclUsage, Extra, Instruction, Item, Shader};
use crate::opcode::Opcode;
use crate::param::{DstParam, Swizzle, WriteMask};
use crate::register::{Register, RegisterType};
use crate::version::Version;

/// Why a Direct3D 8 shader cannot be converted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConvertError {
    /// The version is not one Direct3D 8 runs.
    #[error("{0} is not a Direct3D 8 shader version (vs_1_0, vs_1_1, ps_1_0-ps_1_4)")]
    Version(Version),
    /// The shader already declares registers: Direct3D 8 bytecode has no `dcl`.
    #[error("instruction {0} is a dcl: Direct3D 8 bytecode carries none")]
    HasDcl(usize),
    /// The shader reads an input the declaration does not bind.
    #[error("v{register} is read, but the declaration binds only v0-v{}", .bound.saturating_sub(1))]
    Unbound {
        /// The input register read.
        register: u16,
        /// How many registers the declaration binds.
        bound: usize,
    },
    /// Two inputs were given the same usage and index.
    #[error("v{first} and v{second} are both declared {usage}{index}")]
    DuplicateUsage {
        /// The first register.
        first: u16,
        /// The second register.
        second: u16,
        /// The usage's name.
        usage: &'static str,
        /// The usage index.
        index: u8,
    },
}

/// The usage Direct3D 8 gives vertex input register `v`: its `D3DVSDE_*` meaning.
pub fn default_usage(v: u16) -> (DeclUsage, u8) {
    match v {
        0 => (DeclUsage::Position, 0),
        1 => (DeclUsage::BlendWeight, 0),
        2 => (DeclUsage::BlendIndices, 0),
        3 => (DeclUsage::Normal, 0),
        4 => (DeclUsage::PSize, 0),
        5 => (DeclUsage::Color, 0),
        6 => (DeclUsage::Color, 1),
        7..=14 => (DeclUsage::TexCoord, (v - 7) as u8),
        15 => (DeclUsage::Position, 1),
        // Past v15 Direct3D 8 has no register; the validator reports the index.
        n => (DeclUsage::TexCoord, n.min(255) as u8),
    }
}

/// Parses one element of a `--decl` list: a usage name with an optional index
/// (`position`, `texcoord3`, `color1`).
pub fn parse_usage(text: &str) -> Option<(DeclUsage, u8)> {
    let split = text
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(text.len());
    let (name, digits) = text.split_at(split);
    let usage = DeclUsage::from_name(name)?;
    let index = if digits.is_empty() {
        0
    } else {
        digits.parse::<u8>().ok().filter(|i| *i < 16)?
    };
    Some((usage, index))
}

fn is_d3d8_scalar(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Rcp | Opcode::Rsq | Opcode::Exp | Opcode::Log | Opcode::ExpP | Opcode::LogP
    )
}

/// Converts a Direct3D 8 shader to Direct3D 9 bytecode. `decl` gives the usage of v0, v1, ...
/// in order (the vertex declaration's registers); `None` takes each register's `D3DVSDE_*`
/// meaning. Pixel shaders keep their instructions (ps_1_0 becomes ps_1_1).
pub fn to_d3d9(shader: &Shader, decl: Option<&[(DeclUsage, u8)]>) -> Result<Shader, ConvertError> {
    let v = shader.version;
    if v.major != 1 || v.minor > 4 || (v.is_vertex() && v.minor > 1) {
        return Err(ConvertError::Version(v));
    }
    let mut out = shader.clone();
    out.version = Version {
        minor: v.minor.max(1),
        ..v
    };
    let mut inputs: Vec<u16> = Vec::new();
    for (n, inst) in shader.instructions().enumerate() {
        if inst.opcode == Opcode::Dcl {
            return Err(ConvertError::HasDcl(n));
        }
        if v.is_vertex() {
            for s in inst.srcs.iter() {
                if s.register.ty == RegisterType::Input && !inputs.contains(&s.register.num) {
                    inputs.push(s.register.num);
                }
            }
        }
    }
    for item in &mut out.items {
        if let Item::Instruction(inst) = item {
            if is_d3d8_scalar(inst.opcode) {
                if let Some(s) = inst.srcs.iter_mut().next() {
                    if s.swizzle.replicated().is_none() {
                        s.swizzle = Swizzle::replicate(s.swizzle.get(3));
                    }
                }
            }
        }
    }
    if !v.is_vertex() {
        return Ok(out);
    }
    inputs.sort_unstable();
    let mut dcls: Vec<(u16, DeclUsage, u8)> = Vec::new();
    for &r in &inputs {
        let (usage, index) = match decl {
            Some(list) => *list.get(r as usize).ok_or(ConvertError::Unbound {
                register: r,
                bound: list.len(),
            })?,
            None => default_usage(r),
        };
        if let Some(&(first, _, _)) = dcls.iter().find(|d| d.1 == usage && d.2 == index) {
            return Err(ConvertError::DuplicateUsage {
                first,
                second: r,
                usage: usage.name(),
                index,
            });
        }
        dcls.push((r, usage, index));
    }
    // Declarations go before the first instruction (comments may stay ahead of them).
    let at = out
        .items
        .iter()
        .position(|i| matches!(i, Item::Instruction(_)))
        .unwrap_or(out.items.len());
    let new: Vec<Item> = dcls
        .into_iter()
        .map(|(r, usage, index)| {
            let mut inst = Instruction::new(Opcode::Dcl);
            inst.dst = Some(DstParam::new(
                Register::new(RegisterType::Input, r),
                WriteMask::ALL,
            ));
            inst.extra = Extra::Dcl(DclToken::usage(usage, index));
            Item::Instruction(inst)
        })
        .collect();
    out.items.splice(at..at, new);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::param::SrcParam;

    fn vs(insts: Vec<Instruction>) -> Shader {
        let mut sh = Shader::new(Version::vs(1, 0));
        sh.items = insts.into_iter().map(Item::Instruction).collect();
        sh
    }

    fn op(o: Opcode, dst: Register, srcs: &[SrcParam]) -> Instruction {
        let mut inst = Instruction::new(o);
        inst.dst = Some(DstParam::new(dst, WriteMask::ALL));
        for s in srcs {
            inst.srcs.push(*s).unwrap();
        }
        inst
    }

    #[test]
    fn adds_declarations_and_replicates_the_scalar_w() {
        let v = |n| SrcParam::new(Register::new(RegisterType::Input, n), Swizzle::IDENTITY);
        let c0 = SrcParam::new(Register::new(RegisterType::Const, 0), Swizzle::IDENTITY);
        let sh = vs(vec![
            op(
                Opcode::Mov,
                Register::new(RegisterType::RastOut, 0),
                &[v(0)],
            ),
            op(
                Opcode::Mov,
                Register::new(RegisterType::AttrOut, 0),
                &[v(7)],
            ),
            op(Opcode::Rcp, Register::new(RegisterType::Temp, 0), &[c0]),
        ]);
        let out = to_d3d9(&sh, None).unwrap();
        assert_eq!(out.version, Version::vs(1, 1));
        let insts: Vec<&Instruction> = out.instructions().collect();
        assert_eq!(insts[0].dcl().unwrap().usage_raw, DeclUsage::Position as u8);
        assert_eq!(insts[1].dcl().unwrap().usage_raw, DeclUsage::TexCoord as u8);
        assert_eq!(insts[1].dcl().unwrap().usage_index, 0);
        assert_eq!(
            insts[4].srcs.iter().next().unwrap().swizzle,
            Swizzle::replicate(3)
        );
        let given = [(DeclUsage::Position, 0)];
        assert_eq!(
            to_d3d9(&sh, Some(&given)),
            Err(ConvertError::Unbound {
                register: 7,
                bound: 1
            })
        );
    }

    #[test]
    fn parses_usages() {
        assert_eq!(parse_usage("texcoord3"), Some((DeclUsage::TexCoord, 3)));
        assert_eq!(parse_usage("position"), Some((DeclUsage::Position, 0)));
        assert_eq!(parse_usage("color16"), None);
        assert_eq!(parse_usage("bogus"), None);
    }
}
