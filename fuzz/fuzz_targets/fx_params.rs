//! The `fx_params` target: its logic and the property it checks are in `dxso_fuzz::fx_params`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dxso_fuzz::fx_params::run(data));
