//! Workloads for dxso's benchmarks: shaders with hand-written Rust equivalents that compute the
//! same bits, so the interpreter and the JIT are measured against the practical limit.
//!
//! The `dxso-bench` program (`cargo run --release -p dxso-bench -- <what>`, or `dxso bench
//! <what>` when it is installed beside `dxso`) measures every stage against a baseline in the
//! same run.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod workloads;
