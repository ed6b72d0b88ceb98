//! Decompiles a shader, compiles the HLSL back and compares the two: prints the HLSL and the
//! outcome (a development aid: `cargo run -p dxso-decompile --example roundtrip -- FILE.dxso`).

#[path = "../tests/support/mod.rs"]
mod support;

fn main() {
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).expect("read");
        let shader = dxso::decode(&bytes).expect("decode");
        match support::round_trip(&shader) {
            support::Outcome::Decompile(e) => println!("{path}: decompile: {e}"),
            support::Outcome::Compile(h, e) => println!("{h}\n{path}: compile: {e}"),
            support::Outcome::Equivalence(h, e) => println!("{h}\n{path}: equivalence: {e}"),
            support::Outcome::Equivalent(h) => println!("{h}\n{path}: equivalent"),
        }
    }
}
