//! Products under the float rules (`docs/SEMANTICS.md` 5.1): IEEE, or with
//! `Options::zero_times_anything` `+0.0` wherever either factor compares equal to zero, even
//! when the other is infinite or NaN. Every product of the instructions 5.1 names goes through
//! here, so the translation and the executor apply the rule to the same products.

use crate::body::Body;
use naga::{BinaryOperator as B, Expression, Handle, MathFunction as M, VectorSize};

type H = Handle<Expression>;

impl Body<'_> {
    /// Whether products follow "0 * anything = 0".
    pub(crate) fn zero_times_anything(&self) -> bool {
        self.plan.options.zero_times_anything
    }

    /// `a * b` of two values of the same width (`None`: scalars).
    pub(crate) fn product(&mut self, a: H, b: H, width: Option<VectorSize>) -> H {
        let p = self.bin(B::Multiply, a, b);
        if !self.zero_times_anything() {
            return p;
        }
        let zero = self.fconst_w(0.0, width);
        let a0 = self.bin(B::Equal, a, zero);
        let b0 = self.bin(B::Equal, b, zero);
        // `|`, not `||`: WGSL's `||` takes scalars only.
        let either = self.bin(B::InclusiveOr, a0, b0);
        self.select(either, zero, p)
    }

    /// `v * s` of a vector of `size` and a scalar.
    pub(crate) fn product_by_scalar(&mut self, v: H, s: H, size: VectorSize) -> H {
        if !self.zero_times_anything() {
            return self.bin(B::Multiply, v, s);
        }
        let s = self.e(Expression::Splat { size, value: s });
        self.product(v, s, Some(size))
    }

    /// The dot product of the first `n` components of two vectors of `n` components: naga's
    /// `dot`, or with the rule the products summed left to right as the executor sums them.
    pub(crate) fn dot(&mut self, a: H, b: H, n: u32) -> H {
        if !self.zero_times_anything() {
            return self.math2(M::Dot, a, b);
        }
        let mut sum = None;
        for i in 0..n {
            let x = self.index(a, i);
            let y = self.index(b, i);
            let p = self.product(x, y, None);
            sum = Some(match sum {
                None => p,
                Some(s) => self.bin(B::Add, s, p),
            });
        }
        sum.unwrap_or_else(|| self.func.f32(0.0))
    }

    /// The cross product of two three-component vectors: naga's `cross`, or with the rule
    /// `a[i] b[j] - a[j] b[i]` per component.
    pub(crate) fn cross(&mut self, a: H, b: H) -> H {
        if !self.zero_times_anything() {
            return self.math2(M::Cross, a, b);
        }
        let mut comps = Vec::with_capacity(3);
        for c in 0..3 {
            let (i, j) = ((c + 1) % 3, (c + 2) % 3);
            let (ai, bj, aj, bi) = (
                self.index(a, i),
                self.index(b, j),
                self.index(a, j),
                self.index(b, i),
            );
            let l = self.product(ai, bj, None);
            let r = self.product(aj, bi, None);
            comps.push(self.bin(B::Subtract, l, r));
        }
        let ty = self.m.vec(VectorSize::Tri, naga::Scalar::F32);
        self.e(Expression::Compose {
            ty,
            components: comps,
        })
    }
}
