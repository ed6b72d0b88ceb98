//! Generated shaders cached by their key.

use crate::error::FfpError;
use crate::key::ShaderKey;
use crate::state::FfpState;
use crate::Generated;
use std::collections::HashMap;
use std::sync::Arc;

/// Shaders by key, generated on first use. Bounded: past `capacity` keys the cache is emptied
/// (a stream cycling through more states than that regenerates, never grows without end).
#[derive(Debug, Default)]
pub struct ShaderCache {
    shaders: HashMap<ShaderKey, Arc<Generated>>,
    capacity: usize,
    hits: u64,
    misses: u64,
}

impl ShaderCache {
    /// A cache holding up to `capacity` keys.
    pub fn new(capacity: usize) -> Self {
        ShaderCache {
            shaders: HashMap::new(),
            capacity: capacity.max(1),
            hits: 0,
            misses: 0,
        }
    }

    /// The key of `state` and its shaders, generated when not cached.
    pub fn get(&mut self, state: &FfpState) -> Result<(ShaderKey, Arc<Generated>), FfpError> {
        let key = ShaderKey::from_state(state)?;
        if let Some(g) = self.shaders.get(&key) {
            self.hits += 1;
            return Ok((key, Arc::clone(g)));
        }
        self.misses += 1;
        let g = Arc::new(crate::generate(&key)?);
        if self.shaders.len() >= self.capacity {
            self.shaders.clear();
        }
        self.shaders.insert(key.clone(), Arc::clone(&g));
        Ok((key, g))
    }

    /// Lookups served from the cache, and lookups that generated.
    pub fn counts(&self) -> (u64, u64) {
        (self.hits, self.misses)
    }

    /// Keys held.
    pub fn len(&self) -> usize {
        self.shaders.len()
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.shaders.is_empty()
    }
}
