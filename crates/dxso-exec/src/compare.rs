//! Comparing two engines' outputs under the float rules of `docs/SEMANTICS.md`.
//!
//! The CPU engines (interpreter and JIT) agree bit for bit, NaN for NaN ([`Tolerance::Exact`]);
//! a GPU running the translation agrees within the tolerance of the loosest kind of operation
//! the shader contains ([`Tolerance::of`]). Non-finite values never pass by tolerance: NaN
//! matches NaN and an infinity the same infinity, and anything else is a difference of a kind
//! ([`Kind`]) that `docs/SEMANTICS.md` section 16 explains.

use crate::io::{OutputRegister, Outputs};
use dxso::{Opcode, Shader, SrcModifier};
use std::fmt;

/// Beyond this magnitude a finite value is treated as overflowed: devices differ in how they
/// round and overflow near `f32::MAX`, so a pair with one side beyond it is [`Kind::Overflow`].
pub const OVERFLOW: f32 = 1e20;

/// How closely two engines must agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tolerance {
    /// Bit for bit (NaN for NaN): two CPU engines.
    Exact,
    /// Add, multiply, compare, select, dot products (a device may fuse and reassociate).
    Arithmetic,
    /// Division and square roots: `rcp`, `rsq`, `nrm`, the `_dz`/`_dw` modifiers.
    Division,
    /// `exp`, `log`, `pow`, `sincos`, `lit`: a device's approximations.
    Transcendental,
    /// Texture lookups (a device's subtexel precision).
    Texture,
}

impl Tolerance {
    /// The tolerance for a device running `shader`: that of the loosest operation it contains.
    pub fn of(shader: &Shader) -> Tolerance {
        use Opcode::*;
        let mut t = Tolerance::Arithmetic;
        for i in shader.instructions() {
            let k = match i.opcode {
                Rcp | Rsq | Nrm => Tolerance::Division,
                Exp | Log | ExpP | LogP | Pow | SinCos | Lit => Tolerance::Transcendental,
                Tex | TexLdl | TexLdd | TexBem | TexBemL | TexReg2Ar | TexReg2Gb | TexReg2Rgb
                | TexM3x2Tex | TexM3x3Tex | TexM3x3Spec | TexM3x3VSpec | TexDp3Tex => {
                    Tolerance::Texture
                }
                _ if i
                    .srcs
                    .iter()
                    .any(|s| matches!(s.modifier, SrcModifier::Dz | SrcModifier::Dw)) =>
                {
                    Tolerance::Division
                }
                _ => Tolerance::Arithmetic,
            };
            t = t.max(k);
        }
        t
    }

    /// Absolute and relative bounds: finite `a` and `b` agree when
    /// `|a - b| <= abs + rel * max(1, |a|, |b|)`. Both 0 for [`Tolerance::Exact`].
    pub fn bounds(self) -> (f32, f32) {
        match self {
            Tolerance::Exact => (0.0, 0.0),
            Tolerance::Arithmetic => (1e-6, 1e-6),
            Tolerance::Division => (1e-5, 1e-5),
            Tolerance::Transcendental => (1e-4, 1e-4),
            Tolerance::Texture => (1e-3, 1e-3),
        }
    }

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Tolerance::Exact => "exact",
            Tolerance::Arithmetic => "arithmetic",
            Tolerance::Division => "division/sqrt",
            Tolerance::Transcendental => "transcendental",
            Tolerance::Texture => "texture",
        }
    }
}

/// What kind of difference a pair of values is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Both finite and below [`OVERFLOW`], further apart than the tolerance.
    Beyond,
    /// One side NaN, the other a number (finite).
    NanNumber,
    /// One side NaN, the other infinite.
    NanInfinity,
    /// One side infinite, the other finite.
    InfinityNumber,
    /// Opposite infinities.
    InfinitySign,
    /// Both finite, one beyond [`OVERFLOW`] in magnitude.
    Overflow,
    /// Both equal as numbers but with different bits (`+0` and `-0`), only under
    /// [`Tolerance::Exact`].
    ZeroSign,
}

impl Kind {
    /// A short stable name (the JSON form and the report's classes).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Beyond => "beyond-tolerance",
            Kind::NanNumber => "nan-vs-number",
            Kind::NanInfinity => "nan-vs-infinity",
            Kind::InfinityNumber => "infinity-vs-number",
            Kind::InfinitySign => "infinity-sign",
            Kind::Overflow => "overflow",
            Kind::ZeroSign => "zero-sign",
        }
    }

    /// Whether the kind involves a non-finite or overflowed value.
    pub fn is_non_finite(self) -> bool {
        !matches!(self, Kind::Beyond | Kind::ZeroSign)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kind of difference between `a` and `b` under `tolerance`, or `None` when they agree.
pub fn classify(a: f32, b: f32, tolerance: Tolerance) -> Option<Kind> {
    if a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()) {
        return None;
    }
    if a == b {
        // +0 and -0.
        return (tolerance == Tolerance::Exact).then_some(Kind::ZeroSign);
    }
    let kind = match (a.is_nan() || b.is_nan(), a.is_infinite(), b.is_infinite()) {
        (true, false, false) => Kind::NanNumber,
        (true, _, _) => Kind::NanInfinity,
        (false, true, true) => Kind::InfinitySign,
        (false, true, false) | (false, false, true) => Kind::InfinityNumber,
        (false, false, false) => {
            if tolerance == Tolerance::Exact {
                Kind::Beyond
            } else if a.abs() > OVERFLOW || b.abs() > OVERFLOW {
                Kind::Overflow
            } else {
                let (abs, rel) = tolerance.bounds();
                let scale = 1f32.max(a.abs()).max(b.abs());
                if (a - b).abs() <= abs + rel * scale {
                    return None;
                }
                Kind::Beyond
            }
        }
    };
    Some(kind)
}

