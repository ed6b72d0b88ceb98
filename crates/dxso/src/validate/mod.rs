//! Validation: every Direct3D 9 rule a shader must follow in its version, with diagnostics that
//! name the rule, the instruction, the DWORD offset and the operand at fault.
//!
//! ```
//! use dxso::{validate, Instruction, Item, Opcode, Shader, Version};
//! let mut shader = Shader::new(Version::ps(2, 0));
//! shader.items.push(Item::Instruction(Instruction::new(Opcode::Loop)));
//! let report = validate(&shader);
//! assert!(!report.is_valid());
//! assert_eq!(report.errors().next().unwrap().rule.id(), "V0102");
//! ```
//!
//! The checks are grouped by idea: [`profile`] holds the per-version limits, `operands` the
//! register and modifier checks of every operand, `opcodes` the opcode-specific restrictions,
//! `dcl` the declaration rules, `flow` the flow-control structure, `ps1`
//! the ps_1_x sequencing rules, `dataflow` the declared-before-use and read-before-write checks.
//! [`Rule`] lists them all; `docs/VALIDATION.md` is generated from that list.

mod dataflow;
mod dcl;
mod flow;
mod opcodes;
mod operands;
pub mod profile;
mod ps1;
pub mod rules;

pub use profile::Profile;
pub use rules::{rule_count, rules_markdown, Rule, Severity, Versions};

use crate::encode::TokenRole;
use crate::instruction::{Instruction, Item, Shader};
use crate::register::Register;
use crate::version::Version;
use std::fmt;

/// Which part of an instruction a diagnostic points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// The instruction token itself.
    Instruction,
    /// The usage token of `dcl`.
    DclUsage,
    /// The destination.
    Dst,
    /// The predicate source.
    Predicate,
    /// Source `n` (from 0).
    Src(u8),
    /// A comment block.
    Comment,
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Instruction => f.write_str("instruction"),
            Operand::DclUsage => f.write_str("usage"),
            Operand::Dst => f.write_str("dst"),
            Operand::Predicate => f.write_str("predicate"),
            Operand::Src(n) => write!(f, "src{n}"),
            Operand::Comment => f.write_str("comment"),
        }
    }
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The rule broken.
    pub rule: Rule,
    /// Error or warning (the rule's severity).
    pub severity: Severity,
    /// The index in [`Shader::items`] (comments included), when the finding is about one item.
    pub item: Option<usize>,
    /// The index among the instructions (comments not counted).
    pub instruction: Option<usize>,
    /// The DWORD offset of the token at fault (the version token is DWORD 0).
    pub offset: usize,
    /// The operand at fault.
    pub operand: Option<Operand>,
    /// The register at fault, spelled as the disassembler spells it (`c32`, `oPos`, `s0`).
    pub register: Option<String>,
    /// One line saying what is wrong.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    /// `error[V0204]: dword 10 (instruction 2, src1 c32): ...`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}[{}]: dword {}",
            self.severity,
            self.rule.id(),
            self.offset
        )?;
        let mut parts = Vec::new();
        if let Some(i) = self.instruction {
            parts.push(format!("instruction {i}"));
        }
        let operand = self.operand.filter(|o| *o != Operand::Instruction);
        match (&operand, &self.register) {
            (Some(o), Some(r)) => parts.push(format!("{o} {r}")),
            (Some(o), None) => parts.push(o.to_string()),
            (None, Some(r)) => parts.push(r.clone()),
            (None, None) => {}
        }
        if !parts.is_empty() {
            write!(f, " ({})", parts.join(", "))?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Everything the validator found, in stream order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Errors and warnings, sorted by offset.
    pub diagnostics: Vec<Diagnostic>,
}

impl Report {
    /// `true` when there is no error (warnings allowed).
    pub fn is_valid(&self) -> bool {
        self.errors().next().is_none()
    }

    /// The errors.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> + '_ {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }

    /// The warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> + '_ {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
    }

    /// The findings about item `item` of [`Shader::items`] (what `disasm --validate` prints
    /// beside an instruction).
    pub fn for_item(&self, item: usize) -> impl Iterator<Item = &Diagnostic> + '_ {
        self.diagnostics
            .iter()
            .filter(move |d| d.item == Some(item))
    }

    /// The distinct rules broken, in id order.
    pub fn rules(&self) -> Vec<Rule> {
        let mut r: Vec<Rule> = self.diagnostics.iter().map(|d| d.rule).collect();
        r.sort();
        r.dedup();
        r
    }
}

