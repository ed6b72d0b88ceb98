//! Floats as Microsoft's listings print them: C `printf("%.9g")` from the MSVC runtime that
//! fxc and D3DX were built with, which writes at least three exponent digits
//! (`9.99999975e-005`) and spells the special values `1.#INF`, `-1.#INF` and `1.#QNAN`.
//!
//! Nine significant digits identify every `f32`, so parsing the text gives back the same bits
//! (NaN payloads aside).

use super::Text;

/// Appends `value` formatted as `%.9g` with MSVC's exponent width.
pub fn write_float(out: &mut String, value: f32) {
    write_float_to(out, value);
}

pub(crate) fn write_float_to(out: &mut impl Text, value: f32) {
    if value.is_nan() {
        out.text(if value.is_sign_negative() {
            "-1.#IND"
        } else {
            "1.#QNAN"
        });
        return;
    }
    if value.is_infinite() {
        out.text(if value < 0.0 { "-1.#INF" } else { "1.#INF" });
        return;
    }
    if value.is_sign_negative() {
        out.byte(b'-');
    }
    let value = value.abs();
    // Integers below 10^9 print as themselves (the common case: 0, 1, 255, -0).
    if value < 1e9 && value.fract() == 0.0 {
        super::push_number(out, value as u32);
        return;
    }
    let (digits, len, exp) = match nine_digits_exact_fast(value) {
        Some(d) => d,
        None => nine_digits_via_fmt(value),
    };
    write_layout(out, &digits[..len], exp);
}

/// Significant digits (`%.9g` keeps nine).
const PRECISION: i32 = 9;

/// `10^k` for `k` in `0..=12`: every one is exact in `f64`, and so is an `f32` times one of
/// them (24 significand bits times at most 28 bits of `5^12` fit 53).
const EXACT_POWERS_OF_TEN: [f64; 13] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
];

/// The nine-digit rounding of a positive `value` in `[1e-4, 1e9)` (the fixed-notation range
/// that most constants fall in) without formatting machinery: scaled by an exact power of ten
/// to nine integer digits, the value is exact, so rounding it is exact too. Ties and roundings
/// that carry into a tenth digit are left to [`nine_digits_via_fmt`].
fn nine_digits_exact_fast(value: f32) -> Option<([u8; 9], usize, i32)> {
    let value = value as f64;
    if !(1e-4..1e9).contains(&value) {
        return None;
    }
    let k = EXACT_POWERS_OF_TEN.iter().position(|p| value * p >= 1e8)?;
    let scaled = value * EXACT_POWERS_OF_TEN[k];
    let floor = scaled.floor();
    let fraction = scaled - floor;
    if fraction == 0.5 {
        return None;
    }
    let rounded = floor as u32 + (fraction > 0.5) as u32;
    if rounded >= 1_000_000_000 {
        return None;
    }
    Some(trimmed_digits(rounded, 8 - k as i32))
}

/// The nine-digit rounding through `{:.8e}`, which rounds exactly (half to even) at any
/// magnitude.
fn nine_digits_via_fmt(value: f32) -> ([u8; 9], usize, i32) {
    use std::fmt::Write;
    let mut sci = String::with_capacity(24);
    let _ = write!(sci, "{:.*e}", (PRECISION - 1) as usize, value as f64);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut digits = [b'0'; 9];
    for (slot, d) in digits
        .iter_mut()
        .zip(mantissa.bytes().filter(u8::is_ascii_digit))
    {
        *slot = d;
    }
    (digits, significant_len(&digits), exp)
}

/// The nine decimal digits of `n` (in `[1e8, 1e9)`), how many remain without trailing zeros,
/// and the decimal exponent of the first.
fn trimmed_digits(mut n: u32, exp: i32) -> ([u8; 9], usize, i32) {
    let mut digits = [b'0'; 9];
    for slot in digits.iter_mut().rev() {
        *slot = b'0' + (n % 10) as u8;
        n /= 10;
    }
    (digits, significant_len(&digits), exp)
}

