//! Compiled code shared between equal plans: a renderer that lowers the same shader again (or
//! many shaders that lower to the same plan) compiles it once. The caller owns the cache (one per
//! device, say) and decides its size; nothing is kept behind the caller's back.

use super::{Compiled, Mode};
use crate::plan::Plan;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, MutexGuard};

/// Plans a [`JitCache::default`] keeps.
pub const DEFAULT_CAPACITY: usize = 1024;

/// Compiled code by plan, shared between threads, least recently used dropped first.
///
/// The key is the plan itself and the [`Mode`]: plans are hashed and compared structurally
/// (floats by their bits, see [`crate::plan::ExactF32`]), so a hit costs one hash of the plan's
/// data and one comparison, and two plans share code exactly when they are equal.
#[derive(Debug)]
pub struct JitCache {
    capacity: usize,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// Entries by the hash of their mode and plan; equal hashes are told apart by comparing.
    buckets: HashMap<u64, Vec<Entry>>,
    len: usize,
    /// Uses so far: an entry's `used` is the value at its last use.
    clock: u64,
}

#[derive(Debug)]
struct Entry {
    mode: Mode,
    plan: Plan,
    compiled: Arc<Compiled>,
    used: u64,
}

impl State {
    /// The entry for `plan` in `mode`, marked as used now. A hit hashes and compares the plan
    /// in place: nothing is cloned or allocated.
    fn touch(&mut self, hash: u64, plan: &Plan, mode: Mode) -> Option<Arc<Compiled>> {
        self.clock += 1;
        let used = self.clock;
        let entry = self
            .buckets
            .get_mut(&hash)?
            .iter_mut()
            .find(|e| e.mode == mode && e.plan == *plan)?;
        entry.used = used;
        Some(entry.compiled.clone())
    }

    /// Drops the least recently used entry (uses are numbered uniquely).
    fn evict_oldest(&mut self) {
        let oldest = self.buckets.values().flatten().map(|e| e.used).min();
        let Some(oldest) = oldest else { return };
        self.buckets.retain(|_, bucket| {
            bucket.retain(|e| e.used != oldest);
            !bucket.is_empty()
        });
        self.len -= 1;
    }
}

fn hash_of(plan: &Plan, mode: Mode) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    mode.hash(&mut hasher);
    plan.hash(&mut hasher);
    hasher.finish()
}

impl Default for JitCache {
    fn default() -> Self {
        JitCache::new(DEFAULT_CAPACITY)
    }
}

impl JitCache {
    /// An empty cache holding at most `capacity` plans (at least one).
    pub fn new(capacity: usize) -> Self {
        JitCache {
            capacity: capacity.max(1),
            state: Mutex::new(State::default()),
        }
    }

    /// The cached code for `plan` in `mode`, if it is there (marked as used).
    pub fn get(&self, plan: &Plan, mode: Mode) -> Option<Arc<Compiled>> {
        self.lock().touch(hash_of(plan, mode), plan, mode)
    }

    /// The cached code for `plan` in `mode`, compiling it on first use.
    pub fn get_or_compile(&self, plan: &Plan, mode: Mode) -> Arc<Compiled> {
        let hash = hash_of(plan, mode);
        if let Some(hit) = self.lock().touch(hash, plan, mode) {
            return hit;
        }
        // Compile outside the lock: other threads keep compiling other plans meanwhile (two
        // threads compiling one plan at once both succeed; the first stored wins).
        let compiled = Arc::new(super::compile(plan, mode));
        let mut state = self.lock();
        if let Some(stored) = state.touch(hash, plan, mode) {
            return stored;
        }
        if state.len >= self.capacity {
            // A linear scan, but only when a full cache compiles: a compile costs far more.
            state.evict_oldest();
        }
        let used = state.clock;
        state.buckets.entry(hash).or_default().push(Entry {
            mode,
            plan: plan.clone(),
            compiled: compiled.clone(),
            used,
        });
        state.len += 1;
        compiled
    }

    /// Plans in the cache.
    pub fn len(&self) -> usize {
        self.lock().len
    }

    /// Whether the cache holds no plan.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The most plans the cache keeps.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Drops every plan (code still in use by shaders lives on).
    pub fn clear(&self) {
        let mut state = self.lock();
        state.buckets.clear();
        state.len = 0;
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves a consistent map (inserts are single calls).
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Options, VertexShader};

    fn plan(source: &str) -> Plan {
        let shader = dxso_text::parse(source).expect("assembles");
        VertexShader::with_options(&shader, &Options::default())
            .expect("lowers")
            .plan()
            .clone()
    }

    #[test]
    fn equal_plans_share_code_and_the_least_recently_used_goes_first() {
        let a = plan("vs_2_0\ndcl_position v0\nmov oPos, v0\n");
        let b = plan("vs_2_0\ndcl_position v0\nadd oPos, v0, v0\n");
        let c = plan("vs_2_0\ndcl_position v0\nmul oPos, v0, v0\n");
        let cache = JitCache::new(2);
        let first = cache.get_or_compile(&a, Mode::Scalar);
        assert!(Arc::ptr_eq(
            &first,
            &cache.get_or_compile(&a.clone(), Mode::Scalar)
        ));
        let second = cache.get_or_compile(&b, Mode::Scalar);
        // Using `a` again makes `b` the least recently used: `c` evicts `b`, not `a`.
        cache.get_or_compile(&a, Mode::Scalar);
        cache.get_or_compile(&c, Mode::Scalar);
        assert_eq!(cache.len(), 2);
        assert!(Arc::ptr_eq(&first, &cache.get_or_compile(&a, Mode::Scalar)));
        assert!(!Arc::ptr_eq(
            &second,
            &cache.get_or_compile(&b, Mode::Scalar)
        ));
        cache.clear();
        assert!(cache.is_empty());
    }

    #[test]
    fn plans_differing_only_in_the_sign_of_zero_are_different_keys() {
        let pos = plan("vs_2_0\ndef c0, 0, 0, 0, 0\ndcl_position v0\nadd oPos, v0, c0\n");
        let neg = plan("vs_2_0\ndef c0, -0, 0, 0, 0\ndcl_position v0\nadd oPos, v0, c0\n");
        assert_ne!(pos, neg);
        let cache = JitCache::new(8);
        cache.get_or_compile(&pos, Mode::Scalar);
        cache.get_or_compile(&neg, Mode::Scalar);
        assert_eq!(cache.len(), 2);
    }
}