/// Device capabilities that raise a version's minimum limits, and the runtime whose rules apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// `D3DCAPS9.MaxVertexShaderConst`: the float constants vs_1_1, vs_2_0 and vs_2_x may use
    /// (vs_3_0 always has 256). `None` checks against the minimum (96 for vs_1_1, 256 after).
    pub max_vertex_constants: Option<u32>,
    /// The runtime the shader is written for.
    pub runtime: Runtime,
}

/// The Direct3D runtime whose bytecode rules a shader follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Runtime {
    /// Direct3D 9: the eleven versions of [`Profile::ALL`] and their rules.
    #[default]
    D3d9,
    /// Direct3D 8: vs_1_0, vs_1_1 and ps_1_0-ps_1_4 (`docs/SEMANTICS.md`, "Direct3D 8
    /// bytecode"). The version's Direct3D 9 rules apply with three differences: there is no
    /// `dcl` (the application's vertex declaration binds v0-v15 by register), vertex inputs are
    /// read undeclared, and the scalar instructions (`rcp`, `rsq`, `exp`, `expp`, `log`,
    /// `logp`) read the `.w` selector of any swizzle instead of requiring a replicate swizzle.
    D3d8,
}

impl Runtime {
    /// The profile whose rules a version follows under this runtime, or `None` for a version
    /// the runtime does not run (vs_1_0 and ps_1_0 exist only in Direct3D 8 and follow the
    /// rules of vs_1_1 and ps_1_1).
    pub fn profile(self, v: Version) -> Option<Profile> {
        match self {
            Runtime::D3d9 => Profile::of(v),
            Runtime::D3d8 => {
                if v.major != 1 || v.minor > 4 || (v.is_vertex() && v.minor > 1) {
                    return None;
                }
                Profile::of(Version {
                    minor: v.minor.max(1),
                    ..v
                })
            }
        }
    }
}

/// Validates `shader` against the rules of its version, with the minimum limits every device
/// of that version guarantees.
pub fn validate(shader: &Shader) -> Report {
    validate_with(shader, &Options::default())
}

/// Validates `shader` with limits raised to a device's capabilities.
pub fn validate_with(shader: &Shader, options: &Options) -> Report {
    let mut cx = Cx::new(shader);
    cx.options = *options;
    cx.profile = options.runtime.profile(shader.version);
    if cx.profile.is_none() {
        let runtime = match options.runtime {
            Runtime::D3d9 => "Direct3D 9",
            Runtime::D3d8 => "Direct3D 8",
        };
        cx.push(
            Rule::UnsupportedVersion,
            None,
            0,
            None,
            None,
            format!("{} is not a {runtime} shader version", shader.version),
        );
        return cx.finish();
    }
    opcodes::check(&mut cx);
    operands::check(&mut cx);
    if options.runtime == Runtime::D3d8 {
        d3d8_no_dcl(&mut cx);
    }
    dcl::check(&mut cx);
    flow::check(&mut cx);
    ps1::check(&mut cx);
    dataflow::check(&mut cx);
    cx.finish()
}

/// Direct3D 8 bytecode has no `dcl`: the vertex declaration given to `CreateVertexShader`
/// binds the inputs.
fn d3d8_no_dcl(cx: &mut Cx<'_>) {
    let insts = cx.insts.clone();
    for at in insts.iter().filter(|a| a.inst.opcode == crate::Opcode::Dcl) {
        cx.at(
            Rule::D3d8Dcl,
            at,
            Operand::Instruction,
            None,
            "Direct3D 8 shaders carry no dcl (the vertex declaration binds the inputs)",
        );
    }
}

/// One instruction with where its tokens lie.
#[derive(Clone, Copy, Debug)]
pub(crate) struct At<'a> {
    pub inst: &'a Instruction,
    /// Index in `Shader::items`.
    pub item: usize,
    /// Index among instructions.
    pub index: usize,
    /// DWORD offset of the instruction token.
    pub offset: usize,
    pub usage: usize,
    pub dst: usize,
    pub predicate: usize,
    pub srcs: [usize; 4],
}

