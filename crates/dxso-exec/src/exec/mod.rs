//! Running a plan over many invocations: batches of `W` lanes, rayon across groups of batches,
//! inputs transposed in, outputs transposed out.

mod batch;

pub(crate) use batch::{Batch, Stop};

use crate::error::ExecError;
use crate::io::{Attribute, Constants, InputRegister, Outputs};
use crate::plan::{lower::apply_modifier, Plan, StageField, Uniform};
use crate::sampler::{Sampler, SamplerState, StageState};
use crate::texture::Dimension;
use rayon::prelude::*;

/// Everything a run shares between its batches.
pub(crate) struct Run<'a> {
    pub plan: &'a Plan,
    /// The float constant image (caller's values, then `def`s, ps_1_x clamped), followed by one
    /// zero register that out-of-range relative reads land on.
    pub floats: Vec<[f32; 4]>,
    /// Registers in the float constant file (`floats.len() - 1`).
    pub float_count: usize,

    pub ints: [[i32; 4]; 16],
    pub bools: [bool; 16],
    /// The value of every uniform row.
    pub uniforms: Vec<f32>,
    samplers: &'a [Sampler],
    pub default_state: SamplerState,
    default_stage: StageState,
}

/// Compiled code that runs a batch in place of the interpreter (the JIT's): the run is
/// generic over it so the executor does not depend on the compiler that made it.
pub(crate) trait BatchCode: Sync {
    /// Runs one batch whose inputs are loaded, as [`Batch::run`] would.
    fn run_batch<const W: usize, const Z: bool>(
        &self,
        batch: &mut Batch<W>,
        run: &Run<'_>,
        lanes: usize,
    ) -> Result<(), Stop>;
}

/// No compiled code: every batch runs on the interpreter (the code of a build without the
/// `jit` feature).
#[cfg(any(test, not(feature = "jit")))]
#[derive(Debug)]
pub(crate) enum NoCode {}

#[cfg(any(test, not(feature = "jit")))]
impl BatchCode for NoCode {
    fn run_batch<const W: usize, const Z: bool>(
        &self,
        _: &mut Batch<W>,
        _: &Run<'_>,
        _: usize,
    ) -> Result<(), Stop> {
        match *self {}
    }
}

/// Runs one batch (inputs loaded) on the run's engine.
fn run_batch<C: BatchCode, const W: usize, const Z: bool>(
    batch: &mut Batch<W>,
    run: &Run<'_>,
    code: Option<&C>,
    lanes: usize,
) -> Result<(), Stop> {
    match code {
        Some(code) => code.run_batch::<W, Z>(batch, run, lanes),
        None => {
            batch.reset(run);
            batch.run::<Z>(run, lanes)
        }
    }
}

impl<'a> Run<'a> {
    pub fn new(
        plan: &'a Plan,
        constants: &Constants,
        samplers: &'a [Sampler],
    ) -> Result<Self, ExecError> {
        let n = plan.float_constants as usize;
        let mut floats = vec![[0f32; 4]; n];
        for (dst, src) in floats.iter_mut().zip(&constants.float) {
            *dst = *src;
        }
        for &(reg, v) in &plan.float_defs {
            if let Some(dst) = floats.get_mut(reg as usize) {
                *dst = v.map(|x| x.0);
            }
        }
        if plan.clamp_constants {
            for v in floats.iter_mut().flatten() {
                *v = v.clamp(-1.0, 1.0);
            }
        }
        let mut ints = [[0i32; 4]; 16];
        for (dst, src) in ints.iter_mut().zip(&constants.int) {
            *dst = *src;
        }
        for &(reg, v) in &plan.int_defs {
            if let Some(dst) = ints.get_mut(reg as usize) {
                *dst = v;
            }
        }
        let mut bools = [false; 16];
        for (dst, src) in bools.iter_mut().zip(&constants.bool) {
            *dst = *src;
        }
        for &(reg, v) in &plan.bool_defs {
            if let Some(dst) = bools.get_mut(reg as usize) {
                *dst = v;
            }
        }
        for use_ in &plan.samplers {
            let Some(s) = samplers.get(use_.index as usize) else {
                continue;
            };
            let Some(tex) = &s.texture else { continue };
            let expected = use_.declared.or(s.dimension).unwrap_or(Dimension::D2);
            if tex.dimension() != expected {
                return Err(ExecError::texture_type(
                    use_.index,
                    expected,
                    tex.dimension(),
                ));
            }
        }
        let default_stage = StageState::default();
        floats.push([0.0; 4]);
        let mut run = Run {
            plan,
            float_count: n,
            floats,
            ints,
            bools,
            uniforms: Vec::new(),
            samplers,
            default_state: SamplerState::default(),
            default_stage,
        };
        run.uniforms = plan
            .uniforms
            .iter()
            .map(|u| match *u {
                Uniform::Literal(v) => v.0,
                Uniform::Float {
                    reg,
                    comp,
                    modifier,
                } => {
                    let x = run
                        .floats
                        .get(reg as usize)
                        .map_or(0.0, |v| v[comp as usize & 3]);
                    apply_modifier(modifier, x)
                }
                Uniform::Stage { stage, field } => {
                    let s = run.stage(stage);
                    match field {
                        StageField::BumpMat(i) => s.bump_env_mat[i as usize & 3],
                        StageField::LScale => s.bump_env_lscale,
                        StageField::LOffset => s.bump_env_loffset,
                    }
                }
            })
            .collect();
        Ok(run)
    }

