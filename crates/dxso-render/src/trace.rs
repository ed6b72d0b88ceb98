//! A record of what the executor's shaders ran on while a renderer drew: every distinct shader,
//! and per draw binding its constants and samplers and the inputs of its invocations, in the
//! executor's own types, so that the same runs can be replayed on another engine (a Vulkan
//! device, the JIT against the interpreter) and compared.
//!
//! An [`ExecEngine`](crate::ExecEngine) records into a [`Trace`] when given one
//! ([`ExecEngine::traced`](crate::ExecEngine::traced)); without one nothing is recorded and
//! nothing is paid but a branch per batch.
//!
//! Bindings of the same shader with equal resources (across draws, and across renders into the
//! same trace) are one run. Vertices are kept whole (equal ones once); pixel quads are sampled
//! by their screen position ([`TraceLimits::quad_stride`]), so the same scene keeps the same
//! quads whatever the thread count. Runs come out sorted: the first binding of each first, its
//! invocations ordered by their values, so a trace does not depend on the order in which
//! parallel batches ran either, unless a run reached its limit (then which invocations were kept
//! is the scheduler's choice).
//!
//! ```
//! use dxso_render::trace::{RunInputs, Trace};
//! use dxso_render::{ExecEngine, RenderLimits, Renderer};
//! use dxso_dp2::{command::Op, decl::*, CaptureBuilder};
//! use std::sync::Arc;
//!
//! // A triangle without shaders: the fixed-function pipeline's generated shaders draw it.
//! let mut b = CaptureBuilder::new();
//! b.float_buffer(1, &[-1.0, -1.0, 0.5, 0.0, 1.0, 0.5, 1.0, -1.0, 0.5]);
//! let position = VertexElement { stream: 0, offset: 0, ty: DeclType::Float3 as u8,
//!     method: DeclMethod::Default as u8, usage: dxso::DeclUsage::Position as u8, usage_index: 0 };
//! b.create_vertex_decl(1, &[position]).set_vertex_decl(1).set_stream_source(0, 1, 12);
//! b.draw_primitive(Op::DrawPrimitive, 4, 0, 1);
//! let trace = Arc::new(Trace::default());
//! let engine = ExecEngine::default().traced(Arc::clone(&trace));
//! let mut r = Renderer::new(16, 16, Some(&engine), RenderLimits::default())?;
//! r.render_capture(&b.finish())?;
//! let runs = trace.runs();
//! assert_eq!(trace.shaders().len(), 2);
//! assert!(matches!(&runs[0].inputs, RunInputs::Vertices(v) if v.count == 3));
//! # Ok::<(), dxso_render::RenderError>(())
//! ```

use dxso::Shader;
use dxso_exec::{Attribute, InputRegister, QuadBatch, Resources, VertexBatch};
use std::sync::{Arc, Mutex, MutexGuard};

/// How much a [`Trace`] keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceLimits {
    /// One pixel quad in this many is kept, chosen by a hash of its screen position (1 keeps
    /// every quad).
    pub quad_stride: u32,
    /// The most vertices one run keeps.
    pub max_vertices: usize,
    /// The most quads one run keeps.
    pub max_quads: usize,
}

impl Default for TraceLimits {
    /// One quad in 16, at most 4096 vertices and 4096 quads a run.
    fn default() -> Self {
        TraceLimits {
            quad_stride: 16,
            max_vertices: 4096,
            max_quads: 4096,
        }
    }
}

/// What one run's invocations read.
#[derive(Clone, Debug, PartialEq)]
pub enum RunInputs {
    /// A vertex shader's vertices.
    Vertices(VertexBatch),
    /// A pixel shader's quads, with their coverage (`vPos` and `vFace` among the inputs when the
    /// shader reads them).
    Quads(QuadBatch),
}

/// One shader with one binding's resources and the invocations recorded under it.
#[derive(Clone, Debug, PartialEq)]
pub struct ShaderRun {
    /// The shader.
    pub shader: Arc<Shader>,
    /// Its constants and samplers, as the executor received them.
    pub resources: Resources,
    /// Its invocations' inputs.
    pub inputs: RunInputs,
    /// Invocations (vertices or quads) not kept: the run had reached its limit.
    pub dropped: u64,
}

/// A recording (see the module's documentation); shared by the engines that record into it.
#[derive(Default)]
pub struct Trace {
    limits: TraceLimits,
    state: Mutex<Recorded>,
}

impl std::fmt::Debug for Trace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = self.lock();
        f.debug_struct("Trace")
            .field("limits", &self.limits)
            .field("shaders", &s.shaders.len())
            .field("runs", &s.runs.len())
            .finish()
    }
}

#[derive(Default)]
struct Recorded {
    shaders: Vec<Arc<Shader>>,
    runs: Vec<Run>,
}