impl At<'_> {
    /// The DWORD offset of an operand's token.
    pub fn offset_of(&self, operand: Operand) -> usize {
        match operand {
            Operand::Instruction | Operand::Comment => self.offset,
            Operand::DclUsage => self.usage,
            Operand::Dst => self.dst,
            Operand::Predicate => self.predicate,
            Operand::Src(n) => self.srcs[(n as usize).min(3)],
        }
    }
}

/// The validation context: the shader, where each instruction lies, and the findings.
pub(crate) struct Cx<'a> {
    pub shader: &'a Shader,
    pub version: Version,
    pub profile: Option<Profile>,
    pub software: bool,
    pub insts: std::rc::Rc<Vec<At<'a>>>,
    /// Offsets of comment items: `(item, offset)`.
    pub comments: Vec<(usize, usize)>,
    pub options: Options,
    diags: Vec<Diagnostic>,
}

impl<'a> Cx<'a> {
    fn new(shader: &'a Shader) -> Self {
        let version = shader.version;
        let mut insts = Vec::with_capacity(shader.items.len());
        let mut comments = Vec::new();
        let mut offset = 1;
        for (item, it) in shader.items.iter().enumerate() {
            match it {
                Item::Comment(c) => {
                    comments.push((item, offset));
                    offset += 1 + c.data.len();
                }
                Item::Instruction(inst) => {
                    let mut at = At {
                        inst,
                        item,
                        index: insts.len(),
                        offset,
                        usage: offset,
                        dst: offset,
                        predicate: offset,
                        srcs: [offset; 4],
                    };
                    let mut pos = offset;
                    inst.for_each_token(version, |role, _| {
                        match role {
                            TokenRole::DclUsage => at.usage = pos,
                            TokenRole::Dst => at.dst = pos,
                            TokenRole::Predicate => at.predicate = pos,
                            TokenRole::Src(n) if (n as usize) < 4 => at.srcs[n as usize] = pos,
                            _ => {}
                        }
                        pos += 1;
                    });
                    offset = pos;
                    insts.push(at);
                }
            }
        }
        Cx {
            shader,
            version,
            profile: Profile::of(version),
            software: version.is_software(),
            insts: std::rc::Rc::new(insts),
            comments,
            options: Options::default(),
            diags: Vec::new(),
        }
    }

    /// The profile; only called after `validate` checked that there is one.
    pub fn p(&self) -> Profile {
        self.profile.unwrap_or(Profile::Vs11)
    }

    pub fn push(
        &mut self,
        rule: Rule,
        at: Option<&At<'_>>,
        offset: usize,
        operand: Option<Operand>,
        register: Option<Register>,
        message: String,
    ) {
        self.diags.push(Diagnostic {
            rule,
            severity: rule.severity(),
            item: at.map(|a| a.item),
            instruction: at.map(|a| a.index),
            offset,
            operand,
            register: register.map(|r| r.name(self.version)),
            message,
        });
    }

    /// Reports a finding about an operand of an instruction.
    pub fn at(
        &mut self,
        rule: Rule,
        at: &At<'_>,
        operand: Operand,
        register: Option<Register>,
        message: impl Into<String>,
    ) {
        self.push(
            rule,
            Some(at),
            at.offset_of(operand),
            Some(operand),
            register,
            message.into(),
        );
    }

    /// The last finding pushed (to refine it).
    pub fn diags_mut_last(&mut self) -> &mut Diagnostic {
        let n = self.diags.len();
        &mut self.diags[n - 1]
    }

    /// The mnemonic of an instruction in this version.
    pub fn mnemonic(&self, inst: &Instruction) -> &'static str {
        inst.opcode.info().mnemonic_for(self.version)
    }

    fn finish(mut self) -> Report {
        self.diags
            .sort_by_key(|d| (d.offset, d.rule, d.operand.map(|o| o.to_string())));
        Report {
            diagnostics: self.diags,
        }
    }
}

/// `true` for opcodes that only declare or define and execute nothing.
pub(crate) fn is_declaration(op: crate::Opcode) -> bool {
    use crate::Opcode::*;
    matches!(op, Dcl | Def | DefI | DefB)
}

/// `true` for the ps_1_x texture-address instructions (and texld/texkill in any pixel version).
pub(crate) fn is_texture_op(op: crate::Opcode) -> bool {
    crate::slots::is_texture_address(op)
}

#[cfg(test)]
mod tests;
