//! `run`'s names for registers: constants and samplers by their name in the shader's constant
//! table (CTAB), inputs by the semantic their `dcl` gives (`TEXCOORD0`, `POSITION`, `COLOR1`).

use dxso::ctab::{Constant, ConstantTable, RegisterSet};
use dxso::{DeclUsage, RegisterType};
use dxso_exec::InputRegister;

/// What a shader's constant table and declarations name.
pub struct Names {
    table: Option<ConstantTable>,
    /// `(usage, index, register)` of every declared input.
    inputs: Vec<(DeclUsage, u8, InputRegister)>,
    pixel: bool,
    ps_3: bool,
}

impl Names {
    /// The names of `shader` (none when it has no readable CTAB or does not validate).
    pub fn of(shader: &dxso::Shader) -> Names {
        let table = shader.constant_table().and_then(Result::ok);
        let mut inputs = Vec::new();
        if let Ok(info) = dxso::analyze(shader) {
            for ((ty, n), decls) in &info.inputs {
                let register = match ty {
                    RegisterType::Input if *n < 16 => InputRegister::V(*n as u8),
                    RegisterType::Addr if shader.version.is_pixel() && *n < 8 => {
                        InputRegister::T(*n as u8)
                    }
                    _ => continue,
                };
                for d in decls {
                    inputs.push((d.usage, d.index, register));
                }
            }
        }
        Names {
            table,
            inputs,
            pixel: shader.version.is_pixel(),
            ps_3: shader.version.is_pixel() && shader.version.major >= 3,
        }
    }

    /// The constant called `name` (case-sensitive, as HLSL names are).
    pub fn constant(&self, name: &str) -> Option<&Constant> {
        self.table
            .as_ref()?
            .constants
            .iter()
            .find(|c| c.name.as_str() == name)
    }

    /// The names of the table's constants of `sets`, for error messages.
    pub fn list(&self, sets: &[RegisterSet]) -> String {
        let names: Vec<String> = self
            .table
            .iter()
            .flat_map(|t| &t.constants)
            .filter(|c| c.register_set().is_some_and(|s| sets.contains(&s)))
            .map(|c| c.name.as_str().into_owned())
            .collect();
        if names.is_empty() {
            "the shader's constant table names none".into()
        } else {
            format!("the constant table names {}", names.join(", "))
        }
    }

    /// The sampler register of the sampler constant called `name`.
    pub fn sampler(&self, name: &str) -> Option<usize> {
        let c = self.constant(name)?;
        (c.register_set() == Some(RegisterSet::Sampler)).then_some(c.register_index as usize)
    }

    /// The input register a semantic names: `TEXCOORD0`, `texcoord` (index 0), `COLOR1`,
    /// `POSITION`, and in ps_3_0 `VPOS` and `VFACE`. Pixel shaders before 3_0 read `TEXCOORDn`
    /// from `tn` and `COLORn` from `vn` when no `dcl` says otherwise.
    pub fn input(&self, semantic: &str) -> Option<InputRegister> {
        let upper = semantic.to_ascii_uppercase();
        if self.ps_3 {
            match upper.as_str() {
                "VPOS" => return Some(InputRegister::Pos),
                "VFACE" => return Some(InputRegister::Face),
                _ => {}
            }
        }
        let digits = upper.len() - upper.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (usage, index) = upper.split_at(upper.len() - digits);
        let index: u8 = if index.is_empty() {
            0
        } else {
            index.parse().ok()?
        };
        let usage = DeclUsage::from_name(usage)?;
        if let Some((_, _, r)) = self
            .inputs
            .iter()
            .find(|(u, i, _)| *u == usage && *i == index)
        {
            return Some(*r);
        }
        match usage {
            DeclUsage::TexCoord if self.pixel && !self.ps_3 && index < 8 => {
                Some(InputRegister::T(index))
            }
            DeclUsage::Color if self.pixel && !self.ps_3 && index < 2 => {
                Some(InputRegister::V(index))
            }
            _ => None,
        }
    }

    /// The declared semantics, for error messages.
    pub fn semantics(&self) -> String {
        let names: Vec<String> = self
            .inputs
            .iter()
            .map(|(u, i, r)| format!("{}{i} ({r})", u.name().to_ascii_uppercase()))
            .collect();
        if names.is_empty() {
            "the shader declares no input semantics".into()
        } else {
            format!("the shader declares {}", names.join(", "))
        }
    }
}

/// How many registers of `c` the values may fill, and the register range as text (`c4..c7`).
pub fn range(c: &Constant) -> (usize, String) {
    let set = c.register_set().map_or("?", RegisterSet::prefix);
    let first = c.register_index as usize;
    let count = c.register_count.max(1) as usize;
    let text = if count == 1 {
        format!("{set}{first}")
    } else {
        format!("{set}{first}..{set}{}", first + count - 1)
    };
    (count, text)
}
