//! The execution plan: a validated [`dxso::Shader`] lowered once to a flat list of pre-resolved
//! operations over *slots*.
//!
//! A slot is one row of the batch's register file: one `f32` per lane. Every register component
//! a shader touches has a slot (swizzles are resolved to slot choices, so no operation ever looks
//! at a swizzle), constants and literals read by plain register number are *uniform* slots filled
//! once per run with the value in every lane (their source modifiers applied then), and source
//! modifiers of per-lane registers, relative addressing, `_dz`/`_dw` and `def*` are all resolved
//! here, so running a plan decodes nothing.
//!
//! Control flow is structured: `If`/`Else`/`EndIf`, `Loop`/`EndLoop`, `Call`/`Return` carry the
//! program counters they jump to; the interpreter keeps per-lane execution masks for them
//! (`docs/SEMANTICS.md` section 9). The same plan is meant to be lowered by a JIT: every
//! operation is either straight-line arithmetic over slots or one of these structured jumps, and
//! sampling is the plain function [`crate::sampler::sample_lanes`].

pub(crate) mod check;
pub(crate) mod layout;
pub(crate) mod lower;

use crate::io::{InputRegister, OutputRegister};
use crate::texture::Dimension;
use dxso::{Comparison, Version};

/// A float the plan holds, equal to another and hashed by its bits: code compiled for `0.0`
/// differs from code for `-0.0`, and a NaN equals itself, so plans that compare equal compile
/// to the same code (the JIT's cache relies on it).
#[derive(Clone, Copy, Default)]
pub struct ExactF32(pub f32);

impl PartialEq for ExactF32 {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl Eq for ExactF32 {}

impl std::hash::Hash for ExactF32 {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.to_bits().hash(state);
    }
}

impl std::fmt::Debug for ExactF32 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl From<f32> for ExactF32 {
    fn from(v: f32) -> Self {
        ExactF32(v)
    }
}

/// A row of the register file (one value per lane).
pub type Slot = u32;

/// A program counter: an index into [`Plan::ops`].
pub type Pc = u32;

/// A component-wise function of one, two or three sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum ArithFn {
    // One source.
    Mov,
    Neg,
    Abs,
    NegAbs,
    Bias,
    NegBias,
    Bx2,
    NegBx2,
    Comp,
    X2,
    NegX2,
    Sat,
    Frc,
    Sgn,
    Rcp,
    Rsq,
    Exp,
    Log,
    /// `2^floor(x)` (vs_1_1 `expp.x`).
    ExpFloor,
    Sin,
    Cos,
    /// The `nrm` factor: 0 for 0, else `1 / sqrt(x)`.
    NrmFactor,
    // Two sources.
    Add,
    Sub,
    Mul,
    Div,
    Min,
    Max,
    Slt,
    Sge,
    Pow,
    // Three sources.
    Mad,
    Lrp,
    Cmp,
    Cnd,
}

impl ArithFn {
    /// How many sources the function reads.
    pub const fn arity(self) -> usize {
        use ArithFn::*;
        match self {
            Add | Sub | Mul | Div | Min | Max | Slt | Sge | Pow => 2,
            Mad | Lrp | Cmp | Cnd => 3,
            _ => 1,
        }
    }
}

/// Which integer register a relative address adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IndexReg {
    /// `a0.x` .. `a0.w` (component 0-3).
    A0(u8),
    /// `aL`.
    Loop,
}

/// Where a relative read gathers from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GatherFrom {
    /// The float constant image (`c[...]`).
    Const,
    /// A block of `len` registers of 4 slots each starting at `base` (`v[aL]`).
    Block {
        /// First slot (register 0, component x).
        base: Slot,
        /// Registers in the block.
        len: u32,
    },
}

/// A condition of `if`, `break`, `callnz`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    /// Always true (`break`, `call`).
    Always,
    /// A boolean constant of the run (`b#`, negated for `!b#`), the same for every lane.
    Bool {
        /// The register.
        reg: u8,
        /// `!b#`.
        not: bool,
    },
    /// A boolean known when lowering (`defb`).
    Literal(bool),
    /// `p0.c` (negated when `not`).
    Pred {
        /// The component.
        comp: u8,
        /// `!p0`.
        not: bool,
    },
    /// `cmp(a, b)` per lane.
    Compare {
        /// The comparison.
        cmp: Comparison,
        /// First operand.
        a: Slot,
        /// Second operand.
        b: Slot,
    },
}

