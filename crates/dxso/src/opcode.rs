//! The opcode table: every `D3DSHADER_INSTRUCTION_OPCODE_TYPE`, its mnemonic, the operands it
//! takes in each shader version, and the versions that allow it.
//!
//! This table is the one place those facts live: the decoder, encoder, printer, parser,
//! validator and executor all read it.

use crate::version::{ShaderKind, Version};

macro_rules! opcodes {
    ($($name:ident = $value:literal,)*) => {
        /// An instruction opcode (`D3DSIO_*`). Comments and the end token are not opcodes here:
        /// they are [`crate::Item::Comment`] and the end of [`crate::Shader`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        #[repr(u16)]
        #[allow(missing_docs)]
        pub enum Opcode {
            #[default]
            $($name = $value,)*
        }

        impl Opcode {
            /// Every opcode, in numeric order.
            pub const ALL: &'static [Opcode] = &[$(Opcode::$name,)*];

            /// Decodes the 16-bit opcode field.
            #[inline]
            pub const fn from_raw(raw: u16) -> Option<Opcode> {
                // Opcodes 0..=96 go through a lookup table: this runs once per instruction.
                if (raw as usize) < LOW_OPCODES.len() {
                    return LOW_OPCODES[raw as usize];
                }
                match raw {
                    0xFFFD => Some(Opcode::Phase),
                    _ => None,
                }
            }

            const fn from_raw_slow(raw: u16) -> Option<Opcode> {
                match raw {
                    $($value => Some(Opcode::$name),)*
                    _ => None,
                }
            }
        }
    };
}

opcodes! {
    Nop = 0, Mov = 1, Add = 2, Sub = 3, Mad = 4, Mul = 5, Rcp = 6, Rsq = 7, Dp3 = 8, Dp4 = 9,
    Min = 10, Max = 11, Slt = 12, Sge = 13, Exp = 14, Log = 15, Lit = 16, Dst = 17, Lrp = 18,
    Frc = 19, M4x4 = 20, M4x3 = 21, M3x4 = 22, M3x3 = 23, M3x2 = 24, Call = 25, CallNz = 26,
    Loop = 27, Ret = 28, EndLoop = 29, Label = 30, Dcl = 31, Pow = 32, Crs = 33, Sgn = 34,
    Abs = 35, Nrm = 36, SinCos = 37, Rep = 38, EndRep = 39, If = 40, Ifc = 41, Else = 42,
    EndIf = 43, Break = 44, BreakC = 45, MovA = 46, DefB = 47, DefI = 48,
    TexCoord = 64, TexKill = 65, Tex = 66, TexBem = 67, TexBemL = 68, TexReg2Ar = 69,
    TexReg2Gb = 70, TexM3x2Pad = 71, TexM3x2Tex = 72, TexM3x3Pad = 73, TexM3x3Tex = 74,
    TexM3x3Diff = 75, TexM3x3Spec = 76, TexM3x3VSpec = 77, ExpP = 78, LogP = 79, Cnd = 80,
    Def = 81, TexReg2Rgb = 82, TexDp3Tex = 83, TexM3x2Depth = 84, TexDp3 = 85, TexM3x3 = 86,
    TexDepth = 87, Cmp = 88, Bem = 89, Dp2Add = 90, Dsx = 91, Dsy = 92, TexLdd = 93, SetP = 94,
    TexLdl = 95, BreakP = 96, Phase = 0xFFFD,
}

const LOW_OPCODES: [Option<Opcode>; 97] = {
    let mut table = [None; 97];
    let mut i = 0;
    while i < table.len() {
        table[i] = Opcode::from_raw_slow(i as u16);
        i += 1;
    }
    table
};

/// The raw opcode of a comment token.
pub const COMMENT_OPCODE: u16 = 0xFFFE;
/// The end token.
pub const END_TOKEN: u32 = 0x0000_FFFF;

/// What follows an instruction token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operands {
    /// Nothing (`nop`, `else`, `ret`, `phase`, ...).
    None,
    /// A destination and `n` sources (`n` may be 0: `texkill`, ps_1_1 `tex`).
    DstSrc(u8),
    /// Sources only (`if b0`, `call l1`, `loop aL, i0`).
    Src(u8),
    /// `dcl`: a usage token, then the destination.
    Dcl,
    /// `def`: destination then four float bit patterns.
    Def,
    /// `defi`: destination then four integers.
    DefI,
    /// `defb`: destination then one boolean DWORD.
    DefB,
}

