//! Compiles an HLSL file with dxso-hlsl and prints the listing (a development aid).
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("read");
    let profile: dxso_hlsl::Profile = args[2].parse().expect("profile");
    match dxso_hlsl::compile(
        &dxso_hlsl::Source::new(&args[1], text),
        &dxso_hlsl::Options::new("main", profile),
    ) {
        Ok(c) => print!("{}", dxso_text::print(&c.shader)),
        Err(e) => println!("{e}"),
    }
}
