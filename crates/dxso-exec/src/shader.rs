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

/// A shader's code under a tiered start (empty without the `jit` feature).
#[cfg(feature = "jit")]
type Tier = Option<crate::jit::Tiered>;
#[cfg(not(feature = "jit"))]
type Tier = ();

/// The tiered code `options` ask for: `None` on the interpreter.
#[cfg(feature = "jit")]
fn tier_for(plan: &Arc<Plan>, options: &Options, tiering: &Arc<crate::jit::Tiering>) -> Tier {
    let mode = match options.engine {
        Engine::Interpreter => return None,
        Engine::Jit => crate::jit::Mode::native(),
        Engine::JitScalar => crate::jit::Mode::Scalar,
    };
    Some(crate::jit::Tiered::start(plan, mode, tiering))
}

/// The code one run uses: the shader's own, or its tier's once compiled.
fn code_of<'a>(code: &'a Option<Arc<Code>>, tier: &'a Tier) -> Option<&'a Code> {
    #[cfg(feature = "jit")]
    if let Some(t) = tier {
        return t.for_run();
    }
    #[cfg(not(feature = "jit"))]
    let _ = tier;
    code.as_deref()
}

/// A vertex shader lowered to a plan, ready to run batches of vertices. `Send + Sync`.
#[derive(Clone, Debug)]
pub struct VertexShader {
    plan: Arc<Plan>,
    code: Option<Arc<Code>>,
    tier: Tier,
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
        Ok(VertexShader {
            plan: Arc::new(plan),
            code,
            tier: Tier::default(),
        })
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
        Ok(VertexShader {
            plan: Arc::new(plan),
            code,
            tier: None,
        })
    }

    /// Validates and lowers `shader` for a tiered start: with a JIT engine it runs on the
    /// interpreter at once while its plan compiles on a background thread (or comes ready from
    /// `tiering`'s cache), then on the compiled code; the results are the same bits either way.
    #[cfg(feature = "jit")]
    pub fn tiered(
        shader: &Shader,
        options: &Options,
        tiering: &Arc<crate::jit::Tiering>,
    ) -> Result<Self, PlanError> {
        let plan = Arc::new(plan_for(shader, options, true)?);
        let tier = tier_for(&plan, options, tiering);
        Ok(VertexShader {
            plan,
            code: None,
            tier,
        })
    }

    /// Whether the shader runs compiled code now: `false` on the interpreter, on a JIT
    /// fallback and while a tiered compile is pending.
    #[cfg(feature = "jit")]
    pub fn runs_compiled(&self) -> bool {
        self.compiled()
            .is_some_and(|c| c.fallback_reason().is_none())
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The compiled code (with `Engine::Jit`), which says whether it fell back to the
    /// interpreter and why; `None` while a tiered compile is pending.
    #[cfg(feature = "jit")]
    pub fn compiled(&self) -> Option<&crate::jit::Compiled> {
        match &self.tier {
            Some(t) => t.current(),
            None => self.code.as_deref(),
        }
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
            code_of(&self.code, &self.tier),
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
    plan: Arc<Plan>,
    code: Option<Arc<Code>>,
    tier: Tier,
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
        Ok(PixelShader {
            plan: Arc::new(plan),
            code,
            tier: Tier::default(),
        })
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
        Ok(PixelShader {
            plan: Arc::new(plan),
            code,
            tier: None,
        })
    }

    /// Validates and lowers `shader` for a tiered start: with a JIT engine it runs on the
    /// interpreter at once while its plan compiles on a background thread (or comes ready from
    /// `tiering`'s cache), then on the compiled code; the results are the same bits either way.
    #[cfg(feature = "jit")]
    pub fn tiered(
        shader: &Shader,
        options: &Options,
        tiering: &Arc<crate::jit::Tiering>,
    ) -> Result<Self, PlanError> {
        let plan = Arc::new(plan_for(shader, options, false)?);
        let tier = tier_for(&plan, options, tiering);
        Ok(PixelShader {
            plan,
            code: None,
            tier,
        })
    }

    /// Whether the shader runs compiled code now: `false` on the interpreter, on a JIT
    /// fallback and while a tiered compile is pending.
    #[cfg(feature = "jit")]
    pub fn runs_compiled(&self) -> bool {
        self.compiled()
            .is_some_and(|c| c.fallback_reason().is_none())
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The compiled code (with `Engine::Jit`), which says whether it fell back to the
    /// interpreter and why; `None` while a tiered compile is pending.
    #[cfg(feature = "jit")]
    pub fn compiled(&self) -> Option<&crate::jit::Compiled> {
        match &self.tier {
            Some(t) => t.current(),
            None => self.code.as_deref(),
        }
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
            code_of(&self.code, &self.tier),
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

#[cfg(all(test, feature = "jit"))]
mod tiered_tests {
    use super::*;
    use crate::jit::{Mode, Tiered, Tiering};

    /// Every output's bits.
    fn bits(out: &Outputs) -> Vec<(OutputRegister, Vec<[u32; 4]>)> {
        out.registers
            .iter()
            .map(|(r, v)| (*r, v.iter().map(|x| x.map(f32::to_bits)).collect()))
            .collect()
    }

    const SOURCE: &str = "vs_3_0\ndcl_position v0\ndcl_texcoord v1\ndcl_position o0\ndcl_texcoord o1\n\
        def c0, 0.5, -2, 0, 1\ndefi i0, 3, 0, 1, 0\nmul r0, v0, c0.x\nexp r1.x, v1.x\nlog r1.y, v1.y\n\
        rcp r1.z, v1.z\nmov r2, c0.z\nloop aL, i0\nmad r2, r0, v1, r2\nendloop\nmax r2.w, r2.w, c0.y\n\
        mov o0, r2\nmov o1, r1\n";

    fn inputs() -> VertexBatch {
        let mut batch = VertexBatch::new(37);
        let pos = (0..37)
            .map(|i| {
                let f = i as f32;
                [f - 18.0, f * 0.25, -f, 1.0 / (f - 3.0)]
            })
            .collect();
        let tex = (0..37)
            .map(|i| {
                let f = i as f32;
                [
                    f * 0.1 - 2.0,
                    f - 20.0,
                    if i % 5 == 0 { 0.0 } else { f },
                    f32::NAN,
                ]
            })
            .collect();
        batch.set(InputRegister::V(0), pos);
        batch.set(InputRegister::V(1), tex);
        batch
    }

    fn options(engine: Engine) -> Options {
        Options {
            engine,
            ..Options::default()
        }
    }

    #[test]
    fn a_pending_shader_runs_on_the_interpreter_and_then_on_the_jit_with_the_same_bits() {
        let shader = dxso_text::parse(SOURCE).expect("assembles");
        let resources = Resources::default();
        let batch = inputs();
        let interpreted = VertexShader::with_options(&shader, &options(Engine::Interpreter))
            .unwrap()
            .run(&batch, &resources)
            .unwrap();
        let jit = VertexShader::with_options(&shader, &options(Engine::Jit)).unwrap();
        assert!(jit.runs_compiled());
        let jitted = jit.run(&batch, &resources).unwrap();
        assert_eq!(bits(&interpreted), bits(&jitted));

        let tiering = Arc::new(Tiering::new(4));
        let tier = Tiered::forced_pending(&tiering);
        let tiered = VertexShader {
            plan: Arc::clone(&jit.plan),
            code: None,
            tier: Some(tier.clone()),
        };
        assert!(!tiered.runs_compiled());
        let pending = tiered.run(&batch, &resources).unwrap();
        assert_eq!(tiering.interpreted_runs(), 1);
        assert_eq!(bits(&interpreted), bits(&pending));

        tier.complete(&tiered.plan, Mode::native());
        assert!(tiered.runs_compiled());
        let compiled = tiered.run(&batch, &resources).unwrap();
        assert_eq!(
            tiering.interpreted_runs(),
            1,
            "a compiled run is not counted"
        );
        assert_eq!(bits(&interpreted), bits(&compiled));
    }

    #[test]
    fn a_tiered_shader_switches_to_compiled_code_when_its_compile_ends() {
        let shader = dxso_text::parse(SOURCE).expect("assembles");
        let resources = Resources::default();
        let batch = inputs();
        let interpreted = VertexShader::with_options(&shader, &options(Engine::Interpreter))
            .unwrap()
            .run(&batch, &resources)
            .unwrap();
        let tiering = Arc::new(Tiering::new(4));
        let tiered = VertexShader::tiered(&shader, &options(Engine::Jit), &tiering).unwrap();
        // Whichever engine this run lands on, the bits are the interpreter's.
        assert_eq!(
            bits(&interpreted),
            bits(&tiered.run(&batch, &resources).unwrap())
        );
        tiering.wait_idle();
        assert!(tiered.runs_compiled());
        assert_eq!(
            bits(&interpreted),
            bits(&tiered.run(&batch, &resources).unwrap())
        );
        // The interpreter engine has nothing to compile.
        let plain = VertexShader::tiered(&shader, &options(Engine::Interpreter), &tiering).unwrap();
        assert!(plain.compiled().is_none());
        assert_eq!(tiering.compiles_started(), 1);
    }
}
