//! The public entry points: [`VertexShader`] and [`PixelShader`].

use crate::error::{ExecError, PlanError};
use crate::exec;
use crate::io::{Constants, InputRegister, OutputRegister, Outputs, QuadBatch, VertexBatch};
use crate::options::{Engine, Options};
use crate::plan::{lower::lower, Plan};
use crate::sampler::Sampler;
use dxso::Shader;
use std::sync::Arc;

/// What a run reads besides its inputs: constants and sampler bindings (`samplers[i]` is `s#i`,
/// or texture stage `i` in ps_1_x; missing entries are unbound).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Resources {
    /// Float, integer and boolean constants.
    pub constants: Constants,
    /// Sampler bindings by sampler number.
    pub samplers: Vec<Sampler>,
}

fn plan_for(shader: &Shader, options: &Options, vertex: bool) -> Result<Plan, PlanError> {
    if shader.version.is_vertex() != vertex {
        return Err(PlanError::WrongKind {
            expected: if vertex { "vertex" } else { "pixel" },
            found: shader.version.to_string(),
        });
    }
    lower(shader, options)
}

/// A shader's compiled code: the JIT's, or none without the `jit` feature.
#[cfg(feature = "jit")]
type Code = crate::jit::Compiled;
#[cfg(not(feature = "jit"))]
type Code = exec::NoCode;

/// Where JIT-compiled code comes from: compiled for this shader alone, or shared through the
/// caller's cache. Without the `jit` feature there is no cache to name.
#[cfg(feature = "jit")]
type Cache<'a> = Option<&'a crate::jit::JitCache>;
#[cfg(not(feature = "jit"))]
type Cache<'a> = Option<std::convert::Infallible>;

/// The compiled code `options` ask for.
fn code_for(plan: &Plan, options: &Options, cache: Cache) -> Result<Option<Arc<Code>>, PlanError> {
    #[cfg(feature = "jit")]
    let compile = |mode| match cache {
        Some(cache) => cache.get_or_compile(plan, mode),
        None => Arc::new(crate::jit::compile(plan, mode)),
    };
    match options.engine {
        Engine::Interpreter => Ok(None),
        #[cfg(feature = "jit")]
        Engine::Jit => Ok(Some(compile(crate::jit::Mode::native()))),
        #[cfg(feature = "jit")]
        Engine::JitScalar => Ok(Some(compile(crate::jit::Mode::Scalar))),
        #[cfg(not(feature = "jit"))]
        Engine::Jit | Engine::JitScalar => {
            let _ = (plan, cache);
            Err(PlanError::BadOption {
                name: "engine",
                reason: "dxso-exec was built without the `jit` feature",
            })
        }
    }
}

/// A vertex shader lowered to a plan, ready to run batches of vertices. `Send + Sync`.
#[derive(Clone, Debug)]
pub struct VertexShader {
    plan: Plan,
    code: Option<Arc<Code>>,
}

impl VertexShader {
    /// Validates and lowers `shader` with the default [`Options`].
    pub fn new(shader: &Shader) -> Result<Self, PlanError> {
        Self::with_options(shader, &Options::default())
    }

    /// Validates and lowers `shader`.
    pub fn with_options(shader: &Shader, options: &Options) -> Result<Self, PlanError> {
        let plan = plan_for(shader, options, true)?;
        let code = code_for(&plan, options, None)?;
        Ok(VertexShader { plan, code })
    }

