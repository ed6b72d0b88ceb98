//! Execution options.

/// What a plan is built with. The defaults follow `docs/SEMANTICS.md`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Instructions one invocation may execute (section 11).
    pub budget: u64,
    /// ps_1_x MaxPixelShaderValue; `None`: 1 for ps_1_1-1_3, 8 for ps_1_4. Infinity disables the
    /// range clamp.
    pub max_pixel_shader_value: Option<f32>,
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
            max_pixel_shader_value: None,
            zero_times_anything: false,
            float_constants: None,
            lanes: Self::DEFAULT_LANES,
            engine: Engine::Interpreter,
        }
    }
}