    pub fn sampler(&self, index: u8) -> Option<&'a Sampler> {
        self.samplers.get(index as usize)
    }

    pub fn stage(&self, index: u8) -> &StageState {
        self.samplers
            .get(index as usize)
            .map_or(&self.default_stage, |s| &s.stage)
    }
}

/// The input values a plan loads, resolved against a batch's attributes.
fn resolve_inputs<'b>(
    plan: &Plan,
    inputs: &'b [Attribute],
    count: usize,
) -> Result<Vec<Option<&'b [[f32; 4]]>>, ExecError> {
    plan.inputs
        .iter()
        .map(
            |i| match inputs.iter().rev().find(|a| a.register == i.register) {
                None => Ok(None),
                Some(a) if a.values.len() == count => Ok(Some(a.values.as_slice())),
                Some(a) => Err(ExecError::InputLength {
                    register: a.register,
                    expected: count,
                    found: a.values.len(),
                }),
            },
        )
        .collect()
}

/// Invocations per rayon job: enough batches that scheduling costs nothing.
const JOB_INVOCATIONS: usize = 2048;

/// Runs `count` invocations (pixels come in quads of four consecutive invocations).
#[allow(clippy::too_many_arguments)]
pub(crate) fn run<C: BatchCode>(
    plan: &Plan,
    code: Option<&C>,
    count: usize,
    inputs: &[Attribute],
    constants: &Constants,
    samplers: &[Sampler],
    out: &mut Outputs,
    killed: Option<&mut [bool]>,
) -> Result<(), ExecError> {
    let run = Run::new(plan, constants, samplers)?;
    let resolved = resolve_inputs(plan, inputs, count)?;
    out.count = count;
    out.registers.truncate(plan.outputs.len());
    for (i, o) in plan.outputs.iter().enumerate() {
        match out.registers.get_mut(i) {
            Some(slot) => {
                slot.0 = o.register;
                slot.1.resize(count, [0.0; 4]);
            }
            None => out.registers.push((o.register, vec![[0.0; 4]; count])),
        }
    }
    let lanes = plan.lanes;
    match (lanes, plan.zero_times_anything) {
        (8, false) => drive::<C, 8, false>(&run, code, count, &resolved, out, killed),
        (8, true) => drive::<C, 8, true>(&run, code, count, &resolved, out, killed),
        (16, false) => drive::<C, 16, false>(&run, code, count, &resolved, out, killed),
        (16, true) => drive::<C, 16, true>(&run, code, count, &resolved, out, killed),
        (64, false) => drive::<C, 64, false>(&run, code, count, &resolved, out, killed),
        (64, true) => drive::<C, 64, true>(&run, code, count, &resolved, out, killed),
        (_, false) => drive::<C, 32, false>(&run, code, count, &resolved, out, killed),
        (_, true) => drive::<C, 32, true>(&run, code, count, &resolved, out, killed),
    }
}

/// One job's share: a range of invocations and the output slices it writes.
struct Job<'o> {
    start: usize,
    len: usize,
    outputs: Vec<&'o mut [[f32; 4]]>,
    killed: Option<&'o mut [bool]>,
}