impl Operands {
    /// `true` when the operand list starts with a destination.
    pub const fn has_dst(self) -> bool {
        !matches!(self, Operands::None | Operands::Src(_))
    }

    /// The number of source operands.
    pub const fn src_count(self) -> u8 {
        match self {
            Operands::DstSrc(n) | Operands::Src(n) => n,
            _ => 0,
        }
    }

    /// The number of DWORDs the operands take when nothing is relatively addressed or predicated.
    pub const fn token_count(self) -> u32 {
        match self {
            Operands::None => 0,
            Operands::DstSrc(n) => 1 + n as u32,
            Operands::Src(n) => n as u32,
            Operands::Dcl => 2,
            Operands::Def | Operands::DefI => 5,
            Operands::DefB => 2,
        }
    }
}

/// An encoded `(major, minor)` pair that orders versions: `2_0 < 2_x < 2_sw < 3_0`.
pub type VersionKey = u16;

/// The key of a version for range checks.
pub const fn version_key(major: u8, minor: u8) -> VersionKey {
    (major as u16) << 8 | minor as u16
}

/// An inclusive range of versions of one shader kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VersionRange {
    /// Lowest version (inclusive).
    pub min: VersionKey,
    /// Highest version (inclusive).
    pub max: VersionKey,
}

impl VersionRange {
    /// Whether `v` (of the right kind) lies in the range.
    pub const fn contains(self, major: u8, minor: u8) -> bool {
        let k = version_key(major, minor);
        k >= self.min && k <= self.max
    }
}

/// The operands from some version on: the table lists these newest last, and the last entry
/// whose `since` the version reaches applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The first version (of either kind) this shape applies to.
    pub since: VersionKey,
    /// The operands.
    pub operands: Operands,
}

/// Everything the table knows about one opcode.
#[derive(Clone, Copy, Debug)]
pub struct OpcodeInfo {
    /// The opcode.
    pub opcode: Opcode,
    /// The assembly mnemonic (the base form: `ifc` prints as `if_gt` and so on, `tex` as `texld`
    /// in ps_1_4 and later; see [`OpcodeInfo::mnemonic_for`]).
    pub mnemonic: &'static str,
    /// Shapes by version, oldest first.
    pub shapes: &'static [Shape],
    /// Vertex shader versions that allow it.
    pub vs: Option<VersionRange>,
    /// Pixel shader versions that allow it.
    pub ps: Option<VersionRange>,
    /// Instruction slots by version, oldest first (see [`OpcodeInfo::slots`]).
    pub slots: &'static [SlotRule],
    /// What a ps_1_0-1_3 texture-address instruction does with its destination's stage.
    pub ps1_stage: StageUse,
    /// Whether it opens, continues or closes a flow-control block.
    pub block: Block,
}

/// An instruction's place in the nesting of flow-control blocks (`if`/`else`/`endif`,
/// `loop`/`endloop`, `rep`/`endrep`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Block {
    /// Not a block boundary.
    #[default]
    None,
    /// Opens a block: `if`, `if_comp`, `loop`, `rep`.
    Opens,
    /// Ends one block's body and opens the next: `else`.
    Continues,
    /// Closes a block: `endif`, `endloop`, `endrep`.
    Closes,
}

impl Block {
    /// `true` when the instructions after it are one level deeper (`Opens`, `Continues`).
    pub const fn indents_after(self) -> bool {
        matches!(self, Block::Opens | Block::Continues)
    }

    /// `true` when it sits one level shallower than the instructions before it (`Continues`,
    /// `Closes`).
    pub const fn outdents(self) -> bool {
        matches!(self, Block::Continues | Block::Closes)
    }
}

/// What a ps_1_0-1_3 texture-address instruction does with the texture stage its destination
/// `t#` names (ps_1_4 and later name stages and coordinates in their operands instead).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StageUse {
    /// It samples the stage's texture.
    pub samples: bool,
    /// It reads the stage's texture coordinates.
    pub reads_coordinates: bool,
}

