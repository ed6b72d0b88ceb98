//! A tiered start: a shader runs on the interpreter at once while its plan compiles on a
//! background thread, and switches to the compiled code when it is ready, so no run waits for
//! Cranelift. Both engines give the same bits, so the switch changes no result.
//!
//! One process-wide thread compiles, in the order shaders asked; a job holds only a weak
//! reference to its shader's slot, so a shader dropped before its compile starts costs nothing,
//! and one dropped while compiling is freed when the compile ends.

use super::{Compiled, JitCache, Mode};
use crate::plan::Plan;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Condvar, Mutex, OnceLock, Weak};

/// What a caller keeps for tiered shaders (one per device, say): the cache their code is shared
/// through and counters of the compiles in flight.
#[derive(Debug, Default)]
pub struct Tiering {
    cache: JitCache,
    /// Runs made on the interpreter because the shader's code was not ready yet.
    interpreted: AtomicU64,
    /// Compiles asked for and finished (or skipped because their shader was dropped).
    progress: Mutex<Progress>,
    idle: Condvar,
}

#[derive(Debug, Default)]
struct Progress {
    started: u64,
    finished: u64,
}

impl Tiering {
    /// Tiering whose cache keeps at most `capacity` plans.
    pub fn new(capacity: usize) -> Self {
        Tiering {
            cache: JitCache::new(capacity),
            ..Tiering::default()
        }
    }

    /// The cache compiled code is shared through.
    pub fn cache(&self) -> &JitCache {
        &self.cache
    }

    /// Runs (batches of a `run` call) that went to the interpreter because their shader's code
    /// was still compiling.
    pub fn interpreted_runs(&self) -> u64 {
        self.interpreted.load(Ordering::Relaxed)
    }

    /// Compiles asked for that have not finished.
    pub fn pending(&self) -> u64 {
        let p = self.progress();
        p.started - p.finished
    }

    /// Compiles asked for so far (cache hits at creation ask for none).
    pub fn compiles_started(&self) -> u64 {
        self.progress().started
    }

    /// Blocks until every compile asked for so far has finished (benchmarks, tests).
    pub fn wait_idle(&self) {
        let mut p = self.progress();
        while p.started != p.finished {
            p = self.idle.wait(p).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn progress(&self) -> std::sync::MutexGuard<'_, Progress> {
        // The counters stay consistent whatever panicked while holding them.
        self.progress.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn finished(&self) {
        self.progress().finished += 1;
        self.idle.notify_all();
    }
}

/// One shader's code: empty until its compile ends.
#[derive(Debug)]
struct Slot {
    code: OnceLock<Arc<Compiled>>,
    tiering: Arc<Tiering>,
}

/// A shader's code under a tiered start: [`Tiered::current`] is `None` (run on the interpreter)
/// until the background compile ends.
#[derive(Clone, Debug)]
pub struct Tiered {
    slot: Arc<Slot>,
}

/// A compile for the background thread.
struct Job {
    slot: Weak<Slot>,
    tiering: Arc<Tiering>,
    plan: Arc<Plan>,
    mode: Mode,
}

impl Job {
    fn run(self) {
        let Job {
            slot,
            tiering,
            plan,
            mode,
        } = self;
        // A shader dropped before its turn is not compiled.
        if let Some(slot) = slot.upgrade() {
            let compiled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                tiering.cache.get_or_compile(&plan, mode)
            }));
            // A compile that panicked leaves the shader on the interpreter, which gives the
            // same results.
            if let Ok(compiled) = compiled {
                let _ = slot.code.set(compiled);
            }
        }
        // Whatever this job held is released before it counts as finished (a shader dropped
        // meanwhile is freed here, not after a caller's `wait_idle`).
        drop(plan);
        tiering.finished();
    }
}

/// The compile thread's queue, started on first use; `None` if no thread could be started.
fn queue() -> Option<&'static Mutex<Sender<Job>>> {
    static QUEUE: OnceLock<Option<Mutex<Sender<Job>>>> = OnceLock::new();
    QUEUE
        .get_or_init(|| {
            let (send, receive) = channel::<Job>();
            std::thread::Builder::new()
                .name("dxso-jit".into())
                .spawn(move || {
                    batch_scheduling();
                    while let Ok(job) = receive.recv() {
                        job.run();
                    }
                })
                .ok()
                .map(|_| Mutex::new(send))
        })
        .as_ref()
}

/// Makes the calling thread (the compile thread) a batch thread on Linux: waking it for a job
/// then does not preempt the thread that queued the job, which would otherwise wait up to a
/// time slice for a compile it does not need (measured: the median tiered start went from
/// 24 us to 140-400 us once the thread slept between jobs).
fn batch_scheduling() {
    #[cfg(target_os = "linux")]
    {
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: `param` is a valid `sched_param` that outlives the call, and pid 0 names the
        // calling thread; a refusal leaves the policy as it was, which is only slower.
        let _ = unsafe { libc::sched_setscheduler(0, libc::SCHED_BATCH, &param) };
    }
}

