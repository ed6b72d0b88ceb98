//! The command-line cases under `tests/cmd/`: each `.trycmd` file holds command lines with
//! their blessed output and exit status (`TRYCMD=overwrite cargo test -p dxso-cli --test cmd`
//! blesses a changed output after review). Paths in the cases are relative to the crate.

#[test]
fn cli_cases() {
    trycmd::TestCases::new()
        .register_bin("dxso", std::path::Path::new(env!("CARGO_BIN_EXE_dxso")))
        .env("NO_COLOR", "1")
        .case("tests/cmd/*.trycmd");
}