impl StageUse {
    /// Neither samples nor reads coordinates.
    pub const NONE: StageUse = StageUse {
        samples: false,
        reads_coordinates: false,
    };
    /// Reads the coordinates only (`texcoord`, the `pad` rows, `texdp3`, ...).
    pub const COORDINATES: StageUse = StageUse {
        samples: false,
        reads_coordinates: true,
    };
    /// Samples with coordinates of the stage (`tex`, `texbem`, `texm3x3tex`, ...).
    pub const SAMPLES_AT_COORDINATES: StageUse = StageUse {
        samples: true,
        reads_coordinates: true,
    };
    /// Samples at coordinates read from another register (`texreg2ar`, `texreg2gb`,
    /// `texreg2rgb`).
    pub const SAMPLES: StageUse = StageUse {
        samples: true,
        reads_coordinates: false,
    };
}

/// Which shader kinds a [`SlotRule`] applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kinds {
    /// Vertex and pixel shaders.
    Both,
    /// Vertex shaders only.
    Vertex,
    /// Pixel shaders only.
    Pixel,
}

impl Kinds {
    const fn includes(self, kind: ShaderKind) -> bool {
        match self {
            Kinds::Both => true,
            Kinds::Vertex => matches!(kind, ShaderKind::Vertex),
            Kinds::Pixel => matches!(kind, ShaderKind::Pixel),
        }
    }
}

/// The instruction slots one instruction takes from some version of some kind on: what it
/// costs against the version's slot limits and what Microsoft's listing footer
/// (`// approximately N instruction slots used (T texture, A arithmetic)`) adds up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotRule {
    /// The shader kinds the rule applies to.
    pub kinds: Kinds,
    /// The first version it applies to.
    pub since: VersionKey,
    /// Texture slots.
    pub texture: u8,
    /// Arithmetic (and flow-control) slots.
    pub arithmetic: u8,
}

const ANY: VersionKey = 0;
const SM1_ALL: VersionKey = version_key(1, 0);
const V2_0: VersionKey = version_key(2, 0);
const V2_X: VersionKey = version_key(2, 1);
const V3_0: VersionKey = version_key(3, 0);
const MAX: VersionKey = u16::MAX;

const fn r(min: VersionKey, max: VersionKey) -> Option<VersionRange> {
    Some(VersionRange { min, max })
}

const ALL_VERSIONS: Option<VersionRange> = r(ANY, MAX);
const SM2_UP: Option<VersionRange> = r(V2_0, MAX);
const SM2X_UP: Option<VersionRange> = r(V2_X, MAX);
const SM3_UP: Option<VersionRange> = r(V3_0, MAX);
const PS_1_X: Option<VersionRange> = r(SM1_ALL, version_key(1, 4));
const PS_1_3: Option<VersionRange> = r(SM1_ALL, version_key(1, 3));
const PS_1_4: Option<VersionRange> = r(version_key(1, 4), version_key(1, 4));
const NONE: Option<VersionRange> = None;

macro_rules! shapes {
    ($ops:expr) => {
        &[Shape { since: ANY, operands: $ops }]
    };
    ($($since:expr => $ops:expr),+) => {
        &[$(Shape { since: $since, operands: $ops }),+]
    };
}

use Operands::{Dcl, Def, DefB, DefI, DstSrc, None as NoOps, Src};

/// A [`SlotRule`] of `arithmetic` slots for every version.
const fn arith(arithmetic: u8) -> SlotRule {
    SlotRule {
        kinds: Kinds::Both,
        since: ANY,
        texture: 0,
        arithmetic,
    }
}

/// A [`SlotRule`] for the versions of `kinds` from `since` on.
const fn from(kinds: Kinds, since: VersionKey, texture: u8, arithmetic: u8) -> SlotRule {
    SlotRule {
        kinds,
        since,
        texture,
        arithmetic,
    }
}

// The slot counts, from the "instruction slots" column of Microsoft's instruction tables per
// version (docs/VALIDATION.md, "Instruction slots"), checked against the footers of the corpus
// listings where those differ from the tables (`lrp` and `texkill` in vs_2_0 and ps_2_0).
const SLOTS_0: &[SlotRule] = &[arith(0)];
const SLOTS_1: &[SlotRule] = &[arith(1)];
const SLOTS_2: &[SlotRule] = &[arith(2)];
const SLOTS_3: &[SlotRule] = &[arith(3)];
const SLOTS_4: &[SlotRule] = &[arith(4)];
/// ps_1_x texture-address instructions; sampling instructions from ps_2_0 on.
const SLOTS_TEX: &[SlotRule] = &[from(Kinds::Pixel, ANY, 1, 0)];
const VS: Kinds = Kinds::Vertex;
const PS: Kinds = Kinds::Pixel;
const V1_2: VersionKey = version_key(1, 2);
const V1_4: VersionKey = version_key(1, 4);

