//! The float rules of `docs/SEMANTICS.md` as plain scalar functions.
//!
//! The interpreter applies these to every lane, the tests' reference path calls them one
//! invocation at a time, and a JIT calls the same functions for the operations it does not emit
//! inline, so every engine gives the same bits. Section numbers refer to `docs/SEMANTICS.md`.

/// A product (5.1): IEEE, or `+0.0` when either factor is zero and `zero_times_anything` is set.
#[inline(always)]
pub fn mul(a: f32, b: f32, zero_times_anything: bool) -> f32 {
    if zero_times_anything && (a == 0.0 || b == 0.0) {
        0.0
    } else {
        a * b
    }
}

/// `min` (5.2): `a < b ? a : b`.
#[inline(always)]
pub fn min(a: f32, b: f32) -> f32 {
    if a < b {
        a
    } else {
        b
    }
}

/// `max` (5.2): `a >= b ? a : b`.
#[inline(always)]
pub fn max(a: f32, b: f32) -> f32 {
    if a >= b {
        a
    } else {
        b
    }
}

/// `clamp(x, 0, 1)` with NaN giving 0 (`_sat`, 4).
#[inline(always)]
pub fn saturate(x: f32) -> f32 {
    if x > 0.0 {
        if x < 1.0 {
            x
        } else {
            1.0
        }
    } else {
        0.0
    }
}

/// The ps_1_x range clamp `clamp(x, -m, m)` with NaN giving 0 (4).
#[inline(always)]
pub fn range_clamp(x: f32, m: f32) -> f32 {
    if x >= -m {
        if x <= m {
            x
        } else {
            m
        }
    } else if x < -m {
        -m
    } else {
        0.0
    }
}

/// `floor(x)`, bit for bit what `f32::floor` gives (signed zeros, NaN and infinities included),
/// computed with a conversion instead of a library call (SSE2 has no rounding instruction).
#[inline(always)]
pub fn floor(x: f32) -> f32 {
    // 2^23 and beyond, infinities and NaN are their own floor.
    if x.is_nan() || x.abs() >= 8_388_608.0 {
        return x;
    }
    let t = (x as i32 as f32).copysign(x);
    if t > x {
        t - 1.0
    } else {
        t
    }
}

/// `frc` (5.2): `x - floor(x)`.
#[inline(always)]
pub fn frc(x: f32) -> f32 {
    x - floor(x)
}

/// `sgn` (5.2): -1, 0 or 1; NaN and -0 give 0.
#[inline(always)]
pub fn sgn(x: f32) -> f32 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// `rcp` (5.4): `1 / x`.
#[inline(always)]
pub fn rcp(x: f32) -> f32 {
    1.0 / x
}

/// `rsq` (5.4): `1 / sqrt(|x|)`.
#[inline(always)]
pub fn rsq(x: f32) -> f32 {
    1.0 / x.abs().sqrt()
}

/// `exp` (5.4): `2^x`.
#[inline]
pub fn exp(x: f32) -> f32 {
    x.exp2()
}

/// `log` and `logp` (5.4): `log2(|x|)`, `-inf` at zero.
#[inline]
pub fn log(x: f32) -> f32 {
    x.abs().log2()
}

/// vs_1_1 `expp` (5.4): `(2^floor(x), x - floor(x), 2^x, 1)`.
#[inline]
pub fn expp_sm1(x: f32) -> [f32; 4] {
    let f = floor(x);
    [f.exp2(), x - f, x.exp2(), 1.0]
}

/// `pow` (5.4): `powf(|a|, b)`.
#[inline]
pub fn pow(a: f32, b: f32) -> f32 {
    a.abs().powf(b)
}

/// The power clamp of `lit` (the SDK's MAXPOWER).
pub const LIT_MAX_POWER: f32 = 127.9961;

/// `lit` (5.5) of the source `(x, y, _, w)`.
#[inline]
pub fn lit(x: f32, y: f32, w: f32) -> [f32; 4] {
    let p = w.clamp(-LIT_MAX_POWER, LIT_MAX_POWER);
    let dy = if x > 0.0 { x } else { 0.0 };
    let dz = if x > 0.0 && y > 0.0 { y.powf(p) } else { 0.0 };
    [1.0, dy, dz, 1.0]
}

/// `dp3` (5.3), left to right.
#[inline(always)]
pub fn dp3(a: [f32; 3], b: [f32; 3], z: bool) -> f32 {
    mul(a[0], b[0], z) + mul(a[1], b[1], z) + mul(a[2], b[2], z)
}

/// `dp4` (5.3), left to right.
#[inline(always)]
pub fn dp4(a: [f32; 4], b: [f32; 4], z: bool) -> f32 {
    mul(a[0], b[0], z) + mul(a[1], b[1], z) + mul(a[2], b[2], z) + mul(a[3], b[3], z)
}

/// The factor `nrm` multiplies by (5.5): 0 for a zero vector, else `1 / sqrt(l)`.
#[inline]
pub fn nrm_factor(l: f32) -> f32 {
    if l == 0.0 {
        0.0
    } else {
        1.0 / l.sqrt()
    }
}

/// `mova` rounding (5.6): nearest, halves away from zero, saturating to `i32` (NaN gives 0):
/// `f32::round(x) as i32`, computed from the truncation and the exact remainder.
#[inline(always)]
pub fn round_address(x: f32) -> i32 {
    let t = x as i32;
    let f = x - t as f32;
    if f >= 0.5 {
        t.saturating_add(1)
    } else if f <= -0.5 {
        t.saturating_sub(1)
    } else {
        t
    }
}

