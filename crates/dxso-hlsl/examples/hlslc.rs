//! Compiles one file and prints its listing: `cargo run -p dxso-hlsl --example hlslc FILE PROFILE [ENTRY]`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("readable source");
    let mut o = dxso_hlsl::Options::new(
        args.get(3).map_or("main", |s| s.as_str()),
        args[2].parse().expect("profile"),
    );
    o.includes = std::sync::Arc::new(dxso_hlsl::FileIncludes::default());
    match dxso_hlsl::compile(&dxso_hlsl::Source::new(&args[1], text), &o) {
        Ok(c) => print!("{}", dxso_text::print(&c.shader)),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
