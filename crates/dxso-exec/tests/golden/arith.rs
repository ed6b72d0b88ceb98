//! Arithmetic: every component-wise, scalar, dot-product and macro instruction, with the
//! float rules of `docs/SEMANTICS.md` 5.

use super::harness::Case;
use dxso_exec::Options;

const INF: f32 = f32::INFINITY;
const NAN: f32 = f32::NAN;

/// `vs_2_0` reading `v0`, `v1`, `v2`, writing `r0` to `oPos`: `body` computes `r0`.
fn vs2(body: &str) -> String {
    format!(
        "vs_2_0\ndcl_position v0\ndcl_normal v1\ndcl_texcoord v2\nmov r0, c20\n{body}\nmov oPos, r0\n"
    )
}

fn vs3(body: &str) -> String {
    format!(
        "vs_3_0\ndcl_position v0\ndcl_normal v1\ndcl_texcoord v2\ndcl_position o0\nmov r0, c20\n{body}\nmov o0, r0\n"
    )
}

pub fn cases() -> Vec<Case> {
    let v0 = [1.0, 2.0, 3.0, 4.0];
    let v1 = [0.5, -1.0, 2.0, -3.0];
    let c = |name: &str, body: &str| Case::vs(name, &vs2(body)).input("v0", v0).input("v1", v1);
    vec![
        c("mov copies", "mov r0, v0").expect("oPos", v0),
        c("mov swizzle wzyx", "mov r0, v0.wzyx").expect("oPos", [4.0, 3.0, 2.0, 1.0]),
        c("mov replicate .y", "mov r0, v0.y").expect("oPos", [2.0; 4]),
        c("mov write mask keeps others", "mov r0.xz, v0").float(20, [9.0; 4]).expect("oPos", [1.0, 9.0, 3.0, 9.0]),
        c("negate modifier", "mov r0, -v1").expect("oPos", [-0.5, 1.0, -2.0, 3.0]),
        c("add", "add r0, v0, v1").expect("oPos", [1.5, 1.0, 5.0, 1.0]),
        c("sub", "sub r0, v0, v1").expect("oPos", [0.5, 3.0, 1.0, 7.0]),
        c("mul", "mul r0, v0, v1").expect("oPos", [0.5, -2.0, 6.0, -12.0]),
        c("mad", "mad r0, v0, v1, v0").expect("oPos", [1.5, 0.0, 9.0, -8.0]),
        // (1 + 2^-12)^2 rounds to 1 + 2^-11 before the add: unfused gives 0, fused 2^-24.
        Case::vs("mad is not fused", &vs2("mad r0, c0, c0, c1"))
            .float(0, [1.0 + 1.0 / 4096.0; 4])
            .float(1, [-(1.0 + 1.0 / 2048.0); 4])
            .expect("oPos", [0.0; 4]),
        c("lrp s0*(s1-s2)+s2", "lrp r0, c0, v0, v1")
            .float(0, [0.5, 0.0, 1.0, 0.25])
            .expect("oPos", [0.75, -1.0, 3.0, -1.25]),
        c("min", "min r0, v0, v1").expect("oPos", [0.5, -1.0, 2.0, -3.0]),
        c("max", "max r0, v0, v1").expect("oPos", [1.0, 2.0, 3.0, 4.0]),
        Case::vs("min with NaN: min(NaN, b) = b, min(a, NaN) = NaN", &vs2("min r0, c0, c1"))
            .float(0, [NAN, 1.0, NAN, -0.0])
            .float(1, [2.0, NAN, NAN, 0.0])
            .expect("oPos", [2.0, NAN, NAN, 0.0]),
        Case::vs("max with NaN: max(NaN, b) = b, max(a, NaN) = NaN; max(-0, 0) = -0", &vs2("max r0, c0, c1"))
            .float(0, [NAN, 1.0, 3.0, -0.0])
            .float(1, [2.0, NAN, 4.0, 0.0])
            .expect("oPos", [2.0, NAN, 4.0, -0.0]),
        c("slt", "slt r0, v1, v0").float(0, [0.0; 4]).expect("oPos", [1.0, 1.0, 1.0, 1.0]),
        Case::vs("slt and sge with NaN and equality", &vs2("slt r0.xy, c0, c1\nsge r0.zw, c0, c1"))
            .float(0, [NAN, 1.0, NAN, 1.0])
            .float(1, [1.0, 1.0, 1.0, 1.0])
            .expect("oPos", [0.0, 0.0, 0.0, 1.0]),
        c("sge", "sge r0, v1, v0").expect("oPos", [0.0; 4]),
        c("abs", "abs r0, v1").expect("oPos", [0.5, 1.0, 2.0, 3.0]),
        Case::vs("frc", &vs2("frc r0, c0"))
            .float(0, [1.5, -0.25, 3.0, -2.0])
            .expect("oPos", [0.5, 0.75, 0.0, 0.0]),
        Case::vs("frc of a tiny negative is 1", &vs2("frc r0, c0"))
            .float(0, [-1e-9; 4])
            .expect("oPos", [1.0; 4]),
        Case::vs("sgn (2_x form ignores its scratch temps)", "vs_2_x\ndcl_position v0\nmov r1, c0\nmov r2, c1\nmov r3, c1\nsgn r0, r1, r2, r3\nmov oPos, r0\n")
            .float(0, [-2.0, 0.0, 5.0, -0.0])
            .float(1, [7.0; 4])
            .expect("oPos", [-1.0, 0.0, 1.0, 0.0]),
        Case::vs("sgn (3_0 form) of NaN is 0", &vs3("sgn r0, c0"))
            .float(0, [NAN, -3.0, 0.0, 1e-30])
            .expect("o0", [0.0, -1.0, 0.0, 1.0]),
        c("dp3", "dp3 r0, v0, v1").expect("oPos", [4.5; 4]),
        c("dp4", "dp4 r0, v0, v1").expect("oPos", [-7.5; 4]),
        c("dp3 to one component", "dp3 r0.y, v0, v1").float(20, [9.0; 4]).expect("oPos", [9.0, 4.5, 9.0, 9.0]),
        Case::vs("rcp", &vs2("rcp r0.x, c0.x\nrcp r0.y, c0.y\nrcp r0.z, c0.z\nrcp r0.w, c0.w"))
            .float(0, [4.0, 0.0, -0.0, -0.5])
            .expect("oPos", [0.25, INF, -INF, -2.0]),
        Case::vs("rcp replicates", &vs2("rcp r0, c0.y")).float(0, [0.0, 8.0, 0.0, 0.0]).expect("oPos", [0.125; 4]),
        Case::vs("rsq uses |x|, rsq(0) = +inf", &vs2("rsq r0.x, c0.x\nrsq r0.y, c0.y\nrsq r0.z, c0.z\nrsq r0.w, c0.w"))
            .float(0, [4.0, -16.0, 0.0, -0.0])
            .expect("oPos", [0.5, 0.25, INF, INF]),
        Case::vs("exp", &vs2("exp r0, c0.x")).float(0, [3.0, 0.0, 0.0, 0.0]).expect("oPos", [8.0; 4]),
        Case::vs("exp of -1", &vs2("exp r0, c0.w")).float(0, [0.0, 0.0, 0.0, -1.0]).expect("oPos", [0.5; 4]),
        Case::vs("log uses |x|", &vs2("log r0.x, c0.x\nlog r0.y, c0.y\nlog r0.zw, c0.z")).float(0, [8.0, -0.25, 0.0, 0.0])
            .expect("oPos", [3.0, -2.0, -INF, -INF]),
        Case::vs("logp is log", &vs2("logp r0, c0.x")).float(0, [-32.0, 0.0, 0.0, 0.0]).expect("oPos", [5.0; 4]),
        Case::vs("expp (vs_2_0) is exp, replicated", &vs2("expp r0, c0.x")).float(0, [-2.0, 0.0, 0.0, 0.0]).expect("oPos", [0.25; 4]),
        Case::vs("pow(|a|, b)", &vs2("pow r0.x, c0.x, c0.y\npow r0.y, c0.z, c0.w\npow r0.zw, c1.x, c1.y"))
            .float(0, [-2.0, 3.0, 4.0, 0.5])
            .float(1, [0.0, 0.0, 0.0, 0.0])
            .expect("oPos", [8.0, 2.0, 1.0, 1.0]),
        Case::vs("pow(0, -1) = inf", &vs2("pow r0, c0.x, c0.y")).float(0, [0.0, -1.0, 0.0, 0.0]).expect("oPos", [INF; 4]),
        Case::vs("lit: both positive", &vs2("lit r0, c0")).float(0, [0.5, 2.0, 0.0, 3.0]).expect("oPos", [1.0, 0.5, 8.0, 1.0]),
        Case::vs("lit: x <= 0 gives y = z = 0", &vs2("lit r0, c0")).float(0, [-0.5, 2.0, 0.0, 3.0]).expect("oPos", [1.0, 0.0, 0.0, 1.0]),
        Case::vs("lit: y = 0 gives z = 0 (no pow(0, 0))", &vs2("lit r0, c0")).float(0, [0.25, 0.0, 0.0, 0.0]).expect("oPos", [1.0, 0.25, 0.0, 1.0]),
        Case::vs("lit: power clamped to 127.9961", &vs2("lit r0, c0")).float(0, [1.0, 0.5, 0.0, -500.0])
            .expect("oPos", [1.0, 1.0, 0.5f32.powf(-127.9961), 1.0]),
        Case::vs("dst", &vs2("dst r0, c0, c1")).float(0, [9.0, 2.0, 3.0, 9.0]).float(1, [9.0, 5.0, 9.0, 7.0])
            .expect("oPos", [1.0, 10.0, 3.0, 7.0]),
        Case::vs("crs", &vs2("crs r0.xyz, c0, c1")).float(0, [1.0, 0.0, 0.0, 5.0]).float(1, [0.0, 1.0, 0.0, 5.0]).float(20, [0.0, 0.0, 0.0, 9.0])
            .expect("oPos", [0.0, 0.0, 1.0, 9.0]),
        Case::vs("crs general", &vs2("crs r0.xyz, c0, c1")).float(0, [1.0, 2.0, 3.0, 0.0]).float(1, [4.0, 5.0, 6.0, 0.0])
            .expect("oPos", [-3.0, 6.0, -3.0, 0.0]),
        Case::vs("crs into its own source", &vs2("mov r1, c0\ncrs r1.xyz, r1, c1\nmov r0, r1")).float(0, [1.0, 2.0, 3.0, 7.0]).float(1, [4.0, 5.0, 6.0, 0.0])
            .expect("oPos", [-3.0, 6.0, -3.0, 7.0]),
        Case::vs("nrm", &vs2("nrm r0, c0")).float(0, [3.0, 4.0, 0.0, 2.0]).expect("oPos", [0.6, 0.8, 0.0, 0.4]),
        Case::vs("nrm of a zero vector is zero", &vs2("nrm r0, c0")).float(0, [0.0, 0.0, 0.0, 5.0]).expect("oPos", [0.0; 4]),
        Case::vs("sincos (2_0 form): x = cos, y = sin, z and w untouched",
            &vs2("def c1, -1.55009923e-006, -2.17013894e-005, 0.00260416674, 0.00026041668\ndef c2, -0.020833334, -0.125, 1, 0.5\nmov r0, c3\nsincos r0.xy, c0.x, c1, c2"))
            .float(0, [0.0; 4]).float(3, [5.0, 5.0, 6.0, 7.0])
            .expect("oPos", [1.0, 0.0, 6.0, 7.0]),
        Case::vs("sincos (3_0 form) writes only .y", &vs3("mov r0, c3\nsincos r0.y, c0.w"))
            .float(0, [0.0; 4]).float(3, [5.0, 5.0, 6.0, 7.0])
            .expect("o0", [5.0, 0.0, 6.0, 7.0]),
        c("m4x4", "m4x4 r0, v0, c0")
            .float(0, [1.0, 0.0, 0.0, 0.0]).float(1, [0.0, 2.0, 0.0, 0.0]).float(2, [0.0, 0.0, 3.0, 0.0]).float(3, [1.0, 1.0, 1.0, 1.0])
            .expect("oPos", [1.0, 4.0, 9.0, 10.0]),
        c("m4x3", "m4x3 r0.xyz, v0, c4")
            .float(4, [1.0, 1.0, 1.0, 1.0]).float(5, [0.0, 0.0, 0.0, 1.0]).float(6, [1.0, 0.0, 0.0, 0.0]).float(20, [0.0, 0.0, 0.0, 9.0])
            .expect("oPos", [10.0, 4.0, 1.0, 9.0]),
        c("m3x4", "m3x4 r0, v0, c4")
            .float(4, [1.0, 1.0, 1.0, 100.0]).float(5, [0.0, 0.0, 1.0, 0.0]).float(6, [0.0, 1.0, 0.0, 0.0]).float(7, [1.0, 0.0, 0.0, 0.0])
            .expect("oPos", [6.0, 3.0, 2.0, 1.0]),
        c("m3x3", "m3x3 r0.xyz, v0, c4")
            .float(4, [1.0, 0.0, 0.0, 100.0]).float(5, [0.0, 1.0, 0.0, 0.0]).float(6, [0.0, 0.0, 2.0, 0.0]).float(20, [0.0, 0.0, 0.0, 9.0])
            .expect("oPos", [1.0, 2.0, 6.0, 9.0]),
        c("m3x2", "m3x2 r0.xy, v0, c4")
            .float(4, [1.0, 1.0, 1.0, 100.0]).float(5, [0.0, 0.0, -1.0, 0.0]).float(20, [0.0, 0.0, 8.0, 9.0])
            .expect("oPos", [6.0, -3.0, 8.0, 9.0]),
        Case::vs("m4x4 with its rows in temporaries", &vs2("mov r1, c0\nmov r2, c1\nmov r3, c2\nmov r4, c3\nm4x4 r0, v0, r1"))
            .input("v0", v0)
            .float(0, [0.0, 1.0, 0.0, 0.0]).float(1, [1.0, 0.0, 0.0, 0.0]).float(2, [0.0, 0.0, 0.0, 1.0]).float(3, [0.0, 0.0, 1.0, 0.0])
            .expect("oPos", [2.0, 1.0, 4.0, 3.0]),
        Case::vs("abs modifier (SM3)", &vs3("add r0, c0_abs, -c1_abs")).float(0, [-1.0, 2.0, -3.0, 4.0]).float(1, [-1.0; 4])
            .expect("o0", [0.0, 1.0, 2.0, 3.0]),
        Case::vs("abs modifier on a temp (SM3)", &vs3("mov r1, c0\nmov r0, -r1_abs")).float(0, [-1.0, 2.0, -0.0, 4.0])
            .expect("o0", [-1.0, -2.0, -0.0, -4.0]),
        Case::vs("swizzle and modifier on one source", &vs2("mov r1, c0\nadd r0, -r1.yxwz, c1")).float(0, [1.0, 2.0, 3.0, 4.0]).float(1, [10.0; 4])
            .expect("oPos", [8.0, 9.0, 6.0, 7.0]),
        Case::vs("component-wise op reading its own destination", &vs2("mov r0, c0\nadd r0.xy, r0.yx, c1")).float(0, [1.0, 2.0, 3.0, 4.0]).float(1, [10.0; 4])
            .expect("oPos", [12.0, 11.0, 3.0, 4.0]),
        Case::vs("0*inf is NaN by default", &vs2("mul r0, c0, c1")).float(0, [0.0, 2.0, -0.0, 0.0]).float(1, [INF, 3.0, 5.0, NAN])
            .expect("oPos", [NAN, 6.0, -0.0, NAN]),
        Case::vs("zero_times_anything: 0*inf = 0 in mul, mad, dp3", &vs2("mul r0.x, c0.x, c1.x\nmad r0.y, c0.x, c1.y, c2.x\ndp3 r0.z, c0, c1\nmul r0.w, c0.z, c1.z"))
            .float(0, [0.0, 0.0, 2.0, 0.0]).float(1, [INF, NAN, 3.0, 0.0]).float(2, [1.0, 0.0, 0.0, 0.0])
            .options(Options { zero_times_anything: true, ..Options::default() })
            .expect("oPos", [0.0, 1.0, 6.0, 6.0]),
        Case::vs("zero_times_anything: nrm and lrp", &vs2("lrp r0.xy, c0.x, c1, c2\nnrm r1, c3\nmov r0.zw, r1.xy"))
            .float(0, [0.0, 0.0, 0.0, 0.0]).float(1, [INF, 1.0, 0.0, 0.0]).float(2, [2.0, 3.0, 0.0, 0.0]).float(3, [0.0; 4])
            .options(Options { zero_times_anything: true, ..Options::default() })
            .expect("oPos", [2.0, 3.0, 0.0, 0.0]),
        Case::vs("_sat clamps, NaN saturates to 0", "vs_3_0\ndcl_position o0\nmov_sat o0, c0\n").float(0, [1.5, -1.0, 0.25, NAN])
            .expect("o0", [1.0, 0.0, 0.25, 0.0]),
        Case::vs("dp4: inf + -inf is NaN", &vs2("dp4 r0, c0, c1")).float(0, [INF, 1.0, 0.0, 0.0]).float(1, [1.0, -INF, 0.0, 0.0])
            .expect("oPos", [NAN; 4]),
    ]
}