/// One output component on which two engines differ.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Difference {
    /// The output register.
    pub register: OutputRegister,
    /// The invocation (vertex, or pixel: four per quad).
    pub invocation: usize,
    /// The component, 0..4 (x, y, z, w).
    pub component: usize,
    /// The first engine's value.
    pub left: f32,
    /// The second engine's value.
    pub right: f32,
    /// What kind of difference.
    pub kind: Kind,
}

/// Everything on which two runs differ.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Comparison {
    /// Components that differ, in register, invocation and component order.
    pub differences: Vec<Difference>,
    /// Invocations whose discard (texkill, coverage) differs.
    pub discards: Vec<usize>,
    /// Registers one engine writes and the other does not.
    pub registers: Vec<OutputRegister>,
}

impl Comparison {
    /// Whether the two runs agree.
    pub fn agrees(&self) -> bool {
        self.differences.is_empty() && self.discards.is_empty() && self.registers.is_empty()
    }
}

/// Compares `left` and `right` (two runs of one shader on the same inputs) under `tolerance`.
/// Values of discarded invocations are compared too: both engines compute them.
pub fn compare(left: &Outputs, right: &Outputs, tolerance: Tolerance) -> Comparison {
    let mut c = Comparison::default();
    for (i, (a, b)) in left.discarded.iter().zip(&right.discarded).enumerate() {
        if a != b {
            c.discards.push(i);
        }
    }
    for (register, a) in &left.registers {
        let Some(b) = right.get(*register) else {
            c.registers.push(*register);
            continue;
        };
        for (invocation, (av, bv)) in a.iter().zip(b).enumerate() {
            for component in 0..4 {
                let (l, r) = (av[component], bv[component]);
                if let Some(kind) = classify(l, r, tolerance) {
                    c.differences.push(Difference {
                        register: *register,
                        invocation,
                        component,
                        left: l,
                        right: r,
                        kind,
                    });
                }
            }
        }
    }
    for (register, _) in &right.registers {
        if left.get(*register).is_none() {
            c.registers.push(*register);
        }
    }
    c.registers.sort();
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_matches_nan_and_numbers_within_tolerance() {
        let t = Tolerance::Arithmetic;
        assert_eq!(classify(f32::NAN, -f32::NAN, t), None);
        assert_eq!(classify(1.0, 1.0 + 1e-7, t), None);
        assert_eq!(classify(1.0, 1.1, t), Some(Kind::Beyond));
        assert_eq!(classify(0.0, -0.0, t), None);
        assert_eq!(classify(0.0, -0.0, Tolerance::Exact), Some(Kind::ZeroSign));
        assert_eq!(
            classify(1.0, 1.0 + 1e-7, Tolerance::Exact),
            Some(Kind::Beyond)
        );
    }

    #[test]
    fn non_finite_values_have_their_kinds() {
        let t = Tolerance::Texture;
        assert_eq!(classify(f32::NAN, 0.0, t), Some(Kind::NanNumber));
        assert_eq!(classify(1.0, f32::NAN, t), Some(Kind::NanNumber));
        assert_eq!(
            classify(f32::NAN, f32::INFINITY, t),
            Some(Kind::NanInfinity)
        );
        assert_eq!(classify(f32::INFINITY, 3.0, t), Some(Kind::InfinityNumber));
        assert_eq!(
            classify(f32::INFINITY, f32::NEG_INFINITY, t),
            Some(Kind::InfinitySign)
        );
        assert_eq!(classify(3e30, 2e30, t), Some(Kind::Overflow));
        assert_eq!(classify(f32::INFINITY, f32::INFINITY, t), None);
    }

    #[test]
    fn compare_reports_registers_components_and_discards() {
        let a = Outputs {
            count: 2,
            registers: vec![(OutputRegister::Target(0), vec![[0.0; 4], [1.0; 4]])],
            discarded: vec![false, true],
        };
        let mut b = a.clone();
        b.registers[0].1[1][2] = f32::NAN;
        b.discarded[1] = false;
        let c = compare(&a, &b, Tolerance::Arithmetic);
        assert!(!c.agrees());
        assert_eq!(c.discards, vec![1]);
        assert_eq!(c.differences.len(), 1);
        let d = c.differences[0];
        assert_eq!((d.invocation, d.component, d.kind), (1, 2, Kind::NanNumber));
        assert!(compare(&a, &a, Tolerance::Exact).agrees());
    }
}
