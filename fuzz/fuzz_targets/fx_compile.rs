//! The `fx_compile` target: its logic and the property it checks are in `dxso_fuzz::fx_compile`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dxso_fuzz::fx_compile::run(data));
