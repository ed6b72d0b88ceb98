//! The JIT: an execution [`Plan`] compiled with Cranelift to one native function over a batch
//! of lanes in structure-of-arrays form (the `jit` feature).
//!
//! The function computes what the interpreter computes, bit for bit: the same IEEE operations
//! in the same order (`docs/SEMANTICS.md`, no fused multiply-add, the same compare-and-select
//! `min`/`max`, saturating conversions), transcendental functions and texture sampling through
//! `extern "C"` trampolines that call the interpreter's own Rust functions, and the same
//! per-lane masks for predication, divergent flow control, loops and discards. On x86-64 with
//! SSE4.1 and on aarch64 it uses `f32x4` vectors (two per chunk of eight lanes; Cranelift has
//! no wider vectors on x86-64), elsewhere scalar code ([`Mode`]).
//!
//! Choose it with [`crate::Engine::Jit`] in [`crate::Options`]; a shader built that way holds a
//! [`Compiled`], shared through a cache by every equal plan. A plan the JIT does not compile
//! runs on the interpreter, and [`Compiled::fallback_reason`] says why.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use dxso_exec::{Engine, InputRegister, Options, OutputRegister, Resources, VertexBatch, VertexShader};
//! let shader = dxso_text::parse::parse("vs_2_0\ndcl_position v0\nmul oPos, v0, c0\n")?;
//! let options = Options { engine: Engine::Jit, ..Options::default() };
//! let vs = VertexShader::with_options(&shader, &options)?;
//! let compiled = vs.compiled().expect("asked for the JIT");
//! assert!(compiled.fallback_reason().is_none());
//! let mut batch = VertexBatch::new(2);
//! batch.set(InputRegister::V(0), vec![[1.0, 2.0, 3.0, 1.0], [4.0, 5.0, 6.0, 1.0]]);
//! let mut resources = Resources::default();
//! resources.constants.float = vec![[2.0, 2.0, 2.0, 1.0]];
//! let out = vs.run(&batch, &resources)?;
//! assert_eq!(out.get(OutputRegister::Pos).unwrap()[1], [8.0, 10.0, 12.0, 1.0]);
//! # Ok(()) }
//! ```

mod analysis;
mod cache;
mod codegen;
mod runtime;
mod tier;

pub use cache::{JitCache, DEFAULT_CAPACITY};
pub use tier::{Tiered, Tiering};

use crate::exec::{Batch, BatchCode, Run, Stop};
use crate::plan::{Pc, Plan};
use codegen::Shape;
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Linkage, Module};
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use thiserror::Error;

/// Why a plan runs on the interpreter instead of compiled code.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum Fallback {
    /// The plan breaks a rule of [`Plan::check`] (a plan built by hand): it runs nowhere, and
    /// [`Compiled::run_plan`] returns the error.
    #[error("{0}")]
    Malformed(crate::PlanError),
    /// Control flow the code generator cannot map (cannot happen for lowered shaders).
    #[error("operation {pc}: {reason}")]
    Unstructured {
        /// The operation.
        pc: Pc,
        /// What is wrong.
        reason: &'static str,
    },
    /// The register file's layout breaks an assumption of the code generator.
    #[error("register layout: {0}")]
    Layout(&'static str),
    /// Subroutines call each other recursively.
    #[error("the subroutines call each other recursively")]
    Recursion,
    /// Calls nest deeper than the interpreter allows.
    #[error("calls nest {0} deep (the limit is 63)")]
    CallDepth(u32),
    /// The batch width is not one the JIT compiles.
    #[error("{0} lanes per batch (the JIT compiles 8, 16, 32 or 64)")]
    Lanes(usize),
    /// Cranelift does not support this machine.
    #[error("the host is not supported: {0}")]
    Host(String),
    /// Cranelift rejected the generated function.
    #[error("Cranelift: {0}")]
    Codegen(String),
}

/// How compiled code holds lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// `f32x4` vectors.
    Simd,
    /// One `f32` per lane.
    Scalar,
}

impl Mode {
    /// The best mode of this machine: vectors where Cranelift has every vector operation the
    /// code needs (x86-64 with SSE4.1, aarch64), scalar elsewhere.
    pub fn native() -> Mode {
        match isa() {
            // The code runs on the host: its architecture is the one this crate targets.
            Ok(isa) => {
                let sse41 = isa
                    .isa_flags()
                    .iter()
                    .any(|f| f.name == "has_sse41" && f.as_bool() == Some(true));
                if (cfg!(target_arch = "x86_64") && sse41) || cfg!(target_arch = "aarch64") {
                    Mode::Simd
                } else {
                    Mode::Scalar
                }
            }
            Err(_) => Mode::Scalar,
        }
    }

    fn shape(self, width: usize) -> Shape {
        match self {
            Mode::Simd => Shape {
                simd: true,
                pieces: 2,
                per_piece: 4,
                width,
            },
            Mode::Scalar => Shape {
                simd: false,
                pieces: 4,
                per_piece: 1,
                width,
            },
        }
    }
}

