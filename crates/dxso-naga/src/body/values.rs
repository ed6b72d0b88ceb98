//! Register values in hand: what each register holds, as expressions, while the lowering
//! walks straight-line code, so that a register written and read again is neither stored
//! nor loaded back (a write-back cache over the register variables).
//!
//! The invariant that keeps memory right: values not yet stored ("dirty") exist only at the
//! current block depth. Opening a block, `break`, `ret` and `call` store every dirty value
//! first; closing a block stores the block's own and forgets everything it learnt; loops and
//! calls forget every mutable register, since memory may have changed under them.

use super::{Body, Elem, Reg};
use crate::Error;
use naga::{Expression, Handle, VectorSize};

type H = Handle<Expression>;

/// What is known about one register.
#[derive(Clone)]
pub(crate) struct Known {
    /// A `vec4` whose components hold the value where `comps` has none (None: memory).
    base: Option<H>,
    /// Components known separately (overriding `base`).
    comps: [Option<H>; 4],
    /// The whole value as one `vec4`, when built.
    whole: Option<H>,
    /// Components whose memory is stale.
    dirty: u8,
    /// The block depth of the newest expression here.
    depth: usize,
    /// Written at this depth (not only read): the outer knowledge is stale after the block.
    modified: bool,
    /// What was known in the enclosing block, restored when this block closes unmodified.
    outer: Option<Box<Known>>,
}

impl Known {
    fn new(depth: usize) -> Self {
        Known {
            base: None,
            comps: [None; 4],
            whole: None,
            dirty: 0,
            depth,
            modified: false,
            outer: None,
        }
    }
}

