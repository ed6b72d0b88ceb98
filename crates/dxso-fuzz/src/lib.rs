//! The logic of dxso's fuzz targets, one module per target, each with a `run` taking the
//! fuzzer's bytes. The `cargo fuzz` binaries under `fuzz/` are thin wrappers around these
//! functions, and this crate's smoke test runs every target over its seeds
//! (`fuzz/corpus/<target>/`) and the inputs that once failed (`fuzz/regressions/<target>/`) on
//! the stable toolchain, so that CI replays them without libFuzzer.
//!
//! Inputs are shaped so that any length is useful: bytecode is zero-padded to whole DWORDs,
//! and a part that must stay intact (a shader, an effect) is prefixed by its length and
//! followed by the bytes that drive the rest of the target (see [`input`]).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod asm;
pub mod dbug;
pub mod decode;
pub mod decompile;
pub mod dp2;
pub mod exec;
pub mod exec_inputs;
pub mod fx;
pub mod fx_compile;
pub mod fx_params;
pub mod hlsl;
pub mod input;
pub mod jit;
pub mod plan;
pub mod render;
pub mod smith;
pub mod translate;
pub mod validate;

/// A fuzz target: its name (its `fuzz/fuzz_targets/<name>.rs` binary, seed and regression
/// folders) and its logic.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// The name.
    pub name: &'static str,
    /// Runs the target on one input; panics on a finding.
    pub run: fn(&[u8]),
}

/// Every target.
pub const TARGETS: &[Target] = &[
    Target {
        name: "asm",
        run: asm::run,
    },
    Target {
        name: "dbug",
        run: dbug::run,
    },
    Target {
        name: "decode",
        run: decode::run,
    },
    Target {
        name: "decompile",
        run: decompile::run,
    },
    Target {
        name: "dp2",
        run: dp2::run,
    },
    Target {
        name: "exec",
        run: exec::run,
    },
    Target {
        name: "fx",
        run: fx::run,
    },
    Target {
        name: "fx_compile",
        run: fx_compile::run,
    },
    Target {
        name: "fx_params",
        run: fx_params::run,
    },
    Target {
        name: "hlsl",
        run: hlsl::run,
    },
    Target {
        name: "jit",
        run: jit::run,
    },
    Target {
        name: "plan",
        run: plan::run,
    },
    Target {
        name: "render",
        run: render::run,
    },
    Target {
        name: "smith",
        run: smith::run,
    },
    Target {
        name: "translate",
        run: translate::run,
    },
    Target {
        name: "validate",
        run: validate::run,
    },
];
