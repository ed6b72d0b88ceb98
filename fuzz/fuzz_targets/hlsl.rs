//! The `hlsl` target: its logic and the property it checks are in `dxso_fuzz::hlsl`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dxso_fuzz::hlsl::run(data));