/// Digits without trailing zeros (at least one).
fn significant_len(digits: &[u8]) -> usize {
    digits.iter().rposition(|&d| d != b'0').map_or(1, |i| i + 1)
}

/// `%g`'s choice between the fixed and the scientific form, for significant `digits` whose
/// first has decimal exponent `exp`.
fn write_layout(out: &mut impl Text, digits: &[u8], exp: i32) {
    if !(-4..PRECISION).contains(&exp) {
        out.byte(digits[0]);
        if digits.len() > 1 {
            out.byte(b'.');
            digits[1..].iter().for_each(|&d| out.byte(d));
        }
        out.byte(b'e');
        out.byte(if exp < 0 { b'-' } else { b'+' });
        let e = exp.unsigned_abs();
        if e < 100 {
            out.byte(b'0');
        }
        if e < 10 {
            out.byte(b'0');
        }
        super::push_number(out, e);
    } else if exp < 0 {
        out.text("0.");
        for _ in 0..(-exp - 1) {
            out.byte(b'0');
        }
        digits.iter().for_each(|&d| out.byte(d));
    } else {
        let int_len = exp as usize + 1;
        for i in 0..int_len {
            out.byte(*digits.get(i).unwrap_or(&b'0'));
        }
        if digits.len() > int_len {
            out.byte(b'.');
            digits[int_len..].iter().for_each(|&d| out.byte(d));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(v: f32) -> String {
        let mut s = String::new();
        write_float(&mut s, v);
        s
    }

    /// The reference: `%.9g` built from Rust's exact formatting of both forms.
    fn reference(v: f32) -> String {
        let sci = format!("{:.8e}", v as f64);
        let (m, e) = sci.split_once('e').unwrap();
        let e: i32 = e.parse().unwrap();
        let trim = |s: &str| -> String {
            if s.contains('.') {
                s.trim_end_matches('0').trim_end_matches('.').to_string()
            } else {
                s.to_string()
            }
        };
        if !(-4..9).contains(&e) {
            format!(
                "{}e{}{:03}",
                trim(m),
                if e < 0 { '-' } else { '+' },
                e.abs()
            )
        } else {
            trim(&format!("{:.*}", (8 - e).max(0) as usize, v as f64))
        }
    }

    #[test]
    fn matches_msvc_printf_g9() {
        let cases: &[(f32, &str)] = &[
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (255.0, "255"),
            (0.5, "0.5"),
            (0.159_154_94, "0.159154937"),
            (0.000_1, "9.99999975e-005"),
            (0.003_906_25, "0.00390625"),
            (1.164, "1.16400003"),
            (-0.062_745_1, "-0.0627451017"),
            (1e10, "1e+010"),
            (123_456_790.0, "123456792"),
            (f32::INFINITY, "1.#INF"),
        ];
        for (v, want) in cases {
            assert_eq!(f(*v), *want, "{v:e}");
        }
    }

    #[test]
    fn digit_placement_matches_both_printf_forms() {
        for bits in (0u32..0x7F80_0000).step_by(0x0001_0001) {
            let v = f32::from_bits(bits);
            assert_eq!(f(v), reference(v), "{v:e}");
        }
    }

    #[test]
    fn fast_rounding_agrees_with_exact_formatting() {
        let mut checked = 0;
        for bits in (0x3800_0000u32..0x4E80_0000).step_by(0x0000_0101) {
            let v = f32::from_bits(bits);
            if let Some(fast) = nine_digits_exact_fast(v) {
                let (digits, len, exp) = nine_digits_via_fmt(v);
                assert_eq!(fast, (digits, len, exp), "{v:e}");
                checked += 1;
            }
        }
        assert!(checked > 1_000_000, "{checked}");
    }

    #[test]
    fn nine_digits_identify_every_float() {
        for bits in (0u32..0x7F80_0000).step_by(0x0010_0001) {
            let v = f32::from_bits(bits);
            let text = f(v).replace("e-0", "e-").replace("e+0", "e+");
            assert_eq!(text.parse::<f32>().unwrap().to_bits(), bits, "{text}");
        }
    }
}
