//! Floats as Microsoft's listings print them: C `printf("%.9g")` from the MSVC runtime that
//! fxc and D3DX were built with, which writes at least three exponent digits
//! (`9.99999975e-005`) and spells the special values `1.#INF`, `-1.#INF` and `1.#QNAN`.
//!
//! Nine significant digits identify every `f32`, so [`parse_float`](crate::parse) of the text
//! gives back the same bits (NaN payloads aside).

use std::fmt::Write;

/// Appends `value` formatted as `%.9g` with MSVC's exponent width.
pub fn write_float(out: &mut String, value: f32) {
    if value.is_nan() {
        out.push_str(if value.is_sign_negative() {
            "-1.#IND"
        } else {
            "1.#QNAN"
        });
        return;
    }
    if value.is_infinite() {
        out.push_str(if value < 0.0 { "-1.#INF" } else { "1.#INF" });
        return;
    }
    if value == 0.0 {
        out.push_str(if value.is_sign_negative() { "-0" } else { "0" });
        return;
    }
    const PRECISION: i32 = 9;
    // `{:.8e}` rounds to nine significant digits exactly as `%g` does; its exponent decides
    // between the fixed and the scientific form.
    let sci = format!("{:.*e}", (PRECISION - 1) as usize, value as f64);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..PRECISION).contains(&exp) {
        out.push_str(trim_zeros(mantissa));
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let _ = write!(out, "{:03}", exp.unsigned_abs());
    } else {
        let decimals = (PRECISION - 1 - exp).max(0) as usize;
        let fixed = format!("{:.*}", decimals, value as f64);
        out.push_str(trim_zeros(&fixed));
    }
}

/// Strips trailing zeros after a decimal point, and the point when nothing follows it.
fn trim_zeros(s: &str) -> &str {
    if !s.contains('.') {
        return s;
    }
    let s = s.trim_end_matches('0');
    s.strip_suffix('.').unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(v: f32) -> String {
        let mut s = String::new();
        write_float(&mut s, v);
        s
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
    fn nine_digits_identify_every_float() {
        for bits in (0u32..0x7F80_0000).step_by(0x0010_0001) {
            let v = f32::from_bits(bits);
            let text = f(v).replace("e-0", "e-").replace("e+0", "e+");
            assert_eq!(text.parse::<f32>().unwrap().to_bits(), bits, "{text}");
        }
    }
}