impl Body<'_> {
    /// The entry of `reg` at the current depth (shadowing an outer one), created if absent.
    fn entry(&mut self, reg: Reg) -> &mut Known {
        let depth = self.func.depth();
        let known = self.known.entry(reg).or_insert_with(|| Known::new(depth));
        if known.depth < depth {
            let outer = std::mem::replace(known, Known::new(depth));
            known.base = outer.base;
            known.comps = outer.comps;
            known.whole = outer.whole;
            known.outer = Some(Box::new(outer));
        }
        known
    }

    /// Pins a value for the whole function (inputs in the entry point).
    pub(crate) fn pin(&mut self, reg: Reg, value: H) {
        let mut k = Known::new(0);
        k.base = Some(value);
        k.whole = Some(value);
        self.known.insert(reg, k);
    }

    /// The register's whole value as a `vec4` of its element type.
    pub(crate) fn whole(&mut self, reg: Reg) -> Result<H, Error> {
        if let Some(k) = self.known.get(&reg) {
            if let Some(w) = k.whole {
                return Ok(w);
            }
        }
        let (base, comps) = match self.known.get(&reg) {
            Some(k) => (k.base, k.comps),
            None => (None, [None; 4]),
        };
        let base = match base {
            Some(b) => b,
            None => self.load_memory(reg)?,
        };
        let whole = if comps.iter().all(Option::is_none) {
            base
        } else {
            let mut parts = Vec::with_capacity(4);
            for (i, c) in comps.iter().enumerate() {
                parts.push(match c {
                    Some(c) => *c,
                    None => self.index(base, i as u32),
                });
            }
            let ty = self.elem_vec4(reg);
            self.e(Expression::Compose {
                ty,
                components: parts,
            })
        };
        let k = self.entry(reg);
        k.base = Some(base);
        k.whole = Some(whole);
        Ok(whole)
    }

    /// One component of the register.
    pub(crate) fn comp(&mut self, reg: Reg, c: u8) -> Result<H, Error> {
        let c = (c & 3) as usize;
        if let Some(k) = self.known.get(&reg) {
            if let Some(v) = k.comps[c] {
                return Ok(v);
            }
        }
        let base = match self.known.get(&reg).and_then(|k| k.base) {
            Some(b) => b,
            None => {
                let b = self.load_memory(reg)?;
                let k = self.entry(reg);
                k.base = Some(b);
                if k.comps.iter().all(Option::is_none) {
                    k.whole = Some(b);
                }
                b
            }
        };
        let v = self.index(base, c as u32);
        self.entry(reg).comps[c] = Some(v);
        Ok(v)
    }

    /// Sets one component (a write of one component).
    pub(crate) fn set_comp(&mut self, reg: Reg, c: u8, value: H) {
        let k = self.entry(reg);
        k.comps[(c & 3) as usize] = Some(value);
        k.whole = None;
        k.dirty |= 1 << (c & 3);
        k.modified = true;
    }

    /// Sets the components of `mask` from the `vec4` `value`.
    pub(crate) fn set_vec(&mut self, reg: Reg, value: H, mask: u8) -> Result<(), Error> {
        let mask = mask & 0xF;
        if mask == 0xF {
            let k = self.entry(reg);
            k.base = Some(value);
            k.whole = Some(value);
            k.comps = [None; 4];
            k.dirty = 0xF;
            k.modified = true;
            return Ok(());
        }
        let whole_known = self.known.get(&reg).and_then(|k| k.whole);
        match whole_known {
            Some(old) => {
                let c = self.m.mask(mask);
                let m = self.constant(c);
                let new = self.select(m, value, old);
                let k = self.entry(reg);
                k.base = Some(new);
                k.whole = Some(new);
                k.comps = [None; 4];
                k.dirty |= mask;
                k.modified = true;
            }
            None => {
                for c in 0..4u8 {
                    if mask & (1 << c) != 0 {
                        let v = self.index(value, c as u32);
                        self.set_comp(reg, c, v);
                    }
                }
            }
        }
        Ok(())
    }

    /// Stores the dirty components of `reg`.
    fn flush(&mut self, reg: Reg) -> Result<(), Error> {
        let Some(k) = self.known.get(&reg) else {
            return Ok(());
        };
        let dirty = k.dirty;
        if dirty == 0 {
            return Ok(());
        }
        let whole = k.whole;
        let ptr = self.reg_ptr(reg);
        if let Some(w) = whole {
            self.store(ptr, w);
        } else if dirty == 0xF {
            let w = self.whole(reg)?;
            self.store(ptr, w);
        } else {
            for c in 0..4u8 {
                if dirty & (1 << c) != 0 {
                    let v = self.comp(reg, c)?;
                    let p = self.index(ptr, c as u32);
                    self.store(p, v);
                }
            }
        }
        if let Some(k) = self.known.get_mut(&reg) {
            k.dirty = 0;
        }
        Ok(())
    }

    /// Stores every dirty register (before a block opens, `break`, `ret`, `call`).
    pub(crate) fn flush_all(&mut self) -> Result<(), Error> {
        let mut dirty: Vec<Reg> = self
            .known
            .iter()
            .filter(|(_, k)| k.dirty != 0)
            .map(|(r, _)| *r)
            .collect();
        dirty.sort_unstable();
        for r in dirty {
            self.flush(r)?;
        }
        Ok(())
    }

    /// Stores the dirty registers of one file (before it is indexed).
    pub(crate) fn flush_file(&mut self, ty: dxso::RegisterType) -> Result<(), Error> {
        let mut dirty: Vec<Reg> = self
            .known
            .iter()
            .filter(|(r, k)| k.dirty != 0 && matches!(r, Reg::File(t, _) if *t == ty))
            .map(|(r, _)| *r)
            .collect();
        dirty.sort_unstable();
        for r in dirty {
            self.flush(r)?;
        }
        Ok(())
    }

    /// At the end of a block: stores what it wrote and forgets what it learnt.
    pub(crate) fn leave_block(&mut self) -> Result<(), Error> {
        self.flush_all()?;
        let depth = self.func.depth();
        let regs: Vec<Reg> = self
            .known
            .iter()
            .filter(|(_, k)| k.depth >= depth)
            .map(|(r, _)| *r)
            .collect();
        for r in regs {
            let Some(k) = self.known.remove(&r) else {
                continue;
            };
            if !k.modified {
                if let Some(outer) = k.outer {
                    self.known.insert(r, *outer);
                }
            }
        }
        Ok(())
    }

    /// Forgets every register memory may have changed under (around loops and calls).
    pub(crate) fn forget_mutable(&mut self) {
        self.known.retain(|r, _| r.is_immutable());
    }

    /// Forgets the registers of one file (after an indexed write).
    pub(crate) fn forget_file(&mut self, ty: dxso::RegisterType) {
        self.known
            .retain(|r, _| !matches!(r, Reg::File(t, _) if *t == ty));
    }

    fn elem_vec4(&mut self, reg: Reg) -> Handle<naga::Type> {
        let scalar = match self.elem(reg) {
            Elem::Float => naga::Scalar::F32,
            Elem::Int => naga::Scalar::I32,
            Elem::Bool => naga::Scalar::BOOL,
        };
        self.m.vec(VectorSize::Quad, scalar)
    }
}
