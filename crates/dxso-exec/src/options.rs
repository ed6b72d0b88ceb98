//! Execution options.

/// What a plan is built with. The defaults follow `docs/SEMANTICS.md`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Instructions one invocation may execute (section 11).
    pub budget: u64,
    /// The range ps_1_x arithmetic results are clamped to (MaxPixelShaderValue, section 4.2).
    pub ps1_range: Ps1Range,
    /// "0 * anything = 0" in every product (section 5.1).
    pub zero_times_anything: bool,
    /// Size of the float constant file; `None`: 256 for vertex shaders, 8 / 32 / 224 for ps_1_x /
    /// ps_2_x / ps_3_0, 8192 for software versions.
    pub float_constants: Option<u32>,
    /// Lanes per batch: 8, 16, 32 or 64.
    pub lanes: usize,
    /// What runs the plan.
    pub engine: Engine,
}

/// The range ps_1_x arithmetic results are clamped to: `D3DCAPS9.MaxPixelShaderValue`
/// (`docs/SEMANTICS.md` 4.2).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Ps1Range {
    /// What current drivers report and do: `FLT_MAX`, arithmetic in plain float with no clamp
    /// (infinities and NaN pass through).
    #[default]
    Drivers,
    /// The fixed-point hardware of the ps_1_x era: [-1, 1] for ps_1_1-1_3, [-8, 8] for ps_1_4.
    EarlyHardware,
    /// A chosen MaxPixelShaderValue `M`: results are clamped to [-M, M] (NaN becomes 0); an
    /// infinite `M` is the same as [`Ps1Range::Drivers`].
    Limit(f32),
}

impl Ps1Range {
    /// The clamp this range gives a ps_1_x shader (`ps_1_4` selects the early hardware's 8),
    /// or `None` for no clamp.
    pub fn limit(self, ps_1_4: bool) -> Option<f32> {
        let m = match self {
            Ps1Range::Drivers => return None,
            Ps1Range::EarlyHardware if ps_1_4 => 8.0,
            Ps1Range::EarlyHardware => 1.0,
            Ps1Range::Limit(m) => m.abs(),
        };
        m.is_finite().then_some(m)
    }
}

/// What runs a plan. Every engine gives the same results, bit for bit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The batched interpreter.
    #[default]
    Interpreter,
    /// Native code compiled with Cranelift (the `jit` feature; `crate::jit`), with vectors
    /// where the machine has them. A plan the JIT cannot compile runs on the interpreter and
    /// says why.
    Jit,
    /// The JIT's scalar code (one `f32` per lane): what machines without the vector
    /// instructions it needs run; chosen explicitly mostly to test it.
    JitScalar,
}

impl Engine {
    /// The fastest engine this build has: [`Engine::Jit`] with the `jit` feature, the
    /// interpreter without it (what a renderer or a tool picks when the user did not choose).
    pub const fn best_available() -> Engine {
        if cfg!(feature = "jit") {
            Engine::Jit
        } else {
            Engine::Interpreter
        }
    }

    /// `interpreter`, `jit` or `jit-scalar`.
    pub const fn name(self) -> &'static str {
        match self {
            Engine::Interpreter => "interpreter",
            Engine::Jit => "jit",
            Engine::JitScalar => "jit-scalar",
        }
    }
}

impl Options {
    /// The default budget.
    pub const DEFAULT_BUDGET: u64 = 1 << 24;
    /// The default batch width (chosen by measurement: see `docs/ARCHITECTURE.md`).
    pub const DEFAULT_LANES: usize = 32;
    /// The largest float constant file an option may ask for.
    pub const MAX_FLOAT_CONSTANTS: u32 = 8192;
}

impl Default for Options {
    fn default() -> Self {
        Options {
            budget: Self::DEFAULT_BUDGET,
            ps1_range: Ps1Range::Drivers,
            zero_times_anything: false,
            float_constants: None,
            lanes: Self::DEFAULT_LANES,
            engine: Engine::Interpreter,
        }
    }
}
