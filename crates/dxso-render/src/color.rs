//! Colour values: saturation to 0..1 and `D3DCOLOR` unpacking, shared by the fixed-function
//! states, the output merger and the targets.

/// Saturates, NaN to 0.
pub fn saturate(v: f32) -> f32 {
    if v.is_nan() {
        0.0
    } else {
        v.clamp(0.0, 1.0)
    }
}

/// D3DCOLOR (ARGB bytes) as RGBA in 0..1.
pub fn d3dcolor(c: u32) -> [f32; 4] {
    let byte = |shift: u32| ((c >> shift) & 0xFF) as f32 / 255.0;
    [byte(16), byte(8), byte(0), byte(24)]
}