/// One binding's record.
struct Run {
    shader: usize,
    resources: Resources,
    pixel: bool,
    /// The input registers, in the order of each invocation's values (set by the first batch).
    registers: Vec<InputRegister>,
    /// Per vertex (or quad): its sort key (the quad's position), its values (register-major,
    /// four lanes a register for quads) and its coverage.
    invocations: Vec<Invocation>,
    dropped: u64,
}

struct Invocation {
    position: [i64; 2],
    values: Vec<[f32; 4]>,
    covered: [bool; 4],
}

impl Invocation {
    /// The order runs list invocations in: position, then the values' bits, then coverage.
    fn key(&self) -> ([i64; 2], Vec<[u32; 4]>, [bool; 4]) {
        let bits = self.values.iter().map(|x| x.map(f32::to_bits)).collect();
        (self.position, bits, self.covered)
    }
}

impl Trace {
    /// An empty trace keeping what `limits` allow.
    pub fn with_limits(limits: TraceLimits) -> Trace {
        Trace {
            limits,
            state: Mutex::default(),
        }
    }

    /// Its limits.
    pub fn limits(&self) -> TraceLimits {
        self.limits
    }

    fn lock(&self) -> MutexGuard<'_, Recorded> {
        // A panic while recording leaves a consistent record (every update is one push).
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The distinct shaders recorded so far, in the order engines first built them.
    pub fn shaders(&self) -> Vec<Arc<Shader>> {
        self.lock().shaders.clone()
    }

    /// Every run with at least one invocation, in the order of their first bindings, the
    /// invocations of each sorted by position and values with duplicates removed.
    pub fn runs(&self) -> Vec<ShaderRun> {
        let s = self.lock();
        s.runs
            .iter()
            .filter(|r| !r.invocations.is_empty())
            .map(|r| {
                // Sorted and deduplicated by bits (NaNs and zeros of either sign kept apart).
                let mut keyed: Vec<_> = r.invocations.iter().map(|i| (i.key(), i)).collect();
                keyed.sort_by(|a, b| a.0.cmp(&b.0));
                keyed.dedup_by(|a, b| a.0 == b.0);
                let inv: Vec<&Invocation> = keyed.into_iter().map(|(_, i)| i).collect();
                let lanes = if r.pixel { 4 } else { 1 };
                let attributes = r
                    .registers
                    .iter()
                    .enumerate()
                    .map(|(k, &register)| Attribute {
                        register,
                        values: inv
                            .iter()
                            .flat_map(|i| i.values[k * lanes..(k + 1) * lanes].iter().copied())
                            .collect(),
                    })
                    .collect();
                let inputs = if r.pixel {
                    RunInputs::Quads(QuadBatch {
                        quads: inv.len(),
                        inputs: attributes,
                        coverage: inv.iter().flat_map(|i| i.covered).collect(),
                    })
                } else {
                    RunInputs::Vertices(VertexBatch {
                        count: inv.len(),
                        inputs: attributes,
                    })
                };
                ShaderRun {
                    shader: Arc::clone(&s.shaders[r.shader]),
                    resources: r.resources.clone(),
                    inputs,
                    dropped: r.dropped,
                }
            })
            .collect()
    }

    /// The shader's number in this trace (an engine calls this once per stage it builds).
    pub(crate) fn shader(&self, shader: &Shader) -> usize {
        let mut s = self.lock();
        match s.shaders.iter().position(|k| **k == *shader) {
            Some(i) => i,
            None => {
                s.shaders.push(Arc::new(shader.clone()));
                s.shaders.len() - 1
            }
        }
    }

    /// The run of `shader` (a number from [`Trace::shader`]) with `resources`: an earlier
    /// binding's when they are equal.
    pub(crate) fn bind(&self, shader: usize, resources: &Resources, pixel: bool) -> usize {
        let mut s = self.lock();
        if let Some(i) = s
            .runs
            .iter()
            .position(|r| r.shader == shader && r.pixel == pixel && r.resources == *resources)
        {
            return i;
        }
        s.runs.push(Run {
            shader,
            resources: resources.clone(),
            pixel,
            registers: Vec::new(),
            invocations: Vec::new(),
            dropped: 0,
        });
        s.runs.len() - 1
    }

    /// Records a vertex batch of run `run`.
    pub(crate) fn vertices(&self, run: usize, batch: &VertexBatch) {
        let mut s = self.lock();
        let max = self.limits.max_vertices;
        let Some(r) = s.runs.get_mut(run) else {
            return;
        };
        if !registers_match(r, &batch.inputs) {
            r.dropped += batch.count as u64;
            return;
        }
        for v in 0..batch.count {
            if r.invocations.len() >= max {
                r.dropped += (batch.count - v) as u64;
                break;
            }
            r.invocations.push(Invocation {
                position: [0, 0],
                values: batch.inputs.iter().map(|a| a.values[v]).collect(),
                covered: [true; 4],
            });
        }
    }