macro_rules! table {
    ($($op:ident $mn:literal $shapes:expr, vs $vs:expr, ps $ps:expr $(, slots $slots:expr)? $(, stage $stage:expr)? $(, block $block:ident)?;)*) => {
        pub(crate) const ROWS: &[OpcodeInfo] = &[
            $(OpcodeInfo {
                opcode: Opcode::$op,
                mnemonic: $mn,
                shapes: $shapes,
                vs: $vs,
                ps: $ps,
                slots: table!(@slots $($slots)?),
                ps1_stage: table!(@stage $($stage)?),
                block: table!(@block $($block)?),
            },)*
        ];
        /// The opcode table, in [`Opcode::ALL`] order.
        pub static TABLE: &[OpcodeInfo] = ROWS;
    };
    (@slots) => { SLOTS_1 };
    (@slots $slots:expr) => { $slots };
    (@stage) => { StageUse::NONE };
    (@stage $stage:expr) => { $stage };
    (@block) => { Block::None };
    (@block $block:ident) => { Block::$block };
}

table! {
    Nop "nop" shapes!(NoOps), vs ALL_VERSIONS, ps ALL_VERSIONS, slots &[arith(1), from(PS, ANY, 0, 0), from(PS, V2_0, 0, 1)];
    Mov "mov" shapes!(DstSrc(1)), vs ALL_VERSIONS, ps ALL_VERSIONS;
    Add "add" shapes!(DstSrc(2)), vs ALL_VERSIONS, ps ALL_VERSIONS;
    Sub "sub" shapes!(DstSrc(2)), vs ALL_VERSIONS, ps ALL_VERSIONS;
    Mad "mad" shapes!(DstSrc(3)), vs ALL_VERSIONS, ps ALL_VERSIONS;
    Mul "mul" shapes!(DstSrc(2)), vs ALL_VERSIONS, ps ALL_VERSIONS;
    Rcp "rcp" shapes!(DstSrc(1)), vs ALL_VERSIONS, ps SM2_UP;
    Rsq "rsq" shapes!(DstSrc(1)), vs ALL_VERSIONS, ps SM2_UP;
    Dp3 "dp3" shapes!(DstSrc(2)), vs ALL_VERSIONS, ps ALL_VERSIONS;
    Dp4 "dp4" shapes!(DstSrc(2)), vs ALL_VERSIONS, ps r(version_key(1, 2), MAX), slots &[arith(1), from(PS, V1_2, 0, 2), from(PS, V1_4, 0, 1)];
    Min "min" shapes!(DstSrc(2)), vs ALL_VERSIONS, ps SM2_UP;
    Max "max" shapes!(DstSrc(2)), vs ALL_VERSIONS, ps SM2_UP;
    Slt "slt" shapes!(DstSrc(2)), vs ALL_VERSIONS, ps NONE;
    Sge "sge" shapes!(DstSrc(2)), vs ALL_VERSIONS, ps NONE;
    Exp "exp" shapes!(DstSrc(1)), vs ALL_VERSIONS, ps SM2_UP, slots &[arith(10), from(Kinds::Both, V2_0, 0, 1)];
    Log "log" shapes!(DstSrc(1)), vs ALL_VERSIONS, ps SM2_UP, slots &[arith(10), from(Kinds::Both, V2_0, 0, 1)];
    Lit "lit" shapes!(DstSrc(1)), vs ALL_VERSIONS, ps NONE, slots &[arith(1), from(VS, V2_0, 0, 3)];
    Dst "dst" shapes!(DstSrc(2)), vs ALL_VERSIONS, ps NONE;
    Lrp "lrp" shapes!(DstSrc(3)), vs SM2_UP, ps ALL_VERSIONS, slots &[arith(1), from(Kinds::Both, V2_X, 0, 2)];
    Frc "frc" shapes!(DstSrc(1)), vs ALL_VERSIONS, ps SM2_UP, slots &[arith(3), from(Kinds::Both, V2_0, 0, 1)];
    M4x4 "m4x4" shapes!(DstSrc(2)), vs ALL_VERSIONS, ps SM2_UP, slots SLOTS_4;
    M4x3 "m4x3" shapes!(DstSrc(2)), vs ALL_VERSIONS, ps SM2_UP, slots SLOTS_3;
    M3x4 "m3x4" shapes!(DstSrc(2)), vs ALL_VERSIONS, ps SM2_UP, slots SLOTS_4;
    M3x3 "m3x3" shapes!(DstSrc(2)), vs ALL_VERSIONS, ps SM2_UP, slots SLOTS_3;
    M3x2 "m3x2" shapes!(DstSrc(2)), vs ALL_VERSIONS, ps SM2_UP, slots SLOTS_2;
    Call "call" shapes!(Src(1)), vs SM2_UP, ps SM2X_UP, slots SLOTS_2;
    CallNz "callnz" shapes!(Src(2)), vs SM2_UP, ps SM2X_UP, slots SLOTS_3;
    Loop "loop" shapes!(Src(2)), vs SM2_UP, ps SM3_UP, slots SLOTS_3, block Opens;
    Ret "ret" shapes!(NoOps), vs SM2_UP, ps SM2X_UP;
    EndLoop "endloop" shapes!(NoOps), vs SM2_UP, ps SM3_UP, slots SLOTS_2, block Closes;
    Label "label" shapes!(Src(1)), vs SM2_UP, ps SM2X_UP, slots SLOTS_0;
    Dcl "dcl" shapes!(Dcl), vs ALL_VERSIONS, ps SM2_UP, slots SLOTS_0;
    Pow "pow" shapes!(DstSrc(2)), vs SM2_UP, ps SM2_UP, slots SLOTS_3;
    Crs "crs" shapes!(DstSrc(2)), vs SM2_UP, ps SM2_UP, slots SLOTS_2;
    Sgn "sgn" shapes!(ANY => DstSrc(3), V3_0 => DstSrc(1)), vs SM2_UP, ps NONE, slots SLOTS_3;
    Abs "abs" shapes!(DstSrc(1)), vs SM2_UP, ps SM2_UP;
    Nrm "nrm" shapes!(DstSrc(1)), vs SM2_UP, ps SM2_UP, slots SLOTS_3;
    SinCos "sincos" shapes!(ANY => DstSrc(3), V3_0 => DstSrc(1)), vs SM2_UP, ps SM2_UP, slots &[arith(8)];
    Rep "rep" shapes!(Src(1)), vs SM2_UP, ps SM2X_UP, slots SLOTS_3, block Opens;
    EndRep "endrep" shapes!(NoOps), vs SM2_UP, ps SM2X_UP, slots SLOTS_2, block Closes;
    If "if" shapes!(Src(1)), vs SM2_UP, ps SM2X_UP, slots SLOTS_3, block Opens;
    Ifc "if" shapes!(Src(2)), vs SM2X_UP, ps SM2X_UP, slots SLOTS_3, block Opens;
    Else "else" shapes!(NoOps), vs SM2_UP, ps SM2X_UP, block Continues;
    EndIf "endif" shapes!(NoOps), vs SM2_UP, ps SM2X_UP, block Closes;
    Break "break" shapes!(NoOps), vs SM2X_UP, ps SM2X_UP;
    BreakC "break" shapes!(Src(2)), vs SM2X_UP, ps SM2X_UP, slots SLOTS_3;
    MovA "mova" shapes!(DstSrc(1)), vs SM2_UP, ps NONE;
    DefB "defb" shapes!(DefB), vs SM2_UP, ps SM2X_UP, slots SLOTS_0;
    DefI "defi" shapes!(DefI), vs SM2_UP, ps SM2X_UP, slots SLOTS_0;
    TexCoord "texcoord" shapes!(ANY => DstSrc(0), version_key(1, 4) => DstSrc(1)), vs NONE, ps PS_1_X, slots SLOTS_TEX, stage StageUse::COORDINATES;
    TexKill "texkill" shapes!(DstSrc(0)), vs NONE, ps ALL_VERSIONS, slots &[from(PS, ANY, 1, 0), from(PS, V2_0, 0, 1)], stage StageUse::COORDINATES;
    Tex "tex" shapes!(ANY => DstSrc(0), version_key(1, 4) => DstSrc(1), V2_0 => DstSrc(2)), vs NONE, ps ALL_VERSIONS, slots SLOTS_TEX, stage StageUse::SAMPLES_AT_COORDINATES;
    TexBem "texbem" shapes!(DstSrc(1)), vs NONE, ps PS_1_3, slots SLOTS_TEX, stage StageUse::SAMPLES_AT_COORDINATES;
    TexBemL "texbeml" shapes!(DstSrc(1)), vs NONE, ps PS_1_3, slots &[from(PS, ANY, 1, 1)], stage StageUse::SAMPLES_AT_COORDINATES;
    TexReg2Ar "texreg2ar" shapes!(DstSrc(1)), vs NONE, ps PS_1_3, slots SLOTS_TEX, stage StageUse::SAMPLES;
    TexReg2Gb "texreg2gb" shapes!(DstSrc(1)), vs NONE, ps PS_1_3, slots SLOTS_TEX, stage StageUse::SAMPLES;
    TexM3x2Pad "texm3x2pad" shapes!(DstSrc(1)), vs NONE, ps PS_1_3, slots SLOTS_TEX, stage StageUse::COORDINATES;
    TexM3x2Tex "texm3x2tex" shapes!(DstSrc(1)), vs NONE, ps PS_1_3, slots SLOTS_TEX, stage StageUse::SAMPLES_AT_COORDINATES;
    TexM3x3Pad "texm3x3pad" shapes!(DstSrc(1)), vs NONE, ps PS_1_3, slots SLOTS_TEX, stage StageUse::COORDINATES;
    TexM3x3Tex "texm3x3tex" shapes!(DstSrc(1)), vs NONE, ps PS_1_3, slots SLOTS_TEX, stage StageUse::SAMPLES_AT_COORDINATES;
    TexM3x3Diff "texm3x3diff" shapes!(DstSrc(1)), vs NONE, ps NONE, slots SLOTS_TEX, stage StageUse::COORDINATES;
    TexM3x3Spec "texm3x3spec" shapes!(DstSrc(2)), vs NONE, ps PS_1_3, slots SLOTS_TEX, stage StageUse::SAMPLES_AT_COORDINATES;
    TexM3x3VSpec "texm3x3vspec" shapes!(DstSrc(1)), vs NONE, ps PS_1_3, slots SLOTS_TEX, stage StageUse::SAMPLES_AT_COORDINATES;
    // Vertex shaders only: the ps_2_0, ps_2_x and ps_3_0 instruction lists have no expp/logp.
    ExpP "expp" shapes!(DstSrc(1)), vs ALL_VERSIONS, ps NONE;
    LogP "logp" shapes!(DstSrc(1)), vs ALL_VERSIONS, ps NONE;
    Cnd "cnd" shapes!(DstSrc(3)), vs NONE, ps PS_1_X;
    Def "def" shapes!(Def), vs ALL_VERSIONS, ps ALL_VERSIONS, slots SLOTS_0;
    TexReg2Rgb "texreg2rgb" shapes!(DstSrc(1)), vs NONE, ps r(version_key(1, 2), version_key(1, 3)), slots SLOTS_TEX, stage StageUse::SAMPLES;
    TexDp3Tex "texdp3tex" shapes!(DstSrc(1)), vs NONE, ps r(version_key(1, 2), version_key(1, 3)), slots SLOTS_TEX, stage StageUse::SAMPLES_AT_COORDINATES;
    TexM3x2Depth "texm3x2depth" shapes!(DstSrc(1)), vs NONE, ps r(version_key(1, 3), version_key(1, 3)), slots SLOTS_TEX, stage StageUse::COORDINATES;
    TexDp3 "texdp3" shapes!(DstSrc(1)), vs NONE, ps r(version_key(1, 2), version_key(1, 3)), slots SLOTS_TEX, stage StageUse::COORDINATES;
    TexM3x3 "texm3x3" shapes!(DstSrc(1)), vs NONE, ps r(version_key(1, 2), version_key(1, 3)), slots SLOTS_TEX, stage StageUse::COORDINATES;
    TexDepth "texdepth" shapes!(DstSrc(0)), vs NONE, ps PS_1_4, slots SLOTS_TEX;
    Cmp "cmp" shapes!(DstSrc(3)), vs NONE, ps r(version_key(1, 2), MAX), slots &[arith(1), from(PS, V1_2, 0, 2), from(PS, V1_4, 0, 1)];
    Bem "bem" shapes!(DstSrc(2)), vs NONE, ps PS_1_4, slots SLOTS_2;
    Dp2Add "dp2add" shapes!(DstSrc(3)), vs NONE, ps SM2_UP, slots SLOTS_2;
    Dsx "dsx" shapes!(DstSrc(1)), vs NONE, ps SM2X_UP, slots SLOTS_2;
    Dsy "dsy" shapes!(DstSrc(1)), vs NONE, ps SM2X_UP, slots SLOTS_2;
    TexLdd "texldd" shapes!(DstSrc(4)), vs NONE, ps SM2X_UP, slots &[from(PS, V2_X, 2, 0)];
    SetP "setp" shapes!(DstSrc(2)), vs SM2X_UP, ps SM2X_UP;
    TexLdl "texldl" shapes!(DstSrc(2)), vs SM3_UP, ps SM3_UP, slots &[from(Kinds::Both, V3_0, 2, 0)];
    BreakP "breakp" shapes!(Src(1)), vs SM2X_UP, ps SM2X_UP, slots SLOTS_3;
    Phase "phase" shapes!(NoOps), vs NONE, ps PS_1_4, slots SLOTS_0;
}

