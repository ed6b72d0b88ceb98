//! The `render` target: its logic and the property it checks are in `dxso_fuzz::render`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dxso_fuzz::render::run(data));