/// The native code of one plan.
struct Code {
    /// Keeps the code mapped; freed on drop.
    module: Option<JITModule>,
    entry: runtime::Entry,
    width: usize,
    slots: usize,
    float_constants: usize,
    uniforms: usize,
    stages: Vec<u8>,
}

// SAFETY: after `finalize_definitions` the module's memory is read-only executable code that
// no method of `Code` changes; it is only freed on drop, when no call can be running.
unsafe impl Send for Code {}
// SAFETY: as above; calls share nothing but the immutable code.
unsafe impl Sync for Code {}

impl Drop for Code {
    fn drop(&mut self) {
        if let Some(module) = self.module.take() {
            // SAFETY: `entry` is the only pointer into the module's memory and dies with
            // `self`; nothing else was handed out.
            unsafe { module.free_memory() };
        }
    }
}

/// A plan compiled by the JIT, or the reason it runs on the interpreter.
pub struct Compiled {
    code: Option<Code>,
    fallback: Option<Fallback>,
    mode: Mode,
    compile_time: Duration,
    code_size: usize,
    counting: bool,
    max_instructions: u64,
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("fallback", &self.fallback)
            .field("mode", &self.mode)
            .field("compile_time", &self.compile_time)
            .field("code_size", &self.code_size)
            .field("counting", &self.counting)
            .finish()
    }
}

impl Compiled {
    /// Why the plan runs on the interpreter, or `None` when it runs compiled.
    pub fn fallback_reason(&self) -> Option<&Fallback> {
        self.fallback.as_ref()
    }

    /// How long analysing, generating and compiling took.
    pub fn compile_time(&self) -> Duration {
        self.compile_time
    }

    /// Bytes of machine code (0 on fallback).
    pub fn code_size(&self) -> usize {
        self.code_size
    }

    /// The mode the code was compiled for.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Whether the code counts instructions against the budget (only when some invocation
    /// could exceed it: a bound of the plan's loops and calls decides).
    pub fn counts_instructions(&self) -> bool {
        self.counting
    }

    /// An upper bound of the instructions one invocation executes (saturating; 0 on
    /// fallback).
    pub fn max_instructions(&self) -> u64 {
        self.max_instructions
    }

    /// Runs `count` invocations of `plan` on this code (pixel plans: `count` pixels in quads of
    /// four), as [`crate::VertexShader::run`] and [`crate::PixelShader::run`] do. `plan` should be
    /// the plan the code was compiled from; given another, the results are unspecified but
    /// nothing outside the run's buffers is touched (every size the code relies on is checked
    /// before it runs). A plan that fails [`Plan::check`] is not run:
    /// [`crate::ExecError::Plan`] names the place and the rule.
    pub fn run_plan(
        &self,
        plan: &Plan,
        count: usize,
        inputs: &[crate::io::Attribute],
        resources: &crate::Resources,
    ) -> Result<crate::Outputs, crate::ExecError> {
        // The plan comes from the caller: nothing runs it before it passes.
        plan.check()?;
        let mut out = crate::Outputs::default();
        let mut killed = vec![false; if plan.version.is_pixel() { count } else { 0 }];
        crate::exec::run(
            plan,
            Some(self),
            count,
            inputs,
            &resources.constants,
            &resources.samplers,
            &mut out,
            plan.version.is_pixel().then_some(&mut killed[..]),
        )?;
        out.discarded = killed;
        Ok(out)
    }
}

impl BatchCode for Compiled {
    /// Runs one batch whose inputs are loaded. A batch that goes over the budget is run again
    /// on the interpreter from the same inputs, so the error names the invocation the
    /// interpreter names (which lane is found first depends on how lanes are grouped).
    fn run_batch<const W: usize, const Z: bool>(
        &self,
        batch: &mut Batch<W>,
        run: &Run<'_>,
        lanes: usize,
    ) -> Result<(), Stop> {
        let code = match &self.code {
            Some(c) if c.width == W && lanes <= W => c,
            _ => {
                batch.reset(run);
                return batch.run::<Z>(run, lanes);
            }
        };
        let mut divisors = [-1i32; MAX_STAGES];
        for (d, &s) in divisors.iter_mut().zip(&code.stages) {
            *d = run.stage(s).projection_divisor().map_or(-1, |x| x as i32);
        }
        let call = runtime::Call {
            rows: batch.f.as_flattened_mut(),
            run,
            divisors: &divisors,
            lanes,
        };
        let bounds = runtime::Bounds {
            slots: code.slots,
            width: code.width,
            float_constants: code.float_constants,
            uniforms: code.uniforms,
            stages: code.stages.len(),
        };
        // SAFETY: `code` was compiled for exactly these bounds and its module is alive.
        let (status, killed) = unsafe { runtime::call(code.entry, call, &bounds) };
        if status == runtime::status::DONE {
            batch.killed = killed;
            Ok(())
        } else {
            batch.reset(run);
            batch.run::<Z>(run, lanes)
        }
    }
}

