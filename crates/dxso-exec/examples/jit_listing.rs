//! Prints what the JIT generates for a shader: Cranelift's IR, then the machine code.
//! `jit_listing FILE.asm|FILE.dxso [scalar]` (needs the `jit` feature).

use dxso_exec::jit::{self, Mode};
use dxso_exec::{Options, PixelShader, VertexShader};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let path = args
        .get(1)
        .ok_or("usage: jit_listing FILE.asm|FILE.dxso [scalar]")?;
    let bytes = std::fs::read(path)?;
    let shader = if path.ends_with(".asm") {
        dxso_text::parse::parse(std::str::from_utf8(&bytes)?)?
    } else {
        dxso::decode(&bytes)?
    };
    let options = Options::default();
    let plan = if shader.version.is_vertex() {
        VertexShader::with_options(&shader, &options)?
            .plan()
            .clone()
    } else {
        PixelShader::with_options(&shader, &options)?.plan().clone()
    };
    let mode = if args.get(2).is_some_and(|a| a == "scalar") {
        Mode::Scalar
    } else {
        Mode::native()
    };
    print!("{}", jit::listing(&plan, mode)?);
    Ok(())
}
