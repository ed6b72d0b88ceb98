//! Compiled code shared between equal plans: a renderer that lowers the same shader again (or
//! many shaders that lower to the same plan) compiles it once.

use super::{Compiled, Mode};
use crate::plan::{Op, Plan, Uniform};
use std::collections::{HashMap, VecDeque};
use std::fmt::Write;
use std::sync::{Arc, Mutex};

/// Plans kept; the oldest is dropped beyond this (its code lives on while shaders use it).
const CAPACITY: usize = 1024;

#[derive(Default)]
struct Cache {
    map: HashMap<String, Arc<Compiled>>,
    order: VecDeque<String>,
}

static CACHE: Mutex<Option<Cache>> = Mutex::new(None);

/// What identifies a plan's code: everything in the plan (its `Debug` form tells apart every
/// float but NaN payloads), plus the bits of the floats the code embeds.
fn key(plan: &Plan, mode: Mode) -> String {
    let mut k = format!("{mode:?}{plan:?}");
    for u in &plan.uniforms {
        if let Uniform::Literal(v) = u {
            let _ = write!(k, ",{:08x}", v.to_bits());
        }
    }
    for op in &plan.ops {
        if let Op::Store { scale, clamp, .. } = op {
            let _ = write!(k, ",{:08x}{:08x}", scale.to_bits(), clamp.to_bits());
        }
    }
    k
}

/// The cached code for `plan`, compiling it on first use.
pub(super) fn get_or_compile(plan: &Plan, mode: Mode) -> Arc<Compiled> {
    let k = key(plan, mode);
    if let Some(c) = lock().as_ref().and_then(|c| c.map.get(&k).cloned()) {
        return c;
    }
    // Compile outside the lock: other threads keep compiling other plans meanwhile (two
    // threads compiling one plan at once both succeed; the first stored wins).
    let compiled = Arc::new(super::compile_uncached(plan, mode));
    let mut guard = lock();
    let cache = guard.get_or_insert_with(Cache::default);
    if let Some(c) = cache.map.get(&k) {
        return c.clone();
    }
    if cache.order.len() >= CAPACITY {
        if let Some(old) = cache.order.pop_front() {
            cache.map.remove(&old);
        }
    }
    cache.order.push_back(k.clone());
    cache.map.insert(k, compiled.clone());
    compiled
}

/// Plans in the cache.
pub(super) fn len() -> usize {
    lock().as_ref().map_or(0, |c| c.map.len())
}

fn lock() -> std::sync::MutexGuard<'static, Option<Cache>> {
    // A panic while holding the lock leaves a consistent map (inserts are single calls).
    CACHE.lock().unwrap_or_else(|e| e.into_inner())
}
