//! What compiled code runs against: the context it is handed, the functions it calls, and the
//! call itself.
//!
//! Generated code reads and writes only through the pointers of [`Context`], at offsets the
//! code generator derived from the plan and [`super::analysis`] checked against it; the
//! runtime checks here that the buffers it passes have the sizes the code was compiled for.
//! Transcendental functions and sampling go through `extern "C"` trampolines over lane arrays
//! that call exactly the functions the interpreter calls, so every engine gives the same bits.

use crate::exec::Run;
use crate::math;
use crate::sampler::{sample_lanes, Lod};
use std::ffi::c_void;
use std::mem::offset_of;

/// The context of one call of compiled code: one batch.
#[repr(C)]
pub(super) struct Context {
    /// The register file: `slots` rows of `width` floats.
    pub rows: *mut f32,
    /// The run's uniform values, one per uniform row.
    pub uniforms: *const f32,
    /// The float constant image (`float_constants + 1` registers of 4 floats).
    pub floats: *const f32,
    /// `i#`: 16 registers of 4 integers.
    pub ints: *const i32,
    /// `b#`: 16 bytes, 0 or 1.
    pub bools: *const u8,
    /// Per stage the plan projects with (in `Analysis::stages` order): the coordinate
    /// component to divide by, or -1.
    pub divisors: *const i32,
    /// The run, for the sampling trampoline.
    pub run: *const c_void,
    /// Real invocations in the batch (the rest are padding).
    pub lanes: u64,
    /// Out: the lanes `texkill` discarded.
    pub killed: u64,
}

/// Byte offsets of the context's fields, for the code generator.
pub(super) mod field {
    use super::*;
    pub const ROWS: i32 = offset_of!(Context, rows) as i32;
    pub const UNIFORMS: i32 = offset_of!(Context, uniforms) as i32;
    pub const FLOATS: i32 = offset_of!(Context, floats) as i32;
    pub const INTS: i32 = offset_of!(Context, ints) as i32;
    pub const BOOLS: i32 = offset_of!(Context, bools) as i32;
    pub const DIVISORS: i32 = offset_of!(Context, divisors) as i32;
    pub const RUN: i32 = offset_of!(Context, run) as i32;
    pub const LANES: i32 = offset_of!(Context, lanes) as i32;
    pub const KILLED: i32 = offset_of!(Context, killed) as i32;
}

/// What compiled code returns.
pub(super) mod status {
    /// The batch ran to its end.
    pub const DONE: u32 = 0;
    /// Some invocation went over the budget.
    pub const BUDGET: u32 = 1;
    /// Control reached a place the analysis says it cannot (the batch is re-run on the
    /// interpreter).
    pub const UNREACHABLE: u32 = 2;
}

/// The signature of compiled code.
pub(super) type Entry = unsafe extern "C" fn(*mut Context) -> u32;

/// A trampoline over lane arrays: `out[i] = f(a[i], b[i])` for `i < n`.
pub(super) type LaneFn = unsafe extern "C" fn(*const f32, *const f32, *mut f32, usize);

macro_rules! lane_fn {
    ($name:ident, |$x:ident, $y:ident| $e:expr) => {
        /// A lane-array trampoline (see [`LaneFn`]).
        ///
        /// # Safety
        /// `a`, `b` and `out` point to `n` floats each; `out` does not overlap `a` or `b`.
        pub(super) unsafe extern "C" fn $name(a: *const f32, b: *const f32, out: *mut f32, n: usize) {
            // SAFETY: the caller (generated code) passes three distinct stack arrays of `n`
            // floats.
            let (a, b, out) = unsafe {
                (
                    std::slice::from_raw_parts(a, n),
                    std::slice::from_raw_parts(b, n),
                    std::slice::from_raw_parts_mut(out, n),
                )
            };
            for ((o, &$x), &$y) in out.iter_mut().zip(a).zip(b) {
                let _ = $y;
                *o = $e;
            }
        }
    };
}

lane_fn!(exp, |x, _y| math::exp(x));
lane_fn!(log, |x, _y| math::log(x));
lane_fn!(exp_floor, |x, _y| x.floor().exp2());
lane_fn!(sin, |x, _y| f32::sin(x));
lane_fn!(cos, |x, _y| f32::cos(x));
lane_fn!(pow, |x, y| math::pow(x, y));

/// `lit` over lanes: `src` holds x, y, w (`n` floats each), `out` the four results.
///
/// # Safety
/// `src` points to `3 n` floats, `out` to `4 n` floats, not overlapping.
pub(super) unsafe extern "C" fn lit(src: *const f32, out: *mut f32, n: usize) {
    // SAFETY: generated code passes two distinct stack arrays of these sizes.
    let (src, out) = unsafe {
        (
            std::slice::from_raw_parts(src, 3 * n),
            std::slice::from_raw_parts_mut(out, 4 * n),
        )
    };
    for l in 0..n {
        let v = math::lit(src[l], src[n + l], src[2 * n + l]);
        for (c, x) in v.into_iter().enumerate() {
            out[c * n + l] = x;
        }
    }
}

/// The signature of [`lit`].
pub(super) type LitFn = unsafe extern "C" fn(*const f32, *mut f32, usize);

/// How a sample's level of detail is given (the `kind` argument of [`sample`]).
pub(super) mod lod_kind {
    pub const IMPLICIT: u32 = 0;
    pub const BIAS: u32 = 1;
    pub const EXPLICIT: u32 = 2;
    pub const GRADIENTS: u32 = 3;
}