    /// Records the sampled quads of a pixel batch of run `run`; `positions` are the lanes'
    /// screen positions.
    pub(crate) fn quads(&self, run: usize, batch: &QuadBatch, positions: &[[f32; 2]]) {
        let stride = self.limits.quad_stride.max(1) as u64;
        let max = self.limits.max_quads;
        let mut s = self.lock();
        let Some(r) = s.runs.get_mut(run) else {
            return;
        };
        if !registers_match(r, &batch.inputs) {
            r.dropped += batch.quads as u64;
            return;
        }
        for q in 0..batch.quads {
            let Some(p) = positions.get(4 * q) else {
                break;
            };
            let position = [p[1] as i64, p[0] as i64];
            if stride > 1 && sample_hash(position) % stride != 0 {
                continue;
            }
            if r.invocations.len() >= max {
                r.dropped += 1;
                continue;
            }
            let lanes = 4 * q..4 * q + 4;
            r.invocations.push(Invocation {
                position,
                values: batch
                    .inputs
                    .iter()
                    .flat_map(|a| a.values[lanes.clone()].iter().copied())
                    .collect(),
                covered: std::array::from_fn(|l| {
                    batch.coverage.get(4 * q + l).copied().unwrap_or(true)
                }),
            });
        }
    }
}

/// Sets the run's registers from its first batch; later batches must read the same ones.
fn registers_match(r: &mut Run, inputs: &[Attribute]) -> bool {
    if r.registers.is_empty() && r.invocations.is_empty() {
        r.registers = inputs.iter().map(|a| a.register).collect();
    }
    r.registers.len() == inputs.len()
        && r.registers
            .iter()
            .zip(inputs)
            .all(|(a, b)| *a == b.register)
}

/// A hash of a quad's position that spreads the sample over the screen (a plain stride would
/// keep whole columns).
fn sample_hash([y, x]: [i64; 2]) -> u64 {
    let mut h = (x as u64 / 2).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (y as u64 / 2);
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_do_not_depend_on_batch_order() {
        let trace = Trace::with_limits(TraceLimits {
            quad_stride: 1,
            ..TraceLimits::default()
        });
        let shader = dxso::Shader::new(dxso::Version::vs(3, 0));
        let id = trace.shader(&shader);
        assert_eq!(trace.shader(&shader), id);
        let run = trace.bind(id, &Resources::default(), false);
        let batch = |values: Vec<[f32; 4]>| {
            let mut b = VertexBatch::new(values.len());
            b.set(InputRegister::V(0), values);
            b
        };
        trace.vertices(run, &batch(vec![[3.0; 4], [1.0; 4]]));
        trace.vertices(run, &batch(vec![[2.0; 4], [1.0; 4]]));
        let other = Trace::default();
        let oid = other.shader(&shader);
        let orun = other.bind(oid, &Resources::default(), false);
        other.vertices(orun, &batch(vec![[2.0; 4]]));
        other.vertices(orun, &batch(vec![[1.0; 4], [3.0; 4]]));
        assert_eq!(trace.runs(), other.runs());
        let RunInputs::Vertices(v) = &trace.runs()[0].inputs else {
            panic!("a vertex run");
        };
        assert_eq!(v.inputs[0].values, vec![[1.0; 4], [2.0; 4], [3.0; 4]]);
        // The same resources bind the same run.
        assert_eq!(trace.bind(id, &Resources::default(), false), run);
    }

    #[test]
    fn quads_are_sampled_by_position_and_bounded() {
        let limits = TraceLimits {
            quad_stride: 4,
            max_vertices: 8,
            max_quads: 3,
        };
        let trace = Trace::with_limits(limits);
        let shader = dxso::Shader::new(dxso::Version::ps(3, 0));
        let id = trace.shader(&shader);
        let run = trace.bind(id, &Resources::default(), true);
        let quads = 64;
        let mut batch = QuadBatch::new(quads);
        batch.set(InputRegister::T(0), vec![[0.5; 4]; 4 * quads]);
        let positions: Vec<[f32; 2]> = (0..4 * quads)
            .map(|l| {
                let q = l / 4;
                [
                    (2 * (q % 8) + l % 2) as f32,
                    (2 * (q / 8) + (l / 2) % 2) as f32,
                ]
            })
            .collect();
        trace.quads(run, &batch, &positions);
        let runs = trace.runs();
        let RunInputs::Quads(q) = &runs[0].inputs else {
            panic!("a pixel run");
        };
        let sampled = (0..quads)
            .filter(|&q| sample_hash([2 * (q / 8) as i64, 2 * (q % 8) as i64]) % 4 == 0)
            .count();
        assert!(sampled > 3, "the hash keeps some quads: {sampled}");
        assert_eq!(q.quads, 3);
        assert_eq!(runs[0].dropped, sampled as u64 - 3);
        assert_eq!(q.coverage.len(), 12);
    }
}