/// Predicated writes: component `c` is written when `p0[swizzle[c]] != not`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PredSel {
    /// The predicate swizzle.
    pub swizzle: [u8; 4],
    /// `(!p0)`.
    pub not: bool,
}

/// Where a lookup's level of detail comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LodPlan {
    /// Quad derivatives of the coordinates.
    Implicit,
    /// Quad derivatives plus a per-lane bias (`texldb`).
    Bias(Slot),
    /// An explicit per-lane LOD (`texldl`).
    Explicit(Slot),
    /// Explicit derivatives (`texldd`).
    Gradients([Slot; 3], [Slot; 3]),
}

/// The depth a ps_1_x depth instruction computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DepthFn {
    /// `texdepth`: `clamp01(a / min(b, 1))`.
    TexDepth,
    /// `texm3x2depth`: `b == 0 ? 1 : clamp01(a / b)`.
    TexM3x2,
}

/// How loop iterations are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoopCount {
    /// From the run's integer constant `i#` (count `.x`, start `.y`, step `.z`).
    Int(u8),
    /// From a `defi`.
    Literal([i32; 4]),
}

/// One operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// Budget: every active lane executes `n` more instructions (`docs/SEMANTICS.md` 11).
    Count(u32),
    /// `dst[c] = f(src[0][c], src[1][c], src[2][c])` for each component `c` in `mask`.
    Arith {
        /// The function.
        f: ArithFn,
        /// Components written (bit `c`).
        mask: u8,
        /// Destination slot per component.
        dst: [Slot; 4],
        /// Source slots per source per component.
        src: [[Slot; 4]; 3],
    },
    /// A dot product of the first `len` components (plus `add`: `dp2add`), written to every
    /// component in `mask`.
    Dot {
        /// 2, 3 or 4.
        len: u8,
        /// First vector.
        a: [Slot; 4],
        /// Second vector.
        b: [Slot; 4],
        /// `dp2add`'s scalar.
        add: Option<Slot>,
        /// Components written.
        mask: u8,
        /// Destination slots.
        dst: [Slot; 4],
    },
    /// `m4x4` .. `m3x2`: component `k` (in `mask`) is the dot product of the first `len`
    /// components of `a` and of row `k`; every row is read before any component is written.
    Matrix {
        /// 3 or 4.
        len: u8,
        /// The vector.
        a: [Slot; 4],
        /// The rows.
        rows: [[Slot; 4]; 4],
        /// Components written (one per row).
        mask: u8,
        /// Destination slots.
        dst: [Slot; 4],
    },
    /// `crs`.
    Cross {
        /// First vector (x, y, z).
        a: [Slot; 3],
        /// Second vector.
        b: [Slot; 3],
        /// Components written (x, y, z only).
        mask: u8,
        /// Destination slots.
        dst: [Slot; 4],
    },
    /// `lit` of `(x, y, w)`.
    Lit {
        /// Source `.x`, `.y`, `.w`.
        src: [Slot; 3],
        /// Components written.
        mask: u8,
        /// Destination slots.
        dst: [Slot; 4],
    },
    /// The `texm3x3spec` reflection of eye vector `e` about normal `n`.
    Reflect {
        /// The normal.
        n: [Slot; 3],
        /// The eye vector.
        e: [Slot; 3],
        /// The reflected vector.
        dst: [Slot; 3],
    },
    /// A relative read: `dst[c] = file[offset + index][comps[c]]` per lane, 0 out of range.
    Gather {
        /// The register file.
        from: GatherFrom,
        /// The address register added.
        index: IndexReg,
        /// The register number the address is added to.
        offset: i32,
        /// Which register component each destination component reads.
        comps: [u8; 4],
        /// Components written.
        mask: u8,
        /// Destination slots.
        dst: [Slot; 4],
    },
    /// A relative write (`o[aL]`): writes nothing out of range.
    Scatter {
        /// First slot of the block.
        base: Slot,
        /// Registers in the block.
        len: u32,
        /// The address register added.
        index: IndexReg,
        /// The register number the address is added to.
        offset: i32,
        /// Components written.
        mask: u8,
        /// Values per component.
        src: [Slot; 4],
        /// Predication.
        pred: Option<PredSel>,
    },
    /// The destination steps of `docs/SEMANTICS.md` 4: `dst[c] = sat(clamp(src[c] * scale))`
    /// under the predicate.
    Store {
        /// Components written.
        mask: u8,
        /// Values.
        src: [Slot; 4],
        /// Destinations.
        dst: [Slot; 4],
        /// `2^shift`.
        scale: ExactF32,
        /// The ps_1_x range, or infinity.
        clamp: ExactF32,
        /// `_sat`.
        sat: bool,
        /// Predication.
        pred: Option<PredSel>,
    },
    /// `mova` / vs_1_1 `mov a0`: round (or floor) into `a0` components in `mask`.
    Mova {
        /// Round to nearest (else floor).
        round: bool,
        /// `a0` components written.
        mask: u8,
        /// Source slot per component.
        src: [Slot; 4],
        /// Predication.
        pred: Option<PredSel>,
    },
    /// `setp`: `p0[c] = cmp(a[c], b[c])` for `c` in `mask`.
    SetP {
        /// The comparison.
        cmp: Comparison,
        /// Components written.
        mask: u8,
        /// First operand per component.
        a: [Slot; 4],
        /// Second operand per component.
        b: [Slot; 4],
        /// Predication.
        pred: Option<PredSel>,
    },
    /// `dsx` (`y == false`) / `dsy` over 2x2 quads.
    Deriv {
        /// `dsy`.
        y: bool,
        /// Components written.
        mask: u8,
        /// Sources.
        src: [Slot; 4],
        /// Destinations.
        dst: [Slot; 4],
    },
    /// `texkill`: discard the lanes where any component in `mask` is below 0.
    Kill {
        /// Components tested.
        mask: u8,
        /// Values.
        src: [Slot; 4],
        /// Predication (tests only components whose predicate holds).
        pred: Option<PredSel>,
    },
    /// The ps_1_x depth instructions: `depth = f(a, b)`.
    Depth {
        /// The function.
        f: DepthFn,
        /// First operand.
        a: Slot,
        /// Second operand.
        b: Slot,
        /// The depth output slot.
        dst: Slot,
    },
    /// ps_1_1-1_3 projected coordinates: divide `src.xyz` by the component the stage's texture
    /// transform flags name, or copy when the stage does not project.
    ProjectStage {
        /// The texture stage.
        stage: u8,
        /// Coordinates (x, y, z, w).
        src: [Slot; 4],
        /// Projected x, y, z.
        dst: [Slot; 3],
    },
    /// A texture lookup: all four channels to `dst`.
    Sample {
        /// The sampler (or ps_1_x stage).
        sampler: u8,
        /// Coordinates (x, y, z).
        coords: [Slot; 3],
        /// Level of detail.
        lod: LodPlan,
        /// The four channels.
        dst: [Slot; 4],
    },
    /// Start of `if`: the lanes where `cond` holds run the block; `else_pc` is the matching
    /// `Else` (or `EndIf`).
    If {
        /// The condition.
        cond: Cond,
        /// Where the lanes that did not take the block go.
        else_pc: Pc,
    },
    /// `else`: runs the lanes that did not take the block; `end_pc` is the `EndIf`.
    Else {
        /// The matching `EndIf`.
        end_pc: Pc,
    },
    /// `endif`.
    EndIf,
    /// `loop` (sets `aL`) or `rep`; `end_pc` is the matching `EndLoop`.
    Loop {
        /// Iterations (and `aL` start and step for `loop`).
        count: LoopCount,
        /// `loop aL` rather than `rep`.
        sets_al: bool,
        /// The matching `EndLoop`.
        end_pc: Pc,
    },
    /// End of a loop body: next iteration or exit; `body_pc` is the first operation of the body.
    EndLoop {
        /// The body's first operation.
        body_pc: Pc,
    },
    /// `break`, `breakc`, `breakp`: the lanes where `cond` holds leave the innermost loop. When
    /// no lane is left active, execution resumes at `resume`: the next `Else`/`EndIf`/`EndLoop`
    /// of the innermost open block, where the other lanes' masks are restored.
    Break {
        /// The condition.
        cond: Cond,
        /// Where to go when no lane is left active.
        resume: Pc,
    },
    /// `call` / `callnz`: the lanes where `cond` holds run the subroutine starting at `target`.
    Call {
        /// The condition.
        cond: Cond,
        /// The subroutine's first operation.
        target: Pc,
    },
    /// A `ret` inside a block: the lanes that reach it leave the function; execution resumes at
    /// `resume` (the innermost open block's next `Else`/`EndIf`/`EndLoop`, or the function's end).
    Ret {
        /// Where to go when no lane is left active.
        resume: Pc,
    },
    /// The end of a subroutine: back to the caller.
    Return,
    /// The end of the main program.
    End,
}