/// Per opcode, bit `n` set when some shape takes `n` sources: the decoder checks every shader
/// model 2 length field against this, so it is computed once, at compile time.
const SRC_COUNT_MASKS: [u8; ROWS.len()] = {
    let mut masks = [0u8; ROWS.len()];
    let mut i = 0;
    while i < ROWS.len() {
        let mut j = 0;
        while j < ROWS[i].shapes.len() {
            masks[i] |= 1 << ROWS[i].shapes[j].operands.src_count();
            j += 1;
        }
        i += 1;
    }
    masks
};

impl Opcode {
    /// The table entry of this opcode.
    pub fn info(self) -> &'static OpcodeInfo {
        // The table is written in `Opcode::ALL` order; `index` finds the row without a search.
        &TABLE[self.index()]
    }

    /// The position of this opcode in [`Opcode::ALL`] and [`TABLE`].
    pub const fn index(self) -> usize {
        let raw = self as u16;
        match raw {
            0..=48 => raw as usize,
            64..=96 => raw as usize - 64 + 49,
            _ => 82,
        }
    }

    /// The raw 16-bit value.
    pub const fn raw(self) -> u16 {
        self as u16
    }

    /// The operands this opcode takes in `version`.
    pub fn operands(self, version: Version) -> Operands {
        self.info().operands(version)
    }

    /// `true` for the opcodes whose control field holds a comparison (`ifc`, `breakc`, `setp`).
    pub const fn has_comparison(self) -> bool {
        matches!(self, Opcode::Ifc | Opcode::BreakC | Opcode::SetP)
    }
}

