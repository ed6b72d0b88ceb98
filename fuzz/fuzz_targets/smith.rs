//! The `smith` target: its logic and the property it checks are in `dxso_fuzz::smith`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dxso_fuzz::smith::run(data));
