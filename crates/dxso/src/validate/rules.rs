//! The rule list: every check the validator makes, with its stable id, severity, the shader
//! versions it applies to and a one-line summary. `docs/VALIDATION.md` is generated from this
//! table ([`rules_markdown`]) and a test fails when the two differ.

use super::profile::Profile;
use std::fmt;

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The runtime would accept the shader, but it is probably a mistake.
    Warning,
    /// The runtime must reject the shader.
    Error,
}

impl Severity {
    /// `error` or `warning`.
    pub const fn name(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of shader profiles (the eleven Direct3D 9 versions), as a bit set over
/// [`Profile::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Versions(pub u16);

impl Versions {
    /// Every version.
    pub const ALL: Versions = Versions(0x7FF);
    /// Vertex shaders.
    pub const VS: Versions = Versions(0x00F);
    /// Pixel shaders.
    pub const PS: Versions = Versions(0x7F0);
    /// ps_1_1 .. ps_1_4.
    pub const PS1: Versions = Versions(0x0F0);
    /// ps_1_1 .. ps_1_3.
    pub const PS11_13: Versions = Versions(0x070);
    /// ps_1_4.
    pub const PS14: Versions = Versions(0x080);
    /// Shader model 2 and 3 (both kinds).
    pub const SM2UP: Versions = Versions(0x70E);
    /// The versions with flow control (vs_2_0+, ps_2_x, ps_3_0).
    pub const FLOW: Versions = Versions(0x60E);
    /// The versions with a predicate register (vs_2_x, vs_3_0, ps_2_x, ps_3_0).
    pub const PRED: Versions = Versions(0x60C);
    /// The versions that declare inputs (every vs, ps_2_0+).
    pub const DCL: Versions = Versions(0x70F);
    /// vs_3_0.
    pub const VS30: Versions = Versions(0x008);
    /// ps_2_x.
    pub const PS2X: Versions = Versions(0x200);
    /// vs_2_0.
    pub const VS20: Versions = Versions(0x002);
    /// vs_2_x.
    pub const VS2X: Versions = Versions(0x004);
    /// vs_1_1.
    pub const VS11: Versions = Versions(0x001);
    /// The versions with samplers (vs_3_0, ps_2_0+).
    pub const SAMPLERS: Versions = Versions(0x708);
    /// ps_2_0.
    pub const PS20: Versions = Versions(0x100);
    /// The versions with a relative-address token register (vs_2_0+, ps_3_0).
    pub const REL_TOKEN: Versions = Versions(0x40E);
    /// ps_3_0.
    pub const PS30: Versions = Versions(0x400);

    /// `true` when `p` is in the set.
    pub const fn contains(self, p: Profile) -> bool {
        self.0 & (1 << p as u16) != 0
    }

    /// The union.
    pub const fn or(self, other: Versions) -> Versions {
        Versions(self.0 | other.0)
    }
}

macro_rules! rules {
    ($($variant:ident $id:literal $sev:ident ($($vers:ident)|+) $summary:literal;)*) => {
        /// A validation rule. The id (`V0204`) is stable: rules are added, never renumbered.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Rule {
            $(#[doc = $summary] $variant,)*
        }

        impl Rule {
            /// Every rule, in id order.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant,)*];

            /// The stable id (`V0204`).
            pub const fn id(self) -> &'static str {
                match self { $(Rule::$variant => $id,)* }
            }

            /// Whether breaking the rule makes the shader invalid.
            pub const fn severity(self) -> Severity {
                match self { $(Rule::$variant => Severity::$sev,)* }
            }

            /// The versions the rule is checked in.
            pub const fn versions(self) -> Versions {
                match self { $(Rule::$variant => Versions(0 $(| Versions::$vers.0)+),)* }
            }

            /// One line saying what the rule requires.
            pub const fn summary(self) -> &'static str {
                match self { $(Rule::$variant => $summary,)* }
            }
        }
    };
}