/// A uniform slot's value: the same in every lane of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Uniform {
    /// A value known when lowering (a literal, a `def` component).
    Literal(ExactF32),
    /// Component `comp` of float constant `reg` of the run, with a source modifier applied.
    Float {
        /// The register.
        reg: u32,
        /// The component.
        comp: u8,
        /// The source modifier (`Mov` for none).
        modifier: ArithFn,
    },
    /// A texture stage state of the run.
    Stage {
        /// The stage.
        stage: u8,
        /// Which state.
        field: StageField,
    },
}

/// Texture stage states a plan reads as uniforms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StageField {
    /// `D3DTSS_BUMPENVMAT00` .. `11` (0-3).
    BumpMat(u8),
    /// `D3DTSS_BUMPENVLSCALE`.
    LScale,
    /// `D3DTSS_BUMPENVLOFFSET`.
    LOffset,
}

/// An input register and the slots of its components (`None`: not read).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InputSlots {
    /// The register.
    pub register: InputRegister,
    /// Slot per component.
    pub slots: [Option<Slot>; 4],
}

/// An output register and the slots of its components (`None`: never written, reads 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OutputSlots {
    /// The register.
    pub register: OutputRegister,
    /// Slot per component.
    pub slots: [Option<Slot>; 4],
}

/// A sampler the plan reads and the dimension it expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SamplerUse {
    /// `s#` (or ps_1_x stage).
    pub index: u8,
    /// The declared type; `None`: the binding's type, 2D by default (ps_1_x, undeclared).
    pub declared: Option<Dimension>,
}

