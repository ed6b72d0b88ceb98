//! Maps keyed by the DWORD handles a stream names (buffers, declarations, cached patches),
//! and by render-state numbers (which are small too).
//!
//! Drivers hand out handles counting up from small numbers, so handles below [`DENSE`]
//! index a vector: a lookup is a bounds check and a compare, with no hashing. Every other
//! handle goes to a `HashMap` with the standard library's keyed hasher, so a stream that
//! chooses its handles still cannot make them collide; and the vector never grows past
//! [`DENSE`] slots, whatever handles a stream names.

use std::collections::HashMap;

/// Handles below this are kept in a vector slot each.
pub(super) const DENSE: u32 = 1024;

/// A map from handles to `T`, as described in the module documentation.
#[derive(Clone, Debug)]
pub(super) struct HandleMap<T> {
    /// Slot `h` holds handle `h` (for `h < DENSE`); grown on insertion only.
    dense: Vec<Option<T>>,
    /// How many dense slots are occupied.
    dense_len: usize,
    /// Handles from [`DENSE`] up.
    sparse: HashMap<u32, T>,
}

impl<T> Default for HandleMap<T> {
    fn default() -> Self {
        HandleMap {
            dense: Vec::new(),
            dense_len: 0,
            sparse: HashMap::new(),
        }
    }
}

impl<T> HandleMap<T> {
    /// The value under `handle`.
    #[inline]
    pub(super) fn get(&self, handle: &u32) -> Option<&T> {
        match self.dense.get(*handle as usize) {
            Some(slot) => slot.as_ref(),
            None if *handle < DENSE => None,
            None => self.sparse.get(handle),
        }
    }

    /// The value under `handle`, mutably.
    #[inline]
    pub(super) fn get_mut(&mut self, handle: &u32) -> Option<&mut T> {
        match self.dense.get_mut(*handle as usize) {
            Some(slot) => slot.as_mut(),
            None if *handle < DENSE => None,
            None => self.sparse.get_mut(handle),
        }
    }

    /// Whether `handle` has a value.
    pub(super) fn contains_key(&self, handle: &u32) -> bool {
        self.get(handle).is_some()
    }

    /// Puts `value` under `handle`, returning the value it replaces.
    pub(super) fn insert(&mut self, handle: u32, value: T) -> Option<T> {
        match self.dense_slot(handle) {
            Some(slot) => {
                let old = slot.replace(value);
                if old.is_none() {
                    self.dense_len += 1;
                }
                old
            }
            None => self.sparse.insert(handle, value),
        }
    }

    /// Takes the value under `handle` out.
    pub(super) fn remove(&mut self, handle: &u32) -> Option<T> {
        if *handle >= DENSE {
            return self.sparse.remove(handle);
        }
        let old = self.dense.get_mut(*handle as usize)?.take();
        if old.is_some() {
            self.dense_len -= 1;
        }
        old
    }

    /// The value under `handle`, inserted by `make` first if there is none.
    pub(super) fn get_or_insert_with(&mut self, handle: u32, make: impl FnOnce() -> T) -> &mut T {
        if handle >= DENSE {
            return self.sparse.entry(handle).or_insert_with(make);
        }
        if self.get(&handle).is_none() {
            self.dense_len += 1;
        }
        let slot = self
            .dense_slot(handle)
            .expect("a handle below DENSE has a slot");
        slot.get_or_insert_with(make)
    }

    /// How many handles have a value.
    pub(super) fn len(&self) -> usize {
        self.dense_len + self.sparse.len()
    }

    /// The vector slot of a handle below [`DENSE`], grown to it if need be.
    fn dense_slot(&mut self, handle: u32) -> Option<&mut Option<T>> {
        if handle >= DENSE {
            return None;
        }
        let index = handle as usize;
        if self.dense.len() <= index {
            self.dense.resize_with(index + 1, || None);
        }
        self.dense.get_mut(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_and_sparse_handles_behave_as_one_map() {
        let mut m = HandleMap::default();
        let handles = [0, 1, 100, DENSE - 1, DENSE, DENSE + 7, u32::MAX];
        for (i, &h) in handles.iter().enumerate() {
            assert_eq!(m.insert(h, i), None, "handle {h}");
        }
        assert_eq!(m.len(), handles.len());
        for (i, &h) in handles.iter().enumerate() {
            assert_eq!(m.get(&h), Some(&i), "handle {h}");
            assert!(m.contains_key(&h));
        }
        assert_eq!(m.get(&2), None);
        assert_eq!(m.get(&(DENSE + 1)), None);
        assert_eq!(m.insert(100, 50), Some(2));
        assert_eq!(m.len(), handles.len());
        *m.get_mut(&u32::MAX).unwrap() += 1;
        assert_eq!(m.get(&u32::MAX), Some(&7));
        assert_eq!(m.remove(&100), Some(50));
        assert_eq!(m.remove(&100), None);
        assert_eq!(m.remove(&DENSE), Some(4));
        assert_eq!(m.remove(&5000), None);
        assert_eq!(m.len(), handles.len() - 2);
        *m.get_or_insert_with(3, || 30) += 1;
        *m.get_or_insert_with(3, || 0) += 1;
        *m.get_or_insert_with(DENSE + 9, || 90) += 1;
        assert_eq!(m.get(&3), Some(&32));
        assert_eq!(m.get(&(DENSE + 9)), Some(&91));
        assert_eq!(m.len(), handles.len());
        // Huge handles never grow the vector.
        assert!(m.dense.len() <= DENSE as usize);
    }
}