/// vs_1_1 `mov a0` (5.6): floor, saturating: `f32::floor(x) as i32`.
#[inline(always)]
pub fn floor_address(x: f32) -> i32 {
    let t = x as i32;
    if (t as f32) > x {
        t.saturating_sub(1)
    } else {
        t
    }
}

/// `clamp(x, 0, 1)` with NaN giving 0, as the ps_1_x depth and texcoord rules use it.
#[inline(always)]
pub fn clamp01(x: f32) -> f32 {
    saturate(x)
}

/// `texdepth` (8): `clamp01(x / min(y, 1))`.
#[inline]
pub fn texdepth(x: f32, y: f32) -> f32 {
    clamp01(x / min(y, 1.0))
}

/// `texm3x2depth` (8): `w == 0 ? 1 : clamp01(z / w)`.
#[inline]
pub fn texm3x2_depth(z: f32, w: f32) -> f32 {
    if w == 0.0 {
        1.0
    } else {
        clamp01(z / w)
    }
}

/// One component of the `texm3x3spec` reflection (8): `(2 dot(N, E) / dot(N, N)) * n - e`.
#[inline]
pub fn reflect_component(scale: f32, n: f32, e: f32, z: bool) -> f32 {
    mul(scale, n, z) - e
}

/// The scale of the `texm3x3spec` reflection: `(2 * dot(N, E)) / dot(N, N)`.
#[inline]
pub fn reflect_scale(n: [f32; 3], e: [f32; 3], z: bool) -> f32 {
    (2.0 * dp3(n, e, z)) / dp3(n, n, z)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_rules() {
        assert_eq!(rcp(0.0), f32::INFINITY);
        assert_eq!(rcp(-0.0), f32::NEG_INFINITY);
        assert_eq!(rsq(0.0), f32::INFINITY);
        assert_eq!(rsq(-0.0), f32::INFINITY);
        assert_eq!(log(0.0), f32::NEG_INFINITY);
        assert_eq!(nrm_factor(0.0), 0.0);
        assert_eq!(pow(0.0, 0.0), 1.0);
        assert_eq!(pow(-2.0, 2.0), 4.0);
    }

    #[test]
    fn nan_rules() {
        let n = f32::NAN;
        assert_eq!(min(n, 1.0), 1.0);
        assert!(min(1.0, n).is_nan());
        assert_eq!(max(n, 1.0), 1.0);
        assert!(max(1.0, n).is_nan());
        assert_eq!(saturate(n), 0.0);
        assert_eq!(range_clamp(n, 1.0), 0.0);
        assert_eq!(sgn(n), 0.0);
        assert_eq!(sgn(-0.0), 0.0);
    }

    #[test]
    fn zero_times_anything() {
        assert!(mul(0.0, f32::INFINITY, false).is_nan());
        assert_eq!(mul(0.0, f32::INFINITY, true).to_bits(), 0);
        assert_eq!(mul(f32::NAN, -0.0, true).to_bits(), 0);
        assert_eq!(mul(2.0, 3.0, true), 6.0);
    }

    #[test]
    fn address_rounding() {
        assert_eq!(round_address(1.5), 2);
        assert_eq!(round_address(-1.5), -2);
        assert_eq!(round_address(2.4999), 2);
        assert_eq!(floor_address(-0.5), -1);
        assert_eq!(round_address(f32::NAN), 0);
        assert_eq!(round_address(1e20), i32::MAX);
    }

    #[test]
    fn floor_and_rounding_match_the_library() {
        let mut xs = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.5,
            -1.5,
            2.5,
            -2.5,
            0.49999997,
            -0.49999997,
            1e-40,
            -1e-40,
            8388607.5,
            -8388607.5,
            8388608.0,
            3e9,
            -3e9,
            2147483520.0,
            -2147483648.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::MAX,
            f32::MIN,
        ];
        let mut bits = 0x9E37_79B9u32;
        for _ in 0..100_000 {
            bits = bits.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            xs.push(f32::from_bits(bits));
            xs.push((bits >> 8) as f32 / 256.0 - 32768.0);
        }
        for x in xs {
            let f = floor(x);
            assert!(
                f.to_bits() == x.floor().to_bits() || (f.is_nan() && x.is_nan()),
                "floor({x})"
            );
            assert_eq!(round_address(x), x.round() as i32, "round({x})");
            assert_eq!(floor_address(x), x.floor() as i32, "floor_address({x})");
        }
    }

    #[test]
    fn lit_cases() {
        assert_eq!(lit(0.5, 2.0, 3.0), [1.0, 0.5, 8.0, 1.0]);
        assert_eq!(lit(-0.5, 2.0, 3.0), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(lit(0.5, 0.0, 0.0), [1.0, 0.5, 0.0, 1.0]);
        assert_eq!(lit(0.5, 2.0, 1000.0)[2], 2f32.powf(LIT_MAX_POWER));
    }

    #[test]
    fn depth_rules() {
        assert_eq!(texdepth(-0.25, -0.5), 0.5);
        assert_eq!(texdepth(0.5, 2.0), 0.5);
        assert_eq!(texm3x2_depth(0.5, 0.0), 1.0);
        assert_eq!(texm3x2_depth(3.0, 2.0), 1.0);
    }
}
