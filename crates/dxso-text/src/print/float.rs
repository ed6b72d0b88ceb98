//! Floats as Microsoft's listings print them: C `printf("%.9g")` from the MSVC runtime that
//! fxc and D3DX were built with, which writes at least three exponent digits
//! (`9.99999975e-005`) and spells the special values `1.#INF`, `-1.#INF` and `1.#QNAN`.
//!
//! That runtime rounds in two steps: the value becomes 17 significant decimal digits (rounded
//! to nearest; further digits print as zeros), and those are cut to the nine `%.9g` keeps with
//! a 5 in the tenth digit rounding the magnitude up. So an exact tie rounds away from zero
//! (`-0.0001220703125` prints `-0.000122070313`), unlike the IEEE rule of Rust's formatting
//! and of Windows' own C runtime since Windows 10 version 2004 (Microsoft's printf
//! documentation: earlier, "exactly representable floating point numbers ending in '5' would
//! always round up").
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

/// How far from one half the fraction past the ninth digit must be for the 17-digit step to
/// leave the rounding alone: the step moves the value by at most half a unit of the 17th digit,
/// 5e-9 of the ninth digit's unit; the rest is margin.
const NEAR_HALF: f64 = 1e-8;

/// The nine-digit rounding of a positive `value` in `[1e-4, 1e9)` (the fixed-notation range
/// that most constants fall in) without formatting machinery: scaled by an exact power of ten
/// to nine integer digits, the value is exact, so its fraction is too. Fractions near one half
/// (where the 17-digit step decides) and roundings that carry into a tenth digit are left to
/// [`nine_digits_via_fmt`].
fn nine_digits_exact_fast(value: f32) -> Option<([u8; 9], usize, i32)> {
    let value = value as f64;
    if !(1e-4..1e9).contains(&value) {
        return None;
    }
    let k = EXACT_POWERS_OF_TEN.iter().position(|p| value * p >= 1e8)?;
    let scaled = value * EXACT_POWERS_OF_TEN[k];
    let floor = scaled.floor();
    let fraction = scaled - floor;
    if (fraction - 0.5).abs() < NEAR_HALF {
        return None;
    }
    let rounded = floor as u32 + (fraction > 0.5) as u32;
    if rounded >= 1_000_000_000 {
        return None;
    }
    Some(trimmed_digits(rounded, 8 - k as i32))
}

/// Significant digits of the MSVC runtime's first rounding step.
const CRT_DIGITS: usize = 17;

/// The nine-digit rounding the MSVC runtime makes: `{:.16e}` gives the 17 significant digits
/// (rounded to nearest at any magnitude), then a tenth digit of 5 or more rounds the magnitude
/// up.
fn nine_digits_via_fmt(value: f32) -> ([u8; 9], usize, i32) {
    use std::fmt::Write;
    let mut sci = String::with_capacity(32);
    let _ = write!(sci, "{:.*e}", CRT_DIGITS - 1, value as f64);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let mut exp: i32 = exp.parse().unwrap_or(0);
    let mut all = [b'0'; CRT_DIGITS];
    for (slot, d) in all
        .iter_mut()
        .zip(mantissa.bytes().filter(u8::is_ascii_digit))
    {
        *slot = d;
    }
    let mut digits = [b'0'; 9];
    digits.copy_from_slice(&all[..9]);
    if all[9] >= b'5' {
        // Carry through the nines; nine nines become 1 at the next power of ten.
        match digits.iter().rposition(|&d| d != b'9') {
            Some(i) => {
                digits[i] += 1;
                digits[i + 1..].fill(b'0');
            }
            None => {
                digits = [b'0'; 9];
                digits[0] = b'1';
                exp += 1;
            }
        }
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

    /// The reference, built from the exact decimal expansion (Rust prints every digit of an
    /// `f64` given the precision): round to 17 significant digits, nearest with ties to even,
    /// then to nine with a tenth digit of 5 or more rounding up, then `%g`'s layout.
    fn reference(v: f32) -> String {
        let exact = format!("{:.200e}", v as f64);
        let (m, e) = exact.split_once('e').unwrap();
        let mut exp: i32 = e.parse().unwrap();
        let digits: Vec<u8> = m
            .bytes()
            .filter(u8::is_ascii_digit)
            .map(|d| d - b'0')
            .collect();
        // Step one: 17 digits.
        let mut d17: Vec<u32> = digits[..17].iter().map(|&d| d as u32).collect();
        let rest = &digits[17..];
        let above = rest[0] > 5 || (rest[0] == 5 && rest[1..].iter().any(|&d| d != 0));
        let tie = rest[0] == 5 && !above;
        if above || (tie && d17[16] % 2 == 1) {
            let mut i = 16;
            loop {
                if d17[i] == 9 {
                    d17[i] = 0;
                    if i == 0 {
                        d17.insert(0, 1);
                        d17.pop();
                        exp += 1;
                        break;
                    }
                    i -= 1;
                } else {
                    d17[i] += 1;
                    break;
                }
            }
        }
        // Step two: nine digits, half up.
        let mut n: u64 = d17[..9].iter().fold(0, |a, &d| a * 10 + d as u64);
        if d17[9] >= 5 {
            n += 1;
        }
        if n == 1_000_000_000 {
            n = 100_000_000;
            exp += 1;
        }
        let s9 = n.to_string();
        let sig = s9.trim_end_matches('0');
        let sig = if sig.is_empty() { "0" } else { sig };
        if !(-4..9).contains(&exp) {
            let mant = if sig.len() > 1 {
                format!("{}.{}", &sig[..1], &sig[1..])
            } else {
                sig.to_string()
            };
            format!("{mant}e{}{:03}", if exp < 0 { '-' } else { '+' }, exp.abs())
        } else if exp < 0 {
            format!("0.{}{sig}", "0".repeat((-exp - 1) as usize))
        } else {
            let int_len = exp as usize + 1;
            if sig.len() <= int_len {
                format!("{sig}{}", "0".repeat(int_len - sig.len()))
            } else {
                format!("{}.{}", &sig[..int_len], &sig[int_len..])
            }
        }
    }

    #[test]
    // The tie cases are written as their exact values, which have more digits than `f32`
    // shows, so that the test states the tie it checks.
    #[allow(clippy::excessive_precision)]
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
            // Exact ties at the ninth digit round away from zero.
            (-0.000_122_070_312_5, "-0.000122070313"),
            (0.000_122_070_312_5, "0.000122070313"),
            (6.103_515_625e-5, "6.10351563e-005"),
            (-3.051_757_812_5e-5, "-3.05175781e-005"),
        ];
        for (v, want) in cases {
            assert_eq!(f(*v), *want, "{v:e}");
        }
    }

    #[test]
    fn rounding_and_layout_match_the_reference() {
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
