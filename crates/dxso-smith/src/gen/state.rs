//! What the generator knows at one point of the program: which register components are written
//! on every path so far (only those may be read), how large values can be, how many dependent
//! texture reads feed each temp. States are cloned on entering a block and joined at its end.

/// The most temps any version has.
pub(crate) const TEMPS: usize = 32;
/// The most output slots a program declares.
pub(crate) const OUTPUTS: usize = 16;
/// The deepest loop nesting tracked (every version allows at most 4).
pub(crate) const LOOP_DEPTH: usize = 8;

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct State {
    /// Per temp: components written on every path from the start of the function.
    pub temp: [u8; TEMPS],
    /// Per temp: an upper bound on the magnitude of its components.
    pub bound: [f32; TEMPS],
    /// Per temp: the dependent-read depth of its value (ps_2_0/ps_2_x texld chains).
    pub dep: [u8; TEMPS],
    /// Components of p0 written on every path.
    pub pred: u8,
    /// Components of a0 written on every path (vertex shaders).
    pub addr: u8,
    /// Per output slot: components written on every path.
    pub out: [u8; OUTPUTS],
    /// Per enclosing loop (outermost first): temps written on every path of the current iteration.
    pub fresh: [u32; LOOP_DEPTH],
    /// ps_1_x: texture registers holding a readable value (bit per `t#`).
    pub tex: u16,
}

impl State {
    pub fn new() -> Self {
        State {
            temp: [0; TEMPS],
            bound: [0.0; TEMPS],
            dep: [0; TEMPS],
            pred: 0,
            addr: 0,
            out: [0; OUTPUTS],
            fresh: [0; LOOP_DEPTH],
            tex: 0,
        }
    }

    /// The state after a point two paths reach: written only where both wrote, bounds and
    /// depths as large as either.
    pub fn join(&self, other: &State) -> State {
        let mut s = self.clone();
        for i in 0..TEMPS {
            s.temp[i] &= other.temp[i];
            s.bound[i] = s.bound[i].max(other.bound[i]);
            s.dep[i] = s.dep[i].max(other.dep[i]);
        }
        s.pred &= other.pred;
        s.addr &= other.addr;
        for i in 0..OUTPUTS {
            s.out[i] &= other.out[i];
        }
        for i in 0..LOOP_DEPTH {
            s.fresh[i] &= other.fresh[i];
        }
        s.tex &= other.tex;
        s
    }

    /// `true` when a subroutine generated in state `entry` may run from this state: everything it
    /// read is written here too, and no dependent-read chain is longer.
    pub fn covers(&self, entry: &State) -> bool {
        (0..TEMPS).all(|i| {
            entry.temp[i] & !self.temp[i] == 0
                && self.dep[i] <= entry.dep[i]
                && self.bound[i] <= entry.bound[i]
        }) && entry.pred & !self.pred == 0
            && entry.addr & !self.addr == 0
            && (0..OUTPUTS).all(|i| entry.out[i] & !self.out[i] == 0)
            && entry.tex & !self.tex == 0
    }
}

/// One enclosing `loop` or `rep`.
#[derive(Clone, Debug)]
pub(crate) struct LoopFrame {
    /// `loop`: the range of values `aL` takes (`None` for `rep`).
    pub al: Option<(i32, i32)>,
    /// Divergent `breakc`/`breakp` (and breaks under divergent branches) may leave this loop.
    pub dynamic: bool,
    /// Temps read in the body before the iteration wrote them: values carried between iterations,
    /// which must stay below the loop value limit.
    pub carried: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_keeps_what_both_paths_wrote() {
        let mut a = State::new();
        let mut b = State::new();
        a.temp[0] = 0b0111;
        b.temp[0] = 0b1100;
        a.bound[0] = 2.0;
        b.bound[0] = 5.0;
        a.pred = 1;
        let j = a.join(&b);
        assert_eq!(j.temp[0], 0b0100);
        assert_eq!(j.bound[0], 5.0);
        assert_eq!(j.pred, 0);
    }

    #[test]
    fn covers_needs_every_entry_write() {
        let mut entry = State::new();
        entry.temp[3] = 0xF;
        let mut here = State::new();
        assert!(!here.covers(&entry));
        here.temp[3] = 0xF;
        assert!(here.covers(&entry));
        here.dep[3] = 2;
        assert!(!here.covers(&entry));
    }
}