impl Tiered {
    /// The code of `plan` in `mode`: ready at once on a cache hit, otherwise compiled on the
    /// background thread (or here, if no thread can be started).
    pub(crate) fn start(plan: &Arc<Plan>, mode: Mode, tiering: &Arc<Tiering>) -> Tiered {
        let tiered = Tiered::pending(tiering);
        if let Some(hit) = tiering.cache.get(plan, mode) {
            let _ = tiered.slot.code.set(hit);
            return tiered;
        }
        tiering.progress().started += 1;
        let job = Job {
            slot: Arc::downgrade(&tiered.slot),
            tiering: Arc::clone(tiering),
            plan: Arc::clone(plan),
            mode,
        };
        let refused = match queue() {
            Some(q) => q
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .send(job)
                .err()
                .map(|e| e.0),
            None => Some(job),
        };
        if let Some(job) = refused {
            job.run();
        }
        tiered
    }

    /// A slot no compile fills (tests complete it by hand).
    fn pending(tiering: &Arc<Tiering>) -> Tiered {
        Tiered {
            slot: Arc::new(Slot {
                code: OnceLock::new(),
                tiering: Arc::clone(tiering),
            }),
        }
    }

    /// The compiled code, or `None` while it compiles.
    pub fn current(&self) -> Option<&Compiled> {
        self.slot.code.get().map(|c| &**c)
    }

    /// Whether the compile has ended.
    pub fn is_ready(&self) -> bool {
        self.slot.code.get().is_some()
    }

    /// The code for one run, counting a run that has to go to the interpreter.
    pub(crate) fn for_run(&self) -> Option<&Compiled> {
        let code = self.current();
        if code.is_none() {
            self.slot
                .tiering
                .interpreted
                .fetch_add(1, Ordering::Relaxed);
        }
        code
    }

    /// A slot that stays pending until [`Tiered::complete`] (for tests of the pending state).
    #[cfg(test)]
    pub(crate) fn forced_pending(tiering: &Arc<Tiering>) -> Tiered {
        Tiered::pending(tiering)
    }

    /// Compiles `plan` here and fills the slot (for tests).
    #[cfg(test)]
    pub(crate) fn complete(&self, plan: &Plan, mode: Mode) {
        let _ = self
            .slot
            .code
            .set(self.slot.tiering.cache.get_or_compile(plan, mode));
    }

    /// A weak handle on the slot (tests check it is freed).
    #[cfg(test)]
    fn weak(&self) -> Weak<Slot> {
        Arc::downgrade(&self.slot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn plan(source: &str) -> Arc<Plan> {
        let shader = dxso_text::parse(source).expect("assembles");
        Arc::new(crate::plan::lower::lower(&shader, &crate::Options::default()).expect("lowers"))
    }

    #[test]
    fn a_background_compile_ends_and_fills_the_cache() {
        let tiering = Arc::new(Tiering::new(8));
        let p = plan("vs_2_0\ndcl_position v0\nmul oPos, v0, c0\n");
        let t = Tiered::start(&p, Mode::Scalar, &tiering);
        tiering.wait_idle();
        assert!(t.is_ready());
        assert_eq!(tiering.pending(), 0);
        assert_eq!(tiering.cache().len(), 1);
        // An equal plan is ready at once and asks for no compile.
        let again = Tiered::start(
            &plan("vs_2_0\ndcl_position v0\nmul oPos, v0, c0\n"),
            Mode::Scalar,
            &tiering,
        );
        assert!(again.is_ready());
        assert_eq!(tiering.compiles_started(), 1);
    }

    #[test]
    fn a_shader_dropped_while_compiling_is_freed_without_a_deadlock() {
        let tiering = Arc::new(Tiering::new(64));
        let mut weaks = Vec::new();
        for i in 0..16 {
            let p = plan(&format!(
                "vs_2_0\ndef c1, {i}, 1, 2, 3\ndcl_position v0\nmul r0, v0, c1\nexp r1, r0.x\nadd oPos, r0, r1\n"
            ));
            let t = Tiered::start(&p, Mode::native(), &tiering);
            weaks.push(t.weak());
            drop(t);
        }
        tiering.wait_idle();
        let deadline = Instant::now() + Duration::from_secs(30);
        while weaks.iter().any(|w| w.strong_count() > 0) {
            assert!(
                Instant::now() < deadline,
                "a dropped shader's slot is still held"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(tiering.pending(), 0);
    }
}