/// Projected texture stages a plan may read (ps_1_x has 8).
const MAX_STAGES: usize = 16;

/// Compiles `plan` in `mode` (a [`JitCache`] shares the result between equal plans).
pub fn compile(plan: &Plan, mode: Mode) -> Compiled {
    let start = Instant::now();
    let result = build(plan, mode);
    let compile_time = start.elapsed();
    match result {
        Ok((code, code_size, an)) => Compiled {
            code: Some(code),
            fallback: None,
            mode,
            compile_time,
            code_size,
            counting: an.counting,
            max_instructions: an.max_count,
        },
        Err(reason) => Compiled {
            code: None,
            fallback: Some(reason),
            mode,
            compile_time,
            code_size: 0,
            counting: false,
            max_instructions: 0,
        },
    }
}

/// The host's target, configured once.
fn isa() -> Result<&'static OwnedTargetIsa, Fallback> {
    static ISA: OnceLock<Result<OwnedTargetIsa, String>> = OnceLock::new();
    ISA.get_or_init(|| {
        let mut flags = settings::builder();
        let set = |f: &mut settings::Builder, k: &str, v: &str| {
            f.set(k, v).map_err(|e| format!("{k}={v}: {e}"))
        };
        set(&mut flags, "opt_level", "speed")?;
        set(&mut flags, "is_pic", "false")?;
        // The verifier checks every generated function in debug builds (tests, fuzzing).
        let verify = if cfg!(debug_assertions) {
            "true"
        } else {
            "false"
        };
        set(&mut flags, "enable_verifier", verify)?;
        let builder = cranelift_native::builder().map_err(|e| e.to_string())?;
        builder
            .finish(settings::Flags::new(flags))
            .map_err(|e| e.to_string())
    })
    .as_ref()
    .map_err(|e| Fallback::Host(e.clone()))
}

/// The generated code of `plan` as text: Cranelift's IR, then the machine code Cranelift
/// emitted for it (for inspecting what the JIT does with a shader).
pub fn listing(plan: &Plan, mode: Mode) -> Result<String, Fallback> {
    let mut text = String::new();
    build_with(plan, mode, Some(&mut text))?;
    Ok(text)
}

fn build(plan: &Plan, mode: Mode) -> Result<(Code, usize, analysis::Analysis), Fallback> {
    build_with(plan, mode, None)
}

fn build_with(
    plan: &Plan,
    mode: Mode,
    listing: Option<&mut String>,
) -> Result<(Code, usize, analysis::Analysis), Fallback> {
    let width = match plan.lanes {
        8 | 16 | 32 | 64 => plan.lanes,
        // The interpreter runs other widths as 32.
        _ => 32,
    };
    let shape = mode.shape(width);
    if width % shape.chunk() != 0 {
        return Err(Fallback::Lanes(plan.lanes));
    }
    let an = analysis::analyse(plan)?;
    if an.stages.len() > MAX_STAGES {
        return Err(Fallback::Layout("more projected texture stages than 16"));
    }
    let isa = isa()?.clone();
    let call_conv = isa.default_call_conv();
    let mut module = JITModule::new(JITBuilder::with_isa(isa.clone(), default_libcall_names()));
    let mut ctx = module.make_context();
    ctx.func.signature = codegen::entry_signature(call_conv);
    let mut fctx = FunctionBuilderContext::new();
    codegen::generate(
        FunctionBuilder::new(&mut ctx.func, &mut fctx),
        plan,
        &an,
        shape,
        &*isa,
    );
    let codegen_error = |e: cranelift_module::ModuleError| Fallback::Codegen(format!("{e:?}"));
    let want_listing = listing.is_some();
    let clif = if want_listing {
        ctx.set_disasm(true);
        ctx.func.display().to_string()
    } else {
        String::new()
    };
    let id = module
        .declare_function("plan", Linkage::Local, &ctx.func.signature)
        .map_err(codegen_error)?;
    module
        .define_function(id, &mut ctx)
        .map_err(codegen_error)?;
    let code_size = ctx.compiled_code().map_or(0, |c| c.code_buffer().len());
    if let Some(out) = listing {
        out.push_str(&clif);
        out.push_str("\n; machine code\n");
        if let Some(v) = ctx.compiled_code().and_then(|c| c.vcode.as_ref()) {
            out.push_str(v);
        }
    }
    module.clear_context(&mut ctx);
    module.finalize_definitions().map_err(codegen_error)?;
    let ptr = module.get_finalized_function(id);
    // SAFETY: `ptr` is the finalized code of a function with `entry_signature`, which is
    // `extern "C" fn(*mut Context) -> u32` in the ISA's default calling convention.
    let entry: runtime::Entry = unsafe { std::mem::transmute::<*const u8, runtime::Entry>(ptr) };
    let code = Code {
        module: Some(module),
        entry,
        width,
        slots: plan.slots as usize,
        float_constants: plan.float_constants as usize,
        uniforms: plan.uniforms.len(),
        stages: an.stages.clone(),
    };
    Ok((code, code_size, an))
}
