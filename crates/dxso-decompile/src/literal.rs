//! Float literals as HLSL reads them back bit for bit.

/// A float literal HLSL reads back as the same value.
pub(crate) fn literal(v: f32) -> String {
    if v.is_nan() {
        return "(0.0 / 0.0)".into();
    }
    if v.is_infinite() {
        return if v > 0.0 {
            "(1.0 / 0.0)"
        } else {
            "(-1.0 / 0.0)"
        }
        .into();
    }
    let s = format!("{v:?}");
    if v.is_sign_negative() {
        format!("({s})")
    } else {
        s
    }
}
