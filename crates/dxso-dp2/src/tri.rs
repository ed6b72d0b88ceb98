//! Triangular Bezier patches (degrees 1, 3, 5) and PN triangles (N-patches).
//!
//! Control points of a degree-`n` triangle are `b(i, j, k)`, `i + j + k = n`, weighting
//! corner 0, 1 and 2. They are stored row by row moving away from corner 0: row `r = j + k`
//! holds `k = 0..=r`, so the list starts at corner 0 and the last row runs from corner 1 to
//! corner 2 (`docs/DP2.md` draws it).

/// Index of `b(i, j, k)` in the control list of a degree `i + j + k` triangle.
pub fn control_index(j: usize, k: usize) -> usize {
    let r = j + k;
    r * (r + 1) / 2 + k
}

/// Control points of a degree-`n` triangle.
pub fn control_count(n: usize) -> usize {
    (n + 1) * (n + 2) / 2
}

fn factorial(n: usize) -> f32 {
    (1..=n).map(|x| x as f32).product()
}

/// The value and the derivatives along u = b1 and v = b2 (b0 = 1 - u - v) of a degree-`n`
/// triangle at barycentric `(b0, b1, b2)`.
pub fn evaluate(n: usize, controls: &[[f32; 4]], b: [f32; 3]) -> ([f32; 4], [f32; 4], [f32; 4]) {
    let pow = |x: f32| {
        let mut p = [1.0f32; 6];
        for e in 1..6 {
            p[e] = p[e - 1] * x;
        }
        p
    };
    let (p0, p1, p2) = (pow(b[0]), pow(b[1]), pow(b[2]));
    let dpow = |p: &[f32; 6], e: usize| if e == 0 { 0.0 } else { e as f32 * p[e - 1] };
    let nf = factorial(n);
    let (mut val, mut du, mut dv) = ([0.0f32; 4], [0.0f32; 4], [0.0f32; 4]);
    for j in 0..=n {
        for k in 0..=n - j {
            let i = n - j - k;
            let c = nf / (factorial(i) * factorial(j) * factorial(k));
            let w = c * p0[i] * p1[j] * p2[k];
            let d0 = c * dpow(&p0, i) * p1[j] * p2[k];
            let d1 = c * p0[i] * dpow(&p1, j) * p2[k];
            let d2 = c * p0[i] * p1[j] * dpow(&p2, k);
            let cp = &controls[control_index(j, k)];
            for m in 0..4 {
                val[m] += w * cp[m];
                du[m] += (d1 - d0) * cp[m];
                dv[m] += (d2 - d0) * cp[m];
            }
        }
    }
    (val, du, dv)
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn add(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
fn scale(a: [f32; 3], s: f32) -> [f32; 3] {
    [a[0] * s, a[1] * s, a[2] * s]
}
fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// The cross product.
pub fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `a` scaled to unit length, or `None` when it has (almost) no length or is not finite.
pub fn normalize(a: [f32; 3]) -> Option<[f32; 3]> {
    let l = dot(a, a).sqrt();
    (l > 1e-20 && l.is_finite()).then(|| scale(a, 1.0 / l))
}

/// A PN triangle built from three corner positions and normals (Vlachos et al. 2001).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PnTriangle {
    /// The ten cubic control points, in [`control_index`] order.
    pub position: [[f32; 4]; 10],
    /// Quadratic normal coefficients n200, n020, n002, n110, n011, n101.
    pub normal: [[f32; 3]; 6],
}

impl PnTriangle {
    /// Builds the control net. Corner normals are normalised first (a zero normal stays zero,
    /// which leaves that corner's edges straight).
    pub fn new(p: [[f32; 3]; 3], n: [[f32; 3]; 3]) -> PnTriangle {
        let n = n.map(|x| normalize(x).unwrap_or([0.0; 3]));
        let edge = |a: usize, b: usize| {
            let w = dot(sub(p[b], p[a]), n[a]);
            scale(sub(add(scale(p[a], 2.0), p[b]), scale(n[a], w)), 1.0 / 3.0)
        };
        let b210 = edge(0, 1);
        let b120 = edge(1, 0);
        let b021 = edge(1, 2);
        let b012 = edge(2, 1);
        let b102 = edge(2, 0);
        let b201 = edge(0, 2);
        let e = scale(
            [b210, b120, b021, b012, b102, b201]
                .into_iter()
                .fold([0.0; 3], add),
            1.0 / 6.0,
        );
        let v = scale(add(add(p[0], p[1]), p[2]), 1.0 / 3.0);
        let b111 = add(e, scale(sub(e, v), 0.5));
        let mut position = [[0.0f32; 4]; 10];
        let mut put = |j: usize, k: usize, x: [f32; 3]| {
            position[control_index(j, k)] = [x[0], x[1], x[2], 1.0]
        };
        put(0, 0, p[0]);
        put(3, 0, p[1]);
        put(0, 3, p[2]);
        put(1, 0, b210);
        put(2, 0, b120);
        put(2, 1, b021);
        put(1, 2, b012);
        put(0, 2, b102);
        put(0, 1, b201);
        put(1, 1, b111);
        let mid = |a: usize, b: usize| {
            let d = sub(p[b], p[a]);
            let len2 = dot(d, d);
            let vij = if len2 > 0.0 {
                2.0 * dot(d, add(n[a], n[b])) / len2
            } else {
                0.0
            };
            normalize(sub(add(n[a], n[b]), scale(d, vij))).unwrap_or([0.0; 3])
        };
        PnTriangle {
            position,
            normal: [n[0], n[1], n[2], mid(0, 1), mid(1, 2), mid(2, 0)],
        }
    }

    /// The position at barycentric `b` (cubic, or the flat triangle when `cubic` is false).
    pub fn position(&self, b: [f32; 3], cubic: bool) -> [f32; 3] {
        if cubic {
            let (v, _, _) = evaluate(3, &self.position, b);
            [v[0], v[1], v[2]]
        } else {
            let c = |j, k| {
                let x = self.position[control_index(j, k)];
                [x[0], x[1], x[2]]
            };
            add(
                add(scale(c(0, 0), b[0]), scale(c(3, 0), b[1])),
                scale(c(0, 3), b[2]),
            )
        }
    }

    /// The normal at `b`: linear or quadratic interpolation, normalised.
    pub fn normal(&self, b: [f32; 3], quadratic: bool) -> [f32; 3] {
        let n = &self.normal;
        let mut x = add(add(scale(n[0], b[0]), scale(n[1], b[1])), scale(n[2], b[2]));
        if quadratic {
            x = add(
                add(
                    add(scale(n[0], b[0] * b[0]), scale(n[1], b[1] * b[1])),
                    add(scale(n[2], b[2] * b[2]), scale(n[3], b[0] * b[1])),
                ),
                add(scale(n[4], b[1] * b[2]), scale(n[5], b[2] * b[0])),
            );
        }
        normalize(x).unwrap_or([0.0; 3])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_triangle_interpolates_corners() {
        let c = [
            [1.0, 0.0, 0.0, 1.0],
            [0.0, 2.0, 0.0, 1.0],
            [0.0, 0.0, 3.0, 1.0],
        ];
        let (v, du, dv) = evaluate(1, &c, [0.25, 0.25, 0.5]);
        assert_eq!(v, [0.25, 0.5, 1.5, 1.0]);
        assert_eq!(du, [-1.0, 2.0, 0.0, 0.0]);
        assert_eq!(dv, [-1.0, 0.0, 3.0, 0.0]);
    }

    #[test]
    fn bernstein_triangle_sums_to_one() {
        for n in [1usize, 3, 5] {
            let c = vec![[1.0f32; 4]; control_count(n)];
            let (v, du, _) = evaluate(n, &c, [0.2, 0.3, 0.5]);
            assert!((v[0] - 1.0).abs() < 1e-5 && du[0].abs() < 1e-4);
        }
    }

    #[test]
    fn flat_pn_triangle_stays_flat() {
        let p = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        let pn = PnTriangle::new(p, [[0.0, 0.0, 1.0]; 3]);
        let x = pn.position([0.2, 0.3, 0.5], true);
        assert!((x[0] - 0.3).abs() < 1e-6 && (x[1] - 0.5).abs() < 1e-6 && x[2].abs() < 1e-6);
        assert_eq!(pn.normal([0.2, 0.3, 0.5], true), [0.0, 0.0, 1.0]);
    }
}