/// Sampling over one chunk of lanes through the interpreter's [`sample_lanes`]. `buf` holds,
/// `n` floats each: the coordinates x, y, z, six LOD rows (bias or LOD in the first; d/dx
/// then d/dy for gradients), then the four channels (lanes outside `mask` keep what they hold).
///
/// # Safety
/// `run` is the [`Run`] of the batch; `buf` points to `13 n` floats.
pub(super) unsafe extern "C" fn sample(
    run: *const c_void,
    sampler: u32,
    kind: u32,
    mask: u64,
    buf: *mut f32,
    n: usize,
) {
    // SAFETY: generated code passes the context's run pointer, which `call` set from a live
    // `&Run`, and a stack array of `13 n` floats.
    let (run, buf) = unsafe {
        (
            &*(run as *const Run<'_>),
            std::slice::from_raw_parts_mut(buf, 13 * n),
        )
    };
    let (inputs, out) = buf.split_at_mut(9 * n);
    let row = |i: usize| &inputs[i * n..(i + 1) * n];
    let coords = [row(0), row(1), row(2)];
    let lod = match kind {
        lod_kind::BIAS => Lod::Implicit(Some(row(3))),
        lod_kind::EXPLICIT => Lod::Explicit(row(3)),
        lod_kind::GRADIENTS => Lod::Gradients([row(3), row(4), row(5)], [row(6), row(7), row(8)]),
        _ => Lod::Implicit(None),
    };
    let binding = run.sampler(sampler as u8);
    let texture = binding.and_then(|b| b.texture.as_deref());
    let state = binding.map_or(&run.default_state, |b| &b.state);
    let (o0, rest) = out.split_at_mut(n);
    let (o1, rest) = rest.split_at_mut(n);
    let (o2, o3) = rest.split_at_mut(n);
    sample_lanes(texture, state, coords, lod, mask, [o0, o1, o2, o3]);
}

/// The signature of [`sample`].
pub(super) type SampleFn = unsafe extern "C" fn(*const c_void, u32, u32, u64, *mut f32, usize);

/// The buffers of one batch and the code to run on them.
pub(super) struct Call<'a> {
    /// The register file (`rows.len()` at least `slots * width`).
    pub rows: &'a mut [f32],
    /// The run.
    pub run: &'a Run<'a>,
    /// Projection divisors per stage of the analysis.
    pub divisors: &'a [i32],
    /// Real lanes.
    pub lanes: usize,
}

/// The sizes compiled code was generated for.
pub(super) struct Bounds {
    /// Rows of the register file.
    pub slots: usize,
    /// Lanes per row.
    pub width: usize,
    /// Float constant registers (the image has one more, the zero register).
    pub float_constants: usize,
    /// Uniform rows.
    pub uniforms: usize,
    /// Projected stages.
    pub stages: usize,
}

/// Runs compiled code on one batch; returns its status and the discard mask.
///
/// # Safety
/// `entry` was compiled for `bounds` and is still mapped (its module is alive).
pub(super) unsafe fn call(entry: Entry, call: Call<'_>, bounds: &Bounds) -> (u32, u64) {
    let run = call.run;
    assert!(
        call.rows.len() >= bounds.slots * bounds.width,
        "register file too small"
    );
    assert!(
        run.floats.len() > bounds.float_constants,
        "constant image too small"
    );
    assert!(run.uniforms.len() >= bounds.uniforms, "uniforms missing");
    assert!(call.divisors.len() >= bounds.stages, "divisors missing");
    assert!(call.lanes <= bounds.width, "more lanes than the batch");
    let mut ctx = Context {
        rows: call.rows.as_mut_ptr(),
        uniforms: run.uniforms.as_ptr(),
        floats: run.floats.as_ptr() as *const f32,
        ints: run.ints.as_ptr() as *const i32,
        bools: run.bools.as_ptr() as *const u8,
        divisors: call.divisors.as_ptr(),
        run: run as *const Run<'_> as *const c_void,
        lanes: call.lanes as u64,
        killed: 0,
    };
    // SAFETY: every pointer of `ctx` points into a live buffer of at least the size the code
    // was compiled for (asserted above); the code reads and writes nothing else but its own
    // stack and the trampolines' arguments.
    let status = unsafe { entry(&mut ctx) };
    (status, ctx.killed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trampolines_call_the_interpreters_functions() {
        let a = [0.5f32, -2.0, 0.0, f32::NAN];
        let b = [2.0f32, 3.0, 0.0, 1.0];
        let mut out = [0f32; 4];
        // SAFETY: four floats each, distinct arrays.
        unsafe { pow(a.as_ptr(), b.as_ptr(), out.as_mut_ptr(), 4) };
        for l in 0..4 {
            assert_eq!(out[l].to_bits(), math::pow(a[l], b[l]).to_bits());
        }
        // SAFETY: as above.
        unsafe { log(a.as_ptr(), a.as_ptr(), out.as_mut_ptr(), 4) };
        assert_eq!(out[2], f32::NEG_INFINITY);
        let src = [0.5f32, -1.0, 2.0, 0.5, 3.0, 3.0];
        let mut lits = [0f32; 8];
        // SAFETY: 3 * 2 and 4 * 2 floats.
        unsafe { lit(src.as_ptr(), lits.as_mut_ptr(), 2) };
        assert_eq!(
            [lits[0], lits[2], lits[4], lits[6]],
            math::lit(0.5, 2.0, 3.0)
        );
    }
}
