//! The `dp2` target: its logic and the property it checks are in `dxso_fuzz::dp2`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dxso_fuzz::dp2::run(data));