impl OpcodeInfo {
    /// The operands in `version`: the newest shape that `version` reaches.
    pub fn operands(&self, version: Version) -> Operands {
        let key = version_key(version.major, version.minor);
        let mut ops = self.shapes[0].operands;
        for shape in &self.shapes[1..] {
            if key >= shape.since {
                ops = shape.operands;
            }
        }
        ops
    }

    /// `true` when a shader model 2+ instruction with `srcs` sources (and a destination exactly
    /// when the opcode has one) matches some shape of this opcode. Used to check the length field.
    pub fn accepts_src_count(&self, srcs: usize) -> bool {
        srcs < 8 && SRC_COUNT_MASKS[self.opcode.index()] & (1 << srcs) != 0
    }

    /// The `(texture, arithmetic)` slots one instruction takes in `version`: the last
    /// [`SlotRule`] of the row whose kinds hold the version and whose `since` it reaches (one
    /// arithmetic slot when none does: an opcode outside its versions).
    pub const fn slots(&self, version: Version) -> (u8, u8) {
        let key = version_key(version.major, version.minor);
        let mut cost = (0, 1);
        let mut i = 0;
        while i < self.slots.len() {
            let rule = self.slots[i];
            if rule.kinds.includes(version.kind) && key >= rule.since {
                cost = (rule.texture, rule.arithmetic);
            }
            i += 1;
        }
        cost
    }