/// A lowered shader.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Plan {
    /// The shader's version.
    pub version: Version,
    /// The operations; the main program starts at 0.
    pub ops: Vec<Op>,
    /// Rows of the register file.
    pub slots: u32,
    /// The uniform rows `0..uniforms.len()`.
    pub uniforms: Vec<Uniform>,
    /// The register rows (temporaries, outputs, ps_1_x texture registers): they start at 0 in
    /// every invocation and are written only in active lanes. Scratch rows follow them.
    pub zeroed: std::ops::Range<Slot>,
    /// The rows of `zeroed` that must be cleared before a batch: those some operation may read
    /// before the first straight-line block has written them in every lane.
    pub clear: Vec<Slot>,
    /// Inputs loaded at the start of every batch.
    pub inputs: Vec<InputSlots>,
    /// Outputs stored at the end of every batch, in register order.
    pub outputs: Vec<OutputSlots>,
    /// `def`s (register, value) after the ps_1_x clamp.
    pub float_defs: Vec<(u32, [ExactF32; 4])>,
    /// `defi`s.
    pub int_defs: Vec<(u32, [i32; 4])>,
    /// `defb`s.
    pub bool_defs: Vec<(u32, bool)>,
    /// Size of the float constant file (relative reads are in range below it).
    pub float_constants: u32,
    /// ps_1_x: float constants are clamped to [-1, 1].
    pub clamp_constants: bool,
    /// Samplers the plan reads.
    pub samplers: Vec<SamplerUse>,
    /// `Options::zero_times_anything`.
    pub zero_times_anything: bool,
    /// Instructions each invocation may execute.
    pub budget: u64,
    /// The deepest call nesting the plan can reach.
    pub max_call_depth: u32,
    /// Lanes per batch.
    pub lanes: usize,
}