rules! {
    UnsupportedVersion "V0101" Error (ALL) "The version token names a Direct3D 9 shader version (vs_1_1, vs_2_0, vs_2_x, vs_3_0, ps_1_1-ps_1_4, ps_2_0, ps_2_x, ps_3_0 or a software version)";
    OpcodeNotAllowed "V0102" Error (ALL) "The opcode exists in this shader version (opcode table)";
    OperandShape "V0103" Error (ALL) "The operands match the opcode's shape in this version (destination, source count, immediates)";
    InstructionReserved "V0104" Error (ALL) "Reserved instruction-token bits are zero (bit 29; bits 24-27 in shader model 1)";
    ControlField "V0105" Error (ALL) "The control field (bits 16-23) holds a valid comparison (ifc, breakc, setp), a texld mode allowed in this version, or zero";
    SlotLimit "V0106" Error (ALL) "The instruction count stays within the version's slot limits (texture and arithmetic separately in ps_1_x and ps_2_0)";
    ConstantTable "V0107" Error (ALL) "A CTAB comment block parses as a constant table";
    RegisterUnavailable "V0201" Error (ALL) "The register type exists in this version";
    DstNotWritable "V0202" Error (ALL) "A destination is a register type this version lets instructions write";
    SrcNotReadable "V0203" Error (ALL) "A source is a register type this version lets instructions read";
    RegisterIndex "V0204" Error (ALL) "The register number is within the version's limit for its register type (docs/VALIDATION.md, Limits; ps_1_x c0-c7, ps_2_0 c0-c31, ps_3_0 c0-c223, vs_1_1 c0-c95, b/i 0-15, ...)";
    OperandRegisterType "V0205" Error (ALL) "An operand with a fixed role names the register type the opcode requires (sampler, label, b#/p0, i#, aL, p0, t#, ...)";
    ParamReserved "V0206" Error (ALL) "Reserved parameter-token bits (14-15, and those of the relative-address token) are zero";
    RelativeNotAllowed "V0207" Error (ALL) "Relative addressing is used only where the version allows it (vs constants; vs_3_0 inputs and outputs; ps_3_0 inputs) and in the encoding of the version";
    RelativeToken "V0208" Error (REL_TOKEN) "A relative-address token names a0 or aL (index 0) that the version has, with no modifier";
    EmptyWriteMask "V0209" Error (ALL) "A destination writes at least one component";
    ConstantNeedsCaps "V0210" Warning (VS20 | VS2X) "A vs_2_0/vs_2_x float constant past c255 (and below c8192) needs a device whose MaxVertexShaderConst exceeds it; fxc compiles such shaders and only the device cap decides, so without --max-vertex-constants this is a warning";
    ShiftNotAllowed "V0301" Error (ALL) "A result shift appears only on ps_1_x arithmetic instructions: _x2, _x4, _d2 in ps_1_1-ps_1_3, also _x8, _d4, _d8 in ps_1_4";
    SaturateNotAllowed "V0302" Error (ALL) "_sat appears only where allowed: not in vs_1_1-vs_2_x, not on frc, sincos, texture instructions, declarations, p0 or a0, and in ps_2_0/ps_2_x not on writes to oC#/oDepth";
    PartialPrecisionNotAllowed "V0303" Error (ALL) "_pp appears only in pixel shaders 2_0 and later";
    CentroidNotAllowed "V0304" Error (ALL) "_centroid appears only on input and texture declarations of ps_2_0 and later";
    ResultModifierReserved "V0305" Error (ALL) "The unused result-modifier bit (bit 23) is zero";
    SrcModifierNotAllowed "V0306" Error (ALL) "Source modifiers bias, bx2, 1-x (comp) appear only in ps_1_x; x2, dz, dw only in ps_1_4";
    AbsNotAllowed "V0307" Error (ALL) "The _abs source modifier appears only in shader model 3";
    NotModifierNotPredicate "V0308" Error (ALL) "The ! (not) modifier is applied only to the predicate register";
    SwizzleNotAllowed "V0309" Error (PS1|PS20) "The source swizzle is one this pixel shader version supports (ps_1_x and ps_2_0 limit swizzles)";
    Ps1WriteMask "V0310" Error (PS11_13) "ps_1_1-ps_1_3 arithmetic writes .xyzw, .xyz or .w, and dp3 writes .xyz or .xyzw (Microsoft's write-mask table)";
    ReplicateSwizzle "V0401" Error (ALL) "rcp, rsq, exp, log, expp, logp, pow, sincos, dp2add's third source, ifc, breakc and breakp read one component (replicate swizzle; under the Direct3D 8 runtime the scalar instructions read .w of any swizzle)";
    MatrixDstMask "V0402" Error (ALL) "m4x4/m3x4 write .xyzw, m4x3/m3x3 .xyz, m3x2 .xy; crs writes a non-empty subset of .xyz";
    MatrixSource "V0403" Error (ALL) "The matrix source of m4x4, m4x3, m3x4, m3x3, m3x2 has no swizzle and no negate";
    AddressWrite "V0404" Error (VS) "The address register a0 is written only by mov in vs_1_1 (a0.x) and by mova from vs_2_0; mova writes only a0";
    DefRegisterType "V0405" Error (ALL) "def writes a float constant c#, defi an integer constant i#, defb a boolean constant b#";
    FrcMask "V0406" Error (VS11) "frc in vs_1_1 writes .y or .xy";
    SinCosForm "V0407" Error (SM2UP) "sincos writes .x, .y or .xy of a temp; its 2_x form reads constants as sources 1 and 2; sgn's 2_x form reads temps as sources 1 and 2";
    TexKill "V0408" Error (PS) "texkill names a texture or temp register (an input in ps_3_0) with a full write mask";
    ResourceModifier "V0409" Error (ALL) "Samplers, labels, b#, i#, aL and the source of loop/rep/call take no source modifier (only ! on p0)";
    CndSource "V0410" Error (PS11_13) "cnd in ps_1_1-ps_1_3 reads r0.a as its condition";
    Ps14TexOperands "V0411" Error (PS14) "ps_1_4 texld and texcrd read a texture register (phase 1) or a temp (texld in phase 2), write a temp, and texcrd/texld sources use only .xyz, .xyw swizzles (with _dz/_dw)";
    TexldOperands "V0412" Error (PS20|PS2X) "texld/texldp/texldb in ps_2_0 and ps_2_x write all of a temp, read t# or r# with no modifier or swizzle, and the sampler with no swizzle";
    MacroDstSource "V0413" Error (ALL) "m4x4, m4x3, m3x4, m3x3 and m3x2 write a register other than their vector source (src0)";
    DclReserved "V0501" Error (DCL) "Reserved bits of the dcl usage token are zero for the register declared (docs/VALIDATION.md, Sources: the DCL token)";
    DclRegisterType "V0502" Error (DCL) "dcl declares a register type this version declares (vs inputs; vs_3_0 outputs and samplers; ps_2_x t#, v#, s#; ps_3_0 v#, s#, vPos, vFace)";
    DclUsage "V0503" Error (DCL) "A declared usage is a D3DDECLUSAGE value; every usage index 0-15 is valid for vertex inputs, vs_3_0 outputs and ps_3_0 inputs (docs/VALIDATION.md, Declaration usages)";
    DclSamplerType "V0504" Error (SAMPLERS) "A sampler declaration names 2d, cube or volume";
    DclDuplicate "V0505" Error (DCL) "A register is declared at most once per component, and a usage/index pair at most once per register file";
    DclMask "V0506" Error (DCL) "A declaration has a write mask; vFace and vPos declarations carry no result modifiers and vFace a full mask";
    DclPlacement "V0507" Error (DCL) "Declarations come before the first instruction that is not dcl, def, defi or defb";
    OutputNotDeclared "V0508" Error (VS30) "vs_3_0 writes only output components it declared";
    D3d8Dcl "V0509" Error (VS11|PS11_13|PS14) "Under the Direct3D 8 runtime a shader carries no dcl (the application's vertex declaration binds v0-v15)";
    UndeclaredInput "V0601" Error (DCL) "Input registers (v#, t# in ps_2_x, vPos, vFace) are declared before they are read (not vertex inputs under the Direct3D 8 runtime, whose vertex declaration binds v#)";
    UndeclaredSampler "V0602" Error (SAMPLERS) "A sampler is declared before it is used";
    TempUninitialized "V0603" Warning (ALL) "A temp register component is read before any instruction writes it";
    Predication "V0701" Error (ALL) "Only versions with p0 predicate instructions, only on instructions that can be predicated, and the predicate is p0 with no modifier but !";
    UnmatchedBlock "V0702" Error (FLOW) "else, endif, endloop and endrep close the block that is open (if, loop, rep)";
    UnclosedBlock "V0703" Error (FLOW) "Every if, loop and rep is closed before a label and before the end of the shader";
    BreakOutsideLoop "V0704" Error (FLOW) "break, breakc and breakp appear inside a loop or rep block";
    LabelRedefined "V0705" Error (FLOW) "Each label is defined once";
    CallTarget "V0706" Error (FLOW) "call and callnz name a label the shader defines";
    RetPlacement "V0707" Error (FLOW) "ret ends the main program or a subroutine outside any block; a label follows a ret";
    NestingDepth "V0708" Error (FLOW) "if, loop/rep and call nesting stay within the version's limits, and subroutines do not recurse";
    LoopCount "V0709" Error (FLOW) "Integer constants defined for loop have count 0-255, start 0-255, step -128..127; for rep count 0-255";
    LoopCounterOutsideLoop "V0710" Error (FLOW) "aL is used only inside a loop block (or in a subroutine)";
    StaticFlowCount "V0711" Error (VS20) "vs_2_0 has at most 16 static flow-control instructions (if, else, loop, rep, call, callnz)";
    CoissueNotAllowed "V0801" Error (ALL) "The co-issue bit is set only in ps_1_x";
    CoissuePairing "V0802" Error (PS1) "A co-issued instruction follows a plain arithmetic instruction, and the pair writes disjoint masks, one of them only alpha";
    PhaseOrder "V0803" Error (PS14) "ps_1_4 has at most one phase, and in each phase texture instructions precede arithmetic ones";
    TexOpOrder "V0804" Error (PS11_13) "In ps_1_1-ps_1_3 texture instructions precede arithmetic instructions";
    TexMatrixSequence "V0805" Error (PS11_13) "texm3x2pad is followed by texm3x2tex/texm3x2depth, two texm3x3pad by a texm3x3 operation, on consecutive texture registers";
    TexRegisterOrder "V0806" Error (PS11_13) "A ps_1_1-ps_1_3 texture instruction reads a lower texture register than it writes, and each texture register is written once";
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// How many rules apply to `profile`.
pub fn rule_count(profile: Profile) -> usize {
    Rule::ALL
        .iter()
        .filter(|r| r.versions().contains(profile))
        .count()
}

/// The rule table as Markdown: the body of `docs/VALIDATION.md` between its markers.
pub fn rules_markdown() -> String {
    let mut out = String::new();
    out.push_str("| id | severity | versions | rule |\n|---|---|---|---|\n");
    for r in Rule::ALL {
        let versions = if r.versions() == Versions::ALL {
            "all".to_string()
        } else {
            Profile::ALL
                .iter()
                .filter(|p| r.versions().contains(**p))
                .map(|p| p.name())
                .collect::<Vec<_>>()
                .join(", ")
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            r.id(),
            r.severity(),
            versions,
            r.summary()
        ));
    }
    out.push_str("\nRules per version:\n\n| version | rules |\n|---|---|\n");
    for p in Profile::ALL {
        out.push_str(&format!("| {} | {} |\n", p.name(), rule_count(*p)));
    }
    out.push_str(&format!("\nTotal: {} rules.\n", Rule::ALL.len()));
    out
}