    /// Validates and lowers `shader`; with a JIT engine, the code comes from `cache` (compiled
    /// and stored there on a miss), so equal shaders compile once.
    #[cfg(feature = "jit")]
    pub fn with_cache(
        shader: &Shader,
        options: &Options,
        cache: &crate::jit::JitCache,
    ) -> Result<Self, PlanError> {
        let plan = plan_for(shader, options, true)?;
        let code = code_for(&plan, options, Some(cache))?;
        Ok(VertexShader { plan, code })
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The compiled code (with `Engine::Jit`), which says whether it fell back to the
    /// interpreter and why.
    #[cfg(feature = "jit")]
    pub fn compiled(&self) -> Option<&crate::jit::Compiled> {
        self.code.as_deref()
    }

    /// The input registers the shader reads.
    pub fn inputs(&self) -> Vec<InputRegister> {
        exec::input_registers(&self.plan)
    }

    /// The output registers the shader writes, in register order.
    pub fn outputs(&self) -> Vec<OutputRegister> {
        self.plan.outputs.iter().map(|o| o.register).collect()
    }

    /// Runs every vertex of `batch`.
    pub fn run(&self, batch: &VertexBatch, resources: &Resources) -> Result<Outputs, ExecError> {
        let mut out = Outputs::default();
        self.run_into(batch, resources, &mut out)?;
        Ok(out)
    }

    /// Runs every vertex of `batch` into `out`, reusing its memory.
    pub fn run_into(
        &self,
        batch: &VertexBatch,
        resources: &Resources,
        out: &mut Outputs,
    ) -> Result<(), ExecError> {
        out.discarded.clear();
        exec::run(
            &self.plan,
            self.code.as_deref(),
            batch.count,
            &batch.inputs,
            &resources.constants,
            &resources.samplers,
            out,
            None,
        )
    }
}

/// A pixel shader lowered to a plan, ready to run batches of 2x2 quads. `Send + Sync`.
#[derive(Clone, Debug)]
pub struct PixelShader {
    plan: Plan,
    code: Option<Arc<Code>>,
}

impl PixelShader {
    /// Validates and lowers `shader` with the default [`Options`].
    pub fn new(shader: &Shader) -> Result<Self, PlanError> {
        Self::with_options(shader, &Options::default())
    }

    /// Validates and lowers `shader`.
    pub fn with_options(shader: &Shader, options: &Options) -> Result<Self, PlanError> {
        let plan = plan_for(shader, options, false)?;
        let code = code_for(&plan, options, None)?;
        Ok(PixelShader { plan, code })
    }

    /// Validates and lowers `shader`; with a JIT engine, the code comes from `cache` (compiled
    /// and stored there on a miss), so equal shaders compile once.
    #[cfg(feature = "jit")]
    pub fn with_cache(
        shader: &Shader,
        options: &Options,
        cache: &crate::jit::JitCache,
    ) -> Result<Self, PlanError> {
        let plan = plan_for(shader, options, false)?;
        let code = code_for(&plan, options, Some(cache))?;
        Ok(PixelShader { plan, code })
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The compiled code (with `Engine::Jit`), which says whether it fell back to the
    /// interpreter and why.
    #[cfg(feature = "jit")]
    pub fn compiled(&self) -> Option<&crate::jit::Compiled> {
        self.code.as_deref()
    }

    /// The input registers the shader reads.
    pub fn inputs(&self) -> Vec<InputRegister> {
        exec::input_registers(&self.plan)
    }

    /// The output registers the shader writes (ps_1_x: `oC0`), in register order.
    pub fn outputs(&self) -> Vec<OutputRegister> {
        self.plan.outputs.iter().map(|o| o.register).collect()
    }

    /// Runs every quad of `batch`.
    pub fn run(&self, batch: &QuadBatch, resources: &Resources) -> Result<Outputs, ExecError> {
        let mut out = Outputs::default();
        self.run_into(batch, resources, &mut out)?;
        Ok(out)
    }

    /// Runs every quad of `batch` into `out`, reusing its memory.
    pub fn run_into(
        &self,
        batch: &QuadBatch,
        resources: &Resources,
        out: &mut Outputs,
    ) -> Result<(), ExecError> {
        let pixels = batch.pixels();
        if !batch.coverage.is_empty() && batch.coverage.len() != pixels {
            return Err(ExecError::CoverageLength {
                expected: pixels,
                found: batch.coverage.len(),
            });
        }
        let mut discarded = std::mem::take(&mut out.discarded);
        discarded.clear();
        discarded.resize(pixels, false);
        exec::run(
            &self.plan,
            self.code.as_deref(),
            pixels,
            &batch.inputs,
            &resources.constants,
            &resources.samplers,
            out,
            Some(&mut discarded),
        )?;
        for (d, covered) in discarded.iter_mut().zip(&batch.coverage) {
            *d |= !covered;
        }
        out.discarded = discarded;
        Ok(())
    }
}
