//! Prints what the JIT generates for a shader: Cranelift's IR, then the machine code.
//! `jit_listing FILE.asm|FILE.dxso [scalar]` (needs the `jit` feature);
//! `jit_listing FILE compile [N]` compiles N times (default 1) and prints each compile's time
//! instead (for profiling a compile, e.g. under callgrind).

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
    if args.get(2).is_some_and(|a| a == "compile") {
        let n: usize = args.get(3).map_or(Ok(1), |a| a.parse())?;
        for _ in 0..n {
            let c = jit::compile(&plan, Mode::native());
            println!("{:?} ({} bytes)", c.compile_time(), c.code_size());
        }
        return Ok(());
    }
    let mode = if args.get(2).is_some_and(|a| a == "scalar") {
        Mode::Scalar
    } else {
        Mode::native()
    };
    print!("{}", jit::listing(&plan, mode)?);
    Ok(())
}