fn drive<C: BatchCode, const W: usize, const Z: bool>(
    run: &Run<'_>,
    code: Option<&C>,
    count: usize,
    inputs: &[Option<&[[f32; 4]]>],
    out: &mut Outputs,
    killed: Option<&mut [bool]>,
) -> Result<(), ExecError> {
    let job_len = JOB_INVOCATIONS.div_ceil(W) * W;
    let mut jobs: Vec<Job<'_>> = (0..count.div_ceil(job_len))
        .map(|j| Job {
            start: j * job_len,
            len: job_len.min(count - j * job_len),
            outputs: Vec::new(),
            killed: None,
        })
        .collect();
    for (_, values) in out.registers.iter_mut() {
        for (job, chunk) in jobs.iter_mut().zip(values.chunks_mut(job_len)) {
            job.outputs.push(chunk);
        }
    }
    if let Some(k) = killed {
        for (job, chunk) in jobs.iter_mut().zip(k.chunks_mut(job_len)) {
            job.killed = Some(chunk);
        }
    }
    let work = |job: &mut Job<'_>| -> Result<(), ExecError> {
        let mut batch = Batch::<W>::new(run);
        let mut done = 0;
        while done < job.len {
            let n = W.min(job.len - done);
            let first = job.start + done;
            load_inputs(&mut batch, run.plan, inputs, first, n);
            match run_batch::<C, W, Z>(&mut batch, run, code, n) {
                Ok(()) => {}
                Err(Stop::Budget(l)) => {
                    return Err(ExecError::Budget {
                        invocation: first + l,
                        budget: run.plan.budget,
                    })
                }
                Err(Stop::CallDepth) => {
                    return Err(ExecError::CallDepth {
                        limit: run.plan.max_call_depth,
                    })
                }
            }
            for (o, values) in run.plan.outputs.iter().zip(job.outputs.iter_mut()) {
                let dst = &mut values[done..done + n];
                for (c, slot) in o.slots.iter().enumerate() {
                    match slot {
                        Some(s) => {
                            let row = &batch.f[*s as usize];
                            for (l, v) in dst.iter_mut().enumerate() {
                                v[c] = row[l];
                            }
                        }
                        None => dst.iter_mut().for_each(|v| v[c] = 0.0),
                    }
                }
            }
            if let Some(k) = job.killed.as_deref_mut() {
                for (l, v) in k[done..done + n].iter_mut().enumerate() {
                    *v = batch.killed >> l & 1 != 0;
                }
            }
            done += n;
        }
        Ok(())
    };
    let results: Vec<Result<(), ExecError>> = if jobs.len() > 1 {
        jobs.par_iter_mut().map(work).collect()
    } else {
        jobs.iter_mut().map(work).collect()
    };
    // The error of the lowest job: jobs cover increasing invocations.
    results.into_iter().collect()
}

fn load_inputs<const W: usize>(
    batch: &mut Batch<W>,
    plan: &Plan,
    inputs: &[Option<&[[f32; 4]]>],
    first: usize,
    n: usize,
) {
    for (i, values) in plan.inputs.iter().zip(inputs) {
        for (c, slot) in i.slots.iter().enumerate() {
            let Some(s) = slot else { continue };
            let row = &mut batch.f[*s as usize];
            match values {
                Some(v) => {
                    for (l, x) in v[first..first + n].iter().enumerate() {
                        row[l] = x[c];
                    }
                    row[n..].fill(0.0);
                }
                None => *row = [0.0; W],
            }
        }
    }
}

/// The registers a plan reads as inputs.
pub(crate) fn input_registers(plan: &Plan) -> Vec<InputRegister> {
    plan.inputs.iter().map(|i| i.register).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Options;

    fn run_with_depth(max_call_depth: u32) -> Result<Vec<[f32; 4]>, ExecError> {
        let text =
            "vs_2_0\ndef c0, 1, 2, 3, 4\ncall l0\nmov oPos, r0\nret\nlabel l0\nmov r0, c0\nret\n";
        let shader = dxso_text::parse(text).expect("assembles");
        let mut plan = Plan::lower(&shader, &Options::default()).expect("lowers");
        plan.max_call_depth = max_call_depth;
        assert_eq!(plan.check(), Ok(()));
        let mut out = Outputs::default();
        run(
            &plan,
            None::<&NoCode>,
            1,
            &[],
            &Constants::default(),
            &[],
            &mut out,
            None,
        )?;
        Ok(out.registers[0].1.clone())
    }

    #[test]
    fn the_largest_call_depth_a_plan_may_claim_still_runs_calls() {
        let lowered = run_with_depth(1).expect("runs");
        assert_eq!(lowered, [[1.0, 2.0, 3.0, 4.0]]);
        assert_eq!(run_with_depth(u32::MAX), Ok(lowered));
    }
}
