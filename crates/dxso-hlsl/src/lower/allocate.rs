//! Constant-register allocation in fxc's order.
//!
//! Lowering gives every uniform provisional registers in declaration order. Once the code is
//! built, the uniforms without a `register()` binding are placed again as fxc places them:
//! only the part the code reads is reserved (up to the highest register read, or to the end
//! of an array read through relative addressing), the larger first (ties in declaration
//! order), each in the lowest free registers; a bound uniform keeps its whole declared range
//! reserved, read or not. Only the uniforms the code reads go into the constant table.

use super::Lower;
use crate::ir::Op;
use dxso::ctab::RegisterSet;

impl Lower<'_> {
    /// Registers each constant uniform's reads need, from its first register (0: unread).
    fn read_extents(&self) -> Vec<u16> {
        // Lane by lane: a matrix read through its rows composes lanes of every column
        // register, and only the columns whose lanes are used count.
        let demand = self.m.demand();
        let mut extent = vec![0u16; self.m.uniforms.len()];
        for (i, node) in self.m.nodes.iter().enumerate() {
            if demand[i] == 0 {
                continue;
            }
            let (r, end) = match node.op {
                Op::Uniform(r) => (r, r.saturating_add(1)),
                Op::UniformRel(r, _) => {
                    let end = self
                        .rel_ranges
                        .iter()
                        .filter(|(first, end)| (*first..*end).contains(&r))
                        .map(|(_, end)| *end)
                        .max()
                        .unwrap_or(r.saturating_add(1));
                    (r, end)
                }
                _ => continue,
            };
            if let Some(&(_, start, n, u)) = self.registers.iter().find(|(s, start, n, _)| {
                *s == RegisterSet::Float4 && r >= *start && r < start.saturating_add(*n)
            }) {
                let e = end.min(start.saturating_add(n)).saturating_sub(start);
                extent[u] = extent[u].max(e);
            }
        }
        extent
    }

    /// Places the unbound constant uniforms the code reads (see the module's doc) and moves
    /// every register read to its new place.
    pub(super) fn allocate_constants(&mut self) {
        let extent = self.read_extents();
        let mut taken = vec![false; 8192];
        let reserve = |taken: &mut Vec<bool>, from: u16, n: u16| {
            for r in from as usize..(from as usize + n as usize).min(taken.len()) {
                taken[r] = true;
            }
        };
        let mut free: Vec<(u16, u16, usize)> = Vec::new();
        for &(set, start, n, u) in &self.registers {
            if set != RegisterSet::Float4 {
                continue;
            }
            self.m.uniforms[u].used = extent[u] > 0;
            if self.bound.contains(&u) {
                reserve(&mut taken, start, n);
            } else if extent[u] > 0 {
                free.push((start, n, u));
            }
        }
        // Larger first; the sort is stable, so ties keep declaration order.
        free.sort_by_key(|&(_, _, u)| std::cmp::Reverse(extent[u]));
        let mut moves: Vec<(u16, u16, u16)> = Vec::new();
        for (start, n, u) in free {
            let need = extent[u] as usize;
            let mut r = 0usize;
            while r + need <= taken.len() {
                match taken[r..r + need].iter().rposition(|t| *t) {
                    Some(k) => r += k + 1,
                    None => break,
                }
            }
            let new = r.min(u16::MAX as usize) as u16;
            reserve(&mut taken, new, extent[u]);
            moves.push((start, n, new));
            let decl = &mut self.m.uniforms[u];
            decl.register = new;
            decl.count = extent[u];
            if let Some(words) = &mut decl.default {
                words.truncate(need * 4);
            }
        }
        let moved = |r: u16| {
            moves
                .iter()
                .find(|(start, n, _)| r >= *start && r < start.saturating_add(*n))
                .map_or(r, |(start, _, new)| new.saturating_add(r - start))
        };
        self.m.move_uniforms(moved);
    }
}