    /// Whether `version` allows this opcode.
    pub fn allowed_in(&self, version: Version) -> bool {
        let range = match version.kind {
            ShaderKind::Vertex => self.vs,
            ShaderKind::Pixel => self.ps,
        };
        range.is_some_and(|r| r.contains(version.major, version.minor))
    }

    /// The mnemonic as spelled for `version` before any control suffix: ps_1_x `tex` and
    /// `texcoord` become `texld` and `texcrd` in ps_1_4 and later.
    pub fn mnemonic_for(&self, version: Version) -> &'static str {
        match self.opcode {
            Opcode::Tex if version.is_pixel() && version.at_least(1, 4) => "texld",
            Opcode::TexCoord if version.is_pixel() && version.at_least(1, 4) => "texcrd",
            _ => self.mnemonic,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_in_opcode_order() {
        assert_eq!(TABLE.len(), Opcode::ALL.len());
        for (i, (row, op)) in TABLE.iter().zip(Opcode::ALL).enumerate() {
            assert_eq!(row.opcode, *op, "row {i}");
            assert_eq!(op.index(), i);
            assert_eq!(Opcode::from_raw(op.raw()), Some(*op));
        }
    }

    #[test]
    fn unused_values_are_unknown() {
        for raw in (49..64).chain(97..0xFFFD) {
            assert_eq!(Opcode::from_raw(raw), None, "{raw}");
        }
    }

    #[test]
    fn version_dependent_shapes() {
        let ps11 = Version::ps(1, 1);
        let ps14 = Version::ps(1, 4);
        let ps20 = Version::ps(2, 0);
        assert_eq!(Opcode::Tex.operands(ps11), DstSrc(0));
        assert_eq!(Opcode::Tex.operands(ps14), DstSrc(1));
        assert_eq!(Opcode::Tex.operands(ps20), DstSrc(2));
        assert_eq!(Opcode::TexCoord.operands(ps14), DstSrc(1));
        assert_eq!(Opcode::SinCos.operands(Version::vs(2, 1)), DstSrc(3));
        assert_eq!(Opcode::SinCos.operands(Version::vs(2, 0xFF)), DstSrc(3));
        assert_eq!(Opcode::SinCos.operands(Version::ps(3, 0)), DstSrc(1));
        assert!(Opcode::Sgn.info().accepts_src_count(1));
        assert!(Opcode::Sgn.info().accepts_src_count(3));
        assert!(!Opcode::Sgn.info().accepts_src_count(2));
    }

    #[test]
    fn only_texture_address_instructions_use_a_stage() {
        for &op in Opcode::ALL {
            let stage = op.info().ps1_stage;
            if stage != StageUse::NONE {
                assert!(crate::slots::is_texture_address(op), "{op:?}");
            }
        }
        assert_eq!(
            Opcode::TexReg2Ar.info().ps1_stage,
            StageUse::SAMPLES,
            "texreg2ar samples at coordinates from another register"
        );
        assert_eq!(Opcode::TexKill.info().ps1_stage, StageUse::COORDINATES);
    }

    #[test]
    fn blocks_open_and_close_in_pairs() {
        let of = |op: Opcode| op.info().block;
        assert_eq!(of(Opcode::Ifc), Block::Opens);
        assert_eq!(of(Opcode::Else), Block::Continues);
        assert_eq!(of(Opcode::EndRep), Block::Closes);
        assert_eq!(of(Opcode::Break), Block::None);
        let opens = Opcode::ALL
            .iter()
            .filter(|o| of(**o) == Block::Opens)
            .count();
        let closes = Opcode::ALL
            .iter()
            .filter(|o| of(**o) == Block::Closes)
            .count();
        // if and if_comp share endif.
        assert_eq!((opens, closes), (4, 3));
    }

    #[test]
    fn version_gates() {
        assert!(Opcode::Slt.info().allowed_in(Version::vs(1, 1)));
        assert!(!Opcode::Slt.info().allowed_in(Version::ps(2, 0)));
        assert!(Opcode::Ifc.info().allowed_in(Version::ps(2, 1)));
        assert!(!Opcode::Ifc.info().allowed_in(Version::ps(2, 0)));
        assert!(Opcode::Phase.info().allowed_in(Version::ps(1, 4)));
        assert!(!Opcode::Phase.info().allowed_in(Version::ps(1, 3)));
        assert_eq!(Opcode::Tex.info().mnemonic_for(Version::ps(2, 0)), "texld");
        assert_eq!(
            Opcode::TexCoord.info().mnemonic_for(Version::ps(1, 4)),
            "texcrd"
        );
    }
}
