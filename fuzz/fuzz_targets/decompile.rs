//! The `decompile` target: its logic and the property it checks are in `dxso_fuzz::decompile`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dxso_fuzz::decompile::run(data));
